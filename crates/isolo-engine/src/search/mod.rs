//! Searchers: alpha-beta and Monte Carlo tree search, with the types they share: scores
//! (evaluations and exact proven results), limits and results, the transposition table,
//! and the [`clock`]s and time management of every built-in engine.

pub mod alphabeta;
pub mod answer;
pub mod clock;
pub mod level;
pub mod mcts;
pub(crate) mod score;
pub mod stopping;
// The one module with `unsafe`: memory mapped by hand for the tables (see its docs).
#[allow(unsafe_code)]
mod table_memory;
pub mod tt;
pub mod wdl;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use isolo_rules::describe;
use isolo_rules::{Board, Move, Outcome, Side, SideResult, Variant};

pub use score::{is_proven, plies_text, Score, DRAW, INFINITY, MAX_MATE_PLIES, WIN};
pub(crate) use score::{loss_in, win_in};

pub use isolo_rules::{move_generator, searched_moves, POINTS_PER_PIT};

/// Which pits' moves a search walks a take/pass choice at a time (each choice a ply or
/// tree node of its own) instead of listing them, under optional captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceWalk {
    /// Pits whose moves are too many to list (past `POINTS_PER_PIT` turning points): the
    /// others are listed, each result once (alpha-beta orders them by the seeds they
    /// capture).
    Vast,
    /// Every pit: no list is built (alpha-beta can cut off before a pit's moves are all
    /// found).
    All,
}

impl ChoiceWalk {
    /// The walk a search of `variant` makes when asked for this one: every pit under the
    /// retreat, where a listed result would let the mover pick the opponent's answers
    /// (each answer is a ply of the other side only in a walk).
    pub fn for_variant(self, variant: &Variant) -> ChoiceWalk {
        if variant.has_retreat() {
            ChoiceWalk::All
        } else {
            self
        }
    }
}

/// When to stop searching; `None` everywhere means the searcher's default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Iterations of alpha-beta (plies).
    pub depth: Option<u32>,
    /// Nodes for alpha-beta, iterations (playouts) for MCTS.
    pub nodes: Option<u64>,
    /// Wall time, never passed.
    pub time: Option<Duration>,
    /// A target time (a clock's share for this move): the search stops near it once its
    /// best move is settled, runs on towards `time` while it is not, and stops on a
    /// proven result at once. Set by [`crate::search::clock::Clock::limits`].
    pub soft_time: Option<Duration>,
}

impl Limits {
    /// Whether no limit is set.
    pub(crate) fn is_unbounded(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }
}

/// How far past its target a search may run while its best move is unsettled (the hard
/// limit still holds).
pub const UNSETTLED_STRETCH: f64 = 2.5;

/// One root move with its score and line.
#[derive(Clone, Debug)]
pub struct Line {
    /// The root move.
    pub mv: Move,
    /// Its score for the side to move.
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best line first; with multi-PV the K best root moves.
    pub lines: Vec<Line>,
    /// Completed depth (alpha-beta) or the deepest tree path (MCTS).
    pub depth: u32,
    /// Nodes (alpha-beta) or iterations (MCTS).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// `ab` or `mcts`.
    pub engine: &'static str,
    /// How full the searcher's memory is, in permille: alpha-beta's table (entries of
    /// this search), or MCTS's tree against its node cap.
    pub hashfull: u32,
}

/// The `analyze --json` answer at a finished game, the same from every front end:
/// nothing searched; `score` the mover's result in 0 plies (a loss when it has no legal
/// move, a draw by repetition or the ply cap), `wdl` certain, `result` the winner's
/// letter (`null` for a draw) and `end` the end in words.
pub fn finished_json(variant: &Variant, board: &Board, outcome: &Outcome) -> serde_json::Value {
    let result = outcome.for_side(board.to_move());
    let wdl = match result {
        SideResult::Win => wdl::Wdl::WON,
        SideResult::Draw => wdl::Wdl::DRAWN,
        SideResult::Loss => wdl::Wdl::LOST,
    };
    let score = Score::at_end(result);
    serde_json::json!({
        "best_move": null,
        "score": score.to_json(),
        "wdl": wdl.to_json(),
        "pv": [],
        "lines": [],
        "depth": 0,
        "nodes": 0,
        "nps": 0,
        "time_ms": 0,
        "engine": null,
        "result": outcome.winner.map(|side| side.letter().to_string()),
        "end": describe(outcome),
        "position": variant.format_position(board),
        "material": material_json(board),
    })
}

