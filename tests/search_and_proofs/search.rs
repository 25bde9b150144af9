//! The searchers: exact proven results (checked against brute force), agreement between
//! alpha-beta and MCTS, legal moves only, and reproducible runs.

use crate::common;
use isolo_rules::Listing;

use common::{brute_force, known_within, small_positions, Known, Rng};
use isolo_engine::eval::{Evaluator, Weights, EVAL_LIMIT, FEATURES, MAX_WEIGHT};
use isolo_engine::search::alphabeta::{AlphaBeta, AlphaBetaConfig, ChoiceWalk, QuiescenceMoves};
use isolo_engine::search::mcts::{Mcts, MctsConfig, Playout};
use isolo_engine::search::{Limits, Score, SearchRequest, SearchResult, Searcher};
use isolo_rules::{Board, CaptureChoice, MoveGen, Variant};

fn search(
    searcher: &mut dyn Searcher,
    variant: &Variant,
    board: Board,
    limits: Limits,
) -> SearchResult {
    let request = SearchRequest {
        variant,
        board,
        history: Vec::new(),
        quiet_plies: 0,
        limits,
        multipv: 1,
        pv_lines: usize::MAX,
        stop: None,
    };
    searcher.search(&request, &mut |_| {})
}

fn alpha_beta() -> AlphaBeta {
    AlphaBeta::new(AlphaBetaConfig {
        threads: 1,
        hash_mb: 4,
        ..AlphaBetaConfig::default()
    })
    .unwrap()
}

fn mcts(seed: u64) -> Mcts {
    Mcts::new(MctsConfig {
        seed,
        ..MctsConfig::default()
    })
}

fn best_score(result: &SearchResult) -> Score {
    result.best().expect("a move").score
}

const HORIZON: u32 = 7;

/// Alpha-beta with every pit's moves walked a take/pass choice at a time.
fn walking_alpha_beta() -> AlphaBeta {
    AlphaBeta::new(AlphaBetaConfig {
        threads: 1,
        hash_mb: 4,
        walk: ChoiceWalk::All,
        ..AlphaBetaConfig::default()
    })
    .unwrap()
}

#[test]
fn alpha_beta_proofs_match_brute_force_exactly() {
    let mut proven = 0;
    let mut walked = 0;
    for (variant, board) in small_positions(150, 0xab, 3) {
        let truth = known_within(&variant, &board, HORIZON);
        let limits = Limits {
            depth: Some(HORIZON),
            ..Limits::default()
        };
        let optional = variant.rules().capture_choice() == CaptureChoice::Optional;
        let mut searchers = vec![alpha_beta()];
        if optional {
            // Choice points' own table entries, stored apart from the path, must keep
            // proofs exact too.
            searchers.push(walking_alpha_beta());
            walked += 1;
        }
        for mut searcher in searchers {
            let score = best_score(&search(&mut searcher, &variant, board, limits));
            let position = variant.format_position(&board);
            match truth {
                Known::Win(n) => assert_eq!(
                    score,
                    Score::Win(n),
                    "{position}\n{}",
                    variant.rules().to_toml()
                ),
                Known::Loss(n) => assert_eq!(
                    score,
                    Score::Loss(n),
                    "{position}\n{}",
                    variant.rules().to_toml()
                ),
                Known::Open => assert!(
                    !score.is_proven(),
                    "{position}: claimed {score} beyond proof"
                ),
            }
        }
        proven += matches!(truth, Known::Win(_) | Known::Loss(_)) as usize;
    }
    assert!(proven > 30, "only {proven} proven positions exercised");
    assert!(
        walked > 20,
        "only {walked} positions with optional captures"
    );
}

