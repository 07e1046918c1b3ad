//! The page's commands, applied on the simulation thread between steps. A command that cannot be done (a stale
//! index, a clip without feet asked to stand) answers its session with an `error` and changes nothing.

use flinch::control::RootPolicy;
use flinch::scene::{Ball, RayTarget, aimed_ball};
use flinch::view_protocol::{ClientMessage, TIME_SCALE_RANGE};
use nalgebra::Vector3;
use serde_json::json;

use super::record::Recording;
use super::{Drag, Placed, Sim, describe};

/// The knock-down ball: 5 kg at 12 m/s into the chest, 0.3 s after the button, after 0.2 s of flight.
const KNOCKDOWN: (f64, f64, f64, f64, f64) = (5.0, 0.11, 12.0, 0.3, 0.2);
/// Spacing of added characters across the walking direction (m).
const SPACING: f64 = 1.2;

fn vec3(v: [f64; 3]) -> Vector3<f64> {
    Vector3::new(v[0], v[1], v[2])
}

impl Sim {
    /// Applies one message of session `session`.
    pub(super) fn handle(&mut self, session: u64, message: ClientMessage) {
        // A click's impulse shows from the next step's frame: a frame before it would only delay that one (the
        // page asks for one frame at a time).
        let redraw = !matches!(message, ClientMessage::Hit { .. });
        if let Err(e) = self.apply(session, message) {
            self.notice(Some(session), describe::error(&e));
        }
        self.dirty |= redraw;
    }

    fn character_index(&self, i: usize) -> Result<flinch::scene::CharacterKey, String> {
        self.keys
            .get(i)
            .copied()
            .ok_or_else(|| format!("no character {i}: the scene has {}", self.keys.len()))
    }

    fn apply(&mut self, session: u64, message: ClientMessage) -> Result<(), String> {
        match message {
            ClientMessage::Frame {} => {}
            ClientMessage::Play {} => {
                self.paused = false;
                self.publish_status();
            }
            ClientMessage::Pause {} => {
                self.paused = true;
                self.publish_status();
            }
            ClientMessage::Step { count } => {
                self.paused = true;
                for _ in 0..count {
                    self.step_once();
                }
                self.publish_status();
            }
            ClientMessage::TimeScale { scale } => {
                self.scale = scale.clamp(TIME_SCALE_RANGE.0, TIME_SCALE_RANGE.1);
                self.publish_status();
            }
            ClientMessage::Restart {} => self.rebuild()?,
            ClientMessage::Scrub { time } => self.scrub(time)?,
            ClientMessage::Load { clip } => {
                self.check_clip(clip)?;
                let previous = std::mem::replace(
                    &mut self.placed,
                    vec![Placed {
                        clip,
                        offset: Vector3::zeros(),
                        policy: RootPolicy::Kinematic,
                        assist: None,
                    }],
                );
                if let Err(e) = self.recast() {
                    self.placed = previous;
                    self.rebuild()?;
                    return Err(e);
                }
            }
            ClientMessage::AddCharacter { clip } => self.add_character(clip)?,
            ClientMessage::Hit {
                origin,
                direction,
                strength,
            } => self.hit(session, vec3(origin), vec3(direction).normalize(), strength)?,
            ClientMessage::Throw {
                origin,
                direction,
                speed,
                mass,
                radius,
            } => {
                let d = vec3(direction).normalize();
                self.scene
                    .spawn_ball(Ball {
                        radius,
                        mass,
                        position: vec3(origin) + d * (radius + 0.2),
                        velocity: d * speed,
                    })
                    .map_err(|e| e.to_string())?;
            }
            ClientMessage::Drag {
                character,
                body,
                local,
                target,
                stiffness,
            } => {
                let key = self.character_index(character)?;
                let bodies = self
                    .scene
                    .character(key)
                    .map_err(|e| e.to_string())?
                    .model()
                    .bodies
                    .len();
                if body >= bodies {
                    return Err(format!(
                        "no body {body}: character {character} has {bodies}"
                    ));
                }
                self.drag = Some(Drag {
                    character,
                    body,
                    local: vec3(local),
                    target: vec3(target),
                    stiffness,
                });
            }
            ClientMessage::DragEnd {} => self.drag = None,
            ClientMessage::Root {
                character,
                policy,
                assist,
            } => {
                let key = self.character_index(character)?;
                let c = self.scene.character_mut(key).map_err(|e| e.to_string())?;
                c.set_root_policy(policy).map_err(|e| e.to_string())?;
                if let Some(w) = assist {
                    c.set_assist_weight(w).map_err(|e| e.to_string())?;
                }
                self.placed[character].policy = policy;
                self.placed[character].assist = assist.or(self.placed[character].assist);
                // Snapshots of the other policy's world cannot be restored into this one.
                self.history.clear();
                self.snapshot();
                self.telemetry.reset(&self.scene, &self.keys);
                self.publish_status();
            }
            ClientMessage::Knockdown { character } => self.knockdown(character)?,
            ClientMessage::Record { on } => self.record(on)?,
            ClientMessage::Focus { character } => {
                self.character_index(character)?;
                let body = self.telemetry.chain.last().copied().unwrap_or(0);
                self.telemetry
                    .set_focus(&self.scene, &self.keys, character, body);
                self.publish_status();
            }
            ClientMessage::Stats {} => {
                let mean = |(s, n): (f64, u64)| if n > 0 { s / n as f64 * 1e6 } else { 0.0 };
                let text = json!({
                    "type": "stats",
                    "step_us_alone": mean(self.timing.alone),
                    "steps_alone": self.timing.alone.1,
                    "step_us_watched": mean(self.timing.watched),
                    "steps_watched": self.timing.watched.1,
                    "characters": self.keys.len(),
                    "time": self.scene.time(),
                })
                .to_string();
                self.notice(Some(session), text);
            }
        }
        Ok(())
    }

