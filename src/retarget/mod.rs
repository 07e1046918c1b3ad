//! Retargeting: a clip recorded on one skeleton (CMU, SFU, a studio's) becomes a clip on another (a game's own
//! rig, with other bone names, proportions, rest pose and units), which then goes through the normal pipeline
//! (body from the target skeleton, inverse dynamics, tracking, hits). See `docs/retarget.md`.
//!
//! Both skeletons come in flinch's convention (metres, Y up): the importers convert units and up axes, and the
//! glTF exporter writes the result back in the character's own units and axes.

mod align;
mod ball;
mod chains;
mod figures;
mod ik;
mod map;
mod mass;
mod onto;
mod response;
mod roles;
mod solve;
mod stance;

pub use align::Alignment;
pub use ball::{BALL_ARRIVAL, BALL_MASS, BALL_RADIUS, BALL_SPEED, scaled_ball, travel_direction};
pub use chains::{Key, Tree};
pub use figures::RetargetFigures;
pub use ik::Limb;
pub(crate) use ik::two_bone;
pub use map::{BonePair, Correspondence, MapFile};
pub use onto::{Onto, OntoSummary, bake_onto, bake_onto_with, load_onto, map_text};
pub use response::hit_scale;
pub use roles::{OPTIONAL_ROLES, REQUIRED_ROLES, RoleMap, find_roles, roles_with_overrides};
pub use solve::Placement;
pub use stance::StanceThresholds;

use nalgebra::{Point3, Vector3};

use crate::skeleton::{Clip, Skeleton, rest_points};

/// Why a retarget failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RetargetError {
    /// A skeleton lacks humanoid roles the retargeter needs.
    #[error(
        "the {side} skeleton lacks the humanoid roles {}{}; name the bones playing them in a map file \
         ([source]/[target] role = \"bone\")",
        roles.join(", "),
        if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) }
    )]
    MissingRoles {
        /// `source (clip)` or `target (character)`.
        side: String,
        /// The missing roles.
        roles: Vec<String>,
        /// Why the bone map rejected candidates.
        notes: Vec<String>,
    },
    /// The map file is unreadable or names unknown roles or bones.
    #[error("map file: {0}")]
    MapFile(String),
    /// The clip has no frames, or a value is not finite.
    #[error("{0}")]
    Input(String),
}

/// Options of a retarget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetargetOptions {
    /// Stance detection thresholds.
    pub stance: StanceThresholds,
    /// Frames over which a plant correction fades in and out around a stance (s).
    pub blend_s: f64,
    /// Plant feet (and marked hands) and keep them above the floor with two-bone IK.
    pub cleanup: bool,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        RetargetOptions {
            stance: StanceThresholds::default(),
            blend_s: 0.1,
            cleanup: true,
        }
    }
}

/// One planted effector of a retarget.
#[derive(Debug, Clone, PartialEq)]
pub struct Effector {
    /// Its role (`left_foot`, `right_hand`).
    pub role: String,
    /// The two-bone limb that moves it on the target.
    pub limb: Limb,
    /// Stance per frame, detected on the source.
    pub stance: Vec<bool>,
    /// Lowest allowed height of its joint on the target (m).
    pub min_y: f64,
}

/// A retargeted clip and what was measured.
#[derive(Debug, Clone)]
pub struct Retargeted {
    /// The clip on the target skeleton (the source's frame times).
    pub clip: Clip,
    /// The retarget tree (keys and chains on both skeletons).
    pub tree: Tree,
    /// Target / source leg length.
    pub leg_ratio: f64,
    /// The turn about +Y that made the target face where the source faces (degrees).
    pub heading_deg: f64,
    /// Planted effectors.
    pub effectors: Vec<Effector>,
    /// Accuracy figures.
    pub figures: RetargetFigures,
}

/// Lowest rest-pose point (joints and end sites) of a skeleton: where it stands.
fn floor(sk: &Skeleton) -> f64 {
    rest_points(sk)
        .iter()
        .map(|p| p.y)
        .fold(f64::INFINITY, f64::min)
}

