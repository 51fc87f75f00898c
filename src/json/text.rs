//! JSON text read in place: a flat tape of the document's values, which the interpreter
//! reads through the [view](super::view) as it reads a `serde_json::Value`.
//!
//! [`Tape::parse`] checks the text as `serde_json::from_slice` does (the same grammar,
//! the same errors: a lone surrogate, a number out of range, trailing characters, more
//! than [`MAX_DEPTH`] levels) and records each value as one [`Entry`], in document
//! order, a container before its contents. Strings are borrowed from the text; only
//! those with escapes are decoded, into one buffer for the whole document. A number is
//! parsed into its entry as `serde_json` parses it where that is exact (an integer of
//! 64 bits, a double that is the number); one that `serde_json`'s default build would
//! round to a double (and, in the exact build, every number) is kept as its range of the
//! text instead, and judged on it ([`Exact::Text`]). A tape is two vectors, whatever the
//! document holds, and a thread reuses them from one document to the next.
//!
//! The parse is a loop over the bytes with a stack of the open containers, so no
//! document can overflow the thread's stack. An object whose name repeats keeps the last
//! value, as `serde_json` does: the earlier members are marked and skipped.

use super::number::{self, Exact};
use super::view::{ArrayView, Json, ObjectView, View};
use serde_json::{Number, Value};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// The nesting at which a document is refused, as `serde_json` refuses it: 127 levels
/// of arrays and objects pass, 128 do not.
pub(crate) const MAX_DEPTH: usize = 128;

/// Why a text is not one JSON document, and where: what
/// [`Validator::is_valid_json`](crate::Validator::is_valid_json) and
/// [`Validator::validate_json`](crate::Validator::validate_json) answer for text that
/// `serde_json::from_slice` would refuse too.
///
/// ```
/// use serde_json::json;
/// let validator = mcp_jsonschema::Validator::new(&json!({"type": "object"}))?;
/// let error = validator.is_valid_json(b"{\n  \"a\": tru\n}").unwrap_err();
/// assert_eq!((error.line(), error.column()), (2, 8));
/// assert_eq!(error.to_string(), "expected ident at line 2 column 8");
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    message: &'static str,
    line: usize,
    column: usize,
}

impl SyntaxError {
    /// The line of the byte the text goes wrong at, from 1. See the example on
    /// [`SyntaxError`].
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column of that byte, in bytes from 1. See the example on [`SyntaxError`].
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for SyntaxError {}

/// One value of a document.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    Null,
    True,
    False,
    /// An integer a `u64` holds.
    Unsigned(Halves),
    /// A negative integer an `i64` holds.
    Signed(Halves),
    /// A double that is the number exactly (its bits).
    Float(Halves),
    /// A number judged by its text, a range of the text: in the default build one that
    /// no double holds exactly, in the exact build every number.
    Digits {
        start: u32,
        len: u32,
    },
    /// A string without escapes: a range of the text.
    Text {
        start: u32,
        len: u32,
    },
    /// A string with escapes, decoded: a range of [`Tape::decoded`].
    Decoded {
        start: u32,
        len: u32,
    },
    /// The key of a member a later member of the same name overrides.
    Shadowed,
    /// An array of `len` items; the entry after its last descendant is `next`.
    Array {
        len: u32,
        next: u32,
    },
    /// An object of `len` members (those shadowed not counted), each a key entry and
    /// its value's entries; the entry after its last descendant is `next`.
    Object {
        len: u32,
        next: u32,
    },
}

/// A parsed JSON document.
#[derive(Debug)]
pub(crate) struct Tape<'t> {
    text: &'t str,
    entries: Vec<Entry>,
    decoded: String,
    /// The parser's stack of open containers, empty once parsed: kept with the rest
    /// for the next document ([`Spare`]).
    open: Vec<Open>,
}

/// A tape's vectors, cleared, kept per thread for the next document: once a thread has
/// read a document as large, reading one allocates nothing (else three allocations
/// and three frees per document: the entries, the decoded strings, the parser's stack).
#[derive(Default)]
struct Spare {
    entries: Vec<Entry>,
    decoded: String,
    open: Vec<Open>,
}

impl Spare {
    /// Vectors holding up to this many bytes in all are kept; larger ones are freed.
    const KEPT_UP_TO: usize = 1 << 20;

    thread_local! {
        static KEPT: std::cell::Cell<Option<Spare>> = const { std::cell::Cell::new(None) };
    }

