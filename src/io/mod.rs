//! File formats: one module per format. Units and up axis are normalised here, once, so everything above this
//! layer sees metres, Y up.

pub mod atomic;
pub mod bvh;
pub mod gltf_export;
pub mod gltf_import;
pub mod limits;
pub mod urdf;

use std::fmt;

mod load;

pub use atomic::{write_atomic, write_atomic_with};
pub use limits::Limits;
pub use load::{
    EMBEDDED_WALK_BVH, EMBEDDED_WALK_NAME, Format, ImportError, load_bytes, load_embedded_walk,
    load_file,
};

use crate::skeleton::{Clip, Skeleton};

/// A length unit a source file may use, with its factor to metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LengthUnit {
    /// Metres (factor 1).
    Metre,
    /// Decimetres (MakeHuman's native unit).
    Decimetre,
    /// Centimetres.
    Centimetre,
    /// Millimetres.
    Millimetre,
    /// Inches (0.0254 m).
    Inch,
    /// CMU ASF length units of the cgspeed BVH release: × 0.056444 → metres (CMU FAQ).
    CmuAsf,
    /// An explicit factor to metres given by the user.
    Custom(f64),
}

impl LengthUnit {
    /// Multiply a length in this unit by this factor to get metres.
    pub fn to_metres(self) -> f64 {
        match self {
            LengthUnit::Metre => 1.0,
            LengthUnit::Decimetre => 0.1,
            LengthUnit::Centimetre => 0.01,
            LengthUnit::Millimetre => 0.001,
            LengthUnit::Inch => 0.0254,
            LengthUnit::CmuAsf => 0.056444,
            LengthUnit::Custom(f) => f,
        }
    }

    /// Short name: `m`, `dm`, `cm`, `mm`, `in`, `cmu-asf`, or `x<factor>`.
    pub fn name(self) -> String {
        match self {
            LengthUnit::Metre => "m".into(),
            LengthUnit::Decimetre => "dm".into(),
            LengthUnit::Centimetre => "cm".into(),
            LengthUnit::Millimetre => "mm".into(),
            LengthUnit::Inch => "in".into(),
            LengthUnit::CmuAsf => "cmu-asf".into(),
            LengthUnit::Custom(f) => format!("x{f}"),
        }
    }

    /// Parses a unit name as printed by [`LengthUnit::name`], or a bare number as a factor to metres.
    pub fn parse(s: &str) -> Option<LengthUnit> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "m" | "metre" | "meter" | "metres" | "meters" => LengthUnit::Metre,
            "dm" | "decimetre" | "decimeter" => LengthUnit::Decimetre,
            "cm" | "centimetre" | "centimeter" => LengthUnit::Centimetre,
            "mm" | "millimetre" | "millimeter" => LengthUnit::Millimetre,
            "in" | "inch" | "inches" => LengthUnit::Inch,
            "cmu" | "cmu-asf" | "asf" => LengthUnit::CmuAsf,
            other => {
                let f: f64 = other.trim_start_matches('x').parse().ok()?;
                if !(f.is_finite() && f > 0.0) {
                    return None;
                }
                LengthUnit::Custom(f)
            }
        })
    }
}

/// The up axis of a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpAxis {
    /// Y up (flinch's own convention).
    Y,
    /// Z up (MakeHuman, some exporters); rotated to Y up at import: (x, y, z) → (x, z, −y).
    Z,
}

impl fmt::Display for UpAxis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpAxis::Y => write!(f, "Y"),
            UpAxis::Z => write!(f, "Z"),
        }
    }
}

