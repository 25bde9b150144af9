//! A position's moves as df-pn combines them. Without the retreat a move is the mover's
//! alone, and a position's moves are one decision over their results: an OR node at the
//! attacker's positions, an AND node at the defender's. Under the retreat (RULES.md 3.4)
//! the opponent answers the mover's passes inside the move, so the move is a small tree
//! of decisions: the mover's (its pit, take or pass, a lap's direction) and the
//! answerer's (retreat or stay), each an OR node where the attacker decides and an AND
//! node where the defender does, with the positions the move can end in as leaves. An
//! option after which the move cannot end (every sequence dies) is not one its side
//! has, as in the searchers (`search::alphabeta`).
//!
//! The decisions inside a move are not positions: they have no table entries, and their
//! numbers are combined afresh from the leaves' whenever the position's are.

use isolo_rules::moves::POINTS_PER_PIT;
use isolo_rules::{Board, Choice, ChoicePoint, LegalMove, Move, MoveStep, MoveWalk, Side, Variant};

/// What an option of a decision leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kid {
    /// A position the move ends in (an index into `MoveTree::leaves`).
    Leaf(usize),
    /// A later decision in the move (an index into `MoveTree::nodes`).
    Node(usize),
}

/// What names an option: a listed move (without the retreat), or a walked move's pit
/// at the position's own decision and a choice's letter inside the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Letter {
    Listed,
    Pit(u8),
    Choice(Choice),
}

/// One decision: whose, and its live options in the notation's order.
#[derive(Clone, Debug)]
pub(super) struct Decision {
    /// Whether the attacker decides here (an OR node).
    pub attacker: bool,
    pub kids: Vec<(Letter, Kid)>,
}

/// A position's moves: decision 0 is the choice of pit (or of move, without the
/// retreat); every decision's options come after it in `nodes`.
#[derive(Clone, Debug)]
pub(super) struct MoveTree {
    pub nodes: Vec<Decision>,
    pub leaves: Vec<Board>,
    /// Whether some moves were left out (a pit's sequences past `POINTS_PER_PIT`).
    pub cut: bool,
    /// Whether the tree was walked decision by decision (under the retreat), rather
    /// than listed as moves.
    pub walked: bool,
}

impl MoveTree {
    /// The listed moves' results as one decision of the mover's (rules without the
    /// retreat): `attacking` when the mover is the attacker.
    pub fn listed(moves: &[LegalMove], attacking: bool, cut: bool) -> MoveTree {
        let kids = moves
            .iter()
            .enumerate()
            .map(|(i, _)| (Letter::Listed, Kid::Leaf(i)))
            .collect();
        MoveTree {
            nodes: vec![Decision {
                attacker: attacking,
                kids,
            }],
            leaves: moves.iter().map(|m| m.child).collect(),
            cut,
            walked: false,
        }
    }

    /// `board`'s moves walked a decision at a time, for the search proving `attacker`'s
    /// win. Depth first with a stack of its own: a move may hold as many decisions as
    /// `max_laps` allows.
    pub fn walked(variant: &Variant, board: &Board, attacker: Side) -> MoveTree {
        let mover_attacks = board.to_move() == attacker;
        let mut tree = MoveTree {
            nodes: vec![Decision {
                attacker: mover_attacks,
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
            tree.add(0, Letter::Pit(pit), step, &mut open, mover_attacks);
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
                tree.add(parent, letter, step, &mut open, mover_attacks);
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
        mover_attacks: bool,
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
                    attacker: mover_attacks != answer,
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

    /// Whether the side to move has no legal move.
    pub fn is_empty(&self) -> bool {
        self.nodes[0].kids.is_empty()
    }

    /// Which decisions and leaves are proven (the attacker wins through them), given
    /// which leaves are: an OR node by one option, an AND node by all.
    pub fn proven(&self, leaf_proven: &[bool]) -> Vec<bool> {
        let mut proven = vec![false; self.nodes.len()];
        for id in (0..self.nodes.len()).rev() {
            let kid_proven = |&(_, kid): &(Letter, Kid)| match kid {
                Kid::Leaf(i) => leaf_proven[i],
                Kid::Node(j) => proven[j],
            };
            let node = &self.nodes[id];
            proven[id] = if node.attacker {
                node.kids.iter().any(kid_proven)
            } else {
                node.kids.iter().all(kid_proven)
            };
        }
        proven
    }

    /// A walked move along proven options from decision 0 (proven): the attacker's
    /// first proven option at each of its decisions, the defender's first at each of
    /// its; and the leaf it ends in.
    pub fn proven_line(&self, proven: &[bool], leaf_proven: &[bool]) -> (Move, usize) {
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
                .find(|&&(_, kid)| !node.attacker || kid_proven(kid))
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
