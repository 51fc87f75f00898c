//! Exact decimal arithmetic on JSON number texts.
//!
//! With `serde_json`'s `arbitrary_precision`, a number keeps the text it was written
//! with. [`Decimal::parse`] reads that text as `±digits × 10^exponent`, normalised (no
//! leading or trailing zero digit; zero has no digits and is never negative), so two
//! numbers are equal exactly when their decimals are, whatever their spelling (`1`,
//! `1.0`, `10e-1`). Ordering, integrality, positivity and divisibility are then decided on
//! the digits, for integers and fractions of any length.
//!
//! Invariant: exponents are clamped to ±[`EXPONENT_LIMIT`]; numbers whose exponent goes
//! beyond (a JSON text with an exponent of more than 18 digits) compare as if it were at
//! the limit. Every other JSON number is handled exactly.
//!
//! The `arbitrary-precision` build routes every numeric keyword through it; the default
//! build, the numbers of JSON text that no double holds exactly (`number::text`).

use smallvec::SmallVec;
use std::cmp::Ordering;

/// The largest exponent magnitude kept exactly.
pub(crate) const EXPONENT_LIMIT: i128 = 1_000_000_000_000_000_000;

/// A JSON number as `±digits × 10^exponent`, normalised (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    negative: bool,
    /// Digit values (0-9), the first and the last non-zero; empty for zero.
    digits: SmallVec<[u8; 24]>,
    exponent: i128,
}