/// Retargets `clip` (on `source`) onto `target` through `map`.
pub fn retarget(
    source: &Skeleton,
    clip: &Clip,
    target: &Skeleton,
    map: &Correspondence,
    opts: &RetargetOptions,
) -> Result<Retargeted, RetargetError> {
    if clip.frames.is_empty() {
        return Err(RetargetError::Input("the clip has no frames".into()));
    }
    if !(clip.frame_time.is_finite() && clip.frame_time > 0.0) {
        return Err(RetargetError::Input(format!(
            "the clip's frame time must be positive, got {}",
            clip.frame_time
        )));
    }
    for (f, pose) in clip.frames.iter().enumerate() {
        if pose.translations.len() != source.len() || pose.rotations.len() != source.len() {
            return Err(RetargetError::Input(format!(
                "frame {f}: {} joints, the source skeleton has {}",
                pose.rotations.len(),
                source.len()
            )));
        }
        let finite = pose
            .translations
            .iter()
            .all(|t| t.iter().all(|x| x.is_finite()))
            && pose
                .rotations
                .iter()
                .all(|q| q.coords.iter().all(|x| x.is_finite()));
        if !finite {
            return Err(RetargetError::Input(format!(
                "frame {f}: a joint value is not finite"
            )));
        }
    }
    let tree = Tree::build(source, target, map)?;
    let align = Alignment::new(source, target, &tree);
    let source_world: Vec<_> = clip
        .frames
        .iter()
        .map(|p| p.world_transforms(source))
        .collect();
    let key = |r: &str| tree.keys.iter().position(|k| k.role == r);
    let feet: Vec<usize> = ["left_foot", "right_foot"]
        .iter()
        .filter_map(|r| key(r))
        .collect();
    let ankle_heights: Vec<f64> = feet
        .iter()
        .flat_map(|&k| {
            let j = tree.keys[k].source;
            source_world.iter().map(move |w| w[j].translation.vector.y)
        })
        .collect();
    let target_ankle = feet
        .iter()
        .map(|&k| align.target_rest[tree.keys[k].target].translation.vector.y)
        .sum::<f64>()
        / feet.len().max(1) as f64;
    // Heights above the floor: the legs (hip joints over the ankles) scale by their rest heights, each rig keeps
    // its own pelvis height above its hip joints.
    let mean_y = |rest: &[nalgebra::Isometry3<f64>], roles: [&str; 2], side: fn(&Key) -> usize| {
        let ys: Vec<f64> = roles
            .iter()
            .filter_map(|r| tree.key(r))
            .map(|k| rest[side(k)].translation.vector.y)
            .collect();
        (!ys.is_empty()).then(|| ys.iter().sum::<f64>() / ys.len() as f64)
    };
    let heights = |rest: &[nalgebra::Isometry3<f64>], side: fn(&Key) -> usize| {
        let pelvis = rest[side(&tree.keys[0])].translation.vector.y;
        let hips = mean_y(rest, ["left_thigh", "right_thigh"], side)?;
        let ankles = mean_y(rest, ["left_foot", "right_foot"], side)?;
        Some((pelvis - hips, hips - ankles))
    };
    let source_heights = heights(&align.source_rest, |k| k.source);
    let target_heights = heights(&align.target_rest, |k| k.target);
    // A rest pose whose legs do not stand (shorter than a tenth of the leg, or a ratio off the leg ratio by more
    // than 2x) keeps the leg ratio and no pelvis offsets.
    let ((source_hips, source_legs), (target_hips, target_legs)) =
        match (source_heights, target_heights) {
            (Some(s), Some(t))
                if s.1 > 0.1 * align.source_leg
                    && (0.5..=2.0).contains(&(t.1 / s.1 / align.leg_ratio)) =>
            {
                (s, t)
            }
            _ => ((0.0, 1.0), (0.0, align.leg_ratio)),
        };
    let mut placement = Placement {
        ratio: align.leg_ratio,
        height_ratio: target_legs / source_legs,
        source_hips,
        target_hips,
        source_ankle: stance::quantile(&ankle_heights, 0.05),
        target_ankle,
    };
    let effectors = effectors(
        source,
        target,
        &tree,
        &align,
        map,
        &placement,
        &source_world,
        clip,
        opts,
    );
    // The stances found, the source's floor is where its planted ankles stand (their median height), not the
    // lowest heights the ankles reach: on the CMU walk the two differ by 4-7 cm, which the retarget put between
    // the robot's planted feet and its floor (or bent its knees to plant them).
    let planted: Vec<f64> = effectors
        .iter()
        .filter(|e| e.role.ends_with("_foot"))
        .filter_map(|e| key(&e.role).map(|k| (e, tree.keys[k].source)))
        .flat_map(|(e, j)| {
            source_world
                .iter()
                .zip(&e.stance)
                .filter(|(_, s)| **s)
                .map(move |(w, _)| w[j].translation.vector.y)
        })
        .collect();
    if !planted.is_empty() {
        placement.source_ankle = stance::quantile(&planted, 0.5);
    }
    let mut frames: Vec<_> = source_world
        .iter()
        .map(|w| solve::solve_frame(target, &tree, &align, &placement, w))
        .collect();
    if opts.cleanup {
        let blend = (opts.blend_s / clip.frame_time).round() as usize;
        feet_to_floor(target, &effectors, &mut frames);
        let goals: Vec<Vec<Vector3<f64>>> = effectors
            .iter()
            .map(|e| {
                let track: Vec<Vector3<f64>> = frames
                    .iter()
                    .map(|p| e.limb.end_position(&p.world_transforms(target)))
                    .collect();
                let on_floor = e.role.ends_with("_foot");
                stance::plant_goals(&track, &e.stance, e.min_y, on_floor, blend)
            })
            .collect();
        lower_pelvis(target, &effectors, &goals, &mut frames, blend);
        for (e, goals) in effectors.iter().zip(&goals) {
            for (pose, goal) in frames.iter_mut().zip(goals) {
                e.limb.solve(target, pose, goal);
            }
        }
    }
    let mut out = Clip {
        frame_time: clip.frame_time,
        frames,
    };
    out.make_hemisphere_continuous();
    let target_world: Vec<_> = out
        .frames
        .iter()
        .map(|p| p.world_transforms(target))
        .collect();
    let tracks: Vec<Vec<Vector3<f64>>> = effectors
        .iter()
        .map(|e| {
            target_world
                .iter()
                .map(|w| e.limb.end_position(w))
                .collect()
        })
        .collect();
    let planted: Vec<figures::Planted<'_>> = effectors
        .iter()
        .zip(&tracks)
        .filter(|(e, _)| e.role.ends_with("_foot"))
        .map(|(e, t)| figures::Planted {
            track: t,
            stance: &e.stance,
            min_y: e.min_y,
        })
        .collect();
    let figures = figures::measure(&tree, &align, &source_world, &target_world, &planted);
    Ok(Retargeted {
        clip: out,
        heading_deg: align.heading.angle().to_degrees()
            * align.heading.axis().map_or(1.0, |a| a.y.signum()),
        leg_ratio: align.leg_ratio,
        tree,
        effectors,
        figures,
    })
}

