//! The exact-size front elimination (a body with `R` joint rows factored as fixed-size blocks) and the
//! contact-space block sweeps of the tree solver, split from `tree_solver.rs` by concept.

use nalgebra::{Matrix6, SMatrix, SVector, Vector6};

use super::exact::Layout;
use super::*;

impl TreeSolver {
    /// Factors the exact-size front at `pos` (a non-root body without world rows, `R` joint rows) and adds its
    /// update to the parent's pivot.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn factor_exact<const R: usize>(
        &mut self,
        sys: &BlockSystem,
        pos: usize,
    ) -> Result<(), SolveError> {
        let plan = &self.plans[pos];
        let refs = &self.coupling_refs[plan.couplings.0..plan.couplings.1];
        // Several couplings on one joint are summed; the usual single one is used in place. The sums and the
        // 3×3 corners are only filled where used (zeroing them for every front was a memset per block).
        let (mut sum_cp, mut sum_pc);
        let (cp3, pc3);
        let coupling = if refs.is_empty() {
            exact::Coupling::None
        } else {
            let (cp, pc) = if let [r] = refs {
                let c = &sys.couplings[r.idx];
                if r.child_is_i {
                    (&c.a_ij, &c.a_ji)
                } else {
                    (&c.a_ji, &c.a_ij)
                }
            } else {
                (sum_cp, sum_pc) = (Matrix6::zeros(), Matrix6::zeros());
                for r in refs {
                    let c = &sys.couplings[r.idx];
                    if r.child_is_i {
                        sum_cp += c.a_ij;
                        sum_pc += c.a_ji;
                    } else {
                        sum_cp += c.a_ji;
                        sum_pc += c.a_ij;
                    }
                }
                (&sum_cp, &sum_pc)
            };
            if exact::angular_only(cp) && exact::angular_only(pc) {
                (cp3, pc3) = (
                    exact::block::<6, 6, 3, 3>(cp, 0, 0),
                    exact::block::<6, 6, 3, 3>(pc, 0, 0),
                );
                exact::Coupling::Angular(&cp3, &pc3)
            } else {
                exact::Coupling::Full(cp, pc)
            }
        };
        let (layout, axes) = self.layout_of(sys, pos, coupling.kind());
        let need = layout.room(R);
        if need > self.plans[pos].room {
            self.grow_front(pos, need);
        }
        let plan = &self.plans[pos];
        let pool = &mut self.pool[plan.pool0..plan.pool0 + plan.room];
        // Parents come after their children, so the front's pivot and its parent's are in different halves.
        let pp = plan.parent.expect("an exact front has a parent");
        let (below, above) = self.acc.split_at_mut(pp);
        let (acc, parent) = (&below[pos], &mut above[0]);
        let factored = match axes {
            Some((a, b)) => {
                // A ball front's coupling is none or angular (`layout_of`).
                let corners = match coupling {
                    exact::Coupling::Angular(cp, pc) => Some((cp, pc)),
                    _ => None,
                };
                ball::factor(pool, acc, parent, &a, &b, corners, PIVOT_TOL)
            }
            None => {
                let (jc, jp) = joint_rows::<R>(&self.members[plan.joint.0..plan.joint.1], sys);
                exact::factor::<R>(pool, acc, parent, &jc, &jp, coupling, PIVOT_TOL)
            }
        };
        factored.map_err(|s| {
            singular(
                plan,
                match s {
                    exact::Singular::Body => BODY,
                    exact::Singular::Joint => JOINT,
                },
            )
        })?;
        self.layouts[pos] = layout;
        Ok(())
    }

    /// The axes `(a, b)` of the front at `pos` when its joint is one ball joint, recognised on the constraint's
    /// own blocks: rows `[[a]×, I]` on the body and `[[b]×, −I]` on the parent, exactly (`Anchors::evaluate`).
    #[inline(always)]
    fn ball_axes(&self, sys: &BlockSystem, pos: usize) -> Option<ball::Axes> {
        let plan = &self.plans[pos];
        let [m] = &self.members[plan.joint.0..plan.joint.1] else {
            return None;
        };
        if m.rows != 3 {
            return None;
        }
        let c = &sys.constraints[m.con];
        let (on_c, on_p) = if m.child_is_a {
            (&c.ja, &c.jb)
        } else {
            (&c.jb, &c.ja)
        };
        Some((ball::axis(on_c, 1.0)?, ball::axis(on_p, -1.0)?))
    }

    /// The pool room of the body at `pos` when it has an exact front (a non-root body without world rows): its
    /// layout's for the values of `sys`, as [`Self::factor_exact`] would choose it; `None` for a padded front.
    pub(super) fn analysed_room(&self, sys: &BlockSystem, pos: usize) -> Option<usize> {
        let plan = &self.plans[pos];
        if plan.parent.is_none() || plan.world_rows > 0 {
            return None;
        }
        let kind = exact::kind_of(sys, &self.coupling_refs[plan.couplings.0..plan.couplings.1]);
        Some(self.layout_of(sys, pos, kind).0.room(plan.joint_rows))
    }

    /// The layout of the exact front at `pos` with a coupling of kind `kind`, and the ball joint's axes when it is
    /// a ball front. A full coupling reaches the body's linear rows, which the ball elimination takes as free of
    /// it, so such a front takes the general layout.
    #[inline(always)]
    fn layout_of(
        &self,
        sys: &BlockSystem,
        pos: usize,
        kind: exact::Kind,
    ) -> (Layout, Option<ball::Axes>) {
        let axes = match kind {
            exact::Kind::Full => None,
            _ => self.ball_axes(sys, pos),
        };
        let layout = match axes {
            Some(_) => Layout::Ball {
                coupled: kind == exact::Kind::Angular,
            },
            None => Layout::General(kind),
        };
        (layout, axes)
    }

    /// Gives the exact front at `pos` a pool slice of `need` entries: it was analysed with a smaller one (a
    /// coupling that was zero outside its angular corner then and is not now, or a ball joint's rows that are no
    /// longer one). Allocates, once per front: the room stays. The fronts after it move up in the pool; their
    /// factors are stale until `factor` reaches them, which it does next, while the fronts before it keep theirs.
    fn grow_front(&mut self, pos: usize, need: usize) {
        let room = self.plans[pos].room;
        let end = self.plans[pos].pool0 + room;
        let extra = need - room;
        self.plans[pos].room = need;
        for plan in &mut self.plans[pos + 1..] {
            if plan.exact > 0 {
                plan.pool0 += extra;
            }
        }
        self.pool.splice(end..end, std::iter::repeat_n(0.0, extra));
    }

    /// Forward substitution of the exact-size front at `pos`; its `z` goes to its own slots of the outputs (the
    /// body's `x`, the joint rows of `λ`) until [`Self::backward_exact`] replaces it by the solution.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn forward_exact<const R: usize>(
        &mut self,
        pos: usize,
        b: &[f64],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let plan = &self.plans[pos];
        let members = &self.members[plan.joint.0..plan.joint.1];
        let y1 = gather_rows::<R>(members, b);
        let layout = self.layouts[pos];
        let (z0, z1, yp) =
            exact::forward::<R, 1>(&self.pool[plan.pool0..], layout, &self.yb[pos], &y1);
        x[plan.body] = z0;
        scatter_rows(members, &z1, lambda);
        if let Some(pp) = plan.parent {
            self.yb[pp] += yp;
        }
    }

    /// Back substitution of the exact-size front at `pos` (its parent is already solved, its `z` is in `x` and
    /// `λ`).
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn backward_exact<const R: usize>(
        &mut self,
        pos: usize,
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let plan = &self.plans[pos];
        let members = &self.members[plan.joint.0..plan.joint.1];
        let xp = plan
            .parent
            .map_or(Vector6::zeros(), |pp| x[self.plans[pp].body]);
        let z1 = gather_rows::<R>(members, lambda);
        let layout = self.layouts[pos];
        let (x0, x1) =
            exact::backward::<R, 1>(&self.pool[plan.pool0..], layout, &x[plan.body], &z1, &xp);
        x[plan.body] = x0;
        scatter_rows(members, &x1, lambda);
    }

    /// Forward substitution for a unit wrench on each axis of the body at `pos` (6 right-hand sides), along the
    /// path from it to its root only: every other front has a zero right-hand side, so its `Z` is zero.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn block_forward(&mut self, pos: usize, col: usize) {
        let mut p = pos;
        let mut y = Matrix6::identity();
        loop {
            let plan = &self.plans[p];
            self.blk_col[p] = col;
            if plan.square_root() {
                // Its `X` is zero whatever reaches it (`block_backward`): nothing to store.
                break;
            }
            let yp = if plan.exact > 0 {
                let pool = &self.pool[plan.pool0..];
                let layout = self.layouts[p];
                with_rows!(plan.exact, R => {
                    let (z0, z1, yp) =
                        exact::forward::<R, 6>(pool, layout, &y, &SMatrix::<f64, R, 6>::zeros());
                    self.blk_z[plan.depth][BODY] = z0;
                    self.blk_z[plan.depth][JOINT].fixed_rows_mut::<R>(0).copy_from(&z1);
                    yp
                })
            } else {
                let present = plan.present();
                let mut ys = [y, Matrix6::zeros(), Matrix6::zeros(), Matrix6::zeros()];
                for k in 0..3 {
                    if !present[k] {
                        continue;
                    }
                    let zk = self.inv[plan.inverse(k)] * ys[k];
                    for u in k + 1..4 {
                        if present[u] {
                            ys[u] -= self.lower[plan.block(k, u)] * zk;
                        }
                    }
                    self.blk_z[plan.depth][k] = zk;
                }
                ys[PARENT]
            };
            match plan.parent {
                Some(pp) => {
                    y = yp;
                    p = pp;
                }
                None => break,
            }
        }
    }

    /// Back substitution at `pos` for the column whose forward pass was [`Self::block_forward`] `col`, from its
    /// parent's `X` (fronts off that column's path have `Z` = 0).
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn block_backward(&mut self, pos: usize, col: usize) {
        let plan = &self.plans[pos];
        if plan.square_root() {
            // `J x = 0` with a regular `J`: unit wrenches do not move a root held by six world rows.
            self.acc[pos] = Matrix6::zeros();
            self.blk_zero[pos] = true;
            return;
        }
        let on_path = self.blk_col[pos] == col;
        // Off the column's path, below a front that does not move (a prescribed root, the root of another tree),
        // the right-hand side and the parent's response are zero, so the response is zero too: a prescribed
        // root's other legs cost nothing (the blocks between the feet are these zeros).
        if !on_path && plan.parent.is_none_or(|pp| self.blk_zero[pp]) {
            self.acc[pos] = Matrix6::zeros();
            self.blk_zero[pos] = true;
            return;
        }
        self.blk_zero[pos] = false;
        let xp = plan.parent.map_or(Matrix6::zeros(), |pp| self.acc[pp]);
        let z = |k: usize| {
            if on_path {
                self.blk_z[plan.depth][k]
            } else {
                Matrix6::zeros()
            }
        };
        let x0 = if plan.exact > 0 {
            let pool = &self.pool[plan.pool0..];
            let layout = self.layouts[pos];
            with_rows!(plan.exact, R => {
                let z1 = z(JOINT).fixed_rows::<R>(0).into_owned();
                exact::backward::<R, 6>(pool, layout, &z(BODY), &z1, &xp).0
            })
        } else {
            let present = plan.present();
            let mut xs = [Matrix6::zeros(); 4];
            xs[PARENT] = xp;
            for k in (0..3).rev() {
                if !present[k] {
                    continue;
                }
                let mut v = z(k);
                for u in k + 1..4 {
                    if present[u] {
                        v -= self.upper[plan.block(k, u)] * xs[u];
                    }
                }
                xs[k] = v;
            }
            xs[BODY]
        };
        self.acc[pos] = x0;
    }
}

