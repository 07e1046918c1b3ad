//! Accuracy figures of a retarget, measured on the written clips (forward kinematics of both).

use nalgebra::{Isometry3, Vector3};

use super::align::Alignment;
use super::chains::Tree;
use super::stance::runs;

/// How well a retargeted clip follows its source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetargetFigures {
    /// Largest horizontal drift of a planted target ankle from where its stance began (mm).
    pub foot_skate_mm: f64,
    /// Deepest target ankle below its rest height above the floor, over every frame (mm).
    pub foot_penetration_mm: f64,
    /// |target pelvis path − leg ratio × source pelvis path| / (leg ratio × source path), horizontal (%).
    pub root_path_err_pct: f64,
    /// Mean angle between corresponding source and target limb directions in world space (upper arms,
    /// forearms, thighs, shins) over the clip (degrees).
    pub limb_dir_err_deg: f64,
}

/// A planted effector's measurement inputs.
pub struct Planted<'a> {
    /// Ankle (or wrist) position per frame.
    pub track: &'a [Vector3<f64>],
    /// Stance flags per frame.
    pub stance: &'a [bool],
    /// The lowest allowed height.
    pub min_y: f64,
}

/// Horizontal path length of a track.
fn path_length(track: &[Vector3<f64>]) -> f64 {
    track
        .windows(2)
        .map(|w| {
            let d = w[1] - w[0];
            (d.x * d.x + d.z * d.z).sqrt()
        })
        .sum()
}

/// The limb bones compared: their key roles.
const LIMBS: [&str; 8] = [
    "left_upper_arm",
    "right_upper_arm",
    "left_forearm",
    "right_forearm",
    "left_thigh",
    "right_thigh",
    "left_shin",
    "right_shin",
];

/// Measures the figures. `source` / `target`: world transforms per frame; `feet`: the planted ankles.
pub fn measure(
    tree: &Tree,
    align: &Alignment,
    source: &[Vec<Isometry3<f64>>],
    target: &[Vec<Isometry3<f64>>],
    feet: &[Planted<'_>],
) -> RetargetFigures {
    let mut skate: f64 = 0.0;
    let mut penetration: f64 = 0.0;
    for foot in feet {
        for (a, b) in runs(foot.stance, true) {
            let start = foot.track[a];
            for p in &foot.track[a..=b] {
                let d = p - start;
                skate = skate.max((d.x * d.x + d.z * d.z).sqrt());
            }
        }
        for p in foot.track {
            penetration = penetration.max(foot.min_y - p.y);
        }
    }
    let pelvis = &tree.keys[0];
    let src_path: Vec<Vector3<f64>> = source
        .iter()
        .map(|w| w[pelvis.source].translation.vector)
        .collect();
    let tgt_path: Vec<Vector3<f64>> = target
        .iter()
        .map(|w| w[pelvis.target].translation.vector)
        .collect();
    let expected = path_length(&src_path) * align.leg_ratio;
    let got = path_length(&tgt_path);
    let root_path_err_pct = if expected > 1e-6 {
        100.0 * (got - expected).abs() / expected
    } else {
        // A clip standing in place: the target must stay in place too (error in % of a leg length).
        100.0 * got / align.leg_ratio.max(1e-9)
    };
    let mut sum = 0.0;
    let mut count = 0usize;
    for role in LIMBS {
        let Some(ki) = tree.keys.iter().position(|k| k.role == role) else {
            continue;
        };
        let key = &tree.keys[ki];
        let (Some(ts), Some(tt)) = (align.source_tips[ki], align.target_tips[ki]) else {
            continue;
        };
        for (ws, wt) in source.iter().zip(target) {
            let ds = (ws[key.source] * ts).coords - ws[key.source].translation.vector;
            let dt = (wt[key.target] * tt).coords - wt[key.target].translation.vector;
            if ds.norm() > 1e-9 && dt.norm() > 1e-9 {
                sum += ds.angle(&dt).to_degrees();
                count += 1;
            }
        }
    }
    RetargetFigures {
        foot_skate_mm: skate * 1000.0,
        foot_penetration_mm: penetration.max(0.0) * 1000.0,
        root_path_err_pct,
        limb_dir_err_deg: if count > 0 { sum / count as f64 } else { 0.0 },
    }
}
