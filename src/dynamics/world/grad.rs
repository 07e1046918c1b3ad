//! The step's force-gradient accumulators (`∂f/∂p`, `∂f/∂v` of each body, and the cross blocks of each coupled
//! body pair), each kept in the smallest form that holds it exactly.
//!
//! Gyroscopic terms and joint drives are torques of the rotations and angular velocities: their gradients are
//! zero outside the 3×3 angular corner. A body (or body pair) that only they touch, which is every body of a
//! mocap character, keeps just its 3×3 corners (72 B a block instead of 288 B); one that another force touches
//! (a push, a spring, a penalty contact, any [`crate::dynamics::Force`]) keeps full 6×6 blocks. The form is chosen
//! when the world sizes its buffers, from which forces act on what.
//!
//! Exactness: every entry accumulates the same terms in the same order as a full 6×6 accumulator would, and
//! [`GradStore::blocks`] hands the step 6×6 blocks whose entries outside the corner are the `+0.0` such an
//! accumulator holds when nothing writes there, so the step computes bit-identical results in either form.

use nalgebra::{Matrix3, Matrix6};

/// Where one item's blocks live: their index in the angular or in the full pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Angular(u32),
    Full(u32),
}

/// The gradient blocks of a list of items (bodies, or coupling slots), `K` 6×6 blocks per item.
#[derive(Debug, Clone, Default)]
pub(super) struct GradStore<const K: usize> {
    form: Vec<Form>,
    angular: Vec<[Matrix3<f64>; K]>,
    full: Vec<[Matrix6<f64>; K]>,
}

impl<const K: usize> GradStore<K> {
    /// Sizes the store for items whose `full` flag says whether anything writes outside their angular corners
    /// (allocates exactly; all blocks zero).
    pub(super) fn size(&mut self, full: &[bool]) {
        let n_full = full.iter().filter(|&&f| f).count();
        let (mut a, mut f) = (0u32, 0u32);
        self.form = full
            .iter()
            .map(|&is_full| {
                if is_full {
                    f += 1;
                    Form::Full(f - 1)
                } else {
                    a += 1;
                    Form::Angular(a - 1)
                }
            })
            .collect();
        self.angular = vec![[Matrix3::zeros(); K]; full.len() - n_full];
        self.full = vec![[Matrix6::zeros(); K]; n_full];
    }

    /// Whether item `i` keeps full 6×6 blocks.
    pub(super) fn is_full(&self, i: usize) -> bool {
        matches!(self.form.get(i), Some(Form::Full(_)))
    }

    /// Whether every item keeps full 6×6 blocks.
    pub(super) fn all_full(&self) -> bool {
        self.full.len() == self.form.len()
    }

    /// The full blocks indexed by item, when every item is full (then item `i` is at index `i`).
    pub(super) fn all_full_mut(&mut self) -> Option<&mut [[Matrix6<f64>; K]]> {
        self.all_full().then_some(&mut self.full[..])
    }

    /// Zeroes every block.
    pub(super) fn clear(&mut self) {
        for b in self.angular.iter_mut() {
            b.fill(Matrix3::zeros());
        }
        for b in self.full.iter_mut() {
            for m in b.iter_mut() {
                m.fill(0.0);
            }
        }
    }

    /// Sets item `i`'s blocks to `corners` in their angular corners and zero elsewhere.
    pub(super) fn set_corners(&mut self, i: usize, corners: [&Matrix3<f64>; K]) {
        match self.form[i] {
            Form::Angular(a) => {
                for (m, c) in self.angular[a as usize].iter_mut().zip(corners) {
                    *m = *c;
                }
            }
            Form::Full(f) => {
                for (m, c) in self.full[f as usize].iter_mut().zip(corners) {
                    m.fill(0.0);
                    m.fixed_view_mut::<3, 3>(0, 0).copy_from(c);
                }
            }
        }
    }

    /// Adds `add` (`sign` > 0) or subtracts it (otherwise) in the angular corner of item `i`'s block `k`.
    pub(super) fn add_corner(&mut self, i: usize, k: usize, add: &Matrix3<f64>, sign: f64) {
        match self.form[i] {
            Form::Angular(a) => {
                let c = &mut self.angular[a as usize][k];
                if sign > 0.0 {
                    *c += add;
                } else {
                    *c -= add;
                }
            }
            Form::Full(f) => {
                let mut c = self.full[f as usize][k].fixed_view_mut::<3, 3>(0, 0);
                if sign > 0.0 {
                    c += add;
                } else {
                    c -= add;
                }
            }
        }
    }

    /// Adds a whole 6×6 block to item `i`'s block `k`.
    ///
    /// # Panics
    /// When the item keeps only its angular corners: the world sizes every item a force writes whole as full,
    /// so this is a bug in the sizing.
    pub(super) fn add_full(&mut self, i: usize, k: usize, add: &Matrix6<f64>) {
        match self.form[i] {
            Form::Full(f) => self.full[f as usize][k] += add,
            Form::Angular(_) => {
                panic!("gradient item {i} was sized angular-only but a force writes it whole")
            }
        }
    }

    /// Item `i`'s blocks as 6×6 matrices (zero outside the corners of an angular item).
    #[inline]
    pub(super) fn blocks(&self, i: usize) -> [Matrix6<f64>; K] {
        match self.form[i] {
            Form::Angular(a) => self.angular[a as usize].map(|c| {
                let mut m = Matrix6::zeros();
                m.fixed_view_mut::<3, 3>(0, 0).copy_from(&c);
                m
            }),
            Form::Full(f) => self.full[f as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The angular form gives back exactly the blocks a full accumulator holds after the same corner updates.
    #[test]
    fn angular_and_full_forms_agree_bit_for_bit() {
        let mut store = GradStore::<2>::default();
        store.size(&[false, true]);
        let a = Matrix3::from_fn(|i, j| (i as f64 - 0.3) * (j as f64 + 0.7) * 1e-3);
        let b = Matrix3::from_fn(|i, j| -(i as f64 + j as f64) * 0.1 - 0.0);
        for item in 0..2 {
            store.set_corners(item, [&a, &b]);
            store.add_corner(item, 0, &b, 1.0);
            store.add_corner(item, 1, &a, -1.0);
        }
        let [a0, a1] = store.blocks(0);
        let [f0, f1] = store.blocks(1);
        for (x, y) in a0.iter().chain(a1.iter()).zip(f0.iter().chain(f1.iter())) {
            assert_eq!(x.to_bits(), y.to_bits());
        }
        assert!(!store.is_full(0) && store.is_full(1));
        assert!(store.all_full_mut().is_none());
        store.clear();
        assert!(
            store
                .blocks(0)
                .iter()
                .chain(&store.blocks(1))
                .all(|m| m.iter().all(|&v| v == 0.0))
        );
    }

    #[test]
    #[should_panic(expected = "sized angular-only")]
    fn whole_blocks_need_a_full_item() {
        let mut store = GradStore::<1>::default();
        store.size(&[false]);
        store.add_full(0, 0, &Matrix6::identity());
    }
}
