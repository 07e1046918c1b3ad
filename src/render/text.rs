//! Text from pre-rasterized Noto Sans Mono glyphs (`noto-sans-mono-bitmap`): anti-aliased coverage bytes per
//! pixel, monospaced, so layout is a multiplication and no font engine is compiled in.
//!
//! The glyphs derive from Noto Sans Mono (Google), licensed under the SIL Open Font License 1.1, which allows
//! embedding in software of any licence; the crate itself is MIT.

use noto_sans_mono_bitmap::{
    FontWeight, RasterHeight, RasterizedChar, get_raster, get_raster_width,
};

/// A font size and weight available in the build (see the crate features in `Cargo.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Font {
    weight: FontWeight,
    height: RasterHeight,
}

impl Font {
    /// Tick numbers and small annotations (about 12 px type).
    pub(crate) const SMALL: Font = Font {
        weight: FontWeight::Regular,
        height: RasterHeight::Size16,
    };
    /// Axis labels, legends, time labels (about 15 px type).
    pub(crate) const LABEL: Font = Font {
        weight: FontWeight::Regular,
        height: RasterHeight::Size20,
    };
    /// Emphasised labels (the highlighted frame).
    pub(crate) const LABEL_BOLD: Font = Font {
        weight: FontWeight::Bold,
        height: RasterHeight::Size20,
    };
    /// Titles (about 18 px type, bold).
    pub(crate) const TITLE: Font = Font {
        weight: FontWeight::Bold,
        height: RasterHeight::Size24,
    };

    /// Height of a line of text in px (ascender to descender).
    pub(crate) fn line_height(self) -> f64 {
        self.height.val() as f64
    }

    /// Horizontal distance from one character to the next in px.
    pub(crate) fn advance(self) -> usize {
        get_raster_width(self.weight, self.height)
    }
}

/// Width of `s` in px.
pub(crate) fn width(s: &str, font: Font) -> f64 {
    (s.chars().count() * font.advance()) as f64
}

/// The glyph for `c`; characters outside the built-in ranges (Basic Latin, Latin-1) become similar ASCII or `?`
/// so that a label never fails to draw.
pub(crate) fn glyph(c: char, font: Font) -> RasterizedChar {
    let fallback = match c {
        '\u{2212}' | '\u{2013}' | '\u{2014}' => '-',
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201c}' | '\u{201d}' => '"',
        _ => '?',
    };
    get_raster(c, font.weight, font.height)
        .or_else(|| get_raster(fallback, font.weight, font.height))
        .or_else(|| get_raster(' ', font.weight, font.height))
        .expect("the space glyph is in the Basic Latin range, which is always built")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_use_degrees_and_unknown_characters_fall_back() {
        assert!(get_raster('°', FontWeight::Regular, RasterHeight::Size20).is_some());
        let q = glyph('?', Font::LABEL);
        assert_eq!(glyph('\u{4e2d}', Font::LABEL).pixels(), q.pixels());
        assert_eq!(
            width("abc", Font::LABEL),
            3.0 * Font::LABEL.advance() as f64
        );
    }
}
