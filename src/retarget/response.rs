//! The performer's joint response on the character: per target body, a scale of the feedback gains that gives
//! its joint the natural frequency and damping ratio of the performer's joint it plays.
//!
//! Why: the controller's stiffness follows a joint's load (`k ∝ m·g·d`, `docs/control.md`) while its inertia
//! grows as `m·d²`, so a joint's natural frequency goes as `√(g/d)`. RobotExpressive's forearm carries the
//! performer's forearm mass with its centre of mass 1.03 m from the elbow (the performer's: 0.13 m): at the load
//! rule's gains its elbow is a pendulum √8 ≈ 2.8× slower than the performer's, and a ball hit swung it back and
//! forth for 1–1.4 s. The motion is the performer's, so is its timing: with every stiffness and damping term
//! scaled by `r = (I_t/L_t) / (I_p/L_p)` (subtree inertia `I` over gravity moment `L` about the joint, target over
//! performer), `k/I` and `c/I` are the performer's (the feedforward grows with the load like the floor does).

use nalgebra::{Point3, Vector3};

use super::chains::Tree;
use super::mass::joint_keys;
use super::performer_config;
use crate::control::{BodyKinematics, CharacterConfig, GeneralizedState, Topology, subtree_loads};
use crate::model::{BuildConfig, Model};
use crate::skeleton::{Skeleton, rest_points};

/// One body's subtree about its joint in the rest pose.
#[derive(Debug, Clone, Copy)]
struct Subtree {
    /// Gravity moment (N·m).
    load: f64,
    /// Largest moment of inertia (kg·m²).
    inertia: f64,
    /// The body's joint (its frame origin) in the rest pose (m).
    origin: Vector3<f64>,
    /// The body's own centre of mass in the rest pose (m).
    com: Vector3<f64>,
}

impl Subtree {
    /// Inertia over gravity moment (s²): the square of the joint's time constant under the load rule's
    /// stiffness (k ∝ load), up to the gains' constants.
    fn time_constant(&self) -> f64 {
        self.inertia / self.load
    }

    /// Inertia over the distance from the joint to `point` (kg·m): an impulse `J` at `point`, across the lever
    /// arm, turns the subtree at `J / lever` rad/s.
    fn lever(&self, point: &Vector3<f64>) -> f64 {
        self.inertia / (point - self.origin).norm()
    }
}

/// Per body of `model`: its subtree about its joint in the rest pose (the root's about its own frame origin).
fn rest_subtrees(model: &Model) -> Vec<Subtree> {
    let topo = Topology::new(model);
    let n = topo.len();
    let rot = model.rest_rotations();
    let zeros = vec![Vector3::zeros(); n];
    let state = GeneralizedState {
        root_pos: Vector3::zeros(),
        root_vel: Vector3::zeros(),
        root_acc: Vector3::zeros(),
        rot: &rot,
        vel: &zeros,
        acc: &zeros,
    };
    let mut kin: Vec<BodyKinematics> = Vec::new();
    topo.forward(&state, &mut kin);
    subtree_loads(&topo, &kin, 9.81)
        .into_iter()
        .zip(&kin)
        .map(|((load, inertia), k)| Subtree {
            load,
            inertia,
            origin: k.origin,
            com: k.com,
        })
        .collect()
}

/// Where each joint of a key's chain sits along it: the rest-pose distance walked from the parent key's joint
/// (or the chain's first joint, for the pelvis) over the chain's length, in [0, 1].
fn chain_fractions(points: &[Point3<f64>], start: Option<usize>, chain: &[usize]) -> Vec<f64> {
    let mut walked = Vec::with_capacity(chain.len());
    let mut at = start.or(chain.first().copied());
    let mut total = 0.0;
    for &j in chain {
        if let Some(a) = at {
            total += (points[j] - points[a]).norm();
        }
        walked.push(total);
        at = Some(j);
    }
    walked
        .into_iter()
        .map(|w| if total > 0.0 { w / total } else { 1.0 })
        .collect()
}

/// For every body of `target_model`, the performer's body it plays (`None` for the root and for bodies playing
/// the performer's root): its first joint in its key's chain is matched to the source chain's joint at the
/// nearest place along the chain (`chain_fractions`), so chains of different lengths pair up by where their
/// joints are, not by their order: RobotExpressive's `ShoulderR` sits at the upper arm and plays CMU's `RightArm`,
/// not its `RightShoulder` at the spine. A body outside the chains plays the key's joint.
fn performer_bodies(
    source: &Skeleton,
    source_model: &Model,
    target: &Skeleton,
    target_model: &Model,
    tree: &Tree,
) -> Vec<Option<usize>> {
    let target_key = joint_keys(target, tree, true);
    let (source_points, target_points) = (rest_points(source), rest_points(target));
    target_model
        .bodies
        .iter()
        .enumerate()
        .map(|(b, body)| {
            body.parent?;
            let key = &tree.keys[target_key[body.skeleton_joint]];
            let parent = key.parent.map(|p| &tree.keys[p]);
            let joint = match key
                .target_chain
                .iter()
                .position(|&j| target_model.body_of_joint[j] == b)
            {
                Some(at) => {
                    let f = chain_fractions(
                        &target_points,
                        parent.map(|p| p.target),
                        &key.target_chain,
                    )[at];
                    let along = chain_fractions(
                        &source_points,
                        parent.map(|p| p.source),
                        &key.source_chain,
                    );
                    // Only joints the performer can turn: one merged into its root plays nothing.
                    along
                        .iter()
                        .zip(&key.source_chain)
                        .filter(|(_, j)| {
                            source_model.bodies[source_model.body_of_joint[**j]]
                                .parent
                                .is_some()
                        })
                        .min_by(|a, b| (a.0 - f).abs().total_cmp(&(b.0 - f).abs()))
                        .map_or(key.source, |(_, &j)| j)
                }
                None => key.source,
            };
            let p = source_model.body_of_joint[joint];
            source_model.bodies[p].parent.map(|_| p)
        })
        .collect()
}

