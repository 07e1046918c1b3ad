//! From flinch's clip (metres, Y up, rotations relative to the rest pose) back to per-node local TRS keys:
//! the inverse of the importer's `build` (units, up axis, the root's folded ancestors, uniform scale folded
//! into offsets, the synthetic root).

use nalgebra::{Isometry3, Matrix4, Translation3, UnitQuaternion, Vector3};

use super::{GltfExportError, GltfSource};
use crate::io::gltf_import::SYNTHETIC_ROOT;
use crate::io::gltf_import::build::{uniform, up_rotation};
use crate::io::gltf_import::hierarchy::{Trs, decompose};
use crate::math::same_hemisphere;
use crate::skeleton::{Clip, Pose, Skeleton};

/// A translation that stays within this distance (metres) of the rest translation in every frame gets no
/// channel (the rest value is used): far below the f32 resolution of the keys.
const STILL_TOL: f64 = 1e-7;

/// The keys of one node: one entry per clip frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NodeTrack {
    /// glTF node index.
    pub node: usize,
    /// Local translations (source units), or `None` when the node keeps its rest translation.
    pub translations: Option<Vec<Vector3<f64>>>,
    /// Local rotations, hemisphere-continuous.
    pub rotations: Vec<UnitQuaternion<f64>>,
}

/// Checks that every frame has one finite entry per joint and that the frame time is usable.
pub(crate) fn check_clip(skeleton: &Skeleton, clip: &Clip) -> Result<(), GltfExportError> {
    if !(clip.frame_time.is_finite() && clip.frame_time > 0.0) {
        return Err(GltfExportError::Mismatch(format!(
            "frame time {} s, expected a positive number",
            clip.frame_time
        )));
    }
    if clip.frames.is_empty() {
        return Err(GltfExportError::Mismatch("the clip has no frames".into()));
    }
    let n = skeleton.len();
    for (f, pose) in clip.frames.iter().enumerate() {
        if pose.translations.len() != n || pose.rotations.len() != n {
            return Err(GltfExportError::Mismatch(format!(
                "frame {f} has {} translations and {} rotations for {n} joints",
                pose.translations.len(),
                pose.rotations.len()
            )));
        }
        for (j, joint) in skeleton.joints.iter().enumerate() {
            let bad = |what: &str| GltfExportError::NonFinite {
                frame: f,
                joint: joint.name.clone(),
                what: what.to_string(),
            };
            if !pose
                .translations
                .get(j)
                .is_some_and(|t| t.iter().all(|x| x.is_finite()))
            {
                return Err(bad("translation is not finite"));
            }
            if !pose
                .rotations
                .get(j)
                .is_some_and(|q| q.coords.iter().all(|x| x.is_finite()))
            {
                return Err(bad("rotation is not finite"));
            }
        }
    }
    for joint in &skeleton.joints {
        let finite = joint
            .offset
            .iter()
            .chain(joint.rest_rotation.coords.iter())
            .all(|x| x.is_finite())
            && joint
                .end_sites
                .iter()
                .all(|e| e.iter().all(|x| x.is_finite()));
        if !finite {
            return Err(GltfExportError::NonFinite {
                frame: 0,
                joint: joint.name.clone(),
                what: "rest offset, rest rotation or end site is not finite".into(),
            });
        }
    }
    Ok(())
}

fn iso(t: &Vector3<f64>, q: UnitQuaternion<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(*t), q)
}

fn continuous(mut rotations: Vec<UnitQuaternion<f64>>) -> Vec<UnitQuaternion<f64>> {
    for i in 1..rotations.len() {
        if let (Some(&prev), Some(cur)) = (rotations.get(i - 1), rotations.get(i)) {
            let fixed = same_hemisphere(*cur, &prev);
            if let Some(slot) = rotations.get_mut(i) {
                *slot = fixed;
            }
        }
    }
    rotations
}

