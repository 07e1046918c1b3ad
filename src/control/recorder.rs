//! Step-by-step accumulation of the run figures ([`Evaluation`]): tracking errors against the reference and the
//! raw clip before the first hit, the deviation after it, joint separation and the work done by hits. Shared by
//! [`super::evaluate`], the scene and the bake so every tool reports the same numbers.

use nalgebra::{UnitQuaternion, Vector3};

use super::character::Character;
use super::metrics::{Evaluation, HitFigures, JointError};
use crate::math::rotation_distance;

/// A deviation above this (degrees) counts as "not yet returned" after a hit.
pub const RETURN_BAND_DEG: f64 = 2.0;

/// The work an impulse does on a body: `J · ½(v₀ + v₁)` with the velocities of the hit point just before and
/// just after the step that carries it (exact for a constant force over the step when the point's velocity
/// changes linearly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImpulseWork {
    body: usize,
    local: Vector3<f64>,
    impulse: Vector3<f64>,
    before: Vector3<f64>,
}

impl ImpulseWork {
    /// Call when the impulse is applied, before the step that carries it.
    pub fn begin(
        character: &Character,
        body: usize,
        point: &Vector3<f64>,
        impulse: Vector3<f64>,
    ) -> ImpulseWork {
        ImpulseWork {
            body,
            local: character.world().body(body).point_local(point),
            impulse,
            before: character.point_velocity(body, point),
        }
    }

    /// Sets the impulse when it is known only after the step (a contact's): call before [`Self::finish`].
    pub fn set_impulse(&mut self, impulse: Vector3<f64>) {
        self.impulse = impulse;
    }

    /// Call after that step: the work done (J).
    pub fn finish(&self, character: &Character) -> f64 {
        let point = character.world().body(self.body).point_world(&self.local);
        let after = character.point_velocity(self.body, &point);
        self.impulse.dot(&(0.5 * (self.before + after)))
    }
}

/// Accumulates the figures of a run; feed it every step.
#[derive(Debug, Clone)]
pub struct Recorder {
    h: f64,
    names: Vec<String>,
    sum_sq: Vec<f64>,
    max: Vec<f64>,
    count: usize,
    raw_sq: f64,
    raw_max: f64,
    raw_count: usize,
    gap: f64,
    deviation: Vec<(f64, f64)>,
    first_hit: Option<f64>,
    peak: (f64, usize, f64),
    last_outside: Option<f64>,
    energy: f64,
    pending: Vec<ImpulseWork>,
    raw_world: Vec<nalgebra::Isometry3<f64>>,
}

impl Recorder {
    /// A recorder for `character`'s run from its current time.
    pub fn new(character: &Character) -> Recorder {
        let nb = character.model().bodies.len();
        Recorder {
            h: character.step_size(),
            names: character
                .model()
                .bodies
                .iter()
                .map(|b| b.name.clone())
                .collect(),
            sum_sq: vec![0.0; nb],
            max: vec![0.0; nb],
            count: 0,
            raw_sq: 0.0,
            raw_max: 0.0,
            raw_count: 0,
            gap: 0.0,
            deviation: Vec::new(),
            first_hit: None,
            peak: (0.0, 0, 0.0),
            last_outside: None,
            energy: 0.0,
            pending: Vec::new(),
            raw_world: Vec::new(),
        }
    }

    /// Notes a hit at `time` (s): tracking errors stop accumulating and hit figures start. Idempotent after the
    /// first.
    pub fn hit_at(&mut self, time: f64) {
        if self.first_hit.is_none_or(|t| time < t) {
            self.first_hit = Some(time);
        }
    }

    /// Notes an impulse applied to `character` now (before the step that carries it), for the hit figures and
    /// its work.
    pub fn impulse_applied(
        &mut self,
        character: &Character,
        body: usize,
        point: &Vector3<f64>,
        impulse: Vector3<f64>,
    ) {
        self.hit_at(character.time());
        self.pending
            .push(ImpulseWork::begin(character, body, point, impulse));
    }

    /// Adds work (J) done by a hit measured elsewhere (the scene's ball contacts).
    pub fn add_work(&mut self, joules: f64) {
        self.energy += joules;
    }

    /// Measures the state after a step whose largest joint anchor separation was `max_separation` (m).
    pub fn after_step(&mut self, character: &Character, max_separation: f64) {
        for w in self.pending.drain(..) {
            self.energy += w.finish(character);
        }
        self.gap = self.gap.max(max_separation);
        let t = character.time();
        let nb = self.names.len();
        let before_hit = self.first_hit.is_none_or(|th| t < th);
        let mut worst = (0.0f64, 0usize);
        for b in 1..nb {
            let e = character.joint_deviation(b).to_degrees();
            if e > worst.0 {
                worst = (e, b);
            }
            if before_hit {
                self.sum_sq[b] += e * e;
                self.max[b] = self.max[b].max(e);
            }
        }
        if before_hit {
            self.count += 1;
            self.record_raw(character, t);
        } else {
            if worst.0 > self.peak.0 {
                self.peak = (worst.0, worst.1, t);
            }
            if worst.0 > RETURN_BAND_DEG {
                self.last_outside = Some(t);
            }
        }
        self.deviation.push((t, worst.0));
    }

    /// Errors against the raw clip (unfiltered, unprojected) at time `t`.
    fn record_raw(&mut self, character: &Character, t: f64) {
        let pose = character.clip().sample(t.min(character.clip().duration()));
        pose.world_transforms_into(character.skeleton(), &mut self.raw_world);
        let model = character.model();
        for b in 1..self.names.len() {
            let p = character.reference().topology.parent[b];
            let rot = |i: usize| self.raw_world[model.bodies[i].skeleton_joint].rotation;
            let raw: UnitQuaternion<f64> = rot(p).inverse() * rot(b);
            let e = rotation_distance(&character.joint_rotation(b), &raw).to_degrees();
            self.raw_sq += e * e;
            self.raw_max = self.raw_max.max(e);
            self.raw_count += 1;
        }
    }

    /// The figures of the run, which ended at `end` (s).
    pub fn finish(self, end: f64) -> Evaluation {
        let nb = self.names.len();
        let h = self.h;
        let joints: Vec<JointError> = (1..nb)
            .map(|b| JointError {
                name: self.names[b].clone(),
                rms_deg: (self.sum_sq[b] / self.count.max(1) as f64).sqrt(),
                max_deg: self.max[b],
            })
            .collect();
        let total_sq: f64 = self.sum_sq.iter().sum();
        let hit = self.first_hit.map(|th| HitFigures {
            peak_deg: self.peak.0,
            peak_joint: self.names.get(self.peak.1).cloned().unwrap_or_default(),
            peak_time: self.peak.2,
            return_s: match self.last_outside {
                None => Some(0.0),
                Some(t) if t + h < end - 1e-9 => Some(t + h - th),
                Some(_) => None,
            },
            energy_j: self.energy,
        });
        Evaluation {
            h,
            steps: self.deviation.len(),
            track_rms_deg: (total_sq / (self.count * nb.saturating_sub(1)).max(1) as f64).sqrt(),
            track_max_deg: self.max.iter().cloned().fold(0.0, f64::max),
            raw_rms_deg: (self.raw_sq / self.raw_count.max(1) as f64).sqrt(),
            raw_max_deg: self.raw_max,
            joints,
            max_joint_gap_mm: self.gap * 1000.0,
            hit,
            deviation: self.deviation,
        }
    }
}
