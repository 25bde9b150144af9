//! Records files of `match` and `tournament`: one JSON object a line. The first line is a
//! [`Header`] holding everything that defines the run (the rules themselves, engines,
//! pairings, the opening positions, limits, seed) and its fingerprint; each further line
//! is one finished game, in game order. The header makes a file self-contained (`replay`
//! needs nothing else) and lets `--resume` refuse a run that is not the same.
//!
//! Here: the errors, a game's result and its line ([`Record`]); `header.rs` the run's
//! header and its fingerprint; `reader.rs` reading a file back and replaying its
//! games; `check.rs` the checks that a file's games are its run's; `write.rs` writing,
//! appending and opening a file for a run or its resumption.

mod chain;
mod check;
mod header;
mod pages;
mod reader;
mod write;

pub(crate) use chain::is_chained;
pub use chain::{Chain, CHAINED_FORMAT, UNCHAINED_NOTE};
pub use check::SequenceCheck;
pub(crate) use check::{check_game, check_job};
pub use header::{fingerprint_of, EngineEntry, Header, OpeningsEntry};
pub use pages::{GameSummary, RecordsPages, RECORDS_PAGE_DEFAULT, RECORDS_PAGE_MOST};
pub(crate) use reader::Lines;
pub use reader::{
    check_records, kind_of, read_records, replay, CheckedRecords, Place, RecordsFile, RecordsReader,
};
pub use write::{append, create, open_for_run, RecordsWriter, Resumed, RunRecordsError};

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::matches::engine::EngineSpec;
use crate::matches::player::Termination;
use crate::matches::schedule::{Job, Schedule, Shard};
use isolo_rules::describe;
use isolo_rules::{Board, Game, Move, Outcome, Rules, Side, Variant};

/// The records format written by this version (format 1, still read, has no digests).
pub const FORMAT_VERSION: u32 = CHAINED_FORMAT;
/// The longest line read: a file without line breaks (or `/dev/zero`) stops here.
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// What is wrong with a records file or its use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordsError {
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(String),
    /// A line that is not a valid header or record.
    #[error("{path}, line {line}: {message}")]
    Line {
        /// The file.
        path: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A header whose rules, openings or pairings cannot describe a run.
    #[error("{0}")]
    Header(String),
    /// Games duplicated, missing, out of range or not those of the schedule.
    #[error("{0}")]
    Sequence(String),
    /// A game that does not replay: an illegal move, or a result its moves do not lead to.
    #[error("{0}")]
    Replay(String),
    /// A game whose digest does not follow the games before it: edited, replaced,
    /// moved, or a game before it removed.
    #[error("{path}, line {line}: {message}")]
    Unchained {
        /// The file.
        path: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl RecordsError {
    /// The error as said of the file `path`: named once (a bad line and a failed read
    /// already name it).
    pub fn in_file(&self, path: &str) -> String {
        match self {
            RecordsError::Line { .. } | RecordsError::Unchained { .. } | RecordsError::Io(_) => {
                self.to_string()
            }
            _ => format!("{path}: {self}"),
        }
    }
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "S")]
    /// South won.
    SouthWins,
    #[serde(rename = "N")]
    /// North won.
    NorthWins,
    #[serde(rename = "draw")]
    /// A draw.
    Draw,
}

impl GameResult {
    /// The result of a game won by `winner` (`None`: a draw).
    pub(crate) fn of_winner(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::South) => GameResult::SouthWins,
            Some(Side::North) => GameResult::NorthWins,
            None => GameResult::Draw,
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self {
            GameResult::SouthWins => Some(Side::South),
            GameResult::NorthWins => Some(Side::North),
            GameResult::Draw => None,
        }
    }

    /// `S`, `N` or `draw`, as in the file.
    pub fn text(&self) -> &'static str {
        match self {
            GameResult::SouthWins => "S",
            GameResult::NorthWins => "N",
            GameResult::Draw => "draw",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The game's index in its schedule.
    pub game: u64,
    /// The starting position.
    pub opening: Board,
    /// Engine labels.
    pub south: String,
    /// North's engine label.
    pub north: String,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Termination,
    /// After a forfeit, what the losing engine did.
    pub detail: Option<String>,
    /// The game's seed.
    pub seed: u64,
    /// How long the game took, in milliseconds.
    pub time_ms: u64,
    /// Each move's time in milliseconds (empty in files that predate it).
    pub move_ms: Vec<u64>,
    /// With clocks: the mover's clock after each move, increment added, in
    /// milliseconds (`None` for a side without a clock); empty without clocks.
    pub clock_ms: Vec<Option<u64>>,
}

