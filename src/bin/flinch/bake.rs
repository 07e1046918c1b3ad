//! `flinch bake`: simulate clips with scripted hits and write the reacted motion (BVH, glTF, GLB), several
//! clips in parallel, one progress bar each, then a summary per clip.

use std::path::{Path, PathBuf};
use std::time::Instant;

use flinch::bake::{
    BakeError, BakeMode, BakeStage, Baked, HitScript, OutputFormat, OutputOptions, Readback,
    ReadbackLimits, bake_file_with,
};
use flinch::io::atomic::same_file;
use flinch::retarget::{Retargeted, bake_onto_with};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::{CliError, ImportArgs, interrupt};

/// Arguments of `flinch bake`.
#[derive(clap::Args, Debug)]
pub struct BakeArgs {
    /// Clips (.bvh, .gltf, .glb); the embedded CMU walk when none is given.
    inputs: Vec<PathBuf>,
    /// Output file (one input, with a .bvh/.gltf/.glb extension) or folder (`<stem>_reacted.<ext>` per input).
    #[arg(short, long, value_name = "OUT")]
    out: PathBuf,
    /// Scripted hits (JSON or TOML; see samples/hits.json). Without it the clips are baked unperturbed.
    #[arg(long, value_name = "FILE")]
    hits: Option<PathBuf>,
    /// Simulation rate in Hz.
    #[arg(long, default_value_t = 120.0)]
    rate: f64,
    /// Character configuration (.json or .toml: model, preprocess, gains).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Output format when OUT is a folder: bvh, gltf or glb (default: bvh for BVH inputs, glb otherwise).
    #[arg(long)]
    format: Option<String>,
    /// Write the simulated pose itself instead of the input clip with the simulated deviation layered on.
    #[arg(long)]
    simulated: bool,
    /// Clips baked at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Retarget the clips onto this character (.glb/.gltf keeps its meshes, skins and materials in the output;
    /// default output format glb) before simulating. See docs/retarget.md.
    #[arg(long, value_name = "CHARACTER")]
    onto: Option<PathBuf>,
    /// With --onto: the bone map override file (.json or .toml: [source]/[target] role = "bone", plant).
    #[arg(long, value_name = "FILE", requires = "onto")]
    map: Option<PathBuf>,
    /// Name of the reacted animation in glTF output (default: the clip's name + `_reacted`); the file's own
    /// animations are kept.
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Also write the unreacted (retargeted) clip as a second animation, `NAME_unreacted` (glTF output).
    #[arg(long)]
    keep_unreacted: bool,
    /// Fail when the file read back passes the limits: planted feet moved over 10 mm off their height in the
    /// source clip (95th percentile), a stance skating 10 mm more than in the source, limbs over 15 deg from the
    /// source on average, or a frame count or length other than the bake's.
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    import: ImportArgs,
}

/// One clip's job: where it comes from and where it goes.
struct Job {
    input: Option<PathBuf>,
    output: PathBuf,
}

/// What a finished job reports.
struct Done {
    name: String,
    output: PathBuf,
    frames: usize,
    simulated_s: f64,
    wall_s: f64,
    baked: Baked,
    /// The retarget, with `--onto`.
    retarget: Option<Retargeted>,
    /// The reacted animation's name in the file.
    animation: String,
    /// The file read back.
    readback: Readback,
}

/// The output path of each input.
fn plan(args: &BakeArgs) -> Result<Vec<Job>, CliError> {
    let inputs: Vec<Option<PathBuf>> = if args.inputs.is_empty() {
        vec![None]
    } else {
        args.inputs.iter().cloned().map(Some).collect()
    };
    let forced = match &args.format {
        Some(f) => Some(OutputFormat::from_name(f).ok_or_else(|| {
            CliError::Input(format!("--format '{f}': expected bvh, gltf or glb"))
        })?),
        None => None,
    };
    if inputs.len() == 1 && OutputFormat::from_path(&args.out).is_some() {
        return Ok(vec![Job {
            input: inputs[0].clone(),
            output: args.out.clone(),
        }]);
    }
    let mut jobs: Vec<Job> = Vec::with_capacity(inputs.len());
    for input in inputs {
        let (stem, is_bvh) = match &input {
            Some(p) => (
                p.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "clip".into()),
                p.extension().is_some_and(|e| e.eq_ignore_ascii_case("bvh")),
            ),
            None => ("cmu_02_01_walk".to_string(), true),
        };
        let format = forced.unwrap_or(if is_bvh && args.onto.is_none() {
            OutputFormat::Bvh
        } else {
            OutputFormat::Glb
        });
        let output = args
            .out
            .join(format!("{stem}_reacted.{}", format.extension()));
        if jobs.iter().any(|j| j.output == output) {
            return Err(CliError::Input(format!(
                "two inputs would both write {}; bake them into different folders",
                output.display()
            )));
        }
        jobs.push(Job { input, output });
    }
    // A clip's output must not be another clip's input (bake_file checks its own input).
    for job in &jobs {
        if let Some(input) = args.inputs.iter().find(|i| same_file(i, &job.output)) {
            return Err(CliError::Input(format!(
                "{}: refusing to overwrite the input file {}",
                job.output.display(),
                input.display()
            )));
        }
    }
    std::fs::create_dir_all(&args.out).map_err(|e| {
        CliError::Other(format!(
            "{}: cannot create the folder: {e}",
            args.out.display()
        ))
    })?;
    Ok(jobs)
}