/// How to read a file; every field has a sensible default (inferred).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportOptions {
    /// Source length unit; `None` infers it from the rest-pose height (documented per format).
    pub unit: Option<LengthUnit>,
    /// Source up axis; `None` detects it.
    pub up_axis: Option<UpAxis>,
    /// Drop a detected leading reference frame (the cgspeed T-pose) from the clip.
    pub drop_leading_tpose: bool,
    /// glTF: the animation to import, by name or index (`None`: the first).
    pub animation: Option<String>,
    /// glTF: resampling rate in frames per second (`None`: 30 fps, or the key rate when uniform).
    pub sample_rate: Option<f64>,
    /// How big a file may make the skeleton and clip (joints, depth, frames, ...); see [`Limits`].
    pub limits: Limits,
}

/// What an importer inferred and noticed.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportReport {
    /// Format name: `bvh`, `gltf`, `glb`, `urdf`.
    pub format: String,
    /// The source unit used.
    pub unit: LengthUnit,
    /// Whether the unit was inferred (true) or given by the caller / fixed by the format (false).
    pub unit_inferred: bool,
    /// The source up axis used.
    pub up_axis: UpAxis,
    /// Whether the up axis was inferred.
    pub up_inferred: bool,
    /// A leading reference frame (cgspeed T-pose) was detected.
    pub leading_tpose: bool,
    /// That frame was dropped from the clip.
    pub leading_tpose_dropped: bool,
    /// Non-fatal problems, each saying where and what.
    pub warnings: Vec<String>,
}

impl ImportReport {
    /// A report for a format with a fixed unit and up axis (nothing inferred yet).
    pub fn new(format: &str) -> ImportReport {
        ImportReport {
            format: format.to_string(),
            unit: LengthUnit::Metre,
            unit_inferred: false,
            up_axis: UpAxis::Y,
            up_inferred: false,
            leading_tpose: false,
            leading_tpose_dropped: false,
            warnings: Vec::new(),
        }
    }
}

/// A skeleton and its clip, in metres, Y up, with what the importer inferred.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The joint tree.
    pub skeleton: Skeleton,
    /// The motion (a one-frame rest clip for files without animation).
    pub clip: Clip,
    /// Inferred unit, up axis, warnings.
    pub report: ImportReport,
}

impl Imported {
    /// Whether the clip still starts with a detected T-pose frame (cgspeed BVH) that is not motion.
    fn has_leading_tpose(&self) -> bool {
        self.report.leading_tpose
            && !self.report.leading_tpose_dropped
            && self.clip.frames.len() > 1
    }

    /// The clip's motion frames: without a detected leading T-pose frame (no copy).
    pub fn animation_frames(&self) -> &[crate::skeleton::Pose] {
        &self.clip.frames[usize::from(self.has_leading_tpose())..]
    }

    /// The clip without a detected leading T-pose frame, made `seconds` long by [`crate::skeleton::Clip::looped`]
    /// (its best loop repeated without a seam, each repetition moved on by the distance the loop travels): a walk
    /// as long as a course needs. An error for `seconds` that is not finite and positive, or a clip that would
    /// pass `limits`' frames or joint poses.
    pub fn looped(&self, seconds: f64, limits: &Limits) -> Result<Imported, String> {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(format!(
                "loop length must be finite and > 0 s, got {seconds}"
            ));
        }
        let mut out = self.clone();
        out.drop_leading_tpose();
        let frames = (seconds / out.clip.frame_time).round();
        let poses = frames * out.skeleton.joints.len() as f64;
        if frames > limits.max_frames as f64 || poses > limits.max_pose_values as f64 {
            return Err(format!(
                "a {seconds} s loop is {frames} frames of {} joints: more than the limits ({} frames, {} joint poses)",
                out.skeleton.joints.len(),
                limits.max_frames,
                limits.max_pose_values
            ));
        }
        out.clip = out.clip.looped(seconds);
        Ok(out)
    }

    /// Drops a detected leading T-pose frame from the clip (what a character plays), once.
    pub fn drop_leading_tpose(&mut self) {
        if self.has_leading_tpose() {
            self.clip.drop_first_frame();
            self.report.leading_tpose_dropped = true;
        }
    }
}
