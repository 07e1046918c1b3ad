//! A two-link arm whose drives are 100× stiffer than the default presses on a static box at h = 1/60 s (issue
//! 6): stiff drives and contacts share the implicit effective mass, so the arm stays bounded.
//! `cargo run --release --example stiff_contact`

mod common;

use common::contact_runs::stiff_contact;

fn main() {
    for scale in [1.0, 100.0] {
        let run = stiff_contact(scale, 5.0);
        println!(
            "stiffness {scale}× default: max speed {:.4} m/s (pressed, after 1 s: {:.2e} m/s), penetration {:.2e} mm, max normal impulse {:.3} N·s, \
             {} steps in contact",
            run.max_speed,
            run.pressed_max_speed,
            run.max_penetration * 1e3,
            run.max_normal_impulse,
            run.contact_steps
        );
        if scale == 100.0 {
            println!("figure stiff_contact_max_speed {:.4} m/s", run.max_speed);
            println!(
                "figure stiff_contact_pressed_max_speed {:.3e} m/s",
                run.pressed_max_speed
            );
        }
    }
}
