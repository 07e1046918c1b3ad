//! The simulation thread: the scene stepped at its fixed rate (the characters' preprocessed step, 120 Hz by
//! default) against the wall clock times the time scale, the page's commands applied between steps, and after each
//! batch of steps a pose frame published for the sessions (only while a page is connected).

mod commands;
mod describe;
mod record;
mod telemetry;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use flinch::control::RootPolicy;
use flinch::scene::{Ball, CharacterKey, Scene, SceneState};
use flinch::view_protocol::ClientMessage;
use nalgebra::Vector3;

use super::setup::Setup;
use super::shared::Shared;
use crate::CliError;
use record::Recording;
use telemetry::Telemetry;

/// An `error` message's JSON text.
pub fn describe_error(message: &str) -> String {
    describe::error(message)
}

/// What a session asks of the simulation thread.
pub enum Command {
    /// A checked client message from session `session`.
    Message {
        /// The session's id (replies go to it).
        session: u64,
        /// The message.
        message: ClientMessage,
    },
    /// A session waits for a frame newer than the published one (wakes the thread to build it).
    FrameWanted,
    /// Stop the thread.
    Stop,
}

/// The running simulation thread; dropping it stops the thread.
pub struct SimHandle {
    commands: Sender<Command>,
    thread: Option<JoinHandle<()>>,
}

impl SimHandle {
    /// A sender for the sessions.
    pub fn commands(&self) -> Sender<Command> {
        self.commands.clone()
    }
}

impl Drop for SimHandle {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts the simulation thread with one character of the first clip.
pub fn spawn(setup: Setup, shared: Arc<Shared>, paused: bool) -> Result<SimHandle, CliError> {
    let (tx, rx) = channel();
    let mut sim = Sim::new(setup, shared, paused).map_err(CliError::Input)?;
    let thread = std::thread::Builder::new()
        .name("flinch-view-sim".into())
        .spawn(move || sim.run(rx))
        .map_err(|e| CliError::Other(format!("cannot start the simulation thread: {e}")))?;
    Ok(SimHandle {
        commands: tx,
        thread: Some(thread),
    })
}

/// A character as added: its clip, where its path was moved and its root policy.
#[derive(Debug, Clone, Copy)]
struct Placed {
    clip: usize,
    offset: Vector3<f64>,
    policy: RootPolicy,
    assist: Option<f64>,
}

/// A body pulled toward the mouse.
#[derive(Debug, Clone, Copy)]
struct Drag {
    character: usize,
    body: usize,
    local: Vector3<f64>,
    target: Vector3<f64>,
    stiffness: f64,
}

/// Step timings, with and without a connected page (the viewer's overhead on the simulation).
#[derive(Debug, Default, Clone, Copy)]
struct Timing {
    /// Seconds of simulation-thread work (steps and publishing) and physics steps, without a page.
    alone: (f64, u64),
    /// The same with a page connected.
    watched: (f64, u64),
}

/// Time between state snapshots (scrub resolution, s).
const SNAPSHOT_EVERY: f64 = 0.1;
/// Snapshots kept (60 s at 0.1 s).
const SNAPSHOTS: usize = 600;
/// The most physics steps taken to catch up with the clock in one go; beyond, the simulation runs slower than
/// real time instead of freezing the page.
const MAX_CATCH_UP: usize = 8;
/// How long after the last character's clip ends the scene restarts (s).
const LOOP_PAUSE: f64 = 1.0;

/// The simulation and everything the page set.
pub struct Sim {
    setup: Setup,
    shared: Arc<Shared>,
    scene: Scene,
    keys: Vec<CharacterKey>,
    placed: Vec<Placed>,
    h: f64,
    paused: bool,
    scale: f64,
    click_hits: u32,
    /// Click hits a step has carried (a frame shows a click's impulse from the step after it on).
    applied_hits: u32,
    version: u32,
    history: Vec<SceneState>,
    drag: Option<Drag>,
    /// Balls waiting for their launch (scene time, ball).
    pending_balls: Vec<(f64, Ball)>,
    telemetry: Telemetry,
    recording: Option<Recording>,
    recordings: u32,
    timing: Timing,
    /// Something the page sees changed since the last frame.
    dirty: bool,
}

impl Sim {
    fn new(setup: Setup, shared: Arc<Shared>, paused: bool) -> Result<Sim, String> {
        let mut sim = Sim {
            setup,
            shared,
            scene: Scene::new(),
            keys: Vec::new(),
            placed: vec![Placed {
                clip: 0,
                offset: Vector3::zeros(),
                policy: RootPolicy::Kinematic,
                assist: None,
            }],
            h: 1.0 / 120.0,
            paused,
            scale: 1.0,
            click_hits: 0,
            applied_hits: 0,
            version: 0,
            history: Vec::new(),
            drag: None,
            pending_balls: Vec::new(),
            telemetry: Telemetry::default(),
            recording: None,
            recordings: 0,
            timing: Timing::default(),
            dirty: true,
        };
        sim.rebuild()?;
        Ok(sim)
    }

