//! A whole tuning run, as every front end starts it (`isolo-ai tune`, Python's `tune`):
//! self-play with the starting weights, the sigmoid's scale, the weights' fit and, when
//! asked, a net over them; with one report that text, JSON and the weights file's
//! comments are made from.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::Serialize;

use super::{self_play, Fit, GamesPlan, NetReport, NetTraining, SelfPlay, VALIDATION_EVERY};
use crate::eval::Weights;
use crate::ranges;
use isolo_rules::{Board, Variant};

/// What a tuning run plays and fits; each setting's range and default is in
/// [`crate::ranges`] (`TUNE_GAMES`, `TUNE_EPOCHS`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSettings {
    /// Self-play games.
    pub games: usize,
    /// Random plies after the opening, for variety.
    pub random_plies: u32,
    /// Alpha-beta nodes a self-play move.
    pub nodes: u64,
    /// Plies after which a self-play game is drawn.
    pub max_plies: usize,
    /// Capture plies a position is resolved over to count as quiet (0: every position).
    pub quiet_plies: u32,
    /// Learn from decided games only (drawn games give no samples).
    pub decided_only: bool,
    /// Gradient steps of the fit (0 keeps the starting weights, to train only a net).
    pub epochs: usize,
    /// Hidden units of a net trained over the fitted weights (0: none).
    pub net: usize,
    /// Passes over the samples when training the net.
    pub net_epochs: usize,
    /// Master seed: every random choice derives from it.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

impl Default for TuneSettings {
    /// Every range's default, on one thread.
    fn default() -> TuneSettings {
        let default = |range: &ranges::Range<usize>| range.default.expect("a default");
        TuneSettings {
            games: default(&ranges::TUNE_GAMES),
            random_plies: ranges::TUNE_RANDOM_PLIES.default.expect("a default"),
            nodes: ranges::TUNE_NODES.default.expect("a default"),
            max_plies: default(&ranges::TUNE_GAME_PLIES),
            quiet_plies: ranges::TUNE_QUIET_PLIES.default.expect("a default"),
            decided_only: false,
            epochs: default(&ranges::TUNE_EPOCHS),
            net: default(&ranges::NET_HIDDEN),
            net_epochs: default(&ranges::NET_EPOCHS),
            seed: 1,
            threads: 1,
        }
    }
}

impl TuneSettings {
    fn self_play(&self) -> SelfPlay {
        SelfPlay {
            plan: GamesPlan {
                games: self.games,
                random_plies: self.random_plies,
                nodes: self.nodes,
                max_plies: self.max_plies,
                seed: self.seed,
                threads: self.threads,
            },
            quiet_plies: self.quiet_plies,
            keep_draws: !self.decided_only,
        }
    }
}

/// A stage of a tuning run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TuneStage {
    /// The self-play games.
    SelfPlay,
    /// The weights' fit, its steps the epochs; `after_stop`: the self-play was stopped,
    /// and the fit (seconds) runs on the games played, no longer stopped by the flag.
    Fit {
        /// Whether the self-play was stopped.
        after_stop: bool,
    },
    /// The net's training, its steps the epochs.
    Net,
}

/// Told how a tuning run goes (progress bars, Python's callbacks); every method does
/// nothing by default. Called from the self-play's threads, hence `Sync`.
pub trait TuneObserver: Sync {
    /// `stage` begins, with `steps` steps (games or epochs).
    fn stage(&self, _stage: TuneStage, _steps: usize) {}
    /// `done` steps of the stage are finished; `error`: the fit's training error, or
    /// the net's validation error, reached so far (none for games).
    fn step(&self, _done: usize, _error: Option<f64>) {}
}

/// An observer that is told nothing.
impl TuneObserver for () {}

/// Why a tuning run gave no weights.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The self-play's threads could not be started.
    #[error("threads: cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why not.
        source: rayon::ThreadPoolBuildError,
    },
    /// No game gave a quiet position.
    #[error("no quiet positions to fit: play more games or lower the quiet plies")]
    NoSamples,
    /// Stopped before any game gave a quiet position.
    #[error("stopped after {games} games, without a quiet position to fit")]
    Stopped {
        /// Games played by then.
        games: usize,
    },
}

/// A tuning run's weights and report.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The tuned weights (with the net, if one was kept).
    pub weights: Weights,
    /// How the run went.
    pub report: TuneReport,
    /// What it was asked to do.
    pub settings: TuneSettings,
}

