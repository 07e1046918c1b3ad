//! Structure analysis for the tree solver: validation, loop detection, root choice, elimination order, groups.
//! Runs (and allocates) only when the structure changes.

use std::collections::HashMap;

use super::{CouplingRef, Member, Plan};
use crate::dynamics::system::{BlockSystem, SolveError};

/// What the structure was at the last analysis: compared on every `factor` to skip re-analysis.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Signature {
    bodies: usize,
    constraints: Vec<(usize, usize, Option<usize>)>,
    couplings: Vec<(usize, usize)>,
}

impl Signature {
    pub(super) fn matches(&self, sys: &BlockSystem) -> bool {
        self.bodies == sys.bodies()
            && self.constraints.len() == sys.constraints.len()
            && self.couplings.len() == sys.couplings.len()
            && self
                .constraints
                .iter()
                .zip(&sys.constraints)
                .all(|(s, c)| *s == (c.rows, c.body_a, c.body_b))
            && self
                .couplings
                .iter()
                .zip(&sys.couplings)
                .all(|(s, c)| *s == (c.i, c.j))
    }

    pub(super) fn of(sys: &BlockSystem) -> Self {
        Self {
            bodies: sys.bodies(),
            constraints: sys
                .constraints
                .iter()
                .map(|c| (c.rows, c.body_a, c.body_b))
                .collect(),
            couplings: sys.couplings.iter().map(|c| (c.i, c.j)).collect(),
        }
    }
}

/// The structure analysis: which body is whose parent, the elimination order and the groups.
pub(super) struct Analysis {
    pub(super) plans: Vec<Plan>,
    pub(super) members: Vec<Member>,
    pub(super) coupling_refs: Vec<CouplingRef>,
}

fn structure(msg: String) -> SolveError {
    SolveError::Structure(msg)
}

