//! A tiny anti-aliased rasterizer over an [`Image`]: thick lines with round caps, filled circles and rectangles,
//! dashed lines and text, all alpha-blended and clipped to a rectangle.
//!
//! Lines and discs are drawn by coverage from the exact distance to the shape (signed-distance anti-aliasing)
//! rather than Xiaolin Wu's algorithm: Wu's lines are one pixel wide, while stick figures and plot curves need
//! 2–4 px strokes whose joins look round, and a capsule distance gives both for free.

use super::text::{self, Font};
use super::{Color, Image};

/// Horizontal text anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HAlign {
    Left,
    Center,
    Right,
}

/// Vertical text anchor (relative to the glyph raster box, which includes ascender and descender).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VAlign {
    Top,
    Middle,
    Bottom,
}

/// An image being drawn on, with a clip rectangle in pixels (`x0 <= x < x1`, `y0 <= y < y1`).
pub(crate) struct Canvas {
    pub(crate) img: Image,
    clip: [i64; 4],
}

impl Canvas {
    /// Wraps `img`; nothing is clipped but the image border.
    pub(crate) fn new(img: Image) -> Canvas {
        let clip = [0, 0, i64::from(img.width), i64::from(img.height)];
        Canvas { img, clip }
    }

    /// Restricts drawing to the rectangle from (`x0`, `y0`) to (`x1`, `y1`) (inside the image).
    pub(crate) fn set_clip(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) {
        let (w, h) = (i64::from(self.img.width), i64::from(self.img.height));
        self.clip = [
            (x0.floor() as i64).clamp(0, w),
            (y0.floor() as i64).clamp(0, h),
            (x1.ceil() as i64).clamp(0, w),
            (y1.ceil() as i64).clamp(0, h),
        ];
    }

    /// Removes the clip rectangle.
    pub(crate) fn reset_clip(&mut self) {
        self.clip = [0, 0, i64::from(self.img.width), i64::from(self.img.height)];
    }

    /// Blends `color` into pixel (`x`, `y`) with extra opacity `coverage` in 0..=1 ("over" operator).
    fn blend(&mut self, x: i64, y: i64, color: Color, coverage: f64) {
        let [cx0, cy0, cx1, cy1] = self.clip;
        if x < cx0 || y < cy0 || x >= cx1 || y >= cy1 {
            return;
        }
        let a = coverage.clamp(0.0, 1.0) * f64::from(color.a) / 255.0;
        if a <= 0.0 {
            return;
        }
        let i = (y as usize * self.img.width as usize + x as usize) * 4;
        let px = &mut self.img.rgba[i..i + 4];
        let dst_a = f64::from(px[3]) / 255.0;
        let out_a = a + dst_a * (1.0 - a);
        for (k, src) in [color.r, color.g, color.b].into_iter().enumerate() {
            let d = f64::from(px[k]) * dst_a;
            let v = (f64::from(src) * a + d * (1.0 - a)) / out_a.max(1e-12);
            px[k] = v.round().clamp(0.0, 255.0) as u8;
        }
        px[3] = (out_a * 255.0).round() as u8;
    }

    /// Pixel rows and columns a shape with bounding box (`x0`..`x1`, `y0`..`y1`) can touch, clipped.
    fn span(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> (i64, i64, i64, i64) {
        let [cx0, cy0, cx1, cy1] = self.clip;
        (
            (x0.floor() as i64).max(cx0),
            (y0.floor() as i64).max(cy0),
            (x1.ceil() as i64).min(cx1 - 1),
            (y1.ceil() as i64).min(cy1 - 1),
        )
    }

    /// Fills the axis-aligned rectangle from (`x0`, `y0`) to (`x1`, `y1`), anti-aliased at fractional edges.
    pub(crate) fn fill_rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, color: Color) {
        let (x0, x1) = (x0.min(x1), x0.max(x1));
        let (y0, y1) = (y0.min(y1), y0.max(y1));
        let (ix0, iy0, ix1, iy1) = self.span(x0, y0, x1, y1);
        for y in iy0..=iy1 {
            let cy = overlap(y as f64, y0, y1);
            for x in ix0..=ix1 {
                let c = cy * overlap(x as f64, x0, x1);
                self.blend(x, y, color, c);
            }
        }
    }

