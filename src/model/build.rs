//! Building the physical model from a skeleton: which joints become bodies, their capsules, masses and joints.

use nalgebra::{Isometry3, Matrix3, Point3, Translation3, Unit, Vector3};

use super::config::{BuildConfig, JointKindConfig};
use super::shape::{Capsule, MassProperties};
use super::{Body, JointKind, Model, ModelError, ModelJoint};
use crate::skeleton::{Skeleton, rest_height};

/// Segments shorter than this (m) make no capsule: coincident joints carry no geometry.
const MIN_SEGMENT: f64 = 1e-6;

/// Builds the model (see [`Model::from_skeleton`]).
pub(super) fn build(skeleton: &Skeleton, config: &BuildConfig) -> Result<Model, ModelError> {
    validate(config)?;
    let height = rest_height(skeleton);
    if !(height.is_finite() && height > 0.0) {
        return Err(ModelError::Degenerate(format!(
            "rest pose has no height ({height} m)"
        )));
    }
    let owner = assign_bodies(skeleton, config);

    // Bodies in skeleton order, so a parent body always precedes its children.
    let mut body_index = vec![usize::MAX; skeleton.len()];
    let mut bodies: Vec<Body> = Vec::new();
    for (j, joint) in skeleton.joints.iter().enumerate() {
        if owner[j] == j {
            body_index[j] = bodies.len();
            let parent = joint.parent.map(|p| body_index[owner[p]]);
            bodies.push(Body {
                name: joint.name.clone(),
                skeleton_joint: j,
                parent,
                merged: Vec::new(),
                capsules: Vec::new(),
                mass: MassProperties::zero(),
                collides: config
                    .bones
                    .get(&joint.name)
                    .and_then(|b| b.collide)
                    .unwrap_or(true),
            });
        }
    }
    let body_of_joint: Vec<usize> = (0..skeleton.len()).map(|j| body_index[owner[j]]).collect();

    // Rest transform of every skeleton joint in its body's frame.
    let mut in_body = vec![Isometry3::identity(); skeleton.len()];
    for (j, joint) in skeleton.joints.iter().enumerate() {
        if owner[j] != j
            && let Some(p) = joint.parent
        {
            in_body[j] = in_body[p] * local_rest(skeleton, j);
            bodies[body_of_joint[j]].merged.push(j);
        }
    }

    // Capsules: from each joint to each child joint and end site, in the owning body's frame. A segment whose
    // tip is a joint that starts segments of its own leaves its end cap out of the mass (the next segment's start
    // cap covers that joint), so a chain counts each joint ball once, however many bones it is cut into.
    let mut open_end: Vec<Vec<bool>> = vec![Vec::new(); bodies.len()];
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let frame = in_body[j];
        let start = frame * Point3::origin();
        // At a branching joint (an upper chest, a pelvis) each branch takes the smaller of the joint's radius and
        // the child's, so side branches such as clavicles do not inherit the trunk's girth.
        let branching = skeleton
            .children(j)
            .filter(|&c| skeleton.joints[c].offset.norm() >= MIN_SEGMENT)
            .count()
            > 1;
        let tips = skeleton
            .children(j)
            .map(|c| {
                (
                    skeleton.joints[c].offset,
                    has_segments(skeleton, c),
                    Some(c),
                )
            })
            .chain(joint.end_sites.iter().map(|e| (*e, false, None)));
        for (tip, covered, child) in tips {
            let length = tip.norm();
            if length < MIN_SEGMENT {
                continue;
            }
            let mut radius = config.radius_for(&joint.name, length, height);
            if let (true, Some(c)) = (branching, child) {
                radius = radius.min(config.radius_for(&skeleton.joints[c].name, length, height));
            }
            let b = body_of_joint[j];
            bodies[b].capsules.push(Capsule {
                a: start,
                b: frame * Point3::from(tip),
                radius,
            });
            open_end[b].push(covered);
        }
    }

    for (body, open) in bodies.iter_mut().zip(&open_end) {
        if body.capsules.is_empty() {
            // A body with no segment at all (e.g. a root whose children all coincide with it): a small sphere,
            // so that it still has a mass and a positive-definite inertia.
            let radius = config
                .radius_for(&body.name, 0.0, height)
                .max(0.01 * height);
            body.capsules.push(Capsule {
                a: Point3::origin(),
                b: Point3::origin(),
                radius,
            });
        }
        body.mass = body
            .capsules
            .iter()
            .enumerate()
            .fold(MassProperties::zero(), |acc, (k, c)| {
                let part = if open.get(k).copied().unwrap_or(false) {
                    c.open_end_mass_properties(config.density)
                } else {
                    c.mass_properties(config.density)
                };
                acc.combine(&part)
            });
        if let Some(m) = config.bones.get(&body.name).and_then(|b| b.mass) {
            body.mass = body.mass.scaled(m / body.mass.mass);
        }
    }

    condition(&mut bodies, config);
    if let Some(total) = config.total_mass {
        let sum: f64 = bodies.iter().map(|b| b.mass.mass).sum();
        for b in &mut bodies {
            b.mass = b.mass.scaled(total / sum);
        }
    }

    let joints = bodies
        .iter()
        .enumerate()
        .filter_map(|(bi, b)| {
            let parent = b.parent?;
            let parent_from_child = in_body[skeleton.joints[b.skeleton_joint].parent?]
                * local_rest(skeleton, b.skeleton_joint);
            Some((bi, parent, parent_from_child))
        })
        .map(|(bi, parent, parent_from_child)| {
            let name = &bodies[bi].name;
            let kind = joint_kind(config.bones.get(name).and_then(|b| b.joint.as_ref()), name)?;
            Ok(ModelJoint {
                child: bi,
                parent,
                parent_from_child,
                kind,
            })
        })
        .collect::<Result<Vec<_>, ModelError>>()?;

    Ok(Model {
        bodies,
        joints,
        body_of_joint,
        standing_height: height,
    })
}

