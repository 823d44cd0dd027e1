//! Figures (SVG and PNG) with plotters, in the style of BSA24 Figure 1.
//!
//! PNG text is rasterized with the DejaVu Sans font embedded through the `dejavu`
//! crate (no system fonts needed); SVG text is left to the viewer.
use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// One named curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points (x, y), in drawing order.
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Debug, Clone)]
pub struct Chart {
    /// Caption.
    pub title: String,
    /// x-axis label.
    pub x_label: String,
    /// y-axis label.
    pub y_label: String,
    /// The curves.
    pub series: Vec<Series>,
    /// Draw the diagonal-free square [0,1]² frame (tradeoff plots).
    pub unit_square: bool,
}

static FONT: Once = Once::new();

/// Registers DejaVu Sans for plotters' text layout (once per process).
pub(crate) fn register_font() {
    FONT.call_once(|| {
        // the font is a compile-time constant of the dejavu crate: registration cannot fail
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &Chart,
) -> std::result::Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (mut x0, mut x1, mut y0, mut y1) = finite_bounds(&chart.series);
    if chart.unit_square {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x0.partial_cmp(&x1) != Some(std::cmp::Ordering::Less) {
        x1 = x0 + 1.0;
    }
    if y0.partial_cmp(&y1) != Some(std::cmp::Ordering::Less) {
        y1 = y0 + 1.0;
    }
    let pad = 0.03 * (y1 - y0);
    let mut c = ChartBuilder::on(&root)
        .caption(&chart.title, ("sans-serif", 24))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(
            x0..x1,
            (y0 - if chart.unit_square { 0.0 } else { pad })..(y1 + pad),
        )
        .map_err(|e| e.to_string())?;
    c.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, s) in chart.series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let style = ShapeStyle {
            color,
            filled: false,
            stroke_width: 2,
        };
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        c.draw_series(LineSeries::new(pts, style))
            .map_err(|e| e.to_string())?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], style));
    }
    c.configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

/// `(x0, x1, y0, y1)`: the extent of the finite points of `series` (infinite ends when
/// there is none).
pub(crate) fn finite_bounds(series: &[Series]) -> (f64, f64, f64, f64) {
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in series.iter().flat_map(|s| s.points.iter()) {
        if x.is_finite() && y.is_finite() {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    (x0, x1, y0, y1)
}

/// Writes `stem.svg` and `stem.png` (900×650) and returns their paths.
///
/// # Errors
/// [`Error::Domain`] if a file cannot be written or a chart has no finite point.
pub fn render(chart: &Chart, stem: &Path) -> Result<Vec<PathBuf>> {
    register_font();
    if let Some(dir) = stem.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).map_err(|e| Error::Domain {
            what: dir.display().to_string(),
            reason: e.to_string(),
        })?;
    }
    let svg = stem.with_extension("svg");
    let png = stem.with_extension("png");
    let fail = |p: &Path, e: String| Error::Domain {
        what: format!("writing {}", p.display()),
        reason: e,
    };
    draw(SVGBackend::new(&svg, (900, 650)).into_drawing_area(), chart)
        .map_err(|e| fail(&svg, e))?;
    draw(
        BitMapBackend::new(&png, (900, 650)).into_drawing_area(),
        chart,
    )
    .map_err(|e| fail(&png, e))?;
    Ok(vec![svg, png])
}
