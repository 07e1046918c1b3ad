//! The ground under a free-root character, from its clip (issue 11; Cline §§2.6–2.7, 5.2): sole points sized from
//! the skeleton, the floor fitted where they rest, stance from height and speed, and the inverse dynamics of a
//! free-floating body with the ground reaction spread over the stance points, so the joints' feedforward carries
//! the body on its feet and only a small residual wrench is left for the root. See `docs/root.md`.

mod adapt;
mod feet;
mod lift;
mod nnls;
mod reaction;
pub mod terrain;

use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

pub(crate) use adapt::adapt_clip;
pub use feet::FootPoint;
pub use nnls::nnls;
pub use reaction::spread_wrench;
pub use terrain::Terrain;

use crate::control::discrete::Twists;
use crate::control::inverse::JointWrenches;
use crate::control::reference::ReferenceMotion;
use crate::model::Model;
use crate::skeleton::Skeleton;
use reaction::ReactionSolver;

/// How the ground is read from the clip and how hard it grips.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GroundConfig {
    /// Floor height (m, world y); `None` (default): fitted from the clip's resting sole points.
    pub floor_m: Option<f64>,
    /// Coulomb friction of the floor (the inverse dynamics' pyramid and the simulated contacts). Default 0.9.
    pub friction: f64,
    /// A sole point within this height of the floor (m) may be in stance. Default 0.003: stance must mean touching
    /// (a looser 3 cm put ground reaction on points the simulation holds above the floor; docs/root.md).
    pub stance_height_m: f64,
    /// ... and slower than this horizontally (m/s). Default 0.3.
    pub stance_speed_mps: f64,
    /// Where the sole sits among a point's stance heights: each sole point is lowered so that this fraction of
    /// its stance samples has it at or below the floor. Default 0.5 (the median). Lower values track the clip's
    /// joints better (the clip's feet dip into a flat floor, which the simulation cannot follow) but leave the
    /// soles above the floor in more of the clip's samples, so fewer samples have a foot in stance and the root
    /// assist carries more of the weight (CMU walk with the root lift: 0.58° and the floor carrying 56 % at 0.2,
    /// 0.66° and 84 % at 0.5); higher values the other way (docs/root.md, "Where the sole sits").
    pub sole_quantile: f64,
    /// Move the clip's root up or down per sample so its lowest slow sole point rests on the floor (smoothed;
    /// docs/root.md, "Who carries the weight"). Default true: without it a walk has a foot in stance in less than
    /// half its samples and the root assist carries about half the weight.
    pub lift_root: bool,
    /// With `lift_root`: also raise the root where a landing sole point (descending faster than the stance
    /// speed) of the clip would be below the floor (docs/root.md, "Landings"). Default true: the jump's landings
    /// stamped the simulated toes into the floor (tracking 0.518 → 0.490° on the jump, 0.494 → 0.490° on the walk,
    /// 0.519 → 0.426° on the SFU walk).
    pub lift_over_landings: bool,
    /// Weight of the root torque misfit against the force misfit in the ground-reaction fit (1/m²): the force
    /// carries the body, so it comes first. Default 0.25 (a torque error counts like a force error at 2 m).
    pub torque_weight: f64,
}

impl Default for GroundConfig {
    fn default() -> Self {
        GroundConfig {
            floor_m: None,
            friction: 0.9,
            stance_height_m: 0.003,
            stance_speed_mps: 0.3,
            sole_quantile: 0.5,
            lift_root: true,
            lift_over_landings: true,
            torque_weight: 0.25,
        }
    }
}

impl GroundConfig {
    /// Whether every value is finite and in range.
    pub fn validate(&self) -> Result<(), GroundError> {
        let ok = self.floor_m.is_none_or(f64::is_finite)
            && self.friction.is_finite()
            && self.friction >= 0.0
            && self.stance_height_m.is_finite()
            && self.stance_height_m > 0.0
            && self.stance_speed_mps.is_finite()
            && self.stance_speed_mps > 0.0
            && (0.0..=1.0).contains(&self.sole_quantile)
            && self.torque_weight.is_finite()
            && self.torque_weight >= 0.0;
        if ok {
            Ok(())
        } else {
            Err(GroundError::Config(format!(
                "ground values must be finite (friction, torque_weight ≥ 0; stance thresholds > 0; sole_quantile in [0, 1]), got {self:?}"
            )))
        }
    }
}

/// The root lift's acceleration (m/s²) over the step from sample `k` to `k + 1`: the change of its central
/// velocities at `k` and `k + 1` over `h` (indices clamped at the ends), as the inverse dynamics differences the
/// clip's own velocities.
fn lift_acceleration(lift: &[f64], k: usize, h: f64) -> f64 {
    let at = |i: isize| lift[i.clamp(0, lift.len() as isize - 1) as usize];
    let k = k as isize;
    let u0 = (at(k + 1) - at(k - 1)) / (2.0 * h);
    let u1 = (at(k + 2) - at(k)) / (2.0 * h);
    (u1 - u0) / h
}

