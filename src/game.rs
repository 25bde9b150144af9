//! One game between two bots: adjudication (no legal move, third repetition, ply limit)
//! and its record.

use std::time::{Duration, Instant};

use crate::engine::Bot;
use crate::rules::{Board, Side, Variant};

/// Occurrences of a position, same side to move, that draw the game (RULES.md 3.6).
pub const DRAW_REPETITIONS: usize = 3;
/// The default ply limit, after which a game is a draw.
pub const DEFAULT_MAX_PLIES: usize = 1000;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move had no legal move and lost.
    NoMoves,
    /// A position occurred for the third time.
    Repetition,
    /// The ply limit was reached.
    PlyLimit,
}

impl EndReason {
    pub fn name(&self) -> &'static str {
        match self {
            EndReason::NoMoves => "no-moves",
            EndReason::Repetition => "repetition",
            EndReason::PlyLimit => "ply-limit",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub moves: Vec<String>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
    pub time: Duration,
}

/// Plays `south` against `north` from `start` (either may move first).
pub fn play_game(
    variant: &Variant,
    start: Board,
    south: &mut Bot,
    north: &mut Bot,
    max_plies: usize,
) -> GameRecord {
    let started = Instant::now();
    let mut board = start;
    let mut seen: Vec<u64> = vec![board.hash()];
    let mut moves = Vec::new();
    let finish = |moves, winner, reason| GameRecord {
        moves,
        winner,
        reason,
        time: started.elapsed(),
    };
    loop {
        if seen.iter().filter(|&&h| h == board.hash()).count() >= DRAW_REPETITIONS {
            return finish(moves, None, EndReason::Repetition);
        }
        if moves.len() >= max_plies {
            return finish(moves, None, EndReason::PlyLimit);
        }
        let mover = board.to_move();
        let bot = if mover == Side::South {
            &mut *south
        } else {
            &mut *north
        };
        let history = &seen[..seen.len() - 1];
        let Some(choice) = bot.choose(variant, &board, history, &mut |_| {}) else {
            return finish(moves, Some(mover.opponent()), EndReason::NoMoves);
        };
        moves.push(choice.played.mv.to_string());
        board = choice.played.child;
        seen.push(board.hash());
    }
}

/// One finished game as stored in a records file (one JSON object a line).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// The game's index in its match or tournament schedule.
    pub game: u64,
    /// The `--variant` given (a preset name or a rules-file path).
    pub variant: String,
    /// The starting position.
    pub opening: String,
    /// Engine labels.
    pub south: String,
    pub north: String,
    /// The engines' specs (without labels), so a resumed run can check them.
    #[serde(default)]
    pub south_spec: String,
    #[serde(default)]
    pub north_spec: String,
    pub moves: Vec<String>,
    /// `"S"`, `"N"` or `"draw"`.
    pub result: String,
    pub reason: String,
    pub plies: usize,
    pub seed: u64,
    pub time_ms: u64,
}

impl Record {
    /// The winner's side, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.result.as_str() {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            _ => None,
        }
    }
}

/// The text of a result.
pub fn result_text(winner: Option<Side>) -> String {
    winner
        .map(|s| s.letter().to_string())
        .unwrap_or_else(|| "draw".into())
}
