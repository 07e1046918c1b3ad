//! A skeleton-only document (BVH input): one node per joint, the generated bone mesh with its skin and
//! material, and the animation.

use serde_json::{Map, Value, json};

use super::animation::animation;
use super::bin::Bin;
use super::bones::bone_mesh;
use super::node_tracks::skeleton_tracks;
use super::{GltfExportError, NamedClip, unique_name};
use crate::skeleton::Skeleton;

/// The document and its buffer bytes.
pub(crate) fn skeleton_document(
    skeleton: &Skeleton,
    clips: &[NamedClip<'_>],
) -> Result<(Value, Vec<u8>), GltfExportError> {
    let n = skeleton.len();
    let mut nodes: Vec<Value> = skeleton
        .joints
        .iter()
        .map(|j| {
            let q = j.rest_rotation.coords;
            json!({
                "name": j.name,
                "translation": [j.offset.x, j.offset.y, j.offset.z],
                "rotation": [q.x, q.y, q.z, q.w],
            })
        })
        .collect();
    for (k, j) in skeleton.joints.iter().enumerate() {
        let Some(p) = j.parent else { continue };
        if let Some(obj) = nodes.get_mut(p).and_then(Value::as_object_mut) {
            let children = obj.entry("children").or_insert_with(|| json!([]));
            if let Some(list) = children.as_array_mut() {
                list.push(json!(k));
            }
        }
    }
    let mut bin = Bin::new(0, 0);
    let mut animations = Vec::with_capacity(clips.len());
    let mut taken = Vec::with_capacity(clips.len());
    for named in clips {
        let tracks = skeleton_tracks(skeleton, named.clip);
        let name = unique_name(named.name, &taken);
        let clip = named.clip;
        animations.push(animation(
            &mut bin,
            &tracks,
            clip.frames.len(),
            clip.frame_time,
            &name,
        )?);
        taken.push(name);
    }
    let mut doc = Map::new();
    doc.insert(
        "asset".into(),
        json!({ "version": "2.0", "generator": generator() }),
    );
    doc.insert("scene".into(), json!(0));
    // Every root joint (Skeleton::new guarantees one at index 0) and the mesh node are scene roots.
    let mut scene_nodes = vec![json!(0)];
    if let Some(bones) = bone_mesh(skeleton, &mut bin)? {
        scene_nodes.push(json!(n));
        nodes.push(json!({ "name": "flinch_bones", "mesh": 0, "skin": 0 }));
        doc.insert("meshes".into(), json!([bones.mesh]));
        doc.insert("materials".into(), json!([bones.material]));
        doc.insert(
            "skins".into(),
            json!([{
                "name": "flinch_skeleton",
                "joints": (0..n).collect::<Vec<_>>(),
                "inverseBindMatrices": bones.inverse_bind_matrices,
                "skeleton": 0,
            }]),
        );
    }
    doc.insert("scenes".into(), json!([{ "nodes": scene_nodes }]));
    doc.insert("nodes".into(), Value::Array(nodes));
    doc.insert("animations".into(), Value::Array(animations));
    doc.insert(
        "accessors".into(),
        Value::Array(std::mem::take(&mut bin.accessors)),
    );
    doc.insert(
        "bufferViews".into(),
        Value::Array(std::mem::take(&mut bin.views)),
    );
    Ok((Value::Object(doc), bin.data))
}

/// The `asset.generator` string.
pub(crate) fn generator() -> String {
    format!("flinch {}", env!("CARGO_PKG_VERSION"))
}
