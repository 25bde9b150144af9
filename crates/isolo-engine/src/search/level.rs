//! Strength levels: a gentler opponent that still plays like a player. Below the top a
//! bot searches every root move with a smaller budget (a depth for alpha-beta,
//! iterations for MCTS), now and then with a shallow horizon, and picks among the root
//! moves at random, weighted by their scores at a level-dependent temperature: a good
//! move is likelier than a poor one, a clearly losing one rare. The draws come from the
//! bot's seed, so a game replays. The top level is the engine as it is.

use rand::Rng;

use crate::search::score::{is_proven, WIN};
use crate::search::{Limits, Line, Progress, SearchRequest, SearchResult, Searcher};

/// The weakest level.
pub const LOWEST_LEVEL: u8 = 1;
/// The strongest level: the engine unchanged.
pub const TOP_LEVEL: u8 = 8;

/// How a level below the top plays.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Handicap {
    /// Alpha-beta's depth cap, in plies.
    depth: u32,
    /// MCTS's iteration cap.
    iterations: u64,
    /// The softmax temperature over the root moves' scores, in seeds: a move `T` seeds
    /// worse than the best is `e` times less likely.
    temperature_seeds: f64,
    /// The chance that a move is searched one ply deep (alpha-beta) or with a tenth of
    /// the iterations (MCTS): a moment of inattention.
    shallow_chance: f64,
}

/// Levels 1 to `TOP_LEVEL - 1`, weakest first. Calibrated by ladders of matches
/// (`scripts/levels.sh`): games of these rules are long and compound every small edge,
/// so halving the temperature at one ply is a step of some 90% of the points, and one
/// ply more is nearly all of them.
const HANDICAPS: [Handicap; (TOP_LEVEL - 1) as usize] = [
    Handicap {
        depth: 1,
        iterations: 20,
        temperature_seeds: 24.0,
        shallow_chance: 0.0,
    },
    Handicap {
        depth: 1,
        iterations: 40,
        temperature_seeds: 12.0,
        shallow_chance: 0.0,
    },
    Handicap {
        depth: 1,
        iterations: 80,
        temperature_seeds: 6.0,
        shallow_chance: 0.0,
    },
    Handicap {
        depth: 1,
        iterations: 150,
        temperature_seeds: 3.0,
        shallow_chance: 0.0,
    },
    Handicap {
        depth: 1,
        iterations: 300,
        temperature_seeds: 1.5,
        shallow_chance: 0.0,
    },
    Handicap {
        depth: 2,
        iterations: 1000,
        temperature_seeds: 1.0,
        shallow_chance: 0.0,
    },
    Handicap {
        depth: 3,
        iterations: 3000,
        temperature_seeds: 0.5,
        shallow_chance: 0.0,
    },
];

/// Root moves a weakened search scores: all of them in any real position.
pub const LEVEL_MULTIPV: usize = 256;

/// The score a proven result counts as when moves are weighed, in hundredths of a seed
/// (1000 seeds): far beyond any estimate and the weakest level's temperature, so a weak
/// player still takes a win it sees.
const PROVEN_WEIGHT: i32 = 100_000;

/// A strength level, `LOWEST_LEVEL..=TOP_LEVEL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Default for Level {
    fn default() -> Self {
        Level(TOP_LEVEL)
    }
}

impl Level {
    /// The level `n`, or `None` outside `LOWEST_LEVEL..=TOP_LEVEL`.
    pub fn new(n: u8) -> Option<Level> {
        (LOWEST_LEVEL..=TOP_LEVEL).contains(&n).then_some(Level(n))
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether this is the engine unchanged.
    pub fn is_top(self) -> bool {
        self.0 == TOP_LEVEL
    }

    fn handicap(self) -> Option<Handicap> {
        HANDICAPS.get(self.0 as usize - 1).copied()
    }

    /// Root moves to score: one at the top, every one below.
    pub fn multipv(self) -> usize {
        if self.is_top() {
            1
        } else {
            LEVEL_MULTIPV
        }
    }

    /// `given` capped by the level's budget: its depth for alpha-beta, its iterations
    /// for MCTS (`mcts`), drawing from `rng` whether this move gets the shallow horizon
    /// (one ply; a tenth of the iterations).
    fn limits(self, mcts: bool, given: Limits, rng: &mut impl Rng) -> Limits {
        let Some(handicap) = self.handicap() else {
            return given;
        };
        let shallow = rng.random_bool(handicap.shallow_chance);
        if mcts {
            let cap = if shallow {
                (handicap.iterations / 10).max(1)
            } else {
                handicap.iterations
            };
            Limits {
                nodes: Some(given.nodes.map_or(cap, |n| n.min(cap))),
                ..given
            }
        } else {
            let cap = if shallow { 1 } else { handicap.depth };
            Limits {
                depth: Some(given.depth.map_or(cap, |d| d.min(cap))),
                ..given
            }
        }
    }

    /// The root move to play among `lines` (a search's, best first): the best at the
    /// top, else one drawn from `rng` with weights `exp((score - best) / T)`.
    pub fn pick<'a>(self, lines: &'a [Line], rng: &mut impl Rng) -> Option<&'a Line> {
        let handicap = match self.handicap() {
            Some(h) if lines.len() > 1 => h,
            _ => return lines.first(),
        };
        let values: Vec<f64> = lines.iter().map(|l| weighed(l.score.value())).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let scale = 100.0 * handicap.temperature_seeds;
        let weights: Vec<f64> = values.iter().map(|v| ((v - best) / scale).exp()).collect();
        let mut draw = rng.random::<f64>() * weights.iter().sum::<f64>();
        for (line, weight) in lines.iter().zip(&weights) {
            if draw < *weight {
                return Some(line);
            }
            draw -= weight;
        }
        lines.last()
    }
}

