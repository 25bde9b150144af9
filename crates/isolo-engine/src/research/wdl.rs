//! Fitting the win/draw/loss model (`crate::search::wdl`) to self-play, and measuring its
//! calibration on games it was not fitted on.
//!
//! 1. Self-play: from each opening, a few random plies for variety, then alpha-beta at a
//!    node limit plays both sides to the end; a game reaching the ply cap is a draw (an
//!    endless relay or a shuffle no side can break).
//! 2. Every engine move gives a sample: the score it was played at (the mover's view) and
//!    the game's result for the mover. Proven scores are left out of the fit (they are
//!    certain) and counted: each must agree with the result.
//! 3. The model's `offset` and `scale` maximise the likelihood of the results of the
//!    training games (a grid, then a pattern search); `draw` scores give the repetition
//!    share by counting (the level score's chances when none came up).
//! 4. Every `holdout`-th game is held out: its samples are sorted into bins of predicted
//!    expected result, each bin's mean prediction set against the observed mean, and the
//!    Brier score (the squared error of the three chances, 0 to 2) is given beside that of
//!    the constant prediction (the training games' frequencies).
//!
//! Every random choice comes from the seed and every search is single-threaded with a
//! node limit, so a run is reproducible bit for bit.

use std::sync::atomic::AtomicBool;

use serde_json::{json, Value};

use super::tune::{play_games, GamesPlan};
use crate::eval::Weights;
use crate::search::wdl::{Wdl, WdlModel};
use crate::search::Score;
use isolo_rules::{Board, Game, SideResult, Variant};

/// How the self-play games are played and split.
#[derive(Clone, Debug)]
pub struct WdlSettings {
    /// The games.
    pub plan: GamesPlan,
    /// Every `holdout`-th game is held out for the calibration.
    pub holdout: usize,
}

/// A result's (win, draw, loss) indicators, for the fit.
trait Indicators {
    /// The indicator vector (win, draw, loss).
    fn indicators(self) -> [f64; 3];
}

impl Indicators for SideResult {
    fn indicators(self) -> [f64; 3] {
        match self {
            SideResult::Win => [1.0, 0.0, 0.0],
            SideResult::Draw => [0.0, 1.0, 0.0],
            SideResult::Loss => [0.0, 0.0, 1.0],
        }
    }
}

/// One scored position.
#[derive(Clone, Copy, Debug)]
pub struct ScoredPosition {
    /// The index of its game.
    pub game: usize,
    /// The score its move was played at, for the side to move.
    pub score: Score,
    /// The game's result for the side to move.
    pub outcome: SideResult,
}

/// Plays the self-play games and returns their scored positions in game order, with the
/// number of games played; `progress` is called with the games finished. Once `stop` is
/// raised no game starts, and those under way are dropped.
pub fn self_play(
    variant: &Variant,
    openings: &[Board],
    settings: &WdlSettings,
    progress: &(dyn Fn(usize) + Sync),
    stop: Option<&AtomicBool>,
) -> Result<(Vec<ScoredPosition>, usize), rayon::ThreadPoolBuildError> {
    let weights = Weights::for_variant(variant);
    let games = play_games(
        variant,
        openings,
        &weights,
        &settings.plan,
        progress,
        stop,
        &scored,
    )?;
    let played = games.iter().flatten().count();
    Ok((games.into_iter().flatten().flatten().collect(), played))
}

/// A finished game's positions, each with the score its move was played at and the
/// game's result for its mover.
fn scored(index: usize, game: &Game, scores: Vec<Score>) -> Vec<ScoredPosition> {
    let winner = game.outcome().and_then(|o| o.winner);
    let positions = game.positions();
    scores
        .into_iter()
        .enumerate()
        .map(|(ply, score)| ScoredPosition {
            game: index,
            score,
            outcome: SideResult::of(winner, positions[ply].to_move()),
        })
        .collect()
}

/// Bins of the calibration table, by predicted expected result.
pub const CALIBRATION_BINS: usize = 10;

/// One bin of the calibration table.
#[derive(Clone, Debug, PartialEq)]
pub struct CalibrationBin {
    /// The predicted expected results it holds: `[from, to)` (the last bin includes 1).
    pub from: f64,
    /// See `from`.
    pub to: f64,
    /// Positions in the bin.
    pub positions: usize,
    /// Their mean predicted expected result.
    pub predicted: f64,
    /// Their mean observed result.
    pub observed: f64,
    /// Their mean predicted draw chance.
    pub predicted_draws: f64,
    /// Their observed share of draws.
    pub observed_draws: f64,
}

