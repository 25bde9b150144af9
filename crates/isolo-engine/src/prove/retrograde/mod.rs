//! Retrograde analysis of the positions reachable from one position, as far as they fit:
//! the prover of draws, and of wins and losses in small games.
//!
//! It lists the reachable positions breadth first (up to a count and a time limit; the
//! rest are the frontier), then computes attractors backwards from the final positions.
//! Dead positions the rules end (`dead_position`) are final: listed without moves, won
//! by the side the rules name or drawn. The attractor of side X: positions where the
//! side to move has no move and is not X, and dead positions X wins;
//! a position where X is to move with one move into the attractor; a position where the
//! other side is to move with every move into it. The attractor is exactly where X can
//! force a win, and following it the win comes in finitely many plies along lines that
//! never repeat (each move goes to a position added earlier).
//!
//! Under the retreat (RULES.md 3.4) the opponent answers the mover's passes inside the
//! move: each listed position keeps its moves as a tree of decisions (`MoveTree`), and a
//! position enters X's attractor when X can force its move (its own decisions against
//! the other side's) to end in the attractor. A position whose tree was cut enters no
//! exact attractor, and every pessimistic one. A side's strategy there is its
//! decisions at both sides' positions (it answers in the other's moves).
//!
//! Draws: in the pessimistic attractor of X, every frontier position, and every position
//! where X is to move whose moves the generator could not list whole, counts as won by
//! X. Outside it, X's opponent always has a move that stays outside, and X none that
//! leads in: play can only go on forever (a third repetition: a draw) or end with X
//! unable to move. So a position outside both sides' pessimistic attractors is a draw
//! however the game reached it, and such a proof holds whatever the game before it.

mod bits;
pub mod distributed;
pub mod indexed;
mod spread;

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use super::move_tree::MoveTree;
use isolo_rules::searched_moves;
use isolo_rules::KeyMap;
use isolo_rules::{Board, Move, Side, Variant};

/// What one listed position costs in memory (the board, its index entry, its moves and
/// their reverse), for a memory limit.
pub const BYTES_PER_POSITION: usize = 128;

/// Positions listed between two looks at the clock.
const DEADLINE_CHECK_EVERY: usize = 1024;

/// How far the analysis may go.
#[derive(Clone, Copy, Debug)]
pub struct RetroLimits {
    /// Positions listed at most (the frontier may add a node's worth more).
    pub positions: usize,
    /// Wall time for listing them.
    pub time: Option<Duration>,
    /// Whether to read the winner's strategy after a win or loss, or each side's
    /// strategy that never loses after a draw (for a certificate).
    pub strategy: bool,
    /// Set to stop listing early (Ctrl-C), as the time limit does.
    pub interrupt: Option<&'static std::sync::atomic::AtomicBool>,
}

/// The value of the position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetroVerdict {
    /// It can force a win.
    Win,
    /// Its opponent can force a win.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// Not determined from the positions listed.
    Unknown,
}

impl RetroVerdict {
    /// The side that wins, `mover` being the side to move at the position: none for a
    /// draw or an unknown value.
    pub fn winner(self, mover: Side) -> Option<Side> {
        match self {
            RetroVerdict::Win => Some(mover),
            RetroVerdict::Loss => Some(mover.opponent()),
            RetroVerdict::Draw | RetroVerdict::Unknown => None,
        }
    }
}

/// The positions one side keeps to, each with its move where it is to move.
pub type Holding = Vec<(Board, Option<Move>)>;

/// The analysis' answer.
#[derive(Clone, Debug)]
pub struct RetroResult {
    /// What was proven.
    pub verdict: RetroVerdict,
    /// Positions listed (their moves generated).
    pub expanded: usize,
    /// Positions reached but not listed.
    pub frontier: usize,
    /// Whether every reachable position was listed whole (then the value is exact).
    pub complete: bool,
    /// Wall time.
    pub time: Duration,
    /// For a win or loss, when asked: the winner's move at each of its positions in the
    /// proof.
    pub strategy: Option<Vec<(Board, Move)>>,
    /// For a draw, when asked: each side's set of positions it never has to leave, South's
    /// first, with its move where it is to move (see `certificate::DrawCertificate`).
    pub holds: Option<[Holding; 2]>,
}

