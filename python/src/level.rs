//! The level's Python arguments and results: a collider from `Scene.add_collider`'s keywords, poses, level files,
//! and ray hits as dicts (the methods themselves are in `scene.rs`).

use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::vector;
use crate::errors::{Kind, error};
use flinch_core::level::{ColliderDesc, LevelLoadError, LevelShape};
use flinch_core::scene::{RayTarget, SceneRayHit};

/// A pose from a position (m) and a rotation quaternion (x, y, z, w; normalized, nonzero).
pub fn pose(position: [f64; 3], rotation: [f64; 4]) -> PyResult<Isometry3<f64>> {
    let p = vector("position", position)?;
    let [x, y, z, w] = rotation;
    let q = Quaternion::new(w, x, y, z);
    let norm = q.norm();
    if !(rotation.iter().all(|c| c.is_finite()) && norm > 1e-9) {
        return Err(error(
            Kind::Argument,
            format!(
                "`rotation` must be a finite nonzero quaternion (x, y, z, w; identity (0, 0, 0, 1)), got {rotation:?}"
            ),
        ));
    }
    Ok(Isometry3::from_parts(
        Translation3::from(p),
        UnitQuaternion::from_quaternion(q),
    ))
}

/// The numbers of a sequence or array argument, flattened (`numpy.asarray(value, float).ravel()`).
fn numbers(what: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let py = value.py();
    let flat = py
        .import("numpy")
        .and_then(|np| np.call_method1("asarray", (value, "float64")))
        .and_then(|a| a.call_method0("ravel"))
        .and_then(|a| a.call_method0("tolist"))
        .and_then(|l| l.extract::<Vec<f64>>())
        .map_err(|e| {
            error(
                Kind::Argument,
                format!("`{what}` must be a sequence or array of numbers: {e}"),
            )
        })?;
    Ok(flat)
}

