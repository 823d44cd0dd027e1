//! Figures (SVG and PNG) with plotters, in the style of BSA24 Figure 1: the crate's one
//! plotting backend. [`render`] writes the stand-alone figures of `shiftdp plot`,
//! [`svg_string`] the figures embedded in the verification report; both draw through
//! the same routine and differ only in their [`Layout`].
//!
//! # How series are told apart
//! Every series has a colour, a dash pattern and a marker ([`styles`]), so curves that
//! coincide, or a figure printed in grey, stay readable:
//! * colour = the series' **group** ([`Series::group`]); series without a group get a
//!   colour of their own. The `shiftdp plot` commands group **by bound**: in
//!   `plot tradeoff` one colour per result across every t (t is told by dash and marker),
//!   in `plot epsilon-vs-steps` one colour per result across every δ (δ by dash and
//!   marker), in `plot compare` one colour per result;
//! * within colour c, the k-th series gets dash `k mod 4` (solid, dashed, dotted,
//!   dash-dot) and marker `(k + c) mod 5` (circle, square, triangle, cross, diamond):
//!   no two series of the same colour share dash and marker (up to 20 per colour), and
//!   the first curves of different colours have different markers too;
//! * markers are hollow (white inside), so markers of coinciding curves both show;
//! * [`Role::Reference`] lines (the identity tradeoff) are thin, black and solid;
//!   [`Role::Envelope`] (the best valid bound) is a wide translucent band drawn under
//!   the curves; [`Role::Band`] regions (a certified interval over x) are filled in
//!   their group's colour, translucent, under every line; [`Role::Excluded`] curves (shown, but not taken into account, e.g. not
//!   eligible for "best") are grey with dotted/dashed lines, and their names say why.
//!
//! Markers sit on every point of a series with at most 15 points, otherwise at six
//! places along the curve, shifted from series to series so that the markers of
//! coinciding curves do not cover each other.
//!
//! # Layout
//! Title, then an optional caption line with the setting ([`Chart::caption`]), then the
//! plot and its legend, placed by [`Layout::legend`]: [`LegendPlace::Right`] puts it in
//! a panel to the right of the plot; [`LegendPlace::Auto`] (the stand-alone figures)
//! puts it inside the plot area, in the first corner (upper right, upper left, lower
//! right, lower left) where its box covers no drawn point, line or band, and otherwise
//! below the plot in as many columns as fit. Either way the legend never hides data.
//! Tick labels drop trailing zeros; an x axis whose points are all integers (steps,
//! epochs, k) has integer ticks only. Lines are clipped to the plotting area and split at
//! sharp turns (a thick polyline with a near reversal would otherwise be joined by a long
//! miter spike).
//!
//! # Logarithmic y axis
//! With [`Chart::log_y`] the y axis is logarithmic: only points with y > 0 are drawn, and
//! the ticks sit at 1, 2, 5 × 10^k (a span under two decades), at every power of ten (up
//! to six decades) or at every m-th power of ten (wider spans, at most seven ticks).
//!
//! # PNG
//! The PNG is the figure at 200 dpi: [`Layout::FIGURE`] is 8 × 5 in at 100 px per inch
//! (the SVG's units), the PNG is drawn at twice that size (1600 × 1000 px, type and lines
//! scaled with it), carries a `pHYs` chunk of 200 dpi (7874 px/m) and is written with
//! the encoder's best compression and adaptive filtering. PNG text is rasterized with
//! the DejaVu Sans font embedded through the `dejavu` crate (no system fonts needed);
//! SVG text is left to the viewer.
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use shiftdp::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// How a series is drawn (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Role {
    /// A curve: the colour of its group, the dash and marker of its rank in the colour.
    #[default]
    Curve,
    /// A reference line (e.g. the identity tradeoff): thin, black, solid, no marker.
    Reference,
    /// A lower envelope of other curves: a wide translucent band under them.
    Envelope,
    /// Shown but excluded from the comparison: grey, dotted or dashed; the name says why.
    Excluded,
    /// Separate measurements (e.g. one per sampled point): a marker at every point, no
    /// line joining them (a line would suggest an order or a trend the data do not have).
    Points,
    /// A region: the points are a closed polygon (e.g. an upper curve left to right, then
    /// a lower curve right to left), filled translucent in the colour of its group and
    /// drawn under every line.
    Band,
}

/// One named curve.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points (x, y), in drawing order.
    pub points: Vec<(f64, f64)>,
    /// Colour group: series of one group share a colour (`None`: a colour of its own).
    pub group: Option<usize>,
    /// How the series is drawn.
    pub role: Role,
}

impl Series {
    /// A [`Role::Curve`] without a group.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            group: None,
            role: Role::Curve,
        }
    }

    /// The same series in colour group `g`.
    pub fn in_group(mut self, g: usize) -> Series {
        self.group = Some(g);
        self
    }

    /// The same series with role `r`.
    pub fn with_role(mut self, r: Role) -> Series {
        self.role = r;
        self
    }
}

/// A line chart.
#[derive(Debug, Clone, Default)]
pub struct Chart {
    /// Title.
    pub title: String,
    /// A line under the title (the setting: n, b, σ, L, c, δ …), if any.
    pub caption: Option<String>,
    /// x-axis label.
    pub x_label: String,
    /// y-axis label.
    pub y_label: String,
    /// The curves.
    pub series: Vec<Series>,
    /// Draw the diagonal-free square \[0,1\]² frame (tradeoff plots).
    pub unit_square: bool,
    /// Logarithmic y axis (points with y ≤ 0 are left out); ignored with `unit_square`.
    pub log_y: bool,
}

/// Dash patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dash {
    /// Solid line.
    Solid,
    /// Long dashes.
    Dashed,
    /// Dots.
    Dotted,
    /// Dash, dot.
    DashDot,
}

impl Dash {
    /// On/off lengths in layout pixels (empty: solid).
    fn pattern(self) -> &'static [f64] {
        match self {
            Dash::Solid => &[],
            Dash::Dashed => &[8.0, 4.0],
            Dash::Dotted => &[2.0, 3.0],
            Dash::DashDot => &[9.0, 3.0, 2.0, 3.0],
        }
    }
}

/// Marker shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Marker {
    /// No marker.
    None,
    /// Filled circle.
    Circle,
    /// Filled square.
    Square,
    /// Filled triangle.
    Triangle,
    /// Diagonal cross.
    Cross,
    /// Filled diamond.
    Diamond,
}

/// How one series is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// RGB colour.
    pub colour: (u8, u8, u8),
    /// Opacity.
    pub alpha: f64,
    /// Line width in layout pixels.
    pub width: f64,
    /// Dash pattern.
    pub dash: Dash,
    /// Marker.
    pub marker: Marker,
}

/// Okabe–Ito colours (colour-blind safe), black and yellow left out, plus two.
const PALETTE: [(u8, u8, u8); 8] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (117, 112, 179),
    (153, 79, 0),
];
const DASHES: [Dash; 4] = [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::DashDot];
const EXCLUDED_DASHES: [Dash; 3] = [Dash::Dotted, Dash::Dashed, Dash::DashDot];
const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Cross,
    Marker::Diamond,
];
const GREY: (u8, u8, u8) = (140, 140, 140);

