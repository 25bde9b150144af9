//! `isolo-ai review`: a game's moves set against the engine's best (see
//! `isolo_engine::review`), as a table with each side's accuracy, or as JSON.

use std::path::Path;

use clap::Args;

use std::time::Duration;

use super::{emit, CliError, CliResult};
use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::records;
use isolo_engine::matches::settings::{SearchSettings, Setting};
use isolo_engine::review::{review, MoveClass, Review, ReviewBudget};
use isolo_rules::{Board, Game, Side, Variant};

#[derive(Args, Debug)]
pub(crate) struct ReviewArgs {
    /// A preset or a rules file (not with --records, whose header names the rules)
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: Option<String>,
    // (Not a doc comment: rustdoc would read the brackets as a link.)
    #[arg(
        long,
        value_name = "POSITION",
        allow_hyphen_values = true,
        help = "Start position (\"ROWS SIDE [OVERTURE] [FIRST] [WON]\"); default: the variant's start"
    )]
    pub position: Option<String>,
    /// The game's moves
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// A records file written by match or tournament (--out), with --game
    #[arg(long, value_name = "FILE", requires = "game")]
    pub records: Option<String>,
    /// The game of --records to review (its "game" number)
    #[arg(long, value_parser = super::ranges::GAME_NUMBER, requires = "records")]
    pub game: Option<u64>,
    /// Alpha-beta nodes a position (default 200000 when no budget is given)
    #[arg(long, value_parser = super::ranges::REVIEW_NODES)]
    pub nodes: Option<u64>,
    /// The whole review's time in milliseconds: when it is spent, the moves reviewed so
    /// far are reported
    #[arg(long = "total-ms", value_parser = super::ranges::REVIEW_TOTAL_MS)]
    pub total_ms: Option<u64>,
    /// Time a position in milliseconds
    #[arg(long = "time-ms", value_parser = super::ranges::TIME_MS)]
    pub time_ms: Option<u64>,
    /// Depth a position in plies
    #[arg(long, value_parser = super::ranges::DEPTH)]
    pub depth: Option<u32>,
    /// Search threads (Lazy SMP)
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
    /// Transposition table size in MB (default 64)
    #[arg(long, value_parser = super::ranges::HASH_MB)]
    pub hash: Option<usize>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The game to review: from --records, or from --variant, --position and --moves; and
/// where its moves come from, as an illegal one is reported.
fn load_game(args: &ReviewArgs) -> Result<(Variant, Board, String, String), CliError> {
    let Some(path) = &args.records else {
        let name = args.variant.as_ref().ok_or_else(|| {
            CliError("give --variant (with --moves) or --records with --game".into())
        })?;
        let variant = Variant::load(name)?;
        let start = super::start_position(&variant, args.position.as_deref())?;
        let moves = args.moves.clone().unwrap_or_default();
        return Ok((variant, start, moves, "--moves".into()));
    };
    for (given, flag) in [
        (args.variant.is_some(), "--variant"),
        (args.position.is_some(), "--position"),
        (args.moves.is_some(), "--moves"),
    ] {
        if given {
            return Err(CliError(format!(
                "{flag}: not with --records (the records give the game)"
            )));
        }
    }
    if !Path::new(path).exists() {
        return Err(CliError(format!("{path}: no such file")));
    }
    // Checked as `replay` checks it, a game at a time: a file that one refuses, the
    // other does too.
    let k = args.game.expect("clap requires --game with --records");
    let mut wanted = None;
    let file = records::check_records(Path::new(path), |record, _| {
        if record.game == k {
            wanted = Some(record.clone());
        }
        Ok::<(), records::RecordsError>(())
    })
    .map_err(|e| CliError(e.in_file(path)))?
    .ok_or_else(|| CliError(format!("{path}: no records header")))?;
    let record = wanted.ok_or_else(|| CliError(format!("--game: no game {k} in {path}")))?;
    if !file.chained {
        eprintln!("{path}: {}", records::UNCHAINED_NOTE);
    }
    let moves: Vec<String> = record.moves.iter().map(|m| m.to_string()).collect();
    let source = format!("{path}: game {k}");
    Ok((
        file.variant.clone(),
        record.opening,
        moves.join(" "),
        source,
    ))
}

