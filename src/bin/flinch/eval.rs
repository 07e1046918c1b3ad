//! `flinch eval`: simulate a clip's character (optionally hit it) and print tracking and recovery figures.

use std::path::PathBuf;

use flinch::control::{Character, ControlTerms, EvalOptions, Hit, RootPolicy, evaluate};
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
    /// How the root moves: kinematic (on the clip), free (on its feet on the fitted floor) or assisted (free,
    /// helped toward the clip's root); the configuration's `root.policy` (default kinematic) when omitted. A free
    /// or assisted root prints the free-root figures and the ground fit; the clip needs both feet.
    #[arg(long, value_enum, value_name = "POLICY")]
    root: Option<RootArg>,
    #[command(flatten)]
    import: ImportArgs,
}

/// `--root`: the root policy.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum RootArg {
    /// The root follows the clip (the body hangs from it).
    Kinematic,
    /// A free root on the feet, no assist.
    Free,
    /// A free root with the assist toward the clip's root.
    Assisted,
    /// A free root balanced by its joints and feet alone (no external wrench).
    Balanced,
}

impl From<RootArg> for RootPolicy {
    fn from(r: RootArg) -> RootPolicy {
        match r {
            RootArg::Kinematic => RootPolicy::Kinematic,
            RootArg::Free => RootPolicy::Free,
            RootArg::Assisted => RootPolicy::Assisted,
            RootArg::Balanced => RootPolicy::Balanced,
        }
    }
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
    let mut config = args
        .import
        .character_config(args.rate, args.config.as_deref())?;
    if let Some(root) = args.root {
        config.root.policy = root.into();
    }
    let (name, mut character) = args.import.character_with(args.file.as_deref(), &config)?;
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
    let terms = ControlTerms {
        feedforward: !args.no_feedforward,
        feedback: !args.no_feedback,
    };
    if character.root_policy().is_free() {
        return run_free_root(&name, character, hits, terms, args.duration);
    }
    let options = EvalOptions {
        hits,
        terms,
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

/// `flinch eval --root free|assisted`: steps the free-root character over the clip (or `duration`), applying the
/// hits at their times, and prints the ground fit, the balance state events and the free-root figures.
fn run_free_root(
    name: &str,
    mut character: Character,
    mut hits: Vec<Hit>,
    terms: ControlTerms,
    duration: Option<f64>,
) -> Result<(), CliError> {
    let failed = |e: flinch::control::CharacterError| CliError::Other(format!("{name}: {e}"));
    let clip = character.reference().duration();
    let duration = match duration {
        None => clip,
        Some(d) if d.is_finite() && d > 0.0 => d.min(clip),
        Some(d) => {
            return Err(CliError::Input(format!(
                "--duration {d}: expected a positive number of seconds"
            )));
        }
    };
    character.set_control_terms(terms);
    let Some(ground) = character.ground() else {
        return Err(CliError::Other(format!(
            "{name}: the free root has no ground"
        )));
    };
    println!(
        "root: {}; floor {:.4} m, stance-foot height error {:.2} mm, {} sole points",
        character.root_policy().name(),
        ground.floor,
        ground.stance_height_error * 1e3,
        ground.point_count()
    );
    let (floor_m, stance_error_mm) = (ground.floor, ground.stance_height_error * 1e3);
    // Hits as `flinch eval` applies them on a kinematic root: at the body's centre of mass, spread over the
    // step that starts within half a step of their time.
    hits.sort_by(|a, b| a.time.total_cmp(&b.time));
    let mut next = 0;
    let mut apply_due = |c: &mut Character| {
        let h = c.step_size();
        while next < hits.len() && hits[next].time <= c.time() + 0.5 * h {
            let body = c.body_of_bone(&hits[next].bone)?;
            let point = c.world().body(body).position;
            c.apply_body_impulse(body, point, hits[next].impulse)?;
            next += 1;
        }
        Ok(())
    };
    apply_due(&mut character).map_err(failed)?;
    let figures = character
        .run_free_root(duration, &mut apply_due)
        .map_err(failed)?;
    println!(
        "{} steps, final state {}",
        figures.steps,
        character.root_state().name()
    );
    for e in character.root_events() {
        println!(
            "event t {:.3} s {} -> {}",
            e.time,
            e.from.name(),
            e.to.name()
        );
    }
    println!("figure floor_m {floor_m:.4} m");
    println!("figure stance_height_error_mm {stance_error_mm:.2} mm");
    for line in figures.figure_lines("") {
        println!("{line}");
    }
    Ok(())
}
