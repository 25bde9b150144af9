//! What a run's records add up to, counted record by record as they finish (or as a
//! records file is read): a match's [`RunningTally`] of wins, draws, losses and pair
//! outcomes, the [`Forfeits`] of each engine, and a tournament's [`Crosstable`] with its
//! [`Standings`]. Nothing here keeps the records themselves, so neither time nor memory
//! grows faster than the games.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::matches::records::{GameResult, Record};
use crate::matches::schedule::Pairing;
use crate::stats::{
    self, elo_estimate, ratings, EloCaveat, PairResult, Pentanomial, Rating, Sprt, SprtState,
    SprtVerdict,
};
use isolo_rules::Side;

/// A match counted record by record: the tally of the first engine against the second,
/// each engine's forfeits, and the SPRT that may end it. Once the SPRT decides, later
/// records are not counted (as one process would have stopped there), so the match,
/// its merge from shards and Python's `match` agree game for game.
#[derive(Clone, Debug)]
pub struct MatchTally {
    running: RunningTally,
    forfeits: Forfeits,
    sprt: Option<Sprt>,
    /// The game at which the SPRT decided.
    decided_at: Option<u64>,
}

impl MatchTally {
    /// An empty tally of `a` against `b`, stopped by `sprt` if one is given.
    pub fn new(a: &str, b: &str, sprt: Option<Sprt>) -> MatchTally {
        MatchTally {
            running: RunningTally::new(a, b),
            forfeits: Forfeits::default(),
            sprt,
            decided_at: None,
        }
    }

    /// Counts `r` unless the SPRT has decided; says whether it has (after `r`).
    pub fn add(&mut self, r: &Record) -> bool {
        if self.decided_at.is_some() {
            return true;
        }
        self.forfeits.add(r);
        let tally = self.running.add(r);
        let decided = self
            .sprt
            .is_some_and(|s| s.state(&tally.pentanomial).verdict != SprtVerdict::Continue);
        if decided {
            self.decided_at = Some(r.game);
        }
        decided
    }

    /// The two engines' labels.
    pub fn engines(&self) -> (&str, &str) {
        (&self.running.a, &self.running.b)
    }

    /// The games counted, from the first engine's side.
    pub fn tally(&self) -> &Tally {
        self.running.tally()
    }

    /// Each engine's forfeits.
    pub fn forfeits(&self) -> &Forfeits {
        &self.forfeits
    }

    /// The SPRT the match runs, if any.
    pub fn sprt(&self) -> Option<Sprt> {
        self.sprt
    }

    /// The SPRT's state over the games counted.
    pub fn sprt_state(&self) -> Option<SprtState> {
        self.sprt.map(|s| s.state(&self.tally().pentanomial))
    }

    /// The game at which the SPRT decided, if it has.
    pub fn decided_at(&self) -> Option<u64> {
        self.decided_at
    }

    /// The match's report (what `match --json` prints), with the playing rate if known.
    pub fn report(&self, games_per_minute: Option<f64>) -> MatchReport {
        let t = self.tally();
        let estimate = elo_estimate(&t.pentanomial);
        let finite = |x: f64| x.is_finite().then_some(x);
        let (a, b) = self.engines();
        MatchReport {
            engines: [a.to_string(), b.to_string()],
            games: t.games(),
            a_wins: t.a_wins,
            b_wins: t.b_wins,
            draws: t.draws,
            score: t.score(),
            elo: estimate.as_ref().and_then(|e| finite(e.elo)),
            elo_ci95: estimate
                .as_ref()
                .filter(|e| e.caveat.is_none())
                .map(|e| e.elo_ci95.map(finite)),
            elo_caveat: estimate.as_ref().and_then(|e| e.caveat),
            los: estimate.as_ref().map(|e| e.los),
            draw_rate: t.draw_rate(),
            pentanomial: t.pentanomial,
            sprt: self.sprt_state(),
            forfeits: self.forfeits.clone(),
            stopped_early: self.decided_at.is_some(),
            games_per_minute,
        }
    }
}

