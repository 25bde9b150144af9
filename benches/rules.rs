//! Criterion benches of the rules layer: the cost of one move for each preset, and
//! perft depth 5 on isolo-women with the fast board and with the naive reference of
//! `tests/common/reference.rs`, so their ratio shows in one run.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use isolo_ai::perft::perft;
use isolo_ai::rules::{Board, MoveGen, Side, Variant};

#[path = "../tests/common/reference.rs"]
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

criterion_group!(benches, one_move, perft_women);
criterion_main!(benches);
