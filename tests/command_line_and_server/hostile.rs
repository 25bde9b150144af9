//! A hostile-input corpus run as processes: every bad input gets one line on stderr
//! naming the problem, exit status 2, no panic, and no hang (each run has a deadline).

use crate::common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one bad input may take to be refused.
const DEADLINE: Duration = Duration::from_secs(20);

/// Runs the binary with a deadline; `None` if it had to be killed.
fn run_with_deadline(args: &[&str]) -> Option<(Option<i32>, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            let mut out = String::new();
            let mut err = String::new();
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return Some((status.code(), out, err));
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A two-game match of random against greedy with `extra` flags.
fn match_with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

/// Runs each of `corpus` under the deadline and checks it is refused saying `expected`.
fn all_refused(corpus: &[(Vec<&str>, &str)]) {
    for (args, expected) in corpus {
        let Some((code, stdout, stderr)) = run_with_deadline(args) else {
            panic!("{args:?} did not finish within {DEADLINE:?}");
        };
        common::assert_refused(args, code, &stdout, &stderr, expected);
    }
}

/// A scratch folder of this test alone (tests run in parallel and remove their own).
fn scratch_for(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("isolo-ai-hostile-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn scratch() -> std::path::PathBuf {
    scratch_for("corpus")
}

#[test]
fn every_hostile_input_is_one_line_exit_two_no_panic_no_hang() {
    let dir = scratch();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let bad_toml = file("bad.toml", "name = \"x\"\ncolumns = 99\n");
    let not_toml = file("not.toml", "name = = 3\n");
    let weights = file("w.toml", "seeds = 2147483647\n");
    let bad_book = file("book.txt", "not a position\n");
    let not_records = file("r.jsonl", "{\"game\":0}\n");
    let comparison = file(
        "c.jsonl",
        "{\"isolo_ai_records\":2,\"kind\":\"compare\",\"variants\":[]}\n",
    );
    let binary = dir.join("bin");
    std::fs::write(&binary, [0u8, 1, 2, 0xff, 0xfe]).unwrap();
    let binary = binary.to_str().unwrap().to_string();
    let corpus: Vec<(Vec<&str>, &str)> = vec![
        (match_with(&["--tc", "1e300"]), "--tc"),
        (match_with(&["--tc", "0+5"]), "the base must be more than 0"),
        (match_with(&["--tc", "+"]), "--tc"),
        (match_with(&["--handshake-ms", "0"]), "--handshake-ms"),
        (
            match_with(&["--time-margin-ms", "-1"]),
            "--time-margin-ms: must be 0..=86400000 ms, found -1",
        ),
        (
            match_with(&["--engine-log", "/dev/null/logs"]),
            "--engine-log",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "x=cmd:\"\"",
            ],
            "no program named",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "x=cmd:/dev/null",
            ],
            "cannot start '/dev/null'",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--tc", "x+1"],
            "--tc",
        ),
        (vec!["play", "--variant", "isolo-boys", "--tc", "0"], "--tc"),
        (
            vec![
                "analyze",
                "--variant",
                "isolo-boys",
                "--hash",
                "18446744073709551615",
            ],
            "--hash",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--hash", "1000000000"],
            "--hash",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--threads", "100000"],
            "--threads",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--depth", "0"],
            "--depth",
        ),
        (
            vec!["analyze", "--variant", "igisoro", "--contempt", "101"],
            "--contempt: must be 0..=100 seeds, found 101",
        ),
        (
            vec!["analyze", "--variant", "igisoro", "--contempt", "-1"],
            "--contempt: must be 0..=100 seeds, found -1",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--nodes", "0"],
            "--nodes",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--multipv", "-3"],
            "-3",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--weights", &weights],
            "out of range",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--weights", &binary],
            "weights file",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--moves", "1 99"],
            "move 2 of 2",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--position", "1,2 S"],
            "--position",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--position", ""],
            "--position",
        ),
        (vec!["analyze", "--variant", &bad_toml], "columns"),
        (vec!["analyze", "--variant", &not_toml], "line 1"),
        (
            vec!["analyze", "--variant", "/dev/zero"],
            "not a regular file",
        ),
        (
            vec!["analyze", "--variant", "/no/such/rules.toml"],
            "unknown variant",
        ),
        (vec!["show", "--variant", &binary], "not UTF-8"),
        (
            vec![
                "perft",
                "--variant",
                "isolo-boys",
                "--depth",
                "3",
                "--threads",
                "0",
            ],
            "--threads",
        ),
        (
            vec!["solve", "--variant", "isolo-boys", "--max-plies", "0"],
            "--max-plies",
        ),
        (
            vec!["solve", "--variant", "isolo-boys", "--hash", "0"],
            "--hash",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "mcts:iters=0",
                "--engine",
                "random",
            ],
            "iters",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "mcts:c=NaN",
                "--engine",
                "random",
            ],
            "`c`",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "ab:hash=99999999999",
                "--engine",
                "random",
            ],
            "hash",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "ab:depth=2,depth=3",
                "--engine",
                "random",
            ],
            "twice",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "random",
            ],
            "labelled",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--openings",
                &bad_book,
            ],
            "openings file",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--openings",
                "/dev/zero",
            ],
            "not a regular file",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--out",
                &not_records,
            ],
            "--out",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--sprt",
                "1,2",
            ],
            "--sprt",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--sprt",
                "0,10,1e-320,0.05",
            ],
            "--sprt: alpha and beta must lie from 1e-9 up to 0.5",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--sprt",
                "0,10,0.05,5e-324",
            ],
            "--sprt: alpha and beta must lie from 1e-9 up to 0.5",
        ),
        (
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--games",
                "0",
            ],
            "--games",
        ),
        (vec!["replay", &not_records], "records header"),
        (vec!["replay", "/dev/zero"], "not a regular file"),
        (vec!["replay", &binary], "r"),
        (
            vec![
                "compare",
                "--variant",
                "isolo-boys",
                "--variant",
                "isolo-women",
                "--plot",
                "x.png",
            ],
            "--plot",
        ),
        (
            vec![
                "openings",
                "--variant",
                "isolo-boys",
                "--plies",
                "4",
                "--count",
                "1",
                "--max-eval",
                "NaN",
            ],
            "--max-eval",
        ),
        (
            vec![
                "openings",
                "--variant",
                "isolo-boys",
                "--plies",
                "4",
                "--count",
                "1",
                "--depth",
                "8,6",
            ],
            "--depth: the depths must rise (got 8,6)",
        ),
        (
            vec![
                "openings",
                "--variant",
                "isolo-boys",
                "--plies",
                "4",
                "--count",
                "1",
                "--depth",
                "4,0",
            ],
            "--depth: must be 1..=100 plies, found 0",
        ),
        (
            vec![
                "results",
                "--preset",
                "chess",
                "--out",
                "/tmp/isolo-never.md",
            ],
            "--preset",
        ),
        (
            vec!["solve-table", "--preset", "ikibuguzo-opening-1"],
            "--preset: 'ikibuguzo-opening-1' starts from its own array",
        ),
        (
            vec![
                "solve-table",
                "--preset",
                "igisoro",
                "--certificates",
                &not_records,
            ],
            "not a folder",
        ),
        (
            vec!["replay", &comparison],
            "a comparison's records (compare --out)",
        ),
        (
            vec![
                "analyze",
                "--variant",
                "isolo-boys",
                "--nodes",
                "18446744073709551616",
            ],
            "--nodes: must be at least 1 and at most 18446744073709551615",
        ),
        (vec!["bench", "--depth", "0"], "--depth"),
        (vec!["play", "--variant", "isolo-boys", "--as", "E"], "--as"),
    ];
    all_refused(&corpus);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Numbers outside their range, negative and huge ones included, are refused at
