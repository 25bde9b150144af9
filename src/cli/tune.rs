//! `isolo-ai tune`: Texel tuning of the evaluation weights from self-play (see
//! `isolo_engine::research::tune`), written as a weights file.

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::eval::Weights;
use isolo_engine::research::tune::{self_play, Fit, GamesPlan, NetReport, NetTraining, SelfPlay};
use isolo_rules::Variant;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// A preset or a rules file
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: String,
    /// Self-play games
    #[arg(long, default_value_t = 2000, value_parser = super::ranges::TUNE_GAMES)]
    pub games: usize,
    /// Openings file (cycled through); default: the start
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Random plies after the opening, for variety
    #[arg(long = "random-plies", default_value_t = 6, value_parser = super::ranges::RANDOM_PLIES)]
    pub random_plies: u32,
    /// Alpha-beta nodes per self-play move
    #[arg(long, default_value_t = 1500, value_parser = super::ranges::NODES)]
    pub nodes: u64,
    /// Plies after which a self-play game is drawn
    #[arg(long = "max-plies", default_value_t = 400, value_parser = super::ranges::GAME_PLIES)]
    pub max_plies: usize,
    /// Capture plies a position is resolved over to count as quiet (0: keep every
    /// position)
    #[arg(long = "quiet-plies", default_value_t = 2, value_parser = super::ranges::QUIESCENCE)]
    pub quiet_plies: u32,
    /// Learn from decided games only (drawn games give no samples)
    #[arg(long = "decided-only")]
    pub decided_only: bool,
    /// Gradient steps of the fit (0 keeps the starting weights, to train only a net
    /// over them)
    #[arg(long, default_value_t = 600, value_parser = super::ranges::EPOCHS)]
    pub epochs: usize,
    /// Train a net of this many hidden units on top of the fitted weights (0: none);
    /// kept only if it predicts the held-out games better
    #[arg(long, default_value_t = 0, value_name = "HIDDEN", value_parser = super::ranges::HIDDEN_UNITS)]
    pub net: usize,
    /// Passes over the samples when training the net
    #[arg(long = "net-epochs", default_value_t = 20, value_parser = super::ranges::EPOCHS)]
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

