//! The prover against exhaustive minimax on small boards, and `solve` as a user runs it.

use crate::common;

use common::{known_within, small_positions, Known};
use isolo_engine::prove::alphabeta::{AbVerdict, Prover};
use isolo_rules::Variant;

const HORIZON: u32 = 7;

#[test]
fn solve_agrees_with_brute_force_on_small_boards() {
    let (mut proven, mut checked) = (0, 0);
    for (variant, board) in small_positions(120, 0x5017e, 4) {
        checked += 1;
        let truth = known_within(&variant, &board, HORIZON);
        let mut prover = Prover::new(&variant, 1, 4).unwrap();
        let solution = prover.solve(&board, &[], HORIZON, None);
        let expected = match truth {
            Known::Win(n) => AbVerdict::Win(n),
            Known::Loss(n) => AbVerdict::Loss(n),
            Known::Open => AbVerdict::Unknown,
        };
        let position = variant.format_position(&board);
        assert_eq!(
            solution.verdict,
            expected,
            "{position}\n{}",
            variant.rules().to_toml()
        );
        if let AbVerdict::Win(n) | AbVerdict::Loss(n) = solution.verdict {
            proven += 1;
            // Exact: exhaustive search two plies shorter finds no such result.
            if n >= 2 {
                let shorter = known_within(&variant, &board, n - 2);
                assert!(
                    !matches!(
                        (shorter, solution.verdict),
                        (Known::Win(_), AbVerdict::Win(_)) | (Known::Loss(_), AbVerdict::Loss(_))
                    ),
                    "{position}"
                );
            }
            prover
                .verify(&board, &[], solution.verdict, &solution.pv)
                .unwrap_or_else(|e| panic!("{position}: {e}"));
        }
    }
    assert!(
        proven > 20,
        "only {proven} proofs among {checked} positions"
    );
}

#[test]
fn verify_rejects_a_wrong_claim() {
    let women = Variant::load("isolo-women").unwrap();
    let mut prover = Prover::new(&women, 1, 4).unwrap();
    let solution = prover.solve(&women.start(), &[], 9, None);
    assert_eq!(solution.verdict, AbVerdict::Win(5));
    assert!(
        prover
            .verify(&women.start(), &[], AbVerdict::Win(7), &solution.pv)
            .is_err(),
        "wrong length"
    );
    let err = prover
        .verify(&women.start(), &[], AbVerdict::Win(5), &solution.pv[..4])
        .unwrap_err();
    assert!(err.contains("the line has 4 moves"), "{err}");
    let mut wrong = solution.pv.clone();
    wrong[0] = women
        .legal_moves(&women.start())
        .iter()
        .map(|m| m.mv.clone())
        .find(|m| *m != solution.pv[0])
        .unwrap();
    assert!(prover
        .verify(&women.start(), &[], AbVerdict::Win(5), &wrong)
        .is_err());
}

#[test]
fn solve_command_reports_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(["solve", "--variant", "isolo-women", "--verify", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["result"], "win");
    assert_eq!(json["plies"], 5);
    assert_eq!(json["pv"].as_array().unwrap().len(), 5);
    assert_eq!(json["verified"], true);
    for key in ["best_move", "nodes", "time_ms", "proof_size"] {
        assert!(json.get(key).is_some(), "lacks {key}");
    }
    let unknown = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "solve",
            "--variant",
            "igisoro",
            "--max-plies",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&unknown.stdout).unwrap();
    assert_eq!(json["result"], "unknown");
    assert!(json["best_move"].is_null());
}

/// A small compare run that the schema and concurrency checks share.
const COMPARE_WOMEN_AND_BOYS: [&str; 9] = [
    "compare",
    "--variant",
    "isolo-women",
    "--variant",
    "isolo-boys",
    "--engine",
    "greedy",
    "--games",
    "20",
];

