//! Runs scheduled games between engines: games spread over a rayon pool, records
//! written in index order, resumption after the games a records file already holds.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::matches::engine::{BotError, EngineKind, EngineSpec};
use crate::matches::external::{ExternalConfig, ExternalEngine, DEFAULT_HANDSHAKE_TIMEOUT};
use crate::matches::game_loop::{play_game, TimeControls, DEFAULT_TIME_MARGIN};
use crate::matches::player::{Forfeit, Player, Reply, Termination, Turn};
use crate::matches::records::{GameResult, Record, RecordsError, RecordsWriter};
use crate::matches::schedule::{Job, Schedule};
use crate::search::clock::TimeControl;
use crate::search::Limits;
use isolo_rules::Variant;

/// How the games of a run are played, beyond who plays whom.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// The clock of every engine without its own `tc=`.
    pub time_control: Option<TimeControl>,
    /// How far past its clock a reply may come before it loses on time.
    pub margin: Duration,
    /// Where external engines' standard error and protocol logs go.
    pub engine_log: Option<PathBuf>,
    /// How long an external engine may take over its handshake.
    pub handshake: Duration,
    /// What external engines that declare a `Variant` option are sent (a preset name or
    /// a rules file's path).
    pub variant_option: String,
}

impl PlaySettings {
    /// No clocks, no logs, the default margin and handshake time.
    pub fn new(max_plies: usize, variant_option: &str) -> PlaySettings {
        PlaySettings {
            max_plies,
            time_control: None,
            margin: DEFAULT_TIME_MARGIN,
            engine_log: None,
            handshake: DEFAULT_HANDSHAKE_TIMEOUT,
            variant_option: variant_option.to_string(),
        }
    }

    /// The time control of `engine` in these games.
    pub fn clock_of(&self, engine: &EngineSpec) -> Option<TimeControl> {
        engine.clock.or(self.time_control)
    }
}

/// The external engines one game thread keeps running between its games, by engine
/// index (started when first needed, restarted after a crash, a stall or bad output).
pub struct Slot {
    id: usize,
    running: Vec<Option<ExternalEngine>>,
    /// Bots without search state (random, greedy), kept for the next game and reseeded.
    bots: Vec<Option<crate::matches::engine::Bot>>,
}

impl Slot {
    /// Slot `id` (it names the engines' log files) of a run with `engines` engines.
    pub fn new(id: usize, engines: usize) -> Slot {
        Slot {
            id,
            running: (0..engines).map(|_| None).collect(),
            bots: (0..engines).map(|_| None).collect(),
        }
    }
}

/// An external engine playing one game from its slot.
struct ExternalPlayer<'a> {
    label: &'a str,
    config: &'a ExternalConfig,
    limits: Limits,
    settings: &'a PlaySettings,
    slot_id: usize,
    engine: Option<ExternalEngine>,
}

impl ExternalPlayer<'_> {
    fn try_play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit> {
        let engine = match &mut self.engine {
            Some(engine) => engine,
            None => self.engine.insert(ExternalEngine::start(
                self.label,
                self.config,
                &self.settings.variant_option,
                self.settings
                    .engine_log
                    .as_deref()
                    .map(|d| (d, self.slot_id)),
                self.settings.handshake,
            )?),
        };
        if !engine.in_game() {
            engine.new_game(self.settings.handshake)?;
        }
        engine.play(turn, &self.limits, self.config.stall)
    }
}

impl Player for ExternalPlayer<'_> {
    fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit> {
        let result = self.try_play(turn);
        // An engine that crashed, stalled, wrote garbage or was interrupted mid-search
        // is in no state to trust: it is ended here and started afresh when next needed.
        let broken = match &result {
            Err(f) => matches!(
                f.reason,
                Termination::Crash | Termination::Stall | Termination::BadOutput
            ),
            Ok(None) => true,
            Ok(Some(_)) => false,
        };
        if broken {
            self.engine = None;
        }
        result
    }
}

/// One side of a game: an in-process bot or an external engine from the slot.
enum Seat<'a> {
    Bot(Box<crate::matches::engine::Bot>),
    External(ExternalPlayer<'a>),
}

impl Player for Seat<'_> {
    fn finds_every_move(&self) -> bool {
        matches!(self, Seat::Bot(_))
    }

    fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit> {
        match self {
            Seat::Bot(bot) => bot.play(turn),
            Seat::External(engine) => engine.play(turn),
        }
    }
}

