//! The kinematic root of a streamed character: the prescribed trajectory between the pose reached and the next
//! target, shared between the character (which writes it before each step) and its world's prescribed-body
//! constraint (which reads it during the step).

use std::sync::{Arc, Mutex, MutexGuard};

use nalgebra::{UnitQuaternion, Vector3};

use crate::control::reference::ReferenceMotion;
use crate::control::sampling::root_pose;

/// One segment of the root's path: the root body's CoM pose at `t0` and at `t1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RootSegment {
    /// Start time (s).
    pub t0: f64,
    /// CoM position and orientation at `t0`.
    pub start: (Vector3<f64>, UnitQuaternion<f64>),
    /// End time (s), `> t0`.
    pub t1: f64,
    /// CoM position and orientation at `t1`.
    pub end: (Vector3<f64>, UnitQuaternion<f64>),
}

impl RootSegment {
    /// The pose at `t`, interpolated (clamped to the segment).
    fn pose(&self, t: f64) -> (Vector3<f64>, UnitQuaternion<f64>) {
        let s = ((t - self.t0) / (self.t1 - self.t0)).clamp(0.0, 1.0);
        if s <= 1e-9 {
            self.start
        } else if s >= 1.0 - 1e-9 {
            self.end
        } else {
            let q = crate::skeleton::slerp_short(&self.start.1, &self.end.1, s);
            (self.start.0.lerp(&self.end.0, s), q)
        }
    }
}

/// The root path of a character: its reference clip until a stream segment is set.
#[derive(Debug, Clone, Default)]
pub(crate) struct RootTrack(Arc<Mutex<Option<RootSegment>>>);

impl RootTrack {
    fn lock(&self) -> MutexGuard<'_, Option<RootSegment>> {
        // The guarded value is plain data: a panic elsewhere cannot leave it half-written.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Follows `segment` from now on.
    pub(crate) fn set(&self, segment: RootSegment) {
        *self.lock() = Some(segment);
    }

    /// The root pose at `t`: the stream segment if one was set, else the reference.
    pub(crate) fn pose(
        &self,
        reference: &ReferenceMotion,
        t: f64,
    ) -> (Vector3<f64>, UnitQuaternion<f64>) {
        match *self.lock() {
            Some(segment) => segment.pose(t),
            None => root_pose(reference, t),
        }
    }
}
