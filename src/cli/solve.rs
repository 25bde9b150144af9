//! `isolo-ai solve`: proves the value of a position (win or loss in exactly N plies, or
//! unknown within the limits).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::analyze::MAX_THREADS;
use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use isolo_engine::prove::alphabeta::{Prover, Verdict};
use isolo_engine::prove::certificate::{Certificate, CheckedProof, DrawCertificate, Proof};
use isolo_engine::prove::dfpn::{self, DfpnLimits, DfpnProgress, DfpnVerdict};
use isolo_engine::prove::retrograde::{self, RetroLimits, RetroVerdict};
use isolo_engine::search::Progress;
use isolo_rules::{Board, Move, Side, Variant};

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
    /// Search threads (Lazy SMP for the alpha-beta prover, agents on one table for df-pn)
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
    /// Replay the line and check every alternative defence, and that the length is exact
    #[arg(long)]
    pub verify: bool,
    /// The prover: ab (iterative-deepening alpha-beta: exact lengths), dfpn
    /// (proof-number search: deep wins and losses, no length), retro (retrograde
    /// analysis of the reachable positions, as many as --hash holds: draws, and exact
    /// values of small games), indexed (the same over arrays indexed by seed
    /// distribution, a position and its exchange counted once: an eighth of retro's
    /// memory a position or less, no certificate) or
    /// auto (ab for a quarter of the time, df-pn to half of it, retro with the rest)
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    /// Positions df-pn expands at most (default: no limit but the time)
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// After a df-pn proof, find its exact length with the alpha-beta prover (up to
    /// --max-plies, at most 100, in the time left)
    #[arg(long = "exact-length")]
    pub exact_length: bool,
    /// What df-pn looks for (--method dfpn): either result (a win for the side to
    /// move, then a loss, half the time each), or only a win or only a loss, with all
    /// the time and table; an unknown then says nothing of the other
    #[arg(long, value_enum, default_value_t = Prove::Either)]
    pub prove: Prove,
    /// Write the proof to FILE (gzip-compressed if it ends in .gz) and check it, as
    /// check-proof does
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Keep df-pn's tables in FILE: continue the search saved there, and save it
    /// there when this run ends (time, node limit or Ctrl-C) without a proof
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The position to prove and the game that led to it.
struct Root {
    start: Board,
    board: Board,
    history: Vec<u64>,
    moves: Vec<Move>,
}

impl Root {
    /// The certificate of a proof from this position: the game to it, the winner and
    /// its strategy.
    fn certificate(
        &self,
        variant: &Variant,
        winner: Side,
        plies: Option<u32>,
        strategy: Vec<(Board, Move)>,
    ) -> Certificate {
        Certificate {
            rules: variant.rules().clone(),
            start: self.start,
            moves: self.moves.clone(),
            winner,
            plies,
            strategy,
        }
    }
}

/// Positions past which the alpha-beta prover writes no certificate (its walk re-proves
/// every winner's position).
const AB_CERTIFICATE_CAP: usize = 2_000_000;

/// Which prover `solve` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// The iterative-deepening alpha-beta prover.
    Ab,
    /// Depth-first proof-number search.
    Dfpn,
    /// Retrograde analysis of the reachable positions (draws; small games exactly).
    Retro,
    /// Retrograde analysis over arrays indexed by every spread of the seeds: an eighth
    /// of retro's memory a position or less, --hash MB up to 7/8 of the memory, no
    /// certificate.
    Indexed,
    /// Alpha-beta for a quarter of the time, df-pn to half of it, then retrograde.
    Auto,
}

/// The results `--method dfpn` looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Prove {
    /// A win for the side to move, then a loss, with half the time each.
    Either,
    /// A win for the side to move only, with all the time and table.
    Win,
    /// A loss for the side to move (its opponent's win) only.
    Loss,
}