/// The style of every series (see the module documentation): colour by group, then
/// dash `k mod 4` and marker `(k + c) mod 5` for the k-th series of colour c, so two
/// [`Role::Curve`] series of the same colour never share dash and marker (below 20 per
/// colour; [`Role::Excluded`]: grey, below 15).
pub fn styles(series: &[Series]) -> Vec<Style> {
    let mut groups: Vec<(Option<usize>, usize)> = vec![];
    let mut per_colour = [0usize; PALETTE.len()];
    let mut excluded = 0usize;
    series
        .iter()
        .enumerate()
        .map(|(i, s)| match s.role {
            Role::Reference => Style {
                colour: (0, 0, 0),
                alpha: 1.0,
                width: 1.2,
                dash: Dash::Solid,
                marker: Marker::None,
            },
            Role::Envelope => Style {
                colour: (0, 0, 0),
                alpha: 0.22,
                width: 9.0,
                dash: Dash::Solid,
                marker: Marker::None,
            },
            Role::Points => Style {
                colour: PALETTE[i % PALETTE.len()],
                alpha: 1.0,
                width: 0.0,
                dash: Dash::Solid,
                marker: Marker::Circle,
            },
            Role::Excluded => {
                let k = excluded;
                excluded += 1;
                Style {
                    colour: GREY,
                    alpha: 1.0,
                    width: 1.6,
                    dash: EXCLUDED_DASHES[k % EXCLUDED_DASHES.len()],
                    marker: MARKERS[k % MARKERS.len()],
                }
            }
            Role::Band => Style {
                colour: PALETTE[colour_of(&mut groups, s, i)],
                alpha: 0.16,
                width: 0.0,
                dash: Dash::Solid,
                marker: Marker::None,
            },
            Role::Curve => {
                let c = colour_of(&mut groups, s, i);
                let k = per_colour[c];
                per_colour[c] += 1;
                Style {
                    colour: PALETTE[c],
                    alpha: 1.0,
                    width: 2.0,
                    dash: DASHES[k % DASHES.len()],
                    marker: MARKERS[(k + c) % MARKERS.len()],
                }
            }
        })
        .collect()
}

/// The palette index of series `i`'s group (a series without a group is a group of its
/// own, keyed by its index), registering the group at its first series.
fn colour_of(groups: &mut Vec<(Option<usize>, usize)>, s: &Series, i: usize) -> usize {
    let key = (s.group, if s.group.is_some() { 0 } else { i });
    let g = match groups.iter().position(|&(k, j)| (k, j) == key) {
        Some(g) => g,
        None => {
            groups.push(key);
            groups.len() - 1
        }
    };
    g % PALETTE.len()
}

/// A tick label: integers without decimals, other values without trailing zeros,
/// very large or small magnitudes in scientific notation.
pub fn tick_label(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_finite() {
            "0".into()
        } else {
            v.to_string()
        };
    }
    let a = v.abs();
    if !(1e-3..1e7).contains(&a) {
        let s = format!("{v:.3e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = m.trim_end_matches('0').trim_end_matches('.');
        return format!("{m}e{e}");
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// A number for a legend or caption: at most 4 significant digits, rounded to nearest
/// (up with `up`, for values that bound something from above), without trailing zeros;
/// plain decimals from 10⁻³ to below 10⁵, else `m e k` (`1.5e-7`).
pub fn label_number(v: f64, up: bool) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { v.to_string() };
    }
    let k = v.abs().log10().floor() as i32;
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if (-3..5).contains(&k) {
        let d = (3 - k).max(0) as usize;
        let s = if up {
            shiftdp::decimal::fixed_up(v, d)
        } else {
            format!("{v:.d$}")
        };
        // rounding can carry into a fifth digit (9999.5 → 10000): still plain
        return trim(s);
    }
    let s = if up {
        shiftdp::decimal::f64_up(v, 4)
    } else {
        format!("{v:.3e}")
    };
    let (m, e) = s.split_once(['e', 'E']).unwrap_or((&s, "0"));
    let e: i32 = e.trim_start_matches('+').parse().unwrap_or(0);
    format!("{}e{e}", trim(m.to_string()))
}

/// A tick label on an integral axis: the integer, or nothing between integers.
fn integer_tick_label(v: f64) -> String {
    if (v - v.round()).abs() <= 1e-9 * v.abs().max(1.0) {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

/// Whether every finite x of `series` is an integer (and there is one).
fn integral_x(series: &[Series]) -> bool {
    let mut any = false;
    for &(x, y) in series.iter().flat_map(|s| s.points.iter()) {
        if x.is_finite() && y.is_finite() {
            any = true;
            if x.fract() != 0.0 {
                return false;
            }
        }
    }
    any
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

/// Where the legend of a figure goes (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LegendPlace {
    /// A panel to the right of the plot.
    #[default]
    Right,
    /// Inside the plot, in a corner where it covers no data; else below the plot.
    Auto,
}

/// How a figure is laid out: size and the spacing and type sizes around the plot area,
/// in layout pixels; everything is multiplied by `scale` when drawn.
/// One drawing routine (`draw`) serves every figure of the crate; the layouts differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Width and height in layout pixels (an SVG scales with its page through its viewBox).
    pub size: (u32, u32),
    /// Margin around the chart, layout pixels.
    pub margin: u32,
    /// Height of the x-label area and width of the y-label area, layout pixels.
    pub label_areas: (u32, u32),
    /// Type sizes: title, axis descriptions, tick labels, legend (and caption).
    pub type_sizes: (u32, u32, u32, u32),
    /// Where the legend goes.
    pub legend: LegendPlace,
    /// Width of the legend panel to the right of the plot ([`LegendPlace::Right`]),
    /// layout pixels.
    pub legend_width: u32,
    /// Vertical padding above and below the data, as a fraction of its range.
    pub pad: f64,
    /// Colour of the minor grid lines (`None`: no minor grid lines).
    pub light_grid: Option<(u8, u8, u8)>,
    /// Device pixels per layout pixel.
    pub scale: u32,
}

impl Layout {
    /// Stand-alone figures written by [`render`] (`shiftdp plot …`): 800×500, i.e.
    /// 8 × 5 in at 100 px per inch, the legend inside the plot or below it, no minor
    /// grid; the PNG is drawn at `scaled(2)` (200 dpi).
    pub const FIGURE: Layout = Layout {
        size: (800, 500),
        margin: 12,
        label_areas: (44, 64),
        type_sizes: (19, 16, 14, 13),
        legend: LegendPlace::Auto,
        legend_width: 0,
        pad: 0.03,
        light_grid: None,
        scale: 1,
    };
    /// Figures embedded in the verification report (`shiftdp verify --report`): 980×480.
    pub const REPORT: Layout = Layout {
        size: (980, 480),
        margin: 14,
        label_areas: (50, 78),
        type_sizes: (22, 18, 15, 15),
        legend: LegendPlace::Right,
        legend_width: 280,
        pad: 0.04,
        light_grid: Some((244, 244, 244)),
        scale: 1,
    };

    /// The same layout drawn `k` times larger (device pixels per layout pixel).
    pub const fn scaled(self, k: u32) -> Layout {
        Layout { scale: k, ..self }
    }

    fn px(&self, v: f64) -> f64 {
        v * self.scale as f64
    }

    fn pxu(&self, v: u32) -> u32 {
        v * self.scale
    }
}

/// Device pixels per layout pixel of the PNG written by [`render`] (200 dpi).
pub const PNG_SCALE: u32 = 2;
/// Dots per inch of the PNG written by [`render`].
pub const PNG_DPI: u32 = 200;

/// A rectangle in device pixels: (left, top, right, bottom).
type Rect = (f64, f64, f64, f64);

/// Clips segment `p`–`q` to `r` (Liang–Barsky); `None` if it misses.
fn clip(p: (f64, f64), q: (f64, f64), r: Rect) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (pp, qq) in [
        (-dx, p.0 - r.0),
        (dx, r.2 - p.0),
        (-dy, p.1 - r.1),
        (dy, r.3 - p.1),
    ] {
        if pp == 0.0 {
            if qq < 0.0 {
                return None;
            }
        } else {
            let t = qq / pp;
            if pp < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 <= t1).then_some((
        (p.0 + t0 * dx, p.1 + t0 * dy),
        (p.0 + t1 * dx, p.1 + t1 * dy),
    ))
}

/// The pieces to stroke for polyline `pts` (device pixels) with dash `pattern` (device
/// pixels; empty: solid), clipped to `r`, rounded to pixels, and split where the line
/// turns by more than ~100° (so that no miter join of a thick line spikes out).
fn stroke_pieces(pts: &[(f64, f64)], pattern: &[f64], r: Rect) -> Vec<Vec<(i32, i32)>> {
    // 1. dashes: runs of (sub)segments that are "on"
    let mut runs: Vec<Vec<(f64, f64)>> = vec![];
    let period: f64 = pattern.iter().sum();
    if pattern.is_empty() || period <= 0.0 {
        runs.push(pts.to_vec());
    } else {
        let (mut idx, mut left) = (0usize, pattern[0]);
        let mut cur: Vec<(f64, f64)> = vec![];
        for w in pts.windows(2) {
            let (mut a, b) = (w[0], w[1]);
            let mut len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
            if idx % 2 == 0 && cur.is_empty() {
                cur.push(a);
            }
            while len > left {
                let f = left / len;
                let m = (a.0 + f * (b.0 - a.0), a.1 + f * (b.1 - a.1));
                if idx % 2 == 0 {
                    cur.push(m);
                    runs.push(std::mem::take(&mut cur));
                } else {
                    cur = vec![m];
                }
                len -= left;
                a = m;
                idx = (idx + 1) % pattern.len();
                left = pattern[idx];
            }
            left -= len;
            if idx % 2 == 0 {
                cur.push(b);
            }
        }
        if cur.len() >= 2 {
            runs.push(cur);
        }
    }
    // 2. clip, 3. round, 4. split at sharp turns
    let mut out: Vec<Vec<(i32, i32)>> = vec![];
    for run in runs {
        let mut piece: Vec<(i32, i32)> = vec![];
        for w in run.windows(2) {
            let Some((a, b)) = clip(w[0], w[1], r) else {
                if piece.len() >= 2 {
                    out.push(std::mem::take(&mut piece));
                }
                piece.clear();
                continue;
            };
            let (a, b) = (
                (a.0.round() as i32, a.1.round() as i32),
                (b.0.round() as i32, b.1.round() as i32),
            );
            if piece.last() != Some(&a) {
                if piece.len() >= 2 {
                    out.push(std::mem::take(&mut piece));
                }
                piece = vec![a];
            }
            if a == b {
                continue;
            }
            let n = piece.len();
            if n >= 2 {
                let (p, q) = (piece[n - 2], piece[n - 1]);
                let (u, v) = (
                    ((q.0 - p.0) as f64, (q.1 - p.1) as f64),
                    ((b.0 - q.0) as f64, (b.1 - q.1) as f64),
                );
                let cos = (u.0 * v.0 + u.1 * v.1)
                    / ((u.0.hypot(u.1)) * (v.0.hypot(v.1))).max(f64::MIN_POSITIVE);
                if cos < -0.17 {
                    out.push(std::mem::take(&mut piece));
                    piece = vec![q];
                }
            }
            piece.push(b);
        }
        if piece.len() >= 2 {
            out.push(piece);
        }
    }
    out
}

/// Where to put the markers of polyline `pts` (device pixels): every point if there are
/// at most 15, else six places along the arc, shifted by `phase` ∈ [0, 1).
fn marker_places(pts: &[(f64, f64)], phase: f64) -> Vec<(f64, f64)> {
    if pts.len() <= 15 {
        return pts.to_vec();
    }
    let lens: Vec<f64> = pts
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .collect();
    let total: f64 = lens.iter().sum();
    if total <= 0.0 {
        return vec![pts[0]];
    }
    let mut out = vec![];
    for j in 0..6 {
        let mut s = (j as f64 + 0.15 + 0.7 * phase) / 6.0 * total;
        for (i, &l) in lens.iter().enumerate() {
            if s <= l || i + 1 == lens.len() {
                let f = if l > 0.0 { (s / l).min(1.0) } else { 0.0 };
                let (a, b) = (pts[i], pts[i + 1]);
                out.push((a.0 + f * (b.0 - a.0), a.1 + f * (b.1 - a.1)));
                break;
            }
            s -= l;
        }
    }
    out
}

type DrawResult = std::result::Result<(), String>;

/// Strokes `pts` (device pixels) with `style` inside `r`, markers included.
/// Fills the polygon `pts` (pixels) with `style`'s colour at its alpha, each vertex
/// clamped to `r`.
fn fill<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pts: &[(f64, f64)],
    style: &Style,
    r: Rect,
) -> DrawResult {
    if pts.len() < 3 {
        return Ok(());
    }
    let (cr, cg, cb) = style.colour;
    let poly: Vec<(i32, i32)> = pts
        .iter()
        .map(|&(x, y)| {
            (
                x.clamp(r.0, r.2).round() as i32,
                y.clamp(r.1, r.3).round() as i32,
            )
        })
        .collect();
    root.draw(&Polygon::new(
        poly,
        RGBColor(cr, cg, cb).mix(style.alpha).filled(),
    ))
    .map_err(|e| e.to_string())?;
    Ok(())
}

