//! The research runs from Python: `compare` (one row per game), `match` and
//! `tournament` (their summaries), `merge` (a sharded run's records), `read_records`
//! (a records file's games, one at a time) and `tune` (evaluation weights).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pyo3::exceptions::PyFileNotFoundError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::args::{within, Whole};
use crate::stopping::Cancel;
use crate::to_python;
use crate::variant::{AnyVariant, Variant};
use crate::{cut_short, input_error, interruptible, interruptible_by, interruptible_keeping};
use isolo_engine::eval::Weights;
use isolo_engine::matches::engine::{EngineKind, EngineSpec};
use isolo_engine::matches::game_loop::DEFAULT_GAME_PLIES;
use isolo_engine::matches::openings::load_suite;
use isolo_engine::matches::records::{self, Header, RecordsReader, Resumed, RunRecordsError};
use isolo_engine::matches::runner::{self, PlaySettings};
use isolo_engine::matches::schedule::{Pairing, Schedule};
use isolo_engine::matches::tally::{MatchTally, TournamentTally};
use isolo_engine::matches::workers;
use isolo_engine::merge::{MergeOptions, Merged};
use isolo_engine::ranges;
use isolo_engine::research::compare::run::{CompareOut, CompareRun};
use isolo_engine::research::compare::summaries::CompareReader;
use isolo_engine::research::compare::Openings;
use isolo_engine::research::{self, tune::TuneSettings};
use isolo_engine::stats::Sprt;

fn game_pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| input_error(format!("concurrency: {e}")))
}

/// The engine `spec` names, given as `argument`; the engines built in only (external
/// ones have a handshake, clocks and logs: `isolo-ai match` plays them).
pub(crate) fn engine_spec(argument: &str, spec: &str) -> PyResult<EngineSpec> {
    let engine = EngineSpec::parse(spec).map_err(|e| input_error(format!("{argument}: {e}")))?;
    if matches!(engine.kind, EngineKind::External(_)) {
        return Err(input_error(format!(
            "{argument}: engine '{spec}': external engines play through the command line \
             (isolo-ai match)"
        )));
    }
    Ok(engine)
}

