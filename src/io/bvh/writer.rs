//! BVH writer: any clip on a skeleton back to BVH text.
//!
//! The hierarchy, names, channel layouts and rotation orders of the skeleton are kept. Rotations become Euler
//! angles in each joint's listed order, continuous from frame to frame ([`EulerOrder::to_angles_near`]);
//! translations become position-channel values *relative to the OFFSET* (the reader adds them back).
//!
//! What a channel layout cannot express is dropped: a joint without rotation channels cannot carry a clip
//! rotation, a joint with one or two rotation channels keeps only the listed angles (of the Euler decomposition
//! whose order starts with them), and a joint without position channels always sits at its OFFSET.

use std::fmt::Write as _;
use std::path::Path;

use nalgebra::{UnitQuaternion, Vector3};

use super::units::to_y_up;
use crate::io::{ImportReport, LengthUnit, UpAxis};
use crate::math::{Axis, EulerOrder};
use crate::skeleton::{Channel, Clip, Skeleton};

/// Fewest digits after the decimal point the writer uses.
pub const MIN_DECIMALS: usize = 6;

/// How to write a BVH file.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteOptions {
    /// Unit of the written lengths (default: metres).
    pub unit: LengthUnit,
    /// Up axis of the written file (default: Y). Z-up writes undo the import rotation, (x, y, z) → (x, −z, y).
    pub up_axis: UpAxis,
    /// Digits after the decimal point for every value (at least [`MIN_DECIMALS`]; default 8, which keeps the
    /// rounding of metre-valued lengths at 5 nm, far below the 1 µm round-trip tolerance).
    pub decimals: usize,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            unit: LengthUnit::Metre,
            up_axis: UpAxis::Y,
            decimals: 8,
        }
    }
}

impl WriteOptions {
    /// Options that write back in the unit and up axis a file was imported from.
    pub fn source(report: &ImportReport) -> WriteOptions {
        WriteOptions {
            unit: report.unit,
            up_axis: report.up_axis,
            ..WriteOptions::default()
        }
    }
}

/// Joints in depth-first pre-order (children in index order): the order BVH nests and lists channels in.
fn depth_first(skeleton: &Skeleton) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = skeleton.len();
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, j) in skeleton.joints.iter().enumerate() {
        match j.parent.and_then(|p| children.get_mut(p)) {
            Some(c) => c.push(i),
            None => roots.push(i),
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(i) = stack.pop() {
        order.push(i);
        if let Some(c) = children.get(i) {
            stack.extend(c.iter().rev());
        }
    }
    (order, children)
}

/// Deepest indentation written: past it lines stay at this depth (BVH ignores whitespace), so the text of a
/// hierarchy thousands of levels deep grows linearly, not quadratically, with its depth.
const MAX_INDENT: usize = 64;

/// A name that reads back as one token: whitespace, control characters and braces become `_`; empty names
/// become `joint<index>`.
fn safe_name(name: &str, index: usize) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() || c == '{' || c == '}' {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() {
        format!("joint{index}")
    } else {
        s
    }
}

/// Writes a number with `d` decimals, printing values that round to zero as positive zero.
fn push_number(out: &mut String, v: f64, d: usize, zero: f64) {
    let v = if v.abs() < zero { 0.0 } else { v };
    let _ = write!(out, "{v:.d$}");
}

fn push_vector(out: &mut String, v: &Vector3<f64>, d: usize, zero: f64) {
    for (k, x) in v.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        push_number(out, *x, d, zero);
    }
}

/// The Euler order used to decompose a joint's rotation: its listed rotation axes, completed with the missing
/// axes in X, Y, Z order (only the listed angles are written).
fn decomposition_order(listed: &[Axis]) -> EulerOrder {
    let mut axes: Vec<Axis> = listed.to_vec();
    for a in [Axis::X, Axis::Y, Axis::Z] {
        if !axes.contains(&a) {
            axes.push(a);
        }
    }
    match axes.as_slice() {
        [a, b, c] => EulerOrder::from_axes([*a, *b, *c]).unwrap_or(EulerOrder::XYZ),
        _ => EulerOrder::XYZ,
    }
}

