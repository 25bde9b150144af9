//! `isolo-ai ugi` driven as a manager would: a process, commands on its input, answers
//! read line by line with deadlines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// How long one answer may take.
const ANSWER: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Every line sent (`> `) and received, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_isolo-ai"));
        command.arg("ugi");
        Engine::start_in(command)
    }

    /// The engine `command` starts.
    fn start_in(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("binary runs");
        let input = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends raw bytes, a line that need not be text.
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("> {}", String::from_utf8_lossy(bytes)));
        self.input.write_all(bytes).unwrap();
        self.input.flush().unwrap();
    }

    fn send(&mut self, command: &str) {
        self.transcript.push(format!("> {command}"));
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
    }

    /// Lines up to and including the first that `done` accepts.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + ANSWER;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer in time:\n{}", self.transcript.join("\n")));
            self.transcript.push(line.clone());
            got.push(line.clone());
            if done(&line) {
                return got;
            }
        }
    }

    /// The lines answering `command`, up to and including the first starting `prefix`.
    fn ask_all(&mut self, command: &str, prefix: &str) -> Vec<String> {
        self.send(command);
        self.until(|l| l.starts_with(prefix))
    }

    fn ask(&mut self, command: &str, prefix: &str) -> String {
        self.send(command);
        self.until(|l| l.starts_with(prefix)).pop().unwrap()
    }

    fn bestmove(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let mut lines = self.until(|l| l.starts_with("bestmove "));
        let best = lines.pop().unwrap()["bestmove ".len()..].to_string();
        (best, lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `Hash` in range that the machine cannot give (here a limit on virtual memory, as a
/// container may set) is refused as it is set, and `go` still answers, with the size
/// before.
#[test]
fn a_hash_the_machine_cannot_give_is_refused_when_set() {
    let mut command = Command::new("sh");
    let binary = env!("CARGO_BIN_EXE_isolo-ai");
    command.args(["-c", &format!("ulimit -v 2000000 && exec '{binary}' ugi")]);
    let mut e = Engine::start_in(command);
    e.send("ugi");
    let hello = e.until(|l| l == "ugiok");
    let most: usize = hello
        .iter()
        .find(|l| l.starts_with("option name Hash "))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
        .expect("Hash announced with its maximum");
    if most < 4096 {
        return; // (A machine too small to offer a size past the limit.)
    }
    let refused = e.ask("setoption name Hash value 4096", "info string error");
    assert!(refused.contains("cannot be allocated"), "{refused}");
    e.ask("isready", "readyok");
    let (best, _) = e.bestmove("go depth 2");
    assert!(!best.is_empty() && best != "none", "{best}");
}

#[test]
fn handshake_options_and_queries() {
    let mut e = Engine::start();
    e.send("ugi");
    let hello = e.until(|l| l == "ugiok");
    assert!(hello[0].starts_with("id name isolo-ai"), "{hello:?}");
    for option in [
        "Variant",
        "Engine",
        "Hash",
        "Threads",
        "MultiPV",
        "Weights",
        "Seed",
        "Contempt",
        "Level",
        "LimitStrength",
        "ShowWDL",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} "))),
            "{option} missing: {hello:?}"
        );
    }
    assert_eq!(e.ask("isready", "readyok"), "readyok");
    e.send("setoption name Variant value isolo-women");
    e.send("position startpos");
    assert_eq!(e.ask("query p1turn", "response"), "response true");
    assert_eq!(e.ask("query gameover", "response"), "response false");
    e.send("position startpos moves 12");
    assert_eq!(e.ask("query p1turn", "response"), "response false");
    assert_eq!(e.ask("query result", "response"), "response none");
}

#[test]
fn a_proven_win_is_reported_exactly_and_a_finished_game_has_no_move() {
    let mut e = Engine::start();
    e.send("setoption name Variant value isolo-women");
    e.send("position startpos");
    let (best, info) = e.bestmove("go depth 6");
    assert_eq!(best, "12");
    let last = info.last().unwrap();
    assert!(
        last.contains(" score win 5 ") && last.contains(" pv 12 "),
        "{last}"
    );
    // South has no move: the game is over, North won.
    e.send("position fen 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S");
    assert_eq!(e.ask("query gameover", "response"), "response true");
    assert_eq!(e.ask("query result", "response"), "response p2win");
    assert_eq!(e.bestmove("go movetime 50").0, "none");
    // One legal move on the clock is played at once; a fixed time still searches it.
    e.send("position fen 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,3 S");
    let (best, info) = e.bestmove("go p1time 60000 p2time 60000");
    assert_eq!(best, "8");
    assert_eq!(info, ["info string the only move: played at once"]);
    let (best, info) = e.bestmove("go movetime 50");
    assert_eq!(best, "8");
    assert!(
        info.iter().any(|l| l.contains(" score loss 2 ")),
        "{info:?}"
    );
}

#[test]
fn bad_commands_are_answered_and_ignored() {
    let mut e = Engine::start();
    for (command, expected) in [
        ("bogus", "unknown command 'bogus'"),
        // Control bytes sent are written back as escapes, never as themselves.
        ("posi\0tion", "unknown command 'posi\\0tion'"),
        ("go\u{1b}[31m", "unknown command 'go\\u{1b}[31m'"),
        (
            "go nodes x",
            "go: nodes: 'x' is not a whole number (at least 1)",
        ),
        ("go depth", "go: depth: needs a value (1..=100 plies)"),
        ("setoption name Level value", "Level: needs a value (1..=8)"),
        (
            "setoption name Seed value -1",
            "Seed: must be at least 0, found -1",
        ),
        (
            "setoption name Level value -1",
            "Level: must be 1..=8, found -1",
        ),
        ("go sideways 3", "unknown parameter 'sideways'"),
        ("go depth 5 depth 6", "go: 'depth' given twice"),
        ("position fen 1,2 S", "position:"),
        ("position startpos moves 1 99", "move 2 of 2"),
        ("setoption name Hash value 0", "Hash: must be 1..="),
        (
            "setoption name Contempt value 101",
            "Contempt: must be 0..=100",
        ),
        (
            "setoption name Variant value chess",
            "Variant: unknown variant",
        ),
        ("setoption name Colour value red", "unknown option 'colour'"),
        ("query weather", "query: expected"),
        ("perft", "perft: depth: needs a value (0..=64 plies)"),
    ] {
        let answer = e.ask(command, "info string error: ");
        assert!(answer.contains(expected), "{command}: {answer}");
    }
    assert_eq!(e.ask("isready", "readyok"), "readyok");
    assert_eq!(
        e.ask("perft 2", "info string perft"),
        "info string perft 2 nodes 51"
    );
    // Bytes that are not text, and a line too long to hold, are reported and skipped.
    e.send_bytes(b"\xff\xfe isready\n");
    let answer = e.until(|l| l.starts_with("info string error: "));
    assert!(answer.concat().contains("not UTF-8"), "{answer:?}");
    let mut long = vec![b'a'; 1 << 21];
    long.push(b'\n');
    e.send_bytes(&long);
    let answer = e.until(|l| l.starts_with("info string error: "));
    assert!(answer.concat().contains("is over"), "{answer:?}");
    assert_eq!(e.ask("isready", "readyok"), "readyok");
}

/// Sends `command` (then `stop`, for a `go`) and says whether it was taken: no
/// `info string error:` before the next `readyok`. A refusal must name `range`.
fn taken(e: &mut Engine, command: &str, range: &str) -> bool {
    e.send(command);
    if command.starts_with("go ") || command.starts_with("perft ") {
        e.send("stop");
    }
    let lines = e.ask_all("isready", "readyok");
    let refusal = lines.iter().find(|l| l.starts_with("info string error: "));
    if let Some(line) = refusal {
        assert!(line.contains(range), "{command}: {line}");
        // (A refused go searched nothing: no bestmove comes.)
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
    } else if command.starts_with("go ") && !lines.iter().any(|l| l.starts_with("bestmove ")) {
        e.until(|l| l.starts_with("bestmove "));
    }
    refusal.is_none()
}

/// docs/UGI.md#ranges, probed at its ends: the least and the most are taken, one past
/// either is refused naming the range.
#[test]
fn every_documented_range_is_enforced() {
    let doc = include_str!("../../docs/UGI.md");
    let mut e = Engine::start();
    e.send("ugi");
    let hash_most: u64 = e
        .until(|l| l == "ugiok")
        .iter()
        .find_map(|l| l.strip_prefix("option name Hash type spin default 64 min 1 max "))
        .and_then(|n| n.parse().ok())
        .expect("Hash announces its most");
    e.send("position startpos");
    // (the table's row, the command up to its value, least, most, the range said)
    let probes: [(&str, &str, u64, Option<u64>, &str); 13] = [
        (
            "`go depth` | 1..=100 plies",
            "go depth",
            1,
            Some(100),
            "1..=100 plies",
        ),
        ("`go nodes` | at least 1", "go nodes", 1, None, "at least 1"),
        (
            "`go movetime` | 1..=86400000 ms",
            "go movetime",
            1,
            Some(86_400_000),
            "1..=86400000 ms",
        ),
        (
            "`p2inc` | 0..=86400000 ms",
            "go p1time",
            0,
            Some(86_400_000),
            "0..=86400000 ms",
        ),
        (
            "`p2inc` | 0..=86400000 ms",
            "go p2time",
            0,
            Some(86_400_000),
            "0..=86400000 ms",
        ),
        (
            "`p2inc` | 0..=86400000 ms",
            "go p1time 10 p1inc",
            0,
            Some(86_400_000),
            "0..=86400000 ms",
        ),
        (
            "`p2inc` | 0..=86400000 ms",
            "go p1time 10 p2inc",
            0,
            Some(86_400_000),
            "0..=86400000 ms",
        ),
        (
            "`perft` | 0..=64 plies",
            "perft",
            0,
            Some(64),
            "0..=64 plies",
        ),
        (
            "`setoption name Threads` | 1..=256",
            "setoption name Threads value",
            1,
            Some(256),
            "1..=256",
        ),
        (
            "`setoption name MultiPV` | 1..=256",
            "setoption name MultiPV value",
            1,
            Some(256),
            "1..=256",
        ),
        (
            "`setoption name Level` | 1..=8",
            "setoption name Level value",
            1,
            Some(8),
            "1..=8",
        ),
        (
            "`setoption name Contempt` | 0..=100 seeds",
            "setoption name Contempt value",
            0,
            Some(100),
            "0..=100",
        ),
        (
            "`setoption name Hash` | 1..=the most",
            "setoption name Hash value",
            1,
            Some(hash_most),
            "1..=",
        ),
    ];
    for (row, command, least, most, range) in probes {
        assert!(doc.contains(row), "docs/UGI.md#ranges lacks {row}");
        assert!(
            taken(&mut e, &format!("{command} {least}"), range),
            "{command} {least}"
        );
        if least > 0 {
            assert!(!taken(&mut e, &format!("{command} {}", least - 1), range));
        }
        assert!(
            !taken(&mut e, &format!("{command} -1"), range),
            "{command} -1"
        );
        if let Some(most) = most {
            // (A search to the most is stopped at once; the largest table is not made.)
            assert!(
                taken(&mut e, &format!("{command} {most}"), range),
                "{command} {most}"
            );
            assert!(!taken(&mut e, &format!("{command} {}", most + 1), range));
        }
    }
    assert!(doc.contains("`setoption name Seed` | any 64-bit number"));
    assert!(taken(
        &mut e,
        &format!("setoption name Seed value {}", u64::MAX),
        ""
    ));
}

/// The first `plies` moves of a game the engine plays against itself at `go depth 3`
/// with `options` set, and the `info string level` lines it said.
fn level_game(options: &[&str], plies: usize) -> (Vec<String>, Vec<String>) {
    let mut e = Engine::start();
    e.send("setoption name Variant value isolo-boys-capture-ends");
    for option in options {
        e.send(option);
    }
    let (mut moves, mut notes) = (Vec::new(), Vec::new());
    for _ in 0..plies {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let (best, lines) = e.bestmove("go depth 3");
        notes.extend(
            lines
                .into_iter()
                .filter(|l| l.starts_with("info string level")),
        );
        moves.push(best);
    }
    (moves, notes)
}

#[test]
fn a_limited_strength_plays_its_level_and_replays_from_its_seed() {
    let full = level_game(&["setoption name Level value 1"], 12);
    assert!(
        full.1.is_empty(),
        "Level alone leaves the strength: {:?}",
        full.1
    );
    let weak = [
        "setoption name Level value 1",
        "setoption name LimitStrength value true",
    ];
    let first = level_game(&weak, 12);
    assert_eq!(first.1.len(), 12, "each move says what the level played");
    assert!(
        first.1[0].starts_with("info string level 1: plays "),
        "{:?}",
        first.1
    );
    assert_ne!(first.0, full.0, "level 1 plays other moves than the engine");
    assert_eq!(level_game(&weak, 12), first, "a session replays");
    let reseeded = [weak[0], weak[1], "setoption name Seed value 9"];
    assert_ne!(
        level_game(&reseeded, 12).0,
        first.0,
        "the seed draws the moves"
    );
    let mut e = Engine::start();
    e.send("setoption name LimitStrength value maybe");
    assert!(e
        .ask("isready", "info string error")
        .contains("LimitStrength: expected true or false"));
}

/// The `wdl W D L` of an `info` line, if it has one.
fn wdl_of(info: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "wdl")?;
    let n = |k: usize| words[at + k].parse::<u32>().unwrap();
    Some([n(1), n(2), n(3)])
}