impl From<Prove> for dfpn::Sought {
    fn from(prove: Prove) -> dfpn::Sought {
        match prove {
            Prove::Either => dfpn::Sought::Either,
            Prove::Win => dfpn::Sought::Win,
            Prove::Loss => dfpn::Sought::Loss,
        }
    }
}

/// The deepest line df-pn follows (`--max-plies` for it).
pub const DFPN_MAX_PLIES: u32 = 10_000;

/// The time `solve` takes at most unless told otherwise: a minute.
pub const DEFAULT_SOLVE_TIME_MS: u64 = 60_000;

pub fn run(args: &SolveArgs) -> CliResult {
    let (variant, start) = args.position.load()?;
    let game = super::game_after(&variant, start, args.moves.as_deref())?;
    let root = Root {
        start,
        board: *game.board(),
        history: game.history(),
        moves: game.moves().to_vec(),
    };
    if args.method == Method::Indexed {
        return solve_indexed(args, &variant, &root);
    }
    super::check_threads_and_hash(args.threads, MAX_THREADS, args.hash)?;
    let most = match args.method {
        Method::Ab => isolo_engine::search::alphabeta::MAX_DEPTH,
        Method::Dfpn | Method::Retro | Method::Indexed | Method::Auto => DFPN_MAX_PLIES,
    };
    if !(1..=most).contains(&args.max_plies) {
        return Err(CliError(format!(
            "--max-plies: must be 1..={most} with --method {}",
            method_name(args.method)
        )));
    }
    if args.nodes == Some(0) {
        return Err(CliError("--nodes: must be at least 1".into()));
    }
    if args.method == Method::Retro && args.nodes.is_some() {
        return Err(CliError(
            "--nodes limits df-pn; retrograde analysis is bounded by --hash and --time-ms".into(),
        ));
    }
    if !matches!(args.method, Method::Dfpn | Method::Auto) && args.resume.is_some() {
        return Err(CliError(
            "--resume keeps df-pn's tables: it needs --method dfpn or auto".into(),
        ));
    }
    if args.method != Method::Dfpn && args.prove != Prove::Either {
        return Err(CliError(
            "--prove win|loss chooses df-pn's search: it needs --method dfpn".into(),
        ));
    }
    if args.method == Method::Ab && (args.nodes.is_some() || args.exact_length) {
        return Err(CliError(
            "--nodes and --exact-length are for df-pn (--method dfpn or auto); the alpha-beta prover's lengths are exact already".into(),
        ));
    }
    let started = std::time::Instant::now();
    let time = (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms));
    let ab_plies = args
        .max_plies
        .min(isolo_engine::search::alphabeta::MAX_DEPTH);
    let left = |share: u32| time.map(|t| (t / share).saturating_sub(started.elapsed()));
    let mut before = None;
    if matches!(args.method, Method::Ab | Method::Auto) {
        let ab_time = if args.method == Method::Ab {
            time
        } else {
            left(4)
        };
        before = solve_ab(args, &variant, &root, ab_plies, ab_time)?;
        if before.is_none() {
            return Ok(());
        }
    }
    if matches!(args.method, Method::Dfpn | Method::Auto) {
        let dfpn_time = if args.method == Method::Dfpn {
            left(1)
        } else {
            left(2)
        };
        before = solve_dfpn(args, &variant, &root, dfpn_time, before)?;
        if before.is_none() {
            return Ok(());
        }
    }
    solve_retro(args, &variant, &root, left(1), before)
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Ab => "ab",
        Method::Dfpn => "dfpn",
        Method::Retro => "retro",
        Method::Indexed => "indexed",
        Method::Auto => "auto",
    }
}

