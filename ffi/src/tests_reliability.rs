//! The reliability entry points through the C ABI: state hashes, save/restore bytes (bit-identical continuation,
//! corrupt bytes refused), and the guard's `FLINCH_STATUS_RECOVERED` with its fault events.

use std::ptr::{null, null_mut};

use crate::FlinchStatus as S;
use crate::reliability::*;
use crate::tests::{expect, world_with_walk};
use crate::world::*;

const H: f64 = 1.0 / 120.0;

fn hash(w: FlinchWorld, k: FlinchCharacterKey) -> u64 {
    let (mut a, mut b) = (0u64, 0u64);
    // SAFETY: valid outputs.
    unsafe {
        expect(flinch_character_state_hash(w, k, &mut a), S::Ok, &[]);
        expect(flinch_world_state_hash(w, &mut b), S::Ok, &[]);
    }
    assert_ne!(a, b, "the world hash covers more than the character");
    a
}

#[test]
fn save_restore_through_bytes_continues_bit_for_bit() {
    let (w, k) = world_with_walk();
    for _ in 0..60 {
        expect(flinch_world_step(w, H), S::Ok, &[]);
    }
    let mut len = 0usize;
    // SAFETY: NULL buffer with capacity 0 queries the size.
    let s = unsafe { flinch_character_save_state(w, k, null_mut(), 0, &mut len) };
    assert!(matches!(s, S::NullPointer | S::BufferTooSmall));
    assert!(len > 0);
    let mut small = vec![0u8; len - 1];
    // SAFETY: a buffer of len - 1 bytes.
    let s = unsafe { flinch_character_save_state(w, k, small.as_mut_ptr(), small.len(), &mut len) };
    expect(s, S::BufferTooSmall, &["buffer", "needed"]);
    let mut bytes = vec![0u8; len];
    // SAFETY: a buffer of len bytes.
    let s =
        unsafe { flinch_character_save_state(w, k, bytes.as_mut_ptr(), bytes.len(), null_mut()) };
    expect(s, S::Ok, &[]);
    let run = || {
        (0..120)
            .map(|_| {
                expect(flinch_world_step(w, H), S::Ok, &[]);
                hash(w, k)
            })
            .collect::<Vec<_>>()
    };
    let first = run();
    // SAFETY: valid bytes.
    expect(
        unsafe { flinch_character_restore_state(w, k, bytes.as_ptr(), bytes.len()) },
        S::Ok,
        &[],
    );
    assert_eq!(run(), first);
    // Corrupt, truncated or NULL bytes are refused with a message, and the character is unchanged.
    let before = hash(w, k);
    let mut bad = bytes.clone();
    bad[40] ^= 0x10;
    // SAFETY: valid buffers.
    unsafe {
        expect(
            flinch_character_restore_state(w, k, bad.as_ptr(), bad.len()),
            S::InvalidArgument,
            &["checksum"],
        );
        expect(
            flinch_character_restore_state(w, k, bytes.as_ptr(), 7),
            S::InvalidArgument,
            &["magic"],
        );
        expect(
            flinch_character_restore_state(w, k, null(), 8),
            S::NullPointer,
            &["bytes"],
        );
        expect(
            flinch_character_restore_state(
                w,
                FlinchCharacterKey { id: 0 },
                bytes.as_ptr(),
                bytes.len(),
            ),
            S::InvalidHandle,
            &["character"],
        );
    }
    assert_eq!(hash(w, k), before);
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn the_guard_reports_recovered_with_fault_events() {
    let (w, k) = world_with_walk();
    let head = c"Head";
    let nan = [f64::NAN, 0.0, 0.0];
    let huge = [1e9, 0.0, 0.0];
    // SAFETY: valid strings and vectors.
    unsafe {
        expect(
            flinch_world_apply_impulse(w, k, head.as_ptr(), null(), nan.as_ptr()),
            S::InvalidArgument,
            &["impulse", "finite"],
        );
        expect(
            flinch_world_apply_impulse(w, k, head.as_ptr(), null(), huge.as_ptr()),
            S::Ok,
            &[],
        );
    }
    expect(
        flinch_world_step(w, H),
        S::Recovered,
        &["guard reset 1 character"],
    );
    let mut n = 0usize;
    // SAFETY: valid output.
    expect(unsafe { flinch_world_fault_count(w, &mut n) }, S::Ok, &[]);
    assert_eq!(n, 1);
    let mut f = FlinchFault {
        time: 0.0,
        character: FlinchCharacterKey { id: 0 },
        kind: FlinchFaultKind::StepFailed,
        body: 0,
        value: 0.0,
    };
    // SAFETY: valid outputs.
    unsafe {
        expect(flinch_world_fault(w, 0, &mut f), S::Ok, &[]);
        expect(
            flinch_world_fault(w, 1, &mut f),
            S::InvalidArgument,
            &["out of range"],
        );
    }
    assert_eq!(f.character, k);
    assert!((f.time - H).abs() < 1e-12);
    assert!(f.kind != FlinchFaultKind::StepFailed, "{f:?}");
    // The next step is clean and its faults are gone.
    expect(flinch_world_step(w, H), S::Ok, &[]);
    // SAFETY: valid output.
    expect(unsafe { flinch_world_fault_count(w, &mut n) }, S::Ok, &[]);
    assert_eq!(n, 0);
    expect(flinch_world_destroy(w), S::Ok, &[]);
}
