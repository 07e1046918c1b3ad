//! Filmstrips: successive poses side by side, left to right, one slot per sampled time, the reference and the
//! simulated skeleton overlaid in different colours (Cline 2002, Fig. 5.2).

use nalgebra::Vector3;

use super::canvas::{Canvas, HAlign, VAlign};
use super::plot::{Swatch, legend_row};
use super::text::{self, Font};
use super::{Color, Image, RenderError, check_size, finite};

/// A skeleton as line segments and joint dots, in world coordinates (metres, Y up).
///
/// The first joint (or, without joints, the first segment's start) is the figure's root: the filmstrip removes
/// its horizontal position so that successive poses sit side by side.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StickFigure {
    /// Bones, from parent joint to child joint.
    pub segments: Vec<[Vector3<f64>; 2]>,
    /// Joint positions, root first.
    pub joints: Vec<Vector3<f64>>,
}

impl StickFigure {
    /// The root used for horizontal alignment (see the type's documentation).
    fn root(&self) -> Option<Vector3<f64>> {
        self.joints
            .first()
            .copied()
            .or_else(|| self.segments.first().map(|s| s[0]))
    }

    fn points(&self) -> impl Iterator<Item = &Vector3<f64>> {
        self.joints.iter().chain(self.segments.iter().flatten())
    }
}

/// One slot of a filmstrip: the poses at one time.
#[derive(Debug, Clone, PartialEq)]
pub struct FilmFrame {
    /// Time in seconds, printed under the poses.
    pub time: f64,
    /// Figures drawn in order (later on top), each in its colour; all share the first figure's root offset so
    /// that their relative displacement stays visible.
    pub layers: Vec<(StickFigure, Color)>,
    /// Draws the slot on a tinted background with a bold label (e.g. the frame of the hit).
    pub highlight: bool,
}

/// The direction the camera looks along (always horizontal, Y stays up on screen).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewAxis {
    /// Look along +X: +Z points right (side view of a character walking along +Z).
    PlusX,
    /// Look along −X: −Z points right.
    MinusX,
    /// Look along +Z: −X points right.
    PlusZ,
    /// Look along −Z: +X points right (side view of a character walking along +X).
    MinusZ,
    /// Look perpendicular to the horizontal travel of the first layer's root from the first to the last frame,
    /// so that the travel points right; [`ViewAxis::PlusX`] when the root moves less than 5 cm.
    #[default]
    Auto,
}

impl ViewAxis {
    /// The world direction that points right on screen.
    fn right(self, frames: &[FilmFrame]) -> Vector3<f64> {
        match self {
            ViewAxis::PlusX => Vector3::z(),
            ViewAxis::MinusX => -Vector3::z(),
            ViewAxis::PlusZ => -Vector3::x(),
            ViewAxis::MinusZ => Vector3::x(),
            ViewAxis::Auto => {
                let root = |f: Option<&FilmFrame>| f.and_then(|f| f.layers.first()?.0.root());
                let (Some(a), Some(b)) = (root(frames.first()), root(frames.last())) else {
                    return Vector3::z();
                };
                let d = b - a;
                if d.x.hypot(d.z) < 0.05 {
                    Vector3::z()
                } else if d.z.abs() >= d.x.abs() {
                    Vector3::z() * d.z.signum()
                } else {
                    Vector3::x() * d.x.signum()
                }
            }
        }
    }
}

/// How a filmstrip looks.
#[derive(Debug, Clone, PartialEq)]
pub struct FilmstripOptions {
    /// Title above the strip.
    pub title: String,
    /// Legend entries (name, colour), shown in a row under the title.
    pub legend: Vec<(String, Color)>,
    /// Legend text for the tinted background of highlighted frames (shown only when a frame is highlighted).
    pub highlight_note: String,
    /// Camera direction.
    pub view: ViewAxis,
    /// Scale, the same for all frames.
    pub pixels_per_metre: f64,
    /// Distance between slot centres in metres; `None` fits the widest pose plus a gap.
    pub spacing: Option<f64>,
    /// Height of the ground line in metres; `None` draws no ground.
    pub ground_height: Option<f64>,
    /// Bone stroke width in px.
    pub line_width: f64,
}

impl Default for FilmstripOptions {
    fn default() -> Self {
        FilmstripOptions {
            title: String::new(),
            legend: Vec::new(),
            highlight_note: "hit".into(),
            view: ViewAxis::Auto,
            pixels_per_metre: 120.0,
            spacing: None,
            ground_height: Some(0.0),
            line_width: 3.0,
        }
    }
}

