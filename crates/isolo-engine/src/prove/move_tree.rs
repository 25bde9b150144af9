//! A position's moves as the provers combine them. Without the retreat a move is the
//! mover's alone, and a position's moves are one decision over their results. Under the
//! retreat (RULES.md 3.4) the opponent answers the mover's passes inside the move, so the
//! moves are a small tree of decisions: the mover's (its pit, take or pass, a lap's
//! direction) and the answerer's (retreat or stay), with the positions the moves can end
//! in as leaves. A tree is walked for one side (df-pn's attacker, the side whose
//! attractor a retrograde analysis computes): each decision says whether that side
//! makes it (an OR node for it) or its opponent does (an AND node). An option after
//! which the move cannot end (every sequence dies) is not one its side has, as in the
//! searchers (`search::alphabeta`).

use isolo_rules::POINTS_PER_PIT;
use isolo_rules::{Board, Choice, ChoicePoint, LegalMove, Move, MoveStep, MoveWalk, Side, Variant};

/// What an option of a decision leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kid {
    /// A position the move ends in (an index into `MoveTree::leaves`).
    Leaf(usize),
    /// A later decision in the move (an index into `MoveTree::nodes`).
    Node(usize),
}

/// What names an option: a listed move (without the retreat), or a walked move's pit
/// at the position's own decision and a choice's letter inside the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Letter {
    Listed,
    Pit(u8),
    Choice(Choice),
}

/// One decision: whose, and its live options in the notation's order.
#[derive(Clone, Debug)]
pub(crate) struct Decision {
    /// Whether the side the tree was walked for decides here (an OR node for it).
    pub for_side: bool,
    pub kids: Vec<(Letter, Kid)>,
}

/// A position's moves: decision 0 is the choice of pit (or of move, without the
/// retreat); every decision's options come after it in `nodes`. The leaves are the
/// positions the moves end in (`L`: as boards, or as a prover's indices of them).
#[derive(Clone, Debug)]
pub(crate) struct MoveTree<L = Board> {
    pub nodes: Vec<Decision>,
    pub leaves: Vec<L>,
    /// Whether some moves were left out (a pit's sequences past `POINTS_PER_PIT`).
    pub cut: bool,
    /// Whether the tree was walked decision by decision (under the retreat), rather
    /// than listed as moves.
    pub walked: bool,
}

impl MoveTree {
    /// The listed moves' results as one decision of the mover's (rules without the
    /// retreat): `for_side` when the mover is the side the tree is for.
    pub(super) fn listed(moves: &[LegalMove], for_side: bool, cut: bool) -> MoveTree {
        let kids = moves
            .iter()
            .enumerate()
            .map(|(i, _)| (Letter::Listed, Kid::Leaf(i)))
            .collect();
        MoveTree {
            nodes: vec![Decision { for_side, kids }],
            leaves: moves.iter().map(|m| m.child).collect(),
            cut,
            walked: false,
        }
    }

    /// `board`'s moves walked a decision at a time, for `side`. Depth first with a stack
    /// of its own: a move may hold as many decisions as `max_laps` allows.
    pub(super) fn walked(variant: &Variant, board: &Board, side: Side) -> MoveTree {
        let mover_is_side = board.to_move() == side;
        let mut tree = MoveTree {
            nodes: vec![Decision {
                for_side: mover_is_side,
                kids: Vec::new(),
            }],
            leaves: Vec::new(),
            cut: false,
            walked: true,
        };
        let mut walk = MoveWalk::new();
        let mut open: Vec<(ChoicePoint, bool, usize)> = Vec::new();
        let mut pits = variant.candidate_pits(board);
        while pits != 0 {
            let pit = pits.trailing_zeros() as u8 + 1;
            pits &= pits - 1;
            let step = variant.begin_move(board, pit, &mut walk);
            tree.add(0, Letter::Pit(pit), step, &mut open, mover_is_side);
            let mut steps = 0;
            while let Some((point, first, parent)) = open.pop() {
                steps += 1;
                if steps > POINTS_PER_PIT {
                    tree.cut = true;
                    open.clear();
                    break;
                }
                let step = variant.choose(&point, first, &mut walk);
                let letter = Letter::Choice(point.option(first));
                tree.add(parent, letter, step, &mut open, mover_is_side);
            }
        }
        tree.prune();
        tree
    }

