//! The HIERARCHY section: joints, offsets, channel layouts, end sites, exactly as written in the file.
//!
//! Parsed iteratively with an explicit stack, so a deeply nested (or maliciously nested) file cannot overflow
//! the call stack.

use nalgebra::Vector3;

use super::BvhError;
use super::number::parse_finite;
use super::tokenizer::{Cursor, Token};
use crate::io::Limits;
use crate::math::Axis;
use crate::skeleton::Channel;

/// Most channels a joint can have: each of the six channel kinds at most once.
pub const MAX_CHANNELS: usize = 6;

/// One joint as written in the file: raw units, raw axes.
#[derive(Debug, Clone, PartialEq)]
pub struct RawJoint {
    /// Name, verbatim (a name spanning several words keeps its inner whitespace).
    pub name: String,
    /// Parent index (`None` for the root); parents come before children (depth-first order of the file).
    pub parent: Option<usize>,
    /// The OFFSET values in file units.
    pub offset: Vector3<f64>,
    /// The channel layout in file order.
    pub channels: Vec<Channel>,
    /// Index of this joint's first value in a motion line.
    pub first_value: usize,
    /// End Site offsets in file units.
    pub end_sites: Vec<Vector3<f64>>,
    /// 1-based line of the joint's ROOT/JOINT keyword (for messages).
    pub line: usize,
}

fn channel_from(token: &Token<'_>) -> Option<Channel> {
    let t = token.text;
    if t.len() != 9 {
        return None;
    }
    let axis = match t.first().map(u8::to_ascii_lowercase) {
        Some(b'x') => Axis::X,
        Some(b'y') => Axis::Y,
        Some(b'z') => Axis::Z,
        _ => return None,
    };
    let kind = t.get(1..)?;
    if kind.eq_ignore_ascii_case(b"position") {
        Some(Channel::Position(axis))
    } else if kind.eq_ignore_ascii_case(b"rotation") {
        Some(Channel::Rotation(axis))
    } else {
        None
    }
}

/// Describes what was found instead of the expected token.
fn found(t: Option<Token<'_>>) -> String {
    match t {
        Some(t) => format!("found '{}'", t.display()),
        None => "found end of file".to_string(),
    }
}

/// The next token, or an error at the end of input saying what was expected.
fn expect_token<'a>(cur: &mut Cursor<'a>, what: &str) -> Result<Token<'a>, BvhError> {
    cur.next_token()
        .ok_or_else(|| cur.error_here(format!("expected {what}, found end of file")))
}

fn expect_keyword(cur: &mut Cursor<'_>, keyword: &str, context: &str) -> Result<(), BvhError> {
    let t = cur.next_token();
    match t {
        Some(t) if t.is(keyword) => Ok(()),
        Some(t) => Err(t.error(format!(
            "expected '{keyword}' {context}, {}",
            found(Some(t))
        ))),
        None => Err(cur.error_here(format!("expected '{keyword}' {context}, found end of file"))),
    }
}

fn parse_vector(cur: &mut Cursor<'_>, what: &str) -> Result<Vector3<f64>, BvhError> {
    let mut v = Vector3::zeros();
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        let label = format!("a number ({what} {axis})");
        let t = expect_token(cur, &label)?;
        v[i] = parse_finite(t.text)
            .ok_or_else(|| t.error(format!("expected {label}, found '{}'", t.display())))?;
    }
    Ok(v)
}

/// Reads a joint name: the rest of the keyword's line up to an optional `{`.
fn parse_name(cur: &mut Cursor<'_>, keyword: &Token<'_>) -> Result<String, BvhError> {
    let kw = String::from_utf8_lossy(keyword.text).to_ascii_uppercase();
    let first = match cur.next_on_line() {
        Some(t) if t.text != b"{" => t,
        other => {
            return Err(match other {
                Some(t) => t.error(format!("expected a joint name after {kw}, found '{{'")),
                None => cur.error_here(format!(
                    "expected a joint name after {kw} on the same line, found end of line"
                )),
            });
        }
    };
    let mut last = first;
    while let Some(t) = cur.peek_on_line() {
        if t.text == b"{" {
            break;
        }
        last = t;
        cur.next_on_line();
    }
    Ok(String::from_utf8_lossy(cur.slice_from(&first, &last)).into_owned())
}

