//! The board drawn as SVG, as the players see it: four rows of pits with their seeds
//! (dots for small counts, always the number), each pit's number in its owner's
//! numbering, the ng'hana of a side in overture, seeds per side and the side to move.
//! `show --svg` writes it and the web page shows it (its script redraws the seeds of
//! the same elements while a move is animated).

use isolo_rules::pit_at;
use isolo_rules::{Board, Side, Variant};

/// Width of one pit's cell, in SVG units.
pub(crate) const CELL: f64 = 64.0;
/// Height of one pit's cell: the pit with its number above it and its count below.
pub(crate) const ROW: f64 = 92.0;
/// Radius of a pit.
pub(crate) const PIT_RADIUS: f64 = 26.0;
/// Counts up to this are also drawn as dots.
pub(crate) const MOST_DOTS: u32 = 12;
/// Spacing of the dots' spiral.
pub(crate) const DOT_SPACING: f64 = 5.5;
/// The golden angle, in radians: the dots' spiral turns by it from one dot to the next.
pub(crate) const GOLDEN_ANGLE: f64 = 2.399_963;
const MARGIN: f64 = 20.0;
const HEADER: f64 = 40.0;
const DIVIDER: f64 = 14.0;
/// Where a pit's number and its count (below the dots) stand, from the pit's centre.
const NUMBER_BASELINE: f64 = -30.0;
const COUNT_BASELINE: f64 = PIT_RADIUS + 18.0;

const STYLE: &str = "\
.board{fill:#c8955a;stroke:#7a5230;stroke-width:2}\
.hole{fill:#8a5a2b;stroke:#5c3a1a;stroke-width:1.5}\
.pit.nghana .hole{stroke:#f5e6a8;stroke-width:3}\
.pit.lit .hole{fill:#b5783c}\
.pit.clockwise .hole{stroke:#2f5d8a;stroke-width:3;stroke-dasharray:6 4}\
.pit.lap-end .hole{stroke:#a01010;stroke-width:3}\
.pit.to-move{cursor:pointer}\
.seed{fill:#f3ead8;stroke:#6b4a2a;stroke-width:.6}\
.cell{fill:transparent}\
.count{font:bold 22px sans-serif;fill:#fff8e8;text-anchor:middle}\
.count.small{font:bold 20px sans-serif;fill:#3b2410}\
.num{font:20px sans-serif;fill:#4a2f14;text-anchor:start}\
.info{font:20px sans-serif;fill:#222}\
.info.mover{font-weight:bold}\
.divider{stroke:#7a5230;stroke-width:2}";

/// How to draw.
#[derive(Clone, Debug, Default)]
pub(crate) struct SvgOptions {
    /// North at the bottom instead of South.
    pub flipped: bool,
    /// Pits to highlight (class `lit`), as (owner, pit number).
    pub lit: Vec<(Side, u8)>,
}

/// Where the dot `index` of a pit's dots sits, relative to the pit's centre.
pub(crate) fn dot_offset(index: u32) -> (f64, f64) {
    let r = DOT_SPACING * (index as f64 + 0.5).sqrt();
    let angle = index as f64 * GOLDEN_ANGLE;
    (r * angle.cos(), r * angle.sin())
}

/// The board as a standalone SVG document.
pub(crate) fn board_svg(variant: &Variant, board: &Board, options: &SvgOptions) -> String {
    let w = variant.columns() as usize;
    let width = 2.0 * MARGIN + w as f64 * CELL;
    let height = 2.0 * HEADER + 4.0 * ROW + DIVIDER;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"isolo-board\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" data-columns=\"{w}\" data-flipped=\"{}\">\n<style>{STYLE}</style>\n",
        options.flipped
    );
    out.push_str(&format!(
        "<rect class=\"board\" x=\"{}\" y=\"{HEADER}\" width=\"{}\" height=\"{}\" rx=\"12\"/>\n",
        MARGIN / 2.0,
        width - MARGIN,
        4.0 * ROW + DIVIDER
    ));
    let divider_y = HEADER + 2.0 * ROW + DIVIDER / 2.0;
    out.push_str(&format!(
        "<line class=\"divider\" x1=\"{}\" y1=\"{divider_y}\" x2=\"{}\" y2=\"{divider_y}\"/>\n",
        MARGIN / 2.0,
        width - MARGIN / 2.0
    ));
    for row in 0..4 {
        for col in 0..w {
            out.push_str(&pit_svg(variant, board, options, row, col));
        }
    }
    let (top, bottom) = if options.flipped {
        (Side::South, Side::North)
    } else {
        (Side::North, Side::South)
    };
    out.push_str(&side_info(variant, board, top, HEADER - 12.0));
    out.push_str(&side_info(variant, board, bottom, height - 12.0));
    out.push_str("</svg>\n");
    out
}

