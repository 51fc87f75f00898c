//! `mcp_jsonschema.mcp`: the MCP profile's tool schemas (`ToolSchema.input` /
//! `.output`), the `structuredContent` text fallback, the `tools/list` checker and the
//! bounded `SchemaCache`, over `mcp_jsonschema::mcp`.

use crate::convert::{to_py, to_value};
use crate::errors::{raise_schema, schema_error};
use crate::validator::{schema_value, PyCompiled};
use mcp_jsonschema::mcp::{self, Role, ToolSchema};
use pyo3::prelude::*;
use pyo3::types::PyList;
use pyo3::PyClassInitializer;
use std::sync::Arc;

/// How deep a `tools/list` result or content block list may nest to be read.
const DOCUMENT_MAX_DEPTH: u32 = 1_000;

/// A tool's `inputSchema` or `outputSchema`, compiled under the MCP profile.
#[pyclass(frozen, extends = PyCompiled, module = "mcp_jsonschema.mcp", name = "ToolSchema")]
pub(crate) struct PyToolSchema {
    tool: Arc<ToolSchema>,
}

/// The Python object for `tool`: runs accept the MCP profile's evaluation depth.
fn tool_object(py: Python<'_>, tool: Arc<ToolSchema>) -> PyResult<Py<PyToolSchema>> {
    let compiled = PyCompiled::new(tool.validator().clone(), mcp::MAX_EVALUATION_DEPTH);
    Py::new(
        py,
        PyClassInitializer::from(compiled).add_subclass(PyToolSchema { tool }),
    )
}

/// The role named `role`, as the Python API spells it.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Input => "input",
        Role::Output => "output",
    }
}

fn compile(py: Python<'_>, role: Role, schema: &Bound<'_, PyAny>) -> PyResult<Py<PyToolSchema>> {
    let schema = schema_value(schema)?;
    let compiled = py.detach(|| ToolSchema::new(role, &schema, &mcp::profile()));
    match compiled {
        Ok(tool) => tool_object(py, Arc::new(tool)),
        Err(error) => Err(raise_schema(py, &error)),
    }
}

#[pymethods]
impl PyToolSchema {
    /// Compiles a tool's `inputSchema` (root rules: an object schema of type "object").
    #[staticmethod]
    fn input(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<Py<Self>> {
        compile(py, Role::Input, schema)
    }

    /// Compiles a tool's `outputSchema` (any schema; object root by default).
    #[staticmethod]
    fn output(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<Py<Self>> {
        compile(py, Role::Output, schema)
    }

    /// "input" or "output".
    #[getter]
    fn role(&self) -> &'static str {
        role_name(self.tool.role())
    }

    /// The schema as `tools/list` should carry it.
    fn to_wire<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.tool.to_wire())
    }

    /// Approximate heap bytes held.
    fn memory_usage(&self) -> usize {
        self.tool.memory_usage()
    }

    fn __repr__(&self) -> String {
        format!("<ToolSchema {}>", role_name(self.tool.role()))
    }
}

/// The text block to add beside `structured_content`, or None.
#[pyfunction]
#[pyo3(signature = (structured_content, content=None))]
pub(crate) fn text_fallback<'py>(
    py: Python<'py>,
    structured_content: &Bound<'py, PyAny>,
    content: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let structured = to_value(structured_content, DOCUMENT_MAX_DEPTH, "structured_content")?;
    let blocks = match content.filter(|c| !c.is_none()) {
        Some(content) => match to_value(content, DOCUMENT_MAX_DEPTH, "content")?.value {
            serde_json::Value::Array(blocks) => blocks,
            _ => {
                let message = "content must be a list of content blocks";
                return Err(pyo3::exceptions::PyTypeError::new_err(message));
            }
        },
        None => Vec::new(),
    };
    match mcp::text_fallback(&structured.value, &blocks) {
        Some(block) => Ok(Some(to_py(py, &block)?)),
        None => Ok(None),
    }
}

