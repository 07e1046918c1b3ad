//! Tracking and hit-recovery metrics: what an evaluation run (`evaluate.rs`) measures — joint-angle errors
//! against the reference (and the raw clip), the peak deviation after a hit, the time back within 2°, the largest
//! joint separation and the energy the hit injected — and the hits and options it runs with.

use nalgebra::Vector3;

use super::character::ControlTerms;

/// A scripted hit: an impulse at a point of a bone's body at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Skeleton joint name (its body is hit).
    pub bone: String,
    /// Time of the hit (s).
    pub time: f64,
    /// Impulse (N·s, world).
    pub impulse: Vector3<f64>,
    /// Point of application (m, world, at the hit time); `None`: the body's centre of mass.
    pub point: Option<Vector3<f64>>,
}

/// What to run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvalOptions {
    /// Hits, in any order.
    pub hits: Vec<Hit>,
    /// Control terms (both by default).
    pub terms: ControlTerms,
    /// Stop after this many seconds (default: the whole reference).
    pub duration: Option<f64>,
}

/// Error figures of one joint.
#[derive(Debug, Clone, PartialEq)]
pub struct JointError {
    /// Name of the body's skeleton joint.
    pub name: String,
    /// RMS joint-angle error against the reference (degrees) before the first hit.
    pub rms_deg: f64,
    /// Largest joint-angle error against the reference (degrees) before the first hit.
    pub max_deg: f64,
}

/// Figures of a hit run.
#[derive(Debug, Clone, PartialEq)]
pub struct HitFigures {
    /// Largest joint-angle deviation from the reference after the first hit (degrees).
    pub peak_deg: f64,
    /// The joint where it happened.
    pub peak_joint: String,
    /// When it happened (s).
    pub peak_time: f64,
    /// Time from the first hit until every joint stays within 2° of the reference (s); `None` if it never does
    /// before the end of the run.
    pub return_s: Option<f64>,
    /// Work done by the hit forces (J).
    pub energy_j: f64,
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Simulation step (s).
    pub h: f64,
    /// Steps run.
    pub steps: usize,
    /// RMS joint-angle error against the reference (degrees), all joints, before the first hit.
    pub track_rms_deg: f64,
    /// Largest joint-angle error against the reference (degrees), before the first hit.
    pub track_max_deg: f64,
    /// RMS joint-angle error against the raw (unfiltered, unprojected) clip (degrees), before the first hit.
    pub raw_rms_deg: f64,
    /// Largest joint-angle error against the raw clip (degrees), before the first hit.
    pub raw_max_deg: f64,
    /// Per-joint errors.
    pub joints: Vec<JointError>,
    /// Largest joint anchor separation over the whole run (mm).
    pub max_joint_gap_mm: f64,
    /// Hit figures, when the run had hits.
    pub hit: Option<HitFigures>,
    /// Per step: time (s) and the largest joint deviation from the reference (degrees).
    pub deviation: Vec<(f64, f64)>,
}

impl Evaluation {
    /// The `figure <name> <value> <unit>` lines of this run.
    pub fn figure_lines(&self) -> Vec<String> {
        let mut v = vec![
            format!("figure track_rms_deg {:.3e} deg", self.track_rms_deg),
            format!("figure track_max_deg {:.3e} deg", self.track_max_deg),
            format!("figure raw_rms_deg {:.4} deg", self.raw_rms_deg),
            format!("figure raw_max_deg {:.4} deg", self.raw_max_deg),
            format!("figure max_joint_gap_mm {:.3e} mm", self.max_joint_gap_mm),
        ];
        if let Some(h) = &self.hit {
            v.push(format!("figure hit_peak_deg {:.3} deg", h.peak_deg));
            v.push(match h.return_s {
                Some(r) => format!("figure hit_return_s {r:.4} s"),
                None => "figure hit_return_s inf s".to_string(),
            });
            v.push(format!("figure hit_energy_j {:.3} J", h.energy_j));
        }
        v
    }
}
