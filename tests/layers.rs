//! The architecture, checked: each module of `src/` imports only from layers below it,
//! so the flow reads bottom up (data model, dialects, patterns, formats and options; the
//! program and its interpreter; the registry and the compiler; metaschema checking; the
//! public types).

use std::path::Path;

/// The modules of `src/`, lowest layer first.
const LAYERS: &[&str] = &[
    "stack",
    "memory",
    "maps",
    "uri",
    "names",
    "ids",
    "json",
    "error",
    "evaluation",
    "dialect",
    "regex",
    "formats",
    "options",
    "program",
    "vm",
    "registry",
    "bundle",
    "compiler",
    "metaschema",
    "validator",
    "meta",
    "mcp",
];

/// The module a path under `src/` belongs to.
fn module_of(path: &Path, src: &Path) -> String {
    let relative = path.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

/// The crate modules a source file names in code (`crate::x`), comments left out.
fn imports(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push(name);
        }
    }
    found
}

#[path = "common/sources.rs"]
mod sources;
use sources::rust_files as files;

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rank = |module: &str| LAYERS.iter().position(|m| *m == module);
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut upward = Vec::new();
    for path in paths {
        let module = module_of(&path, &src);
        if module == "lib" {
            continue;
        }
        let own = rank(&module).unwrap_or_else(|| panic!("{module} is missing from LAYERS"));
        let source = std::fs::read_to_string(&path).unwrap();
        let shown = Path::new("src").join(path.strip_prefix(&src).unwrap());
        for import in imports(&source) {
            // Public items re-exported at the crate root belong to their modules.
            let import = match import.as_str() {
                "Validator" => "validator",
                "ValidationOptions" | "ReferencePolicy" => "options",
                "SchemaError" | "SchemaErrorKind" | "ValidationError" | "ValidationErrorKind" => {
                    "error"
                }
                "Draft" => "dialect",
                other => other,
            };
            let Some(theirs) = rank(import) else {
                panic!(
                    "{}: crate::{import} is missing from LAYERS",
                    shown.display()
                );
            };
            if theirs > own {
                upward.push(format!("{} imports crate::{import}", shown.display()));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a higher layer:\n{}",
        upward.join("\n")
    );
}
