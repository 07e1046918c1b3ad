//! The protective fall's settings (`RootConfig::protect`, `docs/root.md`, "Protective falls").

use serde::{Deserialize, Serialize};

/// The protective fall's settings (`RootConfig::protect`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProtectConfig {
    /// Reach and hold the head up while falling (default true). Off: the fall holds the pose it began in and
    /// goes limp when any body but the feet touches the ground (the behaviour before issue 39). A character
    /// without arms falls so whatever this says.
    pub enabled: bool,
    /// Time over which the arms blend from the pose the fall began in to the reach (s). Default 0.15.
    pub reach_time_s: f64,
    /// Arm stiffness while reaching, as a multiple of the arm joints' stiffness floor `k_min` (the damping floor
    /// scaled by its square root, so the damping ratio is kept). Default 60 (the shoulder ≈ 1200 N·m/rad on the
    /// CMU walk: an arm that catches the trunk; 4–16 buckled, `docs/root.md`).
    pub arm_stiffness: f64,
    /// Neck and head stiffness while falling, as a multiple of their `k_min` (damping as for the arms). Default 30.
    pub neck_stiffness: f64,
    /// Elbow bend of the reaching arm (degrees from straight). Default 0: a straight arm is a strut; 5–20° left the
    /// elbow to carry the trunk and it folded (the solve keeps a trace of bend, 0.9999 of the reach).
    pub elbow_bend_deg: f64,
    /// The head's tuck against the fall direction (degrees, split over the neck and head joints: chin up in a
    /// forward fall, to the chest in a backward one). Default 30.
    pub head_tuck_deg: f64,
    /// How far ahead the centre of mass's velocity is run to find the fall direction (s). Default 0.2.
    pub lookahead_s: f64,
    /// The hands' lead (s): each hand aims at the floor below its shoulder run ahead by the shoulders' horizontal
    /// velocity for the time they take to fall to the floor (ballistic, `√(2h/g)`), at most this long. Default
    /// 0.6 (the ballistic time itself; 0–0.2, hands below the shoulders, did worse).
    pub lead_max_s: f64,
    /// After the impact (the first body other than the legs on the ground, normally a hand), the arms'
    /// stiffness ramps down to the limp fraction over this time (s), letting the trunk down. Default 0.2.
    pub absorb_time_s: f64,
    /// The brace after the impact lasts until the trunk or the head lands, at most this long (s); then the body
    /// goes limp (`Ragdoll`). 0: limp at the impact. Default 0.2.
    pub brace_time_s: f64,
    /// The longest a protected fall lasts before the body goes limp anyway (s; 1 without protection: a slow fall,
    /// a knee down first, takes longer to reach the ground with the hands). Default 2.
    pub max_fall_s: f64,
}

impl Default for ProtectConfig {
    fn default() -> Self {
        ProtectConfig {
            enabled: true,
            reach_time_s: 0.15,
            arm_stiffness: 60.0,
            neck_stiffness: 30.0,
            elbow_bend_deg: 0.0,
            head_tuck_deg: 30.0,
            lookahead_s: 0.2,
            brace_time_s: 0.2,
            lead_max_s: 0.6,
            absorb_time_s: 0.2,
            max_fall_s: 2.0,
        }
    }
}

impl ProtectConfig {
    /// Checks every number: finite, in range. The error names the first offending field (`protect.NAME`).
    pub fn validate(&self) -> Result<(), String> {
        let checks: [(&str, f64, bool); 10] = [
            ("reach_time_s", self.reach_time_s, self.reach_time_s >= 0.0),
            (
                "arm_stiffness",
                self.arm_stiffness,
                self.arm_stiffness >= 0.0,
            ),
            (
                "neck_stiffness",
                self.neck_stiffness,
                self.neck_stiffness >= 0.0,
            ),
            (
                "elbow_bend_deg",
                self.elbow_bend_deg,
                (0.0..=150.0).contains(&self.elbow_bend_deg),
            ),
            (
                "head_tuck_deg",
                self.head_tuck_deg,
                (-90.0..=90.0).contains(&self.head_tuck_deg),
            ),
            ("lookahead_s", self.lookahead_s, self.lookahead_s >= 0.0),
            ("brace_time_s", self.brace_time_s, self.brace_time_s >= 0.0),
            ("max_fall_s", self.max_fall_s, self.max_fall_s > 0.0),
            ("lead_max_s", self.lead_max_s, self.lead_max_s >= 0.0),
            (
                "absorb_time_s",
                self.absorb_time_s,
                self.absorb_time_s >= 0.0,
            ),
        ];
        for (name, value, in_range) in checks {
            if !(value.is_finite() && in_range) {
                return Err(format!(
                    "protect.{name} is out of range or not finite: {value}"
                ));
            }
        }
        Ok(())
    }
}
