//! One side's ring of pits packed into a `u128`: lane `i` (bits `8i..8i+8`) holds the
//! seeds of pit `i + 1` in that side's own numbering, so the lanes follow sowing order.
//!
//! Sowing a lap of `n` seeds adds `n / L` to every lane of the loop at once and a
//! precomputed mask for the `n % L` pits that get one seed more, so a lap costs the same
//! whatever its seed count. Lanes never overflow because a position holds at most 255
//! seeds in all.

/// A side's pits, one 8-bit lane per pit, in that side's loop order.
pub(crate) type Ring = u128;

/// Most pits one side can have (two rows of eight).
pub(crate) const MAX_LANES: usize = 16;

const LANE_BITS: u32 = 8;
const LANE_MASK: u128 = 0xFF;
/// 0x01 in every lane.
const LANE_ONES: u128 = u128::MAX / 0xFF;
/// 0x80 in every lane.
pub(crate) const LANE_HIGHS: u128 = LANE_ONES << 7;

/// `KEEP_OTHERS[i]`: every lane but `i`. A table lookup is cheaper than a variable
/// 128-bit shift.
const KEEP_OTHERS: [Ring; MAX_LANES] = {
    let mut table = [0; MAX_LANES];
    let mut i = 0;
    while i < MAX_LANES {
        table[i] = !(LANE_MASK << (i as u32 * LANE_BITS));
        i += 1;
    }
    table
};

/// The seeds in one lane: pick the 64-bit half, then a 64-bit shift (cheaper than a
/// variable 128-bit shift).
#[inline(always)]
pub(crate) fn lane(ring: Ring, index: usize) -> u8 {
    let half = if index < 8 {
        ring as u64
    } else {
        (ring >> 64) as u64
    };
    (half >> ((index & 7) as u32 * LANE_BITS)) as u8
}

/// The ring with one lane emptied.
#[inline(always)]
pub(crate) fn clear_lane(ring: Ring, index: usize) -> Ring {
    ring & KEEP_OTHERS[index]
}

/// The ring with one lane set to `value`.
#[inline(always)]
pub(crate) fn set_lane(ring: Ring, index: usize, value: u8) -> Ring {
    clear_lane(ring, index) | ((value as u128) << (index as u32 * LANE_BITS))
}

/// A mask with 0xFF in lane `index`.
#[inline(always)]
pub(crate) fn lane_mask(index: usize) -> Ring {
    LANE_MASK << (index as u32 * LANE_BITS)
}

/// Total seeds in the ring.
pub(crate) fn total(ring: Ring) -> u32 {
    (0..MAX_LANES).map(|i| lane(ring, i) as u32).sum()
}

/// Total seeds in a ring of at most 255 seeds (a part of a position): each half's
/// lanes summed by one multiplication, which gathers them in its top byte without a
/// carry while the sum fits in a byte.
#[inline(always)]
pub(crate) fn small_total(ring: Ring) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let sum = |word: u64| (word.wrapping_mul(ONES) >> 56) as u32;
    sum(ring as u64) + sum((ring >> 64) as u64)
}

/// The high bit (0x80) of every lane holding at least `min` seeds (`1 <= min <= 128`).
///
/// `(x | 0x80) - min` cannot borrow across lanes and keeps its high bit exactly when the
/// low seven bits reach `min`; a lane of 128 or more always qualifies.
#[inline(always)]
pub(crate) fn lanes_at_least(ring: Ring, min: u8) -> Ring {
    debug_assert!((1..=128).contains(&min));
    let wanted = LANE_ONES * min as u128;
    (((ring | LANE_HIGHS) - wanted) | ring) & LANE_HIGHS
}

/// Turns a lane-high-bit mask into a bit set of lane indices (bit `i` = lane `i`).
#[inline(always)]
pub(crate) fn high_bits_to_lane_set(highs: Ring) -> u32 {
    // One multiplication gathers a word's eight high bits into its top byte: the high
    // bit of byte i lands on bit 56 + i, and no two partial products overlap there.
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0002_0408_1020_4081;
    let gather = |word: u64| ((word & HIGH_BITS).wrapping_mul(GATHER) >> 56) as u32;
    gather(highs as u64) | gather((highs >> 64) as u64) << 8
}