/// The planted effectors: both feet, and the hands the map marks; stance detected on the source.
#[allow(clippy::too_many_arguments)]
fn effectors(
    source: &Skeleton,
    target: &Skeleton,
    tree: &Tree,
    align: &Alignment,
    map: &Correspondence,
    placement: &Placement,
    source_world: &[Vec<nalgebra::Isometry3<f64>>],
    clip: &Clip,
    opts: &RetargetOptions,
) -> Vec<Effector> {
    let key = |r: &str| tree.keys.iter().position(|k| k.role == r);
    let source_leg = align.source_leg;
    let thr = opts.stance;
    let source_floor = placement.source_ankle - (source_ankle_rest(tree, align) - floor(source));
    let target_floor = floor(target);
    let mut out = Vec::new();
    for side in ["left", "right"] {
        let mut limbs = vec![("foot", "thigh", "shin")];
        if map.plant_hands.iter().any(|h| h == &format!("{side}_hand")) {
            limbs.push(("hand", "upper_arm", "forearm"));
        }
        for (end_base, upper_base, middle_base) in limbs {
            let (end, upper, middle) = (
                format!("{side}_{end_base}"),
                format!("{side}_{upper_base}"),
                format!("{side}_{middle_base}"),
            );
            let (Some(ke), Some(ku), Some(km)) = (key(&end), key(&upper), key(&middle)) else {
                continue;
            };
            let (e, u, m) = (&tree.keys[ke], &tree.keys[ku], &tree.keys[km]);
            let rest = &align.target_rest;
            let tip = rest[m.target].inverse() * Point3::from(rest[e.target].translation.vector);
            let lateral = {
                let l = tree.key(&format!("left_{upper_base}"));
                let r = tree.key(&format!("right_{upper_base}"));
                match (l, r) {
                    (Some(l), Some(r)) => {
                        rest[l.target].translation.vector - rest[r.target].translation.vector
                    }
                    _ => Vector3::x(),
                }
            };
            let is_foot = end.ends_with("_foot");
            // Knees bend about the character's right, elbows about its left (when the limb is straight).
            let hint_world = if is_foot { -lateral } else { lateral };
            let bend_hint = rest[u.target].rotation.inverse()
                * hint_world.try_normalize(1e-9).unwrap_or_else(Vector3::x);
            let track: Vec<Vector3<f64>> = source_world
                .iter()
                .map(|w| w[e.source].translation.vector)
                .collect();
            let (planted_y, min_y) = if is_foot {
                (placement.source_ankle, rest[e.target].translation.vector.y)
            } else {
                (source_floor + 0.05 * source_leg, target_floor)
            };
            let stance = stance::detect(
                &track,
                clip.frame_time,
                planted_y,
                thr.height * source_leg,
                thr.speed * source_leg,
                thr.min_duration_s,
            );
            out.push(Effector {
                role: end,
                limb: Limb {
                    upper: u.target,
                    middle: m.target,
                    end: e.target,
                    end_attached: e.target_attached,
                    tip,
                    bend_hint,
                },
                stance,
                min_y,
            });
        }
    }
    out
}

