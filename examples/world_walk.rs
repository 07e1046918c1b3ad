//! Issue 38's `stairs_walk` and `slope_walk`: the CMU walk (assisted free root, the flat floor's defaults)
//! looped to 5.6 s, started on the sample level's floor in front of its stairs (four 15 cm steps up, the landing,
//! four down) and of its 10° ramp (up, its top, down), the clip adapted to the ground under its feet
//! (`docs/world.md`, "Walking the clip over uneven ground"); beside each, the same clip on the flat floor, whose
//! support less 0.05 is the goal. `cargo run --release --example world_walk`

use std::path::Path;

use flinch::control::{CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::load_level_file;
use flinch::scene::world_runs::{TERRAIN_WALKS, terrain_walk};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = load_level_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/level/training_ground.glb"),
        None,
    )?;
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let walk = load_embedded_walk(&ImportOptions::default())?;
    for (start, seconds) in &TERRAIN_WALKS {
        let name = start.name;
        eprintln!("{name}: on the level, then on the flat floor");
        let w = terrain_walk(&file, start, &config, &walk, *seconds)?;
        let (f, flat) = (&w.on_terrain, &w.flat);
        println!("figure {name}_fell {}", u8::from(f.fell));
        println!("figure {name}_nan_steps {}", f.nan_steps);
        println!(
            "figure {name}_max_penetration_mm {:.3} mm",
            f.max_penetration_mm
        );
        println!("figure {name}_track_rms_deg {:.3} deg", f.track_rms_deg);
        println!("figure {name}_foot_slide_mm {:.2} mm", f.foot_slide_mm);
        println!("figure {name}_feet_support_frac {:.3}", f.feet_support_frac);
        println!(
            "figure {name}_flat_track_rms_deg {:.3} deg",
            flat.track_rms_deg
        );
        println!(
            "figure {name}_flat_foot_slide_mm {:.2} mm",
            flat.foot_slide_mm
        );
        println!(
            "figure {name}_flat_feet_support_frac {:.3}",
            flat.feet_support_frac
        );
    }
    Ok(())
}
