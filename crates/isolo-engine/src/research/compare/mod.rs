//! Variant comparison: the same engine plays both seats under each rule set; per-variant
//! statistics with 95% intervals, and a test of whether the first player's advantage
//! differs between variants.

pub mod run;
pub mod summaries;

use isolo_rules::Listing;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::matches::engine::BotError;
use crate::matches::engine::EngineSpec;
use crate::matches::game_loop::{play_game, TimeControls};
use crate::matches::openings::{load_suite, OpeningsError};
use crate::matches::schedule::game_seed;
use crate::search::{move_generator, searched_moves};
use crate::stats::{normal_cdf, wilson_interval, Z95};
use isolo_rules::EndReason;
use isolo_rules::{Board, MoveGen, Side, Variant};

/// How a compared game starts.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Each game from the variant's start.
    Start,
    /// Each game from K random plies after the start (drawn from the game's seed).
    Random(u32),
    /// Positions from a suite, cycled.
    Suite(Vec<Board>),
}

impl Openings {
    /// The openings `spec` names: `start`, `random:K` (K random plies from the start)
    /// or the path of a suite file.
    pub fn parse(variant: &Variant, spec: &str) -> Result<Openings, OpeningsError> {
        if spec == "start" {
            return Ok(Openings::Start);
        }
        match spec.strip_prefix("random:") {
            Some(k) => k
                .parse()
                .map(Openings::Random)
                .map_err(|_| OpeningsError::BadRandom(spec.to_string())),
            None => load_suite(variant, spec).map(Openings::Suite),
        }
    }

    /// How many different starts these openings give, where that is bounded (random
    /// plies vary with each game's seed).
    pub fn distinct_starts(&self) -> Option<u64> {
        match self {
            Openings::Start | Openings::Random(0) => Some(1),
            Openings::Random(_) => None,
            Openings::Suite(positions) => Some(positions.len() as u64),
        }
    }
}

/// What one game showed.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// The side to move at the game's first position.
    pub first: Side,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub reason: EndReason,
    /// Plies played.
    pub plies: usize,
    /// Per position: distinct positions the legal moves reach (each pit's, counted as
    /// the searchers list them); whether a candidate pit's move was endless.
    pub branching: Vec<usize>,
    /// Per move: whether some pit the mover could start from had only endless moves.
    pub endless: Vec<bool>,
    /// Per move played: laps and seeds captured.
    pub laps: Vec<u32>,
    /// Seeds captured by each move.
    pub captured: Vec<u32>,
}

impl GameFacts {
    /// What the statistics keep of the game.
    pub fn summary(&self) -> GameSummary {
        let flags = |v: &[bool]| v.iter().map(|&b| b as u32).collect::<Vec<u32>>();
        let counts = |v: &[usize]| v.iter().map(|&b| b as u32).collect::<Vec<u32>>();
        GameSummary {
            first: self.first,
            winner: self.winner,
            reason: self.reason,
            plies: self.plies as u32,
            branching: per_game_mean(&counts(&self.branching)),
            laps_per_move: per_game_mean(&self.laps),
            endless_share: per_game_mean(&flags(&self.endless)),
            captured_per_move: per_game_mean(&self.captured),
        }
    }
}

/// One game reduced to what the statistics use (per-game means; `None` for a game
/// without moves): what `compare` keeps of a game, and writes to its records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSummary {
    /// The side to move at the game's first position.
    pub first: Side,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub reason: EndReason,
    /// Plies played.
    pub plies: u32,
    /// Mean distinct results a position.
    pub branching: Option<f64>,
    /// Mean laps a move.
    pub laps_per_move: Option<f64>,
    /// Share of positions with a pit whose moves were all endless.
    pub endless_share: Option<f64>,
    /// Mean seeds captured a move.
    pub captured_per_move: Option<f64>,
}

/// Games a thread plays between two hand-overs of results in `play_in_order`: larger
/// chunks idle less at their ends, smaller ones hold fewer results.
const ORDERED_CHUNK_PER_THREAD: usize = 32;