/// The centre of the pit at board row `row` (0 = North's back row) and column `col` (0 =
/// South's left), as drawn.
fn pit_centre(w: usize, row: usize, col: usize, flipped: bool) -> (f64, f64) {
    let (row, col) = if flipped {
        (3 - row, w - 1 - col)
    } else {
        (row, col)
    };
    let gap = if row >= 2 { DIVIDER } else { 0.0 };
    let x = MARGIN + (col as f64 + 0.5) * CELL;
    let y = HEADER + (row as f64 + 0.5) * ROW + gap;
    (x, y)
}

fn pit_svg(
    variant: &Variant,
    board: &Board,
    options: &SvgOptions,
    row: usize,
    col: usize,
) -> String {
    let w = variant.columns() as usize;
    let (side, lane) = pit_at(row, col, w);
    let pit = lane + 1;
    let seeds = board.seeds(side, pit) as u32;
    let (x, y) = pit_centre(w, row, col, options.flipped);
    let mut classes = vec!["pit"];
    if variant.rules().overture() && board.in_overture(side) && pit == w {
        classes.push("nghana");
    }
    // A pit whose laps may turn clockwise (RULES.md 3.7) is ringed, and says so.
    let clockwise = variant.rules().clockwise_from().contains(&(pit as u8));
    if clockwise {
        classes.push("clockwise");
    }
    if options.lit.contains(&(side, pit as u8)) {
        classes.push("lit");
    }
    if side == board.to_move() {
        classes.push("to-move");
    }
    let mut out = format!(
        "<g class=\"{}\" data-side=\"{}\" data-pit=\"{pit}\" data-seeds=\"{seeds}\" transform=\"translate({x} {y})\">",
        classes.join(" "),
        side.letter()
    );
    // The whole cell answers a tap, not only the hole.
    out.push_str(&format!(
        "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{ROW}\"/>",
        -CELL / 2.0,
        -ROW / 2.0
    ));
    out.push_str(&format!("<circle class=\"hole\" r=\"{PIT_RADIUS}\"/>"));
    if clockwise {
        out.push_str("<title>a clockwise pit: laps may turn clockwise here</title>");
    }
    out.push_str(&format!(
        "<text class=\"num\" x=\"{}\" y=\"{NUMBER_BASELINE}\">{pit}</text>",
        -CELL / 2.0 + 3.0
    ));
    out.push_str(&seeds_svg(seeds));
    out.push_str("</g>\n");
    out
}

/// A pit's seeds: dots for small counts and the count (below the pit, dark on the
/// board, when there are dots; large and light in the hole otherwise).
pub(crate) fn seeds_svg(seeds: u32) -> String {
    format!("<g class=\"seeds\">{}</g>", seeds_markup(seeds))
}

/// The inside of a pit's `seeds` group (what the page draws while it animates a move:
/// `/api/variants` sends it for every count up to [`MOST_DOTS`] + 1).
pub(crate) fn seeds_markup(seeds: u32) -> String {
    let mut out = String::new();
    if seeds <= MOST_DOTS {
        for i in 0..seeds {
            let (dx, dy) = dot_offset(i);
            out.push_str(&format!(
                "<circle class=\"seed\" cx=\"{dx:.1}\" cy=\"{dy:.1}\" r=\"3.4\"/>"
            ));
        }
        out.push_str(&format!(
            "<text class=\"count small\" y=\"{COUNT_BASELINE}\">{seeds}</text>"
        ));
    } else {
        out.push_str(&MANY_SEEDS.replace("{n}", &seeds.to_string()));
    }
    out
}

/// The seeds of a pit holding more than [`MOST_DOTS`]: their count, `{n}`.
pub(crate) const MANY_SEEDS: &str = "<text class=\"count\" y=\"8\">{n}</text>";

fn side_info(variant: &Variant, board: &Board, side: Side, y: f64) -> String {
    let mut text = format!(
        "{side}: {}",
        crate::cli::plural(board.side_total(side).into(), "seed", "seeds")
    );
    if variant.rules().overture() {
        text.push_str(if board.in_overture(side) {
            ", in overture"
        } else {
            ", overture over"
        });
    }
    let over = variant.winner(board);
    let class = match over {
        Some(winner) if winner == side => {
            text.push_str(" \u{2014} wins");
            "info mover"
        }
        Some(_) => "info",
        None if board.to_move() == side => {
            text.push_str(" \u{2014} to move");
            "info mover"
        }
        None => "info",
    };
    format!(
        "<text class=\"{class}\" data-side=\"{}\" x=\"{MARGIN}\" y=\"{y}\">{}</text>\n",
        side.letter(),
        escape(&text)
    )
}

/// Text made safe for SVG/XML.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
