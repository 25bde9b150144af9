//! The fast board against the plain reference of `tests/common/reference.rs`: the same
//! legal moves, in the same order, with the same results, laps and captures, on random
//! reachable positions of the presets and of random rules files.

mod common;

use common::reference::{self, RefMove};
use common::{random_rules, to_reference, Rng};
use isolo_ai::rules::{Board, MoveGen, Variant};
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
    game_ends: usize,
}

/// Walks a random game of up to `plies` plies, comparing every position on the way.
fn compare_along_random_game(variant: &Variant, rng: &mut Rng, plies: usize, seen: &mut Coverage) {
    let mut board = variant.start();
    for ply in 0..=plies {
        let expected = reference::legal_moves(variant.rules(), &to_reference(variant, &board));
        let actual = fast_moves(variant, &board);
        seen.positions += 1;
        seen.captures += actual.iter().filter(|m| m.captured > 0).count();
        seen.passes += actual.iter().filter(|m| m.text.contains('p')).count();
        seen.relays += actual.iter().filter(|m| m.laps > 1).count();
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
        if actual.is_empty() {
            seen.game_ends += 1;
            return;
        }
        let moves = variant.legal_moves(&board);
        board = moves[rng.below(moves.len() as u64) as usize].child;
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
        seen.captures > 1000 && seen.passes > 100 && seen.relays > 1000 && seen.game_ends > 50,
        "{seen:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_rules_and_games_match_the_reference(seed in any::<u64>(), plies in 0usize..80) {
        let mut rng = Rng(seed);
        let variant = Variant::new(random_rules(&mut rng)).unwrap();
        compare_along_random_game(&variant, &mut rng, plies, &mut Coverage::default());
    }
}

#[test]
fn the_reference_itself_matches_the_perft_table() {
    for (name, expected) in [("isolo-women", 1311), ("isolo-boys", 292), ("igisoro", 623)] {
        let variant = Variant::load(name).unwrap();
        let start = to_reference(&variant, &variant.start());
        assert_eq!(
            reference::perft(variant.rules(), &start, 3),
            expected,
            "{name}"
        );
    }
}
