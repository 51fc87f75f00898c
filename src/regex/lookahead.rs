//! Patterns that open with lookaheads, split into a conjunction.
//!
//! Schemas state "all of these" with leading lookaheads: cspell's
//! `^(?=[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$` says "only these characters, at least one word
//! character, not empty". A lookahead sends the whole pattern to the backtracking
//! engine, which allocates and backtracks on every match. But at the start of the input
//! (`^` without the multiline flag), `^(?=A)(?=B)C` matches exactly when `^A`, `^B` and
//! `^C` each match, since a lookahead consumes nothing: each part can run on the linear
//! automaton engine. Only that shape is split: a `^`, lookaheads, then a rest without a
//! top-level `|` (which would bind looser than the lookaheads).

/// The parts of `source`, each anchored with `^`, when it is `^`, one or more
/// lookaheads `(?=...)`, and a rest without top-level alternation; `None` otherwise.
pub(super) fn split(source: &str) -> Option<Vec<String>> {
    let mut rest = source.strip_prefix('^')?;
    let mut parts = Vec::new();
    while let Some(after) = rest.strip_prefix("(?=") {
        let end = group_end(after)?;
        parts.push(format!("^(?:{})", &after[..end]));
        rest = &after[end + 1..];
        // A quantified lookahead (Annex B allows it) is not a plain conjunct.
        if rest.starts_with(['*', '+', '?', '{']) {
            return None;
        }
    }
    if parts.is_empty() || !without_top_level_alternation(rest) {
        return None;
    }
    parts.push(format!("^(?:{rest})"));
    Some(parts)
}

/// The byte index of the `)` closing a group whose body starts `text`, skipping escapes,
/// character classes and nested groups.
fn group_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next()?;
            }
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '[' => in_class = true,
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `text` is balanced and has no `|` outside groups and classes.
fn without_top_level_alternation(text: &str) -> bool {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                // An escape takes the next character, whatever it is.
                let Some(_) = chars.next() else {
                    return false;
                };
            }
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '[' => in_class = true,
            '(' => depth += 1,
            ')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            '|' if depth == 0 => return false,
            _ => {}
        }
    }
    depth == 0 && !in_class
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_lookaheads_become_anchored_parts() {
        assert_eq!(
            split(r"^(?=[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$").unwrap(),
            [r"^(?:[^!*,;{}[\]~\n]+$)", r"^(?:(.*\w))", r"^(?:.+$)"]
        );
        assert_eq!(split(r"^(?=a\))b").unwrap(), [r"^(?:a\))", r"^(?:b)"]);
        assert_eq!(split(r"^(?=a|b)").unwrap(), ["^(?:a|b)", "^(?:)"]);
    }

    #[test]
    fn other_shapes_are_left_alone() {
        for source in [
            "(?=a)b",     // not anchored
            "^a(?=b)",    // lookahead after other input
            "^(?=a)b|c",  // alternation binds looser
            "^(?=a)*b",   // quantified lookahead
            "^(?!a)b",    // negative lookahead
            "^(?=a",      // unterminated
            "^(?=[)])b)", // class hides the paren: unterminated group
            "^",          // no lookahead
        ] {
            assert_eq!(split(source), None, "{source}");
        }
    }
}
