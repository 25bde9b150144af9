//! External engines in matches: the project's own binary over UGI against the built-in
//! engine, misbehaving engines adjudicated, clocks kept, logs written.

use crate::common;

use common::process::{game_lines as games, ok, run, scratch, Scratch};

const BIN: &str = env!("CARGO_BIN_EXE_isolo-ai");

/// The misbehaving engine (tests/engines/misbehaving_engine.rs), which cargo builds with
/// the tests as an example, next to this test's own executable.
fn misbehaving() -> String {
    let deps = std::env::current_exe().unwrap();
    let profile = deps.parent().unwrap().parent().unwrap();
    let path = profile.join("examples").join("misbehaving_engine");
    assert!(
        path.exists(),
        "{} is missing: a plain `cargo test` builds it (a test run filtered with --test does not; then `cargo build --example misbehaving_engine` with the same profile)",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn our_binary_over_ugi_plays_the_same_games_as_the_built_in_engine() {
    let openings = ["--openings", "openings/isolo-boys.txt"];
    same_games_over_ugi("same", "isolo-boys", &openings, 8);
}

/// Under the retreat the manager asks each side for its answers and for the rest of a
/// move after an answer it did not plan for, over UGI as in process (`position` ending
/// with a move half made).
#[test]
fn our_binary_over_ugi_answers_passes_as_the_built_in_engine_does() {
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/family/igisoro-retreat.toml"
    );
    let played = same_games_over_ugi("retreat", rules, &[], 2);
    let moves = played
        .iter()
        .flat_map(|(moves, _, _)| moves.as_array().unwrap());
    let answered = moves.filter(|m| m.as_str().unwrap().contains(['r', 's']));
    assert!(answered.count() > 0, "moves with an answer");
}

/// Plays `games` games of `a` against `b` twice, `b` once our binary over UGI and once
/// the built-in engine, and checks both give the same games; returns them.
fn same_games_over_ugi(
    name: &str,
    variant: &str,
    extra: &[&str],
    games_played: usize,
) -> Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> {
    let dir = scratch(name);
    let external = format!("b=cmd:\"{BIN} ugi\",nodes=1500");
    let mut moves = Vec::new();
    for (name, b) in [("ext", external.as_str()), ("int", "b=ab:nodes=1500")] {
        let out = dir.0.join(format!("{name}.jsonl"));
        let count = games_played.to_string();
        let mut args = vec!["match", "--variant", variant];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[
            "--engine",
            "a=ab:nodes=1500",
            "--engine",
            b,
            "--games",
            &count,
            "--concurrency",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        ok(&args);
        let played: Vec<_> = games(&out)
            .iter()
            .map(|g| (g["moves"].clone(), g["result"].clone(), g["reason"].clone()))
            .collect();
        assert_eq!(played.len(), games_played);
        moves.push(played);
    }
    assert_eq!(moves[0], moves[1]);
    moves.remove(0)
}

/// Plays `bad` (a misbehaving engine's mode and K) against greedy for two games and
/// returns the records.
fn against(dir: &Scratch, name: &str, bad: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let out = dir.0.join(format!("{name}.jsonl"));
    let spec = format!("bad=cmd:\"{} {bad}\"", misbehaving());
    let mut args = vec![
        "match",
        "--variant",
        "isolo-women",
        "--engine",
        "good=greedy",
        "--engine",
        &spec,
        "--games",
        "4",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let text = ok(&args);
    assert!(text.contains("good vs bad"), "{text}");
    // Whatever happened, the records replay.
    let replayed = ok(&["replay", out.to_str().unwrap()]);
    assert!(replayed.contains("4 of 4 games checked"), "{replayed}");
    games(&out)
}

/// The records lost by a forfeit, as (reason, detail).
fn forfeits(games: &[serde_json::Value]) -> Vec<(String, String)> {
    let rules = ["no-moves", "repetition", "ply-limit"];
    games
        .iter()
        .filter(|g| !rules.contains(&g["reason"].as_str().unwrap()))
        .map(|g| {
            // The forfeiting side is the one that did not win: always `bad` here.
            let loser = if g["result"] == "S" {
                &g["north"]
            } else {
                &g["south"]
            };
            assert_eq!(loser, "bad", "{g}");
            (
                g["reason"].as_str().unwrap().to_string(),
                g["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn each_misbehaviour_is_adjudicated_and_the_match_goes_on() {
    let dir = scratch("bad");
    // A short clock keeps the silent engine's stall (clock + margin + 1 s) short.
    let clock = ["--tc", "0.3"];
    for (i, (mode, reason, detail)) in [
        ("crash 2", "crash", "ended (exit status: 3)"),
        ("illegal 2", "illegal-move", "not a legal move here"),
        ("silent 2", "stall", "no bestmove"),
        ("garbage 2", "bad-output", "not UTF-8 text"),
        ("nonsense 2", "bad-output", "answered 'bestmove e2e4'"),
        (
            "late:600 2",
            "time-forfeit",
            "ms on its clock (margin 50 ms)",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let games = against(&dir, &format!("case{i}"), mode, &clock);
        let lost = forfeits(&games);
        assert!(!lost.is_empty(), "{mode}: no forfeit in {games:?}");
        for (r, d) in &lost {
            assert_eq!(r, reason, "{mode}");
            assert!(d.contains(detail), "{mode}: {d}");
        }
        // Only the game with the misbehaviour (and, after a restart, one more) is lost.
        assert!(lost.len() < games.len(), "{mode}: every game forfeited");
    }
}

#[test]
fn a_crashed_engine_is_restarted_for_the_next_game() {
    let dir = scratch("restart");
    // It crashes at its second move of each life: games 1 and 3 are lost, games 0 and 2
    // are played by a fresh process.
    let games = against(&dir, "crash", "crash 2", &[]);
    let reasons: Vec<&str> = games
        .iter()
        .map(|g| g["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["no-moves", "crash", "no-moves", "crash"]);
}

#[test]
fn chatter_is_not_a_forfeit_a_slow_handshake_is_waited_for_and_a_stalled_one_refused() {
    let dir = scratch("patient");
    assert!(forfeits(&against(&dir, "chatty", "chatty 2", &[])).is_empty());
    let slow = against(
        &dir,
        "slow",
        "slow-handshake:300",
        &["--handshake-ms", "3000"],
    );
    assert!(forfeits(&slow).is_empty());
    // An engine that never completes the handshake in time is refused before play,
    // rather than forfeiting every game by stall.
    let spec = format!("bad=cmd:\"{} slow-handshake:400\"", misbehaving());
    let out = run(&[
        "match",
        "--variant",
        "isolo-women",
        "--engine",
        "good=greedy",
        "--engine",
        &spec,
        "--games",
        "4",
        "--handshake-ms",
        "100",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--engine bad: refused before the first game: no ugiok in time"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn clocks_are_kept_and_recorded() {
    let dir = scratch("clock");
    let out = dir.0.join("clock.jsonl");
    let external = format!("ext=cmd:\"{BIN} ugi\",option.Hash=8");
    let text = ok(&[
        "match",
        "--variant",
        "isolo-boys",
        "--openings",
        "openings/isolo-boys.txt",
        "--engine",
        "ab",
        "--engine",
        &external,
        "--engine-log",
        dir.0.to_str().unwrap(),
        "--tc",
        "2+0.05",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!text.contains("forfeits"), "{text}");
    let header: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(header["time_control"], "2+0.05");
    assert_eq!(header["time_margin_ms"], 50);
    for game in games(&out) {
        let plies = game["plies"].as_u64().unwrap() as usize;
        let clocks = game["clock_ms"].as_array().unwrap();
        assert_eq!(clocks.len(), plies);
        assert_eq!(game["move_ms"].as_array().unwrap().len(), plies);
        // Each clock stays within its base plus the increments so far.
        for (ply, left) in clocks.iter().enumerate() {
            let left = left.as_u64().unwrap();
            assert!(left <= 2000 + 50 * (ply as u64 / 2 + 1), "{left}");
        }
    }
    // The protocol log shows the clocks sent to the external engine, both sides'.
    let log = std::fs::read_to_string(dir.0.join("ext-0.ugi.log")).unwrap();
    assert!(
        log.contains("> setoption name Variant value isolo-boys"),
        "{log}"
    );
    assert!(log.contains("> setoption name Hash value 8"), "{log}");
    assert!(log.contains("p1inc 50") && log.contains("p2time"), "{log}");
    assert!(log.contains("< bestmove"), "{log}");
    // Resuming with another clock is refused by name.
    let refused = run(&[
        "match",
        "--variant",
        "isolo-boys",
        "--openings",
        "openings/isolo-boys.txt",
        "--engine",
        "ab",
        "--engine",
        &external,
        "--tc",
        "3+0.05",
        "--games",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("tc: 3+0.05 here, 2+0.05 in the file"),
        "{stderr}"
    );
}

#[test]
fn built_in_engines_do_not_lose_on_a_short_clock() {
    // The full check (200 games at 1+0.01, two at once) is in docs/matches.md; this is a
    // smaller one of the same kind.
    let text = ok(&[
        "match",
        "--variant",
        "isolo-boys",
        "--openings",
        "openings/isolo-boys.txt",
        "--engine",
        "ab",
        "--engine",
        "mcts",
        "--tc",
        "1+0.01",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--json",
    ]);
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(summary["forfeits"], serde_json::json!({}), "{summary}");
}

#[test]
fn bad_external_specs_and_programs_are_refused_before_play() {
    for (engine, expected) in [
        ("cmd:./x", "an external engine needs a name"),
        ("x=cmd:\"./x", "no closing quote"),
        (
            "x=cmd:/no/such/engine",
            "--engine x: refused before the first game: cannot start '/no/such/engine'",
        ),
        (
            "x=cmd:./x,tc=0",
            "engine key `tc`: the base must be more than 0",
        ),
    ] {
        let out = run(&[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "random",
            "--engine",
            engine,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {stderr}");
        assert!(stderr.contains(expected), "{engine}: {stderr}");
    }
    let out = run(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--tc",
        "1+x",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tc: time control '1+x'"));
    let out = run(&[
        "compare",
        "--variant",
        "isolo-boys",
        "--engine",
        "x=cmd:/bin/true",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn tournaments_mix_built_in_and_external_engines_with_their_own_clocks() {
    let dir = scratch("tournament");
    let out = dir.0.join("rr.jsonl");
    let external = format!("ext=cmd:\"{BIN} ugi\",tc=1+0.01");
    let text = ok(&[
        "tournament",
        "--variant",
        "isolo-women",
        "--engine",
        "random",
        "--engine",
        "fast=ab:tc=0.5+0.01",
        "--engine",
        &external,
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["forfeits"], serde_json::json!({}), "{summary}");
    for game in games(&out) {
        // Random has no clock: its moves show null where the others show theirs.
        let clocks = game["clock_ms"].as_array().unwrap();
        let south_clocked = game["south"] != "random";
        let first_mover_is_south = game["opening"].as_str().unwrap().ends_with(" S");
        if let Some(first) = clocks.first() {
            assert_eq!(
                !first.is_null(),
                south_clocked == first_mover_is_south,
                "{game}"
            );
        }
    }
}