/// Whether joint `j` starts any segment of non-zero length (to a child or an end site).
fn has_segments(skeleton: &Skeleton, j: usize) -> bool {
    skeleton
        .children(j)
        .any(|c| skeleton.joints[c].offset.norm() >= MIN_SEGMENT)
        || skeleton.joints[j]
            .end_sites
            .iter()
            .any(|e| e.norm() >= MIN_SEGMENT)
}

/// Rest transform of joint `j` relative to its parent joint's frame.
fn local_rest(skeleton: &Skeleton, j: usize) -> Isometry3<f64> {
    let joint = &skeleton.joints[j];
    Isometry3::from_parts(Translation3::from(joint.offset), joint.rest_rotation)
}

/// For each skeleton joint, the joint that owns its body: itself, or (merged) its parent's owner.
///
/// Merged: a non-root joint closer than `min_bone_length` to its parent, or a leaf with neither children nor end
/// sites (it has no bone), unless the bone's `merge` override says otherwise.
fn assign_bodies(skeleton: &Skeleton, config: &BuildConfig) -> Vec<usize> {
    let mut owner: Vec<usize> = (0..skeleton.len()).collect();
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let Some(p) = joint.parent else { continue };
        let leaf_without_bone = skeleton.children(j).next().is_none() && joint.end_sites.is_empty();
        let short = joint.offset.norm() < config.min_bone_length;
        let merge = config
            .bones
            .get(&joint.name)
            .and_then(|b| b.merge)
            .unwrap_or(short || leaf_without_bone);
        if merge {
            owner[j] = owner[p];
        }
    }
    owner
}

