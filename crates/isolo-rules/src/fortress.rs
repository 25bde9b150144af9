//! Fortresses: a few seeds their owner can keep out of capture for ever.
//!
//! Under `capture = both` a side's seeds can be taken only from a column where both its
//! pits hold seeds, and only the owner's own moves change its ring (sowing fills the
//! mover's ring alone). So a side whose seeds never stand two in a column when the
//! opponent is to move can never be captured, always has a move, and cannot lose. With
//! few seeds this is common: two seeds in neighbouring pits 1-2, 3-4, ... relay round the
//! ring two pits a move and never share a column; on 8 columns 106 of the 136 ways to
//! hold 2 seeds, and 1,846 of the 3,876 ways to hold 4, are such fortresses.
//!
//! The table lists, for every ring of up to `MAX_FORTRESS_SEEDS` seeds, whether its
//! owner, to move, can keep it so: the greatest set of rings from each of which one of
//! the owner's moves leads to a ring of the set with no column filled. The moves counted
//! are those legal whatever the opponent holds and never capturing: under optional
//! captures the all-pass move of each pit (found against an empty ring, which offers no
//! capture), under forced ones the moves whose laps never end in an occupied front pit
//! (found against a seed in every pit, keeping the moves that capture nothing). A lap
//! sown clockwise (RULES.md 3.7) is open only where the opponent's seeds allow it, so a
//! move with one is never counted on. This is a proof, not a guess: whatever either side
//! does, the owner keeps to the set and is never without a move.

//!
//! Here the table and what it says of a position; it is built from the rules' moves by
//! `variant/fortresses.rs` (`Fortresses::of`), so that this module knows nothing of move
//! generation and the variant, which keeps the table, imports it without a circle.

use std::collections::HashSet;

use super::board::Board;
use super::ring::{self, Ring};
use crate::side::Side;

/// The most seeds a side may hold for its fortress to be looked up: 20,356 rings on
/// 8 columns, listed in about 15 ms, once per rules.
pub const MAX_FORTRESS_SEEDS: u32 = 5;

/// The rings of up to `MAX_FORTRESS_SEEDS` seeds that their owner can hold for ever.
#[derive(Debug)]
pub struct Fortresses {
    /// Pairs of lanes that make up a column of the owner's (back, front).
    pub(crate) columns: Vec<(usize, usize)>,
    /// Rings the owner, to move, can keep out of capture for ever.
    pub(crate) safe: HashSet<Ring>,
    /// Rings sealed for ever, whatever the owner plays: the owner, to move, always has a
    /// move, and none of its moves from here on captures or leaves a column filled. No
    /// seed of a sealed ring can change hands again (a subset of `safe`).
    pub(crate) sealed: HashSet<Ring>,
}

impl Fortresses {
    /// Whether a column of `mine` has both pits occupied (so the opponent may capture).
    pub(crate) fn capturable(&self, mine: Ring) -> bool {
        self.columns
            .iter()
            .any(|&(back, front)| ring::lane(mine, back) > 0 && ring::lane(mine, front) > 0)
    }

    /// Whether `side` holds a fortress on `board`: it cannot lose from here, whatever
    /// either side plays.
    pub fn holds(&self, board: &Board, side: Side) -> bool {
        if board.side_total(side) > MAX_FORTRESS_SEEDS || board.in_overture(side) {
            return false;
        }
        let mine = board.ring(side);
        (board.to_move() == side || !self.capturable(mine)) && self.safe.contains(&mine)
    }

    /// Whether `side`'s seeds are sealed on `board`: whatever either side plays, none of
    /// them can be captured and none of its moves can capture, and it always has a move.
    pub fn sealed(&self, board: &Board, side: Side) -> bool {
        if board.side_total(side) > MAX_FORTRESS_SEEDS || board.in_overture(side) {
            return false;
        }
        let mine = board.ring(side);
        (board.to_move() == side || !self.capturable(mine)) && self.sealed.contains(&mine)
    }

    /// The side whose seeds are sealed on `board` (the side to move first), if either's
    /// are: a dead position, where no seed can ever change hands again.
    pub fn dead(&self, board: &Board) -> Option<Side> {
        let to_move = board.to_move();
        [to_move, to_move.opponent()]
            .into_iter()
            .find(|&side| self.sealed(board, side))
    }

    /// How many rings of `seeds` seeds are fortresses for their owner to move.
    pub fn count(&self, seeds: u32) -> usize {
        self.safe
            .iter()
            .filter(|&&r| ring::total(r) == seeds)
            .count()
    }
}
