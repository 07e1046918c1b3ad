//! Read-back figures: after a bake writes its file, the file is imported again with flinch's own importer and
//! measured, so the figures describe what an animator opens, not what the simulation held in memory: the clip's
//! length and frame count, each planted foot's height above the floor and its skate per stance, and the limb
//! directions against the source clip. `flinch bake --check` fails when they pass [`ReadbackLimits`].

use std::path::Path;

use nalgebra::Vector3;

use crate::io::{ImportOptions, load_file};
use crate::skeleton::roles::{BoneMap, Limb, Role, Side};
use crate::skeleton::stance::{StanceThresholds, detect, quantile, runs};
use crate::skeleton::{Clip, Skeleton};

/// One foot measured on the file.
#[derive(Debug, Clone, PartialEq)]
pub struct FootRef {
    /// `left` or `right`.
    pub side: &'static str,
    /// The ankle joint (skate is its horizontal drift).
    pub ankle: usize,
    /// The ankle and every joint below it (toes), whose origins and end sites are the foot's points.
    pub points: Vec<usize>,
    /// Each point's height in the rest pose (joint origins, then end sites, in `points` order; m).
    pub rest_y: Vec<f64>,
    /// Stance per frame of the reference clip (planted frames).
    pub stance: Vec<bool>,
}

/// One limb bone's direction compared with the source.
#[derive(Debug, Clone, PartialEq)]
pub struct LimbRef {
    /// Its role (`left_forearm`).
    pub role: String,
    /// The bone's joint on the written skeleton.
    pub joint: usize,
    /// The next joint down the limb (its direction is joint → tip).
    pub tip: usize,
    /// The source's direction of the same bone per frame (world, unit or zero).
    pub reference: Vec<Vector3<f64>>,
}

/// What to measure on the written file: built from the clip the bake started from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadbackPlan {
    /// The floor's height (m) in the foot's own measure: a foot's height above the floor is the smallest rise of
    /// any of its points over its rest height, minus `floor_y`. 0 when the rest pose stands on the floor (a
    /// retarget's target); for a clip's own skeleton, where its planted feet stand in the reference clip.
    pub floor_y: f64,
    /// The feet.
    pub feet: Vec<FootRef>,
    /// The limb bones.
    pub limbs: Vec<LimbRef>,
    /// World transforms per frame of the clip the bake started from (on the written skeleton): the file's feet
    /// are also measured against its own, so a mocap clip's own heel roll is not counted against the bake.
    pub reference_world: Vec<Vec<nalgebra::Isometry3<f64>>>,
    /// Frames the file should hold.
    pub frames: usize,
    /// Seconds per frame the file should hold.
    pub frame_time: f64,
}

/// The foot of a side's leg and the limb pairs (bone → the next bone down) compared.
const LIMB_PAIRS: [(Limb, Limb); 4] = [
    (Limb::UpperArm, Limb::Forearm),
    (Limb::Forearm, Limb::Hand),
    (Limb::Thigh, Limb::Shin),
    (Limb::Shin, Limb::Foot),
];

fn world_frames(skeleton: &Skeleton, clip: &Clip) -> Vec<Vec<nalgebra::Isometry3<f64>>> {
    clip.frames
        .iter()
        .map(|p| p.world_transforms(skeleton))
        .collect()
}

/// The joint and every descendant, parents first.
fn subtree(skeleton: &Skeleton, root: usize) -> Vec<usize> {
    let mut out = vec![root];
    for (j, joint) in skeleton.joints.iter().enumerate().skip(root + 1) {
        if joint.parent.is_some_and(|p| out.contains(&p)) {
            out.push(j);
        }
    }
    out
}

/// The heights of `points` (joint origins, then end sites, in order) in one frame's world transforms.
fn heights<'a>(
    skeleton: &'a Skeleton,
    world: &'a [nalgebra::Isometry3<f64>],
    points: &'a [usize],
) -> impl Iterator<Item = f64> + 'a {
    points.iter().flat_map(move |&j| {
        let w = world[j];
        std::iter::once(w.translation.vector.y).chain(
            skeleton.joints[j]
                .end_sites
                .iter()
                .map(move |e| (w * nalgebra::Point3::from(*e)).y),
        )
    })
}

