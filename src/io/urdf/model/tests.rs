use super::*;
use nalgebra::Rotation3;

#[test]
fn box_inertia_rotated_90_about_z_swaps_xx_and_yy() {
    let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let r = Rotation3::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2);
    let j = rotate_inertia(r.matrix(), &i);
    assert!((j - Matrix3::from_diagonal(&Vector3::new(2.0, 1.0, 3.0))).norm() < 1e-12);
}

#[test]
fn indefinite_tensor_is_rejected_and_triangle_reported() {
    let bad = Matrix3::from_diagonal(&Vector3::new(1.0, -0.5, 1.0));
    assert!(
        inertia_problem(&bad)
            .unwrap()
            .contains("positive semi-definite")
    );
    let thin = Matrix3::from_diagonal(&Vector3::new(0.1, 0.1, 1.0));
    assert!(inertia_problem(&thin).is_none());
    assert!((triangle_violation(&thin).unwrap() - 0.8).abs() < 1e-12);
    assert!(triangle_violation(&Matrix3::identity()).is_none());
    assert!(inertia_problem(&Matrix3::zeros()).is_none());
}
