//! `isolo-ai serve`'s JSON API, against the command line's `--json` answers; its
//! refusals; and a bounded load test on localhost (a burst of malformed requests and
//! more analyses than the server runs at once). The browser test is tests/browser.rs.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::process::{json as cli_json, ok as cli_ok, run as cli_run, scratch};
use common::server::Server;
use serde_json::{json, Value};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// POSTs `body`; the status and the answer (JSON, or the text of a stream).
pub(super) fn post_text(server: &Server, path: &str, body: &Value) -> (u16, String) {
    let mut response = agent().post(&server.at(path)).send_json(body).unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}

pub(super) fn post(server: &Server, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = post_text(server, path, body);
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
    )
}

fn get(server: &Server, path: &str) -> (u16, Value) {
    let mut response = agent().get(&server.at(path)).call().unwrap();
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap())
}

fn refused(server: &Server, path: &str, body: &Value, status: u16, expected: &str) {
    let (got, answer) = post(server, path, body);
    assert_eq!(got, status, "{body}: {answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(
        error.contains(expected),
        "'{error}' should say '{expected}'"
    );
}

/// The lines of an analysis stream, each parsed.
fn stream_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn variants_and_limits_are_listed() {
    let server = Server::start(&["--max-time-ms", "3000"]);
    let (status, list) = get(&server, "api/variants");
    assert_eq!(status, 200);
    let names: Vec<&str> = list["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "isolo-women",
            "isolo-boys",
            "igisoro",
            "kubuguza",
            "ikibuguzo",
            "isolo-women-capture-ends",
            "isolo-boys-capture-ends",
            "ikibuguzo-opening-1",
            "igisoro-retreat",
            "igisoro-clockwise"
        ]
    );
    assert_eq!(list["limits"]["max_time_ms"], 3000);
    // The page builds its level choice from these: the engine's levels, not its own.
    assert_eq!(
        list["limits"]["levels"],
        json!({"least": 1, "most": 8, "default": 8, "names": [
            "beginner", "novice", "casual", "improver", "club player", "strong", "expert",
            "full strength"
        ]})
    );
    // The first game the page offers: a deep reading at a middle level.
    assert_eq!(
        list["first_game"],
        json!({"variant": "isolo-boys-capture-ends", "level": 4})
    );
    assert_eq!(list["limits"]["multipv"], 256);
    assert_eq!(list["limits"]["review_nodes"], 200_000);
    assert_eq!(list["records"], Value::Null);
    // The page draws a pit's seeds with the server's own drawings: the board's SVG holds
    // the same markup (igisoro starts with 4 seeds a pit on the inner rows).
    let drawn = list["seeds"]["drawn"].as_array().unwrap();
    assert_eq!(drawn.len(), 13, "up to 12 seeds as dots");
    let (_, state) = post_text(
        &server,
        "api/state",
        &json!({"game": {"variant": "igisoro"}}),
    );
    let svg: Value = serde_json::from_str(&state).unwrap();
    let four = format!("<g class=\"seeds\">{}</g>", drawn[4].as_str().unwrap());
    assert!(svg["svg"].as_str().unwrap().contains(&four), "{four}");
    assert_eq!(
        list["seeds"]["many"],
        "<text class=\"count\" y=\"8\">{n}</text>"
    );
    let page = agent()
        .get(&server.at(""))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    assert!(page.contains("<script type=\"module\" src=\"/app.js\""));
    // The page's ES modules, each served as a script.
    for module in ["app.js", "api.js", "clock.js", "seeds.js", "texts.js"] {
        let response = agent().get(&server.at(module)).call().unwrap();
        let kind = response.headers().get("content-type").unwrap();
        assert_eq!(kind, "text/javascript; charset=utf-8", "{module}");
    }
}

#[test]
fn state_moves_and_play_match_the_command_line() {
    let server = Server::start(&[]);
    for (variant, moves) in [
        ("isolo-women", "1 3"),
        ("isolo-boys", "8"),
        ("igisoro", "1 3"),
        ("isolo-women-capture-ends", "3 4 7"),
    ] {
        let game = json!({"variant": variant, "moves": moves});
        let (status, state) = post(&server, "api/state", &json!({ "game": game }));
        assert_eq!(status, 200, "{state}");
        let applied = cli_json(&["apply", "--variant", variant, "--moves", moves, "--json"]);
        assert_eq!(state["position"], applied["position"], "{variant} {moves}");
        assert_eq!(state["to_move"], applied["to_move"]);
        assert_eq!(state["plies"], moves.split(' ').count());
        assert!(state["svg"].as_str().unwrap().starts_with("<svg"));
        let position = applied["position"].as_str().unwrap();

        let listed = cli_json(&[
            "moves",
            "--variant",
            variant,
            "--position",
            position,
            "--json",
        ]);
        let (_, api_moves) = post(&server, "api/moves", &json!({ "game": game }));
        assert_eq!(api_moves["moves"], listed["moves"], "{variant} {moves}");
        assert_eq!(api_moves["complete"], true);

        let first = listed["moves"][0]["move"].as_str().unwrap();
        let (status, played) = post(&server, "api/play", &json!({"game": game, "move": first}));
        assert_eq!(status, 200, "{played}");
        assert_eq!(played["state"]["position"], listed["moves"][0]["position"]);
        assert_eq!(played["laps"], listed["moves"][0]["laps"]);
        let steps = played["trace"]["steps"].as_array().unwrap();
        assert_eq!(steps[0]["kind"], "lift");
        assert_eq!(steps.last().unwrap()["kind"], "end");
    }
}

