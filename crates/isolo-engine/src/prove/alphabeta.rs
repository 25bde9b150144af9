//! The prover behind `solve`: the game-theoretic value of a position as a win or loss in
//! an exact number of plies, or unknown within the limits, never a guess.
//!
//! It is an exact alpha-beta with a transposition table (the alpha-beta searcher with an
//! evaluation that is the same for every unproven position, so only proofs count),
//! deepened one ply at a time up to `max_plies`: the first depth at which a result is
//! proven is its exact length (the shortest win, the longest defence). A position that
//! repeats one of the game or the search path counts as a draw, never a proof, so a
//! proven win holds however the loser tries to repeat.

use std::borrow::Cow;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::move_tree::MoveTree;
use crate::eval::Weights;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::tt::TableError;
use crate::search::{searched_moves, Limits, Progress, Score, SearchRequest, Searcher};
use isolo_rules::KeySet;
use isolo_rules::{Board, Move, MoveGen, Variant};

/// What the prover established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbVerdict {
    /// The side to move wins in exactly this many plies.
    Win(u32),
    /// The side to move loses in exactly this many plies (the longest defence).
    Loss(u32),
    /// Not proven within the limits.
    Unknown,
}

/// The prover's answer.
#[derive(Clone, Debug)]
pub struct Solution {
    /// What was proven.
    pub verdict: AbVerdict,
    /// The winning move, or the longest defence.
    pub best_move: Option<Move>,
    /// The line to the game's end.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Deepest completed iteration.
    pub depth: u32,
}

/// A prover for one variant.
pub struct Prover<'v> {
    /// The rules proved: the game without the long-game rule (RULES.md 3.6), whose
    /// positions carry no count of plies without a capture.
    variant: Cow<'v, Variant>,
    searcher: AlphaBeta,
    /// Nodes searched by this prover, its checks included.
    pub nodes: u64,
    /// Set to stop a proof early (Ctrl-C): the search ends as at its time limit.
    interrupt: Option<&'static AtomicBool>,
    /// When every search of this prover stops, its checks and proof walks included.
    deadline: Option<Instant>,
}

