//! Issue 38's `knockdown_world`: the CMU walk (assisted free root) takes the 5 kg ball at 12 m/s into the chest
//! at t = 1 s from the side, once beside the sample level's wall, once on its stairs' landing and once at its
//! 1 m ledge, and falls into the wall, down the stairs, off the ledge. Prints per place: fell, rest time, the
//! deepest penetration into the level's colliders, NaN steps and the tunnel count (steps in which a body centre
//! crossed a collider surface). `cargo run --release --example knockdown_world`

use std::path::Path;

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::{load_level_file, sample::SPOTS};
use flinch::scene::KnockdownHit;
use flinch::scene::world_runs::knockdown_at;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let file = load_level_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/level/training_ground.glb"),
        None,
    )?;
    println!(
        "level: samples/level/training_ground.glb, {} colliders, {} triangles",
        file.colliders.len(),
        file.triangles
    );
    let hit = KnockdownHit {
        time: flinch::scene::world_runs::WORLD_HIT_TIME,
        ..KnockdownHit::heavy()
    };
    for spot in &SPOTS {
        let imported = load_embedded_walk(&ImportOptions::default())?;
        let character = Character::from_imported(imported, &config)?;
        let (f, _) = knockdown_at(character, &file, spot, &hit, 7.0, |_| {})?;
        println!("{}: {:.3} N·s", spot.name, f.impulse_ns);
        for e in &f.events {
            println!("  {e}");
        }
        for line in f.figure_lines(&format!("knockdown_world_{}_", spot.name)) {
            println!("{line}");
        }
    }
    Ok(())
}