/// xyz points of an argument: a sequence of triples, or an (n, 3) array.
fn points(what: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<Point3<f64>>> {
    let flat = numbers(what, value)?;
    if flat.len() % 3 != 0 {
        return Err(error(
            Kind::Argument,
            format!("`{what}` holds {} numbers, not xyz triples", flat.len()),
        ));
    }
    Ok(flat
        .chunks_exact(3)
        .map(|c| Point3::new(c[0], c[1], c[2]))
        .collect())
}

/// Index triples of an argument: a sequence of triples, or an (n, 3) integer array.
fn triangles(value: &Bound<'_, PyAny>) -> PyResult<Vec<[u32; 3]>> {
    let py = value.py();
    let flat = py
        .import("numpy")
        .and_then(|np| np.call_method1("asarray", (value, "int64")))
        .and_then(|a| a.call_method0("ravel"))
        .and_then(|a| a.call_method0("tolist"))
        .and_then(|l| l.extract::<Vec<i64>>())
        .map_err(|e| {
            error(
                Kind::Argument,
                format!("`triangles` must be a sequence or array of integers: {e}"),
            )
        })?;
    if flat.len() % 3 != 0 {
        return Err(error(
            Kind::Argument,
            format!("`triangles` holds {} indices, not triples", flat.len()),
        ));
    }
    let index = |i: i64| {
        u32::try_from(i).map_err(|_| {
            error(
                Kind::Argument,
                format!("`triangles`: index {i} is not a vertex index"),
            )
        })
    };
    flat.chunks_exact(3)
        .map(|t| Ok([index(t[0])?, index(t[1])?, index(t[2])?]))
        .collect()
}

/// The shape keywords of `Scene.add_collider`.
pub struct ShapeArgs<'a, 'py> {
    /// Plane normal.
    pub normal: Option<[f64; 3]>,
    /// Box half extents.
    pub half_extents: Option<[f64; 3]>,
    /// Sphere or capsule radius.
    pub radius: Option<f64>,
    /// Capsule half height.
    pub half_height: Option<f64>,
    /// Convex hull points.
    pub points: Option<&'a Bound<'py, PyAny>>,
    /// Mesh vertices.
    pub vertices: Option<&'a Bound<'py, PyAny>>,
    /// Mesh triangles.
    pub triangles: Option<&'a Bound<'py, PyAny>>,
    /// Height field heights, (rows, cols).
    pub heights: Option<&'a Bound<'py, PyAny>>,
    /// Height field extent along x.
    pub size_x: Option<f64>,
    /// Height field extent along z.
    pub size_z: Option<f64>,
}

impl ShapeArgs<'_, '_> {
    /// The keywords given, by name.
    fn given(&self) -> Vec<&'static str> {
        [
            ("normal", self.normal.is_some()),
            ("half_extents", self.half_extents.is_some()),
            ("radius", self.radius.is_some()),
            ("half_height", self.half_height.is_some()),
            ("points", self.points.is_some()),
            ("vertices", self.vertices.is_some()),
            ("triangles", self.triangles.is_some()),
            ("heights", self.heights.is_some()),
            ("size_x", self.size_x.is_some()),
            ("size_z", self.size_z.is_some()),
        ]
        .into_iter()
        .filter_map(|(n, g)| g.then_some(n))
        .collect()
    }

    /// The shape named `shape` from its keywords: each one it needs given, no other.
    pub fn shape(&self, shape: &str) -> PyResult<LevelShape> {
        let kind = shape.to_ascii_lowercase().replace([' ', '-'], "_");
        let (name, needs): (&str, &[&str]) = match kind.as_str() {
            "plane" => ("plane", &["normal"]),
            "box" => ("box", &["half_extents"]),
            "sphere" | "ball" => ("sphere", &["radius"]),
            "capsule" => ("capsule", &["half_height", "radius"]),
            "convex_hull" | "hull" | "convex" => ("convex_hull", &["points"]),
            "mesh" | "trimesh" | "triangle_mesh" => ("mesh", &["vertices", "triangles"]),
            "height_field" | "heightfield" => ("height_field", &["heights", "size_x", "size_z"]),
            _ => {
                return Err(error(
                    Kind::Argument,
                    format!(
                        "shape '{shape}': expected 'plane', 'box', 'sphere', 'capsule', 'convex_hull', 'mesh' or \
                         'height_field'"
                    ),
                ));
            }
        };
        let given = self.given();
        if let Some(extra) = given.iter().find(|g| !needs.contains(g)) {
            return Err(error(
                Kind::Argument,
                format!("`{extra}` is not a parameter of a {name} (it takes {needs:?})"),
            ));
        }
        if let Some(missing) = needs.iter().find(|n| !given.contains(n)) {
            return Err(error(
                Kind::Argument,
                format!("a {name} needs `{missing}` (it takes {needs:?})"),
            ));
        }
        let missing = || error(Kind::Argument, format!("a {name} is missing a parameter"));
        Ok(match name {
            "plane" => LevelShape::Plane {
                normal: Vector3::from(self.normal.ok_or_else(missing)?),
            },
            "box" => LevelShape::Box {
                half_extents: Vector3::from(self.half_extents.ok_or_else(missing)?),
            },
            "sphere" => LevelShape::Sphere {
                radius: self.radius.ok_or_else(missing)?,
            },
            "capsule" => LevelShape::Capsule {
                half_height: self.half_height.ok_or_else(missing)?,
                radius: self.radius.ok_or_else(missing)?,
            },
            "convex_hull" => LevelShape::ConvexHull {
                points: points("points", self.points.ok_or_else(missing)?)?,
            },
            "mesh" => LevelShape::TriMesh {
                vertices: points("vertices", self.vertices.ok_or_else(missing)?)?,
                triangles: triangles(self.triangles.ok_or_else(missing)?)?,
            },
            _ => {
                let heights = self.heights.ok_or_else(missing)?;
                let shape: Vec<usize> = heights
                    .py()
                    .import("numpy")
                    .and_then(|np| np.call_method1("shape", (heights,)))
                    .and_then(|s| s.extract())
                    .map_err(|e| error(Kind::Argument, format!("`heights`: {e}")))?;
                let [rows, cols] = shape[..] else {
                    return Err(error(
                        Kind::Argument,
                        format!(
                            "`heights` must be 2-D (rows along z, columns along x), got shape {shape:?}"
                        ),
                    ));
                };
                LevelShape::HeightField {
                    rows,
                    cols,
                    heights: numbers("heights", heights)?,
                    size_x: self.size_x.ok_or_else(missing)?,
                    size_z: self.size_z.ok_or_else(missing)?,
                }
            }
        })
    }
}

