//! `isolo-ai show`: the board drawn for a terminal.

use clap::Args;

use super::{emit, CliError, CliResult, PositionArgs};
use crate::render::svg::{board_svg, SvgOptions};
use isolo_rules::{describe, in_words};
use isolo_rules::{format_overture, pit_at};
use isolo_rules::{Board, Outcome, Side, Variant};

#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first, separated by spaces or commas
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Also write the board as SVG to FILE (the web page's drawing), for papers and slides
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// In the SVG, North at the bottom
    #[arg(long)]
    pub flip: bool,
}

pub(crate) fn run(args: &ShowArgs) -> CliResult {
    let variant = Variant::load(&args.position.variant)?;
    let game = args.position.game(&variant, args.moves.as_deref())?;
    let (board, outcome) = (*game.board(), game.outcome());
    if let Some(path) = &args.svg {
        let options = SvgOptions {
            flipped: args.flip,
            ..SvgOptions::default()
        };
        isolo_rules::write_bytes_whole(
            path.as_ref(),
            board_svg(&variant, &board, &options).as_bytes(),
        )
        .map_err(|e| CliError(format!("--svg: cannot write {path}: {e}")))?;
    } else if args.flip {
        return Err(CliError("--flip draws the SVG: it needs --svg FILE".into()));
    }
    emit(&draw(&variant, &board, outcome.as_ref()))
}

const LABEL_WIDTH: usize = 12;

/// Where the board's row `row` and column `c` are drawn for a player sitting at
/// `bottom`'s side: as they are for South, turned half a turn for North.
fn seen_from(bottom: Side, row: usize, c: usize, columns: usize) -> (usize, usize) {
    match bottom {
        Side::South => (row, c),
        Side::North => (3 - row, columns - 1 - c),
    }
}

/// One row of pit numbers (`side`'s own numbering) for drawn row `row`.
fn number_row(row: usize, columns: usize, side: Side, bottom: Side) -> String {
    let cells: Vec<String> = (0..columns)
        .map(|c| {
            let (r, c) = seen_from(bottom, row, c, columns);
            format!(" {:>3} ", pit_at(r, c, columns).1 + 1)
        })
        .collect();
    format!(
        "{:LABEL_WIDTH$}{}  {side}'s numbering\n",
        "",
        cells.join(" ")
    )
}

/// One row of seeds (drawn row `row`), with its label.
fn seed_row(board: &Board, row: usize, columns: usize, label: &str, bottom: Side) -> String {
    let cells: Vec<String> = (0..columns)
        .map(|c| {
            let (r, c) = seen_from(bottom, row, c, columns);
            let (side, lane) = pit_at(r, c, columns);
            format!("[{:>3}]", board.seeds(side, lane + 1))
        })
        .collect();
    format!("{label:<LABEL_WIDTH$}{}\n", cells.join(" "))
}

/// The four rows of pits with both players' pit numbers, alone (as a move stands half
/// sown), for a player sitting at `bottom`'s side: that side's rows drawn nearest (at
/// the bottom), the board turned half a turn for North.
pub(crate) fn draw_pits_for(variant: &Variant, board: &Board, bottom: Side) -> String {
    let w = variant.columns() as usize;
    let top = bottom.opponent();
    let mut out = number_row(0, w, top, bottom);
    out.push_str(&seed_row(board, 0, w, &format!("{top} back"), bottom));
    out.push_str(&seed_row(board, 1, w, "      front", bottom));
    out.push_str(&number_row(1, w, top, bottom));
    out.push_str(&format!("{:LABEL_WIDTH$}{}\n", "", "-".repeat(6 * w - 1)));
    out.push_str(&number_row(2, w, bottom, bottom));
    out.push_str(&seed_row(board, 2, w, &format!("{bottom} front"), bottom));
    out.push_str(&seed_row(board, 3, w, "      back", bottom));
    out.push_str(&number_row(3, w, bottom, bottom));
    out
}

/// The board with both players' pit numbers, seed totals, side to move, overture state
/// and the result when the game is over.
pub(crate) fn draw(variant: &Variant, board: &Board, outcome: Option<&Outcome>) -> String {
    draw_for(variant, board, outcome, Side::South)
}

/// `draw` for a player sitting at `bottom`'s side (see `draw_pits_for`).
pub(crate) fn draw_for(
    variant: &Variant,
    board: &Board,
    outcome: Option<&Outcome>,
    bottom: Side,
) -> String {
    let w = variant.columns() as usize;
    let rules = variant.rules();
    let mut out = String::new();
    out.push_str(&format!("Variant {}\n", variant.name()));
    out.push_str(&draw_pits_for(variant, board, bottom));
    for side in [Side::North, Side::South] {
        let overture = if !rules.overture() {
            String::new()
        } else if board.in_overture(side) {
            format!(", in overture (ng'hana is pit {w})")
        } else {
            ", overture over".to_string()
        };
        out.push_str(&format!(
            "{side}: {}{overture}\n",
            super::plural(board.side_total(side) as u64, "seed", "seeds")
        ));
    }
    out.push_str(&format!("To move: {}\n", board.to_move()));
    if rules.overture() {
        out.push_str(&format!(
            "Overture: {}\n",
            format_overture(board.overture_flags())
        ));
    }
    out.push_str(&format!("Position: {}\n", variant.format_position(board)));
    match outcome {
        Some(outcome) => out.push_str(&format!(
            "Result: {} ({})\n",
            in_words(outcome, variant, board),
            describe(outcome)
        )),
        None => out.push_str("Result: game in progress\n"),
    }
    out
}