/// The alpha-beta prover's result, shown unless it is unknown and df-pn is to follow:
/// then why it found nothing is returned, for df-pn's report.
fn solve_ab(
    args: &SolveArgs,
    variant: &Variant,
    root: &Root,
    max_plies: u32,
    time: Option<Duration>,
) -> Result<Option<String>, CliError> {
    let mut prover = Prover::new(variant, args.threads, args.hash)
        .map_err(|e| CliError(format!("--hash: {e}")))?;
    let mut report = |p: &Progress| {
        eprintln!(
            "depth {:3}  {}  nodes {}  time {} ms",
            p.depth,
            match p.score {
                isolo_engine::search::Score::Win(_) | isolo_engine::search::Score::Loss(_) =>
                    p.score.to_string(),
                _ => "no proof yet".to_string(),
            },
            p.nodes,
            p.time.as_millis()
        )
    };
    let (board, history) = (&root.board, &root.history);
    let solution = prover.solve_reporting(board, history, max_plies, time, &mut report);
    let proven = solution.verdict != Verdict::Unknown;
    if !proven && args.method == Method::Auto {
        let why = unknown_text(&solution, max_plies);
        eprintln!("alpha-beta: {}; df-pn next", why.trim_end());
        return Ok(Some(why));
    }
    let (proof_size, certificate) = match &args.certificate {
        Some(_) => {
            let proof = prover.proof(board, history, solution.verdict, AB_CERTIFICATE_CAP);
            let size = proof.as_ref().map(|p| p.positions);
            let strategy = proof.map(|p| p.strategy).ok_or(format!(
                "the proof has over {AB_CERTIFICATE_CAP} positions, too many for the alpha-beta prover to write (--method dfpn writes larger ones)"
            ));
            let (winner, plies) = match solution.verdict {
                Verdict::Win(p) => (Some(board.to_move()), Some(p)),
                Verdict::Loss(p) => (Some(board.to_move().opponent()), Some(p)),
                Verdict::Unknown => (None, None),
            };
            (
                size,
                Some(certify(args, variant, root, winner, plies, strategy)?),
            )
        }
        None => (
            prover.proof_size(board, history, solution.verdict, PROOF_SIZE_CAP),
            None,
        ),
    };
    let verified = (args.verify && proven)
        .then(|| prover.verify(board, history, solution.verdict, &solution.pv));
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
            "method": "ab",
            "proof_size": proof_size,
            "certificate": certificate.as_ref().map(|c| &c.json),
            "verified": verified.as_ref().map(|v| v.is_ok()),
            "verify_error": match &verified {
                Some(Err(e)) => Some(e.clone()),
                None if args.verify => Some(NOTHING_TO_VERIFY.to_string()),
                _ => None,
            },
        }))
        .map(|()| None);
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
        Verdict::Unknown => unknown_text(&solution, max_plies),
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
    if let Some(c) = &certificate {
        out.push_str(&c.text);
    }
    match &verified {
        Some(Ok(())) => out.push_str("verified: the line is legal, every defence along it loses in time, and the length is exact\n"),
        Some(Err(e)) => return Err(CliError(format!("verification failed: {e}"))),
        None if args.verify => out.push_str(&format!("not verified: {NOTHING_TO_VERIFY}\n")),
        None => {}
    }
    emit(&out).map(|()| None)
}

/// Why the alpha-beta prover found nothing.
fn unknown_text(solution: &isolo_engine::prove::alphabeta::Solution, max_plies: u32) -> String {
    if solution.depth < max_plies {
        format!(
            "unknown: time ran out at depth {} of {} (no proof that short)\n",
            solution.depth, max_plies
        )
    } else {
        format!("unknown: no proof within {}\n", plies_text(max_plies))
    }
}