/// Why the ground of a clip could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GroundError {
    /// No feet: the clip cannot stand on its own root.
    #[error("no feet: {0}")]
    NoFeet(String),
    /// A ground setting is out of range.
    #[error("ground config: {0}")]
    Config(String),
}

/// The ground of one clip, per simulation sample.
#[derive(Debug, Clone, PartialEq)]
pub struct GroundReference {
    /// The floor height (m, world y).
    pub floor: f64,
    /// Per sample, how far the clip's root is moved up (m) so its lowest slow sole point rests on the floor (zeros
    /// without `lift_root`): the root assist's target height is the clip's plus this.
    pub lift: Vec<f64>,
    /// The sole points (four per foot: heel pair, toe pair).
    pub points: Vec<FootPoint>,
    /// Stance flags, sample-major (`k · points + i`).
    pub stance: Vec<bool>,
    /// Ground force on each point (N, world), sample-major; zero off stance.
    pub reaction: Vec<Vector3<f64>>,
    /// Joint feedforward with the ground reaction (N·m, joint frame, free axes), like
    /// [`ReferenceMotion::feedforward`].
    pub feedforward: Vec<Vector3<f64>>,
    /// Force the root still needs per sample (N, world, at its CoM).
    pub residual_force: Vec<Vector3<f64>>,
    /// Torque the root still needs per sample (N·m, world, about its CoM).
    pub residual_torque: Vec<Vector3<f64>>,
    /// Mean |height − floor| of the stance points over their stance samples (m).
    pub stance_height_error: f64,
    /// Body weight `m·g` (N).
    pub weight: f64,
    /// Per sample and point (sample-major), how far the ground under the point is above `floor` (m): a clip
    /// adapted to stairs or a slope ([`Terrain`], `docs/world.md`, "Walking the clip over uneven ground").
    /// Empty on the flat floor.
    pub relief: Vec<f64>,
}

impl GroundReference {
    /// Builds the ground of `reference` (preprocessed for `model`, built from `skeleton`).
    pub fn build(
        model: &Model,
        skeleton: &Skeleton,
        reference: &ReferenceMotion,
        config: &GroundConfig,
    ) -> Result<GroundReference, GroundError> {
        GroundReference::build_on(model, skeleton, reference, config, None)
    }

    /// [`GroundReference::build`] on a ground that is not flat: `terrain` gives the ground under each sole point
    /// (the floor where it has none), and everything read from heights (the fitted floor, stance, the soles'
    /// sizes, the root lift) reads them above that ground, as if the terrain were pressed flat; the reaction's
    /// lever arms are the true points. The floor is `config.floor_m`, or fitted on the true heights.
    pub fn build_on(
        model: &Model,
        skeleton: &Skeleton,
        reference: &ReferenceMotion,
        config: &GroundConfig,
        terrain: Option<&dyn Terrain>,
    ) -> Result<GroundReference, GroundError> {
        config.validate()?;
        let (steps, h) = (reference.steps, reference.h);
        let mut points = feet::sole_points(model, skeleton, reference)?;
        let np = points.len();
        let mut tracks = feet::point_tracks(reference, &points);
        let shape = feet::Tracks {
            points: &[],
            np,
            steps,
            h,
        };
        let floor = feet::fit_floor(&shape.over(&tracks), config);
        let relief: Vec<f64> = match terrain {
            Some(t) => tracks
                .iter()
                .map(|p| t.ground_height(p).map_or(0.0, |y| y - floor))
                .collect(),
            None => Vec::new(),
        };
        // Heights above the ground under each point: the flat floor's arithmetic reads these.
        let flattened = |tracks: &mut Vec<Vector3<f64>>| {
            for (p, r) in tracks.iter_mut().zip(&relief) {
                p.y -= r;
            }
        };
        let mut flat_tracks = tracks.clone();
        flattened(&mut flat_tracks);
        let lift = if config.lift_root {
            lift::root_lift(&shape.over(&flat_tracks), floor, config)
        } else {
            vec![0.0; steps]
        };
        // The sole points where the lifted root puts them: stance and the soles' sizes are read from these; the
        // reaction's lever arms, relative to the root, are the same lifted or not.
        let lifted = |tracks: &[Vector3<f64>]| -> Vec<Vector3<f64>> {
            tracks
                .iter()
                .enumerate()
                .map(|(j, p)| p + Vector3::new(0.0, lift[j / np], 0.0))
                .collect()
        };
        let mut standing = lifted(&flat_tracks);
        // Size the soles so each point rests on the floor in its stance samples (at the configured quantile of its
        // heights over them).
        let stance = feet::detect_stance(&shape.over(&standing), floor, config);
        let mut kin = Vec::new();
        for (i, p) in points.iter_mut().enumerate() {
            let mut gaps: Vec<f64> = (0..steps)
                .filter(|&k| stance[k * np + i])
                .map(|k| standing[k * np + i].y - floor)
                .collect();
            if gaps.is_empty() {
                continue;
            }
            gaps.sort_by(f64::total_cmp);
            let q = ((gaps.len() - 1) as f64 * config.sole_quantile).round() as usize;
            let gap = gaps[q];
            // Lower the point by `gap` along world down as seen at one of its stance samples (the q-th in time).
            let k = (0..steps)
                .filter(|&k| stance[k * np + i])
                .nth(q)
                .unwrap_or(0);
            reference.poses(k, &mut kin);
            p.local += kin[p.body].rotation.inverse() * Vector3::new(0.0, -gap, 0.0);
        }
        tracks = feet::point_tracks(reference, &points);
        flat_tracks.clone_from(&tracks);
        flattened(&mut flat_tracks);
        standing = lifted(&flat_tracks);
        let stance = feet::detect_stance(&shape.over(&standing), floor, config);
        Ok(GroundReference::with_stance(
            model, reference, config, floor, lift, points, &tracks, &standing, stance, relief,
        ))
    }

