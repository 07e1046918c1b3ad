//! Exact placement on the joint anchors after a post-stabilization projection.
//!
//! A projection `dp` satisfies the joints to first order only: displacing a body by a rotation leaves its anchor
//! off by `O(|dθ|²·r)`, so an anchor error of 1e-4 m (a foot that contacts pushed off its reference) still reads
//! ≈ 1e-7 m after one projection and takes two more to reach 1e-10 m. The anchors, though, fix every body's
//! translation once the bodies' rotations are known: walking a spanning tree of the joints from its roots, each
//! body is moved so that its anchor meets its parent's exactly, `c_child = p_parent − R_child·r_child`. After a
//! projection that remainder is second order, so placing moves bodies by ≈ 1e-7 m where the projection moved them
//! by the error itself: the correction stays Cline's mass-weighted projection, the placement only finishes it.
//!
//! The tree: bodies with a constraint to the world that is not an anchor (a prescribed root) are its roots, a
//! body anchored to the world hangs from the world, and each remaining component is rooted at its lowest-index
//! body. Joints that close a loop are left to the projections.

use super::body::Body;
use super::constraint::{Constraint, pose_of};

/// One tree joint: the constraint, and whether its body A (else B) is the one placed from the other side.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TreeJoint {
    constraint: usize,
    place_a: bool,
}

/// The joints of a spanning forest of the anchor constraints, parents before children.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct AnchorTree {
    joints: Vec<TreeJoint>,
}

impl AnchorTree {
    /// The forest of `constraints` over `bodies` bodies (see the module documentation).
    pub fn build(bodies: usize, constraints: &[Box<dyn Constraint>]) -> Self {
        let mut placed = vec![false; bodies];
        // Bodies held by a non-anchor world constraint (a prescribed root) are roots.
        for c in constraints {
            if let ((a, None), None) = (c.bodies(), c.anchor_points()) {
                placed[a] = true;
            }
        }
        let mut joints = Vec::new();
        let mut queue: Vec<usize> = (0..bodies).filter(|&b| placed[b]).collect();
        // Bodies anchored to the world hang from it.
        for (i, c) in constraints.iter().enumerate() {
            if let ((a, None), Some(_)) = (c.bodies(), c.anchor_points())
                && !placed[a]
            {
                placed[a] = true;
                joints.push(TreeJoint {
                    constraint: i,
                    place_a: true,
                });
                queue.push(a);
            }
        }
        // The two-body anchor joints of each body, so the walk visits each joint from both ends once.
        let mut joints_of = vec![Vec::new(); bodies];
        for (i, c) in constraints.iter().enumerate() {
            if let ((a, Some(b)), Some(_)) = (c.bodies(), c.anchor_points())
                && a != b
            {
                joints_of[a].push((i, b));
                joints_of[b].push((i, a));
            }
        }
        let mut next_root = 0;
        let mut head = 0;
        loop {
            if head == queue.len() {
                // A component no root reached: its lowest-index body is its root.
                while next_root < bodies && placed[next_root] {
                    next_root += 1;
                }
                if next_root == bodies {
                    break;
                }
                placed[next_root] = true;
                queue.push(next_root);
            }
            let u = queue[head];
            head += 1;
            for &(i, child) in &joints_of[u] {
                if placed[child] {
                    continue;
                }
                placed[child] = true;
                joints.push(TreeJoint {
                    constraint: i,
                    place_a: child == constraints[i].bodies().0,
                });
                queue.push(child);
            }
        }
        // Bodies without anchor joints are roots of their own: they have no joint to place.
        AnchorTree { joints }
    }

    /// Moves every non-root body so that its anchor meets its parent's exactly (rotations unchanged).
    pub fn place(&self, bodies: &mut [Body], constraints: &[Box<dyn Constraint>]) {
        for j in &self.joints {
            place_joint(j, bodies, constraints);
        }
    }

    /// [`AnchorTree::place`] after a displacement that moved only the bodies flagged in `moved` (bodies placed
    /// before it): only the joints below a moved body are placed, and their children flagged. The others would
    /// be given the positions they have, from the same poses, bit for bit. A contact push moves the pushed legs
    /// alone (`contact/position.rs`), so its placement skips the rest of the body.
    pub fn place_moved(
        &self,
        bodies: &mut [Body],
        constraints: &[Box<dyn Constraint>],
        moved: &mut [bool],
    ) {
        for j in &self.joints {
            let (a, b) = constraints[j.constraint].bodies();
            let (child, parent) = if j.place_a {
                (Some(a), b)
            } else {
                (b, Some(a))
            };
            let Some(child) = child else { continue };
            if moved[child] || parent.is_some_and(|p| moved[p]) {
                place_joint(j, bodies, constraints);
                moved[child] = true;
            }
        }
    }
}

