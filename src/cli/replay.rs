//! `isolo-ai replay`: checks a records file (its header, that its games are the run's
//! first games each once, every move, every result) and shows a game move by move.

use std::io::Write;
use std::path::Path;

use clap::Args;

use super::{CliError, CliResult};
use isolo_engine::matches::records::{self, CheckedRecords, Record};
use isolo_rules::{describe, Game, Outcome, Side};

#[derive(Args, Debug)]
pub(crate) struct ReplayArgs {
    /// A records file written by match or tournament (--out)
    pub file: String,
    /// Show this game (its "game" number) move by move
    #[arg(long, value_parser = super::ranges::GAME_NUMBER)]
    pub game: Option<u64>,
}

/// How a game that replayed ended, in words.
fn ending(record: &Record, game: &Game<'_>) -> String {
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
    format!("game {}: ok, {plies}, {ending}\n", record.game)
}

/// A game that replays, move by move with the board after each.
fn shown(file: &CheckedRecords, record: &Record) -> String {
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

/// What the file's digests prove, for the summary line.
fn what_is_proven(file: &CheckedRecords) -> &'static str {
    if file.chained {
        "every digest in its chain"
    } else {
        records::UNCHAINED_NOTE
    }
}

/// Why a walk through the file stopped: a records error, or stdout closed.
enum Stop {
    Records(records::RecordsError),
    Output(std::io::Error),
}

impl From<records::RecordsError> for Stop {
    fn from(e: records::RecordsError) -> Stop {
        Stop::Records(e)
    }
}

pub(crate) fn run(args: &ReplayArgs) -> CliResult {
    let path = Path::new(&args.file);
    if !path.exists() {
        return Err(CliError(format!("{}: no such file", args.file)));
    }
    // The engine's checks, as review and serve make them, a game at a time: every game
    // checked, the one asked for kept, the others printed as they pass.
    let mut wanted = None;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let walked = records::check_records(path, |record, game| {
        match args.game {
            Some(k) if record.game == k => wanted = Some((record.clone(), ending(record, game))),
            Some(_) => {}
            None => out
                .write_all(ending(record, game).as_bytes())
                .map_err(Stop::Output)?,
        }
        Ok(())
    });
    let file = match walked {
        Ok(Some(file)) => file,
        Ok(None) => return Err(CliError(format!("{}: no records header", args.file))),
        Err(Stop::Records(e)) => {
            let _ = out.flush();
            return Err(CliError(e.in_file(&args.file)));
        }
        Err(Stop::Output(e)) => return super::written(Err(e)),
    };
    if file.games == 0 {
        return Err(CliError(format!("{}: no game records", args.file)));
    }
    let cut = file
        .cut_line
        .map(|n| format!("line {n} was cut short (an interrupted run) and is ignored\n"))
        .unwrap_or_default();
    let text = match args.game {
        Some(k) => {
            let (record, ended) = wanted.ok_or_else(|| {
                CliError(format!(
                    "--game: no game {k} in {} (games 0..={})",
                    args.file,
                    file.games - 1
                ))
            })?;
            format!("{}{ended}", shown(&file, &record))
        }
        None => format!(
            "{cut}{} of {} games checked: every move legal, every result consistent, {} (run {})\n",
            file.games,
            file.scheduled,
            what_is_proven(&file),
            file.header.fingerprint
        ),
    };
    super::written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}
