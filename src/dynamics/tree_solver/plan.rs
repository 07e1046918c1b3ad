//! The elimination plan of the tree solver: a front's slots, the groups' members, the couplings on each joint
//! and where each body's factors live in the pools (split from `tree_solver.rs` by concept).

/// Slots of a body's front.
pub(super) const BODY: usize = 0;
pub(super) const WORLD: usize = 1;
pub(super) const JOINT: usize = 2;
pub(super) const PARENT: usize = 3;

/// Index of the off-diagonal pair `(k, u)`, `k < u ≤ 3`, among all six pairs of a front.
pub(super) const fn pair(k: usize, u: usize) -> usize {
    match (k, u) {
        (0, 1) => 0,
        (0, 2) => 1,
        (0, 3) => 2,
        (1, 2) => 3,
        (1, 3) => 4,
        _ => 5,
    }
}

/// One constraint inside a group: where its rows go in the group block and in λ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Member {
    pub(super) con: usize,
    pub(super) rows: usize,
    /// First row inside the group's padded 6-row block.
    pub(super) row0: usize,
    /// First row in λ.
    pub(super) lambda0: usize,
    /// Whether `ja` (else `jb`) is the Jacobian on the front's own body.
    pub(super) child_is_a: bool,
}

/// A coupling on the joint between a body and its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct CouplingRef {
    pub(super) idx: usize,
    /// Whether the front's own body is the coupling's `i` (so `a_ij` is row block child, column block parent).
    pub(super) child_is_i: bool,
}

/// Everything the numeric passes need about one body, in elimination order.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Plan {
    pub(super) body: usize,
    /// Position of the parent body in the elimination order; `None` for a root.
    pub(super) parent: Option<usize>,
    pub(super) world: (usize, usize),
    pub(super) world_rows: usize,
    pub(super) joint: (usize, usize),
    pub(super) joint_rows: usize,
    pub(super) couplings: (usize, usize),
    /// First of this front's pivot inverses in the solver's pool; pivot `k` is at `pivot0 + pivot[k]`.
    pub(super) pivot0: usize,
    pub(super) pivot: [usize; 3],
    /// First of this front's blocks in the lower/upper pools; pair `(k, u)` is at `block0 + slot[pair(k, u)]`.
    /// Only pairs of present slots are stored, which halves the memory of a chain's fronts.
    pub(super) block0: usize,
    pub(super) slot: [usize; 6],
    /// Exact-size front (see `exact.rs`): a non-root body without world rows, whose joint group has this many
    /// rows; 0 for a padded front (roots, bodies with world rows).
    pub(super) exact: usize,
    /// First of an exact front's entries in the solver's `f64` pool.
    pub(super) pool0: usize,
    /// The length of an exact front's pool slice: room for the layout it was analysed with (`exact::Layout`).
    pub(super) room: usize,
    /// Number of fronts between this one and its root (0 for a root).
    pub(super) depth: usize,
}

impl Plan {
    /// A root held by six world rows (`root.rs`): solved without inverting its pivots.
    pub(super) fn square_root(&self) -> bool {
        self.parent.is_none() && self.world_rows == 6
    }

    pub(super) fn present(&self) -> [bool; 4] {
        let p = self.parent.is_some();
        [true, self.world_rows > 0, p, p]
    }

    /// Fills the pool offsets from the running totals; returns the numbers of pivots and of pairs stored.
    pub(super) fn place(&mut self, pivot0: usize, block0: usize) -> (usize, usize) {
        (self.pivot0, self.block0) = (pivot0, block0);
        if self.exact > 0 {
            return (0, 0);
        }
        let present = self.present();
        let (mut pivots, mut pairs) = (0, 0);
        for k in 0..3 {
            if !present[k] {
                continue;
            }
            self.pivot[k] = pivots;
            pivots += 1;
            for (u, &here) in present.iter().enumerate().skip(k + 1) {
                if here {
                    self.slot[pair(k, u)] = pairs;
                    pairs += 1;
                }
            }
        }
        (pivots, pairs)
    }

    pub(super) fn block(&self, k: usize, u: usize) -> usize {
        self.block0 + self.slot[pair(k, u)]
    }

    pub(super) fn inverse(&self, k: usize) -> usize {
        self.pivot0 + self.pivot[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_indices_are_distinct() {
        let all = [
            pair(0, 1),
            pair(0, 2),
            pair(0, 3),
            pair(1, 2),
            pair(1, 3),
            pair(2, 3),
        ];
        for (k, p) in all.iter().enumerate() {
            assert_eq!(*p, k);
        }
    }
}
