//! One contract for every front end: each value of `tests/contract/refusals.json`
//! (outside its range, or no number) is refused by the command line, an engine spec,
//! UGI and the web API alike, each naming the setting its own way and then saying the
//! same words. Python reads the same table (`python/tests/test_contract.py`).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use super::serve::post;
use crate::common::process::run;
use crate::common::server::Server;

fn cases() -> Vec<Value> {
    let table: Value = serde_json::from_str(include_str!("../contract/refusals.json")).unwrap();
    table["cases"].as_array().unwrap().clone()
}

/// `name: refusal`, the words every front end must say.
fn said(case: &Value, front: &str) -> Option<(String, Value)> {
    let entry = case.get(front)?;
    let name = entry["name"].as_str().unwrap();
    let refusal = case["refusal"].as_str().unwrap();
    Some((format!("{name}: {refusal}"), entry.clone()))
}

fn strings(value: &Value) -> Vec<String> {
    let list = value.as_array().unwrap();
    list.iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Refused before any work, with exit 2 and one line naming the problem.
fn assert_refused_by_the_binary(args: &[String], expected: &str) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(expected),
        "{args:?}: '{stderr}' lacks '{expected}'"
    );
}

#[test]
fn the_command_line_refuses_each_value_in_the_shared_words() {
    for case in cases() {
        if let Some((expected, entry)) = said(&case, "cli") {
            assert_refused_by_the_binary(&strings(&entry["args"]), &expected);
        }
    }
}

#[test]
fn an_engine_spec_refuses_each_value_in_the_shared_words() {
    for case in cases() {
        if let Some((expected, entry)) = said(&case, "spec") {
            let engine = entry["engine"].as_str().unwrap().to_string();
            let args = ["match", "--variant", "isolo-boys", "--engine", &engine];
            let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            args.extend(["--engine", "random", "--games", "2"].map(String::from));
            assert_refused_by_the_binary(&args, &expected);
        }
    }
}

#[test]
fn ugi_refuses_each_value_in_the_shared_words() {
    let cases: Vec<(String, String)> = cases()
        .iter()
        .filter_map(|case| said(case, "ugi"))
        .map(|(expected, entry)| (entry["line"].as_str().unwrap().to_string(), expected))
        .collect();
    let mut script = String::from("ugi\nposition startpos moves 7\n");
    for (line, _) in &cases {
        script += &format!("{line}\nisready\n");
    }
    script += "quit\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .arg("ugi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // Each command's answer lies between two readyok lines.
    let answers: Vec<&str> = text.split("readyok\n").skip(1).collect();
    for (i, (line, expected)) in cases.iter().enumerate() {
        let before = if i == 0 {
            text.split("readyok\n").next().unwrap()
        } else {
            answers[i - 1]
        };
        let wanted = format!("info string error: {expected}");
        assert!(
            before.contains(&wanted),
            "{line}: '{before}' lacks '{wanted}'"
        );
        assert!(!before.contains("bestmove"), "{line} searched: {before}");
    }
}

#[test]
fn the_web_api_refuses_each_value_in_the_shared_words() {
    let server = Server::start(&[]);
    for case in cases() {
        if let Some((expected, entry)) = said(&case, "api") {
            let mut body = entry["body"].clone();
            body["game"] = json!({"variant": "isolo-boys", "moves": "7"});
            let path = entry["path"].as_str().unwrap();
            let (status, answer) = post(&server, path, &body);
            assert_eq!(status, 400, "{body}: {answer}");
            let error = answer["error"].as_str().unwrap();
            assert_eq!(error, expected, "{path} {body}");
        }
    }
}

#[test]
fn every_case_reaches_two_front_ends_or_more() {
    for case in cases() {
        let fronts = ["cli", "spec", "ugi", "api", "python"];
        let reached = fronts.iter().filter(|f| case.get(**f).is_some()).count();
        assert!(reached >= 2, "{case}");
    }
}

/// A finished game (South has no seeds, and moves): the command line and the web API
/// answer an analysis with the same JSON, a loss in 0 for the mover
/// (`python/tests/test_contract.py` checks Python's against the command line's).
#[test]
fn a_finished_game_is_analysed_alike_everywhere() {
    const OVER: &str = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
    let cli = crate::common::process::json(&[
        "analyze",
        "--variant",
        "isolo-boys",
        "--position",
        OVER,
        "--json",
    ]);
    assert_eq!(
        cli["score"],
        json!({"type": "loss", "plies": 0, "text": "loss in 0"})
    );
    assert_eq!(cli["result"], "N");
    let server = Server::start(&[]);
    let body = json!({"game": {"variant": "isolo-boys", "start": OVER}});
    let (status, text) = super::serve::post_text(&server, "api/analyse", &body);
    assert_eq!(status, 200, "{text}");
    let mut api: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(api["type"], "result");
    api.as_object_mut().unwrap().remove("type");
    assert_eq!(api, cli);
}

/// A flood of bad input is quoted short: the answer names the problem and the input's
/// length, whatever its size (a 200 KB position once came back whole).
#[test]
fn long_bad_input_is_quoted_short() {
    let flood = "x ".repeat(100_000);
    let server = Server::start(&[]);
    let boys = || json!({"variant": "isolo-boys"});
    for (path, body) in [
        (
            "api/state",
            json!({"game": {"variant": "isolo-boys", "start": flood}}),
        ),
        ("api/analyse", json!({"game": {"variant": flood}})),
        (
            "api/moves",
            json!({"game": {"variant": "isolo-boys", "moves": flood}}),
        ),
        ("api/play", json!({"game": boys(), "move": flood})),
        ("api/analyse", json!({"game": boys(), "engine": flood})),
    ] {
        let (status, answer) = post(&server, path, &body);
        assert_eq!(status, 400, "{path}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.len() < 300, "{path}: {} bytes", error.len());
    }
    // (One argument may hold at most 128 KiB.)
    let flood = "x ".repeat(30_000);
    for args in [
        vec!["analyze", "--variant", "isolo-boys", "--position", &flood],
        vec!["analyze", "--variant", &flood],
        vec!["apply", "--variant", "isolo-boys", "--moves", &flood],
        vec!["analyze", "--variant", "isolo-boys", "--depth", &flood],
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.len() < 400, "{} bytes", stderr.len());
    }
}

/// A bad start or move list is read by the rules' one `Setup` everywhere: the command
/// line (`--position`, `--moves`) and the web API (`start`, `moves`) blame the same
/// field in the same words (`python/tests/test_contract.py` checks `position` and
/// `moves` in Python).
#[test]
fn a_bad_setup_is_refused_alike_everywhere() {
    let server = Server::start(&[]);
    for (flag, field, text) in [
        ("--position", "start", "1,2,3 S"),
        ("--moves", "moves", "7 99"),
        ("--moves", "moves", "7 8 3"),
    ] {
        let out = run(&["analyze", "--variant", "isolo-boys", flag, text]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        let problem = stderr
            .trim()
            .strip_prefix(&format!("error: {flag}: "))
            .unwrap_or_else(|| panic!("{stderr}"))
            .to_string();
        let body = json!({"game": {"variant": "isolo-boys", field: text}});
        let (status, answer) = post(&server, "api/analyse", &body);
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"], format!("{field}: {problem}"));
    }
}