/// How a tuning run went, as every front end reports it (`tune --json`, Python's
/// `tune`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneReport {
    /// The variant's name.
    pub variant: String,
    /// Self-play games played.
    pub games: usize,
    /// Of them, decided (not drawn).
    pub decided: usize,
    /// Plies played, all games together.
    pub plies: usize,
    /// Positions the engines played from.
    pub positions: usize,
    /// Quiet positions kept as samples.
    pub samples: usize,
    /// Samples of the training games.
    pub train_samples: usize,
    /// Samples of the held-out games (every `VALIDATION_EVERY`-th).
    pub validation_samples: usize,
    /// The sigmoid's scale, per hundredth of a seed.
    pub k: f64,
    /// Mean squared error on the training samples, starting weights.
    pub train_error_before: f64,
    /// The same, tuned weights.
    pub train_error_after: f64,
    /// Mean squared error on the held-out samples, starting weights.
    pub validation_error_before: f64,
    /// The same, tuned weights.
    pub validation_error_after: f64,
    /// Time of the self-play, in milliseconds.
    pub self_play_ms: u64,
    /// Time of the fits, in milliseconds.
    pub fit_ms: u64,
    /// The net's training, if one was asked for.
    pub net: Option<NetSummary>,
    /// Gradient steps taken.
    pub epochs: usize,
    /// Whether the stop flag cut the run short (the weights are fitted on what was done).
    pub interrupted: bool,
}

/// How the net's training went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetSummary {
    /// Hidden units.
    pub hidden: usize,
    /// Whether the net was kept (it predicted the held-out games better).
    pub kept: bool,
    /// The epoch whose net was kept (0: none).
    pub best_epoch: usize,
    /// Epochs trained.
    #[serde(skip)]
    pub epochs: usize,
    /// Mean squared error on the training samples, linear weights alone.
    pub train_error_before: f64,
    /// The same with the net.
    pub train_error_after: f64,
    /// Mean squared error on the held-out samples, linear weights alone.
    pub validation_error_before: f64,
    /// The same with the net.
    pub validation_error_after: f64,
}

impl NetSummary {
    fn new(hidden: usize, r: &NetReport) -> NetSummary {
        NetSummary {
            hidden,
            kept: r.best_epoch > 0,
            best_epoch: r.best_epoch,
            epochs: r.epochs,
            train_error_before: r.train_before,
            train_error_after: r.train_after,
            validation_error_before: r.validation_before,
            validation_error_after: r.validation_after,
        }
    }
}

/// Tunes `start` for `variant` by self-play from `openings` (cycled through): the games,
/// the sigmoid's scale, `settings.epochs` steps of the fit, then a net if asked. A
/// raised `stop` ends the self-play (the fit then runs on the games played, unstopped),
/// or the fit or the net with their last step.
pub fn tune(
    variant: &Variant,
    openings: &[Board],
    start: &Weights,
    settings: &TuneSettings,
    observer: &dyn TuneObserver,
    stop: Option<&AtomicBool>,
) -> Result<Tuned, TuneError> {
    let started = Instant::now();
    observer.stage(TuneStage::SelfPlay, settings.games);
    let (samples, played) = self_play(
        variant,
        openings,
        start,
        &settings.self_play(),
        &|n| observer.step(n, None),
        stop,
    )
    .map_err(|source| TuneError::Threads {
        threads: settings.threads,
        source,
    })?;
    if played.samples == 0 {
        return Err(if played.interrupted {
            TuneError::Stopped {
                games: played.games,
            }
        } else {
            TuneError::NoSamples
        });
    }
    let fit_stop = if played.interrupted { None } else { stop };
    let play_time = started.elapsed();
    let fit = Fit::new(&samples);
    let k = fit.fit_scale(start);
    let after_stop = played.interrupted;
    observer.stage(TuneStage::Fit { after_stop }, settings.epochs);
    let (mut weights, report) = fit.tune(
        start,
        k,
        settings.epochs,
        &mut |epoch, error| observer.step(epoch, Some(error)),
        fit_stop,
    );
    let net = (settings.net > 0).then(|| {
        let training = NetTraining {
            hidden: settings.net,
            epochs: settings.net_epochs,
            seed: settings.seed,
        };
        observer.stage(TuneStage::Net, settings.net_epochs);
        let (net, report) = fit.train_net(
            &weights,
            k,
            &training,
            &mut |epoch, error| observer.step(epoch, Some(error)),
            fit_stop,
        );
        weights.net = net;
        NetSummary::new(settings.net, &report)
    });
    let interrupted = played.interrupted
        || report.epochs < settings.epochs
        || net.as_ref().is_some_and(|n| n.epochs < settings.net_epochs);
    let report = TuneReport {
        variant: variant.name().to_string(),
        games: played.games,
        decided: played.decided,
        plies: played.plies,
        positions: played.positions,
        samples: played.samples,
        train_samples: report.train_samples,
        validation_samples: report.validation_samples,
        k: report.k,
        train_error_before: report.train_before,
        train_error_after: report.train_after,
        validation_error_before: report.validation_before,
        validation_error_after: report.validation_after,
        self_play_ms: play_time.as_millis() as u64,
        fit_ms: (started.elapsed() - play_time).as_millis() as u64,
        net,
        epochs: report.epochs,
        interrupted,
    };
    Ok(Tuned {
        weights,
        report,
        settings: settings.clone(),
    })
}

