//! The velocity LCP split into its independent parts: contacts whose bodies the effective inverse mass `W` does
//! not couple are solved as separate, smaller LCPs (a physics engine's islands, decided inside one world).
//!
//! Two contact rows interact only through `W`: the Delassus entry of rows on bodies `i` and `j` is built from the
//! block `W_ij`, and a free body couples the rows that touch it. When the blocks between two groups of contact
//! bodies are exactly zero, the pyramid LCP's matrix is exactly block diagonal (its `E` and `μ` blocks are per
//! contact), so each block is an LCP of its own and their solutions together solve the whole problem, with no
//! approximation. The typical case is a character whose root is prescribed: its legs meet only at the root, which
//! does not move, so the two feet's blocks of `W` come out as exact zeros and 8 sole contacts are two LCPs of 24
//! variables instead of one of 48. Lemke's work per pivot is O(n²) and its warm start's factorisations O(k³), so
//! halving n more than halves the cost, and each foot's warm start hits or misses on its own.
//!
//! The parts share one Lemke solver. The warm start stays one complementary basis of the whole problem (the one
//! a state snapshot saves): before a part is solved, its pairs' entries are taken out of that basis in their
//! order, and after it, the part's final basis goes back in. A single part runs the unsplit path unchanged.

use nalgebra::{DMatrix, DVector};

use super::ContactState;
use super::rows::OtherPart;
use crate::contact::lcp::{
    LcpError, LcpReport, LcpSolver, Lemke, pair_of,
    pyramid::{Mirrored, pyramid_from_formed_into},
    zeroed_vector,
};

/// No local pair (the global pair belongs to another part).
const NONE: usize = usize::MAX;

/// The parts of a contact set and the buffers of their LCPs, kept between steps so that a warm step allocates
/// nothing.
#[derive(Debug, Default)]
pub(super) struct Parts {
    /// Union–find parents over the contact bodies, then the free bodies.
    parent: Vec<usize>,
    /// Each contact's and each contact body's part, numbered in order of first appearance; the number of parts.
    of_contact: Vec<usize>,
    of_body: Vec<usize>,
    count: usize,
    /// The contact bodies of the part being solved.
    in_part: Vec<bool>,
    /// The part's rows of the Delassus matrix (global indices, in the part's LCP order).
    rows: Vec<usize>,
    /// The global pair of each of the part's pairs, and the part's pair of each global pair ([`NONE`] elsewhere).
    pairs: Vec<usize>,
    local: Vec<usize>,
    /// The part's friction coefficients, right-hand sides, LCP and solution.
    mu: Vec<f64>,
    qn: DVector<f64>,
    qd: DVector<f64>,
    lcp_m: DMatrix<f64>,
    lcp_q: DVector<f64>,
    z: DVector<f64>,
    /// The whole problem's last basis, the part's warm basis, and the whole problem's next one as the parts
    /// finish.
    last: Vec<usize>,
    basis: Vec<usize>,
    next: Vec<usize>,
    /// The solver of every part.
    lemke: Lemke,
}

impl Parts {
    /// A split solver whose Lemke has the given settings.
    pub fn new(lemke: Lemke) -> Self {
        Parts {
            lemke,
            ..Parts::default()
        }
    }

    /// Starts a split solve of a problem of `n` pairs whose last whole basis is `last`; returns the report the
    /// parts add to.
    fn begin(&mut self, last: &[usize], n: usize) -> LcpReport {
        self.last.clear();
        if last.len() == n {
            self.last.extend_from_slice(last);
        }
        self.next.clear();
        self.local.clear();
        self.local.resize(n, NONE);
        LcpReport {
            converged: true,
            warm_started: true,
            ..LcpReport::default()
        }
    }

    /// Lemke on the part whose pairs are `self.pairs` (global indices; its LCP in `lcp_m`, `lcp_q`), warm-started
    /// from the whole basis' entries on those pairs in their order; its solution goes into `z` (the whole
    /// problem's layout, `n` pairs) and its final basis onto the whole problem's next one.
    fn solve_part(
        &mut self,
        n: usize,
        z: &mut DVector<f64>,
        report: &mut LcpReport,
    ) -> Result<(), LcpError> {
        let nl = self.pairs.len();
        for (l, &g) in self.pairs.iter().enumerate() {
            self.local[g] = l;
        }
        self.basis.clear();
        for &var in &self.last {
            let l = self.local[pair_of(var, n)];
            if l != NONE {
                self.basis.push(if var >= n { nl + l } else { l });
            }
        }
        for &g in &self.pairs {
            self.local[g] = NONE;
        }
        self.lemke.set_warm_basis(&self.basis);
        zeroed_vector(&mut self.z, nl);
        let r = self.lemke.solve(&self.lcp_m, &self.lcp_q, &mut self.z)?;
        report.pivots += r.pivots;
        report.refactorisations += r.refactorisations;
        report.residual = report.residual.max(r.residual);
        report.warm_started &= r.warm_started;
        report.quick |= r.quick;
        for (l, &g) in self.pairs.iter().enumerate() {
            z[g] = self.z[l];
        }
        for &var in self.lemke.warm_basis() {
            let g = self.pairs[pair_of(var, nl)];
            self.next.push(if var >= nl { n + g } else { g });
        }
        Ok(())
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        // The smaller root wins, so the labelling does not depend on the order of the unions.
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.parent[hi] = lo;
    }
}

