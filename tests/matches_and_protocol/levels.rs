//! Strength levels played in games: a level's games replay from its seed, a low level
//! still beats random, and the top beats a low level.

use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::game_loop::{play_game, TimeControls};
use isolo_rules::{Move, Side, Variant};

/// One game from the start, `south` against `north` (specs), bots seeded from `seed`.
fn game(variant: &Variant, south: &str, north: &str, seed: u64) -> (Vec<Move>, Option<Side>) {
    let mut a = EngineSpec::parse(south).unwrap().bot(seed).unwrap();
    let mut b = EngineSpec::parse(north).unwrap().bot(seed ^ 1).unwrap();
    let record = play_game(
        variant,
        variant.start(),
        [&mut a, &mut b],
        300,
        &TimeControls::default(),
        None,
    )
    .expect("a game off the clock ends");
    (record.moves, record.winner)
}

/// Points of `spec` against `other` over `pairs` colour-reversed pairs.
fn points(variant: &Variant, spec: &str, other: &str, pairs: u64) -> f64 {
    let mut points = 0.0;
    for seed in 0..pairs {
        for (south, north, me) in [(spec, other, Side::South), (other, spec, Side::North)] {
            points += match game(variant, south, north, seed).1 {
                Some(side) if side == me => 1.0,
                None => 0.5,
                Some(_) => 0.0,
            };
        }
    }
    points
}

#[test]
fn a_levels_games_replay_from_their_seed_and_differ_between_seeds() {
    let variant = Variant::load("isolo-boys").unwrap();
    for spec in ["ab:level=2", "mcts:level=3"] {
        let first = game(&variant, spec, "greedy", 11);
        assert_eq!(game(&variant, spec, "greedy", 11), first, "{spec} replays");
        let others: Vec<_> = (12..16)
            .map(|s| game(&variant, spec, "greedy", s).0)
            .collect();
        assert!(
            others.iter().any(|moves| *moves != first.0),
            "{spec} varies with its seed"
        );
    }
}

#[test]
fn the_lowest_level_beats_random_and_loses_to_the_top() {
    // (A deep reading: the seeds' rules are won by the first player whoever plays.)
    let variant = Variant::load("isolo-women-capture-ends").unwrap();
    let pairs = 10;
    let against_random = points(&variant, "ab:level=1", "random", pairs);
    assert!(
        against_random >= 0.7 * 2.0 * pairs as f64,
        "level 1 scored {against_random}"
    );
    let against_top = points(&variant, "ab:level=1", "ab:depth=4", pairs);
    assert!(
        against_top <= 0.3 * 2.0 * pairs as f64,
        "level 1 scored {against_top} against depth 4"
    );
}

#[test]
fn a_level_is_an_engine_key_in_range() {
    assert!(EngineSpec::parse("ab:level=8").unwrap().level.is_top());
    assert_eq!(EngineSpec::parse("mcts:level=1").unwrap().level.number(), 1);
    for bad in ["ab:level=0", "ab:level=9", "random:level=3", "ab:level=x"] {
        assert!(EngineSpec::parse(bad).is_err(), "{bad}");
    }
    assert!(!EngineSpec::parse("ab:level=5,depth=4")
        .unwrap()
        .is_deterministic());
    assert!(EngineSpec::parse("ab:level=8,depth=4")
        .unwrap()
        .is_deterministic());
}
