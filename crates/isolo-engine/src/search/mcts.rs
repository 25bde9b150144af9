//! Monte Carlo tree search: UCT with random playouts cut short and scored by the
//! evaluation (by default; or played to the end), score-bounded MCTS-Solver so proven wins and losses, with their exact
//! lengths, propagate to the root, and root parallelism over rayon threads.
//!
//! Every node keeps a pessimistic and an optimistic bound on its exact value (Cazenave and
//! Saffidine, "Score Bounded Monte-Carlo Tree Search", 2010), using the same win-in-N
//! values as alpha-beta. A position with a legal move starts between "loss in 2" and
//! "win in 1" (it cannot lose before its opponent has moved), so expanding a subtree
//! also proves which short wins it does not hold. A node is solved when both bounds
//! meet; children that cannot improve their parent's pessimistic bound are not selected.
//! A move's proven score is exact once its node is solved, and the root's once the root
//! is. A position that repeats one of its path (or of the game) is a draw leaf.

use isolo_rules::Listing;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::score::{from_child, is_loss, is_win};
use super::stopping::StopFlag;
use super::{
    is_proven, loss_in, move_generator, win_in, ChoiceWalk, Limits, Line, Progress, Score,
    SearchRequest, SearchResult, Searcher, DRAW, INFINITY,
};
use crate::eval::{Evaluator, Weights};
use isolo_rules::listed_move;
use isolo_rules::{
    Board, ChoicePoint, Completion, Interrupt, Move, MoveGen, MoveStep, MoveWalk, Variant,
};
use isolo_rules::{RandomMove, RandomMover};

/// Time a search takes when no limit is given.
pub const DEFAULT_TIME: Duration = Duration::from_millis(4500);
/// UCT exploration constant.
pub const DEFAULT_EXPLORATION: f64 = 1.2;
/// Playout plies before a playout is scored by the evaluation instead.
pub const DEFAULT_PLAYOUT_PLIES: u32 = 400;
/// Random plies of a default playout before the evaluation scores it: cut playouts beat
/// random ones to the end by +812 Elo on isolo-women-capture-ends and +120 on Igisoro
/// (CHANGELOG.md, Measured gains).
pub const DEFAULT_CUT_PLIES: u32 = 20;
/// A leaf's playouts before it is expanded (keeps the tree's memory in check).
const EXPAND_AFTER: u32 = 2;
/// Most nodes one tree may hold; past this, leaves are no longer expanded.
const MAX_TREE_NODES: usize = 4_000_000;
/// Iterations between additions to the shared iteration count.
const COUNT_INTERVAL: u64 = 256;
/// Playout plies between looks at the clock: a ply of a heavy Igisoro position can take a
/// millisecond, and reading the clock every ply cost about 4% of the playouts' time.
const PLAYOUT_CLOCK_PLIES: u32 = 4;
/// Interval between progress reports.
const REPORT_INTERVAL: Duration = Duration::from_millis(500);
/// Seeds of evaluation that make a 73% (logistic 1.0) winning chance.
const EVAL_SCALE: f64 = 400.0;
/// The UCT score of an unvisited child, above any visited one's.
const UNVISITED: f64 = 1e9;

/// The side to move's winning chance that an evaluation stands for.
fn win_chance(eval: i32) -> f64 {
    1.0 / (1.0 + (-(eval as f64) / EVAL_SCALE).exp())
}

/// How playouts end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playout {
    /// Uniformly random pits until the game ends (or the ply cap: then the evaluation).
    Random,
    /// Random plies, then the evaluation's verdict.
    Cut(u32),
}

/// How threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// Each thread grows its own tree; root statistics are summed at the end.
    Root,
    /// Threads grow one shared tree (a lock around it, virtual loss).
    Tree,
}

/// MCTS settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Search threads.
    pub threads: usize,
    /// Seed of the playouts.
    pub seed: u64,
    /// UCT exploration constant.
    pub exploration: f64,
    /// How playouts end.
    pub playout: Playout,
    /// Longest playout before the evaluation scores it.
    pub max_playout_plies: u32,
    /// Evaluation weights (cut playouts); `None`: the variant's own.
    pub weights: Option<Weights>,
    /// How threads share the work.
    pub parallel: Parallelism,
    /// Weight of the evaluation as a prior (progressive bias): each child's UCT score
    /// gains `prior * p / (visits + 1)`, `p` the mover's winning chance the evaluation
    /// gives the child, and unvisited children are tried best `p` first. 0: no prior.
    pub prior: f64,
    /// Which pits' moves are walked a take/pass choice at a time, each choice a node of
    /// its own (optional captures).
    pub walk: ChoiceWalk,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            threads: 1,
            seed: 0,
            exploration: DEFAULT_EXPLORATION,
            playout: Playout::Cut(DEFAULT_CUT_PLIES),
            max_playout_plies: DEFAULT_PLAYOUT_PLIES,
            weights: None,
            parallel: Parallelism::Root,
            prior: 0.0,
            walk: ChoiceWalk::Vast,
        }
    }
}

/// The MCTS searcher.
pub struct Mcts {
    config: MctsConfig,
}

impl Mcts {
    /// A searcher with these settings.
    pub fn new(config: MctsConfig) -> Mcts {
        Mcts { config }
    }
}

const NOT_EXPANDED: u32 = u32::MAX;
/// Bounds of a position known only to have a legal move: its side cannot lose before
/// the opponent has replied, nor win faster than by its next move.
const UNKNOWN_PESS: i32 = super::loss_in(2);
const UNKNOWN_OPT: i32 = super::win_in(1);

