//! O(n) solver for tree-structured [`BlockSystem`]s: block LU (LDU) of the saddle-point matrix in leaf-to-root
//! order, after Baraff 96's linear-time Lagrange multipliers, extended to the body–body coupling blocks that
//! joint drives add to the implicit M̃ (Cline eq. 2.53).
//!
//! **Graph.** Nodes are bodies (6×6 pivots) and constraint *groups*: all constraints between one pair of bodies
//! form one joint group, all world constraints of one body form one world group (each ≤ 6 rows, padded to 6×6
//! so every block is a fixed-size `Matrix6`). The world is not a node. Each connected component is rooted at the
//! body with the most world rows (ties: lowest index). Every non-root body `c` then owns a *front* of four slots:
//! `[c, world group of c, joint group to the parent, parent body]`. Eliminating `c`, its world group and its
//! joint group (in that order) only fills blocks inside that front, because the parent joint and the coupling
//! already join all its slots; what is left is a 6×6 update to the parent's pivot. So factor and solve are O(n).
//!
//! **Non-symmetry.** `A` may be non-symmetric and the KKT signs are `[[A, −Jᵀ], [J, 0]]`, so this is LU, not
//! LDLᵀ: lower blocks `F[u][k]` and scaled upper blocks `D_k⁻¹ F[k][u]` are stored separately. Pivots are never
//! exchanged across nodes; inside a pivot block, nalgebra's partial-pivoting LU is used.
//!
//! **Limits.** Loops (including two bodies joined by constraints with more than 6 rows in total), couplings
//! between bodies no constraint joins, and a non-root body whose world rows plus parent-joint rows exceed 6 (a
//! loop closed through the world, which makes the joint pivot singular in this order) return
//! [`SolveError::Structure`]; use [`super::DenseSolver`] for those. Redundant constraints return
//! [`SolveError::Singular`].
//!
//! **Allocation.** `factor` analyses the structure (which body is whose parent, the order, the groups) and
//! allocates only when the structure differs from the previous call; `factor` and `solve` on an unchanged
//! structure allocate nothing. See docs/tree_solver.md.

use std::collections::HashMap;

use nalgebra::{LU, Matrix6, U6, Vector6};

use super::system::{BlockSystem, SaddlePointSolver, SolveError};

type Lu6 = LU<f64, U6, U6>;

/// A pivot whose smallest LU diagonal entry is below this fraction of the block's largest entry is singular.
const PIVOT_TOL: f64 = 1e-12;

/// Slots of a body's front.
const BODY: usize = 0;
const WORLD: usize = 1;
const JOINT: usize = 2;
const PARENT: usize = 3;

/// Index of the off-diagonal pair `(k, u)`, `k < u ≤ 3`, in the per-node block arrays.
const fn pair(k: usize, u: usize) -> usize {
    match (k, u) {
        (0, 1) => 0,
        (0, 2) => 1,
        (0, 3) => 2,
        (1, 2) => 3,
        (1, 3) => 4,
        _ => 5,
    }
}

/// One constraint inside a group: where its rows go in the group block and in λ.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Member {
    con: usize,
    rows: usize,
    /// First row inside the group's padded 6-row block.
    row0: usize,
    /// First row in λ.
    lambda0: usize,
    /// Whether `ja` (else `jb`) is the Jacobian on the front's own body.
    child_is_a: bool,
}

/// A coupling on the joint between a body and its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CouplingRef {
    idx: usize,
    /// Whether the front's own body is the coupling's `i` (so `a_ij` is row block child, column block parent).
    child_is_i: bool,
}

/// Everything the numeric passes need about one body, in elimination order.
#[derive(Debug, Clone, PartialEq)]
struct Plan {
    body: usize,
    /// Position of the parent body in the elimination order; `None` for a root.
    parent: Option<usize>,
    world: (usize, usize),
    world_rows: usize,
    joint: (usize, usize),
    joint_rows: usize,
    couplings: (usize, usize),
}

impl Plan {
    fn present(&self) -> [bool; 4] {
        let p = self.parent.is_some();
        [true, self.world_rows > 0, p, p]
    }
}

/// The factors of one front: LU of its three pivots, `F[u][k]` and `D_k⁻¹ F[k][u]` for `k < u`.
#[derive(Debug, Clone)]
struct NodeFactor {
    lu: [Lu6; 3],
    lower: [Matrix6<f64>; 6],
    upper: [Matrix6<f64>; 6],
}

/// What the structure was at the last analysis: compared on every `factor` to skip re-analysis.
#[derive(Debug, Clone, Default, PartialEq)]
struct Signature {
    bodies: usize,
    constraints: Vec<(usize, usize, Option<usize>)>,
    couplings: Vec<(usize, usize)>,
}

