//! Final assembly: the document plus its one buffer as a GLB (JSON and BIN chunks) or as a self-contained
//! `.gltf` (the buffer as a base64 data URI).

use serde_json::{Value, json};

use super::GltfExportError;

const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// Standard base64 (RFC 4648 alphabet, `=` padding).
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn pad_to_4(bytes: &mut Vec<u8>, fill: u8) {
    while bytes.len() % 4 != 0 {
        bytes.push(fill);
    }
}

fn length_u32(n: usize, what: &str) -> Result<u32, GltfExportError> {
    u32::try_from(n)
        .map_err(|_| GltfExportError::TooLarge(format!("{what} is {n} bytes, GLB allows < 4 GiB")))
}

/// Sets `buffers` to the one output buffer and serialises: GLB when `binary`, else JSON with a data URI.
pub(crate) fn pack(mut doc: Value, bin: Vec<u8>, binary: bool) -> Result<Vec<u8>, GltfExportError> {
    let Some(obj) = doc.as_object_mut() else {
        return Err(GltfExportError::Source(
            "the document is not a JSON object".into(),
        ));
    };
    if bin.is_empty() {
        obj.remove("buffers");
    } else if binary {
        obj.insert("buffers".into(), json!([{ "byteLength": bin.len() }]));
    } else {
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            encode_base64(&bin)
        );
        obj.insert(
            "buffers".into(),
            json!([{ "byteLength": bin.len(), "uri": uri }]),
        );
    }
    let mut text =
        serde_json::to_vec(&doc).map_err(|e| GltfExportError::Source(format!("JSON: {e}")))?;
    if !binary {
        return Ok(text);
    }
    pad_to_4(&mut text, b' ');
    let mut bin = bin;
    pad_to_4(&mut bin, 0);
    let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = length_u32(12 + 8 + text.len() + bin_chunk, "the GLB")?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&length_u32(text.len(), "the JSON chunk")?.to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(&text);
    if !bin.is_empty() {
        out.extend_from_slice(&length_u32(bin.len(), "the BIN chunk")?.to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