/// Proves with df-pn (and, with `--exact-length`, finds a proof's length), and shows it;
/// `before` says why the alpha-beta prover found nothing, where it ran first.
fn solve_dfpn(
    args: &SolveArgs,
    variant: &Variant,
    root: &Root,
    time: Option<Duration>,
    before: Option<String>,
) -> Result<Option<String>, CliError> {
    let limits = DfpnLimits {
        nodes: args.nodes.unwrap_or(u64::MAX),
        time,
        max_depth: args.max_plies,
        table_entries: (args.hash << 20) / dfpn::BYTES_PER_ENTRY,
        strategy: args.certificate.is_some(),
        threads: args.threads,
        interrupt: Some(super::interrupt::flag()),
        sought: args.prove.into(),
    };
    let (board, history) = (&root.board, &root.history);
    let report = |p: &DfpnProgress| {
        let shown = |n: Option<u64>| n.map_or("inf".to_string(), |n| n.to_string());
        eprintln!(
            "df-pn, {} attacking: nodes {}  root proof {} disproof {}  table {} entries of {} ({}%)",
            p.attacker,
            p.nodes,
            shown(p.proof),
            shown(p.disproof),
            p.table_entries,
            p.table_slots,
            p.table_entries * 100 / p.table_slots.max(1)
        )
    };
    let started = std::time::Instant::now();
    let digest = search_digest(variant, root, args.max_plies);
    let mut state = match &args.resume {
        Some(path) if path.exists() => load_state(path, &digest)?,
        _ => dfpn::DfpnState::default(),
    };
    let result = dfpn::solve_from(variant, board, history, limits, &report, &mut state);
    if let Some(path) = &args.resume {
        save_state(path, &state, &digest, result.verdict)?;
    }
    let interrupted = super::interrupt::flag().load(std::sync::atomic::Ordering::Relaxed);
    if result.verdict == DfpnVerdict::Unknown && args.method == Method::Auto && !interrupted {
        let mut why = before.unwrap_or_default();
        why.push_str(&dfpn_unknown_text(&result, args.max_plies, args.prove));
        eprintln!("df-pn: no proof; retrograde analysis next");
        return Ok(Some(why));
    }
    let length = match result.verdict {
        DfpnVerdict::Unknown => None,
        _ if args.exact_length => {
            let left = time.map(|t| t.saturating_sub(started.elapsed()));
            let plies = args
                .max_plies
                .min(isolo_engine::search::alphabeta::MAX_DEPTH);
            let mut prover = Prover::new(variant, args.threads, args.hash)
                .map_err(|e| CliError(format!("--hash: {e}")))?;
            match prover.solve(board, history, plies, left).verdict {
                Verdict::Win(p) | Verdict::Loss(p) => Some(p),
                Verdict::Unknown => None,
            }
        }
        _ => None,
    };
    let certificate = match &args.certificate {
        Some(_) => {
            let winner = match result.verdict {
                DfpnVerdict::Win => Some(board.to_move()),
                DfpnVerdict::Loss => Some(board.to_move().opponent()),
                DfpnVerdict::Unknown => None,
            };
            let strategy = result.strategy.clone().unwrap_or(Ok(Vec::new()));
            Some(certify(args, variant, root, winner, length, strategy)?)
        }
        None => None,
    };
    let secs = result.time.as_secs_f64();
    let nps = if secs > 0.0 {
        (result.nodes as f64 / secs) as u64
    } else {
        0
    };
    let name = match result.verdict {
        DfpnVerdict::Win => "win",
        DfpnVerdict::Loss => "loss",
        DfpnVerdict::Unknown => "unknown",
    };
    let verify_error = args.verify.then_some(match result.verdict {
        DfpnVerdict::Unknown => NOTHING_TO_VERIFY,
        _ => "df-pn gives no line to verify (the alpha-beta prover does: --method ab)",
    });
    if args.json {
        return emit_json(&json!({
            "result": name,
            "plies": length,
            "length_exact": length.is_some(),
            "best_move": result.best_move.as_ref().map(|m| m.to_string()),
            "pv": Vec::<String>::new(),
            "nodes": result.nodes,
            "nps": nps,
            "time_ms": result.time.as_millis() as u64,
            "method": "dfpn",
            "sought": args.prove.to_possible_value().map(|v| v.get_name().to_string()),
            "alpha_beta": before.as_deref().map(str::trim_end),
            "table_entries": result.table_entries,
            "certificate": certificate.as_ref().map(|c| &c.json),
            "verified": args.verify.then_some(false),
            "verify_error": verify_error,
        }))
        .map(|()| None);
    }
    let side = board.to_move();
    let length_text = match (length, args.exact_length) {
        (Some(p), _) => format!(
            "in {} (the alpha-beta prover's exact length)",
            plies_text(p)
        ),
        (None, true) => "(its length not found within the time left)".to_string(),
        (None, false) => "(length not computed: --exact-length finds it)".to_string(),
    };
    let mut out = before.unwrap_or_default();
    out.push_str(&match result.verdict {
        DfpnVerdict::Win => format!("win for {side} (to move), proven by df-pn, {length_text}\n"),
        DfpnVerdict::Loss => format!("loss for {side} (to move), proven by df-pn, {length_text}\n"),
        DfpnVerdict::Unknown => dfpn_unknown_text(&result, args.max_plies, args.prove),
    });
    if let Some(best) = &result.best_move {
        out.push_str(&format!("best move {best}\n"));
    }
    out.push_str(&format!(
        "nodes {}  nps {nps}  time {} ms  table {} entries\n",
        result.nodes,
        result.time.as_millis(),
        result.table_entries
    ));
    if let Some(c) = &certificate {
        out.push_str(&c.text);
    }
    if let Some(e) = verify_error {
        out.push_str(&format!("not verified: {e}\n"));
    }
    emit(&out).map(|()| None)
}