    /// The thread's kept vectors, or new ones.
    fn take() -> Spare {
        Self::KEPT
            .try_with(|kept| kept.take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Keeps `self` for the thread's next document, unless it is large.
    fn keep(mut self) {
        let bytes = self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.decoded.capacity()
            + self.open.capacity() * std::mem::size_of::<Open>();
        if bytes > Self::KEPT_UP_TO {
            return;
        }
        self.entries.clear();
        self.decoded.clear();
        self.open.clear();
        let _ = Self::KEPT.try_with(|kept| kept.set(Some(self)));
    }
}

impl Drop for Tape<'_> {
    fn drop(&mut self) {
        Spare {
            entries: std::mem::take(&mut self.entries),
            decoded: std::mem::take(&mut self.decoded),
            open: std::mem::take(&mut self.open),
        }
        .keep();
    }
}

impl<'t> Tape<'t> {
    /// Parses `bytes`, one JSON value with optional whitespace around it.
    pub(crate) fn parse(bytes: &'t [u8]) -> Result<Tape<'t>, SyntaxError> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return Err(error_at(
                    bytes,
                    e.valid_up_to(),
                    "invalid unicode code point",
                ))
            }
        };
        if u32::try_from(bytes.len()).is_err() {
            return Err(error_at(bytes, 0, "document larger than 4 GiB"));
        }
        let Spare {
            mut entries,
            decoded,
            open,
        } = Spare::take();
        entries.reserve(bytes.len() / 8 + 1);
        let mut parser = Parser {
            bytes,
            at: 0,
            tape: Tape {
                text,
                entries,
                decoded,
                open: Vec::new(),
            },
            open,
        };
        parser.document()?;
        parser.tape.open = std::mem::take(&mut parser.open);
        Ok(parser.tape)
    }

    /// The document's root value.
    pub(crate) fn root(&self) -> TapeValue<'_> {
        TapeValue { tape: self, at: 0 }
    }

    /// The index of the entry after the value at `at` and its descendants.
    #[inline(always)]
    fn next(&self, at: u32) -> u32 {
        match self.entries.get(at as usize) {
            Some(Entry::Array { next, .. } | Entry::Object { next, .. }) => *next,
            _ => at + 1,
        }
    }

    /// The string of the entry at `at`, if it is one.
    #[inline(always)]
    fn string(&self, at: u32) -> Option<&str> {
        match self.entries.get(at as usize)? {
            Entry::Text { start, len } => self.text.get(*start as usize..(start + len) as usize),
            Entry::Decoded { start, len } => {
                self.decoded.get(*start as usize..(start + len) as usize)
            }
            _ => None,
        }
    }
}

/// The line and column of byte `at` of `bytes`, with `message`.
fn error_at(bytes: &[u8], at: usize, message: &'static str) -> SyntaxError {
    let before = bytes.get(..at).unwrap_or(bytes);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
    SyntaxError {
        message,
        line,
        column,
    }
}

/// A container being filled: its entry, and how many values it holds so far.
#[derive(Debug)]
struct Open {
    entry: u32,
    count: u32,
    object: bool,
}

struct Parser<'t> {
    bytes: &'t [u8],
    at: usize,
    tape: Tape<'t>,
    open: Vec<Open>,
}