#[test]
fn moves_from_one_pit_and_distinct_results() {
    let server = Server::start(&[]);
    // South's pit 11 here has three moves: 11xx, 11xp and 11p.
    let game = json!({"variant": "igisoro", "moves": "1 3 7 2"});
    let (_, all) = post(&server, "api/moves", &json!({ "game": game }));
    let (_, from_pit) = post(&server, "api/moves", &json!({"game": game, "pit": 11}));
    let expected: Vec<&Value> = all["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["move"]
                .as_str()
                .unwrap()
                .trim_end_matches(['x', 'p'])
                .eq("11")
        })
        .collect();
    assert_eq!(expected.len(), 3);
    assert_eq!(
        from_pit["moves"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        expected
    );
    let (_, distinct) = post(
        &server,
        "api/moves",
        &json!({"game": game, "distinct": true}),
    );
    let listed = cli_json(&[
        "moves",
        "--variant",
        "igisoro",
        "--position",
        all["position"].as_str().unwrap(),
        "--distinct",
        "--json",
    ]);
    assert_eq!(distinct["moves"], listed["moves"]);
}

/// South to move without a move (one seed, in a pit of its own): North has won.
const ENDED: &str = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,3/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";

#[test]
fn an_analysis_streams_progress_then_the_answer_of_analyze() {
    let server = Server::start(&[]);
    let game = json!({"variant": "isolo-boys-capture-ends", "moves": "8"});
    let (status, text) = post_text(
        &server,
        "api/analyse",
        &json!({"game": game, "nodes": 30000, "multipv": 2}),
    );
    assert_eq!(status, 200, "{text}");
    let lines = stream_lines(&text);
    let (result, progress) = lines.split_last().unwrap();
    assert!(!progress.is_empty() && progress.iter().all(|p| p["type"] == "progress"));
    assert_eq!(result["type"], "result");
    let cli = cli_json(&[
        "analyze",
        "--variant",
        "isolo-boys-capture-ends",
        "--moves",
        "8",
        "--nodes",
        "30000",
        "--multipv",
        "2",
        "--json",
    ]);
    for field in [
        "best_move",
        "score",
        "pv",
        "lines",
        "depth",
        "nodes",
        "engine",
    ] {
        assert_eq!(result[field], cli[field], "{field}");
    }
    // A proven result is reported as the command line reports it: the boys' start is a
    // win in 15 for South.
    let (_, text) = post_text(
        &server,
        "api/analyse",
        &json!({"game": {"variant": "isolo-women"}, "time_ms": 2000}),
    );
    let result = stream_lines(&text).pop().unwrap();
    assert_eq!(result["score"]["type"], "win", "{result}");
    // A finished game answers at once.
    let over = json!({"variant": "isolo-women", "start": ENDED});
    let (status, text) = post_text(&server, "api/analyse", &json!({ "game": over }));
    assert_eq!(status, 200, "{text}");
    let lines = stream_lines(&text);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["result"], "N");
    assert_eq!(lines[0]["best_move"], Value::Null);
    let (_, state) = post(&server, "api/state", &json!({ "game": over }));
    assert_eq!(state["result"], "N");
    assert!(
        state["end"].as_str().unwrap().starts_with("North wins"),
        "{state}"
    );
    assert_eq!(state["end_words"], "South has no legal move: North wins");
    let rules = state["how_to_play"].as_array().unwrap();
    assert!(
        rules
            .iter()
            .any(|l| l.as_str().unwrap().contains("always taken")),
        "{state}"
    );
    let (_, state) = post(
        &server,
        "api/state",
        &json!({"game": {"variant": "igisoro"}}),
    );
    assert_eq!(state["result"], Value::Null);
    assert_eq!(state["end"], Value::Null);
    assert_eq!(state["sealed"], Value::Null);
    assert_eq!(state["long_game"], Value::Null);
    let flag = &state["flag_fall"]["S"];
    assert_eq!(
        flag["words"], "South's clock ran out: North wins on time",
        "{state}"
    );
    assert_eq!(flag["result"], "N", "{state}");
    assert_eq!(state["verdict"], Value::Null);
    // What is proven of a preset's start is said before the first move.
    let (_, women) = post(
        &server,
        "api/state",
        &json!({"game": {"variant": "isolo-women"}}),
    );
    assert_eq!(
        women["verdict"],
        "South wins this game by force: a proven win in 5 plies"
    );
    // Each level in words, with what it scored against the one below in this game.
    assert_eq!(
        state["levels"]["ab"][1],
        "level 2, novice: 62% of the points against level 1 in this game"
    );
    assert_eq!(state["levels"]["mcts"][1], "level 2, novice");
    // Every rule a variant sets is told: the retreat, a capture that wins.
    for (variant, rule) in [
        ("igisoro-retreat", "the opponent answers at once: retreat"),
        ("ikibuguzo", "both the opponent's front-row end pits"),
    ] {
        let (_, state) = post(&server, "api/state", &json!({"game": {"variant": variant}}));
        let told = state["how_to_play"].to_string();
        assert!(told.contains(rule), "{variant}: {told}");
    }
}