/// Why a run of games stopped short of its schedule.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A record to resume could not be read or is not the schedule's.
    #[error(transparent)]
    Resumed(#[from] RecordsError),
    /// The game threads could not be started.
    #[error("cannot start {count} game threads: {reason}")]
    Threads {
        /// The threads asked for.
        count: usize,
        /// What the system said.
        reason: String,
    },
    /// A built-in engine could not be built (its weights, its table).
    #[error("engine {label}: {error}")]
    Engine {
        /// The engine's label.
        label: String,
        /// What is wrong.
        error: BotError,
    },
    /// A finished game's record could not be written.
    #[error("cannot write a record: {0}")]
    Write(String),
    /// The games at once would hold more tables than this machine allows.
    #[error("{games} games at once with up to {per_game} MB of tables each need {wanted} MB, more than this machine allows ({most} MB: half its memory): lower the concurrency or the engines' hash")]
    Memory {
        /// Games played at once.
        games: usize,
        /// The most table memory one game holds: its two largest engines' tables.
        per_game: usize,
        /// `games * per_game`.
        wanted: usize,
        /// The most the machine allows.
        most: usize,
    },
}

/// The table memory `concurrency` games of `engines` hold at once, refused past what
/// this machine allows for tables (one table's cap holds for all of them together):
/// each game holds the tables of its two engines, at most the two largest.
pub fn check_memory(engines: &[EngineSpec], concurrency: usize) -> Result<(), RunError> {
    let mut tables: Vec<usize> = engines
        .iter()
        .map(|spec| match &spec.kind {
            EngineKind::AlphaBeta(c) => c.hash_mb,
            _ => 0,
        })
        .collect();
    tables.sort_unstable_by(|a, b| b.cmp(a));
    let per_game: usize = tables.iter().take(2).sum();
    let wanted = per_game.saturating_mul(concurrency);
    let most = crate::search::tt::max_table_mb();
    if wanted > most {
        return Err(RunError::Memory {
            games: concurrency,
            per_game,
            wanted,
            most,
        });
    }
    Ok(())
}

/// Plays one scheduled game; `Ok(None)` if `interrupt` was set before it ended.
/// External engines come from `slot` and go back to it.
pub fn play_job(
    variant: &Variant,
    engines: &[EngineSpec],
    job: &Job,
    settings: &PlaySettings,
    slot: &mut Slot,
    interrupt: Option<&'static AtomicBool>,
) -> Result<Option<Record>, RunError> {
    let seat = |slot: &mut Slot, engine: usize, seed: u64| -> Result<Seat, RunError> {
        let spec = &engines[engine];
        Ok(match &spec.kind {
            EngineKind::External(config) => Seat::External(ExternalPlayer {
                label: &spec.label,
                config,
                limits: spec.move_limits(),
                settings,
                slot_id: slot.id,
                engine: slot.running[engine].take(),
            }),
            _ => {
                let kept = slot.bots[engine]
                    .take()
                    .and_then(|mut bot| bot.reseed(seed).then_some(bot));
                let mut bot = match kept {
                    Some(bot) => bot,
                    None => spec.bot(seed).map_err(|error| RunError::Engine {
                        label: spec.label.clone(),
                        error,
                    })?,
                };
                if let Some(flag) = interrupt {
                    bot.stop_on(flag);
                }
                Seat::Bot(Box::new(bot))
            }
        })
    };
    let mut south = seat(slot, job.south, job.seed)?;
    let mut north = seat(slot, job.north, job.seed ^ 0x5bd1_e995)?;
    let controls = TimeControls {
        sides: [
            settings.clock_of(&engines[job.south]),
            settings.clock_of(&engines[job.north]),
        ],
        margin: settings.margin,
    };
    let game = play_game(
        variant,
        job.opening,
        [&mut south, &mut north],
        settings.max_plies,
        &controls,
        interrupt,
    );
    for (engine, seat) in [(job.south, south), (job.north, north)] {
        match seat {
            Seat::External(player) => {
                slot.running[engine] = player.engine.map(|mut e| {
                    e.end_game();
                    e
                });
            }
            Seat::Bot(bot) => slot.bots[engine] = Some(*bot),
        }
    }
    let Some(game) = game else {
        return Ok(None);
    };
    let clocked = controls.sides.iter().any(Option::is_some);
    Ok(Some(Record {
        game: job.index,
        opening: job.opening,
        south: engines[job.south].label.clone(),
        north: engines[job.north].label.clone(),
        moves: game.moves,
        result: GameResult::of_winner(game.winner),
        reason: game.reason,
        detail: game.detail,
        seed: job.seed,
        time_ms: game.time.as_millis() as u64,
        move_ms: game.move_ms,
        clock_ms: if clocked { game.clock_ms } else { Vec::new() },
    }))
}

/// Where finished games go: held until the games before them are in, then written and
/// handed to `on_record` in index order.
struct Collector<'a, I, F> {
    waiting: BTreeMap<u64, Record>,
    next_to_write: Option<u64>,
    to_write: I,
    out: Option<RecordsWriter>,
    variant: &'a Variant,
    on_record: F,
    /// Records handed on, the resumed ones included.
    games: usize,
    stopped: bool,
    /// The first write or game error.
    error: Option<RunError>,
}

