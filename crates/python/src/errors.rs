//! The library's errors as Python exceptions: `mcp_jsonschema.ValidationError` and
//! `mcp_jsonschema.SchemaError` (both `ValueError`s, defined in Python in
//! `mcp_jsonschema/_errors.py` and instantiated here), their kinds in snake case and
//! their operands as dicts.

use crate::convert::to_py;
use mcp_jsonschema::{ErrorDetails, SchemaError, ValidationError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyType};

static VALIDATION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static SCHEMA_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The Python class `name` of `mcp_jsonschema._errors`, imported once.
fn class<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyType>>,
    name: &str,
) -> PyResult<&'py Bound<'py, PyType>> {
    cell.import(py, "mcp_jsonschema._errors", name)
}

/// `CamelCase` (a kind's `Debug` name) in `snake_case`.
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The Python `ValidationError` for `error`, its context converted too.
pub(crate) fn validation_error<'py>(
    py: Python<'py>,
    error: &ValidationError,
) -> PyResult<Bound<'py, PyAny>> {
    let context = PyList::empty(py);
    for inner in error.context() {
        context.append(validation_error(py, inner)?)?;
    }
    let kind = snake_case(&format!("{:?}", error.kind()));
    class(py, &VALIDATION_ERROR, "ValidationError")?.call1((
        error.to_string(),
        error.message(),
        error.instance_location(),
        error.schema_location(),
        error.keyword(),
        kind,
        details(py, error.details().as_deref())?,
        context,
    ))
}

/// The Python `ValidationError` for `error`, ready to raise.
pub(crate) fn raise_validation(py: Python<'_>, error: &ValidationError) -> PyErr {
    match validation_error(py, error) {
        Ok(exception) => PyErr::from_value(exception),
        Err(failed) => failed,
    }
}

/// The Python `SchemaError` for `error`, ready to raise.
pub(crate) fn raise_schema(py: Python<'_>, error: &SchemaError) -> PyErr {
    match schema_error(py, error) {
        Ok(exception) => PyErr::from_value(exception),
        Err(failed) => failed,
    }
}

/// The Python `SchemaError` for `error`.
pub(crate) fn schema_error<'py>(
    py: Python<'py>,
    error: &SchemaError,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = snake_case(&format!("{:?}", error.kind()));
    class(py, &SCHEMA_ERROR, "SchemaError")?.call1((
        error.to_string(),
        error.location(),
        kind,
        error.message(),
    ))
}

/// A `SchemaError` of kind `invalid_keyword` at `location` (the binding's own checks of
/// its arguments, as the library words its own).
pub(crate) fn invalid_argument(py: Python<'_>, location: &str, message: &str) -> PyErr {
    let text = format!(
        "{}: {message}",
        if location.is_empty() {
            "(root)"
        } else {
            location
        }
    );
    match class(py, &SCHEMA_ERROR, "SchemaError")
        .and_then(|class| class.call1((text, location, "invalid_keyword", message)))
    {
        Ok(exception) => PyErr::from_value(exception),
        Err(failed) => failed,
    }
}

/// The operands of the failed keyword as a dict (empty when there are none).
fn details<'py>(py: Python<'py>, details: Option<&ErrorDetails>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let Some(details) = details else {
        return Ok(dict);
    };
    match details {
        ErrorDetails::Type { expected, actual } => {
            dict.set_item("expected", expected)?;
            dict.set_item("actual", actual)?;
        }
        ErrorDetails::Const { expected } => dict.set_item("expected", to_py(py, expected)?)?,
        ErrorDetails::Enum { options } => {
            let list = PyList::empty(py);
            for option in options {
                list.append(to_py(py, option)?)?;
            }
            dict.set_item("options", list)?;
        }
        ErrorDetails::Range { keyword, limit } => {
            dict.set_item("keyword", keyword)?;
            dict.set_item("limit", to_py(py, &limit.clone().into())?)?;
        }
        ErrorDetails::MultipleOf { divisor } => {
            dict.set_item("divisor", to_py(py, &divisor.clone().into())?)?;
        }
        ErrorDetails::Length {
            keyword,
            limit,
            actual,
        }
        | ErrorDetails::Size {
            keyword,
            limit,
            actual,
        } => {
            dict.set_item("keyword", keyword)?;
            dict.set_item("limit", limit)?;
            dict.set_item("actual", actual)?;
        }
        ErrorDetails::Pattern { pattern } => dict.set_item("pattern", pattern)?,
        ErrorDetails::Format { format } => dict.set_item("format", format)?,
        ErrorDetails::Required { missing, because } => {
            dict.set_item("missing", missing)?;
            dict.set_item("because", because)?;
        }
        ErrorDetails::Unexpected { property } => dict.set_item("property", property)?,
        // A kind of details newer than this binding: none shown rather than a guess.
        _ => {}
    }
    Ok(dict)
}
