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
    is_proven, loss_in, move_generator, moves_of_boards, win_in, Limits, Line, Progress, Score,
    SearchRequest, SearchResult, Searcher, DRAW, INFINITY, UNSETTLED_STRETCH,
};
use crate::eval::{Evaluator, Weights, EVAL_LIMIT};
use isolo_rules::dedup_by_position;
use isolo_rules::{
    Board, Choice, ChoicePoint, Completion, Move, MoveGen, MoveStep, MoveWalk, Variant,
};

pub use super::ChoiceWalk;

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

/// A quiescence node's best value so far and its window, as its moves are tried.
struct Standing {
    best: i32,
    alpha: i32,
    beta: i32,
}

impl Standing {
    /// Takes `value` into the best (raising alpha with it); whether the node cuts off.
    fn raise(&mut self, value: i32) -> bool {
        if value > self.best {
            self.best = value;
            self.alpha = self.alpha.max(value);
        }
        self.alpha >= self.beta
    }
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

/// The move `code` (`Child::code`) names at `board`, listing its pit alone into
/// `scratch`: a walked pit, or the result whose hash matches the code.
fn find_coded(
    variant: &Variant,
    board: &Board,
    code: u16,
    walk: ChoiceWalk,
    gen: &mut MoveGen,
    history: &[i32; 16],
    scratch: &mut Vec<Child>,
) -> Option<Child> {
    if code == NO_MOVE {
        return None;
    }
    let lane = (code & ((1 << CODE_LANE_BITS) - 1)) as u32;
    if lane as usize >= variant.pits() || variant.candidate_pits(board) & (1 << lane) == 0 {
        return None;
    }
    scratch.clear();
    generate(variant, board, 1 << lane, Some(walk), gen, history, scratch);
    scratch.iter().find(|c| c.walk || c.code() == code).copied()
}

/// Appends the moves from `pits` at `board` in generation order (the order table
/// entries name them by), and says whether results were left out: each distinct result
/// once, under its first move; then, under optional captures, an entry to walk for each
/// pit that `walk` makes walked (`None`: none, the list holds what the point limit
/// allows).
fn generate(
    variant: &Variant,
    board: &Board,
    pits: u32,
    walk: Option<ChoiceWalk>,
    gen: &mut MoveGen,
    history: &[i32; 16],
    list: &mut Vec<Child>,
) -> bool {
    let optional = variant.rules().capture_choice == isolo_rules::CaptureChoice::Optional;
    let walkable = variant.walks_choices();
    let walk = walk.map(|w| w.for_variant(variant));
    let result = |pit: u8, child: Board, captured: u32| Child {
        board: child,
        index: 0,
        pit,
        order: captured.min(255) as i32 * CAPTURE_ORDER + history[(pit - 1) as usize],
        walk: false,
    };
    let walked = |pit: u8, order: i32| Child {
        board: *board,
        index: 0,
        pit,
        order,
        walk: true,
    };
    // The walked pits with their order, made into entries once the results are listed.
    let mut walks = [(0u8, 0i32); 16];
    let mut walk_count = 0;
    let mut truncated = false;
    match walk {
        Some(ChoiceWalk::All) if walkable => {
            let capturing = variant.first_laps(board, board.to_move()).capturing;
            let mut lanes = pits & variant.candidate_pits(board);
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let order = (capturing >> lane & 1) as i32 * CAPTURE_ORDER + history[lane];
                walks[walk_count] = (lane as u8 + 1, order);
                walk_count += 1;
            }
        }
        Some(ChoiceWalk::Vast) if walkable => {
            let mut lanes = pits & variant.candidate_pits(board);
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let first = list.len();
                variant.visit_moves(board, 1 << lane, Listing::Results, gen, |m| {
                    list.push(result(m.pit, m.child, m.captured))
                });
                if gen.truncated() {
                    // Listed first are the fewest laps' results: a fair guess at the
                    // pit's worth.
                    let order = list[first..].iter().map(|c| c.order).max().unwrap_or(0);
                    list.truncate(first);
                    walks[walk_count] = (lane as u8 + 1, order);
                    walk_count += 1;
                }
            }
        }
        _ => {
            variant.visit_moves(board, pits, Listing::Results, gen, |m| {
                list.push(result(m.pit, m.child, m.captured))
            });
            truncated = gen.truncated();
        }
    }
    if optional {
        dedup_by_position(list, |c| &c.board);
    }
    list.extend(
        walks[..walk_count]
            .iter()
            .map(|&(pit, order)| walked(pit, order)),
    );
    for (index, child) in list.iter_mut().enumerate() {
        child.index = index as u32;
    }
    truncated
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
}