/// What a saved df-pn search was searching: its rules, position, game and line limit.
fn search_digest(variant: &Variant, root: &Root, max_plies: u32) -> String {
    let history: Vec<String> = root.history.iter().map(|h| format!("{h:x}")).collect();
    let text = format!(
        "{}\n{}\n{}\n{max_plies}",
        variant.rules().to_toml(),
        variant.format_position(&root.board),
        history.join(",")
    );
    isolo_engine::matches::records::fingerprint_of(&text)
}

fn load_state(path: &std::path::Path, digest: &str) -> Result<dfpn::DfpnState, CliError> {
    let fail = |e: String| CliError(format!("--resume {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let state = dfpn::DfpnState::load(&mut std::io::BufReader::new(file), digest).map_err(fail)?;
    eprintln!(
        "df-pn: resuming from {} ({} table entries)",
        path.display(),
        state.entries()
    );
    Ok(state)
}

/// Saves the search (through a temporary file, so an interrupted save loses nothing).
fn save_state(
    path: &std::path::Path,
    state: &dfpn::DfpnState,
    digest: &str,
    verdict: DfpnVerdict,
) -> CliResult {
    let fail =
        |e: std::io::Error| CliError(format!("--resume {}: cannot save: {e}", path.display()));
    let partial = path.with_extension("partial");
    let file = std::fs::File::create(&partial).map_err(fail)?;
    state
        .save(&mut std::io::BufWriter::new(file), digest)
        .map_err(fail)?;
    std::fs::rename(&partial, path).map_err(fail)?;
    let next = match verdict {
        DfpnVerdict::Unknown => "; run the same command again to continue",
        _ => "",
    };
    eprintln!(
        "df-pn: search saved to {} ({} table entries){next}",
        path.display(),
        state.entries()
    );
    Ok(())
}

/// Why df-pn proved nothing, looking for `prove`.
fn dfpn_unknown_text(result: &dfpn::DfpnResult, max_plies: u32, prove: Prove) -> String {
    let (unproven, unwon, not_sought) = match prove {
        Prove::Either => ("no proof", "no win for either side", ""),
        Prove::Win => (
            "no win for the side to move",
            "no win for the side to move",
            "; a loss was not looked for",
        ),
        Prove::Loss => (
            "no loss for the side to move",
            "no win for its opponent",
            "; a win was not looked for",
        ),
    };
    if result.out_of_budget {
        format!("unknown: df-pn found {unproven} before its time or node limit{not_sought}\n")
    } else {
        format!(
            "unknown: df-pn found {unwon} (lines of at most {}, a repetition counting as no win){not_sought}\n",
            plies_text(max_plies)
        )
    }
}

/// Proves by retrograde analysis (and, with `--exact-length`, finds a win's length);
/// `before` says why the provers before it found nothing.
fn solve_retro(
    args: &SolveArgs,
    variant: &Variant,
    root: &Root,
    time: Option<Duration>,
    before: Option<String>,
) -> CliResult {
    // Its wins ignore the game before the root; where there is one, the win is kept
    // only if its strategy checks against that game.
    let limits = RetroLimits {
        positions: (args.hash << 20) / retrograde::BYTES_PER_POSITION,
        time,
        strategy: args.certificate.is_some() || !root.history.is_empty(),
    };
    let board = &root.board;
    let mut result = retrograde::solve(variant, board, limits);
    if !root.history.is_empty() && !retro_win_holds(variant, root, &result) {
        result.verdict = RetroVerdict::Unknown;
        result.strategy = None;
    }
    let name = retro_verdict_name(result.verdict);
    let winner = match result.verdict {
        RetroVerdict::Win => Some(board.to_move()),
        RetroVerdict::Loss => Some(board.to_move().opponent()),
        RetroVerdict::Draw | RetroVerdict::Unknown => None,
    };
    let length = match winner {
        Some(_) if args.exact_length => {
            let plies = args
                .max_plies
                .min(isolo_engine::search::alphabeta::MAX_DEPTH);
            let mut prover = Prover::new(variant, args.threads, args.hash)
                .map_err(|e| CliError(format!("--hash: {e}")))?;
            match prover.solve(board, &root.history, plies, None).verdict {
                Verdict::Win(p) | Verdict::Loss(p) => Some(p),
                Verdict::Unknown => None,
            }
        }
        _ => None,
    };
    let certificate = match &args.certificate {
        Some(path) if result.verdict == RetroVerdict::Draw => {
            let holds = result
                .holds
                .clone()
                .expect("a draw's strategies were asked for");
            Some(certify_draw(path, variant, root, holds)?)
        }
        Some(_) => {
            let strategy = result.strategy.clone().unwrap_or_default();
            Some(certify(args, variant, root, winner, length, Ok(strategy))?)
        }
        None => None,
    };
    let scope = if result.complete {
        format!("all {} reachable positions", result.expanded)
    } else {
        format!(
            "{} positions listed, {} more reached",
            result.expanded, result.frontier
        )
    };
    let verify_error = args.verify.then_some(match result.verdict {
        RetroVerdict::Unknown => NOTHING_TO_VERIFY,
        _ => {
            "retrograde analysis gives no line to verify (the alpha-beta prover does: --method ab)"
        }
    });
    if args.json {
        return emit_json(&json!({
            "result": name,
            "plies": length,
            "length_exact": length.is_some(),
            "best_move": Option::<String>::None,
            "pv": Vec::<String>::new(),
            "nodes": result.expanded,
            "verified": args.verify.then_some(false),
            "verify_error": verify_error,
            "positions": result.expanded,
            "frontier": result.frontier,
            "complete": result.complete,
            "time_ms": result.time.as_millis() as u64,
            "method": "retro",
            "earlier_provers": before.as_deref().map(str::trim_end),
            "certificate": certificate.as_ref().map(|c| &c.json),
        }));
    }
    let side = board.to_move();
    let length_text = match length {
        Some(p) => format!("in {}", plies_text(p)),
        None => "(length not computed: --exact-length finds it)".into(),
    };
    let mut out = before.unwrap_or_default();
    out.push_str(&match result.verdict {
        RetroVerdict::Win => {
            format!("win for {side} (to move), proven by retrograde analysis, {length_text}\n")
        }
        RetroVerdict::Loss => {
            format!("loss for {side} (to move), proven by retrograde analysis, {length_text}\n")
        }
        RetroVerdict::Draw => "draw: neither side can force a win (retrograde analysis)\n".into(),
        RetroVerdict::Unknown => {
            "unknown: retrograde analysis proves nothing from the positions it listed\n".into()
        }
    });
    out.push_str(&format!("{scope}  time {} ms\n", result.time.as_millis()));
    if let Some(c) = &certificate {
        out.push_str(&c.text);
    }
    if let Some(e) = verify_error {
        out.push_str(&format!("not verified: {e}\n"));
    }
    emit(&out)
}

/// A retrograde verdict as the JSON's `result` names it.
fn retro_verdict_name(verdict: RetroVerdict) -> &'static str {
    match verdict {
        RetroVerdict::Win => "win",
        RetroVerdict::Loss => "loss",
        RetroVerdict::Draw => "draw",
        RetroVerdict::Unknown => "unknown",
    }
}

/// The share of the machine's memory `--method indexed` may take (its arrays are its
/// whole cost, and nothing else runs beside it).
const INDEXED_MEMORY_SHARE: (u64, u64) = (7, 8);

/// Proves by retrograde analysis over an index of every seed distribution.
fn solve_indexed(args: &SolveArgs, variant: &Variant, root: &Root) -> CliResult {
    let most_mb = isolo_engine::search::tt::physical_memory_mb()
        .map(|mb| mb * INDEXED_MEMORY_SHARE.0 / INDEXED_MEMORY_SHARE.1)
        .unwrap_or(isolo_engine::search::tt::max_table_mb() as u64);
    if args.hash == 0 || args.hash as u64 > most_mb {
        return Err(CliError(format!(
            "--hash: the indexed analysis may take 1..={most_mb} MB here, found {}",
            args.hash
        )));
    }
    let refused = [
        (
            args.threads != 1,
            "--threads (it lists moves on every core)",
        ),
        (args.nodes.is_some(), "--nodes"),
        (args.exact_length, "--exact-length"),
        (args.verify, "--verify"),
        (args.resume.is_some(), "--resume"),
        (
            args.certificate.is_some(),
            "--certificate (use --method retro, whose proofs come with one)",
        ),
        (
            !root.moves.is_empty(),
            "--moves (its wins ignore the game before the position: give --position)",
        ),
    ];
    if let Some((_, flag)) = refused.iter().find(|(bad, _)| *bad) {
        return Err(CliError(format!("--method indexed takes no {flag}")));
    }
    let limits = retrograde::indexed::IndexedLimits {
        memory: (args.hash as u64) << 20,
        time: (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms)),
        scratch: std::env::temp_dir(),
        sweeps_only: false,
        interrupt: Some(super::interrupt::flag()),
    };
    let report = |p: &retrograde::indexed::IndexedProgress| {
        let sweep = match p.sweep {
            (0, _) => String::new(),
            (n, added) => format!(" {n} ({added} labels added)"),
        };
        eprintln!(
            "indexed retrograde: {}{sweep}: {} positions reached, {} moves, {:.1} s",
            p.stage,
            p.reached,
            p.edges,
            p.time.as_secs_f64()
        )
    };
    let board = &root.board;
    let result = retrograde::indexed::solve(variant, board, &limits, &report)
        .map_err(|e| CliError(format!("--method indexed: {e}")))?;
    let name = retro_verdict_name(result.verdict);
    if args.json {
        return emit_json(&json!({
            "result": name,
            "plies": Option::<u32>::None,
            "length_exact": false,
            "best_move": Option::<String>::None,
            "pv": Vec::<String>::new(),
            "nodes": result.reached,
            "positions": result.reached,
            "moves_listed": result.edges,
            "index_size": result.index_size,
            "cut_lists": result.cut,
            "sweeps": result.sweeps,
            "complete": result.complete,
            "stopped": result.stopped,
            "time_ms": result.time.as_millis() as u64,
            "method": "indexed",
        }));
    }
    let side = board.to_move();
    let mut out = match result.verdict {
        RetroVerdict::Win => format!(
            "win for {side} (to move), proven by retrograde analysis (length not computed)\n"
        ),
        RetroVerdict::Loss => format!(
            "loss for {side} (to move), proven by retrograde analysis (length not computed)\n"
        ),
        RetroVerdict::Draw => "draw: neither side can force a win (retrograde analysis)\n".into(),
        RetroVerdict::Unknown => format!(
            "unknown: {}\n",
            result.stopped.as_deref().unwrap_or("no verdict")
        ),
    };
    out.push_str(&format!(
        "{} positions reached of the index' {} (a position and its exchange counted once), {} moves listed  time {} ms\n",
        result.reached,
        result.index_size,
        result.edges,
        result.time.as_millis()
    ));
    emit(&out)
}