/// The collider of `Scene.add_collider`'s arguments (an unnamed one is called by its shape in messages).
#[allow(clippy::too_many_arguments)]
pub fn collider(
    shape: &str,
    args: &ShapeArgs<'_, '_>,
    position: [f64; 3],
    rotation: [f64; 4],
    friction: Option<f64>,
    restitution: f64,
    layers: u32,
    mask: u32,
    kinematic: bool,
    name: Option<String>,
) -> PyResult<ColliderDesc> {
    let level_shape = args.shape(shape)?;
    let mut desc = ColliderDesc::new(level_shape, pose(position, rotation)?)
        .named(name.unwrap_or_else(|| shape.to_string()));
    desc.friction = friction;
    desc.restitution = restitution;
    desc.layers = layers;
    desc.mask = mask;
    if kinematic {
        desc = desc.kinematic();
    }
    Ok(desc)
}

/// A level file error as a Python exception.
pub fn load_error(e: LevelLoadError) -> PyErr {
    let kind = match e {
        LevelLoadError::Io { .. } => Kind::Io,
        LevelLoadError::Sidecar(_) => Kind::Config,
        _ => Kind::Parse,
    };
    error(kind, e.to_string())
}

/// A ray hit as a dict: kind ("character" or "collider"), character, body, bone (None for a collider), collider
/// (None for a character), point, normal, distance.
pub fn hit_dict<'py>(py: Python<'py>, hit: &SceneRayHit) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let t = |v: &Vector3<f64>| (v.x, v.y, v.z);
    match &hit.target {
        RayTarget::Character { key, body, bone } => {
            d.set_item("kind", "character")?;
            d.set_item("character", key.to_raw())?;
            d.set_item("body", *body)?;
            d.set_item("bone", bone.as_str())?;
            d.set_item("collider", py.None())?;
        }
        RayTarget::Collider(key) => {
            d.set_item("kind", "collider")?;
            d.set_item("character", py.None())?;
            d.set_item("body", py.None())?;
            d.set_item("bone", py.None())?;
            d.set_item("collider", key.to_raw())?;
        }
    }
    d.set_item("point", t(&hit.point))?;
    d.set_item("normal", t(&hit.normal))?;
    d.set_item("distance", hit.distance)?;
    Ok(d)
}

/// A cast's direction and distance, checked (`finite`: a sweep's distance).
pub fn cast_arguments(
    origin: [f64; 3],
    direction: [f64; 3],
    max_distance: f64,
    finite: bool,
) -> PyResult<(Vector3<f64>, Vector3<f64>)> {
    let origin = vector("origin", origin)?;
    let direction = vector("direction", direction)?;
    if direction.norm_squared() == 0.0 {
        return Err(error(Kind::Argument, "`direction` is zero"));
    }
    if max_distance.is_nan() || max_distance < 0.0 || (finite && max_distance.is_infinite()) {
        return Err(error(
            Kind::Argument,
            format!(
                "`max_distance` must be {}≥ 0, got {max_distance}",
                if finite { "finite and " } else { "" }
            ),
        ));
    }
    Ok((origin, direction))
}
