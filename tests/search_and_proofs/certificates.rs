//! Proof certificates: every proof the provers make on small boards writes a certificate
//! that the rules-only checker accepts; tampered certificates are refused with the
//! reason; `solve --certificate` and `check-proof` as a user runs them.

use crate::common;

use common::process::{json as isolo_json, run as isolo};
use common::{known_within, small_positions, Known};
use isolo_engine::prove::alphabeta::{AbVerdict, Prover};
use isolo_engine::prove::certificate::{
    check, check_draw, check_proof, Certificate, DrawCertificate, Proof,
};
use isolo_engine::prove::dfpn::{solve, DfpnLimits, DfpnVerdict, Sought};
use isolo_rules::{Board, Move, MoveGen, Side, Variant};

const HORIZON: u32 = 7;

fn certificate(
    variant: &Variant,
    board: &Board,
    winner: Side,
    plies: Option<u32>,
    strategy: Vec<(Board, Move)>,
) -> Certificate {
    Certificate {
        rules: variant.rules().clone(),
        start: *board,
        moves: Vec::new(),
        winner,
        plies,
        strategy,
    }
}

/// Writes and reads back a certificate, as a file would carry it.
fn round_trip(c: &Certificate) -> Certificate {
    let mut text = Vec::new();
    c.write(&mut text).unwrap();
    Certificate::read(&mut text.as_slice()).unwrap()
}

#[test]
fn every_dfpn_proof_on_small_boards_writes_a_certificate_that_checks() {
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
    let mut certified = 0;
    for (i, (variant, board)) in small_positions(160, 0xce27, 4).into_iter().enumerate() {
        // One, two or three agents on a shared table.
        let limits = DfpnLimits {
            threads: 1 + i % 3,
            ..limits
        };
        let result = solve(&variant, &board, &[], limits, &|_| {});
        let winner = match result.verdict {
            DfpnVerdict::Win => board.to_move(),
            DfpnVerdict::Loss => board.to_move().opponent(),
            DfpnVerdict::Unknown => continue,
        };
        let position = variant.format_position(&board);
        let strategy = result
            .strategy
            .unwrap()
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        let checked = check(&round_trip(&certificate(
            &variant, &board, winner, None, strategy,
        )))
        .unwrap_or_else(|e| panic!("{position}: {e}"));
        // The proof's longest line is within the search's horizon, and no shorter than
        // the shortest forced result.
        let shortest = match known_within(&variant, &board, HORIZON) {
            Known::Win(n) | Known::Loss(n) => n,
            Known::Open => panic!("{position}: minimax finds no result"),
        };
        assert!(
            (shortest..=HORIZON).contains(&checked.depth),
            "{position}: depth {} against {shortest}",
            checked.depth
        );
        assert_eq!(
            checked.win_for_side_to_move,
            result.verdict == DfpnVerdict::Win
        );
        certified += 1;
    }
    assert!(certified > 40, "only {certified} proofs");
    // A table too small for the search may lose the proof (and says so), never yields
    // a certificate that fails.
    let cramped = DfpnLimits {
        table_entries: 8,
        nodes: 20_000,
        ..limits
    };
    for (variant, board) in small_positions(40, 0xce27, 4) {
        let result = solve(&variant, &board, &[], cramped, &|_| {});
        let winner = match result.verdict {
            DfpnVerdict::Win => board.to_move(),
            DfpnVerdict::Loss => board.to_move().opponent(),
            DfpnVerdict::Unknown => continue,
        };
        if let Ok(strategy) = result.strategy.unwrap() {
            check(&certificate(&variant, &board, winner, None, strategy)).unwrap();
        }
    }
}

