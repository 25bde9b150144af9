//! `isolo-ai bench`: a fixed set of positions from every preset searched to a fixed depth.
//! The total node count on one thread is a signature that changes only when search
//! behaviour changes; `--threads T` also measures the Lazy SMP speed-up on the same set.
//! `--playouts` measures random games instead (`bench/playouts.rs`).

use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliResult};

mod playouts;
use isolo_engine::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use isolo_engine::search::{nodes_per_second, Limits, SearchRequest, Searcher};
use isolo_rules::Variant;

/// The bench positions: each preset's start and positions reached by random plies.
pub(crate) const POSITIONS: [(&str, &str); 24] = [
    (
        "isolo-women",
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S",
    ),
    (
        "isolo-women",
        "2,0,0,0,2,2,0,0/2,0,0,0,0,3,1,0/4,1,1,8,8,3,1,6/4,4,1,0,4,1,6,0 S",
    ),
    (
        "isolo-women",
        "0,0,0,1,0,2,0,0/1,1,0,0,0,1,1,0/1,3,0,0,11,11,1,2/3,2,9,5,4,4,1,0 S",
    ),
    (
        "isolo-women",
        "0,2,0,1,3,0,0,0/0,2,0,0,2,0,1,0/5,5,2,0,7,7,3,1/2,1,2,0,1,1,8,8 S",
    ),
    (
        "isolo-women",
        "0,2,0,1,2,0,1,1/0,0,0,0,6,1,1,1/9,2,0,1,2,3,5,12/0,2,0,3,6,3,0,0 S",
    ),
    (
        "isolo-women",
        "0,2,0,2,0,0,2,2/4,4,1,3,1,0,2,2/4,0,1,5,0,7,2,4/4,0,3,3,0,3,3,0 S",
    ),
    (
        "isolo-women",
        "1,2,0,1,0,0,0,0/0,0,0,0,0,1,0,0/2,1,4,14,0,3,3,1/4,5,4,1,5,1,9,2 S",
    ),
    (
        "isolo-women",
        "2,0,2,2,2,0,1,3/2,0,2,2,2,0,0,0/4,0,5,1,3,0,5,5/1,4,4,1,3,3,0,5 S",
    ),
    (
        "isolo-boys",
        "17,2,0,2,0,2,0,2/0,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17 S SN",
    ),
    (
        "isolo-boys",
        "17,2,0,0,0,2,0,2/0,1,0,3,5,0,4,1/1,3,1,0,0,0,0,0/0,1,3,1,0,0,0,17 S SN",
    ),
    (
        "isolo-boys",
        "17,0,0,0,1,1,1,3/0,4,0,0,1,6,1,2/1,2,0,0,0,1,0,0/4,0,1,0,1,0,0,17 S SN",
    ),
    (
        "isolo-boys",
        "17,2,0,1,2,3,0,3/0,0,0,0,1,3,0,0/0,2,1,3,4,7,4,1/0,1,0,1,0,5,0,3 S N",
    ),
    (
        "isolo-boys",
        "17,1,1,1,1,0,0,0/0,0,0,2,1,0,0,0/3,1,2,1,2,8,3,0/2,1,7,1,0,1,6,2 S N",
    ),
    (
        "isolo-boys",
        "17,1,0,2,1,0,4,2/0,1,0,0,2,0,1,6/2,1,6,1,0,0,1,2/4,0,2,0,6,0,2,0 S N",
    ),
    (
        "isolo-boys",
        "17,2,0,2,1,3,1,0/0,1,2,0,2,0,0,1/1,0,0,2,0,2,1,0/0,1,3,1,2,0,2,17 S SN",
    ),
    (
        "isolo-boys",
        "17,0,1,0,0,2,0,2/0,2,3,1,2,0,2,0/0,2,0,2,0,2,1,0/0,1,0,1,3,1,2,17 S SN",
    ),
    (
        "igisoro",
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 S",
    ),
    (
        "igisoro",
        "5,5,0,5,5,5,0,4/1,1,1,0,0,0,0,0/0,0,0,0,0,0,1,1/4,4,4,4,4,0,5,5 S",
    ),
    (
        "igisoro",
        "0,4,4,4,4,4,4,4/0,0,2,0,1,1,0,0/0,0,0,0,1,0,1,1/4,4,4,4,4,4,0,5 S",
    ),
    (
        "igisoro",
        "6,0,0,5,5,5,0,4/2,2,2,1,0,0,0,0/0,0,1,1,1,1,2,2/0,5,0,6,1,6,6,0 S",
    ),
    (
        "igisoro",
        "5,5,5,0,5,5,5,0/1,1,0,0,0,0,0,0/0,0,0,0,1,1,1,1/4,4,4,4,4,4,4,0 S",
    ),
    (
        "igisoro",
        "0,0,4,0,3,0,2,1/0,0,0,7,0,1,1,5/0,1,4,1,0,5,1,2/6,2,2,0,7,0,6,3 S",
    ),
    (
        "igisoro",
        "6,1,0,6,6,1,5,0/2,2,1,1,2,2,0,2/0,0,0,0,1,2,0,0/4,4,4,0,4,4,4,0 S",
    ),
    (
        "igisoro",
        "5,5,1,5,5,5,0,4/0,0,1,1,0,0,0,0/0,0,1,2,0,2,3,3/0,5,5,5,0,5,0,1 S",
    ),
];

