//! Texel tuning: evaluation weights fitted to the outcomes of self-play games.
//!
//! 1. Self-play: from each opening, a few random plies for variety, then alpha-beta with
//!    a node limit plays both sides to the end (or the ply cap, a draw).
//! 2. Samples: every position after the random plies that is quiet (the captures in
//!    reach, searched as the alpha-beta quiescence does, do not change its static
//!    evaluation), with its features and the game's result for the side to move
//!    (1 win, 1/2 draw, 0 loss).
//! 3. The sigmoid's scale `K` is fitted first, to the starting weights, so that
//!    `sigmoid(K * eval)` predicts results best; the weights are then fitted by logistic
//!    regression (mean squared error of `sigmoid(K * w . f)` against the results, full
//!    batch gradient descent with Adam), which keeps them in hundredths of a seed.
//!
//! Every random choice comes from the seed and every search is single-threaded with a
//! node limit, so a run is reproducible bit for bit (sums are taken in a fixed order).

use isolo_rules::Listing;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rand::rngs::SmallRng;
use rand::SeedableRng;
use rayon::prelude::*;

use crate::eval::{Evaluator, Features, Weights, EVAL_LIMIT, FEATURES, MAX_WEIGHT};
use crate::matches::schedule::game_seed;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::{Limits, Score, SearchRequest, Searcher};
use isolo_rules::{Board, Game, MoveGen, Side, Variant};

mod net;
mod run;
pub use net::{NetReport, NetTraining};
pub use run::{
    tune, NetSummary, TuneError, TuneObserver, TuneReport, TuneSettings, TuneStage, Tuned,
};

/// How the self-play games are played and which positions become samples.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// The games.
    pub plan: GamesPlan,
    /// Capture plies a position is resolved over to be called quiet (0: every position).
    pub quiet_plies: u32,
    /// Whether drawn games give samples (labelled 1/2); without them the fit learns
    /// only what separates wins from losses, which suits games drawn mostly at a ply
    /// cap.
    pub keep_draws: bool,
}

/// Table size of each self-play search, in MB.
const SELF_PLAY_HASH_MB: usize = 8;

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The index of its game (validation takes whole games).
    pub game: usize,
    /// Its features, from the side to move.
    pub features: Features,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
}

/// What the self-play produced.
#[derive(Clone, Debug, Default)]
pub struct SelfPlayReport {
    /// Games played.
    pub games: usize,
    /// Games won by a side (not drawn).
    pub decided: usize,
    /// Plies played by the engines, all games together.
    pub plies: usize,
    /// Positions the engines played from.
    pub positions: usize,
    /// Quiet positions kept as samples (of decided games only, without draws).
    pub samples: usize,
    /// Whether the stop flag ended the self-play before every game was played (the
    /// games it cut short give nothing).
    pub interrupted: bool,
}

/// Plays the self-play games with `weights` and returns the quiet samples in game order;
/// `progress` is called with the number of games finished. Once `stop` is raised no game
/// starts, and those under way are dropped.
pub fn self_play(
    variant: &Variant,
    openings: &[Board],
    weights: &Weights,
    settings: &SelfPlay,
    progress: &(dyn Fn(usize) + Sync),
    stop: Option<&AtomicBool>,
) -> Result<(Vec<Sample>, SelfPlayReport), rayon::ThreadPoolBuildError> {
    let eval = Evaluator::new(variant, weights.clone());
    let label =
        |index: usize, game: &Game, _: Vec<Score>| labelled(variant, &eval, settings, index, game);
    let games = play_games(
        variant,
        openings,
        weights,
        &settings.plan,
        progress,
        stop,
        &label,
    )?;
    let interrupted = games.iter().any(Option::is_none);
    let games: Vec<GamePlayed> = games.into_iter().flatten().collect();
    let mut report = SelfPlayReport {
        games: games.len(),
        interrupted,
        ..SelfPlayReport::default()
    };
    let mut samples = Vec::new();
    for game in games {
        report.decided += game.decided as usize;
        report.plies += game.plies;
        report.positions += game.positions;
        samples.extend(game.samples);
    }
    report.samples = samples.len();
    Ok((samples, report))
}