/// Parses `OFFSET x y z [CHANNELS n c1 … cn]` of a joint body.
fn parse_joint_header(
    cur: &mut Cursor<'_>,
    name: &str,
) -> Result<(Vector3<f64>, Vec<Channel>), BvhError> {
    expect_keyword(cur, "OFFSET", &format!("in joint '{name}'"))?;
    let offset = parse_vector(cur, &format!("OFFSET of joint '{name}',"))?;
    let mut channels = Vec::new();
    if cur.peek_token().is_some_and(|t| t.is("CHANNELS")) {
        cur.next_token();
        let t = expect_token(cur, "a channel count")?;
        let n = std::str::from_utf8(t.text)
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|&n| n <= MAX_CHANNELS)
            .ok_or_else(|| {
                t.error(format!(
                    "expected a channel count from 0 to {MAX_CHANNELS} for joint '{name}', found '{}'",
                    t.display()
                ))
            })?;
        for _ in 0..n {
            let what =
                "a channel name (Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation)";
            let t = expect_token(cur, what)?;
            let c = channel_from(&t)
                .ok_or_else(|| t.error(format!("expected {what}, found '{}'", t.display())))?;
            if channels.contains(&c) {
                return Err(t.error(format!(
                    "channel {} listed twice in joint '{name}'",
                    c.bvh_name()
                )));
            }
            channels.push(c);
        }
    }
    Ok((offset, channels))
}

/// Parses `End Site { OFFSET x y z }` after the `End` token.
fn parse_end_site(cur: &mut Cursor<'_>, parent: &str) -> Result<Vector3<f64>, BvhError> {
    expect_keyword(cur, "Site", "after 'End'")?;
    expect_keyword(cur, "{", "after 'End Site'")?;
    expect_keyword(
        cur,
        "OFFSET",
        &format!("in the End Site of joint '{parent}'"),
    )?;
    let v = parse_vector(cur, &format!("End Site OFFSET of joint '{parent}',"))?;
    expect_keyword(
        cur,
        "}",
        &format!("to close the End Site of joint '{parent}'"),
    )?;
    Ok(v)
}

/// Parses from `HIERARCHY` to the closing brace of the root. Returns the joints in file (depth-first) order.
pub(crate) fn parse_hierarchy(
    cur: &mut Cursor<'_>,
    limits: &Limits,
) -> Result<Vec<RawJoint>, BvhError> {
    match cur.next_token() {
        Some(t) if t.is("HIERARCHY") => {}
        Some(t) => return Err(t.error(format!("expected 'HIERARCHY', {}", found(Some(t))))),
        None => return Err(cur.error_here("expected 'HIERARCHY', found an empty file")),
    }
    let root_kw = match cur.next_token() {
        Some(t) if t.is("ROOT") => t,
        other => {
            let msg = format!("expected 'ROOT' after HIERARCHY, {}", found(other));
            return Err(match other {
                Some(t) => t.error(msg),
                None => cur.error_here(msg),
            });
        }
    };
    let mut joints: Vec<RawJoint> = Vec::new();
    // Stack of open joints (indices into `joints`).
    let mut stack: Vec<usize> = Vec::new();
    let mut value_index = 0usize;
    let mut pending: Option<Token<'_>> = Some(root_kw);
    loop {
        if let Some(kw) = pending.take() {
            if joints.len() >= limits.max_joints {
                return Err(kw.error(Limits::exceeded(
                    format!("joint {}", joints.len() + 1),
                    "max_joints",
                    limits.max_joints,
                )));
            }
            if stack.len() >= limits.max_depth {
                return Err(kw.error(Limits::exceeded(
                    format!("nesting depth {}", stack.len() + 1),
                    "max_depth",
                    limits.max_depth,
                )));
            }
            let name = parse_name(cur, &kw)?;
            let what = format!(
                "'{{' after {} name",
                String::from_utf8_lossy(kw.text).to_ascii_uppercase()
            );
            match cur.next_token() {
                Some(t) if t.text == b"{" => {}
                other => {
                    let msg = format!("expected {what}, {}", found(other));
                    return Err(match other {
                        Some(t) => t.error(msg),
                        None => cur.error_here(msg),
                    });
                }
            }
            let (offset, channels) = parse_joint_header(cur, &name)?;
            let first_value = value_index;
            value_index += channels.len();
            joints.push(RawJoint {
                name,
                parent: stack.last().copied(),
                offset,
                channels,
                first_value,
                end_sites: Vec::new(),
                line: kw.line,
            });
            stack.push(joints.len() - 1);
        }
        let Some(&current) = stack.last() else {
            break;
        };
        let current_name = joints
            .get(current)
            .map(|j| j.name.clone())
            .unwrap_or_default();
        let Some(t) = cur.next_token() else {
            let opened = joints.get(current).map(|j| j.line).unwrap_or(0);
            return Err(cur.error_here(format!(
                "expected '}}' to close joint '{current_name}' (opened at line {opened}), found end of file"
            )));
        };
        if t.is("JOINT") {
            pending = Some(t);
        } else if t.is("End") {
            let site = parse_end_site(cur, &current_name)?;
            if let Some(j) = joints.get_mut(current) {
                j.end_sites.push(site);
            }
        } else if t.text == b"}" {
            stack.pop();
        } else if t.is("ROOT") {
            return Err(t.error(
                "expected 'JOINT', 'End Site' or '}', found 'ROOT' (a ROOT inside a joint)",
            ));
        } else {
            return Err(t.error(format!(
                "expected 'JOINT', 'End Site' or '}}' in joint '{current_name}', found '{}'",
                t.display()
            )));
        }
    }
    Ok(joints)
}
