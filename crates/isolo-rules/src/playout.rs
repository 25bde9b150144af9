//! Random games on the rules alone: the random move of MCTS's playouts, and whole random
//! games for `isolo-ai bench --playouts`.
//!
//! A random move is a random candidate pit (another while the chosen one has no move),
//! then a random one of the distinct positions its take/pass choices reach. The listing
//! has a strict point limit: a pit whose sequences all loop could otherwise take a second
//! to list, so such a pit counts as cut, and where no pit lists a move but some were
//! cut the game stops there undecided.

use crate::variant::Listing;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::board::Board;
use crate::moves::move_generator;
use crate::side::Side;
use crate::variant::{LegalMove, MoveGen, Variant};

/// What a random move found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomMove {
    /// A move was played: the position it leads to and the laps it sowed.
    Played {
        /// The position after the move.
        child: Board,
        /// Laps sown: the first, every relay and every capture lap.
        laps: u32,
    },
    /// The side to move has no legal move: it has lost.
    NoMove,
    /// No move found before the deadline, or within the listing's limit.
    Stop,
}

/// Chooses random moves; holds the generator and buffers between moves.
#[derive(Debug)]
pub struct RandomMover {
    gen: MoveGen,
    scratch: Vec<(Board, u32)>,
    /// `choose_move`'s list, kept between moves.
    moves: Vec<LegalMove>,
}

impl Default for RandomMover {
    fn default() -> Self {
        RandomMover {
            gen: move_generator().strict(),
            scratch: Vec::new(),
            moves: Vec::new(),
        }
    }
}

impl RandomMover {
    /// A random move from `board`, its choices drawn from `rng`. With a deadline, the
    /// clock is looked at after each pit without a move (in relay-heavy positions such
    /// pits can cost milliseconds each).
    pub fn choose(
        &mut self,
        variant: &Variant,
        board: &Board,
        rng: &mut SmallRng,
        deadline: Option<Instant>,
    ) -> RandomMove {
        let mut cut = false;
        let mut pits = variant.candidate_pits(board);
        while pits != 0 {
            let pit = nth_set_bit(pits, rng.random_range(0..pits.count_ones()));
            self.scratch.clear();
            let scratch = &mut self.scratch;
            variant.visit_moves(board, pit, Listing::Results, &mut self.gen, |m| {
                scratch.push((m.child, m.laps))
            });
            if !self.scratch.is_empty() {
                let (child, laps) = self.scratch[rng.random_range(0..self.scratch.len())];
                return RandomMove::Played { child, laps };
            }
            cut |= self.gen.truncated();
            pits &= !pit;
            if pits != 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                return RandomMove::Stop;
            }
        }
        if cut {
            RandomMove::Stop
        } else {
            RandomMove::NoMove
        }
    }
}

impl RandomMover {
    /// The same random move as `choose` (the same numbers drawn from `rng`), as a legal
    /// move with its name; `None` where `choose` would not play (no move, or every pit's
    /// listing cut short).
    pub fn choose_move(
        &mut self,
        variant: &Variant,
        board: &Board,
        rng: &mut SmallRng,
    ) -> Option<LegalMove> {
        let mut pits = variant.candidate_pits(board);
        let moves = &mut self.moves;
        moves.clear();
        while pits != 0 {
            let pit = nth_set_bit(pits, rng.random_range(0..pits.count_ones()));
            variant.visit_moves(board, pit, Listing::Distinct, &mut self.gen, |m| {
                moves.push(m.to_legal_move())
            });
            if !moves.is_empty() {
                let pick = rng.random_range(0..moves.len());
                return Some(moves.swap_remove(pick));
            }
            pits &= !pit;
        }
        None
    }
}

/// The `n`-th lowest set bit of `bits`, as a mask.
fn nth_set_bit(bits: u32, n: u32) -> u32 {
    let mut rest = bits;
    for _ in 0..n {
        rest &= rest - 1;
    }
    rest & rest.wrapping_neg()
}

/// How a random game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomGame {
    /// Plies played.
    pub plies: u32,
    /// Laps sown, all moves together.
    pub laps: u64,
    /// The winner (a side to move without a move loses); `None`: stopped at the ply cap
    /// or where every pit's listing was cut.
    pub winner: Option<Side>,
    /// Whether it stopped where every pit's listing was cut.
    pub cut: bool,
}

/// Plays random moves from `start` until a side has no move, or `max_plies`.
pub fn random_game(
    variant: &Variant,
    start: Board,
    max_plies: u32,
    seed: u64,
    mover: &mut RandomMover,
) -> RandomGame {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = start;
    let mut game = RandomGame {
        plies: 0,
        laps: 0,
        winner: None,
        cut: false,
    };
    while game.plies < max_plies {
        match mover.choose(variant, &board, &mut rng, None) {
            RandomMove::Played { child, laps } => {
                board = child;
                game.plies += 1;
                game.laps += laps as u64;
            }
            RandomMove::NoMove => {
                game.winner = Some(board.to_move().opponent());
                break;
            }
            RandomMove::Stop => {
                game.cut = true;
                break;
            }
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_follow_the_rules_and_repeat_from_their_seed() {
        for name in crate::PRESETS.iter().chain(&crate::READINGS) {
            let v = Variant::load(name).unwrap();
            let mut mover = RandomMover::default();
            for seed in 0..20 {
                let game = random_game(&v, v.start(), 400, seed, &mut mover);
                assert_eq!(
                    game,
                    random_game(&v, v.start(), 400, seed, &mut RandomMover::default())
                );
                assert!(game.laps >= game.plies as u64, "{name}: a move sows a lap");
                if game.winner.is_none() && !game.cut {
                    assert_eq!(game.plies, 400, "{name}: only the cap leaves it undecided");
                }
            }
        }
    }

    #[test]
    fn every_random_move_is_a_legal_result() {
        let v = Variant::load("igisoro").unwrap();
        let mut mover = RandomMover::default();
        let mut rng = SmallRng::seed_from_u64(9);
        let mut board = v.start();
        for _ in 0..60 {
            let RandomMove::Played { child, .. } = mover.choose(&v, &board, &mut rng, None) else {
                break;
            };
            let results = v.distinct_moves(&board);
            assert!(results.iter().any(|m| m.child == child));
            board = child;
        }
    }

    #[test]
    fn nth_set_bit_counts_from_the_lowest() {
        assert_eq!(nth_set_bit(0b1011_0100, 0), 0b100);
        assert_eq!(nth_set_bit(0b1011_0100, 2), 0b10_0000);
        assert_eq!(nth_set_bit(0b1011_0100, 3), 0b1000_0000);
    }
}