/// How a batch of self-play games is played (tuning's and the win/draw/loss fit's):
/// alpha-beta against itself at a node budget, from openings and random plies.
#[derive(Clone, Debug)]
pub struct GamesPlan {
    /// Games to play.
    pub games: usize,
    /// Random plies after the opening, drawn from `game_seed(seed, game)`.
    pub random_plies: u32,
    /// Alpha-beta nodes a move, both sides.
    pub nodes: u64,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// Master seed of the random plies.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// Plays `plan`'s games on a pool of its threads, game `i` from opening `i` (cycled)
/// after its random plies, to the end (`play_out`), and keeps what `keep` makes of each
/// (its index, the game, the scores its moves were played at), in game order; `None`
/// for a game the stop flag cut short or kept from starting. `progress` is called with
/// the games finished.
pub(crate) fn play_games<T: Send>(
    variant: &Variant,
    openings: &[Board],
    weights: &Weights,
    plan: &GamesPlan,
    progress: &(dyn Fn(usize) + Sync),
    stop: Option<&AtomicBool>,
    keep: &(dyn Fn(usize, &Game, Vec<Score>) -> T + Sync),
) -> Result<Vec<Option<T>>, rayon::ThreadPoolBuildError> {
    assert!(!openings.is_empty(), "self-play needs an opening");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads.max(1))
        .build()?;
    let finished = AtomicUsize::new(0);
    Ok(pool.install(|| {
        (0..plan.games)
            .into_par_iter()
            .map(|i| {
                if crate::raised(stop) {
                    return None; // (before its table is allocated: games not begun cost nothing)
                }
                let mut rng = SmallRng::seed_from_u64(game_seed(plan.seed, i as u64));
                let opening = openings[i % openings.len()];
                let (start, _) = crate::matches::openings::random_plies(
                    variant,
                    opening,
                    plan.random_plies,
                    &mut rng,
                );
                let game = Game::new(variant, start).with_max_plies(plan.max_plies);
                let (game, scores) = play_out(game, weights, plan.nodes, stop)?;
                let kept = keep(i, &game, scores);
                progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
                Some(kept)
            })
            .collect()
    }))
}

/// One self-play game's samples and facts.
struct GamePlayed {
    samples: Vec<Sample>,
    decided: bool,
    plies: usize,
    positions: usize,
}

/// A finished game's quiet positions as samples, with its facts.
fn labelled(
    variant: &Variant,
    eval: &Evaluator,
    settings: &SelfPlay,
    index: usize,
    game: &Game,
) -> GamePlayed {
    let winner = game.outcome().and_then(|o| o.winner);
    let mut gen = MoveGen::new();
    let played = &game.positions()[..game.plies()];
    let labelled = if winner.is_some() || settings.keep_draws {
        played
    } else {
        &[]
    };
    let samples = labelled
        .iter()
        .filter(|board| is_quiet(variant, eval, &mut gen, board, settings.quiet_plies))
        .map(|board| Sample {
            game: index,
            features: eval.features(board),
            result: result_for(winner, board.to_move()),
        })
        .collect();
    GamePlayed {
        samples,
        decided: winner.is_some(),
        plies: game.plies(),
        positions: played.len(),
    }
}

/// Plays `game` to its end, alpha-beta at `nodes` a move on both sides (one table), and
/// returns it with the score each move was played at (the mover's view). `None` when
/// `stop` is raised before the end: a search cut short does not play the engine's move.
pub(crate) fn play_out<'v>(
    mut game: Game<'v>,
    weights: &Weights,
    nodes: u64,
    stop: Option<&AtomicBool>,
) -> Option<(Game<'v>, Vec<Score>)> {
    let variant = game.variant();
    let mut searcher = AlphaBeta::new(AlphaBetaConfig {
        hash_mb: SELF_PLAY_HASH_MB,
        weights: Some(weights.clone()),
        ..AlphaBetaConfig::default()
    })
    .expect("a small table allocates");
    let mut scores = Vec::new();
    while game.outcome().is_none() {
        if crate::raised(stop) {
            return None;
        }
        let request = SearchRequest {
            variant,
            board: *game.board(),
            history: game.history(),
            quiet_plies: game.quiet_plies(),
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            multipv: 1,
            pv_lines: usize::MAX,
            stop,
        };
        let result = searcher.search(&request, &mut |_| {});
        if crate::raised(stop) {
            return None;
        }
        let Some(best) = result.best() else { break };
        // Under the retreat the answers in the move are the other side's to give: the
        // same engine, searching for that side.
        let mv = if variant.has_retreat() {
            let board = *game.board();
            let mut complete = |half: &isolo_rules::Move, _answering: bool| {
                let past = crate::search::Past {
                    hashes: &request.history,
                    quiet_plies: request.quiet_plies,
                };
                let limits = request.limits;
                crate::search::answer::complete_move(
                    &mut searcher,
                    variant,
                    &board,
                    past,
                    half,
                    limits,
                    stop,
                )
            };
            let settled = crate::search::answer::settle_answers(
                variant,
                &board,
                best.mv.clone(),
                &mut complete,
            );
            // (Every prefix of a legal move is half made: no completion fails.)
            settled.unwrap_or_else(|_| best.mv.clone())
        } else {
            best.mv.clone()
        };
        if game.play_move(&mv).is_err() {
            break;
        }
        scores.push(best.score);
    }
    Some((game, scores))
}