    /// Adds where `step` stands as `parent`'s option `letter`: a leaf, a decision (its
    /// options pushed on `open`, the first on top), or nothing where the sequence died.
    fn add(
        &mut self,
        parent: usize,
        letter: Letter,
        step: MoveStep,
        open: &mut Vec<(ChoicePoint, bool, usize)>,
        mover_is_side: bool,
    ) {
        let kid = match step {
            MoveStep::Dead { .. } => return,
            MoveStep::End { child, .. } => {
                self.leaves.push(child);
                Kid::Leaf(self.leaves.len() - 1)
            }
            MoveStep::Choice(point) | MoveStep::Answer(point) => {
                let answer = matches!(step, MoveStep::Answer(_));
                self.nodes.push(Decision {
                    for_side: mover_is_side != answer,
                    kids: Vec::new(),
                });
                let id = self.nodes.len() - 1;
                open.push((point, false, id));
                open.push((point, true, id));
                Kid::Node(id)
            }
        };
        self.nodes[parent].kids.push((letter, kid));
    }

    /// Drops the options after which the move cannot end: decisions left without one.
    /// (Options come after their decision, so one pass from the last settles them.)
    fn prune(&mut self) {
        for id in (0..self.nodes.len()).rev() {
            let mut kids = std::mem::take(&mut self.nodes[id].kids);
            kids.retain(|&(_, kid)| match kid {
                Kid::Leaf(_) => true,
                Kid::Node(j) => !self.nodes[j].kids.is_empty(),
            });
            self.nodes[id].kids = kids;
        }
    }

    /// The tree with each leaf as `f` maps it.
    pub(super) fn map_leaves<L>(self, f: impl FnMut(Board) -> L) -> MoveTree<L> {
        MoveTree {
            nodes: self.nodes,
            leaves: self.leaves.into_iter().map(f).collect(),
            cut: self.cut,
            walked: self.walked,
        }
    }
}

impl<L> MoveTree<L> {
    /// Whether the side to move has no legal move.
    pub(super) fn is_empty(&self) -> bool {
        self.nodes[0].kids.is_empty()
    }

    /// Which decisions are proven (the side the tree is for can force the move to end
    /// in a proven leaf from there), given which leaves are: an OR node by one option,
    /// an AND node by all.
    pub(super) fn proven(&self, leaf_proven: &[bool]) -> Vec<bool> {
        self.proven_for(true, leaf_proven)
    }

    /// `proven` for the side the tree was walked for (`for_side`) or for its opponent:
    /// then the decisions of the tree's side are the AND nodes.
    pub(super) fn proven_for(&self, for_side: bool, leaf_proven: &[bool]) -> Vec<bool> {
        let mut proven = vec![false; self.nodes.len()];
        for id in (0..self.nodes.len()).rev() {
            let kid_proven = |&(_, kid): &(Letter, Kid)| match kid {
                Kid::Leaf(i) => leaf_proven[i],
                Kid::Node(j) => proven[j],
            };
            let node = &self.nodes[id];
            proven[id] = if node.for_side == for_side {
                node.kids.iter().any(kid_proven)
            } else {
                node.kids.iter().all(kid_proven)
            };
        }
        proven
    }

    /// Whether the walked move `mv` holds for the tree's side given the proven leaves:
    /// at each of its decisions on the way the option `mv` takes is proven, at each of
    /// the other side's every option is (so the other side's other moves and answers
    /// are answered too).
    pub(super) fn holds_along(&self, mv: &Move, leaf_proven: &[bool]) -> bool {
        let proven = self.proven(leaf_proven);
        let letters = std::iter::once(Letter::Pit(mv.pit))
            .chain(mv.choices.iter().map(|&c| Letter::Choice(c)));
        let mut id = 0;
        for letter in letters {
            let node = &self.nodes[id];
            let Some(&(_, kid)) = node.kids.iter().find(|(l, _)| *l == letter) else {
                return false;
            };
            let kid_proven = match kid {
                Kid::Leaf(i) => leaf_proven[i],
                Kid::Node(j) => proven[j],
            };
            if !kid_proven || (!node.for_side && !proven[id]) {
                return false;
            }
            match kid {
                Kid::Leaf(_) => return true,
                Kid::Node(j) => id = j,
            }
        }
        false
    }

