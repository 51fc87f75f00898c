//! Where a JSON Pointer's value starts in a document's text, as a line number, for
//! `file:line` messages.
//!
//! `serde_json::Value` keeps no positions, so the text is scanned again, following the
//! pointer and skipping every value beside the path. The text is known to be valid JSON
//! (it was parsed before); on anything unexpected the answer is `None`, never a panic.
//! Skipping uses bracket counting, not recursion, so any nesting is safe.

/// The 1-based line where the value at `pointer` starts in `text`. With duplicate keys,
/// the last one wins, as in `serde_json`.
pub(crate) fn line_of(text: &str, pointer: &str) -> Option<usize> {
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
    Some(1 + bytes[..at].iter().filter(|&&b| b == b'\n').count())
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
    use super::line_of;

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
