//! `isolo-ai solve`: proves the value of a position (win or loss in exactly N plies, a
//! draw, or unknown within the limits). The provers and their order are the library's
//! pipeline ([`isolo_engine::prove::pipeline`]); this module checks the arguments and
//! formats the report.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use super::{emit, emit_json, CliError, CliResult, PositionArgs};
use isolo_engine::prove::certificate::{CertificateFileError, CheckedProof};
use isolo_engine::prove::dfpn::{DfpnProgress, Sought};
use isolo_engine::prove::pipeline::{
    self, plies_text, AbReport, CertificateReport, DfpnReport, DistributedReport, IndexedReport,
    Method, ProofSetting, ProvenResult, Refusal, RetroReport, Root, SolveError, SolveEvent,
    SolveReport, SolveSettings, NOTHING_TO_VERIFY, PROOF_SIZE_CAP,
};
use isolo_engine::prove::retrograde::distributed::{DistributedError, DistributedProgress};
use isolo_engine::prove::retrograde::indexed::IndexedProgress;
use isolo_engine::search::{Progress, Score};
use isolo_rules::{Side, Variant};

#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first (their positions count for repetitions)
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Longest result looked for, in plies
    #[arg(long = "max-plies", default_value_t = pipeline::DEFAULT_PROOF_PLIES, value_parser = super::ranges::PROOF_PLIES)]
    pub max_plies: u32,
    /// Give up after this many milliseconds (result unknown); 0: no time limit
    #[arg(long = "time-ms", default_value_t = pipeline::DEFAULT_TIME_MS, value_parser = super::ranges::SOLVE_TIME_MS)]
    pub time_ms: u64,
    /// Search threads (Lazy SMP for the alpha-beta prover, agents on one table for df-pn,
    /// ranks for the distributed analysis)
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
    /// Transposition table size in MB
    #[arg(long, default_value_t = pipeline::DEFAULT_HASH_MB, value_parser = super::ranges::HASH_MB)]
    pub hash: usize,
    /// Replay the line and check every alternative defence, and that the length is exact
    /// (--method distributed: check every label against its children's)
    #[arg(long)]
    pub verify: bool,
    /// The prover: ab (iterative-deepening alpha-beta: exact lengths), dfpn
    /// (proof-number search: deep wins and losses, no length), retro (retrograde
    /// analysis of the reachable positions, as many as --hash holds: draws, and exact
    /// values of small games), indexed (the same over arrays indexed by seed
    /// distribution, a position and its exchange counted once: an eighth of retro's
    /// memory a position or less, no certificate), distributed (the indexed positions
    /// dealt to --threads ranks and labelled in rounds: exact lengths, certificates of
    /// small boards) or
    /// auto (ab for a quarter of the time, df-pn to half of it, retro with the rest)
    #[arg(long, default_value = "auto", value_parser = methods())]
    pub method: Method,
    /// Positions df-pn expands at most (default: no limit but the time)
    #[arg(long, value_name = "N", value_parser = super::ranges::NODES)]
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
    /// check-proof does (--method distributed: on an index of at most 2^22 positions)
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Replace the --certificate file where it exists (refused otherwise)
    #[arg(long, requires = "certificate")]
    pub overwrite: bool,
    /// Keep df-pn's tables in FILE: continue the search saved there, and save it
    /// there when this run ends (time, node limit or Ctrl-C) without a proof. With
    /// --method distributed, a FOLDER every rank reaches: the labels are saved there
    /// every 10 minutes, when stopped and once whole, and a run finding them there
    /// resumes
    #[arg(long, value_name = "PATH")]
    pub resume: Option<PathBuf>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// `--method`: the pipeline's methods by their own names, each with its help.
