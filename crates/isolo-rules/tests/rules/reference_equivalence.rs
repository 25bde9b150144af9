//! The fast board against the plain reference of `tests/support/reference.rs`: the same
//! legal moves, in the same order, with the same results, laps and captures, and the
//! same first laps (the evaluation's view of captures in reach), on random reachable
//! positions of the presets and of random rules files.

use crate::common;
use isolo_rules::Listing;

use common::reference::{self, RefMove};
use common::{random_rules, to_reference, Rng};
use std::collections::BTreeSet;

use isolo_rules::{Board, Choice, LegalMove, MoveGen, Rules, Side, SowOrigin, Variant};
use proptest::prelude::*;

/// The fast board's moves in the reference's terms.
fn fast_moves(variant: &Variant, board: &Board) -> Vec<RefMove> {
    variant
        .legal_moves(board)
        .into_iter()
        .map(|m| RefMove {
            text: m.mv.to_string(),
            result: variant.format_position(&m.child),
            laps: m.laps,
            captured: m.captured,
        })
        .collect()
}

/// What the compared positions exercised, so the test shows it reached every case.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    captures: usize,
    passes: usize,
    relays: usize,
    /// Legal moves with a lap sown clockwise.
    clockwise: usize,
    /// Legal moves whose position another move of the same pit reached first.
    merged: usize,
    game_ends: usize,
    /// Legal moves that win by `capture_win`.
    ends_captured: usize,
    /// Legal moves with a pass answered by a retreat (`retreat`).
    retreats: usize,
    /// Legal moves that leave a clockwise capture (`clockwise_leave`).
    leaves: usize,
}

/// Walks a random game of up to `plies` plies, comparing every position on the way.
fn compare_along_random_game(variant: &Variant, rng: &mut Rng, plies: usize, seen: &mut Coverage) {
    let mut board = variant.start();
    for ply in 0..=plies {
        let most = MOST_SEQUENCES_CHECKED + 1;
        if variant.count_moves_up_to(&board, &mut MoveGen::new(), most) == most {
            // Too many take/pass sequences to list twice.
            return;
        }
        let position = to_reference(variant, &board);
        for side in [Side::South, Side::North] {
            let laps = variant.first_laps(&board, side);
            assert_eq!(laps.capturing.count_ones(), laps.captures);
            assert_eq!(
                laps.capturing & !variant.candidate_pits_for(&board, side),
                0
            );
            assert_eq!(
                (laps.ends, laps.captures, laps.relays, laps.best_capture),
                reference::first_laps(variant.rules(), &position, side as usize),
                "{}: first laps of {side:?} in {}",
                variant.name(),
                variant.format_position(&board),
            );
        }
        let expected = reference::legal_moves(variant.rules(), &position);
        let actual = fast_moves(variant, &board);
        seen.positions += 1;
        seen.captures += actual.iter().filter(|m| m.captured > 0).count();
        seen.passes += actual.iter().filter(|m| m.text.contains('p')).count();
        seen.relays += actual.iter().filter(|m| m.laps > 1).count();
        seen.clockwise += actual.iter().filter(|m| m.text.contains('c')).count();
        seen.leaves += actual.iter().filter(|m| m.text.contains('l')).count();
        seen.retreats += actual.iter().filter(|m| m.text.contains('r')).count();
        assert_eq!(
            actual,
            expected,
            "{} ply {ply}: moves of {} (rules:\n{})",
            variant.name(),
            variant.format_position(&board),
            variant.rules().to_toml()
        );
        assert_eq!(variant.validate(&board), Ok(()));
        assert_eq!(
            variant.has_legal_move(&board, &mut MoveGen::new()),
            !actual.is_empty()
        );
        let moves = variant.legal_moves(&board);
        seen.ends_captured += moves.iter().filter(|m| m.child.ends_captured()).count();
        check_sides_alike(variant, &board, &moves);
        seen.merged += moves.len() - check_distinct_moves(variant, &board, &moves);
        check_play_move(variant, &board, &moves, rng);
        if actual.is_empty() {
            seen.game_ends += 1;
            return;
        }
        board = moves[rng.below(moves.len() as u64) as usize].child;
    }
}

