//! Runs scheduled games between engines: games spread over a rayon pool, records
//! written in index order, resumption after the games a records file already holds.

use std::collections::BTreeMap;
use std::fs::File;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::engine::EngineSpec;
use crate::game::play_game;
use crate::records::{self, GameResult, Record};
use crate::rules::Variant;
use crate::schedule::{Job, Schedule};

/// Plays one scheduled game; `Ok(None)` if `interrupt` was set before it ended.
pub fn play_job(
    variant: &Variant,
    engines: &[EngineSpec],
    job: &Job,
    max_plies: usize,
    interrupt: Option<&'static AtomicBool>,
) -> Result<Option<Record>, String> {
    let bot = |engine: usize, seed: u64| {
        engines[engine]
            .bot(seed)
            .map_err(|e| format!("engine {}: {e}", engines[engine].label))
    };
    let mut south = bot(job.south, job.seed)?;
    let mut north = bot(job.north, job.seed ^ 0x5bd1_e995)?;
    if let Some(flag) = interrupt {
        south.stop_on(flag);
        north.stop_on(flag);
    }
    let Some(game) = play_game(
        variant,
        job.opening,
        &mut south,
        &mut north,
        max_plies,
        interrupt,
    ) else {
        return Ok(None);
    };
    Ok(Some(Record {
        game: job.index,
        opening: job.opening,
        south: engines[job.south].label.clone(),
        north: engines[job.north].label.clone(),
        moves: game.moves,
        result: GameResult::of_winner(game.winner),
        reason: game.reason,
        seed: job.seed,
        time_ms: game.time.as_millis() as u64,
    }))
}

/// How a run went.
pub struct RunOutcome {
    /// All records, resumed and new, in index order.
    pub records: Vec<Record>,
    /// Whether `on_record` (an SPRT) ended the run before the schedule did.
    pub stopped: bool,
    /// Whether the interrupt flag ended it.
    pub interrupted: bool,
    /// Games played in this run (not resumed).
    pub played: usize,
    /// Wall time of this run.
    pub elapsed: Duration,
}

impl RunOutcome {
    /// Games played per minute in this run.
    pub fn games_per_minute(&self) -> f64 {
        self.played as f64 / (self.elapsed.as_secs_f64() / 60.0).max(1e-9)
    }
}

/// Plays the games of `schedule` after `done` (games `0..done.len()`, checked by
/// `records::check_sequence`) on `concurrency` threads. Records reach `on_record` (and
/// `out`, one JSON line each) in index order; it says after each whether to start no
/// more games.
#[allow(clippy::too_many_arguments)]
pub fn run(
    variant: &Variant,
    engines: &[EngineSpec],
    schedule: &Schedule,
    done: Vec<Record>,
    concurrency: usize,
    max_plies: usize,
    mut out: Option<File>,
    interrupt: Option<&'static AtomicBool>,
    mut on_record: impl FnMut(&[Record]) -> bool,
) -> Result<RunOutcome, String> {
    let started = std::time::Instant::now();
    let first = done.len() as u64;
    let mut records = done;
    let resumed = records.len();
    if on_record(&records) {
        return Ok(RunOutcome {
            records,
            stopped: true,
            interrupted: false,
            played: 0,
            elapsed: started.elapsed(),
        });
    }
    let next = AtomicU64::new(first);
    let halt = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<Result<Option<Record>, String>>();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency.max(1))
        .build()
        .map_err(|e| format!("cannot start {concurrency} game threads: {e}"))?;
    let mut stopped = false;
    let mut write_error = None;
    let mut game_error = None;
    pool.in_place_scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let send = send.clone();
            let (next, halt) = (&next, &halt);
            scope.spawn(move |_| loop {
                if halt.load(Ordering::Relaxed)
                    || interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
                {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= schedule.len() {
                    break;
                }
                let job = schedule.job(i);
                if send
                    .send(play_job(variant, engines, &job, max_plies, interrupt))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(send);
        // Records arrive in any order; they are kept and written in index order.
        let mut waiting: BTreeMap<u64, Record> = BTreeMap::new();
        let mut next_to_write = first;
        for record in receive {
            let record = match record {
                Ok(Some(record)) => record,
                // A game abandoned at an interrupt: no more records can follow it.
                Ok(None) => {
                    halt.store(true, Ordering::Relaxed);
                    continue;
                }
                Err(e) => {
                    game_error.get_or_insert(e);
                    halt.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            waiting.insert(record.game, record);
            while let Some(record) = waiting.remove(&next_to_write) {
                next_to_write += 1;
                if let Some(file) = out.as_mut() {
                    if let Err(e) = records::write_line(file, &record.to_line(variant)) {
                        write_error.get_or_insert(format!("cannot write a record: {e}"));
                        halt.store(true, Ordering::Relaxed);
                    }
                }
                records.push(record);
                if !stopped && on_record(&records) {
                    stopped = true;
                    halt.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = write_error.or(game_error) {
        return Err(e);
    }
    let played = records.len() - resumed;
    Ok(RunOutcome {
        records,
        stopped,
        interrupted: interrupt.is_some_and(|f| f.load(Ordering::Relaxed)),
        played,
        elapsed: started.elapsed(),
    })
}
