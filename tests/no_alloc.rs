//! The step allocates nothing once the world is built and its buffers sized (after the first step, or an
//! explicit `World::prepare` plus one solver factorisation of the final size).
//!
//! The solver is a parameter: the O(n) `TreeSolver`, the default `AutoSolver` (tree with dense fallback) and
//! `DenseLuSolver` all reuse their buffers. The allocating `DenseSolver` would fail this test.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use flinch::dynamics::{
    AutoSolver, Body, DenseLuSolver, ForceFrame, JointDrive, SaddlePointSolver, Stabilization,
    TreeSolver, UserForce, World,
};
use nalgebra::{UnitQuaternion, Vector3};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the test thread's allocations count (the harness allocates on its own threads meanwhile).
    static ARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count() {
    if ARMED.with(|a| a.get()) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Every constraint kind, every force kind, a prescribed root.
fn full_world(solver: Box<dyn SaddlePointSolver + Send>, stab: Stabilization) -> World {
    let mut w = World::with_solver(solver);
    w.set_stabilization(stab);
    let size = Vector3::new(0.2, 0.08, 0.08);
    let ids: Vec<usize> = (0..6)
        .map(|i| {
            w.add_body(Body::cuboid(1.0, size).at(
                Vector3::new(0.2 * i as f64, 1.0, 0.0),
                UnitQuaternion::identity(),
            ))
        })
        .collect();
    let at = |x: f64| Vector3::new(x, 1.0, 0.0);
    w.add_prescribed(
        ids[0],
        Box::new(|t: f64| {
            (
                Vector3::new(0.3 * t, 1.0 + 0.05 * (4.0 * t).sin(), 0.0),
                UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.5 * t, 0.2 * (3.0 * t).sin())),
            )
        }),
    );
    w.add_ball_joint(ids[1], Some(ids[0]), at(0.1));
    w.add_hinge(ids[2], Some(ids[1]), at(0.3), Vector3::z());
    w.add_universal(ids[3], Some(ids[2]), at(0.5), Vector3::z(), Vector3::y());
    w.add_fixed(ids[4], Some(ids[3]), at(0.7));
    w.add_ball_joint(ids[5], Some(ids[4]), at(0.9));
    for i in 1..6 {
        let d = JointDrive::new(
            w.bodies(),
            ids[i],
            Some(ids[i - 1]),
            Vector3::repeat(50.0),
            Vector3::repeat(1.0),
        );
        w.add_drive(d);
        w.add_damping(ids[i], 0.01, 0.01);
    }
    w.add_user_force(UserForce {
        body: ids[5],
        point: Vector3::new(0.1, 0.0, 0.0),
        force: Vector3::new(0.0, 0.0, 3.0),
        torque: Vector3::zeros(),
        frame: ForceFrame::Body,
    });
    w
}

/// Builds a fresh solver.
type MakeSolver = fn() -> Box<dyn SaddlePointSolver + Send>;

fn solvers() -> Vec<(&'static str, MakeSolver)> {
    vec![
        ("DenseLuSolver", || Box::new(DenseLuSolver::new())),
        ("TreeSolver", || Box::new(TreeSolver::new())),
        ("AutoSolver", || Box::new(AutoSolver::new())),
    ]
}

#[test]
fn step_does_not_allocate_once_built() {
    let stabs = [
        Stabilization::None,
        Stabilization::Baumgarte { alpha: 100.0 },
        Stabilization::PostStab {
            max_iters: 3,
            tol: 1e-12,
        },
    ];
    for (name, make) in solvers() {
        for stab in stabs {
            let mut w = full_world(make(), stab);
            // Warm-up: sizes the world's buffers and the solver's.
            w.step(1e-3).unwrap();
            let before = ALLOCS.load(Ordering::Relaxed);
            ARMED.with(|a| a.set(true));
            let mut iterations = 0;
            for s in 0..300 {
                let target =
                    UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, 0.001 * s as f64));
                w.drive_mut(flinch::dynamics::DriveId(1)).set_target(
                    target,
                    Vector3::zeros(),
                    Vector3::zeros(),
                );
                let r = w.step(1e-3).unwrap();
                iterations += r.post_stab.map_or(0, |p| p.iterations);
            }
            ARMED.with(|a| a.set(false));
            let allocs = ALLOCS.load(Ordering::Relaxed) - before;
            assert_eq!(
                allocs, 0,
                "{name}, {stab:?}: {allocs} allocations in 300 steps"
            );
            if matches!(stab, Stabilization::PostStab { .. }) {
                assert!(iterations > 0, "post-stabilization never ran");
            }
        }
    }
}

