//! What an export needs from an input glTF / GLB: its JSON (kept verbatim, extras and unknown extensions
//! included), every buffer's bytes, external images to embed, the node hierarchy, and the import mapping.

use std::path::Path;

use serde_json::Value;

use crate::io::gltf_import::container::{read_relative, split};
use crate::io::gltf_import::hierarchy::Hierarchy;
use crate::io::gltf_import::{GltfImportError, GltfMapping, import_loaded, load};
use crate::io::{ImportOptions, Imported, LengthUnit, UpAxis};

/// An input glTF / GLB prepared for export: [`write`](super::write) keeps its meshes, skins, materials,
/// textures and nodes and replaces its animations with the clip.
///
/// Built by [`load_source`] / [`load_source_file`] together with the import, so the skeleton and clip the
/// caller simulates map onto the same nodes.
#[derive(Debug, Clone)]
pub struct GltfSource {
    /// The source JSON document as parsed (a `serde_json::Value`, so that `extras` and extensions the
    /// `gltf-json` types do not model are carried over unchanged).
    pub(crate) json: Value,
    /// Every buffer's bytes (GLB BIN chunk, data URIs, external `.bin` files), cut to `byteLength`.
    pub(crate) buffers: Vec<Vec<u8>>,
    /// Per image: the bytes and media type of an external image file, to be embedded (`None`: the image is
    /// already in a bufferView or a data URI).
    pub(crate) images: Vec<Option<(Vec<u8>, String)>>,
    /// The node forest with rest transforms (as the importer reads it).
    pub(crate) hierarchy: Hierarchy,
    /// Which nodes, skin and animation the import used.
    pub mapping: GltfMapping,
    /// The unit the import converted from (metres per source unit via [`LengthUnit::to_metres`]).
    pub unit: LengthUnit,
    /// The up axis the import converted from.
    pub up_axis: UpAxis,
}

impl GltfSource {
    /// The source JSON document.
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// The names of the source's animations (`#i` for an unnamed one), in order.
    pub fn animation_names(&self) -> Vec<String> {
        self.json
            .get("animations")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .enumerate()
                    .map(|(i, a)| {
                        a.get("name")
                            .and_then(Value::as_str)
                            .map_or_else(|| format!("#{i}"), str::to_string)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The media type of an image file, from its extension (the types glTF and its common extensions allow).
fn media_type(uri: &str) -> Option<&'static str> {
    let ext = uri.rsplit('.').next()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ktx2" => "image/ktx2",
        _ => return None,
    })
}

/// Imports `bytes` (like [`import_mapped`](crate::io::gltf_import::import_mapped)) and keeps what an export
/// needs. `base_dir` is the folder external buffers and images are relative to.
///
/// Unlike the import alone, every buffer and every external image must be readable (an export carries them
/// all); a missing one is a [`GltfImportError::Buffer`] / [`GltfImportError::Image`].
pub fn load_source(
    bytes: &[u8],
    base_dir: Option<&Path>,
    opts: &ImportOptions,
) -> Result<(Imported, GltfSource), GltfImportError> {
    let loaded = load(bytes, base_dir)?;
    let (imported, mapping) = import_loaded(&loaded, opts)?;
    let hierarchy = Hierarchy::new(&loaded.doc, &opts.limits)?;
    let json: Value = serde_json::from_slice(split(bytes)?.json)
        .map_err(|e| GltfImportError::Json(e.to_string()))?;
    let buffers = loaded
        .doc
        .buffers()
        .zip(&loaded.buffers)
        .map(|(b, data)| match data {
            Ok(d) => Ok(d.get(..b.length()).unwrap_or(d).to_vec()),
            Err(what) => Err(GltfImportError::Buffer {
                index: b.index(),
                what: what.clone(),
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let images = loaded
        .doc
        .images()
        .map(|img| match img.source() {
            ::gltf::image::Source::Uri { uri, .. } if !uri.starts_with("data:") => {
                let err = |what: String| GltfImportError::Image {
                    index: img.index(),
                    what,
                };
                let mime = media_type(uri)
                    .ok_or_else(|| err(format!("cannot embed '{uri}': unknown image type")))?;
                let data = read_relative(uri, base_dir).map_err(err)?;
                Ok(Some((data, mime.to_string())))
            }
            _ => Ok(None),
        })
        .collect::<Result<Vec<_>, GltfImportError>>()?;
    let source = GltfSource {
        json,
        buffers,
        images,
        hierarchy,
        mapping,
        unit: imported.report.unit,
        up_axis: imported.report.up_axis,
    };
    Ok((imported, source))
}

/// Reads `path` and calls [`load_source`] with its folder as the base directory. Errors name the file.
pub fn load_source_file(
    path: &Path,
    opts: &ImportOptions,
) -> Result<(Imported, GltfSource), GltfImportError> {
    let bytes = std::fs::read(path).map_err(|source| GltfImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    load_source(&bytes, path.parent(), opts).map_err(|e| GltfImportError::InFile {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}
