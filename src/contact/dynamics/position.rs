//! The position-level contact LCP of post-stabilization (Cline eq. 3.7): a projection `dp` that satisfies the
//! joints (`J·dp = −g`) and leaves every contact gap non-negative (`g_n + J_n·dp ≥ 0`) with push-only impulses
//! (`λ_n ≥ 0`, complementary to the gap): contacts are pushed apart, never pulled together.
//!
//! It is taken in two parts: the joints-only projection `dp*` (applied, and the bodies placed on their anchors,
//! by `stabilize.rs`), then the push `M⁻¹J_nᵀλ` projected on the joints (`J·push = 0`) against the gaps where
//! `dp*` left the contacts. To first order that is the combined LCP's solution: `dp*` is M-orthogonal to every
//! displacement with `J·dp = 0`, so `‖dp* + push‖²_M` splits and the push solves the same LCP on the gaps
//! `g_n + J_n·dp*`. Taken at the moved bodies, those gaps also hold the placement's second-order translation,
//! which a push computed before the placement left inside the floor (`docs/contact.md`, "Post-stabilization with
//! contacts").
//!
//! Contacts with free bodies take no part: the world does not own a free body's position (the scene flies its
//! balls), so it cannot correct their overlap consistently; the velocity LCP has already separated them.
//! Contacts whose body cannot move (a prescribed root against static geometry) have a zero row in the
//! Delassus matrix and are left out too: no finite push corrects them.

use nalgebra::{DVector, Vector6};

use super::ContactState;
use crate::contact::lcp::{LcpSolver, zeroed_vector};
use crate::dynamics::body::Body;
use crate::dynamics::system::SaddlePointSolver;

/// Diagonal of the Delassus matrix, relative to the largest, below which a contact counts as immovable.
const IMMOVABLE: f64 = 1e-10;

/// One projection's quantities.
pub(crate) struct Projection<'a> {
    pub solver: &'a mut dyn SaddlePointSolver,
    pub bodies: &'a [Body],
    /// Joint right-hand side `−scale·g`.
    pub b: &'a [f64],
    /// Out: the push's displacement (written only when the projection pushes).
    pub dp: &'a mut [Vector6<f64>],
    /// In: the joint projection's multipliers (zeros when there was none); out: the push's added.
    pub lambda: &'a mut [f64],
    /// The fraction of the worst error this projection corrects (the post-stabilization clamp).
    pub scale: f64,
    /// The solver was refactored since the blocks of W were last computed.
    pub refactored: bool,
}

impl ContactState {
    /// The push that takes every penetrating contact out to the skin at the bodies' current positions (after the
    /// joint projection and the placement on the anchors), into `p.dp`; returns whether contact impulses were
    /// needed. The buffers are the state's (taken out and put back), so a warm projection allocates nothing.
    pub(crate) fn project(&mut self, p: Projection<'_>) -> bool {
        let mut projected = std::mem::take(&mut self.projected);
        let mut q = std::mem::take(&mut self.lcp_q);
        let mut z = std::mem::take(&mut self.z);
        let mut wrench = std::mem::take(&mut self.wrench);
        projected.clear();
        projected.extend((0..self.points.len()).filter(|&k| self.positional(k)));
        std::mem::swap(&mut self.delassus, &mut self.position_delassus);
        let pushed = self.project_with(p, &projected, &mut q, &mut z, &mut wrench);
        std::mem::swap(&mut self.delassus, &mut self.position_delassus);
        self.projected = projected;
        self.lcp_q = q;
        self.z = z;
        self.wrench = wrench;
        pushed
    }

    /// [`ContactState::project`] over the contacts `positional`, with the buffers of the right-hand side `q`,
    /// the impulses `z` and the wrench.
    fn project_with(
        &mut self,
        p: Projection<'_>,
        positional: &[usize],
        q: &mut DVector<f64>,
        z: &mut DVector<f64>,
        wrench: &mut Vec<Vector6<f64>>,
    ) -> bool {
        self.rows.clear();
        let nc = positional.len();
        zeroed_vector(q, nc);
        for (i, &k) in positional.iter().enumerate() {
            let n = self.points[k].normal;
            let row = self.row(k, &n, p.bodies, false);
            let gap = self.gap(k, p.bodies);
            // A penetration is corrected by the clamped fraction (to the skin when unclamped), an open gap may
            // only be used up.
            let target = if gap < 0.0 {
                p.scale * gap - self.options.position_skin
            } else {
                gap
            };
            q[i] = target;
            self.rows.push(row);
        }
        if q.iter().all(|&v| v >= 0.0) {
            return false;
        }
        if p.refactored {
            self.compute_w(p.solver, p.bodies.len(), p.b.len());
        }
        self.fill_delassus();
        let a = &self.delassus;
        // Rows of immovable bodies (relative to the best-coupled contact) cannot be corrected: drop them.
        let scale_a = (0..nc).map(|k| a[(k, k)]).fold(0.0, f64::max);
        for k in 0..nc {
            if a[(k, k)] <= IMMOVABLE * scale_a {
                q[k] = q[k].max(0.0);
            }
        }
        if q.iter().all(|&v| v >= 0.0) {
            return false;
        }
        zeroed_vector(z, nc);
        if self.lemke_position.solve(a, q, z).is_err() {
            // Redundant normals make A singular but Lemke handles them; should it still fail, push each contact
            // on its own diagonal (a Jacobi step, never pulling).
            for k in 0..nc {
                z[k] = if a[(k, k)] > 0.0 {
                    (-q[k] / a[(k, k)]).max(0.0)
                } else {
                    0.0
                };
            }
        }
        wrench.clear();
        wrench.resize(p.bodies.len(), Vector6::zeros());
        for (r, &l) in z.iter().enumerate() {
            if l > 0.0 {
                // Free bodies are static here, so there is no free part to collect.
                let _ = self.scatter(&self.rows[r], l, wrench);
            }
        }
        // The response to the push alone (`b = 0`): only the pushed legs are substituted.
        p.dp.fill(Vector6::zeros());
        self.block_solves
            .add_response(p.solver, wrench, &self.bodies, p.dp, p.lambda);
        true
    }
}
