//! `isolo-ai apply`: plays a list of moves and prints the position reached.

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, side_letter, CliResult, PositionArgs};
use isolo_rules::Variant;

#[derive(Args, Debug)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play, separated by spaces or commas
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: String,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &ApplyArgs) -> CliResult {
    let variant = Variant::load(&args.position.variant)?;
    let board = *args.position.game(&variant, Some(&args.moves))?.board();
    let text = variant.format_position(&board);
    if args.json {
        return emit_json(&json!({
            "position": text,
            "to_move": side_letter(board.to_move()),
            "result": variant.winner(&board).map(side_letter),
        }));
    }
    emit(&format!("{text}\n"))
}