/// parsing in the domain's words; never a stack overflow or a flood of threads.
#[test]
fn numbers_out_of_range_are_refused_and_concurrency_is_clamped() {
    let corpus: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["perft", "--variant", "isolo-women", "--depth", "100000"],
            "--depth: must be 0..=64 plies, found 100000",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--depth", "-1"],
            "--depth: must be 1..=100 plies, found -1",
        ),
        (
            vec!["solve", "--variant", "isolo-boys", "--time-ms", "-5"],
            "--time-ms: must be 0..=86400000 ms, found -5",
        ),
        (
            vec!["analyze", "--variant", "isolo-boys", "--nodes", "1e9"],
            "--nodes: '1e9' is not a whole number (at least 1)",
        ),
        (
            vec!["serve", "--port", "65536"],
            "--port: must be 0..=65535, found 65536",
        ),
        (
            vec![
                "openings",
                "--variant",
                "isolo-boys",
                "--plies",
                "2",
                "--count",
                "1",
                "--max-eval",
                "NaN",
            ],
            "--max-eval: must be 0..=10000 seeds, found NaN",
        ),
        (
            match_with(&["--concurrency", "100000"]),
            "--concurrency: must be 1..=1024 games at once, found 100000",
        ),
        // Text starting with a minus sign reaches its own parser.
        (
            vec!["show", "--variant", "isolo-boys", "--position", "-1,2 S"],
            "--position: expected 4 rows",
        ),
        (
            vec!["moves", "--variant", "isolo-boys", "--moves", "-3"],
            "--moves: move 1 of 1: move '-3' must start with a pit number",
        ),
    ];
    all_refused(&corpus);
    // In range but more than the games: two games, two threads at most, and a note.
    let args = match_with(&["--concurrency", "1000"]);
    let Some((code, _, stderr)) = run_with_deadline(&args) else {
        panic!("a two-game match with --concurrency 1000 did not finish");
    };
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("note: --concurrency 1000 is more than the "),
        "{stderr}"
    );
}

