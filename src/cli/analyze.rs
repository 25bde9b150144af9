//! `isolo-ai analyze`: the best move, its score and line, by alpha-beta or MCTS.

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::settings::{
    parallel_named, quiescence_moves_named, walk_named, SearchSettings, SearcherKind, Setting,
};
use isolo_engine::search::alphabeta::QuiescenceMoves;
use isolo_engine::search::mcts::Parallelism;
use isolo_engine::search::ChoiceWalk;
use isolo_engine::search::{
    score_in_words, searched_moves, wdl_in_words, Progress, SearchRequest, SearchResult,
};
use isolo_engine::TimeControl;
use isolo_rules::{Board, Move, Outcome, Variant};

/// `--engine`: the engine's own searcher names.
fn searcher_kind(name: &str) -> Result<SearcherKind, String> {
    SearcherKind::named(name).ok_or_else(|| format!("expected ab or mcts, found '{name}'"))
}

/// `--qmoves`: the engine's own words.
fn quiescence_moves(word: &str) -> Result<QuiescenceMoves, String> {
    quiescence_moves_named(word).ok_or_else(|| format!("expected all or first-lap, found '{word}'"))
}

/// `--walk`: the engine's own words.
fn walk(word: &str) -> Result<ChoiceWalk, String> {
    walk_named(word).ok_or_else(|| format!("expected vast or all, found '{word}'"))
}

/// `--mcts-parallel`: the engine's own words.
fn parallelism(word: &str) -> Result<Parallelism, String> {
    parallel_named(word).ok_or_else(|| format!("expected root or tree, found '{word}'"))
}

#[derive(Args, Debug)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first (their positions count for repetitions)
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// The searcher: ab (alpha-beta: iterative deepening PVS, Lazy SMP) or mcts (UCT
    /// with MCTS-Solver)
    #[arg(long, value_name = "ab|mcts", default_value = "ab", value_parser = searcher_kind)]
    pub engine: SearcherKind,
    /// Depth limit in plies (alpha-beta)
    #[arg(long, value_parser = super::ranges::DEPTH)]
    pub depth: Option<u32>,
    /// Node limit (alpha-beta) or iteration limit (MCTS)
    #[arg(long, value_parser = super::ranges::NODES)]
    pub nodes: Option<u64>,
    /// Time limit in milliseconds (default about 5 s when no limit is given)
    #[arg(long = "time-ms", value_parser = super::ranges::TIME_MS)]
    pub time_ms: Option<u64>,
    /// Think as a move on this clock would (SECONDS+INCREMENT left, e.g. 60+1): the
    /// time management of matches and ugi decides when to stop
    #[arg(long, value_name = "LEFT+INC")]
    pub tc: Option<String>,
    /// Search threads (Lazy SMP for alpha-beta, root or tree parallel MCTS)
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
    /// Transposition table size in MB (alpha-beta; default 64)
    #[arg(long, value_parser = super::ranges::HASH_MB)]
    pub hash: Option<usize>,
    /// How many root moves to show with exact scores: 1..=256 or "all"
    #[arg(long, default_value = "1")]
    pub multipv: String,
    /// How MCTS threads share the work: root (a tree each) or tree (one shared tree)
    #[arg(long = "mcts-parallel", value_name = "root|tree", value_parser = parallelism)]
    pub mcts_parallel: Option<Parallelism>,
    /// Seed for every random choice (MCTS; default 0)
    #[arg(long, value_parser = super::ranges::SEED)]
    pub seed: Option<u64>,
    /// Evaluation weights: auto (the variant's tuned weights where shipped), hand (the
    /// hand-set ones) or a TOML file
    #[arg(long, value_name = "auto|hand|FILE")]
    pub weights: Option<String>,
    /// Plies of captures searched past the horizon (alpha-beta, 0-16; default 2)
    #[arg(long, value_parser = super::ranges::QUIESCENCE)]
    pub quiescence: Option<u32>,
    /// Which captures the quiescence search tries: all, or first-lap (the moves of pits
    /// whose first lap captures)
    #[arg(long, value_name = "all|first-lap", value_parser = quiescence_moves)]
    pub qmoves: Option<QuiescenceMoves>,
    /// Which pits' moves alpha-beta walks a take/pass choice at a time under optional
    /// captures: vast (those with too many moves to list; default) or all
    #[arg(long, value_name = "vast|all", value_parser = walk)]
    pub walk: Option<ChoiceWalk>,
    /// Seeds a draw in a fortress (a side that can never be captured) costs the side to
    /// move here (alpha-beta, 0-100; default 0 in an analysis, 10 in play)
    #[arg(long, value_name = "SEEDS", allow_negative_numbers = true, value_parser = super::ranges::CONTEMPT)]
    pub contempt: Option<i32>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The engine of `analyze`'s flags, as typed settings: a refusal names the flag.
