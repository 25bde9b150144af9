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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::score::{from_table, to_table};
use super::tt::{Bound, Entry, TableError, TranspositionTable, NO_MOVE};
use super::{
    is_proven, loss_in, move_generator, moves_of_line, searched_children, searched_moves, win_in,
    Limits, Line, Progress, Score, SearchRequest, SearchResult, Searcher, DRAW, INFINITY,
    UNPROVEN_LOSS, UNSETTLED_STRETCH,
};
use crate::eval::{Evaluator, Weights, EVAL_LIMIT};
use crate::rules::moves::dedup_by_position;
use crate::rules::{Board, MoveGen, Variant};

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
/// Ordering bonus per captured seed (above any history score).
const CAPTURE_ORDER: i32 = 1 << 20;
/// History scores are halved when one passes this.
const HISTORY_MAX: i32 = 1 << 18;

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
        }
    }
}

/// Plies of captures past the horizon, by default: enough to settle the exchange a
/// capture starts (a capture, the reply that takes back) without the cost of long chains.
pub const DEFAULT_QUIESCENCE_PLIES: u32 = 2;

/// The alpha-beta searcher; its table lives across searches (a game's moves share it).
pub struct AlphaBeta {
    config: AlphaBetaConfig,
    tt: TranspositionTable,
}

impl AlphaBeta {
    /// A searcher with a table of `config.hash_mb` MB, or why the table cannot be made.
    pub fn new(config: AlphaBetaConfig) -> Result<AlphaBeta, TableError> {
        let tt = TranspositionTable::new(config.hash_mb)?;
        Ok(AlphaBeta { config, tt })
    }
}

/// A generated move, as the search keeps it.
#[derive(Clone, Copy, Debug)]
struct Child {
    board: Board,
    /// Generation-order index (how moves are named in the table and the PV).
    index: u32,
    pit: u8,
    order: i32,
}

/// What all threads of one search share.
struct Shared<'a> {
    variant: &'a Variant,
    optional_captures: bool,
    eval: Evaluator,
    tt: &'a TranspositionTable,
    stop: AtomicBool,
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
            || self
                .external_stop
                .is_some_and(|s| s.load(Ordering::Relaxed))
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
    pv: Vec<Vec<u32>>,
}

