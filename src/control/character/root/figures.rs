//! The free-root figures of issue 11 (`docs/root.md`, "Figures"), measured while stepping a character: tracking,
//! root path, foot slide in stance, penetration, residual wrench, joint gaps, NaN steps, state events. Shared by
//! the `free_root_walk` and `knockdown` examples, the tests and `flinch eval --root`.

use nalgebra::Vector3;

use super::RootState;
use crate::control::character::{Character, CharacterError};

/// What a free-root run measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FreeRootFigures {
    /// RMS over every joint and step of the joint rotation error against the clip (degrees).
    pub track_rms_deg: f64,
    /// RMS over the steps of the root (pelvis CoM) distance to the clip's root, lifted onto the floor (mm).
    pub root_pos_rms_mm: f64,
    /// RMS over the clip of the root lift (`GroundReference::lift`, mm): how far the root's target moved from the
    /// clip's so its standing foot rests on the flat floor.
    pub root_lift_rms_mm: f64,
    /// Largest horizontal travel of a sole point from where its clip stance began, while the clip has it in
    /// stance and the simulation has it on the floor (mm).
    pub foot_slide_mm: f64,
    /// Deepest body point below the floor after a step (mm).
    pub max_penetration_mm: f64,
    /// Mean over the clip's stance samples of |residual root force| / (m g).
    pub residual_wrench_frac: f64,
    /// Share of the clip's samples with a sole point in stance (the samples `residual_wrench_frac` counts).
    pub stance_samples_frac: f64,
    /// Mean over every sample of |residual root force| / (m g): what the inverse dynamics leaves to the assist,
    /// the samples without a foot in stance included (there it is the whole weight).
    pub residual_all_samples_frac: f64,
    /// Share of the body's weight the floor carried while tracking: the mean upward impulse of the floor
    /// contacts per step over m·g·h. The rest is carried by the root assist (`1 −` this, on average).
    pub feet_support_frac: f64,
    /// Mean over the tracking steps of the root assist's force (its residual wrench and its spring, at the step's
    /// end state) over m·g: the external hand's share; exactly 0 for a `Balanced` or `Free` root.
    pub assist_wrench_frac: f64,
    /// Whether the character left `Tracking` for `Falling` during the run.
    pub fell: bool,
    /// Largest joint anchor separation after a step (mm).
    pub max_joint_gap_mm: f64,
    /// Steps whose state was not finite or that the guard had to reset.
    pub nan_steps: usize,
    /// Steps taken.
    pub steps: usize,
    /// Per body (index 0, the root, is 0): RMS over the tracking steps of its joint's rotation error (degrees):
    /// where `track_rms_deg` comes from.
    pub track_rms_by_body_deg: Vec<f64>,
}

/// A sole point's stance in progress: where it was when both the clip and the simulation had it down.
#[derive(Clone, Copy)]
struct Stance {
    start: Option<Vector3<f64>>,
}

impl Character {
    /// Steps a free-root character for `duration` seconds at its preprocessed step, calling `each` after every
    /// step (hits, events), and measures [`FreeRootFigures`]. Figures that compare with the clip (tracking, root
    /// path, slide) count only steps in `Tracking`.
    pub fn run_free_root(
        &mut self,
        duration: f64,
        each: impl FnMut(&mut Character) -> Result<(), CharacterError>,
    ) -> Result<FreeRootFigures, CharacterError> {
        self.run_free_root_in(duration, None, each)
    }

