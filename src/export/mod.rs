//! Exports of the physical character for other tools.
//!
//! - [`mjcf`]: the character as MuJoCo XML with the reference motion and flinch's inverse-dynamics forces in
//!   MuJoCo's generalized coordinates, so that `mj_inverse` can check them (see `docs/mjcf.md`).

pub mod mjcf;
mod mjcf_layout;
mod mjcf_xml;

pub use mjcf::{ExportError, MjcfFiles, MjcfLayout, write_mjcf, write_mjcf_with};
pub use mjcf_xml::{MjcfFloor, character_xml};
