//! Worlds: independent scenes of characters and balls, stepped together.

use std::ffi::c_char;
use std::sync::{Arc, Mutex};

use flinch_core::control::Character;

use crate::args;
use crate::clip::{FlinchCharacter, character_is_live, insert_character, take_character};
use crate::error::{FfiError, FlinchStatus, guard};
use crate::handles::{Table, lock};
use flinch_core::scene::{Ball, BallKey, CharacterKey, Scene, SceneError};

/// A world (a scene of characters and balls). Zero is never a valid handle. Destroy with `flinch_world_destroy`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchWorld {
    /// Generational handle value (opaque).
    pub id: u64,
}

/// A character inside a world (generational: stale once removed, or when its world is destroyed).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchCharacterKey {
    /// Generational key value (opaque); only meaningful with the world it came from.
    pub id: u64,
}

/// A ball inside a world (generational). Zero means "no ball" in events.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchBall {
    /// Generational key value (opaque).
    pub id: u64,
}

static WORLDS: Mutex<Table<Arc<Mutex<Scene>>>> = Mutex::new(Table::with_kind(3));

/// Runs `body` on the scene of `world` (locked for the call: one thread at a time per world).
pub fn with_scene<T>(
    function: &str,
    world: FlinchWorld,
    body: impl FnOnce(&mut Scene) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    let scene = {
        let table = lock(&WORLDS);
        table.get(world.id).cloned().ok_or_else(|| {
            FfiError::new(
                FlinchStatus::InvalidHandle,
                format!(
                    "{function}: world {:#x} {}",
                    world.id,
                    table.why_dead(world.id)
                ),
            )
        })?
    };
    let mut scene = scene.lock().map_err(|_| {
        FfiError::new(
            FlinchStatus::Panic,
            format!(
                "{function}: world {:#x} is unusable after an earlier internal panic",
                world.id
            ),
        )
    })?;
    body(&mut scene)
}

/// The status and message of a scene error in `function`.
pub fn scene_error(function: &str, key: u64, e: SceneError) -> FfiError {
    let status = match e {
        SceneError::StaleCharacter
        | SceneError::StaleBall
        | SceneError::Level(flinch_core::level::LevelError::StaleCollider(_)) => {
            FlinchStatus::InvalidHandle
        }
        SceneError::Level(_) => FlinchStatus::InvalidArgument,
        SceneError::Argument(_) => FlinchStatus::InvalidArgument,
        SceneError::Character(flinch_core::control::CharacterError::UnknownBone(_)) => {
            FlinchStatus::UnknownBone
        }
        SceneError::Character(flinch_core::control::CharacterError::Argument(_)) => {
            FlinchStatus::InvalidArgument
        }
        SceneError::Character(_) => FlinchStatus::Simulation,
    };
    let what = match e {
        SceneError::StaleCharacter => {
            format!("character {key:#x} is not in this world (removed or stale)")
        }
        SceneError::StaleBall => format!("ball {key:#x} is not in this world (removed or stale)"),
        other => other.to_string(),
    };
    FfiError::new(status, format!("{function}: {what}"))
}

/// The character `key` of a scene.
pub fn character<'a>(
    function: &str,
    scene: &'a Scene,
    key: FlinchCharacterKey,
) -> Result<&'a Character, FfiError> {
    scene
        .character(CharacterKey::from_raw(key.id))
        .map_err(|e| scene_error(function, key.id, e))
}

/// Runs `body` on character `key` of `world`.
pub fn with_character<T>(
    function: &str,
    world: FlinchWorld,
    key: FlinchCharacterKey,
    body: impl FnOnce(&Character) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    with_scene(function, world, |scene| {
        body(character(function, scene, key)?)
    })
}

/// Creates an empty world and writes it to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_create(out: *mut FlinchWorld) -> FlinchStatus {
    const F: &str = "flinch_world_create";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        out.id = lock(&WORLDS).insert(Arc::new(Mutex::new(Scene::new())));
        Ok(())
    })
}

