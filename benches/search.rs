//! Criterion benches of the searchers: random playouts per second for each preset and
//! reading (the MCTS rate), an alpha-beta search of each preset's start to a fixed
//! depth, and the fixed cost of a search (a new searcher at the default table size and
//! a search to depth 1: what Python's `analyze` and the server pay per request).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use isolo_engine::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use isolo_engine::search::mcts::random_playouts;
use isolo_engine::search::{Limits, SearchRequest, Searcher};
use isolo_rules::{Variant, PRESETS, READINGS};

/// Table size of the benched alpha-beta searches, in MB.
const BENCH_HASH_MB: usize = 4;
/// Playouts per measured batch.
const PLAYOUTS: u64 = 200;

/// A search of `variant`'s start to `depth`.
fn start_to_depth(variant: &Variant, depth: u32) -> SearchRequest<'_> {
    SearchRequest {
        variant,
        board: variant.start(),
        history: Vec::new(),
        quiet_plies: 0,
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        multipv: 1,
        pv_lines: usize::MAX,
        stop: None,
    }
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random playouts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(PLAYOUTS));
    for name in PRESETS.iter().chain(&READINGS) {
        let variant = Variant::load(name).unwrap();
        let start = variant.start();
        group.bench_with_input(BenchmarkId::from_parameter(name), &start, |b, start| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                random_playouts(&variant, black_box(start), PLAYOUTS, seed)
            })
        });
    }
    group.finish();
}

fn alpha_beta(c: &mut Criterion) {
    let mut group = c.benchmark_group("alpha-beta depth 7");
    group.sample_size(10);
    for name in PRESETS {
        let variant = Variant::load(name).unwrap();
        let request = start_to_depth(&variant, 7);
        // A fresh searcher each time: a warm table would answer at once.
        let fresh = || {
            AlphaBeta::new(AlphaBetaConfig {
                hash_mb: BENCH_HASH_MB,
                ..AlphaBetaConfig::default()
            })
            .expect("the bench table allocates")
        };
        let nodes = fresh().search(&request, &mut |_| {}).nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| fresh().search(black_box(&request), &mut |_| {}).nodes)
        });
    }
    group.finish();
}

fn fixed_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("a search's fixed cost");
    for name in PRESETS {
        let variant = Variant::load(name).unwrap();
        let request = start_to_depth(&variant, 1);
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let mut searcher = AlphaBeta::new(AlphaBetaConfig::default()).unwrap();
                searcher.search(black_box(&request), &mut |_| {}).nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, alpha_beta, fixed_cost);
criterion_main!(benches);
