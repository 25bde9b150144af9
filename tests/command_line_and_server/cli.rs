//! Every subcommand run as a process, its output checked.

use crate::common;

use std::process::Command;

use common::process::{ok as stdout_of, run};

fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).expect("valid JSON")
}

/// Runs a command that must fail: exit code 2, one line on stderr containing `expected`,
/// nothing on stdout, no panic.
fn fails(args: &[&str], expected: &str) {
    let out = run(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    common::assert_refused(args, out.status.code(), &stdout, &stderr, expected);
}

const BOYS_START: &str = "17,2,0,2,0,2,0,2/0,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17 S SN";

#[test]
fn variants_lists_the_presets_and_readings() {
    let out = stdout_of(&["variants"]);
    let names: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("8x4"))
        .map(|l| l.split_whitespace().next().unwrap())
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
    assert!(out.contains("capture=both optional sow_from=turn-start"));
}

#[test]
fn variants_explain_tells_each_rule_in_plain_words() {
    let told = stdout_of(&["variants", "--explain", "igisoro-retreat"]);
    assert!(told.starts_with("igisoro-retreat: "), "{told}");
    assert!(
        told.contains("\n1. The board has four rows of 8 pits"),
        "{told}"
    );
    assert!(
        told.contains("the opponent answers at once: retreat"),
        "{told}"
    );
    fails(
        &["variants", "--explain", "chess"],
        "unknown variant 'chess'",
    );
}