    /// Builds the scene from `placed` at time 0 with other characters than before: the timings, which compare
    /// one scene with and without a page, start again.
    fn recast(&mut self) -> Result<(), String> {
        self.timing = Timing::default();
        self.rebuild()
    }

    /// Builds the scene from `placed` at time 0.
    fn rebuild(&mut self) -> Result<(), String> {
        let mut scene = Scene::new();
        if let Some(level) = &self.setup.level {
            scene.set_level(level.clone());
        }
        let mut keys = Vec::with_capacity(self.placed.len());
        for p in &self.placed {
            let mut c = self.setup.character(p.clip, p.offset)?;
            if p.policy != RootPolicy::Kinematic {
                c.set_root_policy(p.policy).map_err(|e| e.to_string())?;
            }
            if let Some(w) = p.assist {
                c.set_assist_weight(w).map_err(|e| e.to_string())?;
            }
            keys.push(scene.add_character(c));
        }
        self.h = keys
            .iter()
            .filter_map(|k| scene.character(*k).ok())
            .map(|c| c.step_size())
            .fold(f64::INFINITY, f64::min);
        if !self.h.is_finite() {
            self.h = 1.0 / 120.0;
        }
        self.scene = scene;
        self.keys = keys;
        self.history.clear();
        self.pending_balls.clear();
        self.drag = None;
        self.version += 1;
        self.telemetry.reset(&self.scene, &self.keys);
        if let Some(r) = &mut self.recording {
            r.restart(&self.scene, &self.keys);
        }
        self.snapshot();
        self.publish_scene();
        self.dirty = true;
        Ok(())
    }

    fn run(&mut self, rx: Receiver<Command>) {
        let mut last = Instant::now();
        let mut owed = 0.0;
        let mut last_flush = Instant::now();
        loop {
            let wait = if self.paused {
                Duration::from_millis(50)
            } else {
                Duration::from_secs_f64(((self.h - owed) / self.scale).max(0.0))
            };
            let mut first = match rx.recv_timeout(wait) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            };
            while let Some(command) = first.take().or_else(|| rx.try_recv().ok()) {
                match command {
                    Command::Stop => return,
                    Command::FrameWanted => {}
                    Command::Message { session, message } => self.handle(session, message),
                }
            }
            let now = Instant::now();
            let elapsed = (now - last).as_secs_f64();
            last = now;
            let work = Instant::now();
            let mut steps = 0;
            if self.paused {
                owed = 0.0;
            } else {
                owed += elapsed * self.scale;
                while owed >= self.h && steps < MAX_CATCH_UP {
                    self.step_once();
                    owed -= self.h;
                    steps += 1;
                }
                if steps == MAX_CATCH_UP {
                    owed = 0.0;
                }
            }
            let watched = self.shared.has_clients();
            self.dirty |= steps > 0;
            // A frame is built only when a page waits for one and the scene changed since the last: at the page's
            // frame rate, not the physics rate, and never for a page that is still drawing the last one.
            let published = self.dirty
                && watched
                && self.shared.frame_wanted.swap(false, Ordering::AcqRel)
                && {
                    self.publish_frame();
                    self.dirty = false;
                    true
                };
            if steps > 0 || published {
                let bucket = if watched {
                    &mut self.timing.watched
                } else {
                    &mut self.timing.alone
                };
                bucket.0 += work.elapsed().as_secs_f64();
                bucket.1 += steps as u64;
            }
            if last_flush.elapsed() >= Duration::from_millis(50) {
                self.flush_telemetry();
                last_flush = Instant::now();
            }
        }
    }

