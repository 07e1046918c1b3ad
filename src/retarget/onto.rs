//! `flinch bake --onto`: a clip file retargeted onto a character file, simulated with its hits, and written as
//! the character's own file (a glTF keeps its meshes, skins and materials; the animations become the reacted
//! motion). Also the map listing of `flinch inspect --onto`.

use std::path::Path;

use super::chains::Tree;
use super::hit_scale;
use super::map::{Correspondence, MapFile};
use super::{RetargetOptions, Retargeted, performer_config, retarget};
use crate::bake::{
    BakeError, BakeMode, BakeStage, Baked, HitScript, LimbRef, OutputOptions, Readback,
    ReadbackPlan, ScriptedHit, WriteSource, bake, check_keep_unreacted,
    clip_name as file_clip_name, directions, froude, scale_hits, write_and_read_back,
};
use crate::control::{Character, CharacterConfig};
use crate::io::gltf_export::{GltfSource, load_source_file};
use crate::io::gltf_import::GltfImportError;
use crate::io::{Format, ImportError, ImportOptions, Imported, load_embedded_walk, load_file};
use crate::skeleton::Skeleton;
use crate::skeleton::rest_height;
use crate::skeleton::roles::resolve_bone;

/// What `flinch bake --onto` did.
#[derive(Debug, Clone)]
pub struct OntoSummary {
    /// The retarget (the clip on the character, its figures).
    pub retargeted: Retargeted,
    /// The bake of the retargeted clip.
    pub baked: Baked,
    /// Seconds of motion simulated.
    pub duration: f64,
    /// The reacted animation's name in the file.
    pub animation: String,
    /// The written file read back and measured (limb directions against the source clip).
    pub readback: Readback,
}

/// A loaded retarget job: the clip, the character (with its glTF document when it is one) and the map.
pub struct Onto {
    /// The clip (a leading cgspeed T-pose frame dropped).
    pub source: Imported,
    /// The character.
    pub target: Imported,
    /// The character's glTF document, kept for the output.
    pub gltf: Option<GltfSource>,
    /// The correspondence.
    pub map: Correspondence,
    /// Its retarget tree.
    pub tree: Tree,
}

impl Onto {
    /// The clip retargeted onto the character with the default options.
    pub fn retargeted(&self) -> Result<Retargeted, super::RetargetError> {
        retarget(
            &self.source.skeleton,
            &self.source.clip,
            &self.target.skeleton,
            &self.map,
            &RetargetOptions::default(),
        )
    }

    /// `config` for the character as the performer's body ([`performer_config`]).
    pub fn performer_config(&self, config: &CharacterConfig) -> CharacterConfig {
        performer_config(
            &self.source.skeleton,
            &self.target.skeleton,
            &self.tree,
            config,
        )
    }
}

fn read_error(e: ImportError) -> BakeError {
    match e {
        ImportError::Read { .. } => BakeError::Read(e.to_string()),
        e => BakeError::Input(e.to_string()),
    }
}

/// Loads the character (`.glb`/`.gltf` keeps its document; `.bvh`/`.urdf` too as plain skeletons), the clip
/// (the embedded CMU walk when `None`) and the map file, and builds the correspondence.
pub fn load_onto(
    character: &Path,
    clip: Option<&Path>,
    map_file: Option<&Path>,
    import: &ImportOptions,
) -> Result<Onto, BakeError> {
    let is_gltf =
        Format::from_path(character).is_some_and(|f| matches!(f, Format::Gltf | Format::Glb));
    let character_opts = ImportOptions::default();
    let (target, gltf) = if is_gltf {
        let (imported, source) =
            load_source_file(character, &character_opts).map_err(|e| match e {
                GltfImportError::Io { .. } => BakeError::Read(e.to_string()),
                e => BakeError::Input(e.to_string()),
            })?;
        (imported, Some(source))
    } else {
        (
            load_file(character, &character_opts).map_err(read_error)?,
            None,
        )
    };
    let mut source = match clip {
        Some(path) => load_file(path, import).map_err(read_error)?,
        None => load_embedded_walk(import).map_err(|e| BakeError::Input(e.to_string()))?,
    };
    source.drop_leading_tpose();
    let file = match map_file {
        Some(p) => Some(MapFile::from_file(p).map_err(|e| BakeError::Input(e.to_string()))?),
        None => None,
    };
    let map =
        Correspondence::build(&source.skeleton, &target.skeleton, file.as_ref()).map_err(|e| {
            BakeError::Input(format!(
                "{} onto {}: {e}",
                clip_name(clip),
                character.display()
            ))
        })?;
    let tree = Tree::build(&source.skeleton, &target.skeleton, &map)
        .map_err(|e| BakeError::Input(e.to_string()))?;
    Ok(Onto {
        source,
        target,
        gltf,
        map,
        tree,
    })
}

