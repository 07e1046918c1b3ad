//! How the cost of a full `World::step` grows with the number of bodies (issue 3: "chains of 10, 100, 1000
//! bodies with drives, implicit + post-stab: µs per step").
//!
//! `cargo run --release --example chain_scaling`: hanging chains of 10, 100 and 1000 bodies on ball joints with a
//! drive on every joint (time-varying targets), gravity, the linearly implicit step, post-stabilization and the
//! default `AutoSolver`, h = 1/120 s. Per case: the median and p90 µs of one step after a warm-up, and, as extra
//! columns, one factor + solve of the solver alone on the world's last system. Prints a table, writes
//! `<target>/experiments/chain_scaling.csv` and `figure scaling_ratio_1000_over_100` = (µs per body at 1000) /
//! (µs per body at 100).

mod common;

use std::time::Instant;

use common::plot::out_dir;
use common::worlds::{driven_chain, quantile, step_times_us};
use flinch::dynamics::{AutoSolver, BlockSystem, SaddlePointSolver};
use nalgebra::Vector6;

const H: f64 = 1.0 / 120.0;

/// µs per factor + solve of `sys` by a fresh `AutoSolver`: the median of 21 batches of ~2 ms.
fn solver_us(sys: &BlockSystem) -> f64 {
    let a = vec![Vector6::repeat(0.1); sys.bodies()];
    let b = vec![0.0; sys.constraint_rows()];
    let mut x = vec![Vector6::zeros(); sys.bodies()];
    let mut lambda = vec![0.0; b.len()];
    let mut solver = AutoSolver::new();
    let mut run = || {
        solver.factor(sys).expect("factor");
        solver.solve(&a, &b, &mut x, &mut lambda);
    };
    let t0 = Instant::now();
    run();
    let reps = ((0.002 / t0.elapsed().as_secs_f64().max(1e-9)) as usize).clamp(1, 10_000);
    let mut samples: Vec<f64> = (0..21)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                run();
            }
            t.elapsed().as_secs_f64() * 1e6 / reps as f64
        })
        .collect();
    quantile(&mut samples, 0.5)
}

fn main() -> std::io::Result<()> {
    println!("{}", flinch::cpu_report());
    let mut csv = String::from(
        "bodies,step_median_us,step_p90_us,us_per_body,post_stab_iters_mean,solver_us,solver_us_per_body\n",
    );
    println!(
        "{:>7} {:>12} {:>12} {:>10} {:>10} {:>12} {:>12}",
        "bodies", "step µs", "p90 µs", "µs/body", "ps iters", "solver µs", "solver/body"
    );
    let mut per_body = Vec::new();
    for n in [10, 100, 1000] {
        let mut dw = driven_chain(n);
        // About 2 s of warm-up for the small chains; fewer steps (but ≥ 60) as the cost grows.
        let steps = (20_000 / n).clamp(60, 2000);
        let mut iters = 0usize;
        for _ in 0..steps / 2 {
            iters += dw.step(H).post_stab.map_or(0, |r| r.iterations);
        }
        let mut t = step_times_us(&mut dw, H, 0, steps);
        let median = quantile(&mut t, 0.5);
        let p90 = quantile(&mut t, 0.9);
        let ps = iters as f64 / (steps / 2) as f64;
        let solver = solver_us(dw.world.system());
        let nb = n as f64;
        println!(
            "{n:>7} {median:>12.1} {p90:>12.1} {:>10.3} {ps:>10.2} {solver:>12.1} {:>12.3}",
            median / nb,
            solver / nb
        );
        csv += &format!(
            "{n},{median},{p90},{},{ps},{solver},{}\n",
            median / nb,
            solver / nb
        );
        per_body.push(median / nb);
    }
    let dir = out_dir();
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("chain_scaling.csv"), csv)?;
    println!("wrote {}", dir.join("chain_scaling.csv").display());
    println!(
        "figure scaling_ratio_1000_over_100 {:.3} ratio",
        per_body[2] / per_body[1]
    );
    println!("figure chain_step_us_per_body_100 {:.3} us", per_body[1]);
    println!("figure chain_step_us_per_body_1000 {:.3} us", per_body[2]);
    Ok(())
}
