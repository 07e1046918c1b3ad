//! `flinch demo`'s knock-down scene (issue 11): two assisted free-root characters of the embedded walk on the
//! fitted floor. One takes the demo's ball on the forearm and stays up; the other takes a heavy ball into the
//! chest, falls, goes limp, comes to rest and gets up. Prints the balance state events and both runs' figures,
//! and writes a filmstrip of the fall.

use std::path::Path;
use std::sync::Arc;

use flinch::control::{Character, CharacterConfig, PreparedClip, RootEvent, RootPolicy, RootState};
use flinch::io::{EMBEDDED_WALK_NAME, ImportOptions, load_embedded_walk};
use flinch::render::{Color, FilmFrame, FilmstripOptions, StickFigure, ViewAxis, filmstrip};
use flinch::scene::{KnockdownFigures, KnockdownHit, run_knockdown};
use nalgebra::Vector3;

use crate::CliError;
use crate::stick::{stick_figure_of, walking_direction};

/// Simulated time of the small ball's run (s): the hit at 1 s and its return to the clip (≈ 0.7 s later) with
/// margin (the `knockdown` example's length).
const SMALL_DURATION: f64 = 2.8;
/// Time between the fall filmstrip's frames (s).
const FRAME_STEP: f64 = 0.25;
/// The filmstrip goes on this long after the last state event (s), to show the pose the character settled in.
const TAIL: f64 = 0.5;
/// Output file of the fall filmstrip.
const FILMSTRIP: &str = "demo_knockdown_filmstrip.png";

/// The heavy ball of the scene and how long its run lasts (`flinch demo`'s `--knockdown-*` options).
#[derive(Debug, Clone, Copy)]
pub struct Knockdown {
    /// Ball mass (kg).
    pub mass: f64,
    /// Ball speed at arrival (m/s).
    pub speed: f64,
    /// Simulated time of the heavy ball's run (s).
    pub duration: f64,
}

impl Knockdown {
    /// The heavy hit: [`KnockdownHit::heavy`] (chest, t = 1 s, from the front) with this mass and speed.
    pub fn hit(&self) -> KnockdownHit {
        KnockdownHit {
            mass: self.mass,
            speed: self.speed,
            ..KnockdownHit::heavy()
        }
    }

    /// Checks the options before anything is simulated, so a typo costs no waiting.
    pub fn validate(&self) -> Result<(), CliError> {
        let hit_time = KnockdownHit::heavy().time;
        for (flag, value, unit) in [
            ("--knockdown-mass", self.mass, "kg"),
            ("--knockdown-speed", self.speed, "m/s"),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(CliError::Input(format!(
                    "{flag} {value}: expected a positive number ({unit})"
                )));
            }
        }
        if !(self.duration.is_finite() && self.duration > hit_time) {
            return Err(CliError::Input(format!(
                "--knockdown-duration {}: expected a number of seconds after the hit at {hit_time} s",
                self.duration
            )));
        }
        Ok(())
    }
}

/// Prints a run's balance state events, one line each.
fn print_events(events: &[RootEvent]) {
    for e in events {
        println!("{e}");
    }
}

/// The camera looking across the walk (the walk points right on screen), so that a fall forward or backward is
/// seen in profile.
fn side_view(travel: &Vector3<f64>) -> ViewAxis {
    if travel.z.abs() >= travel.x.abs() {
        if travel.z > 0.0 {
            ViewAxis::PlusX
        } else {
            ViewAxis::MinusX
        }
    } else if travel.x > 0.0 {
        ViewAxis::MinusZ
    } else {
        ViewAxis::PlusZ
    }
}

/// What happened after the hit, for the filmstrip's title: "falls at 1.72 s, rests at 3.89 s, …".
fn story(events: &[RootEvent]) -> String {
    let parts: Vec<String> = events
        .iter()
        .filter_map(|e| {
            let what = match (e.from, e.to) {
                (_, RootState::Staggering) => "staggers",
                (_, RootState::Falling) => "falls",
                (_, RootState::Resting) => "rests",
                (_, RootState::GettingUp) => "gets up",
                (RootState::GettingUp, RootState::Tracking) => "back on the clip",
                (RootState::Staggering, RootState::Tracking) => "recovers",
                _ => return None,
            };
            Some(format!("{what} at {:.2} s", e.time))
        })
        .collect();
    if parts.is_empty() {
        "no state change".into()
    } else {
        parts.join(", ")
    }
}

