//! Issue 39's `push_recovery` on the balanced walk (and on the assisted one: the `assisted_` figures): chest
//! impulses of 20–120 N·s (steps of 10) at t = 1 s from the front, the back and both sides of the CMU walk, each on
//! a fresh character of one prepared clip, run up to 3 s after the push within the clip (2.84 s). Prints, per
//! direction, the largest impulse it survives (every smaller one survived too; no `Falling`), with the
//! capture-point stepping on (`root.balance.stepping`, the default) and off, and `stepping_gain` (with / without,
//! the smallest over the four directions). `cargo run --release --example push_recovery`

use std::sync::Arc;

use flinch::control::{Character, CharacterConfig, PreparedClip, RootPolicy, RootState};
use flinch::io::{ImportOptions, load_embedded_walk};
use nalgebra::Vector3;

const PUSH_TIME: f64 = 1.0;
const AFTER_S: f64 = 3.0;

/// Whether a fresh character of `prepared` falls after `impulse` N·s on its chest along `direction` (unit).
fn falls(
    prepared: &Arc<PreparedClip>,
    direction: Vector3<f64>,
    impulse: f64,
) -> Result<bool, Box<dyn std::error::Error>> {
    let mut c = Character::from_prepared(Arc::clone(prepared));
    let h = c.step_size();
    while c.time() < PUSH_TIME - 1e-9 {
        c.step(h)?;
    }
    let chest = c.body_of_bone("role:chest")?;
    let at = c.world().body(chest).position;
    c.apply_impulse("role:chest", at, direction * impulse)?;
    // Up to 3 s after the push, within the clip (the balanced walk run past its clip falls on its own at 3.8 s).
    let end = (c.time() + AFTER_S).min(c.reference().duration());
    while c.time() < end - 1e-9 {
        c.step(h)?;
        if c.root_state() == RootState::Falling {
            return Ok(true);
        }
    }
    Ok(false)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let imported = load_embedded_walk(&ImportOptions::default())?;
    for (policy, prefix) in [
        (RootPolicy::Balanced, ""),
        (RootPolicy::Assisted, "assisted_"),
    ] {
        sweep(&imported, policy, prefix)?;
    }
    Ok(())
}

/// The sweep of one root policy, stepping on and off; prints its figures with `prefix`.
fn sweep(
    imported: &flinch::io::Imported,
    policy: RootPolicy,
    prefix: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut rows = Vec::new();
    for stepping in [true, false] {
        let mut config = CharacterConfig::default();
        config.root.policy = policy;
        config.root.balance.stepping = stepping;
        let prepared = Arc::new(PreparedClip::from_imported(imported.clone(), &config)?);
        // The walk's heading at the push, from the clip's root path.
        let probe = Character::from_prepared(Arc::clone(&prepared));
        let (a, b) = (
            probe.root_target(PUSH_TIME - 0.25).0,
            probe.root_target(PUSH_TIME + 0.25).0,
        );
        let forward = Vector3::new(b.x - a.x, 0.0, b.z - a.z).normalize();
        let left = Vector3::y().cross(&forward);
        let mut survived = Vec::new();
        for (name, direction) in [
            ("front", -forward),
            ("back", forward),
            ("left", -left),
            ("right", left),
        ] {
            let mut best = 0.0;
            for j in (20..=120).step_by(10) {
                if falls(&prepared, direction, f64::from(j))? {
                    break;
                }
                best = f64::from(j);
            }
            let suffix = if stepping { "" } else { "_no_steps" };
            println!("figure {prefix}max_survived_{name}{suffix}_ns {best:.0} N*s");
            survived.push(best);
        }
        rows.push(survived);
    }
    let gain = rows[0]
        .iter()
        .zip(&rows[1])
        .map(|(w, wo)| {
            if *wo > 0.0 {
                w / wo
            } else if *w > 0.0 {
                f64::INFINITY
            } else {
                1.0
            }
        })
        .fold(f64::INFINITY, f64::min);
    println!("figure {prefix}stepping_gain {gain:.2}");
    Ok(())
}
