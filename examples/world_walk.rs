//! Issue 38's `stairs_walk` and `slope_walk`, as they stand: the CMU walk (assisted free root, the flat floor's
//! defaults) started on the sample level's floor in front of its stairs (four 15 cm steps up to the landing) and
//! of its 10° ramp, walking onto them. The clip is not adapted to the ground yet (no foot IK, no root height from
//! the colliders), so these figures measure how far the flat-ground clip gets. `cargo run --release --example
//! world_walk`

use std::path::Path;
use std::sync::Arc;

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::load_level_file;
use flinch::level::sample::Spot;
use flinch::scene::world_runs::{posed_level, spot_pose};
use nalgebra::{Point3, Vector3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = load_level_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/level/training_ground.glb"),
        None,
    )?;
    // Where the walk's root is at t = 0: 0.6 m before the stairs' first step (x = 1.9, walking −x), and 0.6 m
    // before the 10° ramp's foot (z = −4, walking +z).
    let starts = [
        (
            "stairs_walk",
            Spot {
                name: "stairs",
                position: Point3::new(2.5, 0.0, 0.0),
                facing: Vector3::new(-1.0, 0.0, 0.0),
            },
        ),
        (
            "slope_walk",
            Spot {
                name: "slope10",
                position: Point3::new(5.0, 0.0, -4.6),
                facing: Vector3::new(0.0, 0.0, 1.0),
            },
        ),
    ];
    for (name, spot) in starts {
        let mut config = CharacterConfig::default();
        config.root.policy = RootPolicy::Assisted;
        let flat =
            Character::from_imported(load_embedded_walk(&ImportOptions::default())?, &config)?;
        let level = posed_level(&file, &spot_pose(&flat, &spot, 0.0))?;
        let mut c = Character::from_imported_on_terrain(
            load_embedded_walk(&ImportOptions::default())?,
            &config,
            Arc::new(level.clone()),
        )?;
        let duration = c.reference().duration();
        let f = c.run_free_root_in(duration, Some(&level), |_| Ok(()))?;
        let fell = c
            .root_events()
            .iter()
            .any(|e| e.to == flinch::control::RootState::Falling);
        for e in c.root_events() {
            println!("{name}: {e}");
        }
        println!("figure {name}_fell {}", u8::from(fell));
        println!(
            "figure {name}_max_penetration_mm {:.3} mm",
            f.max_penetration_mm
        );
        println!("figure {name}_track_rms_deg {:.3} deg", f.track_rms_deg);
        println!("figure {name}_foot_slide_mm {:.2} mm", f.foot_slide_mm);
        println!("figure {name}_feet_support_frac {:.3}", f.feet_support_frac);
        println!("figure {name}_nan_steps {}", f.nan_steps);
    }
    Ok(())
}
