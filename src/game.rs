//! One game between two bots, played on the rules' [`Game`] model (its adjudication:
//! no legal move, third repetition, ply cap).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::Bot;
use crate::rules::{Board, Game, Move, Outcome, Side, Variant};

pub use crate::rules::EndReason;

/// The default ply limit, after which a game is a draw.
pub const DEFAULT_MAX_PLIES: usize = 1000;

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves played.
    pub moves: Vec<Move>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub reason: EndReason,
    /// How long it took.
    pub time: Duration,
}

/// Plays `south` against `north` from `start` (either may move first); `None` if
/// `interrupt` was set before the game ended.
pub fn play_game(
    variant: &Variant,
    start: Board,
    south: &mut Bot,
    north: &mut Bot,
    max_plies: usize,
    interrupt: Option<&AtomicBool>,
) -> Option<GameRecord> {
    let started = Instant::now();
    let mut game = Game::new(variant, start).with_max_plies(max_plies);
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        if interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return None;
        }
        let board = *game.board();
        let bot = match board.to_move() {
            Side::South => &mut *south,
            Side::North => &mut *north,
        };
        match bot.choose(variant, &board, &game.history(), &mut |_| {}) {
            Some(choice) => game.push(&choice.played),
            // Bots always move where a legal move exists; this is the same loss.
            None => {
                break Outcome {
                    winner: Some(board.to_move().opponent()),
                    reason: EndReason::NoMoves,
                }
            }
        }
    };
    Some(GameRecord {
        moves: game.moves().to_vec(),
        winner: outcome.winner,
        reason: outcome.reason,
        time: started.elapsed(),
    })
}
