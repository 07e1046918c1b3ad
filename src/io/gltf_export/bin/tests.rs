use super::*;

#[test]
fn views_are_aligned_and_min_max_exact() {
    let mut bin = Bin::new(3, 7);
    let a = bin.uints(&[1, 2, 3], "SCALAR", 1, None, true);
    assert_eq!(a, 7);
    let b = bin.floats(&[0.1, -2.0, 5.0, 1.0], "VEC2", 2, None).unwrap();
    assert_eq!(b, 8);
    assert_eq!(bin.views[1]["byteOffset"], 4);
    assert_eq!(bin.accessors[1]["min"][0], f64::from(0.1f32));
    assert_eq!(bin.accessors[1]["max"][1], 1.0);
    assert_eq!(bin.accessors[0]["componentType"], UNSIGNED_BYTE);
    assert!(bin.floats(&[f64::NAN], "SCALAR", 1, None).is_err());
    assert!(bin.floats(&[1e300], "SCALAR", 1, None).is_err());
    let i = bin.uints(&[70_000], "SCALAR", 1, None, false);
    assert_eq!(bin.accessors[i - 7]["componentType"], UNSIGNED_INT);
    assert_eq!(bin.append_raw(b"x") % 16, 0);
}