impl Parser<'_> {
    fn fail<T>(&self, message: &'static str) -> Result<T, SyntaxError> {
        Err(error_at(self.bytes, self.at, message))
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn push(&mut self, entry: Entry) -> u32 {
        let index = self.tape.entries.len() as u32;
        self.tape.entries.push(entry);
        index
    }

    /// The whole document: a value, then only whitespace.
    fn document(&mut self) -> Result<(), SyntaxError> {
        self.skip_whitespace();
        self.value()?;
        loop {
            // After a value: close containers, or go on to the next member or item.
            self.skip_whitespace();
            let Some(open) = self.open.last() else {
                break;
            };
            let object = open.object;
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    self.skip_whitespace();
                    if object {
                        self.key()?;
                    }
                    self.value()?;
                }
                Some(b']') if !object => {
                    self.at += 1;
                    self.close();
                }
                Some(b'}') if object => {
                    self.at += 1;
                    self.close();
                }
                None => return self.fail("EOF while parsing a value"),
                Some(_) if object => return self.fail("expected `,` or `}`"),
                Some(_) => return self.fail("expected `,` or `]`"),
            }
        }
        if self.at < self.bytes.len() {
            return self.fail("trailing characters");
        }
        Ok(())
    }

    /// One value: a scalar, or the opening of a container (its first member or item
    /// parsed too, when it has one).
    fn value(&mut self) -> Result<(), SyntaxError> {
        if let Some(open) = self.open.last_mut() {
            open.count += 1;
        }
        match self.peek() {
            Some(b'n') => self.literal(b"null", Entry::Null),
            Some(b't') => self.literal(b"true", Entry::True),
            Some(b'f') => self.literal(b"false", Entry::False),
            Some(b'"') => self.string().map(|_| ()),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[') => {
                self.at += 1;
                self.opening(false)?;
                self.skip_whitespace();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    self.close();
                    return Ok(());
                }
                self.value()
            }
            Some(b'{') => {
                self.at += 1;
                self.opening(true)?;
                self.skip_whitespace();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    self.close();
                    return Ok(());
                }
                self.key()?;
                self.value()
            }
            None => self.fail("EOF while parsing a value"),
            Some(_) => self.fail("expected value"),
        }
    }

    fn opening(&mut self, object: bool) -> Result<(), SyntaxError> {
        if self.open.len() + 1 >= MAX_DEPTH {
            return self.fail("recursion limit exceeded");
        }
        let entry = match object {
            true => self.push(Entry::Object { len: 0, next: 0 }),
            false => self.push(Entry::Array { len: 0, next: 0 }),
        };
        self.open.push(Open {
            entry,
            count: 0,
            object,
        });
        Ok(())
    }

    /// Ends the innermost container: its size and extent, and for an object, which of
    /// its members are shadowed by a later one of the same name.
    fn close(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        let next = self.tape.entries.len() as u32;
        let len = match open.object {
            true => open.count - self.shadow(open.entry, next),
            false => open.count,
        };
        if let Some(entry) = self.tape.entries.get_mut(open.entry as usize) {
            *entry = match open.object {
                true => Entry::Object { len, next },
                false => Entry::Array { len, next },
            };
        }
    }

    /// Marks the keys of the object at `entry` (its members end at `next`) that a later
    /// key repeats, and says how many.
    fn shadow(&mut self, entry: u32, next: u32) -> u32 {
        let tape = &self.tape;
        let mut keys: SmallVec<[(u32, &str); 16]> = SmallVec::new();
        let mut at = entry + 1;
        while at < next {
            if let Some(key) = tape.string(at) {
                keys.push((at, key));
            }
            at = tape.next(at + 1);
        }
        if keys.len() < 2 {
            return 0;
        }
        let mut shadowed: SmallVec<[u32; 4]> = SmallVec::new();
        if keys.len() <= 16 {
            for (i, &(at, key)) in keys.iter().enumerate() {
                if keys[i + 1..].iter().any(|&(_, later)| later == key) {
                    shadowed.push(at);
                }
            }
        } else {
            let mut seen = crate::maps::set();
            for &(at, key) in keys.iter().rev() {
                if !seen.insert(key) {
                    shadowed.push(at);
                }
            }
        }
        drop(keys);
        for &at in &shadowed {
            if let Some(entry) = self.tape.entries.get_mut(at as usize) {
                *entry = Entry::Shadowed;
            }
        }
        shadowed.len() as u32
    }

    fn literal(&mut self, word: &'static [u8], entry: Entry) -> Result<(), SyntaxError> {
        match self.bytes.get(self.at..self.at + word.len()) {
            Some(found) if found == word => {
                self.at += word.len();
                self.push(entry);
                Ok(())
            }
            _ => self.fail("expected ident"),
        }
    }

    /// An object's key and the colon after it.
    fn key(&mut self) -> Result<(), SyntaxError> {
        match self.peek() {
            Some(b'"') => self.string()?,
            None => return self.fail("EOF while parsing an object"),
            Some(_) => return self.fail("key must be a string"),
        };
        self.skip_whitespace();
        match self.peek() {
            Some(b':') => {
                self.at += 1;
                self.skip_whitespace();
                Ok(())
            }
            None => self.fail("EOF while parsing an object"),
            Some(_) => self.fail("expected `:`"),
        }
    }

    /// A string, from its opening quote: borrowed when it has no escape, else decoded.
    fn string(&mut self) -> Result<u32, SyntaxError> {
        self.at += 1;
        let start = self.at;
        loop {
            match self.peek() {
                Some(b'"') => {
                    let len = (self.at - start) as u32;
                    self.at += 1;
                    let entry = Entry::Text {
                        start: start as u32,
                        len,
                    };
                    return Ok(self.push(entry));
                }
                Some(b'\\') => return self.escaped(start),
                Some(0..=0x1f) => return self.fail("control character while parsing a string"),
                Some(_) => self.at += 1,
                None => return self.fail("EOF while parsing a string"),
            }
        }
    }

    /// The rest of a string that has an escape at `self.at`, its text from `start`.
    fn escaped(&mut self, start: usize) -> Result<u32, SyntaxError> {
        let from = self.tape.decoded.len();
        self.tape
            .decoded
            .push_str(self.tape.text.get(start..self.at).unwrap_or_default());
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    let len = (self.tape.decoded.len() - from) as u32;
                    let entry = Entry::Decoded {
                        start: from as u32,
                        len,
                    };
                    return Ok(self.push(entry));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let decoded = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let c = self.unicode_escape()?;
                            self.tape.decoded.push(c);
                            continue;
                        }
                        None => return self.fail("EOF while parsing a string"),
                        Some(_) => return self.fail("invalid escape"),
                    };
                    self.at += 1;
                    self.tape.decoded.push(decoded);
                }
                Some(0..=0x1f) => return self.fail("control character while parsing a string"),
                Some(_) => {
                    // A run of plain text, copied whole.
                    let run = self.at;
                    while let Some(b) = self.peek() {
                        if b == b'"' || b == b'\\' || b < 0x20 {
                            break;
                        }
                        self.at += 1;
                    }
                    let text = self.tape.text.get(run..self.at).unwrap_or_default();
                    self.tape.decoded.push_str(text);
                }
                None => return self.fail("EOF while parsing a string"),
            }
        }
    }

    /// Four hex digits, after `\u`.
    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut n = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b) => (b as char).to_digit(16),
                None => return self.fail("EOF while parsing a string"),
            };
            let Some(digit) = digit else {
                return self.fail("invalid escape");
            };
            n = n * 16 + digit;
            self.at += 1;
        }
        Ok(n)
    }

    /// The character of a `\u` escape (after the `u`), a surrogate pair's whole.
    fn unicode_escape(&mut self) -> Result<char, SyntaxError> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                    return self.fail("lone leading surrogate in hex escape");
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return self.fail("lone leading surrogate in hex escape");
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return self.fail("lone trailing surrogate in hex escape"),
            code => code,
        };
        match char::from_u32(code) {
            Some(c) => Ok(c),
            None => self.fail("invalid unicode code point"),
        }
    }

    /// A number: its grammar checked here, its value parsed as `serde_json` parses it
    /// where that is exact (see [`number`]).
    fn number(&mut self) -> Result<(), SyntaxError> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        self.at += usize::from(negative);
        let mut digits = Digits::default();
        match self.peek() {
            Some(b'0') => {
                self.at += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return self.fail("invalid number");
                }
            }
            Some(b'1'..=b'9') => self.digits(&mut digits),
            _ => return self.fail("invalid number"),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return self.fail("invalid number");
            }
            (integer, digits.fraction) = (false, true);
            self.digits(&mut digits);
        }
        let mut exponent = 0i32;
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            let sign = match self.peek() {
                Some(b'-') => -1,
                _ => 1,
            };
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return self.fail("invalid number");
            }
            while let Some(digit @ b'0'..=b'9') = self.peek() {
                // Beyond a million, only "far out of range" matters.
                exponent = (exponent * 10 + i32::from(digit - b'0')).min(1_000_000);
                self.at += 1;
            }
            (integer, exponent) = (false, sign * exponent);
        }
        let text = self.tape.text.get(start..self.at).unwrap_or_default();
        let parts = Parts {
            negative,
            digits,
            exponent,
            integer,
        };
        let entry = match number(text, parts) {
            Some(Parsed::Unsigned(n)) => Entry::Unsigned(Halves::of(n)),
            Some(Parsed::Signed(n)) => Entry::Signed(Halves::of(n as u64)),
            Some(Parsed::Float(x)) => Entry::Float(Halves::of(x.to_bits())),
            Some(Parsed::Digits) => Entry::Digits {
                start: start as u32,
                len: (self.at - start) as u32,
            },
            None => {
                self.at = start;
                return self.fail("number out of range");
            }
        };
        self.push(entry);
        Ok(())
    }

    /// A run of digits, into `digits`: eight at a time while the mantissa has room for
    /// them, then one by one.
    #[inline(always)]
    fn digits(&mut self, digits: &mut Digits) {
        let (bytes, mut at) = (self.bytes, self.at);
        while digits.significant <= 11 {
            let Some(eight) = bytes.get(at..at + 8).and_then(eight_digits) else {
                break;
            };
            digits.push_eight(eight);
            at += 8;
        }
        while let Some(&digit @ b'0'..=b'9') = bytes.get(at) {
            digits.push(digit - b'0');
            at += 1;
        }
        self.at = at;
    }
}

