//! `flinch eval`: simulate a clip's character (optionally hit it) and print tracking and recovery figures.

use std::path::PathBuf;

use flinch::control::{ControlTerms, EvalOptions, Hit, evaluate};
use nalgebra::Vector3;

use crate::{CliError, ImportArgs};

/// Arguments of `flinch eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The clip (.bvh, .gltf, .glb); the embedded CMU walk when omitted.
    file: Option<PathBuf>,
    /// Simulation rate in Hz (the reference is preprocessed at this rate; glTF clips are resampled at it).
    #[arg(long, default_value_t = 120.0)]
    rate: f64,
    /// A hit: BONE:TIME:IX,IY,IZ (impulse in N·s, world axes, at the bone body's centre of mass); BONE is a joint
    /// name, `role:NAME` (e.g. `role:right_forearm`) or a name read as a role; repeatable.
    #[arg(long, value_name = "BONE:TIME:IX,IY,IZ")]
    hit: Vec<String>,
    /// Character configuration (.json or .toml: model, preprocess, gains).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Apply the feedforward torques only (no feedback).
    #[arg(long, conflicts_with = "no_feedforward")]
    no_feedback: bool,
    /// Apply the feedback only (no feedforward torques).
    #[arg(long)]
    no_feedforward: bool,
    /// Simulate at most this many seconds.
    #[arg(long)]
    duration: Option<f64>,
    #[command(flatten)]
    import: ImportArgs,
}

/// Parses `BONE:TIME:IX,IY,IZ`.
fn parse_hit(s: &str) -> Result<Hit, CliError> {
    let bad =
        |why: &str| CliError::Input(format!("--hit '{s}': {why} (expected BONE:TIME:IX,IY,IZ)"));
    let mut parts = s.rsplitn(3, ':');
    let (Some(imp), Some(time), Some(bone)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad("three ':'-separated fields needed"));
    };
    let time: f64 = time
        .trim()
        .parse()
        .map_err(|_| bad("time is not a number"))?;
    let v: Vec<f64> = imp
        .split(',')
        .map(|c| c.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad("impulse components are not numbers"))?;
    if v.len() != 3 || !v.iter().all(|c| c.is_finite()) || !time.is_finite() || time < 0.0 {
        return Err(bad(
            "the impulse needs 3 finite components and the time must be ≥ 0",
        ));
    }
    Ok(Hit {
        bone: bone.to_string(),
        time,
        impulse: Vector3::new(v[0], v[1], v[2]),
        point: None,
    })
}

/// Runs `flinch eval`.
pub fn run(args: &EvalArgs) -> Result<(), CliError> {
    let hits = args
        .hit
        .iter()
        .map(|h| parse_hit(h))
        .collect::<Result<Vec<_>, _>>()?;
    let (name, mut character) =
        args.import
            .character(args.file.as_deref(), args.rate, args.config.as_deref())?;
    for hit in &hits {
        character
            .body_of_bone(&hit.bone)
            .map_err(|e| CliError::Input(format!("--hit: {e}")))?;
    }
    let model = character.model();
    println!(
        "{name}: {} bodies, {:.1} kg, {:.2} s at {} Hz ({} steps)",
        model.bodies.len(),
        model.total_mass(),
        character.reference().duration(),
        args.rate,
        character.reference().steps - 1
    );
    let options = EvalOptions {
        hits,
        terms: ControlTerms {
            feedforward: !args.no_feedforward,
            feedback: !args.no_feedback,
        },
        duration: args.duration,
    };
    let eval =
        evaluate(&mut character, &options).map_err(|e| CliError::Other(format!("{name}: {e}")))?;
    println!("{:<16} {:>10} {:>10}", "joint", "rms deg", "max deg");
    for j in &eval.joints {
        println!("{:<16} {:>10.5} {:>10.5}", j.name, j.rms_deg, j.max_deg);
    }
    if let Some(h) = &eval.hit {
        println!(
            "hit: peak {:.2} deg at {} (t = {:.3} s), {:.3} J injected",
            h.peak_deg, h.peak_joint, h.peak_time, h.energy_j
        );
    }
    for line in eval.figure_lines() {
        println!("{line}");
    }
    Ok(())
}
