//! The live plots and the event feed: every physics step samples the focused character (the joint deviation of
//! its hit chain, its contact forces, its balance state); the samples go to the page in batches (`plot`); hits,
//! balance state changes and guard resets go as they happen (`event`).

use flinch::scene::{CharacterKey, Scene};
use serde_json::json;

use super::Sim;

/// One plot sample.
#[derive(Debug, Clone, serde::Serialize)]
struct Sample {
    /// Scene time (s).
    t: f64,
    /// Deviation of each hit-chain joint from the clip (degrees).
    dev: Vec<f64>,
    /// Sum of the contact forces on the character over the step (N).
    force: f64,
    /// Balance state.
    state: &'static str,
}

/// The plot state.
#[derive(Debug, Default)]
pub struct Telemetry {
    /// The plotted character.
    pub focus: usize,
    /// Its hit chain: model bodies from the root to the hit body, then the hit body's descendants.
    pub chain: Vec<usize>,
    /// Their bone names.
    pub chain_names: Vec<String>,
    /// Bumped when the chain changes.
    pub chain_version: u32,
    samples: Vec<Sample>,
    /// Per character: root events already reported.
    root_seen: Vec<usize>,
    /// Scene time of the last focus change by a ball (balls riding a limb touch it several times).
    last_switch: f64,
}

/// The hit chain of `body`: its ancestors from the root, itself, then its descendants (depth first).
fn chain_of(model: &flinch::model::Model, body: usize) -> Vec<usize> {
    let mut up = vec![body];
    let mut b = body;
    while let Some(p) = model.bodies[b].parent {
        up.push(p);
        b = p;
    }
    up.reverse();
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        if b != body {
            up.push(b);
        }
        let children: Vec<usize> = (0..model.bodies.len())
            .rev()
            .filter(|&c| model.bodies[c].parent == Some(b))
            .collect();
        stack.extend(children);
    }
    up
}

impl Telemetry {
    /// After a rebuild: the focus kept when it still exists, the chain at the right forearm (or the root).
    pub fn reset(&mut self, scene: &Scene, keys: &[CharacterKey]) {
        self.focus = self.focus.min(keys.len().saturating_sub(1));
        self.root_seen = vec![0; keys.len()];
        self.samples.clear();
        self.last_switch = f64::NEG_INFINITY;
        let body = keys
            .get(self.focus)
            .and_then(|k| scene.character(*k).ok())
            .and_then(|c| c.body_of_bone("role:right_forearm").ok())
            .unwrap_or(0);
        self.set_focus(scene, keys, self.focus, body);
    }

    /// Plots `character` along the chain of `body`.
    pub fn set_focus(
        &mut self,
        scene: &Scene,
        keys: &[CharacterKey],
        character: usize,
        body: usize,
    ) {
        let Some(c) = keys.get(character).and_then(|k| scene.character(*k).ok()) else {
            return;
        };
        let model = c.model();
        let body = body.min(model.bodies.len() - 1);
        self.focus = character;
        self.chain = chain_of(model, body);
        self.chain_names = self
            .chain
            .iter()
            .map(|&b| model.bodies[b].name.clone())
            .collect();
        self.chain_version += 1;
        self.last_switch = scene.time();
    }

    /// Samples the focused character after a step of `h`.
    pub fn sample(&mut self, scene: &Scene, keys: &[CharacterKey], h: f64) {
        let Some(c) = keys.get(self.focus).and_then(|k| scene.character(*k).ok()) else {
            return;
        };
        let dev = self
            .chain
            .iter()
            .map(|&b| (c.joint_deviation(b).to_degrees() * 100.0).round() / 100.0)
            .collect();
        let impulse: f64 = c
            .world()
            .contact_impulses()
            .iter()
            .map(|i| i.impulse.norm())
            .sum();
        self.samples.push(Sample {
            t: scene.time(),
            dev,
            force: (impulse / h * 10.0).round() / 10.0,
            state: c.root_state().name(),
        });
    }

    /// The samples since the last flush as a `plot` message.
    pub fn flush(&mut self) -> Option<String> {
        if self.samples.is_empty() {
            return None;
        }
        let text = json!({
            "type": "plot",
            "character": self.focus,
            "chain_version": self.chain_version,
            "samples": self.samples,
        })
        .to_string();
        self.samples.clear();
        Some(text)
    }
}

impl Sim {
    /// The last step's hits, balance state changes and guard resets as `event` notices.
    pub(super) fn collect_events(&mut self) {
        let index = |k: CharacterKey| self.keys.iter().position(|x| *x == k);
        let mut notices = Vec::new();
        let mut switch = None;
        for e in self.scene.events() {
            let Some(i) = index(e.character) else {
                continue;
            };
            notices.push(
                json!({
                    "type": "event", "kind": "hit",
                    "source": if e.ball.is_some() { "ball" } else { "collider" },
                    "t": e.time, "character": i, "bone": e.bone,
                    "impulse": e.impulse.norm(),
                    "point": [e.point.x, e.point.y, e.point.z],
                })
                .to_string(),
            );
            if e.impulse.norm() >= 1.0 && switch.is_none() {
                switch = Some((i, e.body));
            }
        }
        for (i, k) in self.keys.iter().enumerate() {
            let Ok(c) = self.scene.character(*k) else {
                continue;
            };
            let events = c.root_events();
            let seen = &mut self.telemetry.root_seen[i];
            if events.len() < *seen {
                *seen = 0;
            }
            for e in &events[*seen..] {
                notices.push(
                    json!({
                        "type": "event", "kind": "state", "t": e.time, "character": i,
                        "from": e.from.name(), "to": e.to.name(),
                    })
                    .to_string(),
                );
            }
            *seen = events.len();
        }
        for f in self.scene.faults() {
            if let Some(i) = index(f.character) {
                notices.push(
                    json!({
                        "type": "event", "kind": "fault", "t": self.scene.time(), "character": i,
                        "message": format!("{:?}", f.event),
                    })
                    .to_string(),
                );
            }
        }
        if let Some((i, body)) = switch
            && self.scene.time() - self.telemetry.last_switch > 0.3
        {
            self.telemetry.set_focus(&self.scene, &self.keys, i, body);
            self.publish_status();
        }
        if !notices.is_empty() {
            let mut p = self.shared.lock();
            for n in notices {
                p.log.push(None, n);
            }
        }
    }
}