#[test]
fn compare_reports_json_and_csv() {
    let dir = std::env::temp_dir().join(format!("isolo-ai-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("variants.csv");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(COMPARE_WOMEN_AND_BOYS)
        .args([
            "--openings",
            "random:2",
            "--seed",
            "3",
            "--concurrency",
            "2",
            "--json",
            "--csv",
            csv.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let variants = json["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    for v in variants {
        assert_eq!(v["games"], 20);
        for key in [
            "south_wins",
            "north_wins",
            "draws",
            "first_player_wins",
            "plies",
            "branching",
            "laps_per_move",
            "endless_share",
            "captured_per_move",
            "end_no_moves",
            "end_repetition",
            "end_ply_limit",
        ] {
            assert!(v.get(key).is_some(), "lacks {key}");
        }
        let rate = |k: &str| v[k]["rate"].as_f64().unwrap();
        assert!((rate("south_wins") + rate("north_wins") + rate("draws") - 1.0).abs() < 1e-9);
        let ci = v["south_wins"]["ci95"].as_array().unwrap();
        assert!(
            ci[0].as_f64().unwrap() <= rate("south_wins")
                && rate("south_wins") <= ci[1].as_f64().unwrap()
        );
    }
    assert_eq!(json["first_player_tests"].as_array().unwrap().len(), 1);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 3);
    let columns = rows[0].split(',').count();
    assert!(rows[0].starts_with("variant,games,south_win_rate,"));
    assert!(
        rows[1..].iter().all(|r| r.split(',').count() == columns),
        "{text}"
    );
    // Same seed, same statistics whatever the concurrency.
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(COMPARE_WOMEN_AND_BOYS)
        .args(["--openings", "random:2", "--seed", "3", "--json"])
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["variants"], json["variants"]);
    // The chart.
    let svg = dir.join("chart.svg");
    let plotted = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "compare",
            "--variant",
            "isolo-women",
            "--variant",
            "isolo-boys",
            "--engine",
            "random",
            "--games",
            "10",
        ])
        .args(["--plot", svg.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(plotted.status.success());
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(
        chart.starts_with("<svg") && chart.contains("isolo-boys") && chart.contains("Win rates"),
        "{}",
        &chart[..200]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn results_page_for_one_preset() {
    let dir = std::env::temp_dir().join(format!("isolo-ai-results-{}", std::process::id()));
    let page = dir.join("docs").join("RESULTS.md");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "results",
            "--preset",
            "isolo-women",
            "--time-ms",
            "2000",
            "--games",
            "40",
            "--games-time-ms",
            "1",
            "--concurrency",
            "2",
            "--max-plies",
            "15",
        ])
        .args(["--out", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains("## isolo-women") && !text.contains("## igisoro"));
    assert!(
        text.contains("| as the preset | South wins in 5 plies |"),
        "{text}"
    );
    assert!(text.contains("| columns = 4 |") && text.contains("| capture_ends_move = true |"));
    // The games' time budget cut the unsolved reading's 40 games short.
    let row = text
        .lines()
        .find(|l| l.starts_with("| capture_ends_move = true |"))
        .unwrap();
    let played: usize = row
        .split(" games:")
        .next()
        .and_then(|head| head.rsplit("| ").next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no game count in {row}"));
    assert!((1..40).contains(&played), "{row}");
    assert!(text.contains("--games-time-ms 1 --concurrency 2"), "{text}");
    assert!(
        text.contains("isolo-ai results --out"),
        "the page names the command that made it"
    );
    // A page for one preset does not replace a page that holds others unless asked.
    std::fs::write(&page, "# Results\n\n## isolo-boys\n\n| reading |\n").unwrap();
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "results",
            "--preset",
            "isolo-women",
            "--out",
            page.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("holds results for isolo-boys too"),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .contains("## isolo-boys"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// df-pn's wins and losses are exhaustive minimax's, within the same horizon; it finds
/// (nearly) every one minimax finds.
#[test]
fn dfpn_proofs_agree_with_brute_force_on_small_boards() {
    use isolo_engine::prove::dfpn::{solve, DfpnLimits, DfpnVerdict, Sought};
    let limits = DfpnLimits {
        nodes: 200_000,
        time: None,
        max_depth: HORIZON,
        table_entries: 1 << 16,
        strategy: true,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let (mut decided, mut found) = (0, 0);
    for (i, (variant, board)) in small_positions(160, 0xdf9, 4).into_iter().enumerate() {
        let truth = known_within(&variant, &board, HORIZON);
        // Every other position with two agents on one table.
        let limits = DfpnLimits {
            threads: 1 + i % 2,
            ..limits
        };
        let result = solve(&variant, &board, &[], limits, &|_| {});
        let position = variant.format_position(&board);
        let agree = |verdict, truth| {
            matches!(
                (verdict, truth),
                (DfpnVerdict::Win, Known::Win(_)) | (DfpnVerdict::Loss, Known::Loss(_))
            )
        };
        match (result.verdict, truth) {
            (verdict, truth) if agree(verdict, truth) => found += 1,
            (DfpnVerdict::Unknown, _) => {}
            (verdict, Known::Open) => {
                // A result proven through a transposition may take longer than the
                // horizon (the table keeps proofs whatever the depth they were found
                // at): true all the same, as a deeper minimax shows.
                let deeper = (HORIZON + 1..=HORIZON + 4)
                    .map(|depth| known_within(&variant, &board, depth))
                    .find(|known| *known != Known::Open);
                assert!(
                    deeper.is_some_and(|known| agree(verdict, known)),
                    "{position}: df-pn {verdict:?}, minimax {deeper:?} within {} plies",
                    HORIZON + 4
                );
            }
            (verdict, truth) => panic!("{position}: df-pn {verdict:?}, minimax {truth:?}"),
        }
        if let (DfpnVerdict::Win, Some(mv)) = (result.verdict, &result.best_move) {
            let child = variant.play_move(&board, mv).unwrap().child;
            // The move may win through a transposition too, beyond the horizon.
            let reply = (HORIZON - 1..=HORIZON + 3)
                .map(|depth| known_within(&variant, &child, depth))
                .find(|known| *known != Known::Open);
            assert!(
                matches!(reply, Some(Known::Loss(_))),
                "{position}: {mv} does not win ({reply:?} within {} plies)",
                HORIZON + 3
            );
        }
        if !matches!(truth, Known::Open) {
            decided += 1;
        }
    }
    println!("df-pn proved {found} of the {decided} positions minimax decides");
    assert!(
        decided > 40 && found * 10 >= decided * 9,
        "{found} of {decided}"
    );
    // A table far too small for the search drops entries, proofs too: still never wrong.
    let cramped = DfpnLimits {
        table_entries: 8,
        nodes: 20_000,
        threads: 2,
        ..limits
    };
    for (variant, board) in small_positions(40, 0xdf9, 4) {
        let result = solve(&variant, &board, &[], cramped, &|_| {});
        let truth = known_within(&variant, &board, HORIZON);
        assert!(
            matches!(
                (result.verdict, truth),
                (DfpnVerdict::Unknown, _)
                    | (DfpnVerdict::Win, Known::Win(_))
                    | (DfpnVerdict::Loss, Known::Loss(_))
            ),
            "{}: {:?} against {truth:?}",
            variant.format_position(&board),
            result.verdict
        );
    }
}

/// Under the retreat df-pn's moves are trees of decisions, the answers the defender's
/// or the attacker's: its wins and losses are those of a brute force that walks the
/// answers as the other side's decisions, and its winning move wins whatever the
/// answers.
#[test]
fn dfpn_proofs_under_the_retreat_take_the_answers_as_the_opponents() {
    use crate::search::{retreat_positions, RETREAT_HORIZON};
    use isolo_engine::prove::dfpn::{solve, DfpnLimits, DfpnVerdict, Sought};
    let limits = DfpnLimits {
        nodes: 200_000,
        time: None,
        max_depth: RETREAT_HORIZON,
        table_entries: 1 << 16,
        strategy: false,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let (mut decided, mut found, mut answers_matter) = (0, 0, 0);
    for (i, (variant, board)) in retreat_positions(60, 0x7e7e).into_iter().enumerate() {
        let truth = common::brute_force_walked(&variant, &board, RETREAT_HORIZON, &mut Vec::new());
        // (Where the mover picking the answers would decide otherwise.)
        let listed = known_within(&variant, &board, RETREAT_HORIZON);
        let limits = DfpnLimits {
            threads: 1 + i % 2,
            ..limits
        };
        let result = solve(&variant, &board, &[], limits, &|_| {});
        let position = format!(
            "{}\n{}",
            variant.format_position(&board),
            variant.rules().to_toml()
        );
        let deeper = |board: &isolo_rules::Board| {
            (RETREAT_HORIZON..=RETREAT_HORIZON + 2)
                .map(|depth| common::brute_force_walked(&variant, board, depth, &mut Vec::new()))
                .find(|known| *known != Known::Open)
        };
        match (result.verdict, truth) {
            (DfpnVerdict::Win, Known::Win(_)) | (DfpnVerdict::Loss, Known::Loss(_)) => {
                found += 1;
                answers_matter += (listed != truth) as usize;
            }
            (DfpnVerdict::Unknown, _) => {}
            // Proven through a transposition, past the horizon: a deeper walk shows it.
            (DfpnVerdict::Win, Known::Open) => {
                assert!(matches!(deeper(&board), Some(Known::Win(_))), "{position}")
            }
            (DfpnVerdict::Loss, Known::Open) => {
                assert!(matches!(deeper(&board), Some(Known::Loss(_))), "{position}")
            }
            (verdict, truth) => panic!("{position}: df-pn {verdict:?}, brute force {truth:?}"),
        }
        if let (DfpnVerdict::Win, Some(mv)) = (result.verdict, &result.best_move) {
            let child = variant.play_move(&board, mv).expect("a legal move").child;
            assert!(
                matches!(deeper(&child), Some(Known::Loss(_))),
                "{position}: {mv} does not win"
            );
        }
        decided += (truth != Known::Open) as usize;
    }
    println!(
        "df-pn proved {found} of the {decided} positions the brute force decides, \
         {answers_matter} where the answers matter"
    );
    assert!(
        decided > 30 && found * 10 >= decided * 9 && answers_matter >= 2,
        "{found} of {decided}, {answers_matter}"
    );
}

/// Under the retreat the retrograde analysis forces each listed position's tree of
/// decisions: its values are a walked brute force's within its horizon, and df-pn's
/// (which walks the trees apart from it) wherever df-pn proves one; its draws are
/// positions no one can force. The indexed analysis, which keeps the trees on file,
/// finds the same values.
#[test]
fn retrograde_analyses_under_the_retreat_agree_with_a_walked_brute_force_and_dfpn() {
    use crate::search::{retreat_positions, RETREAT_HORIZON};
    use isolo_engine::prove::dfpn::{self, DfpnLimits, DfpnVerdict, Sought};
    use isolo_engine::prove::retrograde::distributed::{self, DistributedLimits};
    use isolo_engine::prove::retrograde::indexed::{self, IndexedLimits};
    use isolo_engine::prove::retrograde::{self, RetroLimits, RetroVerdict};
    // (Most of these games reach 50,000 to 300,000 positions; the smaller are enough.)
    let retro_limits = RetroLimits {
        positions: 60_000,
        time: None,
        strategy: false,
        interrupt: None,
    };
    let dfpn_limits = DfpnLimits {
        nodes: 20_000,
        time: None,
        max_depth: 200,
        table_entries: 1 << 16,
        strategy: false,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let indexed_limits = IndexedLimits {
        memory: 256 << 20,
        time: None,
        scratch: std::env::temp_dir(),
        sweeps_only: false,
        interrupt: None,
    };
    let (mut complete, mut draws, mut by_dfpn, mut lengths) = (0, 0, 0, 0);
    for (variant, board) in retreat_positions(60, 0x7e7e) {
        let retro = retrograde::solve(&variant, &board, retro_limits);
        if !retro.complete {
            continue;
        }
        complete += 1;
        let position = format!(
            "{}\n{}",
            variant.format_position(&board),
            variant.rules().to_toml()
        );
        let truth = common::brute_force_walked(&variant, &board, RETREAT_HORIZON, &mut Vec::new());
        match truth {
            Known::Win(_) => assert_eq!(retro.verdict, RetroVerdict::Win, "{position}"),
            Known::Loss(_) => assert_eq!(retro.verdict, RetroVerdict::Loss, "{position}"),
            Known::Open => assert_ne!(retro.verdict, RetroVerdict::Unknown, "{position}"),
        }
        // The indexed analysis, whose records hold the move trees, by its sweeps.
        let found = indexed::solve(&variant, &board, &indexed_limits, &|_| {}).unwrap();
        assert_eq!(
            found.verdict, retro.verdict,
            "{position}: indexed {found:?}"
        );
        // The distributed analysis, walking a tree afresh whenever a child gains a label,
        // on 1 and 3 ranks: the indexed analysis' value and counts, every label checked,
        // the same labels on both, and the lengths of the walked brute force.
        let on_ranks = |ranks, proof| {
            let limits = DistributedLimits {
                check: true,
                proof,
                ..DistributedLimits::default()
            };
            distributed::solve_in_process(&variant, &board, ranks, &limits, &|_| {}).unwrap()
        };
        let (mut one, three) = (on_ranks(1, true), on_ranks(3, false));
        // Its proof, the answers read from the move trees, is a certificate that checks.
        let proof = one.proof.take().expect("a proof");
        crate::distributed::check_certificate(&variant, &board, &one, proof);
        assert_eq!(
            (one.verdict, one.reached, one.edges, one.cut),
            (found.verdict, found.reached, found.edges, found.cut),
            "{position}"
        );
        assert_eq!(
            (three.digest, three.won, three.lost, three.plies),
            (one.digest, one.won, one.lost, one.plies),
            "{position}"
        );
        match truth {
            Known::Win(plies) | Known::Loss(plies) => {
                assert_eq!(one.plies, Some(plies), "{position}");
                lengths += 1;
            }
            Known::Open => assert!(one.plies.is_none_or(|p| p > RETREAT_HORIZON), "{position}"),
        }
        let proof = dfpn::solve(&variant, &board, &[], dfpn_limits, &|_| {});
        let expected = match proof.verdict {
            DfpnVerdict::Win => Some(RetroVerdict::Win),
            DfpnVerdict::Loss => Some(RetroVerdict::Loss),
            DfpnVerdict::Unknown => None,
        };
        if let Some(expected) = expected {
            assert_eq!(retro.verdict, expected, "{position}");
            by_dfpn += 1;
        }
        draws += (retro.verdict == RetroVerdict::Draw) as usize;
    }
    println!("{complete} analysed whole: {draws} draws, {by_dfpn} proven by df-pn too, {lengths} lengths by the distributed analysis");
    assert!(
        complete >= 20 && draws >= 3 && by_dfpn >= 10 && lengths >= 5,
        "{complete} {draws} {by_dfpn} {lengths}"
    );
}

/// `solve` proves Igisoro's retreat on two columns with four seeds a pit by df-pn, the
/// retrograde analysis and auto as by alpha-beta, each with a certificate that
/// `check-proof` accepts, and the one-seed start a draw; `--verify` checks the line's
/// answers; the indexed analysis (which writes no certificate), without a time limit,
/// finds the same results.
#[test]
fn solve_follows_the_retreat_with_every_prover() {
    let dir = common::process::scratch("retreat-solve");
    let rules = dir.join("retreat2.toml");
    let drawn = dir.join("retreat2-1.toml");
    std::fs::write(
        &rules,
        "base = \"igisoro-retreat\"\ncolumns = 2\nstart = \"4,4/0,0/0,0/4,4\"\n",
    )
    .unwrap();
    std::fs::write(
        &drawn,
        "base = \"igisoro-retreat\"\ncolumns = 2\nstart = \"1,1/0,0/0,0/1,1\"\n",
    )
    .unwrap();
    let (rules, drawn) = (rules.to_str().unwrap(), drawn.to_str().unwrap());
    let proof = dir.join("proof.gz");
    let proof = proof.to_str().unwrap();
    let cases = [
        ("ab", rules, "win"),
        ("dfpn", rules, "win"),
        ("retro", rules, "win"),
        ("auto", rules, "win"),
        ("retro", drawn, "draw"),
        ("distributed", rules, "win"),
        ("distributed", drawn, "draw"),
    ];
    for (method, variant, result) in cases {
        let args = [
            "--variant",
            variant,
            "--method",
            method,
            "--certificate",
            proof,
            "--overwrite",
        ];
        let out = solve_json(&args);
        assert_eq!(out["result"], result, "{method}: {out}");
        let checked = common::process::json(&["check-proof", proof, "--json"]);
        assert_eq!(checked["valid"], true, "{method}: {checked}");
        assert_eq!(checked["result"], result, "{method}: {checked}");
    }
    // A certificate is replaced only when asked: the file stays as it was.
    let before = std::fs::read(proof).unwrap();
    let kept = common::process::run(&["solve", "--variant", rules, "--certificate", proof]);
    assert_eq!(kept.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&kept.stderr);
    assert!(
        stderr.contains("exists (--overwrite replaces it)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(proof).unwrap(), before);
    let verified = solve_json(&["--variant", rules, "--method", "ab", "--verify"]);
    assert_eq!(verified["verified"], true, "{verified}");
    for (variant, result) in [(rules, "win"), (drawn, "draw")] {
        // (`--time-ms 0`: no time limit.)
        let args = [
            "--variant",
            variant,
            "--method",
            "indexed",
            "--time-ms",
            "0",
        ];
        let out = solve_json(&args);
        assert_eq!(out["result"], result, "indexed: {out}");
        // The distributed analysis on 2 ranks, every label checked: the win with the
        // alpha-beta prover's length.
        let spread = solve_json(&[
            "--variant",
            variant,
            "--method",
            "distributed",
            "--threads",
            "2",
            "--verify",
            "--time-ms",
            "0",
        ]);
        assert_eq!(spread["result"], result, "distributed: {spread}");
        assert_eq!(spread["verified"], true, "distributed: {spread}");
        if result == "win" {
            let ab = solve_json(&["--variant", variant, "--method", "ab"]);
            assert_eq!(spread["plies"], ab["plies"], "{spread} {ab}");
        }
    }
}

/// `solve ARGS --json`, which must succeed: its JSON.
fn solve_json(args: &[&str]) -> serde_json::Value {
    common::process::json(&[&["solve"], args, &["--json"]].concat())
}

/// Where positions transpose into each other's subtrees, a repetition's failure makes
/// numbers depend on the path, and searching one child can undo what searching its
/// sibling did: here the search once went round in circles for good (a million nodes
/// a second, no new position); the seesaw guard gets it out.
#[test]
fn dfpn_gets_out_of_a_seesaw_and_proves_the_boys_capture_both_game_on_7_columns() {
    let dir = common::process::scratch("seesaw");
    let rules = dir.join("boys7.toml");
    std::fs::write(
        &rules,
        "base = \"isolo-boys\"\ncapture = \"both\"\ncolumns = 7\n\
         start = \"17,0,2,0,2,0,2/0,1,2,0,2,0,2/2,0,2,0,2,1,0/2,0,2,0,2,0,17\"\n",
    )
    .unwrap();
    for threads in ["1", "2"] {
        let out = solve_json(&[
            "--variant",
            rules.to_str().unwrap(),
            "--method",
            "dfpn",
            "--max-plies",
            "1000",
            "--nodes",
            "4000000",
            "--hash",
            "256",
            "--threads",
            threads,
        ]);
        assert_eq!(out["result"], "win", "{threads} threads: {out}");
    }
}

#[test]
fn solve_by_dfpn_proves_the_boys_start_without_and_with_its_length() {
    let plain = solve_json(&[
        "--variant",
        "isolo-boys",
        "--method",
        "dfpn",
        "--max-plies",
        "40",
    ]);
    assert_eq!(plain["result"], "win");
    assert_eq!(plain["method"], "dfpn");
    assert!(
        plain["plies"].is_null() && plain["length_exact"] == false,
        "{plain}"
    );
    // The winning move is one the alpha-beta prover also proves a win in 15.
    let best = plain["best_move"].as_str().unwrap().to_string();
    let boys = Variant::load("isolo-boys").unwrap();
    let child = boys.play_text(&boys.start(), &best).unwrap().child;
    let mut prover = Prover::new(&boys, 1, 16).unwrap();
    assert_eq!(
        prover.solve(&child, &[], 14, None).verdict,
        AbVerdict::Loss(14)
    );
    let exact = solve_json(&[
        "--variant",
        "isolo-boys",
        "--method",
        "dfpn",
        "--max-plies",
        "40",
        "--exact-length",
    ]);
    assert_eq!(
        (exact["plies"].as_u64(), exact["length_exact"].as_bool()),
        (Some(15), Some(true))
    );
    // Auto: the alpha-beta prover's exact answer where it finds one.
    let auto = solve_json(&["--variant", "isolo-women"]);
    assert_eq!(
        (auto["method"].as_str(), auto["plies"].as_u64()),
        (Some("ab"), Some(5))
    );
    // A loss (a proof with the opponent attacking): North after that move; then one
    // search only: the loss found by it alone, none where only a win is sought.
    let after = [
        "--variant",
        "isolo-boys",
        "--moves",
        &best,
        "--method",
        "dfpn",
        "--max-plies",
        "40",
    ];
    let loss = solve_json(&after);
    assert_eq!(loss["result"], "loss", "{loss}");
    assert!(loss["best_move"].is_null());
    let only_loss = solve_json(&[&after[..], &["--prove", "loss"]].concat());
    assert_eq!(
        (only_loss["result"].as_str(), only_loss["sought"].as_str()),
        (Some("loss"), Some("loss"))
    );
    let only_win = solve_json(&[&after[..], &["--prove", "win"]].concat());
    assert_eq!(only_win["result"], "unknown", "{only_win}");
    assert_eq!(plain["sought"], "either");
    for bad in [
        vec!["--method", "ab", "--prove", "win"],
        vec!["--method", "auto", "--prove", "loss"],
        vec!["--method", "dfpn", "--prove", "draw"],
        vec!["--method", "ab", "--nodes", "5"],
        vec!["--method", "ab", "--exact-length"],
        vec!["--method", "ab", "--max-plies", "200"],
        vec!["--method", "dfpn", "--nodes", "0"],
        vec!["--method", "dfpn", "--max-plies", "20000"],
        vec!["--method", "best"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(["solve", "--variant", "isolo-boys"])
            .args(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

/// A fortress (`rules::fortress`) is a proof that its owner cannot lose: on random
/// `capture = both` boards, wherever a side holds one, exhaustive minimax (walked,
/// answers the other side's, under the retreat) never finds it lost within the horizon,
/// whatever the opponent holds; the same few seeds outside a fortress it finds lost often.
#[test]
fn a_side_holding_a_fortress_is_never_lost_by_brute_force() {
    use common::{brute_force_walked, random_rules, rows_text, Rng};
    use isolo_rules::{CaptureChoice, CaptureCondition, Side};
    use isolo_rules::{Fortresses, MAX_FORTRESS_SEEDS};
    let mut rng = Rng(0xf0e7);
    let (mut held, mut tried, mut decided, mut lost_outside) = (0, 0, 0, 0);
    let mut held_under_retreat = 0;
    while held < 400 {
        let rules = random_rules(&mut rng);
        if rules.capture() != CaptureCondition::Both
            || rules.overture()
            || rules.columns() > 4
            || rules.capture_choice() == CaptureChoice::Optional && rules.columns() > 3
        {
            continue;
        }
        let rules = rules
            .to_builder()
            .max_laps(rules.max_laps().max(20))
            .build()
            .unwrap();
        let columns = rules.columns() as usize;
        let variant = Variant::new(rules).unwrap();
        let table = Fortresses::of(&variant).unwrap();
        let owner = rng.pick(&[Side::South, Side::North]);
        let owner_rows = if owner == Side::South { [2, 3] } else { [0, 1] };
        let seeds = 1 + rng.below(MAX_FORTRESS_SEEDS as u64) as usize;
        let spots: Vec<(usize, usize)> = (0..seeds)
            .map(|_| {
                (
                    owner_rows[rng.below(2) as usize],
                    rng.below(columns as u64) as usize,
                )
            })
            .collect();
        let rows = rows_text(columns, |r, c| {
            if owner_rows.contains(&r) {
                spots.iter().filter(|&&s| s == (r, c)).count() as u32
            } else {
                rng.below(4) as u32
            }
        });
        for to_move in ["S", "N"] {
            tried += 1;
            let Ok(board) = variant.parse_position(&format!("{rows} {to_move}")) else {
                continue;
            };
            let holds = table.holds(&board, owner);
            if !holds && tried % 8 != 0 {
                continue;
            }
            // Under the retreat the answers are the other side's: a walked minimax.
            let truth = if variant.has_retreat() {
                brute_force_walked(&variant, &board, 8, &mut Vec::new())
            } else {
                known_within(&variant, &board, 8)
            };
            let lost = match truth {
                Known::Win(_) => board.to_move() != owner,
                Known::Loss(_) => board.to_move() == owner,
                Known::Open => false,
            };
            if !holds {
                // The same few seeds outside a fortress: often lost, so the search bites.
                lost_outside += lost as usize;
                continue;
            }
            held += 1;
            held_under_retreat += variant.has_retreat() as usize;
            decided += !matches!(truth, Known::Open) as usize;
            assert!(
                !lost,
                "{}: {owner} holds a fortress, yet minimax says {truth:?}\n{}",
                variant.format_position(&board),
                variant.rules().to_toml()
            );
        }
    }
    println!(
        "{held} fortresses of {tried} positions ({held_under_retreat} under the retreat), none \
         lost, {decided} won by their owner; {lost_outside} positions outside a fortress lost"
    );
    assert!(lost_outside > 20, "{lost_outside}");
    assert!(held_under_retreat > 40, "{held_under_retreat}");
}

/// df-pn counts a defender's fortress as the attacker's failure at once: where both sides
/// hold one (a lone seed against two that relay round for ever) each search ends at the
/// root.
#[test]
fn dfpn_stops_at_once_where_both_sides_hold_fortresses() {
    use isolo_engine::prove::dfpn::{solve, DfpnLimits, DfpnVerdict, Sought};
    let igisoro = Variant::load("igisoro").unwrap();
    let board = igisoro
        .parse_position("0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,1,0,0,0,0 S")
        .unwrap();
    let limits = DfpnLimits {
        nodes: 100_000,
        time: None,
        max_depth: 1000,
        table_entries: 1 << 12,
        strategy: false,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let result = solve(&igisoro, &board, &[], limits, &|_| {});
    assert_eq!(result.verdict, DfpnVerdict::Unknown);
    assert_eq!(result.nodes, 2);
}

/// Ctrl-C during a long solve prints what was proven (text and JSON, with
/// `"interrupted": true`) and exits 130, whichever prover was running.
#[test]
fn an_interrupted_solve_prints_its_report_and_exits_130() {
    use std::process::{Command, Stdio};
    for (method, json) in [("auto", true), ("ab", false), ("dfpn", true)] {
        let mut args = vec![
            "solve",
            "--variant",
            "igisoro",
            "--method",
            method,
            "--time-ms",
            "600000",
        ];
        if json {
            args.push("--json");
        }
        let child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // (Long enough for the Ctrl-C handler to be installed even on a busy machine.)
        std::thread::sleep(std::time::Duration::from_millis(2000));
        common::process::ctrl_c(&child);
        let done = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&done.stdout);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(130), "{method}: {stdout} {stderr}");
        assert!(stderr.contains("interrupted: the result above"), "{stderr}");
        if json {
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(report["interrupted"], true, "{report}");
            assert_eq!(report["result"], "unknown", "{report}");
        } else {
            assert!(stdout.contains("unknown: interrupted at depth"), "{stdout}");
        }
    }
}

/// A dead position (`dead_position`) is solved at once, in words: the rules end it, and
/// retrograde analysis lists its one position.
#[test]
fn solve_ends_a_dead_position_at_once_in_words() {
    let lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args([
            "solve",
            "--variant",
            "igisoro",
            "--position",
            lone,
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["result"], "draw", "{report}");
    assert_eq!(report["method"], "retro", "{report}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("North's last seed can never be captured"),
        "{stderr}"
    );
}