/// The boys' game with `capture = both` on 7 columns, a long df-pn win whose proof once
/// lost a position to a bucket of proofs while the table was still growing (its lines,
/// up to 323 plies, are proved without the long-game rule: under it the check refuses
/// them).
#[test]
fn a_proof_found_while_the_table_grows_keeps_every_position_of_its_certificate() {
    let rules = "base = \"isolo-boys\"\nlong_game_plies = 0\ncapture = \"both\"\ncolumns = 7\nstart = \"17,0,2,0,2,0,2/0,1,2,0,2,0,2/2,0,2,0,2,1,0/2,0,2,0,2,0,17\"\n";
    let variant =
        Variant::new(isolo_rules::Rules::from_toml(rules, "boys-capture-both-w7").unwrap())
            .unwrap();
    let board = variant.start();
    let limits = DfpnLimits {
        nodes: 2_000_000,
        time: None,
        max_depth: 1000,
        table_entries: (1024 << 20) / isolo_engine::prove::dfpn::BYTES_PER_ENTRY,
        strategy: true,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let result = solve(&variant, &board, &[], limits, &|_| {});
    assert_eq!(result.verdict, DfpnVerdict::Win);
    let strategy = result.strategy.unwrap().expect("the whole proof is kept");
    let checked = check(&certificate(
        &variant,
        &board,
        Side::South,
        None,
        strategy.clone(),
    ));
    assert!(checked.unwrap().win_for_side_to_move);
    let mut ruled = variant.rules().to_builder();
    let ruled = Variant::new(ruled.long_game_plies(100).build().unwrap()).unwrap();
    let refused = check(&certificate(&ruled, &board, Side::South, None, strategy)).unwrap_err();
    assert!(refused.to_string().contains("long-game rule"), "{refused}");
}

#[test]
fn alpha_beta_proofs_write_certificates_with_their_exact_length() {
    let mut certified = 0;
    for (variant, board) in small_positions(60, 0xab5, 4) {
        let mut prover = Prover::new(&variant, 1, 4).unwrap();
        let verdict = prover.solve(&board, &[], HORIZON, None).verdict;
        let (winner, plies) = match verdict {
            AbVerdict::Win(p) => (board.to_move(), p),
            AbVerdict::Loss(p) => (board.to_move().opponent(), p),
            AbVerdict::Unknown => continue,
        };
        let proof = prover.proof(&board, &[], verdict, 100_000).unwrap();
        let c = certificate(&variant, &board, winner, Some(plies), proof.strategy);
        let checked = check(&round_trip(&c))
            .unwrap_or_else(|e| panic!("{}: {e}", variant.format_position(&board)));
        assert_eq!(checked.plies, Some(plies));
        assert!(checked.depth >= plies);
        certified += 1;
    }
    assert!(certified > 10, "only {certified} proofs");
}

/// The boys' start's certificate from df-pn, as text.
fn boys_certificate() -> String {
    let boys = Variant::load("isolo-boys").unwrap();
    let limits = DfpnLimits {
        nodes: 1_000_000,
        time: None,
        max_depth: 40,
        table_entries: 1 << 20,
        strategy: true,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let result = solve(&boys, &boys.start(), &[], limits, &|_| {});
    assert_eq!(result.verdict, DfpnVerdict::Win);
    let c = certificate(
        &boys,
        &boys.start(),
        Side::South,
        None,
        result.strategy.unwrap().unwrap(),
    );
    let mut text = Vec::new();
    c.write(&mut text).unwrap();
    String::from_utf8(text).unwrap()
}

fn check_text(text: &str) -> Result<isolo_engine::prove::certificate::Checked, String> {
    let certificate = Certificate::read(&mut text.as_bytes()).map_err(|e| e.to_string())?;
    check(&certificate).map_err(|e| e.to_string())
}

/// The index of the first line after `winner` (the first position line).
fn first_position_line(lines: &[&str]) -> usize {
    lines.iter().position(|l| l.starts_with("winner ")).unwrap() + 1
}

#[test]
fn a_text_that_is_no_certificate_and_a_certificate_that_proves_nothing_are_told_apart() {
    use isolo_engine::prove::certificate::CertificateError;
    let text = boys_certificate();
    let malformed = text.replacen("isolo-ai proof 1", "isolo-ai proof 2", 1);
    assert!(matches!(
        Certificate::read(&mut malformed.as_bytes()),
        Err(CertificateError::Malformed(_))
    ));
    let lines: Vec<&str> = text.lines().collect();
    let first = first_position_line(&lines);
    // The winner's first move replaced by another legal-looking pit: it reads, but it
    // is no longer the proof.
    let (position, mv) = lines[first].rsplit_once(' ').unwrap();
    let other = if mv == "1" { "2" } else { "1" };
    let tampered = text.replacen(lines[first], &format!("{position} {other}"), 1);
    let certificate = Certificate::read(&mut tampered.as_bytes()).unwrap();
    assert!(matches!(
        check(&certificate),
        Err(CertificateError::Refused(_))
    ));
}

#[test]
fn tampered_certificates_are_refused_with_the_reason() {
    let text = boys_certificate();
    let checked = check_text(&text).unwrap();
    assert!(checked.win_for_side_to_move && checked.positions > 100);
    let lines: Vec<&str> = text.lines().collect();
    let first = first_position_line(&lines);
    let count = lines.len() - first - 1;
    let with = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        edit(&mut l);
        l.join("\n") + "\n"
    };
    let cases: Vec<(String, &str)> = vec![
        (
            with(&|l| l[0] = "isolo-ai proof 2".into()),
            "line 1: not a certificate",
        ),
        (with(&|l| l.truncate(l.len() - 1)), "ends early"),
        (with(&|l| l.push("extra".into())), "text after the end line"),
        (
            with(&|l| *l.last_mut().unwrap() = format!("end {}", count + 1)),
            "position lines, its end says",
        ),
        // The winner's first move removed: the root has no move.
        (
            with(&|l| {
                l.remove(first);
                *l.last_mut().unwrap() = format!("end {}", count - 1);
            }),
            "no move is given at",
        ),
        // A move that is not legal at the root (pit 1 is empty for South in overture).
        (
            with(&|l| {
                let (position, _) = l[first].rsplit_once(' ').unwrap();
                l[first] = format!("{position} 2");
            }),
            "is not legal there",
        ),
        // Another legal first move: it does not win, so some line escapes the proof.
        (
            with(&|l| {
                let (position, _) = l[first].rsplit_once(' ').unwrap();
                l[first] = format!("{position} 9");
            }),
            "not a",
        ),
        (
            with(&|l| l[first - 1] = "winner N".into()),
            "no move is given at",
        ),
        (
            with(&|l| {
                l.insert(first, l[first].clone());
                *l.last_mut().unwrap() = format!("end {}", count + 1);
            }),
            "given twice",
        ),
        (
            with(&|l| l.insert(first, "plies 99".into())),
            "states a result in",
        ),
        (
            with(&|l| l.insert(first, "plies x".into())),
            "bad ply count",
        ),
        (with(&|l| l[first] = "1,2,3 S 4".into()), "line"),
        (with(&|l| l[2] = "columns = 99".into()), "rules:"),
        (with(&|l| l[first - 2] = "moves 2".into()), "moves: move 1"),
        ("x".repeat(70_000), "longer than"),
        (String::new(), "ends early"),
    ];
    for (bad, expected) in cases {
        match check_text(&bad) {
            Ok(_) if expected == "not a" => {
                panic!("a certificate with a losing first move checks")
            }
            Ok(_) => panic!("accepted: expected an error with '{expected}'"),
            Err(e) => assert!(
                expected == "not a" || e.contains(expected),
                "'{e}' lacks '{expected}'"
            ),
        }
    }
}

/// A certificate may carry unused position lines, but at most
/// `MOST_UNUSED_LINES` beyond as many as its proof uses: a file of thousands of lines
/// the proof never reaches is refused, naming the count.
#[test]
fn a_certificate_carries_few_lines_beyond_its_proof() {
    use isolo_engine::prove::certificate::MOST_UNUSED_LINES;
    let boys = Variant::load("isolo-boys").unwrap();
    let text = boys_certificate();
    let checked = check_text(&text).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let end = lines.pop().unwrap();
    let position_of = |line: &str| line.rsplit_once(' ').map(|(p, _)| p.to_string());
    let mut given: std::collections::HashSet<String> =
        lines.iter().filter_map(|l| position_of(l)).collect();
    // Positions of random games with South to move, never in the proof.
    let mut extra = Vec::new();
    let mut seed = 7u64;
    let wanted = checked.positions + MOST_UNUSED_LINES + 10;
    while extra.len() < wanted {
        let mut game = isolo_rules::Game::new(&boys, boys.start());
        while game.outcome().is_none() && game.plies() < 60 {
            let moves = boys.legal_moves(game.board());
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()].mv.clone();
            game.play_move(&mv).unwrap();
            let board = *game.board();
            if board.to_move() == Side::South && game.outcome().is_none() {
                let first = &boys.legal_moves(&board)[0].mv;
                let position = boys.format_position(&board);
                if given.insert(position.clone()) {
                    extra.push(format!("{position} {first}"));
                }
            }
        }
    }
    let count: usize = end.strip_prefix("end ").unwrap().parse().unwrap();
    let with_extra = |n: usize| {
        let mut all = lines.clone();
        all.extend(extra[..n].iter().cloned());
        all.push(format!("end {}", count + n));
        all.join("\n") + "\n"
    };
    let few = check_text(&with_extra(100)).unwrap();
    assert_eq!(few.unused, 100);
    let refused = check_text(&with_extra(wanted)).unwrap_err();
    assert!(refused.contains("never reached by the proof"), "{refused}");
}

