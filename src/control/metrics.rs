//! Tracking and hit-recovery metrics: run a character over its clip, optionally hit it, and measure joint-angle
//! errors against the reference (and the raw clip), the peak deviation after a hit, the time back within 2°, the
//! largest joint separation and the energy the hit injected.

use nalgebra::{UnitQuaternion, Vector3};

use super::character::{Character, CharacterError, ControlTerms};
use crate::math::rotation_distance;

/// A scripted hit: an impulse at a point of a bone's body at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Skeleton joint name (its body is hit).
    pub bone: String,
    /// Time of the hit (s).
    pub time: f64,
    /// Impulse (N·s, world).
    pub impulse: Vector3<f64>,
    /// Point of application (m, world, at the hit time); `None`: the body's centre of mass.
    pub point: Option<Vector3<f64>>,
}

/// What to run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvalOptions {
    /// Hits, in any order.
    pub hits: Vec<Hit>,
    /// Control terms (both by default).
    pub terms: ControlTerms,
    /// Stop after this many seconds (default: the whole reference).
    pub duration: Option<f64>,
}

/// Error figures of one joint.
#[derive(Debug, Clone, PartialEq)]
pub struct JointError {
    /// Name of the body's skeleton joint.
    pub name: String,
    /// RMS joint-angle error against the reference (degrees) before the first hit.
    pub rms_deg: f64,
    /// Largest joint-angle error against the reference (degrees) before the first hit.
    pub max_deg: f64,
}

/// Figures of a hit run.
#[derive(Debug, Clone, PartialEq)]
pub struct HitFigures {
    /// Largest joint-angle deviation from the reference after the first hit (degrees).
    pub peak_deg: f64,
    /// The joint where it happened.
    pub peak_joint: String,
    /// When it happened (s).
    pub peak_time: f64,
    /// Time from the first hit until every joint stays within 2° of the reference (s); `None` if it never does
    /// before the end of the run.
    pub return_s: Option<f64>,
    /// Work done by the hit forces (J).
    pub energy_j: f64,
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Simulation step (s).
    pub h: f64,
    /// Steps run.
    pub steps: usize,
    /// RMS joint-angle error against the reference (degrees), all joints, before the first hit.
    pub track_rms_deg: f64,
    /// Largest joint-angle error against the reference (degrees), before the first hit.
    pub track_max_deg: f64,
    /// RMS joint-angle error against the raw (unfiltered, unprojected) clip (degrees), before the first hit.
    pub raw_rms_deg: f64,
    /// Largest joint-angle error against the raw clip (degrees), before the first hit.
    pub raw_max_deg: f64,
    /// Per-joint errors.
    pub joints: Vec<JointError>,
    /// Largest joint anchor separation over the whole run (mm).
    pub max_joint_gap_mm: f64,
    /// Hit figures, when the run had hits.
    pub hit: Option<HitFigures>,
    /// Per step: time (s) and the largest joint deviation from the reference (degrees).
    pub deviation: Vec<(f64, f64)>,
}

impl Evaluation {
    /// The `figure <name> <value> <unit>` lines of this run.
    pub fn figure_lines(&self) -> Vec<String> {
        let mut v = vec![
            format!("figure track_rms_deg {:.3e} deg", self.track_rms_deg),
            format!("figure track_max_deg {:.3e} deg", self.track_max_deg),
            format!("figure raw_rms_deg {:.4} deg", self.raw_rms_deg),
            format!("figure raw_max_deg {:.4} deg", self.raw_max_deg),
            format!("figure max_joint_gap_mm {:.3e} mm", self.max_joint_gap_mm),
        ];
        if let Some(h) = &self.hit {
            v.push(format!("figure hit_peak_deg {:.3} deg", h.peak_deg));
            v.push(match h.return_s {
                Some(r) => format!("figure hit_return_s {r:.4} s"),
                None => "figure hit_return_s inf s".to_string(),
            });
            v.push(format!("figure hit_energy_j {:.3} J", h.energy_j));
        }
        v
    }
}

