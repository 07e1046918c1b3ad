//! The cost of one `Character::step` of the embedded walk character (the demo clip,
//! `samples/data/cmu_02_01_walk.bvh`) at 120 Hz, kinematic root, default configuration (issue 12):
//!
//! - `figure step_us`: no contacts (goal ≤ 8 µs);
//! - `figure step_contacts8_us`: 8 static foot–ground contacts (4 sole corners per foot, normal +Y, the default
//!   Lemke LCP), set with `Character::set_contacts` before every step, so the feet are pressed on the ground
//!   while the root follows its clip (goal ≤ 20 µs);
//! - `figure step_contacts8_pgs_us`: the same with the boxed-friction PGS (50 sweeps, tolerance 1e-6 N·s),
//!   warm-started from the previous step's impulses.
//!
//! Each figure is the median over `--batches` batches (default 41) of the mean µs per step in a batch of
//! `--steps` steps (default 200), after a warm-up, the clip restarted whenever it ends. The sole corners are
//! recomputed every step from the feet's capsules (outside the timed region the way a caller's collision query
//! would be; the `set_contacts` call itself is timed with the step).
//!
//! `--serve` times steps on request, for `benches/vs_mujoco.py`, which alternates them with MuJoCo's in short
//! batches: it prints the `cpu … kernel …` line (as every mode does first: `flinch::cpu_report`), after the warm-up
//! `ready`, then answers each line `free N` (or `N`) or `contacts N` read from
//! standard input with the mean µs per step of `N` more steps of that figure's character (the clip restarted
//! whenever it ends), until standard input ends. `assisted N` and `balanced N` time the free-root steps of the
//! same walk on its fitted floor with their foot contacts (issue 42's free-root case; the balanced walk restarted
//! every 0.5 s, before it falls: `docs/balance.md`).
//!
//! `--fingerprint` prints, instead of timing, one hash per figure's setup: every body's exact state
//! (`Character::state_hash`) folded over 600 steps from the start. An optimisation that should not change any
//! result must leave all three unchanged (compare with the build before it).
//!
//! `cargo run --release --example step_speed [-- --steps N --batches N --fingerprint --serve --no-avx2]`
//! (`--no-avx2` runs the baseline kernels instead of their AVX2 copies, `flinch::math::dispatch`).

use std::time::Instant;

use flinch::control::{Character, CharacterConfig, CharacterState, RootPolicy};
use flinch::dynamics::{ContactOptions, ContactOther, ContactPoint, ContactSolver};
use flinch::io::{ImportOptions, load_embedded_walk};
use nalgebra::Vector3;

/// Feet whose soles get the contacts: the model bodies named like this (the CMU skeleton's).
const FEET: [&str; 2] = ["LeftFoot", "RightFoot"];