const MARGIN: f64 = 16.0;
/// Gap between neighbouring poses when the spacing is fitted, in metres.
const GAP_M: f64 = 0.25;
/// Blank space above and below the poses, in px.
const PAD: f64 = 14.0;
const HIGHLIGHT: Color = Color::rgb(255, 241, 196);
const HIGHLIGHT_EDGE: Color = Color::rgb(225, 200, 130);

/// Geometry shared by drawing and tests: screen-right direction, extents and slot size.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    right: Vector3<f64>,
    /// Horizontal extent of all poses relative to their frame's root, metres.
    h: (f64, f64),
    /// Vertical extent of all poses (and the ground), metres.
    y: (f64, f64),
    /// Slot width in px.
    pub(crate) slot: f64,
    /// Top of the pose band in px.
    top: f64,
    ppm: f64,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

impl Layout {
    /// Pixel position of world point `p` in slot `k` whose root is at horizontal coordinate `anchor`.
    fn to_px(&self, k: usize, anchor: f64, p: &Vector3<f64>) -> (f64, f64) {
        let slot_left = MARGIN + k as f64 * self.slot;
        let pose_w = (self.h.1 - self.h.0) * self.ppm;
        let x = slot_left
            + (self.slot - pose_w) / 2.0
            + (p.dot(&self.right) - anchor - self.h.0) * self.ppm;
        let y = self.top + PAD + (self.y.1 - p.y) * self.ppm;
        (x, y)
    }

    /// Horizontal pixel centre of slot `k`.
    pub(crate) fn slot_centre(&self, k: usize) -> f64 {
        MARGIN + (k as f64 + 0.5) * self.slot
    }
}

/// The root's horizontal coordinate of each frame (first layer).
fn anchors(frames: &[FilmFrame], right: &Vector3<f64>) -> Vec<f64> {
    frames
        .iter()
        .map(|f| f.layers[0].0.root().map_or(0.0, |r| r.dot(right)))
        .collect()
}

/// Validates the input and computes the layout.
pub(crate) fn layout(frames: &[FilmFrame], opts: &FilmstripOptions) -> Result<Layout, RenderError> {
    if frames.is_empty() {
        return Err(RenderError::Empty("the filmstrip has no frames".into()));
    }
    let ppm = finite(opts.pixels_per_metre, || "pixels_per_metre".into())?;
    let lw = finite(opts.line_width, || "line_width".into())?;
    if ppm <= 0.0 || lw <= 0.0 {
        return Err(RenderError::Invalid(format!(
            "pixels_per_metre ({ppm}) and line_width ({lw}) must be positive"
        )));
    }
    for (i, f) in frames.iter().enumerate() {
        finite(f.time, || format!("time of frame {i}"))?;
        if f.layers.is_empty() {
            return Err(RenderError::Empty(format!(
                "frame {i} (t = {:.3} s) has no layers",
                f.time
            )));
        }
        for (j, (fig, _)) in f.layers.iter().enumerate() {
            if fig.joints.is_empty() && fig.segments.is_empty() {
                return Err(RenderError::Empty(format!(
                    "frame {i}, layer {j}: an empty figure"
                )));
            }
            for (k, p) in fig.points().enumerate() {
                if !p.iter().all(|v| v.is_finite()) {
                    return Err(RenderError::NonFinite(format!(
                        "frame {i} (t = {:.3} s), layer {j}, point {k}",
                        f.time
                    )));
                }
            }
        }
    }
    let right = opts.view.right(frames);
    let anchor = anchors(frames, &right);
    let (mut h, mut y) = (
        (f64::INFINITY, f64::NEG_INFINITY),
        (f64::INFINITY, f64::NEG_INFINITY),
    );
    for (f, a) in frames.iter().zip(&anchor) {
        for p in f.layers.iter().flat_map(|(fig, _)| fig.points()) {
            let hp = p.dot(&right) - a;
            h = (h.0.min(hp), h.1.max(hp));
            y = (y.0.min(p.y), y.1.max(p.y));
        }
    }
    if let Some(g) = opts.ground_height {
        let g = finite(g, || "ground_height".into())?;
        y = (y.0.min(g), y.1.max(g));
    }
    let spacing = match opts.spacing {
        Some(s) if finite(s, || "spacing".into())? > 0.0 => s,
        Some(s) => {
            return Err(RenderError::Invalid(format!(
                "spacing ({s}) must be positive"
            )));
        }
        None => h.1 - h.0 + GAP_M,
    };
    // A slot is never narrower than its time label.
    let label_w = text::width("00.00 s", Font::LABEL_BOLD) + 12.0;
    let slot = (spacing * ppm).max(label_w);
    let has_legend = !opts.legend.is_empty() || frames.iter().any(|f| f.highlight);
    let top = MARGIN
        + Font::TITLE.line_height()
        + if has_legend {
            8.0 + Font::LABEL.line_height()
        } else {
            0.0
        }
        + 8.0;
    let width = 2.0 * MARGIN + frames.len() as f64 * slot;
    let height = top + 2.0 * PAD + (y.1 - y.0) * ppm + Font::LABEL.line_height() + MARGIN;
    let hint = "use fewer frames or a smaller pixels_per_metre";
    check_size(width.ceil() as u64, height.ceil() as u64, hint)?;
    Ok(Layout {
        right,
        h,
        y,
        slot,
        top,
        ppm,
        width: width.ceil() as u32,
        height: height.ceil() as u32,
    })
}

