//! Five boxes stacked on the ground for 10 s at h = 1/60 s (issue 6): the stack must stand still.
//! `cargo run --release --example box_stack`

mod common;

use common::contact_runs::box_stack;

fn main() {
    let run = box_stack(5, 10.0);
    println!(
        "5 boxes of 0.2 m, 1 kg, μ = 0.5, 10 s at 1/60 s: up to {} contacts, penetration {:.2e} mm, \
         step {:.0} µs median / {:.0} µs worst (detection + Lemke)",
        run.max_contacts,
        run.max_penetration * 1e3,
        run.median_step_us,
        run.worst_step_us
    );
    println!("figure stack_max_drift_mm {:.3e} mm", run.max_drift * 1e3);
}
