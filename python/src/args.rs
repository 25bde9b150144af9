//! Whole-number arguments as Python gives them, of any size and sign.
//!
//! An argument typed `u32` would refuse `-1` or `2**70` while being converted, with
//! `OverflowError` and no word of which argument or what range; taken as [`Whole`], it
//! is read through the engine's [`Range`] of the setting, the one every front end reads,
//! and refused with `InputError` (a `ValueError`) that names the argument and the range:
//! `depth: must be 1..=100 plies, found -1`, as the command line says it.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use isolo_engine::ranges::{Number, Range};

use crate::input_error;

/// A Python `int`: one that fits in a `u64` as it is, any other (negative, larger) as
/// written in decimal; anything else is a `TypeError` naming the argument.
pub(crate) enum Whole {
    Fits(u64),
    Outside(String),
}

impl Whole {
    /// The default of an argument.
    pub(crate) fn of(value: u64) -> Whole {
        Whole::Fits(value)
    }

    /// In `range`, or the refusal naming the argument `name`.
    pub(crate) fn within<T: Number>(&self, name: &str, range: &Range<T>) -> PyResult<T> {
        range
            .parse(&self.to_string())
            .map_err(|e| input_error(format!("{name}: {e}")))
    }

    /// As an index (an action's number), if it can be one.
    pub(crate) fn index(&self) -> Option<usize> {
        match self {
            Whole::Fits(n) => usize::try_from(*n).ok(),
            Whole::Outside(_) => None,
        }
    }
}

impl std::fmt::Display for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Whole::Fits(n) => write!(f, "{n}"),
            Whole::Outside(text) => f.write_str(text),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Whole> {
        if let Ok(n) = obj.extract::<u64>() {
            return Ok(Whole::Fits(n));
        }
        let int = obj.cast::<PyInt>()?;
        Ok(Whole::Outside(int.str()?.to_string()))
    }
}

/// An optional argument in `range`, or the refusal naming it.
pub(crate) fn within<T: Number>(
    name: &str,
    value: Option<Whole>,
    range: &Range<T>,
) -> PyResult<Option<T>> {
    value.map(|v| v.within(name, range)).transpose()
}

/// A move argument named `name`: the project's notation as a `str` (`"11xp"`), or a
/// pit's number as an `int` (a move of no choices, `7`); anything else a `TypeError`
/// naming the argument.
pub(crate) fn move_text(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(text);
    }
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        return Ok(value.str()?.to_string());
    }
    let found = value.get_type().name()?;
    Err(PyTypeError::new_err(format!(
        "{name}: expected a move in the project's notation (a str such as '11xp') or a \
         pit's number (an int), found {found}"
    )))
}