    /// Each decision's rank for `for_side` (the tree's side, or its opponent) given the
    /// leaves' (`None`: not proven; lower: proven earlier): at the side's decisions the
    /// least of its options', at the other's the greatest, `None` where that side can
    /// keep out of the proven leaves.
    fn ranks(&self, for_side: bool, leaf_rank: &[Option<u64>]) -> Vec<Option<u64>> {
        let mut ranks = vec![None; self.nodes.len()];
        for id in (0..self.nodes.len()).rev() {
            let node = &self.nodes[id];
            let mut kids = node.kids.iter().map(|&(_, kid)| match kid {
                Kid::Leaf(i) => leaf_rank[i],
                Kid::Node(j) => ranks[j],
            });
            ranks[id] = if node.for_side == for_side {
                kids.flatten().min()
            } else {
                kids.try_fold(0, |most, rank| rank.map(|r| most.max(r)))
            };
        }
        ranks
    }

    /// A walked tree's strategy for `for_side` (as `ranks`) through proven leaves, where
    /// it has one: at each of its decisions the option of least rank, at the other
    /// side's every option. Its lines (`certificate::answers`): a whole move for each
    /// leaf reached where the side moves, else the moves half made up to each decision
    /// of its, with its letter; and the leaves reached.
    pub(super) fn strategy(
        &self,
        for_side: bool,
        leaf_rank: &[Option<u64>],
    ) -> Option<(Vec<Move>, Vec<usize>)> {
        let ranks = self.ranks(for_side, leaf_rank);
        ranks[0]?;
        let kid_rank = |kid: Kid| match kid {
            Kid::Leaf(i) => leaf_rank[i],
            Kid::Node(j) => ranks[j],
        };
        let side_moves = self.nodes[0].for_side == for_side;
        let (mut lines, mut leaves) = (Vec::new(), Vec::new());
        let mut open = vec![(0, Move::pit(0))];
        while let Some((id, prefix)) = open.pop() {
            let node = &self.nodes[id];
            let deciding = node.for_side == for_side;
            let options: Vec<(Letter, Kid)> = if deciding {
                let best = node
                    .kids
                    .iter()
                    .filter(|&&(_, kid)| kid_rank(kid).is_some())
                    .min_by_key(|&&(_, kid)| kid_rank(kid))
                    .copied()
                    .expect("a proven decision has a proven option");
                vec![best]
            } else {
                node.kids.clone()
            };
            for (letter, kid) in options {
                let mut mv = prefix.clone();
                match letter {
                    Letter::Listed => debug_assert!(false, "a listed tree names no letters"),
                    Letter::Pit(pit) => mv.pit = pit,
                    Letter::Choice(choice) => mv.choices.push(choice),
                }
                if deciding && !side_moves {
                    lines.push(mv.clone());
                }
                match kid {
                    Kid::Leaf(i) => {
                        leaves.push(i);
                        if side_moves {
                            lines.push(mv);
                        }
                    }
                    Kid::Node(j) => open.push((j, mv)),
                }
            }
        }
        Some((lines, leaves))
    }

    /// A walked move along proven options from decision 0 (proven): the side's first
    /// proven option at each of its decisions, its opponent's first at each of its; and
    /// the leaf it ends in.
    pub(super) fn proven_line(&self, proven: &[bool], leaf_proven: &[bool]) -> (Move, usize) {
        let kid_proven = |kid: Kid| match kid {
            Kid::Leaf(i) => leaf_proven[i],
            Kid::Node(j) => proven[j],
        };
        let mut mv = Move::pit(0);
        let mut id = 0;
        loop {
            let node = &self.nodes[id];
            let &(letter, kid) = node
                .kids
                .iter()
                .find(|&&(_, kid)| !node.for_side || kid_proven(kid))
                .expect("a proven decision has a proven option");
            match letter {
                Letter::Listed => debug_assert!(false, "a listed tree names no letters"),
                Letter::Pit(pit) => mv.pit = pit,
                Letter::Choice(choice) => mv.choices.push(choice),
            }
            match kid {
                Kid::Leaf(i) => return (mv, i),
                Kid::Node(j) => id = j,
            }
        }
    }
}