/// Skeleton-only export: joint `k` is node `k`; node rest TRS = (offset, rest rotation).
pub(crate) fn skeleton_tracks(skeleton: &Skeleton, clip: &Clip) -> Vec<NodeTrack> {
    skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(k, joint)| {
            let t: Vec<Vector3<f64>> = clip.frames.iter().map(|p| p.translations[k]).collect();
            let moves = t.iter().any(|t| (t - joint.offset).norm() > STILL_TOL);
            NodeTrack {
                node: k,
                translations: (joint.parent.is_none() || moves).then_some(t),
                rotations: continuous(
                    clip.frames
                        .iter()
                        .map(|p| joint.rest_rotation * p.rotations[k])
                        .collect(),
                ),
            }
        })
        .collect()
}

/// How one joint maps back onto its node.
enum Kind {
    /// The synthetic `__root`: no node; its motion is folded into its children.
    Synthetic,
    /// The root joint: `node local = above⁻¹ · T(t / unit) · R(q) · S(world rest scale)`.
    Root {
        node: usize,
        above_inv: Matrix4<f64>,
        scale: Vector3<f64>,
    },
    /// A child of the synthetic root (a scene root node).
    Top { node: usize },
    /// Any other joint: translation divided by `div` = unit × the parent's cumulative rest scale.
    Child {
        node: usize,
        div: f64,
        rest: Vector3<f64>,
    },
}

/// The rest scale the importer folds for each joint, and each joint's kind.
fn kinds(skeleton: &Skeleton, src: &GltfSource) -> Result<Vec<Kind>, GltfExportError> {
    let h = &src.hierarchy;
    let nodes = &src.mapping.joint_nodes;
    if nodes.len() != skeleton.len() {
        return Err(GltfExportError::Mismatch(format!(
            "the skeleton has {} joints, the source's import had {}",
            skeleton.len(),
            nodes.len()
        )));
    }
    let f = src.unit.to_metres();
    if !(f.is_finite() && f > 0.0) {
        return Err(GltfExportError::Source(format!(
            "unit factor {f} to metres"
        )));
    }
    let up_m = up_rotation(src.up_axis).to_homogeneous();
    let mut cumulative = vec![1.0; nodes.len()];
    let mut out = Vec::with_capacity(nodes.len());
    for (k, (joint, node)) in skeleton.joints.iter().zip(nodes).enumerate() {
        let expected_name = node
            .and_then(|n| h.names.get(n).cloned())
            .unwrap_or_else(|| SYNTHETIC_ROOT.into());
        if joint.name != expected_name {
            return Err(GltfExportError::Mismatch(format!(
                "joint {k} is '{}', the source's joint {k} is '{expected_name}'",
                joint.name
            )));
        }
        let parent_joint_node = joint.parent.map(|p| nodes.get(p).copied().flatten());
        let parent_scale = joint
            .parent
            .and_then(|p| cumulative.get(p).copied())
            .unwrap_or(1.0);
        let (kind, own_scale) = match (*node, parent_joint_node) {
            (None, _) => (Kind::Synthetic, 1.0),
            (Some(n), None) => {
                let mut above = up_m;
                for &a in h.ancestors(n).iter().rev() {
                    above *= h
                        .rest
                        .get(a)
                        .map(Trs::matrix)
                        .unwrap_or_else(Matrix4::identity);
                }
                let rest = h
                    .rest
                    .get(n)
                    .map(Trs::matrix)
                    .unwrap_or_else(Matrix4::identity);
                let world = decompose(&(above * rest)).map_err(|e| {
                    GltfExportError::Source(format!("node {n} rest world transform: {e}"))
                })?;
                let above_inv = above.try_inverse().ok_or_else(|| {
                    GltfExportError::Source(format!(
                        "node {n}: its ancestors' transform is singular"
                    ))
                })?;
                (
                    Kind::Root {
                        node: n,
                        above_inv,
                        scale: world.scale,
                    },
                    uniform(&world.scale),
                )
            }
            (Some(n), Some(None)) => {
                if h.parent.get(n).copied().flatten().is_some() {
                    return Err(GltfExportError::Mismatch(format!(
                        "joint '{}' hangs from the synthetic root but its node {n} has a parent",
                        joint.name
                    )));
                }
                (
                    Kind::Top { node: n },
                    h.rest.get(n).map_or(1.0, |r| uniform(&r.scale)),
                )
            }
            (Some(n), Some(Some(p))) => {
                if h.parent.get(n).copied().flatten() != Some(p) {
                    return Err(GltfExportError::Mismatch(format!(
                        "joint '{}' (node {n}): its parent joint is node {p}, not its glTF parent",
                        joint.name
                    )));
                }
                let rest = h.rest.get(n).map(|r| r.translation).unwrap_or_default();
                let div = f * parent_scale;
                if !(div.is_finite() && div > 0.0) {
                    return Err(GltfExportError::Source(format!(
                        "node {n}: ancestor scale {parent_scale} cannot be inverted"
                    )));
                }
                (
                    Kind::Child { node: n, div, rest },
                    h.rest.get(n).map_or(1.0, |r| uniform(&r.scale)),
                )
            }
        };
        if let Some(c) = cumulative.get_mut(k) {
            *c = parent_scale * own_scale;
        }
        out.push(kind);
    }
    Ok(out)
}

