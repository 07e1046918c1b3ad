//! Pair filtering by body: pairs of bodies that must never produce contacts (bodies sharing a joint).

use std::collections::HashSet;

use crate::model::Model;

/// Body pairs excluded from collision, typically the two bodies of every joint (their capsules overlap at the
/// joint by construction). Group/mask filtering is per collider ([`super::Collider::group`]); colliders of the
/// same body never collide with each other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairFilter {
    excluded: HashSet<(usize, usize)>,
}

impl PairFilter {
    /// No exclusions.
    pub fn new() -> PairFilter {
        PairFilter::default()
    }

    /// Excludes the two bodies of every joint of `model`, with body indices shifted
    /// by `offset` (for several characters in one body list).
    pub fn from_model(model: &Model, offset: usize) -> PairFilter {
        let mut f = PairFilter::new();
        f.exclude_model(model, offset);
        f
    }

    /// Adds the body pairs of `model`'s joints, with body indices shifted by `offset`.
    pub fn exclude_model(&mut self, model: &Model, offset: usize) {
        for joint in &model.joints {
            self.exclude(offset + joint.parent, offset + joint.child);
        }
    }

    /// Excludes the pair of bodies `a`, `b` (in either order).
    pub fn exclude(&mut self, a: usize, b: usize) {
        self.excluded.insert(key(a, b));
    }

    /// Whether the pair `a`, `b` (either order) is excluded.
    pub fn excludes(&self, a: usize, b: usize) -> bool {
        self.excluded.contains(&key(a, b))
    }

    /// Number of excluded pairs.
    pub fn len(&self) -> usize {
        self.excluded.len()
    }

    /// Whether nothing is excluded.
    pub fn is_empty(&self) -> bool {
        self.excluded.is_empty()
    }
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}