/// The reachable graph: positions by index, the moves of the listed ones, and the moves
/// into each position.
struct Graph {
    boards: Vec<Board>,
    /// `children[offsets[i]..offsets[i + 1]]`: the positions position `i` moves to,
    /// each once (listed positions only: `i < offsets.len() - 1`).
    offsets: Vec<usize>,
    children: Vec<u32>,
    /// Listed positions whose move list was cut short.
    cut: HashSet<u32>,
    /// Listed dead positions the rules end (`dead_position`), listed without moves:
    /// each with its winner, `None` for a draw.
    ends: HashMap<u32, Option<Side>>,
    parents_offsets: Vec<usize>,
    parents: Vec<u32>,
    /// Under the retreat, each listed position's moves as a tree walked for its mover,
    /// the leaves as indices of `boards`; empty without the retreat.
    trees: Vec<MoveTree<u32>>,
}

impl Graph {
    fn expanded(&self) -> usize {
        self.offsets.len() - 1
    }

    fn children_of(&self, node: usize) -> &[u32] {
        &self.children[self.offsets[node]..self.offsets[node + 1]]
    }

    fn parents_of(&self, node: usize) -> &[u32] {
        &self.parents[self.parents_offsets[node]..self.parents_offsets[node + 1]]
    }

    /// Lists the positions reachable from `root`, breadth first, within the limits.
    fn build(
        variant: &Variant,
        root: &Board,
        limits: &RetroLimits,
        deadline: Option<Instant>,
    ) -> Graph {
        let mut index: KeyMap<u32> = KeyMap::from_iter([(root.hash(), 0)]);
        let mut graph = Graph {
            boards: vec![*root],
            offsets: vec![0],
            children: Vec::new(),
            cut: HashSet::new(),
            ends: HashMap::new(),
            parents_offsets: Vec::new(),
            parents: Vec::new(),
            trees: Vec::new(),
        };
        let retreat = variant.has_retreat();
        let mut next = 0;
        // The current position's children, each once, and its moves' results.
        let mut ids: Vec<u32> = Vec::new();
        let mut results: Vec<Board> = Vec::new();
        while next < graph.boards.len() && graph.boards.len() < limits.positions.max(1) {
            if next % DEADLINE_CHECK_EVERY == 0
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || crate::raised(limits.interrupt))
            {
                break;
            }
            let board = graph.boards[next];
            // Its moves' results: listed, or under the retreat the leaves of its tree.
            let mut tree = None;
            let mut cut = if retreat {
                let walked = MoveTree::walked(variant, &board, board.to_move());
                results.clear();
                results.extend_from_slice(&walked.leaves);
                let cut = walked.cut;
                tree = Some(walked);
                cut
            } else {
                let (moves, cut) = searched_moves(variant, &board);
                results.clear();
                results.extend(moves.iter().map(|m| m.child));
                cut
            };
            // (A mover without a move has lost before any dead position is counted.)
            if !results.is_empty() {
                if let Some(end) = isolo_rules::dead_position_outcome(variant, &board) {
                    graph.ends.insert(next as u32, end.winner);
                    results.clear();
                    cut = false;
                    tree = tree.map(|_| MoveTree::listed(&[], true, false));
                }
            }
            if cut {
                graph.cut.insert(next as u32);
            }
            ids.clear();
            for child in &results {
                ids.push(*index.entry(child.hash()).or_insert_with(|| {
                    graph.boards.push(*child);
                    (graph.boards.len() - 1) as u32
                }));
            }
            if let Some(tree) = tree {
                let mut leaf_ids = ids.iter().copied();
                let tree = tree.map_leaves(|_| leaf_ids.next().expect("a leaf's index"));
                graph.trees.push(tree);
            }
            ids.sort_unstable();
            ids.dedup();
            graph.children.extend_from_slice(&ids);
            graph.offsets.push(graph.children.len());
            next += 1;
        }
        graph.link_parents();
        graph
    }

    /// The reverse of the move lists.
    fn link_parents(&mut self) {
        let n = self.boards.len();
        let mut counts = vec![0usize; n + 1];
        for &c in &self.children {
            counts[c as usize + 1] += 1;
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let mut fill = counts.clone();
        self.parents = vec![0; self.children.len()];
        for node in 0..self.expanded() {
            for k in self.offsets[node]..self.offsets[node + 1] {
                let c = self.children[k] as usize;
                self.parents[fill[c]] = node as u32;
                fill[c] += 1;
            }
        }
        self.parents_offsets = counts;
    }

    /// The attractor of `x`: each position's rank of entry (1 for the first), 0 outside.
    /// `pessimistic`: frontier positions, and cut lists where `x` is to move, count as
    /// won by `x`, and a cut list of the other side as whole (see the module's notes).
    fn attractor(&self, x: Side, pessimistic: bool) -> Vec<u32> {
        let retreat = !self.trees.is_empty();
        let n = self.boards.len();
        let mut rank = vec![0u32; n];
        let mut waiting: Vec<u32> = (0..self.expanded())
            .map(|i| self.children_of(i).len() as u32)
            .collect();
        let mut queue = VecDeque::new();
        let mut added = 0u32;
        let mut add = |node: usize, rank: &mut Vec<u32>, queue: &mut VecDeque<usize>| {
            added += 1;
            rank[node] = added;
            queue.push_back(node);
        };
        for node in 0..n {
            let mover = self.boards[node].to_move();
            let cut = self.cut.contains(&(node as u32));
            let seed = if node >= self.expanded() {
                pessimistic
            } else if let Some(winner) = self.ends.get(&(node as u32)) {
                *winner == Some(x)
            } else if self.children_of(node).is_empty() && !cut {
                mover != x
            } else {
                // (Under the retreat a cut tree may miss either side's decisions.)
                pessimistic && cut && (mover == x || retreat)
            };
            if seed {
                add(node, &mut rank, &mut queue);
            }
        }
        while let Some(node) = queue.pop_front() {
            for &p in self.parents_of(node) {
                let p = p as usize;
                if rank[p] != 0 {
                    continue;
                }
                if retreat {
                    if !self.cut.contains(&(p as u32)) && self.forced(p, x, &rank) {
                        add(p, &mut rank, &mut queue);
                    }
                } else if self.boards[p].to_move() == x {
                    add(p, &mut rank, &mut queue);
                } else {
                    waiting[p] -= 1;
                    if waiting[p] == 0 && (pessimistic || !self.cut.contains(&(p as u32))) {
                        add(p, &mut rank, &mut queue);
                    }
                }
            }
        }
        rank
    }

    /// Under the retreat, whether `x` can force listed position `node`'s move to end in
    /// its attractor as `rank` has it so far.
    fn forced(&self, node: usize, x: Side, rank: &[u32]) -> bool {
        let tree = &self.trees[node];
        let inside: Vec<bool> = tree.leaves.iter().map(|&c| rank[c as usize] != 0).collect();
        let mover_is_x = self.boards[node].to_move() == x;
        tree.proven_for(mover_is_x, &inside)[0]
    }

    /// The strategy of `x` in its attractor `rank` from the root: at each of its
    /// positions a move to a position of lower rank.
    fn strategy(&self, variant: &Variant, x: Side, rank: &[u32]) -> Vec<(Board, Move)> {
        let mut strategy = Vec::new();
        let mut seen = HashSet::from([0usize]);
        let mut todo = vec![0usize];
        while let Some(node) = todo.pop() {
            let next: Vec<usize> = if !self.trees.is_empty() {
                // (A final position has no tree to decide in.)
                let leaf_rank =
                    |c: u32| (rank[c as usize] != 0).then_some(u64::from(rank[c as usize]));
                self.decided(node, x, leaf_rank, &mut strategy)
                    .unwrap_or_default()
            } else if self.boards[node].to_move() == x {
                let best = self
                    .children_of(node)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| rank[c] != 0 && rank[c] < rank[node])
                    .min_by_key(|&c| rank[c]);
                let Some(best) = best else { continue };
                let board = &self.boards[node];
                let (moves, _) = searched_moves(variant, board);
                let target = self.boards[best].hash();
                let mv = moves
                    .into_iter()
                    .find(|m| m.child.hash() == target)
                    .map(|m| m.mv)
                    .expect("the graph's moves are the list's");
                strategy.push((*board, mv));
                vec![best]
            } else {
                self.children_of(node).iter().map(|&c| c as usize).collect()
            };
            for c in next {
                if seen.insert(c) {
                    todo.push(c);
                }
            }
        }
        strategy
    }

    /// Under the retreat, `x`'s decisions at listed position `node` by least leaf rank
    /// (`MoveTree::strategy`), its lines pushed on `lines`: the positions they lead
    /// to, `None` where `x` cannot force the move into the ranked positions or `node`
    /// is final.
    fn decided(
        &self,
        node: usize,
        x: Side,
        leaf_rank: impl Fn(u32) -> Option<u64>,
        lines: &mut Vec<(Board, Move)>,
    ) -> Option<Vec<usize>> {
        let board = self.boards[node];
        if node >= self.expanded() || self.ends.contains_key(&(node as u32)) {
            return None;
        }
        let tree = &self.trees[node];
        let ranks: Vec<Option<u64>> = tree.leaves.iter().map(|&c| leaf_rank(c)).collect();
        let for_mover = board.to_move() == x;
        let (moves, leaves) = tree.strategy(for_mover, &ranks)?;
        lines.extend(moves.into_iter().map(|mv| (board, mv)));
        Some(
            leaves
                .into_iter()
                .map(|i| tree.leaves[i] as usize)
                .collect(),
        )
    }

    /// The positions `side` keeps to from the root outside `attacker`, the other side's
    /// pessimistic attractor: at its own, a move that stays outside (one exists, or the
    /// position would be in it); at the other's, every move stays outside (all listed:
    /// a cut list there counts as in the attractor).
    fn holding(&self, variant: &Variant, side: Side, attacker: &[u32]) -> Holding {
        let mut holds = Vec::new();
        let mut seen = HashSet::from([0usize]);
        let mut todo = vec![0usize];
        while let Some(node) = todo.pop() {
            debug_assert!(attacker[node] == 0 && node < self.expanded());
            let board = &self.boards[node];
            let next: Vec<usize> = if self.ends.contains_key(&(node as u32)) {
                // A dead position outside the attacker's attractor: a draw or `side`'s
                // win, where the game ends.
                holds.push((*board, None));
                Vec::new()
            } else if !self.trees.is_empty() {
                let outside = |c: u32| (attacker[c as usize] == 0).then_some(0);
                let mut lines = Vec::new();
                let next = self
                    .decided(node, side, outside, &mut lines)
                    .expect("a position outside the attractor keeps its moves outside");
                if lines.is_empty() {
                    holds.push((*board, None));
                }
                holds.extend(lines.into_iter().map(|(b, mv)| (b, Some(mv))));
                next
            } else if board.to_move() == side {
                let stay = self
                    .children_of(node)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| attacker[c] == 0)
                    .expect("a position outside the attractor has a move that stays out");
                let target = self.boards[stay].hash();
                let mv = searched_moves(variant, board)
                    .0
                    .into_iter()
                    .find(|m| m.child.hash() == target)
                    .map(|m| m.mv)
                    .expect("the graph's moves are the list's");
                holds.push((*board, Some(mv)));
                vec![stay]
            } else {
                holds.push((*board, None));
                self.children_of(node).iter().map(|&c| c as usize).collect()
            };
            for c in next {
                if seen.insert(c) {
                    todo.push(c);
                }
            }
        }
        holds
    }
}

