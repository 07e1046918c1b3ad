//! The node forest: parents (built from `children`), rest transforms in f64, and the choice of skeleton joints
//! (seed nodes plus the ancestors that join them into one tree).

use nalgebra::{Matrix3, Matrix4, Quaternion, Rotation3, UnitQuaternion, Vector3};

use super::GltfImportError;
use crate::io::Limits;

/// A node's local transform as translation, rotation, scale (glTF applies T·R·S).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Trs {
    pub translation: Vector3<f64>,
    pub rotation: UnitQuaternion<f64>,
    pub scale: Vector3<f64>,
}

impl Trs {
    /// The 4×4 affine matrix T·R·S.
    pub fn matrix(&self) -> Matrix4<f64> {
        let mut m = Matrix4::identity();
        let rs =
            self.rotation.to_rotation_matrix().into_inner() * Matrix3::from_diagonal(&self.scale);
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&rs);
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&self.translation);
        m
    }
}

/// The nodes of a document as a forest.
#[derive(Debug, Clone)]
pub(crate) struct Hierarchy {
    /// Parent of each node (`None` for roots).
    pub parent: Vec<Option<usize>>,
    /// Children of each node, in file order.
    pub children: Vec<Vec<usize>>,
    /// Rest (default) local transform of each node.
    pub rest: Vec<Trs>,
    /// Display name of each node: its `name`, or `node<i>` when unnamed.
    pub names: Vec<String>,
}

/// Splits an affine matrix into translation, rotation and per-axis scale. Errors on non-finite or singular
/// matrices; a reflection is folded into a negative x scale.
pub(crate) fn decompose(m: &Matrix4<f64>) -> Result<Trs, String> {
    if !m.iter().all(|x| x.is_finite()) {
        return Err("matrix has non-finite entries".into());
    }
    let linear: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    let mut scale = Vector3::new(
        linear.column(0).norm(),
        linear.column(1).norm(),
        linear.column(2).norm(),
    );
    if scale.iter().any(|&s| s < 1e-12) {
        return Err(format!("matrix is singular (column norms {scale:?})"));
    }
    if linear.determinant() < 0.0 {
        scale.x = -scale.x;
    }
    let unscaled = linear * Matrix3::from_diagonal(&scale.map(|s| 1.0 / s));
    // Nearest rotation (also cleans up shear and float noise).
    let rot = Rotation3::from_matrix_eps(&unscaled, 1e-12, 200, Rotation3::identity());
    Ok(Trs {
        translation: m.fixed_view::<3, 1>(0, 3).into_owned(),
        rotation: UnitQuaternion::from_rotation_matrix(&rot),
        scale,
    })
}

/// A glTF `[x, y, z, w]` quaternion as a unit quaternion; errors when it is far from unit length (the spec
/// requires unit quaternions; slight float drift is renormalised).
pub(crate) fn unit_quaternion(q: [f64; 4]) -> Result<UnitQuaternion<f64>, String> {
    let [x, y, z, w] = q;
    let quat = Quaternion::new(w, x, y, z);
    let n = quat.norm();
    if !n.is_finite() || n < 1e-6 {
        return Err(format!(
            "rotation {q:?} is not a unit quaternion (norm {n})"
        ));
    }
    Ok(UnitQuaternion::from_quaternion(quat))
}