/// Games of the same engine against itself under each variant, as `isolo-ai compare`
/// plays them (the engine's `CompareRun`): a dict of `rows` (one per game, a dict with
/// the fields of a `compare --out` line, its `variant` the variant's name), `summary`
/// (what `compare --json` prints: each variant's rates with 95% intervals, lengths,
/// and the first player's advantage tested between variants), `resumed` (games read
/// back from `out`), and `cut` (`None`, or `"cancelled"` / `"interrupted"` with
/// `message`) where the run was stopped before its last game, the rows those played.
///
/// Game `i` of each variant starts from `openings` (`"start"`, `"random:K"` or a suite
/// file's path) with the seed `compare --seed` gives it, so the rows are the command
/// line's games. `concurrency` games are played at once (at most the cores). `out`
/// records the games as `compare --out` does; with `resume` a file already there is
/// continued (its games kept, the rest played). `cancel` (a `Cancel`) stops it from
/// another thread.
#[pyfunction]
#[pyo3(signature = (variants, games=Whole::of(100), engine="ab:depth=3", seed=Whole::of(0), openings="random:2", max_plies=Whole::of(DEFAULT_GAME_PLIES as u64), concurrency=Whole::of(1), out=None, resume=false, cancel=None))]
#[allow(clippy::too_many_arguments)]
pub fn compare(
    py: Python<'_>,
    variants: Vec<PyRef<'_, Variant>>,
    games: Whole,
    engine: &str,
    seed: Whole,
    openings: &str,
    max_plies: Whole,
    concurrency: Whole,
    out: Option<PathBuf>,
    resume: bool,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    if variants.is_empty() {
        return Err(input_error("variants: give at least one"));
    }
    if resume && out.is_none() {
        return Err(input_error("resume: it continues the out file: give one"));
    }
    let games = games.within("games", &ranges::GAMES)?;
    let seed = seed.within("seed", &ranges::SEED)?;
    let max_plies = max_plies.within("max_plies", &ranges::GAME_PLIES)?;
    let concurrency = concurrency.within("concurrency", &ranges::CONCURRENCY)?;
    let spec = engine;
    let engine = engine_spec("engine", spec)?;
    let rules: Vec<Arc<isolo_rules::Variant>> = variants.iter().map(|v| v.inner.clone()).collect();
    let starts: Vec<Openings> = rules
        .iter()
        .map(|v| Openings::parse(v, openings).map_err(|e| input_error(format!("openings: {e}"))))
        .collect::<PyResult<_>>()?;
    let run = CompareRun {
        variants: rules.iter().map(|v| v.as_ref()).collect(),
        labels: rules.iter().map(|v| v.name().to_string()).collect(),
        engine: &engine,
        engine_spec: spec,
        games,
        openings: starts,
        openings_spec: openings,
        seed,
        max_plies,
        shard: None,
    };
    let threads = workers(concurrency, games);
    let token = cancel.map(|c| c.token.clone());
    let out = out.as_deref().map(|path| CompareOut { path, resume });
    let (compared, signal) = interruptible_keeping(py, token.as_ref(), |interrupt| {
        let pool = game_pool(threads)?;
        run.run(&pool, out, Some(interrupt), &mut |_| {})
            .map_err(|e| input_error(e.to_string()))
    })?;
    let compared = compared?;
    let rows: Vec<Value> = (compared.games.iter())
        .map(|game| {
            let mut row = game.to_value();
            row["variant"] = Value::from(rules[game.variant].name());
            row
        })
        .collect();
    let played = compared.games.len();
    // (Rows cannot say they were cut: the wrapper raises with them attached.)
    let cut = (compared.interrupted || signal.is_some()).then(|| {
        let error = cut_short(token.as_ref(), &format!("{played} games played"));
        let kind = if token.as_ref().is_some_and(|t| t.is_cancelled()) {
            "cancelled"
        } else {
            "interrupted"
        };
        (kind, error.value(py).to_string())
    });
    let result = serde_json::json!({
        "rows": rows,
        "summary": compared.report,
        "resumed": compared.resumed,
        "cut": cut.as_ref().map(|(kind, _)| *kind),
        "message": cut.as_ref().map(|(_, message)| message.clone()),
    });
    to_python(py, &result)
}

/// The share `count / n` with its Wilson 95% interval, as `compare` gives its rates:
/// `(rate, low, high)`.
#[pyfunction]
pub fn wilson(count: Whole, n: Whole) -> PyResult<(f64, f64, f64)> {
    const TRIALS: ranges::Range<u64> = ranges::Range::new("trials", 0, u64::MAX, "trials");
    let (count, n) = (count.within("count", &TRIALS)?, n.within("n", &TRIALS)?);
    if count > n {
        return Err(input_error(format!("count: {count} is more than n, {n}")));
    }
    let share = isolo_engine::research::compare::wilson(count, n);
    Ok((share.rate, share.ci95[0], share.ci95[1]))
}