#[derive(Clone, Debug)]
struct Node {
    board: Board,
    parent: u32,
    first_child: u32,
    children: u32,
    visits: u32,
    /// Sum of rewards for the player who moved into this node.
    reward: f64,
    /// Bounds on the exact value for the side to move here.
    pess: i32,
    opt: i32,
    /// The mover's winning chance by the evaluation (with a prior; else 0).
    prior: f32,
    /// For a node reached by walking a pit's take/pass choices: its entry in
    /// `Tree::walks` (`NOT_WALKED` otherwise).
    walk: u32,
    /// The pit of the move into this node (0 at the root), so naming it lists that pit
    /// alone.
    pit: u8,
    /// Plies in a row without a capture before this position (a choice node: before
    /// its turn's), for the long-game rule (RULES.md 3.6).
    quiet: u32,
}

const NOT_WALKED: u32 = u32::MAX;

/// Choices before a choice point is taken to have a completion (see
/// `Variant::first_completion`).
const COMPLETION_BUDGET: usize = 4096;

/// A node reached by walking a vast pit's take/pass choices (the pit's moves too many to
/// list, see `POINTS_PER_PIT`): each choice is a node of its own, the same side to move.
#[derive(Clone, Debug)]
struct Walked {
    /// The move so far (for a result, the whole move).
    mv: Move,
    /// Where the walk stands, for a choice node; `None` for a result.
    point: Option<ChoicePoint>,
    /// A legal completion of a choice node's move, for a line that stops there.
    completion: Option<Move>,
}

impl Walked {
    /// Whether the walk stands at the opponent's answer to a passed capture.
    fn answers(&self) -> bool {
        self.point.is_some_and(|p| p.passed())
    }
}

impl Node {
    /// A node not yet expanded nor visited, known only to have a legal move.
    fn fresh(board: Board, parent: u32) -> Node {
        Node {
            board,
            parent,
            first_child: NOT_EXPANDED,
            children: 0,
            visits: 0,
            reward: 0.0,
            pess: UNKNOWN_PESS,
            opt: UNKNOWN_OPT,
            prior: 0.0,
            walk: NOT_WALKED,
            pit: 0,
            quiet: 0,
        }
    }

    fn solved(&self) -> bool {
        self.pess == self.opt
    }
}

/// Random playouts: each thread has its own generator and buffers.
struct Playouts<'a> {
    variant: &'a Variant,
    eval: &'a Evaluator,
    config: &'a MctsConfig,
    rng: SmallRng,
    mover: RandomMover,
    /// Past this, a playout stops and the evaluation scores it.
    deadline: Option<Instant>,
}

/// A leaf chosen for a playout.
struct Leaf {
    node: usize,
    board: Board,
    /// The reward for the side to move when the leaf's value is known exactly.
    exact: Option<f64>,
}

/// One search tree and the state to grow it.
struct Tree<'a> {
    variant: &'a Variant,
    config: &'a MctsConfig,
    nodes: Vec<Node>,
    gen: MoveGen,
    history: &'a [u64],
    scratch: Vec<(Board, u8)>,
    path_hashes: Vec<u64>,
    max_depth: u32,
    /// Playouts of a tree grown by one thread (root parallelism).
    playouts: Playouts<'a>,
    /// The nodes reached by walking choices (`Node::walk`).
    walks: Vec<Walked>,
    walker: MoveWalk,
}

