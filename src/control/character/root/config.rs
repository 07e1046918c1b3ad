//! What a character's root does (issue 11, `docs/root.md`): nailed to the clip, free, or free with an assist, and
//! the thresholds of its balance state machine.

use serde::{Deserialize, Serialize};

use super::protect::ProtectConfig;
use crate::control::ground::GroundConfig;

/// How the root (pelvis) of a character moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootPolicy {
    /// The root follows the clip exactly (prescribed); the body hangs from it. No ground needed.
    #[default]
    Kinematic,
    /// The root is a free body: the character stands on its feet through the ground contacts and the
    /// ground-reaction feedforward alone (no assist), so it falls as soon as it loses its balance.
    Free,
    /// A free root with an assist ("hand of god"): the residual root wrench of the inverse dynamics plus an
    /// implicit spring–damper toward the clip's root pose, scaled by the assist weight, fading out after a big hit.
    Assisted,
    /// A free root balanced by its own joints and feet: no external wrench while tracking. Each step the root
    /// wrench the clip needs plus a feedback toward the clip is spread over the soles touching the floor
    /// (friction pyramids, centre of pressure inside the soles) and the joints' feedforward pushes those forces
    /// into the ground (`docs/balance.md`). The get-up is still lifted by the assist.
    Balanced,
}

impl RootPolicy {
    /// The policy's name as the configuration spells it (`"kinematic"`, `"free"`, `"assisted"`, `"balanced"`).
    pub fn name(self) -> &'static str {
        match self {
            RootPolicy::Kinematic => "kinematic",
            RootPolicy::Free => "free",
            RootPolicy::Assisted => "assisted",
            RootPolicy::Balanced => "balanced",
        }
    }

    /// Whether the root is a free body (`Free`, `Assisted` or `Balanced`).
    pub fn is_free(self) -> bool {
        self != RootPolicy::Kinematic
    }
}

/// The get-up after a fall.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GetUpConfig {
    /// Get up after resting (default true; `Assisted` only: getting up needs the assist).
    pub enabled: bool,
    /// Time spent resting before getting up (s). Default 0.5.
    pub delay_s: f64,
    /// Blend time from the resting pose to the clip pose (s). Default 1.5.
    pub blend_s: f64,
    /// Clip time the character gets up into and resumes tracking from (s). Default 0: the clip's first frame.
    pub clip_time_s: f64,
}

impl Default for GetUpConfig {
    fn default() -> Self {
        GetUpConfig {
            enabled: true,
            delay_s: 0.5,
            blend_s: 1.5,
            clip_time_s: 0.0,
        }
    }
}

/// The balanced root's controller (`RootPolicy::Balanced`, `docs/balance.md`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BalanceConfig {
    /// Natural frequency of the feedback toward the clip's root position on the whole body's mass (Hz): the
    /// force the feet add to the clip's ground reaction. Default 1.5.
    pub frequency_hz: f64,
    /// Natural frequency of the feedback toward the clip's root orientation on the whole body's inertia (Hz).
    /// Default 2.
    pub angular_frequency_hz: f64,
    /// Damping ratio of both feedbacks. Default 1.
    pub damping_ratio: f64,
    /// A sole point this close to the floor (m) may carry the plan's force. Default 0.005.
    pub touch_height_m: f64,
    /// Weight of the torque misfit against the force misfit when the wrench is spread over the touching soles
    /// (1/m²). Default 1.
    pub torque_weight: f64,
    /// Torso: the stance hips' targets turn this far (0–1) toward the rotation that would put the pelvis back on
    /// its clip orientation over the thigh where it is (SIMBICON's stance-hip torso control). Default 0.5.
    pub torso_gain: f64,
    /// Foot placement: the swing foot is put this many metres further per metre of capture-point error (the
    /// centre of mass's offset from the stance foot plus its velocity times `capture_time_s`, against the clip's).
    /// Default 1; 0 with `stepping` off.
    pub step_gain: f64,
    /// The capture point's time constant √(z/g) (s). Default 0.3 (a 0.9 m centre of mass).
    pub capture_time_s: f64,
    /// Whether the swing leg is moved to catch the body (foot placement, recovery steps). Default true.
    pub stepping: bool,
    /// Re-anchoring (Hz): the clip's root is slid horizontally toward where the body's centre of mass is, by a
    /// first-order filter of this bandwidth, so a body that has fallen behind (or ahead of) its clip is not pulled
    /// back to it: the feedback, the capture point and the fall test then measure against a clip that walks on
    /// from where the body is. Default 0.5; 0 turns it off.
    pub reanchor_hz: f64,
    /// Scale (0–1) of the centre-of-mass feedback's horizontal part (the vertical part is kept whole): the feet
    /// cannot give the horizontal force the full feedback asks (`docs/balance.md`). Default 0.5.
    pub horizontal_feedback: f64,
    /// Time warping (s): while the clip walks (its centre of mass faster than 0.2 m/s horizontally), the clip is
    /// played slower or faster so that its centre of mass closes the gap to the body's along the walking direction
    /// in this time (rate 1 + gap / (speed × time), kept within 0.5–1.5). Default 0.15; 0 turns it off.
    pub warp_time_s: f64,
}