/// Depth each position is searched to.
pub(crate) const DEFAULT_DEPTH: u32 = 8;
/// Table size for each bench search, in MB.
const BENCH_HASH_MB: usize = 16;

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Depth to search each position to
    #[arg(long, default_value_t = DEFAULT_DEPTH, conflicts_with = "playouts", value_parser = crate::cli::ranges::DEPTH)]
    pub depth: u32,
    /// Also run with this many threads and report the speed-up
    #[arg(long, default_value_t = 1, value_parser = crate::cli::ranges::THREADS)]
    pub threads: usize,
    /// Benchmark random games (playouts) instead of the search: games, plies and laps
    /// per second for each variant
    #[arg(long)]
    pub playouts: bool,
    /// With --playouts: a preset or rules file (repeatable; default: every preset and
    /// reading)
    #[arg(long, value_name = "NAME|FILE", requires = "playouts")]
    pub variant: Vec<String>,
    /// With --playouts: random games per variant
    #[arg(long, default_value_t = 10_000, requires = "playouts", value_parser = crate::cli::ranges::GAMES)]
    pub games: u64,
    /// With --playouts: plies after which a random game stops undecided
    #[arg(long = "max-plies", default_value_t = isolo_engine::search::mcts::DEFAULT_PLAYOUT_PLIES, requires = "playouts", value_parser = crate::cli::ranges::PLAYOUT_PLIES)]
    pub max_plies: u32,
    /// With --playouts: master seed of the random games
    #[arg(long, default_value_t = 1, requires = "playouts", value_parser = crate::cli::ranges::SEED)]
    pub seed: u64,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// What a pass over the bench set added up to.
#[derive(Clone, Copy, Debug, Default)]
struct SetRun {
    /// Positions searched to the end (all of them unless Ctrl-C came).
    positions: usize,
    nodes: u64,
    time: Duration,
}

/// Total nodes and time over the bench set with `threads` threads, calling `done` after
/// each position; Ctrl-C ends it after the positions searched so far.
fn run_set_reporting(depth: u32, threads: usize, done: &mut dyn FnMut()) -> SetRun {
    let stop = crate::cli::interrupt::flag();
    let mut run = SetRun::default();
    for (preset, text) in POSITIONS {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let variant = Variant::load(preset).expect("bench presets load");
        let board = variant.parse_position(text).expect("bench positions parse");
        let mut searcher = AlphaBeta::new(AlphaBetaConfig {
            threads,
            hash_mb: BENCH_HASH_MB,
            ..AlphaBetaConfig::default()
        })
        .expect("a 16 MB table allocates");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let request = SearchRequest {
            variant: &variant,
            board,
            history: Vec::new(),
            quiet_plies: 0,
            limits,
            multipv: 1,
            pv_lines: usize::MAX,
            stop: Some(stop),
        };
        let started = Instant::now();
        let result = searcher.search(&request, &mut |_| {});
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break; // (a search cut short is not counted)
        }
        run.time += started.elapsed();
        run.nodes += result.nodes;
        run.positions += 1;
        done();
    }
    run
}

