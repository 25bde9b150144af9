//! Ctrl-C on every long command, as processes: the command prints what it has (text, or
//! JSON with `"interrupted": true`), says how to go on, and exits 130, within a deadline.
//! (`solve`, `play`, `match` and `tournament` have theirs beside their other tests.)
//! `compare` still writes its CSV of the games played; `merge` writes none of its files.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::process::{ctrl_c, handles_sigint_or_ended, output_within, scratch, signal};

/// How long a command runs before Ctrl-C: ample for its handler to be installed on a
/// busy machine, far less than any of these jobs needs to finish.
const RUN_BEFORE: Duration = Duration::from_millis(1500);
/// How long it may take to stop and report.
const STOP_WITHIN: Duration = Duration::from_secs(30);

/// Runs the binary, presses Ctrl-C after `RUN_BEFORE`, and returns what it printed; the
/// exit status must be 130 and the notice on stderr must say `interrupted:`.
fn interrupted(args: &[&str]) -> (String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    std::thread::sleep(RUN_BEFORE);
    ctrl_c(&child);
    let (done, stopped_in) = output_within(child, STOP_WITHIN);
    let stdout = String::from_utf8_lossy(&done.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&done.stderr).into_owned();
    assert!(
        stopped_in,
        "{args:?} still ran {STOP_WITHIN:?} after Ctrl-C: {stderr}"
    );
    assert_eq!(
        done.status.code(),
        Some(130),
        "{args:?}: {stdout}\n{stderr}"
    );
    assert!(stderr.contains("\ninterrupted: "), "{args:?}: {stderr}");
    (stdout, stderr)
}

