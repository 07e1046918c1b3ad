//! The phases of a protective fall, recorded beside the balance state transitions.

use nalgebra::Vector3;

/// A phase of a protective fall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FallPhase {
    /// The fall began (`Falling`): the arms reach toward the predicted ground contact, the head is held up.
    Reach = 0,
    /// A body other than the legs touched the ground: the brace begins (still `Falling`).
    Impact = 1,
    /// The fall is over (`Falling` → `Ragdoll`): the body is limp.
    Limp = 2,
}

impl FallPhase {
    /// The phase of a number (the `repr(u32)` values), if it is one.
    pub fn from_u32(n: u32) -> Option<FallPhase> {
        [FallPhase::Reach, FallPhase::Impact, FallPhase::Limp]
            .get(n as usize)
            .copied()
    }

    /// The phase's name (as printed by the examples).
    pub fn name(self) -> &'static str {
        match self {
            FallPhase::Reach => "Reach",
            FallPhase::Impact => "Impact",
            FallPhase::Limp => "Limp",
        }
    }
}

/// A phase of a protective fall began.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FallEvent {
    /// World time (s): the end of the step that began it.
    pub time: f64,
    /// The phase entered.
    pub phase: FallPhase,
    /// `Reach`: the predicted ground contact (world, on the floor); `Impact`: the body's lowest contact point;
    /// `Limp`: the root's position.
    pub point: Vector3<f64>,
    /// `Impact`: the body that touched (model body index); else `None`.
    pub body: Option<usize>,
}

impl std::fmt::Display for FallEvent {
    /// `fall t 1.167 s Reach at (0.12, 0.00, -1.05) m`: the line the examples print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "fall t {:.3} s {} at ({:.2}, {:.2}, {:.2}) m",
            self.time,
            self.phase.name(),
            self.point.x,
            self.point.y,
            self.point.z
        )?;
        if let Some(b) = self.body {
            write!(f, " body {b}")?;
        }
        Ok(())
    }
}
