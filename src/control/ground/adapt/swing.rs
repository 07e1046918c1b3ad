//! A foot's placement between its stances: eased, raised early climbing and late descending, over a clearance.

use nalgebra::{UnitQuaternion, Vector3};

use super::*;

/// Fills one foot's plan outside its stances `held` (in time order): before the first and after the last,
/// theirs; between two, the shift and tilt eased over the swing, the raise shaped (early when climbing, late
/// when descending) over the clearance floor.
pub(super) fn swings(
    steps: usize,
    held: &[Held],
    ankles: &[Vector3<f64>],
    (points, np): (&[usize], usize),
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
    // The foot's place at sample `k` of stance `h`: its shift and raise, and how far the tilt about the stance's
    // pivot moves the ankle there (nothing untilted).
    let placed = |k: usize, h: &Held| -> (Vector3<f64>, f64) {
        let arm = ankles[k.min(steps - 1)] - h.pivot;
        let moved = h.tilt * arm - arm;
        (
            h.shift + Vector3::new(moved.x, 0.0, moved.z),
            h.raise + moved.y,
        )
    };
    let hold = |plan: &mut FootPlan, range: std::ops::Range<usize>, h: &Held| {
        for k in range {
            (plan.shift[k], plan.raise[k]) = placed(k, h);
            plan.tilt[k] = h.tilt;
        }
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
        // Where the swing leaves and meets the ground: the stances' last and first places.
        let (p_shift, p_raise) = placed(a1.saturating_sub(1).max(p.a), p);
        let (q_shift, q_raise) = placed(b0, q);
        for (j, k) in (a1..b0).enumerate() {
            let phase = (j + 1) as f64 / span;
            let e = smoothstep(phase);
            plan.shift[k] = p_shift.lerp(&q_shift, e);
            plan.tilt[k] = p.tilt.slerp(&q.tilt, e);
        }
        // The lowest raise keeping every sole point above the ground under it.
        let need: Vec<f64> = (a1..b0)
            .enumerate()
            .map(|(j, k)| {
                // Over the ground the foot leaves or meets (no higher than its stances' tops) the clearance
                // grows over the swing's first quarter and goes over its last; over anything higher (a nosing
                // stepped down from, a riser stepped over) it stays whole, since the simulated foot lags its
                // reference.
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
            plan.raise[k] = (p_raise + (q_raise - p_raise) * s).max(need[j]);
        }
        // Smooth what the clearance floor made jump (the ends are the stances' raises), keeping the floor.
        for _ in 0..SWING_SMOOTHING_PASSES {
            let before: Vec<f64> = std::iter::once(p_raise)
                .chain(plan.raise[a1..b0].iter().copied())
                .chain(std::iter::once(q_raise))
                .collect();
            for (j, k) in (a1..b0).enumerate() {
                let smoothed = 0.25 * before[j] + 0.5 * before[j + 1] + 0.25 * before[j + 2];
                plan.raise[k] = smoothed.max(need[j]);
            }
        }
    }
    plan
}

/// Cubic ease 0 → 1 over `x` in [0, 1] (clamped).
pub(super) fn smoothstep(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}
