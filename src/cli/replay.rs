//! `isolo-ai replay`: checks a records file (its header, that its games are the run's
//! first games each once, every move, every result) and shows a game move by move.

use std::path::Path;

use clap::Args;

use super::{emit, CliError, CliResult};
use isolo_engine::matches::records::{self, Record, RecordsFile};
use isolo_rules::{game::describe, Game, Outcome};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A records file written by match or tournament (--out)
    pub file: String,
    /// Show this game (its "game" number) move by move
    #[arg(long, value_parser = super::ranges::GAME_NUMBER)]
    pub game: Option<u64>,
}

/// Replays a record under the file's rules and ply cap; the error names the game and
/// the move.
fn check(file: &RecordsFile, record: &Record, show: bool) -> Result<String, String> {
    let name = format!("game {}", record.game);
    let variant = &file.variant;
    let mut game = Game::new(variant, record.opening).with_max_plies(file.header.max_plies);
    let mut out = String::new();
    if show {
        out.push_str(&format!(
            "Game {}: {} (South) vs {} (North), {}\n",
            record.game, record.south, record.north, file.header.variant
        ));
        out.push_str(&super::show::draw(variant, game.board()));
    }
    for (i, mv) in record.moves.iter().enumerate() {
        let mover = game.board().to_move();
        let played = game
            .play_move(mv)
            .map_err(|e| format!("{name}, move {} ({mover}): {e}", i + 1))?;
        if show {
            out.push_str(&format!(
                "\n{}. {mover} plays {mv} ({} laps, {} captured)\n",
                i + 1,
                played.laps,
                played.captured
            ));
            out.push_str(&super::show::draw(variant, game.board()));
        }
    }
    let Some(rules_reason) = record.reason.by_rules() else {
        return check_forfeit(&game, record, out);
    };
    let claimed = Outcome {
        winner: record.winner(),
        reason: rules_reason,
    };
    match game.outcome() {
        Some(outcome) if outcome == claimed => {}
        Some(outcome) => {
            return Err(format!(
                "{name}: records {} but the game ends {}",
                describe(&claimed),
                describe(&outcome)
            ))
        }
        None => {
            return Err(format!(
                "{name}: records {} but the game goes on after {}",
                describe(&claimed),
                super::plural(record.moves.len() as u64, "ply", "plies")
            ))
        }
    }
    out.push_str(&format!(
        "game {}: ok, {}, {}\n",
        record.game,
        super::plural(record.moves.len() as u64, "ply", "plies"),
        describe(&claimed)
    ));
    Ok(out)
}

/// A game lost by a forfeit: it was still going on by the rules, and the side to move
/// (the one that forfeited) lost.
fn check_forfeit(game: &Game, record: &Record, mut out: String) -> Result<String, String> {
    let name = format!("game {}", record.game);
    let plies = super::plural(record.moves.len() as u64, "ply", "plies");
    if let Some(outcome) = game.outcome() {
        return Err(format!(
            "{name}: records a {} forfeit but the game had ended {}",
            record.reason,
            describe(&outcome)
        ));
    }
    let loser = game.board().to_move();
    if record.winner() != Some(loser.opponent()) {
        return Err(format!(
            "{name}: records a {} forfeit by {loser}, the side to move, but not {} winning",
            record.reason,
            loser.opponent()
        ));
    }
    let detail = record
        .detail
        .as_ref()
        .map(|d| format!(": {d}"))
        .unwrap_or_default();
    out.push_str(&format!(
        "game {}: ok, {plies}, {} wins: {loser} forfeited ({}{detail})\n",
        record.game,
        loser.opponent(),
        record.reason
    ));
    Ok(out)
}

pub fn run(args: &ReplayArgs) -> CliResult {
    let path = Path::new(&args.file);
    if !path.exists() {
        return Err(CliError(format!("{}: no such file", args.file)));
    }
    let file = records::read_records(path)
        .map_err(|e| CliError(e.to_string()))?
        .ok_or_else(|| CliError(format!("{}: no records header", args.file)))?;
    let schedule = file
        .header
        .schedule(&file.variant)
        .map_err(|e| CliError(e.to_string()))?;
    let labels: Vec<String> = file
        .header
        .engines
        .iter()
        .map(|e| e.label.clone())
        .collect();
    records::check_sequence(&file.records, &schedule, &labels)
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