fn main() {
    let mut steps = 200usize;
    let mut batches = 41usize;
    let mut fingerprint = false;
    let mut serve = false;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a positive integer"))
        };
        match a.as_str() {
            "--steps" => steps = value("--steps").max(1),
            "--batches" => batches = value("--batches").max(1),
            "--fingerprint" => fingerprint = true,
            "--serve" => serve = true,
            // The baseline (SSE2) kernels instead of their AVX2 copies: the same results, for measuring the copies.
            "--no-avx2" => flinch::math::dispatch::set_avx2(false),
            "--only" => only = args.next(),
            other => panic!(
                "unknown argument {other} (--steps N, --batches N, --fingerprint, --serve, --no-avx2, --only free|contacts|pgs)"
            ),
        }
    }
    // The CPU and the kernel variant (after `--no-avx2`), first in every mode (`--serve` too, before `ready`).
    println!("{}", flinch::cpu_report());

    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    let config = CharacterConfig::default();
    let mut free = Character::from_imported(imported.clone(), &config).expect("character");
    let mut pressed = Character::from_imported(imported.clone(), &config).expect("character");
    let mut pgs = Character::from_imported(imported, &config).expect("character");
    let feet: Vec<usize> = FEET
        .iter()
        .map(|name| {
            free.model()
                .bodies
                .iter()
                .position(|b| b.name == *name)
                .unwrap_or_else(|| panic!("no body {name}"))
        })
        .collect();
    let h = free.step_size();
    let bodies = free.model().bodies.len();

    // The third figure: the boxed-friction PGS (50 sweeps, 1e-6 N·s; warm-started from the previous step's impulses).
    pgs.set_contact_options(ContactOptions {
        solver: ContactSolver::Pgs {
            max_sweeps: 50,
            tolerance: 1e-6,
        },
        ..ContactOptions::default()
    })
    .expect("options");
    let start = free.save_state();
    let mut contacts = Vec::with_capacity(8);
    if fingerprint {
        for (name, c, touch) in [
            ("free", &mut free, false),
            ("contacts", &mut pressed, true),
            ("pgs", &mut pgs, true),
        ] {
            c.restore_state(&start).expect("restore");
            let mut hash = 0u64;
            for _ in 0..600 {
                restart_at_end(c, &start);
                if touch {
                    press_untimed_then_timed(c, &feet, &mut contacts);
                }
                step(c, h);
                hash = hash.rotate_left(7) ^ c.state_hash();
            }
            println!("fingerprint {name} {hash:016x}");
        }
        return;
    }
    if serve {
        serve_steps(&mut free, &mut pressed, &feet, &start, h);
        return;
    }
    // `--only` (for profiling) skips the other figure: it is printed as 0.
    let run = |which: &str| only.as_deref().is_none_or(|o| o == which);
    let step_us = if run("free") {
        time_steps(&mut free, &start, h, steps, batches, |_, _| {})
    } else {
        0.0
    };
    let mut report = ContactSummary::default();
    let step_contacts8_us = if run("contacts") {
        time_steps(
            &mut pressed,
            &start,
            h,
            steps,
            batches,
            pressing(&feet, &mut contacts),
        )
    } else {
        0.0
    };
    let step_contacts8_pgs_us = if run("pgs") {
        time_steps(
            &mut pgs,
            &start,
            h,
            steps,
            batches,
            pressing(&feet, &mut contacts),
        )
    } else {
        0.0
    };
    // One more pass to report what the contacts did (not timed).
    for _ in 0..if run("contacts") { steps } else { 0 } {
        restart_at_end(&mut pressed, &start);
        press_untimed_then_timed(&mut pressed, &feet, &mut contacts);
        let r = step(&mut pressed, h);
        report.add(&r.contacts);
        report.passes += r.post_stab.map_or(0, |p| p.iterations);
        report.normal += pressed
            .world()
            .contact_impulses()
            .iter()
            .map(|i| i.normal)
            .sum::<f64>();
    }
    // Post-stabilization passes of the contact-free step (not timed).
    let mut passes = 0;
    for _ in 0..if run("free") { steps } else { 0 } {
        restart_at_end(&mut free, &start);
        passes += step(&mut free, h).post_stab.map_or(0, |p| p.iterations);
    }
    println!(
        "embedded walk character: {bodies} bodies, h = 1/{:.0} s, kinematic root; median of {batches} batches of {steps} steps; kernels: {}",
        1.0 / h,
        if flinch::math::dispatch::avx2() {
            "AVX2 copies"
        } else {
            "baseline"
        }
    );
    println!(
        "without contacts: {:.2} post-stabilization projections per step",
        passes as f64 / steps as f64
    );
    println!(
        "with 8 contacts: {:.1} contacts, LCP size {:.1}, {:.1} Lemke pivots, {:.2} position LCPs in {:.2} projections per step, mean normal impulse {:.3} N·s, {} PGS fallbacks",
        report.contacts as f64 / steps as f64,
        report.lcp as f64 / steps as f64,
        report.pivots as f64 / steps as f64,
        report.projections as f64 / steps as f64,
        report.passes as f64 / steps as f64,
        report.normal / steps as f64,
        report.fell_back
    );
    println!("figure step_us {step_us:.2} us");
    println!("figure step_contacts8_us {step_contacts8_us:.2} us");
    println!("figure step_contacts8_pgs_us {step_contacts8_pgs_us:.2} us");
}

