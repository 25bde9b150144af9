//! Alpha-beta: iterative deepening negamax with principal variation search, aspiration
//! windows, a shared transposition table, move ordering (table move, captures by size,
//! history) and Lazy SMP over rayon threads.
//!
//! Proven results are exact. The search prunes nothing unsoundly (no null move, no
//! reductions), wins are valued `WIN - plies` so the shortest win and the longest
//! defence are preferred, and a proven score is trusted as exact once the completed
//! depth reaches its length: every shorter line has then been searched. A position that
//! repeats an earlier one of the game or of the search path scores as a draw, which only
//! ever gives the defender more ways out, so a claimed win holds under RULES.md 3.6.

use isolo_rules::Listing;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::answer::MOST_WALKED_STEPS;
use super::score::{from_table, to_table};
use super::stopping::StopFlag;
use super::tt::{Bound, Entry, TableError, TranspositionTable, NO_MOVE};
use super::{
    is_proven, loss_in, move_generator, moves_of_boards, win_in, Limits, Line, Past, Progress,
    Score, SearchRequest, SearchResult, Searcher, DRAW, INFINITY, UNSETTLED_STRETCH,
};
use crate::eval::{Evaluator, Weights, EVAL_LIMIT};
use isolo_rules::dedup_by_position;
use isolo_rules::{
    Board, Choice, ChoicePoint, Completion, LongGameEnding, Move, MoveGen, MoveStep, MoveWalk,
    Side, Variant,
};

pub use super::ChoiceWalk;

mod lines;
mod listing;
mod negamax;
mod quiescence;
mod root;
mod walked;

use lines::*;
use listing::*;
use root::*;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Time a search takes when no limit is given.
pub const DEFAULT_TIME: Duration = Duration::from_millis(4500);
/// Half-width of the first aspiration window, in hundredths of a seed.
const ASPIRATION_WINDOW: i32 = 60;
/// How much a failed aspiration window grows.
const ASPIRATION_GROWTH: i32 = 4;
/// A fall of the best value between depths (hundredths of a seed) that counts as an
/// unsettled search on a clock.
const UNSETTLED_DROP: i32 = 50;
/// How much longer each depth takes than all the depths before it, roughly: on a clock,
/// a depth is not started unless it would end near the target.
const ITERATION_GROWTH: f64 = 2.0;
/// Nodes between looks at the clock and the node limit.
const POLL_INTERVAL: u64 = 256;
/// Nodes of a worker between its looks at whether the table's slots in use are full
/// (`TranspositionTable::grow_when_full`).
const TABLE_GROWTH_CHECK_NODES: u64 = 1 << 16;
/// Ordering bonus per captured seed (above any history score).
const CAPTURE_ORDER: i32 = 1 << 20;
/// History scores are halved when one passes this.
const HISTORY_MAX: i32 = 1 << 18;
/// Choices of one move walked one by one before the rest of the move is its first
/// completion: each choice is a level of recursion, and a rules file may allow a move
/// as many as its `max_laps`, so the walk's depth is bounded here, not by the rules.
/// (No position of the bench walks deeper: its signature is the same without a bound.)
const MOST_WALKED_CHOICES: usize = 256;
/// The stack of a helper thread of Lazy SMP, as the main thread's (8 MB, Linux's
/// default) and more: the walks of every ply of a line recurse there (memory is taken
/// only as it is used).
const HELPER_STACK_BYTES: usize = 16 << 20;
/// A choice point's table entry names its better branch with these.
const TAKE: u16 = 0;
const PASS: u16 = 1;

/// Alpha-beta settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Evaluation weights; `None`: the variant's own (`Weights::for_variant`).
    pub weights: Option<Weights>,
    /// Plies of captures searched past the horizon before evaluating (0: evaluate at the
    /// horizon). It sharpens estimates only: no proven score comes from it.
    pub quiescence: u32,
    /// Which captures the quiescence search tries.
    pub quiescence_moves: QuiescenceMoves,
    /// Which pits' moves are walked a choice at a time (optional captures).
    pub walk: ChoiceWalk,
    /// What a draw in a fortress costs the side searched for, in hundredths of a seed
    /// (`Evaluator::with_contempt`).
    pub contempt: i32,
}