fn methods() -> impl TypedValueParser<Value = Method> {
    let help = |method: Method| {
        match method {
        Method::Ab => "The iterative-deepening alpha-beta prover",
        Method::Dfpn => "Depth-first proof-number search",
        Method::Retro => "Retrograde analysis of the reachable positions (draws; small games exactly)",
        Method::Indexed => "Retrograde analysis over arrays indexed by every spread of the seeds: an eighth of retro's memory a position or less, --hash MB up to 7/8 of the memory, no certificate",
        Method::Distributed => "The indexed positions dealt to --threads ranks, labelled in rounds: exact lengths of wins and losses, certificates of small boards",
        Method::Auto => "Alpha-beta for a quarter of the time, df-pn to half of it, then retrograde",
    }
    };
    let values = Method::ALL.map(|m| PossibleValue::new(m.name()).help(help(m)));
    PossibleValuesParser::new(values).map(|name| Method::named(&name).expect("a listed method"))
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

impl From<Prove> for Sought {
    fn from(prove: Prove) -> Sought {
        match prove {
            Prove::Either => Sought::Either,
            Prove::Win => Sought::Win,
            Prove::Loss => Sought::Loss,
        }
    }
}

pub(crate) fn run(args: &SolveArgs) -> CliResult {
    let variant = Variant::load(&args.position.variant)?;
    let game = args.position.game(&variant, args.moves.as_deref())?;
    let root = Root::of_game(&game);
    let settings = SolveSettings {
        method: args.method,
        max_plies: args.max_plies,
        time: pipeline::time_limit(args.time_ms),
        threads: super::ranges::search_threads("--threads", args.threads),
        hash_mb: args.hash,
        verify: args.verify,
        nodes: args.nodes,
        exact_length: args.exact_length,
        sought: args.prove.into(),
        certificate: args.certificate.clone(),
        resume: args.resume.clone(),
        scratch: std::env::temp_dir(),
        interrupt: Some(super::interrupt::flag()),
    };
    if let Some(refusal) = settings.refusal(&root) {
        return Err(CliError(refusal_text(refusal)));
    }
    // Before the search, which may take hours, not after it.
    if let Some(path) = &args.certificate {
        super::check_output("--certificate", path)?;
        if path.exists() && !args.overwrite {
            return Err(CliError(format!(
                "--certificate: {} exists (--overwrite replaces it)",
                path.display()
            )));
        }
    }
    match &args.resume {
        // (The distributed analysis makes and checks its folder itself.)
        Some(_) if args.method == Method::Distributed => {}
        Some(path) => super::check_output("--resume", path)?,
        None => {}
    }
    let report = pipeline::solve(&variant, &root, &settings, &show_event).map_err(cli_error)?;
    if matches!(&report, SolveReport::Distributed(r) if r.rank != 0) {
        // (One of an MPI job's ranks: rank 0 prints the job's report.)
        return Ok(());
    }
    if args.json {
        let value = serde_json::to_value(&report).expect("a report is plain data");
        emit_json(&value)?;
    } else {
        let side = root.board.to_move();
        let text = match &report {
            SolveReport::Ab(r) => ab_text(r, side)?,
            SolveReport::Dfpn(r) => dfpn_text(r, side, args.exact_length),
            SolveReport::Retro(r) => retro_text(r, side),
            SolveReport::Indexed(r) => indexed_text(r, side),
            SolveReport::Distributed(r) => distributed_text(r, side),
        };
        emit(&text)?;
    }
    if report.interrupted() {
        if let SolveReport::Distributed(r) = &report {
            exit_interrupted_distributed(args, r);
        }
        exit_interrupted(args);
    }
    match &report {
        // (The result is printed above, and stands; the failure is the exit status.)
        SolveReport::Distributed(DistributedReport {
            checkpoint_failed: Some(why),
            ..
        }) => Err(CliError(format!(
            "--resume: the labels, whole, could not be saved ({why}); the result above stands"
        ))),
        _ => Ok(()),
    }
}

/// After Ctrl-C or SIGTERM in the distributed analysis: what was saved, and the
/// interrupted status.
fn exit_interrupted_distributed(args: &SolveArgs, r: &DistributedReport) -> ! {
    match (&args.resume, r.checkpoint_round) {
        (Some(folder), Some(round)) => eprintln!(
            "interrupted: the labels up to round {round} are saved in {}; the same command continues from there",
            folder.display()
        ),
        (Some(_), None) => eprintln!(
            "interrupted: nothing was saved (the labels were not begun); the same command starts again"
        ),
        (None, _) => eprintln!("interrupted: nothing was saved (give --resume FOLDER to save the labels)"),
    }
    std::process::exit(super::interrupt::exit_status())
}

/// After Ctrl-C (the report printed says what was proven before it): how to go on, and
/// the interrupted status.
fn exit_interrupted(args: &SolveArgs) -> ! {
    match &args.resume {
        Some(path) => eprintln!(
            "interrupted: df-pn's tables are saved in {}; the same command continues",
            path.display()
        ),
        None => eprintln!("interrupted: the result above is what was proven before it"),
    }
    std::process::exit(super::interrupt::exit_status())
}

/// A refusal of the pipeline's in the command line's words.
fn refusal_text(refusal: Refusal) -> String {
    let (method, setting) = match refusal {
        Refusal::Threads(_) | Refusal::Hash(_) => {
            let flag = if matches!(refusal, Refusal::Hash(_)) {
                "--hash"
            } else {
                "--threads"
            };
            return format!("{flag}: {refusal}");
        }
        Refusal::MaxPlies { method, most } => {
            return format!(
                "--max-plies: must be 1..={most} with --method {}",
                method.name()
            )
        }
        Refusal::IndexedHash { most_mb, given_mb } => {
            return format!(
                "--hash: the indexed analysis may take 1..={most_mb} MB here, found {given_mb}"
            )
        }
        Refusal::NotForMethod { method, setting } => (method, setting),
    };
    match (method, setting) {
        (Method::Indexed | Method::Distributed, ProofSetting::Sought) => format!(
            "--method {} takes no --prove: it finds the value, whichever it is",
            method.name()
        ),
        (Method::Indexed | Method::Distributed, setting) => {
            format!("--method {} takes no {}", method.name(), flag(setting))
        }
        (Method::Ab, ProofSetting::Nodes | ProofSetting::ExactLength) => "--nodes and --exact-length are for df-pn (--method dfpn or auto); the alpha-beta prover's lengths are exact already".into(),
        (_, ProofSetting::Nodes) => {
            "--nodes limits df-pn; retrograde analysis is bounded by --hash and --time-ms".into()
        }
        (_, ProofSetting::Resume) => {
            "--resume keeps df-pn's tables or the distributed analysis' labels: it needs --method dfpn, auto or distributed".into()
        }
        (_, ProofSetting::Sought) => {
            "--prove win|loss chooses df-pn's search: it needs --method dfpn".into()
        }
        (method, setting) => format!("--method {} takes no {}", method.name(), flag(setting)),
    }
}

/// A setting's flag, with why the indexed analysis takes none where that is not plain.
fn flag(setting: ProofSetting) -> &'static str {
    match setting {
        ProofSetting::Threads => "--threads (it lists moves on every core)",
        ProofSetting::Nodes => "--nodes",
        ProofSetting::ExactLength => "--exact-length",
        ProofSetting::Verify => "--verify",
        ProofSetting::Sought => "--prove",
        ProofSetting::Certificate => {
            "--certificate (use --method retro, whose proofs come with one)"
        }
        ProofSetting::Resume => "--resume",
        ProofSetting::Moves => {
            "--moves (its wins ignore the game before the position: give --position)"
        }
    }
}