/// Destroys a world with its characters and balls; their keys become stale. A second destroy returns
/// `FLINCH_STATUS_INVALID_HANDLE`.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_world_destroy(world: FlinchWorld) -> FlinchStatus {
    const F: &str = "flinch_world_destroy";
    guard(F, || {
        let mut table = lock(&WORLDS);
        let why = table.why_dead(world.id);
        table.remove(world.id).map(drop).ok_or_else(|| {
            FfiError::new(
                FlinchStatus::InvalidHandle,
                format!("{F}: world {:#x} {why}", world.id),
            )
        })
    })
}

/// Whether bodies of different characters in a world collide (`enabled` non-zero, the default) or pass through
/// each other (0): for crowds of one clip, whose copies all follow the clip's path and would only pile up.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_world_set_character_contacts(
    world: FlinchWorld,
    enabled: i32,
) -> FlinchStatus {
    const F: &str = "flinch_world_set_character_contacts";
    guard(F, || {
        with_scene(F, world, |scene| {
            scene.set_character_contacts(enabled != 0);
            Ok(())
        })
    })
}

/// Moves a detached character into a world (the `character` handle becomes invalid) and writes its key to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_add_character(
    world: FlinchWorld,
    character: FlinchCharacter,
    out: *mut FlinchCharacterKey,
) -> FlinchStatus {
    const F: &str = "flinch_world_add_character";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        with_scene(F, world, |scene| {
            character_is_live(F, character)?;
            let c = take_character(F, character)?;
            out.id = scene.add_character(c).to_raw();
            Ok(())
        })
    })
}

/// Removes a character from a world; its key becomes stale. When `out` is not NULL the character is returned to
/// the caller as a detached character (to add to another world or destroy), else it is destroyed.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_remove_character(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut FlinchCharacter,
) -> FlinchStatus {
    const F: &str = "flinch_world_remove_character";
    guard(F, || {
        let c = with_scene(F, world, |scene| {
            scene
                .remove_character(CharacterKey::from_raw(key.id))
                .map_err(|e| scene_error(F, key.id, e))
        })?;
        // SAFETY: valid when non-NULL per the caller's contract.
        if let Some(out) = unsafe { out.as_mut() } {
            *out = insert_character(c);
        }
        Ok(())
    })
}

/// The status of a completed world step: `FLINCH_STATUS_RECOVERED` with a message naming the faults when the
/// guard reset a character.
fn step_status(function: &str, scene: &flinch_core::scene::Scene) -> Result<(), FfiError> {
    match scene.faults() {
        [] => Ok(()),
        faults => Err(FfiError::new(
            FlinchStatus::Recovered,
            format!(
                "{function}: the guard reset {} character(s) to their clip: {} (flinch_world_fault reads them)",
                faults.len(),
                faults
                    .iter()
                    .map(|f| format!(
                        "{:#x} at t = {} s: {}",
                        f.character.to_raw(),
                        f.event.time,
                        f.event.kind
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )),
    }
}

/// Advances a world by `dt` seconds (> 0): every character in fixed substeps no longer than its own step size,
/// balls moved, ball hits turned into impulses (see `flinch_world_event_count`). Returns
/// `FLINCH_STATUS_RECOVERED` when the simulation guard reset a character (see `flinch_world_fault`).
#[unsafe(no_mangle)]
pub extern "C" fn flinch_world_step(world: FlinchWorld, dt: f64) -> FlinchStatus {
    const F: &str = "flinch_world_step";
    guard(F, || {
        args::positive(F, "dt", dt)?;
        with_scene(F, world, |scene| {
            scene.step(dt).map_err(|e| scene_error(F, 0, e))?;
            step_status(F, scene)
        })
    })
}

/// Simulation time of a world in seconds.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_time(world: FlinchWorld, out: *mut f64) -> FlinchStatus {
    const F: &str = "flinch_world_time";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| Ok(scene.time()))?;
        Ok(())
    })
}

