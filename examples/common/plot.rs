//! A tiny SVG line plot and CSV writer for the experiments (no dependencies).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One named curve: `(x, y)` points.
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points.
    pub points: Vec<(f64, f64)>,
}

/// The experiments' output folder: `$CARGO_TARGET_DIR/experiments` or `target/experiments`.
pub fn out_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("experiments");
    // A missing folder shows up as a write error below, with the path.
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Writes `series` as CSV: one row per point, `series,x,y`.
pub fn write_csv(
    path: &Path,
    x_name: &str,
    y_name: &str,
    series: &[Series],
) -> std::io::Result<()> {
    let mut s = format!("series,{x_name},{y_name}\n");
    for se in series {
        for (x, y) in &se.points {
            let _ = writeln!(s, "{},{x},{y}", se.label);
        }
    }
    std::fs::write(path, s)
}

/// Writes an SVG line plot of `series` (linear axes; `log_y` plots log10 of positive y values).
pub fn write_svg(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_y: bool,
) -> std::io::Result<()> {
    const W: f64 = 720.0;
    const H: f64 = 420.0;
    const L: f64 = 70.0;
    const R: f64 = 170.0;
    const T: f64 = 40.0;
    const B: f64 = 50.0;
    const COLORS: [&str; 6] = [
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    ];
    let fy = |y: f64| if log_y { y.max(1e-300).log10() } else { y };
    let pts = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        if !x.is_finite() || !y.is_finite() || (log_y && y <= 0.0) {
            continue;
        }
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(fy(y));
        y1 = y1.max(fy(y));
    }
    if x0 >= x1 {
        x1 = x0 + 1.0;
    }
    if y0 >= y1 {
        y1 = y0 + 1.0;
    }
    let sx = |x: f64| L + (x - x0) / (x1 - x0) * (W - L - R);
    let sy = |y: f64| H - B - (fy(y) - y0) / (y1 - y0) * (H - T - B);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{title}</text>"#,
        W / 2.0
    );
    let _ = writeln!(
        s,
        r#"<rect x="{L}" y="{T}" width="{}" height="{}" fill="none" stroke="black"/>"#,
        W - L - R,
        H - T - B
    );
    for k in 0..=4 {
        let f = k as f64 / 4.0;
        let xv = x0 + f * (x1 - x0);
        let yv = y0 + f * (y1 - y0);
        let ylab = if log_y {
            format!("1e{yv:.1}")
        } else {
            format!("{yv:.3e}")
        };
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{xv:.3}</text>"#,
            sx(xv),
            H - B + 16.0
        );
        let py = H - B - f * (H - T - B);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{ylab}</text>"#,
            L - 4.0,
            py + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{x_label}</text>"#,
        (L + W - R) / 2.0,
        H - 12.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{y_label}</text>"#,
        H / 2.0,
        H / 2.0
    );
    for (i, se) in series.iter().enumerate() {
        let c = COLORS[i % COLORS.len()];
        let mut d = String::new();
        for &(x, y) in &se.points {
            if x.is_finite() && y.is_finite() && !(log_y && y <= 0.0) {
                let _ = write!(d, "{:.1},{:.1} ", sx(x), sy(y));
            }
        }
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{c}" stroke-width="1.3" points="{d}"/>"#
        );
        let ly = T + 14.0 + 18.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
            W - R + 10.0,
            W - R + 30.0,
            W - R + 35.0,
            ly + 4.0,
            se.label
        );
    }
    s.push_str("</svg>\n");
    std::fs::write(path, s)
}
