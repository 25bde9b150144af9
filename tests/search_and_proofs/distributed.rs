//! The distributed retrograde analysis (threads as ranks) against the indexed one and
//! exhaustive minimax: the same positions, moves, cut lists and values on any number of
//! ranks, the same labels bit for bit, and each win's and loss's exact length.

use crate::common::{self, Known};
use isolo_engine::prove::retrograde::distributed::{
    self, DistributedError, DistributedLimits, DistributedResult,
};
use isolo_engine::prove::retrograde::indexed::{self, IndexedError, IndexedLimits};
use isolo_engine::prove::retrograde::RetroVerdict;
use isolo_rules::{pattern_start, Board, MoveGen, Variant};

fn on_ranks(variant: &Variant, board: &Board, ranks: usize) -> DistributedResult {
    distributed::solve_in_process(
        variant,
        board,
        ranks,
        &DistributedLimits::default(),
        &|_| {},
    )
    .unwrap()
}

/// The indexed analysis' result at `board`, where it can run.
fn indexed(variant: &Variant, board: &Board) -> Option<indexed::IndexedResult> {
    let limits = IndexedLimits {
        memory: 256 << 20,
        time: None,
        scratch: std::env::temp_dir(),
        sweeps_only: false,
        interrupt: None,
    };
    match indexed::solve(variant, board, &limits, &|_| {}) {
        Err(IndexedError::NoMemory { .. } | IndexedError::TooLarge(_)) => None,
        other => Some(other.unwrap()),
    }
}

/// The most positions a random game of the comparison may reach.
const MOST_REACHED: u64 = 300_000;

/// Plies exhaustive minimax looks ahead to confirm a length.
const HORIZON: u32 = 7;

#[test]
fn distributed_retrograde_agrees_with_the_indexed_analysis_on_any_number_of_ranks() {
    let mut compared = [0usize; 3];
    let mut lengths = 0;
    for (variant, board) in common::small_positions(80, 0xd157, 3) {
        if variant.has_retreat() {
            let refused = distributed::solve_in_process(
                &variant,
                &board,
                2,
                &DistributedLimits::default(),
                &|_| {},
            );
            assert_eq!(refused, Err(DistributedError::Retreat));
            continue;
        }
        // (Games of millions of positions take seconds a run: they are left to the
        // Igisoro boards below and to `.ci/run`.)
        let Some(expected) = indexed(&variant, &board).filter(|e| e.reached <= MOST_REACHED) else {
            continue;
        };
        let position = variant.format_position(&board);
        let one = on_ranks(&variant, &board, 1);
        assert_eq!(one.verdict, expected.verdict, "{position}: {one:?}");
        assert_eq!(
            (one.reached, one.edges, one.cut, one.index_size),
            (
                expected.reached,
                expected.edges,
                expected.cut,
                expected.index_size
            ),
            "{position}"
        );
        for ranks in 2..=4 {
            let many = on_ranks(&variant, &board, ranks);
            assert_eq!(
                DistributedResult { ranks: 1, ..many },
                one,
                "{position}: {ranks} ranks"
            );
        }
        // A win's or a loss's length is minimax's, where minimax sees the end.
        if let Some(plies) = one.plies.filter(|&p| p <= HORIZON) {
            let known = common::brute_force(
                &variant,
                &board,
                HORIZON,
                &mut Vec::new(),
                &mut MoveGen::new(),
            );
            let expected = match one.verdict {
                RetroVerdict::Win => Known::Win(plies),
                _ => Known::Loss(plies),
            };
            assert_eq!(known, expected, "{position}");
            lengths += 1;
        }
        compared[match one.verdict {
            RetroVerdict::Win => 0,
            RetroVerdict::Loss => 1,
            _ => 2,
        }] += 1;
    }
    println!("distributed retrograde: wins, losses, draws {compared:?}; lengths checked {lengths}");
    assert!(compared.iter().all(|&n| n > 0), "{compared:?}");
    assert!(lengths > 5, "{lengths}");
}

/// Igisoro's start on `columns` columns with `seeds` a pit of its pattern.
fn igisoro_board(columns: u8, seeds: u8) -> (Variant, Board) {
    let mut rules = Variant::load("igisoro").unwrap().rules().clone();
    rules.columns = columns;
    rules.start = pattern_start("igisoro", columns, seeds).unwrap();
    let variant = Variant::new(rules).unwrap();
    let board = variant.start();
    (variant, board)
}

/// Solves Igisoro's small board on 1 rank and on each of `ranks`, against the indexed
/// analysis: its value and counts, the same labels on every number of ranks.
fn same_on_every_rank_count(columns: u8, seeds: u8, ranks: &[usize]) {
    let (variant, board) = igisoro_board(columns, seeds);
    let started = std::time::Instant::now();
    let expected = indexed(&variant, &board).unwrap();
    println!("igisoro {columns}x{seeds}: indexed {:?}", started.elapsed());
    let started = std::time::Instant::now();
    let one = on_ranks(&variant, &board, 1);
    println!(
        "igisoro {columns}x{seeds}: 1 rank {:?}: {one:?}",
        started.elapsed()
    );
    assert_eq!(one.verdict, expected.verdict);
    let counts = (one.reached, one.edges, one.cut);
    assert_eq!(counts, (expected.reached, expected.edges, expected.cut));
    for &ranks in ranks {
        let started = std::time::Instant::now();
        let many = on_ranks(&variant, &board, ranks);
        println!(
            "igisoro {columns}x{seeds}: {ranks} ranks {:?}",
            started.elapsed()
        );
        assert_eq!(DistributedResult { ranks: 1, ..many }, one);
    }
}

#[test]
fn igisoro_on_three_columns_with_two_seeds_is_the_same_on_one_to_four_ranks() {
    same_on_every_rank_count(3, 2, &[3, 4]);
}

/// The milestones of docs/solving.md: 5 columns with 1 seed (16.7 M positions) and 3
/// with 3 (23.7 M) on 1, 2 and 4 ranks. Minutes; run by hand.
#[test]
#[ignore]
fn igisoros_milestone_boards_are_the_same_on_one_two_and_four_ranks() {
    for (columns, seeds) in [(5, 1), (3, 3)] {
        same_on_every_rank_count(columns, seeds, &[2, 4]);
    }
}
