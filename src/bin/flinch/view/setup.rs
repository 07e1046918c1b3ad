//! What `flinch view` was started with: the clips (retargeted with `--onto`), their character configuration and
//! the level, and the glTF rigs whose skin the page draws (read once here: the server serves them from memory).
//! A client picks clips and rigs by index; no path ever comes from the page.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use flinch::control::{Character, CharacterConfig};
use flinch::io::gltf_export::{GltfSource, GltfWriteOptions, load_source_file};
use flinch::io::{Imported, UpAxis};
use flinch::level::{Level, LevelFile, LoadOptions, load_level, load_level_file};
use flinch::retarget::{load_onto, travel_direction};
use flinch::skeleton::{Clip, Skeleton};
use nalgebra::Vector3;

use super::ViewArgs;
use super::level_mesh::LevelMesh;
use crate::CliError;

/// One clip the page can load.
pub struct ClipSource {
    /// Display name (the file, or the embedded walk).
    pub name: String,
    /// The skeleton the character simulates (the rig's with `--onto`).
    pub skeleton: Skeleton,
    /// The clip on that skeleton.
    pub clip: Clip,
    /// The import report of the file the skeleton came from (BVH recordings keep its unit and axes).
    pub report: flinch::io::ImportReport,
    /// The glTF document of the skeleton's file: a GLB recording keeps its meshes and skins.
    pub gltf: Option<GltfSource>,
    /// The character configuration (the performer's masses and frequencies with `--onto`).
    pub config: CharacterConfig,
    /// The horizontal direction the clip travels in (unit).
    pub travel: Vector3<f64>,
    /// The skin the page draws for this clip's characters, when its skeleton comes from a glTF with a skin.
    pub skin: Option<ClipSkin>,
}

/// How a clip's skeleton drives a rig's skin.
pub struct ClipSkin {
    /// The rig's index in [`Setup::rigs`].
    pub rig: usize,
    /// The glTF node of each skeleton joint (`None`: a joint the file has no node for).
    pub nodes: Vec<Option<usize>>,
}

/// A glTF rig with a skin, served to the page at `/s/<token>/rig/<index>.glb`.
pub struct Rig {
    /// The file it came from (given on the command line).
    pub path: PathBuf,
    /// A self-contained GLB: the file's bytes for a `.glb`, else the file re-packed by the glTF writer (external
    /// buffers and images embedded).
    pub glb: Arc<Vec<u8>>,
    /// Metres per file unit (the import's unit).
    pub metres_per_unit: f64,
    /// The import turned a Z-up file to Y-up.
    pub z_up: bool,
}

/// The viewer's inputs.
pub struct Setup {
    /// The clips, in command-line order.
    pub clips: Vec<ClipSource>,
    /// The level's colliders, when one was given.
    pub level: Option<Level>,
    /// The level as triangles for the page.
    pub level_mesh: Option<LevelMesh>,
    /// The glTF rigs with a skin (the `--onto` rig, or glTF clips with a skin).
    pub rigs: Vec<Rig>,
}

fn input(e: impl std::fmt::Display) -> CliError {
    CliError::Input(e.to_string())
}

fn is_gltf(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
}

impl Setup {
    /// Loads the clips and the level named on the command line.
    pub fn load(args: &ViewArgs) -> Result<Setup, CliError> {
        let mut config = CharacterConfig::default();
        config.preprocess.rate_hz = args.rate;
        let files: Vec<Option<&Path>> = if args.clips.is_empty() {
            vec![None]
        } else {
            args.clips.iter().map(|p| Some(p.as_path())).collect()
        };
        let mut clips = Vec::new();
        let mut rigs = Vec::new();
        for file in files {
            let (mut source, rig_path) = match &args.onto {
                Some(rig) => (
                    onto_source(rig, file, &args.import, &config)?,
                    Some(rig.as_path()),
                ),
                None => (plain_source(file, &args.import, &config)?, file),
            };
            if let Some(path) = rig_path {
                source.skin = skin_of(&source, path, &mut rigs);
            }
            clips.push(source);
        }
        let (level, level_mesh) = match &args.level {
            None => (None, None),
            Some(path) => {
                let file = if path.as_os_str() == "sample" {
                    load_level(crate::world::LEVEL_GLB, None, &LoadOptions::default())
                } else {
                    load_level_file(path, None)
                }
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
                let (level, mesh) = level_of(&file)?;
                (Some(level), Some(mesh))
            }
        };
        Ok(Setup {
            clips,
            level,
            level_mesh,
            rigs,
        })
    }

