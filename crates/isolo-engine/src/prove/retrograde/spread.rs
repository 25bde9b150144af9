//! The numbering of every position holding a given number of seeds, seen from its
//! mover, that the indexed and the distributed analyses share, and the distinct
//! children of a numbered position as both list them.
//!
//! Sowing and capturing never remove seeds, so every position of a game holds the
//! root's seeds, spread over the 4W pits. A position and its exchange
//! (`Board::swapped`) share a number: positions are seen as South to move. A
//! position's number is the rank of the seeds' spread, the mover's pits first, among
//! all spreads (the combinatorial number system of compositions), times the flags. The
//! positions sharing the mover's half-board form one run of numbers.

use crate::prove::move_tree::{Kid, MoveTree};
use isolo_rules::{dead_position_outcome, move_generator, Board, Listing, Pits, Side, Variant};

/// A count of positions in words, where `u64::MAX` stands for a count that saturated.
pub(crate) fn positions_text(count: u64) -> String {
    match count {
        u64::MAX => "more than 2^64 positions".to_string(),
        n => format!("{n} positions"),
    }
}

/// The numbering of every position with a given number of seeds, seen from its mover.
pub(crate) struct SpreadIndex {
    /// Pits on the board (both rings), in order: the mover's lanes, then the other's.
    pits: usize,
    /// Lanes of one ring.
    lanes: usize,
    seeds: usize,
    /// Values of the overture flags (4 where the rules have an overture, else 1), of
    /// the first-move flags (4 where first moves are barred from capturing, else 1) and
    /// of all the flags (times 2 more where a capture can win: the lost flag).
    overture_values: u64,
    first_move_values: u64,
    flag_values: u64,
    /// `compositions[m][n]`: the ways to spread `n` seeds over `m` pits (saturated).
    compositions: Vec<Vec<u64>>,
    /// Positions numbered (`u64::MAX`: more than 64 bits can number).
    pub(crate) size: u64,
}

impl SpreadIndex {
    pub(crate) fn new(variant: &Variant, seeds: usize) -> SpreadIndex {
        let lanes = variant.pits();
        debug_assert!(lanes <= Pits::MAX);
        let pits = 2 * lanes;
        let mut compositions = vec![vec![0u64; seeds + 1]; pits + 1];
        compositions[0][0] = 1;
        for m in 1..=pits {
            // Spreads of n over m pits: the last pit's share v, the rest (n - v) over
            // m - 1, summed over v: a running sum of the row before.
            let mut sum = 0u64;
            let fewer = compositions[m - 1].clone();
            for (n, slot) in compositions[m].iter_mut().enumerate() {
                sum = sum.saturating_add(fewer[n]);
                *slot = sum;
            }
        }
        let overture_values = if variant.rules().overture() { 4 } else { 1 };
        let first_move_values = if variant.has_first_move_flags() { 4 } else { 1 };
        let lost_values = if variant.has_capture_win() { 2 } else { 1 };
        let flag_values = overture_values * first_move_values * lost_values;
        let size = compositions[pits][seeds].saturating_mul(flag_values);
        SpreadIndex {
            pits,
            lanes,
            seeds,
            overture_values,
            first_move_values,
            flag_values,
            compositions,
            size,
        }
    }

    /// The index of every position holding `board`'s seeds.
    pub(crate) fn of_board(variant: &Variant, board: &Board) -> SpreadIndex {
        let seeds = board.side_total(Side::South) + board.side_total(Side::North);
        SpreadIndex::new(variant, seeds as usize)
    }

    /// The number of `board`, and of its exchange.
    pub(crate) fn of(&self, board: &Board) -> u64 {
        let mover = board.to_move();
        let sides = [board.pits(mover), board.pits(mover.opponent())];
        let mut rank = 0u64;
        let mut left = self.seeds;
        for pit in 0..self.pits - 1 {
            let here = sides[pit / self.lanes].seeds(pit % self.lanes) as usize;
            let parts = self.pits - pit;
            // The spreads whose pit `pit` holds fewer seeds come first.
            rank += self.compositions[parts][left] - self.compositions[parts][left - here];
            left -= here;
        }
        let overture = board.overture_flags_seen_by(mover) as u64 % self.overture_values;
        let first_moves = board.first_move_flags_seen_by(mover) as u64;
        let lost = board.ends_captured() as u64;
        let flags = overture + (first_moves + lost * self.first_move_values) * self.overture_values;
        rank * self.flag_values + flags % self.flag_values
    }

    /// The position numbered `index`, South to move.
    pub(crate) fn board(&self, index: u64) -> Board {
        let flags = index % self.flag_values;
        let mut rank = index / self.flag_values;
        let mut sides = [Pits::default(); 2];
        let mut left = self.seeds;
        for pit in 0..self.pits {
            let parts = self.pits - pit;
            let mut here = 0;
            if parts == 1 {
                here = left;
            } else {
                let all = self.compositions[parts][left];
                while here < left && all - self.compositions[parts][left - here - 1] <= rank {
                    here += 1;
                }
                rank -= all - self.compositions[parts][left - here];
            }
            let (side, lane) = (pit / self.lanes, pit % self.lanes);
            sides[side] = sides[side].with_seeds(lane, here as u8);
            left -= here;
        }
        let overture = flags % self.overture_values;
        let rest = flags / self.overture_values;
        let (first_moves, lost) = (rest % self.first_move_values, rest / self.first_move_values);
        let flags = overture | first_moves << 2 | lost << 4;
        Board::from_pits(sides, Side::South, flags as u8)
    }
}