/// The pipeline's error, naming the flag it concerns.
fn cli_error(e: SolveError) -> CliError {
    CliError(match e {
        SolveError::Table(e) => format!("--hash: {e}"),
        SolveError::ResumeRead { .. } | SolveError::ResumeSave { .. } => format!("--resume {e}"),
        SolveError::CertificateNotWritten(_) => format!("--certificate: {e}"),
        SolveError::Certificate(e) => certificate_error(e),
        SolveError::Indexed(e) => format!("--method indexed: {e}"),
        SolveError::Distributed(e @ DistributedError::ProofTooLarge(_)) => {
            format!("--certificate: {e}")
        }
        SolveError::Distributed(e @ DistributedError::Checkpoint(_)) => format!("--resume: {e}"),
        SolveError::Distributed(e) => format!("--method distributed: {e}"),
        SolveError::Refused(refusal) => refusal_text(refusal),
    })
}

/// A certificate file's error, naming `--certificate`.
pub(crate) fn certificate_error(e: CertificateFileError) -> String {
    match e {
        CertificateFileError::OtherKind { .. } => {
            format!("internal error (please report): --certificate {e}")
        }
        CertificateFileError::WrittenFailsCheck(_) => format!("--certificate: {e}"),
        _ => format!("--certificate {e}"),
    }
}