#[test]
fn info_lines_carry_win_draw_loss_per_mille_unless_turned_off() {
    let mut e = Engine::start();
    e.send("setoption name Variant value isolo-boys-capture-ends");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty());
    for info in &infos {
        let wdl = wdl_of(info).unwrap_or_else(|| panic!("no wdl: {info}"));
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
        assert!(
            info.find(" wdl ") > info.find(" score "),
            "after the score: {info}"
        );
    }
    // A proven win is certain.
    e.send("setoption name Variant value isolo-women");
    e.send("position startpos");
    e.send("go depth 8");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score win "))
        .expect("a win");
    assert_eq!(wdl_of(last), Some([1000, 0, 0]), "{last}");
    e.send("setoption name ShowWDL value false");
    e.send("go depth 2");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| wdl_of(l).is_none()), "{lines:?}");
}

#[test]
fn review_marks_the_game_of_the_last_position_and_stops_when_told() {
    let mut e = Engine::start();
    e.send("setoption name Variant value isolo-women");
    e.send("position startpos moves 1 9 4");
    e.send("review depth 8");
    let lines = e.until(|l| l == "info string review end");
    let moves: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string review ply "))
        .collect();
    assert_eq!(moves.len(), 3, "{lines:?}");
    assert!(moves[0].starts_with("info string review ply 1 side S move 1 best "));
    assert!(
        moves[2].contains(" turning threw away a win in "),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string review accuracy S ")));
    e.send("review");
    assert!(e
        .ask("isready", "info string error")
        .contains("review: give nodes, depth or movetime"));
    // A long review is cut short by stop, saying so, and the engine goes on.
    e.send("setoption name Variant value isolo-boys-capture-ends");
    e.send("position startpos moves 13 5 3 1 11 7 10 10");
    e.send("review movetime 5000");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("stop");
    let lines = e.until(|l| l == "info string review end");
    assert!(lines.iter().any(|l| l.ends_with("(stopped)")), "{lines:?}");
    assert_eq!(e.ask("isready", "readyok"), "readyok");
}

#[test]
fn stop_and_quit_are_obeyed_during_a_search() {
    let mut e = Engine::start();
    e.send("setoption name Variant value igisoro");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(e.ask("isready", "readyok"), "readyok");
    let started = Instant::now();
    let (best, _) = e.bestmove("stop");
    assert!(best.parse::<u8>().is_ok(), "{best}");
    assert!(started.elapsed() < Duration::from_secs(5));
    e.send("setoption name Engine value mcts");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Igisoro's lone seed: a dead position, over by the rules (RULES.md 3.6), a draw; a
/// rules file that plays on leaves it open.
#[test]
fn a_dead_position_is_over_and_drawn() {
    let mut e = Engine::start();
    e.send("setoption name Variant value igisoro");
    e.send("position fen 0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S");
    assert_eq!(e.ask("query gameover", "response"), "response true");
    assert_eq!(e.ask("query result", "response"), "response draw");
    // The side to move has moves, but the game is over: nothing to play.
    assert_eq!(e.bestmove("go depth 3").0, "none");
}

/// `go infinite` answers only after `stop`, even where the search ends by itself: a
/// level's small budget, or a proven result.
#[test]
fn go_infinite_waits_for_stop_at_every_level() {
    let mut e = Engine::start();
    e.send("setoption name Variant value isolo-women");
    e.send("setoption name LimitStrength value true");
    e.send("setoption name Level value 1");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(600));
    // Nothing answered yet: readyok comes with no bestmove before it.
    let lines = e.ask_all("isready", "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let (best, _) = e.bestmove("stop");
    assert!(best.parse::<u8>().is_ok(), "{best}");
}

#[test]
fn a_whole_game_through_the_protocol() {
    let mut e = Engine::start();
    e.send("setoption name Variant value isolo-boys");
    e.send("uginewgame");
    let mut moves: Vec<String> = Vec::new();
    loop {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        if e.ask("query gameover", "response") == "response true" {
            break;
        }
        let (best, _) = e.bestmove("go p1time 2000 p2time 2000 p1inc 10 p2inc 10");
        moves.push(best);
        assert!(moves.len() < 300, "the game should end");
    }
    let result = e.ask("query result", "response");
    assert!(
        result == "response p1win" || result == "response p2win",
        "{result}"
    );
    // The same moves, checked by the rules as apply plays them.
    let applied = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "apply",
            "--variant",
            "isolo-boys",
            "--json",
            "--moves",
            &moves.join(" "),
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&applied.stdout).unwrap();
    let winner = if result == "response p1win" { "S" } else { "N" };
    assert_eq!(json["result"], winner);
}

/// The first answer letter (`r` or `s`, RULES.md 3.4) at or after byte `from` of `mv`.
fn next_answer(mv: &str, from: usize) -> Option<usize> {
    mv[from..].find(['r', 's']).map(|i| i + from)
}

/// Under the retreat a manager asks the opponent for each answer in a move and the mover
/// for the rest after an answer it did not expect, by sending the move half made last
/// in `position`: each `bestmove` is a whole move that begins with the letters given.
#[test]
fn a_move_half_made_is_completed_by_the_side_that_decides() {
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/family/igisoro-retreat.toml"
    );
    let mut e = Engine::start();
    e.send(&format!("setoption name Variant value {rules}"));
    e.send("uginewgame");
    let mut counts = HalfMoveCounts::default();
    // Games from South's first pits in turn, until enough answers were asked.
    for first in 1..=8 {
        if counts.answers >= 4 && counts.resumed >= 2 {
            break;
        }
        let moves = half_made_game(&mut e, first, &mut counts);
        // Every move as played is legal.
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        assert!(e.ask("query gameover", "response").starts_with("response"));
    }
    assert!(counts.answers >= 4 && counts.resumed >= 2, "{counts:?}");
    // Letters that are no move half made are refused, and so is any half move where
    // the rules have no retreat.
    for (variant, moves) in [(rules, "99xp"), (rules, "7pq"), ("igisoro", "7p")] {
        e.send(&format!("setoption name Variant value {variant}"));
        let said = e.ask(
            &format!("position startpos moves {moves}"),
            "info string error",
        );
        assert!(said.contains("position: "), "{said}");
    }
}