/// A match of two built-in engines, as `isolo-ai match` plays it: the summary dict
/// `match --json` prints (wins, draws, score, Elo with its interval, pentanomial, SPRT).
///
/// `games` are played in colour-reversed pairs from each opening of `openings` (a suite
/// file's path; the variant's start when omitted), seeded from `seed`; `sprt`
/// (`"elo0,elo1,alpha,beta"`) stops the match at a verdict; `out` writes the records
/// file `match --out` writes, and with `resume` continues the run it holds.
#[pyfunction(name = "match")]
#[pyo3(signature = (engine_a, engine_b, games, variant, openings=None, seed=Whole::of(0), max_plies=Whole::of(DEFAULT_GAME_PLIES as u64), concurrency=Whole::of(1), sprt=None, out=None, resume=false, cancel=None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    py: Python<'_>,
    engine_a: &str,
    engine_b: &str,
    games: Whole,
    variant: AnyVariant,
    openings: Option<&str>,
    seed: Whole,
    max_plies: Whole,
    concurrency: Whole,
    sprt: Option<&str>,
    out: Option<&str>,
    resume: bool,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    let sprt = sprt_of(sprt)?;
    let run = Run::new(
        &[("engine_a", engine_a), ("engine_b", engine_b)],
        games,
        variant,
        openings,
        seed,
        max_plies,
        concurrency,
    )?;
    let records = run.records("match", vec![(0, 1)], out, resume)?;
    let (a, b) = (run.engines[0].label.clone(), run.engines[1].label.clone());
    let token = cancel.map(|c| c.token.clone());
    let report = interruptible_by(py, token.as_ref(), |interrupt| {
        let mut tally = MatchTally::new(&a, &b, sprt);
        let outcome = run.play(records, interrupt, |record| tally.add(record))?;
        let report = serde_json::to_value(tally.report(Some(outcome.games_per_minute())));
        Ok::<_, PyErr>((report.expect("reports serialise"), outcome.interrupted))
    })??;
    report_json(py, report)
}

/// A match's or a tournament's report, with `"interrupted": true` where Ctrl-C (in
/// any thread) stopped it: the games played by then.
fn report_json(py: Python<'_>, (mut value, interrupted): (Value, bool)) -> PyResult<Py<PyAny>> {
    if interrupted {
        value["interrupted"] = Value::from(true);
    }
    to_python(py, &value)
}

/// A tournament of three or more built-in engines, as `isolo-ai tournament` plays it:
/// the dict `tournament --json` prints (standings best rated first, crosstable,
/// ratings with 95% intervals, anchored at `anchor`'s engine or of mean 0).
///
/// `pairing` is `"round-robin"`, `"gauntlet"` (the first engine against each other)
/// or `"ladder"` (engines weakest first, each against the next and the last); `games`
/// per pairing; the other arguments as `match`'s.
#[pyfunction]
#[pyo3(signature = (engines, games, variant, pairing="round-robin", anchor=None, openings=None, seed=Whole::of(0), max_plies=Whole::of(DEFAULT_GAME_PLIES as u64), concurrency=Whole::of(1), out=None, resume=false, cancel=None))]
#[allow(clippy::too_many_arguments)]
pub fn tournament(
    py: Python<'_>,
    engines: Vec<String>,
    games: Whole,
    variant: AnyVariant,
    pairing: &str,
    anchor: Option<&str>,
    openings: Option<&str>,
    seed: Whole,
    max_plies: Whole,
    concurrency: Whole,
    out: Option<&str>,
    resume: bool,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    if engines.len() < 3 {
        return Err(input_error(format!(
            "engines: a tournament needs at least three, found {} (use match for two)",
            engines.len()
        )));
    }
    let pairing = Pairing::named(pairing).map_err(|e| input_error(format!("pairing: {e}")))?;
    let specs: Vec<(&str, &str)> = engines.iter().map(|s| ("engines", s.as_str())).collect();
    let run = Run::new(
        &specs,
        games,
        variant,
        openings,
        seed,
        max_plies,
        concurrency,
    )?;
    let labels: Vec<String> = run.engines.iter().map(|e| e.label.clone()).collect();
    let pairings = pairing.pairings(labels.len());
    let mut tally = TournamentTally::new(&labels, &pairings);
    let anchor = tally
        .anchor(anchor)
        .map_err(|e| input_error(format!("anchor: {e}")))?;
    let records = run.records("tournament", pairings, out, resume)?;
    let token = cancel.map(|c| c.token.clone());
    let report = interruptible_by(py, token.as_ref(), |interrupt| {
        let outcome = run.play(records, interrupt, |record| {
            tally.add(record);
            false
        })?;
        let report = serde_json::to_value(tally.report(anchor, Some(outcome.games_per_minute())));
        Ok::<_, PyErr>((report.expect("reports serialise"), outcome.interrupted))
    })??;
    report_json(py, report)
}

