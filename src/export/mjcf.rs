//! The physical character as MuJoCo XML (MJCF), with the reference motion and flinch's continuous inverse-dynamics
//! forces in MuJoCo's generalized coordinates: `mj_inverse` on each exported `(qpos, qvel, qacc)` returns the
//! exported `qfrc` (checked by `bench/mjcf_inverse_check.py`). See `docs/mjcf.md`.
//!
//! [`write_mjcf`] writes three files into a directory, each atomically (a temporary file in the directory, then a
//! rename):
//!
//! - `character.xml`: one `<body>` per model body, nested like the model tree, body frame = flinch body frame (the
//!   skeleton joint). The root has a `<freejoint/>`, every other body a `<joint type="ball"/>` at its origin
//!   (hinge and universal joints are exported as ball joints, with a comment). Mass properties come from an
//!   `<inertial>` element per body (`inertiafromgeom="false"`); the capsules are massless, contact-free geoms.
//!   `angle="radian"`, `timestep` = the reference step, gravity (0, −9.81, 0) (flinch is Y up), Euler
//!   integrator, no armature, no damping, contacts disabled. A keyframe `sample0` holds sample 0's `qpos` and
//!   `qvel`.
//! - `reference.csv`: a header line, then one row per reference sample `k = 0..steps`:
//!   `step, time, qpos[nq], qvel[nv], qacc[nv], qfrc[nv]`, every number in Rust's shortest round-trip form.
//!   Bodies appear in MuJoCo's body order ([`MjcfLayout::order`], the XML's depth-first order; it equals flinch's
//!   body index order whenever that is a depth-first pre-order, as for every BVH). Per body:
//!   - root (free joint): `qpos` = origin x y z (world, m), rotation qw qx qy qz (world); `qvel` = vx vy vz
//!     (world velocity of the origin, m/s), wx wy wz (angular velocity in the root frame, rad/s); `qacc` = their
//!     time derivatives; `qfrc` = fx fy fz (force on the root at its origin, world, N), tx ty tz (torque about the
//!     origin in the root frame, N·m);
//!   - other bodies (ball joint): `qpos` = qw qx qy qz, the rotation relative to the body's rest `quat`
//!     (`rest⁻¹·q_rel`); `qvel`/`qacc` = wx wy wz, angular velocity/acceleration relative to the parent in the
//!     body's frame; `qfrc` = tx ty tz, the torque the parent applies about the joint, in the body's frame.
//!
//!   Column names: `qpos_<body>_{x,y,z,qw,qx,qy,qz}`, `qvel_<body>_{vx,vy,vz,wx,wy,wz}`,
//!   `qacc_<body>_{…}` (as `qvel`), `qfrc_<body>_{fx,fy,fz,tx,ty,tz}`; ball joints only the quaternion,
//!   `w` and `t` parts.
//! - `export.json`: sizes (`nq`, `nv`, `steps`, `h`), the total mass, gravity and the bodies in MuJoCo order (name,
//!   flinch index, parent, mass, flinch joint kind).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use nalgebra::UnitQuaternion;

pub use super::mjcf_layout::MjcfLayout;
use super::mjcf_layout::Row;
use super::mjcf_xml::{MjcfFloor, character_xml, num};
use crate::control::ReferenceMotion;
use crate::model::{JointKind, Model};

/// Name of the MJCF file in the export directory.
pub const CHARACTER_XML: &str = "character.xml";
pub use super::mjcf_layout::REFERENCE_CSV;
/// Name of the metadata file in the export directory.
pub const EXPORT_JSON: &str = "export.json";

/// Why an export failed: the file concerned and what went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The model or reference cannot be exported (mismatch, non-finite value).
    #[error("{}: {what}", path.display())]
    Invalid {
        /// The file that was not written.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A file system operation failed.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// What was attempted (e.g. `write`).
        action: &'static str,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// What [`write_mjcf`] wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct MjcfFiles {
    /// The MJCF model.
    pub character: PathBuf,
    /// The reference motion and forces.
    pub reference: PathBuf,
    /// Sizes, masses and the body order.
    pub meta: PathBuf,
    /// Body order and names.
    pub layout: MjcfLayout,
    /// Number of CSV rows (reference samples).
    pub steps: usize,
    /// Largest |qfrc| component over the clip (N or N·m).
    pub max_qfrc: f64,
}

