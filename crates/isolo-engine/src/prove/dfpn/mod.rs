//! Depth-first proof-number search (df-pn, Nagai 2002): a second prover for deep,
//! narrow wins, where the iterative-deepening alpha-beta prover of `solve` must search
//! every line to the proof's full length.
//!
//! One search asks whether a fixed side, the attacker, can force a win: at the
//! attacker's nodes one proven move suffices (an OR node), at the defender's every move
//! must be proven (an AND node). Proof and disproof numbers (how many leaves must still
//! be proven, or disproven) steer it to the cheapest part of the tree, depth first
//! under thresholds, with the numbers kept in a table. A side without a legal move
//! loses. A position repeating one of the game or of the current path counts as a
//! failure for the attacker (a draw is not a win), and so does a defender's position
//! whose moves the generator could not list whole: so repetitions and cut lists can
//! only hide wins, never make one. A defender's fortress (`rules::fortress`: seeds that
//! can never be captured) is a failure too, and a true one: no win passes through it.
//!
//! Why a proof holds on every path though repetitions depend on the path: a node is
//! proven only from children proven before it, ending in positions where the defender
//! has no move; no repetition is ever part of a proof. Following the proof, each move
//! leads to a position proven earlier, so the attacker's play never repeats a position,
//! whatever the game before it. Disproofs (the attacker fails) can depend on the path;
//! the table keeps them anyway, so a search may miss a win (and answer unknown), never
//! invent one. A win is a proof with the side to move attacking, a loss a proof with
//! its opponent attacking. Several agents (threads) may search at once on one table
//! (`table.rs`), each from the root.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod table;

use super::move_tree::{Kid, MoveTree};
use table::{Table, View, INFINITE};

use crate::search::searched_moves;
use isolo_rules::Fortresses;
use isolo_rules::KeySet;
use isolo_rules::{Board, LegalMove, Move, Side, Variant};

pub use table::BYTES_PER_ENTRY;

/// How far and how long a search may go.
#[derive(Clone, Copy, Debug)]
pub struct DfpnLimits {
    /// Positions expanded at most, both searches together.
    pub nodes: u64,
    /// Wall time at most.
    pub time: Option<Duration>,
    /// Plies from the root past which a line counts as a failure for the attacker.
    pub max_depth: u32,
    /// Table slots at most, both searches together (rounded down to a power of two):
    /// in a full bucket an unsolved entry goes before a disproof before a proof.
    pub table_entries: usize,
    /// Whether to read the winner's strategy out of the table after a proof (for a
    /// certificate).
    pub strategy: bool,
    /// Agents searching at once on a shared table (threads; 1: the plain sequential
    /// df-pn, deterministic).
    pub threads: usize,
    /// A flag that stops the search when set (Ctrl-C), as the time limit would.
    pub interrupt: Option<&'static AtomicBool>,
    /// Which results are looked for.
    pub sought: Sought,
}

/// The results a df-pn run looks for: a search of its own each, on one table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sought {
    /// A win for the side to move, then a loss, with half the nodes and time each.
    #[default]
    Either,
    /// A win for the side to move only, with every node and all the time.
    Win,
    /// A loss for the side to move (a win for its opponent) only.
    Loss,
}

impl Sought {
    /// The name used on the command line and in `solve --json`.
    pub fn name(self) -> &'static str {
        match self {
            Sought::Either => "either",
            Sought::Win => "win",
            Sought::Loss => "loss",
        }
    }
}

/// What df-pn established for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DfpnVerdict {
    /// The side to move can force a win (in some number of plies, not computed).
    Win,
    /// Its opponent can force a win.
    Loss,
    /// Neither proven within the limits.
    Unknown,
}

/// The answer of `solve`.
#[derive(Clone, Debug)]
pub struct DfpnResult {
    /// What was proven.
    pub verdict: DfpnVerdict,
    /// For a win, a winning move.
    pub best_move: Option<Move>,
    /// Positions expanded.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Table entries at the end.
    pub table_entries: usize,
    /// Whether the node or time limit ended a search.
    pub out_of_budget: bool,
    /// After a proof, when asked: the winner's move at each of its positions in the
    /// proof, or why the table no longer holds them.
    pub strategy: Option<Result<Vec<(Board, Move)>, String>>,
}

/// Progress of a search, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct DfpnProgress {
    /// The side whose win is being proven.
    pub attacker: Side,
    /// Positions expanded so far.
    pub nodes: u64,
    /// The root's proof and disproof numbers (`None`: infinite).
    pub proof: Option<u64>,
    /// The root's disproof number.
    pub disproof: Option<u64>,
    /// Table entries.
    pub table_entries: usize,
    /// Slots the table may grow to (both searches together).
    pub table_slots: usize,
}

/// A sum of proof or disproof numbers: infinite only where a term is, else at most one
/// less, so that many large finite terms never pass for a solved node (whose loop would
/// then stop making progress).
fn saturating_sum(a: u64, b: u64) -> u64 {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}

/// How far past the second-best sibling's number a child is searched before the search
/// turns back, in percent of that number: the 1 + epsilon trick (Pawlewicz and Lew).
/// Plain df-pn (the sibling's number plus one) thrashes between siblings of nearly
/// equal numbers, expanding the same positions again at each turn. Measured on the
/// women's capture-ends reading on 5 columns (a win): 15.2 M nodes plain, 5.8 M at 25%,
/// 5.0 M at 50%, 14.3 M at 100%.
const WIDENING_PERCENT: u64 = 50;

/// A child's threshold from the second-best sibling's number.
fn widened(second: u64) -> u64 {
    second.saturating_add(1 + second.saturating_mul(WIDENING_PERCENT) / 100)
}

