//! The fast board: a position as two packed rings (one a side, in its owner's
//! numbering), the side to move, the overture, first-move and lost flags and a 64-bit
//! hash of them all.

use super::ring::{self, Ring};
use crate::side::Side;

/// A position: both rings, the side to move, who is still in overture, whose first move
/// is still to come (where the rules bar its captures), and a 64-bit hash of them all.
/// Small and `Copy`, so make/unmake push whole boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub(crate) rings: [Ring; 2],
    pub(crate) to_move: Side,
    /// Bit 0: South in overture; bit 1: North. Bit 2: South's first move still to come
    /// (under `first_move_captures`); bit 3: North's. Bit 4 (`ENDS_CAPTURED`): the side
    /// to move has lost, its front row's end pits taken in the last turn (`capture_win`).
    pub(crate) overture: u8,
    pub(crate) hash: u64,
}

/// One side's pits as a position holds them: read and changed through these methods,
/// the packed layout private to this crate. Lane `i` is the side's pit `i + 1` in its
/// own numbering (RULES.md 2), so the lanes follow sowing order. Pits that are a part
/// of a position hold at most 255 seeds in all, as `total` assumes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pits(pub(crate) Ring);

impl Pits {
    /// Most pits one side has (two rows of eight).
    pub const MAX: usize = ring::MAX_LANES;

    /// The seeds in lane `lane` (`lane < Pits::MAX`; lanes past the board's are empty).
    #[inline(always)]
    pub fn seeds(self, lane: usize) -> u8 {
        ring::lane(self.0, lane)
    }

    /// These pits with lane `lane` holding `seeds`.
    #[inline(always)]
    pub fn with_seeds(self, lane: usize, seeds: u8) -> Pits {
        Pits(ring::set_lane(self.0, lane, seeds))
    }

    /// Seeds in all (pits of a position: at most 255).
    #[inline(always)]
    pub fn total(self) -> u32 {
        ring::small_total(self.0)
    }

    /// How many pits hold at least `min` seeds (`1 <= min <= 128`).
    #[inline(always)]
    pub fn count_at_least(self, min: u8) -> u32 {
        ring::lanes_at_least(self.0, min).count_ones()
    }

    /// How many pits hold exactly `seeds` (`1 <= seeds <= 127`).
    #[inline(always)]
    pub fn count_exactly(self, seeds: u8) -> u32 {
        (ring::lanes_at_least(self.0, seeds) & !ring::lanes_at_least(self.0, seeds + 1))
            .count_ones()
    }
}

/// Both rings, South's first, from `me`'s ring and the opponent's.
#[inline(always)]
pub(crate) fn rings_of(me: Side, mine: Ring, theirs: Ring) -> [Ring; 2] {
    let mut rings = [0; 2];
    rings[me as usize] = mine;
    rings[me.opponent() as usize] = theirs;
    rings
}

/// splitmix64's finaliser: a strong 64-bit mixer.
#[inline(always)]
pub(crate) fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The bits of a board's flags: overture (0-1), first moves to come (2-3) and
/// `ENDS_CAPTURED` (4).
const FLAG_BITS: u8 = 0b1_1111;

/// The flag of a position whose side to move has lost by `capture_win`: the last turn
/// took the seeds of both its front row's end pits.
pub(crate) const ENDS_CAPTURED: u8 = 1 << 4;

const HASH_SEED: u64 = 0x1501_0a1c_6e1f_50f0;
const HASH_KEYS: [u64; 5] = [
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
    0x8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3,
    0x1d8e_4e27_c47d_124f,
];

/// The 128-bit product of two words, folded to 64 bits.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let product = a as u128 * b as u128;
    product as u64 ^ (product >> 64) as u64
}

impl Board {
    /// A board from both sides' pits (South's first, each in its owner's numbering),
    /// for a prover that numbers positions itself; the hash is computed here. `flags`
    /// holds the overture flags in bits 0-1, the first-move flags in bits 2-3 and the
    /// lost flag in bit 4 (`ends_captured`), as `flags()` returns them. Not checked
    /// against any variant: [`crate::Variant::validate`] checks one (seed totals,
    /// out-of-play pits).
    pub fn from_pits(pits: [Pits; 2], to_move: Side, flags: u8) -> Board {
        Board::from_parts(pits.map(|p| p.0), to_move, flags)
    }

    /// `from_pits` from the packed rings.
    pub(crate) fn from_parts(rings: [Ring; 2], to_move: Side, flags: u8) -> Board {
        let mut board = Board {
            rings,
            to_move,
            overture: flags & FLAG_BITS,
            hash: 0,
        };
        board.hash = board.compute_hash();
        board
    }

