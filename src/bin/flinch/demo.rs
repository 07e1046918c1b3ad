//! `flinch demo`: the embedded CMU walk hit on the right forearm by a ball at 1 s; writes the reacted motion (BVH,
//! GLB), a filmstrip and a deviation plot, and prints the figures; then the knock-down scene (`knockdown.rs`).

use std::path::{Path, PathBuf};

use flinch::bake::{BakeMode, Baked, HitScript, ScriptedHit, WriteSource, bake, write_baked};
use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::math::rotation_distance;
use flinch::render::{
    Color, FilmFrame, FilmstripOptions, LinePlot, Series, StickFigure, ViewAxis, filmstrip,
    line_plot,
};
use flinch::scene::KnockdownHit;
use flinch::skeleton::{Clip, Skeleton};
use nalgebra::Vector3;

use crate::CliError;
use crate::knockdown::Knockdown;
use crate::stick::{stick_figure_of, walking_direction};

/// The bone the demo hits, when and how hard (a 0.45 kg ball at 15 m/s: 6.75 N·s).
const BONE: &str = "RightForeArm";
const HIT_TIME: f64 = 1.0;
const SPEED: f64 = 15.0;

/// Arguments of `flinch demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Output folder (created).
    #[arg(long, default_value = "demo_out")]
    out: PathBuf,
    /// Hit with the ball's 6.75 N·s as a scripted impulse at the forearm's centre of mass instead of a ball.
    #[arg(long)]
    impulse: bool,
    /// Skip the knock-down scene (free roots on the floor) that follows the hit above.
    #[arg(long)]
    no_knockdown: bool,
    /// Skip the world scene (the sample level: knock-downs into its wall, stairs and ledge, a bat, bullets).
    #[arg(long)]
    no_world: bool,
    /// Knock-down scene: mass of the heavy ball into the chest (kg).
    #[arg(long, value_name = "KG", default_value_t = KnockdownHit::heavy().mass)]
    knockdown_mass: f64,
    /// Knock-down scene: speed of the heavy ball at arrival (m/s).
    #[arg(long, value_name = "M/S", default_value_t = KnockdownHit::heavy().speed)]
    knockdown_speed: f64,
    /// Knock-down scene: simulated time of the heavy ball's run (s); the default covers the fall, the rest and
    /// the get-up.
    #[arg(long, value_name = "S", default_value_t = 7.0)]
    knockdown_duration: f64,
}

/// The skeleton of one frame as a stick figure (world positions of the joints, bones parent → child).
fn stick_figure(skeleton: &Skeleton, clip: &Clip, frame: usize) -> StickFigure {
    stick_figure_of(skeleton, &clip.frames[frame].world_transforms(skeleton))
}

/// Per joint and input frame: the angle (degrees) between the input clip's and the baked clip's rotation.
fn joint_deviation_series(
    skeleton: &Skeleton,
    input: &Clip,
    baked: &Clip,
) -> Vec<(String, Vec<(f64, f64)>)> {
    skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| {
            let points = input
                .frames
                .iter()
                .zip(&baked.frames)
                .enumerate()
                .map(|(f, (a, b))| {
                    (
                        f as f64 * input.frame_time,
                        rotation_distance(&a.rotations[j], &b.rotations[j]).to_degrees(),
                    )
                })
                .collect();
            (joint.name.clone(), points)
        })
        .collect()
}

fn write_pictures(
    dir: &Path,
    skeleton: &Skeleton,
    input: &Clip,
    baked: &Baked,
    hit_time: f64,
) -> Result<Vec<PathBuf>, CliError> {
    let frame_of = |t: f64| ((t / input.frame_time).round() as usize).min(input.frames.len() - 1);
    let hit_frame = frame_of(hit_time);
    let frames: Vec<FilmFrame> = (0..11)
        .map(|i| {
            let t = hit_time - 0.1 + 0.1 * i as f64;
            let f = frame_of(t);
            FilmFrame {
                time: f as f64 * input.frame_time,
                layers: vec![
                    (stick_figure(skeleton, input, f), Color::BLUE),
                    (stick_figure(skeleton, &baked.clip, f), Color::RED),
                ],
                highlight: f.abs_diff(hit_frame) < (0.05 / input.frame_time) as usize,
            }
        })
        .collect();
    let travel = walking_direction(input, skeleton);
    let side = ViewAxis::Auto;
    let front = if travel.z.abs() >= travel.x.abs() {
        if travel.z > 0.0 {
            ViewAxis::MinusZ
        } else {
            ViewAxis::PlusZ
        }
    } else if travel.x > 0.0 {
        ViewAxis::MinusX
    } else {
        ViewAxis::PlusX
    };
    let mut strips = Vec::new();
    for (view, name, label) in [
        (side, "demo_filmstrip.png", "side view"),
        (front, "demo_filmstrip_front.png", "front view"),
    ] {
        let strip = filmstrip(
            &frames,
            &FilmstripOptions {
                title: format!(
                    "CMU 02_01 walk, a ball hits the right forearm at {hit_time:.2} s ({label}, every 0.1 s)"
                ),
                legend: vec![
                    ("clip".into(), Color::BLUE),
                    ("simulated (flinch)".into(), Color::RED),
                ],
                view,
                ..Default::default()
            },
        )
        .map_err(|e| CliError::Other(format!("filmstrip: {e}")))?;
        let path = dir.join(name);
        strip
            .write_png(&path)
            .map_err(|e| CliError::Other(format!("{}: {e}", path.display())))?;
        strips.push(path);
    }
    let mut per_joint = joint_deviation_series(skeleton, input, &baked.clip);
    let peak = |s: &(String, Vec<(f64, f64)>)| s.1.iter().map(|p| p.1).fold(0.0, f64::max);
    per_joint.sort_by(|a, b| peak(b).total_cmp(&peak(a)));
    let series = per_joint
        .into_iter()
        .take(5)
        .zip(Color::PALETTE)
        .map(|((name, points), color)| Series {
            name,
            color,
            points,
        })
        .collect();
    let plot = line_plot(&LinePlot {
        title: "Joint deviation from the clip (the five largest)".into(),
        x_label: "time (s)".into(),
        y_label: "deviation (deg)".into(),
        series,
        markers: vec![(hit_time, "ball hit".into())],
        ..Default::default()
    })
    .map_err(|e| CliError::Other(format!("deviation plot: {e}")))?;
    let plot_path = dir.join("demo_deviation.png");
    plot.write_png(&plot_path)
        .map_err(|e| CliError::Other(format!("{}: {e}", plot_path.display())))?;
    strips.push(plot_path);
    Ok(strips)
}