fn result_for(winner: Option<Side>, side: Side) -> f32 {
    isolo_rules::SideResult::of(winner, side).points() as f32
}

/// Whether resolving the captures in reach over `plies` plies (stand on the evaluation or
/// take a capture, as the alpha-beta quiescence search does) leaves the static
/// evaluation as it is.
pub(crate) fn is_quiet(
    variant: &Variant,
    eval: &Evaluator,
    gen: &mut MoveGen,
    board: &Board,
    plies: u32,
) -> bool {
    let stand = eval.evaluate(board);
    plies == 0 || capture_value(variant, eval, gen, board, -EVAL_LIMIT, EVAL_LIMIT, plies) == stand
}

/// The evaluation once captures are played out, up to `plies` deep.
fn capture_value(
    variant: &Variant,
    eval: &Evaluator,
    gen: &mut MoveGen,
    board: &Board,
    mut alpha: i32,
    beta: i32,
    plies: u32,
) -> i32 {
    let stand = eval.evaluate(board);
    if plies == 0 || stand >= beta {
        return stand;
    }
    let mut captures = Vec::new();
    let mut any_move = false;
    variant.visit_moves(board, Variant::ALL_PITS, Listing::Results, gen, |m| {
        any_move = true;
        if m.captured > 0 {
            captures.push(m.child);
        }
    });
    if !any_move {
        return -EVAL_LIMIT;
    }
    alpha = alpha.max(stand);
    let mut best = stand;
    for child in captures {
        let value = -capture_value(variant, eval, gen, &child, -beta, -alpha, plies - 1);
        if value > best {
            best = value;
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// Samples summed in one piece of a parallel sum; fixed, so sums come out the same
/// whatever the threads.
const SUM_CHUNK: usize = 4096;

/// A fitting problem: samples as floats, split into training and validation games.
pub struct Fit {
    train: Vec<([f32; FEATURES], f32)>,
    validation: Vec<([f32; FEATURES], f32)>,
}

/// Every `VALIDATION_EVERY`-th game is held out to validate the fit.
pub const VALIDATION_EVERY: usize = 10;

/// How the fit went.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The sigmoid's scale, per hundredth of a seed.
    pub k: f64,
    /// Mean squared error on the training samples with the starting weights.
    pub train_before: f64,
    /// The same with the tuned (rounded) weights.
    pub train_after: f64,
    /// Mean squared error on the validation samples with the starting weights.
    pub validation_before: f64,
    /// The same with the tuned weights.
    pub validation_after: f64,
    /// Training samples.
    pub train_samples: usize,
    /// Validation samples.
    pub validation_samples: usize,
    /// Gradient steps taken (fewer than asked when the stop flag ended the fit).
    pub epochs: usize,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Fit {
    /// The samples, every `VALIDATION_EVERY`-th game held out.
    pub fn new(samples: &[Sample]) -> Fit {
        let mut fit = Fit {
            train: Vec::new(),
            validation: Vec::new(),
        };
        for s in samples {
            let features = s.features.map(|f| f as f32);
            if s.game % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
                fit.validation.push((features, s.result));
            } else {
                fit.train.push((features, s.result));
            }
        }
        fit
    }

    /// Mean squared error of `sigmoid(k * w . f)` over `set`.
    fn error(set: &[([f32; FEATURES], f32)], w: &[f64; FEATURES], k: f64) -> f64 {
        if set.is_empty() {
            return 0.0;
        }
        let parts: Vec<f64> = set
            .par_chunks(SUM_CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|(f, r)| (sigmoid(k * dot(f, w)) - *r as f64).powi(2))
                    .sum::<f64>()
            })
            .collect();
        parts.iter().sum::<f64>() / set.len() as f64
    }

    /// The scale `k` that best fits `weights` to the training results (golden-section
    /// search over log k).
    pub(crate) fn fit_scale(&self, weights: &Weights) -> f64 {
        let w = as_floats(weights);
        let error = |log_k: f64| Fit::error(&self.train, &w, log_k.exp());
        let (mut lo, mut hi) = ((1e-6f64).ln(), (1.0f64).ln());
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let a = hi - ratio * (hi - lo);
            let b = lo + ratio * (hi - lo);
            if error(a) < error(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        ((lo + hi) / 2.0).exp()
    }

    /// Weights fitted from `start` at scale `k` over `epochs` full-batch Adam steps,
    /// rounded to whole hundredths of a seed; `progress(epoch, training error)` now and
    /// then. Raising `stop` ends the fit with the weights of the last step taken.
    pub fn tune(
        &self,
        start: &Weights,
        k: f64,
        epochs: usize,
        progress: &mut dyn FnMut(usize, f64),
        stop: Option<&AtomicBool>,
    ) -> (Weights, FitReport) {
        let mut w = as_floats(start);
        let mut adam = Adam::new(FEATURES, LEARNING_RATE);
        let n = self.train.len().max(1) as f64;
        let mut taken = 0;
        for epoch in 1..=epochs {
            if crate::raised(stop) {
                break;
            }
            taken = epoch;
            let gradient = self.gradient(&w, k);
            adam.step(w.iter_mut(), gradient.iter().map(|g| g / n));
            for x in &mut w {
                *x = x.clamp(-(MAX_WEIGHT as f64), MAX_WEIGHT as f64);
            }
            if epoch % PROGRESS_EVERY == 0 || epoch == epochs {
                progress(epoch, Fit::error(&self.train, &w, k));
            }
        }
        let rounded: Features = std::array::from_fn(|i| w[i].round() as i32);
        let tuned = Weights::from_vector(&rounded);
        let (before, after) = (as_floats(start), as_floats(&tuned));
        let report = FitReport {
            k,
            train_before: Fit::error(&self.train, &before, k),
            train_after: Fit::error(&self.train, &after, k),
            validation_before: Fit::error(&self.validation, &before, k),
            validation_after: Fit::error(&self.validation, &after, k),
            train_samples: self.train.len(),
            validation_samples: self.validation.len(),
            epochs: taken,
        };
        (tuned, report)
    }

    /// The gradient of the summed squared error with respect to each weight.
    fn gradient(&self, w: &[f64; FEATURES], k: f64) -> [f64; FEATURES] {
        let parts: Vec<[f64; FEATURES]> = self
            .train
            .par_chunks(SUM_CHUNK)
            .map(|chunk| {
                let mut g = [0f64; FEATURES];
                for (f, r) in chunk {
                    let s = sigmoid(k * dot(f, w));
                    let common = 2.0 * (s - *r as f64) * s * (1.0 - s) * k;
                    for (gi, fi) in g.iter_mut().zip(f) {
                        *gi += common * *fi as f64;
                    }
                }
                g
            })
            .collect();
        let mut total = [0f64; FEATURES];
        for part in parts {
            for (t, p) in total.iter_mut().zip(part) {
                *t += p;
            }
        }
        total
    }
}

/// Adam's step size for the linear weights, in hundredths of a seed per epoch.
const LEARNING_RATE: f64 = 1.0;
const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;

/// Adam's moments for a list of numbers (the linear weights, or a net's numbers).
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
    learning_rate: f64,
}

