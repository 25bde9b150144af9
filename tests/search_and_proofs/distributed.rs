//! The distributed retrograde analysis (threads as ranks) against the indexed one and
//! exhaustive minimax: the same positions, moves, cut lists and values on any number of
//! ranks, the same labels bit for bit, and each win's and loss's exact length.

use crate::common::{self, Known};
use isolo_engine::prove::certificate::{self, Certificate, DrawCertificate};
use isolo_engine::prove::retrograde::distributed::{
    self, DistributedError, DistributedLimits, DistributedProof, DistributedResult,
};
use isolo_engine::prove::retrograde::indexed::{self, IndexedError, IndexedLimits};
use isolo_engine::prove::retrograde::RetroVerdict;
use isolo_rules::{pattern_start, Board, MoveGen, Variant};

fn on_ranks(variant: &Variant, board: &Board, ranks: usize) -> DistributedResult {
    distributed::solve_in_process(
        variant,
        board,
        ranks,
        &DistributedLimits::default(),
        &|_| {},
    )
    .unwrap()
}

/// The same, every label checked against its children's, and the proof read from the
/// labels where asked.
fn checked_on_ranks(
    variant: &Variant,
    board: &Board,
    ranks: usize,
    proof: bool,
) -> DistributedResult {
    let limits = DistributedLimits {
        check: true,
        proof,
        ..DistributedLimits::default()
    };
    let result = distributed::solve_in_process(variant, board, ranks, &limits, &|_| {}).unwrap();
    assert_eq!(result.checked, Some(result.reached));
    DistributedResult {
        checked: None,
        ..result
    }
}

/// A result of several ranks as one rank's would read (its plan shares the index
/// among them).
fn as_one_rank(many: DistributedResult, one: &DistributedResult) -> DistributedResult {
    DistributedResult {
        ranks: 1,
        plan: one.plan,
        ..many
    }
}

/// The indexed analysis' result at `board`, where it can run in `memory` bytes.
fn indexed(variant: &Variant, board: &Board, memory: u64) -> Option<indexed::IndexedResult> {
    let limits = IndexedLimits {
        memory,
        time: None,
        scratch: std::env::temp_dir(),
        sweeps_only: false,
        interrupt: None,
    };
    match indexed::solve(variant, board, &limits, &|_| {}) {
        Err(IndexedError::NoMemory { .. } | IndexedError::TooLarge(_)) => None,
        other => Some(other.unwrap()),
    }
}

/// Checks `proof` of `result`'s value at `board` as `check-proof` does: a win's longest
/// line is its exact length.
pub(crate) fn check_certificate(
    variant: &Variant,
    board: &Board,
    result: &DistributedResult,
    proof: DistributedProof,
) {
    let position = variant.format_position(board);
    match proof {
        DistributedProof::Win { winner, strategy } => {
            let certificate = Certificate {
                rules: variant.rules().clone(),
                start: *board,
                moves: Vec::new(),
                winner,
                plies: result.plies,
                strategy,
            };
            let checked =
                certificate::check(&certificate).unwrap_or_else(|e| panic!("{position}: {e}"));
            assert_eq!(Some(checked.depth), result.plies, "{position}");
            assert_eq!(checked.unused, 0, "{position}");
        }
        DistributedProof::Draw(holds) => {
            assert_eq!(result.verdict, RetroVerdict::Draw, "{position}");
            let certificate = DrawCertificate {
                rules: variant.rules().clone(),
                start: *board,
                moves: Vec::new(),
                holds,
            };
            certificate::check_draw(&certificate).unwrap_or_else(|e| panic!("{position}: {e}"));
        }
    }
}

/// The most positions a random game of the comparison may reach.
const MOST_REACHED: u64 = 300_000;

/// Plies exhaustive minimax looks ahead to confirm a length.
const HORIZON: u32 = 7;