/// Plays `games` (indices, in order) on `pool` a chunk at a time and hands each result
/// to `consume` in index order, holding no more than a chunk of results; `consume`
/// says whether to go on.
pub(crate) fn play_in_order<T: Send>(
    pool: &rayon::ThreadPool,
    games: impl Iterator<Item = u64>,
    play: impl Fn(u64) -> T + Sync,
    mut consume: impl FnMut(u64, T) -> bool,
) {
    use rayon::prelude::*;
    let chunk = ORDERED_CHUNK_PER_THREAD * pool.current_num_threads();
    let mut games = games.peekable();
    while games.peek().is_some() {
        let indices: Vec<u64> = games.by_ref().take(chunk).collect();
        let results: Vec<T> = pool.install(|| indices.par_iter().map(|&i| play(i)).collect());
        for (i, result) in indices.into_iter().zip(results) {
            if !consume(i, result) {
                return;
            }
        }
    }
}

/// The games of each variant that `shard` plays: game `i` is shard `i mod N`'s.
pub fn shard_games(
    games: u64,
    shard: Option<crate::matches::schedule::Shard>,
) -> impl Iterator<Item = u64> {
    let shard = shard.unwrap_or(crate::matches::schedule::Shard::WHOLE);
    (shard.index..games).step_by(shard.count as usize)
}

/// What a comparison plays of one variant.
pub struct VariantGames<'a> {
    /// The rules.
    pub variant: &'a Variant,
    /// The engine playing both seats.
    pub engine: &'a EngineSpec,
    /// Where each game starts.
    pub openings: &'a Openings,
    /// The comparison's master seed (game `i`'s seed is `game_seed(seed, i)`).
    pub seed: u64,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
}

/// A compared game as it is played: its index, its seed and what it showed.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame {
    /// The game's index within its variant.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// What the statistics use.
    pub summary: GameSummary,
}

impl VariantGames<'_> {
    /// Plays `games` (indices, in order) on `pool` and hands each to `consume` in index
    /// order while it says to go on. An engine's failure ends the games with its error;
    /// `interrupt` raised ends them with the games before kept.
    pub fn play(
        &self,
        pool: &rayon::ThreadPool,
        games: impl Iterator<Item = u64>,
        interrupt: Option<&'static AtomicBool>,
        mut consume: impl FnMut(PlayedGame) -> bool,
    ) -> Result<(), BotError> {
        let mut failure = None;
        play_in_order(
            pool,
            games,
            |game| {
                let seed = game_seed(self.seed, game);
                let start = opening(self.variant, self.openings, game, seed);
                let facts = play_compared(
                    self.variant,
                    self.engine,
                    start,
                    seed,
                    self.max_plies,
                    interrupt,
                );
                facts.map(|f| f.map(|f| (seed, f.summary())))
            },
            |game, result| match result {
                Ok(Some((seed, summary))) => consume(PlayedGame {
                    game,
                    seed,
                    summary,
                }),
                Ok(None) => false,
                Err(e) => {
                    failure = Some(e);
                    false
                }
            },
        );
        failure.map_or(Ok(()), Err)
    }
}

/// Random plies used to find a start that is not already over.
const RANDOM_START_TRIES: u64 = 100;

/// The starting position of game `index`.
pub fn opening(variant: &Variant, openings: &Openings, index: u64, seed: u64) -> Board {
    match openings {
        Openings::Start => variant.start(),
        Openings::Suite(boards) => boards[index as usize % boards.len()],
        Openings::Random(plies) => {
            for attempt in 0..RANDOM_START_TRIES {
                let mut rng =
                    SmallRng::seed_from_u64(seed ^ attempt.wrapping_mul(0x2545_f491_4f6c_dd1d));
                let mut board = variant.start();
                for _ in 0..*plies {
                    let (moves, _) = searched_moves(variant, &board);
                    if moves.is_empty() {
                        break;
                    }
                    board = moves[rng.random_range(0..moves.len())].child;
                }
                if variant.has_legal_move(&board, &mut MoveGen::new()) {
                    return board;
                }
            }
            variant.start()
        }
    }
}