fn stroke<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pts: &[(f64, f64)],
    style: &Style,
    layout: &Layout,
    r: Rect,
    phase: f64,
    markers: bool,
) -> DrawResult {
    let (cr, cg, cb) = style.colour;
    let colour = RGBColor(cr, cg, cb).mix(style.alpha);
    let width = layout.px(style.width).round().max(1.0) as u32;
    let line = ShapeStyle {
        color: colour,
        filled: false,
        stroke_width: width,
    };
    let pattern: Vec<f64> = style
        .dash
        .pattern()
        .iter()
        .map(|&v| layout.px(v) * style.width.max(1.0) / 2.0)
        .collect();
    // width 0: points only ([`Role::Points`]), a marker at every point
    let points_only = style.width <= 0.0;
    if !points_only {
        for piece in stroke_pieces(pts, &pattern, r) {
            root.draw(&PathElement::new(piece, line))
                .map_err(|e| e.to_string())?;
        }
    }
    if !markers || style.marker == Marker::None {
        return Ok(());
    }
    let m = layout.px(4.0);
    let fill = WHITE.filled();
    let edge = ShapeStyle {
        color: colour,
        filled: false,
        stroke_width: layout.px(1.5).round().max(1.0) as u32,
    };
    let places = if points_only {
        pts.to_vec()
    } else {
        marker_places(pts, phase)
    };
    for (x, y) in places {
        if x < r.0 - 0.5 || x > r.2 + 0.5 || y < r.1 - 0.5 || y > r.3 + 0.5 {
            continue;
        }
        let p = |dx: f64, dy: f64| ((x + dx).round() as i32, (y + dy).round() as i32);
        // a hollow polygon: white inside, outlined in the colour
        let poly = |v: Vec<(i32, i32)>| {
            let mut closed = v.clone();
            closed.push(v[0]);
            root.draw(&Polygon::new(v, fill))
                .and_then(|_| root.draw(&PathElement::new(closed, edge)))
        };
        let res = match style.marker {
            Marker::None => Ok(()),
            Marker::Circle => root
                .draw(&Circle::new(p(0.0, 0.0), m.round() as i32, fill))
                .and_then(|_| root.draw(&Circle::new(p(0.0, 0.0), m.round() as i32, edge))),
            Marker::Square => {
                let h = 0.85 * m;
                poly(vec![p(-h, -h), p(h, -h), p(h, h), p(-h, h)])
            }
            Marker::Triangle => {
                let h = 1.2 * m;
                poly(vec![p(0.0, -h), p(h, 0.7 * h), p(-h, 0.7 * h)])
            }
            Marker::Diamond => {
                let h = 1.25 * m;
                poly(vec![p(0.0, -h), p(h, 0.0), p(0.0, h), p(-h, 0.0)])
            }
            Marker::Cross => {
                let h = 1.1 * m;
                let s = ShapeStyle {
                    stroke_width: layout.px(2.0).round() as u32,
                    ..line
                };
                root.draw(&PathElement::new(vec![p(-h, -h), p(h, h)], s))
                    .and_then(|_| root.draw(&PathElement::new(vec![p(-h, h), p(h, -h)], s)))
            }
        };
        res.map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Wraps `text` to `max` device pixels (measured by `measure`): whole phrases (the
/// parts before ` ★ ` and ` — `) where they fit, else word by word.
fn wrap(text: &str, max: u32, measure: &dyn Fn(&str) -> u32) -> Vec<String> {
    let marked = text.replace(" ★ ", "\u{1}★ ").replace(" — ", "\u{1}— ");
    let mut lines: Vec<String> = vec![];
    for phrase in marked.split('\u{1}') {
        if let Some(last) = lines.last_mut() {
            let cand = format!("{last} {phrase}");
            if measure(&cand) <= max {
                *last = cand;
                continue;
            }
        }
        lines.extend(wrap_words(phrase, max, measure));
    }
    lines
}

/// Greedy word wrap of `text` to `max` device pixels, measured by `measure`.
fn wrap_words(text: &str, max: u32, measure: &dyn Fn(&str) -> u32) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    let mut cur = String::new();
    for word in text.split(' ') {
        let cand = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if !cur.is_empty() && measure(&cand) > max {
            lines.push(std::mem::replace(&mut cur, word.to_string()));
        } else {
            cur = cand;
        }
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Whether `chart` is drawn with a logarithmic y axis.
fn log_y(chart: &Chart) -> bool {
    chart.log_y && !chart.unit_square
}

/// The ticks of a logarithmic axis over `[lo, hi]` (log₁₀ of the values): 1, 2, 5 × 10^k
/// for a span under two decades (every 1…9 × 10^k under half a decade), every power of
/// ten up to six decades, else every m-th power of ten with at most seven ticks.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = hi - lo;
    let (mults, step): (&[f64], i32) = if span < 0.5 {
        (&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], 1)
    } else if span < 2.0 {
        (&[1.0, 2.0, 5.0], 1)
    } else if span <= 6.0 {
        (&[1.0], 1)
    } else {
        (&[1.0], (span / 6.0).ceil() as i32)
    };
    let (k0, k1) = (lo.floor() as i32, hi.ceil() as i32);
    let mut out = vec![];
    for k in k0..=k1 {
        if k.rem_euclid(step) != 0 {
            continue;
        }
        for &m in mults {
            let v = m * 10f64.powi(k);
            let l = v.log10();
            if l >= lo - 1e-9 && l <= hi + 1e-9 {
                out.push(v);
            }
        }
    }
    out
}

/// The axes of a chart: the data ranges (y as log₁₀ y on a logarithmic axis).
#[derive(Debug, Clone, Copy)]
struct Axes {
    x: (f64, f64),
    y: (f64, f64),
    log_y: bool,
    integral_x: bool,
}

impl Axes {
    /// The ranges of `chart` (see [`draw`]).
    fn of(chart: &Chart, layout: &Layout) -> Axes {
        let log = log_y(chart);
        let (mut x0, mut x1, mut y0, mut y1) = finite_bounds(&chart.series, log);
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
        Axes {
            x: (x0, x1),
            y: (y0 - pad, y1 + pad),
            log_y: log,
            integral_x: !chart.unit_square && integral_x(&chart.series),
        }
    }

    /// Device pixel of data point `(x, y)` in plot rectangle `r` (`None` if not drawable).
    fn pixel(&self, r: Rect, (x, y): (f64, f64)) -> Option<(f64, f64)> {
        if !drawable((x, y), self.log_y) {
            return None;
        }
        let y = if self.log_y { y.log10() } else { y };
        let ((x0, x1), (y0, y1)) = (self.x, self.y);
        Some((
            r.0 + (x - x0) / (x1 - x0) * (r.2 - r.0),
            r.3 - (y - y0) / (y1 - y0) * (r.3 - r.1),
        ))
    }
}

/// Builds the axes of `chart` in `area` and returns the plot rectangle (device pixels);
/// draws the mesh, ticks and axis descriptions if `mesh` (otherwise draws nothing).
fn axes_in<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    area: &DrawingArea<DB, Shift>,
    chart: &Chart,
    layout: &Layout,
    ax: &Axes,
    mesh: bool,
) -> std::result::Result<Rect, String> {
    let (_, axis, label, _) = layout.type_sizes;
    let (axis, label) = (layout.pxu(axis), layout.pxu(label));
    let ((x0, x1), (y0, y1)) = (ax.x, ax.y);
    let mut c = ChartBuilder::on(area)
        .margin(layout.pxu(layout.margin))
        .x_label_area_size(layout.pxu(layout.label_areas.0))
        .y_label_area_size(layout.pxu(layout.label_areas.1))
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| e.to_string())?;
    let (xr, yr) = c.plotting_area().get_pixel_range();
    let r: Rect = (
        xr.start as f64,
        yr.start as f64,
        (xr.end - 1) as f64,
        (yr.end - 1) as f64,
    );
    if !mesh {
        return Ok(r);
    }
    let x_fmt: &dyn Fn(&f64) -> String = if ax.integral_x {
        &|v: &f64| integer_tick_label(*v)
    } else {
        &|v: &f64| tick_label(*v)
    };
    let y_fmt = |v: &f64| tick_label(*v);
    let grid = RGBColor(200, 200, 200);
    let mut m = c.configure_mesh();
    m.x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .axis_desc_style(("sans-serif", axis))
        .label_style(("sans-serif", label))
        .x_label_formatter(x_fmt)
        .y_label_formatter(&y_fmt)
        .bold_line_style(grid.stroke_width(layout.scale))
        .axis_style(BLACK.stroke_width(layout.scale))
        .set_all_tick_mark_size(layout.px(5.0) as i32);
    if ax.integral_x {
        let span = (x1 - x0).round().max(1.0) as usize;
        m.x_labels((span + 1).min(10));
    }
    if ax.log_y {
        // the y ticks of a logarithmic axis are drawn below
        m.y_labels(0);
    }
    match layout.light_grid {
        Some((r, g, b)) => {
            m.light_line_style(RGBColor(r, g, b).stroke_width(layout.scale));
        }
        None => {
            m.max_light_lines(0);
        }
    }
    m.draw().map_err(|e| e.to_string())?;
    if ax.log_y {
        let font = ("sans-serif", label)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Right, VPos::Center));
        let tick = layout.px(5.0);
        for v in log_ticks(y0, y1) {
            let Some((_, py)) = ax.pixel(r, (x0, v)) else {
                continue;
            };
            let py = py.round() as i32;
            let (left, right) = (r.0.round() as i32, r.2.round() as i32);
            root.draw(&PathElement::new(
                vec![(left, py), (right, py)],
                grid.stroke_width(layout.scale),
            ))
            .map_err(|e| e.to_string())?;
            root.draw(&PathElement::new(
                vec![(left - tick.round() as i32, py), (left, py)],
                BLACK.stroke_width(layout.scale),
            ))
            .map_err(|e| e.to_string())?;
            root.draw_text(
                &tick_label(v),
                &font,
                ((r.0 - tick - layout.px(4.0)).round() as i32, py),
            )
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(r)
}