#[test]
fn variants_show_prints_toml_that_loads_back() {
    let toml = stdout_of(&["variants", "--show", "isolo-boys"]);
    assert!(
        toml.contains("overture = true\n") && toml.contains("max_laps = 1000\n"),
        "{toml}"
    );
    let dir = std::env::temp_dir().join(format!("isolo-ai-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("boys-copy.toml");
    std::fs::write(&file, &toml).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(stdout_of(&["variants", "--show", path]), toml);
    // The file works wherever a preset does.
    assert_eq!(
        stdout_of(&["apply", "--variant", path, "--moves", "1"]),
        stdout_of(&["apply", "--variant", "isolo-boys", "--moves", "1"])
    );
    std::fs::write(&file, "base = \"isolo-women\"\ncapture = \"some\"\n").unwrap();
    fails(
        &["variants", "--show", path],
        "key `capture`: expected \"any\" or \"both\"",
    );
    fails(
        &["moves", "--variant", path],
        "boys-copy.toml: key `capture`",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_draws_both_players_pit_numbers_and_state() {
    let out = stdout_of(&["show", "--variant", "isolo-boys"]);
    for expected in [
        "North back  [ 17] [  2] [  0]",
        "      front [  0] [  1] [  2]",
        "South front [  0] [  2] [  0] [  2] [  0] [  2] [  1] [  0]",
        "      back  [  2] [  0] [  2] [  0] [  2] [  0] [  2] [ 17]",
        "  8     7     6     5     4     3     2     1   North's numbering",
        "  1     2     3     4     5     6     7     8   South's numbering",
        " 16    15    14    13    12    11    10     9   South's numbering",
        "North: 32 seeds, in overture (ng'hana is pit 8)",
        "To move: South",
        "Overture: SN",
        &format!("Position: {BOYS_START}"),
        "Result: game in progress",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    // An 80-column terminal holds every line.
    let widest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest <= 80, "a line of {widest} characters in\n{out}");
    // Each row is drawn once.
    for row in ["North back", "South front", "North's numbering"] {
        let times = if row.starts_with("North's") { 2 } else { 1 };
        assert_eq!(out.matches(row).count(), times, "{row:?} in\n{out}");
    }
}

#[test]
fn show_plays_moves_and_reports_the_result() {
    let over = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0 N";
    let out = stdout_of(&["show", "--variant", "isolo-women", "--position", over]);
    assert!(
        out.contains("Result: North has no legal move: South wins (South wins, no-moves)"),
        "{out}"
    );
    let out = stdout_of(&["show", "--variant", "isolo-women", "--moves", "1"]);
    assert!(out.contains("To move: North"), "{out}");
}

#[test]
fn show_analyze_and_apply_tell_one_end_of_a_dead_position() {
    // Igisoro: North's one seed can never be captured nor capture.
    let dead = "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0 S";
    let end = "(draw, dead-position)";
    for command in ["show", "analyze"] {
        let out = stdout_of(&[command, "--variant", "igisoro", "--position", dead]);
        assert!(
            out.contains("Result: ") && out.contains(end),
            "{command}: {out}"
        );
        assert!(!out.contains("game in progress"), "{command}: {out}");
    }
}

#[test]
fn moves_lists_each_move_with_result_laps_and_captures() {
    let out = stdout_of(&["moves", "--variant", "igisoro"]);
    assert!(out.starts_with("Legal moves for South in "), "{out}");
    assert!(out.ends_with("\n8 legal moves\n"), "{out}");
    assert!(out.contains("1         2         0  4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,1,1/0,5,5,5,0,5,5,5 N"), "{out}");
    let json = json_of(&["moves", "--variant", "isolo-women", "--json"]);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    assert_eq!(json["to_move"], "S");
    assert!(json["result"].is_null());
    for m in moves {
        assert!(m["move"].is_string() && m["position"].is_string());
        assert!(m["laps"].as_u64().unwrap() >= 1 && m["captured"].is_u64());
    }
}

#[test]
fn moves_reports_a_finished_game() {
    let over = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0 N";
    let json = json_of(&[
        "moves",
        "--variant",
        "isolo-women",
        "--position",
        over,
        "--json",
    ]);
    assert_eq!(json["result"], "S");
    assert_eq!(json["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn apply_prints_the_position_reached() {
    let out = stdout_of(&["apply", "--variant", "igisoro", "--moves", "5"]);
    assert_eq!(
        out,
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 N\n"
    );
    let json = json_of(&[
        "apply",
        "--variant",
        "isolo-boys",
        "--moves",
        "1, 3",
        "--json",
    ]);
    assert_eq!(
        json.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["position", "to_move", "result"]
    );
    assert_eq!(json["to_move"], "S");
    assert!(json["result"].is_null());
}

#[test]
fn apply_reports_the_winner_when_the_game_ends() {
    let position = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0 S";
    let json = json_of(&[
        "apply",
        "--variant",
        "isolo-women",
        "--position",
        position,
        "--moves",
        "1",
        "--json",
    ]);
    assert_eq!(
        json["position"],
        "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,1,1,0,0,0,0,0 N"
    );
    assert_eq!(json["result"], "S");
}

#[test]
fn apply_names_an_illegal_move_its_index_and_the_legal_moves() {
    fails(
        &["apply", "--variant", "isolo-women", "--moves", "1 2 99"],
        "--moves: move 2 of 3: move '2' is not legal here (legal moves: 3 4 5 7 8 9 10 12 13 14)",
    );
    fails(
        &["apply", "--variant", "isolo-women", "--moves", "1 99"],
        "move 2 of 2: move '99': pit 99 is not 1..16",
    );
}

#[test]
fn perft_counts_divides_and_times() {
    let out = stdout_of(&["perft", "--variant", "isolo-boys", "--depth", "4"]);
    assert!(out.contains("depth 4\nnodes 1467\ntime "), "{out}");
    assert!(out.contains("\nnps "), "{out}");
    let out = stdout_of(&[
        "perft",
        "--variant",
        "isolo-women",
        "--depth",
        "2",
        "--divide",
    ]);
    assert_eq!(
        out.lines().filter(|l| l.contains(": ")).count(),
        16,
        "{out}"
    );
    let json = json_of(&[
        "perft",
        "--variant",
        "igisoro",
        "--depth",
        "3",
        "--divide",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(
        json.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["depth", "nodes", "nps", "time_ms", "divide"]
    );
    assert_eq!(json["nodes"], 623);
    let divide = json["divide"].as_array().unwrap();
    assert_eq!(
        divide
            .iter()
            .map(|d| d["nodes"].as_u64().unwrap())
            .sum::<u64>(),
        623
    );
    assert_eq!(divide[0]["move"], "1");
    let plain = json_of(&[
        "perft",
        "--variant",
        "isolo-women",
        "--depth",
        "3",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(plain["nodes"], 1311);
    assert!(plain.get("divide").is_none());
    let custom = json_of(&[
        "perft",
        "--variant",
        "isolo-boys",
        "--position",
        BOYS_START,
        "--depth",
        "0",
        "--json",
    ]);
    assert_eq!(custom["nodes"], 1);
}

#[test]
fn bad_input_gives_one_line_and_exit_code_2() {
    fails(&[], "no subcommand given");
    fails(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
    fails(
        &["perft", "--variant", "isolo-women"],
        "required arguments were not provided: --depth <DEPTH>",
    );
    fails(
        &["perft", "--variant", "isolo-women", "--depth", "x"],
        "--depth: 'x' is not a whole number (0..=64 plies)",
    );
    fails(
        &[
            "perft",
            "--variant",
            "isolo-women",
            "--depth",
            "2",
            "--threads",
            "0",
        ],
        "--threads: must be 1..=256",
    );
    fails(
        &["perft", "--variant", "chess", "--depth", "1"],
        "unknown variant 'chess'",
    );
    fails(
        &["show", "--variant", "isolo-women", "--position", "1,2 S"],
        "--position: expected 4 rows",
    );
    fails(
        &[
            "moves",
            "--variant",
            "isolo-women",
            "--position",
            &BOYS_START.replace(" S SN", " X SN"),
        ],
        "side to move must be S or N",
    );
    fails(
        &[
            "moves",
            "--variant",
            "isolo-women",
            "--position",
            BOYS_START,
        ],
        "has no overture",
    );
    fails(
        &["apply", "--variant", "igisoro", "--moves", "5z"],
        "'z' is neither 'x' (take) nor 'p' (pass)",
    );
    fails(
        &["variants", "--show", "/no/such/file.toml"],
        "unknown variant '/no/such/file.toml'",
    );
}

#[test]
fn help_and_version_succeed() {
    assert!(stdout_of(&["--help"]).contains("perft"));
    assert!(stdout_of(&["perft", "--help"]).contains("--divide"));
    assert!(stdout_of(&["--version"]).starts_with("isolo-ai "));
}

#[test]
fn analyze_reports_a_proven_win_in_json() {
    let json = json_of(&[
        "analyze",
        "--variant",
        "isolo-women",
        "--depth",
        "8",
        "--json",
    ]);
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "best_move",
            "score",
            "wdl",
            "pv",
            "lines",
            "depth",
            "nodes",
            "nps",
            "time_ms",
            "engine",
            "material",
            "fortress",
            "chances_why"
        ]
    );
    assert_eq!(
        json["score"],
        serde_json::json!({"type": "win", "plies": 5, "text": "win in 5",
                           "words": "a win in 5 plies"})
    );
    assert_eq!(
        json["chances_why"],
        serde_json::Value::Null,
        "a proven score needs no reason"
    );
    assert_eq!(
        json["material"],
        serde_json::json!({"S": 32, "N": 32, "text": "level, 32 seeds each"})
    );
    assert_eq!(json["pv"].as_array().unwrap().len(), 5);
    assert_eq!(json["engine"], "ab");
    assert_eq!(json["lines"][0]["move"], json["best_move"]);
}

#[test]
fn analyze_text_shows_board_progress_and_summary() {
    let out = stdout_of(&["analyze", "--variant", "isolo-boys", "--depth", "6"]);
    for expected in [
        "North back",
        "depth   1  score",
        "depth   6  score",
        "best move ",
        "\nscore ",
        "\npv ",
        "engine ab  depth 6  nodes ",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
}

#[test]
fn analyze_multipv_all_and_mcts() {
    let json = json_of(&[
        "analyze",
        "--variant",
        "igisoro",
        "--depth",
        "3",
        "--multipv",
        "all",
        "--json",
    ]);
    assert_eq!(json["lines"].as_array().unwrap().len(), 8);
    let json = json_of(&[
        "analyze",
        "--variant",
        "isolo-boys",
        "--engine",
        "mcts",
        "--nodes",
        "3000",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(json["engine"], "mcts");
    assert_eq!(json["score"]["type"], "eval");
    assert!(json["score"]["value"].is_number());
}

#[test]
fn analyze_with_a_seed_and_node_limit_is_reproducible() {
    for engine in ["ab", "mcts"] {
        let args = [
            "analyze",
            "--variant",
            "igisoro",
            "--engine",
            engine,
            "--nodes",
            "4000",
            "--seed",
            "9",
            "--json",
        ];
        let (a, b) = (json_of(&args), json_of(&args));
        for key in ["best_move", "score", "pv", "lines", "depth", "nodes"] {
            assert_eq!(a[key], b[key], "{engine}: {key}");
        }
    }
}

#[test]
fn analyze_reports_a_finished_game_without_searching() {
    let over = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0 N";
    let json = json_of(&[
        "analyze",
        "--variant",
        "isolo-women",
        "--position",
        over,
        "--json",
    ]);
    assert!(json["best_move"].is_null());
    assert_eq!(json["result"], "S");
    let out = stdout_of(&["analyze", "--variant", "isolo-women", "--position", over]);
    assert!(
        out.contains("Game over. North has no legal move: South wins"),
        "{out}"
    );
}

#[test]
fn analyze_rejects_bad_limits() {
    fails(
        &["analyze", "--variant", "isolo-women", "--multipv", "0"],
        "--multipv: must be 1..=256 lines, found 0, or all",
    );
    fails(
        &["analyze", "--variant", "isolo-women", "--threads", "0"],
        "--threads: must be 1..=256",
    );
    fails(
        &["analyze", "--variant", "isolo-women", "--engine", "chess"],
        "invalid value 'chess' for '--engine",
    );
    fails(
        &["analyze", "--variant", "isolo-women", "--depth", "0"],
        "--depth: must be 1..=100 plies, found 0",
    );
    fails(
        &["analyze", "--variant", "isolo-women", "--nodes", "0"],
        "--nodes: must be at least 1, found 0",
    );
    fails(
        &["analyze", "--variant", "isolo-women", "--hash", "1000000"],
        "MB here (half this machine's memory), found 1000000",
    );
    fails(
        &[
            "analyze",
            "--variant",
            "isolo-women",
            "--hash",
            "1000000000",
        ],
        "--hash: must be 1..=1048576 MB, found 1000000000",
    );
    fails(
        &[
            "analyze",
            "--variant",
            "isolo-women",
            "--hash",
            "18446744073709551615",
        ],
        "--hash: must be 1..=1048576 MB, found 18446744073709551615",
    );
    fails(
        &[
            "analyze",
            "--variant",
            "isolo-women",
            "--engine",
            "mcts",
            "--depth",
            "3",
        ],
        "--depth: does not apply to engine mcts",
    );
    fails(
        &[
            "analyze",
            "--variant",
            "isolo-women",
            "--weights",
            "/no/such.toml",
        ],
        "weights file /no/such.toml: cannot read",
    );
}

#[test]
fn bench_prints_a_node_signature() {
    let json = json_of(&["bench", "--depth", "3", "--json"]);
    assert_eq!(json["positions"], 24);
    let again = json_of(&["bench", "--depth", "3", "--json"]);
    assert_eq!(json["nodes"], again["nodes"], "the signature is stable");
    let out = stdout_of(&["bench", "--depth", "2", "--threads", "2"]);
    assert!(
        out.contains("24 positions, depth 2, 1 thread\nnodes ")
            && out.contains("2 threads: nodes "),
        "{out}"
    );
}

#[test]
fn bench_playouts_counts_random_games_the_same_on_any_threads() {
    let run = |threads: &str| {
        json_of(&[
            "bench",
            "--playouts",
            "--variant",
            "isolo-boys",
            "--variant",
            "igisoro",
            "--games",
            "40",
            "--threads",
            threads,
            "--seed",
            "3",
            "--json",
        ])
    };
    let (one, two) = (run("1"), run("2"));
    let rows = one["variants"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["variant"], "igisoro");
    for (a, b) in rows.iter().zip(two["variants"].as_array().unwrap()) {
        for key in ["games", "decided", "cut", "plies", "laps", "mean_plies"] {
            assert_eq!(a[key], b[key], "{key}: the games depend on the seed alone");
        }
        assert_eq!(a["games"], 40);
        let plies = a["plies"].as_f64().unwrap();
        assert!(a["laps"].as_f64().unwrap() >= plies && plies >= 40.0);
        assert!(a["games_per_s"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(rows[0]["decided"], 40, "isolo-boys' random games all end");
    let text = stdout_of(&[
        "bench",
        "--playouts",
        "--variant",
        "isolo-women",
        "--games",
        "10",
    ]);
    assert!(
        text.starts_with("random games from each start, 10 a variant, at most 400 plies, 1 thread")
            && text.contains("\nisolo-women ")
            && text.contains(" games/s "),
        "{text}"
    );
    for (args, expected) in [
        (vec!["--playouts", "--games", "0"], "--games: must be 1..="),
        (
            vec!["--playouts", "--max-plies", "0"],
            "--max-plies: must be 1..=1000000 plies, found 0",
        ),
        (
            vec!["--playouts", "--variant", "nope"],
            "unknown variant 'nope'",
        ),
        (vec!["--games", "5"], "--playouts"),
        (vec!["--playouts", "--depth", "3"], "cannot be used with"),
    ] {
        let mut full = vec!["bench"];
        full.extend(args);
        fails(&full, expected);
    }
}

/// Runs `play` with `input` on its standard input; its standard output and whether it
/// exited successfully. (Input it did not read is no error: the game may end first.)
/// Its prose is wrapped to 1,000 columns, so that a line is found whole.
fn play_session(args: &[&str], input: &[u8]) -> (String, bool) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .env("COLUMNS", "1000") // (long lines whole; wrapping has its own test)
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

#[test]
fn play_through_stdin() {
    let (text, ok) = play_session(
        &["--variant", "isolo-women", "--engine", "ab:depth=3"],
        b"moves\n99\nhint\n1\nundo\n3\nquit\n",
    );
    assert!(ok);
    for expected in [
        "You play South",
        "Note: South wins this game by force: a proven win in 5 plies.",
        "Legal moves: 1 (takes 12)",
        "pit 99 is not 1..16. Try again.",
        "Hint: ",
        " for you; your chances: win ",
        "Engine plays ",
        " for it; its chances: win ",
        "Took back: 1 ",
        "Game abandoned.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // The board is drawn once a position: the start, after 1 and the engine's reply,
    // after the undo, after 3 and the reply; the list of moves, the refused 99 and the
    // hint stay under the board they are about.
    assert_eq!(text.matches("Position: ").count(), 6, "{text}");
}

/// Chances of mostly a draw beside a lead say why (Igisoro's engine games are drawn
/// unless a side is far ahead); the women's game, without such a band, says nothing.
#[test]
fn analyze_says_why_its_chances_are_a_draw_beside_a_lead() {
    let text = stdout_of(&["analyze", "--variant", "igisoro", "--depth", "6"]);
    let why = "chances: in the engine's games under these rules a lead like this mostly ends \
               in a draw (even chances of a win come only at an evaluation of about 159)\n";
    assert!(text.contains(why), "{text}");
    let women = stdout_of(&["analyze", "--variant", "isolo-women", "--depth", "4"]);
    assert!(!women.contains("chances: "), "{women}");
}

/// In 80 columns (stdout no terminal, `COLUMNS` unset) prose breaks at word ends (the
/// review command's continuation lines have a unit test of their own).
#[test]
fn play_wraps_its_prose_at_80_columns() {
    let out = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "play",
            "--variant",
            "igisoro-retreat",
            "--engine",
            "ab:depth=3",
        ])
        .env_remove("COLUMNS")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let _ = child
                .stdin
                .take()
                .unwrap()
                .write_all(b"hint\n1\n2\nresign\n");
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // (A prompt shares its line with what follows here, where no typed line ends it.)
    let long: Vec<&str> = (text.lines())
        .map(|l| l.strip_prefix("Your move (South): ").unwrap_or(l))
        .filter(|l| l.chars().count() > 80 && !l.starts_with("Position: "))
        .collect();
    assert!(long.is_empty(), "{long:?}");
    assert!(
        text.contains("\nUnder the retreat, type your move up to a pass (7p) or with"),
        "{text}"
    );
    assert!(!text.contains("rel\nay"), "{text}");
}

/// A draw offered is accepted where the engine expects no more (South wins the women's
/// game by force) and declined where it does; a resignation ends the game with the
/// review command.
#[test]
fn play_offers_a_draw_and_resigns() {
    let women = ["--variant", "isolo-women", "--engine", "ab:depth=3"];
    let (text, ok) = play_session(&women, b"draw\n");
    assert!(ok);
    assert!(
        text.contains("The engine accepts your draw offer (its chances: win "),
        "{text}"
    );
    assert!(text.contains("a draw by agreement."), "{text}");
    let as_north = [&women[..], &["--as", "N"]].concat();
    let (text, ok) = play_session(&as_north, b"draw\nresign\n");
    assert!(ok);
    assert!(
        text.contains("The engine declines your draw offer: it expects more"),
        "{text}"
    );
    assert!(
        text.contains("North resigns: South wins.\nMoves: "),
        "{text}"
    );
    assert!(
        text.contains("Review it: isolo-ai review --variant isolo-women"),
        "{text}"
    );
}

/// The terminal says where the long-game rule nears, and ends the game by it in words.
#[test]
fn play_warns_of_the_long_game_rule_and_ends_by_it() {
    let dir = common::process::scratch("long-game");
    let rules = dir.join("short.toml");
    let text =
        "base = \"igisoro\"\nname = \"short\"\ndead_position = \"play-on\"\nlong_game_plies = 2\n";
    std::fs::write(&rules, text).unwrap();
    let lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";
    let args = [
        "--variant",
        rules.to_str().unwrap(),
        "--position",
        lone,
        "--engine",
        "ab:depth=2",
        "--as",
        "N",
    ];
    // North's lone seed has one move at most a ply; after South's and North's moves
    // two plies have passed without a capture.
    // (Each pit is typed in turn: the one legal move is played, the rest refused.)
    let pits: String = (1..=16).map(|p| format!("{p}\n")).collect();
    let (text, ok) = play_session(&args, pits.as_bytes());
    assert!(ok);
    let warned = "Note: 2 more moves without a capture, either player's, end the game: a draw.";
    assert!(text.contains(warned), "{text}");
    let near = "Note: 1 more move without a capture";
    assert!(text.contains(near), "{text}");
    assert!(text.contains("2 plies without a capture: a draw"), "{text}");
}

/// Input that is not text, or a line too long to hold, is answered and the game goes
/// on: the moves after it are played.
#[test]
fn play_skips_bad_lines_and_goes_on() {
    let mut input = b"1\n\xff\n".to_vec();
    input.extend(vec![b'7'; (1 << 20) + 5]);
    input.extend(b"\n3\nquit\n");
    let (text, ok) = play_session(&["--variant", "igisoro", "--engine", "ab:depth=1"], &input);
    assert!(ok, "{text}");
    for expected in [
        "the line is not UTF-8 text: ignored. Try again.",
        "the line is over 1048576 bytes: ignored. Try again.",
        "Game abandoned.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    assert_eq!(text.matches("Engine plays ").count(), 2, "{text}");
    assert!(text.len() < 100_000, "the long line was echoed");
}

/// Under the retreat each side decides its part of a move: the human answers the
/// engine's passes (the engine going on where the answer is not the one it planned),
/// and the engine answers the human's, the human going on from there.
#[test]
fn play_splits_a_move_between_the_sides_under_the_retreat() {
    let engine_to_move = "2,0,4,0,0,0,7,1/1,3,1,0,0,3,0,0/1,1,5,2,0,3,1,4/3,1,1,1,1,6,0,12 N";
    let args = |position| {
        [
            "--variant",
            "igisoro-retreat",
            "--engine",
            "ab:depth=3",
            "--position",
            position,
        ]
    };
    // The engine plans 9prxxxpsx; staying at its first pass sends it on from 9ps.
    let (text, ok) = play_session(&args(engine_to_move), b"x\ns\ns\ns\ns\nquit\n");
    assert!(ok, "{text}");
    for expected in [
        "You are asked for your answer to each of the engine's passes.",
        "The engine's move so far, 9p; the board as sown so far:",
        "South, answer: North passed the capture of your pits 15 and 2 (2 seeds). Retreat pit 15's seeds into the pit behind it, or stay?",
        "Your answer (r/s): Type r to retreat",
        "Engine plays 9ps",
        "Game abandoned.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let (text, ok) = play_session(&args(engine_to_move), b"r\ns\nquit\n");
    assert!(ok && text.contains("Engine plays 9prxxxpsx ("), "{text}");
    // The human's move: begun without its choice, then the pass the engine answers.
    let human_to_move = "0,4,4,4,4,4,4,4/1,1,1,0,1,0,0,0/0,0,0,0,1,1,0,0/0,5,5,5,0,5,5,5 S";
    let (text, ok) = play_session(&args(human_to_move), b"7\n3\nhint\np\nquit\n");
    assert!(ok, "{text}");
    for expected in [
        "Your move so far, 7; the board as sown so far:",
        "Lap 1 ends in your pit 12: take North's pits 13 and 4 (5 seeds), or pass and relay \
         (North may then retreat pit 13's seeds out of reach)?",
        "Your move goes on from 7: 3 does not go on legally from 7.",
        "Your move goes on from 7: Hint: 7",
        "The engine retreats: its front pit's seeds go to the pit behind it (after 7p).",
        "You play 7pr\n",
        "Engine plays ",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // A stay planned where the engine retreats: the move is the engine's answer's.
    let (text, _) = play_session(&args(human_to_move), b"7ps\nquit\n");
    assert!(text.contains("You play 7pr\n"), "{text}");
}

/// A move begun (a pit whose captures may be taken or passed) is asked on decision by
/// decision, each shown with the board as sown and the pits and seeds at stake.
#[test]
fn play_asks_a_move_begun_one_decision_at_a_time() {
    let position = "6,1,0,6,6,1,0,4/2,2,2,0,1,1,0,0/0,0,0,0,1,1,2,2/0,5,5,5,0,5,0,6 S";
    let args = [
        "--variant",
        "igisoro",
        "--engine",
        "ab:depth=2",
        "--position",
        position,
    ];
    let (text, ok) = play_session(&args, b"11\nx\np\nquit\n");
    assert!(ok, "{text}");
    for expected in [
        "Your move so far, 11; the board as sown so far:",
        "Lap 1 ends in your pit 12: take North's pits 13 and 4 (7 seeds), or pass and relay?",
        "Your move goes on from 11: Your move so far, 11x;",
        "You play 11xp\n",
        "Engine plays ",
        // Quitting still prints the moves and the command that reviews them.
        "Game abandoned.\nMoves: 11xp ",
        "Review it: isolo-ai review --variant igisoro --position '6,1,0,6,6,1,0,4/",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // The engine's move with what it sowed.
    let engine = text
        .lines()
        .find(|l| l.starts_with("Engine plays "))
        .unwrap();
    assert!(
        engine.contains(" for it; its chances: win ")
            && engine.contains(" lap")
            && engine.ends_with("captured"),
        "{engine}"
    );
}

/// At a level the engine plays its level's moves, reports their own scores, and still
/// hints the engine's best; a level is for the searching engines only.
#[test]
fn play_at_a_level_hints_at_full_strength() {
    let base = [
        "--variant",
        "isolo-boys-capture-ends",
        "--engine",
        "ab:depth=3",
    ];
    let hint = |text: &str| {
        let line = text
            .lines()
            .find(|l| l.contains("Hint: "))
            .unwrap_or_default();
        line[line.find("Hint: ").unwrap()..].to_string()
    };
    let (full, _) = play_session(&base, b"hint\nquit\n");
    let leveled = [&base[..], &["--level", "1"]].concat();
    let (weak, ok) = play_session(&leveled, b"hint\nquit\n");
    assert!(
        ok && weak.contains("against ab:depth=3 at level 1, beginner"),
        "{weak}"
    );
    assert_eq!(hint(&weak), hint(&full), "the hint is the engine's best");
    let refused = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "play",
            "--variant",
            "isolo-boys",
            "--engine",
            "greedy",
            "--level",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("--level: engine 'greedy' has no levels"),
        "{said}"
    );
}

/// Ctrl-C keeps the game (its moves, and how to go on), and a clock that runs out while
/// the human thinks ends the game then, not at their next move.
#[test]
fn play_keeps_its_game_on_ctrl_c_and_a_flag_falls_while_thinking() {
    use std::io::Read;
    use std::process::Stdio;
    let args = [
        "--variant",
        "isolo-women",
        "--engine",
        "ab:depth=2",
        "--level",
        "3",
        "--seed",
        "5",
        "--tc",
        "300+2",
    ];
    let (text, status) = play_then_ctrl_c(&args, b"1\n");
    assert_eq!(status, Some(130), "{text}");
    assert!(
        text.contains("Game interrupted after 2 plies. Moves: 1 "),
        "{text}"
    );
    // The continue command keeps the whole game (its moves, for its record and review)
    // and the time each side has left, South's clock having run while South thought.
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Continue with: "))
        .unwrap_or_default();
    assert!(
        line.starts_with("isolo-ai play --variant isolo-women --moves '1 ")
            && line.contains(" --engine ab:depth=2 --level 3 --tc 300+2 --left ")
            && line.ends_with(" --seed 5 --as S"),
        "{text}"
    );
    let left = clocks_left(&text);
    // (Each had its 2 s increment after its move; South's then ran about 1.5 s.)
    assert!(
        left[0] < 301.0 && left[0] > 290.0,
        "South's clock ran: {line}"
    );
    assert!(left[1] <= 302.0 && left[1] > 290.0, "North's: {line}");
    // And it goes on from there: the same moves, the clocks as they stood.
    let args: Vec<String> = shell_words(line).into_iter().skip(2).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (again, ok) = play_session(&args, b"quit\n");
    assert!(ok, "{again}");
    assert!(again.contains("Game abandoned.\nMoves: 1 "), "{again}");
    // One second on the clock and no move typed (stdin left open): the engine's first
    // move is free (the clocks start with the game's first move), then North's runs.
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .env("COLUMNS", "1000") // (long lines whole; wrapping has its own test)
        .args([
            "play",
            "--variant",
            "isolo-women",
            "--engine",
            "random",
            "--tc",
            "1+0",
            "--as",
            "N",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(child.wait().unwrap().success());
    drop(input);
    assert!(
        text.contains("Clocks: South 0:01.0, North 0:01.0 (they start with the first move)"),
        "{text}"
    );
    assert!(
        text.contains("North's clock ran out: South wins on time."),
        "{text}"
    );
    assert!(started.elapsed().as_secs() < 10, "the flag fell late");
}

/// Inside a decision the human's clock runs on from its turn's start: the clock line
/// stands over the question, and Ctrl-C there keeps the time spent in the continue
/// command.
#[test]
fn play_keeps_the_clock_inside_a_decision() {
    let args = [
        "--variant",
        "igisoro",
        "--engine",
        "ab:depth=2",
        "--moves",
        "4 3",
        "--tc",
        "300+0",
    ];
    // Pit 1 may take or pass: the move stops at that decision.
    let (text, status) = play_then_ctrl_c(&args, b"1\n");
    assert_eq!(status, Some(130), "{text}");
    let asked = text
        .split("Your move so far, 1;")
        .nth(1)
        .unwrap_or_default();
    assert!(
        asked.contains("Clocks: South ") && asked.contains("Your move goes on from 1: "),
        "the clock line over the question: {text}"
    );
    let left = clocks_left(&text)[0];
    assert!(
        left < 299.0 && left > 290.0,
        "South's clock ran in the decision: {text}"
    );
}

/// `play ARGS`, `input` typed, Ctrl-C 1.5 s later: what it printed and its exit status.
fn play_then_ctrl_c(args: &[&str], input: &[u8]) -> (String, Option<i32>) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .env("COLUMNS", "1000") // (long lines whole; wrapping has its own test)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut typed = child.stdin.take().unwrap();
    typed.write_all(input).unwrap();
    typed.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    common::process::ctrl_c(&child);
    let mut text = String::new();
    (child.stdout.take().unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let status = child.wait().unwrap().code();
    drop(typed);
    (text, status)
}

/// The seconds each clock had left in the continue command `text` prints (`--left S,N`).
fn clocks_left(text: &str) -> Vec<f64> {
    text.split(" --left ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no --left in {text}"))
        .split(',')
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn play_until_the_engine_wins() {
    // The women's game is a forced first-player win: the engine playing South wins
    // whatever North does; here North always plays its first legal move.
    let moves: String = (1..=16)
        .cycle()
        .take(200)
        .map(|p| format!("{p}\n"))
        .collect();
    let (text, _) = play_session(
        &[
            "--variant",
            "isolo-women",
            "--engine",
            "ab:depth=8",
            "--as",
            "N",
        ],
        moves.as_bytes(),
    );
    assert!(
        text.contains("Game over. North has no legal move: South wins. The engine wins.\nMoves: "),
        "{text}"
    );
    assert!(
        text.contains("Review it: isolo-ai review --variant isolo-women --moves \""),
        "{text}"
    );
}

/// Igisoro's lone seed (issue 47's game at ply 150): North's seed can never be taken
/// nor take, so the game ends at once, in words, with its moves to review.
#[test]
fn play_ends_a_dead_position_at_once_in_words() {
    let position = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";
    let (text, ok) = play_session(
        &[
            "--variant",
            "igisoro",
            "--position",
            position,
            "--engine",
            "greedy",
        ],
        b"",
    );
    assert!(ok, "{text}");
    assert!(
        text.contains("Game over. North's last seed can never be captured, nor capture: no seed can change hands again, a draw (had the seeds been counted, as some players end such games, South would have won, 63 seeds to 1).\nMoves: none\n"),
        "{text}"
    );
}

/// Ctrl-C's "Continue with" keeps the level, the clock and the seed; a level given twice
/// is refused.
#[test]
fn play_continues_with_every_setting_and_refuses_two_levels() {
    let refused = run(&[
        "play",
        "--variant",
        "isolo-boys",
        "--level",
        "3",
        "--engine",
        "ab:level=5",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains(
            "--level: the engine 'ab:level=5' has a level of its own (level=5); give it once"
        ),
        "{said}"
    );
    // The time left is refused without a clock, or when it is not a time left.
    for (left, tc, expected) in [
        ("300,300", None, "--left: it needs --tc"),
        (
            "300",
            Some("300+2"),
            "--left: expected South's and North's seconds left",
        ),
        (
            "x,300",
            Some("300+2"),
            "--left: 'x' is not a number of seconds",
        ),
        ("0,300", Some("300+2"), "--left: 0 s is not a time left"),
    ] {
        let mut args = vec!["play", "--variant", "isolo-boys", "--left", left];
        if let Some(tc) = tc {
            args.extend(["--tc", tc]);
        }
        let refused = run(&args);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(said.contains(expected), "{args:?}: {said}");
    }
}

#[test]
fn moves_distinct_lists_one_move_per_position() {
    // Igisoro with captures resown from the capture pit: North has 89 million take/pass
    // sequences here; the distinct listing stops at the searchers' limit and says so.
    let dir = std::env::temp_dir().join(format!("isolo-ai-distinct-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("capture-pit.toml");
    std::fs::write(
        &rules,
        "base = \"igisoro\"\ncapture_sow_from = \"capture-pit\"\n",
    )
    .unwrap();
    let path = rules.to_str().unwrap();
    let vast = "2,3,10,1,6,1,2,1/1,2,1,2,3,2,0,6/0,0,2,1,1,2,1,0/2,0,1,1,1,7,1,1 N";
    let json = json_of(&[
        "moves",
        "--variant",
        path,
        "--position",
        vast,
        "--distinct",
        "--json",
    ]);
    assert_eq!(json["complete"], false);
    let listed = json["moves"].as_array().unwrap();
    let positions: std::collections::BTreeSet<&str> = listed
        .iter()
        .map(|m| m["position"].as_str().unwrap())
        .collect();
    assert!(listed.len() > 100 && positions.len() == listed.len());
    let text = stdout_of(&["moves", "--variant", path, "--position", vast, "--distinct"]);
    assert!(text.contains("distinct results") && text.contains("searchers' limit"));
    // The Igisoro start: eight moves, nothing cut.
    let json = json_of(&["moves", "--variant", "igisoro", "--distinct", "--json"]);
    assert_eq!(json["complete"], true);
    assert_eq!(json["moves"].as_array().unwrap().len(), 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn moves_streams_every_sequence_as_valid_json_and_text() {
    let variant = isolo_rules::Variant::load("igisoro").unwrap();
    let position = "4,4,4,4,4,4,4,4/0,0,0,0,3,0,0,0/0,0,0,0,2,0,0,3/4,4,4,4,4,4,4,4 S";
    let board = variant.parse_position(position).unwrap();
    let expected: Vec<String> = variant
        .legal_moves(&board)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    assert!(expected.iter().any(|m| m.contains('p')), "{expected:?}");
    let json = json_of(&[
        "moves",
        "--variant",
        "igisoro",
        "--position",
        position,
        "--json",
    ]);
    let listed: Vec<String> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(json["result"], serde_json::Value::Null);
    let text = stdout_of(&["moves", "--variant", "igisoro", "--position", position]);
    assert!(text.starts_with("Legal moves for South"));
    assert!(text.ends_with(&format!("\n{} legal moves\n", expected.len())));
    assert_eq!(text.lines().count(), expected.len() + 3, "{text}");
}

#[test]
fn solve_verify_on_an_unknown_result_claims_nothing() {
    let args = [
        "solve",
        "--variant",
        "isolo-boys",
        "--max-plies",
        "3",
        "--verify",
    ];
    let text = stdout_of(&args);
    assert!(text.contains("unknown: no proof within 3 plies"), "{text}");
    assert!(
        text.contains("not verified: the result is unknown"),
        "{text}"
    );
    assert!(!text.lines().any(|l| l.starts_with("verified")), "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json = json_of(&json_args);
    assert_eq!(json["result"], "unknown");
    assert_ne!(json["verified"], true);
    assert!(json["verify_error"]
        .as_str()
        .unwrap()
        .contains("the result is unknown"));
}

#[test]
fn solve_says_when_time_ran_out() {
    let text = stdout_of(&[
        "solve",
        "--variant",
        "igisoro",
        "--max-plies",
        "60",
        "--time-ms",
        "200",
    ]);
    assert!(text.contains("unknown: time ran out at depth"), "{text}");
}

#[test]
fn engines_that_could_not_move_are_refused_up_front() {
    for (spec, expected) in [
        ("mcts:iters=0", "engine key `iters`: must be at least 1"),
        ("ab:nodes=0", "engine key `nodes`: must be at least 1"),
        (
            "mcts:c=NaN",
            "engine key `c`: must be a positive finite number",
        ),
        (
            "mcts:c=-1",
            "engine key `c`: must be a positive finite number",
        ),
        (
            "ab:hash=1048576",
            "MB here (half this machine's memory), found 1048576",
        ),
    ] {
        fails(
            &[
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                spec,
                "--engine",
                "random",
                "--games",
                "2",
            ],
            expected,
        );
    }
}

/// Each engine's table fits alone, but not the two together: the run is refused before
/// any file is written, naming the memory in all.
#[test]
fn the_tables_of_games_at_once_are_checked_together() {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap();
    let total_kb: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap();
    let each = total_kb / 1024 / 2 * 3 / 4;
    let out = crate::common::process::scratch("memory")
        .0
        .join("games.jsonl");
    let (a, b) = (format!("a=ab:hash={each}"), format!("b=ab:hash={each}"));
    let args = [
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    fails(&args, "--concurrency: 1 games at once with up to");
    assert!(!out.exists(), "a refused run wrote its records");
}

#[test]
fn output_paths_are_checked_before_any_work() {
    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    let compare = |flag: &str, path: &str| {
        vec![
            "compare".to_string(),
            "--variant".into(),
            "isolo-women".into(),
            "--variant".into(),
            "isolo-boys".into(),
            "--games".into(),
            "100000".into(),
            flag.into(),
            path.into(),
        ]
    };
    let as_strs = |v: &[String]| {
        v.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join("\u{0}")
    };
    for (args, expected) in [
        (
            compare("--plot", "chart.png"),
            "the chart is written as SVG only",
        ),
        (
            compare("--csv", "/no/such/folder/x.csv"),
            "--csv: cannot write /no/such/folder/x.csv",
        ),
        (compare("--csv", dir), "is a folder"),
    ] {
        let joined = as_strs(&args);
        let args: Vec<&str> = joined.split('\u{0}').collect();
        fails(&args, expected);
    }
    fails(
        &[
            "openings",
            "--variant",
            "isolo-boys",
            "--plies",
            "6",
            "--count",
            "100000",
            "--out",
            "/no/such/folder/book.txt",
        ],
        "--out: cannot write /no/such/folder/book.txt",
    );
    fails(
        &[
            "match",
            "--variant",
            "isolo-boys",
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--out",
            "/no/such/folder/games.jsonl",
        ],
        "--out: cannot write /no/such/folder/games.jsonl",
    );
}

#[test]
fn files_too_large_or_not_files_are_refused_before_reading() {
    // A sparse file: large, but nothing written.
    let large = std::env::temp_dir().join(format!("isolo-large-{}", std::process::id()));
    std::fs::File::create(&large)
        .and_then(|f| f.set_len(1 << 30))
        .unwrap();
    let large_path = large.to_str().unwrap();
    for (file, expected) in [
        (large_path, "larger than"),
        ("/dev/zero", "not a regular file"),
    ] {
        for args in [
            vec!["show", "--variant", file],
            vec!["analyze", "--variant", "isolo-boys", "--weights", file],
            vec![
                "match",
                "--variant",
                "isolo-boys",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--openings",
                file,
            ],
        ] {
            fails(&args, expected);
        }
    }
    fails(&["replay", "/dev/zero"], "not a regular file");
    std::fs::remove_file(&large).unwrap();
}

#[test]
fn negative_sprt_bounds_and_rules_file_names_are_accepted() {
    let out = stdout_of(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "4",
        "--sprt",
        "-10,10,0.05,0.05",
    ]);
    assert!(out.contains("SPRT [-10, 10]"), "{out}");
    let dir = std::env::temp_dir().join(format!("isolo-ai-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("x.toml");
    std::fs::write(
        &file,
        "name = \"fast boys\"\nbase = \"isolo-boys\"\ncapture_ends_move = true\n",
    )
    .unwrap();
    let json = json_of(&[
        "compare",
        "--variant",
        "isolo-boys",
        "--variant",
        file.to_str().unwrap(),
        "--engine",
        "random",
        "--games",
        "4",
        "--json",
    ]);
    let names: Vec<&str> = json["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["isolo-boys", "fast boys"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undo_as_north_keeps_the_engines_opening_move() {
    let (text, ok) = play_session(
        &[
            "--variant",
            "isolo-boys",
            "--engine",
            "ab:depth=2",
            "--as",
            "n",
        ],
        b"UNDO\nQuit\n",
    );
    assert!(ok);
    assert!(text.contains("You play North"), "{text}");
    assert!(text.contains("Engine plays "), "{text}");
    assert!(text.contains("Nothing to undo."), "{text}");
    assert_eq!(text.matches("Engine plays ").count(), 1, "{text}");
    assert!(text.contains("Game abandoned."), "{text}");
}

#[test]
fn deterministic_engines_replaying_one_game_are_warned_about() {
    let stderr = |args: &[&str]| String::from_utf8(run(args).stderr).unwrap();
    let warned = stderr(&[
        "compare",
        "--variant",
        "isolo-women",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:depth=2",
        "--games",
        "4",
        "--openings",
        "start",
    ]);
    assert!(
        warned.contains("warning: ab:depth=2 is deterministic"),
        "{warned}"
    );
    let warned = stderr(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:depth=2",
        "--engine",
        "ab:depth=1",
        "--games",
        "6",
    ]);
    assert!(
        warned.contains("warning: every engine is deterministic"),
        "{warned}"
    );
    let quiet = stderr(&[
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:depth=2",
        "--engine",
        "random",
        "--games",
        "6",
    ]);
    assert!(!quiet.contains("deterministic"), "{quiet}");
}

#[test]
fn play_on_a_clock_shows_both_clocks_and_the_engine_manages_its_time() {
    let (text, ok) = play_session(
        &[
            "--variant",
            "isolo-women",
            "--engine",
            "ab",
            "--tc",
            "60+1",
            "--as",
            "N",
            // (Two moves in: the clocks run from the game's first move.)
            "--moves",
            "1 9",
        ],
        b"quit\n",
    );
    assert!(ok);
    // North's rows are drawn nearest North: South's back row on top.
    let first_rows = text
        .lines()
        .skip_while(|l| !l.starts_with("Variant "))
        .nth(2);
    assert!(
        first_rows.is_some_and(|l| l.starts_with("South back")),
        "{text}"
    );
    for expected in [
        "You play North against ab, 60+1 s on each clock",
        "Clocks: South 1:00.0, North 1:00.0\n",
        "Engine plays ",
        "Game abandoned.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // After its move (a proven win, found at once) the engine's clock shows the
    // increment added and the little time spent taken.
    let after = text
        .lines()
        .filter(|l| l.starts_with("Clocks:"))
        .nth(1)
        .unwrap();
    // (Under 1:01.0, over 1:00.0: the increment added, less than a second spent, as
    // a loaded machine may take some tenths.)
    let south = after
        .strip_prefix("Clocks: South 1:")
        .and_then(|rest| rest.split(',').next())
        .and_then(|seconds| seconds.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("{after}"));
    assert!(south > 0.0 && south <= 1.0, "{after}");
    assert!(after.ends_with("North 1:00.0"), "{after}");
}

#[test]
fn analyze_on_a_clock_states_its_budget_and_keeps_to_it() {
    let out = run(&["analyze", "--variant", "igisoro", "--tc", "2"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    // 2 s left: a target of (2000 - 15) / 25 ms, a hard limit of four targets.
    assert!(
        stderr.contains("clock 2: target 79 ms, at most 317 ms"),
        "{stderr}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let time: u64 = text
        .lines()
        .last()
        .and_then(|l| l.split("time ").nth(1))
        .and_then(|t| t.trim_end_matches(" ms").parse().ok())
        .unwrap();
    // Well short of the 4.5 s a search without a limit takes (slack for a busy machine).
    assert!(time < 1000, "{text}");
}

#[test]
fn tune_fits_weights_to_self_play_and_writes_a_file_that_loads() {
    let dir = common::process::scratch("tune");
    let out = dir.0.join("w.toml");
    let out_text = out.to_str().unwrap();
    let args = [
        "tune",
        "--variant",
        "isolo-women-capture-ends",
        "--games",
        "30",
        "--nodes",
        "300",
        "--epochs",
        "50",
        "--net",
        "4",
        "--net-epochs",
        "3",
        "--seed",
        "5",
        "--out",
        out_text,
        "--json",
    ];
    let report = json_of(&args);
    assert_eq!(report["games"], 30);
    // A net is trained; the file holds it only if it beat the fitted weights.
    let net = &report["net"];
    assert_eq!(net["hidden"], 4);
    let kept = net["kept"].as_bool().unwrap();
    assert_eq!(report["weights"]["net"].is_object(), kept, "{net}");
    assert!(report["samples"].as_u64().unwrap() > 0);
    assert!(report["k"].as_f64().unwrap() > 0.0);
    assert!(report["weights"]["pits"].is_array());
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("# Tuned weights for isolo-women-capture-ends"));
    assert_eq!(written.contains("\n[net]\n"), kept);
    assert!(written.contains("--net 4 --net-epochs 3"));
    // The same seed gives the same weights; the file plays.
    assert_eq!(json_of(&args)["weights"], report["weights"]);
    let analysed = json_of(&[
        "analyze",
        "--variant",
        "isolo-women-capture-ends",
        "--depth",
        "3",
        "--weights",
        out_text,
        "--json",
    ]);
    assert!(analysed["best_move"].is_string(), "{analysed}");
}

#[test]
fn tune_refuses_bad_settings_by_name() {
    for (args, expected) in [
        (vec!["--games", "0"], "--games"),
        (vec!["--nodes", "0"], "--nodes"),
        (vec!["--quiet-plies", "99"], "--quiet-plies"),
        (vec!["--net", "65"], "--net: must be 0..=64"),
        (vec!["--net", "4", "--net-epochs", "0"], "--net-epochs"),
        (vec!["--threads", "0"], "--threads"),
        (vec!["--start", "/no/such/weights.toml"], "--start"),
        (vec!["--openings", "/no/such/openings.txt"], "openings file"),
    ] {
        let mut full = vec!["tune", "--variant", "igisoro"];
        full.extend(args);
        fails(&full, expected);
    }
    fails(&["tune", "--variant", "nope"], "unknown variant");
}

#[test]
fn analyze_gives_win_draw_loss_beside_each_score() {
    let text = stdout_of(&[
        "analyze",
        "--variant",
        "isolo-boys-capture-ends",
        "--nodes",
        "20000",
        "--multipv",
        "2",
    ]);
    let score = text.lines().find(|l| l.starts_with("score ")).unwrap();
    assert!(score.contains("  W/D/L "), "{score}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("line ") && l.contains("W/D/L "))
            .count(),
        2,
        "{text}"
    );
    let json = json_of(&[
        "analyze",
        "--variant",
        "isolo-boys-capture-ends",
        "--nodes",
        "20000",
        "--json",
    ]);
    let wdl = &json["wdl"];
    let sum: u64 = ["win", "draw", "loss"]
        .iter()
        .map(|k| wdl[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 1000, "{json}");
    assert_eq!(json["lines"][0]["wdl"], *wdl);
    // Proven: certain.
    let json = json_of(&[
        "analyze",
        "--variant",
        "isolo-women",
        "--depth",
        "8",
        "--json",
    ]);
    assert_eq!(json["score"]["type"], "win");
    assert_eq!(
        json["wdl"],
        serde_json::json!({"win": 1000, "draw": 0, "loss": 0, "text": "W/D/L 100/0/0%"})
    );
}

#[test]
fn review_marks_each_move_and_reads_records() {
    const REVIEW: [&str; 7] = [
        "review",
        "--variant",
        "isolo-women",
        "--moves",
        "1 9 4",
        "--depth",
        "8",
    ];
    let json = json_of(&[&REVIEW[..], &["--json"]].concat());
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["side"], if i % 2 == 0 { "S" } else { "N" });
        let class = m["class"].as_str().unwrap();
        assert!(
            ["forced", "best", "good", "inaccuracy", "mistake", "blunder"].contains(&class),
            "{m}"
        );
        let loss = m["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{m}");
        // Each move says what set its class, and a marked one was marked by something.
        let note = m["note"].as_str().unwrap();
        assert!(
            note.ends_with(&format!(
                "{}; better {}",
                m["reason"].as_str().unwrap(),
                m["best"].as_str().unwrap()
            )),
            "{m}"
        );
        if ["inaccuracy", "mistake", "blunder"].contains(&class) {
            assert!(m["measure"].is_string(), "{m}");
        }
    }
    assert_eq!(json["positions"].as_array().unwrap().len(), 4);
    assert!(json["accuracy"]["S"].is_number() && json["accuracy"]["N"].is_number());
    // The same budget on one thread reviews the same way every time.
    let again = json_of(&[&REVIEW[..], &["--json"]].concat());
    assert_eq!(json["moves"], again["moves"]);
    let text = stdout_of(&REVIEW);
    assert!(text.contains("South: accuracy "), "{text}");
    for m in moves
        .iter()
        .filter(|m| m["measure"].is_string() && m["class"] != "good")
    {
        assert!(text.contains(m["note"].as_str().unwrap()), "{text}");
    }
    assert!(text.contains("North: accuracy "), "{text}");

    // A game of a records file, under the file's rules.
    let dir = std::env::temp_dir().join(format!("isolo-ai-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    stdout_of(&[
        "match",
        "--variant",
        "isolo-boys-capture-ends",
        "--engine",
        "ab:depth=2",
        "--engine",
        "random",
        "--games",
        "2",
        "--out",
        records.to_str().unwrap(),
    ]);
    let game = &common::process::game_lines(&records)[0];
    let reviewed = json_of(&[
        "review",
        "--records",
        records.to_str().unwrap(),
        "--game",
        &game["game"].to_string(),
        "--depth",
        "3",
        "--json",
    ]);
    let played: Vec<String> = reviewed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let recorded: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(played, recorded);
    let path = records.to_str().unwrap();
    fails(&["review", "--records", path], "--game");
    fails(
        &[
            "review",
            "--records",
            path,
            "--game",
            "1",
            "--variant",
            "igisoro",
        ],
        "--variant: not with --records",
    );
    fails(
        &["review", "--records", path, "--game", "99"],
        "--game: no game 99",
    );
    fails(&["review", "--moves", "1"], "give --variant");
    fails(
        &["review", "--variant", "isolo-women", "--moves", "1 1 1 1 x"],
        "--moves",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fit_wdl_fits_and_measures_on_held_out_games() {
    let json = json_of(&[
        "fit-wdl",
        "--variant",
        "isolo-boys-capture-ends",
        "--games",
        "6",
        "--nodes",
        "300",
        "--holdout",
        "3",
        "--json",
    ]);
    assert_eq!(json["games"], 6);
    assert!(json["train_positions"].as_u64().unwrap() > 0, "{json}");
    assert!(json["holdout_positions"].as_u64().unwrap() > 0, "{json}");
    assert!(json["model"]["scale"].as_f64().unwrap() > 0.0);
    assert_eq!(json["bins"].as_array().unwrap().len(), 10);
    assert_eq!(json["proven_contradicted"], 0);
    fails(
        &["fit-wdl", "--variant", "isolo-women", "--holdout", "1"],
        "--holdout: must be 2..=1000",
    );
}

/// A fortress held (South's two seeds relay round for ever and can never be captured,
/// while they may still capture): the analysis says North cannot win and shows the
/// draw it found as a draw, not as seeds of contempt; `--contempt` still prices it.
#[test]
fn analyze_shows_a_fortress_draw_as_a_draw_in_words() {
    let position = "8,8,8,8,8,8,8,6/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
    let args = [
        "analyze",
        "--variant",
        "igisoro",
        "--position",
        position,
        "--depth",
        "6",
    ];
    let text = stdout_of(&args);
    assert!(
        text.contains("score draw (a fortress)  W/D/L 0/100/0%"),
        "{text}"
    );
    assert!(
        text.contains("fortress: South's 2 seeds can never be captured: North cannot win\n"),
        "{text}"
    );
    let priced = stdout_of(&[&args[..], &["--contempt", "10"]].concat());
    assert!(priced.contains("score -10.00"), "{priced}");
    let report: serde_json::Value =
        serde_json::from_str(&stdout_of(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!(
        report["fortress"]["holders"],
        serde_json::json!(["S"]),
        "{report}"
    );
    assert_eq!(report["score"]["type"], "eval", "{report}");
    assert_eq!(report["score"]["text"], "draw (a fortress)", "{report}");
    let open = stdout_of(&["analyze", "--variant", "igisoro", "--depth", "2", "--json"]);
    assert!(open.contains("\"fortress\": null"), "{open}");
    // Under rules whose W/D/L model has no draws (a rules file, played on), the chances
    // beside the words say the same draw, in text and JSON.
    let dir = common::process::scratch("fortress-play-on");
    let rules = dir.join("play-on.toml");
    let igisoro = stdout_of(&["variants", "--show", "igisoro"]);
    let played_on = igisoro
        .replace("dead_position = \"draw\"", "dead_position = \"play-on\"")
        .replace("name = \"igisoro\"", "name = \"igisoro-played-on\"");
    assert_ne!(played_on, igisoro);
    std::fs::write(&rules, played_on).unwrap();
    let args = [&args[..2], &[rules.to_str().unwrap()], &args[3..]].concat();
    let text = stdout_of(&args);
    assert!(
        text.contains("score draw (a fortress)  W/D/L 0/100/0%"),
        "{text}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&stdout_of(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!(report["score"]["text"], "draw (a fortress)", "{report}");
    assert_eq!(report["wdl"]["draw"], 1000, "{report}");
}

/// `text` split as a POSIX shell splits plain words and single-quoted ones.
fn shell_words(text: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// A comparison cut short continues from its records with --resume: the games kept,
/// the rest played, the file and the report those of a run never cut; another
/// comparison's file is refused, and an existing file without --resume.
#[test]
fn compare_resumes_from_its_records() {
    let dir = common::process::scratch("compare-resume");
    let whole = dir.join("whole.jsonl");
    let cut = dir.join("cut.jsonl");
    let compare = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "compare",
            "--variant",
            "isolo-boys",
            "--variant",
            "igisoro",
            "--engine",
            "ab:depth=2",
            "--games",
            "6",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let first = compare(&whole, &[]);
    assert!(first.status.success());
    let records = std::fs::read_to_string(&whole).unwrap();
    // A cut run's file: the header and the first 4 of the 12 games.
    let kept: Vec<&str> = records.lines().take(5).collect();
    std::fs::write(&cut, kept.join("\n") + "\n").unwrap();
    let resumed = compare(&cut, &["--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), records);
    let report = |out: &std::process::Output| {
        let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json.as_object_mut().unwrap().remove("notes");
        json
    };
    assert_eq!(report(&resumed), report(&first));
    let refused = compare(&cut, &[]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("already exists"), "{said}");
    let other = run(&[
        "compare",
        "--variant",
        "isolo-boys",
        "--variant",
        "igisoro",
        "--engine",
        "ab:depth=3",
        "--games",
        "6",
        "--out",
        cut.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(other.status.code(), Some(2));
    let said = String::from_utf8_lossy(&other.stderr);
    assert!(
        said.contains("holds another comparison: engine: ab:depth=3 here, ab:depth=2 in the file"),
        "{said}"
    );
}
