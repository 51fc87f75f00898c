//! `mcp_jsonschema.Validator`, its base `_Compiled` (shared with `mcp.ToolSchema`),
//! `Evaluation`, and [`Checked`]: how every entry point converts an instance, runs the
//! engine (without the GIL when the instance is large enough for that to pay) and
//! reports.
//!
//! A `Validator` is immutable once built (`frozen`): threads share one freely. A format
//! checker written in Python runs with the GIL taken back for the call; if it raises,
//! its exception is kept aside (the check counts as failed, which can only end the run
//! sooner) and raised once the engine returns.

use crate::convert::{to_py, to_value, Converted};
use crate::errors::{invalid_argument, raise_schema, raise_validation, validation_error};
use mcp_jsonschema::{Draft, Evaluation, ValidationOptions, Validator};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::PyClassInitializer;
use serde_json::Value;
use std::cell::RefCell;
use std::sync::OnceLock;

/// The evaluation depth of a validator built with the library's default options (its
/// `ValidationOptions::with_max_instance_depth` default): instances nested deeper are
/// refused when converted.
pub(crate) const DEFAULT_MAX_DEPTH: u32 = 1_000;

/// How deep a schema (or a registered resource) may nest to be converted at all: the
/// library's own stack-safe bound, past which it could not compile it either.
const SCHEMA_MAX_DEPTH: u32 = 1_000;

/// From how many values on an instance is validated without the GIL. Releasing and
/// taking it back are two more trips into CPython (and a wait for the GIL if another
/// thread took it); a small instance validates in a fraction of a microsecond, so below
/// this other threads would gain less than this one loses.
const DETACH_FROM_SIZE: usize = 64;

thread_local! {
    /// The first exception a Python format checker raised during the current run.
    static PENDING: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// A compiled schema and the nesting its runs accept: what [`Validator`] and the MCP
/// tool schemas share.
pub(crate) struct Checked<'v> {
    pub(crate) validator: &'v Validator,
    pub(crate) max_depth: u32,
}

impl Checked<'_> {
    /// Converts `instance` and runs `run` on it, without the GIL for large instances;
    /// raises what a format checker raised meanwhile.
    fn run<T: Send>(
        &self,
        instance: &Bound<'_, PyAny>,
        run: impl FnOnce(&Validator, &Value) -> T + Send,
    ) -> PyResult<T> {
        let py = instance.py();
        let Converted { value, size } = to_value(instance, self.max_depth, "instance")?;
        let validator = self.validator;
        let result = match size >= DETACH_FROM_SIZE {
            true => py.detach(|| run(validator, &value)),
            false => run(validator, &value),
        };
        match PENDING.with(|pending| pending.borrow_mut().take()) {
            Some(raised) => Err(raised),
            None => Ok(result),
        }
    }

    pub(crate) fn is_valid(&self, instance: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.run(instance, |validator, value| validator.is_valid(value))
    }

    pub(crate) fn validate(&self, instance: &Bound<'_, PyAny>) -> PyResult<()> {
        match self.run(instance, |validator, value| validator.validate(value))? {
            Ok(()) => Ok(()),
            Err(error) => Err(raise_validation(instance.py(), &error)),
        }
    }

    pub(crate) fn iter_errors<'py>(
        &self,
        instance: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let errors: Vec<_> = self.run(instance, |validator, value| {
            validator.iter_errors(value).collect()
        })?;
        let py = instance.py();
        let list = PyList::empty(py);
        for error in &errors {
            list.append(validation_error(py, error)?)?;
        }
        Ok(list.try_iter()?.into_any())
    }

    pub(crate) fn evaluate(&self, instance: &Bound<'_, PyAny>) -> PyResult<PyEvaluation> {
        let evaluation = self.run(instance, |validator, value| validator.evaluate(value))?;
        Ok(PyEvaluation { evaluation })
    }
}