fn json_of(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn perft_reports_the_root_moves_it_counted() {
    let args = [
        "perft",
        "--variant",
        "igisoro",
        "--depth",
        "14",
        "--divide",
        "--json",
    ];
    let (stdout, _) = interrupted(&args);
    let report = json_of(&stdout);
    assert_eq!(report["interrupted"], true, "{report}");
    let counted = report["root_moves_counted"].as_u64().unwrap();
    assert!(counted < report["root_moves"].as_u64().unwrap(), "{report}");
    assert_eq!(report["divide"].as_array().unwrap().len() as u64, counted);
    let sum: u64 = report["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(report["nodes"].as_u64(), Some(sum), "{report}");
    let (text, _) = interrupted(&["perft", "--variant", "igisoro", "--depth", "14"]);
    assert!(
        text.contains("root moves counted; nodes is their sum"),
        "{text}"
    );
}

#[test]
fn bench_reports_the_positions_it_searched() {
    let (stdout, _) = interrupted(&["bench", "--depth", "16", "--json"]);
    let report = json_of(&stdout);
    assert_eq!(report["interrupted"], true, "{report}");
    assert!(report["positions"].as_u64().unwrap() < 24, "{report}");
    let args = [
        "bench",
        "--playouts",
        "--games",
        "100000000",
        "--threads",
        "1",
    ];
    let (text, _) = interrupted(&args);
    assert!(
        text.contains("interrupted: 1 of 10 variants begun"),
        "{text}"
    );
}

#[test]
fn openings_prints_the_positions_kept() {
    let args = [
        "openings",
        "--variant",
        "igisoro",
        "--plies",
        "6",
        "--count",
        "100000",
        "--depth",
        "4,12",
    ];
    let (stdout, _) = interrupted(&args);
    assert!(stdout.contains("\n# interrupted: "), "{stdout}");
}

#[test]
fn tune_fits_the_games_played() {
    let args = [
        "tune",
        "--variant",
        "isolo-women",
        "--games",
        "1000000",
        "--nodes",
        "20000",
        "--epochs",
        "20",
        "--json",
    ];
    let (stdout, stderr) = interrupted(&args);
    let report = json_of(&stdout);
    assert_eq!(report["interrupted"], true, "{report}");
    let games = report["games"].as_u64().unwrap();
    assert!((1..1_000_000).contains(&games), "{report}");
    assert!(stderr.contains("fitting the "), "{stderr}");
    assert!(report["weights"].is_object(), "{report}");
}

#[test]
fn fit_wdl_fits_the_games_played() {
    let args = [
        "fit-wdl",
        "--variant",
        "isolo-boys-capture-ends",
        "--games",
        "1000000",
        "--nodes",
        "2000",
        "--json",
    ];
    let (stdout, stderr) = interrupted(&args);
    let report = json_of(&stdout);
    let games = report["games"].as_u64().unwrap();
    assert!((1..1_000_000).contains(&games), "{report}");
    assert!(stderr.contains("fitted on the "), "{stderr}");
    assert_eq!(report["interrupted"], true, "{report}");
}

#[test]
fn review_prints_the_moves_reviewed() {
    let moves = "13 5 3 1 11 7 10 10 1 8 13 2 12 5 7 11 11 13 13";
    let args = [
        "review",
        "--variant",
        "isolo-boys-capture-ends",
        "--moves",
        moves,
        "--time-ms",
        "1000",
        "--json",
    ];
    let (stdout, stderr) = interrupted(&args);
    let report = json_of(&stdout);
    assert_eq!(report["interrupted"], true, "{report}");
    let reviewed = report["moves"].as_array().unwrap().len();
    assert!(reviewed < 19, "{report}");
    assert!(stderr.contains(" of 19 moves reviewed"), "{stderr}");
}

#[test]
fn solve_table_keeps_the_cells_solved() {
    let dir = scratch("interrupted-solve-table");
    let csv = dir.join("t.csv");
    let args = [
        "solve-table",
        "--preset",
        "igisoro",
        "--widths",
        "2..8",
        "--seeds",
        "1..4",
        "--time-ms",
        "600000",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
    ];
    let (stdout, _) = interrupted(&args);
    let report = json_of(&stdout);
    assert_eq!(report["interrupted"], true, "{report}");
    let cells = report["cells"].as_array().unwrap().len();
    assert!(cells < 28, "{report}");
    let rows = std::fs::read_to_string(&csv).unwrap().lines().count();
    assert_eq!(rows, cells + 1, "the CSV holds the cells solved");
    let args = [
        "solve-table",
        "--preset",
        "igisoro",
        "--widths",
        "8",
        "--seeds",
        "4",
        "--time-ms",
        "600000",
    ];
    let (text, _) = interrupted(&args);
    assert!(text.contains("| 8 | not reached (interrupted) |"), "{text}");
}

#[test]
fn compare_reports_the_games_played() {
    let args = [
        "compare",
        "--variant",
        "isolo-women",
        "--variant",
        "igisoro",
        "--engine",
        "ab:depth=8",
        "--games",
        "1000000",
        "--concurrency",
        "2",
        "--json",
        "--csv",
    ];
    let dir = scratch("interrupted-compare");
    let csv = dir.join("rates.csv");
    let (stdout, stderr) = interrupted(&[&args[..], &[csv.to_str().unwrap()]].concat());
    let report = json_of(&stdout);
    assert_eq!(report["interrupted"], true, "{report}");
    assert!(
        stderr.contains("the same command plays it again"),
        "{stderr}"
    );
    let rows = std::fs::read_to_string(&csv).expect("the CSV of the games played");
    assert!(rows.lines().count() >= 2, "{rows}");
    // With --out the games played are kept, for --resume.
    let records = dir.join("games.jsonl");
    let out = ["--out", records.to_str().unwrap()];
    let (_, stderr) = interrupted(&[&args[..args.len() - 2], &out[..]].concat());
    assert!(
        stderr.contains("recorded in") && stderr.contains("--resume plays the rest"),
        "{stderr}"
    );
    let kept = std::fs::read_to_string(&records).expect("the records of the games played");
    assert!(kept.lines().count() >= 2, "a header and a game: {kept}");
}

#[test]
fn results_shows_the_rows_done_and_keeps_the_page() {
    let dir = scratch("interrupted-results");
    let page = dir.join("RESULTS.md");
    let args = [
        "results",
        "--preset",
        "igisoro",
        "--time-ms",
        "600000",
        "--out",
        page.to_str().unwrap(),
    ];
    let (stdout, stderr) = interrupted(&args);
    assert!(stdout.contains("## igisoro"), "{stdout}");
    assert!(stderr.contains("was not written"), "{stderr}");
    assert!(!page.exists(), "an interrupted page replaces nothing");
}

#[test]
fn merge_sums_the_games_read_and_writes_none_of_its_files() {
    // A merge of many short games lasts a fraction of a second: Ctrl-C is pressed as
    // soon as its handler is installed, the process held still (SIGSTOP) meanwhile so
    // that it cannot finish between the two.
    let dir = scratch("interrupted-merge");
    let shard = |k: &str| {
        let out = dir.join(format!("shard-{k}.jsonl"));
        let args = [
            "compare",
            "--variant",
            "isolo-boys",
            "--variant",
            "igisoro",
            "--engine",
            "random",
            "--games",
            "100000",
            "--max-plies",
            "1",
            "--concurrency",
            "2",
            "--shard",
        ];
        let shard = format!("{k}/2");
        let status = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(args)
            .args([shard.as_str(), "--out", out.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        out
    };
    let shards = [shard("1"), shard("2")];
    let (merged, csv) = (dir.join("merged.jsonl"), dir.join("rates.csv"));
    for attempt in 0..5 {
        let child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .arg("merge")
            .args([&merged, &shards[0], &shards[1]])
            .args(["--csv", csv.to_str().unwrap(), "--json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        while !handles_sigint_or_ended(pid) {
            std::thread::yield_now();
        }
        signal(pid, "-STOP");
        signal(pid, "-INT");
        signal(pid, "-CONT");
        let (done, stopped_in) = output_within(child, STOP_WITHIN);
        assert!(stopped_in, "merge still ran {STOP_WITHIN:?} after Ctrl-C");
        if done.status.success() {
            // It had finished before the signal came: again, without its files.
            std::fs::remove_file(&merged).unwrap();
            let _ = std::fs::remove_file(&csv);
            eprintln!("attempt {attempt}: the merge ended before Ctrl-C");
            continue;
        }
        let (stdout, stderr) = (
            String::from_utf8_lossy(&done.stdout),
            String::from_utf8_lossy(&done.stderr),
        );
        assert_eq!(done.status.code(), Some(130), "{stdout}\n{stderr}");
        let report = json_of(&stdout);
        assert_eq!(report["interrupted"], true, "{report}");
        assert_eq!(report["merge"]["games_recorded"], 0, "{report}");
        assert!(
            stderr.contains("the same command merges the shards again"),
            "{stderr}"
        );
        assert!(
            !merged.exists() && !csv.exists(),
            "an interrupted merge writes no file"
        );
        return;
    }
    panic!("the merge ended before Ctrl-C five times");
}