/// What the fit found and how well it predicts held-out games.
#[derive(Clone, Debug)]
pub struct WdlFit {
    /// The fitted model.
    pub model: WdlModel,
    /// Games played.
    pub games: usize,
    /// Positions with an estimated score the fit used.
    pub train_positions: usize,
    /// Positions with an estimated score in the held-out games.
    pub holdout_positions: usize,
    /// Observed (win, draw, loss) shares of the training positions.
    pub train_shares: [f64; 3],
    /// Held-out calibration, by bin of predicted expected result.
    pub bins: Vec<CalibrationBin>,
    /// Brier score of the model on the held-out positions (0 best, 2 worst; none
    /// without held-out positions).
    pub brier: Option<f64>,
    /// Brier score of the constant prediction `train_shares` on the same positions.
    pub brier_constant: Option<f64>,
    /// Positions with a proven score.
    pub proven: usize,
    /// Of those, the ones whose game ended otherwise than the proof said.
    pub proven_contradicted: usize,
}

/// Fits the model to `positions` (every `holdout`-th game held out) and measures it.
pub fn fit(positions: &[ScoredPosition], games: usize, holdout: usize) -> WdlFit {
    let held = |p: &ScoredPosition| holdout > 0 && p.game % holdout == holdout - 1;
    let estimated = |p: &&ScoredPosition| matches!(p.score, Score::Eval(_));
    let train: Vec<(f64, SideResult)> = positions
        .iter()
        .filter(|p| !held(p))
        .filter(estimated)
        .map(|p| (f64::from(p.score.value()), p.outcome))
        .collect();
    let test: Vec<&ScoredPosition> = positions
        .iter()
        .filter(|p| held(p))
        .filter(estimated)
        .collect();
    let (offset, scale) = maximum_likelihood(&train);
    let at_repetition = repetition_share(positions, offset, scale);
    let model = WdlModel {
        offset,
        scale,
        at_repetition,
    };
    let train_shares = shares(train.iter().map(|&(_, o)| o));
    let (proven, proven_contradicted) = proven_agreement(positions);
    let brier_of = |predict: &dyn Fn(&ScoredPosition) -> [f64; 3]| {
        if test.is_empty() {
            return None;
        }
        let total: f64 = test
            .iter()
            .map(|p| {
                let q = predict(p);
                let o = p.outcome.indicators();
                (0..3).map(|i| (q[i] - o[i]).powi(2)).sum::<f64>()
            })
            .sum();
        Some(total / test.len() as f64)
    };
    WdlFit {
        model,
        games,
        train_positions: train.len(),
        holdout_positions: test.len(),
        train_shares,
        bins: calibration(&model, &test),
        brier: brier_of(&|p| probabilities(&model, p.score)),
        brier_constant: brier_of(&|_| train_shares),
        proven,
        proven_contradicted,
    }
}

/// The model's (win, draw, loss) probabilities, unrounded.
fn probabilities(model: &WdlModel, score: Score) -> [f64; 3] {
    let (win, loss) = model.chances(f64::from(score.value()));
    [win, (1.0 - win - loss).max(0.0), loss]
}

fn shares(outcomes: impl Iterator<Item = SideResult>) -> [f64; 3] {
    let mut counts = [0.0; 3];
    let mut n = 0.0;
    for o in outcomes {
        let v = o.indicators();
        (0..3).for_each(|i| counts[i] += v[i]);
        n += 1.0;
    }
    counts.map(|c| if n > 0.0 { c / n } else { 0.0 })
}

/// Log-likelihood of the results under `offset`, `scale`.
fn log_likelihood(samples: &[(f64, SideResult)], offset: f64, scale: f64) -> f64 {
    // A floor on each probability, so one surprising result does not weigh infinitely.
    const FLOOR: f64 = 1e-6;
    let model = WdlModel::new(offset, scale);
    samples
        .iter()
        .map(|&(v, outcome)| {
            let (win, loss) = model.chances(v);
            let p = match outcome {
                SideResult::Win => win,
                SideResult::Loss => loss,
                SideResult::Draw => (1.0 - win - loss).max(0.0),
            };
            p.max(FLOOR).ln()
        })
        .sum()
}

/// The search bounds of the fit, in hundredths of a seed.
const MAX_OFFSET: f64 = 20000.0;
const MIN_SCALE: f64 = 10.0;
const MAX_SCALE: f64 = 20000.0;

