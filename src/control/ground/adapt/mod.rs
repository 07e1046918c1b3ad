//! A flat-ground clip walked over stairs and slopes (issue 38 item 5; `docs/world.md`, "Walking the clip over
//! uneven ground"): each foot is raised by the ground under it, the root by the lower foot's raise, and the legs
//! reach their raised ankles by the retarget's two-bone IK (the feet keep their world rotations).
//!
//! Per foot, a placement per simulation sample. A stance (any of its sole points in stance on the flat clip,
//! flicker merged) is placed once, for its whole length (a planted foot does not move): moved along the foot off
//! a step's edge, tilted onto a slope, raised onto the ground under it ([`place_stance`]). Stances are placed in
//! time order, each searched from the higher foot's last level, so a flight is climbed or descended one stance
//! at a time. Over a swing the placement goes from one stance's to the next's, the raise early when climbing (by
//! mid-swing) and late when descending (after it), and never lower than what keeps every sole point a clearance
//! above the ground under, ahead of and behind it (a toe over a riser, a heel over a nosing). The root's raise is
//! the lower foot's, eroded then blurred by a triangle over ±0.1 s, so it is never above either foot's (the leg on
//! the higher ground bends more, none has to stretch) and its acceleration has no jumps. A tilted stance turns
//! about its ankle at the stance's middle, so the rolling foot keeps its contact with the slope.

use nalgebra::{Point3, UnitQuaternion, Vector3};

use super::terrain::Terrain;
use super::{GroundError, GroundReference};
use crate::control::reference::ReferenceMotion;
use crate::retarget::Limb;
use crate::skeleton::roles::{BoneMap, Limb as Bone, Role, Side};
use crate::skeleton::{Clip, Pose, Skeleton};

mod signal;
mod stance;
mod swing;

use signal::{merge_short_runs, root_raise, runs_of};
use stance::{place_stance, sole_samples};
use swing::swings;

/// Half-width of the root raise's erosion and blur (s; `docs/world.md` has the slide and support of others).
const ROOT_WINDOW_S: f64 = 0.1;
/// Height a swinging sole point keeps above the ground under it (m).
const SWING_CLEARANCE_M: f64 = 0.04;
/// How far ahead of and behind a swinging sole point along its travel the ground is checked (m): the capsules'
/// ends reach past their sole points, and the simulated foot lags its reference by up to 5 cm.
const SWING_LOOK_M: f64 = 0.08;
/// Stance or swing runs shorter than this (s) are merged into their neighbours (stance flicker).
const MIN_RUN_S: f64 = 0.05;
/// Sole points over ground this close in height stand on one level (m).
const FLAT_SPREAD_M: f64 = 0.01;
/// Sole points' reliefs this close to their best plane stand on a slope (m).
const PLANE_FIT_M: f64 = 0.005;
/// Farthest a foot is moved along its length off a step's edge (m), and the search's step.
const MAX_SHIFT_M: f64 = 0.15;
const SHIFT_STEP_M: f64 = 0.01;
/// How far past its heel and toe a foot's level is checked (m).
const EDGE_MARGIN_M: f64 = 0.08;
/// Steepest ground a foot is tilted onto (degrees).
const MAX_TILT_DEG: f64 = 25.0;
/// Passes of the swing raise's smoothing (each a [¼ ½ ¼] filter, then the clearance floor again).
const SWING_SMOOTHING_PASSES: usize = 20;

/// What the adaptation did, for figures and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct Adaptation {
    /// The clip with raised feet and root.
    pub clip: Clip,
    /// Per simulation sample, each foot's raise (m), left then right.
    pub foot_raise: Vec<[f64; 2]>,
    /// Per simulation sample, the root's raise (m).
    pub root_raise: Vec<f64>,
}

