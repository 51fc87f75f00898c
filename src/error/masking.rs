//! Masking: where a validation error's message quotes the instance ([`Quotation`],
//! three bytes beside its offsets), what a masked message says in its place
//! ([`StandIn`]), and the masked view of an error ([`MaskedError`]).

use super::{ErrorDetails, ValidationError};
use crate::json::types;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// What a masked message says in place of a quotation of the instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StandIn {
    /// The quoted value's type: an index into [`types::NAMES`].
    Type(u8),
    /// Nothing: the words around say what may be said (the value's type is named
    /// already, or the quotation is an instance key).
    Nothing,
}

impl StandIn {
    /// The type of `value`.
    pub(crate) fn type_of(value: &Value) -> StandIn {
        StandIn::Type(types::type_index(value))
    }

    /// What a masked message says.
    pub(crate) fn text(self) -> &'static str {
        match self {
            StandIn::Type(index) => types::NAMES.get(usize::from(index)).map_or("value", |n| n),
            StandIn::Nothing => "",
        }
    }
}

/// A quotation of the instance in a message being written: its bytes, and what a masked
/// message says in their place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quote {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) stand_in: StandIn,
}

/// Where an error's message quotes the instance, so that [`ValidationError::masked`] can
/// cut the quotation out, or that the message was written masked (and quotes nothing).
///
/// Three bytes, in the room beside the offsets, so that an error stays eight words: an
/// anchor (3 bits), the stand-in (3 bits: a type's index, or 7 for nothing) and two
/// numbers of 9 bits, `a` and `b`, which the anchor reads:
///
/// - `START`: the quotation is the `b` bytes from byte `a`;
/// - `END`: the quotation is the `b` bytes that end `a` bytes before the message's end;
/// - `BETWEEN`: the quotation runs from byte `a` to `b` bytes before the message's end.
///
/// Every message of the interpreter fits: a value's rendering is at most 60 bytes, at
/// the head of its message, after fewer than 100 bytes of a `type` message's words, or at
/// the tail of a `const` / `enum` message; a property name is quoted from byte 9 of its
/// message, whole, so with at most 387 bytes when it is short enough to get a
/// suggestion (64 characters), else with only 15 bytes after it. One that did not
/// would be `WITHHELD`: its masked message says nothing of the value, and withholds
/// the rest.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Quotation([u8; 3]);

/// The message quotes nothing.
const CLEAN: u32 = 0;

/// See [`Quotation`].
const START: u32 = 1;

/// See [`Quotation`].
const END: u32 = 2;

/// See [`Quotation`].
const BETWEEN: u32 = 3;

/// The message quotes the instance where three bytes cannot say.
const WITHHELD: u32 = 4;

/// The message was written masked: it quotes nothing.
const MASKED: u32 = 5;

/// The largest of a [`Quotation`]'s numbers.
const MOST: usize = (1 << 9) - 1;

/// What a masked `WITHHELD` message says.
pub(super) const WITHHELD_MESSAGE: &str = "the message is withheld: it quotes the instance";

impl Quotation {
    fn pack(anchor: u32, stand_in: StandIn, a: usize, b: usize) -> Quotation {
        let stand_in = match stand_in {
            StandIn::Type(index) => u32::from(index.min(6)),
            StandIn::Nothing => 7,
        };
        let (a, b) = (a.min(MOST) as u32, b.min(MOST) as u32);
        let bits = anchor | stand_in << 3 | a << 6 | b << 15;
        let [x, y, z, _] = bits.to_le_bytes();
        Quotation([x, y, z])
    }

    /// The anchor, the stand-in, `a` and `b`.
    pub(super) fn unpack(self) -> (u32, StandIn, usize, usize) {
        let [x, y, z] = self.0;
        let bits = u32::from_le_bytes([x, y, z, 0]);
        let stand_in = match bits >> 3 & 7 {
            7 => StandIn::Nothing,
            index => StandIn::Type(index as u8),
        };
        let number = |at: u32| (bits >> at) as usize & MOST;
        (bits & 7, stand_in, number(6), number(15))
    }

    /// That of a message written masked.
    pub(crate) fn masked() -> Quotation {
        Quotation::pack(MASKED, StandIn::Nothing, 0, 0)
    }

    /// That of `quote` in a message `len` bytes long.
    pub(crate) fn of(quote: Quote, len: usize) -> Quotation {
        let Quote {
            start,
            end,
            stand_in,
        } = quote;
        let (quoted, after) = (end.saturating_sub(start), len.saturating_sub(end));
        let (anchor, a, b) = if start <= MOST && quoted <= MOST {
            (START, start, quoted)
        } else if after <= MOST && quoted <= MOST {
            (END, after, quoted)
        } else if start <= MOST && after <= MOST {
            (BETWEEN, start, after)
        } else {
            (WITHHELD, 0, 0)
        };
        Quotation::pack(anchor, stand_in, a, b)
    }