/// Draws the series of `chart` (z-order: bands and envelopes, excluded, references,
/// curves) in plot rectangle `r`.
fn draw_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    styles: &[Style],
    layout: &Layout,
    ax: &Axes,
    r: Rect,
) -> DrawResult {
    let rank = |role: Role| match role {
        Role::Band | Role::Envelope => 0,
        Role::Excluded => 1,
        Role::Reference => 2,
        Role::Curve | Role::Points => 3,
    };
    let mut order: Vec<usize> = (0..chart.series.len()).collect();
    order.sort_by_key(|&i| rank(chart.series[i].role));
    for i in order {
        let s = &chart.series[i];
        let pts: Vec<(f64, f64)> = s.points.iter().filter_map(|&p| ax.pixel(r, p)).collect();
        if s.role == Role::Band {
            fill(root, &pts, &styles[i], r)?;
            continue;
        }
        let phase = (i as f64 * 0.618_034).fract();
        stroke(root, &pts, &styles[i], layout, r, phase, true)?;
        if pts.len() == 1 && styles[i].marker == Marker::None {
            // a one-point series without a marker: mark the point
            let (x, y) = pts[0];
            let (cr, cg, cb) = styles[i].colour;
            root.draw(&Circle::new(
                (x.round() as i32, y.round() as i32),
                layout.px(4.0) as i32,
                RGBColor(cr, cg, cb).filled(),
            ))
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// What the legend box must not cover: points along every drawn line (at most a few
/// pixels apart) and the band polygons, in device pixels.
struct Ink {
    points: Vec<(f64, f64)>,
    bands: Vec<Vec<(f64, f64)>>,
}

impl Ink {
    fn of(chart: &Chart, ax: &Axes, r: Rect, step: f64) -> Ink {
        let mut points = vec![];
        let mut bands = vec![];
        let inside = |p: &(f64, f64)| p.0 >= r.0 && p.0 <= r.2 && p.1 >= r.1 && p.1 <= r.3;
        for s in &chart.series {
            let pts: Vec<(f64, f64)> = s.points.iter().filter_map(|&p| ax.pixel(r, p)).collect();
            if s.role == Role::Band {
                bands.push(pts);
                continue;
            }
            points.extend(pts.iter().filter(|p| inside(p)));
            if s.role == Role::Points {
                continue;
            }
            for w in pts.windows(2) {
                let Some((a, b)) = clip(w[0], w[1], r) else {
                    continue;
                };
                let n = ((b.0 - a.0).hypot(b.1 - a.1) / step).ceil().min(4096.0) as usize;
                for k in 1..n {
                    let f = k as f64 / n as f64;
                    points.push((a.0 + f * (b.0 - a.0), a.1 + f * (b.1 - a.1)));
                }
            }
        }
        Ink { points, bands }
    }

    /// Whether rectangle `b` (left, top, right, bottom) covers any of the ink.
    fn hits(&self, b: Rect) -> bool {
        let inb = |p: &(f64, f64)| p.0 >= b.0 && p.0 <= b.2 && p.1 >= b.1 && p.1 <= b.3;
        if self.points.iter().any(inb) {
            return true;
        }
        // a band covers the box if one of a 5×5 grid of its points lies in the polygon
        self.bands.iter().any(|poly| {
            (0..5).any(|i| {
                (0..5).any(|j| {
                    let p = (
                        b.0 + (b.2 - b.0) * i as f64 / 4.0,
                        b.1 + (b.3 - b.1) * j as f64 / 4.0,
                    );
                    in_polygon(p, poly)
                })
            })
        })
    }
}

/// Whether `p` lies inside polygon `poly` (even–odd rule).
fn in_polygon(p: (f64, f64), poly: &[(f64, f64)]) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
    }
    inside
}

/// A legend laid out in a box: entries in `cols` columns, filled row by row.
struct LegendBox {
    size: u32,
    lines: Vec<Vec<String>>,
    line_h: f64,
    cols: usize,
    col_w: f64,
    row_h: Vec<f64>,
    pad: f64,
    w: f64,
    h: f64,
}

impl LegendBox {
    /// The legend of `chart` in `cols` columns, each name wrapped to `max_text` pixels.
    fn new<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        chart: &Chart,
        layout: &Layout,
        cols: usize,
        max_text: f64,
    ) -> LegendBox {
        let size = layout.pxu(layout.type_sizes.3);
        let font = TextStyle::from(("sans-serif", size).into_font());
        let measure = |s: &str| root.estimate_text_size(s, &font).map(|d| d.0).unwrap_or(0);
        let lines: Vec<Vec<String>> = chart
            .series
            .iter()
            .map(|s| wrap(&s.name, max_text.max(layout.px(40.0)) as u32, &measure))
            .collect();
        let line_h = (size as f64 * 1.25).ceil();
        let sample = layout.px(30.0);
        let gap = layout.px(6.0);
        let text_w = lines
            .iter()
            .flat_map(|l| l.iter())
            .map(|t| measure(t) as f64)
            .fold(0.0, f64::max);
        let col_w = sample + gap + text_w + layout.px(14.0);
        let cols = cols.clamp(1, lines.len().max(1));
        let spacing = 0.3 * line_h;
        let row_h: Vec<f64> = lines
            .chunks(cols)
            .map(|row| row.iter().map(|l| l.len()).max().unwrap_or(1) as f64 * line_h + spacing)
            .collect();
        let pad = layout.px(6.0);
        let w = cols as f64 * col_w - layout.px(14.0) + 2.0 * pad;
        let h = row_h.iter().sum::<f64>() - spacing + 2.0 * pad;
        LegendBox {
            size,
            lines,
            line_h,
            cols,
            col_w,
            row_h,
            pad,
            w,
            h,
        }
    }

    /// Draws the box (white, grey border) with its top left corner at `(left, top)`.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        chart: &Chart,
        styles: &[Style],
        layout: &Layout,
        (left, top): (f64, f64),
    ) -> DrawResult {
        let corners = [
            (left.round() as i32, top.round() as i32),
            (
                (left + self.w).round() as i32,
                (top + self.h).round() as i32,
            ),
        ];
        root.draw(&Rectangle::new(corners, WHITE.mix(0.92).filled()))
            .map_err(|e| e.to_string())?;
        root.draw(&Rectangle::new(
            corners,
            RGBColor(150, 150, 150).stroke_width(layout.scale),
        ))
        .map_err(|e| e.to_string())?;
        let font = ("sans-serif", self.size)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let sample = layout.px(30.0);
        let gap = layout.px(6.0);
        let (w, h) = root.dim_in_pixel();
        let full: Rect = (0.0, 0.0, w as f64, h as f64);
        let mut y_row = top + self.pad;
        for (row, entries) in self.lines.chunks(self.cols).enumerate() {
            for (col, entry) in entries.iter().enumerate() {
                let i = row * self.cols + col;
                let x = left + self.pad + col as f64 * self.col_w;
                let yc = y_row + 0.5 * self.line_h;
                draw_sample(
                    root,
                    &chart.series[i],
                    &styles[i],
                    layout,
                    (x, yc),
                    sample,
                    self.line_h,
                    full,
                )?;
                for (k, line) in entry.iter().enumerate() {
                    let y = yc + k as f64 * self.line_h;
                    root.draw_text(line, &font, ((x + sample + gap) as i32, y as i32))
                        .map_err(|e| e.to_string())?;
                }
            }
            y_row += self.row_h[row];
        }
        Ok(())
    }
}

