//! Criterion benches of the rules layer: the cost of one move for each preset, and
//! perft depth 5 on isolo-women with the fast board and with the naive reference of
//! `crates/isolo-rules/tests/support/reference.rs`, so their ratio shows in one run; and, on Igisoro
//! positions with many take/pass sequences, listing every sequence against the
//! searchers' listing of distinct results.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use isolo_rules::perft;
use isolo_rules::Listing;
use isolo_rules::{Board, MoveGen, Side, Variant};

#[path = "../crates/isolo-rules/tests/support/reference.rs"]
mod reference;

/// Positions along a fixed line of play (the first legal move, then the last, ...), so
/// the bench sees openings and middle games alike.
fn sample_positions(variant: &Variant, count: usize) -> Vec<Board> {
    let mut board = variant.start();
    let mut positions = Vec::new();
    for ply in 0..count {
        let moves = variant.legal_moves(&board);
        if moves.is_empty() {
            board = variant.start();
            continue;
        }
        positions.push(board);
        board = moves[(ply * 7) % moves.len()].child;
    }
    positions
}

fn one_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("one move");
    for name in ["isolo-women", "isolo-boys", "igisoro"] {
        let variant = Variant::load(name).unwrap();
        let positions = sample_positions(&variant, 64);
        let mut gen = MoveGen::new();
        let moves: u64 = positions
            .iter()
            .map(|b| variant.count_moves(b, &mut gen))
            .sum();
        group.throughput(Throughput::Elements(moves));
        group.bench_with_input(
            BenchmarkId::from_parameter(name),
            &positions,
            |b, positions| {
                let mut children = Vec::new();
                b.iter(|| {
                    for board in positions {
                        children.clear();
                        variant.children(black_box(board), &mut gen, &mut children);
                    }
                    children.len()
                })
            },
        );
    }
    group.finish();
}

fn perft_women(c: &mut Criterion) {
    let variant = Variant::load("isolo-women").unwrap();
    let start = variant.start();
    let nodes = perft(&variant, &start, 5);
    let w = variant.columns() as usize;
    let side = |s| (1..=2 * w).map(|p| start.seeds(s, p) as u32).collect();
    let reference_start = reference::RefPosition {
        w,
        pits: [side(Side::South), side(Side::North)],
        to_move: 0,
        in_overture: [false, false],
        first_move: [false, false],
        lost: false,
    };
    assert_eq!(
        reference::perft(variant.rules(), &reference_start, 5),
        nodes
    );
    let mut group = c.benchmark_group("perft isolo-women depth 5");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("fast board", |b| {
        b.iter(|| perft(&variant, black_box(&start), 5))
    });
    group.bench_function("naive reference", |b| {
        b.iter(|| reference::perft(variant.rules(), black_box(&reference_start), 5))
    });
    group.finish();
}

/// Igisoro positions (capture-pit reading, four and five plies after "1 4") with 35,000
/// to 43,000 take/pass sequences each.
const MANY_SEQUENCES: [&str; 3] = [
    "1,2,1,1,5,3,2,1/4,7,2,1,7,2,3,6/1,0,2,1,1,3,1,0/1,0,1,1,2,1,0,1 N",
    "1,0,9,9,1,3,8,2/0,1,6,1,0,5,0,5/0,0,0,1,1,2,1,3/0,0,0,1,1,0,2,1 N",
    "0,6,0,1,2,1,6,2/2,7,0,0,4,5,4,1/3,1,3,1,0,3,0,2/1,1,0,2,1,2,1,2 N",
];

fn sequences_against_distinct(c: &mut Criterion) {
    let mut rules = isolo_rules::Rules::preset("igisoro").unwrap().to_builder();
    rules.capture_sow_from(isolo_rules::SowOrigin::CapturePit);
    let variant = Variant::new(rules.build().unwrap()).unwrap();
    let positions: Vec<Board> = MANY_SEQUENCES
        .iter()
        .map(|p| variant.parse_position(p).unwrap())
        .collect();
    let mut group = c.benchmark_group("igisoro capture-pit, many sequences");
    group.sample_size(10);
    let mut gen = MoveGen::new();
    group.bench_function("every sequence", |b| {
        b.iter(|| {
            let mut n = 0;
            for board in &positions {
                variant.visit_moves(
                    black_box(board),
                    Variant::ALL_PITS,
                    Listing::Sequences,
                    &mut gen,
                    |_| n += 1,
                );
            }
            n
        })
    });
    let mut limited = isolo_engine::search::move_generator();
    group.bench_function("distinct results, searchers' limit", |b| {
        b.iter(|| {
            let mut n = 0;
            for board in &positions {
                variant.visit_moves(
                    black_box(board),
                    Variant::ALL_PITS,
                    Listing::Results,
                    &mut limited,
                    |_| n += 1,
                );
            }
            n
        })
    });
    group.finish();
}

fn perft_igisoro(c: &mut Criterion) {
    let variant = Variant::load("igisoro").unwrap();
    let start = variant.start();
    let nodes = perft(&variant, &start, 5);
    let mut group = c.benchmark_group("perft igisoro depth 5");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("fast board", |b| {
        b.iter(|| perft(&variant, black_box(&start), 5))
    });
    group.finish();
}

criterion_group!(
    benches,
    one_move,
    perft_women,
    perft_igisoro,
    sequences_against_distinct
);
criterion_main!(benches);