/// The local TRS of joint `k`'s node in `pose` (source units and axes).
fn node_local(
    kind: &Kind,
    k: usize,
    pose: &Pose,
    skeleton: &Skeleton,
    unit: f64,
) -> Result<(Vector3<f64>, UnitQuaternion<f64>), String> {
    let joint = &skeleton.joints[k];
    let t = pose.translations[k];
    let q = joint.rest_rotation * pose.rotations[k];
    match kind {
        Kind::Synthetic => Ok((t, q)),
        Kind::Root {
            above_inv, scale, ..
        } => {
            let m = Trs {
                translation: t / unit,
                rotation: q,
                scale: *scale,
            }
            .matrix();
            let local = decompose(&(above_inv * m))?;
            Ok((local.translation, local.rotation))
        }
        Kind::Top { .. } => {
            // Fold the synthetic root's motion (relative to its rest) into the top node.
            let root = &skeleton.joints[0];
            let rest = iso(&root.offset, root.rest_rotation);
            let now = iso(
                &pose.translations[0],
                root.rest_rotation * pose.rotations[0],
            );
            let l = rest.inverse() * now * iso(&t, q);
            Ok((l.translation.vector / unit, l.rotation))
        }
        Kind::Child { div, .. } => Ok((t / *div, q)),
    }
}

/// With a source: the keys of every mapped joint node (the synthetic root has none).
pub(crate) fn source_tracks(
    skeleton: &Skeleton,
    clip: &Clip,
    src: &GltfSource,
) -> Result<Vec<NodeTrack>, GltfExportError> {
    let kinds = kinds(skeleton, src)?;
    let unit = src.unit.to_metres();
    let mut tracks = Vec::new();
    for (k, kind) in kinds.iter().enumerate() {
        let node = match kind {
            Kind::Synthetic => continue,
            Kind::Root { node, .. } | Kind::Top { node } | Kind::Child { node, .. } => *node,
        };
        let mut ts = Vec::with_capacity(clip.frames.len());
        let mut qs = Vec::with_capacity(clip.frames.len());
        for (f, pose) in clip.frames.iter().enumerate() {
            let (t, q) = node_local(kind, k, pose, skeleton, unit).map_err(|what| {
                GltfExportError::NonFinite {
                    frame: f,
                    joint: skeleton.joints[k].name.clone(),
                    what,
                }
            })?;
            ts.push(t);
            qs.push(q);
        }
        let translations = match kind {
            Kind::Child { div, rest, .. } => ts
                .iter()
                .any(|t| (t - rest).norm() * div > STILL_TOL)
                .then_some(ts),
            _ => Some(ts),
        };
        tracks.push(NodeTrack {
            node,
            translations,
            rotations: continuous(qs),
        });
    }
    Ok(tracks)
}