/// Writes `character.xml`, `reference.csv` and `export.json` into `dir` (created if missing), each atomically.
pub fn write_mjcf(
    model: &Model,
    reference: &ReferenceMotion,
    dir: &Path,
) -> Result<MjcfFiles, ExportError> {
    write_mjcf_with(model, reference, dir, None)
}

/// [`write_mjcf`] with the character standing on `floor` (MuJoCo's contacts on; see [`MjcfFloor`]).
pub fn write_mjcf_with(
    model: &Model,
    reference: &ReferenceMotion,
    dir: &Path,
    floor: Option<&MjcfFloor>,
) -> Result<MjcfFiles, ExportError> {
    let character = dir.join(CHARACTER_XML);
    let csv = dir.join(REFERENCE_CSV);
    let meta = dir.join(EXPORT_JSON);
    let invalid = |path: &Path, what: String| ExportError::Invalid {
        path: path.to_path_buf(),
        what,
    };
    let layout = MjcfLayout::new(model).map_err(|w| invalid(&character, w))?;
    check_match(model, reference).map_err(|w| invalid(&character, w))?;
    std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
        path: dir.to_path_buf(),
        action: "create the directory",
        source,
    })?;

    // The CSV first: it is where a non-finite reference value shows, and then nothing is written.
    let rest = model.rest_rotations();
    let mut max_qfrc: f64 = 0.0;
    write_atomic(&csv, |f| {
        max_qfrc = write_csv(f, reference, &layout, &rest)?;
        Ok(())
    })?;

    let xml =
        character_xml(model, reference, &layout, floor).map_err(|w| invalid(&character, w))?;
    write_atomic(&character, |f| {
        f.write_all(xml.as_bytes()).map_err(Into::into)
    })?;

    let json = meta_json(model, reference, &layout);
    write_atomic(&meta, |f| {
        serde_json::to_writer_pretty(&mut *f, &json).map_err(std::io::Error::from)?;
        f.write_all(b"\n").map_err(Into::into)
    })?;

    Ok(MjcfFiles {
        character,
        reference: csv,
        meta,
        layout,
        steps: reference.steps,
        max_qfrc,
    })
}

/// Checks that `reference` was built for `model` and that the model's numbers are finite.
fn check_match(model: &Model, reference: &ReferenceMotion) -> Result<(), String> {
    let n = model.bodies.len();
    if reference.bodies() != n {
        return Err(format!(
            "the reference has {} bodies, the model {n}",
            reference.bodies()
        ));
    }
    for (b, body) in model.bodies.iter().enumerate() {
        let p = body.parent.unwrap_or(usize::MAX);
        if reference.topology.parent[b] != p {
            return Err(format!(
                "body {b} ({}): the reference's parent differs from the model's",
                body.name
            ));
        }
    }
    for (b, body) in model.bodies.iter().enumerate() {
        let m = &body.mass;
        let finite = m.mass.is_finite()
            && m.com.iter().all(|x| x.is_finite())
            && m.inertia.iter().all(|x| x.is_finite())
            && body.capsules.iter().all(|c| {
                c.radius.is_finite()
                    && c.a.iter().all(|x| x.is_finite())
                    && c.b.iter().all(|x| x.is_finite())
            });
        if !finite {
            return Err(format!(
                "body {b} ({}): non-finite mass properties or shapes",
                body.name
            ));
        }
    }
    for j in &model.joints {
        let t = &j.parent_from_child;
        if !(t.translation.vector.iter().all(|x| x.is_finite())
            && t.rotation.coords.iter().all(|x| x.is_finite()))
        {
            return Err(format!(
                "the joint of body {} ({}) has a non-finite rest transform",
                j.child, model.bodies[j.child].name
            ));
        }
    }
    if reference.steps == 0 {
        return Err("the reference has no sample".into());
    }
    if !(reference.h.is_finite() && reference.h > 0.0) {
        return Err(format!("bad reference time step {}", reference.h));
    }
    Ok(())
}