fn clip_name(clip: Option<&Path>) -> String {
    clip.map_or("the embedded walk".into(), |p| p.display().to_string())
}

/// A hit naming a bone the character lacks but the clip has is moved to the character's joint playing that
/// bone's role, so one hits file serves the clip and the character.
fn translate_hits(script: &HitScript, onto: &Onto) -> HitScript {
    let rename = |bone: &String| -> String {
        if onto.target.skeleton.find(bone).is_some() {
            return bone.clone();
        }
        let Some(j) = onto.source.skeleton.find(bone) else {
            return bone.clone();
        };
        onto.tree
            .keys
            .iter()
            .find(|k| k.source == j)
            .map_or(bone.clone(), |k| {
                onto.target.skeleton.joints[k.target].name.clone()
            })
    };
    let mut out = script.clone();
    for hit in &mut out.hits {
        match hit {
            ScriptedHit::Impulse { bone, .. } | ScriptedHit::AimedBall { bone, .. } => {
                *bone = rename(bone)
            }
            ScriptedHit::Ball { .. } => {}
        }
    }
    out
}

/// The read-back plan of a retarget: the target's feet over the stances the retarget planted, above the floor its
/// rest pose stands on, and its limbs against the source clip's (the same key bones, joint to the next key down).
fn onto_plan(onto: &Onto, retargeted: &super::Retargeted) -> ReadbackPlan {
    let mut plan = ReadbackPlan::new(&onto.target.skeleton, &retargeted.clip);
    // The floor is where the character's rest pose stands, not where the retargeted clip put its feet.
    plan.floor_y = 0.0;
    for foot in &mut plan.feet {
        let role = format!("{}_foot", foot.side);
        if let Some(e) = retargeted.effectors.iter().find(|e| e.role == role) {
            foot.stance = e.stance.clone();
        }
    }
    let source_world: Vec<_> = onto
        .source
        .clip
        .frames
        .iter()
        .map(|p| p.world_transforms(&onto.source.skeleton))
        .collect();
    let mut limbs = Vec::new();
    for side in ["left", "right"] {
        for (bone, next) in [
            ("upper_arm", "forearm"),
            ("forearm", "hand"),
            ("thigh", "shin"),
            ("shin", "foot"),
        ] {
            let (Some(k), Some(n)) = (
                retargeted.tree.key(&format!("{side}_{bone}")),
                retargeted.tree.key(&format!("{side}_{next}")),
            ) else {
                continue;
            };
            limbs.push(LimbRef {
                role: k.role.clone(),
                joint: k.target,
                tip: n.target,
                reference: directions(&source_world, k.source, n.source),
            });
        }
    }
    plan.limbs = limbs;
    plan
}

/// Retargets `clip` onto `character`, bakes it with `script` and writes `output` (format by extension; a glTF
/// character written as glTF keeps its document and animations, the reacted clip added): [`bake_onto_with`]
/// with the default [`OutputOptions`].
#[allow(clippy::too_many_arguments)]
pub fn bake_onto(
    character: &Path,
    clip: Option<&Path>,
    map_file: Option<&Path>,
    output: &Path,
    script: &HitScript,
    config: &CharacterConfig,
    import: &ImportOptions,
    mode: BakeMode,
    progress: impl FnMut(BakeStage),
) -> Result<OntoSummary, BakeError> {
    let options = OutputOptions::default();
    bake_onto_with(
        character, clip, map_file, output, script, config, import, mode, &options, progress,
    )
}

