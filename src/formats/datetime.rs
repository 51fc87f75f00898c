//! Dates, times and durations: `date`, `time`, `date-time` (RFC 3339 section
//! 5.6) and `duration` (RFC 3339 appendix A).
//!
//! Everything here is ASCII-only, so the checks work on bytes and reject any
//! non-ASCII input (such as non-Latin digits) automatically.

/// `date`: RFC 3339 `full-date` (`YYYY-MM-DD`).
///
/// Checks the exact shape, a month of 01-12 and a day that exists in that
/// month of that (proleptic Gregorian) year, so `2021-02-29` is rejected and
/// `2020-02-29` accepted.
pub(super) fn is_date(s: &str) -> bool {
    full_date(s.as_bytes())
}

/// `time`: RFC 3339 `full-time` (`HH:MM:SS[.frac](Z|±HH:MM)`).
///
/// Checks two-digit fields within range (hour 00-23, minute 00-59, second
/// 00-60), an optional fraction of at least one digit, and a mandatory offset:
/// `Z`/`z` or `+HH:MM`/`-HH:MM` with hour 00-23 and minute 00-59. A leap second
/// (`:60`) is accepted only when the time converted to UTC is 23:59, as RFC
/// 3339 section 5.7 describes (`15:59:60-08:00` is valid, `22:59:60Z` is not).
pub(super) fn is_time(s: &str) -> bool {
    full_time(s.as_bytes())
}

/// `date-time`: RFC 3339 `date-time` (`full-date "T" full-time`).
///
/// The separator `T` and the `Z` offset are accepted in either case (RFC 3339
/// section 5.6 note); a space separator is not. The date and time parts are
/// checked as in [`is_date`] and [`is_time`].
pub(super) fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 11 && matches!(b[10], b'T' | b't') && full_date(&b[..10]) && full_time(&b[11..])
}

/// `duration`: RFC 3339 appendix A `duration`, exactly as its ABNF reads.
///
/// `P` followed by either weeks alone (`P2W`), or date and/or time parts whose
/// units appear in order and without gaps: `[nY[nM[nD]] | nM[nD] | nD]` then an
/// optional `T` with `nH[nM[nS]] | nM[nS] | nS`. At least one component is
/// required, each is one or more ASCII digits, and no fractions or signs are
/// allowed. Following the ABNF strictly, `P1Y2D` (a year and a day without a
/// month) and `PT1H2S` are rejected.
pub(super) fn is_duration(s: &str) -> bool {
    let Some(rest) = s.as_bytes().strip_prefix(b"P") else {
        return false;
    };
    // Weeks stand alone.
    if let Some((b'W', tail)) = number_then_unit(rest) {
        return tail.is_empty();
    }
    let (date, time) = match rest.iter().position(|&c| c == b'T') {
        Some(t) => (&rest[..t], Some(&rest[t + 1..])),
        None => (rest, None),
    };
    // The date part may only be empty when a time part follows, and a `T`
    // must be followed by at least one time component.
    let date_ok = if date.is_empty() {
        time.is_some()
    } else {
        unit_chain(date, b"YMD")
    };
    let time_ok = match time {
        Some(time) => unit_chain(time, b"HMS"),
        None => true,
    };
    date_ok && time_ok
}

/// Splits `1*DIGIT unit` off the front of `s`, returning the unit byte and the
/// remainder.
fn number_then_unit(s: &[u8]) -> Option<(u8, &[u8])> {
    let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let (&unit, tail) = s[digits..].split_first()?;
    Some((unit, tail))
}

/// Checks that `s` is a non-empty run of `1*DIGIT unit` components whose units
/// are consecutive entries of `units` (the ABNF nests each unit as an optional
/// suffix of the previous one, so no unit may be skipped once started).
fn unit_chain(mut s: &[u8], units: &[u8]) -> bool {
    let mut expected: Option<usize> = None;
    while !s.is_empty() {
        let Some((unit, tail)) = number_then_unit(s) else {
            return false;
        };
        let Some(index) = units.iter().position(|&u| u == unit) else {
            return false;
        };
        if expected.is_some_and(|e| e != index) {
            return false;
        }
        expected = Some(index + 1);
        s = tail;
    }
    expected.is_some()
}

/// Parses exactly two ASCII digits.
fn two_digits(b: &[u8]) -> Option<u8> {
    match b {
        [h @ b'0'..=b'9', l @ b'0'..=b'9'] => Some((h - b'0') * 10 + (l - b'0')),
        _ => None,
    }
}

/// RFC 3339 `full-date` on exactly the bytes given.
fn full_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(hi), Some(lo)) = (two_digits(&b[0..2]), two_digits(&b[2..4])) else {
        return false;
    };
    let (Some(month), Some(day)) = (two_digits(&b[5..7]), two_digits(&b[8..10])) else {
        return false;
    };
    let year = u32::from(hi) * 100 + u32::from(lo);
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// Number of days in `month` (1-12) of the Gregorian `year`.
fn days_in_month(year: u32, month: u8) -> u8 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// RFC 3339 `full-time` on exactly the bytes given.
fn full_time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        two_digits(&b[0..2]),
        two_digits(&b[3..5]),
        two_digits(&b[6..8]),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = &frac[digits..];
    }
    // Offset from UTC in minutes, positive east of Greenwich.
    let offset: i32 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), oh0, oh1, b':', om0, om1] => {
            let (Some(oh), Some(om)) = (two_digits(&[*oh0, *oh1]), two_digits(&[*om0, *om1]))
            else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i32::from(oh) * 60 + i32::from(om);
            if *sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
        _ => return false,
    };
    if second == 60 {
        // A leap second happens at 23:59:60 UTC; the local time is UTC plus
        // the offset, so subtract it back.
        let local = i32::from(hour) * 60 + i32::from(minute);
        if (local - offset).rem_euclid(24 * 60) != 23 * 60 + 59 {
            return false;
        }
    }
    true
}