/// Streams the CSV; returns the largest |qfrc| component.
fn write_csv(
    f: &mut BufWriter<File>,
    reference: &ReferenceMotion,
    layout: &MjcfLayout,
    rest: &[UnitQuaternion<f64>],
) -> Result<f64, WriteError> {
    writeln!(f, "{}", layout.columns().join(","))?;
    let mut row = Row::new(layout);
    let mut max_qfrc: f64 = 0.0;
    let mut line = String::new();
    for k in 0..reference.steps {
        row.fill(reference, layout, rest, k);
        for (what, v) in [
            ("qpos", &row.qpos),
            ("qvel", &row.qvel),
            ("qacc", &row.qacc),
            ("qfrc", &row.qfrc),
        ] {
            if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                return Err(WriteError::Invalid(format!(
                    "step {k}: {what}[{i}] is not finite ({})",
                    v[i]
                )));
            }
        }
        max_qfrc = row.qfrc.iter().fold(max_qfrc, |m, x| m.max(x.abs()));
        line.clear();
        line.push_str(&format!("{k},{}", num(k as f64 * reference.h)));
        for v in [&row.qpos, &row.qvel, &row.qacc, &row.qfrc] {
            for x in v.iter() {
                line.push(',');
                line.push_str(&num(*x));
            }
        }
        line.push('\n');
        f.write_all(line.as_bytes())?;
    }
    Ok(max_qfrc)
}

/// The metadata file's content.
fn meta_json(model: &Model, reference: &ReferenceMotion, layout: &MjcfLayout) -> serde_json::Value {
    let mut joint_of = vec![None; model.bodies.len()];
    for j in &model.joints {
        joint_of[j.child] = Some(&j.kind);
    }
    let bodies: Vec<serde_json::Value> = layout
        .order
        .iter()
        .map(|&b| {
            let body = &model.bodies[b];
            let joint = match joint_of[b] {
                None => "free",
                Some(JointKind::Ball) => "ball",
                Some(JointKind::Hinge { .. }) => "hinge (exported as ball)",
                Some(JointKind::Universal { .. }) => "universal (exported as ball)",
            };
            serde_json::json!({
                "name": layout.names[b],
                "flinch_name": body.name,
                "flinch_index": b,
                "parent": body.parent.map(|p| layout.names[p].clone()),
                "mass": body.mass.mass,
                "joint": joint,
            })
        })
        .collect();
    serde_json::json!({
        "format": "flinch-mjcf 1",
        "flinch_version": env!("CARGO_PKG_VERSION"),
        "character": CHARACTER_XML,
        "reference": REFERENCE_CSV,
        "h": reference.h,
        "steps": reference.steps,
        "nbody": layout.bodies(),
        "nq": layout.nq(),
        "nv": layout.nv(),
        "total_mass": model.total_mass(),
        "gravity": [reference.gravity.x, reference.gravity.y, reference.gravity.z],
        "index_order": layout.is_index_order(),
        "bodies": bodies,
    })
}

/// A failure inside a file writer: the path is added by [`write_atomic`].
enum WriteError {
    Io(std::io::Error),
    Invalid(String),
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// Writes `path` atomically (see [`crate::io::write_atomic_with`]), naming the file in errors.
fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> Result<(), WriteError>,
) -> Result<(), ExportError> {
    crate::io::write_atomic_with(path, fill).map_err(|e| match e {
        WriteError::Io(source) => ExportError::Io {
            path: path.to_path_buf(),
            action: "write",
            source,
        },
        WriteError::Invalid(what) => ExportError::Invalid {
            path: path.to_path_buf(),
            what,
        },
    })
}