/// Merges the records files of a sharded run (`--shard K/N` runs of one match,
/// tournament or comparison, in any order) into the new records file `out`, as
/// `isolo-ai merge` does, and returns the summary `merge --json` prints: a match's
/// (its SPRT, `sprt`, evaluated over the games in order), a tournament's (`anchor`)
/// or a comparison's variants, with a `merge` entry.
#[pyfunction]
#[pyo3(signature = (out, shards, sprt=None, anchor=None))]
pub fn merge(
    py: Python<'_>,
    out: &str,
    shards: Vec<String>,
    sprt: Option<&str>,
    anchor: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let options = MergeOptions {
        sprt: sprt_of(sprt)?,
        anchor: anchor.map(str::to_string),
    };
    let paths: Vec<PathBuf> = shards.iter().map(PathBuf::from).collect();
    let out = Path::new(out);
    let outcome = interruptible(py, |interrupt| {
        isolo_engine::merge::merge(out, &paths, &options, Some(interrupt))
    })?
    .map_err(input_error)?;
    let mut value = match &outcome.merged {
        Merged::Match(tally) => serde_json::to_value(tally.report(None)),
        Merged::Tournament { tally, anchor } => serde_json::to_value(tally.report(*anchor, None)),
        Merged::Compare(report) => serde_json::to_value(report),
    }
    .expect("reports serialise");
    value["merge"] = serde_json::to_value(outcome.note(out)).expect("notes serialise");
    if outcome.interrupted {
        value["interrupted"] = Value::from(true);
    }
    to_python(py, &value)
}

/// The SPRT `sprt` names (`"elo0,elo1,alpha,beta"`), if any.
fn sprt_of(sprt: Option<&str>) -> PyResult<Option<Sprt>> {
    sprt.map(|text| Sprt::parse(text).map_err(|e| input_error(format!("sprt: {e}"))))
        .transpose()
}

/// A run's engines, schedule and settings, checked.
struct Run {
    variant: Arc<isolo_rules::Variant>,
    engines: Vec<EngineSpec>,
    suite: Vec<isolo_rules::Board>,
    source: String,
    games: u64,
    seed: u64,
    max_plies: usize,
    concurrency: usize,
}

impl Run {
    /// A run of the engines `specs` names (each with the argument that gave it).
    fn new(
        specs: &[(&str, &str)],
        games: Whole,
        variant: AnyVariant,
        openings: Option<&str>,
        seed: Whole,
        max_plies: Whole,
        concurrency: Whole,
    ) -> PyResult<Run> {
        let games = games.within("games", &ranges::GAMES)?;
        let seed = seed.within("seed", &ranges::SEED)?;
        let max_plies = max_plies.within("max_plies", &ranges::GAME_PLIES)?;
        let concurrency = concurrency.within("concurrency", &ranges::CONCURRENCY)?;
        let engines: Vec<EngineSpec> = specs
            .iter()
            .map(|&(argument, spec)| engine_spec(argument, spec))
            .collect::<PyResult<_>>()?;
        for (i, e) in engines.iter().enumerate() {
            if engines[..i].iter().any(|o| o.label == e.label) {
                return Err(input_error(format!(
                    "engines: two are labelled '{}': name them (fast=ab:depth=4)",
                    e.label
                )));
            }
        }
        let concurrency = workers(concurrency, games);
        runner::check_memory(&engines, concurrency)
            .map_err(|e| input_error(format!("concurrency: {e}")))?;
        let rules = variant.inner.clone();
        let (suite, source) = match openings {
            Some(path) => (
                load_suite(&rules, path).map_err(|e| input_error(format!("openings: {e}")))?,
                path.to_string(),
            ),
            None => (vec![rules.start()], "start".to_string()),
        };
        Ok(Run {
            variant: rules,
            engines,
            suite,
            source,
            games,
            seed,
            max_plies,
            concurrency,
        })
    }

