//! The penalty contacts in the step: their forces and gradients added to the step's accumulators, the
//! joint-aware effective masses, and the low-rank (Woodbury) correction for the blocks outside the factorisation
//! (the method is in the parent module's documentation).

use nalgebra::{Matrix6, Vector3, Vector6};

use super::{PenaltyContact, PenaltyOptions, PointForce, point_inverse_mass, point_jacobian};
use crate::contact::dynamics::delassus::BlockSolves;
use crate::contact::dynamics::{ContactImpulse, ContactOther, ContactState};
use crate::dynamics::body::Body;
use crate::dynamics::system::SaddlePointSolver;

/// Buffers of the penalty path (sized once, reused every step).
#[derive(Debug, Default)]
pub(crate) struct PenaltyState {
    contacts: Vec<PenaltyContact>,
    forces: Vec<PointForce>,
    /// The coupled bodies (with blocks outside the factorisation: both sides of body–body contacts, or every
    /// contact body with the joint mass), and each world body's index among them.
    bodies: Vec<usize>,
    slot: Vec<usize>,
    /// The blocks `C` of `M̃` outside the factorisation, row-major `nb × nb` (with the free bodies' mass only the
    /// cross blocks; with the joint mass all).
    cross: Vec<Matrix6<f64>>,
    /// `W` blocks between the coupled bodies.
    w: Vec<Matrix6<f64>>,
    /// Force part `h(f − ∂f/∂v·v)` of the coupled bodies when the penalty terms bypass the block system.
    g: Vec<Vector6<f64>>,
    /// The step's options and size, kept for the joint-mass path (contacts built after the solve).
    options: PenaltyOptions,
    h: f64,
    /// This step builds its contacts from `W` ([`PenaltyOptions::joint_mass`]).
    joint: bool,
    /// The dense `(I + C W)` (6nb)², its pivots and right-hand side.
    lu: Vec<f64>,
    piv: Vec<usize>,
    y: Vec<f64>,
    rhs: Vec<Vector6<f64>>,
    /// The coupled bodies' `W` blocks (shared with the LCP's Delassus matrix).
    block_solves: BlockSolves,
    /// Velocities at the start of the step (for the impulses).
    before: Vec<Vector6<f64>>,
}

/// The step's accumulators the penalty forces are added to (like a drive's).
pub(crate) struct PenaltyTargets<'a> {
    pub wrench: &'a mut [Vector6<f64>],
    /// Per body `[∂f/∂p, ∂f/∂v]`.
    pub grad: &'a mut [[Matrix6<f64>; 2]],
}

/// The quantities of the step the cross-coupling correction reads and updates.
pub(crate) struct PenaltySolve<'a> {
    pub solver: &'a mut dyn SaddlePointSolver,
    /// Momentum right-hand side `a` of the step (without the blocks of `C` and their force part `g`).
    pub rhs_a: &'a [Vector6<f64>],
    /// Joint right-hand side `b`.
    pub b: &'a [f64],
    /// In: `v*` from the factorised `M̃` (without `C`); out: `v(t+h)`.
    pub x: &'a mut [Vector6<f64>],
    pub lambda: &'a mut [f64],
}

impl ContactState {
    /// Whether the next step's contacts are penalty contacts.
    pub(crate) fn penalty(&self) -> bool {
        matches!(
            self.options.solver,
            crate::contact::dynamics::ContactSolver::Penalty(_)
        )
    }