/// What a search at a level found: the search (its lines cut back to the number asked)
/// and the line the level plays.
pub struct LevelSearch {
    /// The search, as a search of the multi-PV asked would report it.
    pub result: SearchResult,
    /// The root move played: the best at the top, the level's draw below.
    pub played: Option<Line>,
}

impl Level {
    /// Searches `request` at this level with `searcher` (MCTS if `mcts`): its limits
    /// capped, every root move scored below the top, and the move to play drawn from
    /// `rng`. At the top this is the search as asked.
    pub fn search(
        self,
        searcher: &mut dyn Searcher,
        mcts: bool,
        request: &SearchRequest,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Progress),
    ) -> LevelSearch {
        let limits = self.limits(mcts, request.limits, rng);
        let weakened = SearchRequest {
            variant: request.variant,
            board: request.board,
            history: request.history.clone(),
            limits,
            multipv: request.multipv.max(self.multipv()),
            stop: request.stop,
        };
        let mut result = searcher.search(&weakened, report);
        let played = self.pick(&result.lines, rng).cloned();
        result.lines.truncate(request.multipv.max(1));
        LevelSearch { result, played }
    }
}

/// A search value as a weight's score: estimates as they are, proven results at
/// `±PROVEN_WEIGHT` (quicker wins a little higher).
fn weighed(value: i32) -> f64 {
    if !is_proven(value) {
        return value as f64;
    }
    let plies = WIN - value.abs();
    let magnitude = PROVEN_WEIGHT - plies.min(PROVEN_WEIGHT / 2);
    (magnitude * value.signum()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::Score;
    use isolo_rules::Move;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn line(pit: u8, score: Score) -> Line {
        let mv = Move {
            pit,
            choices: Vec::new(),
        };
        Line {
            mv: mv.clone(),
            score,
            pv: vec![mv],
        }
    }

    fn picks(level: u8, lines: &[Line], draws: usize) -> Vec<usize> {
        let mut counts = vec![0; lines.len()];
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..draws {
            let chosen = Level::new(level).unwrap().pick(lines, &mut rng).unwrap();
            counts[lines.iter().position(|l| l.mv == chosen.mv).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn levels_are_numbered_from_the_lowest_to_the_top() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(TOP_LEVEL + 1), None);
        assert!(Level::default().is_top() && Level::default().multipv() == 1);
        assert_eq!(Level::new(LOWEST_LEVEL).unwrap().multipv(), LEVEL_MULTIPV);
    }

    #[test]
    fn the_top_level_plays_the_best_move_and_lower_ones_prefer_it() {
        let lines = [
            line(1, Score::Eval(300)),
            line(2, Score::Eval(100)),
            line(3, Score::Eval(-500)),
        ];
        assert_eq!(picks(TOP_LEVEL, &lines, 100), [100, 0, 0]);
        let mut shares = Vec::new();
        for level in LOWEST_LEVEL..TOP_LEVEL {
            let counts = picks(level, &lines, 2000);
            assert!(
                counts[0] > counts[1] && counts[1] >= counts[2],
                "level {level}: {counts:?}"
            );
            shares.push(counts[0]);
        }
        assert!(
            shares.windows(2).all(|w| w[0] <= w[1]),
            "stronger levels pick the best more: {shares:?}"
        );
    }

    #[test]
    fn a_weak_level_still_takes_a_proven_win_and_avoids_a_proven_loss() {
        let lines = [
            line(1, Score::Win(3)),
            line(2, Score::Eval(200)),
            line(3, Score::Loss(2)),
        ];
        let counts = picks(LOWEST_LEVEL, &lines, 1000);
        assert!(counts[0] > 980 && counts[2] == 0, "{counts:?}");
    }

    #[test]
    fn budgets_shrink_with_the_level_and_never_grow_what_was_given() {
        let mut rng = SmallRng::seed_from_u64(1);
        let given = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        for level in LOWEST_LEVEL..TOP_LEVEL {
            let level = Level::new(level).unwrap();
            assert!(level.limits(false, given, &mut rng).depth.unwrap() <= 2);
            let mcts = level.limits(true, Limits::default(), &mut rng);
            assert!(mcts.nodes.unwrap() <= HANDICAPS[level.number() as usize - 1].iterations);
        }
        let top = Level::default();
        assert_eq!(
            top.limits(false, Limits::default(), &mut rng),
            Limits::default()
        );
        assert_eq!(
            top.limits(true, Limits::default(), &mut rng),
            Limits::default()
        );
    }

    #[test]
    fn the_documented_table_is_the_levels() {
        let doc = include_str!("../../../../docs/matches.md");
        for (i, h) in HANDICAPS.iter().enumerate() {
            let percent = (h.shallow_chance * 100.0).round();
            let row = format!(
                "| {} | {} | {} | {:?} | {percent}% |",
                i + 1,
                h.depth,
                h.iterations,
                h.temperature_seeds
            );
            assert!(doc.contains(&row), "docs/matches.md lacks {row}");
        }
        assert!(doc.contains("A proven win counts as +1000 seeds"));
        assert_eq!(PROVEN_WEIGHT, 100_000, "1000 seeds, as the docs say");
    }
}
