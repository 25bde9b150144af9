//! The research runs from Python: `compare` (one row per game), `match` (the summary)
//! and `read_records` (a records file's games, one at a time).

use std::path::Path;
use std::sync::Arc;

use pyo3::exceptions::PyFileNotFoundError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::variant::Variant;
use crate::{in_range, input_error, interruptible, to_python};
use isolo_engine::matches::engine::{EngineKind, EngineSpec};
use isolo_engine::matches::game_loop::DEFAULT_GAME_PLIES;
use isolo_engine::matches::openings::load_suite;
use isolo_engine::matches::records::{self, Header, RecordsReader};
use isolo_engine::matches::runner::{self, PlaySettings};
use isolo_engine::matches::schedule::Schedule;
use isolo_engine::matches::tally::{Forfeits, MatchSummary, RunningTally};
use isolo_engine::matches::workers;
use isolo_engine::ranges;
use isolo_engine::research::compare::summaries::{CompareReader, ComparedGame};
use isolo_engine::research::compare::{Openings, VariantGames};
use isolo_engine::stats::Sprt;

fn game_pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| input_error(format!("concurrency: {e}")))
}

/// The engine `spec` names; the engines built in only (external ones have a
/// handshake, clocks and logs: `isolo-ai match` plays them).
fn engine_spec(spec: &str) -> PyResult<EngineSpec> {
    let engine = EngineSpec::parse(spec).map_err(|e| input_error(format!("engine: {e}")))?;
    if matches!(engine.kind, EngineKind::External(_)) {
        return Err(input_error(format!(
            "engine '{spec}': external engines play through the command line (isolo-ai match)"
        )));
    }
    Ok(engine)
}

/// Games of the same engine against itself under each variant, as `isolo-ai compare`
/// plays them: one row per game (a dict with the fields of a `compare --out` line, its
/// `variant` the variant's name).
///
/// Game `i` of each variant starts from `openings` (`"start"`, `"random:K"` or a suite
/// file's path) with the seed `compare --seed` gives it, so the rows are the command
/// line's games. `concurrency` games are played at once (at most the cores).
#[pyfunction]
#[pyo3(signature = (variants, games=100, engine="ab:depth=3", seed=0, openings="random:2", max_plies=DEFAULT_GAME_PLIES, concurrency=1))]
#[allow(clippy::too_many_arguments)]
pub fn compare(
    py: Python<'_>,
    variants: Vec<PyRef<'_, Variant>>,
    games: u64,
    engine: &str,
    seed: u64,
    openings: &str,
    max_plies: usize,
    concurrency: usize,
) -> PyResult<Vec<Py<PyAny>>> {
    if variants.is_empty() {
        return Err(input_error("variants: give at least one"));
    }
    in_range("games", games, &ranges::GAMES)?;
    in_range("max_plies", max_plies, &ranges::GAME_PLIES)?;
    in_range("concurrency", concurrency, &ranges::CONCURRENCY)?;
    let engine = engine_spec(engine)?;
    let rules: Vec<Arc<isolo_rules::Variant>> = variants.iter().map(|v| v.inner.clone()).collect();
    let starts: Vec<Openings> = rules
        .iter()
        .map(|v| Openings::parse(v, openings).map_err(|e| input_error(format!("openings: {e}"))))
        .collect::<PyResult<_>>()?;
    let threads = workers(concurrency, games);
    let lines = interruptible(py, |interrupt| -> PyResult<Vec<Value>> {
        let pool = game_pool(threads)?;
        let mut lines = Vec::new();
        for (v, (variant, openings)) in rules.iter().zip(&starts).enumerate() {
            let played = VariantGames {
                variant,
                engine: &engine,
                openings,
                seed,
                max_plies,
            };
            played
                .play(&pool, 0..games, Some(interrupt), |game| {
                    let line = ComparedGame {
                        variant: v,
                        game: game.game,
                        seed: game.seed,
                        summary: game.summary,
                    }
                    .to_line();
                    let mut row: Value = serde_json::from_str(&line).expect("a records line");
                    row["variant"] = Value::from(variant.name());
                    lines.push(row);
                    true
                })
                .map_err(|e| input_error(format!("engine: {e}")))?;
        }
        Ok(lines)
    })??;
    lines.iter().map(|line| to_python(py, line)).collect()
}