    /// The hash recomputed from the board (equal to `hash()` on a valid board).
    ///
    /// Three independent 64x64->128-bit multiply-folds (as in wyhash) and a final mix:
    /// cheap enough to hash every generated child, strong enough for table keys.
    pub fn compute_hash(&self) -> u64 {
        let state = (self.to_move as u64) | ((self.overture as u64) << 1);
        let [south, north] = self.rings;
        let a = fold(
            south as u64 ^ HASH_KEYS[0],
            (south >> 64) as u64 ^ HASH_KEYS[1],
        );
        let b = fold(
            north as u64 ^ HASH_KEYS[2],
            (north >> 64) as u64 ^ HASH_KEYS[3],
        );
        mix(fold(a ^ HASH_KEYS[4] ^ state, b ^ HASH_SEED))
    }

    /// A 64-bit hash of the rings, the side to move and the flags.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    /// The pits of `side`, in its own numbering.
    #[inline(always)]
    pub fn pits(&self, side: Side) -> Pits {
        Pits(self.rings[side as usize])
    }
    /// The ring of `side`, in its own numbering.
    pub(crate) fn ring(&self, side: Side) -> Ring {
        self.rings[side as usize]
    }
    /// The overture flags (bit 0 South, bit 1 North).
    pub fn overture_flags(&self) -> u8 {
        self.overture & 3
    }
    /// The first-move flags (bit 0 South, bit 1 North): the players whose first move,
    /// still to come, may not capture (`first_move_captures`).
    pub(crate) fn first_move_flags(&self) -> u8 {
        self.overture >> 2 & 3
    }
    /// Every flag as `from_pits` takes them.
    pub fn flags(&self) -> u8 {
        self.overture
    }
    /// Whether the side to move has lost by `capture_win`: the last turn took the seeds
    /// of both its front row's end pits.
    pub fn ends_captured(&self) -> bool {
        self.overture & ENDS_CAPTURED != 0
    }
    /// Whether `side`'s first move is still to come, and may not capture.
    pub fn first_move_pending(&self, side: Side) -> bool {
        self.overture & (4 << side as u8) != 0
    }
    /// Whether `side` is still in its overture.
    pub fn in_overture(&self, side: Side) -> bool {
        self.overture & (1 << side as u8) != 0
    }
    /// Seeds in `pit` (1-based, `side`'s numbering).
    pub fn seeds(&self, side: Side, pit: usize) -> u8 {
        ring::lane(self.rings[side as usize], pit - 1)
    }
    /// Seeds on one side.
    pub fn side_total(&self, side: Side) -> u32 {
        ring::total(self.rings[side as usize])
    }
    /// The same position with the players' places exchanged: the rings, the flags and
    /// the side to move. The rules treat both sides alike, so its mover has the same
    /// moves (same pit numbers, to the exchanged children) and the same value.
    pub fn swapped(&self) -> Board {
        let [south, north] = self.rings;
        let flags = self.overture_flags_seen_by(Side::North)
            | self.first_move_flags_seen_by(Side::North) << 2
            | self.overture & ENDS_CAPTURED;
        Board::from_parts([north, south], self.to_move.opponent(), flags)
    }

    /// The overture flags as they read with `side` in South's place: its bit first.
    pub fn overture_flags_seen_by(&self, side: Side) -> u8 {
        self.in_overture(side) as u8 | (self.in_overture(side.opponent()) as u8) << 1
    }

    /// The first-move flags as they read with `side` in South's place: its bit first.
    pub fn first_move_flags_seen_by(&self, side: Side) -> u8 {
        self.first_move_pending(side) as u8 | (self.first_move_pending(side.opponent()) as u8) << 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pits holding 0, 7, 14, 5, ... (lane `i`: `7i mod 16`), 120 seeds in all.
    fn sample() -> Pits {
        (0..Pits::MAX).fold(Pits::default(), |p, i| p.with_seeds(i, (i * 7 % 16) as u8))
    }

    #[test]
    fn pits_read_back_what_was_set_and_count_by_lane() {
        let pits = sample();
        let seeds: Vec<u8> = (0..Pits::MAX).map(|i| pits.seeds(i)).collect();
        assert_eq!(
            seeds,
            (0..16).map(|i| (i * 7 % 16) as u8).collect::<Vec<_>>()
        );
        assert_eq!(pits.total(), seeds.iter().map(|&s| s as u32).sum::<u32>());
        assert_eq!(pits.total(), ring::total(pits.0));
        for min in 1..=16u8 {
            let wanted = seeds.iter().filter(|&&s| s >= min).count() as u32;
            assert_eq!(pits.count_at_least(min), wanted, "at least {min}");
            let exactly = seeds.iter().filter(|&&s| s == min).count() as u32;
            assert_eq!(pits.count_exactly(min), exactly, "exactly {min}");
        }
    }

    #[test]
    fn a_board_from_pits_gives_them_back_with_its_hash() {
        let south = sample();
        let north = Pits::default().with_seeds(3, 4);
        let board = Board::from_pits([south, north], Side::North, 0b01);
        assert_eq!(board.pits(Side::South), south);
        assert_eq!(board.pits(Side::North), north);
        assert_eq!(board.hash(), board.compute_hash());
        assert_eq!(board.side_total(Side::North), 4);
    }
}
