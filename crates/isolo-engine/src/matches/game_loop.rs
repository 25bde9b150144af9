//! One game between two players, as a match manager plays it: the rules' [`Game`] model
//! adjudicates the rules' endings (no legal move, third repetition, ply cap); the manager
//! keeps the clocks and adjudicates what a player does wrong (an illegal move, a crash,
//! a reply too late or never, output that is not the protocol) as a loss for it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::matches::player::{Forfeit, Player, Reply, Termination, Turn};
use crate::search::clock::{Clock, TimeControl};
use isolo_rules::{Board, Game, LegalMove, Move, Side, Variant};

/// The default ply limit, after which a game is a draw.
pub const DEFAULT_GAME_PLIES: usize = 1000;
/// How far past its clock a reply may come before it loses on time, by default.
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(50);

/// The time controls of a game: each side's (or none), and the margin past a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControls {
    /// South's and North's time controls.
    pub sides: [Option<TimeControl>; 2],
    /// How far past its clock a reply may come before it loses on time.
    pub margin: Duration,
}

impl Default for TimeControls {
    fn default() -> TimeControls {
        TimeControls {
            sides: [None, None],
            margin: DEFAULT_TIME_MARGIN,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves played.
    pub moves: Vec<Move>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub reason: Termination,
    /// What the forfeiting player did, after a forfeit.
    pub detail: Option<String>,
    /// Each move's time in milliseconds.
    pub move_ms: Vec<u64>,
    /// The mover's clock after each move (increment added), in milliseconds, where
    /// either side is on a clock (`None` for a side without one); empty without clocks.
    pub clock_ms: Vec<Option<u64>>,
    /// How long it took.
    pub time: Duration,
}

/// Plays `south` against `north` from `start` (either may move first); `None` if
/// `interrupt` was set before the game ended.
pub fn play_game(
    variant: &Variant,
    start: Board,
    players: [&mut dyn Player; 2],
    max_plies: usize,
    controls: &TimeControls,
    interrupt: Option<&AtomicBool>,
) -> Option<GameRecord> {
    let started = Instant::now();
    let [south, north] = players;
    let mut game = Game::new(variant, start).with_max_plies(max_plies);
    let mut clocks = controls.sides.map(|c| c.as_ref().map(Clock::start));
    let clocked = clocks.iter().any(Option::is_some);
    let mut move_ms = Vec::with_capacity(max_plies.min(isolo_rules::RESERVED_PLIES));
    let mut clock_ms = Vec::new();
    let mut asked = started;
    let ended = |winner, reason, detail, move_ms, clock_ms, game: Game| GameRecord {
        moves: game.into_moves(),
        winner,
        reason,
        detail,
        move_ms,
        clock_ms,
        time: started.elapsed(),
    };
    loop {
        let mover = game.board().to_move();
        let player = match mover {
            Side::South => &mut *south,
            Side::North => &mut *north,
        };
        // A bot that finds every move is asked first, and the search for a legal move is
        // left to it, unless the game would end anyway (a repetition, the ply cap).
        let bot_decides = player.finds_every_move() && game.outcome_if_moves().is_none();
        if !bot_decides {
            if let Some(outcome) = game.outcome() {
                let reason = outcome.reason.into();
                return Some(ended(outcome.winner, reason, None, move_ms, clock_ms, game));
            }
        }
        if crate::raised(interrupt) {
            return None;
        }
        let turn = Turn {
            game: &game,
            clocks,
            margin: controls.margin,
            interrupt,
            asked,
        };
        let played = player.play(&turn).and_then(|reply| match reply {
            Some(reply) => judge(&game, &turn, reply).map(Some),
            None => Ok(None),
        });
        let (reply, legal) = match played {
            Ok(Some(judged)) => judged,
            // No move: the rules' verdict, as if the manager had looked first.
            Err(f) if bot_decides && f.reason == Termination::NoMoves => {
                let outcome = game.outcome().expect("a side without a move has lost");
                return Some(ended(
                    outcome.winner,
                    outcome.reason.into(),
                    None,
                    move_ms,
                    clock_ms,
                    game,
                ));
            }
            Ok(None) => return None,
            Err(f) => {
                let winner = Some(mover.opponent());
                return Some(ended(
                    winner,
                    f.reason,
                    Some(f.detail),
                    move_ms,
                    clock_ms,
                    game,
                ));
            }
        };
        asked = reply.answered.unwrap_or_else(Instant::now);
        move_ms.push(reply.thought.as_millis() as u64);
        let clock = clocks[mover as usize].as_mut().map(|c| {
            c.spend(reply.thought);
            c.left.as_millis() as u64
        });
        // (Without clocks there is nothing to keep: `clock_ms` stays empty.)
        if clocked {
            clock_ms.push(clock);
        }
        // Judged legal, and the game was going on: played as judged, not replayed.
        game.play_generated(&legal);
    }
}

/// A reply's move is legal and came in time (with the move as played), or the forfeit
/// it earns.
fn judge(game: &Game, turn: &Turn, mut reply: Reply) -> Result<(Reply, LegalMove), Forfeit> {
    if let Some(clock) = turn.own_clock() {
        if reply.thought > clock.left + turn.margin {
            return Err(Forfeit {
                reason: Termination::TimeForfeit,
                detail: format!(
                    "took {} ms with {} ms on its clock (margin {} ms)",
                    reply.thought.as_millis(),
                    clock.left.as_millis(),
                    turn.margin.as_millis()
                ),
            });
        }
    }
    if let Some(legal) = reply.played.take() {
        debug_assert_eq!(
            game.variant()
                .play_move(game.board(), &reply.mv)
                .map(|m| m.child),
            Some(legal.child),
            "a bot's move is what the rules make of it"
        );
        return Ok((reply, legal));
    }
    match game.variant().play_move(game.board(), &reply.mv) {
        Some(legal) => Ok((reply, legal)),
        None => Err(Forfeit {
            reason: Termination::IllegalMove,
            detail: format!("played {}, not a legal move here", reply.mv),
        }),
    }
}