/// `check-proof` names the rules a certificate proves: a preset's as the preset, and
/// rules that bear a preset's name with other values as what they are.
#[test]
fn check_proof_says_which_rules_it_proves() {
    let dir = common::process::scratch("proof-rules");
    let rules = dir.join("boys18.toml");
    std::fs::write(
        &rules,
        "name = \"isolo-boys\"\nbase = \"isolo-boys\"\nmin_sow = 18\n",
    )
    .unwrap();
    let heavy = dir.join("heavy.proof").display().to_string();
    let boys = dir.join("boys.proof").display().to_string();
    for (variant, proof) in [(rules.to_str().unwrap(), &heavy), ("isolo-women", &boys)] {
        let out = isolo(&["solve", "--variant", variant, "--certificate", proof]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = common::process::ok(&["check-proof", &heavy]);
    assert!(
        text.contains("\nrules: named isolo-boys but not that preset: min_sow = 18 (the preset's 2); the proof is of these rules, not of the preset\n"),
        "{text}"
    );
    let json = isolo_json(&["check-proof", &heavy, "--json"]);
    assert_eq!(json["rules"]["misnamed"], true, "{json}");
    assert_eq!(
        json["rules"]["differences"]["min_sow"]["value"], "18",
        "{json}"
    );
    let json = isolo_json(&["check-proof", &boys, "--json"]);
    assert_eq!(json["rules"]["is_preset"], true, "{json}");
    assert_eq!(json["rules"]["summary"], "isolo-women", "{json}");
}

#[test]
fn solve_writes_certificates_that_check_proof_accepts() {
    let dir = std::env::temp_dir().join(format!("isolo-certificates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    // A win by the alpha-beta prover, with its exact length; a loss by df-pn after a
    // move (the game's earlier position travels with it), compressed.
    let ab = path("boys.txt");
    let out = isolo(&[
        "solve",
        "--variant",
        "isolo-boys",
        "--method",
        "ab",
        "--certificate",
        &ab,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("win in 15 plies") && text.contains("checked:"),
        "{text}"
    );
    let loss = path("loss.gz");
    let json = isolo_json(&[
        "solve",
        "--variant",
        "isolo-boys",
        "--moves",
        "7",
        "--method",
        "dfpn",
        "--max-plies",
        "40",
        "--certificate",
        &loss,
        "--json",
    ]);
    assert_eq!(json["result"], "loss");
    assert_eq!(json["certificate"]["winner"], "S", "{json}");
    assert_eq!(std::fs::read(&loss).unwrap()[..2], [0x1f, 0x8b]);
    for (file, result) in [(&ab, "win"), (&loss, "loss")] {
        let json = isolo_json(&["check-proof", file, "--json"]);
        assert_eq!(
            (json["valid"].as_bool(), json["result"].as_str()),
            (Some(true), Some(result))
        );
    }
    let out = isolo(&["check-proof", &ab]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid: win for South"));
    // A compressed certificate whose checksum, trailer or single member is broken is
    // refused, though its text reads whole.
    let packed = std::fs::read(&loss).unwrap();
    let n = packed.len();
    let mut bad_crc = packed.clone();
    bad_crc[n - 8] ^= 0xff;
    let mut two_members = packed.clone();
    two_members.extend_from_slice(&packed);
    for (name, bytes) in [
        ("bad-crc.gz", bad_crc),
        ("no-trailer.gz", packed[..n - 8].to_vec()),
        ("two-members.gz", two_members),
    ] {
        let file = path(name);
        std::fs::write(&file, bytes).unwrap();
        let out = isolo(&["check-proof", &file]);
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
    }
    // No certificate for an unknown result.
    let none = path("none.txt");
    let out = isolo(&[
        "solve",
        "--variant",
        "igisoro",
        "--method",
        "dfpn",
        "--nodes",
        "100",
        "--certificate",
        &none,
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("no certificate: the result is unknown"));
    assert!(!std::path::Path::new(&none).exists());
    // A broken certificate, a missing file, a file that is no certificate: exit 2, the
    // file and the reason named.
    let broken = path("broken.txt");
    let text = std::fs::read_to_string(&ab).unwrap();
    std::fs::write(&broken, text.replacen("winner S", "winner N", 1)).unwrap();
    for (file, expected) in [
        (broken.clone(), "not a proof: no move is given at"),
        (path("missing.txt"), "cannot read"),
        ("/dev/null".to_string(), "not a regular file"),
    ] {
        let out = isolo(&["check-proof", &file]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&file) && stderr.contains(expected),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Retrograde analysis agrees with exhaustive minimax, its wins and losses come with
/// certificates that check, and its draws are positions minimax finds no result in,
/// with draw certificates that check.
#[test]
fn retrograde_values_agree_with_brute_force_and_certify() {
    use isolo_engine::prove::retrograde::{solve as retro, RetroLimits, RetroVerdict};
    let limits = RetroLimits {
        positions: 30_000,
        time: None,
        strategy: true,
        interrupt: None,
    };
    let (mut decided, mut draws, mut complete) = (0, 0, 0);
    for (variant, board) in small_positions(160, 0x7e7, 3) {
        let result = retro(&variant, &board, limits);
        let truth = known_within(&variant, &board, HORIZON);
        let position = variant.format_position(&board);
        let winner = match (result.verdict, truth) {
            (RetroVerdict::Win, Known::Win(_) | Known::Open) => board.to_move(),
            (RetroVerdict::Loss, Known::Loss(_) | Known::Open) => board.to_move().opponent(),
            (RetroVerdict::Draw, Known::Open) => {
                let holds = result.holds.unwrap();
                let draw = DrawCertificate {
                    rules: variant.rules().clone(),
                    start: board,
                    moves: Vec::new(),
                    holds,
                };
                check_draw(&draw).unwrap_or_else(|e| panic!("{position}: draw: {e}"));
                draws += 1;
                continue;
            }
            (RetroVerdict::Unknown, _) => continue,
            (verdict, truth) => panic!("{position}: retrograde {verdict:?}, minimax {truth:?}"),
        };
        complete += usize::from(result.complete);
        let strategy = result.strategy.unwrap();
        check(&certificate(&variant, &board, winner, None, strategy))
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        decided += 1;
    }
    println!("retrograde: {decided} wins or losses ({complete} complete), {draws} draws");
    assert!(
        decided > 40 && draws > 0,
        "{decided} decided, {draws} draws"
    );
}

/// Positions reachable from `board` without passing a dead position the rules end, a
/// position and its exchange (the other side to move on the mirrored board) counted once.
fn reachable_up_to_exchange(variant: &Variant, board: &Board) -> u64 {
    let mover_is_south = |b: Board| match b.to_move() {
        Side::South => b,
        Side::North => b.swapped(),
    };
    let root = mover_is_south(*board);
    let (mut seen, mut todo) = (std::collections::HashSet::from([root]), vec![root]);
    let (mut gen, mut children) = (MoveGen::new(), Vec::new());
    while let Some(b) = todo.pop() {
        children.clear();
        variant.children(&b, &mut gen, &mut children);
        if isolo_rules::dead_position_outcome(variant, &b).is_some() {
            continue;
        }
        for &c in &children {
            if seen.insert(mover_is_south(c)) {
                todo.push(mover_is_south(c));
            }
        }
    }
    seen.len() as u64
}

/// The indexed analysis (every seed distribution numbered) finds the hash-map analysis'
/// value wherever that one lists every reachable position, on random small games of
/// every rules family (overtures included), and reaches every position once with its
/// exchange; so do its labels by sweeps over the scratch file.
#[test]
fn indexed_retrograde_agrees_with_the_hash_map_analysis() {
    use isolo_engine::prove::retrograde::indexed::{self, IndexedError, IndexedLimits};
    use isolo_engine::prove::retrograde::{solve as retro, RetroLimits, RetroVerdict};
    let limits = RetroLimits {
        positions: 200_000,
        time: None,
        strategy: false,
        interrupt: None,
    };
    let indexed_limits = IndexedLimits {
        memory: 256 << 20,
        time: None,
        scratch: std::env::temp_dir(),
        sweeps_only: false,
        interrupt: None,
    };
    let mut compared = [0usize; 3];
    for (variant, board) in small_positions(120, 0x1dec, 3) {
        let expected = retro(&variant, &board, limits);
        if !expected.complete {
            continue;
        }
        let found = match indexed::solve(&variant, &board, &indexed_limits, &|_| {}) {
            Err(IndexedError::NoMemory { .. } | IndexedError::TooLarge(_)) => continue,
            other => other.unwrap(),
        };
        let position = variant.format_position(&board);
        assert_eq!(found.verdict, expected.verdict, "{position}: {found:?}");
        // It counts a position and its exchange once.
        assert_eq!(
            found.reached,
            reachable_up_to_exchange(&variant, &board),
            "{position}"
        );
        assert!(found.reached <= expected.expanded as u64, "{position}");
        assert_eq!(found.sweeps, 0, "{position}: the parents fit");
        // The labels by passes over the scratch file, as where the parents do not
        // fit in memory.
        let sweeps_only = IndexedLimits {
            sweeps_only: true,
            ..indexed_limits.clone()
        };
        let swept = indexed::solve(&variant, &board, &sweeps_only, &|_| {}).unwrap();
        assert_eq!(
            swept.verdict, expected.verdict,
            "{position}: by sweeps {swept:?}"
        );
        assert!(swept.sweeps > 0, "{position}");
        compared[match found.verdict {
            RetroVerdict::Win => 0,
            RetroVerdict::Loss => 1,
            _ => 2,
        }] += 1;
    }
    println!("indexed retrograde: wins, losses, draws compared {compared:?}");
    assert!(compared.iter().all(|&n| n > 0), "{compared:?}");
}

/// `solve --method indexed` as a user runs it: the draw `retro` proves, the same
/// positions counted, its JSON fields, and a clear refusal of what it cannot do.
#[test]
fn solve_method_indexed_proves_the_draw_and_refuses_what_it_cannot_do() {
    let dir = std::env::temp_dir().join(format!("isolo-indexed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Igisoro on 3 columns with K seeds a back pit, as a rules file.
    let igisoro3 = |seeds: u8| {
        let path = dir.join(format!("igisoro-w3-s{seeds}.toml"));
        let row = format!("{seeds},{seeds},{seeds}");
        let start = format!("{row}/0,0,0/0,0,0/{row}");
        let text = format!("base = \"igisoro\"\ncolumns = 3\nstart = \"{start}\"\n");
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    // With 1 seed: a draw (docs/RESULTS.md).
    let rules = igisoro3(1);
    let solve =
        |method: &str| isolo_json(&["solve", "--variant", &rules, "--method", method, "--json"]);
    let (retro, indexed) = (solve("retro"), solve("indexed"));
    assert_eq!(indexed["result"], "draw", "{indexed}");
    assert_eq!(indexed["method"], "indexed");
    // A position and its exchange are counted once.
    let (folded, all) = (
        indexed["positions"].as_u64().unwrap(),
        retro["positions"].as_u64().unwrap(),
    );
    assert!(
        all.div_ceil(2) <= folded && folded <= all,
        "{indexed} {retro}"
    );
    assert_eq!(indexed["complete"], true);
    assert!(indexed["stopped"].is_null());
    assert!(indexed["index_size"].as_u64().unwrap() >= indexed["positions"].as_u64().unwrap());
    let text = isolo(&["solve", "--variant", &rules, "--method", "indexed"]);
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("draw: neither side"));
    let certificate = dir.join("c.proof").display().to_string();
    for (extra, expected) in [
        (
            vec!["--certificate", &certificate],
            "--method indexed takes no --certificate",
        ),
        (vec!["--moves", "1"], "--method indexed takes no --moves"),
        (
            vec!["--threads", "2"],
            "--method indexed takes no --threads",
        ),
        (
            vec!["--hash", "1000000"],
            "--hash: the indexed analysis may take",
        ),
    ] {
        let mut args = vec!["solve", "--variant", &rules, "--method", "indexed"];
        args.extend(extra);
        let out = isolo(&args);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        common::assert_refused(&args, out.status.code(), &stdout, &stderr, expected);
    }
    // The full Igisoro board numbers more positions than the index can: a clear error.
    let args = ["solve", "--variant", "igisoro", "--method", "indexed"];
    let out = isolo(&args);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    common::assert_refused(
        &args,
        out.status.code(),
        &stdout,
        &stderr,
        "more than 2^64 positions in the index, which can number at most 2^32",
    );
    // Out of time or memory it says which, and proves nothing (2 seeds: 968,877
    // positions up to exchange, 1.5 s to list).
    let two_seeds = igisoro3(2);
    for (limit, stopped) in [
        ("--time-ms", "the time ran out while listing"),
        (
            "--hash",
            "the memory limit (12 MB) was reached while listing",
        ),
    ] {
        let value = if limit == "--hash" { "12" } else { "300" };
        let json = isolo_json(&[
            "solve",
            "--variant",
            &two_seeds,
            "--method",
            "indexed",
            limit,
            value,
            "--json",
        ]);
        assert_eq!(json["result"], "unknown", "{json}");
        assert_eq!(json["stopped"], stopped, "{json}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_proves_a_draw_by_retrograde_analysis() {
    // The boys' capture-ends reading on 2 columns with 1 seed where the preset has 2:
    // about 0.8 M reachable positions, and neither side can force a win.
    let dir = std::env::temp_dir().join(format!("isolo-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("boys2.toml");
    std::fs::write(
        &rules,
        "base = \"isolo-boys-capture-ends\"\nname = \"b2\"\ncolumns = 2\nstart = \"17,1/0,1/1,0/1,17\"\n",
    )
    .unwrap();
    let rules = rules.display().to_string();
    for method in ["retro", "auto"] {
        let proof = dir.join(format!("{method}.proof.gz"));
        let json = isolo_json(&[
            "solve",
            "--variant",
            &rules,
            "--method",
            method,
            "--json",
            "--time-ms",
            "60000",
            "--certificate",
            proof.to_str().unwrap(),
        ]);
        assert_eq!(
            (json["result"].as_str(), json["method"].as_str()),
            (Some("draw"), Some("retro")),
            "{json}"
        );
        assert_eq!(json["complete"], true);
        assert_eq!(json["certificate"]["result"], "draw", "{json}");
        let checked = isolo_json(&["check-proof", proof.to_str().unwrap(), "--json"]);
        assert_eq!(checked["result"], "draw");
        assert_eq!(checked["position"], "17,1/0,1/1,0/1,17 S SN");
        assert!(checked["holds"]["S"].as_u64().unwrap() > 100, "{checked}");
    }
    draw_tamper_corpus(&std::fs::read(dir.join("retro.proof.gz")).unwrap());
    // After moves, a retrograde win stands where its strategy checks against the game.
    let out = isolo(&[
        "solve",
        "--variant",
        "isolo-women",
        "--moves",
        "5 13",
        "--method",
        "retro",
        "--json",
        "--hash",
        "64",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["result"], "win", "{json}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_table_writes_markdown_csv_and_certificates_that_check() {
    let dir = std::env::temp_dir().join(format!("isolo-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (md, csv, certs) = (dir.join("t.md"), dir.join("t.csv"), dir.join("proofs"));
    let out = isolo(&[
        "solve-table",
        "--preset",
        "isolo-women-capture-ends",
        "--widths",
        "2..3",
        "--seeds",
        "1,2",
        "--time-ms",
        "5000",
        "--out",
        md.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--certificates",
        certs.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(std::fs::read_to_string(&md).unwrap(), text);
    // South cannot move with 1 seed a pit (2 are needed); 2 seeds: wins in 5 and 11.
    assert!(
        text.contains("| 2 | loss 0 | win 5 |") && text.contains("| 3 | loss 0 | win 11 |"),
        "{text}"
    );
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with(
        "columns,seeds,value,plies,depth,nodes,time_ms,certificate_moves,certificate_bytes\n"
    ));
    assert!(csv.contains("\n2,2,win,5,"), "{csv}");
    let mut files: Vec<_> = std::fs::read_dir(&certs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 4);
    for file in &files {
        let out = isolo(&["check-proof", file.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for bad in [
        vec!["--preset", "isolo-girls"],
        vec!["--preset", "igisoro", "--widths", "9"],
        vec!["--preset", "igisoro", "--widths", "5..3"],
        vec!["--preset", "igisoro", "--seeds", "0..2"],
        vec!["--preset", "igisoro", "--set", "columns=3"],
        vec!["--preset", "igisoro", "--set", "capture=sometimes"],
        vec!["--preset", "igisoro", "--set", "colour"],
        vec!["--preset", "igisoro", "--max-plies", "0"],
    ] {
        let out = isolo(&[&["solve-table"], bad.as_slice()].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{bad:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Edits of a draw's certificate, each refused with its reason.
fn draw_tamper_corpus(packed: &[u8]) {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::GzDecoder::new(packed)
        .read_to_string(&mut text)
        .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
    let (holds_s, holds_n) = (at("holds S"), at("holds N"));
    let count = lines.len() - holds_s - 3;
    let with = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        edit(&mut l);
        l.join("\n") + "\n"
    };
    let south_star = (holds_s..holds_n)
        .find(|&i| lines[i].ends_with(" *"))
        .unwrap();
    let north_star = (holds_n..lines.len())
        .find(|&i| lines[i].ends_with(" *"))
        .unwrap();
    let cases: Vec<(String, &str)> = vec![
        // The root's line gone from South's set.
        (
            with(&|l| {
                l.remove(holds_s + 1);
                *l.last_mut().unwrap() = format!("end {}", count - 1);
            }),
            "",
        ),
        // A North position of South's set gone: some line leaves the set.
        (
            with(&|l| {
                l.remove(south_star);
                *l.last_mut().unwrap() = format!("end {}", count - 1);
            }),
            "leaves",
        ),
        // South's move at the root replaced by a pass mark.
        (
            with(&|l| {
                let (position, _) = l[holds_s + 1].rsplit_once(' ').unwrap();
                l[holds_s + 1] = format!("{position} *");
            }),
            "gives no move at",
        ),
        // A move given where the other side is to move.
        (
            with(&|l| {
                let (position, _) = l[north_star].rsplit_once(' ').unwrap();
                l[north_star] = format!("{position} 1");
            }),
            "where the other side is to move",
        ),
        // An illegal move (pit 4 is empty for South at the root in overture).
        (
            with(&|l| {
                let (position, _) = l[holds_s + 1].rsplit_once(' ').unwrap();
                l[holds_s + 1] = format!("{position} 1");
            }),
            "",
        ),
        (
            with(&|l| {
                l.insert(holds_n + 1, l[holds_n + 1].clone());
                *l.last_mut().unwrap() = format!("end {}", count + 1);
            }),
            "twice",
        ),
        (
            with(&|l| *l.last_mut().unwrap() = format!("end {}", count + 1)),
            "its end says",
        ),
        (
            with(&|l| l[holds_n] = "holds X".into()),
            "expected 'holds N'",
        ),
        (
            with(&|l| l[holds_s - 1] = "drawn".into()),
            "expected 'winner <S|N>' or 'draw'",
        ),
    ];
    for (bad, expected) in cases {
        let result = Proof::read(&mut bad.as_bytes()).and_then(|p| check_proof(&p));
        match result {
            Ok(_) => panic!("accepted: expected an error with '{expected}'"),
            Err(e) => assert!(e.to_string().contains(expected), "'{e}' lacks '{expected}'"),
        }
    }
}

/// Every certificate committed under docs/proofs checks (the published results).
#[test]
fn committed_certificates_check() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/proofs");
    let mut checked = 0;
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for folder in [dir.clone(), dir.join("long")] {
        for entry in std::fs::read_dir(&folder).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    for path in files {
        if !path.to_string_lossy().ends_with(".proof.gz") {
            continue;
        }
        let proof = Proof::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check_proof(&proof).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        checked += 1;
    }
    println!("{checked} certificates checked");
    assert!(checked > 0, "no certificates in {}", dir.display());
}

#[test]
fn a_dfpn_search_resumes_across_runs_and_its_proof_certifies() {
    let dir = std::env::temp_dir().join(format!("isolo-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("boys.state").display().to_string();
    let proof = dir.join("boys.proof").display().to_string();
    let args = |nodes: &str, plies: &str| {
        vec![
            "solve",
            "--variant",
            "isolo-boys",
            "--method",
            "dfpn",
            "--max-plies",
            plies,
            "--nodes",
            nodes,
            "--resume",
            &state,
            "--certificate",
            &proof,
            "--overwrite",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    // One run proves the boys' start in about 1,300 positions; runs of 400 each go
    // on where the last stopped.
    let mut runs = 0;
    loop {
        runs += 1;
        let a = args("400", "40");
        let out = isolo(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.contains("resuming from"), runs > 1, "{stderr}");
        if text.starts_with("win for South") {
            assert!(text.contains("checked:"), "{text}");
            break;
        }
        assert!(text.contains("unknown") && runs < 30, "run {runs}: {text}");
    }
    assert!(runs > 2, "proven in {runs} runs");
    let out = isolo(&["check-proof", &proof]);
    assert!(out.status.success());
    // Another search's file, another prover, and a file that is no saved search.
    let other = args("400", "41");
    let junk = dir.join("junk").display().to_string();
    std::fs::write(&junk, "not a state\n").unwrap();
    for (bad, expected) in [
        (other, "another search"),
        (
            [
                "solve",
                "--variant",
                "isolo-boys",
                "--method",
                "ab",
                "--resume",
                &state,
            ]
            .map(String::from)
            .to_vec(),
            "needs --method dfpn",
        ),
        (
            [
                "solve",
                "--variant",
                "isolo-boys",
                "--method",
                "retro",
                "--nodes",
                "9",
            ]
            .map(String::from)
            .to_vec(),
            "--nodes limits df-pn",
        ),
        (
            [
                "solve",
                "--variant",
                "isolo-boys",
                "--method",
                "dfpn",
                "--resume",
                &junk,
            ]
            .map(String::from)
            .to_vec(),
            "not a saved df-pn search",
        ),
    ] {
        let out = isolo(&bad.iter().map(String::as_str).collect::<Vec<_>>());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Retrograde analysis ends its lines at dead positions (`dead_position`) as the rules
/// do. Counted, South wins by taking two of North's three seeds, leaving a lone one to
/// be outcounted, and the checker confirms the win through those dead positions. Drawn,
/// a dead position is a leaf of a side's set, and the sets check; read under counting
/// instead, North's set holds dead positions it loses, and the checker says so. The
/// indexed analysis, whose labels cannot count seeds, refuses counted dead positions.
#[test]
fn retrograde_ends_dead_positions_as_the_rules_say() {
    use isolo_engine::prove::retrograde::indexed::{self, IndexedError, IndexedLimits};
    use isolo_engine::prove::retrograde::{solve as retro, RetroLimits, RetroVerdict};
    use isolo_rules::{DeadPosition, Rules};
    let under = |ending| {
        let rules = Rules::preset("igisoro")
            .unwrap()
            .to_builder()
            .dead_position(ending)
            .build();
        Variant::new(rules.unwrap()).unwrap()
    };
    let limits = RetroLimits {
        positions: 300_000,
        time: None,
        strategy: true,
        interrupt: None,
    };
    let counted = under(DeadPosition::Count);
    let three = "1,0,0,0,1,0,0,0/1,0,0,0,0,0,0,0/2,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
    let board = counted.parse_position(three).unwrap();
    let result = retro(&counted, &board, limits);
    assert_eq!(result.verdict, RetroVerdict::Win);
    let strategy = result.strategy.unwrap();
    check(&certificate(&counted, &board, Side::South, None, strategy)).unwrap();

    let drawn = under(DeadPosition::Draw);
    let two = "1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/3,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
    let board = drawn.parse_position(two).unwrap();
    let result = retro(&drawn, &board, limits);
    assert_eq!(
        (result.verdict, result.complete),
        (RetroVerdict::Draw, true)
    );
    let holds = result.holds.unwrap();
    let dead_leaves = holds[Side::North as usize]
        .iter()
        .filter(|(b, _)| drawn.dead_side(b).is_some())
        .count();
    assert!(dead_leaves > 0);
    let mut draw = DrawCertificate {
        rules: drawn.rules().clone(),
        start: board,
        moves: Vec::new(),
        holds,
    };
    check_draw(&draw).unwrap();
    draw.rules = counted.rules().clone();
    let refused = check_draw(&draw).err().unwrap().to_string();
    assert!(
        refused.contains("a dead position the rules end in its loss"),
        "{refused}"
    );

    let indexed_limits = IndexedLimits {
        memory: 64 << 20,
        time: None,
        scratch: std::env::temp_dir(),
        sweeps_only: false,
        interrupt: None,
    };
    let board = counted.parse_position(three).unwrap();
    let refusal = indexed::solve(&counted, &board, &indexed_limits, &|_| {});
    assert!(matches!(refusal, Err(IndexedError::CountedDeadPositions)));
}

/// Under the retreat a strategy is the winner's (or the holder's) decisions in both
/// sides' moves: df-pn's, the alpha-beta prover's and the retrograde analysis' proofs
/// of small retreat games write certificates that check, as do the retrograde draws;
/// dropping any line that gives an answer of the winner's in the loser's moves is
/// refused, naming the decision left out; the alpha-beta prover's lines verify.
#[test]
fn proofs_under_the_retreat_write_certificates_of_the_winners_answers_that_check() {
    use crate::search::{retreat_positions, RETREAT_HORIZON};
    use isolo_engine::prove::retrograde::{solve as retro, RetroLimits, RetroVerdict};
    let dfpn_limits = DfpnLimits {
        nodes: 50_000,
        time: None,
        max_depth: RETREAT_HORIZON,
        table_entries: 1 << 16,
        strategy: true,
        threads: 1,
        interrupt: None,
        sought: Sought::Either,
    };
    let retro_limits = RetroLimits {
        positions: 60_000,
        time: None,
        strategy: true,
        interrupt: None,
    };
    let (mut certified, mut draws, mut answer_lines, mut verified) = (0, 0, 0, 0);
    for (variant, board) in retreat_positions(60, 0x7e7e) {
        let position = variant.format_position(&board);
        let mut strategies = Vec::new();
        let proof = solve(&variant, &board, &[], dfpn_limits, &|_| {});
        let dfpn_winner = match proof.verdict {
            DfpnVerdict::Win => Some(board.to_move()),
            DfpnVerdict::Loss => Some(board.to_move().opponent()),
            DfpnVerdict::Unknown => None,
        };
        if let (Some(winner), Some(Ok(strategy))) = (dfpn_winner, proof.strategy) {
            strategies.push(("df-pn", winner, strategy));
        }
        let mut prover = Prover::new(&variant, 1, 16).unwrap();
        let ab = prover.solve(&board, &[], RETREAT_HORIZON, None);
        let ab_winner = match ab.verdict {
            AbVerdict::Win(_) => Some(board.to_move()),
            AbVerdict::Loss(_) => Some(board.to_move().opponent()),
            AbVerdict::Unknown => None,
        };
        if let Some(winner) = ab_winner {
            prover
                .verify(&board, &[], ab.verdict, &ab.pv)
                .unwrap_or_else(|e| panic!("{position}: verify: {e}"));
            verified += 1;
            let tree = prover.proof(&board, &[], ab.verdict, 100_000).unwrap();
            strategies.push(("alpha-beta", winner, tree.strategy));
        }
        let result = retro(&variant, &board, retro_limits);
        match result.verdict {
            RetroVerdict::Win | RetroVerdict::Loss => {
                let winner = if result.verdict == RetroVerdict::Win {
                    board.to_move()
                } else {
                    board.to_move().opponent()
                };
                strategies.push(("retro", winner, result.strategy.unwrap()));
            }
            RetroVerdict::Draw => {
                let draw = DrawCertificate {
                    rules: variant.rules().clone(),
                    start: board,
                    moves: Vec::new(),
                    holds: result.holds.unwrap(),
                };
                check_draw(&draw).unwrap_or_else(|e| panic!("{position}: draw: {e}"));
                draws += 1;
            }
            RetroVerdict::Unknown => {}
        }
        for (prover, winner, strategy) in strategies {
            let c = round_trip(&certificate(&variant, &board, winner, None, strategy));
            check(&c).unwrap_or_else(|e| panic!("{position}: {prover}: {e}"));
            certified += 1;
            // The winner's answers in the loser's moves: each line is needed.
            let answers: Vec<usize> = (0..c.strategy.len())
                .filter(|&i| c.strategy[i].0.to_move() != winner)
                .collect();
            for i in answers.into_iter().take(3) {
                let mut cut = round_trip(&c);
                let (dropped, mv) = cut.strategy.remove(i);
                let refused = check(&cut).expect_err("a certificate without an answer");
                assert!(
                    refused.to_string().contains("no decision is given"),
                    "{position}: {prover}: without {mv} at {}: {refused}",
                    variant.format_position(&dropped)
                );
                answer_lines += 1;
            }
        }
    }
    println!(
        "{certified} certificates, {draws} draws, {answer_lines} answer lines dropped, \
         {verified} lines verified"
    );
    assert!(verified >= 30, "{verified}");
    assert!(
        certified >= 40 && draws >= 3 && answer_lines >= 5,
        "{certified} {draws} {answer_lines}"
    );
}