/// Plays one game of `engine` against itself and gathers its facts by replaying it;
/// `None` if `interrupt` was raised before the game ended.
pub(crate) fn play_compared(
    variant: &Variant,
    engine: &EngineSpec,
    start: Board,
    seed: u64,
    max_plies: usize,
    interrupt: Option<&'static AtomicBool>,
) -> Result<Option<GameFacts>, BotError> {
    if crate::raised(interrupt) {
        return Ok(None); // (before the bots' tables are allocated)
    }
    let mut south = engine.bot(seed)?;
    let mut north = engine.bot(seed ^ 0x5bd1_e995)?;
    if let Some(flag) = interrupt {
        south.stop_on(flag);
        north.stop_on(flag);
    }
    let Some(game) = play_game(
        variant,
        start,
        [&mut south, &mut north],
        max_plies,
        &TimeControls::default(),
        interrupt,
    ) else {
        return Ok(None);
    };
    // (A search the flag cut short may have chosen the last move: the game is dropped.)
    if crate::raised(interrupt) {
        return Ok(None);
    }
    let mut facts = GameFacts {
        first: start.to_move(),
        winner: game.winner,
        // Bots without a clock answer every position with a legal move.
        reason: game
            .reason
            .by_rules()
            .expect("bots off the clock never forfeit"),
        plies: game.moves.len(),
        branching: Vec::new(),
        endless: Vec::new(),
        laps: Vec::new(),
        captured: Vec::new(),
    };
    let mut board = start;
    let mut gen = move_generator();
    for mv in &game.moves {
        let (distinct, endless) = branching_and_endless(variant, &board, &mut gen);
        facts.branching.push(distinct);
        facts.endless.push(endless);
        let played = variant
            .play_move(&board, mv)
            .expect("a bot plays legal moves");
        facts.laps.push(played.laps);
        facts.captured.push(played.captured);
        board = played.child;
    }
    Ok(Some(facts))
}

/// From one listing: the distinct positions the moves reach, and whether some pit the
/// side to move could start from has only endless moves.
fn branching_and_endless(variant: &Variant, board: &Board, gen: &mut MoveGen) -> (usize, bool) {
    let candidates = variant.candidate_pits(board);
    let (mut distinct, mut legal) = (0, 0u32);
    // (Every pit with a legal move lists one, whatever the generator's limit.)
    variant.visit_moves(board, Variant::ALL_PITS, Listing::Results, gen, |m| {
        distinct += 1;
        legal |= 1 << (m.pit - 1);
    });
    (distinct, candidates & !legal != 0)
}

/// A proportion with its Wilson 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proportion {
    /// How many of the games.
    pub count: u64,
    /// The share of the games.
    pub rate: f64,
    /// The 95% Wilson interval of the share.
    pub ci95: [f64; 2],
}

/// The Wilson score interval (Wilson 1927) for `count` successes in `n` trials.
pub fn wilson(count: u64, n: u64) -> Proportion {
    if n == 0 {
        return Proportion {
            count,
            rate: 0.0,
            ci95: [0.0, 1.0],
        };
    }
    let p = count as f64 / n as f64;
    Proportion {
        count,
        rate: p,
        ci95: wilson_interval(p, n),
    }
}

/// A mean with a normal 95% interval over independent samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mean {
    /// The sample mean.
    pub mean: f64,
    /// The 95% normal interval of the mean.
    pub ci95: [f64; 2],
    /// The sample standard deviation.
    pub sd: f64,
}

/// A mean and spread kept sample by sample (Welford's update), in constant memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunningMean {
    count: u64,
    mean: f64,
    /// The sum of squared deviations from the mean.
    squares: f64,
}

impl RunningMean {
    /// Adds a sample.
    pub fn add(&mut self, x: f64) {
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.squares += delta * (x - self.mean);
    }

    /// The mean, its 95% normal interval and the samples' standard deviation.
    pub fn mean(&self) -> Mean {
        if self.count == 0 {
            return Mean {
                mean: 0.0,
                ci95: [0.0, 0.0],
                sd: 0.0,
            };
        }
        let n = self.count as f64;
        let var = if self.count > 1 {
            self.squares / (n - 1.0)
        } else {
            0.0
        };
        let half = Z95 * (var / n).sqrt();
        Mean {
            mean: self.mean,
            ci95: [self.mean - half, self.mean + half],
            sd: var.sqrt(),
        }
    }
}

