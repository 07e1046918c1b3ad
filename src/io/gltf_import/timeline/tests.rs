use super::*;
use crate::io::gltf_import::sampler::Interpolation;
use nalgebra::Vector4;

fn track(times: &[f64]) -> Track {
    Track::new(
        times.to_vec(),
        vec![Vector4::zeros(); times.len()],
        Interpolation::Linear,
    )
    .unwrap()
}

#[test]
fn uniform_keys_become_frames() {
    let a = track(&[0.0, 0.5, 1.0]);
    let b = track(&[0.0, 0.25, 0.5, 0.75, 1.0]);
    let tl = timeline(&[&a, &b], None, "x", MAX_FRAMES).unwrap();
    assert!(tl.on_keys);
    assert_eq!(tl.times, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    assert!((tl.frame_time - 0.25).abs() < 1e-15);
}

#[test]
fn irregular_keys_resample_at_30fps() {
    let a = track(&[0.0, 0.1, 1.0]);
    let tl = timeline(&[&a], None, "x", MAX_FRAMES).unwrap();
    assert!(!tl.on_keys);
    assert_eq!(tl.times.len(), 31);
    let tl = timeline(&[&a], Some(10.0), "x", MAX_FRAMES).unwrap();
    assert_eq!(tl.times.len(), 11);
    assert!(timeline(&[&a], Some(-1.0), "x", MAX_FRAMES).is_err());
    let huge = track(&[0.0, 1e12]);
    assert!(timeline(&[&huge], Some(30.0), "x", MAX_FRAMES).is_err());
    assert_eq!(
        timeline(&[], None, "x", MAX_FRAMES).unwrap().times,
        vec![0.0]
    );
}