/// The rules treat both players alike (the indexed retrograde analysis counts a
/// position and its exchange once): with the sides exchanged, the mover has the same
/// moves, in the same order, to the exchanged children.
fn check_sides_alike(variant: &Variant, board: &Board, moves: &[LegalMove]) {
    let swapped = board.swapped();
    assert_eq!(swapped.swapped(), *board);
    assert_eq!(variant.validate(&swapped), Ok(()));
    let moves_of = |moves: &[LegalMove], exchange: bool| -> Vec<(String, Board, u32)> {
        let child = |c: &Board| if exchange { c.swapped() } else { *c };
        let seen = moves
            .iter()
            .map(|m| (m.mv.to_string(), child(&m.child), m.captured));
        seen.collect()
    };
    assert_eq!(
        moves_of(&variant.legal_moves(&swapped), true),
        moves_of(moves, false),
        "{}: moves of {} exchanged",
        variant.name(),
        variant.format_position(board)
    );
}

/// The distinct moves reach exactly the positions the legal moves reach, once each per
/// pit, each by a legal move (`play_move` replays it to the same child, laps and
/// captures), whether sequences are listed first or the search goes breadth first at
/// once. Returns how many there are.
fn check_distinct_moves(variant: &Variant, board: &Board, moves: &[LegalMove]) -> usize {
    let key = |m: &LegalMove| (m.mv.pit, variant.format_position(&m.child));
    let expected: BTreeSet<(u8, String)> = moves.iter().map(key).collect();
    let mut count = 0;
    for small_listing_laps in [0, 512, u64::MAX] {
        let make_gen = || MoveGen::new().with_small_listing_laps(small_listing_laps);
        let distinct = variant.distinct_moves_with(board, &mut make_gen());
        let mut reached = BTreeSet::new();
        for m in &distinct {
            assert!(reached.insert(key(m)), "{} reached twice", m.mv);
            assert_eq!(
                variant.play_move(board, &m.mv).as_ref(),
                Some(m),
                "{}",
                m.mv
            );
        }
        assert_eq!(reached, expected, "{}", variant.format_position(board));
        let mut results = Vec::new();
        variant.visit_moves(
            board,
            Variant::ALL_PITS,
            Listing::Results,
            &mut make_gen(),
            |m| {
                assert!(m.choices.is_empty());
                results.push((m.pit, m.child, m.laps, m.captured));
            },
        );
        let listed: Vec<_> = distinct
            .iter()
            .map(|m| (m.mv.pit, m.child, m.laps, m.captured))
            .collect();
        assert_eq!(
            results, listed,
            "results without choices, in the same order"
        );
        count = distinct.len();
    }
    assert_eq!(variant.distinct_moves(board).len(), count);
    count
}

/// The other choice of the same decision.
fn flipped(choice: Choice) -> Choice {
    match choice {
        Choice::Take => Choice::Pass,
        Choice::Pass => Choice::Take,
        Choice::Anticlockwise => Choice::Clockwise,
        Choice::Clockwise => Choice::Anticlockwise,
        Choice::Retreat => Choice::Stay,
        Choice::Stay => Choice::Retreat,
        Choice::SowOn => Choice::Leave,
        Choice::Leave => Choice::SowOn,
    }
}

/// `play_move` finds every legal move and refuses moves that are not legal: a legal
/// move with a choice dropped, flipped or added.
fn check_play_move(variant: &Variant, board: &Board, moves: &[LegalMove], rng: &mut Rng) {
    for m in moves {
        assert_eq!(variant.play_move(board, &m.mv).as_ref(), Some(m));
    }
    let legal: BTreeSet<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    for m in moves.iter().take(20) {
        let mut changed = m.mv.clone();
        match rng.below(3) {
            0 => {
                changed.choices.pop();
            }
            1 if !changed.choices.is_empty() => {
                let at = rng.below(changed.choices.len() as u64) as usize;
                changed.choices[at] = flipped(changed.choices[at]);
            }
            _ => changed.choices.push(rng.pick(&[
                Choice::Take,
                Choice::Pass,
                Choice::Anticlockwise,
                Choice::Clockwise,
                Choice::SowOn,
                Choice::Leave,
            ])),
        }
        let played = variant.play_move(board, &changed);
        assert_eq!(
            played.is_some(),
            legal.contains(&changed.to_string()),
            "{changed} from {}",
            variant.format_position(board)
        );
    }
}

#[test]
fn ten_thousand_random_positions_match_the_reference() {
    let mut rng = Rng(0x5eed_1501);
    let mut seen = Coverage::default();
    let mut games = 0;
    while seen.positions < 10_000 {
        let variant = Variant::new(random_rules(&mut rng)).unwrap();
        compare_along_random_game(&variant, &mut rng, 60, &mut seen);
        games += 1;
    }
    eprintln!("{games} games, {seen:?}");
    assert!(
        games > 100,
        "positions come from many rule sets ({games} games)"
    );
    assert!(
        seen.captures > 1000
            && seen.passes > 100
            && seen.relays > 1000
            && seen.clockwise > 100
            && seen.ends_captured > 20
            && seen.retreats > 100
            && seen.game_ends > 50,
        "{seen:?}"
    );
}