#[test]
fn mcts_proofs_agree_with_brute_force_and_alpha_beta() {
    let mut compared = 0;
    for (variant, board) in small_positions(60, 0x3c75, 3) {
        let truth = known_within(&variant, &board, HORIZON);
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let position = variant.format_position(&board);
        let optional = variant.rules().capture_choice() == CaptureChoice::Optional;
        let mut searchers = vec![mcts(1)];
        if optional {
            // Every pit walked choice by choice, each choice a node of its own.
            searchers.push(Mcts::new(MctsConfig {
                seed: 1,
                walk: ChoiceWalk::All,
                ..MctsConfig::default()
            }));
        }
        for mut searcher in searchers {
            let result = search(&mut searcher, &variant, board, limits);
            let best = result.best().expect("a move");
            assert!(variant.play_move(&board, &best.mv).is_some(), "{}", best.mv);
            let score = best.score;
            let position = variant.format_position(&board);
            match score {
                // A win through the best move found so far: no shorter one may exist unless
                // the root is solved, when it is the shortest.
                Score::Win(n) if n <= HORIZON => {
                    assert!(
                        matches!(truth, Known::Win(m) if m <= n),
                        "{position}: mcts {score}, truth {truth:?}"
                    );
                    compared += 1;
                }
                // Every move loses: the root is solved, so the defence is the longest.
                Score::Loss(n) if n <= HORIZON => {
                    assert_eq!(truth, Known::Loss(n), "{position}");
                    compared += 1;
                }
                _ => {}
            }
        }
        if let Known::Win(n) | Known::Loss(n) = truth {
            // Alpha-beta searched deep enough finds exactly the same.
            let ab = best_score(&search(
                &mut alpha_beta(),
                &variant,
                board,
                Limits {
                    depth: Some(n.max(1)),
                    ..Limits::default()
                },
            ));
            assert!(
                ab == Score::Win(n) || ab == Score::Loss(n),
                "{position}: ab {ab}, truth {truth:?}"
            );
        }
    }
    assert!(compared > 10, "only {compared} MCTS proofs compared");
}

#[test]
fn both_engines_find_the_womens_forced_win_in_five() {
    let women = Variant::load("isolo-women").unwrap();
    let start = women.start();
    assert_eq!(known_within(&women, &start, 5), Known::Win(5));
    let ab = search(
        &mut alpha_beta(),
        &women,
        start,
        Limits {
            depth: Some(12),
            ..Limits::default()
        },
    );
    assert_eq!(best_score(&ab), Score::Win(5));
    assert_eq!(
        ab.best().unwrap().pv.len(),
        5,
        "the line reaches the end of the game"
    );
    let mc = search(
        &mut mcts(7),
        &women,
        start,
        Limits {
            nodes: Some(200_000),
            ..Limits::default()
        },
    );
    assert_eq!(best_score(&mc), Score::Win(5));
}

#[test]
fn a_proven_line_ends_the_game() {
    let boys = Variant::load("isolo-boys").unwrap();
    let result = search(
        &mut alpha_beta(),
        &boys,
        boys.start(),
        Limits {
            depth: Some(16),
            ..Limits::default()
        },
    );
    let best = result.best().unwrap();
    let Score::Win(plies) = best.score else {
        panic!("boys' start is a forced win, got {}", best.score)
    };
    assert_eq!(best.pv.len() as u32, plies);
    let mut board = boys.start();
    for mv in &best.pv {
        board = boys.play_text(&board, &mv.to_string()).unwrap().child;
    }
    assert_eq!(boys.winner(&board), Some(isolo_rules::Side::South));
}

#[test]
fn engines_only_return_legal_moves() {
    let mut rng = Rng(0x1e9a1);
    for name in isolo_rules::PRESETS {
        let variant = Variant::load(name).unwrap();
        let mut board = variant.start();
        for _ in 0..12 {
            let legal = variant.legal_moves(&board);
            if legal.is_empty() {
                break;
            }
            for result in [
                search(
                    &mut alpha_beta(),
                    &variant,
                    board,
                    Limits {
                        nodes: Some(3000),
                        ..Limits::default()
                    },
                ),
                search(
                    &mut mcts(rng.next()),
                    &variant,
                    board,
                    Limits {
                        nodes: Some(300),
                        ..Limits::default()
                    },
                ),
            ] {
                let best = result.best().expect("a move");
                assert!(
                    legal.iter().any(|m| m.mv == best.mv),
                    "{name}: {} is not legal",
                    best.mv
                );
                // The line is playable from the position.
                let mut b = board;
                for mv in &best.pv {
                    b = variant.play_text(&b, &mv.to_string()).unwrap().child;
                }
            }
            board = legal[rng.below(legal.len() as u64) as usize].child;
        }
    }
}