impl<'a> Tree<'a> {
    fn new(
        variant: &'a Variant,
        eval: &'a Evaluator,
        config: &'a MctsConfig,
        root: Board,
        history: &'a [u64],
        seed: u64,
    ) -> Tree<'a> {
        let root_node = Node::fresh(root, NOT_EXPANDED);
        Tree {
            variant,
            config,
            nodes: vec![root_node],
            gen: move_generator(),
            history,
            scratch: Vec::new(),
            path_hashes: Vec::new(),
            max_depth: 0,
            playouts: Playouts::new(variant, eval, config, seed),
            walks: Vec::new(),
            walker: MoveWalk::new(),
        }
    }

    /// The same tree, its root `quiet` plies without a capture (`SearchRequest::quiet_plies`).
    fn with_quiet_plies(mut self, quiet: u32) -> Tree<'a> {
        self.nodes[0].quiet = quiet;
        self
    }

    /// The same tree, its move listings and walks stopped by `interrupt` (the search's
    /// stop and hard deadline), so that a vast move cannot hold an iteration past them.
    fn with_interrupt(mut self, interrupt: Interrupt) -> Tree<'a> {
        self.gen = self.gen.with_interrupt(interrupt.clone());
        self.walker = self.walker.with_interrupt(interrupt);
        self
    }

    /// Whether a listing or walk was cut short by the interrupt: what it gave is not all.
    fn interrupted(&self) -> bool {
        self.gen.interrupted() || self.walker.interrupted()
    }

    fn root_solved(&self) -> bool {
        self.nodes[0].solved()
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self) {
        let leaf = self.descend(false);
        let reward = match leaf.exact {
            Some(reward) => reward,
            None => self.playouts.playout(leaf.board),
        };
        self.backup(leaf.node, reward, false);
    }

    /// Selection and expansion: the leaf to play out from. With `virtual_loss`, every
    /// node on the way counts a lost visit until `backup`, steering other threads away.
    fn descend(&mut self, virtual_loss: bool) -> Leaf {
        // 1. Selection down to a leaf, keeping the path's positions for repetitions.
        let mut node = 0usize;
        let mut depth = 0;
        self.path_hashes.clear();
        while self.nodes[node].first_child != NOT_EXPANDED && !self.nodes[node].solved() {
            if virtual_loss {
                self.add_virtual_loss(node);
            }
            self.path_hashes.push(self.nodes[node].board.hash());
            match self.select_child(node) {
                Some(child) => node = child,
                None => {
                    // No child can change this node's value: it is solved.
                    let n = &mut self.nodes[node];
                    if self.walks.get(n.walk as usize).is_some_and(Walked::answers) {
                        n.pess = n.opt;
                    } else {
                        n.opt = n.pess;
                    }
                    break;
                }
            }
            depth += 1;
        }
        self.max_depth = self.max_depth.max(depth);
        // 2. Expansion of a leaf visited often enough (a choice at once: a playout
        // starts from a position).
        if !self.nodes[node].solved()
            && self.nodes[node].first_child == NOT_EXPANDED
            && (self.nodes[node].visits >= EXPAND_AFTER || node == 0 || self.is_choice(node))
            && self.nodes.len() < MAX_TREE_NODES
        {
            self.expand(node);
            if !self.nodes[node].solved() {
                self.path_hashes.push(self.nodes[node].board.hash());
                if let Some(child) = self.select_child(node) {
                    if virtual_loss {
                        self.add_virtual_loss(node);
                    }
                    node = child;
                }
            }
        }
        // 2b. Through the choices of a walked move down to the position it reaches.
        while self.is_choice(node) && !self.nodes[node].solved() {
            if self.nodes[node].first_child == NOT_EXPANDED {
                if self.nodes.len() >= MAX_TREE_NODES {
                    break;
                }
                self.expand(node);
                if self.nodes[node].first_child == NOT_EXPANDED {
                    // Interrupted: the leaf stays where it is.
                    break;
                }
                continue;
            }
            let Some(child) = self.select_child(node) else {
                break;
            };
            if virtual_loss {
                self.add_virtual_loss(node);
            }
            node = child;
        }
        if virtual_loss {
            self.add_virtual_loss(node);
        }
        // 3. The leaf: a solved node's exact value needs no playout. A choice node
        // (only when the tree is full) is played out from a completion of its move.
        let n = &self.nodes[node];
        if self.is_choice(node) {
            let walked = &self.walks[n.walk as usize];
            let completion = walked.completion.as_ref();
            let reached = completion
                .and_then(|mv| self.variant.play_move(&n.board, mv))
                .map(|m| m.child);
            return Leaf {
                node,
                board: reached.unwrap_or(n.board),
                // For the side to move after the decider.
                exact: if n.solved() {
                    Some(1.0 - exact_reward(n.pess))
                } else {
                    reached.is_none().then_some(0.5)
                },
            };
        }
        Leaf {
            node,
            board: n.board,
            exact: n.solved().then(|| exact_reward(n.pess)),
        }
    }

    /// Whether `node` is a take/pass choice of a walked move (its side moves again).
    fn is_choice(&self, node: usize) -> bool {
        let walk = self.nodes[node].walk;
        walk != NOT_WALKED && self.walks[walk as usize].point.is_some()
    }

    /// Whether `node` is the opponent's answer to a passed capture (`retreat`): its
    /// values stay the mover's, and it takes the worst of them for the mover.
    fn answers(&self, node: usize) -> bool {
        let walk = self.nodes[node].walk;
        walk != NOT_WALKED && self.walks[walk as usize].answers()
    }

    /// A child's bounds `(pess, opt)` as its parent's side sees them: negated one ply
    /// further for a position, as they are for a choice (the same side decides).
    fn for_parent(&self, child: usize) -> (i32, i32) {
        let c = &self.nodes[child];
        if self.is_choice(child) {
            (c.pess, c.opt)
        } else {
            (from_child(c.opt), from_child(c.pess))
        }
    }

    /// The UCT choice among the children that can still change this node's value.
    fn select_child(&mut self, node: usize) -> Option<usize> {
        let parent = &self.nodes[node];
        let (first, count, pess) = (
            parent.first_child as usize,
            parent.children as usize,
            parent.pess,
        );
        let opt = parent.opt;
        let log_visits = ((parent.visits.max(1)) as f64).ln();
        // At the opponent's answer the children's rewards (the mover's) count reversed.
        let minimizing = self.answers(node);
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for child in first..first + count {
            let (low, high) = self.for_parent(child);
            let settled = if minimizing {
                high == -INFINITY || low >= opt
            } else {
                high <= pess
            };
            if settled {
                continue;
            }
            let c = &self.nodes[child];
            let bias = self.config.prior * c.prior as f64 / (c.visits + 1) as f64;
            let score = if c.visits == 0 {
                // Unvisited first, the likeliest by the prior first.
                UNVISITED + bias
            } else {
                let mean = c.reward / c.visits as f64;
                let mean = if minimizing { 1.0 - mean } else { mean };
                mean + self.config.exploration * (log_visits / c.visits as f64).sqrt() + bias
            };
            if score > best_score {
                best_score = score;
                best = Some(child);
            }
        }
        best
    }

    /// Creates the children of `node`; terminal and repeated children are solved at once.
    /// A position's moves are listed pit by pit, each result once; a pit whose moves are
    /// too many to list (`POINTS_PER_PIT`) becomes a choice node, walked one take/pass
    /// choice at a time, so every move is in the tree.
    /// An expansion cut short by the interrupt is undone: the node stays a leaf, as a
    /// partial list of children would make its bounds claim what was never searched.
    fn expand(&mut self, node: usize) {
        let first = self.nodes.len() as u32;
        let walks = self.walks.len();
        if self.is_choice(node) {
            self.expand_choice(node);
        } else {
            self.expand_position(node);
        }
        if self.interrupted() {
            self.nodes.truncate(first as usize);
            self.walks.truncate(walks);
            return;
        }
        let count = self.nodes.len() as u32 - first;
        let is_choice = self.is_choice(node);
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.children = count;
        if n.children == 0 {
            // No move (a loss), or for a choice no way on (no move this way at all).
            let value = if is_choice { -INFINITY } else { loss_in(0) };
            n.pess = value;
            n.opt = value;
        } else {
            self.update_bounds(node);
        }
    }

    fn expand_position(&mut self, node: usize) {
        let board = self.nodes[node].board;
        let mut children = std::mem::take(&mut self.scratch);
        children.clear();
        let mut vast = Vec::new();
        let mut lanes = self.variant.candidate_pits(&board);
        let walkable = self.variant.walks_choices();
        let walk_all = self.config.walk.for_variant(self.variant) == ChoiceWalk::All && walkable;
        while lanes != 0 {
            let lane = lanes.trailing_zeros();
            lanes &= lanes - 1;
            if walk_all {
                vast.push(lane as u8 + 1);
                continue;
            }
            let start = children.len();
            self.variant
                .visit_moves(&board, 1 << lane, Listing::Results, &mut self.gen, |m| {
                    children.push((m.child, m.pit))
                });
            // A pit too vast to list is walked a choice at a time where it can be;
            // where laps turn, its first results stand for it.
            if self.gen.truncated() && walkable {
                children.truncate(start);
                vast.push(lane as u8 + 1);
            }
        }
        // Moves from different pits that reach the same position make one child, under
        // the first of them.
        let mut seen = std::collections::HashSet::new();
        for &(child, pit) in &children {
            if seen.insert(child.hash()) {
                self.add_position(node, child, pit, NOT_WALKED);
            }
        }
        self.scratch = children;
        for pit in vast {
            let mv = Move {
                pit,
                choices: Vec::new(),
            };
            let step = self.variant.begin_move(&board, pit, &mut self.walker);
            self.add_step(node, mv, step);
        }
    }

    /// The children of a choice node: take, then pass.
    fn expand_choice(&mut self, node: usize) {
        let turn = self.nodes[node].board;
        let walked = self.walks[self.nodes[node].walk as usize].clone();
        let point = walked.point.expect("a choice node");
        // The walk's path of turning points up to this point, for the loops ahead.
        let step = self
            .variant
            .walk_choices(&turn, &walked.mv, &mut self.walker);
        debug_assert!(matches!(
            step,
            Some(MoveStep::Choice(p) | MoveStep::Answer(p)) if p.key() == point.key()
        ));
        for first in [true, false] {
            let mut mv = walked.mv.clone();
            mv.choices.push(point.option(first));
            let step = self.variant.choose(&point, first, &mut self.walker);
            self.add_step(node, mv, step);
        }
    }

    /// Adds the child a walk's step leads to: a position, a choice that has a
    /// completion, or nothing for a dead end.
    fn add_step(&mut self, parent: usize, mv: Move, step: MoveStep) {
        let turn = self.nodes[parent].board;
        match step {
            MoveStep::Dead { .. } => {}
            MoveStep::End { child, .. } => {
                let walk = self.walks.len() as u32;
                self.walks.push(Walked {
                    mv,
                    point: None,
                    completion: None,
                });
                self.add_position(parent, child, 0, walk);
            }
            MoveStep::Choice(point) | MoveStep::Answer(point) => {
                let completion =
                    match self
                        .variant
                        .first_completion(&point, &mut self.walker, COMPLETION_BUDGET)
                    {
                        Completion::None => return,
                        Completion::Unknown => None,
                        Completion::Found(choices, _) => {
                            let mut whole = mv.clone();
                            whole.choices.extend(choices);
                            Some(whole)
                        }
                    };
                let walk = self.walks.len() as u32;
                self.walks.push(Walked {
                    mv,
                    point: Some(point),
                    completion,
                });
                self.nodes.push(Node {
                    prior: 0.5,
                    walk,
                    quiet: self.nodes[parent].quiet,
                    ..Node::fresh(turn, parent as u32)
                });
            }
        }
    }

    /// Adds a position child, solved at once if repeated, without moves, dead or ended
    /// by the long-game rule.
    fn add_position(&mut self, parent: usize, child: Board, pit: u8, walk: u32) {
        let turn = self.nodes[parent].board;
        let repeated = child.hash() == turn.hash()
            || self.path_hashes.contains(&child.hash())
            || self.history.contains(&child.hash());
        let quiet = isolo_rules::quiet_plies_after(&turn, &child, self.nodes[parent].quiet);
        let (pess, opt) = if repeated {
            (DRAW, DRAW)
        } else if !self.variant.has_legal_move(&child, &mut self.gen) {
            (loss_in(0), loss_in(0))
        } else if let Some(end) = isolo_rules::dead_position_outcome(self.variant, &child)
            .or_else(|| isolo_rules::long_game_outcome(self.variant, &child, quiet))
        {
            // A dead position or a long game the rules end: drawn, or counted.
            let value = match end.winner {
                None => DRAW,
                Some(side) if side == child.to_move() => win_in(0),
                Some(_) => loss_in(0),
            };
            (value, value)
        } else {
            (UNKNOWN_PESS, UNKNOWN_OPT)
        };
        let prior = if self.config.prior > 0.0 {
            1.0 - win_chance(self.playouts.eval.evaluate(&child)) as f32
        } else {
            0.0
        };
        self.nodes.push(Node {
            pess,
            opt,
            prior,
            walk,
            pit,
            quiet,
            ..Node::fresh(child, parent as u32)
        });
    }

    /// Recomputes a node's bounds from its children; true if they changed.
    fn update_bounds(&mut self, node: usize) -> bool {
        let n = &self.nodes[node];
        if n.first_child == NOT_EXPANDED || n.children == 0 {
            return false;
        }
        let (first, count) = (n.first_child as usize, n.children as usize);
        let (mut pess, mut opt) = (-INFINITY, -INFINITY);
        if self.answers(node) {
            // The worst for the mover among the answers that lead to a move.
            let live = (first..first + count)
                .map(|child| self.for_parent(child))
                .filter(|&(_, high)| high > -INFINITY);
            for (i, (low, high)) in live.enumerate() {
                (pess, opt) = if i == 0 {
                    (low, high)
                } else {
                    (pess.min(low), opt.min(high))
                };
            }
        } else {
            for child in first..first + count {
                let (low, high) = self.for_parent(child);
                pess = pess.max(low);
                opt = opt.max(high);
            }
        }
        let n = &mut self.nodes[node];
        let changed = (pess, opt) != (n.pess, n.opt);
        n.pess = pess;
        n.opt = opt;
        changed
    }

    /// Counts a visit to `node` on the way down, as a loss for the side that chose it
    /// until `backup` adds the playout's reward: no reward for the mover where the mover
    /// chose, the whole reward where the opponent chose its answer to a pass (it picks
    /// the child worst for the mover). Other threads then look elsewhere either way.
    fn add_virtual_loss(&mut self, node: usize) {
        let against_answerer = self.chosen_by_answerer(node);
        let n = &mut self.nodes[node];
        n.visits += 1;
        if against_answerer {
            n.reward += 1.0;
        }
    }

    /// Whether `node` is a child of the opponent's answer to a pass (`retreat`).
    fn chosen_by_answerer(&self, node: usize) -> bool {
        let parent = self.nodes[node].parent;
        parent != NOT_EXPANDED && self.answers(parent as usize)
    }

    /// Adds the playout's reward along the path and tightens bounds while they change.
    /// With `virtual_loss`, the visits (and the losses, `add_virtual_loss`) were counted
    /// on the way down.
    fn backup(&mut self, leaf: usize, reward_to_move: f64, virtual_loss: bool) {
        let mut node = leaf;
        let mut reward_for_mover = 1.0 - reward_to_move;
        let mut bounds_may_change = true;
        loop {
            let undo = virtual_loss && self.chosen_by_answerer(node);
            let n = &mut self.nodes[node];
            if !virtual_loss {
                n.visits += 1;
            }
            if undo {
                n.reward -= 1.0;
            }
            n.reward += reward_for_mover;
            if bounds_may_change && node != leaf {
                bounds_may_change = self.update_bounds(node);
            }
            let parent = self.nodes[node].parent;
            if parent == NOT_EXPANDED {
                break;
            }
            node = parent as usize;
            // Into a choice node the same side moved as below it.
            if !self.is_choice(node) {
                reward_for_mover = 1.0 - reward_for_mover;
            }
        }
    }

    /// Root children's statistics in child order: (visits, reward, and the bounds as
    /// the root sees them).
    fn root_stats(&self) -> Vec<(u32, f64, i32, i32)> {
        let root = &self.nodes[0];
        if root.first_child == NOT_EXPANDED {
            return Vec::new();
        }
        let first = root.first_child as usize;
        (first..first + root.children as usize)
            .map(|c| {
                let (pess, opt) = self.for_parent(c);
                (self.nodes[c].visits, self.nodes[c].reward, pess, opt)
            })
            .collect()
    }

    /// The most visited line from the child `start` of the root (proven lines follow
    /// their exact values), as the moves it plays; a line that stops inside a walked
    /// move ends with a completion of it.
    fn line_from(&self, start: usize) -> Vec<Move> {
        let mut nodes = vec![start];
        let mut node = start;
        while self.nodes[node].first_child != NOT_EXPANDED && self.nodes[node].children > 0 {
            let n = &self.nodes[node];
            let first = n.first_child as usize;
            let children = first..first + n.children as usize;
            let next = if n.solved() && is_proven(n.pess) {
                children
                    .clone()
                    .find(|&c| self.for_parent(c).0 == n.pess && self.nodes[c].solved())
            } else {
                None
            }
            .or_else(|| children.max_by_key(|&c| self.nodes[c].visits));
            match next {
                Some(c) if self.nodes[c].visits > 0 || self.nodes[c].solved() => {
                    nodes.push(c);
                    node = c;
                }
                _ => break,
            }
        }
        self.moves_of(&nodes)
    }

    /// The moves of a path of nodes from a child of the root.
    fn moves_of(&self, nodes: &[usize]) -> Vec<Move> {
        let mut board = self.nodes[0].board;
        let mut moves = Vec::new();
        for &node in nodes {
            let n = &self.nodes[node];
            let mv = if n.walk != NOT_WALKED {
                let walked = &self.walks[n.walk as usize];
                if walked.point.is_some() {
                    continue;
                }
                Some(walked.mv.clone())
            } else {
                listed_move(self.variant, &board, 1 << (n.pit - 1), &n.board)
            };
            let Some(mv) = mv else {
                return moves;
            };
            moves.push(mv);
            board = n.board;
        }
        if let Some(&last) = nodes.last() {
            if self.is_choice(last) {
                let walked = &self.walks[self.nodes[last].walk as usize];
                moves.extend(walked.completion.clone());
            }
        }
        moves
    }
}

