//! `isolo-ai openings`: builds an opening suite of distinct positions reached by random
//! plies, keeping those that fixed searches judge neither proven nor lopsided.

use clap::Args;

use super::{emit, CliError, CliResult};
use isolo_engine::matches::openings::{generate_suite_reporting, SuiteRequest};
use isolo_rules::Variant;

/// Random games tried per position wanted, at most.
const ATTEMPTS_PER_POSITION: usize = 200;

#[derive(Args, Debug)]
pub(crate) struct OpeningsArgs {
    /// A preset or a rules file
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: String,
    /// Random plies from the start
    #[arg(long, value_parser = super::ranges::RANDOM_PLIES)]
    pub plies: u32,
    /// Positions wanted
    #[arg(long, value_parser = super::ranges::SUITE_SIZE)]
    pub count: usize,
    /// Largest |evaluation| kept, in seeds
    #[arg(long = "max-eval", default_value_t = 2.0, value_parser = super::ranges::BALANCE_SEEDS)]
    pub max_eval: f64,
    /// Depth of the judging alpha-beta search, or rising depths (8,10,12): a position is
    /// kept only if the search to every one of them judges it balanced
    #[arg(
        long,
        value_name = "D[,D...]",
        value_delimiter = ',',
        default_value = "6"
    , value_parser = super::ranges::DEPTH)]
    pub depth: Vec<u32>,
    /// Master seed: every random choice derives from it
    #[arg(long, default_value_t = 0, value_parser = super::ranges::SEED)]
    pub seed: u64,
    /// Write the suite here instead of to standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

pub(crate) fn run(args: &OpeningsArgs) -> CliResult {
    let variant = Variant::load(&args.variant)?;
    if let Some(path) = &args.out {
        super::check_output("--out", path)?;
    }
    check_depths(&args.depth)?;
    let request = SuiteRequest {
        plies: args.plies,
        count: args.count,
        max_eval: (args.max_eval * 100.0).round() as i32,
        depths: args.depth.clone(),
        seed: args.seed,
        attempts_per_position: ATTEMPTS_PER_POSITION,
    };
    let bar = super::progress(args.count as u64, "positions");
    let report = generate_suite_reporting(
        &variant,
        &request,
        &mut |r| {
            bar.set_position(r.positions.len() as u64);
            bar.set_message(format!("{} random games tried", r.tried));
        },
        Some(super::interrupt::flag()),
    );
    bar.finish_and_clear();
    let judged_by = match args.depth.as_slice() {
        [one] => format!("a depth-{one} search"),
        many => format!("the searches to depths {}", joined(many, ", ")),
    };
    let summary = format!(
        "{}{} of {} wanted; tried {} random games: {} ended early, {} repeated a position, {} proven by {judged_by}, {} lopsided beyond {} seeds",
        if report.interrupted {
            "interrupted: "
        } else {
            ""
        },
        report.positions.len(),
        args.count,
        report.tried,
        report.game_over,
        report.duplicates,
        report.proven,
        report.lopsided,
        args.max_eval
    );
    let mut text = format!(
        "# isolo-ai openings --variant {} --plies {} --count {} --max-eval {} --depth {} --seed {}\n# {summary}\n",
        args.variant,
        args.plies,
        args.count,
        args.max_eval,
        joined(&args.depth, ","),
        args.seed
    );
    for (board, score) in &report.positions {
        text.push_str(&format!("{}  # {score}\n", variant.format_position(board)));
    }
    eprintln!("{summary}");
    let shown = match &args.out {
        Some(path) => isolo_rules::write_bytes_whole(path.as_ref(), text.as_bytes())
            .map_err(|e| CliError(format!("--out: cannot write {path}: {e}"))),
        None => emit(&text),
    };
    if report.interrupted {
        super::interrupt::exit(
            "the suite above holds the positions kept so far; the same command builds it again from the start",
        );
    }
    shown
}

/// Judging depths must each be a search depth and rise, so each search is deeper than the
/// one it follows.
fn check_depths(depths: &[u32]) -> CliResult {
    if depths.windows(2).any(|pair| pair[0] >= pair[1]) {
        return Err(CliError(format!(
            "--depth: the depths must rise (got {})",
            joined(depths, ",")
        )));
    }
    Ok(())
}

/// The depths as text, `separator` between them.
fn joined(depths: &[u32], separator: &str) -> String {
    let texts: Vec<String> = depths.iter().map(u32::to_string).collect();
    texts.join(separator)
}
