//! The game alone: rules, the bit-packed board, move generation and notation. Nothing
//! here knows about search, evaluation or the command line.

pub mod notation;
pub mod position;
pub mod ring;
pub mod variant;

use std::fmt;

pub use notation::{Move, NotationError};
pub use position::{Board, LegalMove, MoveGen, MoveOutcome, Position, Variant};
pub use variant::{CaptureChoice, CaptureCondition, Rules, RulesError, SowOrigin, PRESETS};

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    South = 0,
    North = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline(always)]
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `S` or `N`, as in position notation.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}
