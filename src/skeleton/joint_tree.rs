//! The joint tree: names, parents, rest offsets, channel layouts, end sites.

use nalgebra::{UnitQuaternion, Vector3};

use crate::math::{Axis, EulerOrder};

/// One animation channel of a joint, as BVH lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Translation along an axis (metres once imported).
    Position(Axis),
    /// Rotation about an axis (degrees in BVH files, radians in memory).
    Rotation(Axis),
}

impl Channel {
    /// BVH spelling, e.g. `Xposition`, `Zrotation`.
    pub fn bvh_name(self) -> String {
        match self {
            Channel::Position(a) => format!("{}position", a.letter()),
            Channel::Rotation(a) => format!("{}rotation", a.letter()),
        }
    }
}

/// One joint of a [`Skeleton`].
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name as in the source file (kept verbatim: `mixamorig:Hips`, `toe1-1.R`, `__Jaw`).
    pub name: String,
    /// Parent joint index; `None` for the root. Parents always come before their children.
    pub parent: Option<usize>,
    /// Rest translation from the parent joint's origin, in the parent's rest frame (metres).
    pub offset: Vector3<f64>,
    /// Rest orientation relative to the parent's frame (identity for BVH; the bind-pose local rotation for glTF).
    pub rest_rotation: UnitQuaternion<f64>,
    /// Channel layout in file order. The rotation channels define the joint's Euler order. Sources without
    /// channels (glTF, URDF) get a synthesized layout (see the importer).
    pub channels: Vec<Channel>,
    /// End sites (BVH `End Site`): tip offsets in this joint's frame (metres). Usually zero or one.
    pub end_sites: Vec<Vector3<f64>>,
}

impl Joint {
    /// A joint with rest offset, identity rest rotation, the given channels and no end site.
    pub fn new(
        name: impl Into<String>,
        parent: Option<usize>,
        offset: Vector3<f64>,
        channels: Vec<Channel>,
    ) -> Joint {
        Joint {
            name: name.into(),
            parent,
            offset,
            rest_rotation: UnitQuaternion::identity(),
            channels,
            end_sites: Vec::new(),
        }
    }

    /// The Euler order of the rotation channels, `None` unless the joint has exactly three distinct ones.
    pub fn rotation_order(&self) -> Option<EulerOrder> {
        let axes: Vec<Axis> = self
            .channels
            .iter()
            .filter_map(|c| match c {
                Channel::Rotation(a) => Some(*a),
                Channel::Position(_) => None,
            })
            .collect();
        match axes.as_slice() {
            [a, b, c] => EulerOrder::from_axes([*a, *b, *c]),
            _ => None,
        }
    }

    /// Whether the joint has any position channel.
    pub fn has_position_channels(&self) -> bool {
        self.channels
            .iter()
            .any(|c| matches!(c, Channel::Position(_)))
    }

    /// Number of rotational degrees of freedom the channel layout exposes (0 … 3).
    pub fn rotation_dof(&self) -> usize {
        self.channels
            .iter()
            .filter(|c| matches!(c, Channel::Rotation(_)))
            .count()
    }
}

/// A joint tree. Invariant: `joints[i].parent < Some(i)`, exactly one root at index 0.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skeleton {
    /// The joints, parents before children.
    pub joints: Vec<Joint>,
}

/// Why a joint list is not a valid [`Skeleton`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SkeletonError {
    /// No joints at all.
    #[error("skeleton has no joints")]
    Empty,
    /// The first joint has a parent, or a later joint has none.
    #[error("joint {index} ('{name}'): {what}")]
    BadParent {
        /// Joint index.
        index: usize,
        /// Joint name.
        name: String,
        /// What is wrong.
        what: String,
    },
}

impl Skeleton {
    /// Checks the ordering invariant and builds the skeleton.
    pub fn new(joints: Vec<Joint>) -> Result<Skeleton, SkeletonError> {
        if joints.is_empty() {
            return Err(SkeletonError::Empty);
        }
        for (i, j) in joints.iter().enumerate() {
            let ok = match (i, j.parent) {
                (0, None) => true,
                (0, Some(_)) => false,
                (_, Some(p)) => p < i,
                (_, None) => false,
            };
            if !ok {
                let what = if i == 0 {
                    "the root must have no parent".to_string()
                } else {
                    format!(
                        "parent {:?} must be an earlier joint (single root at index 0)",
                        j.parent
                    )
                };
                return Err(SkeletonError::BadParent {
                    index: i,
                    name: j.name.clone(),
                    what,
                });
            }
        }
        Ok(Skeleton { joints })
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// True when there are no joints (never for a skeleton built with [`Skeleton::new`]).
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// Index of the joint with this exact name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Children of joint `i`, in index order.
    pub fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.joints
            .iter()
            .enumerate()
            .filter(move |(_, j)| j.parent == Some(i))
            .map(|(k, _)| k)
    }

    /// Depth of joint `i` (root = 0).
    pub fn depth(&self, i: usize) -> usize {
        let mut d = 0;
        let mut k = i;
        while let Some(p) = self.joints[k].parent {
            d += 1;
            k = p;
        }
        d
    }

    /// Total number of channels (values per BVH motion line).
    pub fn channel_count(&self) -> usize {
        self.joints.iter().map(|j| j.channels.len()).sum()
    }
}
