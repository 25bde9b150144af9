//! `isolo-ai moves`: every legal move with the position it leads to, or one move per
//! distinct position as the searchers list them.
//!
//! Every legal move is streamed out as it is generated: with optional captures one
//! position can have millions of take/pass sequences, more than memory should hold.

use isolo_rules::Listing;
use std::io::{self, BufWriter, StdoutLock, Write};

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, side_letter, CliResult, PositionArgs};
use isolo_engine::search::searched_moves;
use isolo_rules::{Board, LegalMove, MoveGen, Variant};

#[derive(Args, Debug)]
pub(crate) struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first: the moves listed are those of the position they reach
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// One move per distinct resulting position, as the searchers list them (take/pass
    /// sequences can run to millions)
    #[arg(long)]
    pub distinct: bool,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &MovesArgs) -> CliResult {
    let variant = Variant::load(&args.position.variant)?;
    let board = *args.position.game(&variant, args.moves.as_deref())?.board();
    if args.distinct {
        let (moves, cut) = searched_moves(&variant, &board);
        return print_distinct(&variant, &board, &moves, cut, args.json);
    }
    let mut out = Stream::new();
    if args.json {
        stream_json(&variant, &board, &mut out);
    } else {
        stream_text(&variant, &board, &mut out);
    }
    out.finish()
}

/// Standard output, buffered; after a write fails nothing more is written.
struct Stream {
    out: BufWriter<StdoutLock<'static>>,
    failed: Option<io::Error>,
}

impl Stream {
    fn new() -> Stream {
        Stream {
            out: BufWriter::new(io::stdout().lock()),
            failed: None,
        }
    }

    /// Writes `text`; false once writing has failed (a closed pipe, say).
    fn write(&mut self, text: &str) -> bool {
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(text.as_bytes()) {
                self.failed = Some(e);
            }
        }
        self.failed.is_none()
    }

    fn finish(mut self) -> CliResult {
        let result = match self.failed.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        };
        super::written(result)
    }
}

fn text_header(count: u64, variant: &Variant, board: &Board) -> String {
    format!(
        "{} for {} in {}\n",
        super::plural(count, "distinct result", "distinct results"),
        board.to_move(),
        variant.format_position(board)
    )
}

fn text_row(mv: &str, laps: u32, captured: u32, child: &str, width: usize) -> String {
    format!("{mv:<width$}  {laps:>5}  {captured:>8}  {child}\n")
}

fn column_titles(width: usize) -> String {
    format!(
        "{:<width$}  {:>5}  {:>8}  position\n",
        "move", "laps", "captured"
    )
}

/// Every legal move as a table, written as it is generated (take/pass sequences can run
/// to millions), with the count at the end.
fn stream_text(variant: &Variant, board: &Board, out: &mut Stream) {
    let head = format!(
        "Legal moves for {} in {}\n",
        board.to_move(),
        variant.format_position(board)
    );
    if !out.write(&head) {
        return;
    }
    if !variant.has_legal_move(board, &mut MoveGen::new()) {
        out.write(&format!("Game over: {} wins\n", board.to_move().opponent()));
        return;
    }
    let mut width = MOVE_COLUMN;
    if !out.write(&column_titles(width)) {
        return;
    }
    let mut count = 0u64;
    variant.visit_moves(
        board,
        Variant::ALL_PITS,
        Listing::Sequences,
        &mut MoveGen::new(),
        |m| {
            count += 1;
            let mv = m.mv().to_string();
            // Long take/pass sequences widen the column from their row on.
            width = width.max(mv.len());
            let child = variant.format_position(&m.child);
            out.write(&text_row(&mv, m.laps, m.captured, &child, width))
        },
    );
    out.write(&format!(
        "{}\n",
        super::plural(count, "legal move", "legal moves")
    ));
}

/// The move column's least width.
const MOVE_COLUMN: usize = 4;

/// Every legal move as one JSON object, written move by move.
fn stream_json(variant: &Variant, board: &Board, out: &mut Stream) {
    let quoted = |text: &str| serde_json::to_string(text).expect("strings serialise");
    let head = format!(
        "{{\n  \"position\": {},\n  \"to_move\": {},\n  \"moves\": [",
        quoted(&variant.format_position(board)),
        quoted(&side_letter(board.to_move()))
    );
    if !out.write(&head) {
        return;
    }
    let mut count = 0u64;
    variant.visit_moves(
        board,
        Variant::ALL_PITS,
        Listing::Sequences,
        &mut MoveGen::new(),
        |m| {
            let entry = json!({
                "move": m.mv().to_string(),
                "position": variant.format_position(&m.child),
                "laps": m.laps,
                "captured": m.captured,
            });
            let separator = if count == 0 { "\n    " } else { ",\n    " };
            count += 1;
            out.write(&format!("{separator}{entry}"))
        },
    );
    let result = if count == 0 {
        quoted(&side_letter(board.to_move().opponent()))
    } else {
        "null".to_string()
    };
    let close = if count == 0 { "" } else { "\n  " };
    out.write(&format!("{close}],\n  \"result\": {result}\n}}\n"));
}

/// The searchers' list: one move per distinct position, and whether it was cut.
fn print_distinct(
    variant: &Variant,
    board: &Board,
    moves: &[LegalMove],
    cut: bool,
    as_json: bool,
) -> CliResult {
    let winner = moves.is_empty().then(|| board.to_move().opponent());
    if as_json {
        let list: Vec<_> = moves
            .iter()
            .map(|m| {
                json!({
                    "move": m.mv.to_string(),
                    "position": variant.format_position(&m.child),
                    "laps": m.laps,
                    "captured": m.captured,
                })
            })
            .collect();
        return emit_json(&json!({
            "position": variant.format_position(board),
            "to_move": side_letter(board.to_move()),
            "moves": list,
            "result": winner.map(side_letter),
            "complete": !cut,
        }));
    }
    let count = moves.len() as u64;
    let mut out = text_header(count, variant, board);
    if cut {
        out.push_str("(the list stops at the searchers' limit: more positions are reachable)\n");
    }
    if let Some(winner) = winner {
        out.push_str(&format!("Game over: {winner} wins\n"));
        return emit(&out);
    }
    let width = moves
        .iter()
        .map(|m| m.mv.to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    out.push_str(&column_titles(width));
    for m in moves {
        let child = variant.format_position(&m.child);
        out.push_str(&text_row(
            &m.mv.to_string(),
            m.laps,
            m.captured,
            &child,
            width,
        ));
    }
    emit(&out)
}