/// Adapts `clip` (preprocessed as `reference`, with its flat ground `ground`) to `terrain`.
pub(crate) fn adapt_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    reference: &ReferenceMotion,
    ground: &GroundReference,
    terrain: &dyn Terrain,
) -> Result<Adaptation, GroundError> {
    let map = BoneMap::new(skeleton);
    let rest = Pose::rest(skeleton).world_transforms(skeleton);
    let lateral = match (
        map.get(Role::Limb(Side::Left, Bone::Thigh)),
        map.get(Role::Limb(Side::Right, Bone::Thigh)),
    ) {
        (Some(l), Some(r)) => rest[l].translation.vector - rest[r].translation.vector,
        _ => Vector3::x(),
    };
    let mut limbs = Vec::new();
    for side in [Side::Left, Side::Right] {
        let joint = |b| map.get(Role::Limb(side, b));
        let (Some(upper), Some(middle), Some(end)) =
            (joint(Bone::Thigh), joint(Bone::Shin), joint(Bone::Foot))
        else {
            return Err(GroundError::NoFeet(format!(
                "adapting a clip to the ground needs both legs' thigh, shin and foot; the {side:?} leg lacks one"
            )));
        };
        // Knees bend about the character's right when a leg is straight.
        let bend_hint = rest[upper].rotation.inverse()
            * (-lateral).try_normalize(1e-9).unwrap_or_else(Vector3::x);
        limbs.push(Limb {
            upper,
            middle,
            end,
            end_attached: !is_below(skeleton, end, middle),
            tip: rest[middle].inverse() * Point3::from(rest[end].translation.vector),
            bend_hint,
        });
    }

    let tracks = super::feet::point_tracks(reference, &ground.points);
    let feet = feet_plans(reference, ground, &tracks, terrain);
    let steps = reference.steps;
    let foot_raise: Vec<[f64; 2]> = (0..steps)
        .map(|k| [feet[0].raise[k], feet[1].raise[k]])
        .collect();
    let lower: Vec<f64> = foot_raise.iter().map(|f| f[0].min(f[1])).collect();
    let w = (ROOT_WINDOW_S / reference.h).round() as usize;
    let root_raise = root_raise(&lower, w);

    // The raises at clip frame times, applied frame by frame.
    let at = |table: &dyn Fn(usize) -> f64, t: f64| {
        let u = (t / reference.h).clamp(0.0, (steps - 1) as f64);
        let k = (u.floor() as usize).min(steps - 1);
        let k1 = (k + 1).min(steps - 1);
        let s = u - k as f64;
        table(k) * (1.0 - s) + table(k1) * s
    };
    let root = skeleton
        .joints
        .iter()
        .position(|j| j.parent.is_none())
        .unwrap_or(0);
    let mut frames = Vec::with_capacity(clip.frames.len());
    for (f, pose) in clip.frames.iter().enumerate() {
        let t = f as f64 * clip.frame_time;
        let world = pose.world_transforms(skeleton);
        let mut out = pose.clone();
        out.translations[root].y += at(&|k| root_raise[k], t);
        for (side, limb) in limbs.iter().enumerate() {
            let plan = &feet[side];
            let shift = at(&|k| plan.shift[k].x, t) * Vector3::x()
                + at(&|k| plan.raise[k], t) * Vector3::y()
                + at(&|k| plan.shift[k].z, t) * Vector3::z();
            let u = (t / reference.h).clamp(0.0, (steps - 1) as f64);
            let k = (u.floor() as usize).min(steps - 1);
            let tilt = plan.tilt[k].slerp(&plan.tilt[(k + 1).min(steps - 1)], u - k as f64);
            let goal = limb.end_position(&world) + shift;
            limb.solve_to(skeleton, &mut out, &goal, tilt * world[limb.end].rotation);
        }
        frames.push(out);
    }
    Ok(Adaptation {
        clip: Clip {
            frame_time: clip.frame_time,
            frames,
        },
        foot_raise,
        root_raise,
    })
}

/// Whether joint `j` hangs below joint `ancestor`.
fn is_below(skeleton: &Skeleton, mut j: usize, ancestor: usize) -> bool {
    while let Some(p) = skeleton.joints[j].parent {
        if p == ancestor {
            return true;
        }
        j = p;
    }
    false
}

/// One foot's placement per simulation sample: how far its ankle is raised (m) and moved horizontally (m,
/// world), and the rotation tilting it onto the ground (world, applied before its clip rotation).
#[derive(Debug, Clone, PartialEq)]
struct FootPlan {
    raise: Vec<f64>,
    shift: Vec<Vector3<f64>>,
    tilt: Vec<UnitQuaternion<f64>>,
}

/// Where one stance puts its foot: samples `a..b`, and the placement held over them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Held {
    a: usize,
    b: usize,
    raise: f64,
    shift: Vector3<f64>,
    tilt: UnitQuaternion<f64>,
    /// The highest ground under the placed sole and the margins past its ends (m, relief): what its swings
    /// leave and meet rather than step over.
    top: f64,
    /// Where the foot is tilted about (m, the clip's frame, the root lifted): its ankle at the stance's middle
    /// sample, where it was placed. Over the stance the foot and the ground under it turn about this fixed
    /// point, so the ankle moves with the tilt as the heel rises (a rigid turn of the flat stance onto the
    /// slope), not about the moving ankle, which would lift the rolling toe off the slope (up to 14 mm on the
    /// 10° ramp).
    pivot: Vector3<f64>,
}