/// Positions expanded between two looks at the clock.
const DEADLINE_CHECK_EVERY: u64 = 1024;

/// Positions expanded between two progress reports.
const REPORT_EVERY: u64 = 1 << 16;

/// A position's numbers and, once proven, when (as saved).
#[derive(Clone, Copy, Debug)]
struct Entry {
    numbers: Numbers,
    /// 1 for the first position proven, 2 for the next...; 0 while unproven. A proof
    /// rests on children proven before it, so following ranks down never loops.
    proof_rank: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u64,
    disproof: u64,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers {
        proof: 1,
        disproof: 1,
    };
    const PROVEN: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
    };
    const DISPROVEN: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
    };

    fn solved(&self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}

/// What the agents of one search share.
struct Shared<'a> {
    variant: &'a Variant,
    attacker: Side,
    limits: DfpnLimits,
    history: &'a KeySet,
    table: &'a Table,
    /// `attacker` as an index.
    side: usize,
    /// Agents searching (1: the plain sequential df-pn).
    agents: usize,
    /// Positions expanded by every search so far.
    nodes: AtomicU64,
    node_budget: u64,
    /// When this search must stop.
    deadline: Option<Instant>,
    /// Set when an agent proved the root or found the budget spent: every agent stops.
    halt: AtomicBool,
    report: &'a (dyn Fn(&DfpnProgress) + Sync),
    root_hash: u64,
    /// The defender's rings that can never be captured (`rules::fortress`), where the
    /// rules have them: the attacker cannot win there, whatever the path.
    fortresses: Option<Arc<Fortresses>>,
    /// An unsearched child's numbers by the seeds each side holds.
    material: MaterialWeights,
}

/// How steeply an unsearched child's numbers follow the seeds: a side's number (the
/// proof number for the attacker's win, the disproof number for the defender's hold)
/// is multiplied by 2 to the power of this times its opponent's lead, as a share of all
/// seeds. A win takes seeds, so a position where the attacker is far ahead takes few
/// proofs. Measured (`solve --method dfpn --max-plies 1000`, nodes) on the women's
/// capture-ends reading on 5 columns, the boys' on 4 columns with 1 seed and the boys'
/// `capture = both` on 7 columns: 1.66 M, 1.67 M and 0.51 M by mobility alone; 0.79 M,
/// 0.40 M and 0.11 M at 4, as here. A sweep with the leaves' product rounded instead (a
/// first version): at 1 2.16 M, 1.00 M, 0.13 M; at 2 1.37 M, 0.63 M, 0.17 M; at 3
/// 0.53 M, 0.53 M, 0.13 M; at 4 0.56 M, 0.50 M, 0.11 M; at 5 0.42 M, 0.40 M, 0.15 M; at
/// 6 0.65 M, 0.42 M, 0.16 M; at 8 0.58 M, 0.64 M, 0.27 M: from 3 to 6 about the same.
const MATERIAL_STEEPNESS: f64 = 4.0;

/// An unsearched child's number where the seeds are even, per leaf its mobility counts:
/// a unit fine enough for a seed's difference to show.
const MATERIAL_UNIT: f64 = 16.0;

/// The factors of `MATERIAL_STEEPNESS` for every split of the root's seeds (sowing and
/// capturing move seeds, never remove them, so every position of a search has as many).
struct MaterialWeights {
    total: u32,
    /// By the seeds of the side whose number it weighs.
    by_own_seeds: Vec<u64>,
}

impl MaterialWeights {
    fn new(total: u32) -> MaterialWeights {
        MaterialWeights {
            total,
            by_own_seeds: (0..=total)
                .map(|own| Self::compute(own, total - own))
                .collect(),
        }
    }

    fn compute(own: u32, theirs: u32) -> u64 {
        let lead = (f64::from(theirs) - f64::from(own)) / f64::from((own + theirs).max(1));
        ((MATERIAL_UNIT * (MATERIAL_STEEPNESS * lead).exp2()).round() as u64).max(1)
    }

    /// The factor of a side's number where it holds `own` seeds and its opponent
    /// `theirs`.
    fn weight(&self, own: u32, theirs: u32) -> u64 {
        if own + theirs == self.total {
            self.by_own_seeds[own as usize]
        } else {
            Self::compute(own, theirs)
        }
    }
}