impl Shared<'_> {
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

    /// The moves of `board` (see `generate`), ordered best first (the table's move,
    /// coded as `Child::code`, before all), in a buffer of this ply.
    fn children(&mut self, board: &Board, ply: usize, table_move: u16) -> Vec<Child> {
        let pits = self.shared.variant.candidate_pits(board);
        let walk = Some(self.shared.walk);
        self.children_from(board, ply, table_move, pits, walk).0
    }

    /// The moves from `pits` only (a bit set as from `candidate_pits`), walked as `walk`
    /// says, and whether results were left out.
    fn children_from(
        &mut self,
        board: &Board,
        ply: usize,
        table_move: u16,
        pits: u32,
        walk: Option<ChoiceWalk>,
    ) -> (Vec<Child>, bool) {
        let mut list = if ply < self.buffers.len() {
            std::mem::take(&mut self.buffers[ply])
        } else {
            Vec::new()
        };
        list.clear();
        let history = &self.history[board.to_move() as usize];
        let variant = self.shared.variant;
        let truncated = generate(
            variant,
            board,
            pits,
            walk,
            &mut self.gen,
            history,
            &mut list,
        );
        if let Some(hinted) = list.iter_mut().find(|c| c.code() == table_move) {
            hinted.order = i32::MAX;
        }
        order_front(&mut list, 0);
        (list, truncated)
    }

    fn give_back(&mut self, ply: usize, list: Vec<Child>) {
        // (Lists are reused per ply to keep the search free of allocation.)
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = list;
    }

    /// The value of `board` if it is a dead position the rules end (`dead_position`):
    /// a draw, valued as a fortress's draw (exact without contempt; with it, as the
    /// engine's contempt says, so that it seeks or shuns the dead draw as it does a
    /// fortress), or under a count the mover's win or loss now; a mover without a move
    /// has lost first.
    fn dead_end(&mut self, board: &Board, ply: usize) -> Option<i32> {
        let outcome = isolo_rules::dead_position_outcome(self.shared.variant, board)?;
        if !self.shared.variant.has_legal_move(board, &mut self.gen) {
            return Some(loss_in(ply as i32));
        }
        Some(match outcome.winner {
            None => self.shared.eval.fortress_draw(board.to_move()),
            Some(side) if side == board.to_move() => win_in(ply as i32),
            Some(_) => loss_in(ply as i32),
        })
    }

    fn reward_history(&mut self, board: &Board, pit: u8, depth: u32) {
        let row = &mut self.history[board.to_move() as usize];
        row[(pit - 1) as usize] += (depth * depth) as i32;
        if row[(pit - 1) as usize] > HISTORY_MAX {
            row.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Negamax with alpha-beta and PVS; values are from the side to move at `board`.
    fn negamax(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        // 1. Draw by repetition of a position of the game or the path.
        if self.path.contains(&board.hash()) {
            return DRAW;
        }
        // 1b. A dead position the rules end (a side with moves is not stuck there).
        if self.shared.dead_ends {
            if let Some(value) = self.dead_end(board, ply) {
                return value;
            }
        }
        // 2. Mate-distance bounds: nothing here beats a win next move or loses faster
        // than now.
        alpha = alpha.max(loss_in(ply as i32));
        beta = beta.min(win_in(ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        // 3. Horizon: a position without moves is lost, else evaluate once the captures
        // in reach are played out. (Leaves skip the table: a probe there costs more than
        // the evaluation it would save.)
        if depth == 0 {
            if !self.shared.variant.has_legal_move(board, &mut self.gen) {
                return loss_in(ply as i32);
            }
            let plies = self.shared.quiescence;
            return self.quiescence(board, alpha, beta, ply, plies);
        }
        // 4. Table.
        let key = board.hash();
        let mut table_move = NO_MOVE;
        if let Some(entry) = self.shared.tt.probe(key) {
            table_move = entry.best;
            if entry.depth as u32 >= depth {
                let value = from_table(entry.value, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cut {
                    return value;
                }
            }
        }
        // 5. Principal variation search: the table's move first, then the rest, ordered.
        // Under optional captures the table's move is found by listing its pit alone, as
        // a cut-off by it saves listing the others; a forced move list costs little.
        let mut node = NodeSearch {
            alpha,
            beta,
            best: -INFINITY,
            best_move: NO_MOVE,
            searched: 0,
        };
        self.path.push(key);
        let first = if self.shared.optional {
            self.table_child(board, table_move)
        } else {
            None
        };
        let mut done = false;
        if let Some(child) = first {
            done = self.search_next(board, &child, depth, ply, &mut node);
        }
        if !done {
            self.search_listed(board, depth, ply, (table_move, first), &mut node);
        }
        let NodeSearch {
            best, best_move, ..
        } = node;
        self.path.pop();
        if self.stopped() {
            return DRAW;
        }
        if best == -INFINITY {
            // No legal move (or only walked pits, none with one).
            return loss_in(ply as i32);
        }
        // 6. Remember.
        self.store(key, best, best_move, depth, (alpha, beta), ply);
        best
    }

    /// Searches one move at a node (PVS: a null window once a move has been searched);
    /// true when the node is done: a cut-off, or the search stopped.
    fn search_next(
        &mut self,
        board: &Board,
        child: &Child,
        depth: u32,
        ply: usize,
        node: &mut NodeSearch,
    ) -> bool {
        let later = node.searched > 0;
        let window = (node.alpha, node.beta);
        let value = self.search_child(board, child, depth, window, ply, later);
        node.searched += 1;
        if self.stopped() {
            return true;
        }
        node.improve(value, child.code())
    }

    /// Searches the whole list of moves, best ordered first, the table's move first
    /// unless it was searched already (`first`).
    fn search_listed(
        &mut self,
        board: &Board,
        depth: u32,
        ply: usize,
        (table_move, first): (u16, Option<Child>),
        node: &mut NodeSearch,
    ) {
        let mut children = self.children(board, ply, table_move);
        for i in 0..children.len() {
            if i == ORDERED_FIRST && children.len() > ORDERED_FIRST {
                order_front(&mut children, ORDERED_FIRST);
            }
            let child = children[i];
            if first.is_some_and(|f| f.same_move(&child)) {
                continue;
            }
            if self.search_next(board, &child, depth, ply, node) {
                if node.cut() {
                    self.reward_history(board, child.pit, depth);
                }
                break;
            }
        }
        self.give_back(ply, children);
    }

    /// The lanes of `pits` in the order the quiescence search lists them: the larger
    /// capture by the first lap (`takes`, by lane) first, then by history (lanes in order
    /// on ties).
    fn pit_order(&self, board: &Board, pits: u32, takes: &[u8; 16]) -> ([u8; 16], usize) {
        let history = &self.history[board.to_move() as usize];
        let mut lanes = [0u8; 16];
        let mut count = 0;
        let mut rest = pits;
        while rest != 0 {
            lanes[count] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            count += 1;
        }
        let key = |&lane: &u8| {
            let l = lane as usize;
            std::cmp::Reverse(takes[l] as i32 * CAPTURE_ORDER + history[l])
        };
        lanes[..count].sort_by_key(key);
        (lanes, count)
    }

    /// The value of one move (for a walked pit, of its best move) for the side to move
    /// at `board`, with PVS: a null window first if `later`. Sets the line from `ply`
    /// when the value passes alpha.
    fn search_child(
        &mut self,
        board: &Board,
        child: &Child,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        later: bool,
    ) -> i32 {
        if child.walk {
            let turn = Turn {
                depth,
                ply,
                choices: 0,
                searched: later,
            };
            return self.walk_pit(board, child.pit, turn, alpha, beta);
        }
        self.search_result(&child.board, depth, (alpha, beta), ply, later)
    }

    /// The value of the move to `child` for the side to move at `ply`, with PVS: a null
    /// window first if `later`. Sets the line from `ply` when the value passes alpha.
    fn search_result(
        &mut self,
        child: &Board,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        later: bool,
    ) -> i32 {
        self.count_node();
        let value = if !later {
            -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
        } else {
            let probe = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1);
            if probe > alpha && probe < beta {
                -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                probe
            }
        };
        if value > alpha && !self.stopped() {
            self.set_pv(ply, *child);
        }
        value
    }

    /// The move a table entry names (`Child::code`), found by listing its pit alone.
    fn table_child(&mut self, board: &Board, code: u16) -> Option<Child> {
        let variant = self.shared.variant;
        let history = &self.history[board.to_move() as usize];
        let walk = self.shared.walk;
        find_coded(
            variant,
            board,
            code,
            walk,
            &mut self.gen,
            history,
            &mut self.scratch,
        )
    }

    /// Stores a value found with the window `(alpha, beta)`.
    fn store(
        &self,
        key: u64,
        best: i32,
        best_move: u16,
        depth: u32,
        window: (i32, i32),
        ply: usize,
    ) {
        let bound = if best >= window.1 {
            Bound::Lower
        } else if best > window.0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            value: to_table(best, ply),
            best: best_move,
            depth: depth.min(255) as u8,
            bound,
        };
        self.shared.tt.store(key, entry);
    }

    /// The line from `ply`: `child`, then the line from the ply after.
    fn set_pv(&mut self, ply: usize, child: Board) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(child);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The best value of the moves of `pit`, walked a choice at a time
    /// (`-INFINITY` if it has none); the line goes to `pv[turn.ply]`.
    fn walk_pit(&mut self, board: &Board, pit: u8, mut turn: Turn, alpha: i32, beta: i32) -> i32 {
        let walk = &mut self.walks[turn.ply];
        let step = self.shared.variant.begin_move(board, pit, walk);
        self.step_value(step, &mut turn, alpha, beta).value
    }

    /// The value of where a walk stands: a result is searched (PVS: the turn's first
    /// with the full window), a choice point is `choice_value`, a dead sequence has none.
    fn step_value(&mut self, step: MoveStep, turn: &mut Turn, alpha: i32, beta: i32) -> Walked {
        match step {
            MoveStep::Dead { repeated } => Walked {
                value: -INFINITY,
                taint: repeated.map_or(0, |at| at + 1),
            },
            MoveStep::Choice(point) | MoveStep::Answer(point)
                if turn.choices >= self.shared.most_walked_choices =>
            {
                self.cut_walk(&point, turn, alpha, beta)
            }
            MoveStep::Choice(point) => {
                turn.choices += 1;
                let walked = self.choice_value(&point, turn, alpha, beta);
                turn.choices -= 1;
                walked
            }
            MoveStep::Answer(point) => {
                turn.choices += 1;
                let walked = self.answer_value(&point, turn, alpha, beta);
                turn.choices -= 1;
                walked
            }
            MoveStep::End { child, laps, .. } => {
                let value = self.walk_result(&child, turn, (alpha, beta), &[]);
                let taint = if laps > self.shared.storable_laps {
                    0
                } else {
                    UNTAINTED
                };
                Walked { value, taint }
            }
        }
    }

    /// The value of a walk's result `child` (PVS: the turn's first with the full
    /// window); at the root, where it passes alpha, the walk's choices and then `rest`
    /// become the best move.
    fn walk_result(
        &mut self,
        child: &Board,
        turn: &mut Turn,
        (alpha, beta): (i32, i32),
        rest: &[Choice],
    ) -> i32 {
        let later = std::mem::replace(&mut turn.searched, true);
        let value = self.search_result(child, turn.depth, (alpha, beta), turn.ply, later);
        if value > alpha && !self.stopped() && turn.ply == 0 {
            let mut line = self.root_choices.clone();
            line.extend_from_slice(rest);
            self.root_best = Some(line);
        }
        value
    }

    /// A walk `MOST_WALKED_CHOICES` deep goes on by the point's first completion,
    /// searched as a result; where none is found within `MOST_WALKED_STEPS` choices it
    /// is valued by the evaluation of the position as sown so far. Never proven, and not
    /// stored: the first completion takes both sides' later decisions as they come, not
    /// at their best, so its value bounds the point's in neither direction.
    fn cut_walk(&mut self, point: &ChoicePoint, turn: &mut Turn, alpha: i32, beta: i32) -> Walked {
        let walk = &mut self.walks[turn.ply];
        let completion = self
            .shared
            .variant
            .first_completion(point, walk, MOST_WALKED_STEPS);
        let value = match completion {
            Completion::Found(choices, child) => {
                self.walk_result(&child, turn, (alpha, beta), &choices)
            }
            Completion::None => {
                return Walked {
                    value: -INFINITY,
                    taint: 0,
                }
            }
            Completion::Unknown => self.shared.eval.evaluate(&point.board()),
        };
        Walked {
            value: value.clamp(-EVAL_LIMIT, EVAL_LIMIT),
            taint: 0,
        }
    }

    /// A choice of the mover (take or pass, or a lap's direction) as a ply of its own
    /// (the same side moves again): the better branch, with its own table entry, stored
    /// only when its value does not depend on the path that led to it (see
    /// `Walked::taint`).
    fn choice_value(
        &mut self,
        point: &ChoicePoint,
        turn: &mut Turn,
        mut alpha: i32,
        beta: i32,
    ) -> Walked {
        self.count_node();
        let storable = point.laps() <= self.shared.storable_laps;
        let key = point.key();
        let mut take_first = true;
        if storable {
            if let Some(entry) = self.shared.tt.probe(key) {
                take_first = entry.best != PASS;
                // At the root the move itself must be found, not only its value.
                if entry.depth as u32 >= turn.depth && turn.ply > 0 {
                    let value = from_table(entry.value, turn.ply);
                    let cut = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => value >= beta,
                        Bound::Upper => value <= alpha,
                    };
                    if cut {
                        if value > alpha {
                            // The line through here is not known: cut it short.
                            self.pv[turn.ply].clear();
                        }
                        return Walked {
                            value,
                            taint: UNTAINTED,
                        };
                    }
                }
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_choice = TAKE;
        let mut taint = UNTAINTED;
        for take in [take_first, !take_first] {
            if turn.ply == 0 {
                self.root_choices.push(point.option(take));
            }
            let next = self
                .shared
                .variant
                .choose(point, take, &mut self.walks[turn.ply]);
            let walked = self.step_value(next, turn, alpha, beta);
            if turn.ply == 0 {
                self.root_choices.pop();
            }
            taint = taint.min(walked.taint);
            if self.stopped() {
                return Walked {
                    value: best,
                    taint: 0,
                };
            }
            if walked.value > best {
                best = walked.value;
                best_choice = if take { TAKE } else { PASS };
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if storable && taint > point.index() && best > -INFINITY {
            let window = (original_alpha, beta);
            self.store(key, best, best_choice, turn.depth, window, turn.ply);
        }
        Walked { value: best, taint }
    }

    /// The opponent's answer to a passed capture (`retreat`) as a ply of its own, where
    /// the other side decides: the worse branch for the mover, among those that lead to
    /// a legal move. Not stored: the choice points below it are. The line and, at the
    /// root, the move found are those of that branch.
    fn answer_value(
        &mut self,
        point: &ChoicePoint,
        turn: &mut Turn,
        alpha: i32,
        mut beta: i32,
    ) -> Walked {
        self.count_node();
        let at_root = turn.ply == 0;
        let entry_best = self.root_best.clone();
        let entry_pv = self.pv[turn.ply].clone();
        let mut worst = INFINITY;
        let mut worst_line = None;
        let mut taint = UNTAINTED;
        for retreat in [true, false] {
            if at_root {
                self.root_best = entry_best.clone();
                self.root_choices.push(Choice::answer(retreat));
            }
            self.pv[turn.ply] = entry_pv.clone();
            let next = self
                .shared
                .variant
                .answer_pass(point, retreat, &mut self.walks[turn.ply]);
            let walked = self.step_value(next, turn, alpha, beta);
            if at_root {
                self.root_choices.pop();
            }
            taint = taint.min(walked.taint);
            if self.stopped() {
                return Walked {
                    value: -INFINITY,
                    taint: 0,
                };
            }
            // An answer after which the move cannot end is not one the opponent has.
            if walked.value == -INFINITY || walked.value >= worst {
                continue;
            }
            worst = walked.value;
            worst_line = Some((self.root_best.clone(), self.pv[turn.ply].clone()));
            beta = beta.min(worst);
            if worst <= alpha {
                break;
            }
        }
        let Some((best, line)) = worst_line else {
            self.root_best = entry_best;
            self.pv[turn.ply] = entry_pv;
            return Walked {
                value: -INFINITY,
                taint,
            };
        };
        if worst > alpha {
            self.root_best = best;
            self.pv[turn.ply] = line;
        } else {
            self.root_best = entry_best;
            self.pv[turn.ply] = entry_pv;
        }
        Walked {
            value: worst,
            taint,
        }
    }

    /// The evaluation once captures are played out, up to `plies` deep: the side to move
    /// may stand on the evaluation or take a capture (a capture changes the material the
    /// evaluation counts most, so an evaluation just before one misleads). Values stay
    /// within the evaluation's range: a side left without moves here counts as
    /// `-EVAL_LIMIT`, never as a proven loss, since the line to it is not a full search.
    fn quiescence(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        plies: u32,
    ) -> i32 {
        let mut laps = None;
        let stand = self.shared.eval.evaluate_keeping_laps(board, &mut laps);
        if plies == 0 || stand >= beta || ply + 1 >= self.pv.len() {
            return stand;
        }
        alpha = alpha.max(stand);
        let laps = laps.unwrap_or_else(|| self.shared.variant.first_laps(board, board.to_move()));
        let pits = match self.shared.quiescence_moves {
            QuiescenceMoves::AllCaptures => self.shared.variant.candidate_pits(board),
            QuiescenceMoves::FirstLap => laps.capturing,
        };
        if pits == 0 {
            return stand;
        }
        // A pit at a time, the likeliest first: a capture good enough ends the search
        // before the other pits are listed.
        let (lanes, count) = self.pit_order(board, pits, &laps.takes);
        let mut node = Standing {
            best: stand,
            alpha,
            beta,
        };
        let mut moved = false;
        let walked = self.shared.variant.has_retreat();
        for &lane in &lanes[..count] {
            if walked {
                let step = self
                    .shared
                    .variant
                    .begin_move(board, lane + 1, &mut self.walks[ply]);
                let window = (node.alpha, beta);
                let Some(value) = self.quiescence_walk(step, stand, window, ply, plies) else {
                    continue;
                };
                moved = true;
                if self.stopped() || node.raise(value) {
                    break;
                }
                continue;
            }
            let (children, _) = self.children_from(board, ply, NO_MOVE, 1 << lane, None);
            moved |= !children.is_empty();
            let mut done = false;
            for child in children.iter().filter(|c| c.order >= CAPTURE_ORDER) {
                self.count_node();
                let value = -self.quiescence(&child.board, -beta, -node.alpha, ply + 1, plies - 1);
                if self.stopped() || node.raise(value) {
                    done = true;
                    break;
                }
            }
            self.give_back(ply, children);
            if done {
                break;
            }
        }
        let best = node.best;
        match self.shared.quiescence_moves {
            QuiescenceMoves::AllCaptures if !moved => -EVAL_LIMIT,
            // (Under `FirstLap` other pits may still move.)
            _ => best,
        }
    }

    /// Under the retreat, where a list of a pit's results would let the mover pick the
    /// opponent's answers, the quiescence value of where a walk of the pit stands: at a
    /// choice of the mover's the better branch, at an answer the worse for the mover (the
    /// answerer's choice), a move that captures nothing worth `stand` (the mover may
    /// stand instead; an answer that leaves it so holds the mover to that), a dead
    /// sequence none. Values are the mover's.
    fn quiescence_walk(
        &mut self,
        step: MoveStep,
        stand: i32,
        (mut alpha, mut beta): (i32, i32),
        ply: usize,
        plies: u32,
    ) -> Option<i32> {
        let (point, mover_decides) = match step {
            MoveStep::Dead { .. } => return None,
            MoveStep::End { captured: 0, .. } => return Some(stand),
            MoveStep::End { child, .. } => {
                self.count_node();
                return Some(-self.quiescence(&child, -beta, -alpha, ply + 1, plies - 1));
            }
            MoveStep::Choice(point) => (point, true),
            MoveStep::Answer(point) => (point, false),
        };
        let mut found: Option<i32> = None;
        for first in [true, false] {
            let next = self
                .shared
                .variant
                .choose(&point, first, &mut self.walks[ply]);
            let Some(value) = self.quiescence_walk(next, stand, (alpha, beta), ply, plies) else {
                continue;
            };
            if mover_decides {
                found = Some(found.map_or(value, |f| f.max(value)));
                alpha = alpha.max(value);
            } else {
                found = Some(found.map_or(value, |f| f.min(value)));
                beta = beta.min(value);
            }
            if alpha >= beta || self.stopped() {
                break;
            }
        }
        found
    }

    /// One root move searched with the window `(alpha, beta)`; the value is from the
    /// root's side.
    fn search_root_move(
        &mut self,
        root: &Board,
        mv: &mut RootMove,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.count_node();
        if mv.by_choices {
            return self.search_root_pit(root, mv, depth, alpha, beta);
        }
        self.path.push(root.hash());
        let value = -self.negamax(&mv.child.board, depth - 1, -beta, -alpha, 1);
        self.path.pop();
        if !self.stopped() {
            mv.value = value;
            mv.exact = value > alpha && value < beta;
            mv.pv.clear();
            mv.pv.push(mv.child.board);
            mv.pv.extend_from_slice(&self.pv[1]);
        }
        value
    }

    /// A root pit searched choice by choice: its best move is the one whose result
    /// last raised alpha.
    fn search_root_pit(
        &mut self,
        root: &Board,
        mv: &mut RootMove,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.path.push(root.hash());
        self.root_choices.clear();
        self.root_best = None;
        let turn = Turn {
            depth,
            ply: 0,
            choices: 0,
            searched: false,
        };
        let value = self.walk_pit(root, mv.child.pit, turn, alpha, beta);
        self.path.pop();
        if !self.stopped() {
            mv.value = value;
            mv.exact = value > alpha && value < beta;
            if let Some(choices) = self.root_best.take() {
                mv.mv = Move {
                    pit: mv.child.pit,
                    choices,
                };
                mv.pv = self.pv[0].clone();
            }
        }
        value
    }

    /// Single-PV root: PVS over the root moves in the window; returns the best value.
    fn root_pvs(
        &mut self,
        root: &Board,
        moves: &mut [RootMove],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITY;
        for i in 0..moves.len() {
            let mut mv = moves[i].clone();
            let value = if i == 0 {
                self.search_root_move(root, &mut mv, depth, alpha, beta)
            } else {
                let probe = self.search_root_move(root, &mut mv, depth, alpha, alpha + 1);
                if probe > alpha && probe < beta && !self.stopped() {
                    self.search_root_move(root, &mut mv, depth, alpha, beta)
                } else {
                    probe
                }
            };
            if self.stopped() {
                return best;
            }
            moves[i] = mv;
            if value > best {
                best = value;
                // Keep the best move first for the next iteration and the report.
                moves[..=i].rotate_right(1);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Multi-PV root: every move is searched with a window that opens above the K-th
    /// best value so far, so the K best get exact values.
    fn root_multipv(&mut self, root: &Board, moves: &mut [RootMove], depth: u32, k: usize) {
        for i in 0..moves.len() {
            let mut kth = moves[..i]
                .iter()
                .filter(|m| m.exact)
                .map(|m| m.value)
                .collect::<Vec<_>>();
            kth.sort_unstable_by(|a, b| b.cmp(a));
            let alpha = if kth.len() >= k {
                kth[k - 1]
            } else {
                -INFINITY
            };
            let mut mv = moves[i].clone();
            self.search_root_move(root, &mut mv, depth, alpha, INFINITY);
            if self.stopped() {
                return;
            }
            moves[i] = mv;
        }
        moves.sort_by_key(|m| (std::cmp::Reverse(m.exact), std::cmp::Reverse(m.value)));
    }

    /// Iterative deepening. The main thread (`report` given) reports each completed depth
    /// and decides when to stop; helpers search the same tree to fill the table.
    fn iterate(
        &mut self,
        root: &Board,
        mut moves: Vec<RootMove>,
        first_depth: u32,
        multipv: usize,
        mut report: Option<&mut dyn FnMut(&Progress)>,
    ) -> (Vec<RootMove>, u32) {
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut completed: (Vec<RootMove>, u32) = (moves.clone(), 0);
        let mut previous = 0;
        // The best move and value of the last completed depth, to see whether the best
        // move is settled.
        let mut last_best: Option<(u32, i32)> = None;
        for depth in first_depth..=max_depth {
            if multipv > 1 {
                self.root_multipv(root, &mut moves, depth, multipv);
            } else {
                previous = self.aspiration(root, &mut moves, depth, previous);
            }
            if self.stopped() && completed.1 > 0 {
                break;
            }
            if self.stopped() {
                // Limits apply from the start where the root has pits too many moves
                // to list (`Shared::armed`): the first iteration was cut short.
                completed = (self.cut_short(moves), 0);
                break;
            }
            completed = (moves.clone(), depth);
            if let Some(report) = report.as_mut() {
                self.shared.armed.store(true, Ordering::Relaxed);
                let best = &moves[0];
                let progress = Progress {
                    depth,
                    score: Score::from_value(best.value),
                    pv: line_moves(self.shared.variant, root, &best.mv, &best.pv),
                    nodes: self.shared.nodes.load(Ordering::Relaxed) + self.pending_nodes,
                    time: self.shared.start.elapsed(),
                    hashfull: self.shared.tt.hashfull(),
                };
                report(&progress);
                let unsettled = last_best.is_some_and(|(index, value)| {
                    index != best.child.index || best.value < value - UNSETTLED_DROP
                });
                last_best = Some((best.child.index, best.value));
                if self.finished(&moves, depth, multipv, unsettled) {
                    break;
                }
            }
            if self.stopped() {
                break;
            }
        }
        completed
    }

    /// The answer of a first iteration cut short: the moves searched by their values
    /// (proven ones only where exact), the others by the evaluation of a result.
    fn cut_short(&self, mut moves: Vec<RootMove>) -> Vec<RootMove> {
        for m in &mut moves {
            if m.value == -INFINITY {
                let reached = m.pv.first().copied().unwrap_or(m.child.board);
                m.value = -self.shared.eval.evaluate(&reached);
            } else if !m.exact && is_proven(m.value) {
                m.value = m.value.clamp(-EVAL_LIMIT, EVAL_LIMIT);
            }
            m.exact = false;
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        moves
    }

    /// Aspiration windows around the previous value, widened until the value fits.
    fn aspiration(
        &mut self,
        root: &Board,
        moves: &mut [RootMove],
        depth: u32,
        previous: i32,
    ) -> i32 {
        let mut width = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= 3 && !is_proven(previous) {
            (previous - width, previous + width)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let value = self.root_pvs(root, moves, depth, alpha, beta);
            if self.stopped() {
                return value;
            }
            if value <= alpha && alpha > -INFINITY {
                alpha = if is_proven(value) {
                    -INFINITY
                } else {
                    (alpha - width).max(-INFINITY)
                };
            } else if value >= beta && beta < INFINITY {
                beta = if is_proven(value) {
                    INFINITY
                } else {
                    (beta + width).min(INFINITY)
                };
            } else {
                return value;
            }
            width *= ASPIRATION_GROWTH;
        }
    }

    /// Whether the main thread may stop: a proven result whose length the completed depth
    /// covers is exact; and with a time limit, an iteration that would not finish is not
    /// worth starting. On a clock (a target time), a proven best move is enough, and the
    /// next iteration is started only if it would end near the target, or well past it
    /// while the best move is `unsettled`.
    fn finished(&self, moves: &[RootMove], depth: u32, multipv: usize, unsettled: bool) -> bool {
        let shown = &moves[..multipv.min(moves.len())];
        let exact = shown.iter().all(|m| {
            let score = Score::from_value(m.value);
            matches!(score, Score::Win(p) | Score::Loss(p) if p <= depth)
        });
        if exact {
            return true;
        }
        let spent = self.shared.start.elapsed();
        if let Some(target) = self.shared.limits.soft_time {
            if is_proven(moves[0].value) {
                return true;
            }
            let stretch = if unsettled { UNSETTLED_STRETCH } else { 1.0 };
            if spent.mul_f64(ITERATION_GROWTH) > target.mul_f64(stretch) {
                return true;
            }
        }
        match self.shared.deadline {
            Some(deadline) => deadline.saturating_duration_since(Instant::now()) < spent,
            None => false,
        }
    }
}

/// Moves ordered fully before the first are searched; the rest of a long list (Igisoro
/// positions can have tens of thousands of moves) is ordered only if the search gets
/// that far without a cut-off.
const ORDERED_FIRST: usize = 32;

/// Orders `list[from..]` best first: all of it when short, else only its best
/// `ORDERED_FIRST` entries (the rest stays behind them). Ties keep generation order.
fn order_front(list: &mut [Child], from: usize) {
    let key = |c: &Child| (std::cmp::Reverse(c.order), c.index);
    let rest = &mut list[from..];
    if from == 0 && rest.len() > ORDERED_FIRST {
        rest.select_nth_unstable_by_key(ORDERED_FIRST, key);
        rest[..ORDERED_FIRST].sort_unstable_by_key(key);
    } else {
        rest.sort_unstable_by_key(key);
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
            storable_laps: variant.rules().max_laps / 2,
            walk: self.config.walk,
            optional: variant.rules().capture_choice == isolo_rules::CaptureChoice::Optional,
            dead_ends: variant.rules().dead_position != isolo_rules::DeadPosition::PlayOn
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
                        score: Score::from_value(m.value),
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
                    complete_proven_line(variant, &root, &request.history, &mut boards, wanted);
                }
                Line {
                    mv: m.mv.clone(),
                    score: Score::from_value(m.value),
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

/// The root's moves as `generate` lists them (complete: no point limit applies to
/// walked pits); a walked pit is searched choice by choice, and its `mv` starts as its
/// first legal move. A pit without one is left out.
fn root_moves(variant: &Variant, root: &Board, walk: ChoiceWalk) -> Vec<RootMove> {
    let mut gen = move_generator();
    let mut list = Vec::new();
    generate(
        variant,
        root,
        variant.candidate_pits(root),
        Some(walk),
        &mut gen,
        &[0; 16],
        &mut list,
    );
    let firsts = if list.iter().any(|c| c.walk) {
        variant.first_move_of_each_pit(root, &mut gen)
    } else {
        Vec::new()
    };
    // The listed results' moves (the same listing, with the choices kept).
    let mut named = std::collections::HashMap::new();
    variant.visit_moves(root, Variant::ALL_PITS, Listing::Distinct, &mut gen, |m| {
        named.entry(m.child.hash()).or_insert_with(|| m.mv());
    });
    list.iter()
        .filter_map(|c| {
            let (mv, first_child) = if c.walk {
                let first = firsts.iter().find(|m| m.mv.pit == c.pit)?;
                (first.mv.clone(), first.child)
            } else {
                (named.get(&c.board.hash())?.clone(), c.board)
            };
            Some(RootMove {
                child: *c,
                by_choices: c.walk,
                pv: vec![first_child],
                mv,
                value: -INFINITY,
                exact: false,
            })
        })
        .collect()
}

/// The moves of a root move's line of positions `boards` (the first reached by `first`).
fn line_moves(variant: &Variant, root: &Board, first: &Move, boards: &[Board]) -> Vec<Move> {
    let Some((after_first, rest)) = boards.split_first() else {
        return vec![first.clone()];
    };
    let mut line = vec![first.clone()];
    line.extend(moves_of_boards(variant, after_first, rest));
    debug_assert!(variant
        .play_move(root, first)
        .is_some_and(|m| m.child == *after_first));
    line
}

/// The position the table's best move at `board` leads to, if the table has one; for a
/// walked pit, the result each choice point's better branch leads to.
fn table_child(
    tt: &TranspositionTable,
    variant: &Variant,
    board: &Board,
    mode: ChoiceWalk,
    gen: &mut MoveGen,
    walk: &mut MoveWalk,
) -> Option<Board> {
    let code = tt.probe(board.hash())?.best;
    let mut scratch = Vec::new();
    let found = find_coded(variant, board, code, mode, gen, &[0; 16], &mut scratch)?;
    if scratch.iter().filter(|c| c.code() == code).count() > 1 {
        // Two results share the code's fingerprint: which one is meant is not known.
        return None;
    }
    if !found.walk {
        return Some(found.board);
    }
    let mut step = variant.begin_move(board, found.pit, walk);
    loop {
        match step {
            MoveStep::End { child, .. } => return Some(child),
            MoveStep::Dead { .. } => return None,
            MoveStep::Choice(point) => {
                let take = tt.probe(point.key())?.best != PASS;
                step = variant.choose(&point, take, walk);
            }
            // The opponent's answer is not stored: the line stops short of it.
            MoveStep::Answer(_) => return None,
        }
    }
}

/// Lengthens a line cut short by table hits with the table's best moves, up to `wanted`
/// plies, stopping at a repetition or the end of the game.
fn extend_from_table(
    tt: &TranspositionTable,
    variant: &Variant,
    mode: ChoiceWalk,
    root: &Board,
    line: &mut Vec<Board>,
    wanted: usize,
) {
    let mut seen: Vec<u64> = std::iter::once(root)
        .chain(line.iter())
        .map(|b| b.hash())
        .collect();
    let mut board = *line.last().unwrap_or(root);
    let (mut gen, mut walk) = (move_generator(), MoveWalk::new());
    while line.len() < wanted {
        let Some(next) = table_child(tt, variant, &board, mode, &mut gen, &mut walk) else {
            return;
        };
        if seen.contains(&next.hash()) {
            return;
        }
        seen.push(next.hash());
        line.push(next);
        board = next;
    }
}

/// Table size for the searches that complete a proven line.
const LINE_HASH_MB: usize = 1;

/// Completes a proven line cut short (its table entries overwritten): the position at its
/// end is itself proven to end within the plies left, so a search to that depth finds how.
fn complete_proven_line(
    variant: &Variant,
    root: &Board,
    history: &[u64],
    line: &mut Vec<Board>,
    wanted: usize,
) {
    while line.len() < wanted {
        let mut path = history.to_vec();
        path.push(root.hash());
        path.extend(
            line[..line.len().saturating_sub(1)]
                .iter()
                .map(|b| b.hash()),
        );
        let board = *line.last().unwrap_or(root);
        let left = (wanted - line.len()) as u32;
        let Ok(mut searcher) = AlphaBeta::new(AlphaBetaConfig {
            threads: 1,
            hash_mb: LINE_HASH_MB,
            ..AlphaBetaConfig::default()
        }) else {
            return; // No memory for a 1 MB table: the line stays as long as it is.
        };
        let request = SearchRequest {
            variant,
            board,
            history: path,
            limits: Limits {
                depth: Some(left),
                ..Limits::default()
            },
            multipv: 1,
            pv_lines: usize::MAX,
            stop: None,
        };
        let more = search_boards(&mut searcher, &request);
        if more.is_empty() {
            return;
        }
        line.extend(more);
    }
}

/// The positions of the best line of a search (without completing it further).
fn search_boards(searcher: &mut AlphaBeta, request: &SearchRequest) -> Vec<Board> {
    let result = searcher.search(request, &mut |_| {});
    let Some(best) = result.best() else {
        return Vec::new();
    };
    let mut board = request.board;
    let mut boards = Vec::new();
    for mv in &best.pv {
        let Some(played) = request.variant.play_move(&board, mv) else {
            break;
        };
        board = played.child;
        boards.push(board);
    }
    boards
}

/// Lazy SMP: helpers search the same root from staggered depths with rotated move
/// orders, sharing the table; the main thread's completed iterations are the answer.
fn lazy_smp(
    shared: &Shared,
    history: &[u64],
    root: &Board,
    root_moves: Vec<RootMove>,
    multipv: usize,
    threads: usize,
    report: &mut dyn FnMut(&Progress),
) -> (Vec<RootMove>, u32) {
    // The main thread searches on the caller's thread (its report callback stays there);
    // the helpers run on a pool of their own.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads - 1)
        .stack_size(HELPER_STACK_BYTES)
        .build()
        .expect("search threads start");
    pool.in_place_scope(|scope| {
        for id in 1..threads {
            let mut moves = root_moves.clone();
            let rotation = id % moves.len();
            moves.rotate_left(rotation);
            scope.spawn(move |_| {
                let mut helper = Worker::new(shared, history);
                helper.iterate(root, moves, 1 + (id as u32 % 2), 1, None);
                helper.flush_nodes();
            });
        }
        let mut main = Worker::new(shared, history);
        let result = main.iterate(root, root_moves, 1, multipv, Some(&mut *report));
        main.flush_nodes();
        shared.stop.raise();
        result
    })
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
