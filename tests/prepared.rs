//! Prepared clips (the Model/Data split): characters made from one `PreparedClip` step bit for bit like characters
//! built on their own, share its tables (no state leaks between them), and each costs only its world on the heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use flinch::control::{Character, CharacterConfig, PreparedClip};
use flinch::io::{ImportOptions, Imported, load_embedded_walk};
use flinch::scene::Scene;
use nalgebra::Vector3;

struct Counting;

thread_local! {
    /// Net heap bytes allocated by this thread while armed (the harness allocates on other threads meanwhile).
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

fn add(bytes: i64) {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = ARMED.try_with(|a| {
        if a.get() {
            let _ = LIVE.try_with(|l| l.set(l.get() + bytes));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as i64);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as i64));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as i64 - layout.size() as i64);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Net heap bytes `f` leaves allocated (on this thread), and its result.
fn live_bytes<T>(f: impl FnOnce() -> T) -> (i64, T) {
    let before = LIVE.with(Cell::get);
    ARMED.with(|a| a.set(true));
    let out = f();
    ARMED.with(|a| a.set(false));
    (LIVE.with(Cell::get) - before, out)
}

fn walk() -> Imported {
    load_embedded_walk(&ImportOptions::default()).expect("the embedded walk")
}

fn prepared() -> Arc<PreparedClip> {
    Arc::new(PreparedClip::from_imported(walk(), &CharacterConfig::default()).expect("prepare"))
}

/// Steps `c` `n` times at its step size, returning the state hash after each step.
fn hashes(c: &mut Character, n: usize) -> Vec<u64> {
    let h = c.step_size();
    (0..n)
        .map(|_| {
            c.step(h).expect("step");
            c.state_hash()
        })
        .collect()
}

#[test]
fn characters_of_a_prepared_clip_step_like_characters_built_alone() {
    let mut alone = Character::from_imported(walk(), &CharacterConfig::default()).unwrap();
    let p = prepared();
    let mut a = Character::from_prepared(Arc::clone(&p));
    let mut b = Character::from_prepared(Arc::clone(&p));
    assert_eq!(Arc::strong_count(&p), 3);
    assert!(std::ptr::eq(a.reference(), b.reference()));
    assert!(std::ptr::eq(a.model(), p.model()));
    assert_eq!(alone.state_hash(), a.state_hash());
    let want = hashes(&mut alone, 120);
    assert_eq!(hashes(&mut a, 120), want);
    assert_eq!(hashes(&mut b, 120), want);
    // A hit on one character of the clip leaves the other (and the shared tables) untouched.
    let push = Vector3::new(0.0, 0.0, 5.0);
    let at = a
        .world()
        .body(a.body_of_bone("RightForeArm").unwrap())
        .position;
    a.apply_impulse("RightForeArm", at, push).unwrap();
    alone.apply_impulse("RightForeArm", at, push).unwrap();
    let want = hashes(&mut alone, 120);
    let hit = hashes(&mut a, 120);
    assert_eq!(hit, want);
    let unhit = hashes(&mut b, 120);
    assert!(unhit.iter().zip(&hit).all(|(u, h)| u != h));
    let mut fresh = Character::from_prepared(Arc::clone(&p));
    // `b` stepped 240 times in all: its last 120 states are those of a fresh character's steps 121 to 240.
    let mut fresh_hashes = hashes(&mut fresh, 240);
    assert_eq!(fresh_hashes.split_off(120), unhit);
}

#[test]
fn a_scene_crowd_from_one_prepared_clip_matches_a_solo_character() {
    let p = prepared();
    let mut solo = Scene::new();
    let one =
        solo.add_character(Character::from_imported(walk(), &CharacterConfig::default()).unwrap());
    let mut crowd = Scene::new();
    crowd.set_character_contacts(false);
    let keys: Vec<_> = (0..5).map(|_| crowd.add_prepared(&p)).collect();
    assert_eq!(Arc::strong_count(&p), 6);
    drop(p);
    for _ in 0..30 {
        solo.step(1.0 / 60.0).unwrap();
        crowd.step(1.0 / 60.0).unwrap();
    }
    let want = solo.character(one).unwrap().state_hash();
    for k in keys {
        assert_eq!(crowd.character(k).unwrap().state_hash(), want);
    }
}

#[test]
fn an_extra_character_costs_its_world_not_the_clip() {
    let (prepared_bytes, p) = live_bytes(prepared);
    let mut crowd = vec![Character::from_prepared(Arc::clone(&p))];
    let h = crowd[0].step_size();
    crowd[0].step(h).unwrap();
    // The N-th character, stepped once so its buffers have their working size.
    let (extra, c) = live_bytes(|| {
        let mut c = Character::from_prepared(Arc::clone(&p));
        c.step(h).unwrap();
        c
    });
    crowd.push(c);
    println!("prepared clip {prepared_bytes} B, extra character {extra} B");
    // A character's world (bodies, joints, drives, solver workspaces: about 145 kB for the walk, the issue's
    // 100 kB goal not met yet) is a small fraction of the clip's tables, which it no longer copies (2.3 MB for
    // the 2.9 s walk, and they grow with the clip's length while the world does not).
    assert!(extra > 0, "{extra} B per extra character");
    assert!(
        prepared_bytes > 10 * extra,
        "{prepared_bytes} B prepared vs {extra} B"
    );
    // Dropping the characters and the last handle frees the tables.
    let (freed, ()) = live_bytes(|| {
        drop(crowd);
        drop(p);
    });
    assert!(
        -freed >= prepared_bytes,
        "freed {} of {prepared_bytes} B",
        -freed
    );
}

#[test]
fn preparation_gives_the_same_bits_for_any_thread_count() {
    // Long enough (> 1024 steps) for the preprocessing to split its passes over threads.
    let mut walk = walk();
    walk.drop_leading_tpose();
    let clip = walk.clip.continued(10.0);
    let prepared = |threads: usize| {
        let mut config = CharacterConfig::default();
        config.preprocess.threads = Some(threads);
        let p = PreparedClip::new(walk.skeleton.clone(), clip.clone(), &config).unwrap();
        assert!(p.reference().steps > 1024);
        // The Debug text holds every table (the stiffness corrections too), each number to its last bit.
        format!("{p:?}")
    };
    let one = prepared(1);
    for threads in [2, 5] {
        assert!(
            prepared(threads) == one,
            "{threads} threads differ from one"
        );
    }
}