/// The side to move resigns, or offers a draw the engine answers from its own search:
/// accepted where it expects no more (South wins the women's game by force), with its
/// chances in words; a finished game or an unknown offer is refused.
#[test]
fn a_person_resigns_or_offers_a_draw() {
    let server = Server::start(&[]);
    let igisoro = json!({"variant": "igisoro"});
    let (status, answer) = post(
        &server,
        "api/offer",
        &json!({"game": igisoro, "offer": "resign"}),
    );
    assert_eq!(status, 200, "{answer}");
    let resigned = json!({"accepted": true, "words": "South resigns: North wins", "result": "N"});
    assert_eq!(answer, resigned);
    let women = json!({"variant": "isolo-women"});
    let body = json!({"game": women, "offer": "draw", "time_ms": 300});
    let (status, answer) = post(&server, "api/offer", &body);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (&answer["accepted"], &answer["result"]),
        (&json!(true), &json!("draw"))
    );
    let words = answer["words"].as_str().unwrap();
    assert!(
        words.starts_with("The engine accepts your draw offer (its chances: win "),
        "{words}"
    );
    let over = json!({"game": {"variant": "isolo-women", "start": ENDED}, "offer": "draw"});
    let (status, text) = post_text(&server, "api/offer", &over);
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("the game is over"), "{text}");
    let odd = json!({"game": igisoro, "offer": "adjourn"});
    let (status, text) = post_text(&server, "api/offer", &odd);
    assert_eq!(status, 400, "{text}");
    assert!(
        text.contains("offer: 'adjourn' is neither 'draw' nor 'resign'"),
        "{text}"
    );
}

#[test]
fn analyses_carry_win_draw_loss_and_a_review_streams_the_command_lines() {
    let server = Server::start(&[]);
    let game = json!({"variant": "isolo-boys-capture-ends", "moves": "8"});
    let (_, text) = post_text(
        &server,
        "api/analyse",
        &json!({"game": game, "nodes": 20000}),
    );
    let lines = stream_lines(&text);
    let per_mille = |wdl: &Value| -> u64 {
        ["win", "draw", "loss"]
            .iter()
            .map(|k| wdl[k].as_u64().unwrap())
            .sum()
    };
    for line in &lines {
        assert_eq!(per_mille(&line["wdl"]), 1000, "{line}");
    }
    let cli = cli_json(&[
        "analyze",
        "--variant",
        "isolo-boys-capture-ends",
        "--moves",
        "8",
        "--nodes",
        "20000",
        "--json",
    ]);
    assert_eq!(lines.last().unwrap()["wdl"], cli["wdl"]);
    let over = json!({"variant": "isolo-women", "start": ENDED});
    let (_, text) = post_text(&server, "api/analyse", &json!({ "game": over }));
    assert_eq!(
        stream_lines(&text)[0]["wdl"],
        json!({"win": 0, "draw": 0, "loss": 1000, "text": "W/D/L 0/0/100%"}),
        "the mover has lost"
    );

    let game = json!({"variant": "isolo-women", "moves": "1 9 4"});
    let (status, text) = post_text(
        &server,
        "api/review",
        &json!({"game": game, "nodes": 20000}),
    );
    assert_eq!(status, 200, "{text}");
    let lines = stream_lines(&text);
    let (result, progress) = lines.split_last().unwrap();
    assert_eq!(progress.len(), 4, "one progress line a position");
    assert_eq!(
        progress[3],
        json!({"type": "progress", "done": 4, "total": 4})
    );
    assert_eq!(result["type"], "result");
    let cli = cli_json(&[
        "review",
        "--variant",
        "isolo-women",
        "--moves",
        "1 9 4",
        "--nodes",
        "20000",
        "--json",
    ]);
    // The page reviews as the command does by default: the same classes, notes and
    // scores.
    for field in ["moves", "accuracy", "classes", "positions"] {
        assert_eq!(result[field], cli[field], "{field}");
    }
    refused(
        &server,
        "api/review",
        &json!({"game": game, "nodes": 0}),
        400,
        "nodes: must be 1..=5000000 nodes a position, found 0",
    );
}