/// Places tree joint `j`'s child on its parent's anchor.
#[inline(always)]
fn place_joint(j: &TreeJoint, bodies: &mut [Body], constraints: &[Box<dyn Constraint>]) {
    let c = &constraints[j.constraint];
    let (a, b) = c.bodies();
    let Some([local_a, local_b]) = c.anchor_points() else {
        return;
    };
    if j.place_a {
        let (xb, qb) = pose_of(bodies, b);
        let anchor = xb + qb * local_b;
        let body = &mut bodies[a];
        body.position = anchor - body.orientation * local_a;
    } else if let Some(b) = b {
        let anchor = bodies[a].position + bodies[a].orientation * local_a;
        let body = &mut bodies[b];
        body.position = anchor - body.orientation * local_b;
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{UnitQuaternion, Vector3};

    use super::*;
    use crate::dynamics::BallJoint;

    /// A chain of three boxes hanging from a world anchor, with a joint that closes a loop to the world.
    fn chain() -> (Vec<Body>, Vec<Box<dyn Constraint>>) {
        let bodies: Vec<Body> = (0..3)
            .map(|i| {
                let mut b = Body::cuboid(1.0, Vector3::new(0.1, 0.1, 0.1));
                b.position = Vector3::new(i as f64 * 0.5, 0.0, 0.0);
                b
            })
            .collect();
        let ball = |a, b, x| -> Box<dyn Constraint> {
            Box::new(BallJoint::new(&bodies, a, b, Vector3::new(x, 0.0, 0.0)))
        };
        let constraints = vec![
            ball(1, Some(0), 0.25),
            ball(0, None, -0.25),
            ball(2, Some(1), 0.75),
            ball(2, None, 1.25),
        ];
        (bodies, constraints)
    }

    /// The tree's joints in order, with the side each places.
    fn order(tree: &AnchorTree) -> Vec<(usize, bool)> {
        tree.joints
            .iter()
            .map(|j| (j.constraint, j.place_a))
            .collect()
    }

    #[test]
    fn placing_closes_every_tree_anchor_and_keeps_rotations() {
        let (mut bodies, constraints) = chain();
        let tree = AnchorTree::build(bodies.len(), &constraints);
        // World anchors first (both bodies 0 and 2 hang from the world), then body 1 from body 0; the joint
        // from 2 to 1 closes a loop.
        assert_eq!(order(&tree), [(1, true), (3, true), (0, true)]);
        for (i, b) in bodies.iter_mut().enumerate() {
            b.orientation =
                UnitQuaternion::from_scaled_axis(Vector3::new(0.1, 0.2 * i as f64, 0.3));
            b.position += Vector3::new(1e-3, -2e-3, 5e-4) * (i + 1) as f64;
        }
        let rotations: Vec<_> = bodies.iter().map(|b| b.orientation).collect();
        let error = |bodies: &[Body], c: usize| {
            let mut g = [0.0; 3];
            constraints[c].value(bodies, 0.0, &mut g);
            g.iter().fold(0.0_f64, |m, v| m.max(v.abs()))
        };
        assert!((0..4).all(|c| error(&bodies, c) > 1e-3));
        tree.place(&mut bodies, &constraints);
        for c in [0, 1, 3] {
            assert!(
                error(&bodies, c) < 1e-15,
                "tree joint {c}: {:e}",
                error(&bodies, c)
            );
        }
        // The loop joint is the projections' to close.
        assert!(error(&bodies, 2) > 1e-3);
        assert!(
            bodies
                .iter()
                .zip(&rotations)
                .all(|(b, r)| b.orientation == *r)
        );
    }

    /// After a displacement of some bodies, placing only the joints below them gives what placing every joint
    /// gives, bit for bit, and flags the children it moved.
    #[test]
    fn placing_below_the_moved_bodies_matches_placing_all() {
        let (mut bodies, constraints) = chain();
        let tree = AnchorTree::build(bodies.len(), &constraints);
        for (i, b) in bodies.iter_mut().enumerate() {
            b.orientation =
                UnitQuaternion::from_scaled_axis(Vector3::new(0.1, 0.2 * i as f64, 0.3));
        }
        tree.place(&mut bodies, &constraints);
        // A push moves body 0 alone: body 1 hangs from it, body 2 from the world.
        bodies[0].displace(&nalgebra::Vector6::new(0.01, -0.02, 0.03, 1e-3, 0.0, 0.0));
        let mut all = bodies.clone();
        tree.place(&mut all, &constraints);
        let before = bodies[1].position;
        let mut moved = [true, false, false];
        tree.place_moved(&mut bodies, &constraints, &mut moved);
        assert_eq!(moved, [true, true, false]);
        assert!(
            (bodies[1].position - before).norm() > 1e-4,
            "body 1 follows body 0"
        );
        for (b, a) in bodies.iter().zip(&all) {
            assert_eq!((b.position, b.orientation), (a.position, a.orientation));
        }
    }

    #[test]
    fn a_prescribed_body_is_a_root_and_free_components_root_at_their_lowest_body() {
        let (bodies, mut constraints) = chain();
        // Without world anchors: body 0 roots the component, 1 hangs from 0 and 2 from 1.
        constraints.retain(|c| c.bodies().1.is_some());
        let tree = AnchorTree::build(bodies.len(), &constraints);
        assert_eq!(order(&tree), [(0, true), (1, true)]);
        // A body held by a prescribed trajectory is a root: with body 2 prescribed, 1 hangs from 2, 0 from 1.
        let pose = (bodies[2].position, bodies[2].orientation);
        let fixed = move |_t: f64| pose;
        constraints.push(Box::new(crate::dynamics::Prescribed::new(
            2,
            Box::new(fixed),
        )));
        let tree = AnchorTree::build(bodies.len(), &constraints);
        assert_eq!(order(&tree), [(1, false), (0, false)]);
    }
}