/// The sides holding a fortress on `board` (`holders`, from
/// `isolo_rules::fortress_holders`) and what it decides, in words: `{"holders":
/// ["N"], "text": "North's 2 seeds can never be captured: South cannot win"}`; `null`
/// where no side holds one.
pub(crate) fn fortress_json(board: &Board, holders: &[Side]) -> serde_json::Value {
    match isolo_rules::fortress_in_words(board, holders) {
        None => serde_json::Value::Null,
        Some(text) => {
            let letters: Vec<String> = holders.iter().map(|s| s.letter().to_string()).collect();
            serde_json::json!({"holders": letters, "text": text})
        }
    }
}

/// A score as a player reads it where `fortress_held` (a side holds a fortress on the
/// board searched, `isolo_rules::fortress_holders`): a draw where the search
/// found nothing better than the fortress's draw (an estimate of about 0, without
/// contempt), else the score as it prints.
pub fn score_in_words(score: Score, fortress_held: bool) -> String {
    if reads_as_fortress_draw(score, fortress_held) {
        return "draw (a fortress)".to_string();
    }
    score.to_string()
}

/// Why the chances of `score` on `board` are what they are, where they disagree with the
/// seeds, in words: the fortress a side holds there (`holders`, from
/// `isolo_rules::fortress_holders`) ("North's 2 seeds can never be
/// captured: South cannot win"), else the model's reason for mostly a draw beside a lead
/// (`wdl::chances_reason`); `None` where the chances need no reason.
pub fn chances_why(
    variant: &Variant,
    board: &Board,
    holders: &[Side],
    score: Score,
) -> Option<String> {
    isolo_rules::fortress_in_words(board, holders).or_else(|| wdl::chances_reason(variant, score))
}

/// A score in a player's words on `board` ("5.2 seeds ahead", "a win in 7 plies"), a
/// fortress's draw as one (see [`score_in_words`]).
pub fn score_in_plain_words(score: Score, board: &Board, fortress_held: bool) -> String {
    if reads_as_fortress_draw(score, fortress_held) {
        return "a draw (a fortress)".to_string();
    }
    score.in_words(board.side_total(Side::South) + board.side_total(Side::North))
}

/// The win/draw/loss chances of `score` under `model` as they go beside
/// [`score_in_words`]: a certain draw where the words say "draw (a fortress)", so that
/// the words and the chances never disagree.
pub fn wdl_in_words(model: &wdl::WdlModel, score: Score, fortress_held: bool) -> wdl::Wdl {
    if reads_as_fortress_draw(score, fortress_held) {
        return wdl::Wdl::DRAWN;
    }
    model.wdl(score)
}

/// Whether a player reads `score` as a fortress's draw: a side holds one and the search
/// found nothing better than its draw (an estimate of about 0, without contempt).
fn reads_as_fortress_draw(score: Score, fortress_held: bool) -> bool {
    matches!(score, Score::Eval(v) if fortress_held && v.abs() <= 1)
}

/// The seeds on each side of `board`, with the lead in words: `{"S": 59, "N": 5,
/// "text": "South leads by 54 seeds (59 to 5)"}`.
pub(crate) fn material_json(board: &Board) -> serde_json::Value {
    serde_json::json!({
        "S": board.side_total(isolo_rules::Side::South),
        "N": board.side_total(isolo_rules::Side::North),
        "text": isolo_rules::material_in_words(board),
    })
}

impl SearchResult {
    /// The fields of `analyze --json` for a search of `board`: `best_move`, `score`,
    /// `wdl` (the win/draw/loss chances of `variant`'s model, per mille), `pv`, `lines`
    /// (each `move`, `score`, `wdl`, `pv`), `depth`, `nodes`, `nps`, `time_ms`,
    /// `engine`, `material` (the seeds on each side, `material_json`), `fortress`
    /// (`fortress_json`).
    pub fn to_json(&self, variant: &Variant, board: &Board) -> serde_json::Value {
        let strings = |pv: &[Move]| pv.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let (_, model) = wdl::WdlModel::for_variant(variant);
        let best = self.best();
        // The score with its text as a player reads it (`score_in_words`).
        let holders = isolo_rules::fortress_holders(variant, board);
        let held = !holders.is_empty();
        let score = |score: Score| {
            let mut json = score.to_json();
            json["text"] = score_in_words(score, held).into();
            json["words"] = score_in_plain_words(score, board, held).into();
            json
        };
        let lines: Vec<_> = self
            .lines
            .iter()
            .map(|l| {
                serde_json::json!({"move": l.mv.to_string(), "score": score(l.score),
                                   "wdl": wdl_in_words(&model, l.score, held).to_json(),
                                   "pv": strings(&l.pv)})
            })
            .collect();
        serde_json::json!({
            "best_move": best.map(|b| b.mv.to_string()),
            "score": best.map(|b| score(b.score)),
            "wdl": best.map(|b| wdl_in_words(&model, b.score, held).to_json()),
            "pv": best.map(|b| strings(&b.pv)).unwrap_or_default(),
            "lines": lines,
            "depth": self.depth,
            "nodes": self.nodes,
            "nps": self.nps(),
            "time_ms": self.time.as_millis() as u64,
            "engine": self.engine,
            "material": material_json(board),
            "fortress": fortress_json(board, &holders),
            "chances_why": best.and_then(|b| chances_why(variant, board, &holders, b.score)),
        })
    }

