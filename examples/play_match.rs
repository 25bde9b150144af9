//! Play a short match with the library: two engine specs, a schedule of colour-reversed
//! pairs, the games played one by one and tallied, and the pentanomial Elo estimate.
//!
//! `cargo run --release --example play_match`

use isolo_engine::matches::runner::{play_job, PlaySettings, Slot};
use isolo_engine::matches::tally::RunningTally;
use isolo_engine::{elo_estimate, EngineSpec, Schedule};
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
    let mut tally = RunningTally::new(&engines[0].label, &engines[1].label);
    for index in 0..schedule.len() {
        let job = schedule.job(index);
        let record =
            play_job(&women, &engines, &job, &settings, &mut slot, None)?.expect("no interrupt");
        println!(
            "game {index}: {} (S) vs {} (N): {} in {} plies",
            record.south,
            record.north,
            record.result.text(),
            record.moves.len()
        );
        tally.add(&record);
    }
    let pentanomial = tally.tally().pentanomial;
    if let Some(e) = elo_estimate(&pentanomial) {
        println!(
            "{} vs {}: Elo {:+.1}, pentanomial {pentanomial:?}",
            engines[0], engines[1], e.elo
        );
    }
    Ok(())
}