impl Shared<'_> {
    /// Whether the defender holds a fortress at `board`: a disproof that holds on
    /// every path, unlike the others.
    fn defender_holds(&self, board: &Board) -> bool {
        self.fortresses
            .as_ref()
            .is_some_and(|f| f.holds(board, self.attacker.opponent()))
            || self.dead_end_unwon(board)
    }

    /// Whether `board` is a dead position that the rules end (`dead_position`) without
    /// a win for the attacker: no line through it wins.
    fn dead_end_unwon(&self, board: &Board) -> bool {
        isolo_rules::dead_position_outcome(self.variant, board)
            .is_some_and(|outcome| outcome.winner != Some(self.attacker))
    }

    /// An unsearched position's numbers: a failure where the defender holds a
    /// fortress, else estimated from its mobility (as df-pn+ does): a position where
    /// the defender can start moves from many pits takes many proofs, one where the
    /// attacker can takes many disproofs; each weighed by the seeds the sides hold
    /// (`MATERIAL_STEEPNESS`). Measured on the women's capture-ends reading on 5
    /// columns: 2.0 M nodes by mobility against 5.0 M with (1, 1) for every unsearched
    /// child (an older table), 0.79 M by mobility and seeds.
    fn estimate(&self, board: &Board) -> Numbers {
        if self.defender_holds(board) {
            return Numbers::DISPROVEN;
        }
        let pits = u64::from(self.variant.candidate_pits(board).count_ones()).max(1);
        let (proof_leaves, disproof_leaves) = if board.to_move() == self.attacker {
            (1, pits)
        } else {
            (pits, 1)
        };
        let (attacker, defender) = (self.attacker, self.attacker.opponent());
        let (own, theirs) = (board.side_total(attacker), board.side_total(defender));
        Numbers {
            proof: proof_leaves * self.material.weight(own, theirs),
            disproof: disproof_leaves * self.material.weight(theirs, own),
        }
    }

    /// Whether the user interrupted.
    fn interrupted(&self) -> bool {
        crate::raised(self.limits.interrupt)
    }

    fn late(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A move's result at an expanded position, with the numbers it starts from until the
/// table has some (estimated once per expansion, not at each look).
struct Child {
    board: Board,
    estimate: Numbers,
}

/// A node's numbers from its children's, and which child to expand next.
struct Combined {
    numbers: Numbers,
    best: usize,
    /// The second-best child's number (proof at an OR node, disproof at an AND node),
    /// virtual: raised where other agents search it.
    second: u64,
}

/// A number raised for the agents searching its position (Kaneko's virtual proof and
/// disproof numbers): a child other agents work on looks that many times costlier, so
/// an agent picks another while it is nearly as cheap. Solved numbers stay.
fn virtual_number(number: u64, workers: u32) -> u64 {
    if number == 0 || number >= INFINITE {
        number
    } else {
        number
            .saturating_mul(1 + u64::from(workers))
            .min(INFINITE - 1)
    }
}

/// Iterations of a node's loop in a row whose numbers repeat recent ones before the
/// node counts as stuck in a seesaw.
const SEESAW_LIMIT: u32 = 32;

/// Recent numbers of a node's loop, to catch a seesaw: where positions transpose into
/// each other's subtrees, a child's numbers depend on the path (a repetition is a
/// failure for the attacker), so searching one child can undo what searching its
/// sibling did, and the node's numbers cycle without ever passing its thresholds.
#[derive(Default)]
struct Seesaw {
    recent: [Option<Numbers>; 4],
    next: usize,
    repeats: u32,
}

impl Seesaw {
    /// Records the node's numbers after an iteration: whether it has gone round in
    /// circles long enough.
    fn stuck(&mut self, numbers: Numbers) -> bool {
        if self.recent.contains(&Some(numbers)) {
            self.repeats += 1;
        } else {
            self.repeats = 0;
        }
        self.recent[self.next] = Some(numbers);
        self.next = (self.next + 1) % self.recent.len();
        self.repeats >= SEESAW_LIMIT
    }
}

/// The numbers a node stuck in a seesaw returns: the number its parent chooses by
/// (the disproof number at an OR node, the proof number at an AND node) raised to
/// its threshold, so that the parent turns to other children. Only the search's
/// course changes: the numbers stay unsolved, so nothing is proven or disproven.
fn seesaw_exit(numbers: Numbers, threshold: Numbers, attacking: bool) -> Numbers {
    let raised = |number: u64, threshold: u64| number.max(threshold).min(INFINITE - 1);
    if attacking {
        Numbers {
            disproof: raised(numbers.disproof, threshold.disproof),
            ..numbers
        }
    } else {
        Numbers {
            proof: raised(numbers.proof, threshold.proof),
            ..numbers
        }
    }
}

/// A node's numbers from its options' (proof and disproof numbers, and the agents
/// searching each), and the option to expand next: the one of the smallest virtual
/// number (proof at an OR node, disproof at an AND node) among those whose own number
/// is under the node's threshold, so that the option expanded can always make progress.
fn combine(
    kids: impl Iterator<Item = (Numbers, u32)>,
    attacking: bool,
    threshold: Numbers,
) -> Combined {
    let limit = if attacking {
        threshold.proof
    } else {
        threshold.disproof
    };
    let (mut best, mut best_key, mut first_real) = (0, (true, INFINITE), INFINITE);
    let (mut second, mut sum) = (INFINITE, 0u64);
    for (i, (n, workers)) in kids.enumerate() {
        let (key, other) = if attacking {
            (n.proof, n.disproof)
        } else {
            (n.disproof, n.proof)
        };
        first_real = first_real.min(key);
        // An option that can make progress goes first, then the smaller virtual number.
        let seen = (key >= limit, virtual_number(key, workers));
        if seen < best_key {
            second = second.min(best_key.1);
            (best, best_key) = (i, seen);
        } else {
            second = second.min(seen.1);
        }
        sum = saturating_sum(sum, other);
    }
    let numbers = if attacking {
        Numbers {
            proof: first_real,
            disproof: sum,
        }
    } else {
        Numbers {
            proof: sum,
            disproof: first_real,
        }
    };
    Combined {
        numbers,
        best,
        second,
    }
}

/// The threshold of a node's best option (`c.best`, whose numbers are `current`), from
/// the node's threshold and numbers `c`: past the second-best option's number (widened)
/// in the number the node chooses by, and in the other the node's slack added to the
/// option's own.
fn child_threshold(attacking: bool, threshold: Numbers, c: &Combined, current: Numbers) -> Numbers {
    let slack = |threshold: u64, node: u64, own: u64| {
        threshold
            .saturating_sub(node)
            .saturating_add(own)
            .min(INFINITE)
    };
    if attacking {
        Numbers {
            proof: threshold.proof.min(widened(c.second)),
            disproof: slack(threshold.disproof, c.numbers.disproof, current.disproof),
        }
    } else {
        Numbers {
            proof: slack(threshold.proof, c.numbers.proof, current.proof),
            disproof: threshold.disproof.min(widened(c.second)),
        }
    }
}

/// One agent of a search: its path and its count of expansions.
struct Agent<'a> {
    shared: &'a Shared<'a>,
    /// The table as it is for this epoch.
    view: View<'a>,
    /// The positions of the current path (a position occurs on it once at most).
    path: KeySet,
    /// The same, in order from the root.
    line: Vec<u64>,
    /// Where another agent solved a position on the path: the depth to return to.
    unwind: Option<u32>,
    expanded: u64,
    out_of_budget: bool,
    /// The root's numbers as this agent last combined them (the table has them only
    /// when the root's loop returns), for progress reports.
    root_numbers: Numbers,
}