impl Signature {
    fn matches(&self, sys: &BlockSystem) -> bool {
        self.bodies == sys.bodies()
            && self.constraints.len() == sys.constraints.len()
            && self.couplings.len() == sys.couplings.len()
            && self
                .constraints
                .iter()
                .zip(&sys.constraints)
                .all(|(s, c)| *s == (c.rows, c.body_a, c.body_b))
            && self.couplings.iter().zip(&sys.couplings).all(|(s, c)| *s == (c.i, c.j))
    }

    fn of(sys: &BlockSystem) -> Self {
        Self {
            bodies: sys.bodies(),
            constraints: sys.constraints.iter().map(|c| (c.rows, c.body_a, c.body_b)).collect(),
            couplings: sys.couplings.iter().map(|c| (c.i, c.j)).collect(),
        }
    }
}

/// Linear-time block-LU solver for systems whose body–constraint graph is a forest.
///
/// Use it like [`super::DenseSolver`]; on [`SolveError::Structure`] fall back to the dense solver.
#[derive(Debug, Default)]
pub struct TreeSolver {
    sig: Option<Signature>,
    plans: Vec<Plan>,
    members: Vec<Member>,
    coupling_refs: Vec<CouplingRef>,
    nodes: Vec<NodeFactor>,
    /// Per position: the body pivot accumulating the children's Schur updates.
    acc: Vec<Matrix6<f64>>,
    /// Per position: the body right-hand side accumulating the children's forward updates.
    yb: Vec<Vector6<f64>>,
    /// Per position: `D_k⁻¹ w_k` of the forward pass.
    z: Vec<[Vector6<f64>; 3]>,
    /// Per position: the body's solution, read by its children in the backward pass.
    xpos: Vec<Vector6<f64>>,
    constraint_rows: usize,
    factored: bool,
}

impl TreeSolver {
    /// An empty solver; the first [`SaddlePointSolver::factor`] analyses the structure.
    pub fn new() -> Self {
        Self::default()
    }

    /// Analyses the structure of `sys` (allocating), or reuses the last analysis when it is unchanged.
    fn analyse(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        if self.sig.as_ref().is_some_and(|s| s.matches(sys)) {
            return Ok(());
        }
        self.sig = None;
        let analysis = Analysis::build(sys)?;
        let len = analysis.plans.len();
        self.plans = analysis.plans;
        self.members = analysis.members;
        self.coupling_refs = analysis.coupling_refs;
        let id = Matrix6::identity().lu();
        let node = NodeFactor { lu: [id.clone(), id.clone(), id], lower: [Matrix6::zeros(); 6], upper: [Matrix6::zeros(); 6] };
        self.nodes = vec![node; len];
        self.acc = vec![Matrix6::zeros(); len];
        self.yb = vec![Vector6::zeros(); len];
        self.z = vec![[Vector6::zeros(); 3]; len];
        self.xpos = vec![Vector6::zeros(); len];
        self.constraint_rows = sys.constraint_rows();
        self.sig = Some(Signature::of(sys));
        Ok(())
    }

    /// Assembles the front of the body at `pos` from `sys` and the accumulated pivot.
    fn assemble(&self, sys: &BlockSystem, pos: usize) -> [[Matrix6<f64>; 4]; 4] {
        let plan = &self.plans[pos];
        let mut f = [[Matrix6::zeros(); 4]; 4];
        f[BODY][BODY] = self.acc[pos];
        for m in &self.members[plan.world.0..plan.world.1] {
            let jc = &sys.constraints[m.con].ja;
            for i in 0..m.rows {
                for j in 0..6 {
                    f[WORLD][BODY][(m.row0 + i, j)] = jc[(i, j)];
                    f[BODY][WORLD][(j, m.row0 + i)] = -jc[(i, j)];
                }
            }
        }
        for m in &self.members[plan.joint.0..plan.joint.1] {
            let c = &sys.constraints[m.con];
            let (jc, jp) = if m.child_is_a { (&c.ja, &c.jb) } else { (&c.jb, &c.ja) };
            for i in 0..m.rows {
                for j in 0..6 {
                    f[JOINT][BODY][(m.row0 + i, j)] = jc[(i, j)];
                    f[BODY][JOINT][(j, m.row0 + i)] = -jc[(i, j)];
                    f[JOINT][PARENT][(m.row0 + i, j)] = jp[(i, j)];
                    f[PARENT][JOINT][(j, m.row0 + i)] = -jp[(i, j)];
                }
            }
        }
        for r in &self.coupling_refs[plan.couplings.0..plan.couplings.1] {
            let c = &sys.couplings[r.idx];
            let (cp, pc) = if r.child_is_i { (&c.a_ij, &c.a_ji) } else { (&c.a_ji, &c.a_ij) };
            f[BODY][PARENT] += cp;
            f[PARENT][BODY] += pc;
        }
        f
    }

