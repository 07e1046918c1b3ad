//! Penalty contact (Hasegawa et al., `ContactSolver::Penalty`) against the LCP (Lemke on the friction pyramid)
//! on the same scenes, in the same run: the box on a slope, the five-box stack, the stiff arm pressed on a box
//! (all at h = 1/60 s through `ContactWorld`), and the embedded walk character at 120 Hz with its root kinematic
//! and 8 foot–ground contacts (4 sole corners per foot, static ground fitted under the lowest corner every
//! step, handed with `Character::set_contacts`). Prints penetration (mm), slide (mm) and µs per step.
//! `cargo run --release --example penalty_contact` (add `sweep` to also sweep the spring period).

mod common;

use std::time::Instant;

use common::contact_runs::{box_on_slope_with, box_stack_with, stiff_contact_with};
use flinch::control::{Character, CharacterConfig};
use flinch::dynamics::{ContactOptions, ContactOther, ContactPoint, ContactSolver, PenaltyOptions};
use nalgebra::Vector3;

fn lcp() -> ContactOptions {
    ContactOptions::default()
}

fn penalty(p: PenaltyOptions) -> ContactOptions {
    ContactOptions {
        solver: ContactSolver::Penalty(p),
        ..ContactOptions::default()
    }
}

/// What the slope runs measured: sticking drift (mm, worst of 10°/20°/26°), sliding acceleration error (%,
/// worst of 27°/30°/40°), penetration (mm; worst, and after the first second), median step (µs).
fn slope(options: ContactOptions) -> (f64, f64, f64, f64, f64) {
    let mu: f64 = 0.5;
    let (mut drift, mut err, mut pen, mut us) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut settled = 0.0f64;
    for deg in [10.0, 20.0, 26.0, 27.0, 30.0, 40.0] {
        let run = box_on_slope_with(f64::to_radians(deg), mu, 10.0, options);
        if std::env::var_os("PENALTY_VERBOSE").is_some() {
            println!(
                "    {deg}°: travel {:.3} mm, settled penetration {:.3e} mm",
                run.travel * 1e3,
                run.settled_penetration * 1e3
            );
        }
        if deg < mu.atan().to_degrees() {
            drift = drift.max(run.travel.abs() * 1e3);
        } else {
            err = err.max(100.0 * (run.accel - run.analytic_accel).abs() / run.analytic_accel);
        }
        pen = pen.max(run.max_penetration * 1e3);
        settled = settled.max(run.settled_penetration * 1e3);
        us = us.max(run.median_step_us);
    }
    (drift, err, pen, settled, us)
}

/// The 4 sole corners of a foot body: the ends of its longest capsule, ± the radius across the foot, at the
/// capsule's underside (world).
fn sole_corners(c: &Character, foot: usize) -> [Vector3<f64>; 4] {
    let frame = c.body_frame(foot);
    let cap = c.model().bodies[foot]
        .capsules
        .iter()
        .max_by(|x, y| (x.b - x.a).norm().total_cmp(&(y.b - y.a).norm()))
        .expect("foot capsule");
    let (a, b) = ((frame * cap.a).coords, (frame * cap.b).coords);
    let along = Vector3::new(b.x - a.x, 0.0, b.z - a.z);
    let across = Vector3::y().cross(&along).normalize() * cap.radius;
    let down = Vector3::y() * cap.radius;
    [
        a + across - down,
        a - across - down,
        b + across - down,
        b - across - down,
    ]
}

/// What the character run measured.
struct CharacterRun {
    /// Deepest and mean penetration of the corners that carried load (mm).
    max_penetration: f64,
    mean_penetration: f64,
    /// Mean and largest tangential travel per step of a loaded corner (mm).
    mean_slide: f64,
    max_slide: f64,
    /// Median wall time of set_contacts + step (µs).
    median_us: f64,
    /// Loaded corner-steps.
    loaded: usize,
}