impl<'a> Agent<'a> {
    fn new(shared: &'a Shared<'a>) -> Agent<'a> {
        let view = shared.table.view();
        let root_numbers = view
            .get(shared.root_hash, shared.side)
            .map_or(Numbers::UNKNOWN, |e| e.numbers);
        Agent {
            shared,
            view,
            path: KeySet::default(),
            line: Vec::new(),
            unwind: None,
            expanded: 0,
            out_of_budget: false,
            root_numbers,
        }
    }

    /// A child's numbers: a failure for the attacker where it repeats `path` or the
    /// game, else the table's.
    fn child_numbers(&self, hash: u64) -> Option<Numbers> {
        let s = self.shared;
        if self.path.contains(&hash) || s.history.contains(&hash) {
            // (A repetition: a draw at best, so no win for the attacker.)
            return Some(Numbers::DISPROVEN);
        }
        self.view.get(hash, s.side).map(|e| e.numbers)
    }

    /// A child's numbers as `child_numbers` says, and the other agents searching it;
    /// an unsearched child's its estimate.
    fn child_numbers_of(&self, child: &Child) -> (Numbers, u32) {
        let s = self.shared;
        let hash = child.board.hash();
        match self.child_numbers(hash) {
            Some(numbers) if s.agents > 1 => (numbers, s.table.workers(hash)),
            Some(numbers) => (numbers, 0),
            None => (child.estimate, 0),
        }
    }

    /// Counts an expansion; reports progress now and then.
    fn count_node(&mut self) {
        let s = self.shared;
        self.expanded += 1;
        let nodes = s.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        if nodes.is_multiple_of(REPORT_EVERY) {
            let root = self.root_numbers;
            let finite = |n: u64| (n < INFINITE).then_some(n);
            (s.report)(&DfpnProgress {
                attacker: s.attacker,
                nodes,
                proof: finite(root.proof),
                disproof: finite(root.disproof),
                table_entries: s.table.len(),
                table_slots: s.table.max_slots(),
            });
        }
        if s.agents > 1 && self.expanded.is_multiple_of(UNWIND_CHECK_EVERY) {
            self.look_for_solved_ancestors();
        }
    }

    /// Sets `unwind` to the shallowest position of the path that another agent solved.
    fn look_for_solved_ancestors(&mut self) {
        let (view, side) = (&self.view, self.shared.side);
        self.unwind = self
            .line
            .iter()
            .position(|&h| view.get(h, side).is_some_and(|e| e.numbers.solved()))
            .map(|d| d as u32);
    }

    /// Whether to return to the root: the budget is spent, or the table wants to grow.
    fn must_return(&mut self) -> bool {
        let look_at_clock = self.expanded.is_multiple_of(DEADLINE_CHECK_EVERY);
        self.budget_spent(look_at_clock) || self.shared.table.grow_wanted.load(Ordering::Relaxed)
    }

    /// Whether the search must end: another agent ended it, the nodes are spent, or
    /// (looked at only when `look_at_clock`, as it costs a system call) the time or the
    /// user. The first agent to find it so stops the others.
    fn budget_spent(&mut self, look_at_clock: bool) -> bool {
        if !self.out_of_budget {
            let s = self.shared;
            let spent = s.halt.load(Ordering::Relaxed)
                || s.nodes.load(Ordering::Relaxed) >= s.node_budget
                || (look_at_clock && (s.interrupted() || s.late()));
            if spent {
                self.out_of_budget = true;
                s.halt.store(true, Ordering::Relaxed);
            }
        }
        self.out_of_budget
    }

    /// The numbers of `board` (hash `hash`) expanded until one passes its threshold,
    /// it is solved, the budget is spent or another agent solved a position on the path.
    fn expand(&mut self, board: &Board, hash: u64, threshold: Numbers, depth: u32) -> Numbers {
        self.count_node();
        let s = self.shared;
        let attacking = board.to_move() == s.attacker;
        if s.defender_holds(board) {
            self.view.store(hash, s.side, Numbers::DISPROVEN, 1);
            return Numbers::DISPROVEN;
        }
        let tree = if s.variant.has_retreat() {
            MoveTree::walked(s.variant, board, s.attacker)
        } else {
            let (moves, cut) = searched_moves(s.variant, board);
            MoveTree::listed(&moves, attacking, cut)
        };
        let settled = if tree.is_empty() {
            // The side to move has lost.
            Some(if attacking {
                Numbers::DISPROVEN
            } else {
                Numbers::PROVEN
            })
        } else if tree.cut && (!attacking || tree.walked) {
            // A defence cut short cannot be proven whole (and under the retreat every
            // move holds the defender's answers).
            Some(Numbers::DISPROVEN)
        } else if depth >= s.limits.max_depth {
            // Too deep: a failure here (kept like the other disproofs, which may depend
            // on the path: they can hide a win, never make one).
            Some(Numbers::DISPROVEN)
        } else {
            None
        };
        if let Some(numbers) = settled {
            self.view.store(hash, s.side, numbers, 1);
            return numbers;
        }
        let expanded_before = self.expanded - 1;
        let children: Vec<Child> = tree
            .leaves
            .iter()
            .map(|&board| Child {
                board,
                estimate: s.estimate(&board),
            })
            .collect();
        if s.agents > 1 {
            s.table.mark(hash, true);
        }
        self.path.insert(hash);
        self.line.push(hash);
        let mut seesaw = Seesaw::default();
        let numbers = loop {
            let inner = self.inner_numbers(&tree, &children);
            let c = self.combine_at(&tree, 0, &children, &inner, threshold);
            let numbers = c.numbers;
            if depth == 0 {
                self.root_numbers = numbers;
            }
            if self.must_return()
                || numbers.proof >= threshold.proof
                || numbers.disproof >= threshold.disproof
            {
                break numbers;
            }
            if seesaw.stuck(numbers) {
                break seesaw_exit(numbers, threshold, attacking);
            }
            if let Some(d) = self.unwind.filter(|&d| d <= depth) {
                if d == depth {
                    self.unwind = None;
                }
                break numbers;
            }
            let (leaf, leaf_threshold) = self.descend(&tree, &children, &inner, c, threshold);
            let child = &children[leaf].board;
            self.expand(child, child.hash(), leaf_threshold, depth + 1);
        };
        self.path.remove(&hash);
        self.line.pop();
        if s.agents > 1 {
            s.table.mark(hash, false);
        }
        self.view
            .store(hash, s.side, numbers, self.expanded - expanded_before);
        numbers
    }

    /// The numbers of an option of a decision: a leaf's as `child_numbers_of` says, a
    /// later decision's from `inner`.
    fn kid_numbers(&self, kid: Kid, children: &[Child], inner: &[Numbers]) -> (Numbers, u32) {
        match kid {
            Kid::Leaf(i) => self.child_numbers_of(&children[i]),
            Kid::Node(j) => (inner[j], 0),
        }
    }

    /// The numbers of every decision inside the position's moves (the position's own,
    /// decision 0, is left to `combine_at`), from the leaves' up.
    fn inner_numbers(&self, tree: &MoveTree, children: &[Child]) -> Vec<Numbers> {
        if tree.nodes.len() == 1 {
            // (A listed position's moves: nothing inside them, nothing allocated.)
            return Vec::new();
        }
        let mut inner = vec![Numbers::UNKNOWN; tree.nodes.len()];
        for id in (1..tree.nodes.len()).rev() {
            let c = self.combine_at(tree, id, children, &inner, Numbers::UNKNOWN);
            inner[id] = c.numbers;
        }
        inner
    }

    /// `combine` over decision `id`'s options.
    fn combine_at(
        &self,
        tree: &MoveTree,
        id: usize,
        children: &[Child],
        inner: &[Numbers],
        threshold: Numbers,
    ) -> Combined {
        let node = &tree.nodes[id];
        let kids = node
            .kids
            .iter()
            .map(|&(_, kid)| self.kid_numbers(kid, children, inner));
        combine(kids, node.for_side, threshold)
    }

    /// From the position's numbers `c` under `threshold`, down the decisions inside its
    /// moves to the leaf to expand next, each option's threshold from its decision's as
    /// between a position and its children: that leaf and its threshold.
    fn descend(
        &self,
        tree: &MoveTree,
        children: &[Child],
        inner: &[Numbers],
        mut c: Combined,
        mut threshold: Numbers,
    ) -> (usize, Numbers) {
        let mut id = 0;
        loop {
            let node = &tree.nodes[id];
            let kid = node.kids[c.best].1;
            let (current, _) = self.kid_numbers(kid, children, inner);
            let kid_threshold = child_threshold(node.for_side, threshold, &c, current);
            match kid {
                Kid::Leaf(i) => return (i, kid_threshold),
                Kid::Node(j) => {
                    (id, threshold) = (j, kid_threshold);
                    c = self.combine_at(tree, j, children, inner, threshold);
                }
            }
        }
    }

    /// Searches the root until it is solved, the budget is spent (both end the search)
    /// or the table wants to grow (the agent returns to the root and hands its view
    /// back).
    fn run(&mut self, board: &Board) -> Epoch {
        let s = self.shared;
        let infinite = Numbers {
            proof: INFINITE,
            disproof: INFINITE,
        };
        loop {
            let root = self.expand(board, s.root_hash, infinite, 0);
            if root.solved() {
                s.halt.store(true, Ordering::Relaxed);
                return Epoch::Done;
            }
            if self.budget_spent(true) {
                return Epoch::Done;
            }
            if s.table.grow_wanted.load(Ordering::Relaxed) {
                return Epoch::Grow;
            }
        }
    }
}