impl Analysis {
    pub(super) fn build(sys: &BlockSystem) -> Result<Self, SolveError> {
        let n = sys.bodies();
        let mut world_rows = vec![0usize; n];
        let mut pair_id: HashMap<(usize, usize), usize> = HashMap::new();
        let mut pair_rows: Vec<usize> = Vec::new();
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        let mut lambda0 = Vec::with_capacity(sys.constraints.len());
        let mut off = 0;
        for (k, c) in sys.constraints.iter().enumerate() {
            if c.rows == 0 || c.rows > 6 {
                return Err(structure(format!(
                    "constraint {k}: {} rows, expected 1 … 6",
                    c.rows
                )));
            }
            if c.body_a >= n {
                return Err(structure(format!(
                    "constraint {k}: body_a {} out of range ({n} bodies)",
                    c.body_a
                )));
            }
            match c.body_b {
                None => world_rows[c.body_a] += c.rows,
                Some(b) if b >= n || b == c.body_a => {
                    return Err(structure(format!(
                        "constraint {k}: body_b {b} must be a body other than body_a {} ({n} bodies)",
                        c.body_a
                    )));
                }
                Some(b) => {
                    let key = (c.body_a.min(b), c.body_a.max(b));
                    let id = *pair_id.entry(key).or_insert_with(|| {
                        adj[key.0].push((key.1, pair_rows.len()));
                        adj[key.1].push((key.0, pair_rows.len()));
                        pair_rows.push(0);
                        pair_rows.len() - 1
                    });
                    pair_rows[id] += c.rows;
                }
            }
            lambda0.push(off);
            off += c.rows;
        }
        if let Some(b) = (0..n).find(|&b| world_rows[b] > 6) {
            return Err(SolveError::Singular(format!(
                "body {b} has {} world constraint rows; at most 6 can be independent",
                world_rows[b]
            )));
        }
        if let Some((&(a, b), &id)) = pair_id.iter().find(|&(_, &id)| pair_rows[id] > 6) {
            return Err(structure(format!(
                "bodies {a} and {b} are joined by {} constraint rows (more than 6): use the dense solver",
                pair_rows[id]
            )));
        }
        let order = Self::order(n, &adj, &world_rows)?;
        // parent[v] = (parent body, pair id) for non-roots.
        let mut parent: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut visited = vec![false; n];
        let mut bfs = Vec::with_capacity(n);
        for &root in &order {
            visited[root] = true;
            let start = bfs.len();
            bfs.push(root);
            let mut head = start;
            while head < bfs.len() {
                let u = bfs[head];
                head += 1;
                for &(v, p) in &adj[u] {
                    if !visited[v] {
                        visited[v] = true;
                        parent[v] = Some((u, p));
                        bfs.push(v);
                    }
                }
            }
        }
        for (c, par) in parent.iter().enumerate() {
            if let Some((p, id)) = *par
                && world_rows[c] + pair_rows[id] > 6
            {
                return Err(structure(format!(
                    "body {c}: {} world rows + {} rows to its parent {p} exceed 6 (a loop closed through the \
                     world): use the dense solver",
                    world_rows[c], pair_rows[id]
                )));
            }
        }
        // Members per body (world group and joint group to the parent), in constraint order.
        let mut world: Vec<Vec<Member>> = vec![Vec::new(); n];
        let mut joint: Vec<Vec<Member>> = vec![Vec::new(); n];
        for (k, c) in sys.constraints.iter().enumerate() {
            let (group, child_is_a) = match c.body_b {
                None => (&mut world[c.body_a], true),
                Some(b) if parent[b].is_some_and(|(p, _)| p == c.body_a) => (&mut joint[b], false),
                Some(_) => (&mut joint[c.body_a], true),
            };
            let row0 = group.last().map_or(0, |m: &Member| m.row0 + m.rows);
            group.push(Member {
                con: k,
                rows: c.rows,
                row0,
                lambda0: lambda0[k],
                child_is_a,
            });
        }
        let mut couplings: Vec<Vec<CouplingRef>> = vec![Vec::new(); n];
        for (k, c) in sys.couplings.iter().enumerate() {
            let parent_of = |b: usize| parent.get(b).copied().flatten().map(|(p, _)| p);
            if parent_of(c.i) == Some(c.j) && c.j < n {
                couplings[c.i].push(CouplingRef {
                    idx: k,
                    child_is_i: true,
                });
            } else if parent_of(c.j) == Some(c.i) && c.i < n {
                couplings[c.j].push(CouplingRef {
                    idx: k,
                    child_is_i: false,
                });
            } else {
                return Err(structure(format!(
                    "coupling {k} joins bodies {} and {}, which no constraint joins ({n} bodies): use the dense \
                     solver",
                    c.i, c.j
                )));
            }
        }
        // Elimination order: reversed BFS, so every body comes after all its descendants.
        let mut pos_of = vec![0usize; n];
        for (pos, &b) in bfs.iter().rev().enumerate() {
            pos_of[b] = pos;
        }
        let mut out = Self {
            // Exact sizes: every constraint is one member, every coupling one reference.
            plans: Vec::with_capacity(n),
            members: Vec::with_capacity(sys.constraints.len()),
            coupling_refs: Vec::with_capacity(sys.couplings.len()),
        };
        for &b in bfs.iter().rev() {
            let w0 = out.members.len();
            out.members.extend_from_slice(&world[b]);
            let j0 = out.members.len();
            out.members.extend_from_slice(&joint[b]);
            let c0 = out.coupling_refs.len();
            out.coupling_refs.extend_from_slice(&couplings[b]);
            out.plans.push(Plan {
                body: b,
                parent: parent[b].map(|(p, _)| pos_of[p]),
                world: (w0, j0),
                world_rows: world_rows[b],
                joint: (j0, out.members.len()),
                joint_rows: parent[b].map_or(0, |(_, id)| pair_rows[id]),
                couplings: (c0, out.coupling_refs.len()),
                // Pool offsets are filled by `Plan::place` once all fronts are known.
                pivot0: 0,
                pivot: [0; 3],
                block0: 0,
                slot: [0; 6],
                exact: 0,
                pool0: 0,
                room: 0,
                // Filled once the whole order is known.
                depth: 0,
            });
        }
        Ok(out)
    }

    /// One root per connected component (the body with the most world rows, ties to the lowest index), after
    /// checking that no component has a loop.
    fn order(
        n: usize,
        adj: &[Vec<(usize, usize)>],
        world_rows: &[usize],
    ) -> Result<Vec<usize>, SolveError> {
        let mut seen = vec![false; n];
        let mut via: Vec<Option<usize>> = vec![None; n];
        let mut roots = Vec::new();
        let mut queue = Vec::new();
        for s in 0..n {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            queue.clear();
            queue.push(s);
            let mut head = 0;
            let mut root = s;
            while head < queue.len() {
                let u = queue[head];
                head += 1;
                if world_rows[u] > world_rows[root]
                    || (world_rows[u] == world_rows[root] && u < root)
                {
                    root = u;
                }
                for &(v, p) in &adj[u] {
                    if via[u] == Some(p) {
                        continue;
                    }
                    if seen[v] {
                        return Err(structure(format!(
                            "constraints form a loop through bodies {u} and {v}: use the dense solver"
                        )));
                    }
                    seen[v] = true;
                    via[v] = Some(p);
                    queue.push(v);
                }
            }
            roots.push(root);
        }
        Ok(roots)
    }
}