impl<'v> Prover<'v> {
    /// A prover with a table of `hash_mb` MB, or why the table cannot be made.
    pub fn new(
        variant: &'v Variant,
        threads: usize,
        hash_mb: usize,
    ) -> Result<Prover<'v>, TableError> {
        let searcher = AlphaBeta::new(AlphaBetaConfig {
            threads,
            hash_mb,
            weights: Some(Weights::zero()),
            // The prover needs proofs, not estimates.
            quiescence: 0,
            ..AlphaBetaConfig::default()
        })?;
        let variant = match variant.without_long_game() {
            Some(without) => Cow::Owned(without),
            None => Cow::Borrowed(variant),
        };
        Ok(Prover {
            variant,
            searcher,
            nodes: 0,
            interrupt: None,
            deadline: None,
        })
    }

    /// The prover, all of whose searches (proof walks and checks too) end by
    /// `deadline`: past it they prove nothing, and `out_of_time` says so.
    pub fn until(mut self, deadline: Option<Instant>) -> Prover<'v> {
        self.deadline = deadline;
        self
    }

    /// Whether the deadline has passed (a proof walk or a check after it is incomplete).
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The prover, stopping its proofs early once `flag` is set.
    pub fn stopping_on(mut self, flag: Option<&'static AtomicBool>) -> Prover<'v> {
        self.interrupt = flag;
        self
    }

    /// Proves `board` within `max_plies` (and `time`, if given).
    pub fn solve(
        &mut self,
        board: &Board,
        history: &[u64],
        max_plies: u32,
        time: Option<Duration>,
    ) -> Solution {
        self.solve_reporting(board, history, max_plies, time, &mut |_| {})
    }

    /// `solve`, calling `report` after each completed depth.
    pub(crate) fn solve_reporting(
        &mut self,
        board: &Board,
        history: &[u64],
        max_plies: u32,
        time: Option<Duration>,
        report: &mut dyn FnMut(&Progress),
    ) -> Solution {
        let started = Instant::now();
        let left = self.deadline.map(|d| d.saturating_duration_since(started));
        let time = match (time, left) {
            (Some(t), Some(l)) => Some(t.min(l)),
            (t, l) => t.or(l),
        };
        if time.is_some_and(|t| t.is_zero()) {
            return Solution {
                verdict: AbVerdict::Unknown,
                best_move: None,
                pv: Vec::new(),
                nodes: 0,
                time: Duration::ZERO,
                depth: 0,
            };
        }
        let request = SearchRequest {
            variant: &self.variant,
            board: *board,
            history: history.to_vec(),
            quiet_plies: 0,
            limits: Limits {
                depth: Some(max_plies.max(1)),
                time,
                nodes: None,
                soft_time: None,
            },
            multipv: 1,
            pv_lines: usize::MAX,
            stop: self.interrupt,
        };
        let result = self.searcher.search(&request, report);
        self.nodes += result.nodes;
        let best = result.best();
        let verdict = match best.map(|l| l.score) {
            Some(Score::Win(p)) if p <= max_plies => AbVerdict::Win(p),
            Some(Score::Loss(p)) if p <= max_plies => AbVerdict::Loss(p),
            None => AbVerdict::Loss(0),
            _ => AbVerdict::Unknown,
        };
        let proven = !matches!(verdict, AbVerdict::Unknown);
        Solution {
            verdict,
            best_move: best.filter(|_| proven).map(|l| l.mv.clone()),
            pv: best
                .filter(|_| proven)
                .map(|l| l.pv.clone())
                .unwrap_or_default(),
            nodes: result.nodes,
            time: started.elapsed(),
            depth: result.depth,
        }
    }

    /// Whether the side to move at `board` wins within `plies`.
    fn wins_within(&mut self, board: &Board, history: &[u64], plies: u32) -> bool {
        matches!(self.solve(board, history, plies, None).verdict, AbVerdict::Win(p) if p <= plies)
    }

    /// Whether the side to move at `board` loses within `plies` whatever it does.
    fn loses_within(&mut self, board: &Board, history: &[u64], plies: u32) -> bool {
        if !self.variant.has_legal_move(board, &mut MoveGen::new()) {
            return true;
        }
        matches!(self.solve(board, history, plies, None).verdict, AbVerdict::Loss(p) if p <= plies)
    }

    /// Checks a claimed result: the line is legal and ends the game as claimed; every
    /// alternative defence along it loses in time; and no shorter win (or, for a loss,
    /// no longer defence) exists at the root. The error says what failed.
    pub fn verify(
        &mut self,
        root: &Board,
        history: &[u64],
        verdict: AbVerdict,
        pv: &[Move],
    ) -> Result<(), String> {
        let (plies, root_wins) = match verdict {
            AbVerdict::Win(p) => (p, true),
            AbVerdict::Loss(p) => (p, false),
            AbVerdict::Unknown => return Ok(()),
        };
        if pv.len() as u32 != plies {
            return Err(format!(
                "the line has {} moves for a result in {plies} plies",
                pv.len()
            ));
        }
        // 1. Exactness at the root.
        if root_wins && plies > 1 && self.wins_within(root, history, plies - 2) {
            return Err(format!("a win shorter than {plies} plies exists"));
        }
        if !root_wins && !self.loses_within(root, history, plies) {
            return Err(format!("the root does not lose within {plies} plies"));
        }
        if !root_wins && plies >= 2 && self.loses_within(root, history, plies - 2) {
            return Err(format!("no defence lasts {plies} plies"));
        }
        // 2. The line, and every defence along it.
        let mut board = *root;
        let mut path = history.to_vec();
        for (i, mv) in pv.iter().enumerate() {
            let left = plies - i as u32 - 1;
            let winner_to_move = (i % 2 == 0) == root_wins;
            let Some(played) = self.variant.play_move(&board, mv) else {
                return Err(format!("move {} ({mv}) of the line is not legal", i + 1));
            };
            path.push(board.hash());
            if self.variant.has_retreat() {
                // Both sides decide in each move: the line's move, all the other side's.
                self.answered_move_holds(&board, mv, winner_to_move, &path, left)
                    .map_err(|why| format!("move {} ({mv}): {why}", i + 1))?;
            } else if winner_to_move {
                if !self.loses_within(&played.child, &path, left) {
                    return Err(format!(
                        "move {} ({mv}) does not win within {} plies",
                        i + 1,
                        left + 1
                    ));
                }
            } else {
                let (moves, truncated) = searched_moves(&self.variant, &board);
                if truncated {
                    return Err(format!(
                        "after move {i}, the defences reach too many positions to check them all"
                    ));
                }
                for defence in &moves {
                    if !self.loses_within_after(&defence.child, &path, left) {
                        return Err(format!(
                            "after move {}, the defence {} escapes a loss within {} plies",
                            i,
                            defence.mv,
                            left + 1
                        ));
                    }
                }
            }
            board = played.child;
        }
        if self.variant.winner(&board).is_none() {
            return Err("the line does not end the game".into());
        }
        Ok(())
    }

    /// Under the retreat, whether the line's move `mv` at `board` (on `path`) keeps the
    /// result within `left` plies after it, whatever the other side decides in it: the
    /// winner's decisions as `mv` makes them, every answer of the loser's, and where the
    /// loser moves, every move of its with the winner's answers at their best
    /// (`MoveTree::holds_along`).
    fn answered_move_holds(
        &mut self,
        board: &Board,
        mv: &Move,
        winner_to_move: bool,
        path: &[u64],
        left: u32,
    ) -> Result<(), String> {
        let Some((tree, lost)) = self.answered_tree(board, winner_to_move, path, left) else {
            return Err("its answers reach too many positions to check them all".into());
        };
        if tree.holds_along(mv, &lost) {
            Ok(())
        } else if winner_to_move {
            Err(format!(
                "some answer of the loser's escapes a loss within {} plies",
                left + 1
            ))
        } else {
            Err(format!(
                "some defence escapes a loss within {} plies, whatever the winner answers",
                left + 1
            ))
        }
    }

    /// After a defence, the winner (to move) wins within `plies`.
    fn loses_within_after(&mut self, board: &Board, history: &[u64], plies: u32) -> bool {
        plies > 0 && self.wins_within(board, history, plies)
    }

    /// Positions in the proof tree of a proven result (transpositions counted once), or
    /// `None` past `cap` positions.
    pub fn proof_size(
        &mut self,
        root: &Board,
        history: &[u64],
        verdict: AbVerdict,
        cap: usize,
    ) -> Option<usize> {
        self.proof(root, history, verdict, cap).map(|p| p.positions)
    }

    /// The proof tree of a proven result: its size and the winner's move at each of its
    /// positions; `None` past `cap` positions or for an unknown result.
    pub fn proof(
        &mut self,
        root: &Board,
        history: &[u64],
        verdict: AbVerdict,
        cap: usize,
    ) -> Option<ProofTree> {
        let (plies, root_wins) = match verdict {
            AbVerdict::Win(p) => (p, true),
            AbVerdict::Loss(p) => (p, false),
            AbVerdict::Unknown => return None,
        };
        let mut walk = ProofWalk {
            seen: KeySet::default(),
            path: history.to_vec(),
            strategy: Vec::new(),
            cap,
        };
        self.proof_walk(root, plies, root_wins, &mut walk)
            .then_some(ProofTree {
                positions: walk.seen.len(),
                strategy: walk.strategy,
            })
    }

    /// Adds the proof of `board` (winner to move if `winner`, proven within `plies`);
    /// false once past the cap.
    fn proof_walk(
        &mut self,
        board: &Board,
        plies: u32,
        winner: bool,
        walk: &mut ProofWalk,
    ) -> bool {
        if !walk.seen.insert(board.hash()) {
            return true;
        }
        if walk.seen.len() > walk.cap {
            return false;
        }
        let (moves, truncated) = searched_moves(&self.variant, board);
        if moves.is_empty() || plies == 0 {
            return true;
        }
        if truncated && !winner {
            // (A proof never passes there: the searchers prove no loss where moves were
            // left out.)
            return false;
        }
        walk.path.push(board.hash());
        if self.variant.has_retreat() {
            let ok = self.proof_walk_answered(board, plies, winner, walk);
            walk.path.pop();
            return ok;
        }
        let ok = if winner {
            // One winning move suffices: the first that keeps the loser lost in time.
            let mut found = false;
            for m in &moves {
                if self.loses_within(&m.child, &walk.path, plies - 1) {
                    walk.strategy.push((*board, m.mv.clone()));
                    found = self.proof_walk(&m.child, plies - 1, false, walk);
                    break;
                }
            }
            found
        } else {
            moves
                .iter()
                .all(|m| self.proof_walk(&m.child, plies - 1, true, walk))
        };
        walk.path.pop();
        ok
    }
}