/// How an agent's epoch ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Epoch {
    /// The search is over (the root solved or the budget spent).
    Done,
    /// The table wants to grow.
    Grow,
}

/// Positions an agent expands between two looks for positions on its path solved by
/// another agent.
const UNWIND_CHECK_EVERY: u64 = 256;

impl Shared<'_> {
    /// The attacker's move at each of its positions in the proof of `root` (proven),
    /// read from the table: at the attacker's positions its earliest-proven child, at
    /// the defender's every child, all proven. A proof rests on children proven before
    /// it, but a child's proof that a full bucket let go and the search proved again
    /// ranks after its parent's, so ranks alone cannot rule out a loop: the walk is
    /// depth first and refuses one (the attacker takes its next child instead, a
    /// defence on the walk's own line is an error, and so is an attacker's position
    /// whose proven moves all lead back onto it). An error where the table dropped part
    /// of the proof.
    fn strategy(&self, root: &Board) -> Result<Vec<(Board, Move)>, String> {
        let view = self.table.view();
        let rank_of = |hash: u64| {
            view.get(hash, self.side)
                .filter(|e| e.numbers.proof == 0)
                .map(|e| e.proof_rank)
        };
        let lost = || {
            "the table, when full, dropped part of the proof (a larger --hash keeps it)".to_string()
        };
        let mut strategy = Vec::new();
        // Positions on the walk's line (false) and those whose proof is read whole (true).
        let mut walked: HashMap<u64, bool> = HashMap::new();
        // Each position on the line with the children still to walk.
        let mut line: Vec<(u64, Vec<Board>)> = Vec::new();
        let mut next = Some(*root);
        loop {
            if let Some(board) = next.take() {
                if self.variant.has_retreat() {
                    let children = self.decided(&board, &rank_of, &mut strategy)?;
                    walked.insert(board.hash(), false);
                    line.push((board.hash(), children));
                    continue;
                }
                let (moves, _) = searched_moves(self.variant, &board);
                let proven = |m: &&LegalMove| {
                    let hash = m.child.hash();
                    !self.history.contains(&hash) && rank_of(hash).is_some()
                };
                let children: Vec<Board> = if moves.is_empty() {
                    Vec::new()
                } else if board.to_move() == self.attacker {
                    let off_line = |m: &&LegalMove| walked.get(&m.child.hash()) != Some(&false);
                    let mut proven_moves = moves.iter().filter(proven).peekable();
                    if proven_moves.peek().is_none() {
                        return Err(lost());
                    }
                    let best = proven_moves
                        .filter(off_line)
                        .min_by_key(|m| rank_of(m.child.hash()))
                        .ok_or_else(|| {
                            "the table's proof loops: an attacker's proven moves all lead back onto the line read".to_string()
                        })?;
                    strategy.push((board, best.mv.clone()));
                    vec![best.child]
                } else if moves.iter().all(|m| proven(&m)) {
                    moves.iter().map(|m| m.child).collect()
                } else {
                    return Err(lost());
                };
                walked.insert(board.hash(), false);
                line.push((board.hash(), children));
            }
            let Some((hash, children)) = line.last_mut() else {
                return Ok(strategy);
            };
            match children.pop() {
                Some(child) => match walked.get(&child.hash()) {
                    None => next = Some(child),
                    Some(true) => {}
                    Some(false) => {
                        return Err(
                            "the table's proof loops: a defence leads back onto the line read"
                                .to_string(),
                        )
                    }
                },
                None => {
                    walked.insert(*hash, true);
                    line.pop();
                }
            }
        }
    }

    /// Under the retreat, the attacker's decisions at `board` in the proof (at both
    /// sides' positions: it answers in the defender's moves), pushed on `strategy` as
    /// lines (`certificate::answers`), each by the earliest-proven option; and the
    /// positions they lead to.
    fn decided(
        &self,
        board: &Board,
        rank_of: &dyn Fn(u64) -> Option<u64>,
        strategy: &mut Vec<(Board, Move)>,
    ) -> Result<Vec<Board>, String> {
        let tree = MoveTree::walked(self.variant, board, self.attacker);
        let leaf_rank: Vec<Option<u64>> = tree
            .leaves
            .iter()
            .map(|b| rank_of(b.hash()).filter(|_| !self.history.contains(&b.hash())))
            .collect();
        let (lines, leaves) = tree.strategy(true, &leaf_rank).ok_or_else(|| {
            "the table, when full, dropped part of the proof (a larger --hash keeps it)".to_string()
        })?;
        strategy.extend(lines.into_iter().map(|mv| (*board, mv)));
        let mut children: Vec<Board> = leaves.into_iter().map(|i| tree.leaves[i]).collect();
        let mut seen = std::collections::HashSet::new();
        children.retain(|b| seen.insert(*b));
        Ok(children)
    }

    /// Whether the table holds a proof of `board` that is not a repetition of the game.
    fn proven(&self, board: &Board) -> bool {
        let hash = board.hash();
        !self.history.contains(&hash)
            && self
                .table
                .view()
                .get(hash, self.side)
                .is_some_and(|e| e.numbers.proof == 0)
    }

    /// A move of the root to a child the search proved; under the retreat, with the
    /// opponent's first answer where it answers (any answer loses).
    fn winning_move(&self, board: &Board) -> Option<Move> {
        if self.variant.has_retreat() {
            let tree = MoveTree::walked(self.variant, board, self.attacker);
            let leaf_proven: Vec<bool> = tree.leaves.iter().map(|b| self.proven(b)).collect();
            let proven = tree.proven(&leaf_proven);
            return (!tree.is_empty() && proven[0])
                .then(|| tree.proven_line(&proven, &leaf_proven).0);
        }
        let (moves, _) = searched_moves(self.variant, board);
        let view = self.table.view();
        moves
            .into_iter()
            .find(|m| {
                view.get(m.child.hash(), self.side)
                    .is_some_and(|e| e.numbers.proof == 0)
            })
            .map(|m| m.mv)
    }

    /// The root's numbers in the table.
    fn root(&self) -> Numbers {
        self.table
            .view()
            .get(self.root_hash, self.side)
            .map_or(Numbers::UNKNOWN, |e| e.numbers)
    }
}

