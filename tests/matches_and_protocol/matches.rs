//! match, tournament, openings and replay as a user runs them.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::process::{
    games_without_times as records, json, ok, output_within, resealed, run, scratch, Scratch,
};

fn fails(args: &[&str], expected: &str) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(expected),
        "{args:?}: {stderr:?} lacks {expected:?}"
    );
}

const BOYS_OPENINGS: &str = "# two boys' positions\n\
17,0,0,0,1,0,2,0/0,0,1,1,1,2,0,0/0,2,3,4,4,7,4,1/2,3,0,3,2,0,2,2 S N\n\
17,0,1,0,1,3,1,0/0,0,5,0,3,1,1,1/1,1,1,0,0,2,1,0/0,1,0,0,3,1,2,17 S SN\n";

#[test]
fn records_do_not_depend_on_concurrency_and_pairs_reverse_colours() {
    let dir = scratch("concurrency");
    let book = dir.join("book.txt");
    std::fs::write(&book, BOYS_OPENINGS).unwrap();
    let mut files = Vec::new();
    for concurrency in ["1", "2"] {
        let out = dir.join(format!("games-{concurrency}.jsonl"));
        let args = [
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab:depth=2",
            "--engine",
            "mcts:iters=300",
            "--games",
            "8",
            "--seed",
            "11",
            "--openings",
            book.to_str().unwrap(),
            "--concurrency",
            concurrency,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ];
        let summary = json(&args);
        assert_eq!(summary["games"], 8);
        files.push(records(&out));
    }
    assert_eq!(
        files[0], files[1],
        "same seed, same records at concurrency 1 and 2"
    );
    let games = &files[0];
    for pair in games.chunks(2) {
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["south"], pair[1]["north"]);
        assert_eq!(pair[0]["north"], pair[1]["south"]);
    }
    assert_ne!(
        games[0]["opening"], games[2]["opening"],
        "pairs cycle through the book"
    );
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i);
        for key in [
            "opening", "south", "north", "moves", "result", "reason", "plies", "seed",
        ] {
            assert!(g.get(key).is_some(), "record lacks {key}");
        }
    }
}

#[test]
fn an_interrupted_match_resumes_to_the_same_result() {
    let dir = scratch("resume");
    let full = dir.join("full.jsonl");
    let base = [
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "a=ab:depth=3",
        "--engine",
        "b=greedy",
        "--games",
        "10",
        "--seed",
        "4",
    ];
    let mut args: Vec<&str> = base.to_vec();
    args.extend(["--out", full.to_str().unwrap(), "--json"]);
    let expected = json(&args);
    // An interruption: the header and four games written, the fifth cut mid-line.
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = dir.join("cut.jsonl");
    std::fs::write(
        &cut,
        format!("{}\n{}", lines[..5].join("\n"), &lines[5][..20]),
    )
    .unwrap();
    let mut again: Vec<&str> = base.to_vec();
    again.extend(["--out", cut.to_str().unwrap(), "--json"]);
    fails(&again, "already holds records: add --resume");
    again.push("--resume");
    let resumed = json(&again);
    for key in ["games", "a_wins", "b_wins", "draws", "pentanomial", "elo"] {
        assert_eq!(resumed[key], expected[key], "{key}");
    }
    assert_eq!(records(&cut), records(&full));
    // Resuming a different match into the same file is refused.
    let mut other: Vec<&str> = base.to_vec();
    other[4] = "a=ab:depth=4";
    other.extend(["--out", cut.to_str().unwrap(), "--resume"]);
    fails(
        &other,
        "holds another run: engines: a=ab:depth=4 b=greedy here, a=ab:depth=3 b=greedy in the file",
    );
    // A game whose result was edited does not replay: resuming it is refused, naming it.
    let edited = dir.join("edited.jsonl");
    let mut game: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
    game["result"] = if game["result"] == "S" { "N" } else { "S" }.into();
    let edited_lines = [lines[0].to_string(), lines[1].to_string(), game.to_string()];
    std::fs::write(&edited, edited_lines.join("\n") + "\n").unwrap();
    let mut resume_edited: Vec<&str> = base.to_vec();
    resume_edited.extend(["--out", edited.to_str().unwrap(), "--resume"]);
    fails(&resume_edited, "--resume: ");
    fails(&resume_edited, "game 1: digest");
    std::fs::write(&edited, resealed(&edited_lines).join("\n") + "\n").unwrap();
    fails(&resume_edited, "game 1: records ");
}

