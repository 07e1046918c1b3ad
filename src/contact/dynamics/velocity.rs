//! The velocity-level contact LCP of the step (Cline eqs. 2.49/2.55 with the implicit M̃, reduced to a pure LCP
//! through the joint factorisation; Newton restitution eq. 4.16).

use nalgebra::{DVector, Vector3, Vector6};

use super::rows::{relative_velocity, tangents};
use super::{ContactOther, ContactReport, ContactSolver, ContactState};
use crate::contact::lcp::{
    LcpReport, LcpSolver, RowBound,
    pyramid::{Mirrored, pyramid_from_formed_into},
    zeroed_vector,
};
use crate::dynamics::body::Body;
use crate::dynamics::system::SaddlePointSolver;

/// The step's quantities the contact solve reads and updates.
pub(crate) struct StepSolve<'a> {
    pub solver: &'a mut dyn SaddlePointSolver,
    pub bodies: &'a [Body],
    /// Joint right-hand side `b`.
    pub b: &'a [f64],
    /// In: the free velocity `v*`; out: `v(t+h)`.
    pub x: &'a mut [Vector6<f64>],
    /// In: the joint impulses of `v*`'s solve; out: those of `v(t+h)`.
    pub lambda: &'a mut [f64],
    pub h: f64,
}

/// Friction rows of the boxed (PGS) model per contact.
const BOXED_DIRECTIONS: usize = 2;

impl ContactState {
    /// Solves the contact LCP after the joint solve gave `v*` in `s.x`, and adds the response to the contact
    /// impulses.
    /// Every buffer is the state's (taken out here and put back), so a warm step allocates nothing.
    pub(crate) fn solve_velocity(&mut self, s: StepSolve<'_>) -> ContactReport {
        let nc = self.points.len();
        self.compute_w(s.solver, s.bodies.len(), s.b.len());
        // Normal rows and their right-hand side: the free relative normal velocity, restitution against the
        // approach speed before the step, and the gap the step may close.
        let mut qn = std::mem::take(&mut self.qn);
        zeroed_vector(&mut qn, nc);
        let mut slides = std::mem::take(&mut self.slides);
        slides.clear();
        self.rows.clear();
        self.before.clear();
        self.before.extend(s.bodies.iter().map(|b| b.velocity));
        for k in 0..nc {
            let p = self.points[k];
            let row = self.row(k, &p.normal, s.bodies, true);
            qn[k] = self.row_velocity(&row, s.x);
            if let ContactOther::Moving { velocity } = p.other {
                qn[k] -= p.normal.dot(&velocity);
            }
            let approach = p
                .normal
                .dot(&relative_velocity(&p, s.bodies, &self.before, &self.free));
            if approach < -self.options.restitution_threshold {
                qn[k] += p.restitution * approach;
            }
            // The step may close the gap down to the position skin, where post-stabilization leaves a pushed
            // contact: closing the skin too would drop a resting contact back in, to be pushed out again, a hop of
            // `skin/h` every step.
            qn[k] += (p.separation() - self.options.position_skin).max(0.0) / s.h;
            slides.push(relative_velocity(&p, s.bodies, s.x, &self.free));
            self.rows.push(row);
        }
        let mut report = ContactReport {
            contacts: nc,
            ..ContactReport::default()
        };
        let mut z = std::mem::take(&mut self.z);
        let solved = match self.options.solver {
            ContactSolver::Lemke => match self.solve_pyramid(&qn, &slides, s.bodies, s.x, &mut z) {
                Ok(r) => {
                    report.pivots = r.pivots;
                    report.residual = r.residual;
                    true
                }
                Err(()) => {
                    report.fell_back = true;
                    false
                }
            },
            // Penalty contacts never reach the LCP (the world steps them through `penalty.rs`).
            ContactSolver::Pgs { .. } | ContactSolver::Penalty(_) => false,
        };
        if !solved {
            let r = self.solve_boxed(&qn, &slides, s.bodies, s.x, &mut z);
            report.sweeps = r.iterations;
            report.residual = r.residual;
        }
        report.lcp_size = z.len();
        self.record_impulses(&z);
        // v(t+h) = v* + the response to the contact impulses alone (`b = 0`): only the legs that carry them move
        // in that solve (`BlockSolves::add_response`), and without impulses there is nothing to add.
        let mut a = std::mem::take(&mut self.wrench);
        a.clear();
        a.resize(s.bodies.len(), Vector6::zeros());
        let impulses = self.rows.len().min(z.len());
        let pushed = z.as_slice()[..impulses].iter().any(|&l| l != 0.0);
        self.apply(&z.as_slice()[..impulses], &mut a);
        if pushed {
            self.block_solves
                .add_response(s.solver, &a, &self.bodies, s.x, s.lambda);
        }
        self.wrench = a;
        self.z = z;
        self.qn = qn;
        self.slides = slides;
        report
    }

