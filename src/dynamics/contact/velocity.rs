//! The velocity-level contact LCP of the step (Cline eqs. 2.49/2.55 with the implicit M̃, reduced to a pure LCP
//! through the joint factorisation; Newton restitution eq. 4.16).

use nalgebra::{DVector, Vector3, Vector6};

use super::rows::{relative_velocity, tangents};
use super::{ContactReport, ContactSolver, ContactState};
use crate::contact::lcp::{LcpReport, LcpSolver, RowBound, pyramid::pyramid_from_delassus};
use crate::dynamics::body::Body;
use crate::dynamics::system::SaddlePointSolver;

/// The step's quantities the contact solve reads and updates.
pub(crate) struct StepSolve<'a> {
    pub solver: &'a mut dyn SaddlePointSolver,
    pub bodies: &'a [Body],
    /// Momentum right-hand side `a = M v + h f̃` of the step.
    pub rhs_a: &'a [Vector6<f64>],
    /// Joint right-hand side `b`.
    pub b: &'a [f64],
    /// In: the free velocity `v*`; out: `v(t+h)`.
    pub x: &'a mut [Vector6<f64>],
    /// Joint impulses of the final solve.
    pub lambda: &'a mut [f64],
    pub h: f64,
}

/// Friction rows of the boxed (PGS) model per contact.
const BOXED_DIRECTIONS: usize = 2;

impl ContactState {
    /// Solves the contact LCP after the joint solve gave `v*` in `s.x`, and re-solves with the contact impulses.
    pub(crate) fn solve_velocity(&mut self, s: StepSolve<'_>) -> ContactReport {
        let nc = self.points.len();
        self.compute_w(s.solver, s.bodies.len(), s.b.len());
        // Normal rows and their right-hand side: the free relative normal velocity, restitution against the
        // approach speed before the step, and the gap the step may close.
        let mut qn = DVector::zeros(nc);
        let mut slides = Vec::with_capacity(nc);
        self.rows.clear();
        let before: Vec<Vector6<f64>> = s.bodies.iter().map(|b| b.velocity).collect();
        for k in 0..nc {
            let p = self.points[k];
            let row = self.row(k, &p.normal, s.bodies, true);
            qn[k] = self.row_velocity(&row, s.x);
            let approach = p
                .normal
                .dot(&relative_velocity(&p, s.bodies, &before, &self.free));
            if approach < -self.options.restitution_threshold {
                qn[k] += p.restitution * approach;
            }
            qn[k] += p.separation().max(0.0) / s.h;
            slides.push(relative_velocity(&p, s.bodies, s.x, &self.free));
            self.rows.push(row);
        }
        let mut report = ContactReport {
            contacts: nc,
            ..ContactReport::default()
        };
        let z = match self.options.solver {
            ContactSolver::Lemke => match self.solve_pyramid(&qn, &slides, s.bodies, s.x) {
                Ok((z, r)) => {
                    report.pivots = r.pivots;
                    report.residual = r.residual;
                    Some(z)
                }
                Err(()) => {
                    report.fell_back = true;
                    None
                }
            },
            // Penalty contacts never reach the LCP (the world steps them through `penalty.rs`).
            ContactSolver::Pgs { .. } | ContactSolver::Penalty(_) => None,
        };
        let z = z.unwrap_or_else(|| {
            let (z, r) = self.solve_boxed(&qn, &slides, s.bodies, s.x);
            report.sweeps = r.iterations;
            report.residual = r.residual;
            z
        });
        report.lcp_size = z.len();
        self.record_impulses(&z);
        // v(t+h): one more solve with the contact impulses in the momentum.
        let mut a = s.rhs_a.to_vec();
        let lambda: Vec<f64> = z.iter().take(self.rows.len()).copied().collect();
        self.apply(&lambda, &mut a);
        s.solver.solve(&a, s.b, s.x, s.lambda);
        report
    }

    /// The friction directions of contact `k` for a pyramid of `m` (or the boxed pair when `m` = 2).
    fn push_directions(&mut self, k: usize, m: usize, slide: &Vector3<f64>, bodies: &[Body]) {
        let n = self.points[k].normal;
        let (t1, t2) = tangents(&n, slide);
        for i in 0..m {
            let d = if m == BOXED_DIRECTIONS {
                [t1, t2][i]
            } else {
                let a = std::f64::consts::TAU * i as f64 / m as f64;
                t1 * a.cos() + t2 * a.sin()
            };
            let row = self.row(k, &d, bodies, true);
            self.rows.push(row);
            self.directions.push(d);
        }
    }

