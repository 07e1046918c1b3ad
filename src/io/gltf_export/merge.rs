//! A document from a source glTF: everything kept (meshes, skins, materials, textures, images, samplers,
//! nodes, scenes, extensions, extras), all buffers merged into one with the bufferViews re-pointed, external
//! images embedded, and the animations replaced by the clip.

use serde_json::{Value, json};

use super::animation::animation;
use super::bin::Bin;
use super::node_tracks::source_tracks;
use super::{GltfExportError, GltfSource, GltfWriteOptions};
use crate::skeleton::{Clip, Skeleton};

fn array_len(doc: &Value, key: &str) -> usize {
    doc.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

fn bad(what: String) -> GltfExportError {
    GltfExportError::Source(what)
}

/// The merged document and its buffer bytes.
pub(crate) fn source_document(
    skeleton: &Skeleton,
    clip: &Clip,
    src: &GltfSource,
    opts: &GltfWriteOptions,
) -> Result<(Value, Vec<u8>), GltfExportError> {
    let tracks = source_tracks(skeleton, clip, src)?;
    let mut doc = src.json.clone();
    let mut bin = Bin::new(array_len(&doc, "bufferViews"), array_len(&doc, "accessors"));

    // 1. All source buffers into one, each at a 16-byte aligned offset; bufferViews re-pointed.
    let bases: Vec<usize> = src.buffers.iter().map(|b| bin.append_raw(b)).collect();
    if let Some(views) = doc.get_mut("bufferViews").and_then(Value::as_array_mut) {
        for (i, view) in views.iter_mut().enumerate() {
            let buffer = view.get("buffer").and_then(Value::as_u64).unwrap_or(0) as usize;
            let offset = view.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
            let base = bases
                .get(buffer)
                .ok_or_else(|| bad(format!("bufferViews[{i}].buffer {buffer} does not exist")))?;
            if let Some(obj) = view.as_object_mut() {
                obj.insert("buffer".into(), json!(0));
                obj.insert("byteOffset".into(), json!(base + offset));
            }
        }
    }

    // 2. External images into bufferViews (the output is self-contained).
    if let Some(images) = doc.get_mut("images").and_then(Value::as_array_mut) {
        for (image, embed) in images.iter_mut().zip(&src.images) {
            let (Some((bytes, mime)), Some(obj)) = (embed, image.as_object_mut()) else {
                continue;
            };
            let view = bin.view(bytes, None);
            obj.remove("uri");
            obj.insert("bufferView".into(), json!(view));
            obj.insert("mimeType".into(), json!(mime));
        }
    }

    // 3. Animated nodes given as a matrix get the importer's decomposition as TRS (channels cannot target a
    //    node with a matrix).
    if let Some(nodes) = doc.get_mut("nodes").and_then(Value::as_array_mut) {
        for t in &tracks {
            let node = nodes
                .get_mut(t.node)
                .and_then(Value::as_object_mut)
                .ok_or_else(|| bad(format!("nodes[{}] is not an object", t.node)))?;
            if node.remove("matrix").is_some() {
                let rest = src
                    .hierarchy
                    .rest
                    .get(t.node)
                    .ok_or_else(|| bad(format!("nodes[{}] has no rest transform", t.node)))?;
                let (tr, q, s) = (rest.translation, rest.rotation.coords, rest.scale);
                node.insert("translation".into(), json!([tr.x, tr.y, tr.z]));
                node.insert("rotation".into(), json!([q.x, q.y, q.z, q.w]));
                node.insert("scale".into(), json!([s.x, s.y, s.z]));
            }
        }
    }

    // 4. The clip replaces every animation.
    let anim = animation(
        &mut bin,
        &tracks,
        clip.frames.len(),
        clip.frame_time,
        &opts.animation_name,
    )?;
    let obj = doc
        .as_object_mut()
        .ok_or_else(|| bad("the document is not a JSON object".into()))?;
    obj.insert("animations".into(), json!([anim]));
    for (key, new) in [
        ("bufferViews", &mut bin.views),
        ("accessors", &mut bin.accessors),
    ] {
        let list = obj.entry(key).or_insert_with(|| json!([]));
        let list = list
            .as_array_mut()
            .ok_or_else(|| bad(format!("'{key}' is not an array")))?;
        list.append(new);
    }
    Ok((doc, bin.data))
}
