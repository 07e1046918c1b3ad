//! The skeleton's tree and rest pose as the role passes need them: children, depths, ancestors, paths, world
//! positions of joints and end sites, floor and height.

use nalgebra::Vector3;

use crate::skeleton::{Pose, Skeleton};

/// The rest pose of a skeleton, with the tree queries of the role passes.
pub(crate) struct RestTree {
    /// Parent of each joint.
    pub parent: Vec<Option<usize>>,
    /// Children of each joint, in index order.
    pub children: Vec<Vec<usize>>,
    /// Depth of each joint (root 0).
    pub depth: Vec<usize>,
    /// World position of each joint origin in the rest pose (m, Y up).
    pub pos: Vec<Vector3<f64>>,
    /// For each joint, the points where its bone ends: its children's origins, or its end sites, or, for a leaf
    /// without end site, its own origin.
    pub tips: Vec<Vec<Vector3<f64>>>,
    /// Lowest Y of all joints and end sites.
    pub floor: f64,
    /// Rest height: highest minus lowest Y (never below 1e-9).
    pub height: f64,
}

impl RestTree {
    /// Computes the rest pose of `sk`.
    pub fn new(sk: &Skeleton) -> RestTree {
        let n = sk.len();
        let parent: Vec<Option<usize>> = sk.joints.iter().map(|j| j.parent).collect();
        let mut children = vec![Vec::new(); n];
        let mut depth = vec![0; n];
        for i in 0..n {
            if let Some(p) = parent[i] {
                children[p].push(i);
                depth[i] = depth[p] + 1;
            }
        }
        let world = Pose::rest(sk).world_transforms(sk);
        let pos: Vec<Vector3<f64>> = world.iter().map(|w| w.translation.vector).collect();
        let tips: Vec<Vec<Vector3<f64>>> = (0..n)
            .map(|i| {
                if !children[i].is_empty() {
                    children[i].iter().map(|&c| pos[c]).collect()
                } else if !sk.joints[i].end_sites.is_empty() {
                    sk.joints[i]
                        .end_sites
                        .iter()
                        .map(|e| (world[i] * nalgebra::Point3::from(*e)).coords)
                        .collect()
                } else {
                    vec![pos[i]]
                }
            })
            .collect();
        let ys = pos.iter().chain(tips.iter().flatten()).map(|p| p.y);
        let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
        let (floor, top) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        RestTree {
            parent,
            children,
            depth,
            pos,
            tips,
            floor,
            height: (top - floor).max(1e-9),
        }
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether `a` is `b` or one of its ancestors.
    pub fn is_ancestor_or_self(&self, a: usize, b: usize) -> bool {
        let mut k = Some(b);
        while let Some(i) = k {
            if i == a {
                return true;
            }
            k = self.parent[i];
        }
        false
    }

    /// Lowest common ancestor of `a` and `b`.
    pub fn lca(&self, mut a: usize, mut b: usize) -> usize {
        while self.depth[a] > self.depth[b] {
            a = self.parent[a].unwrap_or(a);
        }
        while self.depth[b] > self.depth[a] {
            b = self.parent[b].unwrap_or(b);
        }
        while a != b {
            match (self.parent[a], self.parent[b]) {
                (Some(pa), Some(pb)) => {
                    a = pa;
                    b = pb;
                }
                _ => break,
            }
        }
        a
    }

    /// The joints from `from` (exclusive) down to `to` (inclusive); empty unless `from` is a proper ancestor.
    pub fn path(&self, from: usize, to: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut k = to;
        while k != from {
            out.push(k);
            match self.parent[k] {
                Some(p) => k = p,
                None => return Vec::new(),
            }
        }
        out.reverse();
        out
    }

    /// Height of joint `j` above the floor (m).
    pub fn height_of(&self, j: usize) -> f64 {
        self.pos[j].y - self.floor
    }
}
