//! The bytes around the JSON: the GLB container (header, JSON and BIN chunks) and buffer resolution (GLB BIN
//! chunk, base64 data URIs, external files next to the `.gltf`).
//!
//! The `gltf` crate is built without its `import` feature, so buffers are resolved here. Its own GLB splitter
//! subtracts the header size from the declared length without a check (an overflow panic in debug builds on a
//! truncated header), so the container is split here too, with every length checked.

use std::path::Path;

use super::GltfImportError;

/// The two parts of a glTF asset: JSON text and the optional GLB binary chunk.
#[derive(Debug)]
pub(crate) struct Container<'a> {
    /// The JSON document.
    pub json: &'a [u8],
    /// The GLB `BIN\0` chunk, if any.
    pub bin: Option<&'a [u8]>,
    /// True for GLB input.
    pub is_glb: bool,
}

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn glb_err(offset: usize, what: impl Into<String>) -> GltfImportError {
    GltfImportError::Glb {
        offset,
        what: what.into(),
    }
}

/// Splits `bytes` into JSON and BIN: GLB when it starts with `glTF`, JSON text otherwise.
pub(crate) fn split(bytes: &[u8]) -> Result<Container<'_>, GltfImportError> {
    if !bytes.starts_with(GLB_MAGIC) {
        return Ok(Container {
            json: bytes,
            bin: None,
            is_glb: false,
        });
    }
    let version = read_u32(bytes, 4).ok_or_else(|| glb_err(4, "truncated 12-byte header"))?;
    if version != 2 {
        return Err(glb_err(4, format!("version {version}, expected 2")));
    }
    let declared =
        read_u32(bytes, 8).ok_or_else(|| glb_err(8, "truncated 12-byte header"))? as usize;
    if declared > bytes.len() {
        return Err(glb_err(
            8,
            format!(
                "header length {declared} exceeds the file size {}",
                bytes.len()
            ),
        ));
    }
    // Trailing bytes past the declared length are ignored, as the spec's length field is authoritative.
    let data = bytes.get(..declared).unwrap_or(bytes);
    let mut at = 12;
    let mut json = None;
    let mut bin = None;
    let mut index = 0;
    while at < data.len() {
        let len = read_u32(data, at).ok_or_else(|| glb_err(at, "truncated chunk header"))? as usize;
        let kind = read_u32(data, at + 4).ok_or_else(|| glb_err(at, "truncated chunk header"))?;
        let start = at + 8;
        let end = start
            .checked_add(len)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| {
                glb_err(
                    at,
                    format!(
                        "chunk {index} length {len} runs past the end ({} bytes)",
                        data.len()
                    ),
                )
            })?;
        let body = data.get(start..end).unwrap_or_default();
        match (index, kind) {
            (0, CHUNK_JSON) => json = Some(body),
            (0, _) => {
                return Err(glb_err(
                    at,
                    format!("first chunk type 0x{kind:08x}, expected JSON"),
                ));
            }
            (1, CHUNK_BIN) => bin = Some(body),
            // Unknown chunks must be ignored (glTF 2.0 §4.4.3.3).
            _ => {}
        }
        // Chunks are 4-byte aligned; a missing final pad is tolerated.
        at = end.saturating_add(3) & !3;
        index += 1;
    }
    let json = json.ok_or_else(|| glb_err(12, "no JSON chunk"))?;
    Ok(Container {
        json,
        bin,
        is_glb: true,
    })
}

/// Decodes standard base64 (RFC 4648 alphabet, `=` padding optional, ASCII whitespace ignored).
pub(crate) fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    let mut padding = 0usize;
    for (pos, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => {
                return Err(format!(
                    "invalid base64 character 0x{c:02x} at position {pos}"
                ));
            }
        };
        if padding > 0 {
            return Err(format!("base64 data after '=' padding at position {pos}"));
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // 6 leftover bits can never come from whole bytes: one stray character.
    if bits >= 6 {
        return Err("base64 length leaves a dangling character".into());
    }
    if padding > 2 {
        return Err(format!(
            "{padding} '=' padding characters, at most 2 allowed"
        ));
    }
    Ok(out)
}

/// Decodes `%XX` escapes of a relative URI into a file path string.
fn percent_decode(uri: &str) -> Result<String, String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad %-escape at position {i} of '{uri}'"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("'{uri}' is not UTF-8 once %-decoded"))
}

/// The bytes of one buffer, or why they are unavailable (kept per buffer so that an unused broken buffer,
/// e.g. an image, does not fail the import).
pub(crate) type BufferData = Result<Vec<u8>, String>;

/// Resolves every buffer of the document: BIN chunk, data URI or external file relative to `base_dir`.
pub(crate) fn resolve_buffers(
    doc: &::gltf::Document,
    bin: Option<&[u8]>,
    base_dir: Option<&Path>,
) -> Vec<BufferData> {
    doc.buffers()
        .map(|buffer| {
            let data = match buffer.source() {
                ::gltf::buffer::Source::Bin => bin
                    .map(<[u8]>::to_vec)
                    .ok_or_else(|| "no uri and no GLB BIN chunk".to_string()),
                ::gltf::buffer::Source::Uri(uri) => resolve_uri(uri, base_dir),
            }?;
            if data.len() < buffer.length() {
                return Err(format!(
                    "has {} bytes, byteLength says {}",
                    data.len(),
                    buffer.length()
                ));
            }
            Ok(data)
        })
        .collect()
}

fn resolve_uri(uri: &str, base_dir: Option<&Path>) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (header, payload) = rest
            .split_once(',')
            .ok_or_else(|| "data URI without ','".to_string())?;
        let mut parts = header.split(';');
        let mime = parts.next().unwrap_or_default();
        if !matches!(
            mime,
            "application/octet-stream" | "application/gltf-buffer" | ""
        ) {
            return Err(format!(
                "data URI of type '{mime}', expected application/octet-stream or application/gltf-buffer"
            ));
        }
        if !parts.any(|p| p == "base64") {
            return Err("data URI is not base64-encoded".into());
        }
        return decode_base64(payload).map_err(|e| format!("data URI: {e}"));
    }
    read_relative(uri, base_dir)
}

/// Reads the file a relative URI names (`%XX`-decoded, joined to `base_dir`). Any other scheme (http:, file:)
/// and absolute paths are refused: an importer should not reach outside the asset's folder.
pub(crate) fn read_relative(uri: &str, base_dir: Option<&Path>) -> Result<Vec<u8>, String> {
    if uri.contains("://") || uri.starts_with('/') || uri.starts_with('\\') {
        return Err(format!("uri '{uri}' is not a relative path or a data URI"));
    }
    let dir =
        base_dir.ok_or_else(|| format!("external file '{uri}' but no base directory was given"))?;
    let path = dir.join(percent_decode(uri)?);
    std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests;
