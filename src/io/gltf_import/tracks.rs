//! Reading one glTF animation into per-node translation / rotation / scale tracks.

use ::gltf::accessor::Dimensions;
use ::gltf::animation::Property;
use nalgebra::Vector4;

use super::GltfImportError;
use super::accessor::read_f64;
use super::container::BufferData;
use super::sampler::{Interpolation, Track};
use crate::io::Limits;

/// The animated properties of one node.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct NodeTracks {
    /// Translation track, if animated.
    pub translation: Option<Track>,
    /// Rotation track (`[x, y, z, w]` values), if animated.
    pub rotation: Option<Track>,
    /// Scale track, if animated.
    pub scale: Option<Track>,
}

/// The display name of an animation: its name, or `#<index>` when unnamed.
pub(crate) fn animation_label(anim: &::gltf::Animation<'_>) -> String {
    match anim.name() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("#{}", anim.index()),
    }
}

/// Reads every channel of `anim`. Morph-target `weights` channels are skipped (their count is returned), and
/// a second channel on the same node property is skipped with a warning.
pub(crate) fn read_animation(
    anim: &::gltf::Animation<'_>,
    node_count: usize,
    buffers: &[BufferData],
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Result<(Vec<NodeTracks>, usize), GltfImportError> {
    let label = animation_label(anim);
    let mut tracks = vec![NodeTracks::default(); node_count];
    let mut morph_channels = 0;
    for (ci, channel) in anim.channels().enumerate() {
        let property = channel.target().property();
        if property == Property::MorphTargetWeights {
            morph_channels += 1;
            continue;
        }
        let node = channel.target().node().index();
        let sampler = channel.sampler();
        let interpolation = Interpolation::from(sampler.interpolation());
        let ctx = |part: &str| format!("animation '{label}' channel {ci} {part}");
        let anim_err = |what: String| GltfImportError::Animation {
            animation: label.clone(),
            channel: ci,
            what,
        };
        let times = read_f64(
            &sampler.input(),
            &[Dimensions::Scalar],
            buffers,
            &ctx("input"),
            limits,
        )?;
        let (dims, width) = match property {
            Property::Rotation => (Dimensions::Vec4, 4),
            _ => (Dimensions::Vec3, 3),
        };
        let raw = read_f64(&sampler.output(), &[dims], buffers, &ctx("output"), limits)?;
        let values: Vec<Vector4<f64>> = raw
            .chunks_exact(width)
            .map(|c| Vector4::new(c[0], c[1], c[2], c.get(3).copied().unwrap_or(0.0)))
            .collect();
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if values.len() != times.len() * per_key {
            return Err(anim_err(format!(
                "sampler output has {} keys, expected {}{}",
                values.len(),
                times.len() * per_key,
                if per_key == 3 {
                    " (3 per input key for CUBICSPLINE)"
                } else {
                    ""
                }
            )));
        }
        if property == Property::Rotation {
            // Key values (not tangents) must be rotations; a zero quaternion cannot be normalised.
            let bad = values
                .iter()
                .skip(per_key / 2)
                .step_by(per_key)
                .position(|q| q.norm().is_nan() || q.norm() <= 1e-6);
            if let Some(k) = bad {
                return Err(anim_err(format!(
                    "rotation key {k} is not a unit quaternion"
                )));
            }
        }
        let track = Track::new(times, values, interpolation).map_err(anim_err)?;
        let Some(slot) = tracks.get_mut(node) else {
            return Err(anim_err(format!("target node {node} does not exist")));
        };
        let target = match property {
            Property::Translation => &mut slot.translation,
            Property::Rotation => &mut slot.rotation,
            _ => &mut slot.scale,
        };
        if target.is_some() {
            warnings.push(format!(
                "animation '{label}' channel {ci}: node {node} {property:?} is already animated by an earlier \
                 channel; this one is ignored"
            ));
        } else {
            *target = Some(track);
        }
    }
    Ok((tracks, morph_channels))
}
