//! The one output animation: a shared time accessor (frame index × frame time) and, per node, a LINEAR
//! rotation channel and, where the node moves, a LINEAR translation channel.

use serde_json::{Value, json};

use super::GltfExportError;
use super::bin::Bin;
use super::node_tracks::NodeTrack;

/// Writes the keys of `tracks` into `bin` and returns the animation object.
pub(crate) fn animation(
    bin: &mut Bin,
    tracks: &[NodeTrack],
    frames: usize,
    frame_time: f64,
    name: &str,
) -> Result<Value, GltfExportError> {
    let times: Vec<f64> = (0..frames).map(|k| k as f64 * frame_time).collect();
    // The validator requires strictly increasing inputs, in f32.
    if let Some(k) = times.windows(2).position(|w| w[1] as f32 <= w[0] as f32) {
        return Err(GltfExportError::Mismatch(format!(
            "frame time {frame_time} s: the key times of frames {k} and {} are equal in f32",
            k + 1
        )));
    }
    let input = bin
        .floats(&times, "SCALAR", 1, None)
        .map_err(|e| GltfExportError::Mismatch(format!("key times: {e}")))?;
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for track in tracks {
        let err = |what: &str, e: String| {
            GltfExportError::Mismatch(format!("node {} {what}: {e}", track.node))
        };
        let q: Vec<f64> = track
            .rotations
            .iter()
            .flat_map(|q| {
                let c = q.into_inner().normalize().coords;
                [c.x, c.y, c.z, c.w]
            })
            .collect();
        let output = bin
            .floats(&q, "VEC4", 4, None)
            .map_err(|e| err("rotation", e))?;
        channels.push(json!({ "sampler": samplers.len(), "target": { "node": track.node, "path": "rotation" } }));
        samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
        if let Some(ts) = &track.translations {
            let v: Vec<f64> = ts.iter().flat_map(|t| [t.x, t.y, t.z]).collect();
            let output = bin
                .floats(&v, "VEC3", 3, None)
                .map_err(|e| err("translation", e))?;
            channels.push(json!({ "sampler": samplers.len(), "target": { "node": track.node, "path": "translation" } }));
            samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
        }
    }
    Ok(json!({ "name": name, "channels": channels, "samplers": samplers }))
}