/// A number of the text, as the tape keeps it.
enum Parsed {
    /// An integer a `u64` holds, as `serde_json` makes it.
    Unsigned(u64),
    /// A negative integer an `i64` holds.
    Signed(i64),
    /// A double that is the number exactly (`-0` is `-0.0`, as `serde_json` has it).
    Float(f64),
    /// By its text ([`Entry::Digits`]).
    Digits,
}

/// Two halves of 64 bits, so that an entry holds a number in 12 bytes, not 16.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Halves([u32; 2]);

impl Halves {
    #[inline(always)]
    fn of(bits: u64) -> Halves {
        Halves([bits as u32, (bits >> 32) as u32])
    }

    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self.0[0]) | u64::from(self.0[1]) << 32
    }
}

/// The value of eight ASCII digits (the first the most significant), if all eight are
/// digits: a few word operations instead of eight steps of a loop.
#[inline(always)]
fn eight_digits(bytes: &[u8]) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let word = u64::from_le_bytes(bytes.try_into().ok()?);
    // A byte is a digit when taking '0' from it does not wrap below zero and adding
    // 0x46 does not reach 0x80 (above '9'); either sets the byte's top bit.
    let values = word.wrapping_sub(ONES * u64::from(b'0'));
    if (values | word.wrapping_add(ONES * 0x46)) & (ONES * 0x80) != 0 {
        return None;
    }
    // The first digit is the lowest byte. Pairs: each even byte becomes ten times itself
    // plus the next (at most 99, so no byte overflows into the next).
    let pairs = values.wrapping_mul(10).wrapping_add(values >> 8) & 0x00ff_00ff_00ff_00ff;
    // Fours: each even pair a hundred times itself plus the next (at most 9999).
    let fours = pairs.wrapping_mul(100).wrapping_add(pairs >> 16) & 0x0000_ffff_0000_ffff;
    Some((fours & 0xffff) * 10_000 + (fours >> 32))
}

/// What the parser's one pass over a number's text (its grammar checked) gathers.
struct Parts {
    negative: bool,
    digits: Digits,
    /// The exponent's value (a million at most, in magnitude).
    exponent: i32,
    /// Whether the text has neither fraction nor exponent.
    integer: bool,
}

