//! `isolo_ai._native`: the rules and the engine of Isolo and Igisoro for Python.
//!
//! The Python package (`python/isolo_ai/`) re-exports these names; their documentation
//! is what `help()` shows. Every search releases the GIL and stops on Ctrl-C
//! ([`interruptible`]).

mod actions;
mod analysis;
mod args;
mod game;
mod player;
mod research;
mod stopping;
mod variant;

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

create_exception!(
    isolo_ai,
    InputError,
    PyValueError,
    "Bad input: a variant, position, move, rules text or limit the engine refused, with its message."
);
create_exception!(
    isolo_ai,
    IllegalMove,
    InputError,
    "A move that is not legal in the position (or not in the notation), or a game already over."
);

create_exception!(
    isolo_ai,
    Cancelled,
    pyo3::exceptions::PyException,
    "A call stopped by its `cancel` whose result cannot say it was cut short (`compare`'s rows, `perft`'s count, `playouts`)."
);

/// A call whose result cannot say it was cut short, stopped: `Cancelled` where its
/// `cancel` stopped it, `KeyboardInterrupt` where Ctrl-C did; the message says what
/// was `done` ("cancelled: 3 games played").
pub(crate) fn cut_short(cancel: Option<&Arc<stopping::Token>>, done: &str) -> PyErr {
    if cancel.is_some_and(|token| token.is_cancelled()) {
        Cancelled::new_err(format!("cancelled: {done}"))
    } else {
        pyo3::exceptions::PyKeyboardInterrupt::new_err(format!("interrupted: {done}"))
    }
}

/// How often a long call looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` on another thread with the GIL released, looking for Ctrl-C meanwhile:
/// on Ctrl-C the work is asked to stop (through the flag it is given), awaited, and
/// `KeyboardInterrupt` raised. A call in another thread is stopped by Ctrl-C too (its
/// work returns what it has: `stopping::hook_ctrl_c`), and by `cancel`.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&'static AtomicBool) -> T + Send,
) -> PyResult<T> {
    interruptible_by(py, None, work)
}

/// `interruptible`, also stopped by `cancel` (the work then returns what it has).
pub(crate) fn interruptible_by<T: Send>(
    py: Python<'_>,
    cancel: Option<&Arc<stopping::Token>>,
    work: impl FnOnce(&'static AtomicBool) -> T + Send,
) -> PyResult<T> {
    match interruptible_keeping(py, cancel, work)? {
        (value, None) => Ok(value),
        (_, Some(signal)) => Err(signal),
    }
}

/// `interruptible_by`, whose work's result is kept on Ctrl-C too, beside the signal's
/// exception (for a caller that hands back what was done before raising it).
pub(crate) fn interruptible_keeping<T: Send>(
    py: Python<'_>,
    cancel: Option<&Arc<stopping::Token>>,
    work: impl FnOnce(&'static AtomicBool) -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let slot = stopping::Slot::take();
    let _watch = cancel.map(|token| token.watch(&slot));
    let stop = slot.flag();
    let active = &stopping::Active::begin();
    let (answer, answered) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = answer.send(work(stop));
        });
        let mut answered = answered;
        loop {
            // (A receiver is not Sync: it goes into the GIL-free closure and back. At
            // the interpreter's exit the thread stays out: `Active::before_python`.)
            let (received, back) = py.detach(move || {
                let received = answered.recv_timeout(SIGNAL_POLL);
                active.before_python();
                (received, answered)
            });
            answered = back;
            match received {
                Ok(value) => return Ok((value, None)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the engine failed"))
                }
            }
            if let Err(signal) = py.check_signals() {
                stopping::stop_all();
                // (The work stops and answers with what it has, the GIL released.)
                let value = py.detach(move || {
                    let value = answered.recv();
                    active.before_python();
                    value
                });
                return match value {
                    Ok(value) => Ok((value, Some(signal))),
                    Err(_) => Err(signal),
                };
            }
        }
    })
}

/// An engine's refusal as `InputError`.
pub(crate) fn input_error(message: impl std::fmt::Display) -> PyErr {
    InputError::new_err(message.to_string())
}

/// A JSON value as the Python object `json.loads` would make.
pub(crate) fn to_python(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, item) in fields {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("Cancelled", py.get_type::<Cancelled>())?;
    m.add_class::<variant::Variant>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<actions::ActionGame>()?;
    m.add_class::<player::Engine>()?;
    m.add_class::<stopping::Cancel>()?;
    stopping::hook_ctrl_c();
    // (At exit, running calls are stopped and their threads kept off the GIL.)
    let stop_for_exit = wrap_pyfunction!(stopping::stop_for_exit, m)?;
    m.add_function(stop_for_exit.clone())?;
    py.import("atexit")?
        .call_method1("register", (stop_for_exit,))?;
    m.add_function(wrap_pyfunction!(variant::variants, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::perft, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::review, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::solve, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::playouts, m)?)?;
    m.add_class::<research::Records>()?;
    m.add_function(wrap_pyfunction!(research::compare, m)?)?;
    m.add_function(wrap_pyfunction!(research::wilson, m)?)?;
    m.add_function(wrap_pyfunction!(research::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(research::tournament, m)?)?;
    m.add_function(wrap_pyfunction!(research::merge, m)?)?;
    m.add_function(wrap_pyfunction!(research::tune, m)?)?;
    m.add_function(wrap_pyfunction!(research::read_records, m)?)?;
    Ok(())
}
