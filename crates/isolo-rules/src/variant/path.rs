//! The turning points of the move being walked (RULES.md 3.5: a move that comes back to
//! one can never end), and the set that answers "is this point already on the path?".

use super::lap::LapState;
use crate::ring::Ring;

/// The moment a lap ends in an occupied pit (RULES.md 3.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct TurningPoint {
    pub(super) mine: Ring,
    pub(super) theirs: Ring,
    pub(super) end: u8,
    pub(super) origin: u8,
}

/// Buckets of the index over the turning points of the current path.
const PATH_BUCKETS: usize = 4096;
const NO_POINT: u32 = u32::MAX;

/// The turning points of the move being explored, hashed into buckets that chain the
/// points of the path, so "is this point already on the path?" compares only the few
/// points of one bucket. Truncation unlinks points in reverse order. (Comparing a new
/// point with each of the first few instead of hashing them measured 10% slower on
/// Igisoro's perft: its moves meet many points.)
#[derive(Debug, Default)]
pub(super) struct TurningPath {
    /// Each point with the previous point of its bucket, and its bucket (so that
    /// truncation does not hash it again).
    points: Vec<(TurningPoint, u32, u16)>,
    /// The latest point of each bucket; allocated by the first point (many generators
    /// are made for one listing, and most listings never meet a turning point).
    heads: Vec<u32>,
}

impl TurningPoint {
    /// The point where the lap `state` has just sown ended, at lane `end`, with
    /// captured seeds to be sown from lane `origin`.
    #[inline(always)]
    pub(super) fn at(state: &LapState, end: usize, origin: usize) -> TurningPoint {
        TurningPoint {
            mine: state.mine,
            theirs: state.theirs,
            end: end as u8,
            origin: origin as u8,
        }
    }

    /// The point's fields mixed into one word.
    #[inline(always)]
    pub(super) fn mixed(&self) -> u64 {
        let words = (self.mine as u64)
            ^ ((self.mine >> 64) as u64).rotate_left(29)
            ^ (self.theirs as u64).rotate_left(13)
            ^ ((self.theirs >> 64) as u64).rotate_left(43)
            ^ (self.end as u64) << 8
            ^ self.origin as u64;
        words.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The point's bucket.
    #[inline(always)]
    fn bucket(&self) -> usize {
        (self.mixed() >> (64 - PATH_BUCKETS.trailing_zeros())) as usize
    }
}

impl TurningPath {
    pub(super) fn len(&self) -> usize {
        self.points.len()
    }

    /// Adds `point` unless it is already on the path; false if it was.
    #[inline(always)]
    pub(super) fn insert(&mut self, point: TurningPoint) -> bool {
        self.find_or_insert(point).is_none()
    }

    /// Where `point` already is on the path, or `None` after adding it.
    #[inline(always)]
    pub(super) fn find_or_insert(&mut self, point: TurningPoint) -> Option<usize> {
        if self.heads.is_empty() {
            self.heads = vec![NO_POINT; PATH_BUCKETS];
        }
        let bucket = point.bucket();
        let mut at = self.heads[bucket];
        while at != NO_POINT {
            let (other, previous, _) = self.points[at as usize];
            if other == point {
                return Some(at as usize);
            }
            at = previous;
        }
        self.points.push((point, self.heads[bucket], bucket as u16));
        self.heads[bucket] = (self.points.len() - 1) as u32;
        None
    }

    pub(super) fn truncate(&mut self, len: usize) {
        while self.points.len() > len {
            let (_, previous, bucket) = self.points.pop().expect("longer than len");
            self.heads[bucket as usize] = previous;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain list's answers, through growth past the index and truncation back.
    #[test]
    fn a_path_finds_what_a_plain_list_finds() {
        let mut path = TurningPath::default();
        let mut plain: Vec<TurningPoint> = Vec::new();
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for step in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(7) {
                let len = (x >> 8) as usize % (plain.len() + 1);
                path.truncate(len);
                plain.truncate(len);
                continue;
            }
            // Few distinct points, so repeats are common.
            let point = TurningPoint {
                mine: (x % 40) as Ring,
                theirs: (step % 3) as Ring,
                end: (x >> 20) as u8 % 2,
                origin: 0,
            };
            let expected = plain.iter().position(|p| *p == point);
            assert_eq!(path.find_or_insert(point), expected, "step {step}");
            if expected.is_none() {
                plain.push(point);
            }
            assert_eq!(path.len(), plain.len());
        }
    }
}
