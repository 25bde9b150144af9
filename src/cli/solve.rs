//! `isolo-ai solve`: proves the value of a position (win or loss in exactly N plies, or
//! unknown within the limits).

use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::analyze::{position_with_history, MAX_THREADS};
use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use crate::solve::{Prover, Verdict};

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
    /// Give up after this many milliseconds (result unknown)
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
    /// Replay the line and check every alternative defence, and that the length is exact
    #[arg(long)]
    pub verify: bool,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &SolveArgs) -> CliResult {
    let (variant, start) = args.position.load()?;
    let (board, history) = position_with_history(&variant, start, args.moves.as_deref())?;
    super::check_threads_and_hash(args.threads, MAX_THREADS, args.hash)?;
    if !(1..=crate::search::alphabeta::MAX_DEPTH).contains(&args.max_plies) {
        return Err(CliError(format!(
            "--max-plies: must be 1..={}",
            crate::search::alphabeta::MAX_DEPTH
        )));
    }
    let mut prover = Prover::new(&variant, args.threads, args.hash);
    let solution = prover.solve(
        &board,
        &history,
        args.max_plies,
        args.time_ms.map(Duration::from_millis),
    );
    let proof_size = prover.proof_size(&board, &history, solution.verdict, PROOF_SIZE_CAP);
    let verified = args
        .verify
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
            "verify_error": verified.as_ref().and_then(|v| v.as_ref().err().cloned()),
        }));
    }
    let side = board.to_move();
    let mut out = match solution.verdict {
        Verdict::Win(p) => format!("win in {p} plies for {side} (to move)\n"),
        Verdict::Loss(p) => {
            format!("loss in {p} plies for {side} (to move), the longest defence\n")
        }
        Verdict::Unknown => format!(
            "unknown: no proof within {} plies (searched to depth {})\n",
            args.max_plies, solution.depth
        ),
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
        None => {}
    }
    emit(&out)
}
