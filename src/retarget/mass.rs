//! The performer's segment masses on the character: every body of the target gets the mass of the performer's
//! segment it plays (its key's share), so that the retargeted character carries the clip's mass distribution,
//! not one its own proportions would give at uniform density.
//!
//! Why: scaling a density-built robot to the performer's total mass keeps the robot's own mass fractions, and
//! those are nothing like a body's. RobotExpressive's forearm runs from the elbow to four palm and thumb bases
//! 1.3–1.4 m away (on a 3 m robot), four overlapping capsules: built at uniform density it weighed 8.5 kg of the
//! 72.5, ten times a forearm's share (the performer's: 0.86 kg), and a ball barely turned it.

use crate::model::Model;
use crate::skeleton::Skeleton;

use super::chains::Tree;

/// For every joint of a skeleton, the key it belongs to: the key whose chain holds it, else its nearest
/// ancestor's key (bones below a key kept at rest, such as fingers), else the pelvis (joints above it, such as
/// an IK rig's root).
pub(crate) fn joint_keys(sk: &Skeleton, tree: &Tree, target: bool) -> Vec<usize> {
    let mut key = vec![usize::MAX; sk.len()];
    for (k, entry) in tree.keys.iter().enumerate() {
        let chain = if target {
            &entry.target_chain
        } else {
            &entry.source_chain
        };
        for &j in chain {
            key[j] = k;
        }
    }
    // Parents precede their children in a skeleton.
    for j in 0..sk.len() {
        if key[j] == usize::MAX {
            key[j] = sk.joints[j].parent.map_or(0, |p| key[p]);
        }
    }
    key
}

/// The mass (kg) of every body of `target_model`, by body: the performer's (`source_model`) mass of each key,
/// split over the target bodies of that key in proportion to their own (shape-based) masses. A key with no
/// target body of its own (RobotExpressive's shins and feet: the shin joint has no bone and merges into the
/// thigh, the IK-rig feet into the root) adds its mass to the body holding its target joint. A key whose source
/// side has no mass keeps its target bodies' masses scaled by the ratio of the two totals.
pub(crate) fn segment_masses(
    source: &Skeleton,
    source_model: &Model,
    target: &Skeleton,
    target_model: &Model,
    tree: &Tree,
) -> Vec<f64> {
    let n = tree.keys.len();
    let source_key = joint_keys(source, tree, false);
    let target_key = joint_keys(target, tree, true);
    let mut performer = vec![0.0; n];
    for b in &source_model.bodies {
        performer[source_key[b.skeleton_joint]] += b.mass.mass;
    }
    let own: Vec<f64> = target_model.bodies.iter().map(|b| b.mass.mass).collect();
    let mut group = vec![0.0; n];
    for (b, body) in target_model.bodies.iter().enumerate() {
        group[target_key[body.skeleton_joint]] += own[b];
    }
    let mut extra = vec![0.0; target_model.bodies.len()];
    for (k, key) in tree.keys.iter().enumerate() {
        if group[k] <= 0.0 {
            extra[target_model.body_of_joint[key.target]] += performer[k];
        }
    }
    let ratio = source_model.total_mass() / target_model.total_mass();
    target_model
        .bodies
        .iter()
        .enumerate()
        .map(|(b, body)| {
            let k = target_key[body.skeleton_joint];
            let share = if performer[k] > 0.0 {
                performer[k] * own[b] / group[k]
            } else {
                own[b] * ratio
            };
            share + extra[b]
        })
        .collect()
}