/// A match's result, as every front end reports it (`match --json`, `merge --json`,
/// Python's `match`); infinite Elo figures are `None`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchReport {
    /// The two engines' labels.
    pub engines: [String; 2],
    /// Games counted.
    pub games: u64,
    /// Games the first engine won.
    pub a_wins: u64,
    /// Games the second engine won.
    pub b_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// The first engine's score, 0 to 1.
    pub score: f64,
    /// The Elo difference (first minus second), when finite.
    pub elo: Option<f64>,
    /// Its 95% interval, when the pairs give one.
    pub elo_ci95: Option<[Option<f64>; 2]>,
    /// Why the interval cannot be trusted, if it cannot.
    pub elo_caveat: Option<EloCaveat>,
    /// The likelihood that the first engine is the stronger.
    pub los: Option<f64>,
    /// The share of draws.
    pub draw_rate: f64,
    /// Pair outcomes `[LL, LD, WL+DD, WD, WW]` from the first engine's side.
    pub pentanomial: Pentanomial,
    /// The SPRT's state, if one ran.
    pub sprt: Option<SprtState>,
    /// Each engine's forfeits by reason.
    pub forfeits: Forfeits,
    /// Whether the SPRT decided (and ended the match, or stopped the count at a merge).
    pub stopped_early: bool,
    /// Games per minute of the run (none for a merge).
    pub games_per_minute: Option<f64>,
}

/// Wins, draws, losses and pair outcomes of engine `a` against `b`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games `a` won.
    pub a_wins: u64,
    /// Games `b` won.
    pub b_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Outcomes of the colour-reversed pairs, from `a`'s view (`[LL, LD, WL+DD, WD, WW]`).
    pub pentanomial: Pentanomial,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.a_wins + self.draws + self.b_wins
    }

    /// `n`'s share of the games counted (0 before any game).
    fn share(&self, n: u64) -> f64 {
        match self.games() {
            0 => 0.0,
            games => n as f64 / games as f64,
        }
    }

    /// `a`'s score, from 0 to 1 (a draw counts a half).
    pub fn score(&self) -> f64 {
        self.share(2 * self.a_wins + self.draws) / 2.0
    }

    /// The share of draws, from 0 to 1.
    pub fn draw_rate(&self) -> f64 {
        self.share(self.draws)
    }
}

/// Points (0, 1/2, 1 in halves) of `label` in a record it played.
pub(crate) fn half_points(record: &Record, label: &str) -> u64 {
    let side = if record.south == label {
        Side::South
    } else {
        Side::North
    };
    match record.result {
        GameResult::Draw => 1,
        result if result.winner() == Some(side) => 2,
        _ => 0,
    }
}

/// A tally of `a` against `b` kept up to date record by record (pairs are games `2k`,
/// `2k + 1`): each record is counted once and dropped, and only pairs with one game
/// counted are held.
#[derive(Clone, Debug)]
pub struct RunningTally {
    a: String,
    b: String,
    tally: Tally,
    /// Pairs with one game counted: the pair and the points of `a` in it (in halves).
    open_pairs: HashMap<u64, u64>,
}

impl RunningTally {
    /// An empty tally of `a` against `b`.
    pub fn new(a: &str, b: &str) -> RunningTally {
        RunningTally {
            a: a.to_string(),
            b: b.to_string(),
            tally: Tally::default(),
            open_pairs: HashMap::new(),
        }
    }

    /// The tally so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Counts `r` (if `a` and `b` played it) and returns the tally.
    pub fn add(&mut self, r: &Record) -> &Tally {
        let (a, b) = (self.a.as_str(), self.b.as_str());
        if (r.south == a && r.north == b) || (r.south == b && r.north == a) {
            let points = half_points(r, a);
            match points {
                2 => self.tally.a_wins += 1,
                1 => self.tally.draws += 1,
                _ => self.tally.b_wins += 1,
            }
            match self.open_pairs.remove(&(r.game / 2)) {
                Some(first) => self.tally.pentanomial[(first + points) as usize] += 1,
                None => {
                    self.open_pairs.insert(r.game / 2, points);
                }
            }
        }
        &self.tally
    }
}

/// Forfeits of each engine, by reason, counted record by record: the loser of a
/// forfeited game is the side that was to move, the side that did not win. Serialises
/// as `{"engine": {"reason": count}}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Forfeits(BTreeMap<String, BTreeMap<&'static str, u64>>);

impl Forfeits {
    /// Counts `r` if it was forfeited.
    pub fn add(&mut self, r: &Record) {
        if !r.reason.is_forfeit() {
            return;
        }
        let loser = match r.winner() {
            Some(Side::South) => &r.north,
            _ => &r.south,
        };
        *self
            .0
            .entry(loser.clone())
            .or_default()
            .entry(r.reason.name())
            .or_insert(0) += 1;
    }