/// Applies `impulse` (N·s, world axes) to the body of skeleton joint `bone` at `point` (m, world), or at the
/// body's centre of mass when `point` is NULL; it acts during the next step.
///
/// # Safety
/// `bone` is NULL or a NUL-terminated string; `point` is NULL or 3 readable doubles; `impulse` is NULL or 3
/// readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_apply_impulse(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    bone: *const c_char,
    point: *const f64,
    impulse: *const f64,
) -> FlinchStatus {
    const F: &str = "flinch_world_apply_impulse";
    guard(F, || {
        // SAFETY: forwarded contract.
        let bone = unsafe { args::string(F, "bone", bone) }?;
        // SAFETY: forwarded contract.
        let impulse = unsafe { args::vector(F, "impulse", impulse) }?;
        // SAFETY: forwarded contract.
        let point = if point.is_null() {
            None
        } else {
            Some(unsafe { args::vector(F, "point", point) }?)
        };
        with_scene(F, world, |scene| {
            let c = scene
                .character_mut(CharacterKey::from_raw(key.id))
                .map_err(|e| scene_error(F, key.id, e))?;
            let unknown = |e| scene_error(F, key.id, SceneError::Character(e));
            let body = c.body_of_bone(bone).map_err(unknown)?;
            let point = point.unwrap_or(c.world().body(body).position);
            c.apply_impulse(bone, point, impulse).map_err(unknown)
        })
    })
}

/// Spawns a ball of `radius` (m) and `mass` (kg) at `position` (m) with `velocity` (m/s); its first touch of a
/// character's body becomes an impulse and a hit event. Writes its key to `*out`.
///
/// # Safety
/// `position` and `velocity` are NULL or 3 readable doubles; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_spawn_ball(
    world: FlinchWorld,
    radius: f64,
    mass: f64,
    position: *const f64,
    velocity: *const f64,
    out: *mut FlinchBall,
) -> FlinchStatus {
    const F: &str = "flinch_world_spawn_ball";
    guard(F, || {
        let radius = args::positive(F, "radius", radius)?;
        let mass = args::positive(F, "mass", mass)?;
        // SAFETY: forwarded contract.
        let position = unsafe { args::vector(F, "position", position) }?;
        // SAFETY: forwarded contract.
        let velocity = unsafe { args::vector(F, "velocity", velocity) }?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let ball = Ball {
            radius,
            mass,
            position,
            velocity,
        };
        out.id = with_scene(F, world, |scene| {
            scene.spawn_ball(ball).map_err(|e| scene_error(F, 0, e))
        })?
        .to_raw();
        Ok(())
    })
}

/// Position (m) and velocity (m/s) of a ball; either output may be NULL.
///
/// # Safety
/// `position` and `velocity` are NULL or valid for 3 doubles each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_ball_state(
    world: FlinchWorld,
    ball: FlinchBall,
    position: *mut f64,
    velocity: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_world_ball_state";
    guard(F, || {
        let (p, v) = with_scene(F, world, |scene| {
            let b = scene
                .ball(BallKey::from_raw(ball.id))
                .map_err(|e| scene_error(F, ball.id, e))?;
            Ok((b.position, b.velocity))
        })?;
        for (dst, src) in [(position, p), (velocity, v)] {
            if !dst.is_null() {
                // SAFETY: valid for 3 doubles when non-NULL per the caller's contract.
                unsafe { std::slice::from_raw_parts_mut(dst, 3) }.copy_from_slice(src.as_slice());
            }
        }
        Ok(())
    })
}

/// Removes a ball; its key becomes stale.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_world_remove_ball(world: FlinchWorld, ball: FlinchBall) -> FlinchStatus {
    const F: &str = "flinch_world_remove_ball";
    guard(F, || {
        with_scene(F, world, |scene| {
            scene
                .remove_ball(BallKey::from_raw(ball.id))
                .map(drop)
                .map_err(|e| scene_error(F, ball.id, e))
        })
    })
}
