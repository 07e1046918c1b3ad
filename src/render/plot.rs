//! Line plots: one or several series over a shared x axis (joint deviation in degrees over time), with 1-2-5
//! ticks, grid, axis labels, a legend row under the title and labelled vertical markers (the hit time).

use super::canvas::{Canvas, HAlign, VAlign};
use super::text::{self, Font};
use super::ticks::{label, nice_bounds, nice_ticks};
use super::{Color, Image, RenderError, check_size, finite};

/// One curve of a [`LinePlot`].
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Line colour.
    pub color: Color,
    /// (x, y) in data units, drawn as a polyline in the given order.
    pub points: Vec<(f64, f64)>,
}

/// A line plot description: plain data, rendered by [`line_plot`].
#[derive(Debug, Clone, PartialEq)]
pub struct LinePlot {
    /// Title above the plot.
    pub title: String,
    /// Label under the x axis (e.g. "time (s)").
    pub x_label: String,
    /// Label along the y axis (e.g. "deviation (°)").
    pub y_label: String,
    /// The curves; at least one point overall.
    pub series: Vec<Series>,
    /// Vertical dashed lines at x with a label (e.g. `(0.5, "hit")`).
    pub markers: Vec<(f64, String)>,
    /// Image width in px.
    pub width: u32,
    /// Image height in px.
    pub height: u32,
    /// Fixed x range; `None` spans the data and the markers exactly.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range; `None` rounds the data range out to nice ticks (from 0 when the data are non-negative and
    /// start near 0, as deviations do).
    pub y_range: Option<(f64, f64)>,
}

impl Default for LinePlot {
    fn default() -> Self {
        LinePlot {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            series: Vec::new(),
            markers: Vec::new(),
            width: 960,
            height: 540,
            x_range: None,
            y_range: None,
        }
    }
}

/// Outer margin in px.
const MARGIN: f64 = 16.0;
/// Smallest picture that still fits labels and a plot area.
const MIN_SIZE: (u32, u32) = (240, 180);

/// Where the plot area sits and how data map to pixels.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    /// Plot area in px: left, top, right, bottom.
    pub(crate) area: [f64; 4],
    /// Data range shown: x from `x.0` to `x.1`, y from `y.0` to `y.1`.
    pub(crate) x: (f64, f64),
    pub(crate) y: (f64, f64),
}

impl Frame {
    /// Pixel column of data `x`.
    pub(crate) fn px(&self, x: f64) -> f64 {
        let [l, _, r, _] = self.area;
        l + (x - self.x.0) / (self.x.1 - self.x.0) * (r - l)
    }
    /// Pixel row of data `y` (rows grow downwards).
    pub(crate) fn py(&self, y: f64) -> f64 {
        let [_, t, _, b] = self.area;
        b - (y - self.y.0) / (self.y.1 - self.y.0) * (b - t)
    }
}

