//! Strength measurements (run by hand: `cargo test --profile testing --test search_and_proofs --
//! --ignored --nocapture strength::`): each searcher, on a clock of 2 s + 50 ms a game, against a random and a
//! greedy mover, 100 games a pairing with colours alternated, on every preset
//! (`PRESETS=a,b`, `GAMES=N` and `TC=BASE+INC` change them).

use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::game_loop::{play_game, TimeControls, DEFAULT_GAME_PLIES};
use isolo_engine::search::clock::TimeControl;
use isolo_rules::{Side, Variant};

/// The searcher's clock (`TC=BASE+INC` overrides).
fn clock() -> TimeControl {
    std::env::var("TC")
        .unwrap_or_else(|_| "2+0.05".into())
        .parse()
        .expect("TC is a time control")
}

/// Games per pairing (`GAMES=N` overrides).
fn games() -> u64 {
    std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100)
}

fn pairing(variant: &Variant, engine: &str, opponent: &str) -> (u64, u64, u64, f64) {
    let (mut wins, mut draws, mut losses, mut plies) = (0, 0, 0, 0usize);
    let a = EngineSpec::parse(engine).unwrap();
    let b = EngineSpec::parse(opponent).unwrap();
    let games = games();
    for game in 0..games {
        let (mut ours, mut theirs) = (a.bot(game).unwrap(), b.bot(game + 1000).unwrap());
        let engine_side = if game % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let record = if engine_side == Side::South {
            play_game(
                variant,
                variant.start(),
                [&mut ours, &mut theirs],
                DEFAULT_GAME_PLIES,
                &TimeControls {
                    sides: [Some(clock()), None],
                    ..TimeControls::default()
                },
                None,
            )
        } else {
            play_game(
                variant,
                variant.start(),
                [&mut theirs, &mut ours],
                DEFAULT_GAME_PLIES,
                &TimeControls {
                    sides: [None, Some(clock())],
                    ..TimeControls::default()
                },
                None,
            )
        }
        .expect("no interrupt");
        assert!(
            !record.reason.is_forfeit(),
            "{engine} forfeited: {record:?}"
        );
        plies += record.moves.len();
        match record.winner {
            Some(side) if side == engine_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    (wins, draws, losses, plies as f64 / games as f64)
}

#[test]
#[ignore = "minutes of play: run by hand"]
fn searchers_against_random_and_greedy() {
    let presets: Vec<String> = std::env::var("PRESETS")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_else(|_| isolo_rules::PRESETS.iter().map(|s| s.to_string()).collect());
    for name in presets {
        let variant = Variant::load(&name).unwrap();
        for engine in ["ab", "mcts"] {
            for opponent in ["random", "greedy"] {
                let (w, d, l, plies) = pairing(&variant, engine, opponent);
                println!("{name:<12} {engine:<17} vs {opponent:<7} +{w} ={d} -{l}  mean plies {plies:.1}");
            }
        }
    }
}
