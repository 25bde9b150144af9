//! The long calls: perft, a search, a proof, random playouts. Each runs with the GIL
//! released and stops on Ctrl-C ([`crate::interruptible`]).

use pyo3::prelude::*;
use serde_json::json;

use crate::args::{within, Whole};
use crate::game::{Game, Searched};
use crate::stopping::Cancel;
use crate::variant::AnyVariant;
use crate::{cut_short, input_error, interruptible_by, to_python};
use isolo_engine::matches::schedule::game_seed;
use isolo_engine::matches::settings::{SearchSettings, SearcherKind, Setting};
use isolo_engine::prove::pipeline::{
    self, Method, ProofSetting, Refusal, Root, SolveError, SolveSettings,
};
use isolo_engine::prove::retrograde::distributed::DistributedError;
use isolo_engine::ranges;
use isolo_engine::review::ReviewBudget;
use isolo_engine::search::{finished_json, SearchRequest};
use isolo_engine::EngineSpec;
use isolo_rules::perft_until;
use isolo_rules::Interrupt;
use isolo_rules::{random_game, RandomMover};

/// Search time when `analyze` is given no limit, in milliseconds.
const DEFAULT_ANALYSIS_MS: u64 = 1_000;

/// Leaf positions `depth` plies from `position` (the variant's start when omitted), as
/// `isolo-ai perft` counts them. `cancel` (a `Cancel`) stops it from another thread:
/// `Cancelled` is raised (a count cannot say it was cut).
#[pyfunction]
#[pyo3(signature = (variant, depth, position=None, cancel=None))]
pub fn perft(
    py: Python<'_>,
    variant: AnyVariant,
    depth: Whole,
    position: Option<&str>,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<u64> {
    let depth = depth.within("depth", &ranges::PERFT_DEPTH)?;
    let board = variant.start_or(position)?;
    let rules = variant.inner.clone();
    let token = cancel.map(|c| c.token.clone());
    interruptible_by(py, token.as_ref(), move |stop| {
        perft_until(&rules, &board, depth, &Interrupt::on_static(stop))
    })?
    .ok_or_else(|| {
        cut_short(
            token.as_ref(),
            &format!("perft to depth {depth} not finished"),
        )
    })
}

/// The budget and resources of one search, as the arguments of `analyze` and `review`
/// give them.
struct Budget {
    depth: Option<u32>,
    nodes: Option<u64>,
    time_ms: Option<u64>,
    threads: usize,
    hash_mb: Option<usize>,
}

impl Budget {
    /// The arguments, each read in its range.
    fn of(
        depth: Option<Whole>,
        nodes: Option<Whole>,
        time_ms: Option<Whole>,
        threads: Whole,
        hash_mb: Option<Whole>,
    ) -> PyResult<Budget> {
        Ok(Budget {
            depth: within("depth", depth, &ranges::DEPTH)?,
            nodes: within("nodes", nodes, &ranges::NODES)?,
            time_ms: within("time_ms", time_ms, &ranges::TIME_MS)?,
            threads: threads.within("threads", &ranges::THREADS)?,
            hash_mb: within("hash_mb", hash_mb, &ranges::HASH_MB)?,
        })
    }
}

/// The engine of `analyze`'s arguments, as typed settings: a refusal names the argument.
fn analysis_spec(base: SearchSettings, budget: Budget, seed: u64) -> PyResult<EngineSpec> {
    let searcher = base.searcher;
    let Budget {
        depth,
        nodes,
        time_ms,
        threads,
        hash_mb,
    } = budget;
    let time_ms = match (depth, nodes, time_ms) {
        (None, None, None) => Some(DEFAULT_ANALYSIS_MS),
        (_, _, time) => time,
    };
    let settings = SearchSettings {
        depth,
        nodes,
        time_ms,
        threads: Some(threads),
        hash_mb,
        seed: Some(seed),
        ..base
    };
    settings.spec().map_err(|e| {
        let argument = match e.setting() {
            Setting::Depth => "depth",
            Setting::Nodes => "nodes",
            Setting::TimeMs => "time_ms",
            Setting::Threads => "threads",
            Setting::Hash => "hash_mb",
            other => other.key(searcher),
        };
        input_error(format!("{argument}: {}", e.problem()))
    })
}

/// Searches the game's position and returns what `isolo-ai analyze --json` prints:
/// `best_move`, `score` (`{"type": "win"|"loss", "plies": N}` when proven, `{"type":
/// "draw"}` or `{"type": "eval", "value": SEEDS}`, from the mover's side), `pv`,
/// `lines` (with `multipv`), `depth`, `nodes`, `nps`, `time_ms`, `engine`.
///
/// `engine` is `"ab"` (alpha-beta) or `"mcts"`; the limits are `depth` (alpha-beta),
/// `nodes` (nodes or MCTS iterations) and `time_ms`, 1000 ms when none is given. With
/// one thread and a node limit the answer is the command line's, bit for bit.
#[pyfunction]
#[pyo3(
    signature = (game, engine="ab", depth=None, nodes=None, time_ms=None, multipv=Whole::of(1), threads=Whole::of(1), seed=Whole::of(0), hash_mb=None, cancel=None),
    text_signature = "(game, engine='ab', depth=None, nodes=None, time_ms=None, multipv=1, threads=1, seed=0, hash_mb=None, cancel=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    game: &Bound<'_, Game>,
    engine: &str,
    depth: Option<Whole>,
    nodes: Option<Whole>,
    time_ms: Option<Whole>,
    multipv: Whole,
    threads: Whole,
    seed: Whole,
    hash_mb: Option<Whole>,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    let multipv = multipv.within("multipv", &ranges::MULTIPV)?;
    let seed = seed.within("seed", &ranges::SEED)?;
    let budget = Budget::of(depth, nodes, time_ms, threads, hash_mb)?;
    let searcher = SearcherKind::named(engine).ok_or_else(|| {
        input_error(format!(
            "engine: '{}' is not one of ab, mcts",
            ranges::quote(engine)
        ))
    })?;
    let spec = analysis_spec(SearchSettings::analysing(searcher), budget, seed)?;
    let Searched {
        variant,
        board,
        history,
        quiet_plies,
        over,
    } = game.borrow().searched();
    let token = cancel.map(|c| c.token.clone());
    let value = interruptible_by(py, token.as_ref(), move |stop| {
        if let Some(outcome) = &over {
            return Ok::<_, String>(finished_json(&variant, &board, outcome));
        }
        let mut searcher = spec
            .searcher()
            .map_err(|e| format!("hash_mb: {e}"))?
            .expect("ab and mcts search");
        let request = SearchRequest {
            variant: &variant,
            board,
            history,
            quiet_plies,
            limits: spec.limits,
            multipv,
            pv_lines: usize::MAX,
            stop: Some(stop),
        };
        let result = searcher.search(&request, &mut |_| {});
        let mut value = result.to_json(&variant, &board);
        if isolo_engine::raised(Some(stop)) {
            // (Ctrl-C in another thread, or a `Cancel`: what was searched, said so.)
            value["interrupted"] = json!(true);
        }
        Ok(value)
    })?
    .map_err(input_error)?;
    to_python(py, &value)
}

