//! Runs scheduled games between engines: colour-reversed pairs from each opening, seeds
//! from the master seed and the game index (so results do not depend on scheduling),
//! games spread over a rayon pool, records written in index order, and resumption from
//! a records file.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::engine::EngineSpec;
use crate::game::{play_game, result_text, Record};
use crate::rules::{Board, Variant};

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    pub index: u64,
    /// Engine indices.
    pub south: usize,
    pub north: usize,
    pub opening: Board,
    pub seed: u64,
}

/// splitmix64: a game's seed from the master seed and its index.
pub fn game_seed(master: u64, index: u64) -> u64 {
    let mut z = master ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `games` games for each pairing `(a, b)`, in colour-reversed pairs: game `2k` has `a`
/// as South from opening `k` (cycling through the suite), game `2k + 1` the same opening
/// with colours swapped.
pub fn schedule(
    pairings: &[(usize, usize)],
    openings: &[Board],
    games: u64,
    master_seed: u64,
) -> Vec<Job> {
    let mut jobs = Vec::new();
    for &(a, b) in pairings {
        for g in 0..games {
            let index = jobs.len() as u64;
            let opening = openings[((g / 2) as usize) % openings.len()];
            let (south, north) = if g % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job {
                index,
                south,
                north,
                opening,
                seed: game_seed(master_seed, index),
            });
        }
    }
    jobs
}

/// Plays one scheduled game.
pub fn play_job(
    variant: &Variant,
    variant_spec: &str,
    engines: &[EngineSpec],
    job: &Job,
    max_plies: usize,
) -> Result<Record, String> {
    let bot = |engine: usize, seed: u64| {
        engines[engine]
            .bot(seed)
            .map_err(|e| format!("engine {}: {e}", engines[engine].label))
    };
    let mut south = bot(job.south, job.seed)?;
    let mut north = bot(job.north, job.seed ^ 0x5bd1_e995)?;
    let game = play_game(variant, job.opening, &mut south, &mut north, max_plies);
    Ok(Record {
        game: job.index,
        variant: variant_spec.to_string(),
        opening: variant.format_position(&job.opening),
        south: engines[job.south].label.clone(),
        north: engines[job.north].label.clone(),
        south_spec: engines[job.south].text.clone(),
        north_spec: engines[job.north].text.clone(),
        plies: game.moves.len(),
        moves: game.moves,
        result: result_text(game.winner),
        reason: game.reason.name().to_string(),
        seed: job.seed,
        time_ms: game.time.as_millis() as u64,
    })
}

/// Reads the records of an interrupted run. A last line cut short by an interruption is
/// dropped from the file; any other bad line is an error.
pub fn read_records(path: &str) -> Result<Vec<Record>, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{path}: cannot read: {e}")),
    };
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{path}: cannot read: {e}"))?;
    let mut records = Vec::new();
    let mut valid_bytes = 0u64;
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<Record>(line) {
            Ok(r) => {
                records.push(r);
                valid_bytes += line.len() as u64 + 1;
            }
            Err(_) if i + 1 == lines.len() => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| format!("{path}: {e}"))?;
                file.set_len(valid_bytes)
                    .map_err(|e| format!("{path}: cannot drop the cut last line: {e}"))?;
            }
            Err(e) => return Err(format!("{path}, line {}: not a game record: {e}", i + 1)),
        }
    }
    Ok(records)
}

/// Checks that resumed records belong to this schedule.
pub fn check_resumed(
    records: &[Record],
    jobs: &[Job],
    engines: &[EngineSpec],
    variant_spec: &str,
) -> Result<(), String> {
    for r in records {
        let Some(job) = jobs.get(r.game as usize) else {
            return Err(format!(
                "record of game {} is beyond this schedule of {} games",
                r.game,
                jobs.len()
            ));
        };
        if r.variant != variant_spec
            || r.south != engines[job.south].label
            || r.north != engines[job.north].label
            || r.south_spec != engines[job.south].text
            || r.north_spec != engines[job.north].text
            || r.seed != job.seed
        {
            return Err(format!(
                "record of game {} does not match this run (variant, engines or seed differ): not resuming",
                r.game
            ));
        }
    }
    Ok(())
}

/// How a run went.
pub struct RunOutcome {
    /// All records, resumed and new, in index order.
    pub records: Vec<Record>,
    /// Whether `stop` ended the run before the schedule did.
    pub stopped: bool,
    /// Games played in this run (not resumed).
    pub played: usize,
    pub elapsed: Duration,
}

impl RunOutcome {
    /// Games played per minute in this run.
    pub fn games_per_minute(&self) -> f64 {
        self.played as f64 / (self.elapsed.as_secs_f64() / 60.0).max(1e-9)
    }
}

/// Plays the jobs not already in `done` on `concurrency` threads. Records reach `sink`
/// (and `out`, one JSON line each) in index order; `stop` is asked after each record
/// whether to start no more games.
#[allow(clippy::too_many_arguments)]
pub fn run(
    variant: &Variant,
    variant_spec: &str,
    engines: &[EngineSpec],
    jobs: &[Job],
    done: Vec<Record>,
    concurrency: usize,
    max_plies: usize,
    mut out: Option<File>,
    mut on_record: impl FnMut(&[Record]) -> bool,
) -> Result<RunOutcome, String> {
    let started = std::time::Instant::now();
    let finished: std::collections::HashSet<u64> = done.iter().map(|r| r.game).collect();
    let todo: Vec<&Job> = jobs
        .iter()
        .filter(|j| !finished.contains(&j.index))
        .collect();
    let mut records = done;
    records.sort_by_key(|r| r.game);
    let resumed = records.len();
    if on_record(&records) {
        return Ok(RunOutcome {
            records,
            stopped: true,
            played: 0,
            elapsed: started.elapsed(),
        });
    }
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<Result<Record, String>>();
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
            let (next, halt, todo) = (&next, &halt, &todo);
            scope.spawn(move |_| loop {
                if halt.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = todo.get(i) else { break };
                if send
                    .send(play_job(variant, variant_spec, engines, job, max_plies))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(send);
        // Records arrive in any order; they are kept and written in index order.
        let mut waiting: BTreeMap<u64, Record> = BTreeMap::new();
        let mut next_to_write = 0usize;
        for record in receive {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    game_error.get_or_insert(e);
                    halt.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            waiting.insert(record.game, record);
            while let Some(job) = todo.get(next_to_write) {
                let Some(record) = waiting.remove(&job.index) else {
                    break;
                };
                next_to_write += 1;
                if let Some(file) = out.as_mut() {
                    let line = format!(
                        "{}\n",
                        serde_json::to_string(&record).expect("records serialise")
                    );
                    if let Err(e) = file.write_all(line.as_bytes()).and_then(|_| file.flush()) {
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
        played,
        elapsed: started.elapsed(),
    })
}