/// Retargets `clip` onto `character`, bakes it with `script` and writes `output` (format by extension; a glTF
/// character written as glTF keeps its document and animations, the reacted clip named per `options` added,
/// and with `keep_unreacted` the retargeted clip too). The file is read back and measured
/// ([`OntoSummary::readback`]). Errors name the files; nothing is written on failure.
#[allow(clippy::too_many_arguments)]
pub fn bake_onto_with(
    character: &Path,
    clip: Option<&Path>,
    map_file: Option<&Path>,
    output: &Path,
    script: &HitScript,
    config: &CharacterConfig,
    import: &ImportOptions,
    mode: BakeMode,
    options: &OutputOptions,
    mut progress: impl FnMut(BakeStage),
) -> Result<OntoSummary, BakeError> {
    // Neither input may be overwritten: the character's own file is the likeliest mistake.
    crate::bake::check_output(Some(character), output)?;
    crate::bake::check_output(clip, output)?;
    check_keep_unreacted(output, options).map_err(BakeError::Write)?;
    progress(BakeStage::Preparing);
    let onto = load_onto(character, clip, map_file, import)?;
    let retargeted = onto
        .retargeted()
        .map_err(|e| BakeError::Input(format!("{}: {e}", clip_name(clip))))?;
    let script = translate_hits(script, &onto);
    let name = character.display().to_string();
    let in_file = |e: BakeError| BakeError::Clip {
        file: name.clone(),
        source: Box::new(e),
    };
    let user_config = config;
    let config = onto.performer_config(config);
    let character = Character::new(
        onto.target.skeleton.clone(),
        retargeted.clip.clone(),
        &config,
    )
    .map_err(|e| in_file(e.into()))?;
    // Body-relative hits are stated for the reference performer (1.75 m, 70 kg): Froude's factor takes them to
    // the clip's performer (whose mass the character carries), the lever ratio of the bone hit (hit_scale) from
    // the performer's segment to the character's, so the blow turns it as it turns the performer's; a free
    // ball scales by the size alone.
    let size = retargeted.leg_ratio;
    let (performer, _) = froude(
        character.model().total_mass(),
        rest_height(&onto.source.skeleton),
    );
    let (script, scaled) = scale_hits(&script, size, |hit| {
        let bone = match hit {
            ScriptedHit::Impulse { bone, .. } | ScriptedHit::AimedBall { bone, .. } => bone,
            ScriptedHit::Ball { .. } => return performer * size.sqrt(),
        };
        resolve_bone(&onto.target.skeleton, bone)
            .ok()
            .and_then(|j| {
                let name = &onto.target.skeleton.joints[j].name;
                hit_scale(
                    &onto.source.skeleton,
                    &onto.target.skeleton,
                    &onto.tree,
                    user_config,
                    name,
                )
            })
            .unwrap_or(size.sqrt())
            * performer
    })
    .map_err(BakeError::Script)?;
    let duration = character.reference().duration();
    let mut baked = bake(character, &script, mode, |f| {
        progress(BakeStage::Simulating(f))
    })
    .map_err(in_file)?;
    baked.scaled = scaled;
    progress(BakeStage::Writing);
    let source = WriteSource {
        report: &onto.target.report,
        gltf: onto.gltf.as_ref(),
    };
    let plan = onto_plan(&onto, &retargeted);
    let written = write_and_read_back(
        output,
        &onto.target.skeleton,
        &baked.clip,
        &retargeted.clip,
        &file_clip_name(clip, None),
        options,
        source,
        &ImportOptions::default(),
        &plan,
    )
    .map_err(BakeError::Write)?;
    Ok(OntoSummary {
        retargeted,
        baked,
        duration,
        animation: written.animation,
        readback: written.readback,
    })
}

/// The correspondence as text: one line per key (role, source joints → target joints of its chain).
pub fn map_text(source: &Skeleton, target: &Skeleton, tree: &Tree) -> String {
    let names = |sk: &Skeleton, chain: &[usize]| {
        chain
            .iter()
            .map(|&j| sk.joints[j].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    for key in &tree.keys {
        out += &format!(
            "  {:16} {:32} -> {}{}\n",
            key.role,
            names(source, &key.source_chain),
            names(target, &key.target_chain),
            if key.target_attached {
                " (attached: not below its parent key)"
            } else {
                ""
            }
        );
    }
    let mapped: std::collections::BTreeSet<usize> = tree
        .keys
        .iter()
        .flat_map(|k| k.target_chain.iter().copied())
        .collect();
    let rest: Vec<&str> = (0..target.len())
        .filter(|j| !mapped.contains(j))
        .map(|j| target.joints[j].name.as_str())
        .collect();
    out += &format!("  kept at rest ({}): {}\n", rest.len(), rest.join(", "));
    out
}
