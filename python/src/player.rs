//! `Engine`: one of the engine's players (an engine spec, as `isolo-ai match` takes it)
//! that keeps its search between moves, for bots that play whole games.

use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use isolo_engine::matches::engine::{Bot, EngineSpec};
use isolo_engine::ranges;
use isolo_engine::search::Past;

use crate::args::Whole;
use crate::game::{Game, Searched};
use crate::stopping::Token;
use crate::{input_error, interruptible_by, research, IllegalMove};

/// A player by an engine spec, as `isolo-ai match --engine` takes it: `ab:depth=6`,
/// `ab:nodes=20000`, `mcts:time-ms=100`, `ab:level=3`, `greedy`, `random`, any with
/// `hash=`, `threads=`, `weights=`... (docs/matches.md). Its search (the alpha-beta
/// table, the level's random choices) lives from move to move, as in a match game;
/// `new_game()` starts afresh. `seed` drives its random choices, so a single-threaded
/// engine with a node or depth limit plays the same moves every time.
#[pyclass(module = "isolo_ai")]
pub struct Engine {
    spec: EngineSpec,
    seed: u64,
    /// Locked while it chooses: a second thread's call is refused, not queued.
    bot: Mutex<Bot>,
    /// Raised by `stop()`: the search running now stops.
    stopper: Arc<Token>,
}

impl Engine {
    /// Its bot, or the error of an engine another thread is using.
    fn in_use(&self) -> PyResult<MutexGuard<'_, Bot>> {
        match self.bot.try_lock() {
            Ok(bot) => Ok(bot),
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this Engine is choosing a move in another thread",
            )),
            // (Searches run on a thread of their own, which never holds the lock: a
            // search that fails leaves the lock unpoisoned.)
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
        }
    }

    fn fresh_bot(spec: &EngineSpec, seed: u64) -> PyResult<Bot> {
        spec.bot(seed)
            .map_err(|e| input_error(format!("spec: {e}")))
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (spec, seed = Whole::of(0)), text_signature = "(spec, seed=0)")]
    fn new(spec: &str, seed: Whole) -> PyResult<Engine> {
        let seed = seed.within("seed", &ranges::SEED)?;
        let spec = research::engine_spec("spec", spec)?;
        let bot = Mutex::new(Engine::fresh_bot(&spec, seed)?);
        let stopper = Arc::default();
        Ok(Engine {
            spec,
            seed,
            bot,
            stopper,
        })
    }

    /// The spec it plays by, as given (its label).
    #[getter]
    fn spec(&self) -> String {
        self.spec.label.clone()
    }

    /// The seed of its random choices.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Forgets the game played so far (the search's table, the level's draws): the next
    /// move is chosen as by a new `Engine(spec, seed)`.
    fn new_game(&self) -> PyResult<()> {
        *self.in_use()? = Engine::fresh_bot(&self.spec, self.seed)?;
        Ok(())
    }

    /// The move it plays in `game` (the project's notation); `IllegalMove` if the game
    /// is over. Releases the GIL while it searches; Ctrl-C stops the search and raises
    /// `KeyboardInterrupt`.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<String> {
        let mut bot = self.in_use()?;
        let searched = going_on(game)?;
        let bot: &mut Bot = &mut bot;
        self.stopper.reset();
        let chosen = interruptible_by(py, Some(&self.stopper), move |stop| {
            bot.stop_on(stop);
            let past = Past {
                hashes: &searched.history,
                quiet_plies: searched.quiet_plies,
            };
            let (variant, board) = (&searched.variant, &searched.board);
            bot.choose(variant, board, past, None, &mut |_| {})
                .map(|choice| choice.played.mv.to_string())
        })?;
        chosen.ok_or_else(|| IllegalMove::new_err("the side to move has no legal move"))
    }

    /// The whole move it makes of `partial`, a move half made in `game` under the
    /// retreat (its letters so far, as `"7xp"` or `"7xpr"`): at an answer the answer it
    /// gives, at the mover's turn the rest of the move, each later choice as it expects
    /// it (docs/python.md). `IllegalMove` if `partial` is whole, not legal or no move half
    /// made; `InputError` if it is not a move's text.
    fn complete(&self, py: Python<'_>, game: &Bound<'_, Game>, partial: &str) -> PyResult<String> {
        let mut bot = self.in_use()?;
        let Searched {
            variant,
            board,
            history,
            quiet_plies,
            ..
        } = going_on(game)?;
        let partial = variant
            .parse_move(partial)
            .map_err(|e| input_error(format!("partial: {e}")))?;
        let bot: &mut Bot = &mut bot;
        let asked = partial.clone();
        self.stopper.reset();
        let whole = interruptible_by(py, Some(&self.stopper), move |stop| {
            bot.stop_on(stop);
            let past = Past {
                hashes: &history,
                quiet_plies,
            };
            bot.complete(&variant, &board, past, &asked, None)
                .map(|mv| mv.to_string())
        })?;
        whole.ok_or_else(|| {
            IllegalMove::new_err(format!(
                "move '{partial}' is not a move half made under the retreat"
            ))
        })
    }

    /// Stops the search it is making now, from any thread: `choose` returns the move
    /// found so far (the first legal move if none was searched yet).
    fn stop(&self) {
        self.stopper.cancel();
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?}, seed={})", self.spec.label, self.seed)
    }

    /// Pickled as its spec and seed: the copy chooses as `Engine(spec, seed)` does (the
    /// search's table and the level's draws so far are not carried, as after
    /// `new_game()`), in another process too.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (String, u64)) {
        let engine = slf.borrow();
        (
            slf.get_type().into_any(),
            (engine.spec.label.clone(), engine.seed),
        )
    }
}

/// The game's rules, position and history for a move, or `IllegalMove` once it is over.
fn going_on(game: &Bound<'_, Game>) -> PyResult<Searched> {
    let searched = game.borrow().searched();
    match searched.over {
        Some(outcome) => Err(IllegalMove::new_err(format!(
            "the game is over: {}",
            isolo_rules::describe(&outcome)
        ))),
        None => Ok(searched),
    }
}