    /// Eliminates the first three slots of the front at `pos`, stores the factors and returns the update to
    /// the parent's pivot.
    fn eliminate(&mut self, pos: usize, f: &mut [[Matrix6<f64>; 4]; 4]) -> Result<Matrix6<f64>, SolveError> {
        let plan = &self.plans[pos];
        let present = plan.present();
        let active = [6, plan.world_rows, plan.joint_rows, 6];
        let node = &mut self.nodes[pos];
        for k in 0..3 {
            if !present[k] {
                continue;
            }
            let lu = factor_pivot(&mut f[k][k], active[k]).ok_or_else(|| singular(plan, k))?;
            for u in k + 1..4 {
                if present[u] {
                    let mut s = f[k][u];
                    lu.solve_mut(&mut s);
                    node.upper[pair(k, u)] = s;
                    node.lower[pair(k, u)] = f[u][k];
                }
            }
            for u in k + 1..4 {
                if !present[u] {
                    continue;
                }
                for v in k + 1..4 {
                    if present[v] {
                        let update = f[u][k] * node.upper[pair(k, v)];
                        f[u][v] -= update;
                    }
                }
            }
            node.lu[k] = lu;
        }
        Ok(f[PARENT][PARENT])
    }
}

/// Pads the unused rows/columns of a pivot block with its own scale, LU-factors it and checks every pivot
/// against [`PIVOT_TOL`] relative to the block's largest entry. `None` when singular (or not finite).
fn factor_pivot(block: &mut Matrix6<f64>, active: usize) -> Option<Lu6> {
    let scale = block.view((0, 0), (active, active)).amax();
    // Padding with the block's own scale keeps the padded LU as well conditioned as the active part; the
    // padded unknowns have zero right-hand sides, so they stay zero and leave the active ones untouched.
    let pad = if scale > 0.0 { scale } else { 1.0 };
    for i in active..6 {
        block[(i, i)] = pad;
    }
    let lu = block.lu();
    let u = lu.u();
    let smallest = (0..6).map(|i| u[(i, i)].abs()).fold(f64::INFINITY, f64::min);
    (smallest > PIVOT_TOL * scale && smallest.is_finite()).then_some(lu)
}

fn singular(plan: &Plan, slot: usize) -> SolveError {
    SolveError::Singular(match slot {
        BODY => format!("pivot of body {} is singular (massless body?)", plan.body),
        WORLD => format!("world constraints on body {} are redundant ({} rows)", plan.body, plan.world_rows),
        _ => format!(
            "constraints between body {} and its parent ({} rows) are redundant",
            plan.body, plan.joint_rows
        ),
    })
}

impl SaddlePointSolver for TreeSolver {
    fn factor(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        self.factored = false;
        self.analyse(sys)?;
        for (pos, plan) in self.plans.iter().enumerate() {
            self.acc[pos] = sys.diag[plan.body];
        }
        for pos in 0..self.plans.len() {
            let mut f = self.assemble(sys, pos);
            let update = self.eliminate(pos, &mut f)?;
            if let Some(pp) = self.plans[pos].parent {
                self.acc[pp] += update;
            }
        }
        self.factored = true;
        Ok(())
    }

