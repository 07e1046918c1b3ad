//! Hits in the character's scale: a hits file with `"scale": "body"` states its hits for a reference performer
//! (1.75 m, 70 kg), and each becomes what the same blow is to the character baked.
//!
//! The law is Froude's: a character `s` times the reference's height and `m` times its mass moves like the
//! reference when its speeds scale by √s and its momenta by m·√s. So an impulse is multiplied by `m·√s`, an
//! aimed ball keeps its mass and flies `m·√s` times as fast with a radius `s` times the reference's (it hits a
//! limb `s` times as wide), and a free ball (launched from a world point) carries `m·√s` times the mass. A
//! retarget (`bake --onto`) scales by its own per-bone lever ratio against the clip's performer instead
//! ([`crate::retarget::hit_scale`]), which also accounts for a rig whose proportions are not the performer's.

use super::script::{HitScale, HitScript, ScriptedHit};

/// Height of the reference performer body-relative hits are stated for (m).
pub const REFERENCE_HEIGHT_M: f64 = 1.75;
/// Mass of the reference performer (kg).
pub const REFERENCE_MASS_KG: f64 = 70.0;

/// Scales outside this range are refused: a hit meant for a person would be meaningless on a character a
/// thousand times heavier or lighter.
const SCALE_RANGE: std::ops::RangeInclusive<f64> = 1e-3..=1e3;

/// What one body-relative hit became.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaledHit {
    /// Its index in the hits file.
    pub index: usize,
    /// The momentum factor applied.
    pub factor: f64,
    /// The hit as stated and as applied, in words (`aimed ball at RightForeArm: 15.00 m/s, r 0.110 m ->
    /// 21.30 m/s, r 0.094 m`).
    pub text: String,
}

fn norm(v: &[f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

fn times(v: &[f64; 3], k: f64) -> [f64; 3] {
    [v[0] * k, v[1] * k, v[2] * k]
}

/// The Froude momentum factor `m·√s` and the size `s` of a character of `mass` kg and `height` m against the
/// reference performer.
pub fn froude(mass: f64, height: f64) -> (f64, f64) {
    let s = height / REFERENCE_HEIGHT_M;
    (mass / REFERENCE_MASS_KG * s.max(0.0).sqrt(), s)
}

/// `script` with every hit multiplied by `factor(hit)` (a momentum factor) and aimed balls' radii by `size`,
/// marked absolute; and what each hit became. A script already absolute comes back unchanged with no record.
/// A factor or size that is not finite or outside 10⁻³ … 10³ is an error naming the hit.
pub fn scale_hits(
    script: &HitScript,
    size: f64,
    mut factor: impl FnMut(&ScriptedHit) -> f64,
) -> Result<(HitScript, Vec<ScaledHit>), String> {
    if script.scale == HitScale::Absolute {
        return Ok((script.clone(), Vec::new()));
    }
    if !(size.is_finite() && SCALE_RANGE.contains(&size)) {
        return Err(format!(
            "body-relative hits: the character's size is {size} times the reference's (1.75 m); expected 0.001 to 1000"
        ));
    }
    let mut out = script.clone();
    out.scale = HitScale::Absolute;
    let mut record = Vec::with_capacity(script.hits.len());
    for (index, hit) in out.hits.iter_mut().enumerate() {
        let k = factor(hit);
        if !(k.is_finite() && SCALE_RANGE.contains(&k)) {
            return Err(format!(
                "hits[{index}]: body-relative scale x{k} is out of range (0.001 to 1000)"
            ));
        }
        let text = match hit {
            ScriptedHit::Impulse { bone, impulse, .. } => {
                let was = norm(impulse);
                *impulse = times(impulse, k);
                format!("impulse on {bone}: {was:.3} -> {:.3} N·s", was * k)
            }
            ScriptedHit::AimedBall {
                bone,
                velocity,
                radius,
                ..
            } => {
                let (v, r) = (norm(velocity), *radius);
                *velocity = times(velocity, k);
                *radius *= size;
                format!(
                    "aimed ball at {bone}: {v:.2} m/s, r {r:.3} m -> {:.2} m/s, r {:.3} m",
                    v * k,
                    r * size
                )
            }
            ScriptedHit::Ball { mass, .. } => {
                let m = *mass;
                *mass *= k;
                format!("ball: {m:.3} -> {:.3} kg", m * k)
            }
        };
        record.push(ScaledHit {
            index,
            factor: k,
            text,
        });
    }
    Ok((out, record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::PointSpace;

    fn script() -> HitScript {
        HitScript {
            hits: vec![
                ScriptedHit::Impulse {
                    time: 1.0,
                    bone: "Head".into(),
                    impulse: [0.0, 0.0, -2.0],
                    point: None,
                    space: PointSpace::World,
                },
                ScriptedHit::AimedBall {
                    bone: "RightForeArm".into(),
                    arrival: 1.0,
                    velocity: [15.0, 0.0, 0.0],
                    radius: 0.11,
                    mass: 0.45,
                    flight: 0.2,
                },
            ],
            restitution: 0.0,
            scale: HitScale::Body,
        }
    }

    #[test]
    fn the_reference_performer_keeps_its_hits_and_others_scale_by_froude() {
        let (k, s) = froude(REFERENCE_MASS_KG, REFERENCE_HEIGHT_M);
        assert_eq!((k, s), (1.0, 1.0));
        let (same, record) = scale_hits(&script(), s, |_| k).unwrap();
        assert_eq!(same.hits, script().hits);
        assert_eq!(same.scale, HitScale::Absolute);
        assert_eq!(record.len(), 2);
        // Four times the height and twice the mass: momenta x 2 x 2 = 4, sizes x 4.
        let (k, s) = froude(140.0, 7.0);
        assert!((k - 4.0).abs() < 1e-12 && (s - 4.0).abs() < 1e-12);
        let (big, record) = scale_hits(&script(), s, |_| k).unwrap();
        let ScriptedHit::Impulse { impulse, .. } = &big.hits[0] else {
            panic!()
        };
        assert_eq!(impulse, &[0.0, 0.0, -8.0]);
        let ScriptedHit::AimedBall {
            velocity, radius, ..
        } = &big.hits[1]
        else {
            panic!()
        };
        assert_eq!((velocity[0], *radius), (60.0, 0.44));
        assert!(record[1].text.contains("15.00 m/s") && record[1].text.contains("60.00 m/s"));
    }

    #[test]
    fn absolute_scripts_pass_and_absurd_scales_are_errors() {
        let mut abs = script();
        abs.scale = HitScale::Absolute;
        let (same, record) = scale_hits(&abs, 50.0, |_| 1e9).unwrap();
        assert_eq!(same, abs);
        assert!(record.is_empty());
        let e = scale_hits(&script(), 1.0, |_| 1e6).unwrap_err();
        assert!(e.contains("hits[0]") && e.contains("out of range"), "{e}");
        let e = scale_hits(&script(), f64::NAN, |_| 1.0).unwrap_err();
        assert!(e.contains("size"), "{e}");
    }
}