/// A number's first 19 significant digits, and the power of ten that scales them: the
/// number is `mantissa * 10^scale` (times ten to the exponent), exactly unless `dropped`.
#[derive(Default)]
struct Digits {
    mantissa: u64,
    significant: u32,
    scale: i32,
    /// Whether a non-zero digit past the first 19 significant ones was left out.
    dropped: bool,
    /// Whether the digits pushed now are the fraction's.
    fraction: bool,
}

impl Digits {
    /// Eight more digits, worth `eight` (at most 11 significant digits so far, so the
    /// mantissa stays below 10^19).
    #[inline(always)]
    fn push_eight(&mut self, eight: u64) {
        let before = self.mantissa;
        self.mantissa = before * 100_000_000 + eight;
        self.significant = match (before, eight) {
            (0, 0) => 0,
            (0, _) => eight.ilog10() + 1,
            _ => self.significant + 8,
        };
        self.scale -= 8 * i32::from(self.fraction);
    }

    #[inline(always)]
    fn push(&mut self, digit: u8) {
        if self.significant < 19 {
            self.mantissa = self.mantissa * 10 + u64::from(digit);
            self.significant += u32::from(self.mantissa != 0);
            self.scale -= i32::from(self.fraction);
        } else {
            self.dropped |= digit != 0;
            self.scale += i32::from(!self.fraction);
        }
    }
}

/// The number a JSON number's `text` is: as `serde_json` makes it (an integer that fits
/// a `u64` or, negative, an `i64`, else the nearest double; `-0` is the double `-0.0`)
/// where that is exact, else its text; `None` beyond a double's range, as `serde_json`
/// refuses it. `serde_json`'s own `FromStr` builds a deserializer per number, about 500
/// instructions each; with `arbitrary-precision` it keeps the text, so it is asked then.
fn number(text: &str, parts: Parts) -> Option<Parsed> {
    if cfg!(feature = "arbitrary-precision") {
        return Number::from_str(text).ok().map(|_| Parsed::Digits);
    }
    if let Some(quick) = quick_number(parts) {
        return Some(quick);
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Parsed::Unsigned(n));
    }
    if let Ok(n) = text.parse::<i64>() {
        if n != 0 {
            return Some(Parsed::Signed(n));
        }
    }
    // `float_roundtrip` makes `serde_json`'s parse correctly rounded, as `f64`'s is.
    let double: f64 = text.parse().ok().filter(|x: &f64| x.is_finite())?;
    match number::double_is_exact(text) {
        true => Some(Parsed::Float(double)),
        false => Some(Parsed::Digits),
    }
}

/// The powers of ten that a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// [`number`] for the commonest texts, from the parser's pass: an integer of up to 18
/// digits; a number of up to 15 significant digits whose power of ten a double holds
/// exactly, so that one multiplication or division by it is correctly rounded (Clinger's
/// fast path) and the double is the text's number ([`Parsed::Float`]); and a number of
/// more significant digits well inside the doubles' range, which the text decides
/// ([`Parsed::Digits`], as [`number::double_is_exact`] has it), with no double made.
/// `None` sends the text to the general path.
fn quick_number(parts: Parts) -> Option<Parsed> {
    let Parts {
        negative,
        digits,
        exponent,
        integer,
    } = parts;
    let Digits {
        mut mantissa,
        significant,
        mut scale,
        dropped,
        ..
    } = digits;
    if integer {
        return match negative {
            _ if significant >= 19 => None, // perhaps beyond 64 bits
            false => Some(Parsed::Unsigned(mantissa)),
            true if mantissa == 0 => None, // `-0`, a double
            true => Some(Parsed::Signed(-(mantissa as i64))),
        };
    }
    if mantissa == 0 {
        return Some(Parsed::Float(if negative { -0.0 } else { 0.0 }));
    }
    while mantissa % 10 == 0 && !dropped {
        mantissa /= 10;
        scale += 1;
    }
    let power = scale + exponent;
    if dropped || mantissa >= number::BEYOND_DOUBLE_DIGITS {
        let magnitude = i64::from(mantissa.ilog10()) + 1 + i64::from(power);
        return number::within_doubles(magnitude).then_some(Parsed::Digits);
    }
    let magnitude = mantissa as f64;
    let value = match power {
        0..=22 => magnitude * EXACT_POWERS_OF_TEN[power as usize],
        -22..=-1 => magnitude / EXACT_POWERS_OF_TEN[(-power) as usize],
        _ => return None,
    };
    Some(Parsed::Float(if negative { -value } else { value }))
}

/// A value of a [`Tape`]: the view the interpreter reads JSON text through.
#[derive(Clone, Copy)]
pub(crate) struct TapeValue<'a> {
    tape: &'a Tape<'a>,
    at: u32,
}

