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
mod tests {
    use super::*;

    #[test]
    fn strips_bom_and_trailing_nul_with_warnings() {
        let mut w = Vec::new();
        let t = clean_text(b"\xef\xbb\xbf<robot name=\"r\"/>\r\n\0", &mut w).unwrap();
        assert_eq!(t, "<robot name=\"r\"/>");
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[1].contains("NUL"), "{w:?}");
    }

    #[test]
    fn invalid_utf8_says_where() {
        let mut w = Vec::new();
        let e = clean_text(b"<robot>\xff</robot>", &mut w).unwrap_err();
        assert!(e.to_string().starts_with("byte 7:"), "{e}");
    }

    #[test]
    fn parser_errors_are_errors() {
        assert!(matches!(
            parse_robot("<robot name=\"x\"><link"),
            Err(UrdfError::Parse { .. })
        ));
    }
}