#[test]
fn same_seed_and_limits_give_the_same_search() {
    let igisoro = Variant::load("igisoro").unwrap();
    let start = igisoro.start();
    let summary = |r: &SearchResult| {
        (
            r.best().unwrap().mv.clone(),
            r.best().unwrap().score,
            r.best().unwrap().pv.clone(),
            r.nodes,
            r.depth,
        )
    };
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let a = search(&mut alpha_beta(), &igisoro, start, limits);
    let b = search(&mut alpha_beta(), &igisoro, start, limits);
    assert_eq!(summary(&a), summary(&b));
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let a = search(&mut mcts(42), &igisoro, start, limits);
    let b = search(&mut mcts(42), &igisoro, start, limits);
    assert_eq!(summary(&a), summary(&b));
}

#[test]
fn lines_past_pv_lines_carry_their_move_alone() {
    let women = Variant::load("isolo-women").unwrap();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let request = |pv_lines| SearchRequest {
        variant: &women,
        board: women.start(),
        history: Vec::new(),
        quiet_plies: 0,
        limits,
        multipv: 16,
        pv_lines,
        stop: None,
    };
    let all = alpha_beta().search(&request(usize::MAX), &mut |_| {});
    let named = alpha_beta().search(&request(2), &mut |_| {});
    assert_eq!(named.lines.len(), all.lines.len());
    for (k, (short, full)) in named.lines.iter().zip(&all.lines).enumerate() {
        assert_eq!((&short.mv, short.score), (&full.mv, full.score), "line {k}");
        if k < 2 {
            assert_eq!(short.pv, full.pv, "line {k}");
        } else {
            assert_eq!(short.pv, std::slice::from_ref(&short.mv), "line {k}");
        }
    }
    assert!(
        all.lines[2].pv.len() > 1,
        "a full line goes on past its move"
    );
}

#[test]
fn multipv_scores_every_move_exactly() {
    let women = Variant::load("isolo-women").unwrap();
    let request = SearchRequest {
        variant: &women,
        board: women.start(),
        history: Vec::new(),
        quiet_plies: 0,
        limits: Limits {
            depth: Some(5),
            ..Limits::default()
        },
        multipv: 16,
        pv_lines: usize::MAX,
        stop: None,
    };
    let result = alpha_beta().search(&request, &mut |_| {});
    assert_eq!(result.lines.len(), 16);
    let mut gen = MoveGen::new();
    for line in &result.lines {
        let child = women
            .play_text(&women.start(), &line.mv.to_string())
            .unwrap()
            .child;
        // The line's score is the negation of the child's exact value within 4 plies.
        let truth = match brute_force(&women, &child, 4, &mut vec![women.start().hash()], &mut gen)
        {
            Known::Loss(n) => Some(Score::Win(n + 1)),
            Known::Win(n) => Some(Score::Loss(n + 1)),
            Known::Open => None,
        };
        match truth {
            Some(score) => assert_eq!(line.score, score, "move {}", line.mv),
            None => assert!(!line.score.is_proven(), "move {}: {}", line.mv, line.score),
        }
    }
    let values: Vec<i32> = result.lines.iter().map(|l| l.score.value()).collect();
    assert!(
        values.windows(2).all(|w| w[0] >= w[1]),
        "best first: {values:?}"
    );
}

#[test]
fn lazy_smp_finds_the_same_proof() {
    let boys = Variant::load("isolo-boys").unwrap();
    let mut parallel = AlphaBeta::new(AlphaBetaConfig {
        threads: 2,
        hash_mb: 8,
        ..AlphaBetaConfig::default()
    })
    .unwrap();
    let result = search(
        &mut parallel,
        &boys,
        boys.start(),
        Limits {
            depth: Some(16),
            ..Limits::default()
        },
    );
    assert_eq!(best_score(&result), Score::Win(15));
}

#[test]
fn both_mcts_parallel_modes_prove_the_womens_win() {
    use isolo_engine::search::mcts::Parallelism;
    let women = Variant::load("isolo-women").unwrap();
    for parallel in [Parallelism::Root, Parallelism::Tree] {
        let mut searcher = Mcts::new(MctsConfig {
            threads: 2,
            seed: 5,
            parallel,
            ..MctsConfig::default()
        });
        let result = search(
            &mut searcher,
            &women,
            women.start(),
            Limits {
                nodes: Some(200_000),
                ..Limits::default()
            },
        );
        assert_eq!(best_score(&result), Score::Win(5), "{parallel:?}");
    }
}