#[test]
fn distributed_retrograde_agrees_with_the_indexed_analysis_on_any_number_of_ranks() {
    let mut compared = [0usize; 3];
    let mut lengths = 0;
    let mut certified = 0;
    for (variant, board) in common::small_positions(80, 0xd157, 3) {
        // (Games of millions of positions take seconds a run: they are left to the
        // Igisoro boards below and to `.ci/run`.)
        let Some(expected) =
            indexed(&variant, &board, 256 << 20).filter(|e| e.reached <= MOST_REACHED)
        else {
            continue;
        };
        let position = variant.format_position(&board);
        let one = on_ranks(&variant, &board, 1);
        assert_eq!(one.verdict, expected.verdict, "{position}: {one:?}");
        assert_eq!(
            (one.reached, one.edges, one.cut, one.index_size),
            (
                expected.reached,
                expected.edges,
                expected.cut,
                expected.index_size
            ),
            "{position}"
        );
        let mut proofs = Vec::new();
        let retreat = variant.has_retreat();
        let proof = one.index_size <= distributed::CERTIFICATE_INDEX;
        for ranks in 2..=4 {
            let mut many = checked_on_ranks(&variant, &board, ranks, proof);
            proofs.extend(many.proof.take());
            assert_eq!(as_one_rank(many, &one), one, "{position}: {ranks} ranks");
        }
        // The proof read from the labels is a certificate that checks, the same on every
        // number of ranks.
        assert!(proofs.windows(2).all(|w| w[0] == w[1]), "{position}");
        if let Some(proof) = proofs.pop() {
            check_certificate(&variant, &board, &one, proof);
            certified += 1;
        }
        // A win's or a loss's length is minimax's, where minimax sees the end (under
        // the retreat, a test of its own walks the answers).
        if let Some(plies) = one.plies.filter(|&p| p <= HORIZON && !retreat) {
            let known = common::brute_force(
                &variant,
                &board,
                HORIZON,
                &mut Vec::new(),
                &mut MoveGen::new(),
            );
            let expected = match one.verdict {
                RetroVerdict::Win => Known::Win(plies),
                _ => Known::Loss(plies),
            };
            assert_eq!(known, expected, "{position}");
            lengths += 1;
        }
        compared[match one.verdict {
            RetroVerdict::Win => 0,
            RetroVerdict::Loss => 1,
            _ => 2,
        }] += 1;
    }
    println!("distributed retrograde: wins, losses, draws {compared:?}; lengths checked {lengths}; certified {certified}");
    assert!(compared.iter().all(|&n| n > 0), "{compared:?}");
    assert!(lengths > 5, "{lengths}");
    assert!(
        certified * 2 > compared.iter().sum::<usize>(),
        "{certified}"
    );
}

/// Igisoro's start on `columns` columns with `seeds` a pit of its pattern.
fn igisoro_board(columns: u8, seeds: u8) -> (Variant, Board) {
    let rules = Variant::load("igisoro")
        .unwrap()
        .rules()
        .to_builder()
        .columns(columns)
        .start(pattern_start("igisoro", columns, seeds).unwrap())
        .build();
    let variant = Variant::new(rules.unwrap()).unwrap();
    let board = variant.start();
    (variant, board)
}

/// Solves Igisoro's small board on 1 rank and on each of `ranks`, against the indexed
/// analysis: its value and counts, the same labels on every number of ranks.
fn same_on_every_rank_count(columns: u8, seeds: u8, ranks: &[usize]) {
    let (variant, board) = igisoro_board(columns, seeds);
    let started = std::time::Instant::now();
    let expected = indexed(&variant, &board, 8 << 30).unwrap();
    println!("igisoro {columns}x{seeds}: indexed {:?}", started.elapsed());
    let started = std::time::Instant::now();
    let one = on_ranks(&variant, &board, 1);
    println!(
        "igisoro {columns}x{seeds}: 1 rank {:?}: {one:?}",
        started.elapsed()
    );
    assert_eq!(one.verdict, expected.verdict);
    let counts = (one.reached, one.edges, one.cut);
    assert_eq!(counts, (expected.reached, expected.edges, expected.cut));
    for &ranks in ranks {
        let started = std::time::Instant::now();
        let many = on_ranks(&variant, &board, ranks);
        println!(
            "igisoro {columns}x{seeds}: {ranks} ranks {:?}",
            started.elapsed()
        );
        assert_eq!(as_one_rank(many, &one), one);
    }
}

#[test]
fn igisoro_on_three_columns_with_two_seeds_is_the_same_on_one_to_four_ranks() {
    same_on_every_rank_count(3, 2, &[3, 4]);
}

