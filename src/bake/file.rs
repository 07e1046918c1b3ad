//! One clip file in, one reacted file out: import (keeping a glTF input's document), build the character, bake,
//! write. What `flinch bake` runs per clip and what the C ABI's `flinch_bake_file` calls.

use std::path::Path;

use super::output::{
    OutputFormat, OutputOptions, WriteSource, check_keep_unreacted, write_and_read_back,
};
use super::readback::{Readback, ReadbackPlan};
use super::run::{BakeError, BakeMode, Baked, bake};
use super::script::HitScript;
use crate::control::{Character, CharacterConfig};
use crate::io::atomic::{remove_stale_temporaries, same_file};
use crate::io::gltf_import::GltfImportError;
use crate::io::{
    Format, ImportError, ImportOptions, Imported, gltf_export, load_embedded_walk, load_file,
};

/// A stage of a file bake, reported to the progress callback.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BakeStage {
    /// Importing and preprocessing the clip.
    Preparing,
    /// Simulating: the fraction done.
    Simulating(f64),
    /// Writing the output file.
    Writing,
}

/// What a file bake did.
#[derive(Debug, Clone)]
pub struct BakeSummary {
    /// The bake (clip, figures, events).
    pub baked: Baked,
    /// Seconds of motion simulated.
    pub duration: f64,
    /// The reacted animation's name in the file.
    pub animation: String,
    /// The written file read back and measured.
    pub readback: Readback,
}

/// The name of the clip a file holds: a glTF input's animation, else the file's stem (the embedded walk's name).
pub(crate) fn clip_name(input: Option<&Path>, gltf: Option<&gltf_export::GltfSource>) -> String {
    if let Some(name) = gltf.and_then(|g| {
        let i = g.mapping.animation?;
        g.animation_names().get(i).cloned()
    }) {
        return name;
    }
    input
        .and_then(Path::file_stem)
        .map_or("cmu_02_01_walk".to_string(), |s| {
            s.to_string_lossy().into_owned()
        })
}

/// Bakes `input` (the embedded CMU walk when `None`) with `script` into `output` (format by extension), the
/// reacted animation named after the clip: [`bake_file_with`] with the default [`OutputOptions`].
pub fn bake_file(
    input: Option<&Path>,
    output: &Path,
    script: &HitScript,
    config: &CharacterConfig,
    import: &ImportOptions,
    mode: BakeMode,
    progress: impl FnMut(BakeStage),
) -> Result<BakeSummary, BakeError> {
    let options = OutputOptions::default();
    bake_file_with(
        input, output, script, config, import, mode, &options, progress,
    )
}

/// Bakes `input` (the embedded CMU walk when `None`) with `script` into `output` (format by extension).
///
/// A glTF/GLB input's document is kept so glTF output carries its meshes, skins and animations, with the reacted
/// one added (named per `options`); BVH output keeps a BVH input's layout, unit and up axis. The file written is
/// read back and measured ([`BakeSummary::readback`]). Errors name the file. The output's extension and folder
/// are checked before any work; the file is written atomically, so a failed bake leaves no partial output.
#[allow(clippy::too_many_arguments)]
pub fn bake_file_with(
    input: Option<&Path>,
    output: &Path,
    script: &HitScript,
    config: &CharacterConfig,
    import: &ImportOptions,
    mode: BakeMode,
    options: &OutputOptions,
    mut progress: impl FnMut(BakeStage),
) -> Result<BakeSummary, BakeError> {
    check_output(input, output)?;
    check_keep_unreacted(output, options).map_err(BakeError::Write)?;
    progress(BakeStage::Preparing);
    let name = input.map_or("the embedded walk".to_string(), |p| p.display().to_string());
    let in_file = |e: BakeError| BakeError::Clip {
        file: name.clone(),
        source: Box::new(e),
    };
    let is_gltf = input
        .and_then(Format::from_path)
        .is_some_and(|f| matches!(f, Format::Gltf | Format::Glb));
    let (imported, gltf): (Imported, _) = match input {
        Some(path) if is_gltf => {
            let (imported, source) =
                gltf_export::load_source_file(path, import).map_err(|e| match e {
                    GltfImportError::Io { .. } => BakeError::Read(e.to_string()),
                    e => BakeError::Input(e.to_string()),
                })?;
            (imported, Some(source))
        }
        Some(path) => (
            load_file(path, import).map_err(|e| match e {
                ImportError::Read { .. } => BakeError::Read(e.to_string()),
                e => BakeError::Input(e.to_string()),
            })?,
            None,
        ),
        None => (
            load_embedded_walk(import).map_err(|e| BakeError::Input(format!("{name}: {e}")))?,
            None,
        ),
    };
    let report = imported.report.clone();
    let character = Character::from_imported(imported, config).map_err(|e| in_file(e.into()))?;
    let skeleton = character.skeleton().clone();
    let unreacted = character.clip().clone();
    let duration = character.reference().duration();
    let baked = bake(character, script, mode, |f| {
        progress(BakeStage::Simulating(f))
    })
    .map_err(in_file)?;
    progress(BakeStage::Writing);
    let source = WriteSource {
        report: &report,
        gltf: gltf.as_ref(),
    };
    let plan = ReadbackPlan::new(&skeleton, &unreacted);
    let clip_name = clip_name(input, gltf.as_ref());
    let written = write_and_read_back(
        output,
        &skeleton,
        &baked.clip,
        &unreacted,
        &clip_name,
        options,
        source,
        import,
        &plan,
    )
    .map_err(BakeError::Write)?;
    Ok(BakeSummary {
        baked,
        duration,
        animation: written.animation,
        readback: written.readback,
    })
}

/// The output must have a known extension and an existing folder and must not be the input ([`BakeError::Write`]
/// otherwise), checked before the simulation rather than after it. Temporary files a killed bake left in the
/// folder are removed.
pub(crate) fn check_output(input: Option<&Path>, output: &Path) -> Result<(), BakeError> {
    if let Some(input) = input.filter(|i| same_file(i, output)) {
        return Err(BakeError::Write(format!(
            "{}: refusing to overwrite the input file {} (choose another output)",
            output.display(),
            input.display()
        )));
    }
    if OutputFormat::from_path(output).is_none() {
        return Err(BakeError::Write(format!(
            "{}: unknown output format (use .bvh, .gltf or .glb)",
            output.display()
        )));
    }
    let folder = match output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(BakeError::Write(format!(
            "{}: cannot write: the folder {} does not exist",
            output.display(),
            folder.display()
        )));
    }
    remove_stale_temporaries(folder);
    Ok(())
}
