//! The random-hit stress run of issue 16: a character in a scene takes random impulses (random bones, up to
//! 50 N·s) and random projectiles (0.1–5 kg, 1–31 m/s, at random bones) while every output is checked for NaN.
//! Shared by `examples/reliability_report.rs` (10 000 steps on 3 clips) and `tests/reliability_sim.rs`.

use flinch::control::Character;
use flinch::scene::{Ball, Scene};
use nalgebra::Vector3;

/// What a stress run saw.
#[derive(Debug, Clone, Copy, Default)]
pub struct StressReport {
    /// Steps taken.
    pub steps: usize,
    /// Steps after which some body state or skeleton transform was not finite (the figure: must be 0).
    pub nan_outputs: usize,
    /// Impulses applied and balls thrown.
    pub impulses: usize,
    /// Balls thrown.
    pub balls: usize,
    /// Ball hits (contact events).
    pub ball_hits: usize,
    /// Guard resets.
    pub faults: usize,
}

/// xorshift64* (Vigna 2016): a seedable generator so a run repeats exactly.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn direction(&mut self) -> Vector3<f64> {
        let v = Vector3::new(self.unit() - 0.5, self.unit() - 0.5, self.unit() - 0.5);
        v.try_normalize(1e-9).unwrap_or(Vector3::x())
    }
}

/// Whether every number a caller can read of `c` is finite: body states and the skeleton's world transforms.
pub fn outputs_finite(c: &Character) -> bool {
    let bodies = c.world().bodies().iter().all(|b| {
        b.position
            .iter()
            .chain(b.orientation.coords.iter())
            .chain(b.velocity.iter())
            .all(|x| x.is_finite())
    });
    bodies
        && c.world_transforms().iter().all(|t| {
            t.translation
                .vector
                .iter()
                .chain(t.rotation.coords.iter())
                .all(|x| x.is_finite())
        })
}

/// Steps `character` `steps` times at its own rate with an impulse every 20 steps and a ball every 60.
pub fn random_hits(character: Character, steps: usize, seed: u64) -> StressReport {
    let bodies = character.model().bodies.len();
    let h = character.step_size();
    let mut scene = Scene::new();
    let key = scene.add_character(character);
    let mut rng = Rng(seed | 1);
    let mut report = StressReport::default();
    for step in 0..steps {
        let c = scene
            .character_mut(key)
            .expect("the character is in the scene");
        let b = ((rng.unit() * bodies as f64) as usize).min(bodies - 1);
        let at = c.world().body(b).position;
        if step % 20 == 0 {
            let j = rng.direction() * 50.0 * rng.unit();
            c.apply_body_impulse(b, at, j).expect("a finite impulse");
            report.impulses += 1;
        }
        if step % 60 == 30 {
            let from = rng.direction();
            let speed = 1.0 + 30.0 * rng.unit();
            let ball = Ball {
                radius: 0.05 + 0.1 * rng.unit(),
                mass: 0.1 + 4.9 * rng.unit(),
                position: at + from * 0.6,
                velocity: -from * speed,
            };
            scene.spawn_ball(ball).expect("a valid ball");
            report.balls += 1;
        }
        scene.step(h).expect("a valid step");
        report.steps += 1;
        report.faults += scene.faults().len();
        report.ball_hits += scene.events().len();
        let c = scene.character(key).expect("the character is in the scene");
        report.nan_outputs += usize::from(!outputs_finite(c));
        // Balls that flew past are removed so the scene stays small.
        let gone: Vec<_> = scene
            .balls()
            .filter(|(_, ball)| (ball.position - at).norm() > 5.0)
            .map(|(k, _)| k)
            .collect();
        for k in gone {
            scene.remove_ball(k).expect("a live ball");
        }
    }
    report
}
