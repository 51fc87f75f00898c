//! Reading JSON documents from files or standard input, whole or as JSON Lines, with
//! errors that name the file, line and column.

use crate::Failure;
use serde_json::Value;
use std::io::Read;

/// The text of one input: a file, or standard input for `-`.
#[derive(Debug)]
pub(crate) struct Source {
    /// The name used in messages: the path as given, `<stdin>` for `-`.
    pub(crate) name: String,
    pub(crate) text: String,
}

impl Source {
    /// Reads `path` (`-` for standard input) as UTF-8 text.
    pub(crate) fn read(path: &str) -> Result<Source, Failure> {
        let (name, text) = if path == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure(format!("<stdin>: cannot read: {e}")))?;
            ("<stdin>".to_string(), text)
        } else {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure(format!("{path}: cannot read: {e}")))?;
            (path.to_string(), text)
        };
        Ok(Source { name, text })
    }

    /// The whole text as one JSON value.
    pub(crate) fn json(&self) -> Result<Value, Failure> {
        parse(&self.text, &self.name, 0)
    }

    /// Each non-blank line as a JSON value, with its line number (from 1).
    pub(crate) fn json_lines(&self) -> Result<Vec<(usize, Value)>, Failure> {
        let lines = self.text.lines().enumerate();
        let lines = lines.filter(|(_, line)| !line.trim().is_empty());
        lines
            .map(|(i, line)| Ok((i + 1, parse(line, &self.name, i)?)))
            .collect()
    }
}

/// `text` as one JSON value; errors name `name` and the line (offset by `line_offset`
/// lines) and column.
fn parse(text: &str, name: &str, line_offset: usize) -> Result<Value, Failure> {
    if text.trim().is_empty() {
        return Err(Failure(format!(
            "{name}: no JSON value (the input is empty)"
        )));
    }
    serde_json::from_str(text).map_err(|e| {
        let line = e.line() + line_offset;
        let message = e.to_string();
        // serde_json ends its message with " at line L column C"; say it the usual way.
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(head, _)| head);
        Failure(format!(
            "{name}:{line}:{}: invalid JSON: {message}",
            e.column()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source {
            name: "in.json".into(),
            text: text.into(),
        }
    }

    #[test]
    fn a_syntax_error_names_its_line_and_column() {
        let error = source("{\n  \"a\": 1,\n  \"b\": }").json().unwrap_err();
        assert_eq!(
            error.0, "in.json:3:8: invalid JSON: expected value",
            "{error}"
        );
    }

    #[test]
    fn json_lines_skip_blank_lines_and_count_from_one() {
        let values = source("1\n\n  \n{\"a\": 2}\n").json_lines().unwrap();
        let lines: Vec<usize> = values.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [1, 4]);
        let error = source("1\n\n[1,\n").json_lines().unwrap_err();
        assert!(error.0.starts_with("in.json:3:"), "{error}");
    }

    #[test]
    fn empty_input_is_not_a_document() {
        let error = source(" \n").json().unwrap_err();
        assert_eq!(error.0, "in.json: no JSON value (the input is empty)");
        assert!(source("").json_lines().unwrap().is_empty());
    }
}