    fn check_clip(&self, clip: usize) -> Result<(), String> {
        if clip < self.setup.clips.len() {
            Ok(())
        } else {
            Err(format!(
                "no clip {clip}: {} clips were given on the command line",
                self.setup.clips.len()
            ))
        }
    }

    /// A character of `clip` beside the others (alternately right and left of the first's path); the scene
    /// restarts so that every character starts its clip together.
    fn add_character(&mut self, clip: usize) -> Result<(), String> {
        self.check_clip(clip)?;
        if self.placed.len() >= flinch::view_protocol::MAX_CHARACTERS {
            return Err(format!(
                "the viewer holds at most {} characters",
                flinch::view_protocol::MAX_CHARACTERS
            ));
        }
        let n = self.placed.len();
        let side = self.setup.clips[0].travel.cross(&Vector3::y());
        let k = n.div_ceil(2) as f64 * if n % 2 == 1 { 1.0 } else { -1.0 };
        self.placed.push(Placed {
            clip,
            offset: side * (k * SPACING),
            policy: RootPolicy::Kinematic,
            assist: None,
        });
        if let Err(e) = self.recast() {
            self.placed.pop();
            self.rebuild()?;
            return Err(e);
        }
        Ok(())
    }

    /// A click: the first body on the ray takes `strength` N·s along it at the point it is met.
    fn hit(
        &mut self,
        session: u64,
        origin: Vector3<f64>,
        dir: Vector3<f64>,
        strength: f64,
    ) -> Result<(), String> {
        let Some(hit) = self.scene.cast_ray(&origin, &dir, 200.0, u32::MAX) else {
            return Err("the click hit nothing".into());
        };
        let RayTarget::Character { key, body, bone } = hit.target else {
            return Err("the click hit the level, not a character".into());
        };
        let i = self.keys.iter().position(|k| *k == key).unwrap_or(0);
        let impulse = dir * strength;
        self.scene
            .character_mut(key)
            .and_then(|c| Ok(c.apply_body_impulse(body, hit.point, impulse)?))
            .map_err(|e| e.to_string())?;
        self.click_hits += 1;
        self.telemetry.set_focus(&self.scene, &self.keys, i, body);
        let p = hit.point;
        self.notice(
            None,
            json!({
                "type": "event", "kind": "hit", "source": "click", "session": session,
                "t": self.scene.time(), "character": i, "bone": bone, "impulse": strength,
                "point": [p.x, p.y, p.z], "click": self.click_hits,
            })
            .to_string(),
        );
        self.publish_status();
        Ok(())
    }

