//! Energy of an undamped 3-link pendulum with post-stabilization, h = 1 ms, 10 s: the linearly implicit step
//! may dissipate but must not gain energy. `cargo run --release --example pendulum_energy`

mod common;

use common::experiments::{PENDULUM_LINK, pendulum_energy};
use common::plot::{Series, out_dir, write_csv, write_svg};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let steps = 10_000;
    let (l, m, r) = PENDULUM_LINK;
    println!(
        "3-link pendulum: links {l} m, {m} kg, radius {r} m, ball joints, start horizontal, h = 1 ms, 10 s"
    );
    let e = pendulum_energy(steps)?;
    println!("{:>8} {:>16}", "t (s)", "ΔE / E_scale (%)");
    for i in (999..steps).step_by(1000) {
        println!("{:>8.1} {:>16.4}", (i + 1) as f64 * 1e-3, 100.0 * e[i]);
    }
    let max_gain = e.iter().cloned().fold(0.0, f64::max) * 100.0;
    let last = e[steps - 1] * 100.0;
    let series = vec![Series {
        label: "ΔE/E_scale %".into(),
        points: e
            .iter()
            .enumerate()
            .map(|(i, v)| ((i + 1) as f64 * 1e-3, 100.0 * v))
            .collect(),
    }];
    let dir = out_dir();
    write_csv(
        &dir.join("pendulum_energy.csv"),
        "t_s",
        "energy_change_pct",
        &series,
    )?;
    write_svg(
        &dir.join("pendulum_energy.svg"),
        "3-link pendulum: energy change",
        "t (s)",
        "ΔE (% of m·g·depth)",
        &series,
        false,
    )?;
    println!("wrote {}", dir.join("pendulum_energy.{csv,svg}").display());
    println!("figure energy_drift_pct {last:.4} %");
    println!("figure energy_max_gain_pct {max_gain:.4} %");
    Ok(())
}