/// Both feet's plans, left then right (see the module's comment).
fn feet_plans(
    reference: &ReferenceMotion,
    ground: &GroundReference,
    tracks: &[Vector3<f64>],
    terrain: &dyn Terrain,
) -> [FootPlan; 2] {
    let np = ground.points.len();
    let steps = reference.steps;
    let mine = [Side::Left, Side::Right].map(|side| {
        (0..np)
            .filter(|&i| ground.points[i].side == side)
            .collect::<Vec<_>>()
    });
    // The relief under a point moved to `p`, searched from `p` raised by `base`.
    let relief = |p: &Vector3<f64>, base: f64| {
        terrain
            .ground_height(&(p + Vector3::new(0.0, base, 0.0)))
            .map_or(0.0, |y| y - ground.floor)
    };
    // Each foot's stances: runs of samples with any of its points in stance, flicker merged.
    let mut stances: Vec<(usize, usize, usize)> = Vec::new();
    for (f, points) in mine.iter().enumerate() {
        let mut flags: Vec<bool> = (0..steps)
            .map(|k| points.iter().any(|&i| ground.stance[k * np + i]))
            .collect();
        merge_short_runs(
            &mut flags,
            (MIN_RUN_S / reference.h).round().max(1.0) as usize,
        );
        stances.extend(
            runs_of(&flags)
                .into_iter()
                .filter(|r| r.2)
                .map(|(a, b, _)| (f, a, b)),
        );
    }
    // A foot swinging at the clip's start or end is placed where the clip leaves it as if it stood there (an empty
    // stance at sample 0 or at the end): its swing follows the ground under it to there, over the clearance.
    for f in 0..2 {
        let own: Vec<_> = stances.iter().filter(|s| s.0 == f).collect();
        let (first, last) = (own.first().map(|s| s.1), own.last().map(|s| s.2));
        if first.is_some_and(|a| a > 0) {
            stances.push((f, 0, 0));
        }
        if last.is_some_and(|b| b < steps) {
            stances.push((f, steps, steps));
        }
    }
    stances.sort_by_key(|&(f, a, _)| (a, f));

    // Stances in time order, each placed on the ground under its middle sample's sole points, searched from the
    // higher foot's last stance (a flight of stairs is climbed one stance at a time, whichever foot takes it).
    let mut last = [0.0f64; 2];
    let mut held: [Vec<Held>; 2] = [Vec::new(), Vec::new()];
    let mut kin = Vec::new();
    // Each foot's ankle per sample, the root lifted (the frame the tilt turns a stance in).
    let mut ankles: [Vec<Vector3<f64>>; 2] = [Vec::with_capacity(steps), Vec::with_capacity(steps)];
    for k in 0..steps {
        reference.poses(k, &mut kin);
        for (f, own) in ankles.iter_mut().enumerate() {
            own.push(kin[ground.points[mine[f][0]].body].origin + Vector3::y() * ground.lift[k]);
        }
    }
    for &(f, a, b) in &stances {
        let base = last[0].max(last[1]);
        let middle = ((a + b) / 2).min(steps - 1);
        let points: Vec<Vector3<f64>> = mine[f].iter().map(|&i| tracks[middle * np + i]).collect();
        let points = sole_samples(&points);
        // Which end of the sole carries the stance on the flat floor (a point in stance over half of it): heel,
        // toe, or both (a swing's virtual stance, or a stance no point holds for half of it: both).
        let carries =
            |i: usize| b == a || 2 * (a..b).filter(|&k| ground.stance[k * np + i]).count() >= b - a;
        let half = mine[f].len() / 2;
        let ends = match [
            mine[f][..half].iter().any(|&i| carries(i)),
            mine[f][half..].iter().any(|&i| carries(i)),
        ] {
            [false, false] => [true, true],
            ends => ends,
        };
        // The ankle: the origin of the foot body carrying the heel points.
        reference.poses(middle, &mut kin);
        let ankle = kin[ground.points[mine[f][0]].body].origin;
        let h = place_stance(&points, ends, &ankle, &|p| relief(p, base));
        last[f] = h.raise;
        held[f].push(Held {
            a,
            b,
            pivot: ankles[f][middle],
            ..h
        });
    }
    [0, 1].map(|f| {
        swings(
            steps,
            &held[f],
            &ankles[f],
            (&mine[f], np),
            ground,
            tracks,
            &|p, base| relief(p, base),
        )
    })
}