/// A ratio target over performer, or 1 where it is not a finite positive number.
fn ratio(target: f64, performer: f64) -> f64 {
    let r = target / performer;
    if r.is_finite() && r > 0.0 { r } else { 1.0 }
}

/// The gain scale of every body of `target_model` (1 for the root and wherever a ratio is not finite).
pub(crate) fn gain_scales(
    source: &Skeleton,
    source_model: &Model,
    target: &Skeleton,
    target_model: &Model,
    tree: &Tree,
) -> Vec<f64> {
    let performer = rest_subtrees(source_model);
    let own = rest_subtrees(target_model);
    performer_bodies(source, source_model, target, target_model, tree)
        .into_iter()
        .zip(&own)
        .map(|(p, t)| {
            p.map_or(1.0, |p| {
                ratio(t.time_constant(), performer[p].time_constant())
            })
        })
        .collect()
}

/// The hit scale of the target bone `bone`: the lever about its joint (subtree inertia over the distance to the
/// centre of mass where the ball arrives) of the body holding `bone`, the target's over the performer's. A ball
/// whose impulse is the demo's times this scale turns the target's segment at the angular speed the demo's ball
/// turns the performer's (`scaled_ball`); with the performer's joint frequencies (`gain_scales`) it swings about
/// as far and comes back about as fast. `None` when `bone` is not a bone of the target or plays the performer's
/// root.
pub fn hit_scale(
    source: &Skeleton,
    target: &Skeleton,
    tree: &Tree,
    config: &CharacterConfig,
    bone: &str,
) -> Option<f64> {
    let performer = Model::from_skeleton(source, &BuildConfig::default()).ok()?;
    let own = Model::from_skeleton(
        target,
        &performer_config(source, target, tree, config).model,
    )
    .ok()?;
    let hit = own.body_of_joint[target.find(bone)?];
    let played = performer_bodies(source, &performer, target, &own, tree)[hit]?;
    let (t, p) = (rest_subtrees(&own), rest_subtrees(&performer));
    Some(ratio(
        t[hit].lever(&t[hit].com),
        p[played].lever(&p[played].com),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::{ImportOptions, load_embedded_walk};
    use crate::retarget::{Correspondence, Tree};

    /// A skeleton `s` times the walk's, with the performer's masses (`performer_config`), is the performer
    /// uniformly scaled: every inertia grows s², every gravity moment s, every lever s. So every mapped body's
    /// gain scale and the forearm's hit scale are `s`.
    #[test]
    fn a_uniformly_scaled_performer_gets_gains_and_kick_scaled_by_its_size() {
        let source = load_embedded_walk(&ImportOptions::default())
            .unwrap()
            .skeleton;
        let s = 2.5;
        let mut target = source.clone();
        for j in &mut target.joints {
            j.offset *= s;
            for e in &mut j.end_sites {
                *e *= s;
            }
        }
        let map = Correspondence::build(&source, &target, None).unwrap();
        let tree = Tree::build(&source, &target, &map).unwrap();
        let config = CharacterConfig::default();
        let performer = Model::from_skeleton(&source, &BuildConfig::default()).unwrap();
        let own = Model::from_skeleton(
            &target,
            &performer_config(&source, &target, &tree, &config).model,
        )
        .unwrap();
        let scales = gain_scales(&source, &performer, &target, &own, &tree);
        for (body, r) in own.bodies.iter().zip(&scales).skip(1) {
            assert!((r - s).abs() < 1e-9, "{}: {r}", body.name);
        }
        let kick = hit_scale(&source, &target, &tree, &config, "RightForeArm").unwrap();
        assert!((kick - s).abs() < 1e-9, "{kick}");
        // The config's gains carry the scale.
        let bones = performer_config(&source, &target, &tree, &config)
            .model
            .bones;
        let g = bones["RightForeArm"].gains.as_ref().unwrap();
        assert!(
            (g.k_s.unwrap() - s * config.gains.k_s).abs() < 1e-9,
            "{g:?}"
        );
        assert!((g.load_factor.unwrap() - s * config.gains.load_factor).abs() < 1e-9);
    }
}
