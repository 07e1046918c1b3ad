//! The MOTION section: `Frames:`, `Frame Time:`, then one frame per line.
//!
//! This is the hot path (a 2 MB CMU file holds 264 k numbers): lines and words are byte slices of the input,
//! numbers go through `str::parse::<f64>` on those slices, and values land in one flat, pre-sized `Vec<f64>`.
//! Nothing is allocated per token.

use super::BvhError;
use super::number::parse_finite;
use super::tokenizer::{Cursor, Token};
use crate::io::Limits;

/// The motion data as written: raw channel values, frame-major.
#[derive(Debug, Clone, PartialEq)]
pub struct RawMotion {
    /// Seconds per frame (the `Frame Time:` value).
    pub frame_time: f64,
    /// The `Frames:` value as declared (may differ from the lines present; see the warnings).
    pub declared_frames: usize,
    /// Number of complete frames read.
    pub frames: usize,
    /// `frames × channel_count` values, frame after frame, channels in file order.
    pub values: Vec<f64>,
}

/// A labelled value such as `Frames: 12` or `Frame Time: .0083`, tolerant to spacing: the label words may be
/// split or glued (`Frames:12`, `Frame Time :`), case-insensitively. Returns the value's text and location.
fn labelled_value<'a>(
    cur: &mut Cursor<'a>,
    label: &str,
    display: &str,
) -> Result<(&'a [u8], usize, usize), BvhError> {
    // The label without spaces, lower case: "frames:" or "frametime:".
    let wanted: Vec<u8> = label.bytes().filter(|b| *b != b' ').collect();
    let mut got: Vec<u8> = Vec::new();
    let mut first: Option<Token<'a>> = None;
    loop {
        let Some(t) = cur.next_token() else {
            return Err(cur.error_here(format!("expected '{display}', found end of file")));
        };
        let first_tok = *first.get_or_insert(t);
        let before = got.len();
        got.extend(t.text.iter().map(u8::to_ascii_lowercase));
        let matched = got.len().min(wanted.len());
        if got.get(..matched) != wanted.get(..matched) {
            return Err(first_tok.error(format!(
                "expected '{display}', found '{}'",
                first_tok.display()
            )));
        }
        if got.len() >= wanted.len() {
            // The label ends inside (or at the end of) this token; what follows it is the value.
            let used = wanted.len() - before;
            let rest = t.text.get(used..).unwrap_or(&[]);
            if !rest.is_empty() {
                return Ok((rest, t.line, t.column + used));
            }
            let v = cur.next_token().ok_or_else(|| {
                cur.error_here(format!(
                    "expected a value after '{display}', found end of file"
                ))
            })?;
            return Ok((v.text, v.line, v.column));
        }
    }
}

fn value_error(line: usize, column: usize, message: String) -> BvhError {
    BvhError {
        line,
        column,
        message,
    }
}

/// The error of a MOTION section longer than the limits allow.
fn too_many_frames(limits: &Limits) -> String {
    format!(
        "more than {} frame lines or {} values (Limits::max_frames, Limits::max_pose_values; raise them in \
         ImportOptions::limits)",
        limits.max_frames, limits.max_pose_values
    )
}