/// The legend sample of one series: a filled patch (bands), a short line and its marker,
/// `width` pixels wide, starting at `(left, yc)`.
#[allow(clippy::too_many_arguments)]
fn draw_sample<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &Series,
    style: &Style,
    layout: &Layout,
    (left, yc): (f64, f64),
    width: f64,
    line_h: f64,
    full: Rect,
) -> DrawResult {
    if series.role == Role::Band {
        let h = 0.35 * line_h;
        fill(
            root,
            &[
                (left, yc - h),
                (left + width, yc - h),
                (left + width, yc + h),
                (left, yc + h),
            ],
            style,
            full,
        )?;
    }
    stroke(
        root,
        &[(left, yc), (left + width / 2.0, yc), (left + width, yc)],
        style,
        layout,
        full,
        0.0,
        false,
    )?;
    if style.marker != Marker::None {
        stroke(
            root,
            &[(left + width / 2.0, yc)],
            style,
            layout,
            full,
            0.0,
            true,
        )?;
    }
    Ok(())
}

/// Draws `chart` into `root` with `layout`: title, caption line, axes fitted to the
/// drawable points (the unit square for tradeoff charts; [0,1]² when there is no
/// drawable point; y logarithmic with [`Chart::log_y`]), undrawable points skipped, every
/// series with its [`styles`] entry, and the legend where [`Layout::legend`] says.
pub(crate) fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &Chart,
    layout: &Layout,
) -> DrawResult {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let ax = Axes::of(chart, layout);
    let (title, legend) = (
        layout.pxu(layout.type_sizes.0),
        layout.pxu(layout.type_sizes.3),
    );
    let mut body = root
        .margin(layout.pxu(8), 0, 0, 0)
        .titled(&chart.title, ("sans-serif", title))
        .map_err(err)?;
    if let Some(cap) = &chart.caption {
        body = body
            .titled(
                cap,
                ("sans-serif", legend)
                    .into_font()
                    .color(&RGBColor(60, 60, 60)),
            )
            .map_err(err)?;
    }
    let styles = styles(&chart.series);
    let (bw, bh) = body.dim_in_pixel();
    if chart.series.is_empty() || layout.legend == LegendPlace::Right {
        let lw = if chart.series.is_empty() {
            0
        } else {
            layout.pxu(layout.legend_width).min(bw / 2)
        };
        let (plot_area, _) = body.split_horizontally(bw - lw);
        let r = axes_in(&root, &plot_area, chart, layout, &ax, true)?;
        draw_series(&root, chart, &styles, layout, &ax, r)?;
        if lw > 0 {
            draw_legend(
                &root,
                chart,
                &styles,
                layout,
                legend,
                (r.2 + layout.px(14.0), r.1),
            )?;
        }
        root.present().map_err(err)?;
        return Ok(());
    }
    // inside the plot: the first corner where the box covers no ink (one column, then two)
    let r = axes_in(&root, &body, chart, layout, &ax, false)?;
    let ink = Ink::of(chart, &ax, r, layout.px(3.0));
    let inset = layout.px(8.0);
    let clear = layout.px(5.0);
    let (pw, ph) = (r.2 - r.0, r.3 - r.1);
    let mut inside: Option<(LegendBox, (f64, f64))> = None;
    'search: for cols in [1, 2] {
        let lb = LegendBox::new(&root, chart, layout, cols, 0.45 * pw / cols as f64);
        if lb.w > pw - 2.0 * inset || lb.h > ph - 2.0 * inset {
            continue;
        }
        let (l, t) = (r.0 + inset, r.1 + inset);
        let (rr, bb) = (r.2 - inset - lb.w, r.3 - inset - lb.h);
        for (x, y) in [(rr, t), (l, t), (rr, bb), (l, bb)] {
            let b = (x - clear, y - clear, x + lb.w + clear, y + lb.h + clear);
            if !ink.hits(b) {
                inside = Some((lb, (x, y)));
                break 'search;
            }
        }
    }
    if let Some((lb, at)) = inside {
        let r = axes_in(&root, &body, chart, layout, &ax, true)?;
        draw_series(&root, chart, &styles, layout, &ax, r)?;
        lb.draw(&root, chart, &styles, layout, at)?;
        root.present().map_err(err)?;
        return Ok(());
    }
    // below the plot, in as many columns as fit under it
    let mut lb = LegendBox::new(&root, chart, layout, 1, 0.9 * pw);
    let cols = ((pw + layout.px(14.0)) / lb.col_w).floor().max(1.0) as usize;
    if cols > 1 {
        lb = LegendBox::new(&root, chart, layout, cols, 0.9 * pw);
    }
    let strip = (lb.h + layout.px(6.0)).ceil() as u32;
    let strip = strip.min(bh / 2);
    let (top_area, _) = body.split_vertically(bh - strip);
    let r = axes_in(&root, &top_area, chart, layout, &ax, true)?;
    draw_series(&root, chart, &styles, layout, &ax, r)?;
    let (_, y_body) = body.get_pixel_range();
    let left = (0.5 * (r.0 + r.2 - lb.w)).max(layout.px(4.0));
    let top = (y_body.end - strip as i32) as f64;
    lb.draw(&root, chart, &styles, layout, (left, top))?;
    root.present().map_err(err)?;
    Ok(())
}