/// Totals of the contact reports.
#[derive(Default)]
struct ContactSummary {
    contacts: usize,
    lcp: usize,
    pivots: usize,
    projections: usize,
    passes: usize,
    fell_back: usize,
    normal: f64,
}

impl ContactSummary {
    fn add(&mut self, r: &flinch::dynamics::ContactReport) {
        self.contacts += r.contacts;
        self.lcp += r.lcp_size;
        self.pivots += r.pivots;
        self.projections += r.projections;
        self.fell_back += usize::from(r.fell_back);
    }
}

/// Restarts the clip (restores the start state) when it has ended, so the timing always sees the walk.
fn restart_at_end(c: &mut Character, start: &CharacterState) {
    if c.finished() {
        c.restore_state(start).expect("restore");
    }
}

/// Mean µs per step of `steps` free-root steps of `c` (its ground contacts are its own), restarted from `start`
/// at the clip's end or past clip time `until`.
fn time_free_batch(
    c: &mut Character,
    start: &CharacterState,
    until: f64,
    h: f64,
    steps: usize,
) -> f64 {
    let mut total = 0.0;
    for _ in 0..steps {
        if c.finished() || c.time() > until {
            c.restore_state(start).expect("restore");
        }
        let t0 = Instant::now();
        std::hint::black_box(c.step(h).expect("step"));
        total += t0.elapsed().as_secs_f64();
    }
    total * 1e6 / steps as f64
}

/// One step; the guard must not have reset the character.
fn step(c: &mut Character, h: f64) -> flinch::dynamics::StepReport {
    let r = c.step(h).expect("step");
    if let Some(f) = c.last_fault() {
        panic!("the guard reset the character: {f:?}");
    }
    r
}

/// The 240 steps before any timing (caches, branch history, the Lemke basis), with `before` as in [`time_steps`].
fn warm_up(
    c: &mut Character,
    start: &CharacterState,
    h: f64,
    before: &mut impl FnMut(&mut Character, bool),
) {
    for _ in 0..240 {
        restart_at_end(c, start);
        before(c, false);
        before(c, true);
        step(c, h);
    }
}

/// Median over `batches` of the mean µs per step of `steps` steps; `before(c, timed)` runs before each step,
/// first untimed (`timed` false), then inside the timed region (`timed` true).
fn time_steps(
    c: &mut Character,
    start: &CharacterState,
    h: f64,
    steps: usize,
    batches: usize,
    mut before: impl FnMut(&mut Character, bool),
) -> f64 {
    warm_up(c, start, h, &mut before);
    let mut samples: Vec<f64> = (0..batches)
        .map(|_| time_batch(c, start, h, steps, &mut before))
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// The mean µs per step of `steps` steps, `before` as in [`time_steps`] (its `timed` call inside the timing).
fn time_batch(
    c: &mut Character,
    start: &CharacterState,
    h: f64,
    steps: usize,
    before: &mut impl FnMut(&mut Character, bool),
) -> f64 {
    let mut total = 0.0;
    for _ in 0..steps {
        restart_at_end(c, start);
        before(c, false);
        let t0 = Instant::now();
        before(c, true);
        std::hint::black_box(c.step(h).expect("step"));
        total += t0.elapsed().as_secs_f64();
    }
    total * 1e6 / steps as f64
}

/// The `before` of the contact figures: the sole corners recomputed untimed, set with `set_contacts` timed.
fn pressing<'a>(
    feet: &'a [usize],
    contacts: &'a mut Vec<ContactPoint>,
) -> impl FnMut(&mut Character, bool) + 'a {
    move |c, timed| {
        if timed {
            c.set_contacts(contacts, &[]).expect("contacts");
        } else {
            sole_contacts(c, feet, contacts);
        }
    }
}

/// Both halves of [`pressing`] at once, for the untimed passes (fingerprints, the contact report).
fn press_untimed_then_timed(c: &mut Character, feet: &[usize], contacts: &mut Vec<ContactPoint>) {
    let mut press = pressing(feet, contacts);
    press(c, false);
    press(c, true);
}