impl Decimal {
    /// Reads a JSON number text; `None` if `text` is not one.
    pub(crate) fn parse(text: &str) -> Option<Decimal> {
        let bytes = text.as_bytes();
        let mut at = 0;
        let negative = bytes.first() == Some(&b'-');
        if negative {
            at += 1;
        }
        let whole = run_of_digits(bytes, at);
        if whole == 0 {
            return None;
        }
        let mut digits: SmallVec<[u8; 24]> =
            bytes[at..at + whole].iter().map(|b| b - b'0').collect();
        at += whole;
        let mut exponent: i128 = 0;
        if bytes.get(at) == Some(&b'.') {
            let fraction = run_of_digits(bytes, at + 1);
            if fraction == 0 {
                return None;
            }
            digits.extend(bytes[at + 1..at + 1 + fraction].iter().map(|b| b - b'0'));
            exponent -= fraction as i128;
            at += 1 + fraction;
        }
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            at += 1;
            let sign: i128 = match bytes.get(at) {
                Some(b'-') => {
                    at += 1;
                    -1
                }
                Some(b'+') => {
                    at += 1;
                    1
                }
                _ => 1,
            };
            let length = run_of_digits(bytes, at);
            if length == 0 {
                return None;
            }
            let mut written: i128 = 0;
            for &b in &bytes[at..at + length] {
                written = (written * 10 + i128::from(b - b'0')).min(EXPONENT_LIMIT);
            }
            exponent += sign * written;
            at += length;
        }
        if at != bytes.len() {
            return None;
        }
        let leading = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..leading);
        let trailing = digits.iter().rev().take_while(|&&d| d == 0).count();
        digits.truncate(digits.len() - trailing);
        exponent += trailing as i128;
        if digits.is_empty() {
            return Some(Decimal {
                negative: false,
                digits,
                exponent: 0,
            });
        }
        Some(Decimal {
            negative,
            digits,
            exponent: exponent.clamp(-EXPONENT_LIMIT, EXPONENT_LIMIT),
        })
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Whether the number has no fractional part.
    pub(crate) fn is_integer(&self) -> bool {
        self.is_zero() || self.exponent >= 0
    }

    /// Whether the number is above zero.
    pub(crate) fn is_positive(&self) -> bool {
        !self.negative && !self.is_zero()
    }

    /// The number, if it is a non-negative integer, saturating at `u64::MAX`.
    #[cfg_attr(not(feature = "arbitrary-precision"), allow(dead_code))]
    pub(crate) fn non_negative_integer(&self) -> Option<u64> {
        if self.negative || !self.is_integer() {
            return None;
        }
        let mut value: u64 = 0;
        let zeros = usize::try_from(self.exponent).unwrap_or(usize::MAX);
        let all = self
            .digits
            .iter()
            .copied()
            .chain(std::iter::repeat_n(0, zeros));
        for digit in all.take(21) {
            value = value.saturating_mul(10).saturating_add(u64::from(digit));
        }
        Some(value)
    }

    /// The number, if it is an integer that an `i128` holds.
    pub(crate) fn integer(&self) -> Option<i128> {
        if !self.is_integer() || self.magnitude() > 38 {
            return None;
        }
        let zeros = usize::try_from(self.exponent).unwrap_or(0);
        let all = self
            .digits
            .iter()
            .copied()
            .chain(std::iter::repeat_n(0, zeros));
        let mut value: i128 = 0;
        for digit in all {
            value = value.checked_mul(10)?.checked_add(i128::from(digit))?;
        }
        Some(if self.negative { -value } else { value })
    }

    /// The position of the first digit: the number's magnitude is in
    /// `[10^(magnitude-1), 10^magnitude)`.
    fn magnitude(&self) -> i128 {
        self.exponent + self.digits.len() as i128
    }

    /// Whether `self` is an integer multiple of `divisor`, which must be positive.
    pub(crate) fn is_multiple_of(&self, divisor: &Decimal) -> bool {
        if !divisor.is_positive() {
            return false;
        }
        if self.is_zero() {
            return true;
        }
        // self / divisor = (A / B) * 10^k with A, B free of trailing zeros. For k < 0,
        // B * 10^-k would have to divide A, which has no trailing zero: it cannot.
        let k = self.exponent - divisor.exponent;
        if k < 0 {
            return false;
        }
        // B = 2^p * 5^q * C with C coprime to 10: B | A * 10^k exactly when C | A and
        // the twos and fives of A * 10^k cover p and q.
        let mut c = divisor.digits.clone();
        let twos = strip_factor(&mut c, 2, usize::MAX);
        let fives = strip_factor(&mut c, 5, usize::MAX);
        if !divides(&c, &self.digits) {
            return false;
        }
        let missing = |factor_count: usize| factor_count as i128 - k;
        let (need_twos, need_fives) = (missing(twos), missing(fives));
        if need_twos <= 0 && need_fives <= 0 {
            return true;
        }
        let mut a = self.digits.clone();
        let enough = |a: &mut SmallVec<[u8; 24]>, factor, need: i128| {
            need <= 0 || {
                let need = need as usize;
                strip_factor(a, factor, need) >= need
            }
        };
        enough(&mut a, 2, need_twos) && {
            let mut a = self.digits.clone();
            enough(&mut a, 5, need_fives)
        }
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => return Ordering::Greater,
            (true, false) => return Ordering::Less,
            _ => {}
        }
        let magnitude = match (self.is_zero(), other.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Both as 0.d1d2... × 10^magnitude: the magnitudes, then the digits.
            (false, false) => self
                .magnitude()
                .cmp(&other.magnitude())
                .then_with(|| self.digits.cmp(&other.digits)),
        };
        if self.negative {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// How many ASCII digits `bytes` has from `at`.
fn run_of_digits(bytes: &[u8], at: usize) -> usize {
    bytes.get(at..).map_or(0, |rest| {
        rest.iter().take_while(|b| b.is_ascii_digit()).count()
    })
}

/// Divides the integer `digits` by `factor` as long as it divides evenly, at most `limit`
/// times; returns how many times it did.
fn strip_factor(digits: &mut SmallVec<[u8; 24]>, factor: u8, limit: usize) -> usize {
    let mut count = 0;
    while count < limit && !digits.is_empty() && remainder_small(digits, factor) == 0 {
        let mut rest = 0u16;
        for digit in digits.iter_mut() {
            let current = rest * 10 + u16::from(*digit);
            *digit = (current / u16::from(factor)) as u8;
            rest = current % u16::from(factor);
        }
        let leading = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..leading);
        count += 1;
    }
    count
}

/// The integer `digits` modulo a small `divisor`.
fn remainder_small(digits: &[u8], divisor: u8) -> u8 {
    digits.iter().fold(0u16, |rest, &d| {
        (rest * 10 + u16::from(d)) % u16::from(divisor)
    }) as u8
}

/// Whether the integer `divisor` (non-zero) divides the integer `value`.
fn divides(divisor: &[u8], value: &[u8]) -> bool {
    // Up to 37 digits, the running remainder (below the divisor) times ten plus a digit
    // fits in a u128.
    if divisor.len() <= 37 {
        let d = divisor.iter().fold(0u128, |n, &x| n * 10 + u128::from(x));
        return value
            .iter()
            .fold(0u128, |rest, &x| (rest * 10 + u128::from(x)) % d)
            == 0;
    }
    // Longer: the same running remainder as a digit string, reduced by subtraction (at
    // most nine times per digit, since it stays below ten divisors).
    let mut rest: Vec<u8> = Vec::with_capacity(divisor.len() + 1);
    for &digit in value {
        if !(rest.is_empty() && digit == 0) {
            rest.push(digit);
        }
        while not_below(&rest, divisor) {
            subtract(&mut rest, divisor);
        }
    }
    rest.is_empty()
}

/// Whether the integer `a` is at least `b` (both without leading zeros).
fn not_below(a: &[u8], b: &[u8]) -> bool {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b)) != Ordering::Less
}