impl<'a> View<'a> for TapeValue<'a> {
    type Number = Exact<'a>;
    type Array = TapeArray<'a>;
    type Object = TapeObject<'a>;

    #[inline]
    fn json(self) -> Json<'a, Self> {
        let tape = self.tape;
        match tape.entries.get(self.at as usize) {
            Some(Entry::Null) | None | Some(Entry::Shadowed) => Json::Null,
            Some(Entry::True) => Json::Bool(true),
            Some(Entry::False) => Json::Bool(false),
            Some(&Entry::Unsigned(n)) => Json::Number(Exact::Unsigned(n.get())),
            Some(&Entry::Signed(n)) => Json::Number(Exact::Signed(n.get() as i64)),
            Some(&Entry::Float(bits)) => Json::Number(Exact::Float(f64::from_bits(bits.get()))),
            Some(&Entry::Digits { start, len }) => {
                let (start, len) = (start as usize, len as usize);
                Json::Number(Exact::Text(
                    tape.text.get(start..start + len).unwrap_or("0"),
                ))
            }
            Some(Entry::Text { .. } | Entry::Decoded { .. }) => {
                Json::String(tape.string(self.at).unwrap_or_default())
            }
            Some(&Entry::Array { len, .. }) => Json::Array(TapeArray {
                tape,
                at: self.at,
                len,
            }),
            Some(&Entry::Object { len, .. }) => Json::Object(TapeObject {
                tape,
                at: self.at,
                len,
            }),
        }
    }

    #[inline(always)]
    fn address(self) -> usize {
        self.at as usize
    }

    fn to_value(self) -> Cow<'a, Value> {
        Cow::Owned(to_value(self))
    }
}

/// A tape's value as a `serde_json::Value`, built with a stack of its own.
fn to_value(root: TapeValue<'_>) -> Value {
    enum Frame<'a> {
        Array(Vec<Value>, TapeItems<'a>),
        Object(serde_json::Map<String, Value>, TapeMembers<'a>, String),
    }
    let leaf = |value: TapeValue<'_>| match value.json() {
        Json::Null => Some(Value::Null),
        Json::Bool(b) => Some(Value::Bool(b)),
        Json::Number(n) => Some(Value::Number(n.with_number(Number::clone))),
        Json::String(s) => Some(Value::String(s.to_owned())),
        Json::Array(_) | Json::Object(_) => None,
    };
    fn open(value: TapeValue<'_>) -> Option<Frame<'_>> {
        match value.json() {
            Json::Array(items) => Some(Frame::Array(Vec::with_capacity(items.len()), items.iter())),
            Json::Object(map) => Some(Frame::Object(
                serde_json::Map::new(),
                map.iter(),
                String::new(),
            )),
            _ => None,
        }
    }
    let Some(first) = open(root) else {
        return leaf(root).unwrap_or(Value::Null);
    };
    let mut stack = vec![first];
    loop {
        let Some(top) = stack.last_mut() else {
            return Value::Null;
        };
        let next = match top {
            Frame::Array(_, items) => items.next(),
            Frame::Object(_, members, key) => members.next().map(|(k, v)| {
                *key = k.to_owned();
                v
            }),
        };
        let done = match next {
            Some(child) => match leaf(child) {
                Some(value) => Some(value),
                None => {
                    if let Some(frame) = open(child) {
                        stack.push(frame);
                    }
                    None
                }
            },
            None => {
                let finished = match stack.pop() {
                    Some(Frame::Array(items, _)) => Value::Array(items),
                    Some(Frame::Object(map, ..)) => Value::Object(map),
                    None => Value::Null,
                };
                if stack.is_empty() {
                    return finished;
                }
                Some(finished)
            }
        };
        if let Some(value) = done {
            match stack.last_mut() {
                Some(Frame::Array(items, _)) => items.push(value),
                Some(Frame::Object(map, _, key)) => {
                    map.insert(std::mem::take(key), value);
                }
                None => return value,
            }
        }
    }
}

/// The items of an array of a [`Tape`].
#[derive(Clone, Copy)]
pub(crate) struct TapeArray<'a> {
    tape: &'a Tape<'a>,
    at: u32,
    len: u32,
}

/// The items of a [`TapeArray`], in order.
#[derive(Clone)]
pub(crate) struct TapeItems<'a> {
    tape: &'a Tape<'a>,
    next: u32,
    left: u32,
}

impl<'a> Iterator for TapeItems<'a> {
    type Item = TapeValue<'a>;

    #[inline]
    fn next(&mut self) -> Option<TapeValue<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.next;
        self.next = self.tape.next(at);
        Some(TapeValue {
            tape: self.tape,
            at,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for TapeItems<'_> {}

impl<'a> ArrayView<'a> for TapeArray<'a> {
    type Item = TapeValue<'a>;
    type Iter = TapeItems<'a>;

    #[inline(always)]
    fn len(self) -> usize {
        self.len as usize
    }

    fn get(self, index: usize) -> Option<TapeValue<'a>> {
        self.iter().nth(index)
    }

    #[inline]
    fn iter(self) -> TapeItems<'a> {
        TapeItems {
            tape: self.tape,
            next: self.at + 1,
            left: self.len,
        }
    }
}

/// The members of an object of a [`Tape`].
#[derive(Clone, Copy)]
pub(crate) struct TapeObject<'a> {
    tape: &'a Tape<'a>,
    at: u32,
    len: u32,
}

/// The members of a [`TapeObject`], in document order, those shadowed skipped.
#[derive(Clone)]
pub(crate) struct TapeMembers<'a> {
    tape: &'a Tape<'a>,
    next: u32,
    left: u32,
}

