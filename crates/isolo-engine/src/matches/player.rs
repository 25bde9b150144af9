//! The one seam between a match and whatever plays in it: a [`Player`] is asked for a
//! move on a [`Turn`] and answers a [`Reply`] or a [`Forfeit`]; a game ends with a
//! [`Termination`]. In-process bots ([`super::engine::Bot`]) and external engines
//! ([`super::external::ExternalEngine`]) implement it; the game loop
//! ([`super::game_loop`]) knows only this. Under the retreat a move is decided by both
//! sides in turn: the manager asks the opponent for each answer and the mover for the
//! rest of a move whose answer it did not expect ([`HalfMove`]).

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::search::clock::Clock;
use isolo_rules::{EndReason, Game, LegalMove, Move, Side};

/// How a game ended: by the rules (the first five), or by a forfeit of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The side to move had no legal move and lost.
    NoMoves,
    /// A position occurred for the third time: a draw.
    Repetition,
    /// The ply cap was reached: a draw.
    PlyLimit,
    /// A dead position: no seed can change hands again (drawn, or counted).
    DeadPosition,
    /// The side to move lost both its front row's end pits in the last turn.
    EndsCaptured,
    /// The long-game rule: `long_game_plies` plies without a capture (drawn, or counted).
    LongGame,
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
            Termination::DeadPosition => "dead-position",
            Termination::EndsCaptured => "ends-captured",
            Termination::LongGame => "long-game",
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
            Termination::DeadPosition => Some(EndReason::DeadPosition),
            Termination::EndsCaptured => Some(EndReason::EndsCaptured),
            Termination::LongGame => Some(EndReason::LongGame),
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
            EndReason::DeadPosition => Termination::DeadPosition,
            EndReason::EndsCaptured => Termination::EndsCaptured,
            EndReason::LongGame => Termination::LongGame,
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
    /// A move half made under the retreat (RULES.md 3.4) that the player is asked to go
    /// on with, or `None` for a whole move.
    pub half: Option<&'a HalfMove>,
}

/// A move half made under the retreat, and who decides next in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HalfMove {
    /// The move's letters so far, from the position the game stands at.
    pub mv: Move,
    /// Whether the mover's opponent decides next (its answer to a pass) rather than the
    /// mover (the rest of its move after an answer it did not expect).
    pub answering: bool,
}

impl Turn<'_> {
    /// The side whose decision is asked for: the side to move, or under the retreat the
    /// side answering its pass.
    pub fn decider(&self) -> Side {
        let mover = self.game.board().to_move();
        match self.half {
            Some(half) if half.answering => mover.opponent(),
            _ => mover,
        }
    }

    /// The clock of the side that decides.
    pub(crate) fn own_clock(&self) -> Option<Clock> {
        self.clocks[self.decider() as usize]
    }
}

/// Anything that plays: an in-process [`super::engine::Bot`], an external engine.
pub trait Player {
    /// A move for the side to move in `turn` (which has a legal move, unless the player
    /// `finds_every_move`); `Ok(None)` if the match was interrupted first. Asked to go on
    /// with a move half made (`turn.half`), the player that decides replies with the
    /// whole move as it would complete it, beginning with the letters given; the manager
    /// keeps the letters up to the other side's next decision.
    fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit>;

    /// Whether the player finds a move wherever one exists and answers a `NoMoves`
    /// forfeit only where there is none (an in-process bot, which lists moves with the
    /// rules' own generator): then the manager need not look for a legal move first.
    fn finds_every_move(&self) -> bool {
        false
    }
}
