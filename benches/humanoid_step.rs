//! The humanoid step benchmark (issue 3: ≤ 10 µs per step). `cargo bench --bench humanoid_step`.
//!
//! A 20-body humanoid (pelvis prescribed along a walking trajectory, as the mocap root; ball joints and a drive
//! with time-varying targets on each of the 19 joints; gravity; linearly implicit step; post-stabilization;
//! default `AutoSolver`), h = 1/120 s: the median and p90 µs of one `World::step` over 2000 steps after 240
//! warm-up steps, then a stage breakdown, then MuJoCo's humanoid `mj_step` through `bench/mujoco_humanoid.py`.

#[path = "../examples/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Instant;

use common::mujoco::mujoco_timings;
use common::worlds::{DrivenWorld, humanoid, quantile, step_times_us};
use flinch::dynamics::{AutoSolver, Force, SaddlePointSolver, Stabilization};
use nalgebra::Vector6;

const H: f64 = 1.0 / 120.0;
const WARMUP: usize = 240;
const STEPS: usize = 2000;

/// Median µs of `f` over `STEPS` calls, each after `advance` moved the world one step on (advance not timed).
fn stage_us(dw: &mut DrivenWorld, mut f: impl FnMut(&mut DrivenWorld)) -> f64 {
    let mut t: Vec<f64> = (0..STEPS)
        .map(|_| {
            dw.step(H);
            let t0 = Instant::now();
            f(dw);
            t0.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    quantile(&mut t, 0.5)
}

fn main() {
    println!("{}", flinch::cpu_report());
    let mut dw = humanoid();
    let mut t = step_times_us(&mut dw, H, WARMUP, STEPS);
    let median = quantile(&mut t, 0.5);
    let p90 = quantile(&mut t, 0.9);
    let mut refactor = humanoid();
    refactor.world.post_stab_reuse_factorisation = false;
    let mut tr = step_times_us(&mut refactor, H, WARMUP, STEPS);
    let step_refactor = quantile(&mut tr, 0.5);
    let mut iters = 0;
    let mut before: f64 = 0.0;
    let mut after: f64 = 0.0;
    for _ in 0..STEPS {
        let r = dw.step(H);
        if let Some(ps) = r.post_stab {
            iters += ps.iterations;
            before = before.max(ps.error_before);
            after = after.max(ps.error_after);
        }
    }
    println!(
        "humanoid: 20 bodies (pelvis prescribed), 19 driven ball joints, h = 1/120 s, implicit + post-stab, AutoSolver"
    );
    println!(
        "step: median {median:.2} µs, p90 {p90:.2} µs over {STEPS} steps after {WARMUP} warm-up"
    );
    println!(
        "  (post-stab refactoring every projection, post_stab_reuse_factorisation = false: median {step_refactor:.2} µs)"
    );
    println!(
        "post-stab: {:.2} projections per step on average, largest error before projection {before:.2e}, after {after:.2e}",
        iters as f64 / STEPS as f64
    );

    // Stage breakdown. Each stage re-does that part of the step on the state the step left.
    let forces = stage_us(&mut dw, |dw| {
        let bodies = dw.world.bodies();
        let mut acc = Vector6::zeros();
        for b in bodies {
            acc += b.gyroscopic().0;
        }
        for &id in &dw.drives {
            acc += dw.world.drive(id).eval(bodies).wrench[0];
        }
        black_box(acc);
    });
    let constraints = stage_us(&mut dw, |dw| {
        black_box(dw.world.constraint_error());
    });
    let mut none = humanoid();
    none.world.set_stabilization(Stabilization::None);
    let mut tn = step_times_us(&mut none, H, WARMUP, STEPS);
    let step_none = quantile(&mut tn, 0.5);
    // After a step without post-stab the world's system is the step's own M̃ (with J at t + h).
    let sys = none.world.system().clone();
    let a = vec![Vector6::repeat(0.1); sys.bodies()];
    let b = vec![0.0; sys.constraint_rows()];
    let mut x = vec![Vector6::zeros(); sys.bodies()];
    let mut lambda = vec![0.0; b.len()];
    let mut solver = AutoSolver::new();
    let mut tf: Vec<f64> = (0..STEPS)
        .map(|_| {
            let t0 = Instant::now();
            solver.factor(black_box(&sys)).expect("factor");
            t0.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let factor = quantile(&mut tf, 0.5);
    let mut ts: Vec<f64> = (0..STEPS)
        .map(|_| {
            let t0 = Instant::now();
            solver.solve(black_box(&a), &b, &mut x, &mut lambda);
            t0.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let solve = quantile(&mut ts, 0.5);
    println!("stages (median µs):");
    println!("  forces + gradients (gyroscopic, 19 drives)     {forces:>8.2}");
    println!("  constraint g + J (19 balls + prescribed)       {constraints:>8.2}");
    println!("  solver factor                                  {factor:>8.2}");
    println!("  solver solve                                   {solve:>8.2}");
    println!("  whole step without post-stab                   {step_none:>8.2}");
    println!(
        "  post-stab (step − step without)                {:>8.2}",
        median - step_none
    );
    println!(
        "  rest of the unstabilised step (assembly, ...)  {:>8.2}",
        step_none - forces - 2.0 * constraints - factor - solve
    );

    println!("figure humanoid_step_us {median:.2} us");
    println!("figure humanoid_step_p90_us {p90:.2} us");
    match mujoco_timings().map(|t| t.step_us) {
        Some(mj) => {
            println!("figure mujoco_step_us {mj:.2} us");
            println!("figure humanoid_over_mujoco_step {:.3} ratio", median / mj);
        }
        None => println!("(no MuJoCo figure: humanoid_over_mujoco_step not computed)"),
    }
}