impl<'a> Playouts<'a> {
    fn new(
        variant: &'a Variant,
        eval: &'a Evaluator,
        config: &'a MctsConfig,
        seed: u64,
    ) -> Playouts<'a> {
        Playouts {
            variant,
            eval,
            config,
            rng: SmallRng::seed_from_u64(seed),
            mover: RandomMover::default(),
            deadline: None,
        }
    }

    /// A playout from `board`: the reward (1 win, 0 loss) for the side to move there.
    fn playout(&mut self, board: Board) -> f64 {
        let cap = match self.config.playout {
            Playout::Random => self.config.max_playout_plies,
            Playout::Cut(plies) => plies.min(self.config.max_playout_plies),
        };
        let mut current = board;
        let mut played = cap;
        for ply in 0..cap {
            if ply > 0
                && ply.is_multiple_of(PLAYOUT_CLOCK_PLIES)
                && self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                played = ply;
                break;
            }
            let deadline = self.deadline;
            match self
                .mover
                .choose(self.variant, &current, &mut self.rng, deadline)
            {
                RandomMove::Played { child, .. } => current = child,
                RandomMove::Stop => {
                    played = ply;
                    break;
                }
                RandomMove::NoMove => {
                    // The side to move at `current` has lost.
                    let loser_is_start = ply % 2 == 0;
                    return if loser_is_start { 0.0 } else { 1.0 };
                }
            }
        }
        let to_move_wins = win_chance(self.eval.evaluate(&current));
        if played % 2 == 0 {
            to_move_wins
        } else {
            1.0 - to_move_wins
        }
    }
}

