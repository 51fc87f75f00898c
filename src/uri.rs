//! Just enough RFC 3986 to resolve `$id` and `$ref` values against a base URI.
//!
//! Schema identifiers are compared as strings after resolution, so this module only
//! splits references into their five components, merges them with a base (RFC 3986
//! §5.2) and removes dot segments. It never touches a network: a URI here is a name.

/// The base URI of a schema document that has no `$id` of its own.
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";

/// Whether `uri` has a scheme: a base other references can resolve against.
pub(crate) fn is_absolute(uri: &str) -> bool {
    parse(uri).scheme.is_some()
}

/// The five components of a URI reference, borrowed from the text.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parse(text: &str) -> Parts<'_> {
    let mut rest = text;
    let mut parts = Parts::default();
    if let Some((head, fragment)) = rest.split_once('#') {
        parts.fragment = Some(fragment);
        rest = head;
    }
    if let Some((head, query)) = rest.split_once('?') {
        parts.query = Some(query);
        rest = head;
    }
    if let Some(colon) = rest.find(':') {
        let scheme = &rest[..colon];
        let valid = scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if valid && !scheme.contains('/') {
            parts.scheme = Some(scheme);
            rest = &rest[colon + 1..];
        }
    }
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        parts.authority = Some(&after[..end]);
        rest = &after[end..];
    }
    parts.path = rest;
    parts
}

/// RFC 3986 §5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let mut output: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if i == last {
                    output.push("");
                }
            }
            ".." => {
                if output.len() > usize::from(absolute) {
                    output.pop();
                }
                if i == last {
                    output.push("");
                }
            }
            s => output.push(s),
        }
    }
    let mut joined = output.join("/");
    if absolute && !joined.starts_with('/') {
        joined.insert(0, '/');
    }
    joined
}

fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        format!("/{path}")
    } else {
        match base.path.rfind('/') {
            Some(slash) => format!("{}{}", &base.path[..=slash], path),
            None => path.to_string(),
        }
    }
}

fn compose(parts: &Parts<'_>, path: &str) -> String {
    let mut out = String::new();
    if let Some(scheme) = parts.scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = parts.authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(path);
    if let Some(query) = parts.query {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = parts.fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// Resolves `reference` against the absolute URI `base` (RFC 3986 §5.2.2).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = parse(reference);
    if r.scheme.is_some() {
        return compose(&r, &remove_dot_segments(r.path));
    }
    let b = parse(base);
    let mut target = Parts {
        scheme: b.scheme,
        fragment: r.fragment,
        ..Parts::default()
    };
    let path;
    if r.authority.is_some() {
        target.authority = r.authority;
        target.query = r.query;
        path = remove_dot_segments(r.path);
    } else {
        target.authority = b.authority;
        if r.path.is_empty() {
            path = b.path.to_string();
            target.query = r.query.or(b.query);
        } else {
            path = if r.path.starts_with('/') {
                remove_dot_segments(r.path)
            } else {
                remove_dot_segments(&merge(&b, r.path))
            };
            target.query = r.query;
        }
    }
    compose(&target, &path)
}

/// Splits `uri` into the part before `#` and the fragment (empty when absent).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (reference, expected) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
        ] {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
    }

    #[test]
    fn resolves_against_urns_and_the_default_base() {
        assert_eq!(
            resolve("urn:uuid:deadbeef", "#/$defs/x"),
            "urn:uuid:deadbeef#/$defs/x"
        );
        assert_eq!(
            resolve(DEFAULT_BASE, "tree.json"),
            "json-schema:///tree.json"
        );
        assert_eq!(split_fragment("a.json#/x"), ("a.json", "/x"));
    }
}