/// The `q`-quantile (0..=1) of the samples counted in `counts` (value -> how many), by
/// linear interpolation between the order statistics.
fn quantile(counts: &BTreeMap<u32, u64>, q: f64) -> f64 {
    let n: u64 = counts.values().sum();
    if n == 0 {
        return 0.0;
    }
    let at = q * (n - 1) as f64;
    let (lo, hi) = (at.floor() as u64, at.ceil() as u64);
    let nth = |rank: u64| {
        let mut seen = 0;
        for (&value, &count) in counts {
            seen += count;
            if rank < seen {
                return value as f64;
            }
        }
        unreachable!("rank below the count")
    };
    let (a, b) = (nth(lo), nth(hi));
    a + (b - a) * (at - lo as f64)
}

/// Game lengths.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lengths {
    /// The mean with its interval.
    pub mean: Mean,
    /// The median.
    pub median: f64,
    /// The first quartile.
    pub p25: f64,
    /// The third quartile.
    pub p75: f64,
    /// The shortest.
    pub min: f64,
    /// The longest.
    pub max: f64,
}

/// Everything `compare` reports for one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantStats {
    /// The variant's label (its rules' name).
    pub variant: String,
    /// Games played.
    pub games: u64,
    /// Games South won.
    pub south_wins: Proportion,
    /// Games North won.
    pub north_wins: Proportion,
    /// Games drawn.
    pub draws: Proportion,
    /// Wins of the side to move at the game's first position.
    pub first_player_wins: Proportion,
    /// Games won by the side that moved second.
    pub second_player_wins: Proportion,
    /// Game lengths in plies.
    pub plies: Lengths,
    /// Per-game means, then their mean across games.
    pub branching: Mean,
    /// Laps per move (per-game means).
    pub laps_per_move: Mean,
    /// Share of positions where a pit's move is endless (per-game means).
    pub endless_share: Mean,
    /// Seeds captured per move (per-game means).
    pub captured_per_move: Mean,
    /// Games ended by a side without a legal move.
    pub end_no_moves: Proportion,
    /// Games drawn by repetition.
    pub end_repetition: Proportion,
    /// Games drawn at the ply limit.
    pub end_ply_limit: Proportion,
    /// Games ended in a dead position (no seed could change hands again).
    pub end_dead_position: Proportion,
    /// Games won by taking both of the opponent's front-row end pits (`capture_win`).
    pub end_ends_captured: Proportion,
    /// Games ended by the long-game rule (`long_game_plies` plies without a capture).
    pub end_long_game: Proportion,
    /// How many games had each length, for plots.
    #[serde(skip)]
    pub length_counts: BTreeMap<u32, u64>,
}

fn per_game_mean<T: Copy + Into<f64>>(values: &[T]) -> Option<f64> {
    (!values.is_empty())
        .then(|| values.iter().map(|&v| v.into()).sum::<f64>() / values.len() as f64)
}

/// The statistics of one variant's games, kept up to date game by game in memory that
/// does not grow with the games (lengths are counted by value, and a game lasts at most
/// the ply cap).
#[derive(Clone, Debug, Default)]
pub struct VariantTally {
    games: u64,
    south_wins: u64,
    north_wins: u64,
    first_wins: u64,
    second_wins: u64,
    reasons: [u64; 6],
    plies: RunningMean,
    length_counts: BTreeMap<u32, u64>,
    branching: RunningMean,
    laps_per_move: RunningMean,
    endless_share: RunningMean,
    captured_per_move: RunningMean,
}

impl VariantTally {
    /// Games tallied.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Counts a game.
    pub fn add(&mut self, g: &GameSummary) {
        self.games += 1;
        match g.winner {
            Some(Side::South) => self.south_wins += 1,
            Some(Side::North) => self.north_wins += 1,
            None => {}
        }
        if g.winner == Some(g.first) {
            self.first_wins += 1;
        } else if g.winner == Some(g.first.opponent()) {
            self.second_wins += 1;
        }
        self.reasons[reason_index(g.reason)] += 1;
        self.plies.add(g.plies as f64);
        *self.length_counts.entry(g.plies).or_insert(0) += 1;
        let means = [
            (&mut self.branching, g.branching),
            (&mut self.laps_per_move, g.laps_per_move),
            (&mut self.endless_share, g.endless_share),
            (&mut self.captured_per_move, g.captured_per_move),
        ];
        for (running, value) in means {
            if let Some(x) = value {
                running.add(x);
            }
        }
    }

