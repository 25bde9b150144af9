//! `isolo-ai solve`: proves the value of a position (win or loss in exactly N plies, or
//! unknown within the limits).

use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::analyze::{position_with_history, MAX_THREADS};
use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use isolo_ai::search::Progress;
use isolo_ai::solve::{Prover, Verdict};

fn plies_text(n: u32) -> String {
    super::plural(n as u64, "ply", "plies")
}

/// Why `--verify` checks nothing on an unknown result.
const NOTHING_TO_VERIFY: &str = "the result is unknown, so there is no proof to verify";

/// Positions past which the proof's size is not counted.
const PROOF_SIZE_CAP: usize = 200_000;

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first (their positions count for repetitions)
    #[arg(long, value_name = "\"M1 M2 ...\"")]
    pub moves: Option<String>,
    /// Longest result looked for, in plies
    #[arg(long = "max-plies", default_value_t = 30)]
    pub max_plies: u32,
    /// Give up after this many milliseconds (result unknown); 0: no time limit
    #[arg(long = "time-ms", default_value_t = DEFAULT_SOLVE_TIME_MS)]
    pub time_ms: u64,
    /// Search threads (Lazy SMP)
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
    /// Replay the line and check every alternative defence, and that the length is exact
    #[arg(long)]
    pub verify: bool,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The time `solve` takes at most unless told otherwise: a minute.
pub const DEFAULT_SOLVE_TIME_MS: u64 = 60_000;

pub fn run(args: &SolveArgs) -> CliResult {
    let (variant, start) = args.position.load()?;
    let (board, history) = position_with_history(&variant, start, args.moves.as_deref())?;
    super::check_threads_and_hash(args.threads, MAX_THREADS, args.hash)?;
    if !(1..=isolo_ai::search::alphabeta::MAX_DEPTH).contains(&args.max_plies) {
        return Err(CliError(format!(
            "--max-plies: must be 1..={}",
            isolo_ai::search::alphabeta::MAX_DEPTH
        )));
    }
    let mut prover = Prover::new(&variant, args.threads, args.hash)
        .map_err(|e| CliError(format!("--hash: {e}")))?;
    let time = (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms));
    let mut report = |p: &Progress| {
        eprintln!(
            "depth {:3}  {}  nodes {}  time {} ms",
            p.depth,
            match p.score {
                isolo_ai::search::Score::Win(_) | isolo_ai::search::Score::Loss(_) =>
                    p.score.to_string(),
                _ => "no proof yet".to_string(),
            },
            p.nodes,
            p.time.as_millis()
        )
    };
    let solution = prover.solve_reporting(&board, &history, args.max_plies, time, &mut report);
    let proof_size = prover.proof_size(&board, &history, solution.verdict, PROOF_SIZE_CAP);
    let proven = solution.verdict != Verdict::Unknown;
    let verified = (args.verify && proven)
        .then(|| prover.verify(&board, &history, solution.verdict, &solution.pv));
    let (result, plies) = match solution.verdict {
        Verdict::Win(p) => ("win", Some(p)),
        Verdict::Loss(p) => ("loss", Some(p)),
        Verdict::Unknown => ("unknown", None),
    };
    let secs = solution.time.as_secs_f64();
    let nps = if secs > 0.0 {
        (solution.nodes as f64 / secs) as u64
    } else {
        0
    };
    let pv: Vec<String> = solution.pv.iter().map(|m| m.to_string()).collect();
    if args.json {
        return emit_json(&json!({
            "result": result,
            "plies": plies,
            "best_move": solution.best_move.as_ref().map(|m| m.to_string()),
            "pv": pv,
            "nodes": solution.nodes,
            "nps": nps,
            "time_ms": solution.time.as_millis() as u64,
            "depth": solution.depth,
            "proof_size": proof_size,
            "verified": verified.as_ref().map(|v| v.is_ok()),
            "verify_error": match &verified {
                Some(Err(e)) => Some(e.clone()),
                None if args.verify => Some(NOTHING_TO_VERIFY.to_string()),
                _ => None,
            },
        }));
    }
    let side = board.to_move();
    let mut out = match solution.verdict {
        Verdict::Win(p) => format!("win in {} for {side} (to move)\n", plies_text(p)),
        Verdict::Loss(p) => {
            format!(
                "loss in {} for {side} (to move), the longest defence\n",
                plies_text(p)
            )
        }
        Verdict::Unknown if solution.depth < args.max_plies => format!(
            "unknown: time ran out at depth {} of {} (no proof that short)\n",
            solution.depth, args.max_plies
        ),
        Verdict::Unknown => format!("unknown: no proof within {}\n", plies_text(args.max_plies)),
    };
    if let Some(best) = &solution.best_move {
        out.push_str(&format!("best move {best}\nline {}\n", pv.join(" ")));
    }
    out.push_str(&format!(
        "nodes {}  nps {nps}  time {} ms\n",
        solution.nodes,
        solution.time.as_millis()
    ));
    match (plies, proof_size) {
        (Some(_), Some(size)) => out.push_str(&format!("proof size {size} positions\n")),
        (Some(_), None) => out.push_str(&format!("proof size over {PROOF_SIZE_CAP} positions\n")),
        _ => {}
    }
    match &verified {
        Some(Ok(())) => out.push_str("verified: the line is legal, every defence along it loses in time, and the length is exact\n"),
        Some(Err(e)) => return Err(CliError(format!("verification failed: {e}"))),
        None if args.verify => out.push_str(&format!("not verified: {NOTHING_TO_VERIFY}\n")),
        None => {}
    }
    emit(&out)
}