/// What `check_tools_list` found for one tool.
#[pyclass(frozen, module = "mcp_jsonschema.mcp", name = "ToolReport")]
pub(crate) struct PyToolReport {
    /// The tool's name (`"<unnamed #i>"` when missing).
    #[pyo3(get)]
    name: String,
    /// The compiled input schema, or the `SchemaError` saying why it cannot be used.
    #[pyo3(get)]
    input: Py<PyAny>,
    /// The compiled output schema, its `SchemaError`, or None without one.
    #[pyo3(get)]
    output: Option<Py<PyAny>>,
    /// Whether both schemas compiled.
    #[pyo3(get)]
    ok: bool,
    /// The problems, one line each, prefixed with the tool and schema.
    #[pyo3(get)]
    problems: Vec<String>,
}

#[pymethods]
impl PyToolReport {
    fn __repr__(&self) -> String {
        format!("<ToolReport {:?} ok={}>", self.name, self.ok)
    }
}

/// A compiled schema as Python holds it, or its error as a `SchemaError` value.
fn compiled_or_error(
    py: Python<'_>,
    compiled: Result<ToolSchema, mcp_jsonschema::SchemaError>,
) -> PyResult<Py<PyAny>> {
    Ok(match compiled {
        Ok(tool) => tool_object(py, Arc::new(tool))?.into_any(),
        Err(error) => schema_error(py, &error)?.unbind(),
    })
}

/// Compiles every tool of a `tools/list` result; one tool's problems never stop the
/// others.
#[pyfunction]
pub(crate) fn check_tools_list<'py>(
    py: Python<'py>,
    result: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let result = to_value(result, DOCUMENT_MAX_DEPTH, "tools/list result")?.value;
    let reports = py.detach(|| mcp::check_tools_list(&result));
    let list = PyList::empty(py);
    for report in reports {
        let ok = report.is_ok();
        let problems = report.problems();
        let output = match report.output {
            Some(output) => Some(compiled_or_error(py, output)?),
            None => None,
        };
        let report = PyToolReport {
            name: report.name,
            input: compiled_or_error(py, report.input)?,
            output,
            ok,
            problems,
        };
        list.append(Py::new(py, report)?)?;
    }
    Ok(list)
}

/// A bounded, thread-safe cache of compiled tool schemas, keyed by content.
#[pyclass(frozen, module = "mcp_jsonschema.mcp", name = "SchemaCache")]
pub(crate) struct PySchemaCache {
    cache: mcp::SchemaCache,
}

impl PySchemaCache {
    fn get(
        &self,
        py: Python<'_>,
        role: Role,
        schema: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyToolSchema>> {
        let schema = schema_value(schema)?;
        match py.detach(|| self.cache.get_or_compile(role, &schema)) {
            Ok(tool) => tool_object(py, tool),
            Err(error) => Err(raise_schema(py, &error)),
        }
    }
}

#[pymethods]
impl PySchemaCache {
    #[new]
    #[pyo3(signature = (capacity=1024))]
    fn new(capacity: usize) -> Self {
        PySchemaCache {
            cache: mcp::SchemaCache::new(capacity),
        }
    }

    /// The compiled input schema for `schema`, compiled on a miss.
    fn input(&self, py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<Py<PyToolSchema>> {
        self.get(py, Role::Input, schema)
    }

    /// The compiled output schema for `schema`, compiled on a miss.
    fn output(&self, py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<Py<PyToolSchema>> {
        self.get(py, Role::Output, schema)
    }

    /// The most schemas it holds.
    #[getter]
    fn capacity(&self) -> usize {
        self.cache.capacity()
    }

    /// Approximate heap bytes its entries hold.
    fn memory_usage(&self) -> usize {
        self.cache.memory_usage()
    }

    fn __len__(&self) -> usize {
        self.cache.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<SchemaCache {} of {}>",
            self.cache.len(),
            self.cache.capacity()
        )
    }
}