/// A record as it is written: moves and positions as text.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    game: u64,
    opening: String,
    south: String,
    north: String,
    moves: Vec<String>,
    result: GameResult,
    reason: Termination,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    plies: usize,
    seed: u64,
    time_ms: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    move_ms: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    clock_ms: Vec<Option<u64>>,
    /// The chained digest (format 2): see `chain.rs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
}

/// A record read back with what its digest covers: its line without the digest, and
/// the digest (`None` in format 1).
pub(crate) struct ReadRecord {
    pub(crate) record: Record,
    pub(crate) unsealed: String,
    pub(crate) digest: Option<String>,
}

impl Record {
    /// The record's line (no newline), its digest the next of `chain`.
    pub(crate) fn sealed_line(&self, variant: &Variant, chain: &mut Chain) -> String {
        let mut line = self.line(variant);
        line.digest = Some(chain.seal(&serialised(&line)));
        serialised(&line)
    }

    /// The game's line as a JSON value (what the Python binding hands out).
    pub fn to_value(&self, variant: &Variant) -> serde_json::Value {
        serde_json::to_value(self.line(variant)).expect("records serialise")
    }

    /// The game as its line holds it.
    fn line(&self, variant: &Variant) -> RecordLine {
        RecordLine {
            game: self.game,
            opening: variant.format_position(&self.opening),
            south: self.south.clone(),
            north: self.north.clone(),
            moves: self.moves.iter().map(Move::to_string).collect(),
            result: self.result,
            reason: self.reason,
            detail: self.detail.clone(),
            plies: self.moves.len(),
            seed: self.seed,
            time_ms: self.time_ms,
            move_ms: self.move_ms.clone(),
            clock_ms: self.clock_ms.clone(),
            digest: None,
        }
    }

    fn from_line(text: &str, variant: &Variant) -> Result<ReadRecord, String> {
        let mut line: RecordLine = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let digest = line.digest.take();
        // (Written from these very fields, so serialising them again gives the bytes the
        // digest was made of, whatever spacing the file now has.)
        let unsealed = serialised(&line);
        let opening = variant
            .parse_position(&line.opening)
            .map_err(|e| format!("game {}: opening: {e}", line.game))?;
        let moves = line
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                variant
                    .parse_move(m)
                    .map_err(|e| format!("game {}, move {}: {e}", line.game, i + 1))
            })
            .collect::<Result<Vec<Move>, String>>()?;
        let per_move = [
            ("move_ms", line.move_ms.len()),
            ("clock_ms", line.clock_ms.len()),
        ];
        if let Some((name, n)) = per_move.iter().find(|(_, n)| *n != 0 && *n != moves.len()) {
            return Err(format!(
                "game {}: {name} has {n} entries for {} moves",
                line.game,
                moves.len()
            ));
        }
        if line.plies != moves.len() {
            return Err(format!(
                "game {}: says {} plies but lists {} moves",
                line.game,
                line.plies,
                moves.len()
            ));
        }
        let record = Record {
            game: line.game,
            opening,
            south: line.south,
            north: line.north,
            moves,
            result: line.result,
            reason: line.reason,
            detail: line.detail,
            seed: line.seed,
            time_ms: line.time_ms,
            move_ms: line.move_ms,
            clock_ms: line.clock_ms,
        };
        Ok(ReadRecord {
            record,
            unsealed,
            digest,
        })
    }

    /// The winner's side, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        self.result.winner()
    }
}

fn serialised(line: &RecordLine) -> String {
    serde_json::to_string(line).expect("records serialise")
}