    /// The statistics so far, labelled `variant`.
    pub fn stats(&self, variant: &str) -> VariantStats {
        let n = self.games;
        let counts = &self.length_counts;
        VariantStats {
            variant: variant.to_string(),
            games: n,
            south_wins: wilson(self.south_wins, n),
            north_wins: wilson(self.north_wins, n),
            draws: wilson(n - self.south_wins - self.north_wins, n),
            first_player_wins: wilson(self.first_wins, n),
            second_player_wins: wilson(self.second_wins, n),
            plies: Lengths {
                mean: self.plies.mean(),
                median: quantile(counts, 0.5),
                p25: quantile(counts, 0.25),
                p75: quantile(counts, 0.75),
                min: counts.keys().next().map_or(0.0, |&l| l as f64),
                max: counts.keys().next_back().map_or(0.0, |&l| l as f64),
            },
            branching: self.branching.mean(),
            laps_per_move: self.laps_per_move.mean(),
            endless_share: self.endless_share.mean(),
            captured_per_move: self.captured_per_move.mean(),
            end_no_moves: wilson(self.reasons[reason_index(EndReason::NoMoves)], n),
            end_repetition: wilson(self.reasons[reason_index(EndReason::Repetition)], n),
            end_ply_limit: wilson(self.reasons[reason_index(EndReason::PlyLimit)], n),
            end_dead_position: wilson(self.reasons[reason_index(EndReason::DeadPosition)], n),
            end_ends_captured: wilson(self.reasons[reason_index(EndReason::EndsCaptured)], n),
            end_long_game: wilson(self.reasons[reason_index(EndReason::LongGame)], n),
            length_counts: counts.clone(),
        }
    }
}

fn reason_index(reason: EndReason) -> usize {
    match reason {
        EndReason::NoMoves => 0,
        EndReason::Repetition => 1,
        EndReason::PlyLimit => 2,
        EndReason::DeadPosition => 3,
        EndReason::EndsCaptured => 4,
        EndReason::LongGame => 5,
    }
}

/// A two-sided two-proportion z-test (pooled variance) of the first player's win rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdvantageTest {
    /// The first variant's label.
    pub a: String,
    /// The second variant's label.
    pub b: String,
    /// The first player's win rate under `a` minus under `b`.
    pub difference: f64,
    /// The test statistic.
    pub z: f64,
    /// The two-sided p-value.
    pub p_value: f64,
}

/// A comparison's result, as every front end reports it (`compare --json`,
/// `merge --json`, Python's `merge`): each variant's statistics and the first player's
/// advantage tested between every two variants.
#[derive(Clone, Debug, Serialize)]
pub struct CompareReport {
    /// The engine's label.
    pub engine: String,
    /// Games played under each variant.
    pub games_per_variant: u64,
    /// Each variant's statistics, in the order given.
    pub variants: Vec<VariantStats>,
    /// The test of every two variants `i < j`, in order.
    pub first_player_tests: Vec<AdvantageTest>,
    /// Which test that is.
    pub test: &'static str,
}

impl CompareReport {
    /// The report of `variants`' statistics, played by `engine`.
    pub fn new(engine: &str, games_per_variant: u64, variants: Vec<VariantStats>) -> CompareReport {
        let first_player_tests = (0..variants.len())
            .flat_map(|i| (i + 1..variants.len()).map(move |j| (i, j)))
            .map(|(i, j)| first_player_test(&variants[i], &variants[j]))
            .collect();
        CompareReport {
            engine: engine.to_string(),
            games_per_variant,
            variants,
            first_player_tests,
            test: "two-sided two-proportion z-test (pooled) of the first player's win rate",
        }
    }
}

