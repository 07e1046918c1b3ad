//! `flinch inspect CLIP --onto CHARACTER [--map FILE]`: the retarget map, key by key.

use std::path::Path;

use flinch::retarget::{load_onto, map_text};

use crate::{CliError, ImportArgs};

/// Loads the clip and the character and prints the correspondence (roles, chains, joints kept at rest).
pub fn run(
    clip: Option<&Path>,
    character: &Path,
    map: Option<&Path>,
    args: &ImportArgs,
    rate: Option<f64>,
) -> Result<(), CliError> {
    let opts = args.options(rate)?;
    let onto =
        load_onto(character, clip, map, &opts).map_err(|e| CliError::Input(e.to_string()))?;
    let clip_name = clip.map_or("the embedded walk".to_string(), |p| p.display().to_string());
    println!("retarget  {clip_name} -> {}", character.display());
    println!(
        "joints    {} -> {}",
        onto.source.skeleton.len(),
        onto.target.skeleton.len()
    );
    println!("map       role             clip joints                      -> character joints");
    print!(
        "{}",
        map_text(&onto.source.skeleton, &onto.target.skeleton, &onto.tree)
    );
    Ok(())
}