/// Runs `flinch demo`.
pub fn run(args: &DemoArgs) -> Result<(), CliError> {
    let knockdown = Knockdown {
        mass: args.knockdown_mass,
        speed: args.knockdown_speed,
        duration: args.knockdown_duration,
    };
    if !args.no_knockdown {
        knockdown.validate()?;
    }
    let imported = load_embedded_walk(&ImportOptions::default())
        .map_err(|e| CliError::Other(format!("embedded walk: {e}")))?;
    let report = imported.report.clone();
    let character = Character::from_imported(imported, &CharacterConfig::default())
        .map_err(|e| CliError::Other(format!("embedded walk: {e}")))?;
    let skeleton = character.skeleton().clone();
    let input = character.clip().clone();
    // Across the walk, from the walker's right side onto the outside of the right forearm (up × forward: +X on
    // this clip, flinch eval's hit).
    let velocity = SPEED * Vector3::y().cross(&walking_direction(&input, &skeleton));
    let script = if args.impulse {
        HitScript::impulse(BONE, HIT_TIME, velocity * 0.45)
    } else {
        HitScript {
            hits: vec![ScriptedHit::AimedBall {
                bone: BONE.into(),
                arrival: HIT_TIME,
                velocity: velocity.into(),
                radius: 0.11,
                mass: 0.45,
                flight: 0.2,
            }],
            restitution: 0.0,
            ..HitScript::default()
        }
    };
    println!(
        "{}: {} bodies, {:.1} kg, {:.2} s at 120 Hz; {} at {BONE}, {HIT_TIME} s",
        flinch::io::EMBEDDED_WALK_NAME,
        character.model().bodies.len(),
        character.model().total_mass(),
        character.reference().duration(),
        if args.impulse {
            "a 6.75 N·s impulse"
        } else {
            "a 0.45 kg ball at 15 m/s"
        }
    );
    let baked = bake(character, &script, BakeMode::Layered, |_| {})
        .map_err(|e| CliError::Other(format!("demo: {e}")))?;
    std::fs::create_dir_all(&args.out).map_err(|e| {
        CliError::Other(format!(
            "{}: cannot create the folder: {e}",
            args.out.display()
        ))
    })?;
    let mut written = Vec::new();
    for name in ["demo_reacted.bvh", "demo_reacted.glb"] {
        let path = args.out.join(name);
        write_baked(
            &path,
            &skeleton,
            &baked.clip,
            WriteSource {
                report: &report,
                gltf: None,
            },
        )
        .map_err(CliError::Other)?;
        written.push(path);
    }
    let hit_time = baked.events.first().map_or(HIT_TIME, |e| e.time);
    written.extend(write_pictures(
        &args.out, &skeleton, &input, &baked, hit_time,
    )?);
    for e in &baked.events {
        println!(
            "{} hit {} at {:.3} s: {:.3} N·s, {:.2} J",
            if e.ball.is_some() { "ball" } else { "impulse" },
            e.bone,
            e.time,
            e.impulse.norm(),
            e.energy_j
        );
    }
    for path in &written {
        println!("wrote {}", path.display());
    }
    if let Some(e) = baked.events.first() {
        // Every contact of the ball with the body it struck first: the momentum it transferred to that limb.
        let total = flinch::scene::impulse_on_body(&baked.events, e.character, e.body);
        println!("figure hit_impulse_ns {:.3} N*s", total.norm());
        println!("figure hit_first_contact_ns {:.3} N*s", e.impulse.norm());
    }
    for line in baked.evaluation.figure_lines() {
        println!("{line}");
    }
    if !args.no_knockdown {
        crate::knockdown::run(&args.out, &knockdown)?;
    }
    if !args.no_world {
        crate::world::run(&args.out)?;
    }
    Ok(())
}
