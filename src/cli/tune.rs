//! `isolo-ai tune`: Texel tuning of the evaluation weights from self-play (see
//! `isolo_engine::research::tune`), written as a weights file.

use clap::Args;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::eval::Weights;
use isolo_engine::ranges;
use isolo_engine::research::tune::{tune, TuneError, TuneObserver, TuneSettings, TuneStage};
use isolo_rules::Variant;

#[derive(Args, Debug)]
pub(crate) struct TuneArgs {
    /// A preset or a rules file
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: String,
    /// Self-play games
    #[arg(long, default_value_t = ranges::TUNE_GAMES.default.unwrap(), value_parser = super::ranges::TUNE_GAMES)]
    pub games: usize,
    /// Openings file (cycled through); default: the start
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Random plies after the opening, for variety
    #[arg(long = "random-plies", default_value_t = ranges::TUNE_RANDOM_PLIES.default.unwrap(), value_parser = super::ranges::TUNE_RANDOM_PLIES)]
    pub random_plies: u32,
    /// Alpha-beta nodes per self-play move
    #[arg(long, default_value_t = ranges::TUNE_NODES.default.unwrap(), value_parser = super::ranges::NODES)]
    pub nodes: u64,
    /// Plies after which a self-play game is drawn
    #[arg(long = "max-plies", default_value_t = ranges::TUNE_GAME_PLIES.default.unwrap(), value_parser = super::ranges::GAME_PLIES)]
    pub max_plies: usize,
    /// Capture plies a position is resolved over to count as quiet (0: keep every
    /// position)
    #[arg(long = "quiet-plies", default_value_t = ranges::TUNE_QUIET_PLIES.default.unwrap(), value_parser = super::ranges::QUIESCENCE)]
    pub quiet_plies: u32,
    /// Learn from decided games only (drawn games give no samples)
    #[arg(long = "decided-only")]
    pub decided_only: bool,
    /// Gradient steps of the fit (0 keeps the starting weights, to train only a net
    /// over them)
    #[arg(long, default_value_t = ranges::TUNE_EPOCHS.default.unwrap(), value_parser = super::ranges::EPOCHS)]
    pub epochs: usize,
    /// Train a net of this many hidden units on top of the fitted weights (0: none);
    /// kept only if it predicts the held-out games better
    #[arg(long, default_value_t = ranges::NET_HIDDEN.default.unwrap(), value_name = "HIDDEN", value_parser = super::ranges::HIDDEN_UNITS)]
    pub net: usize,
    /// Passes over the samples when training the net
    #[arg(long = "net-epochs", default_value_t = ranges::NET_EPOCHS.default.unwrap(), value_parser = super::ranges::NET_EPOCHS)]
    pub net_epochs: usize,
    /// Starting weights, also those of the self-play engine: auto, hand or a TOML file
    #[arg(long, default_value = "auto", value_name = "auto|hand|FILE")]
    pub start: String,
    /// Games played at once (default: the cores)
    #[arg(long, value_parser = super::ranges::THREADS)]
    pub threads: Option<usize>,
    /// Master seed: every random choice derives from it
    #[arg(long, default_value_t = 1, value_parser = super::ranges::SEED)]
    pub seed: u64,
    /// Write the tuned weights here (TOML); default: standard output only
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The progress bar of each stage, on stderr.
struct Bars(std::sync::Mutex<indicatif::ProgressBar>);

impl TuneObserver for Bars {
    fn stage(&self, stage: TuneStage, steps: usize) {
        let (what, note) = match stage {
            TuneStage::SelfPlay => ("self-play games", None),
            TuneStage::Fit { after_stop } => ("epochs", after_stop.then_some(())),
            TuneStage::Net => ("net epochs", None),
        };
        if note.is_some() {
            eprintln!("fitting the games played (Ctrl-C again to quit at once)");
        }
        let mut bar = self.0.lock().expect("the bar's lock");
        bar.finish_and_clear();
        *bar = super::progress(steps as u64, what);
    }