/// Reviews the game's moves and returns what `isolo-ai review --json` prints: `moves`
/// (each `ply`, `move`, `side`, `best`, `best_line`, `best_score`, `score`, `best_wdl`,
/// `wdl`, `loss` in win chance, `loss_seeds`, `class`, `turning_point`), `accuracy`
/// (`S`, `N`), `classes`, `positions`, `nodes`, `time_ms`, `interrupted`,
/// `out_of_time`.
///
/// Alpha-beta searches every position at the budget: `depth`, `nodes` or `time_ms`
/// (200000 nodes when none is given); `total_ms` bounds the whole review (the moves
/// reviewed by then are returned, `out_of_time` true). With one thread and a node or
/// depth budget the answer is the command line's.
#[pyfunction]
#[pyo3(
    signature = (game, depth=None, nodes=None, time_ms=None, threads=Whole::of(1), hash_mb=None, total_ms=None, cancel=None),
    text_signature = "(game, depth=None, nodes=None, time_ms=None, threads=1, hash_mb=None, total_ms=None, cancel=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn review(
    py: Python<'_>,
    game: &Bound<'_, Game>,
    depth: Option<Whole>,
    nodes: Option<Whole>,
    time_ms: Option<Whole>,
    threads: Whole,
    hash_mb: Option<Whole>,
    total_ms: Option<Whole>,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    let nodes = within("nodes", nodes, &ranges::REVIEW_NODES)?.map(Whole::of);
    let total_ms = within("total_ms", total_ms, &ranges::REVIEW_TOTAL_MS)?;
    let nodes = match (&depth, nodes, &time_ms) {
        (None, None, None) => Some(Whole::of(ranges::DEFAULT_REVIEW_NODES)),
        (_, nodes, _) => nodes,
    };
    let budget = Budget::of(depth, nodes, time_ms, threads, hash_mb)?;
    let spec = analysis_spec(SearchSettings::reviewing(), budget, 0)?;
    let (variant, (start, moves)) = {
        let game = game.borrow();
        let played = game.with_game(|g| (*g.start(), g.moves().to_vec()));
        (game.variant_arc(), played)
    };
    let token = cancel.map(|c| c.token.clone());
    let value = interruptible_by(py, token.as_ref(), move |stop| {
        let mut game = isolo_rules::Game::new(&variant, start);
        for mv in &moves {
            game.play_move(mv).map_err(|e| e.to_string())?;
        }
        let mut searcher = spec
            .searcher()
            .map_err(|e| format!("hash_mb: {e}"))?
            .expect("alpha-beta searches");
        let budget = ReviewBudget {
            position: spec.limits,
            total: total_ms.map(std::time::Duration::from_millis),
        };
        let reviewed = isolo_engine::review::review(
            &game,
            searcher.as_mut(),
            budget,
            &mut |_, _| {},
            Some(stop),
        );
        Ok::<_, String>(reviewed.to_json())
    })?
    .map_err(input_error)?;
    to_python(py, &value)
}