    /// Builds the step's penalty contacts and adds their wrenches and gradients to the step's accumulators:
    /// diagonal blocks directly (as drives do), cross blocks into the coupling correction. With the linearly
    /// implicit step the cross part `−∂f_a/∂v_b·v_b` of `f̃ = f − ∂f/∂v·v` is added to the wrench too. With
    /// [`PenaltyOptions::joint_mass`] the contacts need `W` first: they are only registered here and built in
    /// [`ContactState::penalty_couple`], all their blocks going through the correction.
    pub(crate) fn penalty_forces(
        &mut self,
        bodies: &[Body],
        h: f64,
        implicit: bool,
        t: PenaltyTargets<'_>,
    ) {
        let crate::contact::dynamics::ContactSolver::Penalty(options) = self.options.solver else {
            return;
        };
        let ps = &mut self.penalty;
        ps.options = options;
        ps.h = h;
        ps.joint = options.joint_mass && implicit;
        ps.contacts.clear();
        ps.forces.clear();
        ps.bodies.clear();
        ps.slot.clear();
        ps.slot.resize(bodies.len(), usize::MAX);
        ps.before.clear();
        ps.before.extend(bodies.iter().map(|b| b.velocity));
        for p in &self.points {
            let other = match p.other {
                ContactOther::Body(o) => Some(o),
                _ => None,
            };
            // Joint mass: every contact body; else only bodies with cross blocks.
            if ps.joint || other.is_some() {
                for b in std::iter::once(p.body).chain(other) {
                    if ps.slot[b] == usize::MAX {
                        ps.slot[b] = ps.bodies.len();
                        ps.bodies.push(b);
                    }
                }
            }
        }
        let nb = ps.bodies.len();
        ps.cross.clear();
        ps.cross.resize(nb * nb, Matrix6::zeros());
        ps.g.clear();
        ps.g.resize(nb, Vector6::zeros());
        if ps.joint {
            return;
        }
        for p in &self.points {
            // Free others are refused when the contacts are set.
            let Some(c) = PenaltyContact::new(p, bodies, h, &options) else {
                continue;
            };
            let pf = c.point_force(bodies);
            ps.contacts.push(c);
            ps.forces.push(pf);
            let e = c.wrench_eval(bodies, &pf);
            let a = c.body;
            t.wrench[a] += e.wrench[0];
            t.grad[a][0] += e.dp[0][0];
            t.grad[a][1] += e.dv[0][0];
            let Some(b) = c.other else { continue };
            t.wrench[b] += e.wrench[1];
            t.grad[b][0] += e.dp[1][1];
            t.grad[b][1] += e.dv[1][1];
            if implicit {
                t.wrench[a] -= e.dv[0][1] * bodies[b].velocity;
                t.wrench[b] -= e.dv[1][0] * bodies[a].velocity;
                let (sa, sb) = (ps.slot[a], ps.slot[b]);
                ps.cross[sa * nb + sb] -= e.dp[0][1] * (h * h) + e.dv[0][1] * h;
                ps.cross[sb * nb + sa] -= e.dp[1][0] * (h * h) + e.dv[1][0] * h;
            }
        }
        if !implicit {
            // The explicit integrator takes the forces only.
            ps.bodies.clear();
        }
    }

    /// Joint-mass path: the contacts with gains from `W`, all their blocks into `C`, their force part into `g`.
    fn penalty_joint_contacts(&mut self, bodies: &[Body]) {
        let ps = &mut self.penalty;
        let (h, nb) = (ps.h, ps.bodies.len());
        for p in &self.points {
            let a = &bodies[p.body];
            let ra = p.point - a.position;
            let ja = point_jacobian(&ra);
            let sa = ps.slot[p.body];
            let mut k_inv = ja * ps.w[sa * nb + sa] * ja.transpose();
            // A millionth of the free bodies' compliance keeps the mass finite on an immovable body.
            let mut k_free = point_inverse_mass(a, &ra);
            if let ContactOther::Body(o) = p.other {
                let b = &bodies[o];
                let rb = p.other_point - b.position;
                let jb = point_jacobian(&rb);
                let sb = ps.slot[o];
                k_inv += jb * ps.w[sb * nb + sb] * jb.transpose()
                    - ja * ps.w[sa * nb + sb] * jb.transpose()
                    - jb * ps.w[sb * nb + sa] * ja.transpose();
                k_free += point_inverse_mass(b, &rb);
            }
            k_inv += k_free * 1e-6;
            let Some(c) = PenaltyContact::with_inverse_mass(p, bodies, h, &ps.options, &k_inv)
            else {
                continue;
            };
            let pf = c.point_force(bodies);
            ps.contacts.push(c);
            ps.forces.push(pf);
            let e = c.wrench_eval(bodies, &pf);
            let sides = [Some(c.body), c.other];
            for (i, bi) in sides.iter().enumerate() {
                let Some(bi) = *bi else { continue };
                let si = ps.slot[bi];
                let mut g = e.wrench[i];
                for (j, bj) in sides.iter().enumerate() {
                    let Some(bj) = *bj else { continue };
                    let sj = ps.slot[bj];
                    ps.cross[si * nb + sj] -= e.dp[i][j] * (h * h) + e.dv[i][j] * h;
                    g -= e.dv[i][j] * bodies[bj].velocity;
                }
                ps.g[si] += g * h;
            }
        }
    }

