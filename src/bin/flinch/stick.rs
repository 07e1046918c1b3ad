//! Stick figures of a posed skeleton and the clip's walking direction: what the demo's, the knock-down's and the
//! world scene's filmstrips draw (one module, so the scenes do not import each other).

use flinch::render::StickFigure;
use flinch::skeleton::{Clip, Skeleton};
use nalgebra::{Isometry3, Vector3};

/// The skeleton posed by the world transforms `world` of its joints (skeleton order) as a stick figure.
pub(crate) fn stick_figure_of(skeleton: &Skeleton, world: &[Isometry3<f64>]) -> StickFigure {
    let joints: Vec<Vector3<f64>> = world.iter().map(|w| w.translation.vector).collect();
    let segments = skeleton
        .joints
        .iter()
        .enumerate()
        .filter_map(|(j, joint)| joint.parent.map(|p| [joints[p], joints[j]]))
        .collect();
    StickFigure { segments, joints }
}

/// The horizontal direction of the root's travel over the clip (unit; +Z when it hardly moves): the retargeter's
/// rule, so the demo and a retargeted character's ball come from the same side.
pub(crate) fn walking_direction(clip: &Clip, skeleton: &Skeleton) -> Vector3<f64> {
    flinch::retarget::travel_direction(skeleton, clip)
}