/// How far a foot is above where it stands at rest: the smallest rise of any point over its rest height (a flat
/// foot and a foot on its toes both read 0; a floating foot reads its gap, a sunken one a negative depth).
fn rise(skeleton: &Skeleton, world: &[nalgebra::Isometry3<f64>], foot: &FootRef) -> f64 {
    heights(skeleton, world, &foot.points)
        .zip(&foot.rest_y)
        .map(|(y, r)| y - r)
        .fold(f64::INFINITY, f64::min)
}

impl ReadbackPlan {
    /// The plan for a bake on `skeleton` that started from `reference` (the input clip, or the retargeted
    /// unreacted clip): feet and limbs from the bone map, stance detected on the reference (near its floor and
    /// slow, the retarget's detector and thresholds), limb directions against the reference itself. A skeleton
    /// without legs has no feet to measure; without arms, no arm limbs.
    pub fn new(skeleton: &Skeleton, reference: &Clip) -> ReadbackPlan {
        let map = BoneMap::new(skeleton);
        let world = world_frames(skeleton, reference);
        let rest = crate::skeleton::Pose::rest(skeleton).world_transforms(skeleton);
        let leg = |side: Side| -> Option<f64> {
            let t = map.get(Role::Limb(side, Limb::Thigh))?;
            let s = map.get(Role::Limb(side, Limb::Shin))?;
            let f = map.get(Role::Limb(side, Limb::Foot))?;
            let p = |j: usize| rest[j].translation.vector;
            Some((p(s) - p(t)).norm() + (p(f) - p(s)).norm())
        };
        let mut feet = Vec::new();
        let mut planted = Vec::new();
        for side in [Side::Left, Side::Right] {
            let (Some(ankle), Some(leg)) = (map.get(Role::Limb(side, Limb::Foot)), leg(side))
            else {
                continue;
            };
            let points = subtree(skeleton, ankle);
            let rest_y = heights(skeleton, &rest, &points).collect();
            let track: Vec<Vector3<f64>> =
                world.iter().map(|w| w[ankle].translation.vector).collect();
            let planted_y = quantile(&track.iter().map(|p| p.y).collect::<Vec<_>>(), 0.05);
            let thr = StanceThresholds::default();
            let stance = detect(
                &track,
                reference.frame_time,
                planted_y,
                thr.height * leg,
                thr.speed * leg,
                thr.min_duration_s,
            );
            let foot = FootRef {
                side: side.name(),
                ankle,
                points,
                rest_y,
                stance,
            };
            planted.extend(
                world
                    .iter()
                    .zip(&foot.stance)
                    .filter(|(_, s)| **s)
                    .map(|(w, _)| rise(skeleton, w, &foot)),
            );
            feet.push(foot);
        }
        let mut limbs = Vec::new();
        for side in [Side::Left, Side::Right] {
            for (bone, next) in LIMB_PAIRS {
                let (Some(joint), Some(tip)) = (
                    map.get(Role::Limb(side, bone)),
                    map.get(Role::Limb(side, next)),
                ) else {
                    continue;
                };
                limbs.push(LimbRef {
                    role: Role::Limb(side, bone).to_string(),
                    joint,
                    tip,
                    reference: directions(&world, joint, tip),
                });
            }
        }
        ReadbackPlan {
            floor_y: quantile(&planted, 0.5),
            feet,
            limbs,
            frames: reference.frames.len(),
            frame_time: reference.frame_time,
            reference_world: world,
        }
    }
}

/// The unit direction joint → tip per frame (zero where they coincide).
pub fn directions(
    world: &[Vec<nalgebra::Isometry3<f64>>],
    joint: usize,
    tip: usize,
) -> Vec<Vector3<f64>> {
    world
        .iter()
        .map(|w| {
            (w[tip].translation.vector - w[joint].translation.vector)
                .try_normalize(1e-9)
                .unwrap_or_else(Vector3::zeros)
        })
        .collect()
}

/// One stance of one foot, measured on the file.
#[derive(Debug, Clone, PartialEq)]
pub struct StanceFigure {
    /// `left` or `right`.
    pub side: &'static str,
    /// When it starts and ends (s).
    pub start_s: f64,
    /// When it ends (s).
    pub end_s: f64,
    /// Largest horizontal drift of the ankle from where the stance began (mm).
    pub skate_mm: f64,
    /// 95th percentile of |height of the foot above the floor| over the stance (mm).
    pub height_p95_mm: f64,
    /// The same stance's skate in the clip the bake started from (mm): a mocap ankle rolls heel to toe.
    pub source_skate_mm: f64,
}

