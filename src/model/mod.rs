//! The physical character as immutable data (as MuJoCo's `mjModel`): rigid bodies with capsule shapes, masses and
//! inertias, and the joints between them, built from a [`Skeleton`] and a [`BuildConfig`].
//!
//! One body per bone; the body of skeleton joint `j` owns the segments from `j` to each child joint and end site
//! (so it moves with `j`'s rotation). Joints closer than `min_bone_length` to their parent, and leaves without a
//! bone, are merged into their parent's body. Masses come from capsule volumes at `density` (water by default).
//! See `docs/model.md`.

mod build;
mod config;
mod shape;

use nalgebra::{Isometry3, Unit, UnitQuaternion, Vector3};

pub use config::{
    BoneConfig, BuildConfig, ConfigError, GainConfig, JointKindConfig, RadiusRule, parse_json,
    parse_toml, read_config_file,
};
pub use shape::{Capsule, MassProperties, parallel_axis};

use crate::skeleton::Skeleton;

/// One rigid body of the character.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Name of the skeleton joint that owns the body.
    pub name: String,
    /// Index of that skeleton joint. The body frame is this joint's rest frame.
    pub skeleton_joint: usize,
    /// Parent body; `None` for the root body.
    pub parent: Option<usize>,
    /// Skeleton joints merged into this body (rigidly attached at their rest pose).
    pub merged: Vec<usize>,
    /// Collision and mass shapes in the body frame.
    pub capsules: Vec<Capsule>,
    /// Mass, centre of mass and inertia about it, in the body frame.
    pub mass: MassProperties,
    /// Whether its capsules collide (balls, other characters, the floor). False for a bone configured with
    /// `collide = false`: its capsules still give it its mass and draw it.
    pub collides: bool,
}

/// The kind of joint between a body and its parent. Axes are unit vectors in the child body's frame.
#[derive(Debug, Clone, PartialEq)]
pub enum JointKind {
    /// 3 rotational DOF.
    Ball,
    /// 1 rotational DOF about `axis`.
    Hinge {
        /// Rotation axis.
        axis: Unit<Vector3<f64>>,
    },
    /// 2 rotational DOF about two axes.
    Universal {
        /// The rotation axes.
        axes: [Unit<Vector3<f64>>; 2],
    },
}

/// The joint attaching body `child` to body `parent`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelJoint {
    /// The child body.
    pub child: usize,
    /// The parent body.
    pub parent: usize,
    /// The child body's frame in the parent body's frame at rest; its translation is the joint anchor.
    pub parent_from_child: Isometry3<f64>,
    /// Joint kind.
    pub kind: JointKind,
}

/// The physical model of a character.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Bodies, parents before children; body 0 is the root.
    pub bodies: Vec<Body>,
    /// One joint per non-root body.
    pub joints: Vec<ModelJoint>,
    /// For each skeleton joint, the body it belongs to (its own or the one it is merged into).
    pub body_of_joint: Vec<usize>,
    /// The skeleton's standing height (m) the radius rules were scaled by.
    pub standing_height: f64,
}

/// Why a model could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// A configuration value is out of range.
    #[error("model config: {0}")]
    Config(String),
    /// The skeleton cannot make a body (e.g. no extent).
    #[error("skeleton: {0}")]
    Degenerate(String),
}

impl Model {
    /// The rest rotation of each body's joint (`parent_from_child.rotation`; identity for the root): the rest
    /// pose in generalized coordinates.
    pub fn rest_rotations(&self) -> Vec<UnitQuaternion<f64>> {
        let mut rest = vec![UnitQuaternion::identity(); self.bodies.len()];
        for j in &self.joints {
            rest[j.child] = j.parent_from_child.rotation;
        }
        rest
    }

    /// Builds the model of `skeleton` with `config`.
    pub fn from_skeleton(skeleton: &Skeleton, config: &BuildConfig) -> Result<Model, ModelError> {
        build::build(skeleton, config)
    }

    /// Total mass (kg).
    pub fn total_mass(&self) -> f64 {
        self.bodies.iter().map(|b| b.mass.mass).sum()
    }

    /// Bone names in `config.bones` that name no skeleton joint (likely typos), for a warning.
    pub fn unknown_bones<'a>(skeleton: &Skeleton, config: &'a BuildConfig) -> Vec<&'a str> {
        config
            .bones
            .keys()
            .filter(|n| skeleton.find(n).is_none())
            .map(String::as_str)
            .collect()
    }
}
