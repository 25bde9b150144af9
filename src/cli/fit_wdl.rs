//! `isolo-ai fit-wdl`: fits the win/draw/loss model to self-play and measures its
//! calibration on held-out games (see `isolo_engine::research::wdl`).

use clap::Args;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::research::tune::GamesPlan;
use isolo_engine::research::wdl::{fit, self_play, WdlSettings};
use isolo_rules::Variant;

#[derive(Args, Debug)]
pub(crate) struct FitWdlArgs {
    /// A preset or a rules file
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: String,
    /// Self-play games
    #[arg(long, default_value_t = 1000, value_parser = super::ranges::TUNE_GAMES)]
    pub games: usize,
    /// Openings file (cycled through); default: the start
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Random plies after the opening, for variety
    #[arg(long = "random-plies", default_value_t = 6, value_parser = super::ranges::RANDOM_PLIES)]
    pub random_plies: u32,
    /// Alpha-beta nodes per self-play move
    #[arg(long, default_value_t = 5000, value_parser = super::ranges::NODES)]
    pub nodes: u64,
    /// Plies after which a self-play game is drawn
    #[arg(long = "max-plies", default_value_t = 1000, value_parser = super::ranges::GAME_PLIES)]
    pub max_plies: usize,
    /// Every N-th game is held out to measure the calibration
    #[arg(long, default_value_t = 5, value_parser = super::ranges::HOLDOUT)]
    pub holdout: usize,
    /// Games played at once (default: the cores)
    #[arg(long, value_parser = super::ranges::THREADS)]
    pub threads: Option<usize>,
    /// Master seed: every random choice derives from it
    #[arg(long, default_value_t = 1, value_parser = super::ranges::SEED)]
    pub seed: u64,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &FitWdlArgs) -> CliResult {
    let variant = Variant::load(&args.variant)?;
    let (threads, openings) =
        super::self_play_inputs(&variant, args.threads, args.games, args.openings.as_deref())?;
    let settings = WdlSettings {
        plan: GamesPlan {
            games: args.games,
            random_plies: args.random_plies,
            nodes: args.nodes,
            max_plies: args.max_plies,
            seed: args.seed,
            threads,
        },
        holdout: args.holdout,
    };
    let bar = super::progress(args.games as u64, "self-play games");
    let (positions, played) = self_play(
        &variant,
        &openings,
        &settings,
        &|n| bar.set_position(n as u64),
        Some(super::interrupt::flag()),
    )
    .map_err(|e| CliError(format!("--threads: cannot start {threads} threads: {e}")))?;
    bar.finish_and_clear();
    let interrupted = played < args.games;
    let result = fit(&positions, played, args.holdout);
    if result.train_positions == 0 {
        let why = "no position with an estimated score to fit";
        if interrupted {
            super::interrupt::exit(&format!(
                "{} played before it: {why}",
                super::plural(played as u64, "game", "games")
            ));
        }
        return Err(CliError(format!(
            "{why}: every position was proven (play more games, or fewer --nodes)"
        )));
    }
    let printed = if args.json {
        let mut value = result.to_json();
        value["interrupted"] = interrupted.into();
        emit_json(&value)
    } else {
        let mut text = report_text(&variant, &result);
        if interrupted {
            text.push_str(&format!(
                "interrupted (Ctrl-C): {} of {} games\n",
                played, args.games
            ));
        }
        emit(&text)
    };
    if interrupted {
        super::interrupt::exit(&format!(
            "fitted on the {} played",
            super::plural(played as u64, "game", "games")
        ));
    }
    printed
}

fn report_text(variant: &Variant, result: &isolo_engine::research::wdl::WdlFit) -> String {
    let shares = result.train_shares;
    format!(
        "{} fit-wdl: {} games, {} positions fitted (won {:.3}, drawn {:.3}, lost {:.3}), {} held out\n\
         model {}\n\
         proven scores {}, contradicted by their game {}\n\n{}",
        variant.name(),
        result.games,
        result.train_positions,
        shares[0],
        shares[1],
        shares[2],
        result.holdout_positions,
        result.model_text(),
        result.proven,
        result.proven_contradicted,
        result.calibration_markdown()
    )
}