/// Renders the frames left to right on a white background, all at the same scale.
///
/// Errors: no frames, a frame without layers or an empty figure, a non-finite coordinate or option, a
/// non-positive scale, a picture larger than 16384 px per side.
pub fn filmstrip(frames: &[FilmFrame], opts: &FilmstripOptions) -> Result<Image, RenderError> {
    let lay = layout(frames, opts)?;
    let mut c = Canvas::new(Image::new(lay.width, lay.height, Color::WHITE)?);
    let band_bottom = lay.top + 2.0 * PAD + (lay.y.1 - lay.y.0) * lay.ppm;
    for (k, f) in frames.iter().enumerate() {
        if f.highlight {
            let x0 = MARGIN + k as f64 * lay.slot;
            c.fill_rect(
                x0 + 2.0,
                lay.top,
                x0 + lay.slot - 2.0,
                band_bottom + Font::LABEL.line_height() + 4.0,
                HIGHLIGHT,
            );
        }
    }
    if let Some(g) = opts.ground_height {
        let (_, gy) = lay.to_px(0, 0.0, &Vector3::new(0.0, g, 0.0));
        c.line(
            (MARGIN, gy),
            (f64::from(lay.width) - MARGIN, gy),
            1.5,
            Color::GREY,
        );
    }
    let anchor = anchors(frames, &lay.right);
    for (k, (f, a)) in frames.iter().zip(anchor).enumerate() {
        for (fig, color) in &f.layers {
            for [p, q] in &fig.segments {
                c.line(
                    lay.to_px(k, a, p),
                    lay.to_px(k, a, q),
                    opts.line_width,
                    *color,
                );
            }
            for p in &fig.joints {
                c.disc(lay.to_px(k, a, p), opts.line_width * 0.8, *color);
            }
        }
        let (font, color) = if f.highlight {
            (Font::LABEL_BOLD, Color::BLACK)
        } else {
            (Font::LABEL, Color::DARK)
        };
        c.text(
            &format!("{:.2} s", f.time),
            (lay.slot_centre(k), band_bottom),
            font,
            color,
            (HAlign::Center, VAlign::Top),
        );
    }
    let centre = f64::from(lay.width) / 2.0;
    c.text(
        &opts.title,
        (centre, MARGIN),
        Font::TITLE,
        Color::DARK,
        (HAlign::Center, VAlign::Top),
    );
    let legend_top = MARGIN + Font::TITLE.line_height() + 8.0;
    let mut entries: Vec<(&str, Swatch)> = opts
        .legend
        .iter()
        .map(|(n, c)| (n.as_str(), Swatch::Line(*c)))
        .collect();
    if frames.iter().any(|f| f.highlight) && !opts.highlight_note.is_empty() {
        entries.push((
            &opts.highlight_note,
            Swatch::Fill(HIGHLIGHT, HIGHLIGHT_EDGE),
        ));
    }
    legend_row(&mut c, &entries, (centre, legend_top));
    Ok(c.img)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1.7 m figure standing at `x` along the walking direction Z, arm raised by `lift` metres.
    fn figure(z: f64, lift: f64) -> StickFigure {
        let v = |x: f64, y: f64, dz: f64| Vector3::new(x, y, z + dz);
        let (hip, neck, head) = (v(0.0, 0.9, 0.0), v(0.0, 1.45, 0.0), v(0.0, 1.7, 0.0));
        let (foot_a, foot_b, hand) = (
            v(0.0, 0.0, -0.15),
            v(0.0, 0.0, 0.2),
            v(0.0, 1.2 + lift, 0.45),
        );
        StickFigure {
            segments: vec![
                [hip, neck],
                [neck, head],
                [hip, foot_a],
                [hip, foot_b],
                [neck, hand],
            ],
            joints: vec![hip, neck, head, foot_a, foot_b, hand],
        }
    }

    fn frames() -> Vec<FilmFrame> {
        (0..2)
            .map(|k| FilmFrame {
                time: k as f64 * 0.1,
                layers: vec![
                    (figure(k as f64, 0.0), Color::BLUE),
                    (figure(k as f64, 0.3), Color::RED),
                ],
                highlight: k == 1,
            })
            .collect()
    }

    /// Columns holding at least one pixel of exactly `c`, within the pose band.
    fn columns(img: &Image, c: Color, rows: std::ops::Range<u32>) -> Vec<u32> {
        (0..img.width)
            .filter(|&x| {
                rows.clone()
                    .any(|y| img.pixel(x, y) == Some([c.r, c.g, c.b, 255]))
            })
            .collect()
    }

    #[test]
    fn two_figures_land_in_distinct_slots_in_both_colours() {
        let opts = FilmstripOptions {
            title: "two poses".into(),
            legend: vec![
                ("reference".into(), Color::BLUE),
                ("simulated".into(), Color::RED),
            ],
            ..FilmstripOptions::default()
        };
        let f = frames();
        let lay = layout(&f, &opts).unwrap();
        // The root walks along +Z, so Auto looks along +X; the root offset is removed, so both slots are alike.
        assert_eq!(lay.right, Vector3::z());
        let img = filmstrip(&f, &opts).unwrap();
        assert_eq!((img.width, img.height), (lay.width, lay.height));
        let rows = lay.top as u32..(lay.top + 2.0 * PAD + 1.7 * lay.ppm) as u32;
        for c in [Color::BLUE, Color::RED] {
            let cols = columns(&img, c, rows.clone());
            for k in 0..2 {
                let (lo, hi) = (
                    MARGIN + k as f64 * lay.slot,
                    MARGIN + (k + 1) as f64 * lay.slot,
                );
                let inside = cols
                    .iter()
                    .filter(|&&x| (lo..hi).contains(&f64::from(x)))
                    .count();
                assert!(inside > 10, "colour {c:?} in slot {k}: {inside} columns");
            }
            assert!(
                cols.iter().all(|&x| f64::from(x) >= MARGIN),
                "nothing left of the first slot"
            );
        }
        // The figure in slot 1 is the one in slot 0 moved by exactly one slot width.
        let blue = columns(&img, Color::BLUE, rows);
        let first = blue[0];
        let second = *blue
            .iter()
            .find(|&&x| f64::from(x) >= MARGIN + lay.slot)
            .unwrap();
        assert!((f64::from(second - first) - lay.slot).abs() <= 1.0);
    }

    #[test]
    fn bad_filmstrip_inputs_are_errors() {
        let opts = FilmstripOptions::default();
        assert!(matches!(filmstrip(&[], &opts), Err(RenderError::Empty(_))));
        let mut f = frames();
        f[1].layers[1].0.joints[2].y = f64::NAN;
        let err = filmstrip(&f, &opts).unwrap_err();
        assert!(matches!(err, RenderError::NonFinite(_)), "{err}");
        assert!(err.to_string().contains("frame 1"), "{err}");
        let mut f = frames();
        f[0].layers.clear();
        assert!(matches!(filmstrip(&f, &opts), Err(RenderError::Empty(_))));
        let huge = FilmstripOptions {
            pixels_per_metre: 1e5,
            ..FilmstripOptions::default()
        };
        assert!(matches!(
            filmstrip(&frames(), &huge),
            Err(RenderError::Size { .. })
        ));
        let zero = FilmstripOptions {
            pixels_per_metre: 0.0,
            ..FilmstripOptions::default()
        };
        assert!(matches!(
            filmstrip(&frames(), &zero),
            Err(RenderError::Invalid(_))
        ));
    }

    #[test]
    fn explicit_views_point_the_expected_axis_right() {
        let f = frames();
        assert_eq!(ViewAxis::MinusZ.right(&f), Vector3::x());
        assert_eq!(ViewAxis::PlusZ.right(&f), -Vector3::x());
        assert_eq!(ViewAxis::MinusX.right(&f), -Vector3::z());
        let mut back = frames();
        back.reverse();
        assert_eq!(ViewAxis::Auto.right(&back), -Vector3::z());
    }
}