    /// Outlines a rectangle with a 1 px line whose centre runs along the given edges.
    pub(crate) fn stroke_rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, color: Color) {
        self.fill_rect(x0 - 0.5, y0 - 0.5, x1 + 0.5, y0 + 0.5, color);
        self.fill_rect(x0 - 0.5, y1 - 0.5, x1 + 0.5, y1 + 0.5, color);
        self.fill_rect(x0 - 0.5, y0 + 0.5, x0 + 0.5, y1 - 0.5, color);
        self.fill_rect(x1 - 0.5, y0 + 0.5, x1 + 0.5, y1 - 0.5, color);
    }

    /// A straight stroke of `width` px from `a` to `b` with round caps (a capsule), anti-aliased.
    pub(crate) fn line(&mut self, a: (f64, f64), b: (f64, f64), width: f64, color: Color) {
        let mut cells = Vec::new();
        self.capsule(a, b, width, |x, y, c| cells.push((x, y, c)));
        for (x, y, c) in cells {
            self.blend(x, y, color, c);
        }
    }

    /// Calls `f(x, y, coverage)` for every pixel (inside the clip) a capsule stroke touches.
    fn capsule(&self, a: (f64, f64), b: (f64, f64), width: f64, mut f: impl FnMut(i64, i64, f64)) {
        let r = (width * 0.5).max(0.35);
        let (ix0, iy0, ix1, iy1) = self.span(
            a.0.min(b.0) - r - 1.0,
            a.1.min(b.1) - r - 1.0,
            a.0.max(b.0) + r + 1.0,
            a.1.max(b.1) + r + 1.0,
        );
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        for y in iy0..=iy1 {
            for x in ix0..=ix1 {
                // Distance from the pixel centre to the segment.
                let (px, py) = (x as f64 + 0.5 - a.0, y as f64 + 0.5 - a.1);
                let t = if len2 > 0.0 {
                    ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let d = ((px - t * dx).powi(2) + (py - t * dy).powi(2)).sqrt();
                let c = (r + 0.5 - d).clamp(0.0, 1.0);
                if c > 0.0 {
                    f(x, y, c);
                }
            }
        }
    }

    /// A polyline through `points`; drawn as one coverage mask so that joins are not blended twice.
    pub(crate) fn polyline(&mut self, points: &[(f64, f64)], width: f64, color: Color) {
        match points {
            [] => {}
            [p] => self.disc(*p, width * 0.75, color),
            _ => {
                // Per-pixel maximum coverage over all segments, then one blend: overlapping caps at the joins
                // would otherwise show as darker beads on anti-aliased edges.
                let mut mask = std::collections::HashMap::<(i64, i64), f64>::new();
                for w in points.windows(2) {
                    self.capsule(w[0], w[1], width, |x, y, c| {
                        let cell = mask.entry((x, y)).or_insert(0.0);
                        *cell = cell.max(c);
                    });
                }
                for ((x, y), c) in mask {
                    self.blend(x, y, color, c);
                }
            }
        }
    }

    /// A dashed straight line (`dash` px on, `gap` px off).
    pub(crate) fn dashed_line(
        &mut self,
        a: (f64, f64),
        b: (f64, f64),
        width: f64,
        dash: f64,
        gap: f64,
        color: Color,
    ) {
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        if len <= 0.0 {
            return;
        }
        let (ux, uy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        let mut s = 0.0;
        while s < len {
            let e = (s + dash).min(len);
            self.line(
                (a.0 + ux * s, a.1 + uy * s),
                (a.0 + ux * e, a.1 + uy * e),
                width,
                color,
            );
            s += dash + gap;
        }
    }

    /// A filled disc of radius `r` px centred at `c`, anti-aliased.
    pub(crate) fn disc(&mut self, c: (f64, f64), r: f64, color: Color) {
        let (ix0, iy0, ix1, iy1) =
            self.span(c.0 - r - 1.0, c.1 - r - 1.0, c.0 + r + 1.0, c.1 + r + 1.0);
        for y in iy0..=iy1 {
            for x in ix0..=ix1 {
                let d = ((x as f64 + 0.5 - c.0).powi(2) + (y as f64 + 0.5 - c.1).powi(2)).sqrt();
                let cov = (r + 0.5 - d).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(x, y, color, cov);
                }
            }
        }
    }

    /// Draws `s` horizontally, anchored at (`x`, `y`); returns the text's width in px.
    pub(crate) fn text(
        &mut self,
        s: &str,
        (x, y): (f64, f64),
        font: Font,
        color: Color,
        (h, v): (HAlign, VAlign),
    ) -> f64 {
        let (w, hgt) = (text::width(s, font), font.line_height());
        let x0 = match h {
            HAlign::Left => x,
            HAlign::Center => x - w / 2.0,
            HAlign::Right => x - w,
        };
        let y0 = match v {
            VAlign::Top => y,
            VAlign::Middle => y - hgt / 2.0,
            VAlign::Bottom => y - hgt,
        };
        // Glyph rasters are pixel-aligned: rounding the origin keeps them crisp.
        let (x0, y0) = (x0.round() as i64, y0.round() as i64);
        for (tx, ty, cov) in glyph_pixels(s, font) {
            self.blend(x0 + tx, y0 + ty, color, cov);
        }
        w
    }

    /// Draws `s` rotated 90° counter-clockwise (reading upwards), centred on (`x`, `y`).
    pub(crate) fn text_vertical(&mut self, s: &str, (x, y): (f64, f64), font: Font, color: Color) {
        let (w, hgt) = (text::width(s, font), font.line_height());
        // Glyph (gx, gy) of the unrotated text maps to (x0 + gy, y0 + w - gx).
        let x0 = (x - hgt / 2.0).round() as i64;
        let y0 = (y - w / 2.0).round() as i64;
        for (tx, ty, cov) in glyph_pixels(s, font) {
            self.blend(x0 + ty, y0 + w as i64 - 1 - tx, color, cov);
        }
    }
}