impl Tuned {
    /// The weights file's comment lines: what was tuned, `command` (how the run was
    /// asked for, in the front end's words), the games and samples, the fit and the net,
    /// and what a stop left undone.
    pub fn comments(&self, command: &str) -> Vec<String> {
        let (r, s) = (&self.report, &self.settings);
        let mut lines = vec![
            format!("Tuned weights for {} (Texel method).", r.variant),
            command.to_string(),
            format!(
                "{} games ({} decided, {:.0} plies a game), {} positions played, {} quiet ones kept{}",
                r.games,
                r.decided,
                r.plies as f64 / r.games.max(1) as f64,
                r.positions,
                r.samples,
                if s.decided_only {
                    " from the decided games"
                } else {
                    ""
                }
            ),
            format!(
                "sigmoid scale K = {:.6} per hundredth of a seed; mean squared error, training {:.5} -> {:.5}, validation (every {VALIDATION_EVERY}th game) {:.5} -> {:.5}",
                r.k,
                r.train_error_before,
                r.train_error_after,
                r.validation_error_before,
                r.validation_error_after
            ),
        ];
        if let Some(net) = &r.net {
            lines.push(net.line());
        }
        if r.interrupted {
            lines.push(format!(
                "interrupted: {} of {} games, {} of {} epochs{}",
                r.games,
                s.games,
                r.epochs,
                s.epochs,
                r.net
                    .as_ref()
                    .map(|n| format!(", {} of {} net epochs", n.epochs, s.net_epochs))
                    .unwrap_or_default()
            ));
        }
        lines
    }

    /// The weights file: the comments (see [`Tuned::comments`]), then the weights.
    pub fn weights_file(&self, command: &str) -> String {
        self.weights.to_toml(&self.comments(command))
    }
}

impl NetSummary {
    /// The weights file's line on the net's training.
    fn line(&self) -> String {
        if !self.kept {
            return format!(
                "net of {} hidden units: no epoch beat the linear weights above on the validation games; none kept",
                self.hidden
            );
        }
        format!(
            "net of {} hidden units over the linear weights above, kept from epoch {}; mean squared error, training {:.5} -> {:.5}, validation {:.5} -> {:.5}",
            self.hidden,
            self.best_epoch,
            self.train_error_before,
            self.train_error_after,
            self.validation_error_before,
            self.validation_error_after
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::atomic::Ordering::Relaxed;

    struct Counting {
        stages: std::sync::Mutex<Vec<(TuneStage, usize)>>,
        steps: AtomicUsize,
    }

    impl TuneObserver for Counting {
        fn stage(&self, stage: TuneStage, steps: usize) {
            self.stages.lock().unwrap().push((stage, steps));
        }
        fn step(&self, _: usize, _: Option<f64>) {
            self.steps.fetch_add(1, Relaxed);
        }
    }

    fn small() -> TuneSettings {
        TuneSettings {
            games: 12,
            nodes: 200,
            max_plies: 120,
            epochs: 20,
            ..TuneSettings::default()
        }
    }

    #[test]
    fn a_run_reports_its_stages_and_reproduces_from_its_seed() {
        let boys = Variant::load("isolo-boys").unwrap();
        let start = Weights::for_variant(&boys);
        let observer = Counting {
            stages: Default::default(),
            steps: AtomicUsize::new(0),
        };
        let settings = TuneSettings {
            net: 2,
            net_epochs: 2,
            ..small()
        };
        let tuned = tune(&boys, &[boys.start()], &start, &settings, &observer, None).unwrap();
        let stages = observer.stages.into_inner().unwrap();
        assert_eq!(
            stages,
            vec![
                (TuneStage::SelfPlay, 12),
                (TuneStage::Fit { after_stop: false }, 20),
                (TuneStage::Net, 2)
            ]
        );
        assert!(observer.steps.load(Relaxed) >= 12);
        let r = &tuned.report;
        assert_eq!((r.games, r.epochs, r.interrupted), (12, 20, false));
        assert_eq!(r.samples, r.train_samples + r.validation_samples);
        assert_eq!(r.net.as_ref().map(|n| n.hidden), Some(2));
        let again = tune(&boys, &[boys.start()], &start, &settings, &(), None).unwrap();
        assert_eq!(again.weights, tuned.weights);
        assert_eq!(again.report.k, tuned.report.k);
        let file = tuned.weights_file("the command");
        assert!(file.starts_with(
            "# Tuned weights for isolo-boys (Texel method).\n# the command\n# 12 games"
        ));
        assert_eq!(toml::from_str::<Weights>(&file).unwrap(), tuned.weights);
    }

    #[test]
    fn a_stop_before_any_game_gives_no_weights() {
        let boys = Variant::load("isolo-boys").unwrap();
        let stop = AtomicBool::new(true);
        let start = Weights::for_variant(&boys);
        let refused = tune(&boys, &[boys.start()], &start, &small(), &(), Some(&stop));
        assert!(matches!(refused, Err(TuneError::Stopped { games: 0 })));
    }
}