    /// Whether no game was forfeited.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each engine that forfeited, in label order, with its forfeits by reason.
    pub fn by_engine(&self) -> impl Iterator<Item = (&str, &BTreeMap<&'static str, u64>)> {
        self.0
            .iter()
            .map(|(engine, reasons)| (engine.as_str(), reasons))
    }
}

/// Points and games of each engine against each other, counted record by record.
#[derive(Clone, Debug)]
pub struct Crosstable {
    labels: Vec<String>,
    /// `cells[i][j]`: engine `i`'s points and games against engine `j`.
    cells: Vec<Vec<(f64, u64)>>,
}

impl Crosstable {
    /// An empty crosstable of the engines labelled `labels`.
    pub fn new(labels: &[String]) -> Crosstable {
        let n = labels.len();
        Crosstable {
            labels: labels.to_vec(),
            cells: vec![vec![(0.0, 0u64); n]; n],
        }
    }

    /// Counts `r` (if both its engines are in the table).
    pub fn add(&mut self, r: &Record) {
        let index = |label: &str| self.labels.iter().position(|l| l == label);
        let (Some(s), Some(t)) = (index(&r.south), index(&r.north)) else {
            return;
        };
        let south_points = half_points(r, &r.south) as f64 / 2.0;
        self.cells[s][t].0 += south_points;
        self.cells[s][t].1 += 1;
        self.cells[t][s].0 += 1.0 - south_points;
        self.cells[t][s].1 += 1;
    }

    /// The engines' labels, in the table's order.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Engine `i`'s points and games against engine `j`.
    pub fn cell(&self, i: usize, j: usize) -> (f64, u64) {
        self.cells[i][j]
    }

    /// Each pairing `(i, j)` with `i < j`.
    fn pairings(&self) -> impl Iterator<Item = (usize, usize)> {
        let n = self.labels.len();
        (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
    }

    /// Games counted.
    pub fn games_played(&self) -> u64 {
        self.pairings().map(|(i, j)| self.cells[i][j].1).sum()
    }

    /// Points, games and maximum-likelihood ratings (anchored at `anchor`'s engine, or of
    /// mean 0 over the engines that played), with the ranking by rating. An engine
    /// without games has no rating and ranks last: nothing is known of it.
    pub fn standings(&self, anchor: Option<usize>) -> Standings {
        let n = self.labels.len();
        let played: Vec<usize> = (0..n)
            .filter(|&i| self.cells[i].iter().any(|c| c.1 > 0))
            .collect();
        // Ratings are fitted over the engines that played, in their own numbering.
        let local = |engine: usize| played.iter().position(|&p| p == engine);
        let results: Vec<PairResult> = self
            .pairings()
            .filter(|&(i, j)| self.cells[i][j].1 > 0)
            .filter_map(|(i, j)| {
                Some(PairResult {
                    a: local(i)?,
                    b: local(j)?,
                    points: self.cells[i][j].0,
                    games: self.cells[i][j].1 as f64,
                })
            })
            .collect();
        let fitted = ratings(played.len(), &results, anchor.and_then(local));
        let mut rated: Vec<Option<Rating>> = vec![None; n];
        for (k, &engine) in played.iter().enumerate() {
            rated[engine] = Some(fitted[k]);
        }
        let points: Vec<f64> = self
            .cells
            .iter()
            .map(|row| row.iter().map(|c| c.0).sum())
            .collect();
        let games: Vec<u64> = self
            .cells
            .iter()
            .map(|row| row.iter().map(|c| c.1).sum())
            .collect();
        let caveat = (!self.ratings_are_finite(&played)).then_some(EloCaveat::OneSided);
        let elo = |i: usize| rated[i].map_or(f64::NEG_INFINITY, |r| r.elo);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| elo(b).total_cmp(&elo(a)));
        Standings {
            points,
            games,
            ratings: rated,
            order,
            caveat,
        }
    }

