//! `--resource PATH`: the documents a schema may refer to, read from the files the user
//! names (a file, or a directory read recursively for its `.json` files), each
//! registered under its file URI, so that `{"$ref": "address.json"}` beside the schema
//! resolves, and reachable by its `$id` too; and the schema's own file URI as its base.
//! Nothing outside the given paths is ever read.

use crate::input::Source;
use crate::Failure;
use mcp_jsonschema::{SchemaError, SchemaErrorKind, ValidationOptions};
use std::path::{Path, PathBuf};

/// The most files `--resource` reads, over every path given.
const MAX_FILES: usize = 10_000;

#[derive(Debug, Default, clap::Args)]
pub(crate) struct Resources {
    /// A document the schema may refer to: a file, or a directory whose `.json` files are
    /// read recursively. Each is known by its file URI (so `address.json` beside the
    /// schema resolves) and by its `$id`. Repeatable; no other file is ever read.
    #[arg(long = "resource", value_name = "PATH")]
    paths: Vec<String>,
}

impl Resources {
    /// `options` with `schema`'s file URI as the root's base (for a file, not standard
    /// input) and every resource file registered.
    pub(crate) fn apply(
        &self,
        mut options: ValidationOptions,
        schema: &str,
    ) -> Result<ValidationOptions, Failure> {
        if schema != "-" {
            options = options.with_base_uri(file_uri(Path::new(schema))?);
        }
        let mut files = Vec::new();
        for path in &self.paths {
            collect(Path::new(path), true, &mut files)?;
        }
        for file in files {
            let name = file.to_string_lossy();
            let document = Source::read(&name)?.json()?;
            options = options.with_resource(file_uri(&file)?, document);
        }
        Ok(options)
    }
}

/// What to add to `error`'s message on the command line: how to give the documents a
/// reference names.
pub(crate) fn hint(error: &SchemaError) -> &'static str {
    match error.kind() {
        SchemaErrorKind::UnresolvableReference if error.message().contains("no such resource") => {
            " (give the documents it refers to with --resource PATH)"
        }
        _ => "",
    }
}

/// Adds `path` to `files`: itself if it is a file (any name when `given`, else a `.json`
/// one), the files under it if it is a directory. Symbolic links to directories are not
/// followed below the paths given, so no cycle can make the walk endless.
fn collect(path: &Path, given: bool, files: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let shown = || path.display().to_string();
    let metadata = match given {
        true => std::fs::metadata(path),
        false => std::fs::symlink_metadata(path),
    }
    .map_err(|e| Failure(format!("--resource {}: {e}", shown())))?;
    if metadata.is_dir() {
        let entries =
            std::fs::read_dir(path).map_err(|e| Failure(format!("--resource {}: {e}", shown())))?;
        let mut paths: Vec<PathBuf> = entries
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<Result<_, _>>()
            .map_err(|e| Failure(format!("--resource {}: {e}", shown())))?;
        // In name order, so that a run reads and reports the same way each time.
        paths.sort();
        for path in paths {
            collect(&path, false, files)?;
        }
    } else if given || path.extension().is_some_and(|e| e == "json") {
        if files.len() == MAX_FILES {
            return Err(Failure(format!(
                "--resource: more than {MAX_FILES} files; name the directories the schema uses"
            )));
        }
        files.push(path.to_path_buf());
    }
    Ok(())
}

/// The `file://` URI of `path`, made absolute: each byte outside RFC 3986's unreserved
/// characters (and `/`) percent-encoded.
pub(crate) fn file_uri(path: &Path) -> Result<String, Failure> {
    let absolute =
        std::path::absolute(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    let text = absolute.to_string_lossy();
    // On Windows `C:\a\b` becomes `/C:/a/b`.
    let text = text.replace('\\', "/");
    let mut uri = String::from(if text.starts_with('/') {
        "file://"
    } else {
        "file:///"
    });
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    Ok(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn file_uris_are_absolute_and_percent_encoded() {
        assert_eq!(
            file_uri(Path::new("/a b/ü#1.json")).unwrap(),
            "file:///a%20b/%C3%BC%231.json"
        );
        let relative = file_uri(Path::new("x.json")).unwrap();
        assert!(relative.starts_with("file:///") && relative.ends_with("/x.json"));
    }
}