pub fn run(args: &TuneArgs) -> CliResult {
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
        (None, Some((preset, _))) => format!("weights/{preset}.toml"),
        (None, None) => "hand".to_string(),
    };
    let start = chosen.unwrap_or_else(|| Weights::for_variant(&variant));
    let settings = SelfPlay {
        plan: GamesPlan {
            games: args.games,
            random_plies: args.random_plies,
            nodes: args.nodes,
            max_plies: args.max_plies,
            seed: args.seed,
            threads,
        },
        quiet_plies: args.quiet_plies,
        keep_draws: !args.decided_only,
    };
    let started = std::time::Instant::now();
    let interrupt = super::interrupt::flag();
    let bar = super::progress(args.games as u64, "self-play games");
    let (samples, played) = self_play(
        &variant,
        &openings,
        &start,
        &settings,
        &|n| bar.set_position(n as u64),
        Some(interrupt),
    )
    .map_err(|e| CliError(format!("--threads: cannot start {threads} threads: {e}")))?;
    bar.finish_and_clear();
    if played.samples == 0 {
        if played.interrupted {
            super::interrupt::exit(&format!(
                "{} played before it, without a quiet position to fit; nothing written",
                super::plural(played.games as u64, "game", "games")
            ));
        }
        return Err(CliError(
            "no quiet positions to fit: play more games or lower --quiet-plies".into(),
        ));
    }
    // After an interrupted self-play the fit (seconds) runs on the games played; a
    // second Ctrl-C still quits at once. A Ctrl-C during the fit keeps its last step.
    let fit_stop = if played.interrupted {
        eprintln!(
            "fitting the {} played (Ctrl-C again to quit at once)",
            super::plural(played.games as u64, "game", "games")
        );
        None
    } else {
        Some(interrupt)
    };
    let play_time = started.elapsed();
    let fit = Fit::new(&samples);
    let k = fit.fit_scale(&start);
    let bar = super::progress(args.epochs as u64, "epochs");
    let (mut tuned, report) = fit.tune(
        &start,
        k,
        args.epochs,
        &mut |epoch, error| {
            bar.set_position(epoch as u64);
            bar.set_message(format!("training error {error:.5}"));
        },
        fit_stop,
    );
    bar.finish_and_clear();
    let net_report = (args.net > 0).then(|| {
        let settings = NetTraining {
            hidden: args.net,
            epochs: args.net_epochs,
            seed: args.seed,
        };
        let bar = super::progress(args.net_epochs as u64, "net epochs");
        let (net, report) = fit.train_net(
            &tuned,
            k,
            &settings,
            &mut |epoch, error| {
                bar.set_position(epoch as u64);
                bar.set_message(format!("validation error {error:.5}"));
            },
            fit_stop,
        );
        bar.finish_and_clear();
        tuned.net = net;
        report
    });
    let fit_time = started.elapsed() - play_time;
    let mut comments = vec![
        format!("Tuned weights for {} (isolo-ai tune, Texel method).", variant.name()),
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
        ),
        format!(
            "{} games ({} decided, {:.0} plies a game), {} positions played, {} quiet ones kept{}",
            played.games,
            played.decided,
            played.plies as f64 / played.games.max(1) as f64,
            played.positions,
            played.samples,
            if args.decided_only {
                " from the decided games"
            } else {
                ""
            }
        ),
        format!(
            "sigmoid scale K = {:.6} per hundredth of a seed; mean squared error, training {:.5} -> {:.5}, validation (every {}th game) {:.5} -> {:.5}",
            report.k,
            report.train_before,
            report.train_after,
            isolo_engine::research::tune::VALIDATION_EVERY,
            report.validation_before,
            report.validation_after
        ),
    ];
    if let Some(r) = &net_report {
        comments.push(net_line(args.net, r));
    }
    let interrupted = played.interrupted
        || report.epochs < args.epochs
        || net_report
            .as_ref()
            .is_some_and(|r| r.epochs < args.net_epochs);
    if interrupted {
        comments.push(format!(
            "interrupted (Ctrl-C): {} of {} games, {} of {} epochs{}",
            played.games,
            args.games,
            report.epochs,
            args.epochs,
            net_report
                .as_ref()
                .map(|r| format!(", {} of {} net epochs", r.epochs, args.net_epochs))
                .unwrap_or_default()
        ));
    }
    let text = tuned.to_toml(&comments);
    if let Some(path) = &args.out {
        std::fs::write(path, &text)
            .map_err(|e| CliError(format!("--out: cannot write {path}: {e}")))?;
    }
    let next = "the weights above are fitted on what was done; the same command tunes again from the start";
    if args.json {
        let shown = emit_json(&json!({
            "variant": variant.name(),
            "games": played.games,
            "decided": played.decided,
            "plies": played.plies,
            "positions": played.positions,
            "samples": played.samples,
            "train_samples": report.train_samples,
            "validation_samples": report.validation_samples,
            "k": report.k,
            "train_error_before": report.train_before,
            "train_error_after": report.train_after,
            "validation_error_before": report.validation_before,
            "validation_error_after": report.validation_after,
            "self_play_ms": play_time.as_millis() as u64,
            "fit_ms": fit_time.as_millis() as u64,
            "net": net_report.as_ref().map(|r| json!({
                "hidden": args.net,
                "kept": r.best_epoch > 0,
                "best_epoch": r.best_epoch,
                "train_error_before": r.train_before,
                "train_error_after": r.train_after,
                "validation_error_before": r.validation_before,
                "validation_error_after": r.validation_after,
            })),
            "weights": tuned,
            "out": args.out,
            "epochs": report.epochs,
            "interrupted": interrupted,
        }));
        if interrupted {
            super::interrupt::exit(next);
        }
        return shown;
    }
    comments.push(format!(
        "self-play {:.1} s on {threads} threads, fit {:.1} s",
        play_time.as_secs_f64(),
        fit_time.as_secs_f64()
    ));
    let mut out = String::new();
    for line in &comments {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&tuned.to_toml(&[]));
    if let Some(path) = &args.out {
        out.push_str(&format!("# written to {path}\n"));
    }
    let shown = emit(&out);
    if interrupted {
        super::interrupt::exit(next);
    }
    shown
}

/// The weights file's line on the net's training.
fn net_line(hidden: usize, r: &NetReport) -> String {
    let errors = format!(
        "mean squared error, training {:.5} -> {:.5}, validation {:.5} -> {:.5}",
        r.train_before, r.train_after, r.validation_before, r.validation_after
    );
    if r.best_epoch == 0 {
        format!("net of {hidden} hidden units: no epoch beat the linear weights above on the validation games; none kept")
    } else {
        format!(
            "net of {hidden} hidden units over the linear weights above, kept from epoch {}; {errors}",
            r.best_epoch
        )
    }
}