    /// The best line, if the position had a move.
    pub fn best(&self) -> Option<&Line> {
        self.lines.first()
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.time)
    }
}

/// `nodes` over `time`, per second (0 when no time passed).
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let secs = time.as_secs_f64();
    if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    }
}

/// A progress report: a completed depth (alpha-beta) or an interval (MCTS).
#[derive(Clone, Debug)]
pub struct Progress {
    /// Completed depth (alpha-beta) or the deepest tree path (MCTS).
    pub depth: u32,
    /// The best score so far.
    pub score: Score,
    /// The best line so far.
    pub pv: Vec<Move>,
    /// Nodes or iterations so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// How full the searcher's memory is, in permille (see `SearchResult::hashfull`).
    pub hashfull: u32,
}

impl Progress {
    /// A search's progress as the web API streams it (`depth`, `score`, `wdl` from
    /// `model`, `pv`, `nodes`, `nps`, `time_ms`): the fields of a result's, computed the
    /// same way.
    pub fn to_json(&self, model: &wdl::WdlModel) -> serde_json::Value {
        serde_json::json!({
            "depth": self.depth,
            "score": self.score.to_json(),
            "wdl": model.wdl(self.score).to_json(),
            "pv": self.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "nodes": self.nodes,
            "nps": nodes_per_second(self.nodes, self.time),
            "time_ms": self.time.as_millis() as u64,
        })
    }
}

/// A search to run on one position.
pub struct SearchRequest<'a> {
    /// The rules.
    pub variant: &'a Variant,
    /// The position to search.
    pub board: Board,
    /// Hashes of the earlier positions of the game, oldest first, for repetitions.
    pub history: Vec<u64>,
    /// Plies in a row without a capture before the position (`Game::quiet_plies`), for
    /// the long-game rule (RULES.md 3.6); 0 for a position read alone.
    pub quiet_plies: u32,
    /// When to stop.
    pub limits: Limits,
    /// How many root moves to score exactly (1 = just the best).
    pub multipv: usize,
    /// How many of the lines (best first) come with their whole principal variation;
    /// the rest carry their root move alone (`usize::MAX`: every line). A level scores
    /// every root move to play one, and naming a line's moves can cost more than the
    /// search where moves are vast to list.
    pub pv_lines: usize,
    /// Set from outside to end the search (a protocol's `stop`, an interrupted match, a
    /// client that left): the search stops within milliseconds, even inside a vast
    /// move, with the moves of its last complete iteration (or, before one, its first
    /// iteration's partial values).
    pub stop: Option<&'a AtomicBool>,
}

impl SearchRequest<'_> {
    /// Whether the caller has asked the search to stop.
    pub(crate) fn stop_requested(&self) -> bool {
        crate::raised(self.stop)
    }
}

/// What a search needs of the game before its position: the earlier positions' hashes
/// (repetitions) and the plies in a row without a capture (the long-game rule, RULES.md
/// 3.6). `Past::default()`: a position read alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct Past<'a> {
    /// Hashes of the earlier positions, oldest first.
    pub hashes: &'a [u64],
    /// Plies in a row without a capture up to the position.
    pub quiet_plies: u32,
}

impl<'a> Past<'a> {
    /// The past of `game`'s current position.
    pub fn of(game: &'a isolo_rules::Game) -> Past<'a> {
        Past {
            hashes: game.earlier_hashes(),
            quiet_plies: game.quiet_plies(),
        }
    }
}

/// Anything that searches a position.
pub trait Searcher {
    /// Searches `request`, calling `report` with progress now and then.
    fn search(
        &mut self,
        request: &SearchRequest,
        report: &mut dyn FnMut(&Progress),
    ) -> SearchResult;
}

/// Names the moves of a line given as the positions it reaches from `board`, stopping
/// where a position is not reached by a legal move, or by one `listed_move` can name
/// (a pit too vast to list within its bound).
pub(crate) fn moves_of_boards(variant: &Variant, board: &Board, boards: &[Board]) -> Vec<Move> {
    let mut board = *board;
    let mut line = Vec::new();
    for next in boards {
        let pits = variant.candidate_pits(&board);
        let Some(mv) = isolo_rules::listed_move(variant, &board, pits, next) else {
            break;
        };
        line.push(mv);
        board = *next;
    }
    line
}