/// An exact front's `R` joint rows gathered from their rows of `src` (`b`, or `λ` holding the forward results).
/// The usual group of one constraint is one fixed-size copy; a slice copy per member would call `memcpy` for a few
/// numbers, several times per front and solve.
#[inline(always)]
fn gather_rows<const R: usize>(members: &[Member], src: &[f64]) -> SVector<f64, R> {
    let mut v = SVector::<f64, R>::zeros();
    if let [m] = members {
        for (d, s) in v.iter_mut().zip(&src[m.lambda0..m.lambda0 + R]) {
            *d = *s;
        }
    } else {
        for m in members {
            v.as_mut_slice()[m.row0..m.row0 + m.rows]
                .copy_from_slice(&src[m.lambda0..m.lambda0 + m.rows]);
        }
    }
    v
}

/// An exact front's `R` joint rows written to their rows of `dst` (λ), as [`gather_rows`] reads them.
#[inline(always)]
fn scatter_rows<const R: usize>(members: &[Member], v: &SVector<f64, R>, dst: &mut [f64]) {
    if let [m] = members {
        for (d, s) in dst[m.lambda0..m.lambda0 + R].iter_mut().zip(v.iter()) {
            *d = *s;
        }
    } else {
        for m in members {
            dst[m.lambda0..m.lambda0 + m.rows]
                .copy_from_slice(&v.as_slice()[m.row0..m.row0 + m.rows]);
        }
    }
}

/// An exact front's joint rows on its body and on its parent, gathered from its group's constraints.
fn joint_rows<const R: usize>(
    members: &[Member],
    sys: &BlockSystem,
) -> (SMatrix<f64, R, 6>, SMatrix<f64, R, 6>) {
    let mut jc = SMatrix::<f64, R, 6>::zeros();
    let mut jp = SMatrix::<f64, R, 6>::zeros();
    for m in members {
        let c = &sys.constraints[m.con];
        let (on_c, on_p) = if m.child_is_a {
            (&c.ja, &c.jb)
        } else {
            (&c.jb, &c.ja)
        };
        if members.len() == 1 {
            // One constraint fills the group: a straight block copy.
            return (
                exact::block::<6, 6, R, 6>(on_c, 0, 0),
                exact::block::<6, 6, R, 6>(on_p, 0, 0),
            );
        }
        for i in 0..m.rows {
            for j in 0..6 {
                jc[(m.row0 + i, j)] = on_c[(i, j)];
                jp[(m.row0 + i, j)] = on_p[(i, j)];
            }
        }
    }
    (jc, jp)
}