/// The `(offset, scale)` of greatest likelihood: a coarse grid, then a pattern search
/// halving its steps down to a tenth of a hundredth of a seed.
fn maximum_likelihood(samples: &[(f64, SideResult)]) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 400.0);
    }
    let score = |o: f64, s: f64| log_likelihood(samples, o, s);
    let mut best = (0.0, 400.0);
    let mut best_ll = score(best.0, best.1);
    for oi in 0..=20 {
        for si in 0..=24 {
            let o = MAX_OFFSET * f64::from(oi) / 20.0 * f64::from(oi) / 20.0;
            let s = MIN_SCALE * (MAX_SCALE / MIN_SCALE).powf(f64::from(si) / 24.0);
            let ll = score(o, s);
            if ll > best_ll {
                best = (o, s);
                best_ll = ll;
            }
        }
    }
    let (mut step_o, mut step_s) = (best.0.max(100.0) / 2.0, best.1 / 2.0);
    while step_o > 0.1 || step_s > 0.1 {
        let mut moved = false;
        for (dx, dy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
            let o = (best.0 + dx * step_o).clamp(0.0, MAX_OFFSET);
            let s = (best.1 + dy * step_s).clamp(MIN_SCALE, MAX_SCALE);
            let ll = score(o, s);
            if ll > best_ll {
                best = (o, s);
                best_ll = ll;
                moved = true;
            }
        }
        if !moved {
            step_o /= 2.0;
            step_s /= 2.0;
        }
    }
    (
        (best.0 * 10.0).round() / 10.0,
        (best.1 * 10.0).round() / 10.0,
    )
}

/// What positions scored as a draw (best play repeats) led to, as chances; the model's
/// level score (`Eval(0)`) when no such position came up, as nothing says more.
fn repetition_share(positions: &[ScoredPosition], offset: f64, scale: f64) -> Wdl {
    let drawn = positions.iter().filter(|p| p.score == Score::Draw);
    if drawn.clone().next().is_none() {
        return WdlModel::new(offset, scale).at_repetition;
    }
    let [win, _, loss] = shares(drawn.map(|p| p.outcome));
    Wdl::from_chances(win, loss)
}

/// Proven positions, and how many of their games ended against the proof.
fn proven_agreement(positions: &[ScoredPosition]) -> (usize, usize) {
    let proven: Vec<_> = positions.iter().filter(|p| p.score.is_proven()).collect();
    let contradicted = proven
        .iter()
        .filter(|p| match p.score {
            Score::Win(_) => p.outcome != SideResult::Win,
            _ => p.outcome != SideResult::Loss,
        })
        .count();
    (proven.len(), contradicted)
}

fn calibration(model: &WdlModel, test: &[&ScoredPosition]) -> Vec<CalibrationBin> {
    let mut bins: Vec<CalibrationBin> = (0..CALIBRATION_BINS)
        .map(|i| CalibrationBin {
            from: i as f64 / CALIBRATION_BINS as f64,
            to: (i + 1) as f64 / CALIBRATION_BINS as f64,
            positions: 0,
            predicted: 0.0,
            observed: 0.0,
            predicted_draws: 0.0,
            observed_draws: 0.0,
        })
        .collect();
    for p in test {
        let [win, draw, _] = probabilities(model, p.score);
        let expected = win + draw / 2.0;
        let bin =
            &mut bins[((expected * CALIBRATION_BINS as f64) as usize).min(CALIBRATION_BINS - 1)];
        bin.positions += 1;
        bin.predicted += expected;
        bin.observed += p.outcome.points();
        bin.predicted_draws += draw;
        bin.observed_draws += f64::from(u8::from(p.outcome == SideResult::Draw));
    }
    for bin in &mut bins {
        let n = bin.positions.max(1) as f64;
        bin.predicted /= n;
        bin.observed /= n;
        bin.predicted_draws /= n;
        bin.observed_draws /= n;
    }
    bins
}

impl WdlFit {
    /// The model as a row of the shipped table: `offset`, `scale` and the repetition
    /// share.
    pub fn model_text(&self) -> String {
        let r = self.model.at_repetition;
        format!(
            "offset {:.1}  scale {:.1}  repetition {}/{}/{}",
            self.model.offset, self.model.scale, r.win, r.draw, r.loss
        )
    }