/// Checks the input and computes the data ranges and the plot area.
pub(crate) fn frame(plot: &LinePlot) -> Result<Frame, RenderError> {
    check_size(
        u64::from(plot.width),
        u64::from(plot.height),
        "choose a smaller plot",
    )?;
    if plot.width < MIN_SIZE.0 || plot.height < MIN_SIZE.1 {
        return Err(RenderError::Size {
            width: u64::from(plot.width),
            height: u64::from(plot.height),
            hint: format!(
                "a plot needs at least {}x{} px for its labels",
                MIN_SIZE.0, MIN_SIZE.1
            ),
        });
    }
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for s in &plot.series {
        for (i, &(x, y)) in s.points.iter().enumerate() {
            let at = || format!("series \"{}\" point {i}", s.name);
            xs.push(finite(x, at)?);
            ys.push(finite(y, at)?);
        }
    }
    if xs.is_empty() {
        return Err(RenderError::Empty("the plot has no points".into()));
    }
    for (x, name) in &plot.markers {
        xs.push(finite(*x, || format!("marker \"{name}\""))?);
    }
    let x = match plot.x_range {
        Some(r) => checked_range(r, "x_range")?,
        None => widen(min_max(&xs)),
    };
    let y = match plot.y_range {
        Some(r) => checked_range(r, "y_range")?,
        None => {
            let (lo, hi) = widen(min_max(&ys));
            // Deviations are magnitudes: an axis from 0 shows them in proportion.
            let lo = if lo >= 0.0 && lo <= 0.3 * hi { 0.0 } else { lo };
            nice_bounds(lo, hi, 5)
        }
    };
    // The left margin holds the vertical y label and the widest tick number.
    let (y_step, y_ticks) = nice_ticks(y.0, y.1, 5);
    let tick_w = y_ticks
        .iter()
        .map(|&v| text::width(&label(v, y_step), Font::SMALL))
        .fold(0.0, f64::max);
    let left = MARGIN + Font::LABEL.line_height() + 10.0 + tick_w + 8.0;
    let top = MARGIN + Font::TITLE.line_height() + 8.0 + Font::LABEL.line_height() + 12.0;
    let right = f64::from(plot.width) - MARGIN - 20.0;
    let bottom = f64::from(plot.height)
        - MARGIN
        - Font::LABEL.line_height()
        - 6.0
        - Font::SMALL.line_height()
        - 8.0;
    Ok(Frame {
        area: [left, top, right, bottom],
        x,
        y,
    })
}

fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

/// A degenerate range (one x, a constant series) gets a width so that the mapping stays defined.
fn widen((lo, hi): (f64, f64)) -> (f64, f64) {
    if hi > lo {
        (lo, hi)
    } else {
        let d = (lo.abs() * 0.1).max(1.0);
        (lo - d, hi + d)
    }
}

fn checked_range((lo, hi): (f64, f64), what: &str) -> Result<(f64, f64), RenderError> {
    finite(lo, || what.to_string())?;
    finite(hi, || what.to_string())?;
    if hi <= lo {
        return Err(RenderError::Invalid(format!(
            "{what} ({lo}, {hi}) is empty or reversed"
        )));
    }
    Ok((lo, hi))
}

