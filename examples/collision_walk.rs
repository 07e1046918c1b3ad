//! Collision detection cost on the CMU walk: its 19 bodies' capsules against the ground plane y = 0, one
//! detection per reference step (persistent manifolds, ε = 1 mm), repeated over the clip.
//!
//! `cargo run --release --example collision_walk` prints `figure collision_us_walk_ground <value> us`.

use std::time::Instant;

use flinch::contact::collision::{Collider, CollisionWorld, PairFilter, Shape};
use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, load_embedded_walk};
use nalgebra::{Isometry3, Translation3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", flinch::cpu_report());
    let imported = load_embedded_walk(&ImportOptions::default())?;
    let character = Character::from_imported(imported, &CharacterConfig::default())?;
    let model = character.model();
    let reference = character.reference();
    let mut colliders = vec![Collider::new(None, Shape::ground(0.0)).with_groups(1, u32::MAX)];
    colliders.extend(Collider::from_model(model, 0, 2, 1));
    let filter = PairFilter::from_model(model, 0);
    // Body frames of every reference step, computed once (the figure is detection only).
    let mut kin = Vec::new();
    let poses: Vec<Vec<Isometry3<f64>>> = (0..reference.steps)
        .map(|k| {
            reference.kinematics(k, &mut kin);
            kin.iter()
                .map(|b| Isometry3::from_parts(Translation3::from(b.origin), b.rotation))
                .collect()
        })
        .collect();
    let mut world = CollisionWorld::new();
    let mut contacts = Vec::new();
    let (mut total, mut calls) = (0usize, 0usize);
    let rounds = 20;
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let start = Instant::now();
        for frames in &poses {
            world.detect_into(frames, &colliders, &filter, 1e-3, &mut contacts)?;
            total += contacts.len();
            calls += 1;
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / poses.len() as f64;
        best = best.min(us);
    }
    println!(
        "{} bodies, {} capsules vs ground, {} steps x {rounds} rounds, {:.2} contacts/step",
        model.bodies.len(),
        colliders.len() - 1,
        poses.len(),
        total as f64 / calls as f64
    );
    println!("figure collision_us_walk_ground {best:.2} us");
    Ok(())
}