/// How one loop (the full ring or the overture ring) is sown: which lanes it visits, in
/// order, and the precomputed masks that make a lap O(1).
#[derive(Clone, Debug)]
pub(crate) struct LoopTable {
    /// Pits in the loop.
    len: usize,
    /// Loop position -> lane.
    lane_at: [u8; MAX_LANES],
    /// Lane -> loop position (`u8::MAX` for a lane outside the loop).
    position_of: [u8; MAX_LANES],
    /// 0x01 in every lane of the loop.
    ones: Ring,
    /// `extra[l][r]`: one seed in each of the `r` loop pits after lane `l`.
    extra: [[Ring; MAX_LANES]; MAX_LANES],
    /// `end_lane[l][r]`: the lane `r` loop pits after lane `l` (wrapping).
    end_lane: [[u8; MAX_LANES]; MAX_LANES],
}

impl LoopTable {
    /// A loop over `lanes`, visited in the order given.
    pub(crate) fn new(lanes: &[usize]) -> Self {
        let len = lanes.len();
        assert!((1..=MAX_LANES).contains(&len), "a loop has 1..=16 pits");
        let mut table = LoopTable {
            len,
            lane_at: [0; MAX_LANES],
            position_of: [u8::MAX; MAX_LANES],
            ones: 0,
            extra: [[0; MAX_LANES]; MAX_LANES],
            end_lane: [[0; MAX_LANES]; MAX_LANES],
        };
        for (position, &lane_index) in lanes.iter().enumerate() {
            table.lane_at[position] = lane_index as u8;
            table.position_of[lane_index] = position as u8;
            table.ones |= 1u128 << (lane_index as u32 * LANE_BITS);
        }
        // Indexed by lane rather than loop position, to save a lookup per lap.
        for (start, &from) in lanes.iter().enumerate() {
            let mut mask = 0;
            for remainder in 0..len {
                let end = lanes[(start + remainder) % len];
                table.end_lane[from][remainder] = end as u8;
                if remainder > 0 {
                    mask |= 1u128 << (end as u32 * LANE_BITS);
                }
                table.extra[from][remainder] = mask;
            }
        }
        table
    }

    /// Whether the loop visits `lane_index`.
    pub(crate) fn contains(&self, lane_index: usize) -> bool {
        self.position_of[lane_index] != u8::MAX
    }

    /// Sows `seeds` (at least one) into the pits after `from_lane` and returns the ring
    /// and the lane where the last seed fell. `from_lane` must be in the loop.
    #[inline(always)]
    pub(crate) fn sow(&self, ring: Ring, from_lane: usize, seeds: u32) -> (Ring, usize) {
        debug_assert!(seeds >= 1 && self.contains(from_lane));
        let len = self.len as u32;
        let extra = &self.extra[from_lane];
        let end = &self.end_lane[from_lane];
        // Most laps are shorter than the loop: no division or multiplication for them.
        if seeds < len {
            (ring + extra[seeds as usize], end[seeds as usize] as usize)
        } else {
            let remainder = (seeds % len) as usize;
            let ring = ring + self.ones * (seeds / len) as u128 + extra[remainder];
            (ring, end[remainder] as usize)
        }
    }

    /// The lane the `k`th seed (from 1) of a lap from `from_lane` falls into.
    pub(crate) fn lane_after(&self, from_lane: usize, k: u32) -> usize {
        self.end_lane[from_lane][(k % self.len as u32) as usize] as usize
    }

