use super::*;
use std::ffi::CString;
use std::ptr::{null, null_mut};

#[test]
fn null_character_and_a_non_humanoid_are_reported_not_panicked() {
    let out = CString::new("/tmp/x.glb").unwrap();
    let s = unsafe {
        flinch_bake_onto(
            null(),
            null(),
            null(),
            out.as_ptr(),
            null(),
            null(),
            0.0,
            null_mut(),
            null_mut(),
        )
    };
    assert_ne!(s, FlinchStatus::Ok);
    let missing = CString::new("/nonexistent/character.glb").unwrap();
    let s = unsafe {
        flinch_bake_onto(
            missing.as_ptr(),
            null(),
            null(),
            out.as_ptr(),
            null(),
            null(),
            0.0,
            null_mut(),
            null_mut(),
        )
    };
    assert_eq!(s, FlinchStatus::Io);
}