    /// Whether the ratings of `played` have a finite maximum-likelihood estimate: when
    /// every group of engines scored at least a draw against the rest, that is, when the
    /// graph "i scored against j" is strongly connected. Otherwise some engines took
    /// every point against others and their ratings are only where the fit stopped.
    fn ratings_are_finite(&self, played: &[usize]) -> bool {
        let Some(&first) = played.first() else {
            return true;
        };
        let scored = |i: usize, j: usize| self.cells[i][j].1 > 0 && self.cells[i][j].0 > 0.0;
        let reaches_all = |edge: &dyn Fn(usize, usize) -> bool| {
            let mut seen = vec![first];
            let mut next = 0;
            while next < seen.len() {
                let i = seen[next];
                next += 1;
                for &j in played {
                    if !seen.contains(&j) && edge(i, j) {
                        seen.push(j);
                    }
                }
            }
            seen.len() == played.len()
        };
        reaches_all(&|i, j| scored(i, j)) && reaches_all(&|i, j| scored(j, i))
    }
}

/// A tournament counted record by record: its crosstable and each engine's forfeits.
#[derive(Clone, Debug)]
pub struct TournamentTally {
    crosstable: Crosstable,
    forfeits: Forfeits,
    /// Whether the schedule is a ladder, whose report gives its steps.
    ladder: bool,
}

impl TournamentTally {
    /// An empty tally of the engines labelled `labels`, playing `pairings` (a ladder's
    /// report adds its steps).
    pub fn new(labels: &[String], pairings: &[(usize, usize)]) -> TournamentTally {
        TournamentTally {
            crosstable: Crosstable::new(labels),
            forfeits: Forfeits::default(),
            ladder: labels.len() >= 2 && pairings == Pairing::Ladder.pairings(labels.len()),
        }
    }

    /// Counts `r`.
    pub fn add(&mut self, r: &Record) {
        self.crosstable.add(r);
        self.forfeits.add(r);
    }

    /// The crosstable so far.
    pub fn crosstable(&self) -> &Crosstable {
        &self.crosstable
    }

    /// The index of the engine labelled `anchor`, if one is given (the engine whose
    /// rating is fixed at 0); the refusal names the label.
    pub fn anchor(&self, anchor: Option<&str>) -> Result<Option<usize>, String> {
        anchor
            .map(|label| {
                let index = self.crosstable.labels.iter().position(|l| l == label);
                index.ok_or_else(|| format!("no engine is labelled '{label}'"))
            })
            .transpose()
    }

    /// The tournament's report (what `tournament --json` prints): standings best rated
    /// first, ratings anchored at `anchor`'s engine (or of mean 0), with the playing
    /// rate if known.
    pub fn report(&self, anchor: Option<usize>, games_per_minute: Option<f64>) -> TournamentReport {
        let table = &self.crosstable;
        let labels = table.labels();
        let n = labels.len();
        let Standings {
            points,
            games,
            ratings: rated,
            order,
            caveat,
        } = table.standings(anchor);
        let standings = order
            .iter()
            .map(|&i| StandingRow {
                engine: labels[i].clone(),
                points: points[i],
                games: games[i],
                elo: rated[i].map(|r| r.elo),
                elo_ci95: rated[i].map(|r| [r.elo - r.ci95, r.elo + r.ci95]),
            })
            .collect();
        let crosstable = (0..n)
            .map(|i| CrosstableRow {
                engine: labels[i].clone(),
                points: (0..n)
                    .map(|j| (i != j).then(|| table.cell(i, j).0))
                    .collect(),
                games: (0..n).map(|j| table.cell(i, j).1).collect(),
            })
            .collect();
        TournamentReport {
            engines: labels.to_vec(),
            games: table.games_played(),
            standings,
            crosstable,
            steps: self.ladder.then(|| self.steps()),
            // An anchor without games anchors nothing: the ratings then have mean 0.
            anchor: anchor
                .filter(|&i| rated[i].is_some())
                .map(|i| labels[i].clone()),
            caveat,
            forfeits: self.forfeits.clone(),
            games_per_minute,
        }
    }
}

impl TournamentTally {
    /// Each engine's games against the one given before it: a ladder's steps.
    fn steps(&self) -> Vec<LadderStep> {
        let table = &self.crosstable;
        let labels = table.labels();
        (1..labels.len())
            .map(|k| {
                let (points, games) = table.cell(k, k - 1);
                let score = (games > 0).then(|| points / games as f64);
                LadderStep {
                    engine: labels[k].clone(),
                    below: labels[k - 1].clone(),
                    points,
                    games,
                    score,
                    score_ci95: score.map(|s| stats::wilson_interval(s, games)),
                    // A clean sweep either way has no finite Elo; an even score is
                    // +0, not -0.
                    elo: score
                        .filter(|s| *s > 0.0 && *s < 1.0)
                        .map(|s| stats::elo_of_score(s) + 0.0),
                }
            })
            .collect()
    }
}

