//! A proof's certificate read from the labels on small boards: every reached position's
//! label is gathered on rank 0, which walks the game from the root as a certificate
//! gives it. After a win or loss, the winner's strategy: at each of its positions a move
//! to a child lost a ply sooner (so its lines are as long as the label says, and never
//! repeat). After a draw, each side's set: the positions the other side cannot force
//! (its labels, pessimistic where lists were cut), the side's move at its own into the
//! set, every move of the other's staying in it (the labels say so: a position whose
//! child is lost for its mover is won for it). Under the retreat each position's moves
//! are walked as a tree (`MoveTree`), and a side's lines are its decisions in both
//! sides' moves, as the certificates take them.

use std::collections::{HashMap, HashSet};

use super::super::spread::SpreadIndex;
use super::super::Holding;
use super::{LOST, ROUND_SHIFT, WON};
use crate::prove::move_tree::MoveTree;
use isolo_rules::{dead_position_outcome, searched_moves, Board, LegalMove, Move, Side, Variant};

/// The largest index whose runs may write a certificate: rank 0 then holds every
/// reached position's label (16 bytes each, more in its map) and each side's set.
pub const CERTIFICATE_INDEX: u64 = 1 << 22;

/// What a certificate is written from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DistributedProof {
    /// The winner's move at each of its positions its strategy reaches.
    Win {
        /// The side that wins.
        winner: Side,
        /// Its moves.
        strategy: Vec<(Board, Move)>,
    },
    /// Each side's set, South's first (see `certificate::DrawCertificate`).
    Draw([Holding; 2]),
}

/// Every reached position's label (mover's view), by number.
pub(super) type Labels = HashMap<u64, u32>;

/// The walk of the game from the root over the labels.
struct Walk<'a> {
    variant: &'a Variant,
    index: &'a SpreadIndex,
    labels: &'a Labels,
}