    /// After the step's solve gave `v*` (from `M̃` with the penalty diagonal blocks, or without any penalty term
    /// on the joint-mass path): adds the remaining blocks `C` exactly through the coupled bodies' `W` (Woodbury,
    /// `(I + C W) y = C v* − g`, `v = solve(a − y)`), then records each contact's impulse `h·F(t+h)`
    /// (linearised, as the solve applied it).
    pub(crate) fn penalty_couple(&mut self, s: PenaltySolve<'_>, bodies: &[Body]) {
        let nb = self.penalty.bodies.len();
        if nb > 0 {
            let ps = &mut self.penalty;
            ps.block_solves
                .blocks(s.solver, bodies.len(), s.b.len(), &ps.bodies, &mut ps.w);
            if ps.joint {
                self.penalty_joint_contacts(bodies);
            }
            let ps = &mut self.penalty;
            // (I + C W) y = C v* − g, dense 6nb × 6nb, row-major.
            let dim = 6 * nb;
            ps.lu.clear();
            ps.lu.resize(dim * dim, 0.0);
            ps.y.clear();
            ps.y.resize(dim, 0.0);
            for i in 0..nb {
                for r in 0..6 {
                    ps.y[6 * i + r] = -ps.g[i][r];
                }
                for k in 0..nb {
                    let c = &ps.cross[i * nb + k];
                    if c.iter().all(|&v| v == 0.0) {
                        continue;
                    }
                    let cv = c * s.x[ps.bodies[k]];
                    for r in 0..6 {
                        ps.y[6 * i + r] += cv[r];
                    }
                    for j in 0..nb {
                        let cw = c * ps.w[k * nb + j];
                        for r in 0..6 {
                            for q in 0..6 {
                                ps.lu[(6 * i + r) * dim + 6 * j + q] += cw[(r, q)];
                            }
                        }
                    }
                }
            }
            for d in 0..dim {
                ps.lu[d * dim + d] += 1.0;
            }
            if solve_dense(&mut ps.lu, &mut ps.piv, &mut ps.y, dim) {
                ps.rhs.clear();
                ps.rhs.extend_from_slice(s.rhs_a);
                for (i, &b) in ps.bodies.iter().enumerate() {
                    for r in 0..6 {
                        ps.rhs[b][r] -= ps.y[6 * i + r];
                    }
                }
                s.solver.solve(&ps.rhs, s.b, s.x, s.lambda);
            }
            // A singular (I + C W) (never seen) leaves v* (without the correction's terms).
        }
        let ps = &self.penalty;
        let h = ps.h;
        self.impulses.clear();
        for (c, pf) in ps.contacts.iter().zip(&ps.forces) {
            let step = |k: usize, b: usize| -> Vector3<f64> {
                pf.dp[k] * (s.x[b] * h) + pf.dv[k] * (s.x[b] - ps.before[b])
            };
            let mut f = pf.force;
            if pf.force != Vector3::zeros() {
                f += step(0, c.body);
                if let Some(o) = c.other {
                    f += step(1, o);
                }
            }
            let impulse = f * h;
            let normal = c.normal.dot(&impulse);
            self.impulses.push(ContactImpulse {
                normal,
                friction: impulse - c.normal * normal,
                impulse,
            });
        }
    }
}

/// Solves `A y = y` in place (row-major `dim × dim`, partial pivoting); false when `A` is singular.
fn solve_dense(a: &mut [f64], piv: &mut Vec<usize>, y: &mut [f64], dim: usize) -> bool {
    piv.clear();
    piv.extend(0..dim);
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for col in 0..dim {
        let (p, best) = (col..dim)
            .map(|r| (r, a[r * dim + col].abs()))
            .fold((col, -1.0), |m, v| if v.1 > m.1 { v } else { m });
        // NaN entries count as singular too.
        if best.is_nan() || best <= 1e-14 * scale {
            return false;
        }
        if p != col {
            for q in 0..dim {
                a.swap(p * dim + q, col * dim + q);
            }
            y.swap(p, col);
        }
        let d = a[col * dim + col];
        for r in col + 1..dim {
            let f = a[r * dim + col] / d;
            if f == 0.0 {
                continue;
            }
            for q in col..dim {
                a[r * dim + q] -= f * a[col * dim + q];
            }
            y[r] -= f * y[col];
        }
    }
    for col in (0..dim).rev() {
        let mut v = y[col];
        for q in col + 1..dim {
            v -= a[col * dim + q] * y[q];
        }
        y[col] = v / a[col * dim + col];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    #[test]
    fn dense_solve_matches_nalgebra() {
        let dim = 7;
        let m = DMatrix::from_fn(dim, dim, |i, j| {
            ((i * 7 + j * 3) % 11) as f64 - 5.0 + if i == j { 0.5 } else { 0.0 }
        });
        let b = DVector::from_fn(dim, |i, _| i as f64 - 2.0);
        let expected = m.clone().lu().solve(&b).unwrap();
        let mut a: Vec<f64> = (0..dim * dim).map(|k| m[(k / dim, k % dim)]).collect();
        let mut y: Vec<f64> = b.iter().copied().collect();
        let mut piv = Vec::new();
        assert!(solve_dense(&mut a, &mut piv, &mut y, dim));
        for i in 0..dim {
            assert!((y[i] - expected[i]).abs() < 1e-10 * expected.amax().max(1.0));
        }
        let mut singular = vec![1.0; 4];
        let mut y = vec![1.0, 2.0];
        assert!(!solve_dense(&mut singular, &mut piv, &mut y, 2));
    }
}
