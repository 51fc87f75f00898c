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
    // Capture groups keep their numbers only while no backreference could read them.
    let unwrap_captures = !has_backreference(source);
    let mut parts = Vec::new();
    while let Some(after) = rest.strip_prefix("(?=") {
        let end = group_end(after)?;
        parts.push(anchored(&after[..end], unwrap_captures));
        rest = &after[end + 1..];
        // A quantified lookahead (Annex B allows it) is not a plain conjunct.
        if rest.starts_with(['*', '+', '?', '{']) {
            return None;
        }
    }
    if parts.is_empty() || !without_top_level_alternation(rest) {
        return None;
    }
    parts.push(anchored(rest, unwrap_captures));
    fold_line_run(&mut parts);
    Some(parts)
}

/// Folds a part `^.+$` (or `^.*$`: a line, no line terminator) into a part that is a
/// run of one negated class (`^[^!*,;\n]+$`), as the class without line terminators:
/// the two hold of a text exactly when the one run does (cspell's
/// `^(?=[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$`), and a run is one part fewer to test.
fn fold_line_run(parts: &mut Vec<String>) {
    let Some(line) = parts
        .iter()
        .position(|part| matches!(part.as_str(), "^.+$" | "^.*$"))
    else {
        return;
    };
    let Some((class, run)) = parts.iter().enumerate().find_map(|(at, part)| {
        let (class, quantifier) = negated_class_run(part)?;
        Some((at, (class, quantifier)))
    }) else {
        return;
    };
    let (excluded, quantifier) = run;
    // At least one character if either part asks for one.
    let quantifier = match parts[line].as_str() {
        "^.+$" => '+',
        _ => quantifier,
    };
    parts[class] = format!(r"^[^{excluded}\n\r\u2028\u2029]{quantifier}$");
    parts.remove(line);
}

/// The inside of the negated class and the quantifier (`+` or `*`) of a part that is
/// exactly `^[^...]+$` or `^[^...]*$`.
fn negated_class_run(part: &str) -> Option<(String, char)> {
    let inside = part.strip_prefix("^[^")?;
    let (inside, quantifier) = match inside.strip_suffix("]+$") {
        Some(inside) => (inside, '+'),
        None => (inside.strip_suffix("]*$")?, '*'),
    };
    // The class must end where the suffix starts: no `]` inside but escaped ones, and no
    // escape left open; and a `-` last would make a range of what is appended.
    if inside.ends_with('-') {
        return None;
    }
    let mut chars = inside.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next()?;
            }
            ']' => return None,
            _ => {}
        }
    }
    Some((inside.to_owned(), quantifier))
}

/// `^` before `body`: bare when nothing in `body` binds looser than the anchor, so that
/// the part keeps a simple shape the matchers recognise (`^[^\s]+$`), else `^(?:body)`.
/// A group around the whole body is dropped first: a match test cannot see it.
fn anchored(mut body: &str, unwrap_captures: bool) -> String {
    while let Some(inner) = whole_group(body, unwrap_captures) {
        body = inner;
    }
    match without_top_level_alternation(body) {
        true => format!("^{body}"),
        false => format!("^(?:{body})"),
    }
}

/// The inside of `text` when all of it is one unquantified group: `(?:X)`, or `(X)`
/// when `captures` may go.
fn whole_group(text: &str, captures: bool) -> Option<&str> {
    let after = match text.strip_prefix("(?:") {
        Some(after) => after,
        None => text
            .strip_prefix('(')
            .filter(|a| captures && !a.starts_with('?'))?,
    };
    let end = group_end(after)?;
    (end + 1 == after.len()).then(|| &after[..end])
}

/// Whether `source` may hold a backreference (`\1` to `\9`, `\k<name>`): a
/// backslash not itself escaped, then a digit or `k`.
fn has_backreference(source: &str) -> bool {
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next().is_some_and(|e| matches!(e, '1'..='9' | 'k')) {
            return true;
        }
    }
    false
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
        // The line `^.+$` folds into the run of a negated class.
        assert_eq!(
            split(r"^(?=[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$").unwrap(),
            [r"^[^!*,;{}[\]~\n\n\r\u2028\u2029]+$", r"^.*\w"]
        );
        assert_eq!(
            split(r"^(?=[^a]*$).*$").unwrap(),
            [r"^[^a\n\r\u2028\u2029]*$"]
        );
        assert_eq!(
            split(r"^(?=[^a]*$).+$").unwrap(),
            [r"^[^a\n\r\u2028\u2029]+$"]
        );
        // Not a run of one class, or an escape that closes nothing: kept apart.
        assert_eq!(split(r"^(?=[^a]b+$).+$").unwrap(), [r"^[^a]b+$", r"^.+$"]);
        assert_eq!(negated_class_run(r"^[^a\]]+$"), Some((r"a\]".into(), '+')));
        assert_eq!(negated_class_run(r"^[^a]b]+$"), None);
        assert_eq!(negated_class_run(r"^[^a-]+$"), None);
        assert_eq!(split(r"^(?=a\))b").unwrap(), [r"^a\)", r"^b"]);
        assert_eq!(split(r"^(?=a|b)").unwrap(), ["^(?:a|b)", "^"]);
        assert_eq!(split(r"^(?=(?:a|b))(c)d").unwrap(), ["^(?:a|b)", "^(c)d"]);
        assert_eq!(split(r"^(?=((x)))y").unwrap(), ["^x", "^y"]);
        // A backreference may read a capture group: those stay.
        assert_eq!(split(r"^(?=(a))(?:b)\1").unwrap(), ["^(a)", r"^(?:b)\1"]);
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