    /// The calibration as a markdown table, then the Brier scores.
    pub fn calibration_markdown(&self) -> String {
        let mut out = String::from(
            "| predicted | positions | mean predicted | observed | predicted draws | observed draws |\n\
             |---|---:|---:|---:|---:|---:|\n",
        );
        for bin in self.bins.iter().filter(|b| b.positions > 0) {
            out.push_str(&format!(
                "| {:.1}-{:.1} | {} | {:.3} | {:.3} | {:.3} | {:.3} |\n",
                bin.from,
                bin.to,
                bin.positions,
                bin.predicted,
                bin.observed,
                bin.predicted_draws,
                bin.observed_draws
            ));
        }
        match (self.brier, self.brier_constant) {
            (Some(brier), Some(constant)) => out.push_str(&format!(
                "\nBrier score {brier:.4} (constant prediction {constant:.4}) on {} held-out positions\n",
                self.holdout_positions
            )),
            _ => out.push_str("\nno held-out positions: no Brier score (play more games, or a smaller --holdout)\n"),
        }
        out
    }

    /// The fields of `fit-wdl --json`.
    pub fn to_json(&self) -> Value {
        let r = self.model.at_repetition;
        json!({
            "model": {"offset": self.model.offset, "scale": self.model.scale,
                      "repetition": r.to_json()},
            "games": self.games,
            "train_positions": self.train_positions,
            "holdout_positions": self.holdout_positions,
            "train_shares": {"win": self.train_shares[0], "draw": self.train_shares[1],
                             "loss": self.train_shares[2]},
            "bins": self.bins.iter().map(|b| json!({
                "from": b.from, "to": b.to, "positions": b.positions,
                "predicted": b.predicted, "observed": b.observed,
                "predicted_draws": b.predicted_draws, "observed_draws": b.observed_draws,
            })).collect::<Vec<_>>(),
            "brier": self.brier,
            "brier_constant": self.brier_constant,
            "proven": self.proven,
            "proven_contradicted": self.proven_contradicted,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn synthetic(offset: f64, scale: f64, n: usize) -> Vec<ScoredPosition> {
        // Results drawn from a known model with a fixed generator: the fit must find it.
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let truth = WdlModel::new(offset, scale);
        let mut rng = SmallRng::seed_from_u64(7);
        (0..n)
            .map(|i| {
                let v = rng.random_range(-3000..3000);
                let (win, loss) = truth.chances(f64::from(v));
                let u: f64 = rng.random();
                let outcome = if u < win {
                    SideResult::Win
                } else if u < win + loss {
                    SideResult::Loss
                } else {
                    SideResult::Draw
                };
                ScoredPosition {
                    game: i,
                    score: Score::Eval(v),
                    outcome,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_known_model_and_is_calibrated() {
        let positions = synthetic(300.0, 500.0, 40_000);
        let fit = fit(&positions, positions.len(), 5);
        assert!((fit.model.offset - 300.0).abs() < 40.0, "{:?}", fit.model);
        assert!((fit.model.scale - 500.0).abs() < 40.0, "{:?}", fit.model);
        for bin in fit.bins.iter().filter(|b| b.positions > 500) {
            assert!((bin.predicted - bin.observed).abs() < 0.05, "{bin:?}");
        }
        assert!(fit.brier.unwrap() < fit.brier_constant.unwrap());
        assert_eq!(fit.holdout_positions, 8000);
    }

    #[test]
    fn without_draws_the_band_closes() {
        let positions: Vec<_> = synthetic(0.0, 400.0, 20_000);
        assert!(positions.iter().all(|p| p.outcome != SideResult::Draw));
        assert!(fit(&positions, positions.len(), 5).model.offset < 20.0);
    }

    #[test]
    fn proven_scores_are_checked_not_fitted() {
        let p = |score, outcome| ScoredPosition {
            game: 0,
            score,
            outcome,
        };
        let positions = [
            p(Score::Win(3), SideResult::Win),
            p(Score::Loss(2), SideResult::Win),
            p(Score::Draw, SideResult::Draw),
        ];
        let fit = fit(&positions, 1, 0);
        assert_eq!((fit.proven, fit.proven_contradicted), (2, 1));
        assert_eq!(fit.train_positions, 0);
        assert_eq!(fit.model.at_repetition.draw, 1000);
    }

    #[test]
    fn self_play_is_reproducible() {
        let variant = Variant::load("isolo-women").unwrap();
        let settings = WdlSettings {
            plan: GamesPlan {
                games: 4,
                random_plies: 4,
                nodes: 300,
                max_plies: 200,
                seed: 3,
                threads: 2,
            },
            holdout: 2,
        };
        let play = || self_play(&variant, &[variant.start()], &settings, &|_| {}, None).unwrap();
        let (a, games) = play();
        let (b, _) = play();
        assert_eq!(games, 4);
        assert!(!a.is_empty());
        let key = |v: &[ScoredPosition]| {
            v.iter()
                .map(|p| (p.game, p.score, p.outcome))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&a), key(&b));
    }
}