    /// The ground of `reference`, a clip adapted to `terrain` from a flat-ground clip whose ground is `flat`
    /// (`adapt_clip`; `docs/world.md`, "Walking the clip over uneven ground"): [`GroundReference::build_on`]
    /// with the flat clip's floor and sole points. The adaptation moves the legs, not the feet, so the soles
    /// are the flat clip's: placed and sized again from the adapted clip's heights (its lowest samples are
    /// wherever the terrain is lowest, its stance samples read above a terrain) they moved by millimetres, the
    /// toe-off and heel-strike points of a stance came out just over the 3 mm stance height, and a fifth of the
    /// samples had no foot in stance (the flat clip: a sixth), the root assist carrying the whole weight there.
    /// The root lift and the stance are read above the terrain as `build_on` reads them, so a foot the
    /// adaptation placed a few millimetres high (a tilt, a crest) still stands.
    pub fn build_adapted(
        model: &Model,
        reference: &ReferenceMotion,
        config: &GroundConfig,
        flat: &GroundReference,
        terrain: &dyn Terrain,
    ) -> Result<GroundReference, GroundError> {
        config.validate()?;
        let (steps, h) = (reference.steps, reference.h);
        let floor = flat.floor;
        let points = flat.points.clone();
        let np = points.len();
        let tracks = feet::point_tracks(reference, &points);
        let relief: Vec<f64> = tracks
            .iter()
            .map(|p| terrain.ground_height(p).map_or(0.0, |y| y - floor))
            .collect();
        let shape = feet::Tracks {
            points: &[],
            np,
            steps,
            h,
        };
        // Heights above the ground under each point, as `build_on` reads them.
        let flat_tracks: Vec<Vector3<f64>> = tracks
            .iter()
            .zip(&relief)
            .map(|(p, r)| p - Vector3::y() * *r)
            .collect();
        let lift = if config.lift_root {
            lift::root_lift(&shape.over(&flat_tracks), floor, config)
        } else {
            vec![0.0; steps]
        };
        let standing: Vec<Vector3<f64>> = flat_tracks
            .iter()
            .enumerate()
            .map(|(j, p)| p + Vector3::new(0.0, lift[j / np], 0.0))
            .collect();
        let stance = feet::detect_stance(&shape.over(&standing), floor, config);
        Ok(GroundReference::with_stance(
            model, reference, config, floor, lift, points, &tracks, &standing, stance, relief,
        ))
    }

