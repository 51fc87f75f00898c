//! Exact comparisons and divisibility on JSON numbers.
//!
//! `serde_json` keeps a number as a `u64`, an `i64` or an `f64`. Converting everything to
//! `f64` would make `9007199254740993 > 9007199254740992` false and `0.3` a non-multiple
//! of `0.1`, so comparisons go through `i128` when they can, and `multipleOf` works on
//! the shortest decimal form of each operand, which is exact for every decimal literal a
//! schema author can write and cannot overflow.

use serde_json::Number;
use std::cmp::Ordering;
use std::fmt::Write;

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

/// Whether `n` is an integer in the JSON Schema sense (`1.0` is one).
#[inline]
pub(crate) fn is_integer(n: &Number) -> bool {
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

/// Compares two JSON numbers exactly.
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
    match (repr(a), repr(b)) {
        (Repr::Int(x), Repr::Int(y)) => x.cmp(&y),
        (Repr::Int(x), Repr::Float(y)) => cmp_int_float(x, y),
        (Repr::Float(x), Repr::Int(y)) => cmp_int_float(y, x).reverse(),
        (Repr::Float(x), Repr::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

/// Whether two JSON numbers are equal as numbers (`1 == 1.0`).
#[inline]
pub(crate) fn equal(a: &Number, b: &Number) -> bool {
    compare(a, b) == Ordering::Equal
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

    fn of_float(f: f64) -> Option<Decimal> {
        if !f.is_finite() {
            return None;
        }
        let mut text = StackText {
            bytes: [0; 40],
            len: 0,
        };
        write!(text, "{f:e}").ok()?;
        let text = std::str::from_utf8(&text.bytes[..text.len]).ok()?;
        let (mantissa, exponent) = text.split_once('e')?;
        let mut exponent: i32 = exponent.parse().ok()?;
        let mut digits: u64 = 0;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        for c in whole.bytes().chain(fraction.bytes()) {
            digits = digits
                .checked_mul(10)?
                .checked_add(u64::from(c.checked_sub(b'0')?))?;
        }
        exponent -= i32::try_from(fraction.len()).ok()?;
        Some(Decimal { digits, exponent })
    }

    fn trimmed(mut self) -> Decimal {
        while self.digits != 0 && self.digits % 10 == 0 {
            self.digits /= 10;
            self.exponent += 1;
        }
        self
    }
}

/// Whether `value` is an integer multiple of `divisor` (`divisor > 0`), exactly.
pub(crate) fn is_multiple_of(value: &Number, divisor: &Number) -> bool {
    // The common case in one machine division rather than a 128-bit one.
    if let (Some(v), Some(d)) = (value.as_u64(), divisor.as_u64()) {
        return d != 0 && v % d == 0;
    }
    if let (Repr::Int(v), Repr::Int(d)) = (repr(value), repr(divisor)) {
        return d != 0 && v % d == 0;
    }
    let (Some(value), Some(divisor)) = (Decimal::of(value), Decimal::of(divisor)) else {
        return false;
    };
    if value.digits == 0 {
        return true;
    }
    if divisor.digits == 0 {
        return false;
    }
    let (a, b) = (u128::from(value.digits), u128::from(divisor.digits));
    if value.exponent >= divisor.exponent {
        // value / divisor = (a * 10^k) / b: reduce a * 10^k modulo b step by step.
        let mut rest = a % b;
        for _ in 0..(value.exponent - divisor.exponent) {
            if rest == 0 {
                break;
            }
            rest = rest * 10 % b;
        }
        rest == 0
    } else {
        // value / divisor = a / (b * 10^k): b * 10^k must divide a, so it cannot exceed it.
        let k = (divisor.exponent - value.exponent) as u32;
        10u128
            .checked_pow(k)
            .and_then(|scale| b.checked_mul(scale))
            .is_some_and(|scaled| a % scaled == 0)
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
        ];
        for (v, d) in no {
            assert!(
                !is_multiple_of(&num(v.clone()), &num(d.clone())),
                "{v} % {d}"
            );
        }
    }
}
