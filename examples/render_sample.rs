//! Draws the two kinds of `flinch::render` pictures from synthetic data, to look at them:
//! `<target>/experiments/render_filmstrip.png` (a walking stick figure, reference and a "hit" variant leaning
//! back) and `<target>/experiments/render_plot.png` (sin t and a decaying deviation with a hit marker).
//!
//! `cargo run --example render_sample`

use std::f64::consts::PI;
use std::path::PathBuf;

use flinch::render::{
    Color, FilmFrame, FilmstripOptions, LinePlot, Series, StickFigure, filmstrip, line_plot,
};
use nalgebra::{Rotation3, Vector3};

/// The output folder: `$CARGO_TARGET_DIR/experiments` or `target/experiments` (as the other examples).
fn out_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("experiments")
}

/// A walker at time `t` moving along +Z at 1.2 m/s; `lean` tilts the upper body backwards (radians).
fn walker(t: f64, lean: f64) -> StickFigure {
    let phase = 2.0 * PI * t / 1.1;
    let pelvis = Vector3::new(0.0, 0.95 + 0.02 * (2.0 * phase).cos(), 1.2 * t);
    let tilt = Rotation3::from_axis_angle(&Vector3::x_axis(), -lean);
    let up = |v: Vector3<f64>| pelvis + tilt * v;
    let (chest, neck, head) = (
        up(Vector3::new(0.0, 0.3, 0.0)),
        up(Vector3::new(0.0, 0.5, 0.0)),
        up(Vector3::new(0.0, 0.72, 0.02)),
    );
    let mut segments = vec![[pelvis, chest], [chest, neck], [neck, head]];
    let mut joints = vec![pelvis, chest, neck, head];
    for side in [1.0, -1.0] {
        let swing = 0.45 * (phase + if side > 0.0 { 0.0 } else { PI }).sin();
        let knee_bend = 0.5 * (0.5 + 0.5 * (phase + if side > 0.0 { 0.6 } else { PI + 0.6 }).sin());
        let thigh = Rotation3::from_axis_angle(&Vector3::x_axis(), -swing);
        let shin = thigh * Rotation3::from_axis_angle(&Vector3::x_axis(), knee_bend);
        let hip = pelvis + Vector3::new(0.09 * side, 0.0, 0.0);
        let knee = hip + thigh * Vector3::new(0.0, -0.45, 0.0);
        let ankle = knee + shin * Vector3::new(0.0, -0.43, 0.0);
        let toe = ankle + Vector3::new(0.0, -0.05, 0.15);
        let arm = Rotation3::from_axis_angle(&Vector3::x_axis(), 0.6 * swing);
        let shoulder = neck + tilt * Vector3::new(0.17 * side, -0.05, 0.0);
        let elbow = shoulder + tilt * (arm * Vector3::new(0.0, -0.3, 0.0));
        let hand = elbow + tilt * (arm * Vector3::new(0.0, -0.25, 0.12));
        segments.extend([[pelvis, hip], [hip, knee], [knee, ankle], [ankle, toe]]);
        segments.extend([[neck, shoulder], [shoulder, elbow], [elbow, hand]]);
        joints.extend([hip, knee, ankle, shoulder, elbow]);
    }
    StickFigure { segments, joints }
}

/// The reaction to a hit at `hit` s: a backwards lean that rises and decays (radians).
fn reaction(t: f64, hit: f64) -> f64 {
    let s = t - hit;
    if s <= 0.0 {
        0.0
    } else {
        0.9 * s / 0.15 * (1.0 - s / 0.15).exp()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = out_dir();
    std::fs::create_dir_all(&dir)?;
    let hit = 0.5;
    let reference = Color::rgb(120, 150, 200);
    let simulated = Color::RED;
    let frames: Vec<FilmFrame> = (3..=12)
        .map(|k| {
            let t = k as f64 * 0.1;
            FilmFrame {
                time: t,
                layers: vec![
                    (walker(t, 0.0), reference),
                    (walker(t, reaction(t, hit)), simulated),
                ],
                highlight: (t - hit).abs() < 1e-9,
            }
        })
        .collect();
    let opts = FilmstripOptions {
        title: "Hit at 0.50 s: reference and simulated character, every 0.1 s".into(),
        legend: vec![
            ("reference (clip)".into(), reference),
            ("simulated".into(), simulated),
        ],
        ..FilmstripOptions::default()
    };
    let strip = dir.join("render_filmstrip.png");
    filmstrip(&frames, &opts)?.write_png(&strip)?;

    let ts: Vec<f64> = (0..=400).map(|i| i as f64 * 2.0 * PI / 400.0).collect();
    let plot = LinePlot {
        title: "sin t and a deviation after a hit".into(),
        x_label: "time (s)".into(),
        y_label: "deviation (°)".into(),
        series: vec![
            Series {
                name: "sin t".into(),
                color: Color::BLUE,
                points: ts.iter().map(|&t| (t, t.sin())).collect(),
            },
            Series {
                name: "trunk".into(),
                color: Color::RED,
                points: ts
                    .iter()
                    .map(|&t| (t, 1.6 * reaction(t / 6.0, 0.5)))
                    .collect(),
            },
        ],
        markers: vec![(3.0, "hit 3.00 s".into())],
        ..LinePlot::default()
    };
    let plot_path = dir.join("render_plot.png");
    line_plot(&plot)?.write_png(&plot_path)?;
    println!("{}\n{}", strip.display(), plot_path.display());
    Ok(())
}