impl<'a> Iterator for TapeMembers<'a> {
    type Item = (&'a str, TapeValue<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while self.left > 0 {
            let key = self.next;
            let value = key + 1;
            self.next = self.tape.next(value);
            if let Some(name) = self.tape.string(key) {
                self.left -= 1;
                let value = TapeValue {
                    tape: self.tape,
                    at: value,
                };
                return Some((name, value));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for TapeMembers<'_> {}

impl<'a> ObjectView<'a> for TapeObject<'a> {
    type Value = TapeValue<'a>;
    type Iter = TapeMembers<'a>;

    const KEYS_IN_BYTE_ORDER: bool = false;
    const INDEXED: bool = false;

    #[inline(always)]
    fn len(self) -> usize {
        self.len as usize
    }

    fn get(self, name: &str) -> Option<TapeValue<'a>> {
        self.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value)
    }

    #[inline]
    fn iter(self) -> TapeMembers<'a> {
        TapeMembers {
            tape: self.tape,
            next: self.at + 1,
            left: self.len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parsed(text: &str) -> Result<Value, SyntaxError> {
        Tape::parse(text.as_bytes()).map(|tape| to_value(tape.root()))
    }

    #[test]
    fn documents_read_back_as_serde_json_reads_them() {
        for text in [
            "null",
            " true ",
            "[1, -2.5e3, 0, -0, 1e-7, 18446744073709551615, 18446744073709551616]",
            r#"{"a": {"b": [[], {}]}, "c": "\u00e9\ud83d\ude00\n\"x\""}"#,
            r#"{"k": 1, "k": 2, "j": [3], "k": 4}"#,
            r#""""#,
            "[-0, -0.0, 0.0, 1.0, 1e2, 1E-2, 0.1, 5e-324, 1.7976931348623157e308]",
            "[-9223372036854775808, -9223372036854775809, 9223372036854775808]",
            "[123456789012345678901234567890, -123456789012345678901234567890, 2.5e-400]",
        ] {
            let ours = parsed(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn what_serde_json_refuses_is_refused() {
        for text in [
            "",
            " ",
            "[",
            "[1,]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "01",
            "1.",
            "-",
            "1e",
            "tru",
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "\"\u{1}\"",
            "1 2",
            "[1] x",
            "{1: 2}",
        ] {
            assert!(
                serde_json::from_str::<Value>(text).is_err(),
                "serde accepts {text:?}"
            );
            assert!(parsed(text).is_err(), "{text:?}");
        }
        // Out of a double's range: refused, unless `arbitrary-precision` keeps the text;
        // either way as `serde_json` does.
        let theirs = serde_json::from_str::<Value>("1e400").ok();
        assert_eq!(theirs.is_none(), cfg!(not(feature = "arbitrary-precision")));
        assert_eq!(parsed("1e400").ok(), theirs);
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        assert!(parsed(&deep).is_err());
        for depth in [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1] {
            let deep = "[".repeat(depth) + &"]".repeat(depth);
            let theirs = serde_json::from_str::<Value>(&deep).ok();
            assert_eq!(parsed(&deep).ok(), theirs, "{depth} levels");
        }
        let deep = "[".repeat(1_000_000);
        assert!(parsed(&deep).is_err(), "no stack overflow");
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let error = parsed("{\n  \"a\": tru\n}").unwrap_err();
        assert_eq!((error.line, error.column), (2, 8));
        assert_eq!(error.to_string(), "expected ident at line 2 column 8");
    }

    #[test]
    fn repeated_names_keep_the_last_value_in_large_objects_too() {
        let members: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 25)).collect();
        let text = format!("{{{}}}", members.join(","));
        assert_eq!(
            parsed(&text).unwrap(),
            serde_json::from_str::<Value>(&text).unwrap()
        );
        let tape = Tape::parse(text.as_bytes()).unwrap();
        let Json::Object(map) = tape.root().json() else {
            panic!("an object");
        };
        assert_eq!(map.len(), 25);
        assert_eq!(map.iter().count(), 25);
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter_map("finite", serde_json::Number::from_f64)
                .prop_map(Value::Number),
            "[a-c\"\\\\/\u{0}-\u{1f}é😀]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec(("[a-d]{0,2}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Any document `serde_json` writes (compact or pretty, so escapes and every
        /// kind of value) reads back as `serde_json` reads it.
        #[test]
        fn written_documents_read_back_the_same(value in value(), pretty in any::<bool>()) {
            let text = match pretty {
                true => serde_json::to_string_pretty(&value).unwrap(),
                false => serde_json::to_string(&value).unwrap(),
            };
            prop_assert_eq!(parsed(&text).unwrap(), serde_json::from_str::<Value>(&text).unwrap());
        }

        /// Any bytes: an error exactly when `serde_json` gives one, else the same value.
        #[test]
        fn any_bytes_parse_as_serde_json_parses_them(bytes in proptest::collection::vec(
            prop_oneof![
                Just(b'['), Just(b']'), Just(b'{'), Just(b'}'), Just(b'"'), Just(b':'),
                Just(b','), Just(b'\\'), Just(b'u'), Just(b'1'), Just(b'0'), Just(b'-'),
                Just(b'.'), Just(b'e'), Just(b' '), Just(b'a'), Just(b'n'), any::<u8>(),
            ],
            0..24,
        )) {
            let ours = Tape::parse(&bytes).map(|tape| to_value(tape.root()));
            let theirs = serde_json::from_slice::<Value>(&bytes);
            match (ours, theirs) {
                (Ok(ours), Ok(theirs)) => prop_assert_eq!(ours, theirs),
                (Err(_), Err(_)) => {}
                (ours, theirs) => prop_assert!(false, "ours {:?}, serde_json {:?}", ours, theirs),
            }
        }

    }

    /// A JSON number text: up to 30 digits, a fraction, an exponent (now and then near
    /// the ends of the doubles' range); whether a double holds it exactly or not.
    fn number_text(
        max_digits: usize,
        exponents: std::ops::Range<i32>,
    ) -> impl Strategy<Value = String> {
        let digits = move |n| proptest::collection::vec(0u8..10, n);
        (
            any::<bool>(),
            prop_oneof![
                Just(vec![0u8]),
                (1u8..10, digits(0..max_digits)).prop_map(|(d, mut rest)| {
                    rest.insert(0, d);
                    rest
                })
            ],
            proptest::option::of(digits(1..max_digits)),
            proptest::option::of(prop_oneof![4 => exponents, 1 => -330i32..330]),
        )
            .prop_map(|(negative, whole, fraction, exponent)| {
                let spell = |d: &[u8]| d.iter().map(|d| char::from(b'0' + d)).collect::<String>();
                let mut text = String::from(if negative { "-" } else { "" });
                text += &spell(&whole);
                if let Some(fraction) = fraction {
                    text += ".";
                    text += &spell(&fraction);
                }
                if let Some(exponent) = exponent {
                    text += &format!("e{exponent}");
                }
                text
            })
    }

    proptest! {
        /// Eight bytes read as eight digits exactly when they are, to their value.
        #[test]
        fn eight_digits_are_read_at_once(bytes in proptest::collection::vec(
            prop_oneof![8 => b'0'..=b'9', 1 => Just(b'/'), 1 => Just(b':'), 1 => Just(0xff), 2 => any::<u8>()], 8,
        )) {
            let expected = std::str::from_utf8(&bytes).ok()
                .filter(|text| text.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|text| text.parse::<u64>().ok());
            prop_assert_eq!(eight_digits(&bytes), expected);
        }
    }

    proptest! {
        /// A number of JSON text is judged by its text, exactly, against a schema's
        /// number (a double: its shortest decimal form) and against another number of
        /// text; numbers found equal hash alike.
        #[test]
        fn numbers_of_text_are_judged_by_their_text(
            a in number_text(30, -25..25),
            b in number_text(30, -25..25),
            schema in number_text(8, -5..5),
        ) {
            // The schema's number as a double holds it (the default build's schemas).
            prop_assume!(super::super::number::double_is_exact(&schema) || schema.parse::<i64>().is_ok());
            use super::super::decimal::Decimal;
            use super::super::view::NumberView;
            use std::hash::{BuildHasher, Hasher};
            let (Ok(tape), Ok(other)) = (Tape::parse(a.as_bytes()), Tape::parse(b.as_bytes())) else {
                return Ok(()); // beyond a double's range: refused, as serde_json does
            };
            let Ok(schema_value) = serde_json::from_str::<Value>(&schema) else {
                return Ok(());
            };
            let Value::Number(schema_number) = &schema_value else { unreachable!() };
            prop_assert_eq!(to_value(tape.root()), serde_json::from_str::<Value>(&a).unwrap(), "{}", a);
            let Json::Number(n) = tape.root().json() else { unreachable!() };
            let exact = |text: &str| Decimal::parse(text).unwrap();
            let (x, y, s) = (exact(&a), exact(&b), exact(&schema));
            prop_assert_eq!(NumberView::compare(n, schema_number), x.cmp(&s), "{} against {}", a, schema);
            prop_assert_eq!(NumberView::is_integer(n), x.is_integer(), "{}", a);
            if s.is_positive() {
                prop_assert_eq!(NumberView::is_multiple_of(n, schema_number), x.is_multiple_of(&s), "{} / {}", a, schema);
            }
            use super::super::equal::{equal, hash};
            fn hashed<'i>(value: impl View<'i>) -> u64 {
                let mut state = ahash::RandomState::with_seeds(1, 2, 3, 4).build_hasher();
                hash(value, &mut state);
                state.finish()
            }
            let (ours, theirs) = (tape.root(), other.root());
            prop_assert_eq!(equal(ours, theirs), x == y, "{} = {}", a, b);
            prop_assert!(x != y || hashed(ours) == hashed(theirs), "{} hashed as {}", a, b);
            prop_assert_eq!(equal(ours, &schema_value), x == s, "{} = {}", a, schema);
            prop_assert!(x != s || hashed(ours) == hashed(&schema_value), "{} hashed as {}", a, schema);
        }
    }
}