/// The captures a quiescence search tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuiescenceMoves {
    /// Every move that captures (every pit's moves generated, then filtered).
    AllCaptures,
    /// The moves of the pits whose first lap captures (`Variant::first_laps`): only those
    /// pits' moves are generated, a fraction of the cost where moves relay far and
    /// optional captures multiply them (Igisoro), missing captures made after a relay.
    FirstLap,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            threads: 1,
            hash_mb: 64,
            weights: None,
            quiescence: DEFAULT_QUIESCENCE_PLIES,
            quiescence_moves: QuiescenceMoves::AllCaptures,
            walk: ChoiceWalk::Vast,
            contempt: DEFAULT_CONTEMPT,
        }
    }
}

/// A fortress's draw is worth 10 seeds less than a level game to the side searched for:
/// behind by less, the engine plays on; ahead, it never lets the opponent into one.
pub const DEFAULT_CONTEMPT: i32 = 1000;

/// Plies of captures past the horizon, by default: enough to settle the exchange a
/// capture starts (a capture, the reply that takes back) without the cost of long chains.
pub const DEFAULT_QUIESCENCE_PLIES: u32 = 2;

/// The alpha-beta searcher; its table lives across searches (a game's moves share it).
pub struct AlphaBeta {
    config: AlphaBetaConfig,
    tt: TranspositionTable,
    /// The most choices a move is walked through (`MOST_WALKED_CHOICES`; tests lower it).
    most_walked_choices: usize,
}

impl AlphaBeta {
    /// A searcher with a table of `config.hash_mb` MB, or why the table cannot be made.
    pub fn new(config: AlphaBetaConfig) -> Result<AlphaBeta, TableError> {
        let tt = TranspositionTable::new(config.hash_mb)?;
        Ok(AlphaBeta {
            config,
            tt,
            most_walked_choices: MOST_WALKED_CHOICES,
        })
    }
}

/// A generated move, as the search keeps it.
#[derive(Clone, Copy, Debug)]
struct Child {
    board: Board,
    /// Generation-order index (ties in ordering keep this order; the root tells its
    /// moves apart by it).
    index: u32,
    pit: u8,
    order: i32,
    /// Whether this stands for all the moves of `pit`, walked choice by choice when
    /// searched (`board` is then the position moved from).
    walk: bool,
}

/// Bits of a table move's code that name the pit's lane (the rest fingerprint the result).
const CODE_LANE_BITS: u32 = 5;

impl Child {
    /// How table entries name this move: its pit's lane, and above it bits of the
    /// result's hash (none for a walked pit), so it is found again by listing its pit
    /// alone.
    fn code(&self) -> u16 {
        let fingerprint = if self.walk {
            0
        } else {
            (self.board.hash() >> (64 - (16 - CODE_LANE_BITS))) as u16
        };
        (self.pit as u16 - 1) | fingerprint << CODE_LANE_BITS
    }

    /// Whether `other` is the same move (the same result, or the same walked pit).
    fn same_move(&self, other: &Child) -> bool {
        match (self.walk, other.walk) {
            (false, false) => self.board == other.board,
            (true, true) => self.pit == other.pit,
            _ => false,
        }
    }
}

/// What all threads of one search share.
struct Shared<'a> {
    variant: &'a Variant,
    /// Which pits' moves are walked a choice at a time.
    walk: ChoiceWalk,
    /// Whether captures are optional.
    optional: bool,
    /// Whether the rules end dead positions (`dead_position`), which may occur here.
    dead_ends: bool,
    /// Choices a move is walked through before its first completion stands for it.
    most_walked_choices: usize,
    /// Choice points past this many laps are not stored, nor are those whose lines
    /// went past it: a stored value then holds at any lap count it is found again at
    /// (a line may not pass `max_laps`).
    storable_laps: u32,
    eval: Evaluator,
    tt: &'a TranspositionTable,
    /// Raised by the limits, the caller, or the generators' hard stop.
    stop: StopFlag,
    /// Set once the first iteration is complete: limits apply from then on, so every
    /// search has an answer.
    armed: AtomicBool,
    nodes: AtomicU64,
    limits: Limits,
    deadline: Option<Instant>,
    start: Instant,
    /// The caller's stop request.
    external_stop: Option<&'a AtomicBool>,
    /// Plies of captures past the horizon.
    quiescence: u32,
    quiescence_moves: QuiescenceMoves,
    /// The long-game rule (RULES.md 3.6): its plies and ending, where the rules have it.
    long_game: Option<(u32, LongGameEnding)>,
    /// Plies in a row without a capture up to the root, and South's seeds there.
    root_quiet: (u32, u32),
}

