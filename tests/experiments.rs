//! The dynamics experiments' headline figures (the examples print and plot the same runs).

#[path = "../examples/common/mod.rs"]
mod excommon;

use excommon::experiments::{
    DRIVE_STEP, max_stable_wn, pendulum_energy, six_link_chain, stiff_drive, stiff_drive_stable,
};
use flinch::dynamics::{Integrator, PositionUpdate, Stabilization};

fn max_gap_mm(stab: Stabilization, update: PositionUpdate, steps: usize) -> f64 {
    let run = six_link_chain(stab, update, steps).unwrap();
    run.gaps.iter().cloned().fold(0.0, f64::max) * 1e3
}

const POST: Stabilization = Stabilization::PostStab {
    max_iters: 3,
    tol: 1e-10,
};

/// Cline §5.2.1 reproduced with the thesis' explicit-Euler positions: gaps by 0.6 s within a factor 3 of the
/// thesis' (none ≈ 20 mm, α = 50 ≈ 5 mm, α = 200 ≤ 3 mm), post-stab ≤ 0.001 mm.
#[test]
fn six_link_chain_reproduces_the_thesis() {
    let m = PositionUpdate::ThesisExplicitEuler;
    let none = max_gap_mm(Stabilization::None, m, 600);
    let b50 = max_gap_mm(Stabilization::Baumgarte { alpha: 50.0 }, m, 600);
    let b200 = max_gap_mm(Stabilization::Baumgarte { alpha: 200.0 }, m, 600);
    let post = max_gap_mm(POST, m, 800);
    println!("thesis mode gaps (mm): none {none} b50 {b50} b200 {b200} post {post}");
    assert!(
        (20.0 / 3.0..60.0).contains(&none),
        "unstabilized gap {none} mm"
    );
    assert!((5.0 / 3.0..15.0).contains(&b50), "α = 50: {b50} mm");
    assert!(
        (1.0..=3.0).contains(&b200) && b200 < b50,
        "α = 200: {b200} mm"
    );
    assert!(post <= 1e-3, "post-stab gap {post} mm");
    // The correction acts one step late (g_{k+1} = g_k − αh·g_{k−1}): αh = 2 diverges.
    assert!(six_link_chain(Stabilization::Baumgarte { alpha: 2000.0 }, m, 800).is_err());
}

/// The same chain with flinch's default position update (the new velocity): smaller drift, same ordering.
#[test]
fn six_link_chain_default_integrator() {
    let m = PositionUpdate::NewVelocity;
    let none = max_gap_mm(Stabilization::None, m, 800);
    let b50 = max_gap_mm(Stabilization::Baumgarte { alpha: 50.0 }, m, 800);
    let b200 = max_gap_mm(Stabilization::Baumgarte { alpha: 200.0 }, m, 800);
    let b2000 = max_gap_mm(Stabilization::Baumgarte { alpha: 2000.0 }, m, 800);
    let post = max_gap_mm(POST, m, 800);
    println!("default gaps (mm): none {none} b50 {b50} b200 {b200} b2000 {b2000} post {post}");
    // Post-stabilization: the goal is ≤ 0.001 mm over all 800 steps (thesis: < 0.01 mm).
    assert!(post <= 1e-3, "post-stab gap {post} mm");
    assert!((1.0..60.0).contains(&none), "unstabilized gap {none} mm");
    assert!(b50 < 5.0 && b50 < none / 2.0, "α = 50: {b50} mm");
    assert!(b200 < 3.0 && b200 < b50, "α = 200: {b200} mm");
    assert!(b2000 < b200, "α = 2000: {b2000} mm");
    // α·h > 2 over-corrects: the alternating error mode grows and the run fails or drifts far.
    let over = six_link_chain(Stabilization::Baumgarte { alpha: 2500.0 }, m, 800);
    assert!(
        over.map_or(true, |r| r.gaps.iter().cloned().fold(0.0, f64::max) * 1e3
            > none)
    );
}

#[test]
fn stiff_drive_implicit_vs_explicit() {
    let wn = 500.0;
    let imp = stiff_drive(wn, Integrator::LinearlyImplicit, 120).error;
    assert_eq!(imp.len(), 120);
    let last = imp[119].abs();
    assert!(last < 1e-9, "implicit step did not settle: {last} rad");
    assert!(
        imp.iter().all(|e| e.abs() <= 0.5),
        "implicit step overshot the initial error"
    );
    assert!(
        !stiff_drive_stable(wn, Integrator::Explicit),
        "explicit step should diverge at 500 rad/s"
    );
    let limit = 2.0 / DRIVE_STEP;
    let we = max_stable_wn(Integrator::Explicit, 1.0, 1.2e5);
    println!("explicit max stable ω_n {we} rad/s, 2/h = {limit}");
    assert!(we > 0.5 * limit && we < 1.1 * limit, "explicit limit {we}");
    let wi = max_stable_wn(Integrator::LinearlyImplicit, 1.0, 1.2e5);
    assert_eq!(wi, 1.2e5, "implicit step unstable below the search cap");
}

#[test]
fn pendulum_energy_never_grows() {
    let e = pendulum_energy(10_000).unwrap();
    let max_gain = e.iter().cloned().fold(f64::MIN, f64::max) * 100.0;
    let last = e[e.len() - 1] * 100.0;
    println!("energy: final {last} %, max gain {max_gain} %");
    assert!(max_gain <= 1.0, "energy grew by {max_gain} %");
    // First-order velocity projection dissipates, but the pendulum still swings after 10 s.
    assert!(last < 0.0 && last > -80.0, "final energy change {last} %");
}
