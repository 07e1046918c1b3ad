//! Two walkers on a collision course in one scene (issue 13's `two_characters`): the CMU walk, and the same
//! walk turned 180° about the vertical through the middle of its path and shifted sideways by `offset`, so the
//! two pass each other and their arms meet. Both roots are kinematic (the first on its clip, the second
//! streamed pose by pose as an engine would); their bodies touch through the scene's character contacts.
//! Shared by `examples/two_characters.rs` and `tests/character_contact.rs`.

use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::Scene;
use flinch::skeleton::{Clip, Pose, Skeleton};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

/// What the run measured.
#[derive(Debug, Clone, Default)]
pub struct TwoWalkers {
    /// Steps taken.
    pub steps: usize,
    /// Deepest interpenetration between the two characters after any step (mm).
    pub max_interpenetration_mm: f64,
    /// Character contact events, and the first and last contact times (s).
    pub contacts: usize,
    pub first_contact_s: Option<f64>,
    pub last_contact_s: Option<f64>,
    /// Bones of the first contact: (first character's, second character's).
    pub first_bones: Option<(String, String)>,
    /// Joint tracking RMS (deg) of each character outside the contact window (first contact to 1 s after the
    /// last), and inside it the largest deviation (deg).
    pub track_rms_deg: [f64; 2],
    pub window_max_deg: [f64; 2],
    /// Total impulse each character received (N·s), to check momentum exchange.
    pub impulse_sum: [Vector3<f64>; 2],
}

fn walk() -> (Skeleton, Clip) {
    let mut imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    imported.drop_leading_tpose();
    let clip = imported.clip;
    (imported.skeleton, clip)
}

/// `pose` with its root moved by the world transform `t` (root local = world for the root joint).
fn moved(skeleton: &Skeleton, pose: &Pose, t: &Isometry3<f64>) -> Pose {
    let rest = skeleton.joints[0].rest_rotation;
    let world = Isometry3::from_parts(
        Translation3::from(pose.translations[0]),
        rest * pose.rotations[0],
    );
    let w = t * world;
    let mut out = pose.clone();
    out.translations[0] = w.translation.vector;
    out.rotations[0] = rest.inverse() * w.rotation;
    out
}

/// Runs the two walkers with the second one's path `offset` m to the side of the first's.
pub fn run(offset: f64) -> TwoWalkers {
    let (skeleton, clip) = walk();
    let config = CharacterConfig::default();
    let a = Character::new(skeleton.clone(), clip.clone(), &config).expect("walker A");
    let h = a.step_size();
    // The path's middle and direction on the floor (Y up).
    let p0 = clip.frames[0].translations[0];
    let p1 = clip.frames[clip.frames.len() - 1].translations[0];
    let mid = Vector3::new(0.5 * (p0.x + p1.x), 0.0, 0.5 * (p0.z + p1.z));
    let along = Vector3::new(p1.x - p0.x, 0.0, p1.z - p0.z).normalize();
    let side = along.cross(&Vector3::y());
    let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::PI);
    let t = Translation3::from(mid + side * offset)
        * Isometry3::from_parts(Translation3::identity(), turn)
        * Translation3::from(-mid);
    let b = Character::streamed(
        skeleton.clone(),
        &moved(&skeleton, &clip.frames[0], &t),
        None,
        &config,
    )
    .expect("walker B");
    let mut scene = Scene::new();
    let ka = scene.add_character(a);
    let kb = scene.add_character(b);
    let steps = ((clip.duration() / h) + 1e-9).floor() as usize;
    let mut out = TwoWalkers::default();
    let mut deviations: Vec<(f64, [f64; 2])> = Vec::with_capacity(steps);
    for k in 1..=steps {
        let target = moved(&skeleton, &clip.sample(k as f64 * h), &t);
        scene.set_target_pose(kb, &target, None).expect("target");
        scene.step(h).expect("step");
        out.steps += 1;
        out.max_interpenetration_mm = out
            .max_interpenetration_mm
            .max(scene.max_interpenetration() * 1e3);
        for e in scene.character_contacts() {
            out.contacts += 1;
            out.first_contact_s.get_or_insert(e.time);
            out.last_contact_s = Some(e.time);
            if out.first_bones.is_none() {
                out.first_bones = Some((e.bones[0].clone(), e.bones[1].clone()));
            }
            let (ia, ib) = if e.characters[0] == ka {
                (0, 1)
            } else {
                (1, 0)
            };
            out.impulse_sum[ia] += e.impulse;
            out.impulse_sum[ib] -= e.impulse;
        }
        let dev = |key| {
            let c = scene.character(key).expect("live");
            (1..c.model().bodies.len())
                .map(|b| c.joint_deviation(b))
                .collect::<Vec<f64>>()
        };
        let (da, db) = (dev(ka), dev(kb));
        let rms = |d: &[f64]| {
            (d.iter().map(|x| x * x).sum::<f64>() / d.len() as f64)
                .sqrt()
                .to_degrees()
        };
        let max = |d: &[f64]| d.iter().copied().fold(0.0, f64::max).to_degrees();
        deviations.push((scene.time(), [rms(&da), rms(&db)]));
        let in_window = out.first_contact_s.is_some_and(|f| scene.time() >= f)
            && out.last_contact_s.is_some_and(|l| scene.time() <= l + 1.0);
        if in_window {
            out.window_max_deg[0] = out.window_max_deg[0].max(max(&da));
            out.window_max_deg[1] = out.window_max_deg[1].max(max(&db));
        }
    }
    for i in 0..2 {
        let outside: Vec<f64> = deviations
            .iter()
            .filter(
                |(time, _)| match (out.first_contact_s, out.last_contact_s) {
                    (Some(f), Some(l)) => *time < f || *time > l + 1.0,
                    _ => true,
                },
            )
            .map(|(_, d)| d[i])
            .collect();
        out.track_rms_deg[i] = if outside.is_empty() {
            0.0
        } else {
            (outside.iter().map(|x| x * x).sum::<f64>() / outside.len() as f64).sqrt()
        };
    }
    out
}
