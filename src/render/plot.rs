//! SVG charts of a variant comparison, drawn with plotters: win rates with 95% interval
//! whiskers, and game-length distributions as box plots.

use plotters::prelude::*;

use isolo_engine::research::compare::{Proportion, VariantStats};

const WIDTH: u32 = 1100;
/// Top of the win-rate axis: room for the legend above 100%.
const LEGEND_TOP: f64 = 1.15;
const HEIGHT: u32 = 480;
/// Bar colours for South, North and draws.
const SERIES: [(&str, RGBColor); 3] = [
    ("South wins", RGBColor(46, 110, 180)),
    ("North wins", RGBColor(200, 80, 40)),
    ("draws", RGBColor(120, 120, 120)),
];

/// Writes the chart, whole or not at all; the error says what failed.
pub(crate) fn write_svg(path: &str, stats: &[VariantStats]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot draw {path}: {e}");
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let (left, right) = root.split_horizontally(WIDTH / 2);
        win_rates(&left, stats).map_err(|e| fail(&e))?;
        lengths(&right, stats).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    isolo_rules::write_bytes_whole(path.as_ref(), svg.as_bytes()).map_err(|e| fail(&e))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn win_rates(area: &Area, stats: &[VariantStats]) -> Result<(), Box<dyn std::error::Error>> {
    let n = stats.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption("Win rates (95% Wilson intervals)", ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(45)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..LEGEND_TOP)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(stats.len())
        .x_label_formatter(&|x| label_at(stats, *x))
        .y_desc("share of games")
        .draw()?;
    for (v, s) in stats.iter().enumerate() {
        let rates: [&Proportion; 3] = [&s.south_wins, &s.north_wins, &s.draws];
        for (k, (p, (_, colour))) in rates.iter().zip(SERIES).enumerate() {
            let x0 = v as f64 - 0.35 + 0.24 * k as f64;
            let x1 = x0 + 0.2;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x1, p.rate)],
                colour.filled(),
            )))?;
            let mid = (x0 + x1) / 2.0;
            let whisker = vec![(mid, p.ci95[0]), (mid, p.ci95[1])];
            chart.draw_series(std::iter::once(PathElement::new(
                whisker,
                BLACK.stroke_width(2),
            )))?;
        }
    }
    // The legend sits in a band above the bars.
    for (k, (name, colour)) in SERIES.iter().enumerate() {
        let x = -0.45 + 0.8 * k as f64 * (n / 3.0).max(1.0);
        let y = 1.07;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x, y), (x + 0.06 * n.max(1.0), y + 0.04)],
            colour.filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            name.to_string(),
            (x + 0.08 * n.max(1.0), y + 0.045),
            ("sans-serif", 13),
        )))?;
    }
    Ok(())
}

/// The variant centred at `x` (variants sit at whole numbers).
fn label_at(stats: &[VariantStats], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 0.01 && i >= 0.0 {
        stats
            .get(i as usize)
            .map(|s| short(&s.variant))
            .unwrap_or_default()
    } else {
        String::new()
    }
}

fn short(name: &str) -> String {
    let base = std::path::Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.into());
    base.chars().take(18).collect()
}

fn lengths(area: &Area, stats: &[VariantStats]) -> Result<(), Box<dyn std::error::Error>> {
    let n = stats.len() as f64;
    let top = stats.iter().map(|s| s.plies.max).fold(1.0, f64::max) * 1.05;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Game length in plies (box: quartiles, whiskers: range)",
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(stats.len())
        .x_label_formatter(&|x| label_at(stats, *x))
        .y_desc("plies")
        .draw()?;
    let colour = RGBColor(46, 110, 180);
    for (v, s) in stats.iter().enumerate() {
        let (x0, x1, mid) = (v as f64 - 0.2, v as f64 + 0.2, v as f64);
        let p = &s.plies;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x0, p.p25), (x1, p.p75)],
            colour.mix(0.3).filled(),
        )))?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x0, p.p25), (x1, p.p75)],
            colour.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x0, p.median), (x1, p.median)],
            BLACK.stroke_width(3),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(mid, p.min), (mid, p.p25)],
            BLACK.stroke_width(1),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(mid, p.p75), (mid, p.max)],
            BLACK.stroke_width(1),
        )))?;
        // Each length some game had, as a dot beside the box.
        chart.draw_series(
            s.length_counts
                .keys()
                .map(|&l| Circle::new((x1 + 0.08, l as f64), 2, colour.mix(0.5).filled())),
        )?;
    }
    Ok(())
}