/// A root move with its latest score.
#[derive(Clone, Debug)]
struct RootMove {
    child: Child,
    value: i32,
    /// Whether `value` is exact (not a bound from a null-window or multi-PV cut).
    exact: bool,
    pv: Vec<u32>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, history: &[u64]) -> Worker<'a> {
        Worker {
            shared,
            gen: move_generator(),
            pending_nodes: 0,
            nodes: 0,
            path: history.to_vec(),
            history: [[0; 16]; 2],
            buffers: Vec::new(),
            pv: vec![Vec::new(); MAX_DEPTH as usize + 2],
        }
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
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
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
    }

    /// The children of `board`, ordered best first, in a buffer of this ply, and whether
    /// legal results were left out (see `POINTS_PER_PIT`).
    fn children(&mut self, board: &Board, ply: usize, table_move: u16) -> (Vec<Child>, bool) {
        let pits = self.shared.variant.candidate_pits(board);
        self.children_from(board, ply, table_move, pits)
    }

    /// `children` of the moves from `pits` only (a bit set as from `candidate_pits`).
    fn children_from(
        &mut self,
        board: &Board,
        ply: usize,
        table_move: u16,
        pits: u32,
    ) -> (Vec<Child>, bool) {
        let mut list = if ply < self.buffers.len() {
            std::mem::take(&mut self.buffers[ply])
        } else {
            Vec::new()
        };
        list.clear();
        let side = board.to_move() as usize;
        let history = &self.history[side];
        self.shared
            .variant
            .for_each_distinct_result_from(board, pits, &mut self.gen, |m| {
                list.push(Child {
                    board: m.child,
                    index: 0,
                    pit: m.pit,
                    order: m.captured.min(255) as i32 * CAPTURE_ORDER
                        + history[(m.pit - 1) as usize],
                });
            });
        let truncated = self.gen.truncated();
        if self.shared.optional_captures {
            // The shared list's order: each position once, under its first move.
            dedup_by_position(&mut list, |c| &c.board);
        }
        for (index, child) in list.iter_mut().enumerate() {
            child.index = index as u32;
        }
        if let Some(hinted) = list.get_mut(table_move as usize) {
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
        let (mut children, truncated) = self.children(board, ply, table_move);
        if children.is_empty() {
            self.give_back(ply, children);
            return loss_in(ply as i32);
        }
        // 5. Principal variation search over the ordered moves.
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE as u32;
        self.path.push(key);
        for i in 0..children.len() {
            if i == ORDERED_FIRST && children.len() > ORDERED_FIRST {
                order_front(&mut children, ORDERED_FIRST);
            }
            let child = children[i];
            self.count_node();
            let value = if i == 0 {
                -self.negamax(&child.board, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(&child.board, depth - 1, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta {
                    -self.negamax(&child.board, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            if self.stopped() {
                break;
            }
            if value > best {
                best = value;
                best_move = child.index;
                if value > alpha {
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(child.index);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        self.reward_history(board, child.pit, depth);
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.give_back(ply, children);
        if self.stopped() {
            return DRAW;
        }
        if truncated && best < UNPROVEN_LOSS {
            // Unexamined moves may hold a defence.
            best = UNPROVEN_LOSS;
        }
        // 6. Remember.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            value: to_table(best, ply),
            best: best_move.min(NO_MOVE as u32) as u16,
            depth: depth.min(255) as u8,
            bound,
        };
        self.shared.tt.store(key, entry);
        best
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
        let stand = self.shared.eval.evaluate(board);
        if plies == 0 || stand >= beta || ply + 1 >= self.pv.len() {
            return stand;
        }
        alpha = alpha.max(stand);
        let variant = self.shared.variant;
        let pits = match self.shared.quiescence_moves {
            QuiescenceMoves::AllCaptures => variant.candidate_pits(board),
            QuiescenceMoves::FirstLap => variant.first_laps(board, board.to_move()).capturing,
        };
        if pits == 0 {
            return stand;
        }
        let (children, _) = self.children_from(board, ply, NO_MOVE, pits);
        if children.is_empty() {
            self.give_back(ply, children);
            return match self.shared.quiescence_moves {
                QuiescenceMoves::AllCaptures => -EVAL_LIMIT,
                // Other pits may still move.
                QuiescenceMoves::FirstLap => stand,
            };
        }
        let mut best = stand;
        for child in children.iter().filter(|c| c.order >= CAPTURE_ORDER) {
            self.count_node();
            let value = -self.quiescence(&child.board, -beta, -alpha, ply + 1, plies - 1);
            if self.stopped() {
                break;
            }
            if value > best {
                best = value;
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.give_back(ply, children);
        best
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
        self.path.push(root.hash());
        let value = -self.negamax(&mv.child.board, depth - 1, -beta, -alpha, 1);
        self.path.pop();
        if !self.stopped() {
            mv.value = value;
            mv.exact = value > alpha && value < beta;
            mv.pv.clear();
            mv.pv.push(mv.child.index);
            mv.pv.extend_from_slice(&self.pv[1]);
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
            completed = (moves.clone(), depth);
            if let Some(report) = report.as_mut() {
                self.shared.armed.store(true, Ordering::Relaxed);
                let best = &moves[0];
                let progress = Progress {
                    depth,
                    score: Score::from_value(best.value),
                    pv: moves_of_line(self.shared.variant, root, &best.pv),
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
        let shared = Shared {
            variant,
            optional_captures: variant.rules().capture_choice
                == crate::rules::CaptureChoice::Optional,
            eval: Evaluator::for_config(variant, self.config.weights.as_ref()),
            tt: &self.tt,
            stop: AtomicBool::new(false),
            armed: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limits,
            deadline: limits.time.map(|t| start + t),
            start,
            external_stop: request.stop,
            quiescence: self.config.quiescence,
            quiescence_moves: self.config.quiescence_moves,
        };
        let root = request.board;
        let (legal, root_truncated) = searched_moves(variant, &root);
        let root_moves: Vec<RootMove> = legal
            .iter()
            .enumerate()
            .map(|(i, m)| RootMove {
                child: Child {
                    board: m.child,
                    index: i as u32,
                    pit: m.mv.pit,
                    order: 0,
                },
                value: -INFINITY,
                exact: false,
                pv: vec![i as u32],
            })
            .collect();
        let multipv = request.multipv.clamp(1, root_moves.len().max(1));
        let threads = self.config.threads.max(1);
        let (moves, depth) = if root_moves.is_empty() {
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
        };
        let lines = moves
            .iter()
            .take(multipv)
            .map(|m| {
                let mut indices = m.pv.clone();
                let wanted = match Score::from_value(m.value) {
                    Score::Win(p) | Score::Loss(p) => p as usize,
                    _ => depth as usize,
                };
                extend_from_table(&self.tt, variant, &root, &mut indices, wanted);
                if is_proven(m.value) && indices.len() < wanted {
                    complete_proven_line(variant, &root, &request.history, &mut indices, wanted);
                }
                let pv = moves_of_line(variant, &root, &indices);
                let value = if root_truncated {
                    m.value.max(UNPROVEN_LOSS)
                } else {
                    m.value
                };
                Line {
                    mv: legal[m.child.index as usize].mv.clone(),
                    score: Score::from_value(value),
                    pv,
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

/// Lengthens a line cut short by table hits with the table's best moves, up to `wanted`
/// plies, stopping at a repetition or the end of the game.
fn extend_from_table(
    tt: &TranspositionTable,
    variant: &Variant,
    root: &Board,
    line: &mut Vec<u32>,
    wanted: usize,
) {
    let mut board = *root;
    let mut seen = vec![board.hash()];
    let mut gen = move_generator();
    let mut children = Vec::new();
    let mut step = 0;
    while step < wanted {
        children.clear();
        searched_children(variant, &board, &mut gen, &mut children);
        let index = match line.get(step) {
            Some(&index) => index,
            None => match tt.probe(board.hash()) {
                Some(entry) if (entry.best as usize) < children.len() => {
                    line.push(entry.best as u32);
                    entry.best as u32
                }
                _ => return,
            },
        };
        let Some(&next) = children.get(index as usize) else {
            return;
        };
        if seen.contains(&next.hash()) {
            line.truncate(step + 1);
            return;
        }
        seen.push(next.hash());
        board = next;
        step += 1;
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
    line: &mut Vec<u32>,
    wanted: usize,
) {
    while line.len() < wanted {
        let mut board = *root;
        let mut path = history.to_vec();
        for &index in line.iter() {
            let mut children = Vec::new();
            searched_children(variant, &board, &mut move_generator(), &mut children);
            path.push(board.hash());
            board = children[index as usize];
        }
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
            stop: None,
        };
        let more = search_indices(&mut searcher, &request);
        if more.is_empty() {
            return;
        }
        line.extend(more);
    }
}

/// The move indices of the best line of a search (without completing it further).
fn search_indices(searcher: &mut AlphaBeta, request: &SearchRequest) -> Vec<u32> {
    let result = searcher.search(request, &mut |_| {});
    let Some(best) = result.best() else {
        return Vec::new();
    };
    let mut board = request.board;
    let mut indices = Vec::new();
    for mv in &best.pv {
        let (moves, _) = searched_moves(request.variant, &board);
        let Some(i) = moves.iter().position(|m| &m.mv == mv) else {
            break;
        };
        indices.push(i as u32);
        board = moves[i].child;
    }
    indices
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
        shared.stop.store(true, Ordering::Relaxed);
        result
    })
}