/// The figures of a written file, read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Readback {
    /// The file that was read.
    pub file: String,
    /// Frames in the file's clip.
    pub frames: usize,
    /// Frames the bake wrote.
    pub expected_frames: usize,
    /// The file clip's length (s).
    pub duration_s: f64,
    /// The baked clip's length (s).
    pub expected_duration_s: f64,
    /// Per stance of each foot.
    pub stances: Vec<StanceFigure>,
    /// 95th percentile over every planted frame of both feet of |foot height above the floor| (mm).
    pub foot_height_p95_mm: f64,
    /// Median of the signed foot height above the floor over the same frames (mm; negative: below it).
    pub foot_height_median_mm: f64,
    /// Largest skate over the stances (mm).
    pub skate_mm: f64,
    /// Mean angle between the file's limb directions and the source's over the clip (degrees).
    pub limb_dir_deg: f64,
    /// What the bake added to the skate: the largest over the stances of the file's skate minus the source
    /// clip's in the same stance (mm, 0 when none grew).
    pub added_skate_mm: f64,
    /// What the bake added to the planted feet's height: 95th percentile over the planted frames of |the file's
    /// height − the source clip's| (mm).
    pub added_foot_height_p95_mm: f64,
}

/// The limits `bake --check` holds a file to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadbackLimits {
    /// Largest 95th-percentile planted foot height (mm).
    pub foot_height_mm: f64,
    /// Largest skate of any stance (mm).
    pub skate_mm: f64,
    /// Largest mean limb direction error (degrees).
    pub limb_dir_deg: f64,
}

impl Default for ReadbackLimits {
    /// 10 mm, 10 mm, 15°: a planted foot within a centimetre of the floor and of its place; limbs on average
    /// within 15° of the source (a hit moves a limb for a while, a broken file turns it for good).
    fn default() -> Self {
        ReadbackLimits {
            foot_height_mm: 10.0,
            skate_mm: 10.0,
            limb_dir_deg: 15.0,
        }
    }
}

impl Readback {
    /// Every limit the file passes over, as sentences (empty: the file is within limits).
    pub fn failures(&self, limits: &ReadbackLimits) -> Vec<String> {
        let mut out = Vec::new();
        if self.frames != self.expected_frames {
            out.push(format!(
                "{}: {} frames read back, {} written",
                self.file, self.frames, self.expected_frames
            ));
        }
        let half_frame = 0.5 * self.expected_duration_s / self.expected_frames.max(2) as f64;
        if (self.duration_s - self.expected_duration_s).abs() > half_frame {
            out.push(format!(
                "{}: {:.4} s read back, {:.4} s written",
                self.file, self.duration_s, self.expected_duration_s
            ));
        }
        if self.added_foot_height_p95_mm > limits.foot_height_mm {
            out.push(format!(
                "{}: planted feet {:.2} mm off their height in the source clip (95th percentile; limit {} mm)",
                self.file, self.added_foot_height_p95_mm, limits.foot_height_mm
            ));
        }
        if let Some(s) = self
            .stances
            .iter()
            .filter(|s| s.skate_mm - s.source_skate_mm > limits.skate_mm)
            .max_by(|a, b| {
                (a.skate_mm - a.source_skate_mm).total_cmp(&(b.skate_mm - b.source_skate_mm))
            })
        {
            out.push(format!(
                "{}: the {} foot skates {:.2} mm in its stance at {:.2}-{:.2} s, {:.2} mm in the source clip (limit {} mm more)",
                self.file, s.side, s.skate_mm, s.start_s, s.end_s, s.source_skate_mm, limits.skate_mm
            ));
        }
        if self.limb_dir_deg > limits.limb_dir_deg {
            out.push(format!(
                "{}: limbs {:.2} deg from the source on average (limit {} deg)",
                self.file, self.limb_dir_deg, limits.limb_dir_deg
            ));
        }
        out
    }
}