fn engine_of_flags(args: &AnalyzeArgs) -> Result<EngineSpec, CliError> {
    let clock = match &args.tc {
        Some(text) => Some(
            text.parse::<TimeControl>()
                .map_err(|e| CliError(format!("--tc: {}", e.problem)))?,
        ),
        None => None,
    };
    let settings = SearchSettings {
        searcher: args.engine,
        depth: args.depth,
        nodes: args.nodes,
        time_ms: args.time_ms,
        clock,
        threads: Some(super::ranges::search_threads("--threads", args.threads)),
        hash_mb: args.hash,
        seed: args.seed,
        level: None,
        contempt: args
            .contempt
            .or(SearchSettings::analysing(args.engine).contempt),
        quiescence: args.quiescence,
        quiescence_moves: args.qmoves,
        walk: args.walk,
        parallel: args.mcts_parallel,
        weights: args.weights.clone(),
    };
    settings.spec().map_err(|e| {
        let flag = match e.setting() {
            Setting::Depth => "--depth",
            Setting::Nodes => "--nodes",
            Setting::TimeMs => "--time-ms",
            Setting::Threads => "--threads",
            Setting::Hash => "--hash",
            Setting::Level => "--level",
            Setting::Contempt => "--contempt",
            Setting::Quiescence => "--quiescence",
            Setting::QuiescenceMoves => "--qmoves",
            Setting::Parallel => "--mcts-parallel",
            Setting::Weights => "--weights",
        };
        CliError(format!("{flag}: {}", e.problem()))
    })
}

/// `--multipv`: a number of lines in range, or "all" (every root move, capped as a
/// number would be).
fn parse_multipv(text: &str, legal: usize) -> Result<usize, CliError> {
    let range = isolo_engine::ranges::MULTIPV;
    match text {
        "all" => Ok(legal.clamp(1, range.most)),
        _ => range
            .parse(text)
            .map_err(|e| CliError(format!("--multipv: {e}, or all"))),
    }
}

