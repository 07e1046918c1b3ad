//! How the tree solver's factor + solve time grows with the number of bodies, against the dense LU.
//!
//! `cargo run --release --example chain_scaling`: chains of 10, 100 and 1000 bodies (ball joints, 3 rows each,
//! the first body on the world by a ball, a drive coupling on every joint, M̃ = M + h²K + hD on the joint
//! axes), and a 20-body humanoid-shaped tree. Prints a table, writes `<target>/experiments/chain_scaling.csv`
//! and the `figure` lines.

use std::time::Instant;

use flinch::dynamics::{
    BlockSystem, ConstraintBlock, Coupling, DenseSolver, SaddlePointSolver, TreeSolver,
};
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

/// Time step (s), drive stiffness (N·m/rad) and damping (N·m·s/rad) used to build M̃.
const H: f64 = 1.0 / 120.0;
const K: f64 = 300.0;
const D: f64 = 10.0;

/// Builder for a tree of bodies joined by ball joints with drive couplings.
struct Builder {
    sys: BlockSystem,
    centres: Vec<Vector3<f64>>,
}

impl Builder {
    fn new() -> Self {
        Self {
            sys: BlockSystem::default(),
            centres: Vec::new(),
        }
    }

    /// Adds a body (mass kg, CoM position m) and returns its index.
    fn body(&mut self, mass: f64, centre: Vector3<f64>) -> usize {
        let mut m = Matrix6::zeros();
        let r = 0.05 + 0.01 * (self.centres.len() % 7) as f64;
        let inertia = 0.4 * mass * r * r;
        m.view_mut((0, 0), (3, 3))
            .copy_from(&(Matrix3::from_diagonal(&Vector3::new(1.0, 1.3, 0.8)) * inertia));
        m.view_mut((3, 3), (3, 3))
            .copy_from(&(Matrix3::identity() * mass));
        self.sys.diag.push(m);
        self.centres.push(centre);
        self.centres.len() - 1
    }

    /// A ball joint at `anchor` between `child` and `parent` (or the world), with a drive coupling.
    fn ball(&mut self, child: usize, parent: Option<usize>, anchor: Vector3<f64>) {
        let mut ja = Matrix6::zeros();
        let mut jb = Matrix6::zeros();
        let s_a = anchor - self.centres[child];
        ja.view_mut((0, 0), (3, 3))
            .copy_from(&(-s_a.cross_matrix()));
        ja.view_mut((0, 3), (3, 3)).copy_from(&Matrix3::identity());
        if let Some(p) = parent {
            let s_b = anchor - self.centres[p];
            jb.view_mut((0, 0), (3, 3)).copy_from(&s_b.cross_matrix());
            jb.view_mut((0, 3), (3, 3))
                .copy_from(&(-Matrix3::identity()));
            // The drive's gradient: +G on both angular diagonals, −G off the diagonal, plus a small
            // non-symmetric part (joint axes that rotate with the bodies).
            let g = Matrix3::identity() * (H * H * K + H * D);
            let skew = Vector3::new(0.3, -0.2, 0.1).cross_matrix() * (H * H * K * 0.1);
            for b in [child, p] {
                let mut blk = self.sys.diag[b].fixed_view_mut::<3, 3>(0, 0);
                blk += g;
            }
            let mut a_cp = Matrix6::zeros();
            let mut a_pc = Matrix6::zeros();
            a_cp.view_mut((0, 0), (3, 3)).copy_from(&(-g + skew));
            a_pc.view_mut((0, 0), (3, 3)).copy_from(&(-g));
            self.sys.couplings.push(Coupling {
                i: child,
                j: p,
                a_ij: a_cp,
                a_ji: a_pc,
            });
        }
        self.sys.constraints.push(ConstraintBlock {
            rows: 3,
            body_a: child,
            body_b: parent,
            ja,
            jb,
        });
    }

    /// A chain of `n` bodies leaving from `from` (or the world) along `dir`, `len` metres apart.
    fn chain(
        &mut self,
        from: Option<usize>,
        start: Vector3<f64>,
        dir: Vector3<f64>,
        n: usize,
        len: f64,
    ) -> usize {
        let mut parent = from;
        let mut anchor = start;
        for _ in 0..n {
            let b = self.body(
                1.0 + 0.5 * (self.centres.len() % 3) as f64,
                anchor + dir * (len / 2.0),
            );
            self.ball(b, parent, anchor);
            parent = Some(b);
            anchor += dir * len;
        }
        parent.unwrap_or(0)
    }
}

fn chain(n: usize) -> BlockSystem {
    let mut b = Builder::new();
    b.chain(
        None,
        Vector3::zeros(),
        Vector3::new(1.0, -0.2, 0.1).normalize(),
        n,
        0.3,
    );
    b.sys
}

