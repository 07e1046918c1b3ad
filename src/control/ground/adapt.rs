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
//! the lower foot's, eroded then blurred over ±0.1 s, so it is never above either foot's: the leg on the higher
//! ground bends more, none has to stretch.

use nalgebra::{Point3, UnitQuaternion, Vector3};

use super::terrain::Terrain;
use super::{GroundError, GroundReference};
use crate::control::reference::ReferenceMotion;
use crate::retarget::Limb;
use crate::skeleton::roles::{BoneMap, Limb as Bone, Role, Side};
use crate::skeleton::{Clip, Pose, Skeleton};

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
    let root_raise = box_blur(&erode(&lower, w), w);

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
        held[f].push(Held { a, b, ..h });
    }
    [0, 1].map(|f| {
        swings(steps, &held[f], &mine[f], np, ground, tracks, &|p, base| {
            relief(p, base)
        })
    })
}

/// Points spread over a sole: each heel point and the toe point on its side (the pairs' order), and two between
/// them, so that a step's edge under the foot never looks like a plane (two pairs at two heights always fit one).
fn sole_samples(points: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
    let half = points.len() / 2;
    if half == 0 || points.len() != 2 * half {
        return points.to_vec();
    }
    let (heel, toe) = points.split_at(half);
    let mut out = Vec::with_capacity(4 * half);
    for (h, t) in heel.iter().zip(toe) {
        for s in [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0] {
            out.push(h.lerp(t, s));
        }
    }
    out
}

/// Where a stance's foot goes, from points over its sole on the flat floor ([`sole_samples`]), which of its ends
/// (heel, toe) carries the stance there, and the relief under a point. A foot across a step's edge is moved along
/// its length by the least distance (at most `MAX_SHIFT_M`) that puts it on one level: its whole sole and
/// `EDGE_MARGIN_M` past heel and toe within `FLAT_SPREAD_M` (a foot on a nosing rolls off it), or else its
/// carrying end and the margin past it on the highest ground under the sole (the ball of a foot on a step, its
/// heel over the step below), with the margin halved then dropped when a tread is too shallow for it. A foot on
/// ground that is a plane (a slope: the points' reliefs within `PLANE_FIT_M` of their best plane) is tilted onto
/// it, up to `MAX_TILT_DEG`. The raise puts the sole on that ground; without a plane, on the highest ground under
/// its points.
fn place_stance(
    points: &[Vector3<f64>],
    ends: [bool; 2],
    ankle: &Vector3<f64>,
    relief: &dyn Fn(&Vector3<f64>) -> f64,
) -> Held {
    // Heel to toe: the samples run from heel to toe on each side (`sole_samples`), heel end first.
    let per_side = points.len().min(4);
    let along = {
        let d = points[per_side - 1] - points[0];
        Vector3::new(d.x, 0.0, d.z)
            .try_normalize(1e-9)
            .unwrap_or_else(Vector3::z)
    };
    let reliefs = |shift: &Vector3<f64>| -> Vec<f64> {
        points.iter().map(|p| relief(&(p + shift))).collect()
    };
    let max = |r: &[f64]| r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = |r: &[f64]| r.iter().copied().fold(f64::INFINITY, f64::min);
    let spread = |r: &[f64]| max(r) - min(r);
    // The reliefs past the heel and the toe (a foot rolls over its stance: a toe right at an edge goes over it).
    let past = |shift: &Vector3<f64>, margin: f64| {
        [
            relief(&(points[0] - along * margin + shift)),
            relief(&(points[points.len() - 1] + along * margin + shift)),
        ]
    };
    // The whole sole on one level.
    let level = |shift: &Vector3<f64>, margin: f64| {
        let mut r = reliefs(shift);
        r.extend(past(shift, margin));
        spread(&r) <= FLAT_SPREAD_M
    };
    // The carrying end on the highest ground under the sole.
    let carried = |shift: &Vector3<f64>, margin: f64| {
        let r = reliefs(shift);
        let beyond = past(shift, margin);
        let carrying = |j: usize| {
            let heel_end = j % per_side < per_side.div_ceil(2);
            if heel_end { ends[0] } else { ends[1] }
        };
        let mut on: Vec<f64> = (0..r.len())
            .filter(|&j| carrying(j))
            .map(|j| r[j])
            .collect();
        on.extend((0..2).filter(|&e| ends[e]).map(|e| beyond[e]));
        !on.is_empty()
            && spread(&on) <= FLAT_SPREAD_M
            && max(&r).max(max(&beyond)) <= min(&on) + FLAT_SPREAD_M
    };
    let mut shift = Vector3::zeros();
    let mut used_margin = EDGE_MARGIN_M;
    let r0 = reliefs(&shift);
    if !level(&shift, EDGE_MARGIN_M) && plane_fit(points, &r0).is_none() {
        let tries = (MAX_SHIFT_M / SHIFT_STEP_M).round() as usize;
        let tests: [(f64, bool); 3] = [
            (EDGE_MARGIN_M, true),
            (0.5 * EDGE_MARGIN_M, false),
            (0.0, false),
        ];
        'search: for (margin, whole) in tests {
            for j in 0..=tries {
                for sign in [1.0, -1.0] {
                    let s = along * (sign * j as f64 * SHIFT_STEP_M);
                    if (whole && level(&s, margin)) || carried(&s, margin) {
                        shift = s;
                        used_margin = margin;
                        break 'search;
                    }
                }
            }
        }
    }
    let r = reliefs(&shift);
    let moved: Vec<Vector3<f64>> = points.iter().map(|p| p + shift).collect();
    let tilt = plane_fit(&moved, &r)
        .filter(|_| spread(&r) > FLAT_SPREAD_M)
        .and_then(|normal| UnitQuaternion::rotation_between(&Vector3::y(), &normal))
        .filter(|tilt| tilt.angle() <= MAX_TILT_DEG.to_radians())
        .unwrap_or_else(UnitQuaternion::identity);
    // The raise that puts every sole point, tilted about the ankle, at least as high above the ground under it
    // as it was above the flat floor (on one level, untilted: the highest relief under the sole).
    let raise = points
        .iter()
        .map(|p| {
            let arm = p - ankle;
            let turned = ankle + shift + tilt * arm;
            relief(&turned) - (turned.y - (ankle.y + shift.y + arm.y))
        })
        .fold(f64::NEG_INFINITY, f64::max);
    // What the foot stands on: its sole and the margins its placement kept clear.
    let mut under = reliefs(&shift);
    under.extend(past(&shift, used_margin));
    Held {
        a: 0,
        b: 0,
        raise,
        shift,
        tilt,
        top: max(&under),
    }
}