/// The mocap character's guarded step (targets from the reference, |τ|-scaled gains, the guard's checks, the
/// state hash) allocates nothing either, once warm.
#[test]
fn character_step_and_hash_do_not_allocate() {
    use flinch::control::{Character, CharacterConfig};
    use flinch::io::{ImportOptions, load_embedded_walk};
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut c = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    let h = c.step_size();
    c.step(h).unwrap();
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    let mut hash = 0u64;
    for _ in 0..300 {
        c.step(h).unwrap();
        hash ^= c.state_hash();
    }
    ARMED.with(|a| a.set(false));
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    assert!(c.last_fault().is_none() && hash != 0);
    assert_eq!(allocs, 0, "{allocs} allocations in 300 character steps");
}

/// A streamed character (issue 42): pushing a target (checked, normalized, projected into the stream's buffers)
/// and the step's online inverse dynamics and drive corrections allocate nothing either, once warm.
#[test]
fn streamed_targets_and_steps_do_not_allocate() {
    use flinch::control::{Character, CharacterConfig};
    use flinch::io::{ImportOptions, load_embedded_walk};
    let mut imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    imported.drop_leading_tpose();
    let clip = imported.clip;
    let mut c = Character::streamed(
        imported.skeleton,
        &clip.frames[0],
        None,
        &CharacterConfig::default(),
    )
    .unwrap();
    let h = c.step_size();
    let targets: Vec<_> = (1..=300).map(|k| clip.sample(k as f64 * h)).collect();
    for target in &targets[..2] {
        c.set_target_pose(target, None).unwrap();
        c.step(h).unwrap();
    }
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    let mut hash = 0u64;
    for target in &targets[2..] {
        c.set_target_pose(target, None).unwrap();
        c.step(h).unwrap();
        hash ^= c.state_hash();
    }
    ARMED.with(|a| a.set(false));
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    assert!(c.last_fault().is_none() && hash != 0);
    assert_eq!(allocs, 0, "{allocs} allocations in 298 streamed steps");
}

/// `n` characters of one prepared clip of the embedded walk.
fn walk_crowd(n: usize) -> Vec<flinch::control::Character> {
    use flinch::control::{Character, CharacterConfig, PreparedClip};
    use flinch::io::{ImportOptions, load_embedded_walk};
    use std::sync::Arc;
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let prepared =
        Arc::new(PreparedClip::from_imported(imported, &CharacterConfig::default()).unwrap());
    (0..n)
        .map(|_| Character::from_prepared(Arc::clone(&prepared)))
        .collect()
}

/// Characters sharing one prepared clip step without allocating either (the shared tables are only read).
#[test]
fn characters_of_one_prepared_clip_do_not_allocate() {
    let mut crowd = walk_crowd(3);
    let h = crowd[0].step_size();
    for c in &mut crowd {
        c.step(h).unwrap();
    }
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    for _ in 0..100 {
        for c in &mut crowd {
            c.step(h).unwrap();
        }
    }
    ARMED.with(|a| a.set(false));
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    assert!(crowd.iter().all(|c| c.last_fault().is_none()));
    assert_eq!(allocs, 0, "{allocs} allocations in 300 crowd steps");
}

/// Nor when they step in one shared scratch (`Character::exchange_scratch`, what a scene's thread does): the
/// scratch takes its sizes once, in the warm-up, and exchanges move buffers without allocating.
#[test]
fn characters_sharing_a_step_scratch_do_not_allocate() {
    use flinch::control::Character;
    use flinch::dynamics::StepScratch;
    let mut crowd = walk_crowd(3);
    let mut scratch = StepScratch::default();
    let h = crowd[0].step_size();
    let mut exchanges = 0;
    let mut round = |crowd: &mut Vec<Character>, exchanges: &mut usize| {
        for c in crowd.iter_mut() {
            *exchanges += usize::from(c.exchange_scratch(&mut scratch));
            c.step(h).unwrap();
            *exchanges += usize::from(c.exchange_scratch(&mut scratch));
        }
    };
    round(&mut crowd, &mut exchanges);
    exchanges = 0;
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    for _ in 0..100 {
        round(&mut crowd, &mut exchanges);
    }
    ARMED.with(|a| a.set(false));
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    assert!(crowd.iter().all(|c| c.last_fault().is_none()));
    assert_eq!(
        exchanges,
        2 * 3 * 100,
        "every step should have shared the scratch"
    );
    assert_eq!(
        allocs, 0,
        "{allocs} allocations in 300 steps sharing one scratch"
    );
}

