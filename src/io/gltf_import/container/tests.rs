use super::*;

#[test]
fn base64_round_trips_rfc4648_vectors() {
    let cases: [(&str, &[u8]); 7] = [
        ("", b""),
        ("Zg==", b"f"),
        ("Zm8=", b"fo"),
        ("Zm9v", b"foo"),
        ("Zm9vYg==", b"foob"),
        ("Zm9vYmE=", b"fooba"),
        ("Zm9vYmFy", b"foobar"),
    ];
    for (text, bytes) in cases {
        assert_eq!(decode_base64(text).unwrap(), bytes, "{text}");
    }
    // Padding is optional in practice.
    assert_eq!(decode_base64("Zm9vYg").unwrap(), b"foob");
    assert_eq!(decode_base64("//8A").unwrap(), [255, 255, 0]);
    assert!(decode_base64("Zm9v!").is_err());
    assert!(decode_base64("Z").is_err());
    assert!(decode_base64("Zg==Zg==").is_err());
}

#[test]
fn glb_split_rejects_truncation_without_panicking() {
    let mut glb = Vec::new();
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&24u32.to_le_bytes());
    glb.extend_from_slice(&4u32.to_le_bytes());
    glb.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    glb.extend_from_slice(b"{}  ");
    let c = split(&glb).unwrap();
    assert_eq!(c.json, b"{}  ");
    assert!(c.bin.is_none());
    for n in 0..glb.len() {
        let _ = split(&glb[..n]);
    }
    assert!(split(&glb[..20]).is_err());
}

#[test]
fn percent_decoding() {
    assert_eq!(percent_decode("a%20b.bin").unwrap(), "a b.bin");
    assert!(percent_decode("a%2").is_err());
}
