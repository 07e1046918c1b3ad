//! From bytes to a parsed `urdf_rs::Robot`: decoding, the clean-ups real files need, and a panic guard.

use std::panic::{self, AssertUnwindSafe};

use rapier3d_urdf::urdf_rs;

use super::UrdfError;

/// Decodes `bytes` as UTF-8 and removes what strict XML parsers reject but real files carry: a leading byte-order
/// mark and trailing NUL bytes (Bullet's `humanoid.urdf` ends in one NUL after `</robot>`). Trailing whitespace is
/// dropped too. Each removal that changes the meaning for a strict parser is reported in `warnings`.
pub(crate) fn clean_text<'a>(
    bytes: &'a [u8],
    warnings: &mut Vec<String>,
) -> Result<&'a str, UrdfError> {
    let text = std::str::from_utf8(bytes).map_err(|e| UrdfError::Encoding {
        offset: e.valid_up_to(),
        what: match e.error_len() {
            Some(n) => format!("an invalid {n}-byte sequence"),
            None => "the text ends inside a multi-byte character".to_string(),
        },
    })?;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            warnings.push("byte 0: UTF-8 byte-order mark stripped".to_string());
            rest
        }
        None => text,
    };
    let trimmed = text.trim_end_matches(|c: char| c == '\0' || c.is_whitespace());
    let nuls = text[trimmed.len()..].matches('\0').count();
    if nuls > 0 {
        warnings.push(format!(
            "byte {}: {nuls} trailing NUL byte(s) after the document stripped",
            trimmed.len()
        ));
    }
    Ok(trimmed)
}

/// Rejects XML nested deeper than `max_depth` elements before the XML libraries see it: their deserializers
/// recurse on element nesting, so `<a><a><a>…` 10⁵ levels deep would overflow the stack (an abort that
/// `catch_unwind` cannot catch). A linear scan over tags, comments, CDATA and processing instructions; anything
/// it does not understand is left to the real parser.
pub(crate) fn check_nesting(text: &str, max_depth: usize) -> Result<(), UrdfError> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0usize;
    let skip_past = |from: usize, end: &[u8]| {
        bytes
            .get(from..)
            .and_then(|rest| rest.windows(end.len()).position(|w| w == end))
            .map_or(bytes.len(), |p| from + p + end.len())
    };
    while let Some(off) = bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'<'))
    {
        let at = i + off;
        let rest = bytes.get(at..).unwrap_or_default();
        if rest.starts_with(b"<!--") {
            i = skip_past(at + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = skip_past(at + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = skip_past(at + 2, b"?>");
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") {
            if rest.starts_with(b"</") {
                depth = depth.saturating_sub(1);
            }
            i = skip_past(at + 2, b">");
        } else {
            // An opening tag: find its end outside quoted attribute values.
            let mut quote = None;
            let mut k = at + 1;
            let mut self_closing = false;
            while let Some(&b) = bytes.get(k) {
                match quote {
                    Some(q) if b == q => quote = None,
                    Some(_) => {}
                    None if b == b'"' || b == b'\'' => quote = Some(b),
                    None if b == b'>' => {
                        self_closing = k > 0 && bytes.get(k - 1) == Some(&b'/');
                        break;
                    }
                    None => {}
                }
                k += 1;
            }
            if !self_closing {
                depth += 1;
                if depth > max_depth {
                    let line = text.get(..at).map_or(0, |t| t.matches('\n').count()) + 1;
                    return Err(UrdfError::Parse {
                        line: Some(line),
                        column: None,
                        message: crate::io::Limits::exceeded(
                            format!("XML element nesting depth {depth}"),
                            "max_depth",
                            max_depth,
                        ),
                    });
                }
            }
            i = k + 1;
        }
    }
    Ok(())
}

/// Parses URDF text with `urdf_rs` (re-exported by `rapier3d-urdf`).
///
/// The parser is third-party code built on two XML libraries; flinch promises never to panic on bad input, so
/// the call runs under `catch_unwind` and a panic becomes [`UrdfError::ParserPanic`]. (No input in the
/// robustness tests has triggered one; the guard is a promise, not a workaround. The default panic hook still
/// prints the message to stderr if it happens.)
pub(crate) fn parse_robot(text: &str) -> Result<urdf_rs::Robot, UrdfError> {
    match panic::catch_unwind(AssertUnwindSafe(|| urdf_rs::read_from_string(text))) {
        Ok(Ok(robot)) => Ok(robot),
        Ok(Err(e)) => {
            let message = e.to_string();
            let at = super::locate::locate(text, &message);
            Err(UrdfError::Parse {
                line: at.map(|a| a.0),
                column: at.map(|a| a.1),
                message,
            })
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_string());
            Err(UrdfError::ParserPanic { message })
        }
    }
}

#[cfg(test)]
mod tests;