    /// One physics step with everything around it: pending balls, the drag spring, events, plots, recording,
    /// snapshots, the loop back to the start.
    fn step_once(&mut self) {
        let t = self.scene.time();
        // A step after a scrub continues from the restored state: later snapshots are another history now.
        self.history.retain(|s| s.time() <= t + 1e-9);
        let due: Vec<Ball> = self
            .pending_balls
            .iter()
            .filter(|(at, _)| *at <= t + 1e-9)
            .map(|(_, b)| *b)
            .collect();
        self.pending_balls.retain(|(at, _)| *at > t + 1e-9);
        for b in due {
            let _ = self.scene.spawn_ball(b);
        }
        self.apply_drag();
        if let Err(e) = self.scene.step(self.h) {
            self.notice(
                None,
                describe::error(&format!("simulation step failed: {e}")),
            );
            self.paused = true;
            self.publish_status();
            return;
        }
        self.applied_hits = self.click_hits;
        self.collect_events();
        self.telemetry.sample(&self.scene, &self.keys, self.h);
        if let Some(r) = &mut self.recording {
            r.push(&self.scene, &self.keys);
        }
        if self.scene.time()
            >= self.history.last().map_or(0.0, |s| s.time()) + SNAPSHOT_EVERY - 1e-9
        {
            self.snapshot();
        }
        self.drop_lost_balls();
        let done = self.keys.iter().all(|k| {
            self.scene
                .character(*k)
                .is_ok_and(|c| c.finished() && c.time() >= c.reference().duration() + LOOP_PAUSE)
        });
        if done && self.recording.is_none() {
            let _ = self.rebuild();
            self.notice(None, describe::info("the clip ended: back to the start"));
        }
    }

    fn snapshot(&mut self) {
        if self.history.len() == SNAPSHOTS {
            self.history.remove(0);
        }
        self.history.push(self.scene.save_state());
    }

    /// The drag spring's force on the grabbed point over the next step: stiffness toward the mouse, damped
    /// critically for the body's mass, at most 2000 N.
    fn apply_drag(&mut self) {
        let Some(d) = self.drag else {
            return;
        };
        let Some(&key) = self.keys.get(d.character) else {
            return;
        };
        let h = self.h;
        let Ok(c) = self.scene.character_mut(key) else {
            return;
        };
        if d.body >= c.model().bodies.len() {
            return;
        }
        let point = (c.body_frame(d.body) * nalgebra::Point3::from(d.local)).coords;
        let velocity = c.point_velocity(d.body, &point);
        let mass = c.model().bodies[d.body].mass.mass.max(0.1);
        let damping = 2.0 * (d.stiffness * mass).sqrt();
        let mut force = (d.target - point) * d.stiffness - velocity * damping;
        if force.norm() > 2000.0 {
            force = force.normalize() * 2000.0;
        }
        let _ = c.apply_body_impulse(d.body, point, force * h);
    }

    /// Balls far below the floor or far away leave the scene.
    fn drop_lost_balls(&mut self) {
        let lost: Vec<_> = self
            .scene
            .balls()
            .filter(|(_, b)| b.position.y < -20.0 || b.position.norm() > 200.0)
            .map(|(k, _)| k)
            .collect();
        for k in lost {
            let _ = self.scene.remove_ball(k);
        }
    }

    fn notice(&self, to: Option<u64>, text: String) {
        self.shared.lock().log.push(to, text);
    }

    /// The pose frame for the sessions: the body frames copied out of the scene here (the thread that owns it),
    /// encoded by each session on its own thread; the lock is held for a pointer swap.
    fn publish_frame(&mut self) {
        let skinned: Vec<bool> = self
            .placed
            .iter()
            .map(|p| {
                self.setup
                    .clips
                    .get(p.clip)
                    .is_some_and(|c| c.skin.is_some())
            })
            .collect();
        let frame = describe::frame(
            &self.scene,
            &self.keys,
            &skinned,
            self.version,
            self.applied_hits,
            self.paused,
            self.recording.is_some(),
        );
        let frame = Arc::new(frame);
        let mut p = self.shared.lock();
        p.frame = Some(frame);
        p.frame_seq += 1;
    }

    fn publish_scene(&mut self) {
        let clips: Vec<usize> = self.placed.iter().map(|p| p.clip).collect();
        let text = describe::scene(&self.setup, &self.scene, &self.keys, &clips, self.version);
        let mut p = self.shared.lock();
        p.scene = text.into();
        p.scene_version = self.version;
        drop(p);
        self.publish_status();
    }

    fn publish_status(&mut self) {
        let history = (
            self.history.first().map_or(0.0, |s| s.time()),
            self.history.last().map_or(0.0, |s| s.time()),
        );
        let text = describe::status(
            self.paused,
            self.scale,
            self.recording.is_some(),
            history,
            &self.telemetry,
            &self.scene,
            &self.keys,
        );
        let mut p = self.shared.lock();
        p.status = text.as_str().into();
        p.log.push(None, text);
    }

    fn flush_telemetry(&mut self) {
        if let Some(text) = self.telemetry.flush() {
            self.notice(None, text);
        }
    }
}