/// Bakes one clip, reporting progress on `bar`.
fn run_job(
    args: &BakeArgs,
    script: &HitScript,
    job: &Job,
    bar: &ProgressBar,
    parallel_clips: usize,
) -> Result<Done, CliError> {
    let start = Instant::now();
    let mut config = args
        .import
        .character_config(args.rate, args.config.as_deref())?;
    if parallel_clips > 1 {
        // The clips already share the cores.
        config.preprocess.threads = Some(1);
    }
    let mode = if args.simulated {
        BakeMode::Simulated
    } else {
        BakeMode::Layered
    };
    let import = args.import.options(Some(args.rate))?;
    let progress = |stage| match stage {
        BakeStage::Preparing => bar.set_message("preprocessing"),
        BakeStage::Simulating(f) => {
            bar.set_message("simulating");
            bar.set_position((f * 1000.0) as u64)
        }
        BakeStage::Writing => bar.set_message("writing"),
    };
    let cli_error = |e| match e {
        BakeError::Write(m) => CliError::Other(m),
        e => CliError::Input(e.to_string()),
    };
    let options = OutputOptions {
        name: args.name.clone(),
        keep_unreacted: args.keep_unreacted,
    };
    let (baked, duration, retarget, animation, readback) = match &args.onto {
        Some(character) => {
            let s = bake_onto_with(
                character,
                job.input.as_deref(),
                args.map.as_deref(),
                &job.output,
                script,
                &config,
                &import,
                mode,
                &options,
                progress,
            )
            .map_err(cli_error)?;
            let r = Some(s.retargeted);
            (s.baked, s.duration, r, s.animation, s.readback)
        }
        None => {
            let s = bake_file_with(
                job.input.as_deref(),
                &job.output,
                script,
                &config,
                &import,
                mode,
                &options,
                progress,
            )
            .map_err(cli_error)?;
            (s.baked, s.duration, None, s.animation, s.readback)
        }
    };
    bar.finish_with_message("done");
    Ok(Done {
        name: display_name(job.input.as_deref()),
        output: job.output.clone(),
        frames: baked.clip.frames.len(),
        simulated_s: duration,
        wall_s: start.elapsed().as_secs_f64(),
        baked,
        retarget,
        animation,
        readback,
    })
}

/// Prints one clip's summary.
fn print_summary(d: &Done) {
    println!(
        "{} -> {}: {} frames, {:.2} s simulated in {:.2} s ({:.0}x real time), {} steps",
        d.name,
        d.output.display(),
        d.frames,
        d.simulated_s,
        d.wall_s,
        d.simulated_s / d.wall_s.max(1e-9),
        d.baked.steps
    );
    if let Some(r) = &d.retarget {
        let f = &r.figures;
        println!(
            "  retargeted: leg ratio {:.3}, foot skate {:.2} mm, penetration {:.2} mm, root path {:.2} %, limb directions {:.2} deg",
            r.leg_ratio,
            f.foot_skate_mm,
            f.foot_penetration_mm,
            f.root_path_err_pct,
            f.limb_dir_err_deg
        );
    }
    for h in &d.baked.scaled {
        println!(
            "  body-relative hit {} (x{:.3}): {}",
            h.index, h.factor, h.text
        );
    }
    for e in &d.baked.events {
        let source = if e.ball.is_some() { "ball" } else { "impulse" };
        println!(
            "  {source} hit {} at {:.3} s: {:.3} N·s, {:.2} J",
            e.bone,
            e.time,
            e.impulse.norm(),
            e.energy_j
        );
    }
    print_readback(d);
    let ev = &d.baked.evaluation;
    match &ev.hit {
        Some(h) => println!(
            "  peak deviation {:.2} deg at {} (t = {:.3} s), back within 2 deg after {}, max joint gap {:.2e} mm",
            h.peak_deg,
            h.peak_joint,
            h.peak_time,
            h.return_s
                .map_or("never (before the clip ends)".to_string(), |r| format!(
                    "{r:.3} s"
                )),
            ev.max_joint_gap_mm
        ),
        None => println!(
            "  unperturbed: tracking {:.2e} deg rms, max joint gap {:.2e} mm",
            ev.track_rms_deg, ev.max_joint_gap_mm
        ),
    }
}

