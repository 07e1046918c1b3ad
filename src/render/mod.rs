//! PNG pictures without system libraries: a filmstrip of stick figures (reference and simulated poses side by
//! side, Cline 2002 Fig. 5.2) and line plots (joint deviation over time).
//!
//! Everything is plain data in, an RGBA [`Image`] out: callers turn their skeletons into [`StickFigure`]s
//! (world coordinates, metres, Y up) and their measurements into [`Series`]. The drawing is our own small
//! anti-aliased rasterizer ([`canvas`](self)); text comes from pre-rasterized Noto Sans Mono glyphs
//! (`noto-sans-mono-bitmap`, font under the SIL Open Font License 1.1) and PNG encoding from the `png` crate, so
//! nothing needs fontconfig, freetype or a display. See `docs/render.md`.

mod canvas;
mod filmstrip;
mod plot;
mod text;
mod ticks;

use std::path::{Path, PathBuf};

pub use filmstrip::{FilmFrame, FilmstripOptions, StickFigure, ViewAxis, filmstrip};
pub use plot::{LinePlot, Series, line_plot};
pub use ticks::nice_ticks;

/// Largest accepted image side in pixels: larger requests are almost certainly a unit mistake and would
/// allocate gigabytes.
pub const MAX_SIDE: u32 = 16_384;

/// An sRGB colour with straight (not premultiplied) alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
    /// Opacity, 0 (transparent) – 255 (opaque).
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b, a: 255 }
    }
    /// White.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    /// Dark grey for text and axes (softer than pure black).
    pub const DARK: Color = Color::rgb(40, 40, 40);
    /// Mid grey.
    pub const GREY: Color = Color::rgb(140, 140, 140);
    /// Light grey for grid lines.
    pub const LIGHT_GREY: Color = Color::rgb(225, 225, 225);
    /// Blue (the reference motion in flinch's pictures).
    pub const BLUE: Color = Color::rgb(31, 119, 180);
    /// Orange.
    pub const ORANGE: Color = Color::rgb(255, 127, 14);
    /// Green.
    pub const GREEN: Color = Color::rgb(44, 160, 44);
    /// Red (the simulated character in flinch's pictures).
    pub const RED: Color = Color::rgb(214, 39, 40);
    /// Purple.
    pub const PURPLE: Color = Color::rgb(148, 103, 189);

    /// A palette of distinguishable colours (the "tab10" order) for series without a chosen colour.
    pub const PALETTE: [Color; 5] = [
        Color::BLUE,
        Color::ORANGE,
        Color::GREEN,
        Color::RED,
        Color::PURPLE,
    ];
}

/// Why a picture could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// Nothing to draw (no frames, no layers, no points).
    #[error("nothing to draw: {0}")]
    Empty(String),
    /// A coordinate or option is NaN or infinite.
    #[error("non-finite value in {0}")]
    NonFinite(String),
    /// The requested or implied image is larger than [`MAX_SIDE`] per side (or degenerate).
    #[error("image of {width}x{height} px is out of range (1..={max} px per side): {hint}", max = MAX_SIDE)]
    Size {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
        /// What to change.
        hint: String,
    },
    /// Another inconsistent input (a pixel buffer of the wrong length, a non-positive scale, ...).
    #[error("invalid input: {0}")]
    Invalid(String),
    /// The PNG encoder failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
    /// Writing the file failed.
    #[error("{}: cannot write: {source}", path.display())]
    Io {
        /// The destination.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// An 8-bit RGBA raster, row-major from the top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes: R, G, B, A per pixel, straight alpha.
    pub rgba: Vec<u8>,
}

/// Checks a picture size before anything is allocated.
pub(crate) fn check_size(width: u64, height: u64, hint: &str) -> Result<(), RenderError> {
    let max = u64::from(MAX_SIDE);
    if width == 0 || height == 0 || width > max || height > max {
        return Err(RenderError::Size {
            width,
            height,
            hint: hint.to_string(),
        });
    }
    Ok(())
}