/// Proves `board` a win or a loss for the side to move, within `limits`: whether it
/// wins, then whether its opponent does (or only one of them, as `limits.sought`
/// says). The first of two searches gets half the nodes and half the time and the
/// second what is left; each runs `limits.threads` agents on one
/// table. `history` holds the hashes of the game's earlier positions; `report` sees
/// progress about every 65,536 positions.
pub fn solve(
    variant: &Variant,
    board: &Board,
    history: &[u64],
    limits: DfpnLimits,
    report: &(dyn Fn(&DfpnProgress) + Sync),
) -> DfpnResult {
    solve_from(
        variant,
        board,
        history,
        limits,
        report,
        &mut DfpnState::default(),
    )
}

/// `solve`, starting from the tables in `state` (a search of the same position, rules,
/// history and `max_depth` saved before) and leaving its tables there, so that a long
/// proof can go on in another run.
pub(crate) fn solve_from(
    variant: &Variant,
    board: &Board,
    history: &[u64],
    limits: DfpnLimits,
    report: &(dyn Fn(&DfpnProgress) + Sync),
    state: &mut DfpnState,
) -> DfpnResult {
    let started = Instant::now();
    let history: KeySet = history.iter().copied().collect();
    let mover = board.to_move();
    let agents = limits.threads.max(1);
    let table = state.table(limits.table_entries);
    let fortresses = Fortresses::of(variant);
    let mut nodes = 0;
    let mut out_of_budget = false;
    let mut result = None;
    let searches: &[(Side, DfpnVerdict, u64, u32)] = match limits.sought {
        Sought::Either => &[
            (mover, DfpnVerdict::Win, limits.nodes / 2, 2),
            (mover.opponent(), DfpnVerdict::Loss, limits.nodes, 1),
        ],
        Sought::Win => &[(mover, DfpnVerdict::Win, limits.nodes, 1)],
        Sought::Loss => &[(mover.opponent(), DfpnVerdict::Loss, limits.nodes, 1)],
    };
    for &(attacker, verdict, budget, share) in searches {
        let shared = Shared {
            variant,
            attacker,
            limits,
            history: &history,
            table: &table,
            side: attacker as usize,
            agents,
            nodes: AtomicU64::new(nodes),
            node_budget: budget.max(nodes + 1),
            deadline: limits.time.map(|t| started + t / share),
            halt: AtomicBool::new(false),
            report,
            root_hash: board.hash(),
            fortresses: fortresses.clone(),
            material: MaterialWeights::new(
                board.side_total(Side::South) + board.side_total(Side::North),
            ),
        };
        let (root, spent) = run_agents(&shared, board);
        nodes = shared.nodes.load(Ordering::Relaxed);
        out_of_budget |= spent;
        if root.proof == 0 {
            let best_move = (verdict == DfpnVerdict::Win)
                .then(|| shared.winning_move(board))
                .flatten();
            result = Some(DfpnResult {
                verdict,
                best_move,
                nodes,
                time: started.elapsed(),
                table_entries: table.len(),
                out_of_budget: false,
                strategy: limits.strategy.then(|| shared.strategy(board)),
            });
            break;
        }
    }
    let entries = table.len();
    state.live = Some(table);
    result.unwrap_or_else(|| unknown(nodes, started, entries, out_of_budget))
}