/// Prints what the file holds, read back: its animation, length and frames, the feet per stance and the limbs.
fn print_readback(d: &Done) {
    let r = &d.readback;
    println!(
        "  read back '{}': {} frames, {:.3} s; planted feet {:.2} mm from the floor (95th pct; median {:+.2} mm), skate max {:.2} mm over {} stances, limbs {:.2} deg from the source; added by the bake: {:.2} mm height, {:.2} mm skate",
        d.animation,
        r.frames,
        r.duration_s,
        r.foot_height_p95_mm,
        r.foot_height_median_mm,
        r.skate_mm,
        r.stances.len(),
        r.limb_dir_deg,
        r.added_foot_height_p95_mm,
        r.added_skate_mm
    );
    for s in &r.stances {
        println!(
            "    {:5} stance {:6.3}-{:6.3} s: skate {:6.2} mm ({:.2} in the source), height {:6.2} mm (95th pct)",
            s.side, s.start_s, s.end_s, s.skate_mm, s.source_skate_mm, s.height_p95_mm
        );
    }
}

/// Runs `flinch bake`.
pub fn run(args: &BakeArgs) -> Result<(), CliError> {
    let script = match &args.hits {
        Some(path) => HitScript::from_file(path).map_err(|e| CliError::Input(e.to_string()))?,
        None => HitScript::default(),
    };
    let jobs = plan(args)?;
    interrupt::install();
    let threads = args.jobs.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Other(format!("cannot start the worker threads: {e}")))?;
    let parallel = pool.current_num_threads().min(jobs.len());
    let bars = MultiProgress::new();
    let style = ProgressStyle::with_template("{prefix:>24} [{bar:30}] {percent:>3}% {msg}")
        .map_err(|e| CliError::Other(e.to_string()))?
        .progress_chars("=> ");
    let start = Instant::now();
    let results: Vec<Result<Done, CliError>> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let bar = bars.add(ProgressBar::new(1000).with_style(style.clone()));
                bar.set_prefix(display_name(job.input.as_deref()));
                let r = run_job(args, &script, job, &bar, parallel);
                if r.is_err() {
                    bar.abandon_with_message("failed");
                }
                r
            })
            .collect()
    });
    let wall = start.elapsed().as_secs_f64();
    let mut failures = Vec::new();
    let mut simulated = 0.0;
    let limits = ReadbackLimits::default();
    let mut over_limits = Vec::new();
    for r in results {
        match r {
            Ok(done) => {
                print_summary(&done);
                simulated += done.simulated_s;
                if args.check {
                    over_limits.extend(done.readback.failures(&limits));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    println!(
        "{} of {} clips baked, {:.2} s of motion in {:.2} s",
        jobs.len() - failures.len(),
        jobs.len(),
        simulated,
        wall
    );
    println!("figure bake_wall_s {wall:.3} s");
    println!(
        "figure bake_realtime_factor {:.1} x",
        simulated / wall.max(1e-9)
    );
    if !over_limits.is_empty() {
        failures.push(CliError::Other(format!(
            "--check: the files read back pass the limits: {}",
            over_limits.join("; ")
        )));
    }
    match failures.len() {
        0 => Ok(()),
        1 => Err(failures.remove(0)),
        n => {
            let all: Vec<String> = failures
                .into_iter()
                .map(|e| match e {
                    CliError::Input(m) | CliError::Other(m) => m,
                })
                .collect();
            Err(CliError::Other(format!(
                "{n} clips failed: {}",
                all.join("; ")
            )))
        }
    }
}

fn display_name(input: Option<&Path>) -> String {
    input
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cmu_02_01_walk (embedded)".into())
}