/// The embedded walk (h = 1/120 s, root kinematic) with 8 foot–ground contacts each step, `rounds` times.
fn character(options: ContactOptions, rounds: usize) -> CharacterRun {
    let mut times = Vec::new();
    let (mut max_pen, mut sum_pen, mut sum_slide, mut max_slide, mut loaded) =
        (0.0f64, 0.0, 0.0, 0.0f64, 0usize);
    for _ in 0..rounds {
        let imported = flinch::io::load_embedded_walk(&Default::default()).expect("walk");
        let mut c = Character::from_imported(imported, &CharacterConfig::default()).expect("walk");
        c.set_contact_options(options).expect("options");
        let feet: Vec<usize> = c
            .model()
            .bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.name.ends_with("Foot"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(feet.len(), 2, "two feet");
        let h = c.step_size();
        let mut set = Vec::with_capacity(8);
        while !c.finished() {
            let before: Vec<[Vector3<f64>; 4]> =
                feet.iter().map(|&f| sole_corners(&c, f)).collect();
            let ground = before
                .iter()
                .flatten()
                .map(|p| p.y)
                .fold(f64::INFINITY, f64::min);
            set.clear();
            for (&body, corners) in feet.iter().zip(&before) {
                for &point in corners {
                    set.push(ContactPoint {
                        body,
                        other: ContactOther::Static,
                        point,
                        other_point: Vector3::new(point.x, ground, point.z),
                        normal: Vector3::y(),
                        friction: 0.8,
                        restitution: 0.0,
                    });
                }
            }
            let t0 = Instant::now();
            c.set_contacts(&set, &[]).expect("contacts");
            c.step(h).expect("step");
            times.push(t0.elapsed().as_secs_f64() * 1e6);
            let impulses = c.world().contact_impulses();
            for (k, (&foot, corners)) in feet.iter().zip(&before).enumerate() {
                let after = sole_corners(&c, foot);
                for i in 0..4 {
                    if impulses[4 * k + i].normal <= 1e-9 {
                        continue;
                    }
                    let d = after[i] - corners[i];
                    let slide = Vector3::new(d.x, 0.0, d.z).norm() * 1e3;
                    let pen = (ground - after[i].y).max(0.0) * 1e3;
                    max_pen = max_pen.max(pen);
                    sum_pen += pen;
                    sum_slide += slide;
                    max_slide = max_slide.max(slide);
                    loaded += 1;
                }
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let n = loaded.max(1) as f64;
    CharacterRun {
        max_penetration: max_pen,
        mean_penetration: sum_pen / n,
        mean_slide: sum_slide / n,
        max_slide,
        median_us: times[times.len() / 2],
        loaded,
    }
}

fn main() {
    println!("{}", flinch::cpu_report());
    let sweep = std::env::args().any(|a| a == "sweep");
    let default = PenaltyOptions::default();
    println!(
        "penalty: period {} steps, damping ratio {}, friction damping {} m_t/h, mass through the joints; \
         'penalty/body': the same with the free bodies' mass; LCP: Lemke, 4-direction pyramid",
        default.period_steps, default.damping_ratio, default.friction_damping
    );
    let body_mass = PenaltyOptions {
        joint_mass: false,
        ..default
    };
    let solvers = [
        ("LCP", lcp()),
        ("penalty", penalty(default)),
        ("penalty/body", penalty(body_mass)),
    ];

    println!(
        "\nbox on a slope, μ = 0.5, 10 s at 1/60 s (drift: worst of 10°/20°/26°; accel: worst of 27°/30°/40°)"
    );
    let mut slope_rows = Vec::new();
    for (name, o) in solvers {
        let (drift, err, pen, settled, us) = slope(o);
        println!(
            "  {name:12} drift {drift:10.3e} mm, accel error {err:8.4} %, penetration {pen:9.3e} mm (after 1 s \
             {settled:9.3e} mm), {us:7.1} µs/step"
        );
        slope_rows.push((drift, err, pen, us));
    }

    println!("\nfive-box stack, 10 s at 1/60 s");
    let mut stack_rows = Vec::new();
    for (name, o) in solvers {
        let r = box_stack_with(5, 10.0, o);
        println!(
            "  {name:12} drift {:10.3e} mm (after 1 s {:9.3e} mm), penetration {:9.3e} mm (after 1 s {:9.3e} mm), \
             {:7.1} µs/step median ({} contacts)",
            r.max_drift * 1e3,
            r.settled_drift * 1e3,
            r.max_penetration * 1e3,
            r.settled_penetration * 1e3,
            r.median_step_us,
            r.max_contacts
        );
        stack_rows.push(r);
    }

    println!("\nstiff arm (drives 100×) pressed on a box, 5 s at 1/60 s");
    let mut stiff_rows = Vec::new();
    for (name, o) in solvers {
        let r = stiff_contact_with(100.0, 5.0, o);
        println!(
            "  {name:12} max speed {:.3} m/s, pressed speed {:9.3e} m/s, slide after 1 s {:9.3e} mm, \
             penetration {:9.3e} mm (pressed {:9.3e} mm), {:7.1} µs/step",
            r.max_speed,
            r.pressed_max_speed,
            r.pressed_slide * 1e3,
            r.max_penetration * 1e3,
            r.settled_penetration * 1e3,
            r.median_step_us
        );
        stiff_rows.push(r);
    }

    println!(
        "\nwalk character, 120 Hz, root kinematic, 8 sole corners on the ground (μ = 0.8), whole clip ×3"
    );
    let mut char_rows = Vec::new();
    for (name, o) in solvers {
        let r = character(o, 3);
        println!(
            "  {name:12} penetration max {:7.3} / mean {:7.4} mm, slide per step max {:7.3} / mean {:7.4} mm, \
             {:7.2} µs/step median ({} loaded corner-steps)",
            r.max_penetration, r.mean_penetration, r.max_slide, r.mean_slide, r.median_us, r.loaded
        );
        char_rows.push(r);
    }

    if sweep {
        println!("\nsweep of the spring period N (penalty; slope, stack, character ×1)");
        for n in [1.0, 2.0, 4.0, 8.0, 16.0] {
            let p = penalty(PenaltyOptions {
                period_steps: n,
                ..default
            });
            let (drift, err, pen, _, _) = slope(p);
            let s = box_stack_with(5, 10.0, p);
            let c = character(p, 1);
            println!(
                "  N = {n:4}: slope drift {drift:8.3} mm, accel err {err:7.3} %, penetration {pen:7.3} mm; stack drift \
                 {:7.3} mm, penetration {:7.3} mm; character penetration max {:7.3} / mean {:7.4} mm, slide mean {:7.4} mm",
                s.max_drift * 1e3,
                s.max_penetration * 1e3,
                c.max_penetration,
                c.mean_penetration,
                c.mean_slide
            );
        }
        for fd in [5.0, 20.0, 100.0] {
            let p = penalty(PenaltyOptions {
                friction_damping: fd,
                ..default
            });
            let (drift, err, _, _, _) = slope(p);
            let c = character(p, 1);
            println!(
                "  friction damping {fd:5}: slope drift {drift:8.3} mm, accel err {err:7.3} %; character slide mean {:7.4} mm",
                c.mean_slide
            );
        }
    }

    let (lcp_c, pen_c) = (&char_rows[0], &char_rows[1]);
    println!();
    println!("figure step_lcp8_us {:.2} us", lcp_c.median_us);
    println!("figure step_penalty8_us {:.2} us", pen_c.median_us);
    println!("figure lcp8_penetration_mm {:.4} mm", lcp_c.max_penetration);
    println!(
        "figure penalty8_penetration_mm {:.4} mm",
        pen_c.max_penetration
    );
    println!("figure lcp8_slide_mm {:.4} mm", lcp_c.mean_slide);
    println!("figure penalty8_slide_mm {:.4} mm", pen_c.mean_slide);
    println!("figure penalty_slope_drift_mm {:.3e} mm", slope_rows[1].0);
    println!(
        "figure penalty_slope_accel_err_pct {:.3} %",
        slope_rows[1].1
    );
    println!(
        "figure penalty_slope_penetration_mm {:.3} mm",
        slope_rows[1].2
    );
    println!(
        "figure penalty_stack_drift_mm {:.3} mm",
        stack_rows[1].max_drift * 1e3
    );
    println!(
        "figure penalty_stack_settled_drift_mm {:.3e} mm",
        stack_rows[1].settled_drift * 1e3
    );
    println!(
        "figure penalty_stack_settled_penetration_mm {:.3} mm",
        stack_rows[1].settled_penetration * 1e3
    );
    println!(
        "figure stack_lcp_step_us {:.1} us",
        stack_rows[0].median_step_us
    );
    println!(
        "figure stack_penalty_step_us {:.1} us",
        stack_rows[1].median_step_us
    );
    println!(
        "figure penalty_stiff_pressed_speed {:.3e} m/s",
        stiff_rows[1].pressed_max_speed
    );
    println!(
        "figure penalty_stiff_pressed_penetration_mm {:.3} mm",
        stiff_rows[1].settled_penetration * 1e3
    );
}