/// The legend panel: one entry per series (a line sample with its marker and the
/// wrapped name), from `(left, top)` to the right edge of `root`.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    styles: &[Style],
    layout: &Layout,
    size: u32,
    (left, top): (f64, f64),
) -> DrawResult {
    let (w, h) = root.dim_in_pixel();
    let right = w as f64 - layout.px(6.0);
    let sample = layout.px(34.0);
    let gap = layout.px(6.0);
    let text_w = (right - left - sample - 2.0 * gap).max(layout.px(40.0)) as u32;
    // shrink the type until the entries fit in the height
    let mut size = size;
    let (lines, line_h) = loop {
        let font = TextStyle::from(("sans-serif", size).into_font());
        let measure = |s: &str| root.estimate_text_size(s, &font).map(|d| d.0).unwrap_or(0);
        let lines: Vec<Vec<String>> = chart
            .series
            .iter()
            .map(|s| wrap(&s.name, text_w, &measure))
            .collect();
        let line_h = (size as f64 * 1.25).ceil();
        let total: f64 = lines
            .iter()
            .map(|l| l.len() as f64 * line_h + 0.4 * line_h)
            .sum();
        if top + total + line_h <= h as f64 || size <= layout.pxu(8) {
            break (lines, line_h);
        }
        size -= 1;
    };
    let font = ("sans-serif", size)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let bottom: f64 = top
        + lines
            .iter()
            .map(|l| l.len() as f64 * line_h + 0.4 * line_h)
            .sum::<f64>()
        - 0.1 * line_h;
    root.draw(&Rectangle::new(
        [
            ((left - gap) as i32, (top - 0.2 * line_h) as i32),
            (right as i32, bottom as i32),
        ],
        RGBColor(120, 120, 120).stroke_width(layout.scale),
    ))
    .map_err(|e| e.to_string())?;
    let mut y = top + 0.5 * line_h;
    let full: Rect = (0.0, 0.0, w as f64, h as f64);
    for (i, entry) in lines.iter().enumerate() {
        draw_sample(
            root,
            &chart.series[i],
            &styles[i],
            layout,
            (left, y),
            sample,
            line_h,
            full,
        )?;
        for line in entry {
            root.draw_text(line, &font, ((left + sample + gap) as i32, y as i32))
                .map_err(|e| e.to_string())?;
            y += line_h;
        }
        y += 0.4 * line_h;
    }
    Ok(())
}

/// Renders `chart` as a standalone SVG document (a `String` starting with `<svg`).
///
/// # Errors
/// [`Error::Domain`] if plotters cannot lay the chart out.
///
/// # Example
/// ```
/// use shiftdp_verify::plot::{Chart, Layout, Series, svg_string};
/// let chart = Chart {
///     title: "μ vs steps".into(),
///     caption: Some("n = 10, σ = 1".into()),
///     x_label: "steps".into(),
///     y_label: "μ".into(),
///     series: vec![Series::new("bound", vec![(1.0, 0.5), (2.0, 0.7)])],
///     unit_square: false,
///     log_y: false,
/// };
/// let svg = svg_string(&chart, &Layout::REPORT).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("bound") && svg.contains("σ = 1"));
/// ```
pub fn svg_string(chart: &Chart, layout: &Layout) -> Result<String> {
    register_font();
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, size_of(layout)).into_drawing_area();
        draw(root, chart, layout).map_err(|e| Error::Domain {
            what: format!("plot `{}`", chart.title),
            reason: e,
        })?;
    }
    Ok(buf)
}

fn size_of(layout: &Layout) -> (u32, u32) {
    (layout.pxu(layout.size.0), layout.pxu(layout.size.1))
}

/// Whether `(x, y)` can be drawn: both finite, and y > 0 on a logarithmic y axis.
fn drawable((x, y): (f64, f64), log_y: bool) -> bool {
    x.is_finite() && y.is_finite() && (!log_y || y > 0.0)
}

/// `(x0, x1, y0, y1)`: the extent of the drawable points of `series`, y as log₁₀ y on a
/// logarithmic axis (infinite ends when there is none).
fn finite_bounds(series: &[Series], log_y: bool) -> (f64, f64, f64, f64) {
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in series.iter().flat_map(|s| s.points.iter()) {
        if drawable((x, y), log_y) {
            let y = if log_y { y.log10() } else { y };
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    (x0, x1, y0, y1)
}

/// Writes an 8-bit RGB PNG with a `pHYs` chunk of `dpi`.
fn write_png(
    path: &Path,
    rgb: &[u8],
    (w, h): (u32, u32),
    dpi: u32,
) -> std::result::Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Best);
    enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let ppm = (dpi as f64 / 0.0254).round() as u32;
    enc.set_pixel_dims(Some(png::PixelDimensions {
        xppu: ppm,
        yppu: ppm,
        unit: png::Unit::Meter,
    }));
    let mut wr = enc.write_header().map_err(|e| e.to_string())?;
    wr.write_image_data(rgb).map_err(|e| e.to_string())?;
    wr.finish().map_err(|e| e.to_string())
}

/// Number of tangent lines of [`gaussian_tradeoff`].
pub const TRADEOFF_LINES: usize = 400;

