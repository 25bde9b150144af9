//! `isolo-ai replay`: checks a records file (its header, that its games are the run's
//! first games each once, every move, every result) and shows a game move by move.

use std::path::Path;

use clap::Args;

use super::{emit, CliError, CliResult};
use isolo_engine::matches::records::{self, Record, RecordsFile};
use isolo_rules::{game::describe, Game, Outcome, Side};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A records file written by match or tournament (--out)
    pub file: String,
    /// Show this game (its "game" number) move by move
    #[arg(long, value_parser = super::ranges::GAME_NUMBER)]
    pub game: Option<u64>,
}

/// Replays a record (the engine's check: [`RecordsFile::replay`]) and says how it
/// ended; with `show`, move by move with the board after each.
fn check(file: &RecordsFile, record: &Record, show: bool) -> Result<String, String> {
    let game = file.replay(record).map_err(|e| e.to_string())?;
    let mut out = if show {
        shown(file, record)
    } else {
        String::new()
    };
    let plies = super::plural(record.moves.len() as u64, "ply", "plies");
    let ending = match (record.reason.by_rules(), record.winner()) {
        (Some(reason), winner) => describe(&Outcome { winner, reason }),
        (None, winner) => {
            // (The side to move, or under the retreat the side answering inside its move.)
            let loser = winner.map_or(game.board().to_move(), Side::opponent);
            let detail = record
                .detail
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            format!(
                "{} wins: {loser} forfeited ({}{detail})",
                loser.opponent(),
                record.reason
            )
        }
    };
    out.push_str(&format!("game {}: ok, {plies}, {ending}\n", record.game));
    Ok(out)
}

/// A game that replays, move by move with the board after each.
fn shown(file: &RecordsFile, record: &Record) -> String {
    let variant = &file.variant;
    let mut game = Game::new(variant, record.opening).with_max_plies(file.header.max_plies);
    let mut out = format!(
        "Game {}: {} (South) vs {} (North), {}\n",
        record.game, record.south, record.north, file.header.variant
    );
    out.push_str(&super::show::draw(
        variant,
        game.board(),
        game.outcome().as_ref(),
    ));
    for (i, mv) in record.moves.iter().enumerate() {
        let mover = game.board().to_move();
        let played = game.play_move(mv).expect("the record replays");
        out.push_str(&format!(
            "\n{}. {mover} plays {mv} ({} laps, {} captured)\n",
            i + 1,
            played.laps,
            played.captured
        ));
        out.push_str(&super::show::draw(
            variant,
            game.board(),
            game.outcome().as_ref(),
        ));
    }
    out
}

pub fn run(args: &ReplayArgs) -> CliResult {
    let path = Path::new(&args.file);
    if !path.exists() {
        return Err(CliError(format!("{}: no such file", args.file)));
    }
    let file = records::read_records(path)
        .map_err(|e| CliError(e.to_string()))?
        .ok_or_else(|| CliError(format!("{}: no records header", args.file)))?;
    // The engine's checks, as review and serve make them (RecordsFile::check): the
    // sequence here, each game replayed once below.
    let schedule = file
        .check_sequence()
        .map_err(|e| CliError(format!("{}: {e}", args.file)))?;
    let cut = file
        .cut_line
        .map(|n| format!("line {n} was cut short (an interrupted run) and is ignored\n"))
        .unwrap_or_default();
    if file.records.is_empty() {
        return Err(CliError(format!("{}: no game records", args.file)));
    }
    match args.game {
        Some(k) => {
            let record = file.records.iter().find(|r| r.game == k).ok_or_else(|| {
                CliError(format!(
                    "--game: no game {k} in {} (games 0..={})",
                    args.file,
                    file.records.len() - 1
                ))
            })?;
            emit(&check(&file, record, true).map_err(CliError)?)
        }
        None => {
            let mut out = cut;
            for record in &file.records {
                out.push_str(&check(&file, record, false).map_err(CliError)?);
            }
            out.push_str(&format!(
                "{} of {} games checked: every move legal, every result consistent (run {})\n",
                file.records.len(),
                schedule.len(),
                file.header.fingerprint
            ));
            emit(&out)
        }
    }
}