fn method_of(name: &str) -> PyResult<Method> {
    Method::named(name).ok_or_else(|| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        input_error(format!(
            "method: '{}' is not one of {}",
            ranges::quote(name),
            names.join(", ")
        ))
    })
}

/// A refusal of the pipeline's in the binding's argument names.
fn refusal_text(refusal: Refusal) -> String {
    match refusal {
        Refusal::Threads(_) => format!("threads: {refusal}"),
        Refusal::Hash(_) => format!("hash_mb: {refusal}"),
        Refusal::MaxPlies { method, most } => {
            format!(
                "max_plies: must be 1..={most} with method {}",
                method.name()
            )
        }
        Refusal::IndexedHash { most_mb, given_mb } => format!(
            "hash_mb: the indexed analysis may take 1..={most_mb} MB here, found {given_mb}"
        ),
        Refusal::NotForMethod { method, setting } => {
            let argument = match setting {
                ProofSetting::Threads => "threads other than 1",
                ProofSetting::Nodes => "nodes",
                ProofSetting::ExactLength => "exact_length",
                ProofSetting::Moves => "game with moves (its wins ignore the game before the position: give Game(variant, position=...))",
                // Not arguments of the binding's: named as the command line does.
                ProofSetting::Verify => "verify",
                ProofSetting::Sought => "prove",
                ProofSetting::Certificate => "certificate",
                ProofSetting::Resume => "resume",
            };
            format!("method {} takes no {argument}", method.name())
        }
    }
}

/// Proves the game's result and returns what `isolo-ai solve --json` prints (the
/// method's report: its `result`, `plies`, the line, nodes and time...).
///
/// `method` is `"auto"`, `"ab"`, `"dfpn"`, `"retro"`, `"indexed"` or `"distributed"`
/// (`threads` ranks as threads), as on the command line; `max_plies` the longest result
/// looked for; `time_ms` the time for all of it. `checkpoints` (method `"distributed"`)
/// is a folder where the labels are saved every 10 minutes and when stopped, and from
/// which a later call on the same game resumes, as `solve --resume FOLDER` does.
#[pyfunction]
#[pyo3(
    signature = (game, method="auto", max_plies=Whole::of(pipeline::DEFAULT_PROOF_PLIES as u64), time_ms=Whole::of(pipeline::DEFAULT_TIME_MS), threads=Whole::of(1), hash_mb=Whole::of(pipeline::DEFAULT_HASH_MB as u64), nodes=None, exact_length=false, checkpoints=None, cancel=None),
    text_signature = "(game, method='auto', max_plies=30, time_ms=60000, threads=1, hash_mb=256, nodes=None, exact_length=False, checkpoints=None, cancel=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    game: &Bound<'_, Game>,
    method: &str,
    max_plies: Whole,
    time_ms: Whole,
    threads: Whole,
    hash_mb: Whole,
    nodes: Option<Whole>,
    exact_length: bool,
    checkpoints: Option<std::path::PathBuf>,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    let method = method_of(method)?;
    if checkpoints.is_some() && method != Method::Distributed {
        return Err(input_error(format!(
            "checkpoints: method {} keeps none (only method distributed does)",
            method.name()
        )));
    }
    let max_plies = max_plies.within("max_plies", &ranges::PROOF_PLIES)?;
    let time_ms = time_ms.within("time_ms", &ranges::SOLVE_TIME_MS)?;
    let threads = threads.within("threads", &ranges::THREADS)?;
    let hash_mb = hash_mb.within("hash_mb", &ranges::HASH_MB)?;
    let nodes = within("nodes", nodes, &ranges::NODES)?;
    let (variant, root) = {
        let game = game.borrow();
        (game.variant_arc(), game.with_game(Root::of_game))
    };
    let settings = SolveSettings {
        method,
        max_plies,
        time: pipeline::time_limit(time_ms),
        threads,
        hash_mb,
        nodes,
        exact_length,
        resume: checkpoints,
        ..SolveSettings::default()
    };
    if let Some(refusal) = settings.refusal(&root) {
        return Err(input_error(refusal_text(refusal)));
    }
    let token = cancel.map(|c| c.token.clone());
    let report = interruptible_by(py, token.as_ref(), move |stop| {
        let settings = SolveSettings {
            interrupt: Some(stop),
            ..settings
        };
        pipeline::solve(&variant, &root, &settings, &|_| {})
            .map(|report| serde_json::to_value(&report).expect("a report is plain data"))
            .map_err(|e| match e {
                SolveError::Table(_) => format!("hash_mb: {e}"),
                SolveError::Distributed(DistributedError::Checkpoint(_)) => {
                    format!("checkpoints: {e}")
                }
                _ => e.to_string(),
            })
    })?
    .map_err(input_error)?;
    to_python(py, &report)
}

