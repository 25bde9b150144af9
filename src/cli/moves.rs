//! `isolo-ai moves`: every legal move with the position it leads to.

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, side_letter, CliResult, PositionArgs};

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MovesArgs) -> CliResult {
    let (variant, board) = args.position.load()?;
    let moves = variant.legal_moves(&board);
    let winner = moves.is_empty().then(|| board.to_move().opponent());
    if args.json {
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
            "position": variant.format_position(&board),
            "to_move": side_letter(board.to_move()),
            "moves": list,
            "result": winner.map(side_letter),
        }));
    }
    let mut out = format!(
        "{} legal move(s) for {} in {}\n",
        moves.len(),
        board.to_move(),
        variant.format_position(&board)
    );
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
    out.push_str(&format!(
        "{:<width$}  {:>5}  {:>8}  position\n",
        "move", "laps", "captured"
    ));
    for m in &moves {
        out.push_str(&format!(
            "{:<width$}  {:>5}  {:>8}  {}\n",
            m.mv.to_string(),
            m.laps,
            m.captured,
            variant.format_position(&m.child)
        ));
    }
    emit(&out)
}