/// Progress lines on stderr.
fn show_event(event: SolveEvent) {
    match event {
        SolveEvent::Depth(p) => show_depth(p),
        SolveEvent::Dfpn(p) => show_dfpn(p),
        SolveEvent::Indexed(p) => show_indexed(p),
        SolveEvent::Distributed(p) => show_distributed(p),
        SolveEvent::Note(line) => eprintln!("{line}"),
    }
}

fn show_depth(p: &Progress) {
    eprintln!(
        "depth {:3}  {}  nodes {}  time {} ms",
        p.depth,
        match p.score {
            Score::Win(_) | Score::Loss(_) => p.score.to_string(),
            _ => "no proof yet".to_string(),
        },
        p.nodes,
        p.time.as_millis()
    )
}

fn show_dfpn(p: &DfpnProgress) {
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
}

fn show_indexed(p: &IndexedProgress) {
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
}

fn show_distributed(p: &DistributedProgress) {
    let seconds = p.time.as_secs_f64();
    let (stage, step, count) = (p.stage, p.step, p.count);
    match stage {
        "listing" => eprintln!(
            "distributed retrograde: listing level {step}: {count} positions reached, {seconds:.1} s"
        ),
        "plan" => {
            let plan = p.plan.expect("the plan's stage has the plan");
            let mb = |bytes: u64| bytes.div_ceil(1 << 20);
            let allowed = plan.allowed.map_or(String::new(), |a| format!(" of the {} MB it may take", mb(a)));
            eprintln!(
                "distributed retrograde: memory plan: each rank {} MB{allowed} (arrays {} MB for {} numbers, buffers {} MB); disk: {} bytes a move while listing, then {}",
                mb(plan.memory()), mb(plan.arrays), plan.places, mb(plan.buffers), plan.disk_per_move_listing, plan.disk_per_move
            )
        }
        "checkpoint" => eprintln!(
            "distributed retrograde: checkpoint: the labels up to round {step} saved ({count} positions), {seconds:.1} s"
        ),
        "labelling" => eprintln!(
            "distributed retrograde: labelling round {step}: {count} positions labelled, {seconds:.1} s"
        ),
        _ => eprintln!("distributed retrograde: {stage}, {seconds:.1} s"),
    }
}

/// The certificate's line: the file, its size and what its check established; or that
/// an unknown result has none.
fn certificate_text(certificate: &Option<CertificateReport>, asked: bool) -> String {
    let Some(c) = certificate else {
        return match asked {
            true => "no certificate: the result is unknown\n".into(),
            false => String::new(),
        };
    };
    let what = match &c.checked {
        CheckedProof::Win(checked) => format!(
            "{} winner's moves, {} positions, won within {}",
            checked.winner_positions,
            checked.positions,
            plies_text(checked.depth)
        ),
        CheckedProof::Draw(checked) => format!(
            "South holds {} positions, North {}",
            checked.positions[0], checked.positions[1]
        ),
    };
    format!(
        "certificate {} ({} bytes), checked: {what}\n",
        c.path.display(),
        c.bytes
    )
}