impl Default for BalanceConfig {
    fn default() -> Self {
        BalanceConfig {
            frequency_hz: 1.5,
            angular_frequency_hz: 2.0,
            damping_ratio: 1.0,
            touch_height_m: 0.005,
            torque_weight: 1.0,
            torso_gain: 0.5,
            step_gain: 1.0,
            capture_time_s: 0.3,
            stepping: true,
            reanchor_hz: 0.5,
            horizontal_feedback: 0.5,
            warp_time_s: 0.15,
        }
    }
}

/// The root policy, the assist and the balance state machine's thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RootConfig {
    /// Kinematic (default), free or assisted.
    pub policy: RootPolicy,
    /// Strength of the assist in [0, 1] (`Assisted`). Default 1.
    pub assist_weight: f64,
    /// Natural frequency of the assist spring on the whole body's mass and inertia (Hz). Default 4.
    pub assist_frequency_hz: f64,
    /// Damping ratio of the assist. Default 1 (critical).
    pub assist_damping_ratio: f64,
    /// A hit (applied impulses plus projectile contact impulses in one step, N·s) above this starts the assist's
    /// fade: the character staggers. Default 15 (the demo's 0.45 kg ball at 15 m/s gives ≈ 6).
    pub hit_threshold_ns: f64,
    /// Time over which the assist fades to zero after a big hit (s). Default 0.25.
    pub fade_time_s: f64,
    /// Staggering ends back in tracking if no fall is detected this long after the hit (s). Default 1.5.
    pub stagger_time_s: f64,
    /// Falling: the root's distance from its target above this (m). Default 0.15.
    pub fall_distance_m: f64,
    /// Falling: the root's tilt from its target above this (degrees). Default 35.
    pub fall_angle_deg: f64,
    /// Falling: the centre of mass's ground projection this far outside the support polygon (m). Default 0.15.
    pub support_margin_m: f64,
    /// Ragdoll stiffness as a fraction of the tracking gains (damping kept). Default 0.3.
    pub limp_fraction: f64,
    /// Time over which the gains drop to the limp fraction once falling (s). Default 0.2.
    pub limp_time_s: f64,
    /// Resting: every body slower than this (m/s; angular speed counted at 0.1 m) ... Default 0.25.
    pub rest_speed_mps: f64,
    /// ... for this long (s). Default 0.5.
    pub rest_time_s: f64,
    /// Gain in [0, 1] of the per-step feedforward correction toward the ground reaction the contacts actually
    /// carried in the last step (instead of the inverse dynamics' NNLS share). Default 0.6; 0 turns it off
    /// (`docs/root.md`, "Online ground reaction").
    pub online_reaction: f64,
    /// The get-up.
    pub getup: GetUpConfig,
    /// The balanced root's controller.
    pub balance: BalanceConfig,
    /// The protective fall (`docs/root.md`, "Protective falls").
    pub protect: ProtectConfig,
    /// The ground: floor, friction, stance detection.
    pub ground: GroundConfig,
}

impl Default for RootConfig {
    fn default() -> Self {
        RootConfig {
            policy: RootPolicy::Kinematic,
            assist_weight: 1.0,
            assist_frequency_hz: 4.0,
            assist_damping_ratio: 1.0,
            hit_threshold_ns: 15.0,
            fade_time_s: 0.25,
            stagger_time_s: 1.5,
            fall_distance_m: 0.15,
            fall_angle_deg: 35.0,
            support_margin_m: 0.15,
            limp_fraction: 0.3,
            limp_time_s: 0.2,
            rest_speed_mps: 0.25,
            rest_time_s: 0.5,
            online_reaction: 0.6,
            getup: GetUpConfig::default(),
            balance: BalanceConfig::default(),
            protect: ProtectConfig::default(),
            ground: GroundConfig::default(),
        }
    }
}