/// Runs `character` from its current state to the end of its reference (or `options.duration`) with the hits,
/// and measures.
pub fn evaluate(
    character: &mut Character,
    options: &EvalOptions,
) -> Result<Evaluation, CharacterError> {
    character.set_control_terms(options.terms);
    let h = character.step_size();
    let end = options
        .duration
        .unwrap_or(f64::INFINITY)
        .min(character.reference().duration());
    let steps = ((end - character.time()) / h + 1e-9).floor().max(0.0) as usize;
    let mut hits = options.hits.clone();
    hits.sort_by(|a, b| a.time.total_cmp(&b.time));
    let first_hit = hits.first().map(|h| h.time);
    let nb = character.model().bodies.len();
    let names: Vec<String> = character
        .model()
        .bodies
        .iter()
        .map(|b| b.name.clone())
        .collect();

    let mut sum_sq = vec![0.0; nb];
    let mut max = vec![0.0f64; nb];
    let (mut raw_sq, mut raw_max, mut count, mut raw_count) = (0.0, 0.0f64, 0usize, 0usize);
    let mut gap = 0.0f64;
    let mut deviation = Vec::with_capacity(steps);
    let mut peak = (0.0f64, 0usize, 0.0);
    let mut last_outside: Option<f64> = None;
    let mut energy = 0.0;
    let mut next_hit = 0;
    let mut active: Vec<(usize, Vector3<f64>, Vector3<f64>, usize)> = Vec::new();
    let mut raw_world = Vec::new();

    for _ in 0..steps {
        let t = character.time();
        while next_hit < hits.len() && hits[next_hit].time <= t + 0.5 * h {
            let hit = &hits[next_hit];
            let body = character.body_of_bone(&hit.bone)?;
            let point = hit.point.unwrap_or(character.world().body(body).position);
            character.apply_impulse(&hit.bone, point, hit.impulse)?;
            let local = character.world().body(body).point_local(&point);
            active.push((body, local, hit.impulse / h, 1));
            next_hit += 1;
        }
        let before: Vec<Vector3<f64>> = active
            .iter()
            .map(|(b, p, _, _)| point_velocity(character, *b, p))
            .collect();
        let report = character.step(h)?;
        for ((b, p, f, _), v0) in active.iter().zip(&before) {
            let v1 = point_velocity(character, *b, p);
            energy += f.dot(&(0.5 * (v0 + v1))) * h;
        }
        active.retain_mut(|a| {
            a.3 -= 1;
            a.3 > 0
        });
        gap = gap.max(report.max_separation);
        let t = character.time();
        let before_hit = first_hit.is_none_or(|th| t < th);
        let mut worst = (0.0f64, 0usize);
        for b in 1..nb {
            let e = rotation_distance(
                &character.joint_rotation(b),
                &character.reference_rotation(b),
            )
            .to_degrees();
            if e > worst.0 {
                worst = (e, b);
            }
            if before_hit {
                sum_sq[b] += e * e;
                max[b] = max[b].max(e);
            }
        }
        if before_hit {
            count += 1;
            let pose = character.clip().sample(t.min(character.clip().duration()));
            pose.world_transforms_into(character.skeleton(), &mut raw_world);
            for b in 1..nb {
                let p = character.reference().topology.parent[b];
                let rot = |i: usize| raw_world[character.model().bodies[i].skeleton_joint].rotation;
                let raw: UnitQuaternion<f64> = rot(p).inverse() * rot(b);
                let e = rotation_distance(&character.joint_rotation(b), &raw).to_degrees();
                raw_sq += e * e;
                raw_max = raw_max.max(e);
                raw_count += 1;
            }
        } else {
            if worst.0 > peak.0 {
                peak = (worst.0, worst.1, t);
            }
            if worst.0 > 2.0 {
                last_outside = Some(t);
            }
        }
        deviation.push((t, worst.0));
    }

    let joints: Vec<JointError> = (1..nb)
        .map(|b| JointError {
            name: names[b].clone(),
            rms_deg: (sum_sq[b] / count.max(1) as f64).sqrt(),
            max_deg: max[b],
        })
        .collect();
    let total_sq: f64 = sum_sq.iter().sum();
    let hit = first_hit.map(|th| HitFigures {
        peak_deg: peak.0,
        peak_joint: names[peak.1].clone(),
        peak_time: peak.2,
        return_s: match last_outside {
            None => Some(0.0),
            Some(t) if t + h < end - 1e-9 => Some(t + h - th),
            Some(_) => None,
        },
        energy_j: energy,
    });
    Ok(Evaluation {
        h,
        steps,
        track_rms_deg: (total_sq / (count * (nb - 1)).max(1) as f64).sqrt(),
        track_max_deg: max.iter().cloned().fold(0.0, f64::max),
        raw_rms_deg: (raw_sq / raw_count.max(1) as f64).sqrt(),
        raw_max_deg: raw_max,
        joints,
        max_joint_gap_mm: gap * 1000.0,
        hit,
        deviation,
    })
}

/// World velocity (m/s) of the body point `local` (body coordinates relative to the CoM).
fn point_velocity(character: &Character, body: usize, local: &Vector3<f64>) -> Vector3<f64> {
    let b = character.world().body(body);
    let v = b.velocity;
    let w = Vector3::new(v[0], v[1], v[2]);
    Vector3::new(v[3], v[4], v[5]) + w.cross(&(b.orientation * local))
}