/// Length of the overlap of pixel `[p, p + 1)` with `[lo, hi]`: the pixel's coverage along one axis.
fn overlap(p: f64, lo: f64, hi: f64) -> f64 {
    ((p + 1.0).min(hi) - p.max(lo)).clamp(0.0, 1.0)
}

/// The inked pixels of `s` set in `font`, unrotated, relative to the text's top-left corner: (x, y, coverage in
/// (0, 1]). Shared by horizontal and vertical text.
fn glyph_pixels(s: &str, font: Font) -> impl Iterator<Item = (i64, i64, f64)> + '_ {
    let advance = font.advance() as i64;
    s.chars().enumerate().flat_map(move |(k, ch)| {
        let g = text::glyph(ch, font);
        g.rows()
            .enumerate()
            .flat_map(move |(gy, row)| {
                row.iter()
                    .enumerate()
                    .filter(|(_, c)| **c > 0)
                    .map(move |(gx, &cov)| {
                        (
                            k as i64 * advance + gx as i64,
                            gy as i64,
                            f64::from(cov) / 255.0,
                        )
                    })
            })
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canvas(w: u32, h: u32) -> Canvas {
        Canvas::new(Image::new(w, h, Color::WHITE).unwrap())
    }

    #[test]
    fn a_thick_line_covers_its_axis_and_not_far_pixels() {
        let mut c = canvas(40, 20);
        c.line((5.0, 10.0), (35.0, 10.0), 3.0, Color::RED);
        assert_eq!(c.img.pixel(20, 9), Some([214, 39, 40, 255]));
        assert_eq!(c.img.pixel(20, 15), Some([255, 255, 255, 255]));
        // Anti-aliased edge: partly covered pixels are between the two colours.
        let edge = c.img.pixel(20, 11).unwrap();
        assert!(edge[1] > 39 && edge[1] < 255, "{edge:?}");
    }

    #[test]
    fn clipping_keeps_strokes_inside_the_rectangle() {
        let mut c = canvas(30, 30);
        c.set_clip(10.0, 10.0, 20.0, 20.0);
        c.disc((15.0, 15.0), 12.0, Color::BLUE);
        assert_eq!(c.img.pixel(5, 15), Some([255, 255, 255, 255]));
        assert_eq!(c.img.pixel(15, 15), Some([31, 119, 180, 255]));
        c.reset_clip();
        c.fill_rect(0.0, 0.0, 2.0, 2.0, Color::BLACK);
        assert_eq!(c.img.pixel(1, 1), Some([0, 0, 0, 255]));
    }

    #[test]
    fn vertical_text_is_taller_than_wide() {
        let mut c = canvas(60, 120);
        c.text_vertical("Degrees", (30.0, 60.0), Font::LABEL, Color::BLACK);
        let inked: Vec<(u32, u32)> = (0..120)
            .flat_map(|y| (0..60).map(move |x| (x, y)))
            .filter(|&(x, y)| c.img.pixel(x, y).unwrap()[0] < 128)
            .collect();
        let (xs, ys): (Vec<u32>, Vec<u32>) = inked.into_iter().unzip();
        let span = |v: &[u32]| v.iter().max().unwrap() - v.iter().min().unwrap();
        assert!(span(&ys) > 2 * span(&xs), "{} vs {}", span(&ys), span(&xs));
    }
}