/// Plays `count` random playouts from `board` (as MCTS does, evaluation cut-off at the
/// default ply cap) and returns the mean reward for the side to move: for benchmarks of
/// the playout rate.
pub fn random_playouts(variant: &Variant, board: &Board, count: u64, seed: u64) -> f64 {
    let config = MctsConfig {
        playout: Playout::Random,
        ..MctsConfig::default()
    };
    let eval = Evaluator::for_config(variant, config.weights.as_ref());
    let mut playouts = Playouts::new(variant, &eval, &config, seed);
    (0..count).map(|_| playouts.playout(*board)).sum::<f64>() / count.max(1) as f64
}

/// The reward for the side to move of an exactly known value.
fn exact_reward(value: i32) -> f64 {
    if value > DRAW {
        1.0
    } else if value < DRAW {
        0.0
    } else {
        0.5
    }
}

/// Root children merged over threads.
#[derive(Clone, Debug)]
struct RootChild {
    /// The child's place among the root's children (the same in every tree).
    offset: usize,
    visits: u64,
    reward: f64,
    /// Bounds on the root's value through this child.
    pess: i32,
    opt: i32,
}

impl RootChild {
    /// The value the root gets through this child, when it is known exactly.
    fn exact_value(&self) -> Option<i32> {
        (self.pess == self.opt).then_some(self.pess)
    }

