//! A stiff joint drive (natural frequency 500 rad/s) at h = 1/60 s: the linearly implicit step stays bounded
//! and settles; the explicit variant (forces at t, A = M) diverges. Largest stable natural frequency of each by
//! bisection. `cargo run --release --example stiff_drive`

mod common;

use common::experiments::{DRIVE_STEP, DRIVE_TARGET, DRIVE_ZETA, max_stable_wn, stiff_drive};
use common::plot::{Series, out_dir, write_csv, write_svg};
use flinch::dynamics::Integrator;

/// Upper end of the bisection (rad/s): 1000× past the explicit limit 2/h.
const WN_CAP: f64 = 1.2e5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let wn = 500.0;
    let steps = 120;
    println!(
        "stiff drive: rod on a hinge, target {DRIVE_TARGET} rad from 0, ζ = {DRIVE_ZETA}, h = {:.4} s, ω_n·h = {:.2}",
        DRIVE_STEP,
        wn * DRIVE_STEP
    );
    let imp_run = stiff_drive(wn, Integrator::LinearlyImplicit, steps);
    let exp_run = stiff_drive(wn, Integrator::Explicit, steps);
    let (imp, exp) = (&imp_run.error, &exp_run.error);
    println!(
        "{:>6} {:>10} {:>16} {:>16} {:>14} {:>14}",
        "step", "t (s)", "implicit err", "explicit err", "implicit KE", "explicit KE"
    );
    for i in [0usize, 1, 2, 3, 5, 10, 20, 60, 119] {
        let show = |e: &[f64]| {
            e.get(i)
                .map_or("(blown up)".to_string(), |v| format!("{v:.3e}"))
        };
        println!(
            "{:>6} {:>10.4} {:>16} {:>16} {:>14} {:>14}",
            i + 1,
            (i + 1) as f64 * DRIVE_STEP,
            show(imp),
            show(exp),
            show(&imp_run.kinetic),
            show(&exp_run.kinetic)
        );
    }
    let series = vec![
        Series {
            label: "implicit".into(),
            points: imp
                .iter()
                .enumerate()
                .map(|(i, e)| ((i + 1) as f64 * DRIVE_STEP, e.abs()))
                .collect(),
        },
        Series {
            label: "explicit".into(),
            points: exp
                .iter()
                .enumerate()
                .map(|(i, e)| ((i + 1) as f64 * DRIVE_STEP, e.abs()))
                .collect(),
        },
    ];
    let dir = out_dir();
    write_csv(
        &dir.join("stiff_drive.csv"),
        "t_s",
        "abs_error_rad",
        &series,
    )?;
    write_svg(
        &dir.join("stiff_drive.svg"),
        "Drive with ω_n = 500 rad/s at h = 1/60 s",
        "t (s)",
        "|angle − target| (rad, log10)",
        &series,
        true,
    )?;
    let wi = max_stable_wn(Integrator::LinearlyImplicit, 1.0, WN_CAP);
    let we = max_stable_wn(Integrator::Explicit, 1.0, WN_CAP);
    println!(
        "largest stable ω_n: implicit {wi:.1} rad/s (search cap {WN_CAP}), explicit {we:.1} rad/s (2/h = {:.1})",
        2.0 / DRIVE_STEP
    );
    println!("wrote {}", dir.join("stiff_drive.{csv,svg}").display());
    println!(
        "figure stiff_implicit_final_error_rad {:.3e} rad",
        imp.last().map_or(f64::INFINITY, |e| e.abs())
    );
    println!("figure stiff_implicit_max_stable_wn {wi:.1} rad/s");
    println!("figure stiff_explicit_max_stable_wn {we:.1} rad/s");
    Ok(())
}
