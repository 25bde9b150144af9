//! `Variant`: a preset, a named reading or a rules file, shared by the games on it.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::{input_error, to_python};
use isolo_rules::{Rules, Setup, SetupError, SetupField, PRESETS, READINGS};

/// A variant of the game: its rules and the tables derived from them.
///
/// Load a preset or a named reading by name (`Variant.load("igisoro")`), a rules file
/// by path, or rules from TOML text (`Variant.from_toml(text)`); `isolo_ai.variants()`
/// lists the names.
#[pyclass(module = "isolo_ai", frozen)]
#[derive(Clone)]
pub struct Variant {
    pub inner: Arc<isolo_rules::Variant>,
}

/// A setup's problem as `InputError`, after the argument's name (`position`, `moves`).
pub(crate) fn setup_error(e: SetupError) -> PyErr {
    let argument = match e.field {
        SetupField::Start => "position",
        SetupField::Moves => "moves",
    };
    input_error(format!("{argument}: {e}"))
}

impl Variant {
    /// The board at `position` (the project's notation), or the start when `None`.
    pub fn start_or(&self, position: Option<&str>) -> PyResult<isolo_rules::Board> {
        Setup::new(position, None)
            .start(&self.inner)
            .map_err(setup_error)
    }
}

#[pymethods]
impl Variant {
    /// The variant named `name_or_path`: a preset or a named reading, its words joined
    /// by hyphens (`isolo-women`) or by underscores as OpenSpiel names them
    /// (`isolo_women`), or a rules file.
    #[staticmethod]
    fn load(name_or_path: &str) -> PyResult<Variant> {
        let inner = isolo_rules::Variant::load(name_or_path)
            .or_else(|refused| {
                let hyphenated = name_or_path.replace('_', "-");
                let named = PRESETS.iter().chain(&READINGS).any(|n| *n == hyphenated);
                if named {
                    isolo_rules::Variant::load(&hyphenated)
                } else {
                    Err(refused)
                }
            })
            .map_err(input_error)?;
        Ok(Variant {
            inner: Arc::new(inner),
        })
    }

    /// The variant of a rules file's text (TOML, as `docs/RULES.md` section 8 describes;
    /// keys it leaves out take the defaults, `name` defaults to `custom`).
    #[staticmethod]
    fn from_toml(text: &str) -> PyResult<Variant> {
        let rules = Rules::from_toml(text, "custom").map_err(input_error)?;
        let inner = isolo_rules::Variant::new(rules).map_err(input_error)?;
        Ok(Variant {
            inner: Arc::new(inner),
        })
    }

    /// The variant's name.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// Pits in each row (8 on the presets).
    #[getter]
    fn columns(&self) -> u8 {
        self.inner.columns()
    }

    /// Pits of each side (twice the columns).
    #[getter]
    fn pits(&self) -> usize {
        self.inner.pits()
    }

    /// The starting position, in the project's notation.
    #[getter]
    fn start(&self) -> String {
        self.inner.format_position(&self.inner.start())
    }

    /// The rules, as a dict with the rules file's keys.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let value = serde_json::to_value(self.inner.rules()).expect("rules are plain data");
        to_python(py, &value)
    }

    /// The rules as a rules file (TOML) that `from_toml` reads back.
    fn to_toml(&self) -> String {
        self.inner.rules().to_toml()
    }

    /// One line on the rules.
    #[getter]
    fn summary(&self) -> String {
        self.inner.rules().summary()
    }

    /// The rules in plain words, a sentence each, every key the variant sets told (the
    /// web page's How to play).
    #[getter]
    fn how_to_play(&self) -> Vec<String> {
        self.inner.rules().how_to_play()
    }

    fn __repr__(&self) -> String {
        format!("Variant.load({:?})", self.inner.name())
    }

    fn __eq__(&self, other: &Variant) -> bool {
        self.inner.rules() == other.inner.rules()
    }

    fn __hash__(&self) -> u64 {
        // Equal rules print the same rules file.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&self.inner.rules().to_toml(), &mut hasher);
        std::hash::Hasher::finish(&hasher)
    }
}

/// The names of the presets and the named readings, presets first.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    PRESETS.iter().chain(READINGS.iter()).copied().collect()
}

/// A variant argument: a `Variant`, or a name or path `Variant.load` takes (so
/// `perft("isolo-boys", 4)` and `Game("igisoro")` read as `compare` and `match` do).
pub(crate) struct AnyVariant(pub Variant);

impl std::ops::Deref for AnyVariant {
    type Target = Variant;

    fn deref(&self) -> &Variant {
        &self.0
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for AnyVariant {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<AnyVariant> {
        if let Ok(variant) = obj.cast::<Variant>() {
            return Ok(AnyVariant(variant.get().clone()));
        }
        let name: String = obj.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "expected a Variant, or a preset's, a reading's or a rules file's name",
            )
        })?;
        let variant = Variant::load(&name)
            .map_err(|e| input_error(format!("variant: {}", e.value(obj.py()))))?;
        Ok(AnyVariant(variant))
    }
}