pub(crate) fn run(args: &AnalyzeArgs) -> CliResult {
    let variant = Variant::load(&args.position.variant)?;
    let game = args.position.game(&variant, args.moves.as_deref())?;
    let (board, history, over) = (*game.board(), game.history(), game.outcome());
    let quiet_plies = game.quiet_plies();
    let legal = searched_moves(&variant, &board).0.len();
    let multipv = parse_multipv(&args.multipv, legal)?;
    let spec = engine_of_flags(args)?;
    let limits = match &spec.clock {
        Some(tc) => {
            let clock = isolo_engine::search::clock::Clock::start(tc);
            // (On stderr, so with --json too: stdout keeps the one JSON object.)
            let budget = clock.budget();
            eprintln!(
                "clock {tc}: target {} ms, at most {} ms",
                budget.target.as_millis(),
                budget.hard.as_millis()
            );
            clock.limits(spec.limits)
        }
        None => spec.limits,
    };
    let mut searcher = spec
        .searcher()
        .map_err(|e| CliError(format!("--hash: {e}")))?
        .expect("ab and mcts search");
    if !args.json {
        emit(&super::show::draw(&variant, &board, over.as_ref()))?;
    }
    if let Some(outcome) = over {
        return report_finished(&variant, &board, &outcome, args.json);
    }
    let request = SearchRequest {
        variant: &variant,
        board,
        history,
        quiet_plies,
        limits,
        multipv,
        pv_lines: usize::MAX,
        stop: Some(super::interrupt::flag()),
    };
    let json = args.json;
    let mut progress = |p: &Progress| {
        if !json {
            let _ = emit(&format!("{}\n", progress_line(p)));
        }
    };
    let result = searcher.search(&request, &mut progress);
    let interrupted = super::interrupt::requested();
    let shown = if args.json {
        let mut value = result.to_json(&variant, &board);
        // (Only when true: the fields are otherwise those of every front end's analysis.)
        if interrupted {
            value["interrupted"] = json!(true);
        }
        emit_json(&value)
    } else {
        emit(&result_text(&variant, &board, &result))
    };
    if interrupted {
        shown?;
        super::interrupt::exit(
            "the search's answer so far is above; the same command searches again",
        );
    }
    shown
}

fn report_finished(variant: &Variant, board: &Board, outcome: &Outcome, json: bool) -> CliResult {
    if json {
        return emit_json(&isolo_engine::search::finished_json(
            variant, board, outcome,
        ));
    }
    let words = isolo_rules::in_words(outcome, variant, board);
    let material = isolo_rules::material_in_words(board);
    emit(&format!(
        "Game over. {words}; nothing to search. Material: {material}.\n"
    ))
}

fn line_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn progress_line(p: &Progress) -> String {
    let nps = isolo_engine::search::nodes_per_second(p.nodes, p.time);
    format!(
        "depth {:>3}  score {:>10}  nodes {:>11}  nps {:>9}  time {:>7} ms  pv {}",
        p.depth,
        p.score.to_string(),
        p.nodes,
        nps,
        p.time.as_millis(),
        line_text(&p.pv)
    )
}

/// The summary after the search.
pub(crate) fn result_text(variant: &Variant, board: &Board, result: &SearchResult) -> String {
    let mut out = String::new();
    let holders = isolo_rules::fortress_holders(variant, board);
    let held = !holders.is_empty();
    let (_, model) = isolo_engine::search::wdl::WdlModel::for_variant(variant);
    if let Some(best) = result.best() {
        out.push_str(&format!("best move {}\n", best.mv));
        out.push_str(&format!(
            "score {}  {}  material: {}\n",
            score_in_words(best.score, held),
            wdl_in_words(&model, best.score, held).percent_text(),
            isolo_rules::material_in_words(board)
        ));
        out.push_str(&format!("pv {}\n", line_text(&best.pv)));
        if let Some(words) = isolo_rules::fortress_in_words(board, &holders) {
            out.push_str(&format!("fortress: {words}\n"));
        } else if let Some(why) = isolo_engine::search::wdl::chances_reason(variant, best.score) {
            out.push_str(&format!("chances: {why}\n"));
        }
    }
    if result.lines.len() > 1 {
        for (i, line) in result.lines.iter().enumerate() {
            out.push_str(&format!(
                "line {:>2}: {:<6} {:>10}  {}  pv {}\n",
                i + 1,
                line.mv.to_string(),
                score_in_words(line.score, held),
                wdl_in_words(&model, line.score, held).percent_text(),
                line_text(&line.pv)
            ));
        }
    }
    out.push_str(&format!(
        "engine {}  depth {}  nodes {}  nps {}  time {} ms\n",
        result.engine,
        result.depth,
        result.nodes,
        result.nps(),
        result.time.as_millis()
    ));
    out
}