impl Image {
    /// A `width`×`height` image filled with `background`.
    pub fn new(width: u32, height: u32, background: Color) -> Result<Image, RenderError> {
        check_size(
            u64::from(width),
            u64::from(height),
            "choose a smaller picture",
        )?;
        let px = [background.r, background.g, background.b, background.a];
        Ok(Image {
            width,
            height,
            rgba: px.repeat(width as usize * height as usize),
        })
    }

    /// The pixel at (`x`, `y`) as RGBA, `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        self.rgba.get(i..i + 4).map(|p| [p[0], p[1], p[2], p[3]])
    }

    /// The image encoded as an 8-bit RGBA PNG.
    pub fn png_bytes(&self) -> Result<Vec<u8>, RenderError> {
        check_size(
            u64::from(self.width),
            u64::from(self.height),
            "the image itself is out of range",
        )?;
        let expected = self.width as usize * self.height as usize * 4;
        if self.rgba.len() != expected {
            return Err(RenderError::Invalid(format!(
                "{} RGBA bytes for a {}x{} image (expected {expected})",
                self.rgba.len(),
                self.width,
                self.height
            )));
        }
        let mut out = Vec::new();
        let png_err = |e: png::EncodingError| RenderError::Png(e.to_string());
        {
            let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            // Declaring sRGB makes viewers show the colours as drawn instead of guessing a profile.
            encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
            let mut writer = encoder.write_header().map_err(png_err)?;
            writer.write_image_data(&self.rgba).map_err(png_err)?;
            writer.finish().map_err(png_err)?;
        }
        Ok(out)
    }

    /// Writes the PNG to `path` atomically (temporary file + rename, [`crate::io::write_atomic`]).
    pub fn write_png(&self, path: &Path) -> Result<(), RenderError> {
        let bytes = self.png_bytes()?;
        crate::io::write_atomic(path, &bytes).map_err(|source| RenderError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Fails with [`RenderError::NonFinite`] naming `what` when `v` is NaN or infinite.
pub(crate) fn finite(v: f64, what: impl FnOnce() -> String) -> Result<f64, RenderError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(RenderError::NonFinite(what()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Decodes PNG bytes with the `png` crate: (width, height, RGBA bytes).
    pub(crate) fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn png_bytes_decode_back_to_the_same_pixels() {
        let mut img = Image::new(7, 3, Color::WHITE).unwrap();
        img.rgba[4 * 8..4 * 8 + 4].copy_from_slice(&[1, 2, 3, 4]);
        let (w, h, rgba) = decode(&img.png_bytes().unwrap());
        assert_eq!((w, h), (7, 3));
        assert_eq!(rgba, img.rgba);
        assert_eq!(img.pixel(1, 1), Some([1, 2, 3, 4]));
        assert_eq!(img.pixel(7, 0), None);
    }

    #[test]
    fn absurd_sizes_and_bad_buffers_are_errors() {
        assert!(matches!(
            Image::new(20_000, 10, Color::WHITE),
            Err(RenderError::Size { .. })
        ));
        assert!(Image::new(0, 10, Color::WHITE).is_err());
        let bad = Image {
            width: 2,
            height: 2,
            rgba: vec![0; 15],
        };
        assert!(matches!(bad.png_bytes(), Err(RenderError::Invalid(_))));
    }

    #[test]
    fn write_png_writes_a_decodable_file() {
        let dir = std::env::temp_dir().join(format!("flinch-render-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.png");
        Image::new(5, 4, Color::BLUE)
            .unwrap()
            .write_png(&path)
            .unwrap();
        let (w, h, _) = decode(&std::fs::read(&path).unwrap());
        assert_eq!((w, h), (5, 4));
        let missing = dir.join("no/such/dir/a.png");
        let err = Image::new(1, 1, Color::WHITE)
            .unwrap()
            .write_png(&missing)
            .unwrap_err();
        assert!(err.to_string().contains("cannot write"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
