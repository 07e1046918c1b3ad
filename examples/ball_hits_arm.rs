//! Issue 6's `ball_hits_arm`: a 0.45 kg, 0.11 m ball at 15 m/s across the CMU walk hits the right forearm at
//! t = 1.0 s, resolved by the contact LCP with the character's implicit effective mass (friction 0.5), for
//! restitution 0 (the figures) and 0.5. `cargo run --release --example ball_hits_arm`

use flinch::bake::{BakeMode, HitScript, ScriptedHit, bake};
use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::impulse_on_body;
use nalgebra::Vector3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for restitution in [0.0, 0.5] {
        let imported = load_embedded_walk(&ImportOptions::default())?;
        let character = Character::from_imported(imported, &CharacterConfig::default())?;
        let script = HitScript {
            hits: vec![ScriptedHit::AimedBall {
                bone: "RightForeArm".into(),
                arrival: 1.0,
                velocity: Vector3::new(15.0, 0.0, 0.0).into(),
                radius: 0.11,
                mass: 0.45,
                flight: 0.2,
            }],
            restitution,
            ..HitScript::default()
        };
        let baked = bake(character, &script, BakeMode::Layered, |_| {})?;
        let first = baked.events.first().ok_or("the ball missed")?;
        let total = impulse_on_body(&baked.events, first.character, first.body).norm();
        let hit = baked.evaluation.hit.as_ref().ok_or("no hit figures")?;
        println!("restitution {restitution}:");
        for e in &baked.events {
            println!(
                "  t {:.4} s {:<14} {:.3} N·s ({:.2} J)",
                e.time,
                e.bone,
                e.impulse.norm(),
                e.energy_j
            );
        }
        println!(
            "  on {}: {total:.3} N·s ({:+.1} % of 6.75); peak {:.2}° ({}), back within 2° after {:?} s, joint gap {:.2e} mm",
            first.bone,
            100.0 * (total / 6.75 - 1.0),
            hit.peak_deg,
            hit.peak_joint,
            hit.return_s,
            baked.evaluation.max_joint_gap_mm
        );
        if restitution == 0.0 {
            println!("figure ball_hit_impulse_ns {total:.3} N*s");
            println!(
                "figure ball_hit_first_contact_ns {:.3} N*s",
                first.impulse.norm()
            );
            println!("figure hit_peak_deg {:.3} deg", hit.peak_deg);
            println!(
                "figure hit_return_s {:.4} s",
                hit.return_s.unwrap_or(f64::NAN)
            );
            println!(
                "figure max_joint_gap_mm {:.3e} mm",
                baked.evaluation.max_joint_gap_mm
            );
        }
    }
    Ok(())
}
