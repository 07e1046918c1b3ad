//! Issue 11's knock-down run: one free-root character in a scene takes an aimed ball, and the run measures
//! whether it fell, how long it took to come to rest, penetration, joint gaps, NaN steps, the return of a small
//! hit and the balance state events. Shared by `examples/knockdown.rs`, the tests, `flinch demo` and `flinch
//! eval --root`.

use nalgebra::Vector3;

use super::{Scene, SceneError, aimed_ball};
use crate::control::{Character, FallEvent, RETURN_BAND_DEG, RootEvent, RootState};
use crate::level::Level;

/// The ball of a knock-down run.
#[derive(Debug, Clone, PartialEq)]
pub struct KnockdownHit {
    /// Bone (name or `role:NAME`) the ball is aimed at.
    pub bone: String,
    /// Arrival time at the bone (s).
    pub time: f64,
    /// Ball mass (kg).
    pub mass: f64,
    /// Ball radius (m).
    pub radius: f64,
    /// Speed at arrival (m/s).
    pub speed: f64,
    /// Direction of flight (world, normalised here); `None`: against the clip's walking direction at `time`
    /// (a frontal hit).
    pub direction: Option<Vector3<f64>>,
}

impl KnockdownHit {
    /// The heavy hit: 5 kg at 12 m/s into the chest at t = 1 s, from the front.
    pub fn heavy() -> KnockdownHit {
        KnockdownHit {
            bone: "role:chest".into(),
            time: 1.0,
            mass: 5.0,
            radius: 0.11,
            speed: 12.0,
            direction: None,
        }
    }

    /// The demo's ball: 0.45 kg at 15 m/s across the right forearm at t = 1 s.
    pub fn small() -> KnockdownHit {
        KnockdownHit {
            bone: "RightForeArm".into(),
            time: 1.0,
            mass: 0.45,
            radius: 0.11,
            speed: 15.0,
            direction: Some(Vector3::x()),
        }
    }
}

/// What a knock-down run measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KnockdownFigures {
    /// Whether the character entered `Falling`.
    pub fell: bool,
    /// Time from the hit to `Resting` (s), if it came to rest.
    pub rest_after_s: Option<f64>,
    /// Time from the hit until every joint is back within 2° of the clip in `Tracking` (s), if it came back.
    pub hit_return_s: Option<f64>,
    /// The ball's impulse on the character (N·s).
    pub impulse_ns: f64,
    /// Deepest body point below the floor after a step, over the run (mm).
    pub max_penetration_mm: f64,
    /// Largest joint separation after a step (mm).
    pub max_joint_gap_mm: f64,
    /// Steps the guard had to reset (a non-finite or exploded state).
    pub nan_steps: usize,
    /// Steps in which a body's centre crossed a collider's surface of the level (a segment test from its centre
    /// before the step to after: a body passing through a wall, a stair or a floor).
    pub tunnel_count: usize,
    /// The balance state events, in order.
    pub events: Vec<RootEvent>,
    /// The protective fall's phase events, in order (`Character::fall_events`).
    pub fall_events: Vec<FallEvent>,
    /// World time of the end of the first step after the hit in which the head body touched the ground (one of
    /// its probes carried a normal contact impulse), s.
    pub head_touch_s: Option<f64>,
    /// The head body's speed (its centre of mass, m/s) at the start of that step: the speed it hits the ground
    /// with.
    pub head_impact_speed_m_s: Option<f64>,
    /// World time of the end of the first step after the hit in which a hand or forearm body touched the ground
    /// (s).
    pub hand_touch_s: Option<f64>,
}

/// A body centre that ends a step more than this past a collider surface it crossed in the step passed through it
/// (m): less is a centre at a surface (a toe's centre of mass lies at its sole) moving by round-off and contact
/// slop, which the penetration figure measures.
const TUNNEL_TOLERANCE_M: f64 = 0.01;

/// Runs `character` (a free or assisted root) in a scene for `duration` seconds with `hit`, calling `frame` after
/// every step (for filmstrips).
pub fn run_knockdown(
    character: Character,
    hit: &KnockdownHit,
    duration: f64,
    frame: impl FnMut(&Character),
) -> Result<KnockdownFigures, SceneError> {
    run_knockdown_in(character, hit, duration, Level::new(), frame)
}