    /// [`Character::run_free_root`] in a level (its colliders the ground, [`Character::step_in`]); the figures
    /// that measure the feet against the floor use the fitted floor (a level's floor should be there).
    pub fn run_free_root_in(
        &mut self,
        duration: f64,
        level: Option<&crate::level::Level>,
        mut each: impl FnMut(&mut Character) -> Result<(), CharacterError>,
    ) -> Result<FreeRootFigures, CharacterError> {
        let ground = self
            .root
            .as_ref()
            .map(|r| r.ground.clone())
            .ok_or_else(|| {
                CharacterError::Argument("run_free_root needs a free or assisted root".into())
            })?;
        let h = self.step_size();
        let steps = (duration / h).round() as usize;
        let nb = self.model().bodies.len();
        let np = ground.points.len();
        let mut stances = vec![Stance { start: None }; np];
        let mut f = FreeRootFigures {
            residual_wrench_frac: ground.residual_fraction(),
            ..FreeRootFigures::default()
        };
        let (mut track_sq, mut track_n, mut root_sq, mut root_n) = (0.0, 0usize, 0.0, 0usize);
        let mut floor_impulse = 0.0;
        let mut assist_force = 0.0;
        let mut body_sq = vec![0.0; nb];
        for _ in 0..steps {
            let report = self.step_in(h, level)?;
            f.steps += 1;
            if self.last_fault().is_some() {
                f.nan_steps += 1;
            }
            f.max_joint_gap_mm = f.max_joint_gap_mm.max(report.max_separation * 1e3);
            f.max_penetration_mm = f.max_penetration_mm.max(self.ground_penetration() * 1e3);
            let tracking = self.root_state() == RootState::Tracking;
            if tracking {
                for (b, body) in body_sq.iter_mut().enumerate().skip(1) {
                    let sq = self.joint_deviation(b).to_degrees().powi(2);
                    track_sq += sq;
                    *body += sq;
                    track_n += 1;
                }
                let (x, _) = self.root_target(self.time());
                root_sq += (self.world().body(0).position - x).norm_squared() * 1e6;
                root_n += 1;
                floor_impulse += self.floor_impulse_y();
                assist_force += self.assist_force();
            }
            f.fell |= self.root_state() == RootState::Falling;
            let k = ((self.clip_time() / h).round() as usize).min(self.reference().steps - 1);
            for (i, p) in ground.points.iter().enumerate() {
                let b = self.world().body(p.body);
                let local = p.local - self.reference().topology.com[p.body];
                let w = b.position + b.orientation * local;
                let down = ground.stance[k * np + i] && w.y - ground.ground_under(k, i) < 0.005;
                match (&mut stances[i].start, down && tracking) {
                    (Some(s), true) => {
                        let d = Vector3::new(w.x - s.x, 0.0, w.z - s.z).norm() * 1e3;
                        f.foot_slide_mm = f.foot_slide_mm.max(d);
                    }
                    (start @ None, true) => *start = Some(w),
                    (start, false) => *start = None,
                }
            }
            each(self)?;
        }
        f.track_rms_deg = (track_sq / track_n.max(1) as f64).sqrt();
        f.track_rms_by_body_deg = body_sq
            .iter()
            .map(|sq| (sq / root_n.max(1) as f64).sqrt())
            .collect();
        f.root_pos_rms_mm = (root_sq / root_n.max(1) as f64).sqrt();
        f.root_lift_rms_mm = ground.lift_rms() * 1e3;
        f.feet_support_frac = floor_impulse / (ground.weight * h * root_n.max(1) as f64);
        f.assist_wrench_frac = assist_force / (ground.weight * root_n.max(1) as f64);
        f.stance_samples_frac = ground.stance_fraction();
        f.residual_all_samples_frac = ground.residual_all_fraction();
        Ok(f)
    }

    /// The magnitude of the root assist's force (N) at the current state: its residual force plus its spring and
    /// damper toward the target (0 when its gains and force are 0, as for a `Balanced` root while tracking).
    fn assist_force(&self) -> f64 {
        let Some(rt) = self.root.as_ref() else {
            return 0.0;
        };
        let spring = self.world.spring(rt.spring);
        let root = self.world().body(0);
        let v = root.velocity.fixed_rows::<3>(3).into_owned();
        (spring.force
            + spring.stiffness * (spring.target - root.position)
            + spring.damping * (spring.target_velocity - v))
            .norm()
    }

    /// The upward impulse (N·s) the floor gave in the last step: the static contacts' (the caller's balls and
    /// other characters are not the floor).
    fn floor_impulse_y(&self) -> f64 {
        let Some(rt) = self.root.as_ref() else {
            return 0.0;
        };
        rt.contacts
            .iter()
            .zip(self.world().contact_impulses())
            .filter(|(c, _)| matches!(c.other, crate::dynamics::ContactOther::Static))
            .map(|(_, i)| i.impulse.y)
            .sum()
    }
}

impl FreeRootFigures {
    /// `figure` lines (the examples' format), names prefixed by `prefix`.
    pub fn figure_lines(&self, prefix: &str) -> Vec<String> {
        vec![
            format!(
                "figure {prefix}free_track_rms_deg {:.4} deg",
                self.track_rms_deg
            ),
            format!(
                "figure {prefix}root_pos_rms_mm {:.3} mm",
                self.root_pos_rms_mm
            ),
            format!(
                "figure {prefix}root_lift_rms_mm {:.3} mm",
                self.root_lift_rms_mm
            ),
            format!("figure {prefix}foot_slide_mm {:.3} mm", self.foot_slide_mm),
            format!(
                "figure {prefix}max_penetration_mm {:.3} mm",
                self.max_penetration_mm
            ),
            format!(
                "figure {prefix}residual_wrench_frac {:.4}",
                self.residual_wrench_frac
            ),
            format!(
                "figure {prefix}stance_samples_frac {:.3}",
                self.stance_samples_frac
            ),
            format!(
                "figure {prefix}residual_all_samples_frac {:.3}",
                self.residual_all_samples_frac
            ),
            format!(
                "figure {prefix}feet_support_frac {:.3}",
                self.feet_support_frac
            ),
            format!(
                "figure {prefix}assist_wrench_frac {:.4}",
                self.assist_wrench_frac
            ),
            format!("figure {prefix}fell {}", u8::from(self.fell)),
            format!(
                "figure {prefix}max_joint_gap_mm {:.2e} mm",
                self.max_joint_gap_mm
            ),
            format!("figure {prefix}nan_steps {}", self.nan_steps),
        ]
    }
}
