//! Exact comparisons and divisibility on JSON numbers.
//!
//! By default `serde_json` keeps a number as a `u64`, an `i64` or an `f64`. Converting
//! everything to `f64` would make `9007199254740993 > 9007199254740992` false and `0.3` a
//! non-multiple of `0.1`, so comparisons go through `i128` when they can, and `multipleOf`
//! works on the shortest decimal form of each operand, which is exact for every decimal
//! literal a schema author can write and cannot overflow. Numbers beyond `f64` (or with
//! more than 17 significant digits) are what `serde_json` made of them: the nearest
//! double.
//!
//! With the `arbitrary-precision` feature, `serde_json` keeps each number's text, and
//! every function here decides on that text exactly ([`super::decimal`]): integers and
//! decimals of any size and precision.
//!
//! These functions are the only place numbers are judged: types, bounds, `multipleOf`,
//! equality and hashing (`const`, `enum`, `uniqueItems`) all come here.

use serde_json::Number;
use std::cmp::Ordering;
use std::fmt::Write;
use std::hash::{Hash, Hasher};

#[cfg(feature = "arbitrary-precision")]
mod exact {
    //! The `arbitrary-precision` build: every question answered on the number's text.
    //! A text that is not a JSON number (only `Number::from_string_unchecked` makes one)
    //! falls back to the machine representation.

    use super::super::decimal::Decimal;
    use serde_json::Number;
    use std::cmp::Ordering;
    use std::hash::{Hash, Hasher};

    fn exact(n: &Number) -> Option<Decimal> {
        Decimal::parse(n.as_str())
    }

    pub(super) fn exact_f64(_: &Number) -> Option<f64> {
        None
    }

    pub(super) fn is_integer(n: &Number) -> bool {
        exact(n).map_or_else(|| super::machine::is_integer(n), |d| d.is_integer())
    }

    pub(super) fn is_positive(n: &Number) -> bool {
        exact(n).map_or_else(|| super::machine::is_positive(n), |d| d.is_positive())
    }

    pub(super) fn non_negative_integer(n: &Number) -> Option<u64> {
        match exact(n) {
            Some(d) => d.non_negative_integer(),
            None => super::machine::non_negative_integer(n),
        }
    }

    pub(super) fn compare(a: &Number, b: &Number) -> Ordering {
        match (exact(a), exact(b)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => super::machine::compare(a, b),
        }
    }

    pub(super) fn is_multiple_of(value: &Number, divisor: &Number) -> bool {
        match (exact(value), exact(divisor)) {
            (Some(value), Some(divisor)) => value.is_multiple_of(&divisor),
            _ => super::machine::is_multiple_of(value, divisor),
        }
    }

    pub(super) fn hash<H: Hasher>(n: &Number, state: &mut H) {
        match exact(n) {
            Some(d) => d.hash(state),
            None => super::machine::hash(n, state),
        }
    }
}

#[cfg(feature = "arbitrary-precision")]
use exact as chosen;
#[cfg(not(feature = "arbitrary-precision"))]
use machine as chosen;

/// Whether `n` is an integer in the JSON Schema sense (`1.0` is one).
#[inline]
pub(crate) fn is_integer(n: &Number) -> bool {
    chosen::is_integer(n)
}

/// `n` as a double, when the double is `n` exactly: every float `serde_json` holds, and
/// integers of at most 53 bits. `None` otherwise, and always in the exact build, whose
/// numbers are texts: the exact comparison then decides.
#[inline(always)]
pub(crate) fn exact_f64(n: &Number) -> Option<f64> {
    chosen::exact_f64(n)
}

/// Whether `n` is above zero.
pub(crate) fn is_positive(n: &Number) -> bool {
    chosen::is_positive(n)
}

/// `n`, if it is a non-negative integer (`2.0` counts), saturating at `u64::MAX`.
pub(crate) fn non_negative_integer(n: &Number) -> Option<u64> {
    chosen::non_negative_integer(n)
}

/// Compares two JSON numbers exactly.
#[inline]
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
    chosen::compare(a, b)
}

/// Whether two JSON numbers are equal as numbers (`1 == 1.0`).
#[inline]
pub(crate) fn equal(a: &Number, b: &Number) -> bool {
    compare(a, b) == Ordering::Equal
}

