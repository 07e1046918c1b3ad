//! Running a clip's character with its scripted hits and collecting the reacted motion.

use nalgebra::{UnitQuaternion, Vector3};

use super::scale::{ScaledHit, froude, scale_hits};
use super::script::{HitScript, PointSpace, ScriptedHit};
use crate::control::{Character, CharacterError, Evaluation, ImpulseWork, Recorder};
use crate::scene::{Ball, HitEvent, Scene, SceneError, aimed_ball};
use crate::skeleton::rest_height;
use crate::skeleton::{Clip, Pose, slerp_short};

/// What the baked clip holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BakeMode {
    /// The input clip with the simulated deviation from the reference layered on each simulated joint
    /// (`clip · R_ref⁻¹ R_sim`): an unperturbed bake is the input clip, its detail (what the reference filter
    /// removed) is kept, and a hit's reaction is the physics. The default.
    #[default]
    Layered,
    /// The simulated pose itself (the filtered reference plus the reaction).
    Simulated,
}

/// A failed bake.
#[derive(Debug, thiserror::Error)]
pub enum BakeError {
    /// The scene or the character failed.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The hits script asks for something impossible.
    #[error("hits script: {0}")]
    Script(String),
    /// The input file could not be read (the message names it and the OS error).
    #[error("{0}")]
    Read(String),
    /// The input file could not be understood (the message names it and the place in it).
    #[error("{0}")]
    Input(String),
    /// The character of a named clip could not be built, or its bake failed: the file and the cause.
    #[error("{file}: {source}")]
    Clip {
        /// The input file (or the embedded walk).
        file: String,
        /// What failed.
        source: Box<BakeError>,
    },
    /// The output file could not be written (the message names it).
    #[error("{0}")]
    Write(String),
}

impl BakeError {
    /// The error itself, without the file context of [`BakeError::Clip`].
    pub fn cause(&self) -> &BakeError {
        match self {
            BakeError::Clip { source, .. } => source.cause(),
            other => other,
        }
    }
}

impl From<CharacterError> for BakeError {
    fn from(e: CharacterError) -> Self {
        BakeError::Scene(SceneError::Character(e))
    }
}

/// The result of a bake.
#[derive(Debug, Clone)]
pub struct Baked {
    /// The reacted clip, on the input clip's frame times and skeleton.
    pub clip: Clip,
    /// Tracking and hit figures of the run (as `flinch eval` prints them).
    pub evaluation: Evaluation,
    /// Ball contacts and scripted impulses, in time order.
    pub events: Vec<HitEvent>,
    /// Simulation steps run.
    pub steps: usize,
    /// What each body-relative hit became (empty for an absolute hits file).
    pub scaled: Vec<ScaledHit>,
}

/// A scripted impulse resolved to a body.
struct Pending {
    time: f64,
    event: PendingEvent,
}

enum PendingEvent {
    Impulse {
        bone: String,
        impulse: Vector3<f64>,
        point: Option<(Vector3<f64>, PointSpace)>,
    },
    Ball(Ball),
}

fn vector(v: [f64; 3], what: &str) -> Result<Vector3<f64>, BakeError> {
    let v = Vector3::from(v);
    if v.iter().all(|c| c.is_finite()) {
        Ok(v)
    } else {
        Err(BakeError::Script(format!(
            "{what} must be finite, got {v:?}"
        )))
    }
}

/// Resolves the script against the character (bone names, aimed balls) into time-ordered events.
fn schedule(character: &Character, script: &HitScript) -> Result<Vec<Pending>, BakeError> {
    let mut out = Vec::with_capacity(script.hits.len());
    for (i, hit) in script.hits.iter().enumerate() {
        let at = |what: &str| format!("hits[{i}].{what}");
        let pending = match hit {
            ScriptedHit::Impulse {
                time,
                bone,
                impulse,
                point,
                space,
            } => {
                character.body_of_bone(bone)?;
                Pending {
                    time: *time,
                    event: PendingEvent::Impulse {
                        bone: bone.clone(),
                        impulse: vector(*impulse, &at("impulse"))?,
                        point: match point {
                            Some(p) => Some((vector(*p, &at("point"))?, *space)),
                            None => None,
                        },
                    },
                }
            }
            ScriptedHit::Ball {
                time,
                radius,
                mass,
                start,
                velocity,
            } => Pending {
                time: *time,
                event: PendingEvent::Ball(Ball {
                    radius: *radius,
                    mass: *mass,
                    position: vector(*start, &at("start"))?,
                    velocity: vector(*velocity, &at("velocity"))?,
                }),
            },
            ScriptedHit::AimedBall {
                bone,
                arrival,
                velocity,
                radius,
                mass,
                flight,
            } => {
                let v = vector(*velocity, &at("velocity"))?;
                let (time, ball) =
                    aimed_ball(character, bone, *arrival, v, *radius, *mass, *flight)?;
                Pending {
                    time,
                    event: PendingEvent::Ball(ball),
                }
            }
        };
        if !(pending.time.is_finite() && pending.time >= 0.0) {
            return Err(BakeError::Script(format!(
                "{}: the time must be ≥ 0, got {}",
                at("time"),
                pending.time
            )));
        }
        out.push(pending);
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time));
    Ok(out)
}

