//! A character step with ground contacts (issue 6): the CMU walk character (19 bodies, h = 1/120 s) with 8
//! contact points on its feet against a ground plane fitted under the lowest of them every step (so one point
//! touches and the others close their gaps), friction μ = 0.8, Lemke on the 4-direction pyramid; beside the
//! same character's step without contacts and with penalty contact (`ContactSolver::Penalty`, no LCP), in the
//! same run. `cargo bench --bench contact_step`.
//!
//! Goal (issue 6): ≤ 20 µs per step with 8 contacts.

#[path = "../examples/common/mod.rs"]
mod common;

use std::time::Instant;

use common::worlds::quantile;
use flinch::control::{Character, CharacterConfig};
use flinch::dynamics::{ContactOptions, ContactOther, ContactPoint, ContactSolver, PenaltyOptions};
use nalgebra::Vector3;

/// The feet's contact points: both ends of the lowest side of every foot and toe capsule (world).
fn foot_points(c: &Character, feet: &[usize]) -> Vec<(usize, Vector3<f64>)> {
    let mut out = Vec::new();
    for &b in feet {
        let frame = c.body_frame(b);
        for cap in &c.model().bodies[b].capsules {
            for end in [cap.a, cap.b] {
                let p = (frame * end).coords - Vector3::y() * cap.radius;
                out.push((b, p));
            }
        }
    }
    out
}

fn contacts(c: &Character, feet: &[usize]) -> Vec<ContactPoint> {
    let pts = foot_points(c, feet);
    let ground = pts.iter().map(|(_, p)| p.y).fold(f64::INFINITY, f64::min);
    pts.iter()
        .map(|&(body, point)| ContactPoint {
            body,
            other: ContactOther::Static,
            point,
            other_point: Vector3::new(point.x, ground, point.z),
            normal: Vector3::y(),
            friction: 0.8,
            restitution: 0.0,
        })
        .collect()
}

fn run(solver: ContactSolver, with_contacts: bool) -> (f64, f64, usize, usize) {
    let mut times = Vec::new();
    let (mut points, mut lcp) = (0, 0);
    for _ in 0..3 {
        let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
        let mut c = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
        c.set_contact_options(ContactOptions {
            solver,
            ..ContactOptions::default()
        })
        .unwrap();
        let feet: Vec<usize> = c
            .model()
            .bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.name.contains("Foot") || b.name.contains("Toe"))
            .map(|(i, _)| i)
            .collect();
        let h = c.step_size();
        while !c.finished() {
            let set = contacts(&c, &feet);
            let t0 = Instant::now();
            if with_contacts {
                c.set_contacts(&set, &[]).unwrap();
            }
            let r = c.step(h).unwrap();
            times.push(t0.elapsed().as_secs_f64() * 1e6);
            points = points.max(r.contacts.contacts);
            lcp = lcp.max(r.contacts.lcp_size);
        }
    }
    let median = quantile(&mut times, 0.5);
    let p90 = quantile(&mut times, 0.9);
    (median, p90, points, lcp)
}

/// The assisted free root (issue 11): the character finds its own foot contacts (sole points near the fitted
/// floor) and steps with the root assist; median µs over the steps with the most foot contacts (both feet down),
/// and over all.
fn run_assisted() -> (f64, f64, usize, usize) {
    let mut by_count: Vec<Vec<f64>> = vec![Vec::new(); 64];
    let mut all = Vec::new();
    for _ in 0..3 {
        let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
        let mut config = CharacterConfig::default();
        config.root.policy = flinch::control::RootPolicy::Assisted;
        let mut c = Character::from_imported(imported, &config).unwrap();
        let h = c.step_size();
        while !c.finished() {
            let t0 = Instant::now();
            let r = c.step(h).unwrap();
            let us = t0.elapsed().as_secs_f64() * 1e6;
            all.push(us);
            by_count[r.contacts.contacts.min(63)].push(us);
        }
    }
    let most = by_count.iter().rposition(|v| !v.is_empty()).unwrap_or(0);
    let n = by_count[most].len();
    (
        quantile(&mut by_count[most], 0.5),
        quantile(&mut all, 0.5),
        most,
        n,
    )
}

fn main() {
    println!("{}", flinch::cpu_report());
    let (free, free90, _, _) = run(ContactSolver::Lemke, false);
    let (lemke, lemke90, n, size) = run(ContactSolver::Lemke, true);
    let pgs_solver = ContactSolver::Pgs {
        max_sweeps: 50,
        tolerance: 1e-6,
    };
    let (pgs, pgs90, _, pgs_size) = run(pgs_solver, true);
    let (penalty, penalty90, _, _) = run(ContactSolver::Penalty(PenaltyOptions::default()), true);
    println!("character step, CMU walk, 19 bodies, h = 1/120 s (median / 90th percentile µs):");
    println!("  no contacts            {free:8.2} / {free90:8.2}");
    println!("  {n} contacts, Lemke     {lemke:8.2} / {lemke90:8.2} (LCP size {size})");
    println!("  {n} contacts, PGS       {pgs:8.2} / {pgs90:8.2} (LCP size {pgs_size})");
    println!("  {n} contacts, penalty   {penalty:8.2} / {penalty90:8.2} (no LCP)");
    println!("figure character_step_8_contacts_us {lemke:.2} us");
    println!("figure character_step_8_contacts_penalty_us {penalty:.2} us");
    println!("figure character_step_8_contacts_pgs_us {pgs:.2} us");
    println!("figure character_step_no_contacts_us {free:.2} us");
    let (most_us, assisted, most, n) = run_assisted();
    println!(
        "  assisted free root (PGS): {most} foot contacts {most_us:8.2} ({n} steps); all steps {assisted:8.2}"
    );
    println!("figure assisted_step_most_contacts {most}");
    println!("figure assisted_step_most_contacts_us {most_us:.2} us");
    println!("figure assisted_step_us {assisted:.2} us");
}