/// Penalty contact (docs/contact.md, "Penalty contact"): a step with ground contacts (static) and contacts
/// between boxes (with the cross-block correction) allocates nothing once warm, for every solver; so does the
/// walk character with penalty contacts on its feet handed every step.
#[test]
fn penalty_contact_steps_do_not_allocate() {
    use flinch::dynamics::{
        ContactOptions, ContactOther, ContactPoint, ContactSolver, PenaltyOptions,
    };
    let options = ContactOptions {
        solver: ContactSolver::Penalty(PenaltyOptions::default()),
        ..ContactOptions::default()
    };
    let corners = [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)];
    for (name, make) in solvers() {
        let mut w = World::with_solver(make());
        for i in 0..2 {
            w.add_body(Body::cuboid(1.0, Vector3::repeat(0.2)).at(
                Vector3::new(0.0, 0.1 + 0.2 * i as f64 - 0.001, 0.0),
                UnitQuaternion::identity(),
            ));
        }
        w.set_contact_options(options).unwrap();
        let mut set = [ContactPoint {
            body: 0,
            other: ContactOther::Static,
            point: Vector3::zeros(),
            other_point: Vector3::zeros(),
            normal: Vector3::y(),
            friction: 0.5,
            restitution: 0.0,
        }; 8];
        let step = |w: &mut World, set: &mut [ContactPoint; 8]| {
            for (k, &(x, z)) in corners.iter().enumerate() {
                let ground = w.body(0).point_world(&Vector3::new(x, -0.1, z));
                set[k].point = ground;
                set[k].other_point = Vector3::new(ground.x, 0.0, ground.z);
                let top = w.body(1).point_world(&Vector3::new(x, -0.1, z));
                set[4 + k] = ContactPoint {
                    body: 1,
                    other: ContactOther::Body(0),
                    point: top,
                    other_point: w.body(0).point_world(&Vector3::new(x, 0.1, z)),
                    ..set[k]
                };
            }
            w.set_contacts(&set[..], &[]).unwrap();
            w.step(1.0 / 60.0).unwrap()
        };
        step(&mut w, &mut set);
        let before = ALLOCS.load(Ordering::Relaxed);
        ARMED.with(|a| a.set(true));
        let mut pushed = 0.0;
        for _ in 0..300 {
            let r = step(&mut w, &mut set);
            assert_eq!(r.contacts.contacts, 8);
            pushed += w.contact_impulses()[4].normal;
        }
        ARMED.with(|a| a.set(false));
        let allocs = ALLOCS.load(Ordering::Relaxed) - before;
        assert_eq!(
            allocs, 0,
            "{name}: {allocs} allocations in 300 penalty steps"
        );
        assert!(pushed > 0.0, "the box contacts carried load");
    }

    use flinch::control::{Character, CharacterConfig};
    use flinch::io::{ImportOptions, load_embedded_walk};
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut c = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    c.set_contact_options(options).unwrap();
    let feet: Vec<usize> = c
        .model()
        .bodies
        .iter()
        .enumerate()
        .filter(|(_, b)| b.name.ends_with("Foot"))
        .map(|(i, _)| i)
        .collect();
    let h = c.step_size();
    let mut set = [ContactPoint {
        body: feet[0],
        other: ContactOther::Static,
        point: Vector3::zeros(),
        other_point: Vector3::zeros(),
        normal: Vector3::y(),
        friction: 0.8,
        restitution: 0.0,
    }; 2];
    let step = |c: &mut Character, set: &mut [ContactPoint; 2]| {
        for (k, &f) in feet.iter().enumerate() {
            let p = c.body_frame(f).translation.vector;
            set[k].body = f;
            set[k].point = p;
            // Pressed 1 cm into a ground just above the foot's origin.
            set[k].other_point = p + Vector3::y() * 0.01;
        }
        c.set_contacts(&set[..], &[]).unwrap();
        c.step(h).unwrap()
    };
    step(&mut c, &mut set);
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    for _ in 0..100 {
        let r = step(&mut c, &mut set);
        assert_eq!(r.contacts.contacts, 2);
    }
    ARMED.with(|a| a.set(false));
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    assert_eq!(
        allocs, 0,
        "{allocs} allocations in 100 character steps with penalty feet"
    );
}