/// The pooled two-proportion z-test of the first player's win rate under `a` and `b`.
pub(crate) fn first_player_test(a: &VariantStats, b: &VariantStats) -> AdvantageTest {
    let (x1, n1) = (a.first_player_wins.count as f64, a.games as f64);
    let (x2, n2) = (b.first_player_wins.count as f64, b.games as f64);
    let (p1, p2) = (x1 / n1.max(1.0), x2 / n2.max(1.0));
    let pooled = (x1 + x2) / (n1 + n2).max(1.0);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1.max(1.0) + 1.0 / n2.max(1.0))).sqrt();
    let z = if se > 0.0 { (p1 - p2) / se } else { 0.0 };
    AdvantageTest {
        a: a.variant.clone(),
        b: b.variant.clone(),
        difference: p1 - p2,
        z,
        p_value: 2.0 * (1.0 - normal_cdf(z.abs())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean, its 95% interval and the spread of `samples`.
    fn mean_of(samples: &[f64]) -> Mean {
        let mut running = RunningMean::default();
        samples.iter().for_each(|&x| running.add(x));
        running.mean()
    }

    /// Summarises the games of one variant.
    fn summarise(variant: &str, games: &[GameFacts]) -> VariantStats {
        let mut tally = VariantTally::default();
        games.iter().for_each(|g| tally.add(&g.summary()));
        tally.stats(variant)
    }

    #[test]
    fn wilson_matches_a_worked_example() {
        // 8 of 10: p = 0.8, z = 1.96: centre 0.7167, half 0.2266 -> [0.4902, 0.9433].
        let w = wilson(8, 10);
        assert!(
            (w.ci95[0] - 0.4902).abs() < 5e-4 && (w.ci95[1] - 0.9433).abs() < 5e-4,
            "{w:?}"
        );
    }

    #[test]
    fn wilson_intervals_cover_a_known_coin() {
        // 2000 simulated samples of 200 tosses of a coin with p = 0.3: about 95% of the
        // intervals contain 0.3.
        let mut rng = SmallRng::seed_from_u64(9);
        let trials = 2000;
        let covered = (0..trials)
            .filter(|_| {
                let heads = (0..200).filter(|_| rng.random_bool(0.3)).count() as u64;
                let w = wilson(heads, 200);
                w.ci95[0] <= 0.3 && 0.3 <= w.ci95[1]
            })
            .count();
        let coverage = covered as f64 / trials as f64;
        assert!((0.93..=0.97).contains(&coverage), "coverage {coverage}");
    }

    #[test]
    fn mean_intervals_cover_a_known_mean() {
        let mut rng = SmallRng::seed_from_u64(10);
        let trials = 1000;
        let covered = (0..trials)
            .filter(|_| {
                let samples: Vec<f64> = (0..100).map(|_| rng.random_range(0.0..10.0)).collect();
                let m = mean_of(&samples);
                m.ci95[0] <= 5.0 && 5.0 <= m.ci95[1]
            })
            .count();
        let coverage = covered as f64 / trials as f64;
        assert!((0.92..=0.975).contains(&coverage), "coverage {coverage}");
    }

    #[test]
    fn the_advantage_test_sees_a_clear_difference() {
        let facts = |first_wins: usize, n: usize| -> Vec<GameFacts> {
            (0..n)
                .map(|i| GameFacts {
                    first: Side::South,
                    winner: Some(if i < first_wins {
                        Side::South
                    } else {
                        Side::North
                    }),
                    reason: EndReason::NoMoves,
                    plies: 10,
                    branching: vec![5],
                    endless: vec![false],
                    laps: vec![2],
                    captured: vec![1],
                })
                .collect()
        };
        let a = summarise("a", &facts(80, 100));
        let b = summarise("b", &facts(50, 100));
        let t = first_player_test(&a, &b);
        // pooled 0.65: se = sqrt(0.65 * 0.35 * 0.02) = 0.06745; z = 0.3 / 0.06745 = 4.448.
        assert!((t.z - 4.448).abs() < 0.01, "{t:?}");
        assert!(t.p_value < 1e-4);
        assert_eq!(a.plies.median, 10.0);
    }
}