/// Every node's depth (roots 1), in O(n): rejects cycles (a parent walk would never end) and trees deeper than
/// `max_depth` (the walks above every node would cost O(n × depth), and deep trees are not skeletons).
fn check_depths(parent: &[Option<usize>], max_depth: usize) -> Result<(), GltfImportError> {
    const UNKNOWN: usize = 0;
    const ON_PATH: usize = usize::MAX;
    let mut depth = vec![UNKNOWN; parent.len()];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..parent.len() {
        // Walk up until a node of known depth or a root, then assign depths on the way back down.
        let mut k = start;
        let mut base = 0;
        loop {
            match depth.get(k).copied() {
                Some(ON_PATH) => {
                    return Err(GltfImportError::Hierarchy {
                        node: start,
                        what: "its ancestors form a cycle".into(),
                    });
                }
                Some(UNKNOWN) => {}
                Some(d) => {
                    base = d;
                    break;
                }
                None => break,
            }
            if let Some(slot) = depth.get_mut(k) {
                *slot = ON_PATH;
            }
            path.push(k);
            match parent.get(k).copied().flatten() {
                Some(p) => k = p,
                None => break,
            }
        }
        while let Some(node) = path.pop() {
            base += 1;
            if base > max_depth {
                return Err(GltfImportError::Hierarchy {
                    node,
                    what: Limits::exceeded(format!("depth {base}"), "max_depth", max_depth),
                });
            }
            if let Some(slot) = depth.get_mut(node) {
                *slot = base;
            }
        }
    }
    Ok(())
}

impl Hierarchy {
    /// Builds the forest, rejecting nodes with two parents and cycles.
    /// Rejects more than `limits.max_nodes` nodes and trees deeper than `limits.max_depth`.
    pub fn new(doc: &::gltf::Document, limits: &Limits) -> Result<Hierarchy, GltfImportError> {
        let n = doc.nodes().len();
        if n > limits.max_nodes {
            return Err(GltfImportError::Hierarchy {
                node: n - 1,
                what: Limits::exceeded(format!("{n} nodes"), "max_nodes", limits.max_nodes),
            });
        }
        let mut parent = vec![None; n];
        let mut children = vec![Vec::new(); n];
        let mut rest = Vec::with_capacity(n);
        let mut names = Vec::with_capacity(n);
        for node in doc.nodes() {
            let i = node.index();
            let name = node.name().unwrap_or_default();
            names.push(if name.is_empty() {
                format!("node{i}")
            } else {
                name.to_string()
            });
            let transform_err = |what: String| GltfImportError::Transform {
                node: i,
                name: name.to_string(),
                what,
            };
            let trs = match node.transform() {
                ::gltf::scene::Transform::Matrix { matrix } => {
                    // glTF stores matrices column-major: matrix[c][r].
                    let m = Matrix4::from_fn(|r, c| {
                        matrix
                            .get(c)
                            .and_then(|col| col.get(r))
                            .map_or(0.0, |&v| f64::from(v))
                    });
                    decompose(&m).map_err(transform_err)?
                }
                ::gltf::scene::Transform::Decomposed {
                    translation,
                    rotation,
                    scale,
                } => {
                    let t = Vector3::from(translation.map(f64::from));
                    let s = Vector3::from(scale.map(f64::from));
                    if !t.iter().chain(s.iter()).all(|x| x.is_finite()) {
                        return Err(transform_err("translation or scale is not finite".into()));
                    }
                    Trs {
                        translation: t,
                        rotation: unit_quaternion(rotation.map(f64::from))
                            .map_err(transform_err)?,
                        scale: s,
                    }
                }
            };
            rest.push(trs);
            for child in node.children() {
                let c = child.index();
                if let Some(p) = parent.get(c).copied().flatten() {
                    return Err(GltfImportError::Hierarchy {
                        node: c,
                        what: format!("is a child of both node {p} and node {i}"),
                    });
                }
                if let Some(slot) = parent.get_mut(c) {
                    *slot = Some(i);
                }
                if let Some(list) = children.get_mut(i) {
                    list.push(c);
                }
            }
        }
        check_depths(&parent, limits.max_depth)?;
        Ok(Hierarchy {
            parent,
            children,
            rest,
            names,
        })
    }

    /// Ancestors of `node`, nearest first (excluding the node itself).
    pub fn ancestors(&self, node: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut k = node;
        while let Some(p) = self.parent.get(k).copied().flatten() {
            out.push(p);
            k = p;
        }
        out
    }