/// An agent's membership of the search: leaving (even by a panic) lets the others,
/// if they wait for the table to grow, go on.
struct Member<'a>(&'a Table);

impl Drop for Member<'_> {
    fn drop(&mut self) {
        self.0.leave();
    }
}

/// Runs the search's agents, each on a thread of its own (all at once, whatever the
/// size of rayon's pool), until the root is solved or the budget spent: the root's
/// numbers, and whether the budget ended it.
fn run_agents(shared: &Shared, board: &Board) -> (Numbers, bool) {
    let table = shared.table;
    let agent = || {
        let _member = Member(table);
        let mut spent = false;
        loop {
            let mut agent = Agent::new(shared);
            let epoch = agent.run(board);
            spent |= agent.out_of_budget;
            drop(agent);
            if epoch == Epoch::Done {
                return spent;
            }
            table.meet();
        }
    };
    for _ in 0..shared.agents {
        table.join();
    }
    let spent = if shared.agents == 1 {
        agent()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..shared.agents).map(|_| scope.spawn(agent)).collect();
            let mut spent = false;
            for handle in handles {
                // (An agent that panicked counts as out of budget: nothing is claimed.)
                spent |= handle.join().unwrap_or(true);
            }
            spent
        })
    };
    let root = shared.root();
    (root, spent && !root.solved())
}

/// The tables of both searches (by attacker), kept between runs of a long proof: the
/// live table of the last run, or the entries read from a file.
#[derive(Default)]
pub struct DfpnState {
    /// Each search's entries, listed (not hashed: they are only read in order).
    tables: [Vec<(u64, Entry)>; 2],
    proofs: [u64; 2],
    live: Option<Table>,
}

/// The first line of a saved state.
const STATE_FORMAT: &str = "isolo-ai dfpn state 1";

impl DfpnState {
    /// Entries in both tables.
    pub fn entries(&self) -> usize {
        match &self.live {
            Some(table) => table.len(),
            None => self.tables.iter().map(Vec::len).sum(),
        }
    }

    /// The table for a run of `entries` at most: the last run's if as large, else a new
    /// one holding the state's entries.
    fn table(&mut self, entries: usize) -> Table {
        let table = match self.live.take() {
            Some(table) if table.max_buckets == Table::buckets_for(entries) => table,
            Some(table) => {
                table.save(self);
                Table::new(entries)
            }
            None => Table::new(entries),
        };
        table.load(self);
        self.tables = Default::default();
        table
    }

