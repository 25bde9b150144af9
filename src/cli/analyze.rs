//! `isolo-ai analyze`: the best move, its score and line, by alpha-beta or MCTS.

use clap::{Args, ValueEnum};

use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use isolo_engine::matches::engine::{EngineSpec, SpecError};
use isolo_engine::search::wdl::wdl_of;
use isolo_engine::search::{searched_moves, Progress, SearchRequest, SearchResult};
use isolo_rules::{Board, Move, Variant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineKind {
    /// Alpha-beta (iterative deepening PVS, Lazy SMP)
    Ab,
    /// Monte Carlo tree search (UCT with MCTS-Solver)
    Mcts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MctsParallel {
    Root,
    Tree,
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first (their positions count for repetitions)
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// The searcher
    #[arg(long, value_enum, default_value_t = EngineKind::Ab)]
    pub engine: EngineKind,
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
    #[arg(long = "mcts-parallel", value_enum)]
    pub mcts_parallel: Option<MctsParallel>,
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
    #[arg(long, value_name = "all|first-lap")]
    pub qmoves: Option<String>,
    /// Which pits' moves alpha-beta walks a take/pass choice at a time under optional
    /// captures: vast (those with too many moves to list; default) or all
    #[arg(long, value_name = "vast|all")]
    pub walk: Option<String>,
    /// Seeds a draw in a fortress (a side that can never be captured) costs the side to
    /// move here (alpha-beta, 0-100; default 10)
    #[arg(long, value_name = "SEEDS", allow_negative_numbers = true, value_parser = super::ranges::CONTEMPT)]
    pub contempt: Option<i32>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The engine of `analyze`'s flags, read by the same parser as `--engine` specs, so the
/// same values are refused with the same reasons (named here by their flags).
fn engine_of_flags(args: &AnalyzeArgs) -> Result<EngineSpec, CliError> {
    let (name, nodes_key) = match args.engine {
        EngineKind::Ab => ("ab", "nodes"),
        EngineKind::Mcts => ("mcts", "iters"),
    };
    let flags: [(&str, &str, Option<String>); 13] = [
        ("--tc", "tc", args.tc.clone()),
        ("--depth", "depth", args.depth.map(|d| d.to_string())),
        ("--nodes", nodes_key, args.nodes.map(|n| n.to_string())),
        ("--time-ms", "time-ms", args.time_ms.map(|t| t.to_string())),
        (
            "--threads",
            "threads",
            Some(super::ranges::search_threads("--threads", args.threads).to_string()),
        ),
        ("--hash", "hash", args.hash.map(|h| h.to_string())),
        ("--weights", "weights", args.weights.clone()),
        (
            "--quiescence",
            "quiescence",
            args.quiescence.map(|q| q.to_string()),
        ),
        ("--qmoves", "qmoves", args.qmoves.clone()),
        ("--walk", "walk", args.walk.clone()),
        (
            "--contempt",
            "contempt",
            args.contempt.map(|c| c.to_string()),
        ),
        // Alpha-beta makes no random choice: a seed changes nothing there.
        (
            "--seed",
            "seed",
            args.seed.filter(|_| name == "mcts").map(|s| s.to_string()),
        ),
        (
            "--mcts-parallel",
            "parallel",
            args.mcts_parallel.map(|p| match p {
                MctsParallel::Root => "root".to_string(),
                MctsParallel::Tree => "tree".to_string(),
            }),
        ),
    ];
    let given: Vec<(&str, &str, String)> = flags
        .into_iter()
        .filter_map(|(flag, key, value)| value.map(|v| (flag, key, v)))
        .collect();
    let pairs: Vec<(&str, &str)> = given.iter().map(|(_, k, v)| (*k, v.as_str())).collect();
    let flag_of = |key: &str| {
        given
            .iter()
            .find(|(_, k, _)| *k == key)
            .map_or(key.to_string(), |(flag, _, _)| flag.to_string())
    };
    match EngineSpec::from_options(name, &pairs) {
        Ok(spec) => Ok(spec),
        Err(SpecError::BadValue { key, problem }) => {
            Err(CliError(format!("{}: {problem}", flag_of(&key))))
        }
        Err(SpecError::UnknownKey { key, engine }) => Err(CliError(format!(
            "{}: does not apply to --engine {engine}",
            flag_of(&key)
        ))),
        Err(e) => Err(CliError(e.to_string())),
    }
}

/// The position reached by `--moves`, with the hashes of the positions before it.
pub fn position_with_history(
    variant: &Variant,
    start: Board,
    moves: Option<&str>,
) -> Result<(Board, Vec<u64>), CliError> {
    let game = super::game_after(variant, start, moves)?;
    Ok((*game.board(), game.history()))
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

pub fn run(args: &AnalyzeArgs) -> CliResult {
    let (variant, start) = args.position.load()?;
    let (board, history) = position_with_history(&variant, start, args.moves.as_deref())?;
    let legal = searched_moves(&variant, &board).0.len();
    let multipv = parse_multipv(&args.multipv, legal)?;
    let spec = engine_of_flags(args)?;
    let limits = match &spec.clock {
        Some(tc) => {
            let clock = isolo_engine::search::clock::Clock::start(tc);
            if !args.json {
                let budget = clock.budget();
                eprintln!(
                    "clock {tc}: target {} ms, at most {} ms",
                    budget.target.as_millis(),
                    budget.hard.as_millis()
                );
            }
            clock.limits(spec.limits)
        }
        None => spec.limits,
    };
    let mut searcher = spec
        .searcher()
        .map_err(|e| CliError(format!("--hash: {e}")))?
        .expect("ab and mcts search");
    if !args.json {
        emit(&super::show::draw(&variant, &board))?;
    }
    if legal == 0 {
        return report_finished(&variant, &board, args.json);
    }
    let request = SearchRequest {
        variant: &variant,
        board,
        history,
        limits,
        multipv,
        stop: Some(super::interrupt::flag()),
    };
    let json = args.json;
    let mut progress = |p: &Progress| {
        if !json {
            let _ = emit(&format!("{}\n", progress_line(p)));
        }
    };
    let result = searcher.search(&request, &mut progress);
    if args.json {
        emit_json(&result.to_json(&variant))
    } else {
        emit(&result_text(&variant, &result))
    }
}

fn report_finished(variant: &Variant, board: &Board, json: bool) -> CliResult {
    if json {
        return emit_json(&isolo_engine::search::no_move_json(variant, board));
    }
    let winner = board.to_move().opponent();
    emit(&format!(
        "Game over: {winner} wins ({} has no legal move); nothing to search\n",
        board.to_move()
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
pub fn result_text(variant: &Variant, result: &SearchResult) -> String {
    let mut out = String::new();
    if let Some(best) = result.best() {
        out.push_str(&format!("best move {}\n", best.mv));
        out.push_str(&format!(
            "score {}  {}\n",
            best.score,
            wdl_of(variant, best.score).percent_text()
        ));
        out.push_str(&format!("pv {}\n", line_text(&best.pv)));
    }
    if result.lines.len() > 1 {
        for (i, line) in result.lines.iter().enumerate() {
            out.push_str(&format!(
                "line {:>2}: {:<6} {:>10}  {}  pv {}\n",
                i + 1,
                line.mv.to_string(),
                line.score.to_string(),
                wdl_of(variant, line.score).percent_text(),
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
