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

use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

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
    #[inline]
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
    #[inline]
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

    /// Adds `m` (`add` true) or subtracts it in the angular corner of each of item `i`'s blocks, `ops[k]` for
    /// block `k` (one lookup of the item's form for all its blocks).
    #[inline(always)]
    pub(super) fn add_corners(&mut self, i: usize, ops: [(&Matrix3<f64>, bool); K]) {
        match self.form[i] {
            Form::Angular(a) => {
                for (c, (m, add)) in self.angular[a as usize].iter_mut().zip(ops) {
                    if add {
                        *c += m;
                    } else {
                        *c -= m;
                    }
                }
            }
            Form::Full(f) => {
                for (b, (m, add)) in self.full[f as usize].iter_mut().zip(ops) {
                    let mut c = b.fixed_view_mut::<3, 3>(0, 0);
                    if add {
                        c += m;
                    } else {
                        c -= m;
                    }
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

    /// Item `i`'s block `k` as a 6×6 matrix (zero outside the corner of an angular item).
    #[cfg(test)]
    pub(super) fn block(&self, i: usize, k: usize) -> Matrix6<f64> {
        match self.form[i] {
            Form::Angular(a) => {
                let mut m = Matrix6::zeros();
                m.fixed_view_mut::<3, 3>(0, 0)
                    .copy_from(&self.angular[a as usize][k]);
                m
            }
            Form::Full(f) => self.full[f as usize][k],
        }
    }

    /// Item `i`'s block `k` times `x`. An angular item's product is its corner times the angular part of `x`,
    /// zero below: what the 6×6 product gives (its other 27 terms are `0·x_j`), up to the sign of a zero entry,
    /// without the block built and multiplied whole.
    #[inline(always)]
    pub(super) fn mul_vec(&self, i: usize, k: usize, x: &Vector6<f64>) -> Vector6<f64> {
        match self.form[i] {
            Form::Angular(a) => {
                let w = self.angular[a as usize][k] * Vector3::new(x[0], x[1], x[2]);
                Vector6::new(w.x, w.y, w.z, 0.0, 0.0, 0.0)
            }
            Form::Full(f) => self.full[f as usize][k] * x,
        }
    }

    /// [`Self::scaled`] without a base, written into `out`: an angular item writes only its corner when `filled`
    /// says `out` already holds this call's `0·s_p − 0·s_v` everywhere else (from an earlier call with the same
    /// scalings). The same entries, bit for bit.
    #[inline(always)]
    pub(super) fn scaled_into(
        &self,
        i: usize,
        (p, s_p): (usize, f64),
        (v, s_v): (usize, f64),
        out: &mut Matrix6<f64>,
        filled: bool,
    ) {
        match self.form[i] {
            Form::Angular(a) => {
                let blocks = &self.angular[a as usize];
                if !filled {
                    out.fill(0.0 * s_p - 0.0 * s_v);
                }
                let corner = blocks[p] * s_p - blocks[v] * s_v;
                out.fixed_view_mut::<3, 3>(0, 0).copy_from(&corner);
            }
            Form::Full(_) => *out = self.scaled(i, None, (p, s_p), (v, s_v)),
        }
    }

    /// For item `i`'s blocks `B_p` = `p` and `B_v` = `v`: `(base − B_p·s_p) − B_v·s_v`, or `B_p·s_p − B_v·s_v`
    /// without a base, entry by entry exactly as that 6×6 expression computes it. An angular item's entries
    /// outside the corner are `(base − 0·s_p) − 0·s_v` (or `0·s_p − 0·s_v`), so only its corner needs the blocks.
    #[inline(always)]
    pub(super) fn scaled(
        &self,
        i: usize,
        base: Option<&Matrix6<f64>>,
        (p, s_p): (usize, f64),
        (v, s_v): (usize, f64),
    ) -> Matrix6<f64> {
        match self.form[i] {
            Form::Angular(a) => {
                let blocks = &self.angular[a as usize];
                let (zp, zv) = (0.0 * s_p, 0.0 * s_v);
                let (mut out, corner) = match base {
                    Some(m) => (
                        // `x − (+0) − (+0)` is `x` exactly: the step's `h > 0` makes both zeros `+0`, so the
                        // element-wise pass is only needed for the other signs.
                        if zp.to_bits() == 0 && zv.to_bits() == 0 {
                            *m
                        } else {
                            m.map(|x| x - zp - zv)
                        },
                        m.fixed_view::<3, 3>(0, 0) - blocks[p] * s_p - blocks[v] * s_v,
                    ),
                    None => (Matrix6::repeat(zp - zv), blocks[p] * s_p - blocks[v] * s_v),
                };
                out.fixed_view_mut::<3, 3>(0, 0).copy_from(&corner);
                out
            }
            Form::Full(f) => {
                let blocks = &self.full[f as usize];
                match base {
                    Some(m) => m - blocks[p] * s_p - blocks[v] * s_v,
                    None => blocks[p] * s_p - blocks[v] * s_v,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The angular form gives back exactly the blocks a full accumulator holds after the same corner updates, and
    /// the step's combinations of them bit for bit (signed zeros included).
    #[test]
    fn angular_and_full_forms_agree_bit_for_bit() {
        let mut store = GradStore::<2>::default();
        store.size(&[false, true]);
        let a = Matrix3::from_fn(|i, j| (i as f64 - 0.3) * (j as f64 + 0.7) * 1e-3);
        let b = Matrix3::from_fn(|i, j| -(i as f64 + j as f64) * 0.1 - 0.0);
        for item in 0..2 {
            store.set_corners(item, [&a, &b]);
            store.add_corners(item, [(&b, true), (&a, false)]);
        }
        let same = |x: &Matrix6<f64>, y: &Matrix6<f64>| {
            x.iter()
                .zip(y.iter())
                .all(|(u, v)| u.to_bits() == v.to_bits())
        };
        for k in 0..2 {
            assert!(same(&store.block(0, k), &store.block(1, k)));
        }
        let m = Matrix6::from_fn(|i, j| if i == j { 2.0 } else { 0.0 });
        for h in [1.0 / 120.0, -1e-3, 0.0, -0.0] {
            let with_base = |i| store.scaled(i, Some(&m), (0, h * h), (1, h));
            let without = |i| store.scaled(i, None, (0, -h * h), (1, h));
            assert!(same(&with_base(0), &with_base(1)), "h = {h}");
            assert!(same(&without(0), &without(1)), "h = {h}");
            let (p, v) = (store.block(1, 0), store.block(1, 1));
            assert!(same(&with_base(1), &(m - p * (h * h) - v * h)));
            assert!(same(&without(1), &(p * (-h * h) - v * h)));
        }
        // The products with a vector: equal values (a zero entry's sign aside) in either form.
        let x = Vector6::new(0.3, -1.2, 2.5, -0.7, 4.0, -3.0);
        for i in 0..2 {
            for k in 0..2 {
                assert_eq!(store.mul_vec(i, k, &x), store.block(i, k) * x);
            }
        }
        assert!(!store.is_full(0) && store.is_full(1));
        assert!(!store.all_full() && store.all_full_mut().is_none());
        store.clear();
        assert!((0..2).all(|i| (0..2).all(|k| store.block(i, k).iter().all(|&v| v == 0.0))));
    }

    #[test]
    #[should_panic(expected = "sized angular-only")]
    fn whole_blocks_need_a_full_item() {
        let mut store = GradStore::<1>::default();
        store.size(&[false]);
        store.add_full(0, 0, &Matrix6::identity());
    }
}
