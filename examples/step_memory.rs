//! Memory and crowds (issue 12): what a clip's preparation costs, what each extra character of a prepared clip
//! adds, and how many characters one core keeps in real time.
//!
//! - `bytes_per_extra_character`: net heap bytes the N-th character of one prepared clip adds (counted by the
//!   global counting allocator below, after one step so its buffers have their working size);
//! - `prepared_clip_bytes`: net heap bytes of preparing a 12 s clip (the embedded walk continued to 12 s);
//! - `preprocess_ms_per_min`: `ReferenceMotion::build` (filtering, resampling, the discrete-step inverse dynamics
//!   the character applies) over a 60 s 120 fps clip, `prepare_ms_per_min` for the whole `PreparedClip::new`
//!   (model, gains, corrections too), and `continuous_id_ms_per_min` for the continuous inverse dynamics
//!   (`ReferenceMotion::continuous_inverse_dynamics`, an analysis no step reads, computed only on request);
//! - `character_new_us`: `Character::from_prepared` (median);
//! - `scene_chars_realtime_per_core`: characters one core steps in real time at 120 Hz, from a 200-character
//!   scene on one thread; `scene_parallel_speedup`: the same scene on all cores vs one (the median ratio of 15
//!   alternating rounds of 4 steps each, so that a change of the shared machine's speed does not fall between the
//!   two runs it compares).
//!
//! Timings depend on the machine and on its load (a shared machine makes them noisy; the output says how many
//! cores rayon used). `cargo run --release --example step_memory`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

use flinch::control::{Character, CharacterConfig, PreparedClip, ReferenceMotion};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::model::Model;
use flinch::scene::Scene;

mod common;

/// Counts net live heap bytes over all threads (the example measures with nothing else running).
struct Counting;

static LIVE: AtomicI64 = AtomicI64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Net heap bytes `f` leaves allocated, and its result.
fn live_bytes<T>(f: impl FnOnce() -> T) -> (i64, T) {
    let before = LIVE.load(Ordering::Relaxed);
    let out = f();
    (LIVE.load(Ordering::Relaxed) - before, out)
}

/// The median of `f`'s time over `runs` runs (s).
fn median_time(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[runs / 2]
}