    /// Where a lap of `seeds` (at least one) from `from_lane` would end, and how many
    /// seeds it would add to that pit, without sowing it: the pit then holds what it held
    /// (nothing if it is `from_lane`, emptied to sow) plus those.
    #[inline(always)]
    pub(crate) fn lap_end(&self, from_lane: usize, seeds: u32) -> (usize, u32) {
        debug_assert!(seeds >= 1 && self.contains(from_lane));
        let len = self.len as u32;
        let end = &self.end_lane[from_lane];
        if seeds < len {
            return (end[seeds as usize] as usize, 1);
        }
        // Full rounds give every pit one each; a remainder adds one more to its last
        // pit, past `from_lane`; without one the lap ends in `from_lane` itself.
        let remainder = seeds % len;
        let added = seeds / len + (remainder > 0) as u32;
        (end[remainder as usize] as usize, added)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_at_least_matches_plain_comparison() {
        for min in 1..=128u8 {
            for value in [0u8, 1, 2, 3, 64, 127, 128, 129, 200, 255] {
                let ring = set_lane(0, 5, value);
                let highs = lanes_at_least(ring, min);
                assert_eq!(high_bits_to_lane_set(highs) & (1 << 5) != 0, value >= min);
            }
        }
    }

    #[test]
    fn small_totals_add_every_lane() {
        let mut ring = 0;
        for (index, seeds) in [(0, 7u8), (3, 1), (7, 100), (8, 2), (15, 140)] {
            ring = set_lane(ring, index, seeds);
        }
        assert_eq!(small_total(ring), 250);
        assert_eq!(small_total(ring), total(ring));
        assert_eq!(small_total(set_lane(0, 15, 255)), 255);
        assert_eq!(small_total(0), 0);
    }

    #[test]
    fn lane_sets_gather_every_high_bit_and_nothing_else() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..10_000 {
            // xorshift: many masks, some lanes high and some not.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let ring = (x as Ring) << 64 | (x.rotate_left(29) as Ring);
            let highs = ring & LANE_HIGHS;
            let plain = (0..16)
                .filter(|&index| lane(highs, index) & 0x80 != 0)
                .fold(0u32, |set, index| set | 1 << index);
            assert_eq!(high_bits_to_lane_set(highs), plain, "{highs:#x}");
        }
        assert_eq!(high_bits_to_lane_set(LANE_HIGHS), 0xffff);
        assert_eq!(high_bits_to_lane_set(0), 0);
    }

    #[test]
    fn full_loop_lap_wraps_and_counts_the_start_pit() {
        let lanes: Vec<usize> = (0..4).collect();
        let table = LoopTable::new(&lanes);
        // 9 seeds from lane 1 over 4 pits: two each, and one more in lanes 2.
        let (ring, end) = table.sow(0, 1, 9);
        assert_eq!(
            (0..4).map(|i| lane(ring, i)).collect::<Vec<_>>(),
            [2, 2, 3, 2]
        );
        assert_eq!(end, 2);
    }

    #[test]
    fn a_lap_end_is_where_the_sown_lap_ends() {
        for lanes in [(0..16).collect::<Vec<_>>(), vec![0, 1, 2, 5, 6, 7], vec![3]] {
            let table = LoopTable::new(&lanes);
            let ring = (0..16).fold(0, |ring, i| set_lane(ring, i, (i as u8 * 7) % 5));
            for &from in &lanes {
                for seeds in 1..=60 {
                    let emptied = clear_lane(ring, from);
                    let (sown, end) = table.sow(emptied, from, seeds);
                    let (lap_end, added) = table.lap_end(from, seeds);
                    assert_eq!(lap_end, end, "{lanes:?} {from} {seeds}");
                    let held = lane(emptied, end) as u32;
                    assert_eq!(held + added, lane(sown, end) as u32, "{from} {seeds}");
                }
            }
        }
    }

    #[test]
    fn overture_loop_skips_lanes() {
        let table = LoopTable::new(&[0, 1, 4, 5]);
        let (ring, end) = table.sow(0, 1, 3);
        assert_eq!(
            (0..6).map(|i| lane(ring, i)).collect::<Vec<_>>(),
            [1, 0, 0, 0, 1, 1]
        );
        assert_eq!(end, 0);
    }
}
