//! Issue 13's `two_characters`: two walkers (the CMU walk and its mirror, kinematic roots) pass each other with
//! their arms meeting; the scene resolves the character–character contacts. `cargo run --release --example
//! two_characters [OFFSET_M]`
use flinch::scene::Scene;

mod common;
use common::two_walkers::run;

fn main() {
    let _ = Scene::new();
    let offset: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0.6);
    let r = run(offset);
    println!("two walkers, paths {offset} m apart, {} steps", r.steps);
    println!(
        "contacts {} from {:?} s to {:?} s, first {:?}",
        r.contacts, r.first_contact_s, r.last_contact_s, r.first_bones
    );
    println!(
        "impulse sums: {:?} and {:?} N·s",
        r.impulse_sum[0].as_slice(),
        r.impulse_sum[1].as_slice()
    );
    println!(
        "largest deviation inside the contact window: {:.2} / {:.2} deg",
        r.window_max_deg[0], r.window_max_deg[1]
    );
    println!(
        "figure max_interpenetration_mm {:.4} mm",
        r.max_interpenetration_mm
    );
    println!("figure character_contacts {} count", r.contacts);
    println!(
        "figure track_rms_deg_a {:.3e} deg (outside the contact window)",
        r.track_rms_deg[0]
    );
    println!(
        "figure track_rms_deg_b {:.3e} deg (outside the contact window)",
        r.track_rms_deg[1]
    );
}