impl Prover<'_> {
    /// `proof_walk` under the retreat (RULES.md 3.4), `board` on the path: the winner
    /// decides in both sides' moves (its answers in the loser's), so its decisions at
    /// `board` are read from the tree of its moves (`MoveTree::strategy`), each option
    /// one whose positions lose within the plies left, and pushed as lines
    /// (`certificate::answers`).
    fn proof_walk_answered(
        &mut self,
        board: &Board,
        plies: u32,
        winner: bool,
        walk: &mut ProofWalk,
    ) -> bool {
        let Some((tree, lost)) = self.answered_tree(board, winner, &walk.path, plies - 1) else {
            return false;
        };
        let leaf_rank: Vec<Option<u64>> = lost.iter().map(|&l| l.then_some(0)).collect();
        let Some((lines, leaves)) = tree.strategy(true, &leaf_rank) else {
            return false;
        };
        walk.strategy
            .extend(lines.into_iter().map(|mv| (*board, mv)));
        let mut seen = KeySet::default();
        leaves
            .into_iter()
            .map(|i| tree.leaves[i])
            .filter(|child| seen.insert(child.hash()))
            .all(|child| self.proof_walk(&child, plies - 1, !winner, walk))
    }

    /// Under the retreat, `board`'s moves as a tree walked for the winner (the side to
    /// move if `winner_to_move`) and, for each position they end in, whether the loser
    /// loses there within `left` plies (after `path`); `None` where the tree was cut.
    fn answered_tree(
        &mut self,
        board: &Board,
        winner_to_move: bool,
        path: &[u64],
        left: u32,
    ) -> Option<(MoveTree, Vec<bool>)> {
        let winner = if winner_to_move {
            board.to_move()
        } else {
            board.to_move().opponent()
        };
        let tree = MoveTree::walked(&self.variant, board, winner);
        if tree.cut {
            return None;
        }
        let lost = tree
            .leaves
            .iter()
            .map(|child| {
                if winner_to_move {
                    self.loses_within(child, path, left)
                } else {
                    self.loses_within_after(child, path, left)
                }
            })
            .collect();
        Some((tree, lost))
    }
}

/// The proof of a proven result, as `Prover::proof` finds it.
#[derive(Clone, Debug)]
pub struct ProofTree {
    /// Distinct positions in it.
    pub positions: usize,
    /// The winner's move at each of its positions.
    pub strategy: Vec<(Board, Move)>,
}

/// The state of a walk over a proof.
struct ProofWalk {
    seen: KeySet,
    path: Vec<u64>,
    strategy: Vec<(Board, Move)>,
    cap: usize,
}
