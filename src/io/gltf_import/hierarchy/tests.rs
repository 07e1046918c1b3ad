use super::*;

#[test]
fn decompose_recovers_trs() {
    let trs = Trs {
        translation: Vector3::new(1.0, -2.0, 3.0),
        rotation: UnitQuaternion::from_euler_angles(0.3, -0.5, 1.2),
        scale: Vector3::new(2.0, 2.0, 2.0),
    };
    let back = decompose(&trs.matrix()).unwrap();
    assert!((back.translation - trs.translation).norm() < 1e-12);
    assert!(back.rotation.angle_to(&trs.rotation) < 1e-10);
    assert!((back.scale - trs.scale).norm() < 1e-12);
    assert!(decompose(&Matrix4::zeros()).is_err());
    assert!(unit_quaternion([0.0; 4]).is_err());
}