/// [`run_knockdown`] in a level (the character stands on its colliders, falls against them; the penetration is
/// measured against them and every step checks that no body centre crossed a collider's surface).
pub fn run_knockdown_in(
    character: Character,
    hit: &KnockdownHit,
    duration: f64,
    level: Level,
    mut frame: impl FnMut(&Character),
) -> Result<KnockdownFigures, SceneError> {
    if !character.root_policy().is_free() {
        return Err(SceneError::Argument(
            "a knock-down run needs a free or assisted root".into(),
        ));
    }
    let h = character.step_size();
    let direction = match hit.direction {
        Some(d) => d,
        None => {
            let r = character.reference();
            let k = ((hit.time / r.h).round() as usize).min(r.steps - 1);
            -Vector3::new(r.root_vel[k].x, 0.0, r.root_vel[k].z)
        }
    };
    let direction = direction
        .try_normalize(1e-9)
        .ok_or_else(|| SceneError::Argument("the ball's direction is zero".into()))?;
    let (launch, ball) = aimed_ball(
        &character,
        &hit.bone,
        hit.time,
        direction * hit.speed,
        hit.radius,
        hit.mass,
        0.2,
    )?;
    // The head and the hands (or forearms) whose first ground contacts the run times.
    let head = character.body_of_bone("role:head").ok();
    let hands: Vec<usize> = ["left_hand", "right_hand", "left_forearm", "right_forearm"]
        .iter()
        .filter_map(|r| character.body_of_bone(&format!("role:{r}")).ok())
        .filter(|&b| Some(b) != head && b != 0)
        .collect();
    let mut scene = Scene::new();
    scene.set_level(level);
    let key = scene.add_character(character);
    let mut centres: Vec<Vector3<f64>> = Vec::new();
    let mut figures = KnockdownFigures::default();
    let mut ball = Some(ball);
    let mut hit_time: Option<f64> = None;
    let mut impulse = Vector3::zeros();
    let steps = (duration / h).round() as usize;
    for _ in 0..steps {
        if scene.time() >= launch - 1e-9
            && let Some(b) = ball.take()
        {
            scene.spawn_ball(b)?;
        }
        let c = scene.character(key)?;
        centres.clear();
        centres.extend((0..c.model().bodies.len()).map(|b| c.world().body(b).position));
        let head_speed = head.map(|b| c.world().body(b).velocity.fixed_rows::<3>(3).norm());
        scene.step(h)?;
        let c = scene.character(key)?;
        let crossed = centres.iter().enumerate().any(|(b, before)| {
            let d = c.world().body(b).position - before;
            let len = d.norm();
            len > TUNNEL_TOLERANCE_M
                && scene
                    .level()
                    .cast_ray(before, &d, len, u32::MAX)
                    .is_some_and(|hit| len - hit.distance > TUNNEL_TOLERANCE_M)
        });
        figures.tunnel_count += usize::from(crossed);
        if c.last_fault().is_some() {
            figures.nan_steps += 1;
        }
        figures.max_joint_gap_mm = figures
            .max_joint_gap_mm
            .max(scene.max_separation(key)? * 1e3);
        figures.max_penetration_mm = figures.max_penetration_mm.max(c.ground_penetration() * 1e3);
        if hit_time.is_none() && !scene.events().is_empty() {
            hit_time = Some(scene.events()[0].time);
        }
        impulse += scene
            .events()
            .iter()
            .map(|e| e.impulse)
            .sum::<Vector3<f64>>();
        if let Some(t0) = hit_time
            && figures.hit_return_s.is_none()
            && c.root_state() == RootState::Tracking
            && c.time() > t0 + 0.05
        {
            let worst = (1..c.model().bodies.len())
                .map(|b| c.joint_deviation(b).to_degrees())
                .fold(0.0, f64::max);
            if worst < RETURN_BAND_DEG {
                figures.hit_return_s = Some(c.time() - t0);
            }
        }
        if hit_time.is_some() {
            if figures.head_touch_s.is_none()
                && let Some(b) = head
                && c.touches_ground(b)
            {
                figures.head_touch_s = Some(c.time());
                figures.head_impact_speed_m_s = head_speed;
            }
            if figures.hand_touch_s.is_none() && hands.iter().any(|&b| c.touches_ground(b)) {
                figures.hand_touch_s = Some(c.time());
            }
        }
        frame(c);
    }
    let c = scene.character(key)?;
    figures.events = c.root_events().to_vec();
    figures.fall_events = c.fall_events().to_vec();
    figures.fell = figures.events.iter().any(|e| e.to == RootState::Falling);
    figures.impulse_ns = impulse.norm();
    if std::env::var_os("FLINCH_DEBUG_TUNNEL").is_some() {
        eprintln!("impulse {impulse:?} direction {direction:?}");
    }
    if let Some(t0) = hit_time {
        figures.rest_after_s = figures
            .events
            .iter()
            .find(|e| e.to == RootState::Resting)
            .map(|e| e.time - t0);
    }
    Ok(figures)
}

