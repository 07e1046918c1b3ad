//! From nodes and tracks to flinch's [`Skeleton`] and [`Clip`]: root transform folding, uniform scale, units,
//! synthesized channels.

use nalgebra::{Matrix4, UnitQuaternion, Vector3};

use super::GltfImportError;
use super::hierarchy::{Hierarchy, Selection, Trs, decompose};
use super::timeline::Timeline;
use super::tracks::NodeTracks;
use crate::io::{LengthUnit, Limits, UpAxis};
use crate::math::{Axis, axis_rotation};
use crate::skeleton::{Channel, Clip, Joint, Pose, Skeleton};

/// Name of the synthetic root joint added when the chosen nodes have no common ancestor.
pub const SYNTHETIC_ROOT: &str = "__root";

/// Largest rest-pose extent (source units) still taken as metres when no unit is given; above it the file is
/// taken to be in centimetres (the Fox: ~150 units).
pub const CM_THRESHOLD: f64 = 10.0;

/// Most joint poses (frames × joints) a clip may hold (about 0.6 GB): a bound against corrupt key times.
pub const MAX_POSE_ENTRIES: usize = crate::io::Limits::DEFAULT.max_pose_values;

/// Relative tolerance under which a scale counts as uniform / unchanged (RiggedSimple's 0.99999988 is 1).
const SCALE_TOL: f64 = 1e-4;

/// What the builder produced.
pub(crate) struct Built {
    pub skeleton: Skeleton,
    pub clip: Clip,
    pub joint_nodes: Vec<Option<usize>>,
    pub unit: LengthUnit,
}

/// Local transform of `node` at time `t` (the rest TRS with animated properties substituted), or its rest
/// transform when `t` is `None`.
fn local_at(h: &Hierarchy, tracks: &[NodeTracks], node: usize, t: Option<f64>) -> Trs {
    let mut trs = h.rest.get(node).copied().unwrap_or(Trs {
        translation: Vector3::zeros(),
        rotation: UnitQuaternion::identity(),
        scale: Vector3::repeat(1.0),
    });
    let (Some(t), Some(nt)) = (t, tracks.get(node)) else {
        return trs;
    };
    if let Some(tr) = &nt.translation {
        trs.translation = tr.sample_vec3(t);
    }
    if let Some(tr) = &nt.rotation {
        trs.rotation = tr.sample_rotation(t);
    }
    if let Some(tr) = &nt.scale {
        trs.scale = tr.sample_vec3(t);
    }
    trs
}

/// Geometric-mean magnitude of a scale vector (the uniform scale closest in volume).
pub(crate) fn uniform(s: &Vector3<f64>) -> f64 {
    (s.x * s.y * s.z).abs().cbrt()
}

fn is_uniform(s: &Vector3<f64>) -> bool {
    let (lo, hi) = (s.abs().min(), s.abs().max());
    hi <= lo * (1.0 + SCALE_TOL) && s.iter().all(|&x| x > 0.0)
}

/// The up-axis correction applied above the root (Z up → Y up: a −90° turn about x, (x, y, z) → (x, z, −y)).
pub(crate) fn up_rotation(up: UpAxis) -> UnitQuaternion<f64> {
    match up {
        UpAxis::Y => UnitQuaternion::identity(),
        UpAxis::Z => axis_rotation(Axis::X, -std::f64::consts::FRAC_PI_2),
    }
}