/// One simulation sample of what the bake needs.
enum Sample {
    /// Per body: the deviation `R_ref⁻¹ R_sim` of its joint.
    Deviation(Vec<UnitQuaternion<f64>>),
    /// The simulated pose.
    Pose(Pose),
}

fn sample(character: &Character, mode: BakeMode) -> Sample {
    match mode {
        BakeMode::Layered => Sample::Deviation(
            (0..character.model().bodies.len())
                .map(|b| match b {
                    0 => UnitQuaternion::identity(),
                    _ => character.reference_rotation(b).inverse() * character.joint_rotation(b),
                })
                .collect(),
        ),
        BakeMode::Simulated => Sample::Pose(character.pose()),
    }
}

/// Simulates `character` over its whole reference with the hits of `script`, calling `progress` with the
/// fraction done every few steps, and returns the reacted clip on the input clip's frames.
pub fn bake(
    character: Character,
    script: &HitScript,
    mode: BakeMode,
    mut progress: impl FnMut(f64),
) -> Result<Baked, BakeError> {
    let (mass, height) = (
        character.model().total_mass(),
        rest_height(character.skeleton()),
    );
    let (k, size) = froude(mass, height);
    let (script, scaled) = scale_hits(script, size, |_| k).map_err(BakeError::Script)?;
    let script = &script;
    let pending = schedule(&character, script)?;
    let h = character.step_size();
    let end = character.reference().duration();
    let steps = (end / h + 1e-9).floor() as usize;
    let mut scene = Scene::new();
    scene.set_restitution(script.restitution)?;
    let key = scene.add_character(character);
    let mut recorder = Recorder::new(scene.character(key)?);
    let mut samples = Vec::with_capacity(steps + 1);
    samples.push(sample(scene.character(key)?, mode));
    let mut events = Vec::new();
    let mut next = 0;
    let mut works: Vec<(usize, ImpulseWork)> = Vec::new();
    for step in 0..steps {
        let t = scene.time();
        while next < pending.len() && pending[next].time <= t + 0.5 * h {
            match &pending[next].event {
                PendingEvent::Impulse {
                    bone,
                    impulse,
                    point,
                } => {
                    let c = scene.character_mut(key)?;
                    let body = c.body_of_bone(bone)?;
                    let point = match point {
                        None => c.world().body(body).position,
                        Some((p, PointSpace::World)) => *p,
                        Some((p, PointSpace::Bone)) => {
                            let j = c.joint_of_bone(bone)?;
                            (c.world_transforms()[j] * nalgebra::Point3::from(*p)).coords
                        }
                    };
                    c.apply_body_impulse(body, point, *impulse)?;
                    recorder.hit_at(t);
                    works.push((events.len(), ImpulseWork::begin(c, body, &point, *impulse)));
                    events.push(HitEvent {
                        time: t,
                        character: key,
                        bone: c.model().bodies[body].name.clone(),
                        body,
                        point,
                        normal: -impulse.try_normalize(1e-300).unwrap_or(Vector3::zeros()),
                        impulse: *impulse,
                        ball: None,
                        collider: None,
                        energy_j: 0.0,
                    });
                }
                PendingEvent::Ball(ball) => {
                    scene.spawn_ball(*ball)?;
                }
            }
            next += 1;
        }
        scene.step(h)?;
        for e in scene.events() {
            recorder.hit_at(e.time);
            recorder.add_work(e.energy_j);
            events.push(e.clone());
        }
        let c = scene.character(key)?;
        for (i, w) in works.drain(..) {
            events[i].energy_j = w.finish(c);
            recorder.add_work(events[i].energy_j);
        }
        recorder.after_step(c, scene.max_separation(key)?);
        samples.push(sample(c, mode));
        if step % 64 == 0 || step + 1 == steps {
            progress((step + 1) as f64 / steps.max(1) as f64);
        }
    }
    let character = scene.remove_character(key)?;
    let clip = resample(&character, &samples, h, mode);
    let evaluation = recorder.finish(end);
    Ok(Baked {
        clip,
        evaluation,
        events,
        steps,
        scaled,
    })
}

/// The reacted clip on the input clip's frame times: simulation samples (every `h` from 0) interpolated.
fn resample(character: &Character, samples: &[Sample], h: f64, mode: BakeMode) -> Clip {
    let input = character.clip();
    let model = character.model();
    let mut clip = input.clone();
    let last = samples.len().saturating_sub(1);
    for (f, frame) in clip.frames.iter_mut().enumerate() {
        let t = f as f64 * input.frame_time;
        let x = (t / h).max(0.0);
        let k = (x.floor() as usize).min(last);
        let s = if k < last { x - k as f64 } else { 0.0 };
        let k1 = (k + 1).min(last);
        match (&samples[k], &samples[k1], mode) {
            (Sample::Deviation(a), Sample::Deviation(b), BakeMode::Layered) => {
                for (body, (qa, qb)) in model.bodies.iter().zip(a.iter().zip(b)).skip(1) {
                    let j = body.skeleton_joint;
                    frame.rotations[j] *= slerp_short(qa, qb, s);
                }
            }
            (Sample::Pose(a), Sample::Pose(b), _) => *frame = Pose::interpolate(a, b, s),
            _ => {}
        }
    }
    clip
}