    fn score(&self) -> Score {
        match self.exact_value() {
            Some(v) => Score::from_value(v),
            None => {
                let p = if self.visits == 0 {
                    0.5
                } else {
                    (self.reward / self.visits as f64).clamp(0.001, 0.999)
                };
                let value = ((p / (1.0 - p)).ln() * EVAL_SCALE).round() as i32;
                Score::Eval(if value == 0 { 1 } else { value })
            }
        }
    }
}

impl Searcher for Mcts {
    fn search(
        &mut self,
        request: &SearchRequest,
        report: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let start = Instant::now();
        let variant = request.variant;
        let mut limits: Limits = request.limits;
        if limits.nodes.is_none() && limits.time.is_none() {
            limits.time = Some(DEFAULT_TIME);
        }
        let eval = Evaluator::for_config(variant, self.config.weights.as_ref());
        let threads = self.config.threads.max(1);
        let stop = AtomicBool::new(false);
        let iterations = AtomicU64::new(0);
        let deadline = limits.time.map(|t| start + t);
        let halt = StopFlag::new(deadline);
        let interrupt = halt.interrupt();
        let target = Target::new(start, limits.soft_time);
        // Each thread has its share of the iteration budget, so results do not depend on
        // scheduling.
        let share = limits.nodes.map(|n| n.div_ceil(threads as u64));
        let seed_of =
            |id: usize| self.config.seed ^ (id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let run_tree = |id: usize, report: Option<&mut dyn FnMut(&Progress)>| {
            let mut tree = Tree::new(
                variant,
                &eval,
                &self.config,
                request.board,
                &request.history,
                seed_of(id),
            )
            .with_quiet_plies(request.quiet_plies)
            .with_interrupt(interrupt.clone());
            tree.playouts.deadline = deadline;
            let mut report = report;
            let mut done = 0u64;
            let mut last_report = Instant::now();
            loop {
                if share.is_some_and(|s| done >= s)
                    || tree.root_solved()
                    || stop.load(Ordering::Relaxed)
                {
                    break;
                }
                tree.iterate();
                done += 1;
                if done.is_multiple_of(COUNT_INTERVAL) {
                    iterations.fetch_add(COUNT_INTERVAL, Ordering::Relaxed);
                }
                // An iteration takes microseconds to milliseconds: the clock is read
                // after each, so time limits hold on the heaviest positions too.
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) || request.stop_requested() {
                    break;
                }
                // On a clock, the reporting thread ends the search for all.
                if report.is_some() && target.past(now, || settled(&tree)) {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                if let Some(report) = report.as_mut() {
                    if last_report.elapsed() >= REPORT_INTERVAL {
                        last_report = Instant::now();
                        report(&progress_of(
                            &[&tree],
                            variant,
                            request,
                            iterations.load(Ordering::Relaxed),
                            start,
                        ));
                    }
                }
            }
            iterations.fetch_add(done % COUNT_INTERVAL, Ordering::Relaxed);
            if tree.root_solved() {
                // A proof found by one tree is the answer: stop the others.
                stop.store(true, Ordering::Relaxed);
            }
            tree
        };
        let helpers = || {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .build()
                .expect("search threads start")
        };
        // The caller's stop reaches the trees' listings and walks through `halt`.
        let trees: Vec<Tree> = halt.forwarding(request.stop, || {
            if threads == 1 {
                vec![run_tree(0, Some(report))]
            } else if self.config.parallel == Parallelism::Tree {
                let tree = Mutex::new(
                    Tree::new(
                        variant,
                        &eval,
                        &self.config,
                        request.board,
                        &request.history,
                        self.config.seed,
                    )
                    .with_quiet_plies(request.quiet_plies)
                    .with_interrupt(interrupt.clone()),
                );
                let grow = |id: usize, report: Option<&mut dyn FnMut(&Progress)>| {
                    let mut playouts = Playouts::new(variant, &eval, &self.config, seed_of(id + 1));
                    playouts.deadline = deadline;
                    let shared = SharedTree {
                        tree: &tree,
                        stop: &stop,
                        iterations: &iterations,
                        budget: limits.nodes,
                        deadline,
                        target,
                    };
                    shared.grow(playouts, report, variant, request, start);
                };
                // The calling thread grows the tree too, and reports progress.
                helpers().in_place_scope(|scope| {
                    for id in 1..threads {
                        scope.spawn(move |_| grow(id, None));
                    }
                    grow(0, Some(report));
                });
                vec![tree.into_inner().expect("no thread panicked")]
            } else {
                // Root parallelism: the calling thread grows tree 0 and reports progress.
                let others = Mutex::new(Vec::new());
                let first = helpers().in_place_scope(|scope| {
                    for id in 1..threads {
                        let (run_tree, others) = (&run_tree, &others);
                        scope.spawn(move |_| {
                            let tree = run_tree(id, None);
                            others.lock().expect("no thread panicked").push((id, tree));
                        });
                    }
                    run_tree(0, Some(report))
                });
                let mut others = others.into_inner().expect("no thread panicked");
                others.sort_by_key(|(id, _)| *id);
                std::iter::once(first)
                    .chain(others.into_iter().map(|(_, t)| t))
                    .collect()
            }
        });
        let tree_refs: Vec<&Tree> = trees.iter().collect();
        let merged = merge_roots(&tree_refs);
        let total = iterations.load(Ordering::Relaxed);
        let lines = lines_of(&tree_refs, &merged, variant, request);
        let depth = trees.iter().map(|t| t.max_depth).max().unwrap_or(0);
        SearchResult {
            lines,
            depth,
            nodes: total,
            time: start.elapsed(),
            engine: "mcts",
            hashfull: tree_fill(&tree_refs),
        }
    }
}

/// Tree parallelism: threads share one tree behind a lock, held for selection, expansion
/// and backup; playouts run outside it, and virtual losses spread the threads out.
struct SharedTree<'t, 'a> {
    tree: &'t Mutex<Tree<'a>>,
    stop: &'t AtomicBool,
    iterations: &'t AtomicU64,
    budget: Option<u64>,
    deadline: Option<Instant>,
    target: Target,
}

impl SharedTree<'_, '_> {
    fn grow(
        &self,
        mut playouts: Playouts,
        mut report: Option<&mut dyn FnMut(&Progress)>,
        variant: &Variant,
        request: &SearchRequest,
        start: Instant,
    ) {
        let mut last_report = Instant::now();
        while !self.stop.load(Ordering::Relaxed) {
            if self
                .budget
                .is_some_and(|n| self.iterations.fetch_add(1, Ordering::Relaxed) >= n)
            {
                break;
            }
            let leaf = {
                let mut tree = self.tree.lock().expect("no thread panicked");
                if tree.root_solved() {
                    self.stop.store(true, Ordering::Relaxed);
                    break;
                }
                tree.descend(true)
            };
            let reward = leaf.exact.unwrap_or_else(|| playouts.playout(leaf.board));
            self.tree
                .lock()
                .expect("no thread panicked")
                .backup(leaf.node, reward, true);
            if self.budget.is_none() {
                self.iterations.fetch_add(1, Ordering::Relaxed);
            }
            let now = Instant::now();
            if self.deadline.is_some_and(|d| now >= d) || request.stop_requested() {
                self.stop.store(true, Ordering::Relaxed);
            }
            if report.is_some()
                && self.target.past(now, || {
                    settled(&self.tree.lock().expect("no thread panicked"))
                })
            {
                self.stop.store(true, Ordering::Relaxed);
            }
            if let Some(report) = report.as_mut() {
                if last_report.elapsed() >= REPORT_INTERVAL {
                    last_report = Instant::now();
                    let tree = self.tree.lock().expect("no thread panicked");
                    let nodes = self.iterations.load(Ordering::Relaxed);
                    report(&progress_of(&[&tree], variant, request, nodes, start));
                }
            }
        }
    }
}

/// A clocked search's target time (see `Limits::soft_time`).
#[derive(Clone, Copy)]
struct Target {
    /// Where a settled search stops.
    soft: Option<Instant>,
    /// Where an unsettled one stops.
    stretched: Option<Instant>,
}

impl Target {
    fn new(start: Instant, soft: Option<Duration>) -> Target {
        Target {
            soft: soft.map(|t| start + t),
            stretched: soft.map(|t| start + t.mul_f64(super::UNSETTLED_STRETCH)),
        }
    }