/// Answers asked, and moves resumed after the answer their plan did not expect.
#[derive(Debug, Default)]
struct HalfMoveCounts {
    answers: usize,
    resumed: usize,
}

/// A game played as a manager plays one under the retreat, South opening from pit
/// `first`, with the moves as played.
fn half_made_game(e: &mut Engine, first: u8, counts: &mut HalfMoveCounts) -> Vec<String> {
    let mut moves: Vec<String> = vec![first.to_string()];
    while moves.len() < 80 {
        let before = moves.join(" ");
        e.send(&format!("position startpos moves {before}"));
        if e.ask("query gameover", "response") == "response true" {
            break;
        }
        let mover = e.ask("query p1turn", "response");
        let (mut plan, _) = e.bestmove("go depth 1");
        let mut settled = 0;
        while let Some(at) = next_answer(&plan, settled) {
            let half = plan[..at].to_string();
            e.send(&format!("position startpos moves {before} {half}"));
            assert_ne!(
                e.ask("query p1turn", "response"),
                mover,
                "the opponent answers"
            );
            let (answered, _) = e.bestmove("go depth 2");
            assert!(
                answered.starts_with(&half) && answered.len() > at,
                "{answered}"
            );
            counts.answers += 1;
            // The mover, asked to go on after the answer its plan did not expect.
            let unplanned = format!("{half}{}", if &plan[at..=at] == "r" { "s" } else { "r" });
            e.send(&format!("position startpos moves {before} {unplanned}"));
            if e.ask("query p1turn", "response") == mover {
                let (rest, _) = e.bestmove("go depth 2");
                assert!(
                    rest.starts_with(&unplanned),
                    "{rest} goes on from {unplanned}"
                );
                counts.resumed += 1;
            }
            settled = at + 1;
            if answered[at..=at] == plan[at..=at] {
                continue;
            }
            let given = answered[..=at].to_string();
            e.send(&format!("position startpos moves {before} {given}"));
            plan = if e.ask("query p1turn", "response") == mover {
                e.bestmove("go depth 2").0
            } else {
                // The answer ended the move.
                given
            };
        }
        moves.push(plan);
    }
    moves
}