impl Adam {
    fn new(len: usize, learning_rate: f64) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
            learning_rate,
        }
    }

    /// One step of `values` against `gradient` (in the same order, as long as `new`'s
    /// `len`).
    fn step<'a>(
        &mut self,
        values: impl Iterator<Item = &'a mut f64>,
        gradient: impl Iterator<Item = f64>,
    ) {
        self.steps += 1;
        let (c1, c2) = (
            1.0 - ADAM_BETA1.powi(self.steps),
            1.0 - ADAM_BETA2.powi(self.steps),
        );
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for ((x, g), (m, v)) in values.zip(gradient).zip(moments) {
            *m = ADAM_BETA1 * *m + (1.0 - ADAM_BETA1) * g;
            *v = ADAM_BETA2 * *v + (1.0 - ADAM_BETA2) * g * g;
            *x -= self.learning_rate * (*m / c1) / ((*v / c2).sqrt() + 1e-12);
        }
    }
}
/// Epochs between progress reports.
const PROGRESS_EVERY: usize = 50;

fn as_floats(weights: &Weights) -> [f64; FEATURES] {
    weights.vector().map(|w| w as f64)
}

fn dot(f: &[f32; FEATURES], w: &[f64; FEATURES]) -> f64 {
    f.iter().zip(w).map(|(&a, &b)| a as f64 * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    fn tiny(games: usize) -> SelfPlay {
        SelfPlay {
            plan: GamesPlan {
                games,
                random_plies: 4,
                nodes: 200,
                max_plies: 120,
                seed: 7,
                threads: 2,
            },
            quiet_plies: 2,
            keep_draws: true,
        }
    }

    #[test]
    fn self_play_is_reproducible_and_labels_results_by_side() {
        let v = Variant::load("isolo-women-capture-ends").unwrap();
        let weights = Weights::for_variant(&v);
        let run = || self_play(&v, &[v.start()], &weights, &tiny(12), &|_| {}, None).unwrap();
        let (a, report) = run();
        let (b, _) = run();
        assert_eq!(a.len(), b.len());
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.features == y.features && x.result == y.result));
        assert_eq!(report.games, 12);
        assert!(report.samples > 0 && report.samples <= report.positions);
        // Within a decided game, consecutive samples of opposite sides have opposite
        // results.
        for pair in a.windows(2) {
            if pair[0].game == pair[1].game && pair[0].result != 0.5 {
                assert!(pair[0].result == pair[1].result || pair[0].result + pair[1].result == 1.0);
            }
        }
    }

    /// Samples whose only varying feature is `seeds` (-10..=10), each a game won with
    /// chance `sigmoid(logit(seeds))`.
    fn one_feature_samples(seed: u64, logit: impl Fn(i32) -> f64) -> Vec<Sample> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..20_000)
            .map(|i| {
                let mut features: Features = [0; FEATURES];
                features[0] = rng.random_range(-10..=10);
                features[11] = 1;
                let p = sigmoid(logit(features[0]));
                let result = if rng.random_bool(p) { 1.0 } else { 0.0 };
                Sample {
                    game: i,
                    features,
                    result,
                }
            })
            .collect()
    }

    #[test]
    fn fitting_recovers_a_weight_that_predicts_results() {
        // Results decided by one feature (seeds): the fit must make its weight count.
        let samples = one_feature_samples(3, |seeds| seeds as f64 * 0.5);
        let fit = Fit::new(&samples);
        let start = Weights {
            seeds: 10,
            ..Weights::zero()
        };
        let k = fit.fit_scale(&start);
        assert!((k * 10.0 - 0.5).abs() < 0.1, "k = {k}");
        let (tuned, report) = fit.tune(&Weights::zero(), k, 300, &mut |_, _| {}, None);
        assert!((tuned.seeds - 10).abs() <= 2, "{tuned:?}");
        assert!(report.validation_after < 0.25);
    }

    #[test]
    fn a_net_learns_what_the_linear_weights_cannot() {
        // Results decided by the size of one feature, not its sign: no weighted sum sees
        // that, a rectified unit on each side does.
        let samples = one_feature_samples(5, |seeds| seeds.abs() as f64 - 5.0);
        let fit = Fit::new(&samples);
        let linear = Weights::zero();
        let settings = NetTraining {
            hidden: 4,
            epochs: 8,
            seed: 2,
        };
        let train = || fit.train_net(&linear, 0.01, &settings, &mut |_, _| {}, None);
        let (net, report) = train();
        let net = net.expect("the net beats a constant");
        assert!(net.validate().is_ok());
        assert!(
            report.validation_after < report.validation_before - 0.05,
            "{report:?}"
        );
        assert!(report.best_epoch >= 1);
        // Bit for bit the same from the same seed.
        assert_eq!(train().0, Some(net.clone()));
        // The evaluator adds exactly this net.
        let v = Variant::load("isolo-women").unwrap();
        let eval = Evaluator::new(
            &v,
            Weights {
                net: Some(net.clone()),
                ..Weights::zero()
            },
        );
        let board = v.start();
        let direct = crate::eval::net::CompiledNet::new(&net).evaluate(&eval.features(&board));
        let expected = match direct.round() as i32 {
            0 => 1,
            score => score,
        };
        assert_eq!(eval.evaluate(&board), expected);
    }

    #[test]
    fn quiet_positions_have_no_capture_that_changes_the_evaluation() {
        let v = Variant::load("isolo-women").unwrap();
        let eval = Evaluator::new(&v, Weights::default());
        let mut gen = MoveGen::new();
        // At the start every side has captures of 4 in reach, and taking one gains.
        assert!(!is_quiet(&v, &eval, &mut gen, &v.start(), 2));
        assert!(is_quiet(&v, &eval, &mut gen, &v.start(), 0));
    }
}