#[test]
fn a_level_plays_a_move_of_its_own_and_replays_from_its_seed() {
    let server = Server::start(&[]);
    let game = json!({"variant": "isolo-boys-capture-ends", "moves": "8 3"});
    let level_move = |level: u64, seed: u64| {
        let request = json!({"game": game, "nodes": 20000, "level": level, "seed": seed});
        let (status, text) = post_text(&server, "api/analyse", &request);
        assert_eq!(status, 200, "{text}");
        let result = stream_lines(&text).pop().unwrap();
        assert_eq!(result["level"], level);
        assert_eq!(
            result["lines"].as_array().unwrap().len(),
            1,
            "the lines asked for"
        );
        (result["level_move"].clone(), result["best_move"].clone())
    };
    let (top, best) = level_move(8, 0);
    assert_eq!(top, best, "the top level plays the best move");
    let legal = cli_json(&[
        "moves",
        "--variant",
        "isolo-boys-capture-ends",
        "--moves",
        "8 3",
        "--json",
    ]);
    let legal: Vec<Value> = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].clone())
        .collect();
    let weak: Vec<Value> = (0..12).map(|seed| level_move(1, seed).0).collect();
    assert!(
        weak.iter().all(|m| legal.contains(m)),
        "{weak:?} among {legal:?}"
    );
    assert!(
        weak.iter().any(|m| *m != weak[0]),
        "the seed draws the move: {weak:?}"
    );
    assert_eq!(level_move(1, 3).0, weak[3], "a seed replays");
}

#[test]
fn bad_requests_are_refused_with_the_command_line_messages() {
    let server = Server::start(&["--max-time-ms", "2000"]);
    let women = json!({"variant": "isolo-women"});
    refused(
        &server,
        "api/state",
        &json!({"game": {"variant": "chess"}}),
        400,
        "variant: unknown 'chess'",
    );
    refused(
        &server,
        "api/state",
        &json!({"game": {"variant": "/etc/passwd"}}),
        400,
        "unknown '/etc/passwd'",
    );
    refused(
        &server,
        "api/state",
        &json!({"game": {}}),
        400,
        "give a variant or rules",
    );
    refused(
        &server,
        "api/state",
        &json!({"game": women, "extra": 1}),
        400,
        "unknown field `extra`",
    );
    refused(
        &server,
        "api/state",
        &json!({"game": {"variant": "isolo-women", "rules": "base = \"igisoro\""}}),
        400,
        "give a variant or rules, not both",
    );
    // Errors axum answers itself are JSON too: a body over the limit (announced, so the
    // answer comes before any of it is sent), a wrong method.
    let announced = "POST /api/state HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\n\r\n";
    let text = raw(&server.host(), announced.as_bytes());
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(
        text.contains("{\"error\":\"request body: more than"),
        "{text}"
    );
    let mut response = agent().delete(&server.at("api/state")).call().unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    assert_eq!(response.status().as_u16(), 405, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["error"], "/api/state does not take DELETE");
    refused(
        &server,
        "api/state",
        &json!({"game": {"variant": "isolo-women", "start": "1,2 S"}}),
        400,
        "start:",
    );
    let bad_moves = cli_run(&["apply", "--variant", "isolo-women", "--moves", "1 1"]);
    let cli_error = String::from_utf8_lossy(&bad_moves.stderr);
    let cli_error = cli_error.trim().trim_start_matches("error: --moves: ");
    refused(
        &server,
        "api/state",
        &json!({"game": {"variant": "isolo-women", "moves": "1 1"}}),
        400,
        cli_error,
    );
    refused(
        &server,
        "api/play",
        &json!({"game": women, "move": "17"}),
        400,
        "pit 17 is not 1..16",
    );
    refused(
        &server,
        "api/play",
        &json!({"game": {"variant": "isolo-women", "moves": "1"}, "move": "1"}),
        400,
        "pit 1 holds 0 seeds",
    );
    refused(
        &server,
        "api/play",
        &json!({"game": women, "move": "3x"}),
        400,
        "captures are forced",
    );
    refused(
        &server,
        "api/moves",
        &json!({"game": women, "pit": 40}),
        400,
        "pit: must be 1..=16, found 40",
    );
    refused(
        &server,
        "api/analyse",
        &json!({"game": women, "time_ms": 5000}),
        400,
        "time_ms: must be 1..=2000 ms (the server's --max-time-ms), found 5000",
    );
    // Every number of docs/server.md#ranges, just outside its range or not a whole one.
    for (field, value, said) in [
        ("depth", json!(0), "depth: must be 1..=100 plies, found 0"),
        ("depth", json!(101), "1..=100 plies, found 101"),
        (
            "depth",
            json!("x"),
            "depth: '\"x\"' is not a whole number (1..=100 plies)",
        ),
        ("nodes", json!(0), "nodes: must be at least 1, found 0"),
        (
            "nodes",
            json!(1.5),
            "nodes: '1.5' is not a whole number (at least 1)",
        ),
        ("seed", json!(-1), "seed: must be at least 0, found -1"),
        (
            "multipv",
            json!(257),
            "multipv: must be 1..=256 lines, found 257",
        ),
        ("level", json!(9), "level: must be 1..=8, found 9"),
        (
            "time_ms",
            json!(-5),
            "time_ms: must be 1..=2000 ms (the server's --max-time-ms), found -5",
        ),
    ] {
        let mut request = json!({"game": women});
        request[field] = value;
        refused(&server, "api/analyse", &request, 400, said);
    }
    refused(
        &server,
        "api/analyse",
        &json!({"game": women, "engine": "stockfish"}),
        400,
        "engine:",
    );
    refused(
        &server,
        "api/analyse",
        &json!({"game": women, "multipv": 0}),
        400,
        "multipv",
    );
    refused(
        &server,
        "api/state",
        &json!({"game": {"rules": "columns = 'x'"}}),
        400,
        "rules:",
    );
    let (status, answer) = get(&server, "api/records");
    assert_eq!(status, 404);
    assert!(answer["error"].as_str().unwrap().contains("--records"));
    let (status, _) = get(&server, "no/such/page");
    assert_eq!(status, 404);
}