/// The numbers of the distinct positions the moves of position `position` lead to (the
/// shared list's, as `searched_moves` lists them, without their names), sorted, in
/// `out`; whether the list was cut short. A dead position the rules draw (the analyses
/// refuse counted ones) moves only to itself, so that no label ever reaches it (a
/// mover without a move has lost before any dead position is counted).
pub(crate) fn distinct_children(
    variant: &Variant,
    index: &SpreadIndex,
    position: u64,
    out: &mut Vec<u64>,
) -> bool {
    out.clear();
    let mut gen = move_generator();
    let board = index.board(position);
    variant.visit_moves(&board, Variant::ALL_PITS, Listing::Results, &mut gen, |m| {
        out.push(index.of(&m.child))
    });
    let mut truncated = gen.truncated();
    if !out.is_empty() && dead_position_outcome(variant, &board).is_some() {
        out.clear();
        out.push(position);
        truncated = false;
    }
    out.sort_unstable();
    out.dedup();
    truncated
}

/// In a walked move tree's words, bit 31 of a decision's head: the mover decides there
/// (the other bits count its options); of an option: a later decision (the other bits
/// its number), else the option ends the move (the other bits: which child).
const MOVER_BIT: u32 = 1 << 31;
const NODE_BIT: u32 = 1 << 31;

/// `distinct_children` under the retreat: the distinct children of `position` in
/// `children`, and in `tree` its moves walked for its mover, each decision as its head
/// (`MOVER_BIT`) and its options (`NODE_BIT`, or the child's place among `children`);
/// whether the tree was cut short.
pub(crate) fn walked_children(
    variant: &Variant,
    index: &SpreadIndex,
    position: u64,
    children: &mut Vec<u64>,
    tree: &mut Vec<u32>,
) -> bool {
    let board = index.board(position);
    let walked = MoveTree::walked(variant, &board, board.to_move());
    let leaves: Vec<u64> = walked.leaves.iter().map(|b| index.of(b)).collect();
    children.clear();
    children.extend_from_slice(&leaves);
    children.sort_unstable();
    children.dedup();
    tree.clear();
    if !children.is_empty() && dead_position_outcome(variant, &board).is_some() {
        // As in `distinct_children`: a drawn dead position moves only to itself.
        children.clear();
        children.push(position);
        tree.extend([1 | MOVER_BIT, 0]);
        return false;
    }
    for node in &walked.nodes {
        let mover = if node.for_side { MOVER_BIT } else { 0 };
        tree.push(node.kids.len() as u32 | mover);
        for &(_, kid) in &node.kids {
            tree.push(match kid {
                Kid::Leaf(i) => children.binary_search(&leaves[i]).expect("a child") as u32,
                Kid::Node(j) => NODE_BIT | j as u32,
            });
        }
    }
    walked.cut
}

/// Whether the mover (`for_mover`) or the other side can force the move tree `tree`
/// (as `walked_children` writes it) to end in a child `leaf` says yes to; `offsets`
/// and `values` are scratch space.
pub(crate) fn forced(
    tree: &[u32],
    for_mover: bool,
    leaf: impl Fn(usize) -> bool,
    offsets: &mut Vec<usize>,
    values: &mut Vec<bool>,
) -> bool {
    offsets.clear();
    let mut at = 0;
    while at < tree.len() {
        offsets.push(at);
        at += 1 + (tree[at] & !MOVER_BIT) as usize;
    }
    values.clear();
    values.resize(offsets.len(), false);
    for id in (0..offsets.len()).rev() {
        let head = tree[offsets[id]];
        let options = &tree[offsets[id] + 1..offsets[id] + 1 + (head & !MOVER_BIT) as usize];
        let value = |w: &u32| {
            if w & NODE_BIT != 0 {
                values[(w & !NODE_BIT) as usize]
            } else {
                leaf(*w as usize)
            }
        };
        values[id] = if (head & MOVER_BIT != 0) == for_mover {
            options.iter().any(value)
        } else {
            options.iter().all(value)
        };
    }
    values.first().copied().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_names_the_board_that_names_it_and_its_exchange() {
        let variant = Variant::load("isolo-boys").unwrap();
        let index = SpreadIndex::new(&variant, 3);
        for i in (0..index.size).step_by(7919) {
            assert_eq!(index.of(&index.board(i)), i);
            // A position and its exchange share their number.
            assert_eq!(index.of(&index.board(i).swapped()), i);
        }
        assert_eq!(index.of(&index.board(index.size - 1)), index.size - 1);
    }

    #[test]
    fn numbers_past_32_bits_name_their_boards() {
        // Igisoro on 4 columns with 3 seeds a back pit: C(39, 15) = 2.5e10 spreads.
        let igisoro = Variant::load("igisoro").unwrap();
        let rules = igisoro.rules().to_builder().columns(4).build().unwrap();
        let variant = Variant::new(rules).unwrap();
        let index = SpreadIndex::new(&variant, 24);
        assert!(index.size > 1 << 34, "{}", index.size);
        for i in [index.size - 1, index.size / 3, (1 << 33) + 12345] {
            assert_eq!(index.of(&index.board(i)), i);
        }
    }
}