    /// Every node's depth (roots 0), in O(n) (the forest has no cycles: [`Hierarchy::new`] checked it).
    fn depths(&self) -> Vec<usize> {
        let n = self.parent.len();
        let mut depth: Vec<Option<usize>> = vec![None; n];
        let mut path = Vec::new();
        for start in 0..n {
            let mut k = start;
            let mut base = 0;
            while depth[k].is_none() && path.len() <= n {
                path.push(k);
                match self.parent.get(k).copied().flatten().filter(|&p| p < n) {
                    Some(p) => k = p,
                    None => break,
                }
            }
            if let Some(d) = depth[k] {
                base = d + 1;
            }
            while let Some(node) = path.pop() {
                if depth[node].is_none() {
                    depth[node] = Some(base);
                }
                base += 1;
            }
        }
        depth.into_iter().map(|d| d.unwrap_or(0)).collect()
    }

    /// Chooses the skeleton joints for the `seeds` (a skin's joints, or animated nodes).
    ///
    /// The joints are the seeds plus every node on the path from the seeds' lowest common ancestor down to each
    /// seed, so that they form one tree; they are returned parents first (depth-first in `children` order).
    /// `root` is that common ancestor, or `None` when the seeds lie in different trees of the forest (the
    /// caller then adds a synthetic root above the returned tops).
    pub fn select(&self, seeds: &[usize]) -> Selection {
        let n = self.parent.len();
        let parent_of = |k: usize| self.parent.get(k).copied().flatten();
        let mut is_seed = vec![false; n];
        for &s in seeds {
            if let Some(f) = is_seed.get_mut(s) {
                *f = true;
            }
        }
        let seed_total = is_seed.iter().filter(|&&f| f).count();
        // The union of the root-to-seed paths, each walked up only until it meets a node already marked: O(n)
        // in all (materialising every path was O(seeds × depth), gigabytes for a 10⁵-deep skin).
        let mut marked = vec![false; n];
        let mut union: Vec<usize> = Vec::new();
        for s in (0..n).filter(|&s| is_seed[s]) {
            let mut k = s;
            while !marked[k] {
                marked[k] = true;
                union.push(k);
                match parent_of(k) {
                    Some(p) if p < n => k = p,
                    _ => break,
                }
            }
        }
        // Seeds below each marked node, deepest first; the lowest common ancestor is the deepest node above
        // every seed.
        let depth = self.depths();
        union.sort_by_key(|&k| std::cmp::Reverse(depth.get(k).copied().unwrap_or(0)));
        let mut below = vec![0usize; n];
        for &k in &union {
            below[k] += usize::from(is_seed[k]);
            if let Some(p) = parent_of(k).filter(|&p| p < n) {
                below[p] += below[k];
            }
        }
        let root = union
            .iter()
            .copied()
            .find(|&k| below[k] == seed_total && seed_total > 0);
        let mut in_set = marked;
        let tops: Vec<usize> = match root {
            Some(r) => {
                // The root's own ancestors are not joints.
                let mut k = r;
                while let Some(p) = parent_of(k).filter(|&p| p < n) {
                    in_set[p] = false;
                    k = p;
                }
                vec![r]
            }
            None => {
                let mut t: Vec<usize> = union
                    .iter()
                    .copied()
                    .filter(|&k| parent_of(k).is_none())
                    .collect();
                t.sort_unstable();
                t
            }
        };
        let mut order = Vec::new();
        let mut stack: Vec<usize> = tops.iter().rev().copied().collect();
        while let Some(k) = stack.pop() {
            order.push(k);
            if let Some(ch) = self.children.get(k) {
                stack.extend(
                    ch.iter()
                        .rev()
                        .filter(|&&c| in_set.get(c).copied().unwrap_or(false)),
                );
            }
        }
        Selection { root, tops, order }
    }
}

/// The joints chosen by [`Hierarchy::select`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Selection {
    /// The common ancestor that becomes the root joint, if the seeds share one.
    pub root: Option<usize>,
    /// The top nodes of the selection (just `root`, or one per tree when there is no common ancestor).
    pub tops: Vec<usize>,
    /// Selected nodes, parents first.
    pub order: Vec<usize>,
}

#[cfg(test)]
mod tests;
