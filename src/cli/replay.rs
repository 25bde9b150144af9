//! `isolo-ai replay`: checks every move of a records file and shows a game move by move.

use clap::Args;

use super::{emit, CliError, CliResult};
use crate::game::{Record, DRAW_REPETITIONS};
use crate::rules::{Side, Variant};
use crate::runner::read_records;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A records file written by match or tournament (--out)
    pub file: String,
    /// Show this game (its "game" number) move by move
    #[arg(long)]
    pub game: Option<u64>,
}

/// Replays a record; the error names the game and the move.
fn check(record: &Record, show: bool) -> Result<String, String> {
    let name = format!("game {}", record.game);
    let variant = Variant::load(&record.variant).map_err(|e| format!("{name}: {e}"))?;
    let mut board = variant
        .parse_position(&record.opening)
        .map_err(|e| format!("{name}: opening: {e}"))?;
    let mut seen = vec![board.hash()];
    let mut out = String::new();
    if show {
        out.push_str(&format!(
            "Game {}: {} (South) vs {} (North), {}\n",
            record.game, record.south, record.north, record.variant
        ));
        out.push_str(&super::show::draw(&variant, &board));
    }
    for (i, mv) in record.moves.iter().enumerate() {
        let mover = board.to_move();
        let played = variant
            .play_text(&board, mv)
            .map_err(|e| format!("{name}, move {} ({mover}): {e}", i + 1))?;
        board = played.child;
        seen.push(board.hash());
        if show {
            out.push_str(&format!(
                "\n{}. {mover} plays {mv} ({} laps, {} captured)\n",
                i + 1,
                played.laps,
                played.captured
            ));
            out.push_str(&super::show::draw(&variant, &board));
        }
    }
    if record.plies != record.moves.len() {
        return Err(format!(
            "{name}: says {} plies but lists {} moves",
            record.plies,
            record.moves.len()
        ));
    }
    let repeated = seen.iter().filter(|&&h| h == board.hash()).count();
    let consistent = match record.reason.as_str() {
        "no-moves" => {
            variant.winner(&board).map(|w| w.letter().to_string()) == Some(record.result.clone())
        }
        "repetition" => repeated >= DRAW_REPETITIONS && record.result == "draw",
        "ply-limit" => record.result == "draw" && variant.winner(&board).is_none(),
        other => return Err(format!("{name}: unknown end reason '{other}'")),
    };
    if !consistent {
        return Err(format!(
            "{name}: the final position does not give '{}' by '{}'",
            record.result, record.reason
        ));
    }
    let result = match record.result.as_str() {
        "S" => format!("{} wins", Side::South),
        "N" => format!("{} wins", Side::North),
        _ => "draw".into(),
    };
    out.push_str(&format!(
        "game {}: ok, {} plies, {result} ({})\n",
        record.game, record.plies, record.reason
    ));
    Ok(out)
}

pub fn run(args: &ReplayArgs) -> CliResult {
    if !std::path::Path::new(&args.file).exists() {
        return Err(CliError(format!("{}: no such file", args.file)));
    }
    let records = read_records(&args.file).map_err(CliError)?;
    if records.is_empty() {
        return Err(CliError(format!("{}: no game records", args.file)));
    }
    match args.game {
        Some(k) => {
            let record = records.iter().find(|r| r.game == k).ok_or_else(|| {
                CliError(format!(
                    "--game: no game {k} in {} (games {}..={})",
                    args.file,
                    records[0].game,
                    records[records.len() - 1].game
                ))
            })?;
            emit(&check(record, true).map_err(CliError)?)
        }
        None => {
            let mut out = String::new();
            for record in &records {
                out.push_str(&check(record, false).map_err(CliError)?);
            }
            out.push_str(&format!(
                "{} games checked: every move legal, every result consistent\n",
                records.len()
            ));
            emit(&out)
        }
    }
}