impl ContactState {
    /// Labels the first `nc` stored rows (one normal row per contact) by independent part
    /// (`self.parts.of_contact`) from their bodies and the blocks of `W`; returns the number of parts.
    pub(super) fn label_parts(&mut self, nc: usize) -> usize {
        let nb = self.bodies.len();
        let Some(parts) = self.parts.as_deref_mut() else {
            return 1;
        };
        parts.parent.clear();
        parts.parent.extend(0..nb + self.free.len());
        for i in 0..nb {
            for j in i + 1..nb {
                let coupled = |b: &nalgebra::Matrix6<f64>| b.iter().any(|&v| v != 0.0);
                if coupled(&self.w[i * nb + j]) || coupled(&self.w[j * nb + i]) {
                    parts.union(i, j);
                }
            }
        }
        for row in &self.rows[..nc] {
            match row.other {
                OtherPart::None => {}
                OtherPart::Body(o, _) => parts.union(row.body, o),
                OtherPart::Free(f, _) => parts.union(row.body, nb + f),
            }
        }
        // Number the roots in order of first appearance among the contacts (reusing `local` as the root's part).
        parts.local.clear();
        parts.local.resize(nb + self.free.len(), NONE);
        parts.of_contact.clear();
        parts.count = 0;
        for row in &self.rows[..nc] {
            let root = parts.find(row.body);
            if parts.local[root] == NONE {
                parts.local[root] = parts.count;
                parts.count += 1;
            }
            parts.of_contact.push(parts.local[root]);
        }
        parts.of_body.clear();
        for b in 0..nb {
            let root = parts.find(b);
            let part = parts.local[root];
            parts.of_body.push(part);
        }
        parts.count
    }

    /// Lemke on each part's friction pyramid (after [`ContactState::label_parts`] found more than one), with the
    /// rows and `qd` of the whole problem formed; each part's Delassus block is filled on its own (the entries
    /// between parts are exact zeros). The solutions go into `z` in the whole problem's layout. `Err` when a part
    /// fails (the caller falls back to PGS for the step).
    pub(super) fn solve_pyramid_parts(
        &mut self,
        qn: &DVector<f64>,
        m: usize,
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, ()> {
        // `label_parts` found the parts, so they are in place (they are only out during this solve).
        let Some(mut parts) = self.parts.take() else {
            return Err(());
        };
        let result = self.solve_parts_with(&mut parts, qn, m, z);
        // The whole problem's basis for the next step (cleared on failure: the next step starts cold); `z` has
        // the whole problem's size.
        match result {
            Ok(_) if parts.next.len() == z.len() => self.lemke.set_warm_basis(&parts.next),
            _ => self.lemke.set_warm_basis(&[]),
        }
        self.parts = Some(parts);
        result
    }

    fn solve_parts_with(
        &mut self,
        p: &mut Parts,
        qn: &DVector<f64>,
        m: usize,
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, ()> {
        let nc = self.points.len();
        let nd = nc * m;
        let n = nc + nd + nc;
        zeroed_vector(z, n);
        let mut report = p.begin(self.lemke.warm_basis(), n);
        for part in 0..p.count {
            // The part's rows and pairs in the pyramid's order: normals, m directions per contact, then γ.
            p.rows.clear();
            p.mu.clear();
            for (k, _) in p.of_contact.iter().enumerate().filter(|&(_, &c)| c == part) {
                p.rows.push(k);
                p.mu.push(self.points[k].friction);
            }
            let kc = p.rows.len();
            for i in 0..kc {
                let k = p.rows[i];
                p.rows.extend((0..m).map(|r| nc + k * m + r));
            }
            p.pairs.clear();
            p.pairs.extend_from_slice(&p.rows);
            p.pairs.extend((0..kc).map(|i| nc + nd + p.rows[i]));
            // Its Delassus block, right-hand sides and warm basis.
            p.in_part.clear();
            p.in_part.extend(p.of_body.iter().map(|&b| b == part));
            self.fill_pyramid_delassus(Some(&p.rows), Some(&p.in_part), kc, m);
            zeroed_vector(&mut p.qn, kc);
            zeroed_vector(&mut p.qd, kc * m);
            for i in 0..kc {
                p.qn[i] = qn[p.rows[i]];
            }
            for (dst, &g) in p.qd.iter_mut().zip(&p.rows[kc..]) {
                *dst = self.qd[g - nc];
            }
            pyramid_from_formed_into(
                Mirrored {
                    formed: &self.delassus_half,
                    mirror: &self.delassus_mirror,
                },
                &p.mu,
                m,
                &p.qn,
                &p.qd,
                &mut p.lcp_m,
                &mut p.lcp_q,
            )
            .map_err(|_| ())?;
            p.solve_part(n, z, &mut report).map_err(|_| ())?;
        }
        Ok(report)
    }
}
