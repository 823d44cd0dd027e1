//! Figures (SVG and PNG) with plotters, in the style of BSA24 Figure 1: the crate's one
//! plotting backend. [`render`] writes the stand-alone figures of `shiftdp plot`,
//! [`svg_string`] the figures embedded in the verification report; both draw through
//! the same routine and differ only in their [`Layout`].
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
    /// Draw the diagonal-free square \[0,1\]² frame (tradeoff plots).
    pub unit_square: bool,
}

static FONT: Once = Once::new();

/// Registers DejaVu Sans for plotters' text layout (once per process).
fn register_font() {
    FONT.call_once(|| {
        // the font is a compile-time constant of the dejavu crate: registration cannot fail
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

/// How a figure is laid out: size and the spacing and type sizes around the plot area.
/// One drawing routine (`draw`) serves every figure of the crate; the layouts differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Width and height in pixels (an SVG scales with its page through its viewBox).
    pub size: (u32, u32),
    /// Margin around the chart, pixels.
    pub margin: u32,
    /// Height of the x-label area and width of the y-label area, pixels.
    pub label_areas: (u32, u32),
    /// Type sizes: caption, axis descriptions, tick labels, legend.
    pub type_sizes: (u32, u32, u32, u32),
    /// Vertical padding above and below the data, as a fraction of its range.
    pub pad: f64,
    /// Colour of the minor grid lines (`None`: plotters' default).
    pub light_grid: Option<(u8, u8, u8)>,
}

impl Layout {
    /// Stand-alone figures written by [`render`] (`shiftdp plot …`): 900×650.
    pub const FIGURE: Layout = Layout {
        size: (900, 650),
        margin: 16,
        label_areas: (48, 64),
        type_sizes: (24, 18, 14, 15),
        pad: 0.03,
        light_grid: None,
    };
    /// Figures embedded in the verification report (`shiftdp verify --report`): 820×480.
    pub const REPORT: Layout = Layout {
        size: (820, 480),
        margin: 14,
        label_areas: (50, 78),
        type_sizes: (24, 19, 16, 17),
        pad: 0.04,
        light_grid: Some((244, 244, 244)),
    };
}

/// Draws `chart` into `root` with `layout`: axes fitted to the finite points (the unit
/// square for tradeoff charts; [0,1]² when there is no finite point), non-finite points
/// skipped, a one-point series marked by a dot, the legend in the corner covering the
/// fewest points.
pub(crate) fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &Chart,
    layout: &Layout,
) -> std::result::Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (mut x0, mut x1, mut y0, mut y1) = finite_bounds(&chart.series);
    if chart.unit_square || !x0.is_finite() {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x0.partial_cmp(&x1) != Some(std::cmp::Ordering::Less) {
        (x0, x1) = (x0 - 0.5, x0 + 0.5);
    }
    if y0.partial_cmp(&y1) != Some(std::cmp::Ordering::Less) {
        (y0, y1) = (y0 - 0.5, y0 + 0.5);
    }
    let pad = if chart.unit_square {
        0.0
    } else {
        layout.pad * (y1 - y0)
    };
    let (caption, axis, label, legend) = layout.type_sizes;
    let mut c = ChartBuilder::on(&root)
        .caption(&chart.title, ("sans-serif", caption))
        .margin(layout.margin)
        .x_label_area_size(layout.label_areas.0)
        .y_label_area_size(layout.label_areas.1)
        .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
        .map_err(|e| e.to_string())?;
    let mut mesh = c.configure_mesh();
    mesh.x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .axis_desc_style(("sans-serif", axis))
        .label_style(("sans-serif", label));
    if let Some((r, g, b)) = layout.light_grid {
        mesh.light_line_style(RGBColor(r, g, b));
    }
    mesh.draw().map_err(|e| e.to_string())?;
    for (i, s) in chart.series.iter().enumerate() {
        let style = ShapeStyle {
            color: Palette99::pick(i).to_rgba(),
            filled: false,
            stroke_width: 2,
        };
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        let single = pts.len() == 1;
        c.draw_series(LineSeries::new(pts.clone(), style))
            .map_err(|e| e.to_string())?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], style));
        if single {
            // a one-point series has no line: mark the point
            c.draw_series(pts.iter().map(|&p| Circle::new(p, 4, style.filled())))
                .map_err(|e| e.to_string())?;
        }
    }
    if !chart.series.is_empty() {
        c.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", legend))
            .position(legend_corner(&chart.series, (x0, x1), (y0 - pad, y1 + pad)))
            .draw()
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

/// The legend corner covering the fewest points: each corner's box spans 40% of the
/// width and 30% of the height (ties: upper right, upper left, lower right, lower left).
fn legend_corner(
    series: &[Series],
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> SeriesLabelPosition {
    let corners = [
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::LowerLeft, false, false),
    ];
    let covered = |right: bool, upper: bool| {
        series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .filter(|&&(x, y)| {
                let u = (x - x0) / (x1 - x0);
                let v = (y - y0) / (y1 - y0);
                (if right { u >= 0.6 } else { u <= 0.4 })
                    && (if upper { v >= 0.7 } else { v <= 0.3 })
            })
            .count()
    };
    let mut best = (usize::MAX, SeriesLabelPosition::UpperRight);
    for (pos, right, upper) in corners {
        let n = covered(right, upper);
        if n < best.0 {
            best = (n, pos);
        }
    }
    best.1
}

/// Renders `chart` as a standalone SVG document (a `String` starting with `<svg`).
///
/// # Errors
/// [`Error::Domain`] if plotters cannot lay the chart out.
///
/// # Example
/// ```
/// use shiftdp::plot::{Chart, Layout, Series, svg_string};
/// let chart = Chart {
///     title: "μ vs steps".into(),
///     x_label: "steps".into(),
///     y_label: "μ".into(),
///     series: vec![Series { name: "bound".into(), points: vec![(1.0, 0.5), (2.0, 0.7)] }],
///     unit_square: false,
/// };
/// let svg = svg_string(&chart, &Layout::REPORT).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("bound"));
/// ```
pub fn svg_string(chart: &Chart, layout: &Layout) -> Result<String> {
    register_font();
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, layout.size).into_drawing_area();
        draw(root, chart, layout).map_err(|e| Error::Domain {
            what: format!("plot `{}`", chart.title),
            reason: e,
        })?;
    }
    Ok(buf)
}