    /// Adds `m` friction rows per contact after the normal rows; returns their free velocities.
    fn friction_rows(
        &mut self,
        m: usize,
        slides: &[Vector3<f64>],
        bodies: &[Body],
        v: &[Vector6<f64>],
    ) -> DVector<f64> {
        let nc = self.points.len();
        self.rows.truncate(nc);
        self.directions.clear();
        for (k, slide) in slides.iter().enumerate() {
            self.push_directions(k, m, slide, bodies);
        }
        DVector::from_iterator(
            nc * m,
            self.rows[nc..].iter().map(|r| self.row_velocity(r, v)),
        )
    }

    /// Lemke on the Anitescu–Potra pyramid; `Err` when Lemke fails (the caller falls back to PGS).
    fn solve_pyramid(
        &mut self,
        qn: &DVector<f64>,
        slides: &[Vector3<f64>],
        bodies: &[Body],
        v: &[Vector6<f64>],
    ) -> Result<(DVector<f64>, LcpReport), ()> {
        let m = self.options.friction_directions;
        let qd = self.friction_rows(m, slides, bodies, v);
        let mu: Vec<f64> = self.points.iter().map(|p| p.friction).collect();
        let (mat, q) = pyramid_from_delassus(&self.delassus(), &mu, m, qn, &qd).map_err(|_| ())?;
        let mut z = DVector::zeros(q.len());
        let report = self.lemke.solve(&mat, &q, &mut z).map_err(|_| ())?;
        Ok((z, report))
    }

    /// PGS on normals plus two tangents per contact boxed by ±μλ_n.
    fn solve_boxed(
        &mut self,
        qn: &DVector<f64>,
        slides: &[Vector3<f64>],
        bodies: &[Body],
        v: &[Vector6<f64>],
    ) -> (DVector<f64>, LcpReport) {
        let nc = self.points.len();
        let qd = self.friction_rows(BOXED_DIRECTIONS, slides, bodies, v);
        let q = DVector::from_iterator(nc * 3, qn.iter().chain(qd.iter()).copied());
        let (max_iterations, tolerance) = match self.options.solver {
            ContactSolver::Pgs {
                max_sweeps,
                tolerance,
            } => (max_sweeps, tolerance),
            ContactSolver::Lemke | ContactSolver::Penalty(_) => (500, 1e-10),
        };
        // The solver and its bounds persist between steps (no allocation once sized).
        let o = &mut self.pgs.options;
        o.max_iterations = max_iterations;
        o.tolerance = tolerance;
        o.warm_start = true;
        o.bounds.clear();
        o.bounds.resize(nc, RowBound::NonNegative);
        for k in 0..nc {
            let mu = self.points[k].friction;
            o.bounds
                .extend([RowBound::Friction { normal: k, mu }; BOXED_DIRECTIONS]);
        }
        let mut z = DVector::zeros(q.len());
        self.warm_start_boxed(&mut z);
        match self.pgs.solve(&self.delassus(), &q, &mut z) {
            Ok(r) => (z, r),
            // Only invalid options end here, and they were validated: no contact impulse is the safe answer.
            Err(_) => (DVector::zeros(q.len()), LcpReport::default()),
        }
    }

    /// Starts the boxed LCP from the previous step's impulses: a contact that is the same body's `k`-th contact in
    /// both steps starts with its last normal impulse and its last friction impulse (a world vector) projected on
    /// this step's two tangents. Contacts are re-detected every step, so the index is the only link between
    /// steps; a caller that keeps its contact order (as collision detection over fixed shapes does) gets a PGS
    /// that starts near the answer and needs a few sweeps instead of tens. Others start from zero.
    fn warm_start_boxed(&self, z: &mut DVector<f64>) {
        let nc = self.points.len();
        for (k, p) in self.points.iter().enumerate() {
            let (Some(last), Some(&body)) = (self.impulses.get(k), self.impulse_bodies.get(k))
            else {
                break;
            };
            if body != p.body {
                continue;
            }
            z[k] = last.normal.max(0.0);
            for i in 0..BOXED_DIRECTIONS {
                let row = nc + k * BOXED_DIRECTIONS + i;
                z[row] = last
                    .friction
                    .dot(&self.directions[k * BOXED_DIRECTIONS + i]);
            }
        }
    }

    /// The per-contact impulses of the solution `z` (normals, then the friction rows of each contact).
    fn record_impulses(&mut self, z: &DVector<f64>) {
        let nc = self.points.len();
        let m = self.directions.len() / nc.max(1);
        self.impulses.clear();
        self.impulse_bodies.clear();
        for k in 0..nc {
            self.impulse_bodies.push(self.points[k].body);
            let normal = z[k];
            let friction = (0..m)
                .map(|i| self.directions[k * m + i] * z[nc + k * m + i])
                .sum::<Vector3<f64>>();
            self.impulses.push(super::ContactImpulse {
                normal,
                friction,
                impulse: self.points[k].normal * normal + friction,
            });
        }
    }
}