#[test]
fn a_tiny_budget_still_completes_the_first_iteration() {
    for name in isolo_rules::PRESETS {
        let variant = Variant::load(name).unwrap();
        let limits = Limits {
            nodes: Some(1),
            ..Limits::default()
        };
        for result in [
            search(&mut alpha_beta(), &variant, variant.start(), limits),
            search(&mut mcts(2), &variant, variant.start(), limits),
        ] {
            let best = result.best().expect("an answer");
            assert!(
                !best.score.is_proven()
                    || matches!(best.score, Score::Win(n) | Score::Loss(n) if n < 100),
                "{name}: {}",
                best.score
            );
            assert!(variant
                .legal_moves(&variant.start())
                .iter()
                .any(|m| m.mv == best.mv));
        }
    }
}

/// Igisoro with captures resown from the capture pit: five plies from the start, North
/// has 89 million legal take/pass sequences here (hundreds of thousands of distinct
/// results).
const VAST_POSITION: &str = "2,3,10,1,6,1,2,1/1,2,1,2,3,2,0,6/0,0,2,1,1,2,1,0/2,0,1,1,1,7,1,1 N";

fn capture_pit_igisoro() -> Variant {
    let mut rules = isolo_rules::Rules::preset("igisoro").unwrap().to_builder();
    rules.capture_sow_from(isolo_rules::SowOrigin::CapturePit);
    Variant::new(rules.build().unwrap()).unwrap()
}

#[test]
fn vast_move_lists_are_cut_for_listings_and_walked_whole_by_alpha_beta() {
    let variant = capture_pit_igisoro();
    let board = variant.parse_position(VAST_POSITION).unwrap();
    let (moves, truncated) = isolo_engine::search::searched_moves(&variant, &board);
    assert!(truncated, "the point limit binds here");
    let pits: std::collections::BTreeSet<u8> = moves.iter().map(|m| m.mv.pit).collect();
    let mut legal_pits = std::collections::BTreeSet::new();
    let mut first_moves = MoveGen::with_point_limit(1);
    variant.visit_moves(
        &board,
        Variant::ALL_PITS,
        Listing::Results,
        &mut first_moves,
        |m| {
            legal_pits.insert(m.pit);
        },
    );
    assert_eq!(pits, legal_pits, "every pit with a legal move keeps one");
    assert!(pits.len() >= 6, "{pits:?}");
    for m in &moves {
        assert_eq!(variant.play_move(&board, &m.mv).as_ref(), Some(m));
    }
    // Alpha-beta walks the vast pits' moves a choice at a time, so its limits hold
    // from the start (a full first iteration would take minutes); MCTS searches the
    // cut list.
    for searcher in [
        &mut alpha_beta() as &mut dyn Searcher,
        &mut mcts(3) as &mut dyn Searcher,
    ] {
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let result = search(searcher, &variant, board, limits);
        let best = result.best().expect("a move");
        let played = variant.play_move(&board, &best.mv);
        assert!(played.is_some(), "{}", best.mv);
        assert!(!best.score.is_proven(), "{:?}", best.score);
        assert!(result.nodes < 100_000, "{} nodes", result.nodes);
    }
}

/// Every weight at one extreme or the other, and mixed.
fn extreme_weights() -> Vec<Weights> {
    let all = |w: i32| Weights::from_vector(&[w; FEATURES]);
    vec![
        all(MAX_WEIGHT),
        all(-MAX_WEIGHT),
        Weights {
            seeds: MAX_WEIGHT,
            exposed: -MAX_WEIGHT,
            ..Weights::default()
        },
        Weights {
            strike: MAX_WEIGHT,
            counter: -MAX_WEIGHT,
            pits: vec![MAX_WEIGHT, -MAX_WEIGHT, MAX_WEIGHT],
            ..Weights::default()
        },
    ]
}