/// A crowd of `characters` copies of `prepared` as two scenes, one stepped on a 1-thread pool and one on a
/// `threads`-thread pool, in alternating rounds of `steps_per_round` steps (after one untimed step each;
/// `common::rounds`). Returns the mean seconds per scene step on one thread, the median over the rounds of
/// (1-thread time / all-cores time), and whether both scenes end in bit-identical states.
fn scene_step_times(
    prepared: &Arc<PreparedClip>,
    characters: usize,
    threads: usize,
    rounds: usize,
    steps_per_round: usize,
) -> Result<(f64, f64, bool), Box<dyn std::error::Error>> {
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build();
    let pools = [pool(1)?, pool(threads)?];
    let mut scenes = [Scene::new(), Scene::new()];
    for scene in &mut scenes {
        // Copies of one clip at one spot: contacts between them would only pile up (tests/character_contact.rs).
        scene.set_character_contacts(false);
        for _ in 0..characters {
            scene.add_prepared(prepared);
        }
    }
    let h = 1.0 / 120.0;
    let mut timed = |k: usize, steps: usize| -> Result<f64, flinch::scene::SceneError> {
        let scene = &mut scenes[k];
        pools[k].install(|| {
            let t0 = Instant::now();
            for _ in 0..steps {
                scene.step(h)?;
            }
            Ok(t0.elapsed().as_secs_f64())
        })
    };
    timed(0, 1)?;
    timed(1, 1)?;
    let (total, speedup) = common::rounds::alternating(rounds, |k| timed(k, steps_per_round))?;
    let hash = |scene: &Scene| {
        scene
            .characters()
            .fold(0u64, |a, (_, c)| a.rotate_left(7) ^ c.state_hash())
    };
    Ok((
        total[0] / (rounds * steps_per_round) as f64,
        speedup,
        hash(&scenes[0]) == hash(&scenes[1]),
    ))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = CharacterConfig::default();
    let mut walk = load_embedded_walk(&ImportOptions::default())?;
    walk.drop_leading_tpose();
    let (skeleton, clip) = (walk.skeleton, walk.clip);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    // The 12 s clip: its preparation's bytes, and what each further character adds.
    let clip12 = clip.continued(12.0);
    let (prepared_bytes, prepared) =
        live_bytes(|| PreparedClip::new(skeleton.clone(), clip12.clone(), &config).map(Arc::new));
    let prepared = prepared?;
    let h = prepared.step_size();
    let mut crowd = Vec::new();
    for _ in 0..3 {
        let mut c = Character::from_prepared(Arc::clone(&prepared));
        c.step(h)?;
        crowd.push(c);
    }
    let (extra_bytes, extra) = live_bytes(|| {
        let mut c = Character::from_prepared(Arc::clone(&prepared));
        c.step(h).map(|_| c)
    });
    crowd.push(extra?);
    let (solo_bytes, solo) = live_bytes(|| {
        let mut c = Character::new(skeleton.clone(), clip12.clone(), &config)?;
        c.step(h).map(|_| c)
    });
    drop(solo);
    println!(
        "12 s clip ({} frames, {} bodies, {} steps): prepared {:.2} MB once; a character of it {:.1} kB \
         (a character built alone: {:.2} MB)",
        clip12.frames.len(),
        prepared.model().bodies.len(),
        prepared.reference().steps,
        prepared_bytes as f64 / 1e6,
        extra_bytes as f64 / 1e3,
        solo_bytes as f64 / 1e6,
    );
    println!("figure bytes_per_extra_character {extra_bytes} B");
    println!("figure prepared_clip_bytes {prepared_bytes} B");
    drop(crowd);

    // Preprocessing a minute of motion: the reference (ID) alone, and the whole preparation.
    let clip60 = clip.continued(60.0);
    let model = Model::from_skeleton(&skeleton, &config.model)?;
    let minutes = clip60.duration() / 60.0;
    let build = median_time(5, || {
        let r = ReferenceMotion::build(&model, &skeleton, &clip60, &config.preprocess);
        assert!(r.is_ok(), "the 60 s walk preprocesses");
    });
    let reference = ReferenceMotion::build(&model, &skeleton, &clip60, &config.preprocess)?;
    let continuous = median_time(5, || {
        std::hint::black_box(reference.continuous_inverse_dynamics(config.preprocess.threads));
    });
    drop(reference);
    let prepare = median_time(3, || {
        let p = PreparedClip::new(skeleton.clone(), clip60.clone(), &config);
        assert!(p.is_ok(), "the 60 s walk prepares");
    });
    println!(
        "60 s clip ({} frames): ReferenceMotion::build {:.1} ms, PreparedClip::new {:.1} ms (median; preprocessing \
         threads: default, up to {} cores)",
        clip60.frames.len(),
        build * 1e3,
        prepare * 1e3,
        cores.min(8)
    );
    println!(
        "figure preprocess_ms_per_min {:.1} ms",
        build * 1e3 / minutes
    );
    println!(
        "figure prepare_ms_per_min {:.1} ms",
        prepare * 1e3 / minutes
    );
    println!(
        "figure continuous_id_ms_per_min {:.1} ms",
        continuous * 1e3 / minutes
    );

    // A character of a prepared clip: only its world.
    let new = median_time(201, || {
        std::hint::black_box(Character::from_prepared(Arc::clone(&prepared)));
    });
    println!("figure character_new_us {:.1} us", new * 1e6);

    // A 200-character crowd of the walk, on one core and on all, in alternating rounds.
    const CROWD: usize = 200;
    const ROUNDS: usize = 15;
    const STEPS_PER_ROUND: usize = 4;
    let (one, speedup, identical) =
        scene_step_times(&prepared, CROWD, cores, ROUNDS, STEPS_PER_ROUND)?;
    println!(
        "{CROWD} characters at 120 Hz: {:.2} ms per scene step on 1 thread, {:.2}× faster on {cores} threads \
         (median of {ROUNDS} alternating rounds of {STEPS_PER_ROUND} steps; identical states: {identical}); the \
         machine is shared with other jobs, so timings are noisy",
        one * 1e3,
        speedup,
    );
    println!(
        "figure scene_chars_realtime_per_core {:.0} characters",
        CROWD as f64 * h / one
    );
    println!("figure scene_parallel_speedup {speedup:.2} x");
    println!("figure scene_cores {cores} cores");
    Ok(())
}