/// Whether a retrograde win or loss (anything else passes) holds after the game
/// before the root: its strategy, checked as a certificate would be.
fn retro_win_holds(variant: &Variant, root: &Root, result: &retrograde::RetroResult) -> bool {
    let winner = match result.verdict {
        RetroVerdict::Win => root.board.to_move(),
        RetroVerdict::Loss => root.board.to_move().opponent(),
        _ => return true,
    };
    let strategy = result.strategy.clone().unwrap_or_default();
    isolo_engine::prove::certificate::check(&root.certificate(variant, winner, None, strategy))
        .is_ok()
}

/// A certificate as shown: a line of text and the JSON object.
struct Certified {
    text: String,
    json: serde_json::Value,
}

/// Writes the certificate of a proven draw and checks the file written.
fn certify_draw(
    path: &std::path::Path,
    variant: &Variant,
    root: &Root,
    holds: [isolo_engine::prove::retrograde::Holding; 2],
) -> Result<Certified, CliError> {
    let proof = Proof::Draw(DrawCertificate {
        rules: variant.rules().clone(),
        start: root.start,
        moves: root.moves.clone(),
        holds,
    });
    let CheckedProof::Draw(checked) = super::check_proof::write_checked(path, &proof)? else {
        return Err(read_back_as_other_kind(path));
    };
    let what = format!(
        "South holds {} positions, North {}",
        checked.positions[0], checked.positions[1]
    );
    Ok(certified(
        path,
        super::check_proof::draw_json(&checked),
        what,
    ))
}