    /// Writes the state: a format line, a line with `search` (a digest of what was
    /// searched, which `load` compares), then each table as little-endian numbers.
    pub fn save(&self, out: &mut dyn Write, search: &str) -> std::io::Result<()> {
        writeln!(out, "{STATE_FORMAT}")?;
        writeln!(out, "{search}")?;
        let mut saved = DfpnState::default();
        let state = match &self.live {
            Some(table) => {
                table.save(&mut saved);
                &saved
            }
            None => self,
        };
        for (table, proofs) in state.tables.iter().zip(state.proofs) {
            out.write_all(&(table.len() as u64).to_le_bytes())?;
            out.write_all(&proofs.to_le_bytes())?;
            for (hash, e) in table {
                for n in [*hash, e.numbers.proof, e.numbers.disproof, e.proof_rank] {
                    out.write_all(&n.to_le_bytes())?;
                }
            }
        }
        out.flush()
    }

    /// Reads a state saved for the same `search`; the error says what is wrong.
    pub fn load(input: &mut dyn BufRead, search: &str) -> Result<DfpnState, StateFileError> {
        Self::read(input, search).map_err(StateFileError)
    }

    fn read(input: &mut dyn BufRead, search: &str) -> Result<DfpnState, String> {
        let mut line = |what: &str| {
            let mut text = String::new();
            input
                .take(STATE_LINE_BYTES)
                .read_line(&mut text)
                .map_err(|e| format!("cannot read: {e}"))?;
            match text.strip_suffix('\n') {
                Some(t) => Ok(t.to_string()),
                None => Err(format!("no {what} line: not a saved df-pn search")),
            }
        };
        if line("format")? != STATE_FORMAT {
            return Err(format!(
                "not a saved df-pn search (its first line is not '{STATE_FORMAT}')"
            ));
        }
        if line("search")? != search {
            return Err(
                "saved from another search (the position, rules, moves or --max-plies differ)"
                    .into(),
            );
        }
        let mut state = DfpnState::default();
        let mut number = || {
            let mut bytes = [0u8; 8];
            input
                .read_exact(&mut bytes)
                .map(|()| u64::from_le_bytes(bytes))
                .map_err(|_| "cut short".to_string())
        };
        for side in 0..2 {
            let count = number()?;
            state.proofs[side] = number()?;
            for _ in 0..count {
                let (hash, proof, disproof, rank) = (number()?, number()?, number()?, number()?);
                // (Unsolved numbers stay under INFINITE, which older files had larger.)
                let most = if proof == 0 || disproof == 0 {
                    INFINITE
                } else {
                    INFINITE - 1
                };
                let numbers = Numbers {
                    proof: proof.min(most),
                    disproof: disproof.min(most),
                };
                state.tables[side].push((
                    hash,
                    Entry {
                        numbers,
                        proof_rank: rank,
                    },
                ));
            }
        }
        Ok(state)
    }
}

message_error! {
    /// A saved df-pn state that cannot be resumed: unreadable, cut short, or saved from
    /// another search.
    StateFileError
}

/// The longest text line a saved state may have.
const STATE_LINE_BYTES: u64 = 4096;

/// The result when neither search proved anything.
fn unknown(nodes: u64, started: Instant, table_entries: usize, out_of_budget: bool) -> DfpnResult {
    DfpnResult {
        verdict: DfpnVerdict::Unknown,
        best_move: None,
        nodes,
        time: started.elapsed(),
        table_entries,
        out_of_budget,
        strategy: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unsolved(proof: u64, disproof: u64) -> Numbers {
        Numbers { proof, disproof }
    }

    #[test]
    fn a_seesaw_is_caught_after_its_limit_and_raises_only_the_parents_number() {
        let mut seesaw = Seesaw::default();
        let (a, b) = (unsolved(5, 10), unsolved(5, 9));
        let rounds = (0..100).position(|i| seesaw.stuck(if i % 2 == 0 { a } else { b }));
        assert_eq!(rounds, Some(SEESAW_LIMIT as usize + 1));
        let mut moving = Seesaw::default();
        assert!((1..100).all(|i| !moving.stuck(unsolved(i, i))));
        let threshold = unsolved(7, 12);
        assert_eq!(seesaw_exit(a, threshold, false), unsolved(7, 10));
        assert_eq!(seesaw_exit(a, threshold, true), unsolved(5, 12));
        let root = unsolved(INFINITE, INFINITE);
        assert!(!seesaw_exit(a, root, true).solved());
    }

    #[test]
    fn a_side_far_ahead_in_seeds_needs_fewer_leaves_and_even_seeds_weigh_one_unit() {
        let weights = MaterialWeights::new(64);
        let unit = MATERIAL_UNIT as u64;
        assert_eq!(weights.weight(32, 32), unit);
        // All the seeds: 2^-STEEPNESS of a unit; none: 2^STEEPNESS units.
        assert_eq!(weights.weight(64, 0), unit >> MATERIAL_STEEPNESS as u32);
        assert_eq!(weights.weight(0, 64), unit << MATERIAL_STEEPNESS as u32);
        let by_seeds: Vec<u64> = (0..=64).map(|own| weights.weight(own, 64 - own)).collect();
        assert!(by_seeds.windows(2).all(|w| w[0] >= w[1]), "{by_seeds:?}");
        assert!(by_seeds.iter().all(|&w| w >= 1));
        // Off the root's total (never in these rules) it is computed, the same way.
        assert_eq!(weights.weight(10, 10), unit);
        assert_eq!(weights.weight(0, 0), unit);
    }
}