/// Mean source ankle height in the source rest pose.
fn source_ankle_rest(tree: &Tree, align: &Alignment) -> f64 {
    let feet: Vec<f64> = ["left_foot", "right_foot"]
        .iter()
        .filter_map(|r| tree.key(r))
        .map(|k| align.source_rest[k.source].translation.vector.y)
        .collect();
    feet.iter().sum::<f64>() / feet.len().max(1) as f64
}

/// Lowers the whole character (its root) where a leg cannot reach its foot's goal: a planted foot held where
/// the stance began needs a longer leg at the ends of the stance than the source had, the source's leg being
/// nearly straight there already. The drop is the largest any foot needs, widened and smoothed over `blend`
/// frames so that it does not pop, and at most a fifth of the leg.
/// Moves the root up or down so that each stance's planted ankles stand at their rest height above the floor,
/// the legs' angles untouched: the offset of a frame is the mean over the feet in stance of (rest ankle height −
/// the stance's mean ankle height), linearly interpolated between stances. A mocap floor is not the target's
/// (the CMU walk's planted ankles differ by 3 cm from stance to stance, 6 cm on a 3 m robot): pinning the feet
/// by IK alone bent the knees and cost 1-2° of limb direction; the root carries the difference instead.
fn feet_to_floor(target: &Skeleton, effectors: &[Effector], frames: &mut [crate::skeleton::Pose]) {
    let n = frames.len();
    let mut sum = vec![0.0f64; n];
    let mut count = vec![0usize; n];
    for e in effectors.iter().filter(|e| e.role.ends_with("_foot")) {
        let heights: Vec<f64> = frames
            .iter()
            .map(|p| e.limb.end_position(&p.world_transforms(target)).y)
            .collect();
        for (a, b) in stance::runs(&e.stance, true) {
            let mean = heights[a..=b].iter().sum::<f64>() / (b + 1 - a) as f64;
            for f in a..=b {
                sum[f] += e.min_y - mean;
                count[f] += 1;
            }
        }
    }
    let known: Vec<(usize, f64)> = (0..n)
        .filter(|&f| count[f] > 0)
        .map(|f| (f, sum[f] / count[f] as f64))
        .collect();
    let (Some(&first), Some(&last)) = (known.first(), known.last()) else {
        return;
    };
    let mut next = 0;
    for (f, pose) in frames.iter_mut().enumerate() {
        while next + 1 < known.len() && known[next].0 < f {
            next += 1;
        }
        let offset = if f <= first.0 {
            first.1
        } else if f >= last.0 {
            last.1
        } else {
            let (b, vb) = known[next];
            let (a, va) = known[next - 1];
            va + (vb - va) * (f - a) as f64 / (b - a) as f64
        };
        pose.translations[0].y += offset;
    }
}

fn lower_pelvis(
    target: &Skeleton,
    effectors: &[Effector],
    goals: &[Vec<Vector3<f64>>],
    frames: &mut [crate::skeleton::Pose],
    blend: usize,
) {
    let n = frames.len();
    let mut drop = vec![0.0f64; n];
    for (f, pose) in frames.iter().enumerate() {
        let world = pose.world_transforms(target);
        for (e, g) in effectors.iter().zip(goals) {
            if !e.role.ends_with("_foot") {
                continue;
            }
            let reach = e.limb.reach(&world) * 0.995;
            let hip = world[e.limb.upper].translation.vector;
            let d = hip - g[f];
            let horizontal2 = d.x * d.x + d.z * d.z;
            let need = if horizontal2 < reach * reach {
                d.y - (reach * reach - horizontal2).sqrt()
            } else {
                d.y
            };
            drop[f] = drop[f].max(need.clamp(0.0, 0.2 * reach));
        }
    }
    let k = (blend / 2).max(1);
    let widened: Vec<f64> = (0..n)
        .map(|f| {
            drop[f.saturating_sub(k)..(f + k + 1).min(n)]
                .iter()
                .fold(0.0f64, |a, &b| a.max(b))
        })
        .collect();
    for (f, pose) in frames.iter_mut().enumerate() {
        let window = &widened[f.saturating_sub(k)..(f + k + 1).min(n)];
        let smooth = window.iter().sum::<f64>() / window.len() as f64;
        pose.translations[0].y -= smooth;
    }
}