/// Parses the MOTION section, if any. `channel_count` is the number of values per frame the hierarchy
/// declares. Returns `None` when the file ends after the hierarchy.
pub(crate) fn parse_motion(
    cur: &mut Cursor<'_>,
    channel_count: usize,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Result<Option<RawMotion>, BvhError> {
    match cur.next_token() {
        None => return Ok(None),
        Some(t) if t.is("MOTION") => {}
        Some(t) => {
            return Err(t.error(format!(
                "expected 'MOTION' after the hierarchy, found '{}'",
                t.display()
            )));
        }
    }
    let (text, line, column) = labelled_value(cur, "frames:", "Frames:")?;
    let declared_frames = std::str::from_utf8(text)
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .ok_or_else(|| {
            value_error(
                line,
                column,
                format!(
                    "expected a frame count (a whole number) after 'Frames:', found '{}'",
                    String::from_utf8_lossy(text)
                ),
            )
        })?;
    if declared_frames > limits.max_frames {
        return Err(value_error(
            line,
            column,
            Limits::exceeded(
                format!("Frames: {declared_frames}"),
                "max_frames",
                limits.max_frames,
            ),
        ));
    }
    let (text, line, column) = labelled_value(cur, "frame time:", "Frame Time:")?;
    let frame_time = parse_finite(text).filter(|t| *t > 0.0).ok_or_else(|| {
        value_error(
            line,
            column,
            format!(
                "expected a positive frame time in seconds after 'Frame Time:', found '{}'",
                String::from_utf8_lossy(text)
            ),
        )
    })?;
    if let Some(t) = cur.next_on_line() {
        return Err(t.error(format!(
            "expected the end of the line after the frame time, found '{}'",
            t.display()
        )));
    }
    cur.skip_line();

    if channel_count == 0 {
        // No channels: each frame is an empty line. Count the lines present, as for any other file, so a huge
        // declared count cannot make the importer build billions of frames.
        let mut frames = 0usize;
        while let Some(l) = cur.take_line() {
            if let Some((at, _)) = l.words().next() {
                return Err(l.error(
                    at,
                    "expected no values (the hierarchy declares no channels)",
                ));
            }
            frames += 1;
            if frames > limits.max_frames {
                return Err(l.error(0, too_many_frames(limits)));
            }
        }
        if frames != declared_frames {
            warnings.push(format!(
                "MOTION: header declares Frames: {declared_frames} but {frames} (empty) frame lines follow; using {frames}"
            ));
        }
        return Ok(Some(RawMotion {
            frame_time,
            declared_frames,
            frames,
            values: Vec::new(),
        }));
    }

    let n = channel_count;
    // Never trust the declared count for allocation: a number needs at least two bytes ("0 ").
    let capacity = declared_frames
        .saturating_mul(n)
        .min(cur.remaining() / 2 + n);
    let mut values: Vec<f64> = Vec::with_capacity(capacity);
    let mut frames = 0usize;
    // An incomplete line is only acceptable as the last one (a truncated file); hold its error until we know.
    let mut incomplete: Option<(BvhError, usize, usize)> = None;
    while let Some(l) = cur.take_line() {
        if l.is_blank() {
            continue;
        }
        if let Some((err, _, _)) = incomplete.take() {
            return Err(err);
        }
        if frames >= limits.max_frames || values.len().saturating_add(n) > limits.max_pose_values {
            return Err(l.error(0, too_many_frames(limits)));
        }
        let start = values.len();
        let mut k = 0usize;
        for (at, word) in l.words() {
            if k == n {
                return Err(l.error(
                    at,
                    format!(
                        "expected {n} values on frame line {} (the hierarchy's channel count), found more",
                        frames + 1
                    ),
                ));
            }
            let v = parse_finite(word).ok_or_else(|| {
                l.error(
                    at,
                    format!(
                        "expected a finite number (frame {}, value {} of {n}), found '{}'",
                        frames + 1,
                        k + 1,
                        String::from_utf8_lossy(word)
                    ),
                )
            })?;
            values.push(v);
            k += 1;
        }
        if k < n {
            values.truncate(start);
            let err = l.error(
                l.bytes.len(),
                format!(
                    "expected {n} values on frame line {}, found {k}",
                    frames + 1
                ),
            );
            incomplete = Some((err, l.line, k));
            continue;
        }
        frames += 1;
    }
    if let Some((_, line, k)) = incomplete {
        warnings.push(format!(
            "line {line}: incomplete last frame ({k} of {n} values) dropped (truncated file?)"
        ));
    }
    if frames != declared_frames {
        warnings.push(format!(
            "MOTION: header declares Frames: {declared_frames} but {frames} complete frame lines follow; using {frames}"
        ));
    }
    Ok(Some(RawMotion {
        frame_time,
        declared_frames,
        frames,
        values,
    }))
}