/// Writes the filmstrip of the heavy hit: the poses sampled during the run (`(time, figure)`, every
/// [`FRAME_STEP`]) from one frame before the hit until [`TAIL`] after the last state event. Each slot is centred on
/// the character's root, so the camera follows it wherever it walked and fell.
fn write_fall_filmstrip(
    path: &Path,
    poses: Vec<(f64, StickFigure)>,
    hit: &KnockdownHit,
    figures: &KnockdownFigures,
    view: ViewAxis,
    floor: f64,
) -> Result<(), CliError> {
    let start = hit.time - FRAME_STEP - 1e-6;
    let end = figures.events.last().map_or(hit.time, |e| e.time) + TAIL;
    let frames: Vec<FilmFrame> = poses
        .into_iter()
        .filter(|(t, _)| (start..=end).contains(t))
        .map(|(time, figure)| FilmFrame {
            time,
            layers: vec![(figure, Color::RED)],
            highlight: (time - hit.time).abs() < 0.5 * FRAME_STEP,
        })
        .collect();
    let strip = filmstrip(
        &frames,
        &FilmstripOptions {
            title: format!(
                "CMU 02_01 walk, assisted free root: a {} kg ball at {} m/s into the chest at {:.2} s; {} (side \
                 view, every {FRAME_STEP} s)",
                hit.mass,
                hit.speed,
                hit.time,
                story(&figures.events)
            ),
            legend: vec![("simulated (flinch)".into(), Color::RED)],
            view,
            // Lying poses are as wide as the character is tall: a smaller scale keeps the strip readable.
            pixels_per_metre: 90.0,
            ground_height: Some(floor),
            ..Default::default()
        },
    )
    .map_err(|e| CliError::Other(format!("knock-down filmstrip: {e}")))?;
    strip
        .write_png(path)
        .map_err(|e| CliError::Other(format!("{}: {e}", path.display())))
}

/// Runs the knock-down scene and writes its filmstrip into `out` (which exists).
pub fn run(out: &Path, scene: &Knockdown) -> Result<(), CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Other(format!("knock-down scene: {e}"));
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let imported = load_embedded_walk(&ImportOptions::default()).map_err(|e| failed(&e))?;
    // Both characters share one prepared clip (model, reference, ground): it is preprocessed once.
    let prepared =
        Arc::new(PreparedClip::from_imported(imported, &config).map_err(|e| failed(&e))?);
    let floor = prepared.ground().map_err(|e| failed(&e))?.floor;
    let heavy = scene.hit();
    let small = KnockdownHit::small();
    println!(
        "knockdown: {EMBEDDED_WALK_NAME}, assisted free root on the fitted floor ({floor:.4} m); the demo's \
         ball ({} kg at {} m/s on {} at {} s), then a {} kg ball at {} m/s into the chest ({}) at {} s",
        small.mass,
        small.speed,
        small.bone,
        small.time,
        heavy.mass,
        heavy.speed,
        heavy.bone,
        heavy.time
    );

    let f = run_knockdown(
        Character::from_prepared(Arc::clone(&prepared)),
        &small,
        SMALL_DURATION,
        |_| {},
    )
    .map_err(|e| failed(&e))?;
    println!(
        "small ball: {:.3} N·s, {}",
        f.impulse_ns,
        if f.fell { "falls" } else { "stays up" }
    );
    print_events(&f.events);
    for line in f.figure_lines("knockdown_small_") {
        println!("{line}");
    }

    let skeleton = prepared.skeleton().clone();
    let mut poses: Vec<(f64, StickFigure)> = Vec::new();
    let mut sampled: Option<usize> = None;
    let f = run_knockdown(
        Character::from_prepared(Arc::clone(&prepared)),
        &heavy,
        scene.duration,
        |c| {
            // The first step at or after each multiple of the frame step (the world clock is a sum of steps).
            let k = (c.time() / FRAME_STEP + 1e-6).floor() as usize;
            if sampled != Some(k) {
                sampled = Some(k);
                poses.push((c.time(), stick_figure_of(&skeleton, &c.world_transforms())));
            }
        },
    )
    .map_err(|e| failed(&e))?;
    println!(
        "heavy ball: {:.3} N·s, {}",
        f.impulse_ns,
        if f.fell { "falls" } else { "stays up" }
    );
    print_events(&f.events);
    let view = side_view(&walking_direction(prepared.clip(), &skeleton));
    let path = out.join(FILMSTRIP);
    write_fall_filmstrip(&path, poses, &heavy, &f, view, floor)?;
    println!("wrote {}", path.display());
    for line in f.figure_lines("knockdown_") {
        println!("{line}");
    }
    Ok(())
}