impl Shared<'_> {
    /// The score of a root value: a win or loss in as many plies as are left before the
    /// long-game rule, or more, is an estimate, not a proof (RULES.md 3.6): the table's
    /// values do not carry the count of plies without a capture, so the rule may end
    /// such a line first.
    fn score_of(&self, value: i32) -> Score {
        let score = Score::from_value(value);
        let Some((limit, _)) = self.long_game else {
            return score;
        };
        let left = limit.saturating_sub(self.root_quiet.0);
        match score {
            Score::Win(p) if p >= left => Score::Eval(EVAL_LIMIT),
            Score::Loss(p) if p >= left => Score::Eval(-EVAL_LIMIT),
            score => score,
        }
    }

    fn out_of_budget(&self, nodes: u64) -> bool {
        self.limits.nodes.is_some_and(|n| nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || crate::raised(self.external_stop)
    }
}

/// One searching thread.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    gen: MoveGen,
    /// Nodes not yet added to the shared count.
    pending_nodes: u64,
    nodes: u64,
    /// Hashes of the game's earlier positions, then of the search path.
    path: Vec<u64>,
    history: [[i32; 16]; 2],
    buffers: Vec<Vec<Child>>,
    /// The best line from each ply, as the positions it reaches.
    pv: Vec<Vec<Board>>,
    /// The move being walked a choice at a time, one per ply: a result's search walks
    /// moves of its own, and each walk keeps its move's path of turning points (RULES.md
    /// 3.5) while it goes on to its next branch.
    walks: Vec<MoveWalk>,
    /// The list of one pit's moves, for the table's move.
    scratch: Vec<Child>,
    /// The root move's choices so far, while a root pit is walked.
    root_choices: Vec<Choice>,
    /// The choices of the root pit's latest result that raised alpha.
    root_best: Option<Vec<Choice>>,
    /// Plies in a row without a capture up to each ply's position, and South's seeds
    /// there (set as each node is entered; the root's from the request).
    quiet: Vec<(u32, u32)>,
}

/// A turn searched a choice at a time.
struct Turn {
    depth: u32,
    ply: usize,
    /// Choices walked so far in this move (see `MOST_WALKED_CHOICES`).
    choices: usize,
    /// Whether a result has been searched (the first gets the full window).
    searched: bool,
}

/// What a walk through a turn's choices found: the best value (`-INFINITY` if no
/// legal move goes that way) and the lowest `taint` met.
#[derive(Clone, Copy, Debug)]
struct Walked {
    value: i32,
    /// One more than the lowest place on the move's path that a dead sequence came back
    /// to, 0 where a line passed `storable_laps`, `UNTAINTED` if neither: a choice point
    /// at place `i` may store its value only if `taint > i`, for only then did it see all
    /// its continuations whatever the path before it.
    taint: usize,
}

const UNTAINTED: usize = usize::MAX;

/// Where the search of one node stands.
struct NodeSearch {
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: u16,
    /// Moves searched so far.
    searched: u32,
}

impl NodeSearch {
    /// Takes in a searched move's value; true on a cut-off.
    fn improve(&mut self, value: i32, code: u16) -> bool {
        if value > self.best {
            self.best = value;
            self.best_move = code;
            self.alpha = self.alpha.max(value);
        }
        self.cut()
    }

    fn cut(&self) -> bool {
        self.alpha >= self.beta
    }
}