/// The unit up normal of the least-squares plane `y = a·x + b·z + c` through `(p.x, r, p.z)`, when every point is
/// within `PLANE_FIT_M` of it (`None` for fewer than three points or a plane that does not fit: a step's edge).
fn plane_fit(points: &[Vector3<f64>], r: &[f64]) -> Option<Vector3<f64>> {
    if points.len() < 3 {
        return None;
    }
    let mut m = nalgebra::Matrix3::zeros();
    let mut v = Vector3::zeros();
    for (p, y) in points.iter().zip(r) {
        let row = Vector3::new(p.x, p.z, 1.0);
        m += row * row.transpose();
        v += row * *y;
    }
    let c = m.try_inverse()? * v;
    let fits = points
        .iter()
        .zip(r)
        .all(|(p, y)| (c.x * p.x + c.y * p.z + c.z - y).abs() <= PLANE_FIT_M);
    fits.then(|| Vector3::new(-c.x, 1.0, -c.y).normalize())
}

/// Fills one foot's plan outside its stances `held` (in time order): before the first and after the last,
/// theirs; between two, the shift and tilt eased over the swing, the raise shaped (early when climbing, late
/// when descending) over the clearance floor.
fn swings(
    steps: usize,
    held: &[Held],
    points: &[usize],
    np: usize,
    ground: &GroundReference,
    tracks: &[Vector3<f64>],
    relief: &dyn Fn(&Vector3<f64>, f64) -> f64,
) -> FootPlan {
    let mut plan = FootPlan {
        raise: vec![0.0; steps],
        shift: vec![Vector3::zeros(); steps],
        tilt: vec![UnitQuaternion::identity(); steps],
    };
    let (Some(first), Some(last)) = (held.first(), held.last()) else {
        return plan;
    };
    let hold = |plan: &mut FootPlan, range: std::ops::Range<usize>, h: &Held| {
        plan.raise[range.clone()].fill(h.raise);
        plan.shift[range.clone()].fill(h.shift);
        plan.tilt[range].fill(h.tilt);
    };
    hold(&mut plan, 0..first.a, first);
    hold(&mut plan, last.b..steps, last);
    for h in held {
        hold(&mut plan, h.a..h.b, h);
    }
    for pair in held.windows(2) {
        let (p, q) = (&pair[0], &pair[1]);
        let (a1, b0) = (p.b, q.a);
        if b0 <= a1 {
            continue;
        }
        let span = (b0 - a1 + 1) as f64;
        let searched = p.raise.max(q.raise);
        for (j, k) in (a1..b0).enumerate() {
            let phase = (j + 1) as f64 / span;
            let e = smoothstep(phase);
            plan.shift[k] = p.shift.lerp(&q.shift, e);
            plan.tilt[k] = p.tilt.slerp(&q.tilt, e);
        }
        // The lowest raise keeping every sole point above the ground under it.
        let need: Vec<f64> = (a1..b0)
            .enumerate()
            .map(|(j, k)| {
                // Over the ground the foot leaves or meets (no higher than its stances' tops) the clearance grows over the
                // swing's first quarter and goes over its last; over anything higher (a nosing stepped down
                // from, a riser stepped over) it stays whole, since the simulated foot lags its reference.
                let phase = (j + 1) as f64 / span;
                let clearance = |u: f64| {
                    let leaving = if u <= p.top + FLAT_SPREAD_M {
                        smoothstep(phase / 0.25)
                    } else {
                        1.0
                    };
                    let meeting = if u <= q.top + FLAT_SPREAD_M {
                        smoothstep((1.0 - phase) / 0.25)
                    } else {
                        1.0
                    };
                    SWING_CLEARANCE_M * leaving * meeting
                };
                points
                    .iter()
                    .map(|&i| {
                        let at = tracks[k * np + i] + plan.shift[k];
                        let gap = at.y + ground.lift[k] - ground.floor;
                        // The ground under the point and a little ahead and behind along its travel (the
                        // capsules' ends reach past their sole points, and the simulated foot lags its reference).
                        let travel = tracks[(k + 1).min(steps - 1) * np + i]
                            - tracks[k.saturating_sub(1) * np + i];
                        let d = Vector3::new(travel.x, 0.0, travel.z)
                            .try_normalize(1e-9)
                            .unwrap_or_else(Vector3::zeros)
                            * SWING_LOOK_M;
                        [at - d, at, at + d]
                            .iter()
                            .map(|p| {
                                let u = relief(p, searched);
                                u + clearance(u)
                            })
                            .fold(f64::NEG_INFINITY, f64::max)
                            - gap.max(0.0)
                    })
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        for (j, k) in (a1..b0).enumerate() {
            let phase = (j + 1) as f64 / span;
            let s = if q.raise > p.raise {
                smoothstep(phase / 0.5)
            } else {
                smoothstep((phase - 0.5) / 0.5)
            };
            plan.raise[k] = (p.raise + (q.raise - p.raise) * s).max(need[j]);
        }
        // Smooth what the clearance floor made jump (the ends are the stances' raises), keeping the floor.
        for _ in 0..SWING_SMOOTHING_PASSES {
            let before: Vec<f64> = std::iter::once(p.raise)
                .chain(plan.raise[a1..b0].iter().copied())
                .chain(std::iter::once(q.raise))
                .collect();
            for (j, k) in (a1..b0).enumerate() {
                let smoothed = 0.25 * before[j] + 0.5 * before[j + 1] + 0.25 * before[j + 2];
                plan.raise[k] = smoothed.max(need[j]);
            }
        }
    }
    plan
}

/// Runs of equal flags: `(start, end, flag)`, `end` exclusive.
fn runs_of(flags: &[bool]) -> Vec<(usize, usize, bool)> {
    let mut out: Vec<(usize, usize, bool)> = Vec::new();
    for (k, &f) in flags.iter().enumerate() {
        match out.last_mut() {
            Some(run) if run.2 == f => run.1 = k + 1,
            _ => out.push((k, k + 1, f)),
        }
    }
    out
}

/// Flips inner runs shorter than `min` samples to their neighbours' flag (shortest first, so flicker inside a
/// stance or a swing disappears and real stances and swings stay).
fn merge_short_runs(flags: &mut [bool], min: usize) {
    loop {
        let runs = runs_of(flags);
        let inner = runs.len().saturating_sub(1);
        let Some(&(a, b, f)) = runs
            .iter()
            .enumerate()
            .filter(|&(n, r)| n > 0 && n < inner && r.1 - r.0 < min)
            .map(|(_, r)| r)
            .min_by_key(|r| r.1 - r.0)
        else {
            return;
        };
        flags[a..b].fill(!f);
    }
}

/// Cubic ease 0 → 1 over `x` in [0, 1] (clamped).
fn smoothstep(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Minimum over ±`w` samples.
fn erode(x: &[f64], w: usize) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            x[k.saturating_sub(w)..(k + w + 1).min(x.len())]
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

/// Mean over ±`w` samples (fewer at the ends). Of an eroded signal it stays at or under the signal.
fn box_blur(x: &[f64], w: usize) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let window = &x[k.saturating_sub(w)..(k + w + 1).min(x.len())];
            window.iter().sum::<f64>() / window.len() as f64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_raise_never_exceeds_the_lower_foot() {
        // A step up at sample 50 and down at 120.
        let lower: Vec<f64> = (0..200)
            .map(|k| if (50..120).contains(&k) { 0.15 } else { 0.0 })
            .collect();
        let root = box_blur(&erode(&lower, 10), 10);
        for (r, l) in root.iter().zip(&lower) {
            assert!(*r <= l + 1e-12, "{r} above {l}");
        }
        assert!((root[85] - 0.15).abs() < 1e-12);
    }

    #[test]
    fn flicker_merges_and_real_runs_stay() {
        let mut flags = vec![true; 30];
        flags[10] = false; // flicker inside a stance
        flags[20..30].fill(false); // a real swing
        merge_short_runs(&mut flags, 3);
        assert!(flags[..20].iter().all(|&f| f));
        assert!(flags[20..].iter().all(|&f| !f));
    }
}
