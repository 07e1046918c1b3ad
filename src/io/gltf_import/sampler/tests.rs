use super::*;

fn v(x: f64) -> Vector4<f64> {
    Vector4::new(x, 2.0 * x, -x, 0.0)
}

#[test]
fn step_linear_cubic_scalar_values() {
    let times = vec![0.0, 1.0, 3.0];
    let step = Track::new(
        times.clone(),
        vec![v(0.0), v(1.0), v(5.0)],
        Interpolation::Step,
    )
    .unwrap();
    assert_eq!(step.sample_vec3(0.99).x, 0.0);
    assert_eq!(step.sample_vec3(1.0).x, 1.0);
    assert_eq!(step.sample_vec3(2.5).x, 1.0);
    assert_eq!(step.sample_vec3(9.0).x, 5.0);
    let lin = Track::new(
        times.clone(),
        vec![v(0.0), v(1.0), v(5.0)],
        Interpolation::Linear,
    )
    .unwrap();
    assert!((lin.sample_vec3(2.0).x - 3.0).abs() < 1e-15);
    assert_eq!(lin.sample_vec3(-1.0).x, 0.0);
    // Cubic over [1, 3]: p0 = 1, out-tangent 2 /s, p1 = 5, in-tangent −1 /s, dt = 2, midpoint s = 0.5:
    // h = (0.5, 0.125, 0.5, −0.125) → 0.5·1 + 0.125·2·2 + 0.5·5 − 0.125·2·(−1) = 3.75.
    let cubic_vals = vec![
        v(0.0),
        v(0.0),
        v(0.0),
        v(0.0),
        v(1.0),
        v(2.0),
        v(-1.0),
        v(5.0),
        v(0.0),
    ];
    let cub = Track::new(times, cubic_vals, Interpolation::CubicSpline).unwrap();
    assert!((cub.sample_vec3(2.0).x - 3.75).abs() < 1e-12);
    assert_eq!(cub.sample_vec3(3.0).x, 5.0);
    assert_eq!(cub.sample_vec3(1.0).x, 1.0);
}

#[test]
fn rejects_bad_tracks() {
    assert!(Track::new(vec![], vec![], Interpolation::Linear).is_err());
    assert!(Track::new(vec![1.0, 0.0], vec![v(0.0), v(1.0)], Interpolation::Linear).is_err());
    assert!(
        Track::new(
            vec![0.0, 1.0],
            vec![v(0.0), v(1.0)],
            Interpolation::CubicSpline
        )
        .is_err()
    );
    assert!(
        Track::new(
            vec![0.0, f64::NAN],
            vec![v(0.0), v(1.0)],
            Interpolation::Step
        )
        .is_err()
    );
    assert!(Track::new(vec![0.0], vec![v(f64::INFINITY)], Interpolation::Step).is_err());
}

#[test]
fn linear_rotation_is_slerp_on_short_arc() {
    let a = UnitQuaternion::from_euler_angles(0.0, 0.0, 0.2);
    let b = UnitQuaternion::from_euler_angles(0.0, 0.0, 1.0);
    // Store b with a flipped sign: the short arc must still be taken.
    let track = Track::new(
        vec![0.0, 2.0],
        vec![a.coords, -b.coords],
        Interpolation::Linear,
    )
    .unwrap();
    let mid = track.sample_rotation(0.5);
    let expected = UnitQuaternion::from_euler_angles(0.0, 0.0, 0.4);
    assert!(mid.angle_to(&expected) < 1e-12);
}