/// `--serve`: after the warm-up of both characters prints `ready`; then answers each line of standard input,
/// `free N` (or just `N`) or `contacts N`, with the mean µs per step of `N` more steps of that figure's character
/// (one line, flushed), until standard input ends. Any other line is answered with `error: ...` and skipped.
fn serve_steps(
    free: &mut Character,
    pressed: &mut Character,
    feet: &[usize],
    start: &CharacterState,
    h: f64,
) {
    use std::io::{BufRead, Write};
    let mut contacts = Vec::with_capacity(8);
    warm_up(free, start, h, &mut |_, _| {});
    warm_up(pressed, start, h, &mut pressing(feet, &mut contacts));
    // The free roots: (character, its start, the clip time after which it restarts).
    let mut rooted: Vec<(Character, CharacterState, f64)> = [
        (RootPolicy::Assisted, f64::INFINITY),
        (RootPolicy::Balanced, 0.5),
    ]
    .into_iter()
    .map(|(policy, until)| {
        let mut config = CharacterConfig::default();
        config.root.policy = policy;
        let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
        let mut c = Character::from_imported(imported, &config).expect("free-root character");
        let start = c.save_state();
        time_free_batch(&mut c, &start, until, h, 240);
        (c, start, until)
    })
    .collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let answer = |out: &mut std::io::StdoutLock<'_>, line: &str| {
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .expect("write to standard output");
    };
    answer(&mut out, "ready");
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("read standard input");
        let words: Vec<&str> = line.split_whitespace().collect();
        let (which, count) = match words.as_slice() {
            [count] => ("free", *count),
            [which, count] => (*which, *count),
            _ => ("", ""),
        };
        let steps = count.parse::<usize>().ok().filter(|&n| n > 0);
        let us = match (which, steps) {
            ("free", Some(n)) => time_batch(free, start, h, n, &mut |_, _| {}),
            ("contacts", Some(n)) => {
                time_batch(pressed, start, h, n, &mut pressing(feet, &mut contacts))
            }
            ("assisted" | "balanced", Some(n)) => {
                let (c, start, until) = &mut rooted[usize::from(which == "balanced")];
                time_free_batch(c, start, *until, h, n)
            }
            _ => {
                answer(
                    &mut out,
                    &format!(
                        "error: expected `free N`, `contacts N`, `assisted N` or `balanced N` (N > 0), got {line:?}"
                    ),
                );
                continue;
            }
        };
        answer(&mut out, &format!("{us:.4}"));
    }
}

/// Four static contacts per foot at the corners of its sole: for each capsule end of the foot body, the points
/// `±radius` sideways (horizontal, across the capsule axis) and `radius` below the axis. The ground is put at
/// each corner (zero gap, normal +Y), so the velocity LCP presses the feet on it every step.
fn sole_contacts(c: &Character, feet: &[usize], out: &mut Vec<ContactPoint>) {
    out.clear();
    for &foot in feet {
        let frame = c.body_frame(foot);
        let capsule = c.model().bodies[foot]
            .capsules
            .iter()
            .max_by(|a, b| (a.b - a.a).norm().total_cmp(&(b.b - b.a).norm()))
            .expect("foot capsule");
        let (a, b) = (frame * capsule.a, frame * capsule.b);
        let axis = b - a;
        let across = Vector3::new(-axis.z, 0.0, axis.x);
        let across = if across.norm() > 1e-9 {
            across.normalize()
        } else {
            Vector3::x()
        };
        let down = Vector3::new(0.0, -capsule.radius, 0.0);
        for end in [a, b] {
            for side in [-1.0, 1.0] {
                let point = end.coords + across * (side * capsule.radius) + down;
                out.push(ContactPoint {
                    body: foot,
                    other: ContactOther::Static,
                    point,
                    other_point: point,
                    normal: Vector3::y(),
                    friction: 0.8,
                    restitution: 0.0,
                });
            }
        }
    }
}