    /// The ground once its sole points, lift and stance are read: the stance height error, the ground reaction
    /// over the stance points (`tracks`: their true positions; `standing`: above the ground under them, the root
    /// lifted), the joints' feedforward with it and the root's residual.
    #[allow(clippy::too_many_arguments)]
    fn with_stance(
        model: &Model,
        reference: &ReferenceMotion,
        config: &GroundConfig,
        floor: f64,
        lift: Vec<f64>,
        points: Vec<FootPoint>,
        tracks: &[Vector3<f64>],
        standing: &[Vector3<f64>],
        stance: Vec<bool>,
        relief: Vec<f64>,
    ) -> GroundReference {
        let (steps, h, nb) = (reference.steps, reference.h, reference.bodies());
        let np = points.len();
        let mut kin = Vec::new();
        let (mut sum, mut count) = (0.0, 0usize);
        for (s, p) in stance.iter().zip(standing) {
            if *s {
                sum += (p.y - floor).abs();
                count += 1;
            }
        }
        let stance_height_error = if count > 0 { sum / count as f64 } else { 0.0 };

        let solver = ReactionSolver {
            reference,
            points: &points,
            friction: config.friction,
            torque_weight: config.torque_weight,
        };
        let mut reaction = vec![Vector3::zeros(); steps * np];
        let mut feedforward = vec![Vector3::zeros(); steps * nb];
        let mut residual_force = vec![Vector3::zeros(); steps];
        let mut residual_torque = vec![Vector3::zeros(); steps];
        let (mut v, mut v1): (Twists, Twists) = (Vec::new(), Vec::new());
        let mut wrenches = JointWrenches::default();
        for k in 0..steps.saturating_sub(1) {
            reference.poses(k, &mut kin);
            v.clear();
            v.extend_from_slice(&reference.twists[k * nb..(k + 1) * nb]);
            v1.clear();
            v1.extend_from_slice(&reference.twists[(k + 1) * nb..(k + 2) * nb]);
            let r = solver.step(
                &kin,
                &v,
                &v1,
                &stance[k * np..(k + 1) * np],
                &tracks[k * np..(k + 1) * np],
                lift_acceleration(&lift, k, h),
                &mut wrenches,
                &mut feedforward[k * nb..(k + 1) * nb],
            );
            reaction[k * np..(k + 1) * np].copy_from_slice(&r.forces);
            residual_force[k] = r.residual_force;
            residual_torque[k] = r.residual_torque;
        }
        // The last sample repeats the one before (as the reference's feedforward does).
        if steps >= 2 {
            let last = steps - 1;
            feedforward.copy_within((last - 1) * nb..last * nb, last * nb);
            reaction.copy_within((last - 1) * np..last * np, last * np);
            residual_force[last] = residual_force[last - 1];
            residual_torque[last] = residual_torque[last - 1];
        }
        GroundReference {
            floor,
            lift,
            points,
            stance,
            reaction,
            feedforward,
            residual_force,
            residual_torque,
            stance_height_error,
            weight: model.total_mass() * reference.gravity.norm(),
            relief,
        }
    }

    /// The height (m, world y) of the ground under sole point `i` at sample `k`: the floor plus the terrain's
    /// relief there (`k` clamped to the clip).
    pub fn ground_under(&self, k: usize, i: usize) -> f64 {
        let np = self.points.len();
        let k = k.min((self.stance.len() / np.max(1)).saturating_sub(1));
        self.floor + self.relief.get(k * np + i).copied().unwrap_or(0.0)
    }

    /// Number of sole points.
    pub fn point_count(&self) -> usize {
        self.points.len()
    }

    /// Whether any point is in stance at sample `k`.
    pub fn any_stance(&self, k: usize) -> bool {
        let np = self.points.len();
        self.stance[k * np..(k + 1) * np].iter().any(|&s| s)
    }

    /// Mean over the samples with a foot in stance of |residual force| / (m·g): how much of the body's support the
    /// feet could not give (the root assist gives it).
    pub fn residual_fraction(&self) -> f64 {
        let (mut sum, mut n) = (0.0, 0usize);
        for k in 0..self.residual_force.len() {
            if self.any_stance(k) {
                sum += self.residual_force[k].norm() / self.weight;
                n += 1;
            }
        }
        if n == 0 { 0.0 } else { sum / n as f64 }
    }

    /// Share of the samples with a foot in stance (those [`GroundReference::residual_fraction`] counts).
    pub fn stance_fraction(&self) -> f64 {
        let n = self.residual_force.len();
        (0..n).filter(|&k| self.any_stance(k)).count() as f64 / n.max(1) as f64
    }

    /// Mean over every sample of |residual force| / (m·g): the samples without a foot in stance count with the
    /// whole weight, which the root assist then carries.
    pub fn residual_all_fraction(&self) -> f64 {
        let sum: f64 = self.residual_force.iter().map(|r| r.norm()).sum();
        sum / self.weight / self.residual_force.len().max(1) as f64
    }

    /// The root lift at clip time `tau` of `reference` (the clip this ground was built for), interpolated
    /// between samples, as a vector (m, up).
    pub(crate) fn lift_at(&self, reference: &ReferenceMotion, tau: f64) -> Vector3<f64> {
        let (k, s) = crate::control::sampling::locate(reference, tau);
        crate::control::sampling::lerp_sample(reference, k, s, |k| {
            Vector3::new(0.0, self.lift[k], 0.0)
        })
    }

    /// RMS of the root lift over the samples (m).
    pub fn lift_rms(&self) -> f64 {
        (self.lift.iter().map(|l| l * l).sum::<f64>() / self.lift.len().max(1) as f64).sqrt()
    }
}