    /// The schedule of `pairings`, and its records file if `out` names one (new, or
    /// resumed with `resume`).
    fn records(
        &self,
        kind: &str,
        pairings: Vec<(usize, usize)>,
        out: Option<&str>,
        resume: bool,
    ) -> PyResult<Planned> {
        let schedule = Schedule::new(pairings, self.suite.clone(), self.games, self.seed);
        let Some(path) = out else {
            if resume {
                return Err(input_error(
                    "resume: give out, the records file to continue",
                ));
            }
            return Ok(Planned {
                schedule,
                file: None,
                resumed: Resumed::default(),
            });
        };
        let header = Header::new(
            kind,
            &self.variant,
            &self.engines,
            &schedule,
            &self.source,
            self.max_plies,
        );
        let (file, resumed) = records::open_for_run(Path::new(path), &header, &schedule, resume)
            .map_err(|e| match e {
                RunRecordsError::HoldsRecords(_) => input_error(format!(
                    "out: {e}: pass resume=True to continue, or choose another file"
                )),
                RunRecordsError::NotThisRun(_) => input_error(format!("resume: {e}")),
                RunRecordsError::File(_) => input_error(format!("out: {e}")),
            })?;
        Ok(Planned {
            schedule,
            file: Some(file),
            resumed,
        })
    }

    /// Plays the schedule, the resumed games first; `on_record` sees each record in
    /// game order and says whether to stop.
    fn play(
        &self,
        planned: Planned,
        interrupt: &'static std::sync::atomic::AtomicBool,
        on_record: impl FnMut(&records::Record) -> bool + Send,
    ) -> PyResult<runner::RunOutcome> {
        let settings = PlaySettings::new(self.max_plies, self.variant.name());
        let done = planned
            .resumed
            .records()
            .map_err(|e| input_error(format!("resume: {e}")))?;
        runner::run(
            &self.variant,
            &self.engines,
            &planned.schedule,
            done,
            self.concurrency,
            &settings,
            planned.file,
            Some(interrupt),
            on_record,
        )
        .map_err(input_error)
    }
}

/// A run's schedule and records file, ready to play.
struct Planned {
    schedule: Schedule,
    file: Option<records::RecordsWriter>,
    resumed: Resumed,
}

/// What a records file holds: a match's or tournament's games, or a comparison's.
enum Source {
    Games(Box<RecordsReader>),
    Compared(Box<CompareReader>),
}

/// A records file's games, read one at a time (`read_records(path)`).
///
/// Iterating gives one dict per game: the fields of the file's line but its `digest`,
/// which is checked as the line is read (for a match or a tournament: `game`,
/// `opening`, `south`, `north`, `moves`, `result`, `reason`, `plies`, `seed`,
/// `time_ms`...; for a comparison: `variant` (an index into the
/// header's `variants`), `game`, `seed`, `first`, `result`, `reason`, `plies` and the
/// per-game means). `header` is the file's first line as a dict; `kind` its kind.
#[pyclass(module = "isolo_ai")]
pub struct Records {
    source: Source,
    header: Value,
    path: PathBuf,
    /// The games the file holds, counted when first asked.
    count: OnceLock<usize>,
}

/// The games of the records file at `path` (written by `match`, `tournament` or
/// `compare --out`, or by `isolo_ai.match(out=...)`), one dict at a time.
#[pyfunction]
pub fn read_records(path: &str) -> PyResult<Records> {
    let at = Path::new(path);
    if !at.exists() {
        return Err(PyFileNotFoundError::new_err(format!(
            "{path}: no such records file"
        )));
    }
    let kind = records::kind_of(at).map_err(input_error)?;
    let (source, header) = if kind.as_deref() == Some("compare") {
        let reader = CompareReader::open(at).map_err(input_error)?;
        let header = serde_json::to_value(&reader.header).expect("headers serialise");
        (Source::Compared(Box::new(reader)), header)
    } else {
        let reader = RecordsReader::open(at)
            .map_err(input_error)?
            .ok_or_else(|| input_error(format!("{path}: no records header")))?;
        let header = serde_json::to_value(&reader.header).expect("headers serialise");
        (Source::Games(Box::new(reader)), header)
    };
    Ok(Records {
        source,
        header,
        path: at.to_path_buf(),
        count: OnceLock::new(),
    })
}

