//! The public API's documentation, checked: every public item of `src/` (function,
//! type, trait, constant, public module) shows a runnable example in its docs, or links
//! to an example that uses it, and every public function returning a `Result` says when
//! it fails, under `# Errors`.
//!
//! A link counts when it follows the word "example" in the same sentence ("See the
//! example on [`ValidationError`].") and its target's docs hold a code block that names
//! the item. The source is read as text: an item is public when declared `pub` (not
//! `pub(crate)`), as this crate declares only its public API. Enum variants and struct
//! fields are covered by their type's docs.

use std::collections::HashMap;
use std::path::Path;

/// One public item and its docs.
struct Item {
    /// Where it is declared (`src/error.rs:215`).
    at: String,
    /// `Type`, `Type::method`, `function`, `CONSTANT` or `module`.
    key: String,
    /// Its name alone (`method`), as an example would write it.
    name: String,
    /// The doc comment, markers stripped, one line each.
    docs: Vec<String>,
    /// A function whose signature returns a `Result`.
    fallible: bool,
    /// The type of the `impl` block it is in, to resolve `Self::` links.
    owner: Option<String>,
}

impl Item {
    fn text(&self) -> String {
        self.docs.join("\n")
    }

    /// The code of the doc's Rust code blocks (doctests), blocks of other text
    /// (```` ```text ````, ```` ```json ````) left out.
    fn examples(&self) -> String {
        let mut code = String::new();
        let mut fence: Option<bool> = None;
        for line in &self.docs {
            match (line.trim_start().strip_prefix("```"), fence) {
                (Some(tag), None) => {
                    let rust = tag
                        .split(',')
                        .all(|t| matches!(t.trim(), "" | "rust" | "no_run" | "should_panic"));
                    fence = Some(rust);
                }
                (Some(_), Some(_)) => fence = None,
                (None, Some(true)) => {
                    code.push_str(line);
                    code.push('\n');
                }
                (None, _) => {}
            }
        }
        code
    }

    fn has_example(&self) -> bool {
        !self.examples().trim().is_empty()
    }
}

#[path = "common/sources.rs"]
mod sources;
use sources::rust_files as files;

/// The item a trimmed line declares, if it declares a public one: its kind (`fn`,
/// `struct`, ...) and name.
fn public_item(line: &str) -> Option<(&'static str, String)> {
    let mut rest = line.strip_prefix("pub ")?;
    for qualifier in ["const ", "unsafe ", "async "] {
        // `pub const fn`, but not `pub const NAME`.
        if let Some(after) = rest.strip_prefix(qualifier) {
            if after.starts_with("fn ") || after.starts_with("unsafe fn ") {
                rest = after;
            }
        }
    }
    rest = rest.strip_prefix("unsafe ").unwrap_or(rest);
    for kind in [
        "fn", "struct", "enum", "trait", "const", "type", "mod", "static",
    ] {
        if let Some(after) = rest.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            return Some((kind, name));
        }
    }
    None
}

/// The type an `impl` line is for: `impl<'e> MaskedError<'e> {` is `MaskedError`,
/// `impl Iterator for Actions {` is `Actions`.
fn impl_type(line: &str) -> Option<String> {
    let mut rest = line.strip_prefix("impl")?;
    if rest.starts_with('<') {
        let mut depth = 0;
        let end = rest.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        })?;
        rest = &rest[end + 1..];
    } else if !rest.starts_with(' ') {
        return None;
    }
    let rest = rest.rsplit_once(" for ").map_or(rest, |(_, ty)| ty).trim();
    let path: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    path.rsplit("::").next().map(str::to_string)
}

/// The inner docs (`//!`) of a source file.
fn module_docs(source: &str) -> Vec<String> {
    source
        .lines()
        .map(str::trim_start)
        .take_while(|l| l.starts_with("//!") || l.is_empty())
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect()
}