/// Renders `plot` on a white background.
///
/// Errors: no points, a non-finite coordinate, marker or range, a reversed range, a size outside
/// `240x180 ..= 16384x16384` px.
pub fn line_plot(plot: &LinePlot) -> Result<Image, RenderError> {
    let f = frame(plot)?;
    let mut c = Canvas::new(Image::new(plot.width, plot.height, Color::WHITE)?);
    let [l, t, r, b] = f.area;
    let w = f64::from(plot.width);

    // Grid and ticks. Lines are snapped to pixel columns/rows so that 1 px rules stay crisp.
    let nx = ((r - l) / 90.0).clamp(2.0, 10.0) as usize;
    let ny = ((b - t) / 55.0).clamp(2.0, 8.0) as usize;
    let (x_step, x_ticks) = nice_ticks(f.x.0, f.x.1, nx);
    let (y_step, y_ticks) = nice_ticks(f.y.0, f.y.1, ny);
    for &v in &x_ticks {
        let x = f.px(v).floor();
        c.fill_rect(x, t, x + 1.0, b, Color::LIGHT_GREY);
        c.fill_rect(x, b, x + 1.0, b + 5.0, Color::DARK);
        c.text(
            &label(v, x_step),
            (x + 0.5, b + 7.0),
            Font::SMALL,
            Color::DARK,
            (HAlign::Center, VAlign::Top),
        );
    }
    for &v in &y_ticks {
        let y = f.py(v).floor();
        c.fill_rect(l, y, r, y + 1.0, Color::LIGHT_GREY);
        c.fill_rect(l - 5.0, y, l, y + 1.0, Color::DARK);
        c.text(
            &label(v, y_step),
            (l - 8.0, y + 0.5),
            Font::SMALL,
            Color::DARK,
            (HAlign::Right, VAlign::Middle),
        );
    }

    // Curves, clipped to the plot area (a fixed range may cut them).
    c.set_clip(l, t, r, b);
    for s in &plot.series {
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (f.px(x), f.py(y))).collect();
        c.polyline(&pts, 2.0, s.color);
    }
    let marker_color = Color::rgb(80, 80, 80);
    for (x, _) in &plot.markers {
        let px = f.px(*x).floor() + 0.5;
        c.dashed_line((px, t), (px, b), 1.5, 6.0, 4.0, marker_color);
    }
    c.reset_clip();
    c.stroke_rect(
        l.floor() + 0.5,
        t.floor() + 0.5,
        r.floor() + 0.5,
        b.floor() + 0.5,
        Color::DARK,
    );

    // Marker labels on a white box at the top of the area, right of the line unless that runs out of room.
    for (x, name) in &plot.markers {
        let px = f.px(*x).floor() + 0.5;
        if px < l || px > r || name.is_empty() {
            continue;
        }
        let tw = text::width(name, Font::SMALL);
        let x0 = if px + 6.0 + tw + 4.0 <= r {
            px + 6.0
        } else {
            px - 6.0 - tw
        };
        let y0 = t + 6.0;
        c.fill_rect(
            x0 - 3.0,
            y0 - 1.0,
            x0 + tw + 3.0,
            y0 + Font::SMALL.line_height() + 1.0,
            Color::WHITE,
        );
        c.text(
            name,
            (x0, y0),
            Font::SMALL,
            marker_color,
            (HAlign::Left, VAlign::Top),
        );
    }

    // Title, legend row, axis labels.
    c.text(
        &plot.title,
        (w / 2.0, MARGIN),
        Font::TITLE,
        Color::DARK,
        (HAlign::Center, VAlign::Top),
    );
    let entries: Vec<(&str, Swatch)> = plot
        .series
        .iter()
        .map(|s| (s.name.as_str(), Swatch::Line(s.color)))
        .collect();
    legend_row(
        &mut c,
        &entries,
        ((l + r) / 2.0, MARGIN + Font::TITLE.line_height() + 8.0),
    );
    c.text(
        &plot.x_label,
        ((l + r) / 2.0, f64::from(plot.height) - MARGIN),
        Font::LABEL,
        Color::DARK,
        (HAlign::Center, VAlign::Bottom),
    );
    c.text_vertical(
        &plot.y_label,
        (MARGIN + Font::LABEL.line_height() / 2.0, (t + b) / 2.0),
        Font::LABEL,
        Color::DARK,
    );
    Ok(c.img)
}

/// The sample drawn before a legend entry's name.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Swatch {
    /// A short thick line (a curve, a skeleton).
    Line(Color),
    /// A filled box with an outline (a background tint).
    Fill(Color, Color),
}