/// Two columns, one seed each, one seed to sow: every move shifts a seed along and no
/// capture can happen, so the game goes round in circles.
const CIRCLES: &str = "name = \"circles\"\nbase = \"isolo-women\"\ncolumns = 2\nmin_sow = 1\nstart = \"0,1/0,0/0,0/1,0\"\n";

#[test]
fn every_end_reason_is_recorded() {
    let dir = scratch("reasons");
    let rules = dir.join("circles.toml");
    std::fs::write(&rules, CIRCLES).unwrap();
    let rules = rules.to_str().unwrap();
    let reasons = |extra: &[&str], out: &PathBuf| {
        let mut args = vec![
            "match",
            "--variant",
            rules,
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        ok(&args);
        records(out)
            .iter()
            .map(|r| {
                (
                    r["reason"].as_str().unwrap().to_string(),
                    r["result"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let repeated = reasons(&[], &dir.join("a.jsonl"));
    assert!(
        repeated
            .iter()
            .all(|(reason, result)| reason == "repetition" && result == "draw"),
        "{repeated:?}"
    );
    let limited = reasons(&["--max-plies", "5"], &dir.join("b.jsonl"));
    assert!(
        limited
            .iter()
            .all(|(reason, result)| reason == "ply-limit" && result == "draw"),
        "{limited:?}"
    );
    let boys = dir.join("c.jsonl");
    ok(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:depth=2",
        "--engine",
        "random",
        "--games",
        "2",
        "--out",
        boys.to_str().unwrap(),
    ]);
    assert!(records(&boys)
        .iter()
        .all(|r| r["reason"] == "no-moves" && r["result"] != "draw"));
    // replay agrees with every record.
    for file in ["a.jsonl", "b.jsonl", "c.jsonl"] {
        let out = ok(&["replay", dir.join(file).to_str().unwrap()]);
        assert!(
            out.contains("2 of 2 games checked: every move legal, every result consistent"),
            "{out}"
        );
    }
}

/// A file of records format 1 (before the digests): `replay` reads it and says what it
/// cannot check; `--resume` refuses to add chained games to it.
#[test]
fn a_file_without_digests_is_read_and_not_resumed() {
    let dir = scratch("format-1");
    let out = dir.join("games.jsonl");
    let path = out.to_str().unwrap();
    let args = [
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "4",
        "--out",
        path,
    ];
    ok(&args);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = lines[0].as_object_mut().unwrap();
    header.insert("isolo_ai_records".into(), 1.into());
    header.insert("fingerprint".into(), "".into());
    let fingerprint =
        isolo_engine::matches::records::fingerprint_of(&serde_json::to_string(header).unwrap());
    header.insert("fingerprint".into(), fingerprint.into());
    for game in &mut lines[1..] {
        game.as_object_mut().unwrap().remove("digest");
    }
    let old: Vec<String> = lines.iter().map(|v| v.to_string()).collect();
    std::fs::write(&out, old.join("\n") + "\n").unwrap();
    let replayed = ok(&["replay", path]);
    assert!(
        replayed.contains("4 of 4 games checked")
            && replayed.contains("no digests (records format 1"),
        "{replayed}"
    );
    fails(
        &[&args[..], &["--resume"]].concat(),
        "is in records format 1",
    );
    // `review` says the same on stderr, and reviews the game.
    let review = run(&["review", "--records", path, "--game", "1", "--nodes", "200"]);
    let stderr = String::from_utf8_lossy(&review.stderr);
    assert!(review.status.success(), "{stderr}");
    assert!(stderr.contains("no digests (records format 1"), "{stderr}");
}

#[test]
fn replay_shows_a_game_and_finds_a_forged_move() {
    let dir = scratch("replay");
    let out = dir.join("games.jsonl");
    ok(&[
        "match",
        "--variant",
        "isolo-women",
        "--engine",
        "ab:depth=3",
        "--engine",
        "random",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let shown = ok(&["replay", out.to_str().unwrap(), "--game", "1"]);
    assert!(
        shown.contains("Game 1: random (South) vs ab:depth=3 (North)")
            && shown.contains("1. South plays "),
        "{shown}"
    );
    fails(
        &["replay", out.to_str().unwrap(), "--game", "7"],
        "--game: no game 7",
    );
    // A move replaced by a pit that cannot move there: a legal notation, an illegal move.
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    let moves: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let (index, illegal) = (0..moves.len())
        .find_map(|i| {
            let before = ok(&[
                "apply",
                "--variant",
                "isolo-women",
                "--position",
                game["opening"].as_str().unwrap(),
                "--moves",
                &format!("{} ", moves[..i].join(" ")),
            ]);
            let legal = ok(&[
                "moves",
                "--variant",
                "isolo-women",
                "--position",
                before.trim(),
            ]);
            (1..=16)
                .map(|p| p.to_string())
                .find(|p| {
                    !legal
                        .lines()
                        .any(|l| l.split_whitespace().next() == Some(p))
                })
                .map(|p| (i, p))
        })
        .expect("some position has an empty pit");
    game["moves"][index] = serde_json::Value::String(illegal);
    lines[1] = game.to_string();
    std::fs::write(&out, lines.join("\n") + "\n").unwrap();
    fails(&["replay", out.to_str().unwrap()], "game 0: digest");
    std::fs::write(&out, resealed(&lines).join("\n") + "\n").unwrap();
    let mover = if index % 2 == 0 { "South" } else { "North" };
    fails(
        &["replay", out.to_str().unwrap()],
        &format!("game 0, move {} ({mover})", index + 1),
    );
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let summary = json(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:depth=3",
        "--engine",
        "random",
        "--games",
        "400",
        "--seed",
        "2",
        "--sprt",
        "0,200,0.05,0.05",
        "--json",
    ]);
    assert_eq!(summary["sprt"]["verdict"], "h1");
    assert_eq!(summary["stopped_early"], true);
    assert!(summary["games"].as_u64().unwrap() < 400);
    let keys: Vec<&String> = summary.as_object().unwrap().keys().collect();
    for key in [
        "engines",
        "games",
        "a_wins",
        "b_wins",
        "draws",
        "score",
        "elo",
        "elo_ci95",
        "los",
        "pentanomial",
        "sprt",
    ] {
        assert!(keys.iter().any(|k| *k == key), "summary lacks {key}");
    }
}

#[test]
fn match_inputs_are_checked() {
    fails(
        &["match", "--variant", "isolo-boys", "--engine", "ab"],
        "match takes exactly two --engine, found 1",
    );
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab",
            "--engine",
            "ab",
        ],
        "two engines are labelled 'ab'",
    );
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab:deep=3",
            "--engine",
            "random",
        ],
        "--engine: engine 'ab:deep=3': unknown key `deep`",
    );
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab",
            "--engine",
            "random",
            "--sprt",
            "0,5",
        ],
        "--sprt: expected elo0,elo1,alpha,beta",
    );
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab",
            "--engine",
            "random",
            "--resume",
        ],
        "--resume needs --out FILE",
    );
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab",
            "--engine",
            "random",
            "--openings",
            "/no/book",
        ],
        "openings file /no/book: cannot read",
    );
    fails(
        &[
            "tournament",
            "--variant",
            "isolo-boys",
            "--engine",
            "ab",
            "--engine",
            "random",
        ],
        "tournament needs at least three --engine",
    );
}