#[pymethods]
impl Records {
    /// The file's header, as a dict.
    #[getter]
    fn header(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.header)
    }

    /// `match`, `tournament` or `compare`.
    #[getter]
    fn kind(&self) -> String {
        self.header["kind"].as_str().unwrap_or_default().to_string()
    }

    /// The variant of a match's or tournament's records (`None` for a comparison's,
    /// whose header lists its variants).
    #[getter]
    fn variant(&self) -> Option<Variant> {
        match &self.source {
            Source::Games(reader) => Some(Variant {
                inner: Arc::new(reader.variant.clone()),
            }),
            Source::Compared(_) => None,
        }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The games the file holds (all of them, however many were iterated), read once
    /// through a reader of its own.
    fn __len__(&self) -> PyResult<usize> {
        if let Some(&count) = self.count.get() {
            return Ok(count);
        }
        let mut count = 0;
        match &self.source {
            Source::Games(_) => {
                let mut reader = RecordsReader::open(&self.path)
                    .map_err(input_error)?
                    .ok_or_else(|| input_error("the file lost its records header"))?;
                while reader.next_record().map_err(input_error)?.is_some() {
                    count += 1;
                }
            }
            Source::Compared(_) => {
                let mut reader = CompareReader::open(&self.path).map_err(input_error)?;
                while reader.next_game().map_err(input_error)?.is_some() {
                    count += 1;
                }
            }
        }
        Ok(*self.count.get_or_init(|| count))
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let value = match &mut self.source {
            Source::Games(reader) => match reader.next_record().map_err(input_error)? {
                Some(record) => record.to_value(&reader.variant),
                None => return Ok(None),
            },
            Source::Compared(reader) => match reader.next_game().map_err(input_error)? {
                Some(game) => game.to_value(),
                None => return Ok(None),
            },
        };
        to_python(py, &value).map(Some)
    }
}

