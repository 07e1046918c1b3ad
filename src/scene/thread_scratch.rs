//! One step scratch per worker thread, shared by the characters that thread steps (see
//! [`crate::dynamics::World::exchange_scratch`]): a crowd's steps then work in buffers that stay in the core's
//! cache instead of each character's own, with bit-identical results.

use std::sync::Mutex;

use crate::control::Character;
use crate::dynamics::StepScratch;

/// The scene's per-thread scratch, indexed by rayon's worker index.
#[derive(Debug, Default)]
pub(super) struct ThreadScratch {
    slots: Vec<Mutex<StepScratch>>,
    /// Each character steps in its own buffers (see [`super::Scene::set_shared_scratch`]).
    off: bool,
}

impl ThreadScratch {
    pub(super) fn set_enabled(&mut self, enabled: bool) {
        self.off = !enabled;
    }

    /// Makes a slot for every thread of the current rayon pool. Allocates only when the pool is larger than any
    /// before; a slot's buffers are sized by the first character it serves.
    pub(super) fn reserve(&mut self) {
        let n = rayon::current_num_threads();
        while !self.off && self.slots.len() < n {
            self.slots.push(Mutex::default());
        }
    }

    /// Runs `step` on `c` between two exchanges with the calling thread's scratch (the caller's own slot 0 off
    /// the pool). A character whose structure differs from the scratch's, a busy slot, or the switch off: it
    /// steps in its own buffers.
    pub(super) fn around<R>(&self, c: &mut Character, step: impl FnOnce(&mut Character) -> R) -> R {
        let slot = rayon::current_thread_index().unwrap_or(0);
        let Some(mut scratch) = self
            .slots
            .get(slot)
            .filter(|_| !self.off)
            .and_then(|m| m.try_lock().ok())
        else {
            return step(c);
        };
        c.exchange_scratch(&mut scratch);
        let result = step(c);
        // Also when the step failed: the character gets its own buffers back (or keeps the slot's, if the step
        // rebuilt them for a new structure; then the slot keeps the character's old ones).
        c.exchange_scratch(&mut scratch);
        result
    }
}