impl<I: Iterator<Item = u64>, F: FnMut(&Record) -> bool> Collector<'_, I, F> {
    /// Takes a game's result; says whether to start more games.
    fn take(&mut self, result: Result<Option<Record>, RunError>) -> bool {
        let record = match result {
            Ok(Some(record)) => record,
            // A game abandoned at an interrupt: no more records can follow it.
            Ok(None) => return false,
            Err(e) => {
                self.error.get_or_insert(e);
                return false;
            }
        };
        self.waiting.insert(record.game, record);
        while let Some(record) = self.next_to_write.and_then(|i| self.waiting.remove(&i)) {
            self.next_to_write = self.to_write.next();
            if let Some(file) = self.out.as_mut() {
                if let Err(e) = file.write(&record, self.variant) {
                    self.error.get_or_insert(RunError::Write(e.to_string()));
                }
            }
            self.games += 1;
            if !self.stopped && (self.on_record)(&record) {
                self.stopped = true;
            }
        }
        !self.stopped && self.error.is_none()
    }
}

/// How a run went.
pub struct RunOutcome {
    /// Games recorded, resumed and new (each reached `on_record` and was not kept).
    pub games: usize,
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

/// Plays the games of `schedule`'s shard after `done` (its first games, checked by
/// `records::SequenceCheck`, read one at a time) on `concurrency` threads (no more than
/// the games left), each with its own slot of
/// external engines. Every record, the resumed ones first, reaches `on_record` (and
/// each new one `out`, one JSON line) in index order, and is then dropped: memory does
/// not grow with the games. `on_record` says after each whether to start no more
/// games (after the resumed ones, its answer to the last of them counts).
#[allow(clippy::too_many_arguments)]
pub fn run(
    variant: &Variant,
    engines: &[EngineSpec],
    schedule: &Schedule,
    done: impl Iterator<Item = Result<Record, RecordsError>>,
    concurrency: usize,
    settings: &PlaySettings,
    out: Option<RecordsWriter>,
    interrupt: Option<&'static AtomicBool>,
    mut on_record: impl FnMut(&Record) -> bool + Send,
) -> Result<RunOutcome, RunError> {
    let started = std::time::Instant::now();
    let mut resumed = 0;
    let mut stop_now = false;
    for record in done {
        stop_now = on_record(&record?);
        resumed += 1;
    }
    let games = resumed;
    if stop_now {
        return Ok(RunOutcome {
            games,
            stopped: true,
            interrupted: false,
            played: 0,
            elapsed: started.elapsed(),
        });
    }
    // The games still to play, handed out in order; records are taken in the same order
    // by whichever game thread finishes the next one (no thread waits on another).
    let to_play = Mutex::new(schedule.games().skip(resumed));
    let mut to_write = schedule.games().skip(resumed);
    let halt = AtomicBool::new(false);
    // Never more game threads than games left to play.
    let left = schedule.shard_len().saturating_sub(resumed as u64);
    let concurrency = concurrency.clamp(1, usize::try_from(left).unwrap_or(usize::MAX).max(1));
    check_memory(engines, concurrency)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency)
        .build()
        .map_err(|e| RunError::Threads {
            count: concurrency,
            reason: e.to_string(),
        })?;
    let collector = Mutex::new(Collector {
        waiting: BTreeMap::new(),
        next_to_write: to_write.next(),
        to_write,
        out,
        variant,
        on_record,
        games,
        stopped: false,
        error: None,
    });
    pool.in_place_scope(|scope| {
        for id in 0..concurrency {
            let (to_play, halt, collector) = (&to_play, &halt, &collector);
            let mut slot = Slot::new(id, engines.len());
            scope.spawn(move |_| loop {
                if halt.load(Ordering::Relaxed) || crate::raised(interrupt) {
                    break;
                }
                let Some(i) = to_play.lock().expect("no game thread panicked").next() else {
                    break;
                };
                let job = schedule.job(i);
                let result = play_job(variant, engines, &job, settings, &mut slot, interrupt);
                let mut collector = collector.lock().expect("no game thread panicked");
                if !collector.take(result) {
                    halt.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    let collector = collector.into_inner().expect("no game thread panicked");
    if let Some(e) = collector.error {
        return Err(e);
    }
    let (games, stopped) = (collector.games, collector.stopped);
    let played = games - resumed;
    Ok(RunOutcome {
        games,
        stopped,
        interrupted: crate::raised(interrupt),
        played,
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::check_memory;
    use crate::matches::engine::EngineSpec as Spec;

    #[test]
    fn the_tables_of_the_games_at_once_are_counted_together() {
        let most = crate::search::tt::max_table_mb();
        let spec = |mb: usize| Spec::parse(&format!("ab:hash={mb}")).unwrap();
        let half = spec(most / 2);
        assert!(check_memory(&[half.clone(), half.clone()], 1).is_ok());
        let refused = check_memory(&[half.clone(), half.clone()], 2).unwrap_err();
        assert!(refused.to_string().contains("2 games at once"), "{refused}");
        // Only the two largest tables meet in one game.
        let small = spec(1);
        assert!(check_memory(&[half.clone(), small.clone(), small, half], 1).is_ok());
        let random = Spec::parse("random").unwrap();
        assert!(check_memory(&[random.clone(), random], 1024).is_ok());
    }
}