/// `a -= b`, for `a >= b` (both without leading zeros; `a` keeps none).
fn subtract(a: &mut Vec<u8>, b: &[u8]) {
    let mut borrow = 0i8;
    let offset = a.len() - b.len();
    for i in (0..a.len()).rev() {
        let sub = if i >= offset { b[i - offset] as i8 } else { 0 };
        let mut digit = a[i] as i8 - sub - borrow;
        borrow = i8::from(digit < 0);
        if digit < 0 {
            digit += 10;
        }
        a[i] = digit as u8;
    }
    let leading = a.iter().take_while(|&&d| d == 0).count();
    a.drain(..leading);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        Decimal::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn spellings_of_one_number_are_one_decimal() {
        for text in ["1", "1.0", "10e-1", "0.1e1", "1.000E0", "100e-2"] {
            assert_eq!(d(text), d("1"), "{text}");
        }
        assert_eq!(d("-0"), d("0"));
        assert_eq!(d("-0.0e5"), d("0"));
        assert_ne!(d("100000000000000000001"), d("1e20"));
        for text in [
            "", "-", "1.", ".5", "1e", "1e+", "01x", "1.5.2", "--1", "NaN",
        ] {
            assert!(Decimal::parse(text).is_none(), "{text}");
        }
    }

    #[test]
    fn order_is_exact_at_any_length() {
        let ascending = [
            "-1e30",
            "-100000000000000000001",
            "-1e20",
            "-1.5",
            "-0.30000000000000000001",
            "-0.3",
            "0",
            "1e-400",
            "0.3",
            "0.30000000000000000001",
            "1",
            "1.0000000000000000000000001",
            "9007199254740993",
            "1e20",
            "100000000000000000001",
            "1e400",
        ];
        for (i, a) in ascending.iter().enumerate() {
            for (j, b) in ascending.iter().enumerate() {
                assert_eq!(d(a).cmp(&d(b)), i.cmp(&j), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn integers_and_signs() {
        assert!(d("1e400").is_integer());
        assert!(d("1.0").is_integer());
        assert!(d("12.5e1").is_integer());
        assert!(!d("1.0000000000000000000000001").is_integer());
        assert!(!d("1e-400").is_integer());
        assert!(d("1e-400").is_positive());
        assert!(!d("-1e-400").is_positive());
        assert!(!d("0.0").is_positive());
        assert_eq!(d("2.0").non_negative_integer(), Some(2));
        assert_eq!(d("1e400").non_negative_integer(), Some(u64::MAX));
        assert_eq!(
            d("18446744073709551616").non_negative_integer(),
            Some(u64::MAX)
        );
        assert_eq!(d("-1").non_negative_integer(), None);
        assert_eq!(d("1.5").non_negative_integer(), None);
    }

    #[test]
    fn divisibility_is_exact_at_any_length() {
        let yes = [
            ("0", "7"),
            ("0.3", "0.1"),
            ("0.0075", "0.0001"),
            ("1e308", "0.5"),
            ("1e400", "3.2e-5"),
            ("100000000000000000000", "4"),
            (
                "123456789012345678901234567890123456789012345678900",
                "12345678901234567890123456789012345678901234567890",
            ),
            ("2.5e-10", "1.25e-10"),
            ("-6", "3"),
        ];
        for (value, divisor) in yes {
            assert!(d(value).is_multiple_of(&d(divisor)), "{value} / {divisor}");
        }
        let no = [
            ("100000000000000000001", "2"),
            ("1.1500000000000001", "0.01"),
            ("1", "3e-400"),
            ("1e-400", "1e-399"),
            (
                "123456789012345678901234567890123456789012345678901",
                "12345678901234567890123456789012345678901234567890",
            ),
            ("7", "2"),
            ("1", "0"),
            ("1", "-1"),
        ];
        for (value, divisor) in no {
            assert!(!d(value).is_multiple_of(&d(divisor)), "{value} / {divisor}");
        }
    }

    #[test]
    fn matches_machine_arithmetic_where_that_is_exact() {
        // Integers within i64: order and divisibility agree with the machine's.
        let values: Vec<i64> = (-60..=60)
            .chain([i64::MIN + 1, i64::MAX, 1 << 53, 999_999_937])
            .collect();
        for &a in &values {
            for &b in &values {
                assert_eq!(
                    d(&a.to_string()).cmp(&d(&b.to_string())),
                    a.cmp(&b),
                    "{a} vs {b}"
                );
                if b > 0 {
                    assert_eq!(
                        d(&a.to_string()).is_multiple_of(&d(&b.to_string())),
                        a % b == 0,
                        "{a} % {b}"
                    );
                }
            }
        }
    }
}
