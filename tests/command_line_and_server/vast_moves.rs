//! Moves and move lists too vast to finish: rules within every key's range
//! (`capture = "any"`, `max_laps = 1000000`) where one Igisoro position has over a
//! hundred thousand moves, some of thousands of laps. Every search ends within its time
//! limit (the docs promise the limit plus a quarter second; the deadlines here are loose,
//! for a loaded machine, and far below the tens of seconds these took when the move
//! generators did not look at the clock), on Ctrl-C, SIGTERM and UGI's `stop`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::process::{handles_sigint_or_ended, output_within, scratch, signal, Scratch};

/// A legal Igisoro position with 110,755 legal moves under `EXPLODE`.
const VAST: &str = "10,8,8,6,2,3,4,5/12,3,8,1,2,5,1,6/8,12,10,6,2,3,2,8/2,10,8,12,5,0,2,6 S";
const EXPLODE: &str = "base = \"igisoro\"\ncapture = \"any\"\nmax_laps = 1000000\n";

/// How long a command given 300 ms may take here, start-up and a loaded machine included.
const ANSWER_WITHIN: Duration = Duration::from_secs(8);

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// A scratch folder holding `EXPLODE` as `explode.toml`, and that file's path.
fn explode_rules(test: &str) -> (Scratch, String) {
    let dir = scratch(test);
    let rules = dir.join("explode.toml");
    std::fs::write(&rules, EXPLODE).unwrap();
    let rules = rules.to_str().unwrap().to_string();
    (dir, rules)
}

/// Waits until `child` has its signal handlers, then sends `sig`.
fn signal_when_ready(child: &std::process::Child, sig: &str) {
    let started = Instant::now();
    while !handles_sigint_or_ended(child.id()) && started.elapsed() < ANSWER_WITHIN {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    signal(child.id(), sig);
}

#[test]
fn searches_and_proofs_end_within_their_time() {
    let (_dir, rules) = explode_rules("vast-timed");
    let rules = rules.as_str();
    let base = ["--variant", rules, "--position", VAST, "--time-ms", "300"];
    for command in [
        vec!["analyze"],
        vec!["analyze", "--threads", "2"],
        vec!["solve"],
        vec!["solve", "--method", "ab"],
        vec!["solve", "--method", "dfpn"],
    ] {
        let args: Vec<&str> = command.iter().copied().chain(base).collect();
        let (done, in_time) = output_within(spawn(&args), ANSWER_WITHIN);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(in_time, "{command:?} ran past {ANSWER_WITHIN:?}: {stderr}");
        assert!(done.status.success(), "{command:?}: {stderr}");
    }
    // MCTS meets its vast moves in the tree, from the start: its walks took 23 s of a
    // one-second search.
    for threads in ["1", "2"] {
        let args = ["analyze", "--engine", "mcts", "--variant", rules];
        let args = [&args[..], &["--time-ms", "1000", "--threads", threads]].concat();
        let (done, in_time) = output_within(spawn(&args), ANSWER_WITHIN);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(
            in_time,
            "MCTS, {threads} threads: ran past {ANSWER_WITHIN:?}"
        );
        assert!(done.status.success(), "MCTS: {stderr}");
    }
}

#[test]
fn a_signal_stops_a_vast_search_and_perft_keeps_its_count() {
    let (_dir, rules) = explode_rules("vast-signals");
    let rules = rules.as_str();
    // No time limit of its own: only the signal ends it.
    let analyze = [
        "analyze",
        "--variant",
        rules,
        "--position",
        VAST,
        "--depth",
        "30",
        "--json",
    ];
    for (sig, status) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        let child = spawn(&analyze);
        signal_when_ready(&child, sig);
        let (done, in_time) = output_within(child, ANSWER_WITHIN);
        assert!(in_time, "{sig}: still searching");
        assert_eq!(done.status.code(), Some(status), "{sig}");
        let json: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
        assert_eq!(json["interrupted"], true, "{sig}: {json}");
        assert!(json["best_move"].is_string(), "{sig}: {json}");
    }
    let mcts = ["analyze", "--engine", "mcts", "--variant", rules, "--json"];
    let child = spawn(&mcts);
    signal_when_ready(&child, "-INT");
    let (done, in_time) = output_within(child, ANSWER_WITHIN);
    assert!(in_time && done.status.code() == Some(130), "MCTS: {done:?}");
    let perft = [
        "perft",
        "--variant",
        rules,
        "--position",
        VAST,
        "--depth",
        "2",
        "--json",
    ];
    let child = spawn(&perft);
    signal_when_ready(&child, "-INT");
    let (done, in_time) = output_within(child, ANSWER_WITHIN);
    assert!(in_time && done.status.code() == Some(130), "{done:?}");
    let json: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(json["interrupted"], true, "{json}");
    assert!(json["root_moves_counted"].as_u64() > Some(0), "{json}");
    assert!(json["nodes"].as_u64() > Some(0), "{json}");
}

#[test]
fn ugi_stop_answers_and_quit_ends_a_vast_search() {
    let (_dir, rules) = explode_rules("vast-ugi");
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .arg("ugi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    let mut to = child.stdin.take().unwrap();
    let (lines, seen) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let until = |prefix: &str| loop {
        match seen.recv_timeout(ANSWER_WITHIN) {
            Ok(line) if line.starts_with(prefix) => return line,
            Ok(_) => {}
            Err(e) => panic!("no '{prefix}' line: {e}"),
        }
    };
    writeln!(
        to,
        "ugi\nsetoption name Variant value {rules}\nposition fen {VAST}"
    )
    .unwrap();
    writeln!(to, "go infinite").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    writeln!(to, "stop\nisready").unwrap();
    assert!(until("bestmove ").len() > "bestmove ".len());
    until("readyok");
    writeln!(to, "go movetime 300").unwrap();
    until("bestmove ");
    writeln!(to, "go infinite").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    writeln!(to, "quit").unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < ANSWER_WITHIN,
            "quit did not end the program"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
