//! Play a short match with the library: two engine specs, a schedule of colour-reversed
//! pairs, the games played one by one, and the pentanomial Elo estimate.
//!
//! `cargo run --release --example play_match`

use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::runner::{play_job, PlaySettings, Slot};
use isolo_engine::matches::schedule::Schedule;
use isolo_engine::stats::{elo_estimate, Pentanomial};
use isolo_rules::Variant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let women = Variant::load("isolo-women")?;
    let engines = [
        EngineSpec::parse("ab:depth=3")?,
        EngineSpec::parse("greedy")?,
    ];
    // Ten games: five colour-reversed pairs from the start.
    let schedule = Schedule::new(vec![(0, 1)], vec![women.start()], 10, 7);
    // At most 300 plies a game; one slot (external engines would run there).
    let settings = PlaySettings::new(300, "isolo-women");
    let mut slot = Slot::new(0, engines.len());
    let mut pentanomial: Pentanomial = [0; 5];
    let mut pair_points = 0;
    for index in 0..schedule.len() {
        let job = schedule.job(index);
        let record =
            play_job(&women, &engines, &job, &settings, &mut slot, None)?.expect("no interrupt");
        // Points of engine 0 in this game, in halves.
        let points = match record.winner() {
            Some(side) if (side == isolo_rules::Side::South) == (job.south == 0) => 2,
            Some(_) => 0,
            None => 1,
        };
        println!(
            "game {index}: {} (S) vs {} (N): {} in {} plies",
            record.south,
            record.north,
            record.result.text(),
            record.moves.len()
        );
        pair_points += points;
        if index % 2 == 1 {
            pentanomial[pair_points as usize] += 1;
            pair_points = 0;
        }
    }
    if let Some(e) = elo_estimate(&pentanomial) {
        println!(
            "{} vs {}: Elo {:+.1}, pentanomial {pentanomial:?}",
            engines[0], engines[1], e.elo
        );
    }
    Ok(())
}
