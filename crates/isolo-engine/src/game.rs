//! One game between two players, as a match manager plays it: the rules' [`Game`] model
//! adjudicates the rules' endings (no legal move, third repetition, ply cap); the manager
//! keeps the clocks and adjudicates what a player does wrong (an illegal move, a crash,
//! a reply too late or never, output that is not the protocol) as a loss for it.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::clock::{Clock, TimeControl};
use crate::engine::Bot;
use isolo_rules::{Board, EndReason, Game, LegalMove, Move, Side, Variant};

/// The default ply limit, after which a game is a draw.
pub const DEFAULT_MAX_PLIES: usize = 1000;
/// How far past its clock a reply may come before it loses on time, by default.
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(50);

/// How a game ended: by the rules (the first three), or by a forfeit of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The side to move had no legal move and lost.
    NoMoves,
    /// A position occurred for the third time: a draw.
    Repetition,
    /// The ply cap was reached: a draw.
    PlyLimit,
    /// The side to move answered a move that is not legal here.
    IllegalMove,
    /// Its engine ended (or could not be started or written to).
    Crash,
    /// Its reply came after its clock (or movetime) plus the margin.
    TimeForfeit,
    /// No reply at all, `STALL_GRACE` after its time: the engine is restarted.
    Stall,
    /// It wrote what the protocol cannot read (a `bestmove` that is no move, bytes that
    /// are not text, an endless line).
    BadOutput,
}

impl Termination {
    /// The name used in records and JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Termination::NoMoves => "no-moves",
            Termination::Repetition => "repetition",
            Termination::PlyLimit => "ply-limit",
            Termination::IllegalMove => "illegal-move",
            Termination::Crash => "crash",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Stall => "stall",
            Termination::BadOutput => "bad-output",
        }
    }

    /// The rules' ending, if the game ended by the rules.
    pub fn by_rules(&self) -> Option<EndReason> {
        match self {
            Termination::NoMoves => Some(EndReason::NoMoves),
            Termination::Repetition => Some(EndReason::Repetition),
            Termination::PlyLimit => Some(EndReason::PlyLimit),
            _ => None,
        }
    }

    /// Whether the side to move lost by a forfeit.
    pub fn is_forfeit(&self) -> bool {
        self.by_rules().is_none()
    }
}

impl From<EndReason> for Termination {
    fn from(reason: EndReason) -> Termination {
        match reason {
            EndReason::NoMoves => Termination::NoMoves,
            EndReason::Repetition => Termination::Repetition,
            EndReason::PlyLimit => Termination::PlyLimit,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player's loss by forfeit, and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// Which forfeit.
    pub reason: Termination,
    /// What the player did, for the record.
    pub detail: String,
}

/// A player's answer: a move (checked by the manager) and the time it took.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The move.
    pub mv: Move,
    /// From the request to the answer.
    pub thought: Duration,
    /// The move as played, from an in-process bot (whose moves come from the rules' own
    /// generator, so it need not be played again); the manager plays any other.
    pub played: Option<LegalMove>,
    /// When the reply was made, where the player read the clock for `thought`: the
    /// next move is asked for from then (one clock reading a move serves both).
    pub answered: Option<Instant>,
}

/// What a player is asked to move in.
pub struct Turn<'a> {
    /// The game so far (its start, moves and current position).
    pub game: &'a Game<'a>,
    /// South's and North's clocks as the move starts (`None`: that side has none).
    pub clocks: [Option<Clock>; 2],
    /// How far past its clock a reply may come.
    pub margin: Duration,
    /// Set when the match is interrupted.
    pub interrupt: Option<&'a AtomicBool>,
    /// When the move was asked for.
    pub asked: Instant,
}

impl Turn<'_> {
    /// The clock of the side to move.
    pub fn own_clock(&self) -> Option<Clock> {
        self.clocks[self.game.board().to_move() as usize]
    }
}

/// Anything that plays: an in-process [`Bot`], an external engine.
pub trait Player {
    /// A move for the side to move in `turn` (which has a legal move, unless the player
    /// `finds_every_move`); `Ok(None)` if the match was interrupted first.
    fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit>;

    /// Whether the player finds a move wherever one exists and answers a `NoMoves`
    /// forfeit only where there is none (an in-process bot, which lists moves with the
    /// rules' own generator): then the manager need not look for a legal move first.
    fn finds_every_move(&self) -> bool {
        false
    }
}

impl Player for Bot {
    fn finds_every_move(&self) -> bool {
        true
    }

    fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit> {
        let game = turn.game;
        let choice = self.choose(
            game.variant(),
            game.board(),
            game.earlier_hashes(),
            turn.own_clock().as_ref(),
            &mut |_| {},
        );
        if turn.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Ok(None);
        }
        let answered = Instant::now();
        let thought = answered.saturating_duration_since(turn.asked);
        match choice {
            Some(c) => Ok(Some(Reply {
                mv: c.played.mv.clone(),
                thought,
                played: Some(c.played),
                answered: Some(answered),
            })),
            // No move (the game loop leaves that search to bots): the rules' verdict stands,
            // not an interruption, which would end the run.
            None => Err(Forfeit {
                reason: Termination::NoMoves,
                detail: "no legal move".into(),
            }),
        }
    }
}

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
        if interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
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
