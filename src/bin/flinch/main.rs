//! The `flinch` command-line tool.
//!
//! Exit status: 0 on success, 2 on bad input or usage (a one-line error on stderr that names the file and the
//! place in it), 1 on any other failure.

mod bake;
mod demo;
mod eval;
mod export_mjcf;
mod inspect;
mod interrupt;
mod knockdown;
mod onto;
mod stick;
mod view;
mod world;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Physics-driven mocap middleware.
#[derive(Parser)]
#[command(name = "flinch", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options shared by every command that reads a clip.
#[derive(clap::Args, Clone, Debug)]
struct ImportArgs {
    /// Source length unit (m, dm, cm, mm, in, cmu-asf, or a factor to metres); inferred when omitted.
    #[arg(long)]
    unit: Option<String>,
    /// Source up axis (y or z); detected when omitted.
    #[arg(long)]
    up: Option<String>,
    /// glTF: the animation to import, by name or index (default: the first).
    #[arg(long)]
    anim: Option<String>,
    /// Drop a detected leading T-pose reference frame (cgspeed CMU files).
    #[arg(long)]
    drop_tpose: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Print a file's joint tree, channels, frames, inferred unit and up axis, height and warnings.
    Inspect {
        /// The file (.bvh, .gltf, .glb, .urdf); the embedded CMU walk when omitted.
        file: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also build the physical model and print its bodies, masses and total mass.
        #[arg(long)]
        model: bool,
        /// Model build configuration (.json or .toml); implies --model.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// glTF: resampling rate in frames per second.
        #[arg(long)]
        rate: Option<f64>,
        /// Print the retarget map of the file (the clip) onto this character instead (see docs/retarget.md).
        #[arg(long, value_name = "CHARACTER")]
        onto: Option<PathBuf>,
        /// With --onto: the bone map override file (.json or .toml).
        #[arg(long, value_name = "FILE", requires = "onto")]
        map: Option<PathBuf>,
        #[command(flatten)]
        import: ImportArgs,
    },
    /// Simulate a clip's character, optionally hit it, and print tracking and recovery figures.
    Eval(eval::EvalArgs),
    /// The demo: the embedded walk hit by a ball; reacted motion (BVH, GLB), filmstrip and deviation plot (PNG);
    /// then a knock-down scene (free roots on the floor: a small and a heavy ball, a filmstrip of the fall).
    Demo(demo::DemoArgs),
    /// Simulate clips with scripted hits and write the reacted motion (BVH, glTF, GLB).
    Bake(bake::BakeArgs),
    /// Write the character as MuJoCo XML plus the reference motion and inverse-dynamics forces (CSV).
    ExportMjcf(export_mjcf::ExportMjcfArgs),
    /// A live viewer in the browser: a local server that runs the simulation and streams it to a page where the
    /// characters are hit, thrown at and dragged (see docs/view.md).
    View(view::ViewArgs),
}

/// A failure the CLI reports: usage/input errors exit with 2, the rest with 1.
pub enum CliError {
    /// Bad input or usage.
    Input(String),
    /// Anything else (e.g. cannot write output).
    Other(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Inspect {
            file,
            rate,
            onto: Some(character),
            map,
            import,
            ..
        } => onto::run(file.as_deref(), &character, map.as_deref(), &import, rate),
        Command::Inspect {
            file,
            json,
            model,
            config,
            rate,
            import,
            ..
        } => inspect::run(
            file.as_deref(),
            json,
            model || config.is_some(),
            config.as_deref(),
            &import,
            rate,
        ),
        Command::Eval(args) => eval::run(&args),
        Command::Bake(args) => bake::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::ExportMjcf(args) => export_mjcf::run(&args),
        Command::View(args) => view::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Input(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(CliError::Other(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(1)
        }
    }
}

impl ImportArgs {
    /// The library's import options (glTF resampled at `sample_rate`), or a usage error.
    fn options(&self, sample_rate: Option<f64>) -> Result<flinch::io::ImportOptions, CliError> {
        let unit = match &self.unit {
            None => None,
            Some(u) => Some(flinch::io::LengthUnit::parse(u).ok_or_else(|| {
                CliError::Input(format!(
                    "--unit '{u}': expected m, dm, cm, mm, in, cmu-asf or a positive factor"
                ))
            })?),
        };
        let up_axis = match self.up.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None => None,
            Some("y") => Some(flinch::io::UpAxis::Y),
            Some("z") => Some(flinch::io::UpAxis::Z),
            Some(other) => return Err(CliError::Input(format!("--up '{other}': expected y or z"))),
        };
        if let Some(r) = sample_rate
            && !(r.is_finite() && r > 0.0)
        {
            return Err(CliError::Input(format!(
                "--rate {r}: expected a positive number of frames per second"
            )));
        }
        Ok(flinch::io::ImportOptions {
            unit,
            up_axis,
            drop_leading_tpose: self.drop_tpose,
            animation: self.anim.clone(),
            sample_rate,
            limits: flinch::io::Limits::DEFAULT,
        })
    }

    /// Builds the character of `file` (the embedded walk when `None`) simulated at `rate` Hz, with the character
    /// configuration in `config` (defaults when `None`): its display name and the character.
    fn character(
        &self,
        file: Option<&std::path::Path>,
        rate: f64,
        config: Option<&std::path::Path>,
    ) -> Result<(String, flinch::control::Character), CliError> {
        let config = self.character_config(rate, config)?;
        self.character_with(file, &config)
    }

    /// Builds the character of `file` (the embedded walk when `None`) with `config` (simulated at its
    /// `preprocess.rate_hz`): its display name and the character. A configuration the clip cannot satisfy (e.g. a
    /// free root on a clip without feet) is an input error.
    fn character_with(
        &self,
        file: Option<&std::path::Path>,
        config: &flinch::control::CharacterConfig,
    ) -> Result<(String, flinch::control::Character), CliError> {
        let (name, imported) = self.load(file, Some(config.preprocess.rate_hz))?;
        let character = flinch::control::Character::from_imported(imported, config)
            .map_err(|e| CliError::Input(format!("{name}: {e}")))?;
        Ok((name, character))
    }

    /// The character configuration of `config` (defaults when `None`) simulated at `rate` Hz.
    fn character_config(
        &self,
        rate: f64,
        config: Option<&std::path::Path>,
    ) -> Result<flinch::control::CharacterConfig, CliError> {
        if !(rate.is_finite() && rate > 0.0) {
            return Err(CliError::Input(format!(
                "--rate {rate}: expected a positive rate in Hz"
            )));
        }
        let mut config = match config {
            Some(path) => flinch::control::CharacterConfig::from_file(path)
                .map_err(|e| CliError::Input(e.to_string()))?,
            None => flinch::control::CharacterConfig::default(),
        };
        config.preprocess.rate_hz = rate;
        Ok(config)
    }

    /// Loads `file` (the embedded CMU walk when `None`): its display name and the import.
    fn load(
        &self,
        file: Option<&std::path::Path>,
        sample_rate: Option<f64>,
    ) -> Result<(String, flinch::io::Imported), CliError> {
        let opts = self.options(sample_rate)?;
        let (name, loaded) = match file {
            Some(path) => (
                path.display().to_string(),
                flinch::io::load_file(path, &opts),
            ),
            None => (
                flinch::io::EMBEDDED_WALK_NAME.to_string(),
                flinch::io::load_embedded_walk(&opts),
            ),
        };
        Ok((name, loaded.map_err(|e| CliError::Input(e.to_string()))?))
    }
}
