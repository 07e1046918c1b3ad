//! The link/joint graph of a URDF: validated as a single tree and put in skeleton order (root first, parents
//! before children).

use std::collections::HashMap;

use rapier3d_urdf::urdf_rs::Robot;

use super::UrdfError;

/// The links of a robot in skeleton order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TreeOrder {
    /// URDF link indices (into `robot.links`) in skeleton order: root first, then depth first with children
    /// in file order of their joints, so every parent precedes its children.
    pub links: Vec<usize>,
    /// For each entry of `links`: the URDF joint index (into `robot.joints`) whose child it is; `None` for the root.
    pub joints: Vec<Option<usize>>,
    /// For each entry of `links`: the position of its parent in `links`; `None` for the root.
    pub parents: Vec<Option<usize>>,
    /// Joint names used more than once (the URDF spec forbids it; flinch names joints after links, so this is
    /// only a warning).
    pub duplicate_joint_names: Vec<String>,
}

/// Checks that the links and joints form one tree and orders it.
///
/// Errors: no links, duplicate link names, a joint whose parent or child link does not exist, a joint linking a
/// link to itself, a link that is the child of two joints, several roots, no root or a cycle.
pub(crate) fn tree_order(robot: &Robot) -> Result<TreeOrder, UrdfError> {
    if robot.links.is_empty() {
        return Err(UrdfError::structure("the robot has no <link>"));
    }
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(robot.links.len());
    for (i, link) in robot.links.iter().enumerate() {
        if let Some(first) = index.insert(link.name.as_str(), i) {
            return Err(UrdfError::link(
                &link.name,
                format!("duplicate link name (links #{first} and #{i})"),
            ));
        }
    }

    let mut parent_joint: Vec<Option<usize>> = vec![None; robot.links.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); robot.links.len()];
    let mut joint_names: HashMap<&str, usize> = HashMap::new();
    let mut duplicate_joint_names = Vec::new();
    for (j, joint) in robot.joints.iter().enumerate() {
        if joint_names.insert(joint.name.as_str(), j).is_some()
            && !duplicate_joint_names.contains(&joint.name)
        {
            duplicate_joint_names.push(joint.name.clone());
        }
        let find = |role: &str, name: &str| {
            index.get(name).copied().ok_or_else(|| {
                UrdfError::joint(&joint.name, format!("{role} link '{name}' does not exist"))
            })
        };
        let parent = find("parent", &joint.parent.link)?;
        let child = find("child", &joint.child.link)?;
        if parent == child {
            return Err(UrdfError::joint(
                &joint.name,
                format!("link '{}' is its own parent", joint.child.link),
            ));
        }
        let slot = parent_joint
            .get_mut(child)
            .ok_or_else(|| UrdfError::structure("link index out of range"))?;
        if let Some(other) = *slot {
            let other_name = robot.joints.get(other).map_or("?", |o| o.name.as_str());
            return Err(UrdfError::link(
                &joint.child.link,
                format!(
                    "is the child of two joints ('{other_name}' and '{}'); a URDF is a tree",
                    joint.name
                ),
            ));
        }
        *slot = Some(j);
        if let Some(c) = children.get_mut(parent) {
            c.push(child);
        }
    }

    let roots: Vec<usize> = (0..robot.links.len())
        .filter(|&i| parent_joint.get(i).is_some_and(|p| p.is_none()))
        .collect();
    let root = match roots.as_slice() {
        [r] => *r,
        [] => {
            return Err(UrdfError::structure(
                "no root link: every link is some joint's child, so the joints form a cycle",
            ));
        }
        many => {
            let names: Vec<String> = many
                .iter()
                .filter_map(|&i| robot.links.get(i).map(|l| format!("'{}'", l.name)))
                .collect();
            return Err(UrdfError::structure(format!(
                "{} root links ({}); a URDF must be a single tree",
                many.len(),
                names.join(", ")
            )));
        }
    };

    // Depth-first pre-order from the root. Every link has at most one parent, so a link reached twice is
    // impossible; links never reached sit on a cycle detached from the root.
    let mut order = TreeOrder {
        links: Vec::with_capacity(robot.links.len()),
        joints: Vec::with_capacity(robot.links.len()),
        parents: Vec::with_capacity(robot.links.len()),
        duplicate_joint_names,
    };
    let mut stack: Vec<(usize, Option<usize>)> = vec![(root, None)];
    while let Some((link, parent_pos)) = stack.pop() {
        let pos = order.links.len();
        order.links.push(link);
        order.joints.push(parent_joint.get(link).copied().flatten());
        order.parents.push(parent_pos);
        if let Some(c) = children.get(link) {
            // Reverse so that the first child in file order is visited first.
            stack.extend(c.iter().rev().map(|&k| (k, Some(pos))));
        }
    }
    if order.links.len() != robot.links.len() {
        let mut reached = vec![false; robot.links.len()];
        for &l in &order.links {
            if let Some(r) = reached.get_mut(l) {
                *r = true;
            }
        }
        let names: Vec<String> = robot
            .links
            .iter()
            .zip(&reached)
            .filter(|(_, r)| !**r)
            .map(|(l, _)| format!("'{}'", l.name))
            .collect();
        return Err(UrdfError::structure(format!(
            "links {} are not reachable from the root '{}': their joints form a cycle",
            names.join(", "),
            robot.links.get(root).map_or("?", |l| l.name.as_str())
        )));
    }
    Ok(order)
}

#[cfg(test)]
mod tests;
