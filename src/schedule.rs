//! The games of a match or tournament, computed from their index on demand (a schedule of
//! a billion games takes no memory): colour-reversed pairs from each opening, and each
//! game's seed from the master seed and its index, so results do not depend on the order
//! games are played in.

use crate::rules::Board;

/// One game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The game's index in the schedule.
    pub index: u64,
    /// Engine indices.
    pub south: usize,
    /// North's engine index.
    pub north: usize,
    /// The starting position.
    pub opening: Board,
    /// The game's seed.
    pub seed: u64,
}

/// splitmix64: a game's seed from the master seed and its index.
pub fn game_seed(master: u64, index: u64) -> u64 {
    let mut z = master ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `games_per_pairing` games for each pairing `(a, b)`, pairing after pairing: game `2k`
/// of a pairing has `a` as South from opening `k` (cycling through the openings), game
/// `2k + 1` the same opening with colours swapped.
#[derive(Clone, Debug)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    openings: Vec<Board>,
    games_per_pairing: u64,
    seed: u64,
}

impl Schedule {
    /// A schedule; `openings` must not be empty.
    pub fn new(
        pairings: Vec<(usize, usize)>,
        openings: Vec<Board>,
        games_per_pairing: u64,
        seed: u64,
    ) -> Schedule {
        assert!(!openings.is_empty(), "a schedule needs an opening");
        Schedule {
            pairings,
            openings,
            games_per_pairing,
            seed,
        }
    }

    /// Games in all.
    pub fn len(&self) -> u64 {
        self.pairings.len() as u64 * self.games_per_pairing
    }

    /// Whether the schedule has no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The engine pairings, in order.
    pub fn pairings(&self) -> &[(usize, usize)] {
        &self.pairings
    }

    /// The opening positions, cycled through.
    pub fn openings(&self) -> &[Board] {
        &self.openings
    }

    /// Games of each pairing.
    pub fn games_per_pairing(&self) -> u64 {
        self.games_per_pairing
    }

    /// The master seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Game `index` (below `len()`).
    pub fn job(&self, index: u64) -> Job {
        let (pairing, g) = (
            index / self.games_per_pairing,
            index % self.games_per_pairing,
        );
        let (a, b) = self.pairings[pairing as usize];
        let opening = self.openings[((g / 2) % self.openings.len() as u64) as usize];
        let (south, north) = if g % 2 == 0 { (a, b) } else { (b, a) };
        Job {
            index,
            south,
            north,
            opening,
            seed: game_seed(self.seed, index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn a_huge_schedule_costs_nothing_and_reverses_colours() {
        let v = Variant::load("isolo-boys").unwrap();
        let s = Schedule::new(vec![(0, 1), (0, 2)], vec![v.start()], 1_000_000_000, 5);
        assert_eq!(s.len(), 2_000_000_000);
        let (a, b) = (s.job(1_000_000_002), s.job(1_000_000_003));
        assert_eq!((a.south, a.north, b.south, b.north), (0, 2, 2, 0));
        assert_eq!(a.seed, game_seed(5, 1_000_000_002));
    }
}
