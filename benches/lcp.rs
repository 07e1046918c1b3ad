//! LCP solver benchmark: `cargo bench --bench lcp`.
//!
//! Contacts from random boxes (0.5–5 kg, half extents 0.1–0.5 m, random yaw, sliding and spinning) resting
//! face-down on a plane, 4 corner contacts per box: 4, 16 and 64 contacts = 1, 4 and 16 boxes. Per size, 10
//! scenes, each solved repeatedly; the median µs per solve over scenes.
//!
//! - Lemke, friction: the 4-direction Anitescu–Potra pyramid (6 variables per contact: λ_n, 4 λ_d, γ), cold.
//! - Lemke, friction, warm: the same with q scaled by 1.01 between solves (the next step's problem), warm start.
//! - PGS, friction: the boxed form games use (3 rows per contact: normal, two tangents boxed by ±μ λ_n), at most
//!   50 sweeps, tolerance 1e-6: a different model of the same contacts, at a game engine's accuracy.
//! - Lemke / PGS, normals: the frictionless LCP (1 row per contact; PGS to tolerance 1e-10, at most 500 sweeps).
//!
//! The `figure lcp_lemke_us_n<k>` / `figure lcp_pgs_us_n<k>` lines are the friction rows.

#[path = "../tests/support/lcp_scene.rs"]
mod lcp_scene;

use std::hint::black_box;
use std::time::Instant;

use flinch::contact::lcp::{LcpReport, LcpSolver, Lemke, LemkeOptions, Pgs, PgsOptions};
use lcp_scene::{Rng, resting_boxes};
use nalgebra::{DMatrix, DVector};

const SCENES: usize = 10;

/// One measured configuration: µs per solve (median over scenes), worst residual, mean pivots or sweeps.
struct Row {
    us: f64,
    residual: f64,
    work: f64,
    refactorisations: f64,
}

/// Times `solver` on `(m, q)`: enough repetitions for ≥ 2 ms, µs per solve (the z reset inside the loop is
/// O(n), noise next to a solve). With `warm_q`, every timed solve is of `warm_q` from the basis of the previous.
fn time_solve(
    solver: &mut dyn LcpSolver,
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    warm_q: Option<&DVector<f64>>,
) -> (f64, LcpReport) {
    let n = q.len();
    let mut z = DVector::zeros(n);
    let mut report = solver
        .solve(m, q, &mut z)
        .expect("benchmark problems are solvable");
    if let Some(q2) = warm_q {
        // Measure the step after: the solver holds the basis of q, solves q2.
        report = solver.solve(m, q2, &mut z).expect("solvable");
    }
    let mut reps = 0usize;
    let t0 = Instant::now();
    while t0.elapsed().as_secs_f64() < 2e-3 || reps < 3 {
        if let Some(q2) = warm_q {
            black_box(solver.solve(m, q2, &mut z).ok());
        } else {
            z.fill(0.0);
            black_box(solver.solve(m, q, &mut z).ok());
        }
        reps += 1;
    }
    (t0.elapsed().as_secs_f64() * 1e6 / reps as f64, report)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn measure(
    contacts: usize,
    seed: u64,
    mut make: impl FnMut(&lcp_scene::Contacts) -> (Box<dyn LcpSolver>, DMatrix<f64>, DVector<f64>, bool),
) -> Row {
    let mut rng = Rng(seed);
    let (mut us, mut residual, mut work, mut refac) = (Vec::new(), 0.0_f64, 0.0, 0.0);
    for _ in 0..SCENES {
        let c = resting_boxes(&mut rng, contacts / 4, 4);
        let (mut solver, m, q, warm) = make(&c);
        let q2 = &q * 1.01;
        let (t, r) = time_solve(solver.as_mut(), &m, &q, warm.then_some(&q2));
        us.push(t);
        residual = residual.max(r.residual);
        work += (r.pivots + r.iterations) as f64 / SCENES as f64;
        refac += r.refactorisations as f64 / SCENES as f64;
    }
    Row {
        us: median(us),
        residual,
        work,
        refactorisations: refac,
    }
}

fn pgs_boxed(c: &lcp_scene::Contacts) -> (Box<dyn LcpSolver>, DMatrix<f64>, DVector<f64>, bool) {
    let lcp_scene::Boxed { m, q, bounds } = c.boxed();
    let pgs = Pgs::new(PgsOptions {
        max_iterations: 50,
        tolerance: 1e-6,
        bounds,
        ..PgsOptions::default()
    });
    (Box::new(pgs), m, q, false)
}

fn main() {
    println!("{}", flinch::cpu_report());
    println!(
        "LCP solvers, random boxes on a plane, 4 contacts per box; median µs per solve over {SCENES} scenes"
    );
    println!(
        "{:>8} {:>26} {:>6} {:>10} {:>12} {:>9} {:>6}",
        "contacts", "solver / problem", "size", "µs/solve", "max resid.", "piv/sweep", "refac"
    );
    let mut figures = Vec::new();
    for contacts in [4usize, 16, 64] {
        let seed = 0x1c9 + contacts as u64;
        let rows: Vec<(&str, &str, usize, Row)> = vec![
            (
                "lemke",
                "Lemke, pyramid (cold)",
                6 * contacts,
                measure(contacts, seed, |c| {
                    let (m, q) = c.pyramid();
                    (Box::new(Lemke::default()), m, q, false)
                }),
            ),
            (
                "lemke_warm",
                "Lemke, pyramid (warm)",
                6 * contacts,
                measure(contacts, seed, |c| {
                    let (m, q) = c.pyramid();
                    let opts = LemkeOptions {
                        warm_start: true,
                        ..LemkeOptions::default()
                    };
                    (Box::new(Lemke::new(opts)), m, q, true)
                }),
            ),
            (
                "pgs",
                "PGS, boxed friction",
                3 * contacts,
                measure(contacts, seed, pgs_boxed),
            ),
            (
                "lemke_normal",
                "Lemke, normals",
                contacts,
                measure(contacts, seed, |c| {
                    let (m, q) = c.normal();
                    (Box::new(Lemke::default()), m, q, false)
                }),
            ),
            (
                "pgs_normal",
                "PGS, normals",
                contacts,
                measure(contacts, seed, |c| {
                    let (m, q) = c.normal();
                    let pgs = Pgs::new(PgsOptions {
                        max_iterations: 500,
                        tolerance: 1e-10,
                        ..PgsOptions::default()
                    });
                    (Box::new(pgs), m, q, false)
                }),
            ),
        ];
        for (key, label, size, row) in rows {
            println!(
                "{contacts:>8} {label:>26} {size:>6} {:>10.2} {:>12.2e} {:>9.1} {:>6.1}",
                row.us, row.residual, row.work, row.refactorisations
            );
            figures.push(format!("figure lcp_{key}_us_n{contacts} {:.2} us", row.us));
        }
    }
    for f in figures {
        println!("{f}");
    }
}