fn ab_text(r: &AbReport, side: Side) -> Result<String, CliError> {
    let mut out = match (r.result, r.plies) {
        (ProvenResult::Win, Some(p)) => format!("win in {} for {side} (to move)\n", plies_text(p)),
        (ProvenResult::Loss, Some(p)) => format!(
            "loss in {} for {side} (to move), the longest defence\n",
            plies_text(p)
        ),
        _ => r.unknown.clone(),
    };
    if let Some(best) = &r.best_move {
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        out.push_str(&format!("best move {best}\nline {}\n", pv.join(" ")));
    }
    out.push_str(&format!(
        "nodes {}  nps {}  time {} ms\n",
        r.nodes, r.nps, r.time_ms
    ));
    match (r.plies, r.proof_size) {
        (Some(_), Some(size)) => out.push_str(&format!("proof size {size} positions\n")),
        (Some(_), None) => out.push_str(&format!("proof size over {PROOF_SIZE_CAP} positions\n")),
        _ => {}
    }
    out.push_str(&certificate_text(&r.certificate, r.certificate_asked));
    match (r.verified, &r.verify_error) {
        (Some(true), _) => out.push_str("verified: the line is legal, every defence along it loses in time, and the length is exact\n"),
        (Some(false), Some(e)) => return Err(CliError(format!("verification failed: {e}"))),
        (None, Some(_)) => out.push_str(&format!("not verified: {NOTHING_TO_VERIFY}\n")),
        _ => {}
    }
    Ok(out)
}

fn dfpn_text(r: &DfpnReport, side: Side, exact_length: bool) -> String {
    let length_text = match (r.plies, exact_length) {
        (Some(p), _) => format!(
            "in {} (the alpha-beta prover's exact length)",
            plies_text(p)
        ),
        (None, true) => "(its length not found within the time left)".to_string(),
        (None, false) => "(length not computed: --exact-length finds it)".to_string(),
    };
    let mut out = match r.result {
        ProvenResult::Win | ProvenResult::Loss => {
            let mut out = r.alpha_beta.clone().map(|b| b + "\n").unwrap_or_default();
            let name = if r.result == ProvenResult::Win {
                "win"
            } else {
                "loss"
            };
            out.push_str(&format!(
                "{name} for {side} (to move), proven by df-pn, {length_text}\n"
            ));
            out
        }
        ProvenResult::Draw | ProvenResult::Unknown => r.unknown.clone(),
    };
    if let Some(best) = &r.best_move {
        out.push_str(&format!("best move {best}\n"));
    }
    out.push_str(&format!(
        "nodes {}  nps {}  time {} ms  table {} entries\n",
        r.nodes, r.nps, r.time_ms, r.table_entries
    ));
    out.push_str(&certificate_text(&r.certificate, r.certificate_asked));
    if let Some(e) = r.verify_error {
        out.push_str(&format!("not verified: {e}\n"));
    }
    out
}