/// Issue 12: a step with LCP contacts allocates nothing once warm. Two boxes rest on static ground on their four
/// corners, handed every step, with Lemke (friction pyramid) and PGS (boxed friction), for every solver. The boxes
/// are independent bodies, so Lemke solves their contacts as two parts (`src/contact/dynamics/split.rs`). The
/// ground rises 0.01 mm a step (a slow platform), so every step's post-stabilization also solves the position
/// LCP of eq. 3.7: the Delassus matrix, both LCPs and their warm starts all run on buffers sized by the
/// warm-up. Every third step also hands the midpoints of the bottom edges (8 contacts): a contact count that
/// shrinks and grows again reuses the buffers of the largest one (and sends Lemke through its cold start).
#[test]
fn lcp_contact_steps_do_not_allocate() {
    use flinch::dynamics::{ContactOptions, ContactOther, ContactPoint, ContactSolver};
    let corners = [
        (-0.1, -0.1),
        (0.1, -0.1),
        (-0.1, 0.1),
        (0.1, 0.1),
        (0.0, -0.1),
        (0.0, 0.1),
        (-0.1, 0.0),
        (0.1, 0.0),
    ];
    let contact_solvers = [
        ContactSolver::Lemke,
        ContactSolver::Pgs {
            max_sweeps: 50,
            tolerance: 1e-10,
        },
    ];
    for (name, make) in solvers() {
        for contact_solver in contact_solvers {
            let mut w = World::with_solver(make());
            for x in [0.0, 1.0] {
                w.add_body(
                    Body::cuboid(1.0, Vector3::repeat(0.2))
                        .at(Vector3::new(x, 0.1, 0.0), UnitQuaternion::identity()),
                );
            }
            w.set_contact_options(ContactOptions {
                solver: contact_solver,
                ..ContactOptions::default()
            })
            .unwrap();
            let mut set = [ContactPoint {
                body: 0,
                other: ContactOther::Static,
                point: Vector3::zeros(),
                other_point: Vector3::zeros(),
                normal: Vector3::y(),
                friction: 0.5,
                restitution: 0.0,
            }; 16];
            let mut floor = 0.0;
            let mut steps = 0;
            let mut step = |w: &mut World| {
                floor += 1e-5;
                steps += 1;
                let n = if steps % 3 == 0 { 8 } else { 4 };
                for body in 0..2 {
                    for (k, &(x, z)) in corners.iter().enumerate().take(n) {
                        let p = w.body(body).point_world(&Vector3::new(x, -0.1, z));
                        let c = &mut set[body * n + k];
                        c.body = body;
                        c.point = p;
                        c.other_point = Vector3::new(p.x, floor, p.z);
                    }
                }
                w.set_contacts(&set[..2 * n], &[]).unwrap();
                let r = w.step(1.0 / 60.0).unwrap();
                assert!(r.contacts.contacts == 2 * n && !r.contacts.fell_back);
                r
            };
            for _ in 0..5 {
                step(&mut w);
            }
            let before = ALLOCS.load(Ordering::Relaxed);
            ARMED.with(|a| a.set(true));
            let (mut projections, mut pushed) = (0, 0.0);
            for _ in 0..300 {
                let r = step(&mut w);
                projections += r.contacts.projections;
                pushed += w.contact_impulses().iter().map(|i| i.normal).sum::<f64>();
            }
            ARMED.with(|a| a.set(false));
            let allocs = ALLOCS.load(Ordering::Relaxed) - before;
            assert_eq!(
                allocs, 0,
                "{name}, {contact_solver:?}: {allocs} allocations in 300 contact steps"
            );
            // The contacts carried both boxes' weight (m g h per step each) and the position LCP ran every step.
            assert!(
                (pushed / 300.0 - 2.0 * 9.81 / 60.0).abs() < 2e-3,
                "{name}, {contact_solver:?}: mean Σλ_n {}",
                pushed / 300.0
            );
            assert_eq!(projections, 300, "{name}, {contact_solver:?}");
            // Each push leaves the boxes at the contact skin above the risen floor.
            let skin = ContactOptions::default().position_skin;
            for body in 0..2 {
                let above = w.body(body).position.y - 0.1 - floor;
                assert!((above - skin).abs() < 1e-9, "{above:e} above the floor");
            }
        }
    }
}