pub(crate) fn run(args: &BenchArgs) -> CliResult {
    let threads = crate::cli::ranges::search_threads("--threads", args.threads);
    if args.playouts {
        return playouts::run(&playouts::PlayoutBench {
            variants: &args.variant,
            games: args.games,
            max_plies: args.max_plies,
            threads,
            seed: args.seed,
            json: args.json,
        });
    }
    let runs = if threads > 1 { 2 } else { 1 };
    let bar = super::progress((runs * POSITIONS.len()) as u64, "positions");
    let single = run_set_reporting(args.depth, 1, &mut || bar.inc(1));
    let parallel = (threads > 1 && single.positions == POSITIONS.len())
        .then(|| run_set_reporting(args.depth, threads, &mut || bar.inc(1)));
    bar.finish_and_clear();
    let interrupted = crate::cli::interrupt::requested();
    let shown = if args.json {
        emit_json(&bench_json(
            args.depth,
            threads,
            single,
            parallel,
            interrupted,
        ))
    } else {
        emit(&bench_text(
            args.depth,
            threads,
            single,
            parallel,
            interrupted,
        ))
    };
    if interrupted {
        crate::cli::interrupt::exit("the same command runs the bench again");
    }
    shown
}

/// The parallel pass's time over the single thread's, where both searched every position.
fn time_ratio(single: SetRun, parallel: SetRun) -> Option<f64> {
    (parallel.positions == single.positions)
        .then(|| parallel.time.as_secs_f64() / single.time.as_secs_f64().max(1e-9))
}

fn bench_json(
    depth: u32,
    threads: usize,
    single: SetRun,
    parallel: Option<SetRun>,
    interrupted: bool,
) -> serde_json::Value {
    let mut value = json!({
        "positions": single.positions,
        "depth": depth,
        "nodes": single.nodes,
        "time_ms": single.time.as_millis() as u64,
        "nps": nodes_per_second(single.nodes, single.time),
    });
    if let Some(p) = parallel {
        value["parallel"] = json!({
            "threads": threads,
            "positions": p.positions,
            "nodes": p.nodes,
            "time_ms": p.time.as_millis() as u64,
            "nps": nodes_per_second(p.nodes, p.time),
            "time_ratio": time_ratio(single, p),
        });
    }
    if interrupted {
        value["interrupted"] = json!(true);
    }
    value
}

fn bench_text(
    depth: u32,
    threads: usize,
    single: SetRun,
    parallel: Option<SetRun>,
    interrupted: bool,
) -> String {
    let mut out = String::new();
    if interrupted {
        out.push_str(&format!(
            "interrupted: {} of {} positions searched on 1 thread{}; their nodes are not the signature\n",
            single.positions,
            POSITIONS.len(),
            match parallel {
                Some(p) => format!(", {} on {threads}", p.positions),
                None => String::new(),
            }
        ));
    }
    out.push_str(&format!(
        "{} positions, depth {depth}, 1 thread\nnodes {}\ntime {} ms\nnps {}\n",
        single.positions,
        single.nodes,
        single.time.as_millis(),
        nodes_per_second(single.nodes, single.time)
    ));
    if let Some(p) = parallel {
        out.push_str(&format!(
            "{} threads: nodes {}  time {} ms  nps {}{}\n",
            threads,
            p.nodes,
            p.time.as_millis(),
            nodes_per_second(p.nodes, p.time),
            time_ratio(single, p)
                .map(|r| format!("  time ratio {r:.2} (vs 1 thread)"))
                .unwrap_or_default()
        ));
    }
    out
}