    /// The friction directions of contact `k` for a pyramid of `m` (or the boxed pair when `m` = 2). The pyramid's
    /// second half is the first one negated, exactly: its rows are the first half's rows negated, so their
    /// Delassus entries are the first half's with the sign flipped, bit for bit (`fill_pyramid_delassus`).
    fn push_directions(&mut self, k: usize, m: usize, slide: &Vector3<f64>, bodies: &[Body]) {
        let n = self.points[k].normal;
        let (t1, t2) = tangents(&n, slide);
        if m == BOXED_DIRECTIONS {
            for d in [t1, t2] {
                let row = self.row(k, &d, bodies, true);
                self.rows.push(row);
                self.directions.push(d);
            }
            return;
        }
        let half = m / 2;
        if self.direction_angles.len() != half {
            self.direction_angles.clear();
            self.direction_angles.extend((0..half).map(|i| {
                let a = std::f64::consts::TAU * i as f64 / m as f64;
                (a.cos(), a.sin())
            }));
        }
        for i in 0..half {
            let (c, s) = self.direction_angles[i];
            let d = t1 * c + t2 * s;
            let row = self.row(k, &d, bodies, true);
            self.rows.push(row);
            self.directions.push(d);
        }
        let first = self.rows.len() - half;
        for i in 0..half {
            let row = -self.rows[first + i];
            let d = -self.directions[k * m + i];
            self.rows.push(row);
            self.directions.push(d);
        }
    }

    /// Adds `m` friction rows per contact after the normal rows; their free velocities go into `self.qd`.
    fn friction_rows(
        &mut self,
        m: usize,
        slides: &[Vector3<f64>],
        bodies: &[Body],
        v: &[Vector6<f64>],
    ) {
        let nc = self.points.len();
        self.rows.truncate(nc);
        self.directions.clear();
        for (k, slide) in slides.iter().enumerate() {
            self.push_directions(k, m, slide, bodies);
        }
        let mut qd = std::mem::take(&mut self.qd);
        zeroed_vector(&mut qd, nc * m);
        for (qi, r) in qd.iter_mut().zip(&self.rows[nc..]) {
            *qi = self.row_velocity(r, v);
        }
        // A moving surface's velocity, along each direction of its contact's rows.
        for (k, p) in self.points.iter().enumerate() {
            if let ContactOther::Moving { velocity } = p.other {
                for i in k * m..(k + 1) * m {
                    qd[i] -= self.directions[i].dot(&velocity);
                }
            }
        }
        self.qd = qd;
    }

    /// Lemke on the Anitescu–Potra pyramid into `z`; `Err` when Lemke fails (the caller falls back to PGS).
    fn solve_pyramid(
        &mut self,
        qn: &DVector<f64>,
        slides: &[Vector3<f64>],
        bodies: &[Body],
        v: &[Vector6<f64>],
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, ()> {
        let m = self.options.friction_directions;
        self.friction_rows(m, slides, bodies, v);
        self.mu.clear();
        self.mu.extend(self.points.iter().map(|p| p.friction));
        // Independent parts (a prescribed root's two feet) are smaller LCPs of their own (`split.rs`).
        if self.label_parts(self.points.len()) > 1 {
            return self.solve_pyramid_parts(qn, m, z);
        }
        self.fill_pyramid_delassus(None, None, self.points.len(), m);
        pyramid_from_formed_into(
            Mirrored {
                formed: &self.delassus_half,
                mirror: &self.delassus_mirror,
            },
            &self.mu,
            m,
            qn,
            &self.qd,
            &mut self.lcp_m,
            &mut self.lcp_q,
        )
        .map_err(|_| ())?;
        // A cold z: Lemke's warm start tries the last basis, not an active set.
        zeroed_vector(z, self.lcp_q.len());
        self.lemke
            .solve(&self.lcp_m, &self.lcp_q, z)
            .map_err(|_| ())
    }

    /// PGS on normals plus two tangents per contact boxed by ±μλ_n, into `z`.
    fn solve_boxed(
        &mut self,
        qn: &DVector<f64>,
        slides: &[Vector3<f64>],
        bodies: &[Body],
        v: &[Vector6<f64>],
        z: &mut DVector<f64>,
    ) -> LcpReport {
        let nc = self.points.len();
        self.friction_rows(BOXED_DIRECTIONS, slides, bodies, v);
        let q = &mut self.lcp_q;
        zeroed_vector(q, nc * 3);
        let qs = q.as_mut_slice();
        qs[..nc].copy_from_slice(qn.as_slice());
        qs[nc..nc + nc * BOXED_DIRECTIONS].copy_from_slice(self.qd.as_slice());
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
        zeroed_vector(z, nc * 3);
        self.warm_start_boxed(z);
        self.fill_delassus();
        match self.pgs.solve(&self.delassus, &self.lcp_q, z) {
            Ok(r) => r,
            // Only invalid options end here, and they were validated: no contact impulse is the safe answer.
            Err(_) => {
                zeroed_vector(z, nc * 3);
                LcpReport::default()
            }
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