/// A certificate file read back as the other kind than written (a bug).
fn read_back_as_other_kind(path: &std::path::Path) -> CliError {
    CliError(format!(
        "internal error (please report): --certificate {} reads back as another kind of proof",
        path.display()
    ))
}

/// A certificate written and checked, as shown: `json` with the file's path and size,
/// and a line saying `what` was checked.
fn certified(path: &std::path::Path, mut json: serde_json::Value, what: String) -> Certified {
    let bytes = super::check_proof::file_bytes(path);
    json["path"] = json!(path.display().to_string());
    json["bytes"] = json!(bytes);
    Certified {
        text: format!(
            "certificate {} ({bytes} bytes), checked: {what}\n",
            path.display()
        ),
        json,
    }
}

/// Writes the certificate of a proven result (`winner`: `None` for an unknown result,
/// which has none) and checks the file written, as check-proof does.
fn certify(
    args: &SolveArgs,
    variant: &Variant,
    root: &Root,
    winner: Option<Side>,
    plies: Option<u32>,
    strategy: Result<Vec<(Board, Move)>, String>,
) -> Result<Certified, CliError> {
    let path = args
        .certificate
        .as_deref()
        .expect("asked for a certificate");
    let Some(winner) = winner else {
        return Ok(Certified {
            text: "no certificate: the result is unknown\n".into(),
            json: serde_json::Value::Null,
        });
    };
    let strategy = strategy.map_err(|e| CliError(format!("--certificate: not written: {e}")))?;
    let proof = Proof::Win(root.certificate(variant, winner, plies, strategy));
    let CheckedProof::Win(checked) = super::check_proof::write_checked(path, &proof)? else {
        return Err(read_back_as_other_kind(path));
    };
    let what = format!(
        "{} winner's moves, {} positions, won within {}",
        checked.winner_positions,
        checked.positions,
        plies_text(checked.depth)
    );
    Ok(certified(
        path,
        super::check_proof::checked_json(&checked),
        what,
    ))
}