/// Jolt-style conditioning: bounded parent/child mass ratios and a floor on principal moments.
fn condition(bodies: &mut [Body], config: &BuildConfig) {
    if let Some(ratio) = config.max_mass_ratio.filter(|r| *r >= 1.0) {
        // Two sweeps (leaf-to-root, then root-to-leaf) settle chains of any length.
        for _ in 0..2 {
            for i in (0..bodies.len()).rev() {
                let Some(p) = bodies[i].parent else { continue };
                let (mp, mc) = (bodies[p].mass.mass, bodies[i].mass.mass);
                if mp > ratio * mc {
                    bodies[i].mass = bodies[i].mass.scaled(mp / (ratio * mc));
                } else if mc > ratio * mp {
                    bodies[p].mass = bodies[p].mass.scaled(mc / (ratio * mp));
                }
            }
        }
    }
    if config.min_inertia_fraction > 0.0 {
        for b in bodies.iter_mut() {
            let eig = b.mass.inertia.symmetric_eigen();
            let floor = eig.eigenvalues.max() * config.min_inertia_fraction;
            let raised = eig.eigenvalues.map(|v| v.max(floor));
            b.mass.inertia =
                eig.eigenvectors * Matrix3::from_diagonal(&raised) * eig.eigenvectors.transpose();
        }
    }
}

fn unit_axis(v: &[f64; 3], bone: &str) -> Result<Unit<Vector3<f64>>, ModelError> {
    Unit::try_new(Vector3::from(*v), 1e-9)
        .filter(|u| u.iter().all(|x| x.is_finite()))
        .ok_or_else(|| {
            ModelError::Config(format!(
                "bone '{bone}': joint axis {v:?} is not a finite non-zero vector"
            ))
        })
}

fn joint_kind(cfg: Option<&JointKindConfig>, bone: &str) -> Result<JointKind, ModelError> {
    Ok(match cfg {
        None | Some(JointKindConfig::Ball) => JointKind::Ball,
        Some(JointKindConfig::Hinge { axis }) => JointKind::Hinge {
            axis: unit_axis(axis, bone)?,
        },
        Some(JointKindConfig::Universal { axes }) => {
            let (a, b) = (unit_axis(&axes[0], bone)?, unit_axis(&axes[1], bone)?);
            if a.cross(&b).norm() < 1e-6 {
                return Err(ModelError::Config(format!(
                    "bone '{bone}': universal joint axes are parallel"
                )));
            }
            JointKind::Universal { axes: [a, b] }
        }
    })
}

fn validate(config: &BuildConfig) -> Result<(), ModelError> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let bad = |what: String| Err(ModelError::Config(what));
    if !positive(config.density) {
        return bad(format!("density {} kg/m³ must be positive", config.density));
    }
    if let Some(m) = config.total_mass.filter(|m| !positive(*m)) {
        return bad(format!("total_mass {m} kg must be positive"));
    }
    if !(config.min_bone_length.is_finite() && config.min_bone_length >= 0.0) {
        return bad(format!(
            "min_bone_length {} m must be ≥ 0",
            config.min_bone_length
        ));
    }
    if !positive(config.default_radius_ratio) {
        return bad(format!(
            "default_radius_ratio {} must be positive",
            config.default_radius_ratio
        ));
    }
    if let Some(rule) = config
        .radius_rules
        .iter()
        .find(|r| !positive(r.height_fraction))
    {
        return bad(format!(
            "radius rule {:?}: height_fraction must be positive",
            rule.names
        ));
    }
    for (name, bone) in &config.bones {
        if let Some(r) = bone.radius.filter(|r| !positive(*r)) {
            return bad(format!("bone '{name}': radius {r} m must be positive"));
        }
        if let Some(m) = bone.mass.filter(|m| !positive(*m)) {
            return bad(format!("bone '{name}': mass {m} kg must be positive"));
        }
    }
    if !(0.0..=1.0).contains(&config.min_inertia_fraction) {
        return bad(format!(
            "min_inertia_fraction {} must lie in [0, 1]",
            config.min_inertia_fraction
        ));
    }
    Ok(())
}