/// A root move with its latest score.
#[derive(Clone, Debug)]
struct RootMove {
    /// The move's result, or for a pit searched choice by choice the root itself.
    child: Child,
    /// Whether this is a pit whose moves are all searched choice by choice (optional
    /// captures, one line asked for): `mv` is then its best move so far.
    by_choices: bool,
    mv: Move,
    value: i32,
    /// Whether `value` is exact (not a bound from a null-window or multi-PV cut).
    exact: bool,
    /// The positions of its line.
    pv: Vec<Board>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, history: &[u64]) -> Worker<'a> {
        Worker {
            shared,
            gen: move_generator().with_interrupt(shared.stop.interrupt()),
            pending_nodes: 0,
            nodes: 0,
            path: history.to_vec(),
            history: [[0; 16]; 2],
            buffers: Vec::new(),
            pv: vec![Vec::new(); MAX_DEPTH as usize + 2],
            walks: (0..MAX_DEPTH as usize + 2)
                .map(|_| MoveWalk::new().with_interrupt(shared.stop.interrupt()))
                .collect(),
            scratch: Vec::new(),
            root_choices: Vec::new(),
            root_best: None,
            quiet: vec![shared.root_quiet; MAX_DEPTH as usize + 2],
        }
    }

    fn stopped(&self) -> bool {
        self.shared.stop.raised()
    }

    /// Counts a node and, now and then, checks the limits.
    fn count_node(&mut self) {
        self.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= POLL_INTERVAL {
            let total = self
                .shared
                .nodes
                .fetch_add(self.pending_nodes, Ordering::Relaxed)
                + self.pending_nodes;
            self.pending_nodes = 0;
            if self.shared.armed.load(Ordering::Relaxed) && self.shared.out_of_budget(total) {
                self.shared.stop.raise();
            }
        }
        if self.nodes.is_multiple_of(TABLE_GROWTH_CHECK_NODES) {
            self.shared.tt.grow_when_full();
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
    }
}