/// The character configuration of a retargeted character: `config`, with
/// - the performer's total mass (the source skeleton's model at the default build configuration) unless
///   `config.model.total_mass` sets one: the motion's dynamics are the performer's, and a 3 m robot built at
///   water density would weigh ten times as much and shrug a ball off;
/// - the performer's **segment** masses (each key's share of the performer's model, split over the target
///   bodies playing it by their own shape masses) on every body whose mass the config does not set: the
///   target's shapes at uniform density give its own mass fractions, not a body's (RobotExpressive's forearm,
///   four overlapping capsules from the elbow to its palm bases, took 8.5 of the 72.5 kg, ten times a
///   forearm's share);
/// - every target bone the retarget keeps at rest (fingers, palms, IK pole targets) merged into its parent's
///   body unless the config says otherwise: it never moves against its parent in the reference, so as a body
///   of its own it only adds a joint that flaps after a hit (a 47 g finger peaked at 35° and kept the hit
///   figures from returning for 1.4 s);
/// - the joints between the root and the pelvis (an IK rig's floor-level root, whose segments run to the pole
///   targets and the feet) thin (1 cm radius) unless the config sets a radius: a placement handle, not flesh a
///   ball could hit;
/// - the performer's **joint frequencies**: on every mapped body whose gains the config does not set, `k_s`,
///   `k_d` and `load_factor` scaled by its subtree's inertia-over-load ratio against the performer's body of the
///   same key (`response.rs`), so k/I and c/I are the performer's: at the load rule's gains RobotExpressive's 1 m
///   forearm was a pendulum 2.8× slower than the performer's and a hit took 1–1.4 s to settle. (A config that
///   sets an absolute `gains.k_min` keeps it unscaled.)
pub fn performer_config(
    source: &Skeleton,
    target: &Skeleton,
    tree: &Tree,
    config: &crate::control::CharacterConfig,
) -> crate::control::CharacterConfig {
    let mut out = config.clone();
    let performer =
        crate::model::Model::from_skeleton(source, &crate::model::BuildConfig::default()).ok();
    if out.model.total_mass.is_none()
        && let Some(m) = &performer
    {
        out.model.total_mass = Some(m.total_mass());
    }
    let mut moving = vec![false; target.len()];
    for key in &tree.keys {
        for &j in &key.target_chain {
            moving[j] = true;
        }
    }
    // The joints between the root and the pelvis carry the pelvis motion.
    let mut k = tree.keys[0].target;
    while let Some(p) = target.joints[k].parent {
        moving[p] = true;
        let bone = out
            .model
            .bones
            .entry(target.joints[p].name.clone())
            .or_default();
        bone.radius.get_or_insert(0.01);
        bone.collide.get_or_insert(false);
        k = p;
    }
    for (j, joint) in target.joints.iter().enumerate().skip(1) {
        if !moving[j] {
            out.model
                .bones
                .entry(joint.name.clone())
                .or_default()
                .merge
                .get_or_insert(true);
        }
    }
    // The performer's segment masses, on the bodies this configuration builds (a bone whose mass the
    // configuration sets keeps it).
    if let Some(performer) = &performer
        && let Ok(own) = crate::model::Model::from_skeleton(target, &out.model)
    {
        let masses = mass::segment_masses(source, performer, target, &own, tree);
        for (body, m) in own.bodies.iter().zip(masses) {
            if m.is_finite() && m > 0.0 {
                out.model
                    .bones
                    .entry(body.name.clone())
                    .or_default()
                    .mass
                    .get_or_insert(m);
            }
        }
    }
    // The performer's joint frequencies and damping ratios, on the bodies with the performer's masses.
    if let Some(performer) = &performer
        && let Ok(own) = crate::model::Model::from_skeleton(target, &out.model)
    {
        let scales = response::gain_scales(source, performer, target, &own, tree);
        for (body, r) in own.bodies.iter().zip(scales) {
            if r == 1.0 {
                continue;
            }
            let gains = &config.gains;
            out.model
                .bones
                .entry(body.name.clone())
                .or_default()
                .gains
                .get_or_insert(crate::model::GainConfig {
                    k_s: Some(gains.k_s * r),
                    k_d: Some(gains.k_d * r),
                    load_factor: Some(gains.load_factor * r),
                    ..Default::default()
                });
        }
    }
    out
}