    /// Solves with the last factorisation. With no valid factorisation, or slices whose lengths do not match
    /// the factored system, `x` and `lambda` are filled with NaN.
    fn solve(&mut self, a: &[Vector6<f64>], b: &[f64], x: &mut [Vector6<f64>], lambda: &mut [f64]) {
        let n = self.plans.len();
        if !self.factored || a.len() != n || x.len() != n || b.len() != self.constraint_rows || lambda.len() != b.len()
        {
            x.fill(Vector6::repeat(f64::NAN));
            lambda.fill(f64::NAN);
            return;
        }
        for (pos, plan) in self.plans.iter().enumerate() {
            self.yb[pos] = a[plan.body];
        }
        // Forward: L w = y, storing z_k = D_k⁻¹ w_k; children push their updates into the parent's rhs.
        for pos in 0..n {
            let plan = &self.plans[pos];
            let present = plan.present();
            let node = &self.nodes[pos];
            let mut y = [
                self.yb[pos],
                gather(&self.members[plan.world.0..plan.world.1], b),
                gather(&self.members[plan.joint.0..plan.joint.1], b),
                Vector6::zeros(),
            ];
            for k in 0..3 {
                if !present[k] {
                    continue;
                }
                let mut zk = y[k];
                node.lu[k].solve_mut(&mut zk);
                for u in k + 1..4 {
                    if present[u] {
                        y[u] -= node.lower[pair(k, u)] * zk;
                    }
                }
                self.z[pos][k] = zk;
            }
            if let Some(pp) = plan.parent {
                self.yb[pp] += y[PARENT];
            }
        }
        // Backward, roots first: x_k = z_k − Σ_u D_k⁻¹ F[k][u] x_u.
        for pos in (0..n).rev() {
            let plan = &self.plans[pos];
            let present = plan.present();
            let node = &self.nodes[pos];
            let mut xs = [Vector6::zeros(); 4];
            if let Some(pp) = plan.parent {
                xs[PARENT] = self.xpos[pp];
            }
            for k in (0..3).rev() {
                if !present[k] {
                    continue;
                }
                let mut v = self.z[pos][k];
                for u in k + 1..4 {
                    if present[u] {
                        v -= node.upper[pair(k, u)] * xs[u];
                    }
                }
                xs[k] = v;
            }
            self.xpos[pos] = xs[BODY];
            x[plan.body] = xs[BODY];
            scatter(&self.members[plan.world.0..plan.world.1], &xs[WORLD], lambda);
            scatter(&self.members[plan.joint.0..plan.joint.1], &xs[JOINT], lambda);
        }
    }
}

/// A group's right-hand side, padded with zeros.
fn gather(members: &[Member], b: &[f64]) -> Vector6<f64> {
    let mut v = Vector6::zeros();
    for m in members {
        v.as_mut_slice()[m.row0..m.row0 + m.rows].copy_from_slice(&b[m.lambda0..m.lambda0 + m.rows]);
    }
    v
}

/// A group's multipliers written back to λ.
fn scatter(members: &[Member], v: &Vector6<f64>, lambda: &mut [f64]) {
    for m in members {
        lambda[m.lambda0..m.lambda0 + m.rows].copy_from_slice(&v.as_slice()[m.row0..m.row0 + m.rows]);
    }
}

/// The structure analysis: which body is whose parent, the elimination order and the groups.
struct Analysis {
    plans: Vec<Plan>,
    members: Vec<Member>,
    coupling_refs: Vec<CouplingRef>,
}

fn structure(msg: String) -> SolveError {
    SolveError::Structure(msg)
}

impl Analysis {
    fn build(sys: &BlockSystem) -> Result<Self, SolveError> {
        let n = sys.bodies();
        let mut world_rows = vec![0usize; n];
        let mut pair_id: HashMap<(usize, usize), usize> = HashMap::new();
        let mut pair_rows: Vec<usize> = Vec::new();
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        let mut lambda0 = Vec::with_capacity(sys.constraints.len());
        let mut off = 0;
        for (k, c) in sys.constraints.iter().enumerate() {
            if c.rows == 0 || c.rows > 6 {
                return Err(structure(format!("constraint {k}: {} rows, expected 1 … 6", c.rows)));
            }
            if c.body_a >= n {
                return Err(structure(format!("constraint {k}: body_a {} out of range ({n} bodies)", c.body_a)));
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
            group.push(Member { con: k, rows: c.rows, row0, lambda0: lambda0[k], child_is_a });
        }
        let mut couplings: Vec<Vec<CouplingRef>> = vec![Vec::new(); n];
        for (k, c) in sys.couplings.iter().enumerate() {
            let parent_of = |b: usize| parent.get(b).copied().flatten().map(|(p, _)| p);
            if parent_of(c.i) == Some(c.j) && c.j < n {
                couplings[c.i].push(CouplingRef { idx: k, child_is_i: true });
            } else if parent_of(c.j) == Some(c.i) && c.i < n {
                couplings[c.j].push(CouplingRef { idx: k, child_is_i: false });
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
        let mut out = Self { plans: Vec::with_capacity(n), members: Vec::new(), coupling_refs: Vec::new() };
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
            });
        }
        Ok(out)
    }

    /// One root per connected component (the body with the most world rows, ties to the lowest index), after
    /// checking that no component has a loop.
    fn order(n: usize, adj: &[Vec<(usize, usize)>], world_rows: &[usize]) -> Result<Vec<usize>, SolveError> {
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
                if world_rows[u] > world_rows[root] || (world_rows[u] == world_rows[root] && u < root) {
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