/// One step of a ladder: an engine's games against the one given before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderStep {
    /// The engine.
    pub engine: String,
    /// The engine given before it.
    pub below: String,
    /// Its points against that engine.
    pub points: f64,
    /// Their games.
    pub games: u64,
    /// Its score (points per game; none without games).
    pub score: Option<f64>,
    /// The score's 95% interval (Wilson's, conservative with draws:
    /// `stats::wilson_interval`).
    pub score_ci95: Option<[f64; 2]>,
    /// The Elo difference of that score (none without games, or at a score of 0 or 1).
    pub elo: Option<f64>,
}

/// A tournament's result, as every front end reports it (`tournament --json`,
/// `merge --json`, Python's `tournament`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentReport {
    /// The engines' labels, in the order they were given.
    pub engines: Vec<String>,
    /// Games counted.
    pub games: u64,
    /// One row per engine, best rated first (engines without games last).
    pub standings: Vec<StandingRow>,
    /// One row per engine, in the order given: its points and games against each.
    pub crosstable: Vec<CrosstableRow>,
    /// A ladder's steps, each engine against the one given before it (none for
    /// another schedule).
    pub steps: Option<Vec<LadderStep>>,
    /// The engine whose rating is fixed at 0 (none: the mean is 0).
    pub anchor: Option<String>,
    /// Why the ratings cannot be trusted, if they cannot.
    pub caveat: Option<EloCaveat>,
    /// Each engine's forfeits by reason.
    pub forfeits: Forfeits,
    /// Games per minute of the run (none for a merge).
    pub games_per_minute: Option<f64>,
}

/// An engine's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingRow {
    /// Its label.
    pub engine: String,
    /// Its points.
    pub points: f64,
    /// Its games.
    pub games: u64,
    /// Its rating (none without games).
    pub elo: Option<f64>,
    /// The rating's 95% interval.
    pub elo_ci95: Option<[f64; 2]>,
}

/// An engine's row of the crosstable.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrosstableRow {
    /// Its label.
    pub engine: String,
    /// Its points against each engine (none against itself).
    pub points: Vec<Option<f64>>,
    /// Its games against each engine.
    pub games: Vec<u64>,
}

/// A tournament's standings, engine by engine in the crosstable's order.
#[derive(Clone, Debug)]
pub struct Standings {
    /// Each engine's points.
    pub points: Vec<f64>,
    /// Each engine's games.
    pub games: Vec<u64>,
    /// Each engine's rating and its 95% interval; `None` for an engine without games.
    pub ratings: Vec<Option<Rating>>,
    /// The engines' indices, best rated first.
    pub order: Vec<usize>,
    /// Why the ratings cannot be trusted, if they cannot: engines that took every point
    /// against others have no finite rating (the fit stops at a bound).
    pub caveat: Option<EloCaveat>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::player::Termination;
    use isolo_rules::Variant;

    fn record(game: u64, a_is_south: bool, result: GameResult) -> Record {
        let (south, north) = if a_is_south { ("a", "b") } else { ("b", "a") };
        Record {
            game,
            opening: Variant::load("isolo-boys").unwrap().start(),
            south: south.into(),
            north: north.into(),
            moves: Vec::new(),
            result,
            reason: Termination::NoMoves,
            detail: None,
            seed: 0,
            time_ms: 0,
            move_ms: Vec::new(),
            clock_ms: Vec::new(),
        }
    }

    /// The pentanomial recounted from scratch, the obvious way.
    fn recounted(records: &[Record]) -> Pentanomial {
        let mut pairs = BTreeMap::<u64, Vec<u64>>::new();
        for r in records {
            pairs
                .entry(r.game / 2)
                .or_default()
                .push(half_points(r, "a"));
        }
        let mut out = Pentanomial::default();
        for points in pairs.values().filter(|p| p.len() == 2) {
            out[(points[0] + points[1]) as usize] += 1;
        }
        out
    }