impl Walk<'_> {
    fn label(&self, board: &Board) -> u32 {
        self.labels.get(&self.index.of(board)).copied().unwrap_or(0)
    }

    fn round(&self, board: &Board) -> u32 {
        self.label(board) >> ROUND_SHIFT
    }

    /// Every position reached from `root` where `next` gives the positions to go on to,
    /// each visited once.
    fn visit(
        &self,
        root: &Board,
        mut next: impl FnMut(&Board) -> Result<Vec<Board>, String>,
    ) -> Result<(), String> {
        let mut seen = HashSet::from([*root]);
        let mut todo = vec![*root];
        while let Some(board) = todo.pop() {
            for child in next(&board)? {
                if seen.insert(child) {
                    todo.push(child);
                }
            }
        }
        Ok(())
    }

    /// The winner's strategy: at its positions a move to a child lost a ply sooner, at
    /// the loser's every move.
    fn strategy(&self, root: &Board, winner: Side) -> Result<Vec<(Board, Move)>, String> {
        let mut lines = Vec::new();
        let retreat = self.variant.has_retreat();
        self.visit(root, |board| {
            if retreat {
                // (At the winner's least rounds: each line ends a ply sooner.)
                let wins = |child: &Board| {
                    let label = self.label(child);
                    let bit = if child.to_move() == winner { WON } else { LOST };
                    (label & bit != 0).then_some(u64::from(label >> ROUND_SHIFT))
                };
                let tree = MoveTree::walked(self.variant, board, board.to_move());
                let text = || self.variant.format_position(board);
                return decided(&tree, board, winner, wins, &mut lines)
                    .ok_or_else(|| format!("{}: its winner cannot force its moves", text()));
            }
            let (moves, _) = searched_moves(self.variant, board);
            if board.to_move() != winner {
                return Ok(moves.into_iter().map(|m| m.child).collect());
            }
            let round = self.round(board);
            let sooner = |m: &LegalMove| {
                self.label(&m.child) & LOST != 0 && self.round(&m.child) + 1 == round
            };
            let best = moves.into_iter().find(sooner).ok_or_else(|| {
                let text = self.variant.format_position(board);
                format!("{text}, won in {round} plies, has no child lost a ply sooner")
            })?;
            lines.push((*board, best.mv));
            Ok(vec![best.child])
        })?;
        Ok(lines)
    }

    /// Whether the other side of `side` can force a win at `board`.
    fn attacked(&self, board: &Board, side: Side) -> bool {
        let label = self.label(board);
        match board.to_move() == side {
            true => label & LOST != 0,
            false => label & WON != 0,
        }
    }

    /// `side`'s set: where it moves, a move to a position the other side cannot force;
    /// where the other side moves, every move (none of them leads to such a position).
    fn holding(&self, root: &Board, side: Side) -> Result<Holding, String> {
        let mut holds = Vec::new();
        let fault = |board: &Board, why: &str| {
            let text = self.variant.format_position(board);
            format!("{text} in {side}'s set {why}")
        };
        let retreat = self.variant.has_retreat();
        self.visit(root, |board| {
            if retreat {
                return self
                    .held_walked(board, side, &mut holds)
                    .ok_or_else(|| fault(board, "has a move its side cannot keep in it"));
            }
            let (moves, _) = searched_moves(self.variant, board);
            if moves.is_empty() || dead_position_outcome(self.variant, board).is_some() {
                // (The other side without a move, or a dead position, drawn: an end.)
                holds.push((*board, None));
                return Ok(Vec::new());
            }
            if board.to_move() == side {
                let stay = moves.into_iter().find(|m| !self.attacked(&m.child, side));
                let stay = stay.ok_or_else(|| fault(board, "has no move that stays in it"))?;
                holds.push((*board, Some(stay.mv)));
                return Ok(vec![stay.child]);
            }
            let children: Vec<Board> = moves.into_iter().map(|m| m.child).collect();
            if children.iter().any(|child| self.attacked(child, side)) {
                return Err(fault(board, "has a move that leaves it"));
            }
            holds.push((*board, None));
            Ok(children)
        })?;
        Ok(holds)
    }

    /// `holding` under the retreat at `board`: `side`'s decisions in the move walked
    /// there, keeping it out of the positions the other side can force (a line `*`
    /// where it decides nothing), pushed on `holds`; the positions the move may end in
    /// (`None`: `side` cannot keep it out).
    fn held_walked(&self, board: &Board, side: Side, holds: &mut Holding) -> Option<Vec<Board>> {
        let tree = MoveTree::walked(self.variant, board, board.to_move());
        if tree.is_empty() || dead_position_outcome(self.variant, board).is_some() {
            // (The other side without a move, or a dead position, drawn: an end.)
            holds.push((*board, None));
            return Some(Vec::new());
        }
        let keep = |child: &Board| (!self.attacked(child, side)).then_some(0);
        let mut lines = Vec::new();
        let next = decided(&tree, board, side, keep, &mut lines)?;
        if lines.is_empty() {
            holds.push((*board, None));
        }
        holds.extend(lines.into_iter().map(|(b, mv)| (b, Some(mv))));
        Some(next)
    }
}

/// `side`'s decisions in the move `tree` walked at `board` by the least rank of the
/// positions it ends in (`MoveTree::strategy`; `rank`: `None` where `side` must keep
/// out), its lines pushed on `lines`; the positions they lead to, `None` where `side`
/// cannot force the move into ranked positions.
fn decided(
    tree: &MoveTree,
    board: &Board,
    side: Side,
    rank: impl Fn(&Board) -> Option<u64>,
    lines: &mut Vec<(Board, Move)>,
) -> Option<Vec<Board>> {
    let ranks: Vec<Option<u64>> = tree.leaves.iter().map(rank).collect();
    let (moves, leaves) = tree.strategy(board.to_move() == side, &ranks)?;
    lines.extend(moves.into_iter().map(|mv| (*board, mv)));
    Some(leaves.into_iter().map(|i| tree.leaves[i]).collect())
}

/// The proof of the value at `root` (won by `winner`, or drawn where `None`) from every
/// reached position's `labels`: a fault of the labels, in words, where they give none.
pub(super) fn read(
    variant: &Variant,
    index: &SpreadIndex,
    root: &Board,
    labels: &Labels,
    winner: Option<Side>,
) -> Result<DistributedProof, String> {
    let walk = Walk {
        variant,
        index,
        labels,
    };
    match winner {
        Some(winner) => Ok(DistributedProof::Win {
            winner,
            strategy: walk.strategy(root, winner)?,
        }),
        None => {
            let [south, north] = Side::BOTH.map(|side| walk.holding(root, side));
            Ok(DistributedProof::Draw([south?, north?]))
        }
    }
}