/// A match of two built-in engines, as `isolo-ai match` plays it: the summary dict
/// `match --json` prints (wins, draws, score, Elo with its interval, pentanomial, SPRT).
///
/// `games` are played in colour-reversed pairs from each opening of `openings` (a suite
/// file's path; the variant's start when omitted), seeded from `seed`; `sprt`
/// (`"elo0,elo1,alpha,beta"`) stops the match at a verdict; `out` writes the records
/// file `match --out` writes (it must not exist yet).
#[pyfunction(name = "match")]
#[pyo3(signature = (engine_a, engine_b, games, variant, openings=None, seed=0, max_plies=DEFAULT_GAME_PLIES, concurrency=1, sprt=None, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    py: Python<'_>,
    engine_a: &str,
    engine_b: &str,
    games: u64,
    variant: &Variant,
    openings: Option<&str>,
    seed: u64,
    max_plies: usize,
    concurrency: usize,
    sprt: Option<&str>,
    out: Option<&str>,
) -> PyResult<Py<PyAny>> {
    in_range("games", games, &ranges::GAMES)?;
    in_range("max_plies", max_plies, &ranges::GAME_PLIES)?;
    in_range("concurrency", concurrency, &ranges::CONCURRENCY)?;
    let engines = [engine_spec(engine_a)?, engine_spec(engine_b)?];
    if engines[0].label == engines[1].label {
        return Err(input_error(format!(
            "engines: both are labelled '{}': name them (fast=ab:depth=4)",
            engines[0].label
        )));
    }
    let sprt = sprt
        .map(|text| Sprt::parse(text).map_err(|e| input_error(format!("sprt: {e}"))))
        .transpose()?;
    let rules = variant.inner.clone();
    let (suite, source) = match openings {
        Some(path) => (
            load_suite(&rules, path).map_err(|e| input_error(format!("openings: {e}")))?,
            path.to_string(),
        ),
        None => (vec![rules.start()], "start".to_string()),
    };
    let schedule = Schedule::new(vec![(0, 1)], suite, games, seed);
    let file = match out {
        Some(path) => Some(new_records(
            path, &rules, &engines, &schedule, &source, max_plies,
        )?),
        None => None,
    };
    let settings = PlaySettings::new(max_plies, rules.name());
    let threads = workers(concurrency, games);
    let (a, b) = (engines[0].label.clone(), engines[1].label.clone());
    let summary = interruptible(py, |interrupt| {
        let mut running = RunningTally::new(&a, &b);
        let mut forfeits = Forfeits::default();
        let outcome = runner::run(
            &rules,
            &engines,
            &schedule,
            std::iter::empty(),
            threads,
            &settings,
            file,
            Some(interrupt),
            |record| {
                forfeits.add(record);
                let tally = running.add(record);
                sprt.is_some_and(|s| {
                    s.state(&tally.pentanomial).verdict
                        != isolo_engine::stats::SprtVerdict::Continue
                })
            },
        )
        .map_err(|e| input_error(e.to_string()))?;
        let summary = MatchSummary {
            engines: (&a, &b),
            variant: rules.name(),
            tally: running.tally(),
            forfeits: &forfeits,
            sprt,
            stopped: outcome.stopped,
        };
        Ok::<_, PyErr>(summary.to_json(Some(outcome.games_per_minute())))
    })??;
    to_python(py, &summary)
}

/// A new records file at `path` with the match's header; refused if one is there.
fn new_records(
    path: &str,
    variant: &isolo_rules::Variant,
    engines: &[EngineSpec],
    schedule: &Schedule,
    source: &str,
    max_plies: usize,
) -> PyResult<std::fs::File> {
    if Path::new(path).exists() {
        return Err(input_error(format!(
            "out: {path} already exists: choose another file"
        )));
    }
    let header = Header::new("match", variant, engines, schedule, source, max_plies);
    records::create(Path::new(path), &header).map_err(|e| input_error(format!("out: {e}")))
}

/// What a records file holds: a match's or tournament's games, or a comparison's.
enum Source {
    Games(Box<RecordsReader>),
    Compared(Box<CompareReader>),
}

/// A records file's games, read one at a time (`read_records(path)`).
///
/// Iterating gives one dict per game: the fields of the file's line (for a match or a
/// tournament: `game`, `opening`, `south`, `north`, `moves`, `result`, `reason`,
/// `plies`, `seed`, `time_ms`...; for a comparison: `variant` (an index into the
/// header's `variants`), `game`, `seed`, `first`, `result`, `reason`, `plies` and the
/// per-game means). `header` is the file's first line as a dict; `kind` its kind.
#[pyclass(module = "isolo_ai")]
pub struct Records {
    source: Source,
    header: Value,
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
        let header = serde_json::from_str(&reader.header.to_line()).expect("headers serialise");
        (Source::Games(Box::new(reader)), header)
    };
    Ok(Records { source, header })
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

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let line = match &mut self.source {
            Source::Games(reader) => match reader.next_record().map_err(input_error)? {
                Some(_) => reader.last_line().to_string(),
                None => return Ok(None),
            },
            Source::Compared(reader) => match reader.next_game().map_err(input_error)? {
                Some(game) => game.to_line(),
                None => return Ok(None),
            },
        };
        let value: Value = serde_json::from_str(&line).expect("a records line");
        to_python(py, &value).map(Some)
    }
}