/// The public items declared in `source` (the file `shown`).
fn items(source: &str, shown: &str, dir: &Path) -> Vec<Item> {
    let lines: Vec<&str> = source.lines().collect();
    let mut found = Vec::new();
    let mut docs: Vec<String> = Vec::new();
    let mut owner: Option<String> = None;
    let mut attribute_depth = 0i32;
    for (index, raw) in lines.iter().enumerate() {
        let line = raw.trim_start();
        if attribute_depth > 0 || line.starts_with("#[") {
            // Attributes between the docs and the item (`#[derive(...)]`, over lines).
            attribute_depth += line.matches('[').count() as i32;
            attribute_depth -= line.matches(']').count() as i32;
            continue;
        }
        if let Some(doc) = line.strip_prefix("///") {
            docs.push(doc.strip_prefix(' ').unwrap_or(doc).to_string());
            continue;
        }
        if !raw.starts_with(' ') {
            if let Some(ty) = impl_type(raw) {
                owner = Some(ty);
            } else if raw.starts_with('}') {
                owner = None;
            }
        }
        if let Some((kind, name)) = public_item(line) {
            let mut item_docs = std::mem::take(&mut docs);
            if kind == "mod" && line.ends_with(';') {
                // `pub mod meta;`: its docs are the module file's `//!`.
                let file = [
                    dir.join(format!("{name}.rs")),
                    dir.join(&name).join("mod.rs"),
                ]
                .into_iter()
                .find(|p| p.exists())
                .unwrap_or_else(|| panic!("{shown}: no file for mod {name}"));
                item_docs.extend(module_docs(&std::fs::read_to_string(file).unwrap()));
            }
            let key = match (&owner, kind) {
                (Some(ty), "fn" | "const" | "type") if raw.starts_with(' ') => {
                    format!("{ty}::{name}")
                }
                _ => name.clone(),
            };
            let signature: String = lines[index..]
                .iter()
                .take_while(|l| !l.trim_end().ends_with('{') && !l.trim_end().ends_with(';'))
                .chain(
                    lines[index..]
                        .iter()
                        .find(|l| l.trim_end().ends_with('{') || l.trim_end().ends_with(';')),
                )
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            let returns = return_type(&signature);
            found.push(Item {
                at: format!("{shown}:{}", index + 1),
                key,
                name,
                docs: item_docs,
                fallible: kind == "fn" && returns.contains("Result<"),
                owner: owner.clone(),
            });
            continue;
        }
        docs.clear();
    }
    found
}

/// What a function signature returns: the text after its parameter list.
fn return_type(signature: &str) -> &str {
    let Some(open) = signature.find('(') else {
        return "";
    };
    let mut depth = 0;
    for (i, c) in signature[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return &signature[open + i + 1..];
        }
    }
    ""
}

/// The intra-doc links in `text`: each target as the key of an item (`Type`,
/// `Type::method`, `name`), `Self` resolved to `owner`.
fn links(text: &str, owner: Option<&str>) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else { break };
        let label = &rest[..close];
        let after = &rest[close + 1..];
        let target = match after.strip_prefix('(') {
            Some(target) => target.split(')').next().unwrap_or_default(),
            None => label,
        };
        let target = target.trim_matches('`').trim_end_matches("()");
        let segments: Vec<&str> = target
            .split("::")
            .map(|s| if s == "Self" { owner.unwrap_or(s) } else { s })
            .collect();
        let upper = |s: &str| s.starts_with(|c: char| c.is_ascii_uppercase());
        let key = match segments.as_slice() {
            [.., ty, last] if upper(ty) => format!("{ty}::{last}"),
            [.., last] => last.to_string(),
            [] => continue,
        };
        found.push(key);
        rest = after;
    }
    found
}

/// The links that point to an example: those in a sentence that says "example".
fn example_links(item: &Item) -> Vec<String> {
    let text = item.text().replace('\n', " ");
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    for (at, _) in lower.match_indices("example") {
        let sentence = &text[at..];
        let end = sentence.find(". ").unwrap_or(sentence.len());
        let end = if sentence[..end].ends_with('.') {
            end - 1
        } else {
            end
        };
        found.extend(links(&sentence[..end], item.owner.as_deref()));
    }
    found
}

#[test]
fn every_public_item_has_an_example_and_every_fallible_function_its_errors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    paths.sort();
    let mut all = Vec::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap();
        let shown = Path::new("src").join(path.strip_prefix(&src).unwrap());
        let dir = path.parent().unwrap();
        all.extend(items(&source, &shown.display().to_string(), dir));
    }
    assert!(all.len() > 50, "only {} public items found", all.len());

    let mut by_key: HashMap<&str, Vec<&Item>> = HashMap::new();
    for item in &all {
        by_key.entry(&item.key).or_default().push(item);
    }
    let mut without_example = Vec::new();
    let mut without_errors = Vec::new();
    for item in &all {
        let linked = example_links(item).into_iter().any(|key| {
            by_key.get(key.as_str()).is_some_and(|targets| {
                targets
                    .iter()
                    .any(|t| t.has_example() && t.examples().contains(&item.name))
            })
        });
        if !item.has_example() && !linked {
            without_example.push(format!("{} {}", item.at, item.key));
        }
        if item.fallible && !item.docs.iter().any(|l| l.trim() == "# Errors") {
            without_errors.push(format!("{} {}", item.at, item.key));
        }
    }
    assert!(
        without_example.is_empty() && without_errors.is_empty(),
        "{} of {} public items have no example nor a link to one that uses them:\n{}\n\n\
         {} fallible functions have no `# Errors` section:\n{}",
        without_example.len(),
        all.len(),
        without_example.join("\n"),
        without_errors.len(),
        without_errors.join("\n"),
    );
}