impl Searcher for AlphaBeta {
    fn search(
        &mut self,
        request: &SearchRequest,
        report: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let start = Instant::now();
        let mut limits = request.limits;
        if limits.is_unbounded() {
            limits.time = Some(DEFAULT_TIME);
        }
        self.tt.new_search();
        let variant = request.variant;
        let root = request.board;
        let root_moves = root_moves(variant, &root, self.config.walk);
        let deadline = limits.time.map(|t| start + t);
        let shared = Shared {
            variant,
            storable_laps: variant.rules().max_laps() / 2,
            walk: self.config.walk,
            optional: variant.rules().capture_choice() == isolo_rules::CaptureChoice::Optional,
            dead_ends: variant.rules().dead_position() != isolo_rules::DeadPosition::PlayOn
                && variant.fortresses().is_some(),
            most_walked_choices: self.most_walked_choices,
            eval: Evaluator::for_config(variant, self.config.weights.as_ref())
                .with_contempt(root.to_move(), self.config.contempt),
            tt: &self.tt,
            stop: StopFlag::new(deadline),
            // Walking a pit's every move can take minutes: then limits hold from the start.
            armed: AtomicBool::new(root_moves.iter().any(|m| m.by_choices)),
            nodes: AtomicU64::new(0),
            limits,
            deadline,
            start,
            external_stop: request.stop,
            quiescence: self.config.quiescence,
            quiescence_moves: self.config.quiescence_moves,
            long_game: (variant.rules().long_game_plies() > 0).then(|| {
                let rules = variant.rules();
                (rules.long_game_plies(), rules.long_game_ending())
            }),
            root_quiet: (request.quiet_plies, root.side_total(Side::South)),
        };
        let multipv = request.multipv.clamp(1, root_moves.len().max(1));
        let threads = self.config.threads.max(1);
        let (moves, depth) = shared.stop.forwarding(request.stop, || {
            if root_moves.is_empty() {
                (Vec::new(), 0)
            } else if threads == 1 {
                let mut worker = Worker::new(&shared, &request.history);
                let result = worker.iterate(&root, root_moves, 1, multipv, Some(&mut *report));
                worker.flush_nodes();
                result
            } else {
                lazy_smp(
                    &shared,
                    &request.history,
                    &root,
                    root_moves,
                    multipv,
                    threads,
                    report,
                )
            }
        });
        let lines = moves
            .iter()
            .take(multipv)
            .enumerate()
            .map(|(i, m)| {
                if i >= request.pv_lines {
                    return Line {
                        mv: m.mv.clone(),
                        score: shared.score_of(m.value),
                        pv: vec![m.mv.clone()],
                    };
                }
                let mut boards = m.pv.clone();
                let wanted = match Score::from_value(m.value) {
                    Score::Win(p) | Score::Loss(p) => p as usize,
                    _ => depth as usize,
                };
                let mode = self.config.walk;
                extend_from_table(&self.tt, variant, mode, &root, &mut boards, wanted);
                if is_proven(m.value) && boards.len() < wanted {
                    let past = Past {
                        hashes: &request.history,
                        quiet_plies: request.quiet_plies,
                    };
                    complete_proven_line(variant, &root, past, &mut boards, wanted);
                }
                Line {
                    mv: m.mv.clone(),
                    score: shared.score_of(m.value),
                    pv: line_moves(variant, &root, &m.mv, &boards),
                }
            })
            .collect();
        SearchResult {
            lines,
            depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            time: start.elapsed(),
            engine: "ab",
            hashfull: self.tt.hashfull(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions along a game of each preset and deep reading, every move taken in turn.
    fn positions() -> Vec<(Variant, Board)> {
        let mut out = Vec::new();
        for spec in [
            "igisoro",
            "isolo-women",
            "isolo-boys",
            "isolo-women-capture-ends",
        ] {
            let variant = Variant::load(spec).unwrap();
            let mut board = variant.start();
            for ply in 0..60 {
                let moves = variant.distinct_moves(&board);
                if moves.is_empty() {
                    break;
                }
                out.push((variant.clone(), board));
                board = moves[ply * 7 % moves.len()].child;
            }
        }
        out
    }

    /// A walk cut short (here after one choice, where every Igisoro pit is walked) is
    /// never taken as proven: what the cut search proves, the whole search proves the
    /// same way, a win or a loss no shorter (a shorter one may hide in a move cut).
    #[test]
    fn a_walk_cut_short_proves_nothing_the_whole_walk_does_not() {
        let variant = Variant::load("igisoro").unwrap();
        let mut positions = Vec::new();
        for step in [7, 11, 13] {
            let mut board = variant.start();
            for ply in 0..400 {
                let moves = variant.distinct_moves(&board);
                if moves.is_empty() {
                    break;
                }
                if ply % 4 == 0 {
                    positions.push(board);
                }
                board = moves[ply * step % moves.len()].child;
            }
        }
        let search = |board: Board, most_walked_choices: usize| {
            let mut searcher = AlphaBeta::new(AlphaBetaConfig {
                threads: 1,
                hash_mb: 16,
                walk: ChoiceWalk::All,
                ..AlphaBetaConfig::default()
            })
            .unwrap();
            searcher.most_walked_choices = most_walked_choices;
            let request = SearchRequest {
                variant: &variant,
                board,
                history: Vec::new(),
                quiet_plies: 0,
                limits: Limits {
                    depth: Some(4),
                    ..Limits::default()
                },
                multipv: 1,
                pv_lines: 1,
                stop: None,
            };
            searcher
                .search(&request, &mut |_| {})
                .best()
                .map(|b| b.score)
        };
        let mut proven = 0;
        for board in positions {
            let (Some(cut), Some(whole)) = (search(board, 1), search(board, usize::MAX)) else {
                continue;
            };
            match (cut, whole) {
                (Score::Win(c), Score::Win(w)) | (Score::Loss(c), Score::Loss(w)) => {
                    assert!(c >= w, "{cut:?} where the whole walk says {whole:?}");
                    proven += 1;
                }
                (Score::Win(_) | Score::Loss(_), _) => {
                    panic!("the cut search says {cut:?}, the whole {whole:?}")
                }
                _ => {}
            }
        }
        assert!(proven > 0, "no position proven: the test shows nothing");
    }

    #[test]
    fn a_table_code_finds_its_move_by_listing_one_pit() {
        let mut gen = move_generator();
        let mut scratch = Vec::new();
        for (variant, board) in positions() {
            for walk in [ChoiceWalk::Vast, ChoiceWalk::All] {
                let mut list = Vec::new();
                let pits = variant.candidate_pits(&board);
                generate(
                    &variant,
                    &board,
                    pits,
                    Some(walk),
                    &mut gen,
                    &[0; 16],
                    &mut list,
                );
                for child in &list {
                    let found = find_coded(
                        &variant,
                        &board,
                        child.code(),
                        walk,
                        &mut gen,
                        &[0; 16],
                        &mut scratch,
                    );
                    let found = found.expect("the coded move is found");
                    assert!(
                        found.same_move(child) || (!found.walk && found.code() == child.code())
                    );
                }
                assert!(find_coded(
                    &variant,
                    &board,
                    NO_MOVE,
                    walk,
                    &mut gen,
                    &[0; 16],
                    &mut scratch
                )
                .is_none());
            }
        }
    }
}
