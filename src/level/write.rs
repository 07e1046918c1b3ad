//! Writing level meshes as a GLB (one node per mesh, positions and indices, a grey material): the sample level's
//! exporter, and a way for a game's tools to hand flinch a level.

use nalgebra::{Point3, Vector3};
use serde_json::{Value, json};

use crate::io::gltf_export::GltfExportError;

/// A named triangle mesh (node frame).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LevelMesh {
    /// The mesh and node name (suffixes `_box`, `_convex` tell the loader how to collide with it).
    pub name: String,
    /// Vertices (m).
    pub vertices: Vec<Point3<f64>>,
    /// Counter-clockwise triangles seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

impl LevelMesh {
    /// An empty mesh.
    pub fn new(name: &str) -> LevelMesh {
        LevelMesh {
            name: name.into(),
            ..LevelMesh::default()
        }
    }
}

/// A GLB of `meshes`, each in a node translated by its vector.
pub fn level_glb(meshes: &[(LevelMesh, Vector3<f64>)]) -> Result<Vec<u8>, GltfExportError> {
    let mut bin: Vec<u8> = Vec::new();
    let (mut views, mut accessors, mut gmeshes, mut nodes) = (vec![], vec![], vec![], vec![]);
    for (i, (m, at)) in meshes.iter().enumerate() {
        let pos_offset = bin.len();
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for p in &m.vertices {
            for k in 0..3 {
                let x = p[k] as f32;
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
                bin.extend_from_slice(&x.to_le_bytes());
            }
        }
        let pos_len = bin.len() - pos_offset;
        let idx_offset = bin.len();
        for t in &m.triangles {
            for i in t {
                bin.extend_from_slice(&i.to_le_bytes());
            }
        }
        let idx_len = bin.len() - idx_offset;
        views.push(
            json!({"buffer": 0, "byteOffset": pos_offset, "byteLength": pos_len, "target": 34962}),
        );
        views.push(
            json!({"buffer": 0, "byteOffset": idx_offset, "byteLength": idx_len, "target": 34963}),
        );
        accessors.push(
            json!({"bufferView": 2 * i, "componentType": 5126, "count": m.vertices.len(),
            "type": "VEC3", "min": lo, "max": hi}),
        );
        accessors.push(json!({"bufferView": 2 * i + 1, "componentType": 5125,
            "count": 3 * m.triangles.len(), "type": "SCALAR"}));
        gmeshes.push(
            json!({"name": m.name, "primitives": [{"attributes": {"POSITION": 2 * i},
            "indices": 2 * i + 1, "material": 0}]}),
        );
        let mut node = json!({"name": m.name, "mesh": i});
        if at.norm() > 0.0 {
            node["translation"] = json!([at.x, at.y, at.z]);
        }
        nodes.push(node);
    }
    let doc: Value = json!({
        "asset": {"version": "2.0", "generator": crate::io::gltf_export::skeleton_doc::generator()},
        "scene": 0,
        "scenes": [{"nodes": (0..meshes.len()).collect::<Vec<_>>()}],
        "nodes": nodes,
        "meshes": gmeshes,
        "materials": [{"name": "level", "pbrMetallicRoughness": {"baseColorFactor": [0.6, 0.6, 0.62, 1.0],
            "metallicFactor": 0.0, "roughnessFactor": 0.9}}],
        "accessors": accessors,
        "bufferViews": views,
    });
    crate::io::gltf_export::pack::pack(doc, bin, true)
}
