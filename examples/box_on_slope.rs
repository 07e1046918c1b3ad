//! A box on an inclined plane at h = 1/60 s (issue 6): below atan μ it must stay put, above it must slide with
//! Coulomb's acceleration `g (sin θ − μ cos θ)`. `cargo run --release --example box_on_slope`

mod common;

use common::contact_runs::box_on_slope;

fn main() {
    let mu: f64 = 0.5;
    let critical = mu.atan().to_degrees();
    println!("box 0.2 m, 1 kg on a slope, μ = {mu} (atan μ = {critical:.2}°), h = 1/60 s");
    let mut drift_mm: f64 = 0.0;
    let mut accel_err_pct: f64 = 0.0;
    let mut penetration_mm: f64 = 0.0;
    for deg in [10.0, 20.0, 26.0, 27.0, 30.0, 40.0] {
        let run = box_on_slope(f64::to_radians(deg), mu, 10.0);
        let sticks = deg < critical;
        let err = if sticks {
            0.0
        } else {
            100.0 * (run.accel - run.analytic_accel).abs() / run.analytic_accel
        };
        println!(
            "  {deg:5.1}° {}: travel {:10.4} mm, accel {:8.5} m/s² (Coulomb {:8.5}), contacts {}, \
             penetration {:.2e} mm, LCP residual {:.1e}",
            if sticks { "sticks" } else { "slides" },
            run.travel * 1e3,
            run.accel,
            run.analytic_accel.max(0.0),
            run.max_contacts,
            run.max_penetration * 1e3,
            run.max_residual,
        );
        if sticks {
            drift_mm = drift_mm.max(run.travel.abs() * 1e3);
        } else {
            accel_err_pct = accel_err_pct.max(err);
        }
        penetration_mm = penetration_mm.max(run.max_penetration * 1e3);
    }
    println!("figure slope_drift_mm {drift_mm:.3e} mm");
    println!("figure slope_accel_err_pct {accel_err_pct:.4} %");
    println!("figure max_penetration_mm {penetration_mm:.3e} mm");
}