/// Plays `games` random games from `position` (the variant's start when omitted), each
/// until a side has no move or `max_plies`; game `i` from the seed the command line's
/// `bench --playouts` gives it. Returns `{"games", "wins": {"S", "N"}, "unfinished",
/// "plies": [...], "winners": [...]}` (`"S"`, `"N"` or `"draw"` for each game: one that
/// reached `max_plies` unfinished is drawn, as a `Game`'s `max_plies` draws it).
/// `cancel` (a `Cancel`) stops it from another thread: `Cancelled` is raised.
#[pyfunction]
#[pyo3(
    signature = (variant, games, seed=Whole::of(0), max_plies=Whole::of(1000), position=None, cancel=None),
    text_signature = "(variant, games, seed=0, max_plies=1000, position=None, cancel=None)"
)]
pub fn playouts(
    py: Python<'_>,
    variant: AnyVariant,
    games: Whole,
    seed: Whole,
    max_plies: Whole,
    position: Option<&str>,
    cancel: Option<PyRef<'_, Cancel>>,
) -> PyResult<Py<PyAny>> {
    let games = games.within("games", &ranges::PLAYOUTS)?;
    let seed = seed.within("seed", &ranges::SEED)?;
    let max_plies = max_plies.within("max_plies", &ranges::PLAYOUT_PLIES)?;
    let start = variant.start_or(position)?;
    let rules = variant.inner.clone();
    let token = cancel.map(|c| c.token.clone());
    let (plies, winners) = interruptible_by(py, token.as_ref(), move |stop| {
        let mut mover = RandomMover::default();
        let (mut plies, mut winners) = (Vec::new(), Vec::new());
        for i in 0..games {
            if isolo_engine::raised(Some(stop)) {
                return Err(i);
            }
            let game = random_game(&rules, start, max_plies, game_seed(seed, i), &mut mover);
            plies.push(game.plies);
            // (A game cut at `max_plies` is drawn, as a `Game`'s `max_plies` draws it.)
            winners.push(
                game.winner
                    .map_or("draw".to_string(), |w| w.letter().to_string()),
            );
        }
        Ok((plies, winners))
    })?
    .map_err(|played| cut_short(token.as_ref(), &format!("{played} games played")))?;
    let count = |result: &str| winners.iter().filter(|w| *w == result).count();
    let value = json!({
        "games": games,
        "wins": {"S": count("S"), "N": count("N")},
        "unfinished": count("draw"),
        "plies": plies,
        "winners": winners,
    });
    to_python(py, &value)
}

// (The defaults `solve`'s text signature shows, held to the engine's by the compiler.)
const _: () = assert!(pipeline::DEFAULT_PROOF_PLIES == 30);
const _: () = assert!(pipeline::DEFAULT_TIME_MS == 60_000);
const _: () = assert!(pipeline::DEFAULT_HASH_MB == 256);