/// Vertices of a certified **lower** bound on the tradeoff function `G(μ)` for drawing:
/// the envelope ([`PiecewiseLinear::from_lines`](shiftdp::tradeoff::PiecewiseLinear::from_lines))
/// of the lines `1 − δ_up(ε) − e^ε α` (`δ_up`: the certified upper end of the Gaussian
/// `δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)`, DRS22 Cor 1; `e^ε` rounded up) over
/// [`TRADEOFF_LINES`] values of ε ([`tangent_epsilons`](shiftdp::tradeoff::tangent_epsilons))
/// in `±(5μ + μ²/2)` (tangent points from α ≈ 3·10⁻⁷ to 1 − 3·10⁻⁷). Every segment lies
/// below `G(μ)`; `μ = 0` gives the identity `1 − α`.
///
/// # Errors
/// [`Error::Parameter`] for μ negative or not finite.
pub fn gaussian_tradeoff(mu: f64) -> Result<Vec<(f64, f64)>> {
    use shiftdp::precision::{Enclosure, Precision};
    use shiftdp::tradeoff::{Gaussian, PiecewiseLinear, tangent_epsilons};
    if !mu.is_finite() || mu < 0.0 {
        return Err(Error::param("mu", mu, "must be finite and ≥ 0"));
    }
    if mu <= 0.0 {
        return Ok(vec![(0.0, 1.0), (1.0, 0.0)]);
    }
    let m = Enclosure::from_f64(64, mu);
    let emax = 5.0 * mu + 0.5 * mu * mu;
    let profile = tangent_epsilons(emax, TRADEOFF_LINES)
        .into_iter()
        .filter_map(|eps| {
            let d = Gaussian::delta(&m, &Enclosure::from_f64(64, eps), Precision::F64).ok()?;
            Some((eps, d.enclosure.upper_f64()))
        });
    Ok(PiecewiseLinear::from_privacy_profile(profile)?
        .vertices()
        .to_vec())
}

