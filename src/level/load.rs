//! A level from a glTF / GLB file: every mesh of the scene as a static collider, node transforms applied.
//!
//! A mesh becomes a triangle mesh collider unless its node or mesh name ends in `_box` (its bounding box in the
//! node's frame: a wall, a table top, a crate), `_convex` (the convex hull of its vertices) or `_nocollide`
//! (skipped), or a JSON sidecar says otherwise: `{"colliders": {"Table": "convex", "Sky": "none"}}` maps a node or
//! mesh name to `"mesh"`, `"box"`, `"convex"` or `"none"`, and `{"friction": {"Ice": 0.05}}` sets a friction.
//! Non-manifold or degenerate meshes still load (degenerate triangles dropped, as a triangle soup); what was found
//! is reported per mesh. See `docs/world.md`.

use std::collections::HashMap;
use std::path::Path;

use gltf::mesh::Mode;
use nalgebra::{Isometry3, Matrix4, Point3, Translation3, UnitQuaternion, Vector3};

use super::{ColliderDesc, LevelShape};
use crate::io::Limits;
use crate::io::gltf_import::GltfImportError;
use crate::io::gltf_import::accessor::read_f64;

/// How a mesh becomes a collider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simplify {
    /// Its triangles.
    Mesh,
    /// Its bounding box in its node's frame.
    Box,
    /// The convex hull of its vertices.
    Convex,
    /// Not a collider.
    None,
}

/// Options of the level loader.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Resource limits (`max_triangles`, `max_nodes`, `max_accessor_values`).
    pub limits: Limits,
    /// Per node or mesh name: how it becomes a collider (over the name suffixes).
    pub simplify: HashMap<String, Simplify>,
    /// Per node or mesh name: Coulomb friction.
    pub friction: HashMap<String, f64>,
}

impl LoadOptions {
    /// Reads a JSON sidecar (`{"colliders": {name: "mesh"|"box"|"convex"|"none"}, "friction": {name: μ}}`).
    pub fn from_sidecar(text: &str) -> Result<LoadOptions, LevelLoadError> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Sidecar {
            #[serde(default)]
            colliders: HashMap<String, String>,
            #[serde(default)]
            friction: HashMap<String, f64>,
        }
        let s: Sidecar =
            serde_json::from_str(text).map_err(|e| LevelLoadError::Sidecar(format!("{e}")))?;
        let mut opts = LoadOptions::default();
        for (name, how) in s.colliders {
            let v = match how.as_str() {
                "mesh" => Simplify::Mesh,
                "box" => Simplify::Box,
                "convex" => Simplify::Convex,
                "none" => Simplify::None,
                other => {
                    return Err(LevelLoadError::Sidecar(format!(
                        "colliders.{name}: '{other}', expected mesh, box, convex or none"
                    )));
                }
            };
            opts.simplify.insert(name, v);
        }
        for (name, mu) in s.friction {
            if !(mu.is_finite() && mu >= 0.0) {
                return Err(LevelLoadError::Sidecar(format!(
                    "friction.{name}: {mu} must be finite and ≥ 0"
                )));
            }
            opts.friction.insert(name, mu);
        }
        Ok(opts)
    }
}

/// What went wrong loading a level.
#[derive(Debug, thiserror::Error)]
pub enum LevelLoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The glTF container, JSON or an accessor was refused.
    #[error("{0}")]
    Gltf(#[from] GltfImportError),
    /// A mesh was refused (which and why).
    #[error("mesh '{mesh}' (node '{node}'): {what}")]
    Mesh {
        /// The mesh's name (or `#index`).
        mesh: String,
        /// The node's name (or `#index`).
        node: String,
        /// Why.
        what: String,
    },
    /// The sidecar JSON was refused.
    #[error("level sidecar: {0}")]
    Sidecar(String),
    /// A limit was exceeded.
    #[error("{0}")]
    Limit(String),
    /// The file holds no mesh to collide with.
    #[error("no mesh to collide with (every mesh skipped, or none in the scene)")]
    Empty,
}

/// A loaded level file: the colliders to add, and what was found in each mesh.
#[derive(Debug, Clone)]
pub struct LevelFile {
    /// One static collider per mesh primitive (named `node/mesh` or `node/mesh#primitive`).
    pub colliders: Vec<ColliderDesc>,
    /// Triangles in all.
    pub triangles: usize,
    /// Notes: meshes with degenerate triangles or non-manifold edges, skipped primitives.
    pub notes: Vec<String>,
}

