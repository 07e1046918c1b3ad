//! Writes the sample level `samples/level/training_ground.glb` (`flinch::level::sample`): a 24 m floor of 28 800
//! triangles, a 1 m ledge, a wall, four 15 cm steps up to a landing and four down, a 10° and a 20° ramp, a table.
//! `cargo test` checks that the committed file is what this writes.
//!
//! ```sh
//! cargo run --release --example make_level [-- OUT.glb]
//! ```

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("samples/level/training_ground.glb"));
    let meshes = flinch::level::sample::sample_level();
    let bytes = flinch::level::level_glb(&meshes)?;
    flinch::io::atomic::write_atomic(&out, &bytes)?;
    // The level fuzz target's seed: every mesh but the floor grid (small enough for the smoke's 64 kB cut).
    let small: Vec<_> = meshes
        .iter()
        .filter(|(m, _)| m.name != "Floor")
        .cloned()
        .collect();
    let seed = std::path::Path::new("fuzz/seeds/level/small_level.glb");
    if seed.parent().is_some_and(|d| d.is_dir()) {
        flinch::io::atomic::write_atomic(seed, &flinch::level::level_glb(&small)?)?;
        println!("wrote {}", seed.display());
    }
    let triangles: usize = meshes.iter().map(|(m, _)| m.triangles.len()).sum();
    println!(
        "wrote {} ({} meshes, {triangles} triangles, {} bytes)",
        out.display(),
        meshes.len(),
        bytes.len()
    );
    println!("figure level_triangles {triangles}");
    Ok(())
}