#[test]
fn clockwise_leave_matches_the_reference_along_random_games() {
    let mut rng = Rng(0x1ea0_e001);
    for base in ["ikibuguzo", "ikibuguzo-opening-1"] {
        let variant = crate::perft::leaving(base);
        let mut seen = Coverage::default();
        for _game in 0..12 {
            compare_along_random_game(&variant, &mut rng, 80, &mut seen);
        }
        eprintln!("{base}: {seen:?}");
        assert!(seen.positions > 200 && seen.leaves > 20, "{base}: {seen:?}");
    }
}

#[test]
fn the_igisoro_family_presets_match_the_reference_along_random_games() {
    // Their 17-seed pits and lap-start-pit sowing, clockwise laps and wins by capture.
    let mut rng = Rng(0x1c1b_0650);
    for name in ["kubuguza", "ikibuguzo", "ikibuguzo-opening-1"] {
        let variant = Variant::load(name).unwrap();
        let mut seen = Coverage::default();
        for _game in 0..12 {
            compare_along_random_game(&variant, &mut rng, 80, &mut seen);
        }
        assert!(
            seen.positions > 200 && seen.captures > 100,
            "{name}: {seen:?}"
        );
    }
}

/// Most legal moves a position may have to be compared (the checks list them all).
const MOST_SEQUENCES_CHECKED: u64 = 20_000;

#[test]
fn distinct_moves_match_the_sequences_where_igisoro_has_many() {
    let mut rng = Rng(0x0161_50a0);
    let mut merged = 0;
    let mut positions = 0;
    // Each sowing origin, and the preset's with Kubuguza's clockwise pits.
    let readings = [
        (SowOrigin::TurnStart, vec![]),
        (SowOrigin::CapturePit, vec![]),
        (SowOrigin::LapStart, vec![]),
        (SowOrigin::TurnStart, vec![1, 8, 10, 15]),
    ];
    for (origin, clockwise_from) in readings {
        let mut rules = Rules::preset("igisoro").unwrap().to_builder();
        rules
            .capture_sow_from(origin)
            .clockwise_from(clockwise_from);
        let variant = Variant::new(rules.build().unwrap()).unwrap();
        for _game in 0..6 {
            let mut board = variant.start();
            for _ply in 0..40 {
                let mut gen = MoveGen::new();
                let most = MOST_SEQUENCES_CHECKED + 1;
                if variant.count_moves_up_to(&board, &mut gen, most) < most {
                    let moves = variant.legal_moves(&board);
                    merged += moves.len() - check_distinct_moves(&variant, &board, &moves);
                    positions += 1;
                }
                let distinct = variant.distinct_moves(&board);
                if distinct.is_empty() {
                    break;
                }
                board = distinct[rng.below(distinct.len() as u64) as usize].child;
            }
        }
    }
    assert!(
        positions > 300 && merged > 30,
        "{positions} positions, {merged} merged"
    );
}

proptest! {
    // A fixed seed keeps the suite reproducible; set PROPTEST_RNG_SEED to explore others.
    #![proptest_config(ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x0150_10a1),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_rules_and_games_match_the_reference(seed in any::<u64>(), plies in 0usize..80) {
        let mut rng = Rng(seed);
        let variant = Variant::new(random_rules(&mut rng)).unwrap();
        compare_along_random_game(&variant, &mut rng, plies, &mut Coverage::default());
    }
}

#[test]
fn the_reference_itself_matches_the_perft_table() {
    let presets = [
        ("isolo-women", 1311),
        ("isolo-boys", 292),
        ("igisoro", 623),
        ("kubuguza", 477),
        ("ikibuguzo", 653),
        ("ikibuguzo-opening-1", 177),
    ];
    for (name, expected) in presets {
        let variant = Variant::load(name).unwrap();
        let start = to_reference(&variant, &variant.start());
        assert_eq!(
            reference::perft(variant.rules(), &start, 3),
            expected,
            "{name}"
        );
    }
    // `clockwise_laps = "first-sowing"`, where it first differs from "any".
    for (base, depth, expected) in [("kubuguza", 3, 474), ("ikibuguzo", 4, 5035)] {
        let variant = crate::perft::first_sowing(base);
        let start = to_reference(&variant, &variant.start());
        assert_eq!(
            reference::perft(variant.rules(), &start, depth),
            expected,
            "{base}"
        );
    }
}
