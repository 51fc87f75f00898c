//! `uri-template`: RFC 6570 URI Template syntax (section 2), all levels.

use super::uri::{is_iprivate, is_ucschar};

/// `uri-template`: an RFC 6570 section 2 `URI-Template`.
///
/// Literals may be any character but controls, space, `"`, `'`, `%` (other
/// than in `%XX` escapes), `<`, `>`, `\`, `^`, `` ` ``, `{`, `|` and `}`;
/// non-ASCII literals must be `ucschar` or `iprivate`. Expressions are
/// `{ [operator] varspec *( "," varspec ) }` with operators `+ # . / ; ? &`,
/// variable names of `ALPHA / DIGIT / "_" / %XX` joined by single dots, and an
/// optional `:N` prefix (1-9999, no leading zero) or `*` explode modifier.
/// The operators RFC 6570 reserves for future extensions (`= , ! @ |`) are
/// rejected, since no processor can expand them.
pub(super) fn is_uri_template(s: &str) -> bool {
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        match c {
            '{' => {
                let Some((expr, tail)) = rest[1..].split_once('}') else {
                    return false;
                };
                if !expression(expr) {
                    return false;
                }
                rest = tail;
                continue;
            }
            '%' => {
                if !is_pct_encoded(rest.as_bytes()) {
                    return false;
                }
                rest = &rest[3..];
                continue;
            }
            '\0'..=' ' | '"' | '\'' | '<' | '>' | '\\' | '^' | '`' | '|' | '}' | '\u{7F}' => {
                return false;
            }
            c if !c.is_ascii() && !is_ucschar(c) && !is_iprivate(c) => return false,
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    true
}

/// `%` followed by two hexadecimal digits at the start of `b`.
fn is_pct_encoded(b: &[u8]) -> bool {
    matches!(b, [b'%', h, l, ..] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit())
}

/// The inside of an expression: `[ operator ] variable-list`.
fn expression(expr: &str) -> bool {
    let list = expr
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
        .unwrap_or(expr);
    list.split(',').all(varspec)
}

/// `varspec = varname [ modifier-level4 ]`.
fn varspec(spec: &str) -> bool {
    let (name, modifier_ok) = if let Some(name) = spec.strip_suffix('*') {
        (name, true)
    } else if let Some((name, max_length)) = spec.split_once(':') {
        let b = max_length.as_bytes();
        let ok = (1..=4).contains(&b.len()) && b[0] != b'0' && b.iter().all(u8::is_ascii_digit);
        (name, ok)
    } else {
        (spec, true)
    };
    modifier_ok && varname(name)
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" /
/// pct-encoded`.
fn varname(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            let b = part.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'%' {
                    if !is_pct_encoded(&b[i..]) {
                        return false;
                    }
                    i += 3;
                } else if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
                    i += 1;
                } else {
                    return false;
                }
            }
            i > 0
        })
}