/// Builds skeleton and clip. `tracks` has one entry per node (all empty without animation).
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    h: &Hierarchy,
    sel: &Selection,
    tracks: &[NodeTracks],
    timeline: &Timeline,
    up: UpAxis,
    unit: Option<LengthUnit>,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Result<Built, GltfImportError> {
    // Joint list: an optional synthetic root, then the selected nodes parents first.
    let mut joint_nodes: Vec<Option<usize>> = Vec::new();
    if sel.root.is_none() {
        joint_nodes.push(None);
    }
    joint_nodes.extend(sel.order.iter().map(|&n| Some(n)));
    // node → joint index, for the parent lookup.
    let mut joint_of_node = vec![None; h.parent.len()];
    for (k, node) in joint_nodes.iter().enumerate() {
        if let Some(slot) = node.and_then(|n| joint_of_node.get_mut(n)) {
            *slot = Some(k);
        }
    }
    let index_of = |node: usize| joint_of_node.get(node).copied().flatten();
    let parents: Vec<Option<usize>> = joint_nodes
        .iter()
        .enumerate()
        .map(|(k, node)| match node {
            None => None,
            Some(n) if sel.root == Some(*n) => None,
            Some(n) => h
                .parent
                .get(*n)
                .copied()
                .flatten()
                .and_then(index_of)
                .or((k > 0).then_some(0)),
        })
        .collect();
    let root_node = sel.root;
    let root_ancestors: Vec<usize> = root_node.map(|r| h.ancestors(r)).unwrap_or_default();
    let up_q = up_rotation(up);
    let up_m = up_q.to_homogeneous();

    // Joint-local TRS at time t (rest when None); the root folds in its non-joint ancestors and the up-axis
    // correction, so that world positions match the glTF scene.
    let joint_local = |k: usize, t: Option<f64>| -> Result<Trs, GltfImportError> {
        match joint_nodes.get(k).copied().flatten() {
            None => Ok(Trs {
                translation: Vector3::zeros(),
                rotation: up_q,
                scale: Vector3::repeat(1.0),
            }),
            Some(n) if Some(n) == root_node => {
                let mut m: Matrix4<f64> = up_m;
                for &a in root_ancestors.iter().rev() {
                    m *= local_at(h, tracks, a, t).matrix();
                }
                m *= local_at(h, tracks, n, t).matrix();
                decompose(&m).map_err(|what| GltfImportError::Transform {
                    node: n,
                    name: h.names.get(n).cloned().unwrap_or_default(),
                    what: match t {
                        Some(t) => {
                            format!("world transform at t = {t} s (with its ancestors): {what}")
                        }
                        None => format!("rest world transform (with its ancestors): {what}"),
                    },
                })
            }
            Some(n) => Ok(local_at(h, tracks, n, t)),
        }
    };

    // Rest pose, and the cumulative uniform scale folded into the children's offsets.
    let rest: Vec<Trs> = (0..joint_nodes.len())
        .map(|k| joint_local(k, None))
        .collect::<Result<_, _>>()?;
    let name = |k: usize| match joint_nodes.get(k).copied().flatten() {
        Some(n) => h
            .names
            .get(n)
            .cloned()
            .unwrap_or_else(|| format!("node{n}")),
        None => SYNTHETIC_ROOT.to_string(),
    };
    let mut cumulative = vec![1.0; rest.len()];
    for (k, trs) in rest.iter().enumerate() {
        if !is_uniform(&trs.scale) {
            warnings.push(format!(
                "joint '{}': rest scale ({:.6}, {:.6}, {:.6}) is not uniform and positive; flinch uses its \
                 geometric-mean magnitude {:.6}",
                name(k),
                trs.scale.x,
                trs.scale.y,
                trs.scale.z,
                uniform(&trs.scale)
            ));
        }
        let parent_scale = parents
            .get(k)
            .copied()
            .flatten()
            .and_then(|p| cumulative.get(p).copied())
            .unwrap_or(1.0);
        if let Some(c) = cumulative.get_mut(k) {
            *c = parent_scale * uniform(&trs.scale);
        }
    }
    let parent_scale = |k: usize| {
        parents
            .get(k)
            .copied()
            .flatten()
            .and_then(|p| cumulative.get(p).copied())
            .unwrap_or(1.0)
    };

    // Frames. A corrupt key time can ask for many frames; bound the pose storage, not just the frame count.
    let entries = timeline.times.len().saturating_mul(rest.len());
    if entries > limits.max_pose_values {
        return Err(GltfImportError::Option {
            option: "sample_rate",
            what: Limits::exceeded(
                format!(
                    "{} frames × {} joints (give a lower rate)",
                    timeline.times.len(),
                    rest.len()
                ),
                "max_pose_values",
                limits.max_pose_values,
            ),
        });
    }
    let mut frames = Vec::with_capacity(timeline.times.len());
    let mut scale_drift = vec![0.0f64; rest.len()];
    for &t in &timeline.times {
        let mut pose = Pose {
            translations: Vec::with_capacity(rest.len()),
            rotations: Vec::with_capacity(rest.len()),
        };
        for (k, r) in rest.iter().enumerate() {
            let cur = joint_local(k, Some(t))?;
            let drift = ((cur.scale - r.scale).abs().max()) / r.scale.abs().max().max(1e-12);
            if let Some(d) = scale_drift.get_mut(k) {
                *d = d.max(drift);
            }
            pose.translations.push(cur.translation * parent_scale(k));
            pose.rotations.push(r.rotation.inverse() * cur.rotation);
        }
        frames.push(pose);
    }
    let drifting: Vec<String> = scale_drift
        .iter()
        .enumerate()
        .filter(|(_, d)| **d > SCALE_TOL)
        .map(|(k, d)| format!("'{}' ({:.3} %)", name(k), 100.0 * d))
        .collect();
    if !drifting.is_empty() {
        warnings.push(format!(
            "animated scale ignored (flinch joints are rigid; the rest scale is kept) on {} joint(s): {}",
            drifting.len(),
            drifting.join(", ")
        ));
    }

    let joints: Vec<Joint> = rest
        .iter()
        .enumerate()
        .map(|(k, trs)| Joint {
            name: name(k),
            parent: parents.get(k).copied().flatten(),
            offset: trs.translation * parent_scale(k),
            rest_rotation: trs.rotation,
            channels: Vec::new(),
            end_sites: Vec::new(),
        })
        .collect();
    let mut skeleton = Skeleton::new(joints)?;

    // Units: the rest-pose extent decides when the caller did not.
    let extent = extent_of(&skeleton);
    let unit = match unit {
        Some(u) => u,
        None if extent > CM_THRESHOLD => {
            warnings.push(format!(
                "rest pose spans {extent:.1} units although glTF is in metres: probably centimetres, scaled by \
                 0.01 (give a unit to override)"
            ));
            LengthUnit::Centimetre
        }
        None => LengthUnit::Metre,
    };
    let f = unit.to_metres();
    for j in &mut skeleton.joints {
        j.offset *= f;
    }
    for p in &mut frames {
        for t in &mut p.translations {
            *t *= f;
        }
    }

    // Channels: ZXY rotations everywhere; positions on the root and wherever translation leaves the rest.
    let tol = 1e-5 * (extent * f).max(0.01);
    for (k, j) in skeleton.joints.iter_mut().enumerate() {
        let moves = frames.iter().any(|p| {
            p.translations
                .get(k)
                .is_some_and(|t| (t - j.offset).norm() > tol)
        });
        if j.parent.is_none() || moves {
            j.channels
                .extend([Axis::X, Axis::Y, Axis::Z].map(Channel::Position));
        }
        j.channels
            .extend([Axis::Z, Axis::X, Axis::Y].map(Channel::Rotation));
    }

    let mut clip = Clip {
        frame_time: timeline.frame_time,
        frames,
    };
    clip.make_hemisphere_continuous();
    Ok(Built {
        skeleton,
        clip,
        joint_nodes,
        unit,
    })
}

/// Largest extent of the rest pose along x, y or z (all joints), in source units.
///
/// The largest axis rather than the height alone, so that a quadruped or a lying character is judged by its
/// size too (the Fox is longer than it is tall).
pub(crate) fn extent_of(skeleton: &Skeleton) -> f64 {
    let world = Pose::rest(skeleton).world_transforms(skeleton);
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for w in &world {
        lo = lo.inf(&w.translation.vector);
        hi = hi.sup(&w.translation.vector);
    }
    (hi - lo).max().max(0.0)
}
