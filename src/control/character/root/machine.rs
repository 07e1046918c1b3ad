//! The balance state machine of a free root: which state the character is in, what that state asks of the
//! controller (assist level, gain factor, pose target) and when it changes (`docs/root.md`, "States").

use nalgebra::{UnitQuaternion, Vector3};

/// A free-root character's balance state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum RootState {
    /// On its clip, the assist at its weight.
    Tracking = 0,
    /// Hit above the threshold: the assist fades out, the joints still track.
    Staggering = 1,
    /// Balance lost (centre of mass outside the support polygon, or the root far from its target): the gains
    /// drop toward the limp fraction.
    Falling = 2,
    /// Limp: stiffness at the limp fraction, damping kept, holding the pose the fall began in.
    Ragdoll = 3,
    /// Every body still for the rest time.
    Resting = 4,
    /// Blending from the resting pose into the clip, gains and assist ramping back in.
    GettingUp = 5,
}

impl RootState {
    /// The state of a number (the `repr(u32)` values), if it is one.
    pub fn from_u32(n: u32) -> Option<RootState> {
        [
            RootState::Tracking,
            RootState::Staggering,
            RootState::Falling,
            RootState::Ragdoll,
            RootState::Resting,
            RootState::GettingUp,
        ]
        .get(n as usize)
        .copied()
    }

    /// The state's name (as printed by the examples and the C ABI's docs).
    pub fn name(self) -> &'static str {
        match self {
            RootState::Tracking => "Tracking",
            RootState::Staggering => "Staggering",
            RootState::Falling => "Falling",
            RootState::Ragdoll => "Ragdoll",
            RootState::Resting => "Resting",
            RootState::GettingUp => "GettingUp",
        }
    }
}

/// A state transition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootEvent {
    /// World time of the transition (s): the end of the step that caused it.
    pub time: f64,
    /// The state left.
    pub from: RootState,
    /// The state entered.
    pub to: RootState,
}

impl std::fmt::Display for RootEvent {
    /// `event t 1.167 s Staggering -> Falling`: the line the examples and the demo print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "event t {:.3} s {} -> {}",
            self.time,
            self.from.name(),
            self.to.name()
        )
    }
}

/// What the machine saw in the step that just ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Observation {
    /// Time at the end of the step (s).
    pub time: f64,
    /// Hit impulse of the step (N·s): applied impulses and projectile contact impulses.
    pub hit: f64,
    /// Whether balance is lost (support polygon or root deviation).
    pub unbalanced: bool,
    /// Whether a body other than the feet touches the ground.
    pub body_on_ground: bool,
    /// The fastest body speed (m/s, angular counted at 0.1 m).
    pub max_speed: f64,
}

/// The machine: state, timers and the poses it holds.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::control::character) struct Machine {
    pub state: RootState,
    /// When the state was entered (s).
    pub since: f64,
    /// Assist level in [0, 1] (times the configured weight).
    pub level: f64,
    /// Since when every body has been slower than the rest speed (s).
    pub still_since: Option<f64>,
    /// Joint rotations held while falling and resting, and the start of a get-up's blend.
    pub held: Vec<UnitQuaternion<f64>>,
    /// The root's CoM pose when the get-up began.
    pub held_root: (Vector3<f64>, UnitQuaternion<f64>),
    pub events: Vec<RootEvent>,
    /// The protective falls' phases (`protect.rs`).
    pub fall_events: Vec<super::protect::FallEvent>,
}

/// Smooth step 3u² − 2u³ on [0, 1].
pub(super) fn smoothstep(u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

impl Machine {
    pub fn new(bodies: usize, level: f64) -> Machine {
        Machine {
            state: RootState::Tracking,
            since: 0.0,
            level,
            still_since: None,
            held: vec![UnitQuaternion::identity(); bodies],
            held_root: (Vector3::zeros(), UnitQuaternion::identity()),
            events: Vec::with_capacity(16),
            fall_events: Vec::with_capacity(16),
        }
    }

    /// Enters `to` at `time`, recording the event.
    pub fn enter(&mut self, to: RootState, time: f64) {
        self.events.push(RootEvent {
            time,
            from: self.state,
            to,
        });
        self.state = to;
        self.since = time;
        self.still_since = None;
    }

    /// Fraction of the get-up's blend done at `t` (smoothed).
    pub fn getup_alpha(&self, t: f64, blend_s: f64) -> f64 {
        smoothstep((t - self.since) / blend_s)
    }
}