    /// A character of clip `index`, its root path moved by `offset` (m, world).
    pub fn character(&self, index: usize, offset: Vector3<f64>) -> Result<Character, String> {
        let source = self
            .clips
            .get(index)
            .ok_or_else(|| format!("no clip {index}: {} clips were given", self.clips.len()))?;
        let clip = source.clip.placed(&source.skeleton, 0.0, offset);
        Character::new(source.skeleton.clone(), clip, &source.config)
            .map_err(|e| format!("{}: {e}", source.name))
    }
}

/// The skin of a clip whose skeleton was imported from the glTF `path` with a skin: its rig (read once per file,
/// shared by the clips on it) and the node of each joint. `None` (with a warning when the file has a skin but
/// cannot be served) otherwise: the page then draws the capsules only.
fn skin_of(source: &ClipSource, path: &Path, rigs: &mut Vec<Rig>) -> Option<ClipSkin> {
    let gltf = source.gltf.as_ref()?;
    gltf.mapping.skin?;
    let rig = match rigs.iter().position(|r| r.path == path) {
        Some(i) => i,
        None => {
            let glb = if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("glb"))
            {
                std::fs::read(path).map_err(|e| e.to_string())
            } else {
                // GLB (the default): one file the page loads without further requests.
                let opts = GltfWriteOptions::default();
                flinch::io::gltf_export::write(&source.skeleton, &source.clip, Some(gltf), &opts)
                    .map_err(|e| e.to_string())
            };
            let glb = match glb {
                Ok(b) => b,
                Err(e) => {
                    eprintln!(
                        "warning: {}: its skin is not drawn ({e}); the page draws the capsules",
                        path.display()
                    );
                    return None;
                }
            };
            rigs.push(Rig {
                path: path.to_path_buf(),
                glb: Arc::new(glb),
                metres_per_unit: gltf.unit.to_metres(),
                z_up: gltf.up_axis == UpAxis::Z,
            });
            rigs.len() - 1
        }
    };
    Some(ClipSkin {
        rig,
        nodes: gltf.mapping.joint_nodes.clone(),
    })
}

fn level_of(file: &LevelFile) -> Result<(Level, LevelMesh), CliError> {
    let mut level = Level::new();
    let mut mesh = LevelMesh::default();
    for desc in &file.colliders {
        level.add(desc.clone()).map_err(input)?;
        mesh.add(desc);
    }
    Ok((level, mesh))
}

fn plain_source(
    file: Option<&Path>,
    import: &crate::ImportArgs,
    config: &CharacterConfig,
) -> Result<ClipSource, CliError> {
    let (name, imported) = import.load(file, Some(config.preprocess.rate_hz))?;
    let gltf = match file {
        Some(path) if is_gltf(path) => load_source_file(path, &import.options(None)?)
            .ok()
            .map(|(_, source)| source),
        _ => None,
    };
    let Imported {
        skeleton,
        clip,
        report,
    } = imported;
    Ok(ClipSource {
        name,
        travel: travel_direction(&skeleton, &clip),
        skeleton,
        clip,
        report,
        gltf,
        config: config.clone(),
        skin: None,
    })
}

fn onto_source(
    rig: &Path,
    file: Option<&Path>,
    import: &crate::ImportArgs,
    config: &CharacterConfig,
) -> Result<ClipSource, CliError> {
    let onto = load_onto(rig, file, None, &import.options(None)?).map_err(input)?;
    let name = format!(
        "{} onto {}",
        file.map_or(flinch::io::EMBEDDED_WALK_NAME.to_string(), |p| p
            .display()
            .to_string()),
        rig.display()
    );
    let retargeted = onto
        .retargeted()
        .map_err(|e| CliError::Input(format!("{name}: {e}")))?;
    let config = onto.performer_config(config);
    Ok(ClipSource {
        name,
        travel: travel_direction(&onto.target.skeleton, &retargeted.clip),
        skeleton: onto.target.skeleton,
        clip: retargeted.clip,
        report: onto.target.report,
        gltf: onto.gltf,
        config,
        skin: None,
    })
}