impl RootConfig {
    /// Checks every number: finite, in range. The error names the first offending field.
    pub fn validate(&self) -> Result<(), String> {
        let b = &self.balance;
        let checks: [(&str, f64, bool); 27] = [
            (
                "online_reaction",
                self.online_reaction,
                (0.0..=1.0).contains(&self.online_reaction),
            ),
            (
                "assist_weight",
                self.assist_weight,
                (0.0..=1.0).contains(&self.assist_weight),
            ),
            (
                "assist_frequency_hz",
                self.assist_frequency_hz,
                self.assist_frequency_hz > 0.0,
            ),
            (
                "assist_damping_ratio",
                self.assist_damping_ratio,
                self.assist_damping_ratio >= 0.0,
            ),
            (
                "hit_threshold_ns",
                self.hit_threshold_ns,
                self.hit_threshold_ns >= 0.0,
            ),
            ("fade_time_s", self.fade_time_s, self.fade_time_s >= 0.0),
            (
                "stagger_time_s",
                self.stagger_time_s,
                self.stagger_time_s >= 0.0,
            ),
            (
                "fall_distance_m",
                self.fall_distance_m,
                self.fall_distance_m > 0.0,
            ),
            (
                "fall_angle_deg",
                self.fall_angle_deg,
                self.fall_angle_deg > 0.0,
            ),
            (
                "support_margin_m",
                self.support_margin_m,
                self.support_margin_m >= 0.0,
            ),
            (
                "limp_fraction",
                self.limp_fraction,
                (0.0..=1.0).contains(&self.limp_fraction),
            ),
            ("limp_time_s", self.limp_time_s, self.limp_time_s >= 0.0),
            (
                "rest_speed_mps",
                self.rest_speed_mps,
                self.rest_speed_mps > 0.0,
            ),
            ("rest_time_s", self.rest_time_s, self.rest_time_s >= 0.0),
            (
                "getup.delay_s",
                self.getup.delay_s,
                self.getup.delay_s >= 0.0,
            ),
            (
                "getup.blend_s",
                self.getup.blend_s,
                self.getup.blend_s > 0.0,
            ),
            (
                "balance.frequency_hz",
                b.frequency_hz,
                b.frequency_hz >= 0.0,
            ),
            (
                "balance.angular_frequency_hz",
                b.angular_frequency_hz,
                b.angular_frequency_hz >= 0.0,
            ),
            (
                "balance.damping_ratio",
                b.damping_ratio,
                b.damping_ratio >= 0.0,
            ),
            (
                "balance.touch_height_m",
                b.touch_height_m,
                b.touch_height_m > 0.0,
            ),
            (
                "balance.torque_weight",
                b.torque_weight,
                b.torque_weight >= 0.0,
            ),
            (
                "balance.torso_gain",
                b.torso_gain,
                (0.0..=1.0).contains(&b.torso_gain),
            ),
            ("balance.step_gain", b.step_gain, b.step_gain >= 0.0),
            (
                "balance.capture_time_s",
                b.capture_time_s,
                b.capture_time_s >= 0.0,
            ),
            ("balance.reanchor_hz", b.reanchor_hz, b.reanchor_hz >= 0.0),
            ("balance.warp_time_s", b.warp_time_s, b.warp_time_s >= 0.0),
            (
                "balance.horizontal_feedback",
                b.horizontal_feedback,
                (0.0..=1.0).contains(&b.horizontal_feedback),
            ),
        ];
        for (name, value, in_range) in checks {
            if !(value.is_finite() && in_range) {
                return Err(format!(
                    "root.{name} is out of range or not finite: {value}"
                ));
            }
        }
        if !(self.getup.clip_time_s.is_finite() && self.getup.clip_time_s >= 0.0) {
            return Err(format!(
                "root.getup.clip_time_s must be finite and ≥ 0: {}",
                self.getup.clip_time_s
            ));
        }
        self.protect.validate().map_err(|e| format!("root.{e}"))?;
        self.ground.validate().map_err(|e| format!("root.{e}"))
    }
}
