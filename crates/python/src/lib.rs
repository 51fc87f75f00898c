//! The Python binding of mcp-jsonschema: the native module `mcp_jsonschema._native`,
//! which the Python package `mcp_jsonschema` (under `python/`) re-exports with its type
//! stubs, its exceptions and the MCP SDK integration.
//!
//! Instances arrive as Python objects and are converted to `serde_json::Value`s
//! directly (`convert`: no JSON text in between); `validator` runs the engine on them,
//! without the GIL for instances large enough to pay for releasing it; `errors` turns
//! the library's errors into Python exceptions; `mcp` wraps the MCP profile.
//!
//! Built by maturin (`scripts/python.sh`); outside the Cargo workspace, so that pyo3
//! and a Python interpreter are needed only here.

mod convert;
mod errors;
mod mcp;
mod validator;

use pyo3::prelude::*;

/// The native half of `mcp_jsonschema`.
#[pymodule(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<validator::PyCompiled>()?;
    module.add_class::<validator::PyValidator>()?;
    module.add_class::<validator::PyEvaluation>()?;
    module.add_class::<mcp::PyToolSchema>()?;
    module.add_class::<mcp::PyToolReport>()?;
    module.add_class::<mcp::PySchemaCache>()?;
    module.add_function(wrap_pyfunction!(mcp::text_fallback, module)?)?;
    module.add_function(wrap_pyfunction!(mcp::check_tools_list, module)?)?;
    module.add("MAX_SCHEMA_DEPTH", mcp_jsonschema::mcp::MAX_SCHEMA_DEPTH)?;
    module.add("MAX_SUBSCHEMAS", mcp_jsonschema::mcp::MAX_SUBSCHEMAS)?;
    module.add("STEP_BUDGET", mcp_jsonschema::mcp::STEP_BUDGET)?;
    module.add(
        "MAX_EVALUATION_DEPTH",
        mcp_jsonschema::mcp::MAX_EVALUATION_DEPTH,
    )?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// The allocator of the binding's Rust allocations (see Cargo.toml): converted
/// instances are many small blocks, allocated and freed on every call.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
