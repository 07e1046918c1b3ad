//! Baking: a clip's character is simulated with scripted hits (impulses, balls) and the reacted motion is
//! written back as an animation file for animators and pipelines. See `docs/bake.md`.

mod file;
mod output;
mod readback;
mod run;
mod scale;
mod script;

pub use file::{BakeStage, BakeSummary, bake_file, bake_file_with};
pub(crate) use file::{check_output, clip_name};
pub use output::{OutputFormat, OutputOptions, WriteSource, write_baked, write_baked_animations};
pub(crate) use output::{check_keep_unreacted, write_and_read_back};
pub use readback::{
    FootRef, LimbRef, Readback, ReadbackLimits, ReadbackPlan, StanceFigure, directions, read_back,
};
pub use run::{BakeError, BakeMode, Baked, bake};
pub use scale::{REFERENCE_HEIGHT_M, REFERENCE_MASS_KG, ScaledHit, froude, scale_hits};
pub use script::{HitScale, HitScript, PointSpace, ScriptedHit};