/// Reads and loads a level file; external buffers are looked up next to it, and a sidecar `NAME.colliders.json`
/// beside `NAME.glb` is read when `opts` is `None`.
pub fn load_level_file(
    path: &Path,
    opts: Option<&LoadOptions>,
) -> Result<LevelFile, LevelLoadError> {
    let bytes = std::fs::read(path).map_err(|source| LevelLoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let sidecar;
    let opts = match opts {
        Some(o) => o,
        None => {
            let side = path.with_extension("colliders.json");
            sidecar = match std::fs::read_to_string(&side) {
                Ok(text) => LoadOptions::from_sidecar(&text)
                    .map_err(|e| LevelLoadError::Sidecar(format!("{}: {e}", side.display())))?,
                Err(_) => LoadOptions::default(),
            };
            &sidecar
        }
    };
    load_level(&bytes, path.parent(), opts)
}

fn label(name: Option<&str>, index: usize) -> String {
    name.map_or_else(|| format!("#{index}"), str::to_string)
}

/// Loads a level from glTF / GLB bytes (`base_dir`: where external buffers are; `None` refuses them).
pub fn load_level(
    bytes: &[u8],
    base_dir: Option<&Path>,
    opts: &LoadOptions,
) -> Result<LevelFile, LevelLoadError> {
    let loaded = crate::io::gltf_import::load(bytes, base_dir)?;
    let doc = &loaded.doc;
    if doc.nodes().len() > opts.limits.max_nodes {
        return Err(LevelLoadError::Limit(Limits::exceeded(
            format!("{} nodes", doc.nodes().len()),
            "max_nodes",
            opts.limits.max_nodes,
        )));
    }
    // World matrices, parents first, from the default scene (else the first, else every root node).
    let roots: Vec<gltf::Node> = match doc.default_scene().or_else(|| doc.scenes().next()) {
        Some(scene) => scene.nodes().collect(),
        None => {
            let mut child = vec![false; doc.nodes().len()];
            for n in doc.nodes() {
                for c in n.children() {
                    child[c.index()] = true;
                }
            }
            doc.nodes().filter(|n| !child[n.index()]).collect()
        }
    };
    let mut stack: Vec<(gltf::Node, Matrix4<f64>, usize)> = roots
        .into_iter()
        .map(|n| (n, Matrix4::identity(), 1))
        .collect();
    let mut visited = vec![false; doc.nodes().len()];
    let mut file = LevelFile {
        colliders: Vec::new(),
        triangles: 0,
        notes: Vec::new(),
    };
    while let Some((node, parent, depth)) = stack.pop() {
        if visited[node.index()] || depth > opts.limits.max_depth {
            continue;
        }
        visited[node.index()] = true;
        let m = node.transform().matrix();
        let local = Matrix4::from_fn(|r, c| f64::from(m[c][r]));
        let world = parent * local;
        for child in node.children() {
            stack.push((child, world, depth + 1));
        }
        let Some(mesh) = node.mesh() else { continue };
        let node_name = label(node.name(), node.index());
        let mesh_name = label(mesh.name(), mesh.index());
        let how = [node_name.as_str(), mesh_name.as_str()]
            .iter()
            .find_map(|n| opts.simplify.get(*n).copied())
            .unwrap_or_else(|| {
                by_suffix(&node_name)
                    .or(by_suffix(&mesh_name))
                    .unwrap_or(Simplify::Mesh)
            });
        if how == Simplify::None {
            continue;
        }
        let friction = [node_name.as_str(), mesh_name.as_str()]
            .iter()
            .find_map(|n| opts.friction.get(*n).copied());
        if !world.iter().all(|x| x.is_finite()) {
            return Err(mesh_err(
                &mesh_name,
                &node_name,
                "non-finite node transform".into(),
            ));
        }
        for (pi, prim) in mesh.primitives().enumerate() {
            let name = if mesh.primitives().len() > 1 {
                format!("{node_name}/{mesh_name}#{pi}")
            } else {
                format!("{node_name}/{mesh_name}")
            };
            if prim.mode() != Mode::Triangles {
                file.notes.push(format!(
                    "{name}: {:?} primitive skipped (triangles only)",
                    prim.mode()
                ));
                continue;
            }
            let (vertices, triangles) = read_primitive(&loaded, &prim, &name, &opts.limits)
                .map_err(|what| mesh_err(&mesh_name, &node_name, what))?;
            let desc = collider(how, &world, vertices, triangles)
                .map_err(|what| mesh_err(&mesh_name, &node_name, what))?;
            let n = desc.shape.triangles();
            file.triangles += n;
            if file.triangles > opts.limits.max_triangles {
                return Err(LevelLoadError::Limit(Limits::exceeded(
                    format!("{} triangles", file.triangles),
                    "max_triangles",
                    opts.limits.max_triangles,
                )));
            }
            let mut desc = desc.named(name);
            desc.friction = friction;
            file.colliders.push(desc);
        }
    }
    if file.colliders.is_empty() {
        return Err(LevelLoadError::Empty);
    }
    Ok(file)
}

fn mesh_err(mesh: &str, node: &str, what: String) -> LevelLoadError {
    LevelLoadError::Mesh {
        mesh: mesh.into(),
        node: node.into(),
        what,
    }
}

fn by_suffix(name: &str) -> Option<Simplify> {
    let lower = name.to_ascii_lowercase();
    [
        ("_box", Simplify::Box),
        ("_convex", Simplify::Convex),
        ("_nocollide", Simplify::None),
    ]
    .iter()
    .find(|(s, _)| lower.ends_with(s))
    .map(|(_, v)| *v)
}

/// A primitive's vertices and triangles.
type MeshData = (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// The positions (mesh frame) and triangles of a primitive.
fn read_primitive(
    loaded: &crate::io::gltf_import::Loaded,
    prim: &gltf::Primitive,
    name: &str,
    limits: &Limits,
) -> Result<MeshData, String> {
    let pos = prim
        .get(&gltf::Semantic::Positions)
        .ok_or("a triangle primitive without POSITION")?;
    let p = read_f64(
        &pos,
        &[gltf::accessor::Dimensions::Vec3],
        &loaded.buffers,
        &format!("{name} POSITION"),
        limits,
    )
    .map_err(|e| e.to_string())?;
    let vertices: Vec<Point3<f64>> = p
        .chunks_exact(3)
        .map(|c| Point3::new(c[0], c[1], c[2]))
        .collect();
    // A declared triangle count over the limit is refused before its indices are read.
    let declared = prim.indices().map_or(vertices.len(), |a| a.count()) / 3;
    if declared > limits.max_triangles {
        return Err(Limits::exceeded(
            format!("{declared} triangles"),
            "max_triangles",
            limits.max_triangles,
        ));
    }
    let indices: Vec<u32> = match prim.indices() {
        Some(acc) => read_f64(
            &acc,
            &[gltf::accessor::Dimensions::Scalar],
            &loaded.buffers,
            &format!("{name} indices"),
            limits,
        )
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|i| i as u32)
        .collect(),
        None => (0..vertices.len() as u32).collect(),
    };
    if indices.len() % 3 != 0 {
        return Err(format!("{} indices, not a multiple of 3", indices.len()));
    }
    Ok((
        vertices,
        indices
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect(),
    ))
}

/// The collider of a primitive under its node's world matrix.
fn collider(
    how: Simplify,
    world: &Matrix4<f64>,
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
) -> Result<ColliderDesc, String> {
    if vertices.is_empty() {
        return Err("no vertices".into());
    }
    if let Some(i) = vertices
        .iter()
        .position(|v| !v.coords.iter().all(|x| x.is_finite()))
    {
        return Err(format!("vertex {i} is not finite: {:?}", vertices[i]));
    }
    let to_world = |p: &Point3<f64>| world.transform_point(p);
    match how {
        Simplify::Box => {
            // The box of the vertices in the node's frame, posed by the node's rotation and scaled by its scale
            // (columns' lengths; a shear is not kept).
            let lo = vertices
                .iter()
                .fold(Vector3::repeat(f64::INFINITY), |a, v| a.inf(&v.coords));
            let hi = vertices
                .iter()
                .fold(Vector3::repeat(f64::NEG_INFINITY), |a, v| a.sup(&v.coords));
            let lin = world.fixed_view::<3, 3>(0, 0).into_owned();
            let scale = Vector3::new(
                lin.column(0).norm(),
                lin.column(1).norm(),
                lin.column(2).norm(),
            );
            if scale.iter().any(|s| *s < 1e-12) {
                return Err("a node scale of zero".into());
            }
            let mut rot = lin;
            for c in 0..3 {
                let col = rot.column(c) / scale[c];
                rot.set_column(c, &col);
            }
            let rotation = UnitQuaternion::from_matrix(&rot);
            let half = (hi - lo).component_mul(&scale) * 0.5;
            let centre = to_world(&Point3::from((lo + hi) * 0.5));
            let half = half.map(|h| h.max(1e-4));
            Ok(ColliderDesc::new(
                LevelShape::Box { half_extents: half },
                Isometry3::from_parts(Translation3::from(centre.coords), rotation),
            ))
        }
        Simplify::Convex => Ok(ColliderDesc::new(
            LevelShape::ConvexHull {
                points: vertices.iter().map(to_world).collect(),
            },
            Isometry3::identity(),
        )),
        Simplify::Mesh | Simplify::None => Ok(ColliderDesc::new(
            LevelShape::TriMesh {
                vertices: vertices.iter().map(to_world).collect(),
                triangles,
            },
            Isometry3::identity(),
        )),
    }
}