/// Whether `value` is an integer multiple of `divisor` (`divisor > 0`), exactly.
#[inline]
pub(crate) fn is_multiple_of(value: &Number, divisor: &Number) -> bool {
    chosen::is_multiple_of(value, divisor)
}

/// Feeds `n` to `state` so that equal numbers hash alike, whatever their spelling.
pub(crate) fn hash<H: Hasher>(n: &Number, state: &mut H) {
    chosen::hash(n, state)
}

/// An instance's number as exactly as it is known: as `serde_json` holds it, or, where
/// that would be only the nearest double to a JSON text (a long fraction, an integer
/// beyond 64 bits: see [`double_is_exact`]), the text, which then decides.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Exact<'a> {
    /// A `serde_json` number (a `Value`'s).
    Held(&'a Number),
    /// An integer a `u64` holds.
    Unsigned(u64),
    /// A negative integer an `i64` holds.
    Signed(i64),
    /// A double that is the number exactly (finite).
    Float(f64),
    /// The text of a JSON number: every number of JSON text in the exact build, and in
    /// the default one those no double holds.
    Text(&'a str),
}

impl Exact<'_> {
    /// Calls `f` with the number as a `serde_json::Number` (a text's nearest double:
    /// callers judge texts on their own).
    #[inline(always)]
    pub(crate) fn with_number<R>(self, f: impl FnOnce(&Number) -> R) -> R {
        match self {
            Exact::Held(n) => f(n),
            Exact::Unsigned(n) => f(&Number::from(n)),
            Exact::Signed(n) => f(&Number::from(n)),
            Exact::Float(x) => f(&Number::from_f64(x).unwrap_or_else(|| Number::from(0))),
            Exact::Text(text) => f(&text::to_number(text)),
        }
    }

    /// Whether the number is an integer (`1.0` is).
    #[inline]
    pub(crate) fn is_integer(self) -> bool {
        match self {
            Exact::Text(text) => text::is_integer(text),
            n => n.with_number(is_integer),
        }
    }

    /// [`exact_f64`].
    #[inline]
    pub(crate) fn exact_f64(self) -> Option<f64> {
        match self {
            Exact::Text(_) => None,
            n => n.with_number(exact_f64),
        }
    }

    /// How the number compares with a schema's `other`.
    #[inline]
    pub(crate) fn compare(self, other: &Number) -> Ordering {
        match self {
            Exact::Text(text) => text::compare(text, other),
            n => n.with_number(|n| compare(n, other)),
        }
    }

    /// Whether the number is a multiple of a schema's `divisor` (positive).
    #[inline]
    pub(crate) fn is_multiple_of(self, divisor: &Number) -> bool {
        match self {
            Exact::Text(text) => text::is_multiple_of(text, divisor),
            n => n.with_number(|n| is_multiple_of(n, divisor)),
        }
    }

    /// Feeds the number to `state` as [`hash`] feeds a number equal to it.
    pub(crate) fn hash<H: Hasher>(self, state: &mut H) {
        match self {
            Exact::Text(text) => text::hash(text, state),
            n => n.with_number(|n| hash(n, state)),
        }
    }

    /// Whether the two numbers are equal (`1 == 1.0`).
    #[inline(always)]
    pub(crate) fn equals(self, other: Exact<'_>) -> bool {
        match (self, other) {
            (Exact::Held(a), Exact::Held(b)) => equal(a, b),
            (Exact::Text(a), Exact::Text(b)) => text::same(a, b),
            (Exact::Text(a), b) | (b, Exact::Text(a)) => {
                b.with_number(|b| text::compare(a, b) == Ordering::Equal)
            }
            (a, b) => a.with_number(|a| b.with_number(|b| equal(a, b))),
        }
    }
}