#[test]
fn tournament_round_robin_and_gauntlet() {
    let engines = [
        "--engine",
        "ab:depth=3",
        "--engine",
        "greedy",
        "--engine",
        "random",
    ];
    let mut args = vec![
        "tournament",
        "--variant",
        "isolo-boys",
        "--games",
        "4",
        "--json",
    ];
    args.extend(engines);
    let table = json(&args);
    assert_eq!(table["games"], 12, "three pairings of four games");
    let standings = table["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    assert_eq!(standings[2]["engine"], "random", "weakest last");
    let points: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 12.0);
    args.push("--gauntlet");
    args.extend(["--anchor", "random"]);
    let gauntlet = json(&args);
    assert_eq!(gauntlet["games"], 8, "the first engine against each other");
    let random = gauntlet["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["engine"] == "random")
        .unwrap()
        .clone();
    assert_eq!(random["elo"], 0.0);
    let text = ok(&[
        "tournament",
        "--variant",
        "isolo-boys",
        "--games",
        "2",
        "--engine",
        "ab:depth=2",
        "--engine",
        "greedy",
        "--engine",
        "random",
    ]);
    assert!(
        text.contains("crosstable (points of the row against the column)")
            && text.contains("ratings: mean 0")
            && !text.contains("ladder steps"),
        "{text}"
    );
}

/// A ladder (engines weakest first) reports its steps: each engine against the one
/// given before it, in text and JSON, and sharded the same after `merge`.
#[test]
fn a_ladder_reports_its_steps_and_merges_them() {
    let mut args = vec![
        "tournament",
        "--variant",
        "isolo-boys",
        "--games",
        "2",
        "--ladder",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--engine",
        "ab:depth=3",
        "--engine",
        "ab:depth=4",
    ];
    let text = ok(&args);
    assert!(
        text.contains("ladder steps (each engine against the one given before it)"),
        "{text}"
    );
    args.push("--json");
    let whole = json(&args);
    let steps = whole["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[0]["engine"], "greedy");
    assert_eq!(steps[0]["below"], "random");
    assert_eq!(steps[0]["games"], 2);
    let dir = scratch("ladder");
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = dir.join(format!("shard{k}.jsonl")).display().to_string();
        let shard_arg = format!("{k}/2");
        let mut sharded = args.clone();
        sharded.extend(["--shard", &shard_arg, "--out", &shard]);
        json(&sharded);
        shards.push(shard);
    }
    let merged_path = dir.join("merged.jsonl").display().to_string();
    let mut merge = vec!["merge", merged_path.as_str(), "--json"];
    merge.extend(shards.iter().map(String::as_str));
    let merged = json(&merge);
    assert_eq!(merged["steps"], whole["steps"]);
}

#[test]
fn openings_builds_a_suite_that_match_can_use() {
    let dir = scratch("openings");
    let book = dir.join("boys.txt");
    ok(&[
        "openings",
        "--variant",
        "isolo-boys",
        "--plies",
        "4",
        "--count",
        "3",
        "--depth",
        "4",
        "--seed",
        "5",
        "--out",
        book.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.starts_with("# isolo-ai openings --variant isolo-boys --plies 4 --count 3"),
        "{text}"
    );
    let positions: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(positions.len(), 3);
    let summary = json(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--games",
        "6",
        "--openings",
        book.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(summary["games"], 6);
    // Rising judging depths: each must find a kept position balanced.
    ok(&[
        "openings",
        "--variant",
        "isolo-boys-capture-ends",
        "--plies",
        "4",
        "--count",
        "2",
        "--depth",
        "2,4",
        "--out",
        book.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains("--depth 2,4 --seed 0\n"), "{text}");
    assert!(
        text.contains("proven by the searches to depths 2, 4,"),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 2);
    std::fs::write(&book, "1,2,3 S\n").unwrap();
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "greedy",
            "--engine",
            "random",
            "--openings",
            book.to_str().unwrap(),
        ],
        "line 1: expected 4 rows",
    );
}

#[test]
fn the_committed_opening_suites_load() {
    let names = isolo_rules::PRESETS
        .iter()
        .chain(isolo_rules::READINGS.iter());
    for preset in names {
        let variant = isolo_rules::Variant::load(preset).unwrap();
        let path = format!("{}/openings/{preset}.txt", env!("CARGO_MANIFEST_DIR"));
        let suite = isolo_engine::matches::openings::load_suite(&variant, &path).unwrap();
        assert!(suite.len() >= 40, "{preset}: {} positions", suite.len());
    }
}

/// The records of a short finished match, as lines (header first), and its arguments.
fn short_match(dir: &Scratch, rules: &str, book: &std::path::Path) -> (PathBuf, Vec<String>) {
    let out = dir.join("games.jsonl");
    let args = [
        "match",
        "--variant",
        rules,
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "6",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    ok(&args);
    let lines = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (out, lines)
}

/// `line`'s game with the moves, result and times of `other`'s.
fn another_game(line: &str, other: &str) -> String {
    let cut = |text: &str, from: &str, to: &str| {
        let start = text.find(from).unwrap();
        let end = start + text[start..].find(to).unwrap();
        text[start..end].to_string()
    };
    let (play, times) = (("\"moves\"", ",\"seed\""), (",\"time_ms\"", ",\"digest\""));
    line.replace(&cut(line, play.0, play.1), &cut(other, play.0, play.1))
        .replace(&cut(line, times.0, times.1), &cut(other, times.0, times.1))
}

#[test]
fn resume_and_replay_refuse_altered_records_and_runs() {
    let dir = scratch("altered");
    let rules = dir.join("boys.toml");
    let boys_rules = ok(&["variants", "--show", "isolo-boys"]);
    std::fs::write(&rules, &boys_rules).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, BOYS_OPENINGS).unwrap();
    let rules_arg = rules.to_str().unwrap();
    let (out, lines) = short_match(&dir, rules_arg, &book);
    assert_eq!(lines.len(), 7, "a header and six games");
    let header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(header["isolo_ai_records"], 2);
    assert!(header["rules"].as_str().unwrap().contains("capture = "));
    let path = out.to_str().unwrap();
    let resume = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "--variant",
            rules_arg,
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--openings",
            book.to_str().unwrap(),
            "--out",
            path,
            "--resume",
        ];
        args.extend(extra);
        if !extra.contains(&"--games") {
            args.extend(["--games", "6"]);
        }
        args.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let write = |lines: &[String]| std::fs::write(&out, lines.join("\n") + "\n").unwrap();
    // replay, review and serve check a records file alike.
    let unreadable = |lines: &[String], expected: &str| {
        write(lines);
        fails(&["replay", path], expected);
        fails(&["review", "--records", path, "--game", "0"], expected);
        let serve = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(["serve", "--port", "0", "--records", path])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (output, in_time) = output_within(serve, std::time::Duration::from_secs(20));
        assert!(in_time, "serve --records took a file replay refuses");
        assert_eq!(output.status.code(), Some(2));
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains(expected), "serve: {said}");
    };
    let refused_once = |lines: &[String], expected: &str| {
        unreadable(lines, expected);
        let args = resume(&[]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&args, expected);
    };
    // Each edit breaks the digests' chain; made again with every digest computed anew
    // (the chain has no secret), the checks behind it still find it.
    let refused = |lines: &[String], expected: &str| {
        refused_once(lines, "does not follow the games before it");
        refused_once(&resealed(lines), expected);
    };
    // Duplicated, missing, out-of-range and foreign games.
    let mut duplicated = lines.clone();
    duplicated.insert(3, lines[2].clone());
    refused(&duplicated, "game 1 is recorded twice");
    let mut missing = lines.clone();
    missing.remove(2);
    refused(&missing, "game 1 is missing");
    let mut beyond = lines.clone();
    beyond[6] = beyond[6].replace("\"game\":5", "\"game\":99");
    refused(&beyond, "game 99 is beyond the schedule's 6 games");
    let mut swapped = lines.clone();
    swapped[1] = lines[1].replace(
        "\"south\":\"random\",\"north\":\"greedy\"",
        "\"south\":\"greedy\",\"north\":\"random\"",
    );
    refused(&swapped, "game 0 does not match the schedule");
    // A result its moves do not lead to.
    let winner = |side: &str| format!("\"result\":\"{side}\"");
    let flipped = if lines[1].contains(&winner("S")) {
        lines[1].replace(&winner("S"), &winner("N"))
    } else {
        lines[1].replace(&winner("N"), &winner("S"))
    };
    assert_ne!(flipped, lines[1], "game 0 was decisive");
    let mut contradicted = lines.clone();
    contradicted[1] = flipped;
    unreadable(&contradicted, "game 0: digest");
    unreadable(&resealed(&contradicted), "game 0: records");
    // Another legal game in game 0's place (game 1's moves, from the same opening with
    // the colours reversed) breaks only the chain: resealed, nothing can tell.
    let mut replaced = lines.clone();
    replaced[1] = another_game(&lines[1], &lines[2]);
    refused_once(&replaced, "game 0: digest");
    write(&resealed(&replaced));
    assert!(ok(&["replay", path]).contains("6 of 6 games checked"));
    // A byte-order mark, as some editors write, is no reason to refuse the file.
    let mut marked = lines.clone();
    marked[0] = format!("\u{feff}{}", lines[0]);
    write(&marked);
    assert!(ok(&["replay", path]).contains("every digest in its chain"));
    // A header edited by hand no longer matches its fingerprint.
    let mut edited = lines.clone();
    edited[0] = lines[0].replace("\"seed\":0", "\"seed\":1");
    refused_once(&edited, "fingerprint");
    // A different run: each difference is named.
    write(&lines);
    let differs = |extra: &[&str], expected: &str| {
        let args = resume(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&args, expected);
    };
    differs(
        &["--max-plies", "50"],
        "max-plies: 50 here, 1000 in the file",
    );
    differs(&["--seed", "3"], "seed: 3 here, 0 in the file");
    std::fs::write(
        &book,
        BOYS_OPENINGS.lines().take(2).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    differs(&[], "openings: 1 positions from");
    std::fs::write(&book, BOYS_OPENINGS).unwrap();
    std::fs::write(
        &rules,
        boys_rules.replace("capture_ends_move = false", "capture_ends_move = true"),
    )
    .unwrap();
    differs(
        &[],
        "rules: capture_ends_move = true here, capture_ends_move = false in the file",
    );
    // The file needs nothing else: replay works with the rules file gone, blank lines
    // are tolerated, and a cut last line is reported and ignored.
    std::fs::remove_file(&rules).unwrap();
    let mut spaced = lines.clone();
    spaced.insert(2, String::new());
    write(&spaced);
    std::fs::write(
        &out,
        std::fs::read_to_string(&out).unwrap() + "{\"game\":6,\"open",
    )
    .unwrap();
    let replayed = ok(&["replay", path]);
    assert!(replayed.contains("line 9 was cut short"), "{replayed}");
    assert!(replayed.contains("6 of 6 games checked"), "{replayed}");
    // More games is another run too.
    std::fs::write(&rules, &boys_rules).unwrap();
    differs(&["--games", "8"], "games: 8 here, 6 in the file");
}

#[test]
fn ctrl_c_prints_the_partial_summary_and_how_to_resume() {
    let dir = scratch("interrupt");
    let out = dir.join("games.jsonl");
    let args = [
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:time-ms=20",
        "--engine",
        "mcts:time-ms=20",
        "--games",
        "400",
        "--out",
        out.to_str().unwrap(),
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for some games on file, then press Ctrl-C.
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 3 {
        assert!(started.elapsed().as_secs() < 60, "no game recorded");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    common::process::ctrl_c(&child);
    let done = child.wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(130));
    let summary = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    let kept = records(&out).len();
    assert!((2..400).contains(&kept), "{kept} games kept");
    assert!(
        summary.contains(&format!("on isolo-boys: {kept} games")),
        "{summary}"
    );
    assert!(summary.contains("interrupted (Ctrl-C): the figures above cover the games played"));
    assert!(
        stderr.contains("continue with:") && stderr.contains("--resume"),
        "{stderr}"
    );
    // The records are whole games, as replay confirms.
    let replayed = ok(&["replay", out.to_str().unwrap()]);
    assert!(
        replayed.contains(&format!("{kept} of 400 games checked")),
        "{replayed}"
    );
}

#[test]
fn records_errors_are_typed() {
    use isolo_engine::matches::records::{read_records, RecordsError};
    let dir = scratch("typed");
    let path = dir.join("r.jsonl");
    std::fs::write(&path, "{\"game\": 0}\n").unwrap();
    assert!(matches!(
        read_records(&path),
        Err(RecordsError::Line { line: 1, .. })
    ));
    std::fs::write(&path, "").unwrap();
    assert!(matches!(read_records(&path), Ok(None)));
    // A line that is no UTF-8 is named by its number.
    std::fs::write(&path, b"\n\n\xff\xfe\n").unwrap();
    let refused = read_records(&path).err().expect("refused");
    assert!(
        matches!(refused, RecordsError::Line { line: 3, .. }),
        "{refused:?}"
    );
    assert!(refused.to_string().contains("not UTF-8"), "{refused}");
}

#[test]
fn engines_on_the_smallest_budgets_still_play_whole_games() {
    let dir = scratch("budgets");
    let out = dir.join("games.jsonl");
    ok(&[
        "match",
        "--variant",
        "igisoro",
        "--engine",
        "mcts:iters=1",
        "--engine",
        "ab:nodes=1",
        "--games",
        "2",
        "--max-plies",
        "60",
        "--out",
        out.to_str().unwrap(),
    ]);
    // Every game ran to its end by the rules or the ply cap: no forfeit, and replay agrees.
    for r in records(&out) {
        assert!(
            r["reason"] == "ply-limit" || r["reason"] == "no-moves" || r["reason"] == "repetition"
        );
    }
    let replayed = ok(&["replay", out.to_str().unwrap()]);
    assert!(replayed.contains("2 of 2 games checked"), "{replayed}");
}