/// A format checker written in Python: `callable(str) -> bool`.
fn python_format(callable: Py<PyAny>) -> impl Fn(&str) -> bool + Send + Sync + 'static {
    move |text| {
        Python::attach(|py| {
            let verdict = (callable.bind(py).call1((text,))).and_then(|r| r.is_truthy());
            verdict.unwrap_or_else(|raised| {
                PENDING.with(|pending| {
                    pending.borrow_mut().get_or_insert(raised);
                });
                false
            })
        })
    }
}

/// Converts a schema (or a registered resource) to JSON.
pub(crate) fn schema_value(schema: &Bound<'_, PyAny>) -> PyResult<Value> {
    Ok(to_value(schema, SCHEMA_MAX_DEPTH, "schema")?.value)
}

/// The draft `draft` names: `"2020-12"`, `"2019-09"`, `"7"`, `"6"`, `"4"` (or the ints
/// 4, 6, 7), `"draft7"`, or a metaschema URI.
fn parse_draft(py: Python<'_>, draft: &Bound<'_, PyAny>) -> PyResult<Draft> {
    let text = match draft.cast::<PyString>() {
        Ok(text) => text.to_string(),
        Err(_) => draft.str()?.to_string(),
    };
    let short = text
        .strip_prefix("draft")
        .unwrap_or(&text)
        .trim_start_matches('-');
    let found = match short {
        "2020-12" => Some(Draft::Draft202012),
        "2019-09" => Some(Draft::Draft201909),
        "7" | "07" => Some(Draft::Draft7),
        "6" | "06" => Some(Draft::Draft6),
        "4" | "04" => Some(Draft::Draft4),
        _ => Draft::from_uri(&text),
    };
    found.ok_or_else(|| {
        let message = format!(
            "unknown draft {text:?}: expected \"2020-12\", \"2019-09\", \"7\", \"6\", \"4\" or a metaschema URI"
        );
        invalid_argument(py, "", &message)
    })
}

/// What `Validator` and `mcp.ToolSchema` share (their base class): a compiled schema,
/// the nesting its runs accept, and the three ways to run it.
#[pyclass(frozen, subclass, module = "mcp_jsonschema", name = "_Compiled")]
pub(crate) struct PyCompiled {
    validator: Validator,
    max_depth: u32,
}

impl PyCompiled {
    pub(crate) fn new(validator: Validator, max_depth: u32) -> Self {
        PyCompiled {
            validator,
            max_depth,
        }
    }

    fn checked(&self) -> Checked<'_> {
        Checked {
            validator: &self.validator,
            max_depth: self.max_depth,
        }
    }
}

#[pymethods]
impl PyCompiled {
    /// Whether `instance` conforms.
    fn is_valid(&self, instance: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.checked().is_valid(instance)
    }

    /// Raises `ValidationError` (the first error) unless `instance` conforms.
    fn validate(&self, instance: &Bound<'_, PyAny>) -> PyResult<()> {
        self.checked().validate(instance)
    }

    /// Every error of `instance`, in schema order.
    fn iter_errors<'py>(&self, instance: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.checked().iter_errors(instance)
    }
}

/// A compiled JSON Schema, ready to validate any number of instances from any thread.
#[pyclass(frozen, extends = PyCompiled, module = "mcp_jsonschema", name = "Validator")]
pub(crate) struct PyValidator {
    /// The options and schema it was built from, for the annotating validator `evaluate`
    /// builds on first use.
    options: ValidationOptions,
    schema: Value,
    annotating: OnceLock<Validator>,
}

