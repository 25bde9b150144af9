//! `isolo-ai perft`: leaf counts of the game tree, with timing.

use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use isolo_rules::Interrupt;
use isolo_rules::{divide_until, Divided};

/// Depth from which a count shows its progress (root moves done) on stderr.
const PROGRESS_DEPTH: u32 = 6;

#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Plies to count
    #[arg(long, value_parser = super::ranges::PERFT_DEPTH)]
    pub depth: u32,
    /// Show the count under each root move
    #[arg(long)]
    pub divide: bool,
    /// Threads to spread the root moves over
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &PerftArgs) -> CliResult {
    let (variant, board) = args.position.load()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(super::ranges::search_threads("--threads", args.threads))
        .build()
        .map_err(|e| CliError(format!("--threads: cannot start threads: {e}")))?;
    let stop = Interrupt::on_static(super::interrupt::flag());
    let started = Instant::now();
    let bar = super::progress(0, "root moves");
    let Divided {
        counts: split,
        listed_in_full,
    } = if args.depth == 0 {
        Divided {
            counts: Vec::new(),
            listed_in_full: true,
        }
    } else {
        let tick = |done: u64, total: u64| {
            if args.depth >= PROGRESS_DEPTH {
                bar.set_length(total);
                bar.set_position(done);
            }
        };
        pool.install(|| divide_until(&variant, &board, args.depth, &tick, &stop))
    };
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let counted: Vec<(&String, u64)> = split
        .iter()
        .filter_map(|(m, n)| n.map(|n| (m, n)))
        .collect();
    // Root moves the stop kept from being listed make the total a lower bound.
    let interrupted = counted.len() < split.len() || !listed_in_full;
    let root_moves = split.len();
    let nodes = if args.depth == 0 {
        1
    } else {
        counted.iter().map(|(_, n)| n).sum()
    };
    let time_ms = elapsed.as_secs_f64() * 1000.0;
    let nps = isolo_engine::search::nodes_per_second(nodes, elapsed);
    let shown = if args.json {
        let mut value = json!({
            "depth": args.depth,
            "nodes": nodes,
            "nps": nps,
            "time_ms": (time_ms * 1000.0).round() / 1000.0,
        });
        if args.divide {
            value["divide"] = counted
                .iter()
                .map(|(m, n)| json!({"move": m, "nodes": n}))
                .collect();
        }
        if interrupted {
            value["interrupted"] = json!(true);
            value["root_moves"] = json!(root_moves);
            value["root_moves_counted"] = json!(counted.len());
            value["root_moves_listed_in_full"] = json!(listed_in_full);
        }
        emit_json(&value)
    } else {
        let mut out = String::new();
        if args.divide {
            for (m, n) in &counted {
                out.push_str(&format!("{m}: {n}\n"));
            }
            out.push('\n');
        }
        if interrupted {
            let of = if listed_in_full { "" } else { "at least " };
            out.push_str(&format!(
                "interrupted: {} of {of}{root_moves} root moves counted; nodes is their sum\n",
                counted.len(),
            ));
        }
        out.push_str(&format!(
            "depth {}\nnodes {nodes}\ntime {time_ms:.3} ms\nnps {nps}\n",
            args.depth
        ));
        emit(&out)
    };
    if interrupted {
        super::interrupt::exit("a count cannot be resumed; the same command counts again");
    }
    shown
}