/// Imports `path` (the `animation` of a glTF; a BVH's one clip) with `import` and measures it per `plan`.
/// The file's joints are matched to `skeleton`'s by name; a joint missing from the file is an error.
pub fn read_back(
    path: &Path,
    animation: Option<&str>,
    import: &ImportOptions,
    skeleton: &Skeleton,
    plan: &ReadbackPlan,
) -> Result<Readback, String> {
    let opts = ImportOptions {
        animation: animation.map(str::to_string),
        ..import.clone()
    };
    let file =
        load_file(path, &opts).map_err(|e| format!("reading back {}: {e}", path.display()))?;
    let index: Vec<usize> = skeleton
        .joints
        .iter()
        .map(|j| {
            file.skeleton.find(&j.name).ok_or_else(|| {
                format!(
                    "reading back {}: joint '{}' is not in the file",
                    path.display(),
                    j.name
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let world: Vec<Vec<nalgebra::Isometry3<f64>>> = world_frames(&file.skeleton, &file.clip)
        .into_iter()
        .map(|w| index.iter().map(|&i| w[i]).collect())
        .collect();
    let frames = world.len();
    let dt = file.clip.frame_time;
    let (mut stances, heights) = feet(skeleton, &world, plan, dt);
    let (source, source_heights) = feet(skeleton, &plan.reference_world, plan, dt);
    for (s, r) in stances.iter_mut().zip(&source) {
        s.source_skate_mm = r.skate_mm;
    }
    let added: Vec<f64> = heights
        .iter()
        .zip(&source_heights)
        .map(|(a, b)| (a - b).abs())
        .collect();
    let abs: Vec<f64> = heights.iter().map(|h| h.abs()).collect();
    let mut sum = 0.0;
    let mut count = 0usize;
    for limb in &plan.limbs {
        let got = directions(&world, limb.joint, limb.tip);
        for (g, r) in got.iter().zip(&limb.reference) {
            if g.norm() > 0.5 && r.norm() > 0.5 {
                sum += g.angle(r).to_degrees();
                count += 1;
            }
        }
    }
    Ok(Readback {
        file: path.display().to_string(),
        frames,
        expected_frames: plan.frames,
        duration_s: frames.saturating_sub(1) as f64 * dt,
        expected_duration_s: plan.frames.saturating_sub(1) as f64 * plan.frame_time,
        foot_height_p95_mm: quantile(&abs, 0.95) * 1000.0,
        foot_height_median_mm: quantile(&heights, 0.5) * 1000.0,
        skate_mm: stances.iter().map(|s| s.skate_mm).fold(0.0, f64::max),
        added_skate_mm: stances
            .iter()
            .map(|s| s.skate_mm - s.source_skate_mm)
            .fold(0.0, f64::max),
        added_foot_height_p95_mm: quantile(&added, 0.95) * 1000.0,
        stances,
        limb_dir_deg: if count > 0 { sum / count as f64 } else { 0.0 },
    })
}

/// The stances of both feet measured on `world` (the written skeleton's world transforms per frame): each
/// stance's skate and height figures, and the signed height of the planted feet over every planted frame (m),
/// stance after stance.
fn feet(
    skeleton: &Skeleton,
    world: &[Vec<nalgebra::Isometry3<f64>>],
    plan: &ReadbackPlan,
    dt: f64,
) -> (Vec<StanceFigure>, Vec<f64>) {
    let frames = world.len();
    let mut stances = Vec::new();
    let mut heights = Vec::new();
    for foot in &plan.feet {
        // `world` is on the skeleton's joints, whose end sites are rigid offsets (glTF has none).
        let height = |f: usize| rise(skeleton, &world[f], foot) - plan.floor_y;
        let stance = &foot.stance[..foot.stance.len().min(frames)];
        for (a, b) in runs(stance, true) {
            let start = world[a][foot.ankle].translation.vector;
            let mut skate: f64 = 0.0;
            let mut h = Vec::with_capacity(b + 1 - a);
            for (f, w) in world.iter().enumerate().take(b + 1).skip(a) {
                let d = w[foot.ankle].translation.vector - start;
                skate = skate.max((d.x * d.x + d.z * d.z).sqrt());
                h.push(height(f));
            }
            let abs: Vec<f64> = h.iter().map(|x| x.abs()).collect();
            stances.push(StanceFigure {
                side: foot.side,
                start_s: a as f64 * dt,
                end_s: b as f64 * dt,
                skate_mm: skate * 1000.0,
                height_p95_mm: quantile(&abs, 0.95) * 1000.0,
                source_skate_mm: 0.0,
            });
            heights.extend(h);
        }
    }
    (stances, heights)
}