#[test]
fn extreme_weights_never_change_a_proven_claim() {
    for (variant, board) in small_positions(40, 0xe7, 3) {
        let truth = known_within(&variant, &board, HORIZON);
        for (i, weights) in extreme_weights().into_iter().enumerate() {
            let eval = Evaluator::new(&variant, weights.clone());
            assert!(eval.evaluate(&board).abs() <= EVAL_LIMIT);
            let mut ab = AlphaBeta::new(AlphaBetaConfig {
                threads: 1,
                hash_mb: 4,
                weights: Some(weights.clone()),
                // Both quiescence move sets, in turn.
                quiescence_moves: if i % 2 == 0 {
                    QuiescenceMoves::AllCaptures
                } else {
                    QuiescenceMoves::FirstLap
                },
                ..AlphaBetaConfig::default()
            })
            .unwrap();
            let limits = Limits {
                depth: Some(HORIZON),
                ..Limits::default()
            };
            let score = best_score(&search(&mut ab, &variant, board, limits));
            let mut mcts = Mcts::new(MctsConfig {
                weights: Some(weights.clone()),
                playout: Playout::Cut(2),
                ..MctsConfig::default()
            });
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
            let mcts_score = best_score(&search(&mut mcts, &variant, board, limits));
            let position = variant.format_position(&board);
            match truth {
                Known::Win(n) => assert_eq!(score, Score::Win(n), "{position} {weights:?}"),
                Known::Loss(n) => assert_eq!(score, Score::Loss(n), "{position} {weights:?}"),
                Known::Open => assert!(!score.is_proven(), "{position}: ab claimed {score}"),
            }
            if let Score::Win(n) | Score::Loss(n) = mcts_score {
                if n <= HORIZON {
                    assert!(
                        matches!(truth, Known::Win(m) | Known::Loss(m) if m <= n),
                        "{position}: mcts {mcts_score} with {weights:?}, truth {truth:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn weights_beyond_the_bound_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("isolo-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.toml");
    std::fs::write(&path, "seeds = 50000\n").unwrap();
    let err = Weights::load(&path).unwrap_err();
    assert!(
        err.reason
            .contains("weight `seeds` = 50000 is out of range"),
        "{err}"
    );
    std::fs::write(&path, "threats = -2147483648\n").unwrap();
    assert!(Weights::load(&path)
        .unwrap_err()
        .reason
        .contains("`threats`"));
    std::fs::write(&path, "seeds = 1\nbogus = 3\n").unwrap();
    let err = Weights::load(&path).unwrap_err();
    assert!(err.reason.contains("line 2"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions where two pits' moves reach one position (Igisoro's optional captures make
/// them common), from random games under the preset and the capture-pit reading.
fn positions_with_shared_results(count: usize) -> Vec<(Variant, Board)> {
    let mut rng = Rng(0x5ade);
    let mut out = Vec::new();
    for variant in [Variant::load("igisoro").unwrap(), capture_pit_igisoro()] {
        let mut found = 0;
        for _ in 0..300 {
            let mut board = variant.start();
            for _ in 0..120 {
                // Each pit's distinct results, before the shared list merges them.
                let gen = &mut isolo_engine::search::move_generator();
                let moves = variant.distinct_moves_with(&board, gen);
                if moves.is_empty() {
                    break;
                }
                let distinct: std::collections::HashSet<u64> =
                    moves.iter().map(|m| m.child.hash()).collect();
                if distinct.len() < moves.len() && moves.len() < 400 && found < count {
                    let (shared, _) = isolo_engine::search::searched_moves(&variant, &board);
                    assert_eq!(shared.len(), distinct.len(), "one move per position");
                    out.push((variant.clone(), board));
                    found += 1;
                }
                board = moves[rng.below(moves.len() as u64) as usize].child;
            }
        }
        eprintln!("{}: {found} positions with shared results", variant.name());
    }
    assert!(!out.is_empty(), "no position with shared results found");
    out
}

/// Every line of a multi-PV search starts with its own move and replays legally.
fn assert_lines_start_with_their_moves(variant: &Variant, board: &Board, result: &SearchResult) {
    let position = variant.format_position(board);
    for line in &result.lines {
        assert_eq!(
            line.pv.first(),
            Some(&line.mv),
            "{position}: {} line {:?}",
            result.engine,
            line.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()
        );
        let mut b = *board;
        for mv in &line.pv {
            b = variant
                .play_move(&b, mv)
                .unwrap_or_else(|| panic!("{position}: {mv} in the line is illegal"))
                .child;
        }
    }
}

#[test]
fn every_multipv_line_starts_with_its_move() {
    let mut cases = positions_with_shared_results(6);
    cases.extend(small_positions(20, 0x1e5, 3));
    for (variant, board) in cases {
        let searchers: [(Box<dyn Searcher>, Limits); 2] = [
            (
                Box::new(alpha_beta()),
                Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
            ),
            (
                Box::new(mcts(7)),
                Limits {
                    nodes: Some(2_000),
                    ..Limits::default()
                },
            ),
        ];
        for (mut searcher, limits) in searchers {
            let request = SearchRequest {
                variant: &variant,
                board,
                history: Vec::new(),
                quiet_plies: 0,
                limits,
                multipv: usize::MAX,
                pv_lines: usize::MAX,
                stop: None,
            };
            let result = searcher.search(&request, &mut |_| {});
            assert!(!result.lines.is_empty());
            assert_lines_start_with_their_moves(&variant, &board, &result);
        }
    }
}

/// On a clock (a target well below the hard limit), both searchers stop near the target
/// on a position they cannot prove, and at once on one they prove.
#[test]
fn clocked_searches_stop_near_their_target() {
    let igisoro = Variant::load("igisoro").unwrap();
    let clock = isolo_engine::search::clock::Clock {
        left: std::time::Duration::from_secs(100),
        increment: std::time::Duration::ZERO,
    };
    let mut limits = clock.limits(Limits::default());
    limits.soft_time = Some(std::time::Duration::from_millis(20));
    // The hard limit is 30 s: stopping within a few targets shows the target at work.
    let searchers: [&mut dyn Searcher; 2] = [&mut alpha_beta(), &mut mcts(1)];
    for searcher in searchers {
        let result = search(searcher, &igisoro, igisoro.start(), limits);
        assert!(result.best().is_some());
        assert!(
            result.time < std::time::Duration::from_secs(5),
            "{}: {:?}",
            result.engine,
            result.time
        );
    }
    // The women's start is a proven win: a clocked search stops once it sees it.
    let women = Variant::load("isolo-women").unwrap();
    let result = search(&mut alpha_beta(), &women, women.start(), limits);
    assert!(matches!(best_score(&result), Score::Win(_)));
}

/// A shorter horizon than the others' for the retreat's brute force: each move is walked
/// sequence by sequence.
pub(crate) const RETREAT_HORIZON: u32 = 5;

/// Small boards with the retreat: two columns, optional captures, a few seeds, half of
/// them with clockwise laps.
pub(crate) fn retreat_positions(count: usize, seed: u64) -> Vec<(Variant, Board)> {
    use isolo_rules::{CaptureCondition, Retreat, Rules, SowOrigin};
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut rules = Rules::preset("igisoro").unwrap().to_builder();
        rules
            .columns(2)
            .retreat(Retreat::FrontToBack)
            .max_laps(20)
            .capture(rng.pick(&[CaptureCondition::Any, CaptureCondition::Both]))
            .capture_sow_from(rng.pick(&[SowOrigin::TurnStart, SowOrigin::LapStart]));
        if rng.chance(50) {
            // Clockwise laps too, from one pit (with more, each answer and direction
            // doubling a turn's sequences, the brute force takes minutes).
            rules.clockwise_from(vec![1 + rng.below(4) as u8]);
        }
        let rows = common::rows_text(2, |_, _| rng.below(4) as u32);
        rules.start(isolo_rules::parse_rows(&rows, 2).unwrap());
        let Ok(variant) = rules.build().and_then(Variant::new) else {
            continue;
        };
        let board = variant.start();
        let moves = variant.legal_moves(&board);
        let answered = moves.iter().any(|m| m.mv.to_string().contains('r'));
        if answered && moves.len() < 40 {
            out.push((variant, board));
        }
    }
    out
}

/// Under the retreat the opponent answers each pass: the searchers' proofs match a
/// brute force that takes the answers at their worst for the mover (and differ, on some
/// positions, from one that lets the mover pick them).
#[test]
fn proofs_under_the_retreat_take_the_answers_as_the_opponents() {
    let (mut proven, mut differs) = (0, 0);
    for (variant, board) in retreat_positions(60, 0x7e7e) {
        let truth = common::brute_force_walked(&variant, &board, RETREAT_HORIZON, &mut Vec::new());
        differs += (truth != known_within(&variant, &board, RETREAT_HORIZON)) as usize;
        let position = format!(
            "{}\n{}",
            variant.format_position(&board),
            variant.rules().to_toml()
        );
        let limits = Limits {
            depth: Some(RETREAT_HORIZON),
            ..Limits::default()
        };
        for mut searcher in [alpha_beta(), walking_alpha_beta()] {
            let score = best_score(&search(&mut searcher, &variant, board, limits));
            match truth {
                Known::Win(n) => assert_eq!(score, Score::Win(n), "{position}"),
                Known::Loss(n) => assert_eq!(score, Score::Loss(n), "{position}"),
                Known::Open => assert!(!score.is_proven(), "{position}: claimed {score}"),
            }
        }
        let nodes = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let result = search(&mut mcts(1), &variant, board, nodes);
        let best = result.best().expect("a move");
        assert!(variant.play_move(&board, &best.mv).is_some(), "{}", best.mv);
        match best.score {
            Score::Win(n) if n <= RETREAT_HORIZON => {
                assert!(
                    matches!(truth, Known::Win(m) if m <= n),
                    "{position}: mcts {}",
                    best.score
                )
            }
            Score::Loss(n) if n <= RETREAT_HORIZON => {
                assert_eq!(truth, Known::Loss(n), "{position}")
            }
            _ => {}
        }
        proven += matches!(truth, Known::Win(_) | Known::Loss(_)) as usize;
    }
    eprintln!("{proven} proven, {differs} where the answers matter");
    assert!(proven > 30, "only {proven} proven positions");
    assert!(
        differs > 2,
        "the answers mattered in only {differs} positions"
    );
}

/// Alpha-beta ends a line where the long-game rule ends the game (RULES.md 3.6): one
/// ply before the limit every move of North's lone-seed position ends it, drawn, or
/// counted for South; with the count far from the limit the search evaluates.
#[test]
fn alpha_beta_sees_the_long_game_rule_end_the_game() {
    use isolo_rules::LongGameEnding;
    for (ending, near) in [
        (LongGameEnding::Draw, Score::Draw),
        (LongGameEnding::Count, Score::Eval(EVAL_LIMIT)),
    ] {
        let (variant, board) = lone_seed_under_the_long_game_rule(ending);
        let score = |quiet_plies| {
            let request = SearchRequest {
                variant: &variant,
                board,
                history: Vec::new(),
                quiet_plies,
                limits: Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                multipv: 1,
                pv_lines: usize::MAX,
                stop: None,
            };
            best_score(&alpha_beta().search(&request, &mut |_| {}))
        };
        assert_eq!(score(5), near, "{ending:?}");
        if ending == LongGameEnding::Draw {
            // Near the rule's draw (two plies from it) the evaluation is drawn toward it.
            let (Score::Eval(early), Score::Eval(late)) = (score(0), score(2)) else {
                panic!("evaluations far from the rule");
            };
            assert!(late.abs() < early.abs(), "{early} then {late}");
        }
        let far = score(0);
        assert!(
            matches!(far, Score::Eval(v) if v.abs() < EVAL_LIMIT),
            "{ending:?}: {far:?}"
        );
    }
}

/// MCTS ends a line where the long-game rule ends the game, as alpha-beta does: one ply
/// before the limit every move of South's ends it drawn (North's lone seed can never be
/// captured), so the root is solved a draw; with the count far from the limit it is not.
#[test]
fn mcts_sees_the_long_game_rule_end_the_game() {
    let (variant, board) = lone_seed_under_the_long_game_rule(isolo_rules::LongGameEnding::Draw);
    let score = |quiet_plies| {
        let request = SearchRequest {
            variant: &variant,
            board,
            history: Vec::new(),
            quiet_plies,
            limits: Limits {
                nodes: Some(2_000),
                ..Limits::default()
            },
            multipv: 1,
            pv_lines: usize::MAX,
            stop: None,
        };
        best_score(&mcts(1).search(&request, &mut |_| {}))
    };
    assert_eq!(score(5), Score::Draw);
    assert_ne!(score(0), Score::Draw);
}

/// Igisoro with a long-game rule of 6 plies ending as `ending` says (dead positions
/// played on), and a position where North holds one lone seed, South to move.
fn lone_seed_under_the_long_game_rule(ending: isolo_rules::LongGameEnding) -> (Variant, Board) {
    use isolo_rules::{DeadPosition, Rules};
    let lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";
    let mut rules = Rules::preset("igisoro").unwrap().to_builder();
    rules
        .dead_position(DeadPosition::PlayOn)
        .long_game_plies(6)
        .long_game_ending(ending);
    let variant = Variant::new(rules.build().unwrap()).unwrap();
    let board = variant.parse_position(lone).unwrap();
    (variant, board)
}
