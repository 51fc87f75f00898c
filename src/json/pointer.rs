//! JSON Pointer (RFC 6901) building and lookup, and the percent-decoding of URI fragments.

use serde_json::Value;
use std::borrow::Cow;

/// Appends `/token` to `pointer`, escaping `~` and `/`.
pub(crate) fn push(pointer: &mut String, token: &str) {
    let token = escape(token);
    pointer.reserve(token.len() + 1);
    pointer.push('/');
    pointer.push_str(&token);
}

/// `token` as a JSON Pointer token: `~` written `~0` and `/` written `~1`; itself when
/// it has neither.
#[inline]
pub(crate) fn escape(token: &str) -> Cow<'_, str> {
    // A byte loop: `contains` with a set of chars walks the text char by char.
    match token.bytes().any(|b| b == b'~' || b == b'/') {
        false => Cow::Borrowed(token),
        true => Cow::Owned(escaped(token)),
    }
}

/// [`escape`] for a token that needs it.
#[cold]
fn escaped(token: &str) -> String {
    let mut escaped = String::with_capacity(token.len() + 2);
    for c in token.chars() {
        match c {
            '~' => escaped.push_str("~0"),
            '/' => escaped.push_str("~1"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// An array index as a JSON Pointer token, its decimal digits written on the stack:
/// through the formatting machinery (into a heap string, for the instance location) an
/// index cost about a tenth of displaying a short error.
pub(crate) struct IndexToken {
    digits: [u8; 20],
    start: usize,
}

impl IndexToken {
    /// The token of `index`.
    pub(crate) fn new(index: usize) -> IndexToken {
        let mut digits = [0; 20];
        let mut start = digits.len();
        let mut rest = index;
        // 20 digits hold `u64::MAX`, so `start` stays in bounds.
        while let Some(at) = start.checked_sub(1) {
            start = at;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        IndexToken { digits, start }
    }

    /// The digits.
    pub(crate) fn as_str(&self) -> &str {
        // One digit (the `/allOf/0` of most schema locations) without the check that
        // the bytes are UTF-8, a third of writing such a location.
        const DIGITS: &str = "0123456789";
        match &self.digits[self.start..] {
            &[digit] => {
                let at = usize::from(digit.wrapping_sub(b'0'));
                DIGITS.get(at..=at).unwrap_or_default()
            }
            digits => std::str::from_utf8(digits).unwrap_or_default(),
        }
    }
}

/// `pointer` with `/token` appended.
pub(crate) fn join(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    push(&mut out, token);
    out
}

/// The unescaped reference tokens of `pointer`, or `None` if it is not a JSON Pointer.
pub(crate) fn tokens(pointer: &str) -> Option<impl Iterator<Item = Cow<'_, str>>> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    Some(pointer.split('/').skip(1).map(|token| {
        if token.contains('~') {
            Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(token)
        }
    }))
}

/// The value at `pointer` inside `root`.
pub(crate) fn resolve<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    let mut current = root;
    for token in tokens(pointer)? {
        current = match current {
            Value::Object(map) => map.get(token.as_ref())?,
            Value::Array(items) => {
                if token.len() > 1 && token.starts_with('0') {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(current)
}

/// Whether `inner` is `outer` or a location below it.
pub(crate) fn is_within(inner: &str, outer: &str) -> bool {
    inner
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Decodes `%XX` escapes in a URI fragment; `None` if they do not form UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<Cow<'_, str>> {
    if !text.contains('%') {
        return Some(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn index_tokens_are_the_decimal_digits() {
        for index in (0..=10).chain([99, 100, 12_345, u32::MAX as usize, usize::MAX]) {
            assert_eq!(IndexToken::new(index).as_str(), index.to_string());
        }
    }

    #[test]
    fn pointers_escape_and_resolve() {
        let doc = json!({"a/b": {"c~d": [10, 20]}});
        let p = join(&join("", "a/b"), "c~d") + "/1";
        assert_eq!(p, "/a~1b/c~0d/1");
        assert_eq!(resolve(&doc, &p), Some(&json!(20)));
        assert_eq!(resolve(&doc, "/a~1b/c~0d/01"), None);
        assert_eq!(resolve(&doc, ""), Some(&doc));
        assert!(is_within("/a/b", "/a") && !is_within("/ab", "/a"));
        assert_eq!(percent_decode("%25foo").as_deref(), Some("%foo"));
        assert_eq!(percent_decode("%zz"), None);
    }
}