/// The alpha-beta engine of the budget flags, as typed settings.
fn engine(args: &ReviewArgs) -> Result<EngineSpec, CliError> {
    let nodes = match (args.nodes, args.time_ms, args.depth) {
        (None, None, None) => Some(isolo_engine::ranges::DEFAULT_REVIEW_NODES),
        (nodes, _, _) => nodes,
    };
    let settings = SearchSettings {
        nodes,
        time_ms: args.time_ms,
        depth: args.depth,
        hash_mb: args.hash,
        threads: Some(super::ranges::search_threads("--threads", args.threads)),
        ..SearchSettings::reviewing()
    };
    settings.spec().map_err(|e| {
        let flag = match e.setting() {
            Setting::Hash => "--hash",
            Setting::Depth => "--depth",
            Setting::TimeMs => "--time-ms",
            Setting::Threads => "--threads",
            _ => "--nodes",
        };
        CliError(format!("{flag}: {}", e.problem()))
    })
}

pub(crate) fn run(args: &ReviewArgs) -> CliResult {
    let (variant, start, moves, source) = load_game(args)?;
    let mut game = Game::new(&variant, start);
    game.play_list(&moves)
        .map_err(|e| CliError(format!("{source}: {e}")))?;
    let spec = engine(args)?;
    let mut searcher = spec
        .searcher()
        .map_err(|e| CliError(format!("--hash: {e}")))?
        .expect("alpha-beta searches");
    let bar = super::progress(game.plies() as u64 + 1, "positions");
    let budget = ReviewBudget {
        position: spec.limits,
        total: args.total_ms.map(Duration::from_millis),
    };
    let reviewed = review(
        &game,
        searcher.as_mut(),
        budget,
        &mut |done, _| bar.set_position(done as u64),
        Some(super::interrupt::flag()),
    );
    bar.finish_and_clear();
    let printed = if args.json {
        super::emit_serialized(&reviewed.report())
    } else {
        emit(&review_text(&variant, &game, &spec.label, &reviewed))
    };
    if reviewed.interrupted {
        super::interrupt::exit(&format!(
            "{} of {} reviewed",
            reviewed.moves.len(),
            super::plural(game.plies() as u64, "move", "moves")
        ));
    }
    printed
}

/// The review as a table, then each side's accuracy and a line for each marked move.
fn review_text(variant: &Variant, game: &Game, engine: &str, review: &Review) -> String {
    let mut out = format!(
        "Review of {} ({}), {} by {engine} a position\n\n",
        variant.name(),
        super::plural(game.plies() as u64, "ply", "plies"),
        if review.interrupted {
            "interrupted"
        } else if review.out_of_time {
            "the total time spent"
        } else {
            "searched"
        }
    );
    out.push_str(&format!(
        "{:>4} {:<4} {:<6} {:<6} {:<10} {:<10} {:>6} {:>6} class\n",
        "ply", "side", "move", "best", "score", "best score", "lost", "seeds"
    ));
    for m in &review.moves {
        out.push_str(&format!(
            "{:>4} {:<4} {:<6} {:<6} {:<10} {:<10} {:>5.1}% {:>6} {}{}\n",
            m.ply,
            m.side.letter(),
            m.mv.to_string(),
            m.best.to_string(),
            m.score.to_string(),
            m.best_score.to_string(),
            m.loss * 100.0,
            m.loss_seeds.map_or("-".to_string(), |s| format!("{s:.1}")),
            m.class.name(),
            m.turning_point
                .map(|t| format!("  ({})", t.text()))
                .unwrap_or_default()
        ));
    }
    out.push('\n');
    for side in [Side::South, Side::North] {
        let counts = review.class_counts(side);
        let tally: Vec<String> = MoveClass::ALL
            .iter()
            .zip(counts)
            .map(|(class, n)| format!("{} {n}", class.name()))
            .collect();
        out.push_str(&format!(
            "{side}: accuracy {}  ({})\n",
            review
                .accuracy(side)
                .map_or("-".to_string(), |a| format!("{a:.1}")),
            tally.join(", ")
        ));
    }
    for m in review.moves.iter().filter(|m| m.class.is_marked()) {
        out.push_str(&m.note());
        out.push('\n');
    }
    out.push_str(&format!(
        "nodes {}  time {} ms  nps {}\n",
        review.nodes,
        review.time.as_millis(),
        isolo_engine::search::nodes_per_second(review.nodes, review.time)
    ));
    out
}