#[pymethods]
impl PyValidator {
    #[new]
    #[pyo3(signature = (schema, *, draft=None, assert_formats=false, resources=None, formats=None))]
    fn new(
        py: Python<'_>,
        schema: &Bound<'_, PyAny>,
        draft: Option<&Bound<'_, PyAny>>,
        assert_formats: bool,
        resources: Option<&Bound<'_, PyAny>>,
        formats: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let schema = schema_value(schema)?;
        let mut options = Validator::options().with_format_assertion(assert_formats);
        if let Some(draft) = draft.filter(|d| !d.is_none()) {
            options = options.with_draft(parse_draft(py, draft)?);
        }
        if let Some(resources) = resources.filter(|r| !r.is_none()) {
            for item in resources.call_method0("items")?.try_iter()? {
                let (uri, document): (String, Bound<'_, PyAny>) = item?.extract()?;
                options = options.with_resource(uri, schema_value(&document)?);
            }
        }
        if let Some(formats) = formats.filter(|f| !f.is_none()) {
            for item in formats.call_method0("items")?.try_iter()? {
                let (name, check): (String, Bound<'_, PyAny>) = item?.extract()?;
                if !check.is_callable() {
                    let message = format!("the checker of format {name:?} is not callable");
                    return Err(pyo3::exceptions::PyTypeError::new_err(message));
                }
                options = options.with_format(name, python_format(check.unbind()));
            }
        }
        let validator = py
            .detach(|| options.build(&schema))
            .map_err(|error| raise_schema(py, &error))?;
        let compiled = PyCompiled::new(validator, DEFAULT_MAX_DEPTH);
        let this = PyValidator {
            options,
            schema,
            annotating: OnceLock::new(),
        };
        Ok(PyClassInitializer::from(compiled).add_subclass(this))
    }

    /// One evaluation of `instance`: verdict, errors, annotations, output formats.
    fn evaluate(&self, py: Python<'_>, instance: &Bound<'_, PyAny>) -> PyResult<PyEvaluation> {
        let annotating = match self.annotating.get() {
            Some(annotating) => annotating,
            None => {
                let options = self.options.clone().with_annotations(true);
                let built = py
                    .detach(|| options.build(&self.schema))
                    .map_err(|error| raise_schema(py, &error))?;
                self.annotating.get_or_init(|| built)
            }
        };
        let checked = Checked {
            validator: annotating,
            max_depth: DEFAULT_MAX_DEPTH,
        };
        checked.evaluate(instance)
    }

    /// Approximate heap bytes held by the compiled schema.
    fn memory_usage(slf: &Bound<'_, Self>) -> usize {
        slf.as_super().get().validator.memory_usage()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!("<Validator of {} bytes>", Self::memory_usage(slf))
    }
}

/// The result of `Validator.evaluate`.
#[pyclass(frozen, module = "mcp_jsonschema", name = "Evaluation")]
pub(crate) struct PyEvaluation {
    evaluation: Evaluation,
}

#[pymethods]
impl PyEvaluation {
    /// Whether the instance conforms.
    #[getter]
    fn valid(&self) -> bool {
        self.evaluation.valid()
    }

    /// Every error (none when the instance conforms).
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for error in self.evaluation.errors() {
            list.append(validation_error(py, error)?)?;
        }
        Ok(list)
    }

    /// The annotations of the subschemas that passed, as dicts.
    fn annotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for annotation in self.evaluation.annotations() {
            let dict = PyDict::new(py);
            dict.set_item("instance_location", annotation.instance_location())?;
            dict.set_item("keyword_location", annotation.keyword_location())?;
            dict.set_item(
                "absolute_keyword_location",
                annotation.absolute_keyword_location(),
            )?;
            dict.set_item("schema_location", annotation.schema_location())?;
            dict.set_item("keyword", annotation.keyword())?;
            dict.set_item("value", to_py(py, annotation.value())?)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The `flag` output format.
    fn flag<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.evaluation.flag())
    }

    /// The `basic` output format.
    fn basic<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.evaluation.basic())
    }

    /// The `detailed` output format.
    fn detailed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.evaluation.detailed())
    }

    /// The `verbose` output format.
    fn verbose<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.evaluation.verbose())
    }

    fn __repr__(&self) -> String {
        format!("<Evaluation valid={}>", self.evaluation.valid())
    }
}