/// A named pipe (or a folder) where a file is read is refused at once, never opened:
/// opening a pipe for reading would wait for a writer for ever.
#[test]
fn files_that_are_not_files_are_refused_without_waiting() {
    let dir = scratch_for("fifo");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo runs");
    let pipe = fifo.to_str().unwrap();
    let folder = dir.to_str().unwrap();
    let refusal = "not a regular file";
    let corpus = [
        vec!["moves", "--variant", pipe],
        vec!["moves", "--variant", folder],
        vec!["replay", pipe],
        vec!["check-proof", pipe],
        vec!["analyze", "--variant", "isolo-boys", "--weights", pipe],
        match_with(&["--openings", pipe]),
        match_with(&["--out", pipe, "--resume"]),
        vec![
            "solve",
            "--variant",
            "isolo-boys",
            "--method",
            "dfpn",
            "--resume",
            pipe,
        ],
        vec!["serve", "--port", "0", "--records", pipe],
    ]
    .map(|args| (args, refusal));
    all_refused(&corpus);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An output that cannot be written is refused before the work, not after it: each of
/// these would search for a minute or more first.
#[test]
fn outputs_are_checked_before_any_work() {
    let dir = scratch_for("outputs");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo runs");
    let pipe = fifo.to_str().unwrap();
    let long_solve = ["solve", "--variant", "igisoro", "--time-ms", "600000"];
    let solve_with = |extra: &[&'static str]| [&long_solve[..], extra].concat();
    all_refused(&[
        (
            solve_with(&["--certificate", "/proc/no/x.gz"]),
            "--certificate: cannot write",
        ),
        (
            [&long_solve[..], &["--certificate", pipe]].concat(),
            "--certificate: ",
        ),
        (
            solve_with(&["--method", "dfpn", "--resume", "/proc/no/state"]),
            "--resume: cannot write",
        ),
    ]);
    let corpus = [
        vec![
            "match",
            "--variant",
            "igisoro",
            "--engine",
            "ab:time-ms=60000",
            "--engine",
            "random",
            "--out",
            pipe,
        ],
        vec![
            "compare",
            "--variant",
            "igisoro",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab:time-ms=60000",
            "--out",
            pipe,
        ],
        vec![
            "solve-table",
            "--preset",
            "igisoro",
            "--time-ms",
            "600000",
            "--csv",
            "/proc/no/x.csv",
        ],
    ]
    .map(|args| (args, ""));
    all_refused(&corpus);
    std::fs::remove_dir_all(&dir).unwrap();
}