#[test]
fn a_rules_text_plays_and_a_records_game_loads() {
    let dir = scratch("serve-records");
    let records = dir.join("games.jsonl");
    cli_ok(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--seed",
        "3",
        "--out",
        records.to_str().unwrap(),
    ]);
    let server = Server::start(&["--records", records.to_str().unwrap()]);
    let (_, list) = get(&server, "api/records");
    assert_eq!(list["games"].as_array().unwrap().len(), 2);
    let (status, game) = get(&server, "api/records/1");
    assert_eq!(status, 200, "{game}");
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let spec = json!({"rules": game["rules"], "start": game["start"], "moves": moves.join(" ")});
    let (status, state) = post(&server, "api/state", &json!({ "game": spec }));
    assert_eq!(status, 200, "{state}");
    assert!(state["result"].is_string(), "a records game ends: {state}");
    assert_eq!(get(&server, "api/records/7").0, 404);
    assert_eq!(get(&server, "api/records/x").0, 400);
}

/// A records file of 600 games served a page at a time: every page in file order,
/// `next` to the end, any game by its number, bad pages refused.
#[test]
fn records_are_served_a_page_at_a_time() {
    let dir = scratch("serve-pages");
    let rules = dir.join("circles.toml");
    let text = "base = \"isolo-women\"\ncolumns = 2\nmin_sow = 1\nstart = \"0,1/0,0/0,0/1,0\"\n";
    std::fs::write(&rules, text).unwrap();
    let records = dir.join("games.jsonl");
    let engines = ["--engine", "random", "--engine", "greedy", "--games", "600"];
    let out = ["--max-plies", "4", "--out", records.to_str().unwrap()];
    cli_ok(
        &[
            &["match", "--variant", rules.to_str().unwrap()],
            &engines[..],
            &out,
        ]
        .concat(),
    );
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&records)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 600);
    let server = Server::start(&["--records", records.to_str().unwrap()]);
    let (status, first) = get(&server, "api/records");
    assert_eq!(status, 200, "{first}");
    assert_eq!(
        (first["total"].as_u64(), first["next"].as_u64()),
        (Some(600), Some(100))
    );
    assert_eq!(first["games"].as_array().unwrap().len(), 100);
    let mut seen = Vec::new();
    let mut offset = Some(0);
    while let Some(at) = offset {
        let (status, page) = get(&server, &format!("api/records?offset={at}&limit=250"));
        assert_eq!(status, 200, "{page}");
        seen.extend(
            page["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["game"].clone()),
        );
        offset = page["next"].as_u64();
    }
    let numbers: Vec<serde_json::Value> = lines.iter().map(|l| l["game"].clone()).collect();
    assert_eq!(seen, numbers);
    for line in [&lines[0], &lines[299], &lines[599]] {
        let (status, game) = get(&server, &format!("api/records/{}", line["game"]));
        assert_eq!(status, 200, "{game}");
        assert_eq!(game["moves"], line["moves"], "{game} {line}");
    }
    let (_, end) = get(&server, "api/records?offset=600");
    assert!(
        end["games"].as_array().unwrap().is_empty() && end["next"].is_null(),
        "{end}"
    );
    for bad in ["limit=0", "limit=1001", "offset=x", "limit=-1"] {
        let (status, answer) = get(&server, &format!("api/records?{bad}"));
        assert_eq!(status, 400, "{bad}: {answer}");
    }
}