/// One row of legend entries (the swatch, then the name), centred on `centre` (top edge of the row).
pub(crate) fn legend_row(c: &mut Canvas, entries: &[(&str, Swatch)], centre: (f64, f64)) {
    const SAMPLE: f64 = 26.0;
    const GAP: f64 = 8.0;
    const SPACING: f64 = 24.0;
    let widths: Vec<f64> = entries
        .iter()
        .map(|(name, _)| SAMPLE + GAP + text::width(name, Font::LABEL))
        .collect();
    let total = widths.iter().sum::<f64>() + SPACING * entries.len().saturating_sub(1) as f64;
    let mut x = centre.0 - total / 2.0;
    let mid = centre.1 + Font::LABEL.line_height() / 2.0;
    for ((name, swatch), w) in entries.iter().zip(widths) {
        match *swatch {
            Swatch::Line(color) => c.line((x + 2.0, mid), (x + SAMPLE - 2.0, mid), 3.0, color),
            Swatch::Fill(fill, edge) => {
                c.fill_rect(x + 1.0, mid - 7.0, x + SAMPLE - 1.0, mid + 7.0, fill);
                c.stroke_rect(x + 1.5, mid - 6.5, x + SAMPLE - 1.5, mid + 6.5, edge);
            }
        }
        c.text(
            name,
            (x + SAMPLE + GAP, centre.1),
            Font::LABEL,
            Color::DARK,
            (HAlign::Left, VAlign::Top),
        );
        x += w + SPACING;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagonal() -> LinePlot {
        LinePlot {
            title: "test".into(),
            x_label: "time (s)".into(),
            y_label: "deviation (°)".into(),
            series: vec![Series {
                name: "knee".into(),
                color: Color::RED,
                points: (0..=100)
                    .map(|i| (i as f64 * 0.1, i as f64 * 0.1))
                    .collect(),
            }],
            markers: vec![(3.0, "hit".into())],
            ..LinePlot::default()
        }
    }

    fn is(p: [u8; 4], c: Color) -> bool {
        p == [c.r, c.g, c.b, 255]
    }

    #[test]
    fn series_pixels_sit_where_the_mapping_puts_them() {
        let plot = diagonal();
        let f = frame(&plot).unwrap();
        // The data range spans 0..10 on both axes (10 is already a nice bound).
        assert_eq!((f.x, f.y), ((0.0, 10.0), (0.0, 10.0)));
        assert_eq!(f.px(0.0), f.area[0]);
        assert_eq!(f.py(0.0), f.area[3]);
        let img = line_plot(&plot).unwrap();
        for v in [1.5, 5.0, 7.25] {
            let (x, y) = (f.px(v), f.py(v));
            // A 2 px anti-aliased stroke fully covers at least one pixel next to the exact position.
            let near = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)));
            let hits = near
                .filter(|&(dx, dy)| {
                    let p = img.pixel((x as i64 + dx) as u32, (y as i64 + dy) as u32);
                    is(p.unwrap(), Color::RED)
                })
                .count();
            assert!(hits >= 2, "no series colour at {v}");
            // Well away from the curve (a quarter of the height below it) there is no series colour.
            let below = (y + (f.area[3] - f.area[1]) / 4.0).min(f.area[3] - 3.0);
            assert!(!is(img.pixel(x as u32, below as u32).unwrap(), Color::RED));
        }
    }

    #[test]
    fn the_marker_line_is_drawn_at_its_x() {
        let plot = diagonal();
        let f = frame(&plot).unwrap();
        let img = line_plot(&plot).unwrap();
        let grey = |x: u32| {
            (f.area[1] as u32 + 30..f.area[3] as u32 - 2)
                .filter(|&y| img.pixel(x, y).unwrap()[0] < 120)
                .count()
        };
        let expected = f.px(3.0).floor() as u32;
        let best = (f.area[0] as u32 + 2..f.area[2] as u32 - 2)
            .max_by_key(|&x| grey(x))
            .unwrap();
        assert_eq!(best, expected);
        assert!(grey(expected) > 50, "a dashed line, mostly inked");
    }

    #[test]
    fn png_of_a_plot_decodes_with_the_requested_size() {
        let mut plot = diagonal();
        plot.width = 400;
        plot.height = 300;
        let bytes = line_plot(&plot).unwrap().png_bytes().unwrap();
        let (w, h, _) = crate::render::tests::decode(&bytes);
        assert_eq!((w, h), (400, 300));
    }

    #[test]
    fn bad_inputs_are_errors_not_panics() {
        let mut p = diagonal();
        p.series[0].points[3].1 = f64::NAN;
        assert!(matches!(line_plot(&p), Err(RenderError::NonFinite(m)) if m.contains("knee")));
        let mut p = diagonal();
        p.markers[0].0 = f64::INFINITY;
        assert!(matches!(line_plot(&p), Err(RenderError::NonFinite(_))));
        let mut p = diagonal();
        p.series.clear();
        assert!(matches!(line_plot(&p), Err(RenderError::Empty(_))));
        let mut p = diagonal();
        p.width = 20_000;
        assert!(matches!(line_plot(&p), Err(RenderError::Size { .. })));
        let mut p = diagonal();
        p.y_range = Some((1.0, 1.0));
        assert!(matches!(line_plot(&p), Err(RenderError::Invalid(_))));
        // One point and a constant series still draw.
        let mut p = diagonal();
        p.series[0].points = vec![(2.0, 3.0)];
        p.markers.clear();
        assert!(line_plot(&p).is_ok());
    }
}