    /// Whether the message was written masked.
    pub(super) fn is_masked(self) -> bool {
        self.unpack().0 == MASKED
    }

    /// The same quotation once `added` bytes are appended to its message (a hint).
    pub(super) fn appended(self, added: usize) -> Quotation {
        match self.unpack() {
            (END, stand_in, a, b) if a + added <= MOST => {
                Quotation::pack(END, stand_in, a + added, b)
            }
            (BETWEEN, stand_in, a, b) if b + added <= MOST => {
                Quotation::pack(BETWEEN, stand_in, a, b + added)
            }
            (END | BETWEEN, stand_in, ..) => Quotation::pack(WITHHELD, stand_in, 0, 0),
            _ => self,
        }
    }

    /// Writes `message` (which this quotation belongs to) masked: the quotation replaced
    /// by its stand-in.
    pub(super) fn write_masked(self, message: &str, out: &mut impl fmt::Write) -> fmt::Result {
        let len = message.len();
        let (anchor, stand_in, a, b) = self.unpack();
        let range = match anchor {
            CLEAN | MASKED => return out.write_str(message),
            START => Some((a, a + b)),
            END => len.checked_sub(a + b).map(|start| (start, len - a)),
            BETWEEN => len.checked_sub(b).map(|end| (a, end)),
            _ => None,
        };
        let parts = range.and_then(|(start, end)| {
            // A range that falls off the message or its characters places nothing:
            // withheld.
            (start <= end).then_some(())?;
            Some((message.get(..start)?, message.get(end..)?))
        });
        match parts {
            Some((before, after)) => {
                out.write_str(before)?;
                out.write_str(stand_in.text())?;
                out.write_str(after)
            }
            None => out.write_str(WITHHELD_MESSAGE),
        }
    }
}

/// A [`ValidationError`] without instance data, from [`ValidationError::masked`]: it
/// displays as the error does (`location: message`, then the context lines), masked.
///
/// ```
/// use serde_json::json;
/// let v = mcp_jsonschema::Validator::new(&json!({"oneOf": [
///     {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"]},
///     {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
/// ]}))?;
/// let err = v.validate(&json!({"kind": "square", "side": "2"})).unwrap_err();
/// assert_eq!(err.masked().to_string(), "(root): object is not valid under any of \
///     the schemas in oneOf; the closest is #1\n  /side: expected number, got string; send the \
///     number itself, not a JSON-encoded string");
/// assert_eq!(err.masked().message(), "object is not valid under any of the schemas in oneOf; \
///     the closest is #1");
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
///
/// The one detail that names instance data, an unexpected property, is left out:
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::ErrorDetails;
/// let v = mcp_jsonschema::Validator::new(&json!({"additionalProperties": false}))?;
/// let err = v.validate(&json!({"s3cr3t": 1})).unwrap_err();
/// let unexpected = |property: &str| ErrorDetails::Unexpected { property: property.into() };
/// assert_eq!(err.details().as_deref(), Some(&unexpected("s3cr3t")));
/// assert_eq!(err.masked().details().as_deref(), Some(&unexpected("")));
/// assert_eq!(err.masked().to_string(), "/s3cr3t: property is not allowed");
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Clone, Copy)]
pub struct MaskedError<'e> {
    pub(super) error: &'e ValidationError,
}

impl<'e> MaskedError<'e> {
    /// The message, masked, without the location (nor the context). See the examples on
    /// [`MaskedError`].
    pub fn message(&self) -> Cow<'e, str> {
        let message = self.error.message();
        match self.error.quotation.unpack().0 {
            CLEAN | MASKED => Cow::Borrowed(message),
            _ => {
                let mut masked = String::with_capacity(message.len());
                let _ = self.error.quotation.write_masked(message, &mut masked);
                Cow::Owned(masked)
            }
        }
    }

    /// The operands of the failed keyword (see [`ErrorDetails`]), masked: an
    /// [`Unexpected`](ErrorDetails::Unexpected) property's name is left out (`property`
    /// is empty); no other details hold instance data. See the examples on
    /// [`MaskedError`].
    pub fn details(&self) -> Option<Cow<'e, ErrorDetails>> {
        let details = self.error.details()?;
        Some(details.masked().map_or(details, Cow::Owned))
    }
}

impl fmt::Display for MaskedError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.write_lines(f, true)
    }
}

impl fmt::Debug for MaskedError<'_> {
    /// As [`ValidationError`]'s, masked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MaskedError({:?}: {self} [schema {}])",
            self.error.kind(),
            self.error.schema_location()
        )
    }
}