#[test]
fn show_svg_draws_what_the_server_draws() {
    let dir = scratch("serve-svg");
    let file = dir.join("board.svg");
    cli_ok(&[
        "show",
        "--variant",
        "isolo-boys",
        "--moves",
        "8",
        "--svg",
        file.to_str().unwrap(),
    ]);
    let server = Server::start(&[]);
    let (status, drawn) = post_text(
        &server,
        "api/svg",
        &json!({"game": {"variant": "isolo-boys", "moves": "8"}}),
    );
    assert_eq!(status, 200);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), drawn);
    assert!(
        drawn.contains("class=\"pit nghana"),
        "the boys' overture rings the ng'hana"
    );
    // Kubuguza's clockwise pits (1, 8, 10 and 15 of each side) are ringed and say so.
    let (_, kubuguza) = post_text(
        &server,
        "api/svg",
        &json!({"game": {"variant": "kubuguza"}}),
    );
    let ringed: Vec<&str> = kubuguza
        .lines()
        .filter(|l| l.contains("class=\"pit clockwise"))
        .collect();
    assert_eq!(ringed.len(), 8, "{kubuguza}");
    assert!(ringed.iter().all(|l| l.contains("<title>a clockwise pit")));
    assert!(["1", "8", "10", "15"].iter().all(|p| ringed
        .iter()
        .any(|l| l.contains(&format!("data-pit=\"{p}\"")))));
    assert!(!drawn.contains("clockwise pit"), "the boys' game has none");
    let out = cli_run(&["show", "--variant", "isolo-boys", "--flip"]);
    assert_eq!(out.status.code(), Some(2));
    let out = cli_run(&[
        "show",
        "--variant",
        "isolo-boys",
        "--svg",
        "/no/such/dir/b.svg",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--svg: cannot write /no/such/dir/b.svg"));
}

#[test]
fn the_server_refuses_bad_flags_before_listening() {
    for (args, expected) in [
        (
            vec!["--max-searches", "0"],
            "--max-searches: must be 1..=64",
        ),
        (
            vec!["--max-time-ms", "0"],
            "--max-time-ms: must be 1..=86400000 ms, found 0",
        ),
        (vec!["--rules", "/no/such/file.toml"], "--rules:"),
        (vec!["--records", "/no/such/records.jsonl"], "--records:"),
        (vec!["--host", "no such host"], "cannot listen on"),
    ] {
        let out = cli_run(&[&["serve", "--port", "0"][..], &args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// Sends raw bytes and reads whatever comes back (nothing, an error, a close).
fn raw(host: &str, bytes: &[u8]) -> String {
    let Ok(mut stream) = TcpStream::connect(host) else {
        return String::new();
    };
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// The answer to a whole request (`Connection: close`) sent without closing the
/// writing side first: the server answers a request it has read whole only while the
/// client still listens (hyper gives up on a half-closed connection).
fn raw_request(host: &str, bytes: &[u8]) -> String {
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn malformed_requests() -> Vec<Vec<u8>> {
    let huge = format!("{{\"game\": {{\"variant\": \"{}\"}}}}", "a".repeat(400_000));
    let post = |body: &str| {
        format!(
            "POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    vec![
        b"GARBAGE\r\n\r\n".to_vec(),
        b"\x00\x01\x02\xff\xfe".to_vec(),
        b"GET /api/variants HTTP/9.9\r\n\r\n".to_vec(),
        b"POST /api/play HTTP/1.1\r\nContent-Length: 99999\r\n\r\n{".to_vec(),
        b"POST /api/play HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        post("{"),
        post("[]"),
        post("null"),
        post("{\"game\": {\"variant\": \"igisoro\", \"moves\": \"99 99 99\"}, \"move\": \"1\"}"),
        post("{\"game\": {\"variant\": \"igisoro\", \"start\": \"999,999/1 S\"}, \"move\": \"1\"}"),
        post("{\"game\": {\"rules\": \"columns = 200\"}, \"move\": \"1\"}"),
        post("{\"game\": {\"variant\": \"igisoro\"}, \"move\": \"1xpxpxpxpxpxpxpxpx\"}"),
        post(&huge),
        b"DELETE /api/play HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        // Header values and names that are not text.
        b"POST /api/play HTTP/1.1\r\nHost: \xff\xfe\r\nX-\x80: \x80\x81\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}".to_vec(),
        b"GET /api/\xff\xfe HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"POST /api/play HTTP/1.1\r\nContent-Length: \xff2\r\n\r\n{}".to_vec(),
    ]
}

#[test]
fn a_burst_of_malformed_requests_and_concurrent_analyses_leave_the_server_up() {
    let mut server = Server::start(&["--max-searches", "2", "--max-time-ms", "4000"]);
    let analyses: Vec<_> = (0..6)
        .map(|k| {
            let url = server.at("api/analyse");
            std::thread::spawn(move || {
                let body = json!({"game": {"variant": "igisoro", "moves": "1"}, "time_ms": 1500, "engine": if k % 2 == 0 { "ab" } else { "mcts" }});
                let mut response = agent().post(&url).send_json(&body).unwrap();
                let status = response.status().as_u16();
                (status, response.body_mut().read_to_string().unwrap())
            })
        })
        .collect();
    let requests = malformed_requests();
    let bursts: Vec<_> = (0..4)
        .map(|_| {
            let requests = requests.clone();
            let host = server.host();
            std::thread::spawn(move || {
                for _round in 0..10 {
                    for bytes in &requests {
                        raw(&host, bytes);
                    }
                }
            })
        })
        .collect();
    for burst in bursts {
        burst.join().unwrap();
    }
    let answers: Vec<(u16, String)> = analyses.into_iter().map(|a| a.join().unwrap()).collect();
    let finished = answers.iter().filter(|(s, _)| *s == 200).count();
    let busy = answers
        .iter()
        .filter(|(s, t)| *s == 503 && t.contains("busy"))
        .count();
    assert_eq!(finished + busy, 6, "{answers:?}");
    assert!(
        (1..=4).contains(&busy) && finished >= 2,
        "{finished} ran, {busy} refused"
    );
    for (status, text) in &answers {
        if *status == 200 {
            assert_eq!(stream_lines(text).last().unwrap()["type"], "result");
        }
    }
    assert!(server.alive(), "the server survives");
    assert_eq!(get(&server, "api/variants").0, 200);
    let (status, text) = post_text(
        &server,
        "api/analyse",
        &json!({"game": {"variant": "isolo-boys"}, "time_ms": 200}),
    );
    assert_eq!(status, 200, "the slots are free again: {text}");
    // The connection layer's own refusals, with the empty body the docs say.
    let fields: String = (0..120).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let crowded = format!("GET /api/variants HTTP/1.1\r\n{fields}Connection: close\r\n\r\n");
    let answer = raw(&server.host(), crowded.as_bytes());
    assert!(
        answer.starts_with("HTTP/1.1 431 ") && answer.contains("content-length: 0"),
        "{answer}"
    );
    let answer = raw(&server.host(), b"GET /api/\xff HTTP/1.1\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
    // A path in UTF-8 that the connection layer lets through: refused by the API, 400.
    let answer = raw_request(
        &server.host(),
        "GET /café HTTP/1.1\r\nConnection: close\r\n\r\n".as_bytes(),
    );
    assert!(
        answer.starts_with("HTTP/1.1 400 ") && answer.contains("percent-encode"),
        "{answer}"
    );
    // Header fields over 64 KB: 431 every time, whether the API or the connection layer
    // (past its buffer) refuses them.
    for size in [70_000, 420_000, 500_000] {
        for _ in 0..4 {
            let big = format!(
                "GET /api/variants HTTP/1.1\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
                "a".repeat(size)
            );
            let answer = raw_request(&server.host(), big.as_bytes());
            assert!(
                answer.starts_with("HTTP/1.1 431 "),
                "{size}: {}",
                isolo_rules::quote(&answer)
            );
        }
    }
    assert!(
        server.interrupt().success(),
        "Ctrl-C stops the server cleanly"
    );
}

/// A review is held to its total time (`total_ms`, and at most the server's cap): a long
/// game cannot keep a search slot for as long as its positions add up to; the moves
/// reviewed by then come back, with `out_of_time`.
#[test]
fn a_review_is_held_to_its_total_time() {
    let server = Server::start(&["--max-time-ms", "3000"]);
    // Igisoro's long games: sixty plies that no search proves within the total.
    let igisoro = isolo_rules::Variant::load("igisoro").unwrap();
    let mut game = isolo_rules::Game::new(&igisoro, igisoro.start());
    while game.plies() < 60 && game.outcome().is_none() {
        let first = igisoro.legal_moves(game.board())[0].mv.clone();
        game.play_move(&first).unwrap();
    }
    assert_eq!(
        game.plies(),
        60,
        "the game is long enough to outlast the total"
    );
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let body = json!({
        "game": {"variant": "igisoro", "moves": moves.join(" ")},
        "nodes": 5_000_000,
        "total_ms": 500,
    });
    let started = std::time::Instant::now();
    let (status, text) = post_text(&server, "api/review", &body);
    assert_eq!(status, 200, "{text}");
    let lines = stream_lines(&text);
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result", "{result}");
    assert_eq!(result["out_of_time"], true, "{result}");
    assert!(result["moves"].as_array().unwrap().len() < moves.len());
    assert!(started.elapsed() < Duration::from_secs(30));
    // The cap the page is told of: 20 searches of the server's time cap.
    let (_, list) = get(&server, "api/variants");
    assert_eq!(list["limits"]["review_total_ms"], 60_000);
}

/// A move begun stops at a decision the page shows before asking it
/// (`/api/decision`): the lap's end, the pits and seeds at stake, the question, the
/// board as sown so far; a whole move or a wrong letter is refused.
#[test]
fn a_decision_is_shown_with_what_is_at_stake() {
    let server = Server::start(&[]);
    let rules = "name = \"igisoro-retreat\"\nbase = \"igisoro\"\nretreat = \"front-to-back\"\n";
    let start = "2,0,4,0,0,0,7,1/1,3,1,0,0,3,0,0/1,1,5,2,0,3,1,4/3,1,1,1,1,6,0,12 N";
    let game = json!({"rules": rules, "start": start});
    let (status, first) = post(&server, "api/decision", &json!({"game": game, "move": "9"}));
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["kind"], "capture", "{first}");
    assert_eq!(
        (first["decider"].as_str(), first["mover"].as_str()),
        (Some("N"), Some("N"))
    );
    let stake: Vec<u64> = first["stake"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    let south = first["pits"]["S"].as_array().unwrap();
    let at_stake: u64 = stake
        .iter()
        .map(|&p| south[p as usize - 1].as_u64().unwrap())
        .sum();
    assert_eq!(first["seeds"].as_u64(), Some(at_stake), "{first}");
    let question = first["question"].as_str().unwrap();
    assert!(
        question.contains(&format!("ends in your pit {}", first["end"])),
        "{question}"
    );
    // Passed: South answers.
    let (status, answer) = post(
        &server,
        "api/decision",
        &json!({"game": game, "move": "9p"}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["kind"], "answer");
    assert_eq!(answer["decider"], "S");
    assert!(
        answer["question"]
            .as_str()
            .unwrap()
            .starts_with("South, answer: North passed"),
        "{answer}"
    );
    refused(
        &server,
        "api/decision",
        &json!({"game": game, "move": "9prxxxpsx"}),
        400,
        "no decision",
    );
    refused(
        &server,
        "api/decision",
        &json!({"game": game, "move": "9pp"}),
        400,
        "no decision",
    );
    refused(
        &server,
        "api/decision",
        &json!({"game": game, "move": "9", "x": 1}),
        400,
        "unknown field",
    );
}

/// Under the retreat the engine answers a person's pass mid-move (`/api/answer`), and a
/// retold move shows the retreat.
#[test]
fn the_engine_answers_a_pass_and_a_retreat_is_retold() {
    let server = Server::start(&[]);
    let rules = "name = \"igisoro-retreat\"\nbase = \"igisoro\"\nretreat = \"front-to-back\"\n";
    let start = "5,0,5,5,5,0,4,4/1,0,0,0,0,2,1,0/0,0,1,2,1,3,3,3/0,5,1,2,0,7,2,2 S";
    let game = json!({"rules": rules, "start": start});
    let (status, answered) = post(
        &server,
        "api/answer",
        &json!({"game": game, "move": "2p", "time_ms": 200}),
    );
    assert_eq!(status, 200, "{answered}");
    let answer = answered["answer"].as_str().unwrap();
    assert!(answer == "r" || answer == "s", "{answered}");
    // At a level below the top, with its draws' seed.
    let weaker = json!({"game": game, "move": "2p", "time_ms": 200, "level": 1, "seed": 3});
    let (status, answered) = post(&server, "api/answer", &weaker);
    assert_eq!(status, 200, "{answered}");
    assert!(["r", "s"].contains(&answered["answer"].as_str().unwrap()));
    refused(
        &server,
        "api/answer",
        &json!({"game": game, "move": "2p", "level": 9}),
        400,
        "level",
    );
    refused(
        &server,
        "api/answer",
        &json!({"game": game, "move": "2x"}),
        400,
        "does not stop where the opponent answers a pass",
    );
    let (status, played) = post(&server, "api/play", &json!({"game": game, "move": "2pr"}));
    assert_eq!(status, 200, "{played}");
    let kinds: Vec<&str> = played["trace"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    let pass = kinds.iter().position(|&k| k == "pass").unwrap();
    assert_eq!(kinds[pass + 1], "retreat", "{kinds:?}");
    // The engine completes a move half made with a legal move; a whole move ("2pr",
    // played above, and each completion) is refused.
    refused(
        &server,
        "api/complete",
        &json!({"game": game, "move": "2pr"}),
        400,
        "is not a move half made under the retreat",
    );
    for (partial, level) in [("2p", 8), ("2", 8), ("2p", 2)] {
        let body = json!({"game": game, "move": partial, "time_ms": 200, "level": level});
        let (status, completed) = post(&server, "api/complete", &body);
        assert_eq!(status, 200, "{completed}");
        let whole = completed["move"].as_str().unwrap();
        assert!(
            whole.starts_with(partial) && whole.len() > partial.len(),
            "{whole}"
        );
        // Its answers, each with the move before it: the page asks there.
        for answer in completed["answers"].as_array().unwrap() {
            let before = answer["before"].as_str().unwrap();
            let expected = answer["expected"].as_str().unwrap();
            assert!(["r", "s"].contains(&expected), "{completed}");
            assert!(
                whole.starts_with(&format!("{before}{expected}")),
                "{completed}"
            );
        }
        let (status, played) = post(&server, "api/play", &json!({"game": game, "move": whole}));
        assert_eq!(status, 200, "{played}");
        refused(
            &server,
            "api/complete",
            &json!({"game": game, "move": whole}),
            400,
            "is not a move half made under the retreat",
        );
    }
}