    /// The knock-down ball into `character`'s chest from the front (its root made assisted if kinematic).
    fn knockdown(&mut self, character: usize) -> Result<(), String> {
        let key = self.character_index(character)?;
        let (mass, radius, speed, after, flight) = KNOCKDOWN;
        let now = self.scene.time();
        let c = self.scene.character_mut(key).map_err(|e| e.to_string())?;
        if !c.root_policy().is_free() {
            c.set_root_policy(RootPolicy::Assisted)
                .map_err(|e| format!("a knock-down needs a free root: {e}"))?;
            self.placed[character].policy = RootPolicy::Assisted;
            self.history.clear();
        }
        let c = self.scene.character(key).map_err(|e| e.to_string())?;
        let r = c.reference();
        let arrival = c.time() + after;
        let k = ((arrival / r.h).round() as usize).min(r.steps - 1);
        let travel = Vector3::new(r.root_vel[k].x, 0.0, r.root_vel[k].z);
        let direction = (-travel)
            .try_normalize(1e-6)
            .unwrap_or(-self.setup.clips[0].travel);
        let (launch, ball) = aimed_ball(
            c,
            "role:chest",
            arrival,
            direction * speed,
            radius,
            mass,
            flight,
        )
        .map_err(|e| e.to_string())?;
        // The character's clock may run behind the scene's (characters start their clip when added).
        self.pending_balls
            .push((now + (launch - c.time()).max(0.0), ball));
        self.telemetry.reset(&self.scene, &self.keys);
        let body = c.body_of_bone("role:chest").unwrap_or(0);
        self.telemetry
            .set_focus(&self.scene, &self.keys, character, body);
        self.snapshot();
        self.publish_status();
        Ok(())
    }

    /// Goes back to the latest snapshot at or before `time`, paused.
    fn scrub(&mut self, time: f64) -> Result<(), String> {
        let Some(state) = self
            .history
            .iter()
            .rev()
            .find(|s| s.time() <= time + 1e-9)
            .or(self.history.first())
            .cloned()
        else {
            return Err("no snapshot to go back to".into());
        };
        self.scene
            .restore_state(&state)
            .map_err(|e| e.to_string())?;
        self.pending_balls.clear();
        self.drag = None;
        self.paused = true;
        if let Some(r) = &mut self.recording {
            r.cut(state.time());
        }
        self.publish_status();
        Ok(())
    }

    fn record(&mut self, on: bool) -> Result<(), String> {
        match (on, self.recording.take()) {
            (true, None) => self.recording = Some(Recording::start(&self.scene, &self.keys)),
            (true, Some(r)) => self.recording = Some(r),
            (false, None) => return Err("not recording".into()),
            (false, Some(r)) => {
                self.recordings += 1;
                let files = r.finish(&self.setup, &self.placed_clips(), self.recordings)?;
                let mut names = Vec::new();
                {
                    let mut p = self.shared.lock();
                    for (name, bytes) in files {
                        p.downloads.insert(name.clone(), std::sync::Arc::new(bytes));
                        names.push(name);
                    }
                }
                self.notice(
                    None,
                    json!({"type": "recorded", "files": names}).to_string(),
                );
            }
        }
        self.publish_status();
        Ok(())
    }

    fn placed_clips(&self) -> Vec<usize> {
        self.placed.iter().map(|p| p.clip).collect()
    }
}
