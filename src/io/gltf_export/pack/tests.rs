use super::*;
use crate::io::gltf_import::container::decode_base64;

#[test]
fn base64_rfc4648_vectors_round_trip() {
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
        assert_eq!(encode_base64(bytes), text);
    }
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(decode_base64(&encode_base64(&all)).unwrap(), all);
}

#[test]
fn glb_layout_is_aligned() {
    let glb = pack(
        json!({"asset": {"version": "2.0"}}),
        vec![1, 2, 3, 4, 5],
        true,
    )
    .unwrap();
    assert_eq!(&glb[..4], b"glTF");
    assert_eq!(glb.len() % 4, 0);
    assert_eq!(
        u32::from_le_bytes([glb[8], glb[9], glb[10], glb[11]]) as usize,
        glb.len()
    );
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    assert_eq!(json_len % 4, 0);
    let text = pack(json!({"asset": {"version": "2.0"}}), vec![1, 2, 3], false).unwrap();
    let v: Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(
        v["buffers"][0]["uri"],
        "data:application/octet-stream;base64,AQID"
    );
}
