//! Where a JSON Pointer's value starts in a document's text, as a line number (and a
//! column), for `file:line` messages and for SARIF regions.
//!
//! `serde_json::Value` keeps no positions, so the text is scanned again, following the
//! pointer and skipping every value beside the path. The text is known to be valid JSON
//! (it was parsed before); on anything unexpected the answer is `None`, never a panic.
//! Skipping uses bracket counting, not recursion, so any nesting is safe.

/// The 1-based line where the value at `pointer` starts in `text`. With duplicate keys,
/// the last one wins, as in `serde_json`.
pub(crate) fn line_of(text: &str, pointer: &str) -> Option<usize> {
    position_of(text, pointer).map(|(line, _)| line)
}

/// The 1-based line and column (in Unicode code points) where the value at `pointer`
/// starts in `text`.
pub(crate) fn position_of(text: &str, pointer: &str) -> Option<(usize, usize)> {
    position_from(text, 0, pointer)
}

/// [`position_of`] for the document starting at byte `start` of `text` (one of several
/// documents one after another); the line and column count from the start of `text`.
pub(crate) fn position_from(text: &str, start: usize, pointer: &str) -> Option<(usize, usize)> {
    let at = start + offset_of(text.get(start..)?, pointer)?;
    let before = text.get(..at)?;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let line = 1 + before.matches('\n').count();
    Some((line, 1 + before[line_start..].chars().count()))
}

/// The byte offset where the value at `pointer` starts in `text`.
fn offset_of(text: &str, pointer: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    if !pointer.is_empty() {
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            at = match bytes.get(at)? {
                b'{' => member(text, at, &token)?,
                b'[' => item(bytes, at, token.parse().ok()?)?,
                _ => return None,
            };
        }
    }
    Some(at)
}

/// The start of the value of member `key` in the object starting at `at`.
fn member(text: &str, mut at: usize, key: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut found = None;
    loop {
        at = skip_space(bytes, at + 1);
        if bytes.get(at)? == &b'}' {
            return found;
        }
        let end = skip_string(bytes, at)?;
        let name: String = serde_json::from_str(text.get(at..end)?).ok()?;
        at = skip_space(bytes, end);
        if bytes.get(at)? != &b':' {
            return None;
        }
        at = skip_space(bytes, at + 1);
        if name == key {
            found = Some(at);
        }
        at = skip_space(bytes, skip_value(bytes, at)?);
        match bytes.get(at)? {
            b',' => continue,
            _ => return found,
        }
    }
}

/// The start of item `index` of the array starting at `at`.
fn item(bytes: &[u8], mut at: usize, index: usize) -> Option<usize> {
    for _ in 0..index {
        at = skip_space(bytes, at + 1);
        at = skip_space(bytes, skip_value(bytes, at)?);
        if bytes.get(at)? != &b',' {
            return None;
        }
    }
    let at = skip_space(bytes, at + 1);
    (bytes.get(at)? != &b']').then_some(at)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end (one past the closing quote) of the string starting at `at`.
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at)? != &b'"' {
        return None;
    }
    let mut i = at + 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The end of the value starting at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = skip_string(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let rest = &bytes[at..];
            let end = rest.iter().position(|b| b",}] \t\r\n".contains(b));
            Some(at + end.unwrap_or(rest.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{line_of, position_of};

    const TEXT: &str = r#"{
  "name": "x",
  "tags": [
    "a",
    {"k": [1,
      2]}
  ],
  "a/b": {"~": true},
  "name": "y"
}"#;

    #[test]
    fn pointers_find_their_lines() {
        let cases = [
            ("", 1),
            ("/tags", 3),
            ("/tags/0", 4),
            ("/tags/1", 5),
            ("/tags/1/k/1", 6),
            ("/a~1b/~0", 8),
            // The last of duplicate keys, as serde_json keeps it.
            ("/name", 9),
        ];
        for (pointer, line) in cases {
            assert_eq!(line_of(TEXT, pointer), Some(line), "{pointer}");
        }
    }

    #[test]
    fn columns_count_code_points_from_one() {
        assert_eq!(position_of(TEXT, ""), Some((1, 1)));
        assert_eq!(position_of(TEXT, "/tags/1/k"), Some((5, 11)));
        assert_eq!(position_of(TEXT, "/a~1b/~0"), Some((8, 16)));
        assert_eq!(
            position_of("{\"\u{e9}\u{e9}\": 1, \"b\": 2}", "/b"),
            Some((1, 16))
        );
    }

    #[test]
    fn missing_or_malformed_paths_have_no_line() {
        for pointer in ["/nope", "/tags/2", "/tags/x", "/name/0", "tags"] {
            assert_eq!(line_of(TEXT, pointer), None, "{pointer}");
        }
        assert_eq!(line_of("[1, [2", "/1/0"), Some(1));
        assert_eq!(line_of("[1, [2", "/1/1"), None);
    }

    #[test]
    fn strings_with_brackets_and_escapes_are_skipped_whole() {
        let text = "{\"a\": \"}]\\\"[{\",\n\"b\": 2}";
        assert_eq!(line_of(text, "/b"), Some(2));
    }
}
