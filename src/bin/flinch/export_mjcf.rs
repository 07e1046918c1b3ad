//! `flinch export-mjcf`: the character as MuJoCo XML plus the reference motion and flinch's inverse-dynamics forces
//! in MuJoCo's generalized coordinates (see `docs/mjcf.md`).

use std::path::PathBuf;

use flinch::control::RootPolicy;
use flinch::export::{ExportError, MjcfFloor, write_mjcf_with};

use crate::{CliError, ImportArgs};

/// Arguments of `flinch export-mjcf`.
#[derive(clap::Args, Debug)]
pub struct ExportMjcfArgs {
    /// The clip (.bvh, .gltf, .glb, .urdf); the embedded CMU walk when omitted.
    file: Option<PathBuf>,
    /// Output directory (created if missing): character.xml, reference.csv, export.json.
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// Reference rate in Hz (the MuJoCo timestep is 1/rate; glTF clips are resampled at it).
    #[arg(long, default_value_t = 120.0)]
    rate: f64,
    /// Character configuration (.json or .toml: model, preprocess, gains).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Stand the character on its fitted floor with MuJoCo's contacts on (the free root's floor, friction and
    /// lift), every joint a passive spring-damper toward the rest pose (N·m/rad, damping a tenth): the free-root
    /// case of benches/vs_mujoco.py. The clip needs both feet.
    #[arg(long, value_name = "STIFFNESS")]
    floor: Option<f64>,
    #[command(flatten)]
    import: ImportArgs,
}

/// Runs `flinch export-mjcf`.
pub fn run(args: &ExportMjcfArgs) -> Result<(), CliError> {
    let (name, mut character) =
        args.import
            .character(args.file.as_deref(), args.rate, args.config.as_deref())?;
    let floor = match args.floor {
        None => None,
        Some(k) if !(k.is_finite() && k >= 0.0) => {
            return Err(CliError::Input(format!(
                "--floor {k}: the joint stiffness must be finite and >= 0"
            )));
        }
        Some(k) => {
            if !character.root_policy().is_free() {
                character
                    .set_root_policy(RootPolicy::Assisted)
                    .map_err(|e| CliError::Input(format!("{name}: --floor: {e}")))?;
            }
            let ground = character
                .ground()
                .ok_or_else(|| CliError::Input(format!("{name}: --floor: no ground")))?;
            Some(MjcfFloor {
                height: ground.floor,
                friction: character.prepared().root_config().ground.friction,
                root_lift: ground.lift.first().copied().unwrap_or(0.0),
                joint_stiffness: k,
                joint_damping: 0.1 * k,
            })
        }
    };
    let (model, reference) = (character.model(), character.reference());
    let files =
        write_mjcf_with(model, reference, &args.output, floor.as_ref()).map_err(|e| match e {
            ExportError::Invalid { .. } => CliError::Input(format!("{name}: {e}")),
            ExportError::Io { .. } => CliError::Other(e.to_string()),
        })?;
    let layout = &files.layout;
    println!(
        "{name}: {} bodies, {:.1} kg, {:.2} s at {} Hz ({} samples), nq {} nv {}, max |qfrc| {:.1}",
        layout.bodies(),
        model.total_mass(),
        reference.duration(),
        args.rate,
        files.steps,
        layout.nq(),
        layout.nv(),
        files.max_qfrc
    );
    if !layout.is_index_order() {
        println!(
            "note: MuJoCo's body order differs from flinch's; the CSV follows MuJoCo's (see export.json)"
        );
    }
    for path in [&files.character, &files.reference, &files.meta] {
        println!("wrote {}", path.display());
    }
    Ok(())
}
