//! `isolo-ai moves`: every legal move with the position it leads to, or one move per
//! distinct position as the searchers list them.

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, side_letter, CliResult, PositionArgs};
use crate::search::searched_moves;

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// One move per distinct resulting position, as the searchers list them (take/pass
    /// sequences can run to millions)
    #[arg(long)]
    pub distinct: bool,
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MovesArgs) -> CliResult {
    let (variant, board) = args.position.load()?;
    let (moves, cut) = if args.distinct {
        searched_moves(&variant, &board)
    } else {
        (variant.legal_moves(&board), false)
    };
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
        let mut out = json!({
            "position": variant.format_position(&board),
            "to_move": side_letter(board.to_move()),
            "moves": list,
            "result": winner.map(side_letter),
        });
        if args.distinct {
            out["complete"] = json!(!cut);
        }
        return emit_json(&out);
    }
    let what = if args.distinct {
        "distinct result(s)"
    } else {
        "legal move(s)"
    };
    let mut out = format!(
        "{} {what} for {} in {}\n",
        moves.len(),
        board.to_move(),
        variant.format_position(&board)
    );
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
