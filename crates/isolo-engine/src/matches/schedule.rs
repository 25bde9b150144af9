//! The games of a match or tournament, computed from their index on demand (a schedule of
//! a billion games takes no memory): colour-reversed pairs from each opening, and each
//! game's seed from the master seed and its index, so results do not depend on the order
//! games are played in.

use isolo_rules::Board;

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

/// Who plays whom in a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Everyone against everyone.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
    /// Engines given weakest first: each against the next and against the last.
    Ladder,
}

impl Pairing {
    /// Every pairing, by name.
    pub const ALL: [(&'static str, Pairing); 3] = [
        ("round-robin", Pairing::RoundRobin),
        ("gauntlet", Pairing::Gauntlet),
        ("ladder", Pairing::Ladder),
    ];

    /// The pairing called `name`; the error lists the names.
    pub fn named(name: &str) -> Result<Pairing, String> {
        Pairing::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
            .ok_or_else(|| {
                let names: Vec<&str> = Pairing::ALL.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown pairing '{}': expected {}",
                    isolo_rules::quote(name),
                    names.join(", ")
                )
            })
    }

    /// The pairings `(i, j)` of `n` engines.
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Pairing::RoundRobin => round_robin(n),
            Pairing::Gauntlet => gauntlet(n),
            Pairing::Ladder => ladder(n),
        }
    }
}

/// Everyone against everyone: the pairings `(i, j)`, `i < j`, of `n` engines.
pub(crate) fn round_robin(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// The first engine against each of the others.
pub fn gauntlet(n: usize) -> Vec<(usize, usize)> {
    (1..n).map(|j| (0, j)).collect()
}

/// A ladder of `n` engines given weakest first: each against the next, and each
/// against the last (the strongest), so that every step is measured directly and every
/// rung against the same top.
pub fn ladder(n: usize) -> Vec<(usize, usize)> {
    let last = n.saturating_sub(1);
    let steps = (0..last).map(|i| (i, i + 1));
    let to_top = (0..last.saturating_sub(1)).map(move |i| (i, last));
    steps.chain(to_top).collect()
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
    shard: Shard,
}

/// One of `count` shares of a run's games (`index` from 0; written `K/N` with K from
/// 1). Whole colour-reversed pairs go to shards in turn: pair `p` of the run (pairs
/// numbered across pairings, a pairing's odd last game a pair of its own) is shard
/// `p mod count`'s, so every shard sees every opening and engine pairing alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 0.
    pub index: u64,
    /// Shares in all.
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether this is the whole run.
    pub(crate) fn is_whole(&self) -> bool {
        self.count == 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

message_error! {
    /// A shard that is not `K/N` with `1 <= K <= N`.
    ShardError
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || {
            ShardError(format!(
                "expected K/N with 1 <= K <= N (e.g. 2/8), found '{text}'"
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
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
            shard: Shard::WHOLE,
        }
    }

    /// The same run, playing only `shard`'s games.
    pub fn with_shard(mut self, shard: Shard) -> Schedule {
        self.shard = shard;
        self
    }

    /// The share of the run this schedule plays.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    fn pairs_per_pairing(&self) -> u64 {
        self.games_per_pairing.div_ceil(2)
    }

    /// The run's pair that game `index` belongs to.
    fn pair_of(&self, index: u64) -> u64 {
        let (pairing, g) = (
            index / self.games_per_pairing,
            index % self.games_per_pairing,
        );
        pairing * self.pairs_per_pairing() + g / 2
    }

    /// The shard, of `count`, that plays game `index`.
    pub(crate) fn shard_of(&self, index: u64, count: u64) -> u64 {
        self.pair_of(index) % count
    }

    /// The games this schedule's shard plays, in index order (computed as they are
    /// asked for).
    pub fn games(&self) -> impl Iterator<Item = u64> + Send + '_ {
        let (gpp, ppp) = (self.games_per_pairing, self.pairs_per_pairing());
        let pairs = self.pairings.len() as u64 * ppp;
        (self.shard.index..pairs)
            .step_by(self.shard.count as usize)
            .flat_map(move |pair| {
                let first = (pair / ppp) * gpp + 2 * (pair % ppp);
                let last = ((pair / ppp) * gpp + gpp).min(first + 2);
                first..last
            })
    }

    /// How many games `games()` gives.
    pub fn shard_len(&self) -> u64 {
        if self.shard.is_whole() {
            return self.len();
        }
        let (count, index) = (self.shard.count, self.shard.index);
        let ppp = self.pairs_per_pairing();
        let pairs = self.pairings.len() as u64 * ppp;
        let owned = if index < pairs {
            (pairs - index).div_ceil(count)
        } else {
            0
        };
        // A pairing with an odd number of games ends on a pair of one game.
        let singles = if self.games_per_pairing % 2 == 1 {
            (0..self.pairings.len() as u64)
                .filter(|p| (p * ppp + ppp - 1) % count == index)
                .count() as u64
        } else {
            0
        };
        2 * owned - singles
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
    pub(crate) fn games_per_pairing(&self) -> u64 {
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
    use isolo_rules::Variant;

    #[test]
    fn pairings_of_a_round_robin_a_gauntlet_and_a_ladder() {
        assert_eq!(round_robin(3), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(gauntlet(3), [(0, 1), (0, 2)]);
        assert_eq!(ladder(4), [(0, 1), (1, 2), (2, 3), (0, 3), (1, 3)]);
        assert_eq!(ladder(3), [(0, 1), (1, 2), (0, 2)]);
    }

    #[test]
    fn a_huge_schedule_costs_nothing_and_reverses_colours() {
        let v = Variant::load("isolo-boys").unwrap();
        let s = Schedule::new(vec![(0, 1), (0, 2)], vec![v.start()], 1_000_000_000, 5);
        assert_eq!(s.len(), 2_000_000_000);
        let (a, b) = (s.job(1_000_000_002), s.job(1_000_000_003));
        assert_eq!((a.south, a.north, b.south, b.north), (0, 2, 2, 0));
        assert_eq!(a.seed, game_seed(5, 1_000_000_002));
    }

    #[test]
    fn shards_hold_every_game_once_in_whole_pairs() {
        let v = Variant::load("isolo-boys").unwrap();
        for games in [1, 2, 5, 6, 7] {
            for count in 1..=5 {
                let whole = Schedule::new(vec![(0, 1), (0, 2), (1, 2)], vec![v.start()], games, 1);
                let mut seen = vec![0u32; whole.len() as usize];
                for index in 0..count {
                    let shard = whole.clone().with_shard(Shard { index, count });
                    let played: Vec<u64> = shard.games().collect();
                    assert_eq!(
                        played.len() as u64,
                        shard.shard_len(),
                        "{games} games, {shard:?}"
                    );
                    assert!(played.windows(2).all(|w| w[0] < w[1]));
                    for &g in &played {
                        seen[g as usize] += 1;
                        assert_eq!(whole.shard_of(g, count), index);
                        // A colour-reversed pair stays together.
                        let partner = if g % games % 2 == 0 { g + 1 } else { g - 1 };
                        if partner / games == g / games {
                            assert_eq!(whole.shard_of(partner, count), index);
                        }
                    }
                }
                assert!(
                    seen.iter().all(|&n| n == 1),
                    "{games} games, {count} shards: {seen:?}"
                );
            }
        }
    }

    #[test]
    fn shard_ids_parse_and_print_from_one() {
        let s: Shard = "2/8".parse().unwrap();
        assert_eq!((s.index, s.count, s.to_string()), (1, 8, "2/8".to_string()));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
