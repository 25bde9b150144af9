//! Searchers: alpha-beta and Monte Carlo tree search, with the types they share: scores
//! (evaluations and exact proven results), limits and results.

pub mod alphabeta;
pub mod mcts;

pub mod tt;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{json, Value};

use crate::rules::{Board, Move, Variant};

/// A won position's value: `WIN - plies` (`plies` to the move after which the loser has
/// no legal move); a lost one's is `-(WIN - plies)`.
pub const WIN: i32 = 1_000_000;
/// Values beyond `WIN - MAX_MATE_PLIES` are proven results.
pub const MAX_MATE_PLIES: i32 = 100_000;
/// Above every value.
pub const INFINITY: i32 = WIN + 1;
/// A drawn position (repetition); evaluations never return exactly this.
pub const DRAW: i32 = 0;

/// The value of a win in `plies`.
pub fn win_in(plies: i32) -> i32 {
    WIN - plies
}

/// The value of a loss in `plies`.
pub fn loss_in(plies: i32) -> i32 {
    -(WIN - plies)
}

/// The value of a position whose every examined move loses, where optional captures
/// opened more results than the searchers examine (`POINTS_PER_PIT`): as bad as an
/// evaluation gets, but not a proof.
pub const UNPROVEN_LOSS: i32 = -(WIN - MAX_MATE_PLIES);

pub use crate::rules::moves::{move_generator, searched_children, searched_moves, POINTS_PER_PIT};

/// Whether a value is a proven win or loss.
pub fn is_proven(value: i32) -> bool {
    value.abs() > WIN - MAX_MATE_PLIES
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// A forced win: `plies` counts both players' moves up to the move after which the
    /// loser has no legal move.
    Win(u32),
    /// A forced loss in `plies` against best play (the longest defence).
    Loss(u32),
    /// A draw by repetition.
    Draw,
    /// An estimate in hundredths of a seed.
    Eval(i32),
}

impl Score {
    /// The score of a search value.
    pub fn from_value(value: i32) -> Score {
        if value > WIN - MAX_MATE_PLIES {
            Score::Win((WIN - value) as u32)
        } else if value < -(WIN - MAX_MATE_PLIES) {
            Score::Loss((WIN + value) as u32)
        } else if value == DRAW {
            Score::Draw
        } else {
            Score::Eval(value)
        }
    }

    /// The search value of a score (wins above evaluations above losses).
    pub fn value(&self) -> i32 {
        match *self {
            Score::Win(p) => win_in(p as i32),
            Score::Loss(p) => loss_in(p as i32),
            Score::Draw => DRAW,
            Score::Eval(v) => v,
        }
    }

    pub fn is_proven(&self) -> bool {
        matches!(self, Score::Win(_) | Score::Loss(_))
    }

    /// `{"type": "win"|"loss"|"draw"|"eval", "plies": N, "value": x}`.
    pub fn to_json(&self) -> Value {
        match *self {
            Score::Win(p) => json!({"type": "win", "plies": p}),
            Score::Loss(p) => json!({"type": "loss", "plies": p}),
            Score::Draw => json!({"type": "draw"}),
            Score::Eval(v) => json!({"type": "eval", "value": v as f64 / 100.0}),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Win(p) => write!(f, "win in {p}"),
            Score::Loss(p) => write!(f, "loss in {p}"),
            Score::Draw => f.write_str("draw"),
            Score::Eval(v) => write!(f, "{:+.2}", v as f64 / 100.0),
        }
    }
}

/// When to stop searching; `None` everywhere means the searcher's default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<u32>,
    /// Nodes for alpha-beta, iterations (playouts) for MCTS.
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl Limits {
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }
}

/// One root move with its score and line.
#[derive(Clone, Debug)]
pub struct Line {
    pub mv: Move,
    pub score: Score,
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best line first; with multi-PV the K best root moves.
    pub lines: Vec<Line>,
    /// Completed depth (alpha-beta) or the deepest tree path (MCTS).
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub engine: &'static str,
}

impl SearchResult {
    pub fn best(&self) -> Option<&Line> {
        self.lines.first()
    }

    pub fn nps(&self) -> u64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// A progress report: a completed depth (alpha-beta) or an interval (MCTS).
#[derive(Clone, Debug)]
pub struct Progress {
    pub depth: u32,
    pub score: Score,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub time: Duration,
}

/// A search to run on one position.
pub struct SearchRequest<'a> {
    pub variant: &'a Variant,
    pub board: Board,
    /// Hashes of the earlier positions of the game, oldest first, for repetitions.
    pub history: Vec<u64>,
    pub limits: Limits,
    /// How many root moves to score exactly (1 = just the best).
    pub multipv: usize,
    /// Set from outside to end the search as a limit would (a protocol's `stop`, an
    /// interrupted match); the first iteration still completes.
    pub stop: Option<&'a AtomicBool>,
}

impl SearchRequest<'_> {
    /// Whether the caller has asked the search to stop.
    pub fn stop_requested(&self) -> bool {
        self.stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// Anything that searches a position.
pub trait Searcher {
    fn search(
        &mut self,
        request: &SearchRequest,
        report: &mut dyn FnMut(&Progress),
    ) -> SearchResult;
}

/// Turns a line of move indices (in `searched_moves` order) into moves, replaying from
/// `board`.
pub fn moves_of_line(variant: &Variant, board: &Board, indices: &[u32]) -> Vec<Move> {
    let mut board = *board;
    let mut line = Vec::new();
    for &index in indices {
        let (moves, _) = searched_moves(variant, &board);
        let Some(found) = moves.into_iter().nth(index as usize) else {
            break;
        };
        board = found.child;
        line.push(found.mv);
    }
    line
}