/// Analyses the positions reachable from `board` within `limits`.
pub fn solve(variant: &Variant, board: &Board, limits: RetroLimits) -> RetroResult {
    let started = Instant::now();
    let deadline = limits.time.map(|t| started + t);
    let graph = Graph::build(variant, board, &limits, deadline);
    let mover = board.to_move();
    let frontier = graph.boards.len() - graph.expanded();
    let complete = frontier == 0 && graph.cut.is_empty();
    let mut strategy = None;
    let mut verdict = RetroVerdict::Unknown;
    for (x, won) in [
        (mover, RetroVerdict::Win),
        (mover.opponent(), RetroVerdict::Loss),
    ] {
        let rank = graph.attractor(x, false);
        if rank[0] != 0 {
            verdict = won;
            strategy = limits.strategy.then(|| graph.strategy(variant, x, &rank));
            break;
        }
    }
    let mut holds = None;
    if verdict == RetroVerdict::Unknown {
        // Complete, the pessimistic attractors are the exact ones, just found empty at
        // the root.
        let attackers = Side::BOTH.map(|x| graph.attractor(x, true));
        if attackers.iter().all(|rank| rank[0] == 0) {
            verdict = RetroVerdict::Draw;
            holds = limits.strategy.then(|| {
                Side::BOTH
                    .map(|side| graph.holding(variant, side, &attackers[side.opponent() as usize]))
            });
        }
    }
    RetroResult {
        verdict,
        expanded: graph.expanded(),
        frontier,
        complete,
        time: started.elapsed(),
        strategy,
        holds,
    }
}