/// Whether the double nearest to a JSON number's `text` (not an integer of 64 bits) is
/// the number the text says, in the sense the judgments above give doubles: its
/// shortest decimal form. So when the text has at most 15 significant digits (every
/// such decimal survives the trip through a double) and a magnitude well inside the
/// normal doubles; a text beyond is judged by [`text`].
pub(crate) fn double_is_exact(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i64>().ok()),
        None => (text, Some(0)),
    };
    let Some(exponent) = exponent else {
        return false;
    };
    let digits = mantissa.bytes().filter(u8::is_ascii_digit);
    // The significant digits: from the first non-zero one to the last; where the point
    // sits among them sets the magnitude.
    let (mut first, mut last, mut count, mut point) = (None, 0, 0i64, None);
    for (i, digit) in digits.enumerate() {
        if digit != b'0' {
            first.get_or_insert(i);
            last = i;
        }
        count = i as i64 + 1;
    }
    if let Some(at) = mantissa.find('.') {
        point = Some(mantissa[..at].bytes().filter(u8::is_ascii_digit).count() as i64);
    }
    let Some(first) = first else {
        return true; // zero
    };
    let significant = last - first + 1;
    let magnitude = point.unwrap_or(count) - first as i64 + exponent;
    significant as i64 <= DOUBLE_DIGITS && within_doubles(magnitude)
}

/// The significant digits up to which every decimal survives the trip through a double.
pub(crate) const DOUBLE_DIGITS: i64 = 15;

/// The least number of more than [`DOUBLE_DIGITS`] digits.
pub(crate) const BEYOND_DOUBLE_DIGITS: u64 = 10u64.pow(DOUBLE_DIGITS as u32);

/// Whether a number whose first significant digit stands for `10^(magnitude - 1)` is
/// well inside the normal doubles: neither near overflow nor near the subnormals.
pub(crate) fn within_doubles(magnitude: i64) -> bool {
    (-300..=300).contains(&magnitude)
}

/// Judgments on a JSON number's text, exactly ([`super::decimal`]): for the texts a
/// double only approximates ([`Exact::Text`]). Against a schema's number, which is a
/// double in the default build, that double's shortest decimal form: what its author
/// wrote, unless they wrote more than a double holds.
pub(crate) mod text {
    use super::super::decimal::Decimal;
    use super::Number;
    use std::cmp::Ordering;
    use std::hash::{Hash, Hasher};

    /// The decimal `text` says (`None` only for what is not a JSON number).
    fn decimal(text: &str) -> Option<Decimal> {
        Decimal::parse(text)
    }

    /// The decimal a schema's number says: its text in the exact build, else the
    /// shortest decimal form of what `serde_json` holds.
    fn decimal_of(n: &Number) -> Option<Decimal> {
        #[cfg(feature = "arbitrary-precision")]
        return Decimal::parse(n.as_str());
        #[cfg(not(feature = "arbitrary-precision"))]
        return Decimal::parse(&n.to_string());
    }

    /// The number `serde_json` makes of `text`: its text in the exact build, else the
    /// nearest double.
    pub(crate) fn to_number(text: &str) -> Number {
        #[cfg(feature = "arbitrary-precision")]
        if let Ok(n) = text.parse::<Number>() {
            return n;
        }
        (text.parse::<f64>().ok())
            .and_then(Number::from_f64)
            .unwrap_or_else(|| Number::from(0))
    }

    /// Whether `text` is an integer (`1.0` is).
    pub(crate) fn is_integer(text: &str) -> bool {
        decimal(text).is_some_and(|d| d.is_integer())
    }

    /// How `text` compares with `other`.
    pub(crate) fn compare(text: &str, other: &Number) -> Ordering {
        match (decimal(text), decimal_of(other)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => super::compare(&to_number(text), other),
        }
    }

    /// Whether two texts are the same number.
    pub(crate) fn same(a: &str, b: &str) -> bool {
        decimal(a) == decimal(b)
    }

    /// Whether `text` is a multiple of `divisor` (positive).
    pub(crate) fn is_multiple_of(text: &str, divisor: &Number) -> bool {
        match (decimal(text), decimal_of(divisor)) {
            (Some(a), Some(b)) => a.is_multiple_of(&b),
            _ => super::is_multiple_of(&to_number(text), divisor),
        }
    }

    /// Feeds `text` to `state` as [`super::hash`] feeds a number equal to it: the exact
    /// build hashes decimals; the default one hashes an integer of 64 bits as one, any
    /// other number as its nearest double (which a double equal to it is).
    pub(crate) fn hash<H: Hasher>(text: &str, state: &mut H) {
        let Some(d) = decimal(text) else {
            return super::hash(&to_number(text), state);
        };
        if cfg!(feature = "arbitrary-precision") {
            return d.hash(state);
        }
        match d
            .integer()
            .filter(|i| (i64::MIN as i128..=u64::MAX as i128).contains(i))
        {
            Some(i) => i.hash(state),
            None => super::hash(&to_number(text), state),
        }
    }
}