/// `(x0, x1, y0, y1)`: the extent of the finite points of `series` (infinite ends when
/// there is none).
fn finite_bounds(series: &[Series]) -> (f64, f64, f64, f64) {
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

/// Writes `stem.svg` and `stem.png` ([`Layout::FIGURE`], 900×650) and returns their
/// paths.
///
/// # Errors
/// [`Error::Domain`] if a file cannot be written or the chart has no finite point.
pub fn render(chart: &Chart, stem: &Path) -> Result<Vec<PathBuf>> {
    register_font();
    if !chart.unit_square && !finite_bounds(&chart.series).0.is_finite() {
        return Err(Error::Domain {
            what: format!("plot `{}`", chart.title),
            reason: "no finite point to draw".into(),
        });
    }
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
    let layout = Layout::FIGURE;
    draw(
        SVGBackend::new(&svg, layout.size).into_drawing_area(),
        chart,
        &layout,
    )
    .map_err(|e| fail(&svg, e))?;
    draw(
        BitMapBackend::new(&png, layout.size).into_drawing_area(),
        chart,
        &layout,
    )
    .map_err(|e| fail(&png, e))?;
    Ok(vec![svg, png])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(points: Vec<(f64, f64)>) -> Chart {
        Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series {
                name: "s".into(),
                points,
            }],
            unit_square: false,
        }
    }

    #[test]
    fn layouts_set_the_svg_size() {
        let c = chart(vec![(0.0, 1.0), (1.0, 2.0)]);
        let fig = svg_string(&c, &Layout::FIGURE).unwrap();
        let rep = svg_string(&c, &Layout::REPORT).unwrap();
        assert!(fig.contains("width=\"900\"") && fig.contains("height=\"650\""));
        assert!(rep.contains("width=\"820\"") && rep.contains("height=\"480\""));
    }

    #[test]
    fn a_lone_point_is_marked_and_no_point_is_refused() {
        let one = svg_string(&chart(vec![(2.0, 3.0)]), &Layout::REPORT).unwrap();
        assert!(one.contains("<circle"));
        let two = svg_string(&chart(vec![(2.0, 3.0), (3.0, 4.0)]), &Layout::REPORT).unwrap();
        assert!(!two.contains("<circle"));
        let stem = std::env::temp_dir().join(format!("shiftdp-plot-{}", std::process::id()));
        let none = chart(vec![(f64::NAN, 1.0), (1.0, f64::INFINITY)]);
        assert!(matches!(render(&none, &stem), Err(Error::Domain { .. })));
        assert!(!stem.with_extension("svg").exists());
    }
}