/// Pelvis (free root); spine → neck → head; two arms of 4 from the spine; two legs of 4 from the pelvis.
fn humanoid() -> BlockSystem {
    let mut b = Builder::new();
    let pelvis = b.body(10.0, Vector3::new(0.0, 1.0, 0.0));
    let spine = b.chain(
        Some(pelvis),
        Vector3::new(0.0, 1.1, 0.0),
        Vector3::y(),
        1,
        0.3,
    );
    b.chain(
        Some(spine),
        Vector3::new(0.0, 1.4, 0.0),
        Vector3::y(),
        2,
        0.12,
    );
    for side in [-1.0, 1.0] {
        b.chain(
            Some(spine),
            Vector3::new(0.2 * side, 1.35, 0.0),
            Vector3::x() * side,
            4,
            0.15,
        );
        b.chain(
            Some(pelvis),
            Vector3::new(0.1 * side, 0.95, 0.0),
            -Vector3::y(),
            4,
            0.22,
        );
    }
    assert_eq!(b.sys.bodies(), 20, "humanoid shape");
    b.sys
}

fn rhs(sys: &BlockSystem) -> (Vec<Vector6<f64>>, Vec<f64>) {
    let a = (0..sys.bodies())
        .map(|i| Vector6::from_fn(|r, _| ((i * 6 + r) % 11) as f64 * 0.1 - 0.5))
        .collect();
    (a, vec![0.0; sys.constraint_rows()])
}

/// µs per factor + solve: the fastest of `batches` batches of ~5 ms each. The minimum, not the median, because
/// the machine is shared: other processes only ever add time.
fn time(solver: &mut dyn SaddlePointSolver, sys: &BlockSystem, batches: usize) -> (f64, Vec<f64>) {
    let (a, b) = rhs(sys);
    let mut x = vec![Vector6::zeros(); sys.bodies()];
    let mut lambda = vec![0.0; b.len()];
    let mut run = |x: &mut [Vector6<f64>], lambda: &mut [f64]| {
        solver.factor(sys).expect("factor");
        solver.solve(&a, &b, x, lambda);
    };
    let t0 = Instant::now();
    run(&mut x, &mut lambda);
    let once = t0.elapsed().as_secs_f64();
    let reps = ((0.005 / once.max(1e-9)) as usize).clamp(1, 100_000);
    let mut samples: Vec<f64> = (0..batches)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                run(&mut x, &mut lambda);
            }
            t.elapsed().as_secs_f64() * 1e6 / reps as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let flat = x
        .iter()
        .flat_map(|v| v.iter().copied())
        .chain(lambda.iter().copied())
        .collect();
    (samples[0], flat)
}

fn rel_diff(u: &[f64], v: &[f64]) -> f64 {
    let d: f64 = u
        .iter()
        .zip(v)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt();
    d / u.iter().map(|a| a * a).sum::<f64>().sqrt()
}

fn main() -> std::io::Result<()> {
    let mut csv = String::from(
        "case,bodies,tree_us,tree_us_per_body,dense_us,dense_over_tree,max_rel_diff\n",
    );
    println!(
        "{:>10} {:>7} {:>12} {:>10} {:>12} {:>9} {:>10}",
        "case", "bodies", "tree µs", "µs/body", "dense µs", "ratio", "rel diff"
    );
    let mut per_body = Vec::new();
    let mut humanoid_figures = (0.0, 0.0);
    for (name, sys) in [
        ("chain", chain(10)),
        ("chain", chain(100)),
        ("chain", chain(1000)),
        ("humanoid", humanoid()),
    ] {
        let n = sys.bodies();
        let (tree_us, xt) = time(&mut TreeSolver::new(), &sys, 41);
        // The dense LU of a 1000-body chain (9000 unknowns) takes minutes: only the smaller cases.
        let dense = (n <= 100).then(|| time(&mut DenseSolver::default(), &sys, 5));
        let (dense_us, diff) =
            dense.map_or((f64::NAN, f64::NAN), |(us, xd)| (us, rel_diff(&xd, &xt)));
        println!(
            "{name:>10} {n:>7} {tree_us:>12.2} {:>10.3} {dense_us:>12.1} {:>9.1} {diff:>10.1e}",
            tree_us / n as f64,
            dense_us / tree_us
        );
        csv += &format!(
            "{name},{n},{tree_us},{},{dense_us},{},{diff}\n",
            tree_us / n as f64,
            dense_us / tree_us
        );
        if name == "chain" {
            per_body.push(tree_us / n as f64);
        } else {
            humanoid_figures = (tree_us, dense_us / tree_us);
        }
    }
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("experiments");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("chain_scaling.csv"), csv)?;
    println!("wrote {}", dir.join("chain_scaling.csv").display());
    println!(
        "figure scaling_ratio_1000_over_100 {:.3} ratio",
        per_body[2] / per_body[1]
    );
    println!("figure tree_solve_us_20 {:.2} us", humanoid_figures.0);
    println!("figure dense_over_tree_20 {:.1} ratio", humanoid_figures.1);
    Ok(())
}
