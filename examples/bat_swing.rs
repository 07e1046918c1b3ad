//! Issue 38's `bat_swing`: a kinematic capsule (a bat: 0.9 m, 3.5 cm radius, infinite mass) swung horizontally
//! at 8 m/s through the head of the walking CMU walk at t = 1 s. The contacts of the character's capsules with the
//! bat see its velocity; every touch is a hit event. With a kinematic root: the hit's bone, point and impulse, the
//! peak joint deviation and the return to the clip. With an assisted free root the same swing at 15 m/s.
//! `cargo run --release --example bat_swing`

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::world_runs::bat_swing;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (policy, speed, prefix) in [
        (RootPolicy::Kinematic, 8.0, "bat_swing_"),
        (RootPolicy::Assisted, 15.0, "bat_swing_assisted_"),
    ] {
        let mut config = CharacterConfig::default();
        config.root.policy = policy;
        let character =
            Character::from_imported(load_embedded_walk(&ImportOptions::default())?, &config)?;
        let f = bat_swing(character, speed, 1.0, 2.8, |_, _| {})?;
        println!("{policy:?} root, bat at {speed} m/s:");
        if let Some((bone, p, j)) = &f.first {
            println!(
                "  first touch {bone} at ({:.3}, {:.3}, {:.3}) m, {:.3} N·s ({:.2}, {:.2}, {:.2})",
                p.x,
                p.y,
                p.z,
                j.norm(),
                j.x,
                j.y,
                j.z
            );
        }
        println!("figure {prefix}hit_events {}", f.hits);
        println!("figure {prefix}impulse_ns {:.3} N*s", f.impulse_ns);
        println!("figure {prefix}hit_peak_deg {:.2} deg", f.hit_peak_deg);
        println!(
            "figure {prefix}hit_return_s {} s",
            f.hit_return_s.map_or("none".into(), |t| format!("{t:.3}"))
        );
        println!("figure {prefix}fell {}", u8::from(f.fell));
    }
    Ok(())
}