    /// Whether a search may stop at `now`: past the stretched target, or past the target
    /// with the best move `settled`.
    fn past(&self, now: Instant, settled: impl FnOnce() -> bool) -> bool {
        match (self.soft, self.stretched) {
            (Some(soft), Some(stretched)) => now >= stretched || (now >= soft && settled()),
            _ => false,
        }
    }
}

/// The visits of the most visited root move against the next that make a clocked
/// search's choice settled.
const SETTLED_LEAD: f64 = 1.5;

/// Whether the tree's choice is settled: a proven win, or the most visited move well
/// ahead of the next.
fn settled(tree: &Tree) -> bool {
    let order = ranked(&merge_roots(&[tree]));
    match order.as_slice() {
        [] | [_] => true,
        [best, rest @ ..] => {
            let runner_up = rest.iter().map(|c| c.visits).max().unwrap_or(0);
            best.exact_value().is_some_and(is_win)
                || best.visits as f64 >= SETTLED_LEAD * runner_up as f64
        }
    }
}

/// Sums the root children's statistics over trees; proven bounds take the tightest.
fn merge_roots(trees: &[&Tree]) -> Vec<RootChild> {
    let mut merged: Vec<RootChild> = Vec::new();
    for tree in trees {
        for (i, (visits, reward, pess, opt)) in tree.root_stats().into_iter().enumerate() {
            if merged.len() <= i {
                merged.push(RootChild {
                    offset: i,
                    visits: 0,
                    reward: 0.0,
                    pess: -INFINITY,
                    opt: INFINITY,
                });
            }
            let m = &mut merged[i];
            m.visits += visits as u64;
            m.reward += reward;
            m.pess = m.pess.max(pess);
            m.opt = m.opt.min(opt);
        }
    }
    merged
}

/// Root moves best first: exact values first where the root is solved, else by visits.
fn ranked(merged: &[RootChild]) -> Vec<RootChild> {
    let mut order = merged.to_vec();
    let root_pess = merged.iter().map(|c| c.pess).max().unwrap_or(-INFINITY);
    let root_opt = merged.iter().map(|c| c.opt).max().unwrap_or(INFINITY);
    if root_pess == root_opt {
        order.sort_by_key(|c| {
            (
                std::cmp::Reverse(c.exact_value().unwrap_or(-INFINITY)),
                std::cmp::Reverse(c.visits),
            )
        });
    } else {
        order.sort_by(|a, b| {
            let proven_loss = |c: &RootChild| c.exact_value().is_some_and(is_loss);
            let proven_win = |c: &RootChild| c.exact_value().is_some_and(is_win);
            (proven_loss(a), !proven_win(a), std::cmp::Reverse(a.visits)).cmp(&(
                proven_loss(b),
                !proven_win(b),
                std::cmp::Reverse(b.visits),
            ))
        });
    }
    order
}

fn lines_of(
    trees: &[&Tree],
    merged: &[RootChild],
    variant: &Variant,
    request: &SearchRequest,
) -> Vec<Line> {
    ranked(merged)
        .into_iter()
        .take(request.multipv.max(1))
        .enumerate()
        .filter_map(|(i, c)| {
            let tree = line_tree(trees, c.offset);
            let first = tree.nodes[0].first_child as usize + c.offset;
            let mut pv = tree.line_from(first);
            if i >= request.pv_lines {
                pv.truncate(1);
            }
            if pv.is_empty() {
                // A walked pit whose completion was not found within its budget.
                let pit = tree.walks[tree.nodes[first].walk as usize].mv.pit;
                let firsts = variant.first_move_of_each_pit(&request.board, &mut move_generator());
                pv.extend(firsts.into_iter().filter(|m| m.mv.pit == pit).map(|m| m.mv));
            }
            Some(Line {
                mv: pv.first()?.clone(),
                score: c.score(),
                pv,
            })
        })
        .collect()
}

/// The tree to read root child `offset`'s line from: of the trees that expanded the
/// root (a thread stopped before its first iteration did not), the one that visited it
/// most.
fn line_tree<'t, 'a>(trees: &[&'t Tree<'a>], offset: usize) -> &'t Tree<'a> {
    trees
        .iter()
        .filter_map(|t| Some((t, t.root_stats().get(offset)?.0)))
        .max_by_key(|&(_, visits)| visits)
        .map(|(t, _)| *t)
        .expect("a tree that expanded the root gave the move")
}

fn progress_of(
    trees: &[&Tree],
    variant: &Variant,
    request: &SearchRequest,
    iterations: u64,
    start: Instant,
) -> Progress {
    let merged = merge_roots(trees);
    let lines = lines_of(trees, &merged, variant, request);
    let best = lines.first();
    Progress {
        depth: trees.iter().map(|t| t.max_depth).max().unwrap_or(0),
        score: best.map(|l| l.score).unwrap_or(Score::Draw),
        pv: best.map(|l| l.pv.clone()).unwrap_or_default(),
        nodes: iterations,
        time: start.elapsed(),
        hashfull: tree_fill(trees),
    }
}

/// The fullest tree's nodes against `MAX_TREE_NODES`, in permille.
fn tree_fill(trees: &[&Tree]) -> u32 {
    let most = trees.iter().map(|t| t.nodes.len()).max().unwrap_or(0);
    (most * 1000 / MAX_TREE_NODES) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread may stop before its first iteration (another proved the root, or the
    /// time ran out): its tree's root is not expanded, and the lines come from the
    /// others, even for a move no tree visited.
    #[test]
    fn lines_come_from_trees_that_expanded_the_root() {
        let variant = Variant::load("isolo-boys-capture-ends").unwrap();
        let config = MctsConfig::default();
        let eval = Evaluator::for_config(&variant, None);
        let board = variant.start();
        let mut grown = Tree::new(&variant, &eval, &config, board, &[], 1);
        grown.iterate();
        let idle = Tree::new(&variant, &eval, &config, board, &[], 2);
        let request = SearchRequest {
            variant: &variant,
            board,
            history: Vec::new(),
            quiet_plies: 0,
            limits: Limits::default(),
            multipv: 64,
            pv_lines: usize::MAX,
            stop: None,
        };
        for trees in [[&grown, &idle], [&idle, &grown]] {
            let merged = merge_roots(&trees);
            assert!(merged.iter().any(|c| c.visits == 0));
            let lines = lines_of(&trees, &merged, &variant, &request);
            assert_eq!(lines.len(), merged.len());
        }
    }

    /// Under the retreat a thread's virtual loss at a child of the opponent's answer
    /// counts against the answerer (the child looks better for the mover, so the
    /// answerer's other threads avoid it), and the playout's backup undoes it exactly.
    #[test]
    fn virtual_loss_at_an_answer_counts_against_the_answerer() {
        let variant = Variant::load("igisoro-retreat").unwrap();
        let config = MctsConfig::default();
        let eval = Evaluator::for_config(&variant, None);
        let board = variant
            .parse_position("0,4,4,4,4,4,4,4/1,1,1,0,1,0,0,0/0,0,0,0,1,1,0,0/0,5,5,5,0,5,5,5 S")
            .unwrap();
        let mut tree = Tree::new(&variant, &eval, &config, board, &[], 1);
        let mut through_answers = 0;
        for _ in 0..3000 {
            let before: Vec<(u32, f64)> = tree.nodes.iter().map(|n| (n.visits, n.reward)).collect();
            let leaf = tree.descend(true);
            let mut path = vec![leaf.node];
            while let Some(&last) = path.last() {
                match tree.nodes[last].parent {
                    NOT_EXPANDED => break,
                    parent => path.push(parent as usize),
                }
            }
            for &node in &path {
                let (visits, reward) = before.get(node).copied().unwrap_or((0, 0.0));
                let n = &tree.nodes[node];
                assert_eq!(n.visits, visits + 1);
                let lost = if tree.chosen_by_answerer(node) {
                    1.0
                } else {
                    0.0
                };
                assert_eq!(n.reward, reward + lost);
            }
            through_answers += path.iter().filter(|&&n| tree.chosen_by_answerer(n)).count();
            // A draw's reward: every node on the path gains exactly a half.
            tree.backup(leaf.node, 0.5, true);
            for &node in &path {
                let (_, reward) = before.get(node).copied().unwrap_or((0, 0.0));
                assert_eq!(tree.nodes[node].reward, reward + 0.5);
            }
            if tree.root_solved() {
                break;
            }
        }
        assert!(through_answers > 0, "no path went through an answer");
    }
}
