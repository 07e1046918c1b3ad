//! The generated character mesh of a skeleton-only export: one octahedral "bone" per parent → child segment
//! and per end site, rigidly skinned to the segment's parent joint, so any viewer shows the motion.

use nalgebra::Vector3;
use serde_json::{Value, json};

use super::GltfExportError;
use super::bin::{ARRAY_BUFFER, Bin, ELEMENT_ARRAY_BUFFER};
use crate::skeleton::{Pose, Skeleton};

/// Segments shorter than this (metres) get no bone.
const MIN_BONE: f64 = 1e-6;
/// Where the bone's widest ring sits, as a fraction of its length from the joint.
const RING_AT: f64 = 0.15;
/// The ring's radius as a fraction of the bone's length.
const RING_RADIUS: f64 = 0.1;

/// The mesh (with its material index 0), the inverse-bind-matrix accessor and the material, or `None` when
/// every segment is degenerate.
pub(crate) struct BoneMesh {
    /// The mesh object.
    pub mesh: Value,
    /// The material object.
    pub material: Value,
    /// Accessor of the inverse bind matrices (one per joint, in skeleton order).
    pub inverse_bind_matrices: usize,
}

/// The six corners of the bone from `a` to `b`, or `None` when it is too short.
fn octahedron(a: Vector3<f64>, b: Vector3<f64>) -> Option<[Vector3<f64>; 6]> {
    let d = b - a;
    let len = d.norm();
    if len.is_nan() || len <= MIN_BONE {
        return None;
    }
    let u = d / len;
    // The axis least aligned with the bone gives a well-conditioned perpendicular.
    let axis = if u.x.abs() <= u.y.abs() && u.x.abs() <= u.z.abs() {
        Vector3::x()
    } else if u.y.abs() <= u.z.abs() {
        Vector3::y()
    } else {
        Vector3::z()
    };
    let p1 = u.cross(&axis).normalize();
    let p2 = u.cross(&p1);
    let c = a + d * RING_AT;
    let r = len * RING_RADIUS;
    Some([a, c + p1 * r, c + p2 * r, c - p1 * r, c - p2 * r, b])
}

/// Builds the bone mesh of `skeleton` in its rest pose (metres), writing its data into `bin`.
pub(crate) fn bone_mesh(
    skeleton: &Skeleton,
    bin: &mut Bin,
) -> Result<Option<BoneMesh>, GltfExportError> {
    let world = Pose::rest(skeleton).world_transforms(skeleton);
    let mut segments: Vec<(Vector3<f64>, Vector3<f64>, u32)> = Vec::new();
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let Some(w) = world.get(j) else { continue };
        if let Some(pw) = joint.parent.and_then(|p| world.get(p).map(|pw| (p, pw))) {
            segments.push((pw.1.translation.vector, w.translation.vector, pw.0 as u32));
        }
        for e in &joint.end_sites {
            segments.push((
                w.translation.vector,
                w.transform_point(&(*e).into()).coords,
                j as u32,
            ));
        }
    }
    let mut positions = Vec::new();
    let mut joints = Vec::new();
    let mut weights = Vec::new();
    let mut indices = Vec::new();
    for (a, b, joint) in segments {
        let Some(corners) = octahedron(a, b) else {
            continue;
        };
        let base = (positions.len() / 3) as u32;
        positions.extend(corners.iter().flat_map(|p| [p.x, p.y, p.z]));
        joints.extend(corners.iter().flat_map(|_| [joint, 0, 0, 0]));
        weights.extend(corners.iter().flat_map(|_| [1.0, 0.0, 0.0, 0.0]));
        // Corner 0 = joint end, 1..=4 = ring, 5 = tip; counter-clockwise seen from outside.
        for i in 0..4u32 {
            let (r0, r1) = (1 + i, 1 + (i + 1) % 4);
            indices.extend([base, base + r1, base + r0, base + 5, base + r0, base + r1]);
        }
    }
    if indices.is_empty() {
        return Ok(None);
    }
    let err = |what: &str, e: String| GltfExportError::Mismatch(format!("bone mesh {what}: {e}"));
    let position = bin
        .floats(&positions, "VEC3", 3, Some(ARRAY_BUFFER))
        .map_err(|e| err("positions", e))?;
    let joint_acc = bin.uints(&joints, "VEC4", 4, Some(ARRAY_BUFFER), true);
    let weight_acc = bin
        .floats(&weights, "VEC4", 4, Some(ARRAY_BUFFER))
        .map_err(|e| err("weights", e))?;
    let index_acc = bin.uints(&indices, "SCALAR", 1, Some(ELEMENT_ARRAY_BUFFER), false);
    let ibm: Vec<f64> = world
        .iter()
        .flat_map(|w| w.inverse().to_homogeneous().as_slice().to_vec())
        .collect();
    let inverse_bind_matrices = bin
        .floats(&ibm, "MAT4", 16, None)
        .map_err(|e| err("inverse bind matrices", e))?;
    Ok(Some(BoneMesh {
        mesh: json!({
            "name": "flinch_bones",
            "primitives": [{
                "attributes": { "POSITION": position, "JOINTS_0": joint_acc, "WEIGHTS_0": weight_acc },
                "indices": index_acc,
                "material": 0,
                "mode": 4,
            }],
        }),
        material: json!({
            "name": "flinch_bone",
            "pbrMetallicRoughness": {
                "baseColorFactor": [0.8, 0.8, 0.8, 1.0],
                "metallicFactor": 0.0,
                "roughnessFactor": 0.7,
            },
        }),
        inverse_bind_matrices,
    }))
}

#[cfg(test)]
mod tests;