/// Writes `skeleton` and `clip` as BVH text.
pub fn write(skeleton: &Skeleton, clip: &Clip, opts: &WriteOptions) -> String {
    let d = opts.decimals.max(MIN_DECIMALS);
    let zero = 0.5 * 10f64.powi(-(d as i32));
    let scale = 1.0 / opts.unit.to_metres();
    // From flinch's Y-up frame back to the output frame.
    let back = to_y_up(opts.up_axis).inverse();
    let back_inv = back.inverse();
    let out_vec = |v: &Vector3<f64>| back * v * scale;
    let (order, children) = depth_first(skeleton);

    let mut out = String::new();
    out.push_str("HIERARCHY\n");
    // Explicit stack of (joint, entering?) so deep skeletons cannot overflow the call stack.
    let mut stack: Vec<(usize, bool)> = skeleton
        .joints
        .iter()
        .enumerate()
        .filter(|(_, j)| j.parent.is_none())
        .map(|(i, _)| (i, true))
        .rev()
        .collect();
    let mut depth = 0usize;
    while let Some((i, enter)) = stack.pop() {
        let Some(j) = skeleton.joints.get(i) else {
            continue;
        };
        if enter {
            let tabs = "\t".repeat(depth.min(MAX_INDENT));
            let kw = if j.parent.is_none() { "ROOT" } else { "JOINT" };
            let _ = writeln!(out, "{tabs}{kw} {}\n{tabs}{{", safe_name(&j.name, i));
            let _ = write!(out, "{tabs}\tOFFSET ");
            push_vector(&mut out, &out_vec(&j.offset), d, zero);
            let _ = write!(out, "\n{tabs}\tCHANNELS {}", j.channels.len());
            for c in &j.channels {
                out.push(' ');
                out.push_str(&c.bvh_name());
            }
            out.push('\n');
            stack.push((i, false));
            if let Some(c) = children.get(i) {
                stack.extend(c.iter().rev().map(|&k| (k, true)));
            }
            depth += 1;
        } else {
            depth = depth.saturating_sub(1);
            let tabs = "\t".repeat(depth.min(MAX_INDENT));
            for e in &j.end_sites {
                let _ = write!(out, "{tabs}\tEnd Site\n{tabs}\t{{\n{tabs}\t\tOFFSET ");
                push_vector(&mut out, &out_vec(e), d, zero);
                let _ = writeln!(out, "\n{tabs}\t}}");
            }
            let _ = writeln!(out, "{tabs}}}");
        }
    }

    let _ = write!(
        out,
        "MOTION\nFrames: {}\nFrame Time: {}\n",
        clip.frames.len(),
        clip.frame_time
    );
    // Per joint (in output order): listed rotation axes and their decomposition order.
    let plans: Vec<(Vec<Axis>, EulerOrder)> = order
        .iter()
        .map(|&i| {
            let listed: Vec<Axis> = skeleton
                .joints
                .get(i)
                .map(|j| {
                    j.channels
                        .iter()
                        .filter_map(|c| match c {
                            Channel::Rotation(a) => Some(*a),
                            Channel::Position(_) => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let o = decomposition_order(&listed);
            (listed, o)
        })
        .collect();
    let mut previous: Vec<[f64; 3]> = vec![[0.0; 3]; order.len()];
    for pose in &clip.frames {
        let mut first = true;
        for (slot, &i) in order.iter().enumerate() {
            let Some(j) = skeleton.joints.get(i) else {
                continue;
            };
            let (listed, euler) = match plans.get(slot) {
                Some(p) => p,
                None => continue,
            };
            let mut angles = [0.0; 3];
            if !listed.is_empty() {
                // BVH has no rest orientation: the channel rotation is the full local rotation.
                let q = j.rest_rotation
                    * pose
                        .rotations
                        .get(i)
                        .copied()
                        .unwrap_or_else(UnitQuaternion::identity);
                let prev = previous.get(slot).copied().unwrap_or([0.0; 3]);
                angles = euler.to_angles_near(&(back * q * back_inv), prev);
                if let Some(p) = previous.get_mut(slot) {
                    *p = angles;
                }
            }
            let t = pose.translations.get(i).copied().unwrap_or(j.offset);
            let delta = out_vec(&t) - out_vec(&j.offset);
            let mut rot_k = 0usize;
            for c in &j.channels {
                if !first {
                    out.push(' ');
                }
                first = false;
                let v = match c {
                    Channel::Position(a) => delta[a.index()],
                    Channel::Rotation(_) => {
                        let v = angles.get(rot_k).copied().unwrap_or(0.0).to_degrees();
                        rot_k += 1;
                        v
                    }
                };
                push_number(&mut out, v, d, zero);
            }
        }
        out.push('\n');
    }
    out
}

/// Writes a BVH file atomically: the text goes to a temporary file in the same directory, which is then
/// renamed over `path`, so readers never see a half-written file and a failure leaves the old file intact.
/// Refuses (with `InvalidData`, writing nothing) a skeleton or clip holding non-finite numbers.
pub fn write_file(
    path: impl AsRef<Path>,
    skeleton: &Skeleton,
    clip: &Clip,
    opts: &WriteOptions,
) -> std::io::Result<()> {
    let path = path.as_ref();
    let finite = skeleton.joints.iter().all(|j| {
        j.offset.iter().all(|x| x.is_finite())
            && j.end_sites.iter().flatten().all(|x| x.is_finite())
    }) && clip.frame_time.is_finite()
        && clip.frame_time > 0.0
        && clip.frames.iter().all(|p| {
            p.translations.iter().flatten().all(|x| x.is_finite())
                && p.rotations
                    .iter()
                    .all(|q| q.coords.iter().all(|x| x.is_finite()))
        });
    if !finite {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{}: not written: the skeleton or clip holds non-finite values (or a non-positive frame time)",
                path.display()
            ),
        ));
    }
    crate::io::write_atomic(path, write(skeleton, clip, opts).as_bytes())
}
