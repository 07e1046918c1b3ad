//! MuJoCo's view of a flinch model (body order, names, generalized-coordinate sizes) and one reference sample in
//! that layout: what the MJCF writer (`mjcf.rs`) and its XML (`mjcf_xml.rs`) both read, kept apart so neither
//! imports the other's insides.

use nalgebra::UnitQuaternion;

use crate::control::{JointWrenches, ReferenceMotion, newton_euler};
use crate::model::Model;

/// Name of the reference CSV in the export directory.
pub const REFERENCE_CSV: &str = "reference.csv";

/// MuJoCo's view of a model: body order and names, and the generalized-coordinate sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct MjcfLayout {
    /// MuJoCo body `i + 1` is flinch body `order[i]` (MuJoCo body 0 is the world): the depth-first pre-order of
    /// the model tree, children in index order. The CSV columns follow this order.
    pub order: Vec<usize>,
    /// The MJCF name of each flinch body (indexed by flinch body): the body name with characters outside
    /// `[A-Za-z0-9_.:-]` replaced by `_`, made unique with a `_2`, `_3`, … suffix.
    pub names: Vec<String>,
    /// Children of each flinch body, in index order.
    pub(super) children: Vec<Vec<usize>>,
}

impl MjcfLayout {
    /// The layout of `model` (body 0 must be the only root).
    pub fn new(model: &Model) -> Result<MjcfLayout, String> {
        let n = model.bodies.len();
        if n == 0 {
            return Err("the model has no body".into());
        }
        let mut children = vec![Vec::new(); n];
        for (b, body) in model.bodies.iter().enumerate() {
            match body.parent {
                None if b == 0 => {}
                None => return Err(format!("body {b} ({}) has no parent", body.name)),
                Some(p) if p >= b => {
                    return Err(format!(
                        "body {b} ({}) comes before its parent {p}",
                        body.name
                    ));
                }
                Some(p) => children[p].push(b),
            }
        }
        if model.bodies[0].parent.is_some() {
            return Err("body 0 is not the root".into());
        }
        let mut order = Vec::with_capacity(n);
        let mut stack = vec![0];
        while let Some(b) = stack.pop() {
            order.push(b);
            stack.extend(children[b].iter().rev());
        }
        let mut names: Vec<String> = Vec::with_capacity(n);
        for (b, body) in model.bodies.iter().enumerate() {
            let mut base: String = body
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "_.:-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if base.is_empty() {
                base = format!("body{b}");
            }
            let mut name = base.clone();
            let mut i = 2;
            while names.contains(&name) || name == "world" {
                name = format!("{base}_{i}");
                i += 1;
            }
            names.push(name);
        }
        Ok(MjcfLayout {
            order,
            names,
            children,
        })
    }

    /// Number of bodies.
    pub fn bodies(&self) -> usize {
        self.order.len()
    }

    /// Size of `qpos`: 7 for the free joint, 4 per ball joint.
    pub fn nq(&self) -> usize {
        7 + 4 * (self.bodies() - 1)
    }

    /// Size of `qvel`, `qacc` and `qfrc`: 6 for the free joint, 3 per ball joint.
    pub fn nv(&self) -> usize {
        6 + 3 * (self.bodies() - 1)
    }

    /// Whether MuJoCo's body order is flinch's body index order.
    pub fn is_index_order(&self) -> bool {
        self.order.iter().enumerate().all(|(i, &b)| i == b)
    }

    /// The CSV header columns (see the module docs).
    pub fn columns(&self) -> Vec<String> {
        let mut cols = vec!["step".to_string(), "time".to_string()];
        let groups: [(&str, &[&str], &[&str]); 4] = [
            (
                "qpos",
                &["x", "y", "z", "qw", "qx", "qy", "qz"],
                &["qw", "qx", "qy", "qz"],
            ),
            (
                "qvel",
                &["vx", "vy", "vz", "wx", "wy", "wz"],
                &["wx", "wy", "wz"],
            ),
            (
                "qacc",
                &["vx", "vy", "vz", "wx", "wy", "wz"],
                &["wx", "wy", "wz"],
            ),
            (
                "qfrc",
                &["fx", "fy", "fz", "tx", "ty", "tz"],
                &["tx", "ty", "tz"],
            ),
        ];
        for (prefix, root, ball) in groups {
            for (i, &b) in self.order.iter().enumerate() {
                let suffixes = if i == 0 { root } else { ball };
                for s in suffixes {
                    cols.push(format!("{prefix}_{}_{s}", self.names[b]));
                }
            }
        }
        cols
    }
}

/// One CSV row's generalized coordinates and forces, in MuJoCo's layout.
pub(super) struct Row {
    pub(super) qpos: Vec<f64>,
    pub(super) qvel: Vec<f64>,
    pub(super) qacc: Vec<f64>,
    pub(super) qfrc: Vec<f64>,
    kin: Vec<crate::control::BodyKinematics>,
    wrenches: JointWrenches,
}

impl Row {
    pub(super) fn new(layout: &MjcfLayout) -> Row {
        Row {
            qpos: Vec::with_capacity(layout.nq()),
            qvel: Vec::with_capacity(layout.nv()),
            qacc: Vec::with_capacity(layout.nv()),
            qfrc: Vec::with_capacity(layout.nv()),
            kin: Vec::new(),
            wrenches: JointWrenches::default(),
        }
    }

    /// Sample `k` of `reference` (joint rest rotations `rest`); the forces are the recursive Newton–Euler joint
    /// wrenches at `(q, u, u̇)`.
    pub(super) fn fill(
        &mut self,
        reference: &ReferenceMotion,
        layout: &MjcfLayout,
        rest: &[UnitQuaternion<f64>],
        k: usize,
    ) {
        let nb = reference.bodies();
        reference.kinematics(k, &mut self.kin);
        newton_euler(
            &reference.topology,
            &self.kin,
            &reference.gravity,
            &mut self.wrenches,
        );
        for v in [
            &mut self.qpos,
            &mut self.qvel,
            &mut self.qacc,
            &mut self.qfrc,
        ] {
            v.clear();
        }
        let q4 = |v: &mut Vec<f64>, q: &UnitQuaternion<f64>| {
            let c = q.quaternion();
            v.extend_from_slice(&[c.w, c.i, c.j, c.k]);
        };
        for &b in &layout.order {
            let i = k * nb + b;
            let r_inv = self.kin[b].rotation.inverse();
            let torque = r_inv * self.wrenches.torque[b];
            if b == 0 {
                self.qpos
                    .extend_from_slice(reference.root_pos[k].as_slice());
                q4(&mut self.qpos, &reference.rot[i]);
                self.qvel
                    .extend_from_slice(reference.root_vel[k].as_slice());
                self.qacc
                    .extend_from_slice(reference.root_acc[k].as_slice());
                self.qfrc
                    .extend_from_slice(self.wrenches.force[0].as_slice());
            } else {
                q4(&mut self.qpos, &(rest[b].inverse() * reference.rot[i]));
            }
            let (u, du) = reference.motion(k, b);
            self.qvel.extend_from_slice(u.as_slice());
            self.qacc.extend_from_slice(du.as_slice());
            self.qfrc.extend_from_slice(torque.as_slice());
        }
    }
}