fn retro_text(r: &RetroReport, side: Side) -> String {
    let length_text = match r.plies {
        Some(p) => format!("in {}", plies_text(p)),
        None => "(length not computed: --exact-length finds it)".into(),
    };
    let scope = if r.complete {
        format!("all {} reachable positions", r.positions)
    } else {
        format!(
            "{} positions listed, {} more reached",
            r.positions, r.frontier
        )
    };
    let mut out = r
        .earlier_provers
        .clone()
        .map(|b| b + "\n")
        .unwrap_or_default();
    out.push_str(&match r.result {
        ProvenResult::Win => {
            format!("win for {side} (to move), proven by retrograde analysis, {length_text}\n")
        }
        ProvenResult::Loss => {
            format!("loss for {side} (to move), proven by retrograde analysis, {length_text}\n")
        }
        ProvenResult::Draw => "draw: neither side can force a win (retrograde analysis)\n".into(),
        ProvenResult::Unknown => {
            "unknown: retrograde analysis proves nothing from the positions it listed\n".into()
        }
    });
    out.push_str(&format!("{scope}  time {} ms\n", r.time_ms));
    out.push_str(&certificate_text(&r.certificate, r.certificate_asked));
    if let Some(e) = r.verify_error {
        out.push_str(&format!("not verified: {e}\n"));
    }
    out
}

fn indexed_text(r: &IndexedReport, side: Side) -> String {
    let mut out = match r.result {
        ProvenResult::Win => format!(
            "win for {side} (to move), proven by retrograde analysis (length not computed)\n"
        ),
        ProvenResult::Loss => format!(
            "loss for {side} (to move), proven by retrograde analysis (length not computed)\n"
        ),
        ProvenResult::Draw => "draw: neither side can force a win (retrograde analysis)\n".into(),
        ProvenResult::Unknown => format!(
            "unknown: {}\n",
            r.stopped.as_deref().unwrap_or("no verdict")
        ),
    };
    out.push_str(&format!(
        "{} positions reached of the index' {} (a position and its exchange counted once), {} moves listed  time {} ms\n",
        r.positions, r.index_size, r.moves_listed, r.time_ms
    ));
    out
}

fn distributed_text(r: &DistributedReport, side: Side) -> String {
    let ranks = match r.ranks {
        1 => "1 rank".to_string(),
        n => format!("{n} ranks"),
    };
    let by = format!("proven by retrograde analysis on {ranks}");
    let length =
        |plies: Option<u32>| plies.map_or(String::new(), |p| format!(" in {}", plies_text(p)));
    let mut out = match r.result {
        ProvenResult::Win => format!("win for {side} (to move){}, {by}\n", length(r.plies)),
        ProvenResult::Loss => format!("loss for {side} (to move){}, {by}\n", length(r.plies)),
        ProvenResult::Draw => {
            format!("draw: neither side can force a win (retrograde analysis on {ranks})\n")
        }
        ProvenResult::Unknown => format!(
            "unknown: {}\n",
            r.stopped.as_deref().unwrap_or("no verdict")
        ),
    };
    out.push_str(&format!(
        "{} positions reached of the index' {} (a position and its exchange counted once), {} moves listed, {} won and {} lost for their mover, {} rounds  digest {}  time {} ms\n",
        r.positions, r.index_size, r.moves_listed, r.won_positions, r.lost_positions, r.rounds, r.digest, r.time_ms
    ));
    if let Some(round) = r.resumed_at_round {
        out.push_str(&format!(
            "resumed from the checkpoint of round {round} (the listing done again)\n"
        ));
    }
    if let Some(checked) = r.checked_positions {
        out.push_str(&format!(
            "verified: every label checked against its children's, moves generated afresh ({checked} positions)\n"
        ));
    }
    if let Some(mv) = &r.best_move {
        out.push_str(&format!("the winning move: {mv}\n"));
    }
    out.push_str(&certificate_text(&r.certificate, r.certificate_asked));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's names (in `solve --json`) are the command line's.
    #[test]
    fn methods_and_sought_results_are_named_as_on_the_command_line() {
        let command = clap::Command::new("t").arg(clap::Arg::new("m").value_parser(methods()));
        for method in Method::ALL {
            let parsed = command
                .clone()
                .try_get_matches_from(["t", method.name()])
                .unwrap();
            assert_eq!(*parsed.get_one::<Method>("m").unwrap(), method);
        }
        for prove in Prove::value_variants() {
            let name = prove.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(Sought::from(*prove).name(), name);
        }
    }
}