/// A run stopped while labelling (its checkpoints saved every round) resumes from its
/// checkpoint on another number of ranks with the result of a run never stopped, bit
/// for bit; a checkpoint of another position is refused.
#[test]
fn a_stopped_run_resumes_from_its_checkpoint_on_any_number_of_ranks() {
    use distributed::{Checkpoints, DistributedProgress};
    use std::sync::atomic::{AtomicBool, Ordering};
    let (variant, board) = igisoro_board(3, 2);
    let whole = on_ranks(&variant, &board, 2);
    assert!(whole.rounds > 5, "{whole:?}");
    for (stopped_on, resumed_on, at) in [(2, 3, 4), (3, 1, 0), (1, 2, 1)] {
        let folder = std::env::temp_dir().join(format!(
            "isolo-checkpoints-{}-{stopped_on}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&folder);
        let interrupt: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let limits = DistributedLimits {
            interrupt: Some(interrupt),
            checkpoints: Some(Checkpoints {
                folder: folder.clone(),
                every: std::time::Duration::ZERO,
            }),
            ..DistributedLimits::default()
        };
        let stop_at = |p: &DistributedProgress| {
            if p.stage == "checkpoint" && p.step == at {
                interrupt.store(true, Ordering::Relaxed);
            }
        };
        let stopped =
            distributed::solve_in_process(&variant, &board, stopped_on, &limits, &stop_at).unwrap();
        assert_eq!(stopped.verdict, RetroVerdict::Unknown);
        assert_eq!(stopped.saved_at, Some(at), "{stopped:?}");
        interrupt.store(false, Ordering::Relaxed);
        let resumed =
            distributed::solve_in_process(&variant, &board, resumed_on, &limits, &|_| {}).unwrap();
        assert_eq!(resumed.resumed_at, Some(at));
        let resumed = DistributedResult {
            resumed_at: None,
            saved_at: None,
            ..resumed
        };
        assert_eq!(
            as_one_rank(resumed, &whole),
            as_one_rank(whole.clone(), &whole)
        );
        // Another position's checkpoint is not taken.
        let other = variant.parse_position("2,0,2/0,0,0/0,0,0/2,0,2 S").unwrap();
        let refused = distributed::solve_in_process(&variant, &other, 1, &limits, &|_| {});
        assert!(
            matches!(&refused, Err(DistributedError::Checkpoint(why)) if why.contains("another game or position")),
            "{refused:?}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

/// The milestones of docs/solving.md: 5 columns with 1 seed (16.7 M positions) and 3
/// with 3 (23.7 M) on 1, 2 and 4 ranks. Minutes; run by hand.
#[test]
#[ignore]
fn igisoros_milestone_boards_are_the_same_on_one_two_and_four_ranks() {
    for (columns, seeds) in [(5, 1), (3, 3)] {
        same_on_every_rank_count(columns, seeds, &[2, 4]);
    }
}

/// The largest milestone of docs/solving.md: 4 columns with 2 seeds (250 M positions)
/// on 1, 2 and 4 ranks. Half an hour and 8 GB; run by hand.
#[test]
#[ignore]
fn igisoros_four_columns_with_two_seeds_are_the_same_on_one_two_and_four_ranks() {
    same_on_every_rank_count(4, 2, &[2, 4]);
}

/// `solve --method distributed` as a user runs it: the indexed analysis' draw and
/// counts on any number of ranks (`--threads`), one digest, a win's exact length as the
/// alpha-beta prover finds it, and clear refusals.
#[test]
fn solve_method_distributed_proves_values_with_their_lengths_and_refuses_the_rest() {
    use common::process::{json as isolo_json, run as isolo};
    let dir = std::env::temp_dir().join(format!("isolo-distributed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("igisoro-w3-s1.toml");
    let text = "base = \"igisoro\"\ncolumns = 3\nstart = \"1,1,1/0,0,0/0,0,0/1,1,1\"\n";
    std::fs::write(&rules, text).unwrap();
    let rules = rules.display().to_string();
    let solve = |method: &str, threads: &str| {
        isolo_json(&[
            "solve",
            "--variant",
            &rules,
            "--method",
            method,
            "--threads",
            threads,
            "--json",
        ])
    };
    let indexed = solve("indexed", "1");
    let one = solve("distributed", "1");
    assert_eq!(one["result"], "draw", "{one}");
    assert_eq!(one["method"], "distributed");
    assert_eq!(one["ranks"], 1);
    for field in ["positions", "moves_listed", "index_size", "cut_lists"] {
        assert_eq!(one[field], indexed[field], "{field}: {one} {indexed}");
    }
    // (Threads beyond the cores are not started: 2 ranks on 2 cores.)
    let two = solve("distributed", "2");
    assert_eq!(two["ranks"], 2);
    assert_eq!(two["digest"], one["digest"], "{two} {one}");
    assert!(two["verified"].is_null(), "{two}");
    let on_two_ranks = |extra: &[&str]| {
        let solve = ["solve", "--variant", &rules, "--method", "distributed"];
        isolo_json(&[&solve[..], &["--threads", "2", "--json"], extra].concat())
    };
    let verified = on_two_ranks(&["--verify"]);
    assert_eq!(verified["verified"], true, "{verified}");
    assert_eq!(
        verified["checked_positions"], one["positions"],
        "{verified}"
    );
    // The draw's certificate, written by rank 0 of 2 and checked as check-proof checks it.
    let proof = dir.join("draw.proof.gz").display().to_string();
    let certified = on_two_ranks(&["--certificate", &proof]);
    assert_eq!(certified["certificate"]["result"], "draw", "{certified}");
    let checked = isolo_json(&["check-proof", &proof, "--json"]);
    assert_eq!(
        (&checked["valid"], &checked["result"]),
        (&true.into(), &"draw".into()),
        "{checked}"
    );
    assert_eq!(checked["holds"], certified["certificate"]["holds"]);
    // Out of time it says so and proves nothing (2 seeds: 937,337 positions, a second
    // and a half to list).
    let two_seeds = dir.join("igisoro-w3-s2.toml");
    let text = "base = \"igisoro\"\ncolumns = 3\nstart = \"2,2,2/0,0,0/0,0,0/2,2,2\"\n";
    std::fs::write(&two_seeds, text).unwrap();
    let late = isolo_json(&[
        "solve",
        "--variant",
        &two_seeds.display().to_string(),
        "--method",
        "distributed",
        "--time-ms",
        "200",
        "--json",
    ]);
    assert_eq!(late["result"], "unknown", "{late}");
    assert_eq!(late["stopped"], "the time ran out while listing", "{late}");
    // A loss in 2 plies, as the alpha-beta prover finds it, over an index of a billion
    // positions of which 3 are reached.
    let position = "1,0,0,0,0,0,1,0/0,0,0,2,0,0,0,1/0,0,0,0,1,0,0,0/0,2,0,0,0,0,0,1 S";
    let prove = |method: &str| {
        isolo_json(&[
            "solve",
            "--variant",
            "isolo-boys",
            "--position",
            position,
            "--method",
            method,
            "--json",
        ])
    };
    let (ab, distributed) = (prove("ab"), prove("distributed"));
    assert_eq!(
        (&distributed["result"], &distributed["plies"]),
        (&ab["result"], &ab["plies"])
    );
    assert_eq!(
        (&distributed["result"], &distributed["length_exact"]),
        (&"loss".into(), &true.into())
    );
    let out = isolo(&[
        "solve",
        "--variant",
        "isolo-boys",
        "--position",
        position,
        "--method",
        "distributed",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "loss for South (to move) in 2 plies, proven by retrograde analysis on 1 rank\n"
        ),
        "{text}"
    );
    let certificate = dir.join("loss.proof").display().to_string();
    let not_a_folder = format!("--resume: {rules} is not a folder");
    for (args, expected) in [
        (
            vec!["--variant", "isolo-boys", "--position", position, "--certificate", &certificate],
            "--certificate: the index numbers 1",
        ),
        (vec!["--variant", &rules, "--resume", &rules], &not_a_folder),
        (vec!["--variant", &rules, "--moves", "1"], "--method distributed takes no --moves"),
        (vec!["--variant", &rules, "--nodes", "5"], "--method distributed takes no --nodes"),
        (vec!["--variant", &rules, "--prove", "loss"], "--method distributed takes no --prove"),
        (
            vec!["--variant", "igisoro"],
            "--method distributed: more than 2^64 positions in the index; the distributed analysis numbers at most 2^62",
        ),
    ] {
        let mut all = vec!["solve", "--method", "distributed"];
        all.extend(args);
        let out = isolo(&all);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        common::assert_refused(&all, out.status.code(), &stdout, &stderr, expected);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// SIGTERM (what Slurm sends before it requeues a job) while labelling: the labels are
/// saved in `--resume`'s folder, the exit status says so, and the same command on
/// another number of ranks resumes there and ends with the digest of a run never
/// stopped.
#[test]
fn sigterm_while_labelling_saves_the_labels_and_the_same_command_resumes() {
    use common::process::{json as isolo_json, scratch, signal};
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = scratch("distributed-sigterm");
    let rules = dir.join("igisoro-w3-s2.toml");
    let text = "base = \"igisoro\"\ncolumns = 3\nstart = \"2,2,2/0,0,0/0,0,0/2,2,2\"\n";
    std::fs::write(&rules, text).unwrap();
    let rules = rules.display().to_string();
    let folder = dir.join("checkpoints").display().to_string();
    let args = |threads: &'static str| {
        let solve = ["solve", "--variant", &rules, "--method", "distributed"];
        let mut args: Vec<String> = solve.iter().map(|a| a.to_string()).collect();
        args.extend(["--threads", threads, "--time-ms", "0", "--json"].map(String::from));
        args
    };
    let whole = isolo_json(&args("2").iter().map(String::as_str).collect::<Vec<_>>());
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(args("1"))
        .args(["--resume", &folder])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen.push(line.clone());
        if line.contains("labelling round 0") {
            // (Frozen first, so that the signal finds it at the first round.)
            signal(child.id(), "-STOP");
            signal(child.id(), "-TERM");
            signal(child.id(), "-CONT");
            break;
        }
    }
    seen.extend(lines.map(Result::unwrap));
    let stopped = child.wait_with_output().unwrap();
    let stderr = seen.join("\n");
    assert_eq!(stopped.status.code(), Some(128 + 15), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&stopped.stdout).unwrap();
    assert_eq!(report["result"], "unknown", "{report}");
    assert_eq!(report["stopped"], "interrupted while labelling", "{report}");
    // (The round the signal found: the first, unless the rounds were quicker than it.)
    let round = report["checkpoint_round"].as_u64().expect("a checkpoint");
    assert!(
        stderr.contains(&format!("the labels up to round {round} are saved in")),
        "{stderr}"
    );
    let mut again = args("2");
    again.extend(["--resume".to_string(), folder.clone()]);
    let resumed = isolo_json(&again.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(resumed["resumed_at_round"], round, "{resumed}");
    for field in ["result", "digest", "positions", "rounds", "won_positions"] {
        assert_eq!(resumed[field], whole[field], "{field}: {resumed} {whole}");
    }
}

/// A run killed outright (SIGKILL: no handler runs) leaves its parents files behind;
/// the next run on the machine removes them, as their process is gone.
#[test]
fn the_parents_files_of_a_killed_run_are_removed_by_the_next() {
    use common::process::{scratch, signal};
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = scratch("distributed-sigkill");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let rules = dir.join("igisoro-w3-s2.toml");
    let text = "base = \"igisoro\"\ncolumns = 3\nstart = \"2,2,2/0,0,0/0,0,0/2,2,2\"\n";
    std::fs::write(&rules, text).unwrap();
    let solve = |stderr: Stdio| {
        Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(["solve", "--variant", rules.to_str().unwrap()])
            .args(["--method", "distributed", "--time-ms", "0", "--json"])
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap()
    };
    let leftovers = || {
        std::fs::read_dir(&tmp)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with("isolo-ai-parents-")
            })
            .count()
    };
    let mut child = solve(Stdio::piped());
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    for line in lines {
        if line.unwrap().contains("labelling round 0") {
            // (Frozen first, so that it cannot finish before the signal.)
            signal(child.id(), "-STOP");
            signal(child.id(), "-KILL");
            break;
        }
    }
    child.wait().unwrap();
    assert!(leftovers() > 0, "the killed run's files");
    let next = solve(Stdio::null()).wait().unwrap();
    assert!(next.success());
    assert_eq!(leftovers(), 0);
}