    #[test]
    fn a_running_tally_equals_a_recount_after_every_record() {
        let results = [
            GameResult::SouthWins,
            GameResult::NorthWins,
            GameResult::Draw,
        ];
        let records: Vec<Record> = (0..60u64)
            .map(|g| record(g, g % 2 == 0, results[(g * 7 % 11 % 3) as usize]))
            .collect();
        let mut running = RunningTally::new("a", "b");
        for n in 1..=records.len() {
            let t = running.add(&records[n - 1]).clone();
            assert_eq!(t.pentanomial, recounted(&records[..n]), "after {n} records");
            let points: u64 = records[..n].iter().map(|r| half_points(r, "a")).sum();
            assert_eq!(2 * t.a_wins + t.draws, points);
            assert_eq!(t.a_wins + t.draws + t.b_wins, n as u64);
        }
        // Records of other engines are not counted.
        let mut other = record(60, true, GameResult::SouthWins);
        other.north = "c".into();
        let t = running.add(&other);
        assert_eq!(t.a_wins + t.draws + t.b_wins, 60);
    }

    #[test]
    fn an_engine_without_games_has_no_rating_and_ranks_last() {
        let labels: Vec<String> = ["c", "a", "b"].iter().map(|s| s.to_string()).collect();
        let mut table = Crosstable::new(&labels);
        table.add(&record(0, true, GameResult::SouthWins));
        table.add(&record(1, false, GameResult::Draw));
        let standings = table.standings(None);
        assert_eq!(standings.ratings[0], None, "c played no game");
        assert_eq!(standings.order.last(), Some(&0));
        let (a, b) = (standings.ratings[1].unwrap(), standings.ratings[2].unwrap());
        assert!(a.elo > b.elo);
        assert!(
            (a.elo + b.elo).abs() < 1e-6,
            "mean 0 over the engines that played"
        );
        // Anchored at an engine without games: the mean is 0 among the others.
        assert_eq!(table.standings(Some(0)).ratings[1], standings.ratings[1]);
    }

    #[test]
    fn one_sided_results_are_flagged() {
        let labels: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let mut table = Crosstable::new(&labels);
        table.add(&record(0, true, GameResult::SouthWins));
        table.add(&record(1, false, GameResult::NorthWins));
        assert_eq!(table.standings(None).caveat, Some(EloCaveat::OneSided));
        table.add(&record(2, true, GameResult::Draw));
        assert_eq!(table.standings(None).caveat, None);
    }

    #[test]
    fn a_ladder_reports_each_engine_against_the_one_before_it() {
        let labels: Vec<String> = ["b", "a", "c"].iter().map(|s| s.to_string()).collect();
        let ladder = Pairing::Ladder.pairings(3);
        let mut tally = TournamentTally::new(&labels, &ladder);
        // "a" (after "b") wins one and draws one against "b".
        tally.add(&record(0, true, GameResult::SouthWins));
        tally.add(&record(1, false, GameResult::Draw));
        let steps = tally.report(None, None).steps.expect("a ladder has steps");
        assert_eq!(steps.len(), 2);
        let first = &steps[0];
        assert_eq!((first.engine.as_str(), first.below.as_str()), ("a", "b"));
        assert_eq!(
            (first.points, first.games, first.score),
            (1.5, 2, Some(0.75))
        );
        assert!((first.elo.unwrap() - stats::elo_of_score(0.75)).abs() < 1e-9);
        // Two games tell little: the interval holds 0.5.
        let [low, high] = first.score_ci95.unwrap();
        assert!(low < 0.5 && 0.75 < high && high <= 1.0, "{low} {high}");
        let second = &steps[1];
        assert_eq!((second.engine.as_str(), second.games), ("c", 0));
        assert_eq!(
            (second.score, second.elo, second.score_ci95),
            (None, None, None)
        );
        // An even step is +0, not -0.
        let mut even = TournamentTally::new(&labels, &ladder);
        even.add(&record(0, true, GameResult::Draw));
        let elo = even.report(None, None).steps.unwrap()[0].elo.unwrap();
        assert!(elo == 0.0 && elo.is_sign_positive(), "{elo}");
        // A round robin of the same engines has no steps, even before its first game.
        let round_robin = TournamentTally::new(&labels, &Pairing::RoundRobin.pairings(3));
        let empty = round_robin.report(None, None);
        assert_eq!((empty.steps, empty.games), (None, 0));
    }
}