    fn step(&self, done: usize, error: Option<f64>) {
        let bar = self.0.lock().expect("the bar's lock");
        bar.set_position(done as u64);
        if let Some(error) = error {
            bar.set_message(format!("error {error:.5}"));
        }
    }
}

pub(crate) fn run(args: &TuneArgs) -> CliResult {
    let variant = Variant::load(&args.variant)?;
    if let Some(path) = &args.out {
        super::check_output("--out", path)?;
    }
    let (threads, openings) =
        super::self_play_inputs(&variant, args.threads, args.games, args.openings.as_deref())?;
    let chosen = Weights::choose(&args.start).map_err(|e| CliError(format!("--start: {e}")))?;
    // Named as the weights they stand for today, so the file's command stays true.
    let start_name = match (&chosen, Weights::shipped_for(&variant)) {
        (Some(_), _) => args.start.clone(),
        (None, Some((preset, _))) => format!("crates/isolo-engine/weights/{preset}.toml"),
        (None, None) => "hand".to_string(),
    };
    let start = chosen.unwrap_or_else(|| Weights::for_variant(&variant));
    let settings = TuneSettings {
        games: args.games,
        random_plies: args.random_plies,
        nodes: args.nodes,
        max_plies: args.max_plies,
        quiet_plies: args.quiet_plies,
        decided_only: args.decided_only,
        epochs: args.epochs,
        net: args.net,
        net_epochs: args.net_epochs,
        seed: args.seed,
        threads,
    };
    let interrupt = super::interrupt::flag();
    let bars = Bars(std::sync::Mutex::new(indicatif::ProgressBar::hidden()));
    let tuned = tune(
        &variant,
        &openings,
        &start,
        &settings,
        &bars,
        Some(interrupt),
    );
    bars.0.lock().expect("the bar's lock").finish_and_clear();
    let tuned = match tuned {
        Ok(tuned) => tuned,
        Err(TuneError::Stopped { games }) => super::interrupt::exit(&format!(
            "{} played before it, without a quiet position to fit; nothing written",
            super::plural(games as u64, "game", "games")
        )),
        Err(TuneError::NoSamples) => {
            return Err(CliError(
                "no quiet positions to fit: play more games or lower --quiet-plies".into(),
            ))
        }
        Err(e @ TuneError::Threads { .. }) => return Err(CliError(format!("--{e}"))),
    };
    let command = command_line(args, &start_name);
    let text = tuned.weights_file(&command);
    if let Some(path) = &args.out {
        isolo_rules::write_bytes_whole(path.as_ref(), text.as_bytes())
            .map_err(|e| CliError(format!("--out: cannot write {path}: {e}")))?;
    }
    let report = &tuned.report;
    let shown = if args.json {
        let mut value = serde_json::to_value(report).expect("reports serialise");
        value["weights"] = serde_json::to_value(&tuned.weights).expect("weights serialise");
        value["out"] = serde_json::to_value(&args.out).expect("a path serialises");
        emit_json(&value)
    } else {
        let mut out = String::new();
        let mut comments = tuned.comments(&command);
        comments.push(format!(
            "self-play {:.1} s on {threads} threads, fit {:.1} s",
            report.self_play_ms as f64 / 1000.0,
            report.fit_ms as f64 / 1000.0
        ));
        for line in &comments {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&tuned.weights.to_toml(&[]));
        if let Some(path) = &args.out {
            out.push_str(&format!("# written to {path}\n"));
        }
        emit(&out)
    };
    if report.interrupted {
        super::interrupt::exit(
            "the weights above are fitted on what was done; the same command tunes again from the start",
        );
    }
    shown
}

/// The command that repeats the run, for the weights file.
fn command_line(args: &TuneArgs, start_name: &str) -> String {
    format!(
        "isolo-ai tune --variant {} --games {} --openings {} --random-plies {} --nodes {} --max-plies {} --quiet-plies {}{} --epochs {}{} --start {} --seed {}",
        args.variant,
        args.games,
        args.openings.as_deref().unwrap_or("<start>"),
        args.random_plies,
        args.nodes,
        args.max_plies,
        args.quiet_plies,
        if args.decided_only { " --decided-only" } else { "" },
        args.epochs,
        if args.net > 0 {
            format!(" --net {} --net-epochs {}", args.net, args.net_epochs)
        } else {
            String::new()
        },
        start_name,
        args.seed
    )
}