/// The default build: numbers as `serde_json` holds them (`u64`, `i64` or `f64`). Also
/// the fallback of the exact build for texts that are not JSON numbers.
mod machine {
    use super::*;
    use std::cell::Cell;

    /// A number as the validator sees it: an exact integer or a finite float.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Repr {
        Int(i128),
        Float(f64),
    }

    fn repr(n: &Number) -> Repr {
        if let Some(u) = n.as_u64() {
            Repr::Int(i128::from(u))
        } else if let Some(i) = n.as_i64() {
            Repr::Int(i128::from(i))
        } else {
            Repr::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// The largest magnitude below which every integer is a double.
    #[cfg_attr(feature = "arbitrary-precision", allow(dead_code))]
    const EXACT_INTEGERS: u64 = 1 << 53;

    /// The exact build answers `None` without looking (see `exact::exact_f64`).
    #[cfg_attr(feature = "arbitrary-precision", allow(dead_code))]
    #[inline(always)]
    pub(super) fn exact_f64(n: &Number) -> Option<f64> {
        if let Some(u) = n.as_u64() {
            (u <= EXACT_INTEGERS).then_some(u as f64)
        } else if let Some(i) = n.as_i64() {
            (i.unsigned_abs() <= EXACT_INTEGERS).then_some(i as f64)
        } else {
            n.as_f64()
        }
    }

    /// Whether `n` is an integer in the JSON Schema sense (`1.0` is one).
    #[inline]
    pub(super) fn is_integer(n: &Number) -> bool {
        match repr(n) {
            Repr::Int(_) => true,
            Repr::Float(f) => is_integral(f),
        }
    }

    /// Whether a float has no fractional part. Out of line on purpose: inlined, its `trunc`
    /// call was hoisted out of the interpreter's leaf loops and paid on every visit, number
    /// or not.
    #[inline(never)]
    fn is_integral(f: f64) -> bool {
        f.is_finite() && f.fract() == 0.0
    }

    /// Compares an integer with a float exactly.
    fn cmp_int_float(i: i128, f: f64) -> Ordering {
        // Rounding to f64 is monotonic, so a strict difference after rounding is a strict
        // difference before it; only a tie needs an exact look, and a tie means `f` is an
        // integer within i128 range (|i| < 2^64).
        let rounded = i as f64;
        match rounded.partial_cmp(&f) {
            Some(Ordering::Equal) => i.cmp(&(f as i128)),
            Some(order) => order,
            None => Ordering::Less, // NaN never comes from JSON; any answer is fine
        }
    }

    /// Compares two JSON numbers exactly (as held).
    pub(super) fn compare(a: &Number, b: &Number) -> Ordering {
        match (repr(a), repr(b)) {
            (Repr::Int(x), Repr::Int(y)) => x.cmp(&y),
            (Repr::Int(x), Repr::Float(y)) => cmp_int_float(x, y),
            (Repr::Float(x), Repr::Int(y)) => cmp_int_float(y, x).reverse(),
            (Repr::Float(x), Repr::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        }
    }

    /// Whether `n` is above zero.
    pub(super) fn is_positive(n: &Number) -> bool {
        n.as_f64().is_some_and(|f| f > 0.0)
    }

    /// `n`, if it is a non-negative integer, saturating at `u64::MAX`.
    pub(super) fn non_negative_integer(n: &Number) -> Option<u64> {
        n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        })
    }

    /// The integers a `u64` or an `i64` holds, as doubles: `[-2^63, 2^64)`.
    const I64_MIN: f64 = -9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;

    /// Equal numbers hash alike whatever their representation: integral values a `u64`
    /// or an `i64` holds hash as integers, the rest by their bits (-0.0 is integral, so
    /// it hashes as 0).
    pub(super) fn hash<H: Hasher>(n: &Number, state: &mut H) {
        match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i128::from(i).hash(state),
            (_, Some(u), _) => i128::from(u).hash(state),
            (_, _, Some(f)) if f.fract() == 0.0 && (I64_MIN..U64_END).contains(&f) => {
                (f as i128).hash(state)
            }
            (_, _, Some(f)) => f.to_bits().hash(state),
            _ => {}
        }
    }

    /// A non-negative number as `digits * 10^exponent`.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Decimal {
        digits: u64,
        exponent: i32,
    }

    /// A fixed buffer that `write!` can fill without allocating.
    struct StackText {
        bytes: [u8; 40],
        len: usize,
    }

    impl Write for StackText {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let end = self.len + s.len();
            let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
            slot.copy_from_slice(s.as_bytes());
            self.len = end;
            Ok(())
        }
    }

    impl Decimal {
        /// The shortest decimal that round-trips to `n`'s absolute value.
        fn of(n: &Number) -> Option<Decimal> {
            match repr(n) {
                Repr::Int(i) => Some(Decimal {
                    digits: u64::try_from(i.unsigned_abs()).ok()?,
                    exponent: 0,
                }),
                Repr::Float(f) => Self::of_float(f.abs()),
            }
            .map(Decimal::trimmed)
        }

        /// [`Decimal::of`] a divisor, remembered per thread for the last float: a
        /// `multipleOf` meets one divisor for every item of an array, and writing it
        /// out as a decimal took a third of each check.
        fn of_divisor(n: &Number) -> Option<Decimal> {
            thread_local! {
                static LAST: Cell<Option<(u64, Decimal)>> = const { Cell::new(None) };
            }
            let Repr::Float(f) = repr(n) else {
                return Decimal::of(n);
            };
            if let Some((bits, decimal)) = LAST.with(Cell::get) {
                if bits == f.to_bits() {
                    return Some(decimal);
                }
            }
            let decimal = Decimal::of(n)?;
            LAST.with(|last| last.set(Some((f.to_bits(), decimal))));
            Some(decimal)
        }

        fn of_float(f: f64) -> Option<Decimal> {
            if !f.is_finite() {
                return None;
            }
            let mut text = StackText {
                bytes: [0; 40],
                len: 0,
            };
            write!(text, "{f:e}").ok()?;
            // `d.ddde[-]x`, read in one pass (splitting it on `e` and `.` first cost a
            // third of a `multipleOf` on floats).
            let (mut digits, mut fraction, mut point) = (0u64, 0i32, false);
            let mut bytes = text.bytes[..text.len].iter();
            for &c in bytes.by_ref() {
                match c {
                    b'0'..=b'9' => {
                        digits = digits.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
                        fraction += i32::from(point);
                    }
                    b'.' => point = true,
                    b'e' => break,
                    _ => return None,
                }
            }
            let exponent: i32 = std::str::from_utf8(bytes.as_slice()).ok()?.parse().ok()?;
            Some(Decimal {
                digits,
                exponent: exponent - fraction,
            })
        }

        fn trimmed(mut self) -> Decimal {
            while self.digits != 0 && self.digits % 10 == 0 {
                self.digits /= 10;
                self.exponent += 1;
            }
            self
        }
    }

    /// Whether `value` is an integer multiple of `divisor` (`divisor > 0`), exactly (as
    /// held).
    pub(super) fn is_multiple_of(value: &Number, divisor: &Number) -> bool {
        // The common case in one machine division rather than a 128-bit one.
        if let (Some(v), Some(d)) = (value.as_u64(), divisor.as_u64()) {
            return d != 0 && v % d == 0;
        }
        if let (Repr::Int(v), Repr::Int(d)) = (repr(value), repr(divisor)) {
            return d != 0 && v % d == 0;
        }
        let (Some(value), Some(divisor)) = (Decimal::of(value), Decimal::of_divisor(divisor))
        else {
            return false;
        };
        if value.digits == 0 {
            return true;
        }
        if divisor.digits == 0 {
            return false;
        }
        if value.exponent >= divisor.exponent {
            // value / divisor = (a * 10^k) / b, with k up to about 630.
            let k = (value.exponent - divisor.exponent) as u32;
            times_pow10_mod(value.digits, k, divisor.digits) == 0
        } else {
            let (a, b) = (u128::from(value.digits), u128::from(divisor.digits));
            // value / divisor = a / (b * 10^k): b * 10^k must divide a, so it cannot exceed it.
            let k = (divisor.exponent - value.exponent) as u32;
            10u128
                .checked_pow(k)
                .and_then(|scale| b.checked_mul(scale))
                .is_some_and(|scaled| a % scaled == 0)
        }
    }

    /// `a * 10^k mod m` (`m > 0`), squaring powers of ten: a few products whatever `k`
    /// (a loop of `k` steps took 13 µs for `1e308` against `3e-308`), in 64 bits when
    /// `m` fits in 32.
    fn times_pow10_mod(a: u64, k: u32, m: u64) -> u64 {
        let product = |x: u64, y: u64| match m <= u64::from(u32::MAX) {
            true => x * y % m,
            false => (u128::from(x) * u128::from(y) % u128::from(m)) as u64,
        };
        let (mut result, mut power, mut k) = (a % m, 10 % m, k);
        while k > 0 && result != 0 {
            if k & 1 == 1 {
                result = product(result, power);
            }
            power = product(power, power);
            k >>= 1;
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(v: serde_json::Value) -> Number {
        match v {
            serde_json::Value::Number(n) => n,
            _ => unreachable!("test helper takes numbers"),
        }
    }

    #[test]
    fn comparisons_are_exact_across_representations() {
        let big = num(json!(9007199254740993u64));
        let float = num(json!(9007199254740992.0));
        assert_eq!(compare(&big, &float), Ordering::Greater);
        assert_eq!(compare(&num(json!(1)), &num(json!(1.0))), Ordering::Equal);
        assert_eq!(
            compare(&num(json!(-1)), &num(json!(u64::MAX))),
            Ordering::Less
        );
        assert_eq!(compare(&num(json!(2.5)), &num(json!(2))), Ordering::Greater);
    }

    #[test]
    fn multiple_of_is_exact_for_decimals() {
        let yes = [
            (json!(0.0075), json!(0.0001)),
            (json!(0.3), json!(0.1)),
            (json!(10), json!(0.01)),
            (json!(4.5), json!(1.5)),
            (json!(-6), json!(3)),
            // Exponents over 600 apart, then a divisor beyond 32 bits.
            (json!(1e308), json!(5e-308)),
            (json!(1e308), json!(2.5e-300)),
            (json!(1e308), json!(1.099511627776e-290)),
        ];
        for (v, d) in yes {
            assert!(
                is_multiple_of(&num(v.clone()), &num(d.clone())),
                "{v} % {d}"
            );
        }
        let no = [
            (json!(0.00751), json!(0.0001)),
            (json!(1e308), json!(0.123456789)),
            (json!(7), json!(2)),
            (json!(35), json!(1.5)),
            (json!(1e308), json!(3e-308)),
            (json!(1e308), json!(1.2345678901234e-290)),
        ];
        for (v, d) in no {
            assert!(
                !is_multiple_of(&num(v.clone()), &num(d.clone())),
                "{v} % {d}"
            );
        }
    }

    /// A finite double, or an integer, spelt as `serde_json` would print it or in
    /// exponent form.
    fn spelt() -> impl proptest::strategy::Strategy<Value = (Number, String)> {
        use proptest::prelude::*;
        let double = any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_flat_map(|f| (Just(f), any::<bool>()))
            .prop_map(|(f, exponent_form)| {
                let text = if exponent_form {
                    format!("{f:e}")
                } else {
                    format!("{f}")
                };
                (Number::from_f64(f).unwrap(), text)
            });
        let small = (-1000.0f64..1000.0).prop_map(|f| {
            let f = (f * 100.0).round() / 100.0;
            (Number::from_f64(f).unwrap(), format!("{f}"))
        });
        let integer = any::<i64>().prop_map(|i| (Number::from(i), i.to_string()));
        prop_oneof![double, small, integer]
    }

    proptest::proptest! {
        /// Where doubles and 64-bit integers are exact, the exact decimal arithmetic of
        /// the `arbitrary-precision` build agrees with the machine arithmetic of the
        /// default build: the two builds differ only past what doubles hold.
        #[test]
        fn exact_and_machine_arithmetic_agree_on_doubles((a, a_text) in spelt(), (b, b_text) in spelt()) {
            use super::super::decimal::Decimal;
            let (x, y) = (Decimal::parse(&a_text).unwrap(), Decimal::parse(&b_text).unwrap());
            proptest::prop_assert_eq!(x.cmp(&y), machine::compare(&a, &b));
            proptest::prop_assert_eq!(x.is_integer(), machine::is_integer(&a));
            proptest::prop_assert_eq!(x.is_positive(), machine::is_positive(&a));
            if y.is_positive() {
                proptest::prop_assert_eq!(x.is_multiple_of(&y), machine::is_multiple_of(&a, &b));
            }
        }
    }
}
