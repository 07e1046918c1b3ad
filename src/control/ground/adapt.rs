//! A flat-ground clip walked over stairs and slopes (issue 38 item 5; `docs/world.md`, "Walking the clip over
//! uneven ground"): each foot is raised by the ground under it, the root by the lower foot's raise, and the legs
//! reach their raised ankles by the retarget's two-bone IK (the feet keep their world rotations).
//!
//! Per foot, a raise per simulation sample: over a stance (any of its sole points in stance on the flat clip)
//! the highest ground under the points in stance, held for the whole stance (a planted foot does not move);
//! over a swing, the way from one stance's raise to the next's, made early when climbing (by mid-swing) and
//! late when descending (after it), and never lower than what keeps every sole point above the ground under it
//! (a toe over a riser). The root's raise is the lower foot's, eroded then blurred over ±0.15 s, so it is never
//! above either foot's: the leg on the higher ground bends more, none has to stretch.

use nalgebra::{Point3, Vector3};

use super::terrain::Terrain;
use super::{GroundError, GroundReference};
use crate::control::reference::ReferenceMotion;
use crate::retarget::Limb;
use crate::skeleton::roles::{BoneMap, Limb as Bone, Role, Side};
use crate::skeleton::{Clip, Pose, Skeleton};

/// Half-width of the root raise's erosion and blur (s).
const ROOT_WINDOW_S: f64 = 0.15;
/// Height a swinging sole point keeps above the ground under it (m).
const SWING_CLEARANCE_M: f64 = 0.01;
/// Stance or swing runs shorter than this (s) are merged into their neighbours (stance flicker).
const MIN_RUN_S: f64 = 0.05;
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
    let feet = feet_raise(reference, ground, &tracks, terrain);
    let steps = reference.steps;
    let foot_raise: Vec<[f64; 2]> = (0..steps).map(|k| [feet[0][k], feet[1][k]]).collect();
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
            let raise = at(&|k| foot_raise[k][side], t);
            let goal = limb.end_position(&world) + Vector3::new(0.0, raise, 0.0);
            limb.solve(skeleton, &mut out, &goal);
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

/// Both feet's raises per simulation sample, left then right (see the module's comment).
fn feet_raise(
    reference: &ReferenceMotion,
    ground: &GroundReference,
    tracks: &[Vector3<f64>],
    terrain: &dyn Terrain,
) -> [Vec<f64>; 2] {
    let np = ground.points.len();
    let steps = reference.steps;
    let sides = [Side::Left, Side::Right];
    let mine = sides.map(|side| {
        (0..np)
            .filter(|&i| ground.points[i].side == side)
            .collect::<Vec<_>>()
    });
    // The relief under point `i` at sample `k`, searched from the point raised by `raise`.
    let relief = |k: usize, i: usize, raise: f64| {
        let p = tracks[k * np + i] + Vector3::new(0.0, raise, 0.0);
        terrain.ground_height(&p).map_or(0.0, |y| y - ground.floor)
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
    stances.sort_by_key(|&(f, a, _)| (a, f));

    // Stances in time order, each raised by the highest ground under its points in stance, searched from the
    // higher foot's last stance (a flight of stairs is climbed one stance at a time, whichever foot takes it).
    let mut raise = [vec![f64::NAN; steps], vec![f64::NAN; steps]];
    let mut last = [0.0f64; 2];
    let mut held: [Vec<(usize, usize, f64)>; 2] = [Vec::new(), Vec::new()];
    for &(f, a, b) in &stances {
        let base = last[0].max(last[1]);
        let mut r = f64::NEG_INFINITY;
        for k in a..b {
            for &i in &mine[f] {
                if ground.stance[k * np + i] {
                    r = r.max(relief(k, i, base));
                }
            }
        }
        if !r.is_finite() {
            r = last[f];
        }
        raise[f][a..b].fill(r);
        last[f] = r;
        held[f].push((a, b, r));
    }
    for f in 0..2 {
        swings(
            &mut raise[f],
            &held[f],
            &mine[f],
            np,
            ground,
            tracks,
            &relief,
        );
    }
    raise
}

/// Fills one foot's raise outside its stances `held` (`(start, end, raise)` in time order): before the first
/// and after the last, theirs; between two, the shaped way from one to the next over the clearance floor.
fn swings(
    raise: &mut [f64],
    held: &[(usize, usize, f64)],
    points: &[usize],
    np: usize,
    ground: &GroundReference,
    tracks: &[Vector3<f64>],
    relief: &dyn Fn(usize, usize, f64) -> f64,
) {
    let (Some(first), Some(last)) = (held.first(), held.last()) else {
        raise.fill(0.0);
        return;
    };
    raise[..first.0].fill(first.2);
    raise[last.1..].fill(last.2);
    for pair in held.windows(2) {
        let ((_, a1, ra), (b0, _, rb)) = (pair[0], pair[1]);
        if b0 <= a1 {
            continue;
        }
        let span = (b0 - a1 + 1) as f64;
        let searched = ra.max(rb);
        // The lowest raise keeping every sole point above the ground under it.
        let need: Vec<f64> = (a1..b0)
            .map(|k| {
                points
                    .iter()
                    .map(|&i| {
                        let gap = tracks[k * np + i].y + ground.lift[k] - ground.floor;
                        relief(k, i, searched) - gap.max(0.0) + SWING_CLEARANCE_M
                    })
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        for (j, k) in (a1..b0).enumerate() {
            let phase = (j + 1) as f64 / span;
            let s = if rb > ra {
                smoothstep(phase / 0.5)
            } else {
                smoothstep((phase - 0.5) / 0.5)
            };
            raise[k] = (ra + (rb - ra) * s).max(need[j]);
        }
        // Smooth what the clearance floor made jump (the ends are the stances' raises), keeping the floor.
        for _ in 0..SWING_SMOOTHING_PASSES {
            let before = raise[a1 - 1..=b0].to_vec();
            for (j, k) in (a1..b0).enumerate() {
                let smoothed = 0.25 * before[j] + 0.5 * before[j + 1] + 0.25 * before[j + 2];
                raise[k] = smoothed.max(need[j]);
            }
        }
    }
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
