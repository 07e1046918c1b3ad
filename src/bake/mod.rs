//! Baking: a clip's character is simulated with scripted hits (impulses, balls) and the reacted motion is
//! written back as an animation file for animators and pipelines. See `docs/bake.md`.

mod file;
mod output;
mod run;
mod script;

pub(crate) use file::check_output;
pub use file::{BakeStage, BakeSummary, bake_file};
pub use output::{OutputFormat, WriteSource, write_baked};
pub use run::{BakeError, BakeMode, Baked, bake};
pub use script::{HitScript, PointSpace, ScriptedHit};