/// Writes `stem.svg` ([`Layout::FIGURE`], 800×500) and `stem.png` (the same figure at
/// 200 dpi: 1600×1000 px with a 200-dpi `pHYs` chunk) and returns their paths.
///
/// # Errors
/// [`Error::Domain`] if a file cannot be written or the chart has no finite point.
pub fn render(chart: &Chart, stem: &Path) -> Result<Vec<PathBuf>> {
    register_font();
    if !chart.unit_square && !finite_bounds(&chart.series, log_y(chart)).0.is_finite() {
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
        SVGBackend::new(&svg, size_of(&layout)).into_drawing_area(),
        chart,
        &layout,
    )
    .map_err(|e| fail(&svg, e))?;
    let big = layout.scaled(PNG_SCALE);
    let (w, h) = size_of(&big);
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    draw(
        BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area(),
        chart,
        &big,
    )
    .map_err(|e| fail(&png, e))?;
    write_png(&png, &rgb, (w, h), PNG_DPI).map_err(|e| fail(&png, e))?;
    Ok(vec![svg, png])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_markers_without_a_line() {
        let s = [
            Series::new("a", vec![(0.0, 1.0), (1.0, 2.0)]).with_role(Role::Points),
            Series::new("b", vec![(0.0, 1.0), (1.0, 2.0)]),
        ];
        let st = styles(&s);
        assert!(st[0].width <= 0.0 && st[0].marker != Marker::None);
        assert!(st[1].width > 0.0);
        // and it renders
        let chart = Chart {
            series: s.to_vec(),
            ..Chart::default()
        };
        assert!(svg_string(&chart, &Layout::REPORT).is_ok());
    }

    #[test]
    fn a_band_is_filled_in_its_group_colour_under_the_lines() {
        let band = vec![(0.0, 2.0), (1.0, 3.0), (1.0, 1.0), (0.0, 0.5)];
        let s = [
            Series::new("band", band).in_group(1).with_role(Role::Band),
            Series::new("upper", vec![(0.0, 2.0), (1.0, 3.0)]).in_group(1),
            Series::new("other", vec![(0.0, 1.0), (1.0, 1.5)]).in_group(2),
        ];
        let st = styles(&s);
        assert_eq!(st[0].colour, st[1].colour);
        assert_ne!(st[0].colour, st[2].colour);
        assert!(st[0].alpha < 0.5 && st[0].marker == Marker::None);
        let chart = Chart {
            series: s.to_vec(),
            ..Chart::default()
        };
        let svg = svg_string(&chart, &Layout::REPORT).unwrap();
        // one filled polygon (the band) and the legend's filled sample
        assert!(svg.matches("<polygon").count() >= 1, "{svg}");
    }

    fn chart(points: Vec<(f64, f64)>) -> Chart {
        Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series::new("s", points)],
            ..Chart::default()
        }
    }

    #[test]
    fn layouts_set_the_svg_size() {
        let c = chart(vec![(0.0, 1.0), (1.0, 2.0)]);
        let fig = svg_string(&c, &Layout::FIGURE).unwrap();
        let rep = svg_string(&c, &Layout::REPORT).unwrap();
        assert!(fig.contains("width=\"800\"") && fig.contains("height=\"500\""));
        assert!(rep.contains("width=\"980\"") && rep.contains("height=\"480\""));
    }

    #[test]
    fn a_lone_point_is_marked_and_no_point_is_refused() {
        let one = svg_string(&chart(vec![(2.0, 3.0)]), &Layout::REPORT).unwrap();
        assert!(one.contains("<circle"));
        let stem = std::env::temp_dir().join(format!("shiftdp-plot-{}", std::process::id()));
        let none = chart(vec![(f64::NAN, 1.0), (1.0, f64::INFINITY)]);
        assert!(matches!(render(&none, &stem), Err(Error::Domain { .. })));
        assert!(!stem.with_extension("svg").exists());
    }

    #[test]
    fn no_two_series_share_colour_dash_and_marker() {
        // 3 bounds × 6 t (grouped), 4 ungrouped, 10 beyond the palette, 5 excluded
        let mut series = vec![Series::new("Id", vec![]).with_role(Role::Reference)];
        for t in 0..6 {
            for g in 0..3 {
                series.push(Series::new(format!("{g},{t}"), vec![]).in_group(g));
            }
        }
        for i in 0..4 {
            series.push(Series::new(format!("u{i}"), vec![]));
        }
        for g in 10..20 {
            series.push(Series::new(format!("g{g}"), vec![]).in_group(g));
        }
        for i in 0..5 {
            series.push(Series::new(format!("x{i}"), vec![]).with_role(Role::Excluded));
        }
        series.push(Series::new("best", vec![]).with_role(Role::Envelope));
        let st = styles(&series);
        for i in 0..st.len() {
            for j in 0..i {
                let (a, b) = (&st[i], &st[j]);
                assert!(
                    (a.colour, a.alpha, a.width, a.dash, a.marker)
                        != (b.colour, b.alpha, b.width, b.dash, b.marker),
                    "{} and {} look alike",
                    series[i].name,
                    series[j].name
                );
            }
        }
        // a group keeps its colour; excluded series are grey
        assert_eq!(st[1].colour, st[4].colour);
        assert_ne!(st[1].colour, st[2].colour);
        assert!(
            st.iter()
                .zip(&series)
                .all(|(s, x)| (x.role == Role::Excluded) == (s.colour == GREY))
        );
    }

    #[test]
    fn legend_wrap_keeps_phrases_whole() {
        let m = |s: &str| 10 * s.chars().count() as u32;
        let w = wrap("BSA24 Thm 4.2 [BSA24 f-DP] ★ best at steps t = 40", 300, &m);
        assert_eq!(
            w,
            vec!["BSA24 Thm 4.2 [BSA24 f-DP]", "★ best at steps t = 40"]
        );
        let w = wrap("a b — c", 300, &m);
        assert_eq!(w, vec!["a b — c"]);
        assert!(
            wrap("word ".repeat(20).trim(), 100, &m)
                .iter()
                .all(|l| m(l) <= 100)
        );
    }

    #[test]
    fn label_numbers_have_four_significant_digits() {
        assert_eq!(label_number(0.04, false), "0.04");
        assert_eq!(label_number(1.0 / (2.0 / 3.0), false), "1.5");
        assert_eq!(label_number(2.0 / 3.0, false), "0.6667");
        assert_eq!(label_number(2.0 / 3.0, true), "0.6667");
        assert_eq!(label_number(0.123_41, true), "0.1235");
        assert_eq!(label_number(1e-5, false), "1e-5");
        assert_eq!(label_number(1.234_56e-7, true), "1.235e-7");
        assert_eq!(label_number(60000.0, false), "60000");
        assert_eq!(label_number(250_000.0, false), "2.5e5");
        assert_eq!(label_number(250.0, false), "250");
    }

    #[test]
    fn gaussian_tradeoff_is_smooth_and_below_the_curve() {
        use shiftdp::tradeoff::{Gaussian, Tradeoff};
        for mu in [0.3, 1.0, 3.0] {
            let v = gaussian_tradeoff(mu).unwrap();
            let g = Gaussian::new(mu).unwrap();
            let distinct: std::collections::HashSet<(i64, i64)> = v
                .iter()
                .map(|&(a, b)| ((a * 1e3).round() as i64, (b * 1e3).round() as i64))
                .collect();
            assert!(
                distinct.len() >= 60,
                "μ = {mu}: {} distinct",
                distinct.len()
            );
            // vertices and segment midpoints below G(μ) (convex: the chords of a polygon
            // through its points would lie above it)
            for w in v.windows(2) {
                for (a, b) in [w[0], ((w[0].0 + w[1].0) / 2.0, (w[0].1 + w[1].1) / 2.0)] {
                    if a > 0.0 && a < 1.0 {
                        assert!(b <= g.eval(a) + 1e-12, "μ = {mu}: {b} > G({a})");
                    }
                }
            }
            // and close to it where it bends
            let near = v.iter().find(|p| p.0 >= 0.1).unwrap();
            assert!(near.1 >= g.eval(near.0) - 2e-3);
        }
        assert_eq!(
            gaussian_tradeoff(0.0).unwrap(),
            vec![(0.0, 1.0), (1.0, 0.0)]
        );
        assert!(gaussian_tradeoff(f64::NAN).is_err());
    }

    #[test]
    fn log_y_axis_has_decade_ticks_and_drops_non_positive_points() {
        let pts = vec![(1.0, 0.0), (2.0, 1e-4), (3.0, 1e-2), (4.0, 0.5)];
        let mut c = chart(pts);
        let lin = svg_string(&c, &Layout::FIGURE).unwrap();
        c.log_y = true;
        let log = svg_string(&c, &Layout::FIGURE).unwrap();
        for t in ["1e-4", "0.001", "0.01", "0.1"] {
            assert!(log.contains(&format!("\n{t}\n")), "tick {t} missing");
        }
        assert!(!lin.contains("\n1e-4\n"));
        let ax = Axes::of(&c, &Layout::FIGURE);
        assert!(ax.log_y && ax.y.0 < -4.0 && ax.y.1 > 0.5f64.log10());
        assert!(ax.pixel((0.0, 0.0, 100.0, 100.0), (1.0, 0.0)).is_none());
        assert_eq!(log_ticks(-1.5, 0.0), vec![0.05, 0.1, 0.2, 0.5, 1.0]);
        assert_eq!(log_ticks(-2.0, 0.0), vec![0.01, 0.1, 1.0]);
        assert_eq!(log_ticks(-12.0, 0.0).len(), 7);
        // a chart with nothing positive to draw on a log axis is refused
        let mut none = chart(vec![(1.0, 0.0), (2.0, -1.0)]);
        none.log_y = true;
        let stem = std::env::temp_dir().join(format!("shiftdp-plot-log-{}", std::process::id()));
        assert!(render(&none, &stem).is_err());
    }

    #[test]
    fn figure_legend_sits_inside_where_there_is_no_data() {
        // a hump in the middle: the legend box goes in the upper right corner
        let hump = |i: u32| (std::f64::consts::PI * i as f64 / 49.0).sin();
        let mut c = chart((0..50).map(|i| (i as f64, hump(i))).collect());
        c.series
            .push(Series::new("second", vec![(0.0, 0.0), (49.0, 0.1)]));
        let svg = svg_string(&c, &Layout::FIGURE).unwrap();
        let at = svg.find("opacity=\"0.92\"").expect("a legend box");
        let rect = &svg[svg[..at].rfind("<rect").unwrap()..at];
        let num = |k: &str| -> f64 {
            let i = rect.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
            rect[i..].split('"').next().unwrap().parse().unwrap()
        };
        assert!(num("x") > 400.0 && num("y") < 150.0, "{rect}");
        // filling the plot everywhere sends the legend below it
        let mut full = chart(vec![]);
        for k in 0..8 {
            let y = k as f64 / 7.0;
            full.series.push(Series::new(
                format!("row {k}"),
                vec![(0.0, y), (1.0, 1.0 - y), (0.0, 1.0 - y), (1.0, y)],
            ));
        }
        let svg = svg_string(&full, &Layout::FIGURE).unwrap();
        let at = svg.find("opacity=\"0.92\"").expect("a legend box");
        let rect = &svg[svg[..at].rfind("<rect").unwrap()..at];
        let i = rect.find("y=\"").unwrap() + 3;
        let y: f64 = rect[i..].split('"').next().unwrap().parse().unwrap();
        assert!(y > 380.0, "{rect}");
        assert!(
            Ink::of(
                &full,
                &Axes::of(&full, &Layout::FIGURE),
                (0.0, 0.0, 100.0, 100.0),
                3.0
            )
            .hits((40.0, 40.0, 60.0, 60.0))
        );
        assert!(in_polygon(
            (0.5, 0.5),
            &[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        ));
    }

    #[test]
    fn tick_labels() {
        assert_eq!(tick_label(200.0), "200");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(0.1 + 0.2), "0.3");
        assert_eq!(tick_label(-0.0), "0");
        assert_eq!(tick_label(3.5e-7), "3.5e-7");
        assert_eq!(integer_tick_label(640.0), "640");
        assert_eq!(integer_tick_label(2.5), "");
        assert!(integral_x(&[Series::new(
            "s",
            vec![(1.0, 0.5), (40.0, 1.0)]
        )]));
        assert!(!integral_x(&[Series::new("s", vec![(0.5, 0.5)])]));
        // an integral x axis has integer tick labels only (no "200.0")
        let svg = svg_string(&chart(vec![(1.0, 1.0), (200.0, 2.0)]), &Layout::FIGURE).unwrap();
        assert!(svg.contains("\n200\n") && !svg.contains("200.0"));
    }

    #[test]
    fn lines_are_clipped_and_split_at_reversals() {
        let r = (0.0, 0.0, 100.0, 100.0);
        // a sawtooth with near reversals: no piece turns back
        let saw = vec![(10.0, 90.0), (11.0, 10.0), (12.0, 90.0), (13.0, 10.0)];
        let pieces = stroke_pieces(&saw, &[], r);
        assert_eq!(pieces.len(), 3);
        // a segment far outside is cut at the border
        let far = stroke_pieces(&[(50.0, 50.0), (50.0, 1e9)], &[], r);
        assert_eq!(far, vec![vec![(50, 50), (50, 100)]]);
        assert!(stroke_pieces(&[(200.0, 0.0), (300.0, 50.0)], &[], r).is_empty());
        // dashes: 100 px with 8 on / 4 off → 9 dashes
        let d = stroke_pieces(&[(0.0, 50.0), (100.0, 50.0)], &[8.0, 4.0], r);
        assert_eq!(d.len(), 9);
        assert!(
            d.iter()
                .all(|p| p.iter().all(|&(x, y)| (0..=100).contains(&x) && y == 50))
        );
    }

    #[test]
    fn caption_is_drawn_and_png_is_200_dpi() {
        let mut c = chart(vec![(1.0, 1.0), (2.0, 2.0)]);
        c.caption = Some("n = 60000, b = 1500, σ = 1".into());
        assert!(
            svg_string(&c, &Layout::FIGURE)
                .unwrap()
                .contains("n = 60000, b = 1500, σ = 1")
        );
        let stem = std::env::temp_dir().join(format!("shiftdp-plot-dpi-{}", std::process::id()));
        let files = render(&c, &stem).unwrap();
        let png = std::fs::read(&files[1]).unwrap();
        let at = |i: usize| u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]);
        assert_eq!((at(16), at(20)), (1600, 1000)); // IHDR width, height
        let p = png.windows(4).position(|w| w == b"pHYs").unwrap();
        assert_eq!((at(p + 4), at(p + 8), png[p + 12]), (7874, 7874, 1));
        for f in files {
            let _ = std::fs::remove_file(f);
        }
    }
}