impl KnockdownFigures {
    /// `figure` lines (the examples' format), names prefixed by `prefix`.
    pub fn figure_lines(&self, prefix: &str) -> Vec<String> {
        let opt = |x: Option<f64>| x.map_or("none".to_string(), |v| format!("{v:.3}"));
        vec![
            format!("figure {prefix}fell {}", u8::from(self.fell)),
            format!("figure {prefix}rest_after_s {} s", opt(self.rest_after_s)),
            format!("figure {prefix}hit_return_s {} s", opt(self.hit_return_s)),
            format!("figure {prefix}hit_impulse_ns {:.3} N*s", self.impulse_ns),
            format!(
                "figure {prefix}max_penetration_mm {:.3} mm",
                self.max_penetration_mm
            ),
            format!(
                "figure {prefix}max_joint_gap_mm {:.2e} mm",
                self.max_joint_gap_mm
            ),
            format!("figure {prefix}nan_steps {}", self.nan_steps),
            format!("figure {prefix}tunnel_count {}", self.tunnel_count),
        ]
    }
}

/// Issue 39's protective-fall figures: the same knock-down with the protective fall (the default) and limp
/// (`RootConfig::protect.enabled = false`), `docs/root.md`, "Protective falls".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProtectiveFallFigures {
    /// The head's speed when it first touches the ground with protection (m/s; 0 if it never touches).
    pub head_impact_speed_m_s: f64,
    /// The same for the limp fall.
    pub limp_head_impact_speed_m_s: f64,
    /// `100 · (1 − protected / limp)` (%).
    pub head_impact_reduction_pct: f64,
    /// Whether a hand or forearm touched the ground before the head did (protected run).
    pub hand_before_head: bool,
    /// First hand / forearm touch, first head touch of the protected run (world time, s).
    pub hand_touch_s: Option<f64>,
    pub head_touch_s: Option<f64>,
    /// The same two of the limp run.
    pub limp_hand_touch_s: Option<f64>,
    pub limp_head_touch_s: Option<f64>,
}

impl ProtectiveFallFigures {
    /// The figures of a protected and a limp run of the same hit.
    pub fn new(protected: &KnockdownFigures, limp: &KnockdownFigures) -> ProtectiveFallFigures {
        let speed = |f: &KnockdownFigures| f.head_impact_speed_m_s.unwrap_or(0.0);
        let (p, l) = (speed(protected), speed(limp));
        ProtectiveFallFigures {
            head_impact_speed_m_s: p,
            limp_head_impact_speed_m_s: l,
            head_impact_reduction_pct: if l > 0.0 { 100.0 * (1.0 - p / l) } else { 0.0 },
            hand_before_head: match (protected.hand_touch_s, protected.head_touch_s) {
                (Some(hand), Some(head)) => hand < head,
                (Some(_), None) => true,
                _ => false,
            },
            hand_touch_s: protected.hand_touch_s,
            head_touch_s: protected.head_touch_s,
            limp_hand_touch_s: limp.hand_touch_s,
            limp_head_touch_s: limp.head_touch_s,
        }
    }

    /// `figure protective_fall_*` lines.
    pub fn figure_lines(&self) -> Vec<String> {
        let opt = |x: Option<f64>| x.map_or("none".to_string(), |v| format!("{v:.3}"));
        let p = "figure protective_fall_";
        vec![
            format!(
                "{p}head_impact_speed_m_s {:.3} m/s",
                self.head_impact_speed_m_s
            ),
            format!(
                "{p}limp_head_impact_speed_m_s {:.3} m/s",
                self.limp_head_impact_speed_m_s
            ),
            format!(
                "{p}head_impact_reduction_pct {:.1} %",
                self.head_impact_reduction_pct
            ),
            format!("{p}hand_before_head {}", u8::from(self.hand_before_head)),
            format!("{p}hand_touch_s {} s", opt(self.hand_touch_s)),
            format!("{p}head_touch_s {} s", opt(self.head_touch_s)),
            format!("{p}limp_hand_touch_s {} s", opt(self.limp_hand_touch_s)),
            format!("{p}limp_head_touch_s {} s", opt(self.limp_head_touch_s)),
        ]
    }
}