/// Tunes the evaluation weights of `variant` by self-play, as `isolo-ai tune` does
/// (the Texel method): `games` self-play games of alpha-beta at `nodes` a move, from
/// `openings` (a suite file; default: the start) after `random_plies` random plies,
/// drawn at `max_plies`; the positions quiet over `quiet_plies` capture plies (of the
/// decided games only with `decided_only`) fitted over `epochs` gradient steps, then a
/// net of `net` hidden units over `net_epochs` passes if `net` is not 0. `start` is
/// `"auto"` (the variant's shipped weights, or the hand weights), `"hand"` or a weights
/// file; `threads` games at once (default: the cores). Returns what `tune --json`
/// prints, with `weights_file` (the TOML text `out`, if given, is written with).
#[pyfunction]
#[pyo3(signature = (
    variant,
    games=Whole::of(ranges::TUNE_GAMES.default.unwrap() as u64),
    openings=None,
    random_plies=Whole::of(ranges::TUNE_RANDOM_PLIES.default.unwrap() as u64),
    nodes=Whole::of(ranges::TUNE_NODES.default.unwrap()),
    max_plies=Whole::of(ranges::TUNE_GAME_PLIES.default.unwrap() as u64),
    quiet_plies=Whole::of(ranges::TUNE_QUIET_PLIES.default.unwrap() as u64),
    decided_only=false,
    epochs=Whole::of(ranges::TUNE_EPOCHS.default.unwrap() as u64),
    net=Whole::of(ranges::NET_HIDDEN.default.unwrap() as u64),
    net_epochs=Whole::of(ranges::NET_EPOCHS.default.unwrap() as u64),
    start="auto",
    seed=Whole::of(1),
    threads=None,
    out=None,
    cancel=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn tune(
    py: Python<'_>,
    variant: AnyVariant,
    games: Whole,
    openings: Option<&str>,
    random_plies: Whole,
    nodes: Whole,
    max_plies: Whole,
    quiet_plies: Whole,
    decided_only: bool,
    epochs: Whole,
    net: Whole,
    net_epochs: Whole,
    start: &str,
    seed: Whole,
    threads: Option<Whole>,
    out: Option<&str>,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    let rules = &variant.inner;
    let games = games.within("games", &ranges::TUNE_GAMES)?;
    let random_plies = random_plies.within("random_plies", &ranges::TUNE_RANDOM_PLIES)?;
    let nodes = nodes.within("nodes", &ranges::TUNE_NODES)?;
    let max_plies = max_plies.within("max_plies", &ranges::TUNE_GAME_PLIES)?;
    let quiet_plies = quiet_plies.within("quiet_plies", &ranges::TUNE_QUIET_PLIES)?;
    let epochs = epochs.within("epochs", &ranges::TUNE_EPOCHS)?;
    let net = net.within("net", &ranges::NET_HIDDEN)?;
    let net_epochs = net_epochs.within("net_epochs", &ranges::NET_EPOCHS)?;
    let seed = seed.within("seed", &ranges::SEED)?;
    let settings = TuneSettings {
        games,
        random_plies,
        nodes,
        max_plies,
        quiet_plies,
        decided_only,
        epochs,
        net,
        net_epochs,
        seed,
        threads: match within("threads", threads, &ranges::THREADS)? {
            Some(t) => workers(t, games as u64),
            None => isolo_engine::matches::cores(),
        },
    };
    let suite = match openings {
        Some(path) => load_suite(rules, path).map_err(|e| input_error(format!("openings: {e}")))?,
        None => vec![rules.start()],
    };
    let weights = Weights::choose(start)
        .map_err(|e| input_error(format!("start: {e}")))?
        .unwrap_or_else(|| Weights::for_variant(rules));
    if let Some(path) = out {
        writable("out", Path::new(path))?;
    }
    let token = cancel.map(|c| c.token.clone());
    let tuned = interruptible_by(py, token.as_ref(), |interrupt| {
        research::tune::tune(rules, &suite, &weights, &settings, &(), Some(interrupt))
    })?
    .map_err(input_error)?;
    let command = format!(
        "isolo_ai.tune(variant={:?}, games={games}, openings={:?}, random_plies={random_plies}, nodes={nodes}, max_plies={max_plies}, quiet_plies={quiet_plies}, decided_only={}, epochs={epochs}, net={net}, net_epochs={net_epochs}, start={start:?}, seed={seed})",
        rules.name(),
        openings.unwrap_or("<start>"),
        if decided_only { "True" } else { "False" },
    );
    let file = tuned.weights_file(&command);
    if let Some(path) = out {
        isolo_rules::write_bytes_whole(path.as_ref(), file.as_bytes())
            .map_err(|e| input_error(format!("out: cannot write {path}: {e}")))?;
    }
    let mut value = serde_json::to_value(&tuned.report).expect("reports serialise");
    value["weights"] = serde_json::to_value(&tuned.weights).expect("weights serialise");
    value["out"] = Value::from(out);
    value["weights_file"] = Value::from(file);
    to_python(py, &value)
}

/// Refuses, before a long run, an output path that cannot be written: a folder, or a
/// file in a folder that does not exist.
fn writable(name: &str, path: &Path) -> PyResult<()> {
    if path.is_dir() {
        return Err(input_error(format!(
            "{name}: {} is a folder",
            path.display()
        )));
    }
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    if folder.is_some_and(|f| !f.is_dir()) {
        return Err(input_error(format!(
            "{name}: no folder {}",
            folder.map(Path::display).expect("a folder")
        )));
    }
    Ok(())
}