/// An assisted free root (issue 11): the feet's contacts found and merged with the caller's, the PGS contact
/// solve, the assist and the state machine allocate nothing once warm. The stretch is stepped once before it is
/// measured: a step whose contact set outgrows every earlier one sizes the contact buffers (by design,
/// docs/performance.md).
#[test]
fn assisted_free_root_steps_do_not_allocate() {
    use flinch::control::RootPolicy;
    let (allocs, contacts, _) = free_root_allocations(RootPolicy::Assisted, false, 150, 150);
    assert!(
        contacts > 150,
        "the feet touched the floor: {contacts} contacts"
    );
    assert_eq!(allocs, 0, "{allocs} allocations in 150 assisted steps");
}

/// The same assisted walk standing in a level (the sample level's 28 800-triangle floor mesh and its other
/// colliders, issue 38): the probes' queries against the level's hierarchy and meshes allocate nothing either.
#[test]
fn assisted_free_root_steps_in_a_level_do_not_allocate() {
    use flinch::control::RootPolicy;
    let (allocs, contacts, _) = free_root_allocations(RootPolicy::Assisted, true, 150, 150);
    assert!(
        contacts > 150,
        "the feet touched the level: {contacts} contacts"
    );
    assert_eq!(
        allocs, 0,
        "{allocs} allocations in 150 assisted steps in a level"
    );
}

/// Steps of the embedded walk with a free root (`policy`), on its fitted floor or standing in the sample level:
/// `warm` steps, then `measured` steps twice (the first pass sizes every buffer the stretch needs, then the state
/// is restored). Returns the allocations of the second pass, its contacts and the root state at its end.
fn free_root_allocations(
    policy: flinch::control::RootPolicy,
    in_level: bool,
    warm: usize,
    measured: usize,
) -> (usize, usize, flinch::control::RootState) {
    use flinch::control::{Character, CharacterConfig};
    use flinch::io::{ImportOptions, load_embedded_walk};
    use flinch::level::load_level_file;
    use flinch::scene::world_runs::posed_level;
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut config = CharacterConfig::default();
    config.root.policy = policy;
    let mut c = Character::from_imported(imported, &config).unwrap();
    let level = in_level.then(|| {
        let file = load_level_file(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("samples/level/training_ground.glb"),
            None,
        )
        .unwrap();
        let floor = c.ground().unwrap().floor;
        posed_level(&file, &nalgebra::Isometry3::translation(-10.0, floor, -5.0)).unwrap()
    });
    let h = c.step_size();
    for _ in 0..warm {
        c.step_in(h, level.as_ref()).unwrap();
    }
    let start = c.save_state();
    for _ in 0..measured {
        c.step_in(h, level.as_ref()).unwrap();
    }
    c.restore_state(&start).unwrap();
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    let mut contacts = 0;
    for _ in 0..measured {
        contacts += c.step_in(h, level.as_ref()).unwrap().contacts.contacts;
    }
    ARMED.with(|a| a.set(false));
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    assert!(c.last_fault().is_none());
    (allocs, contacts, c.root_state())
}

/// The balanced root (issue 39) while it tracks: the plan's ground wrench, the spread over the touching soles (the
/// NNLS in its kept buffers, `math::nnls::Nnls`), the legs' adjustments, the re-anchoring, the time warp and the
/// online reaction allocate nothing once warm (issue 42 item 2).
#[test]
fn balanced_free_root_steps_do_not_allocate() {
    use flinch::control::{RootPolicy, RootState};
    let (allocs, contacts, state) = free_root_allocations(RootPolicy::Balanced, false, 10, 60);
    assert_eq!(state, RootState::Tracking, "the measured steps planned");
    assert!(
        contacts > 60,
        "the feet touched the floor: {contacts} contacts"
    );
    assert_eq!(allocs, 0, "{allocs} allocations in 60 balanced steps");
}

/// The same balanced steps standing in the sample level (its floor mesh and other colliders).
#[test]
fn balanced_free_root_steps_in_a_level_do_not_allocate() {
    use flinch::control::{RootPolicy, RootState};
    let (allocs, contacts, state) = free_root_allocations(RootPolicy::Balanced, true, 10, 60);
    assert_eq!(state, RootState::Tracking, "the measured steps planned");
    assert!(
        contacts > 60,
        "the feet touched the level: {contacts} contacts"
    );
    assert_eq!(
        allocs, 0,
        "{allocs} allocations in 60 balanced steps in a level"
    );
}
