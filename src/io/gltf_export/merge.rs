//! A document from a source glTF: everything kept (meshes, skins, materials, textures, images, samplers,
//! nodes, scenes, extensions, extras), all buffers merged into one with the bufferViews re-pointed, external
//! images embedded, and the clips added as animations after the source's own.

use serde_json::{Value, json};

use super::animation::animation;
use super::bin::Bin;
use super::node_tracks::source_tracks;
use super::{GltfExportError, GltfSource, NamedClip, unique_name};
use crate::skeleton::Skeleton;

fn array_len(doc: &Value, key: &str) -> usize {
    doc.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

fn bad(what: String) -> GltfExportError {
    GltfExportError::Source(what)
}

/// The merged document and its buffer bytes.
pub(crate) fn source_document(
    skeleton: &Skeleton,
    clips: &[NamedClip<'_>],
    src: &GltfSource,
) -> Result<(Value, Vec<u8>), GltfExportError> {
    let tracks = clips
        .iter()
        .map(|c| source_tracks(skeleton, c.clip, src))
        .collect::<Result<Vec<_>, _>>()?;
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

    // 1b. The kept animations must validate: a source whose animation accessors sit in strided bufferViews (the
    //     2017 Fox: 126 errors) gets the stride dropped where it is the element size (the same bytes, read the
    //     same way by every accessor of the view).
    drop_tight_animation_strides(&mut doc);

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
        for t in tracks.iter().flatten() {
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

    // 4. The clips join the source's animations (kept: every accessor they use stays referenced).
    let obj = doc
        .as_object_mut()
        .ok_or_else(|| bad("the document is not a JSON object".into()))?;
    let list = obj.entry("animations").or_insert_with(|| json!([]));
    let list = list
        .as_array_mut()
        .ok_or_else(|| bad("'animations' is not an array".into()))?;
    let mut taken: Vec<String> = list
        .iter()
        .filter_map(|a| a.get("name").and_then(Value::as_str).map(str::to_string))
        .collect();
    for (named, tracks) in clips.iter().zip(&tracks) {
        let name = unique_name(named.name, &taken);
        let clip = named.clip;
        list.push(animation(
            &mut bin,
            tracks,
            clip.frames.len(),
            clip.frame_time,
            &name,
        )?);
        taken.push(name);
    }
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

/// Bytes per element of an accessor (`type` components × `componentType` size), if known.
fn element_size(accessor: &Value) -> Option<u64> {
    let components = match accessor.get("type")?.as_str()? {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        _ => return None,
    };
    let size = match accessor.get("componentType")?.as_u64()? {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        5125 | 5126 => 4,
        _ => return None,
    };
    Some(components * size)
}

/// Removes `byteStride` from the bufferViews read by animation samplers when every accessor of the view has
/// that stride as its element size (tightly packed: the stride says nothing the default does not). Views whose
/// stride interleaves are left as they are.
fn drop_tight_animation_strides(doc: &mut Value) {
    let accessors = doc
        .get("accessors")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let view_of = |a: u64| {
        accessors
            .get(a as usize)
            .and_then(|x| x.get("bufferView"))
            .and_then(Value::as_u64)
    };
    let mut views: Vec<u64> = doc
        .get("animations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| a.get("samplers").and_then(Value::as_array))
        .flatten()
        .flat_map(|s| [s.get("input"), s.get("output")])
        .filter_map(|x| x.and_then(Value::as_u64))
        .filter_map(view_of)
        .collect();
    views.sort_unstable();
    views.dedup();
    let Some(list) = doc.get_mut("bufferViews").and_then(Value::as_array_mut) else {
        return;
    };
    for v in views {
        let Some(view) = list.get_mut(v as usize).and_then(Value::as_object_mut) else {
            continue;
        };
        let Some(stride) = view.get("byteStride").and_then(Value::as_u64) else {
            continue;
        };
        let tight = accessors
            .iter()
            .filter(|a| a.get("bufferView").and_then(Value::as_u64) == Some(v))
            .all(|a| element_size(a) == Some(stride));
        if tight {
            view.remove("byteStride");
        }
    }
}
