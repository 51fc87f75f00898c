//! Punycode (RFC 3492) decoding and encoding into fixed-size buffers, for the
//! A-label checks of `hostname` and `idn-hostname`.
//!
//! Labels are at most 63 octets, so both directions work on stack buffers
//! and give up (return `None`) as soon as a result would not fit; no input can
//! make them allocate or run for long.

/// Longest A-label body (after `xn--`) that fits a 63-octet DNS label.
pub(super) const MAX_BODY: usize = 59;

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// Bias adaptation function (RFC 3492 section 6.1).
fn adapt(delta: u32, num_points: u32, first_time: bool) -> u32 {
    let mut delta = if first_time { delta / DAMP } else { delta / 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

/// The threshold `t` for position `k` under `bias` (RFC 3492 section 6.2).
fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

/// Value of a base-36 digit (`a-z`/`A-Z` are 0-25, `0-9` are 26-35).
fn digit_value(c: u8) -> Option<u32> {
    match c {
        b'a'..=b'z' => Some(u32::from(c - b'a')),
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 26),
        _ => None,
    }
}

/// The lowercase base-36 digit for `d` (< 36).
fn digit_char(d: u32) -> u8 {
    // `d` is always below 36 here, so the narrowing cannot truncate.
    let d = (d % BASE) as u8;
    if d < 26 {
        b'a' + d
    } else {
        b'0' + d - 26
    }
}

/// Decodes a Punycode string (an A-label body without `xn--`) into `out`,
/// returning the number of code points written.
///
/// Basic (ASCII) code points before the last `-` are copied lowercased, since
/// A-labels compare case-insensitively. Returns `None` for malformed input,
/// arithmetic overflow, a result that is not a Unicode scalar value, or one
/// longer than `out`.
pub(super) fn decode(input: &[u8], out: &mut [u32]) -> Option<usize> {
    let (basic, encoded) = match input.iter().rposition(|&c| c == b'-') {
        Some(d) => (&input[..d], &input[d + 1..]),
        None => (&input[..0], input),
    };
    if basic.len() > out.len() {
        return None;
    }
    let mut len = 0;
    for &c in basic {
        if !c.is_ascii() {
            return None;
        }
        out[len] = u32::from(c.to_ascii_lowercase());
        len += 1;
    }
    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut digits = encoded.iter();
    while digits.len() > 0 {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let digit = digit_value(*digits.next()?)?;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        if len == out.len() {
            return None;
        }
        // `len` is below `out.len()`, itself at most a label's length.
        let points = u32::try_from(len + 1).ok()?;
        bias = adapt(i - old_i, points, old_i == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        char::from_u32(n)?;
        let at = usize::try_from(i).ok()?;
        out.copy_within(at..len, at + 1);
        out[at] = n;
        len += 1;
        i += 1;
    }
    Some(len)
}

/// Encodes `input` as Punycode into `out` (lowercase digits), returning the
/// number of bytes written, or `None` if the result would not fit `out`.
pub(super) fn encode(input: &[u32], out: &mut [u8]) -> Option<usize> {
    let mut len = 0;
    let mut push = |out: &mut [u8], c: u8| -> Option<()> {
        *out.get_mut(len)? = c;
        len += 1;
        Some(())
    };
    let mut basic: u32 = 0;
    for &c in input {
        if c < INITIAL_N {
            push(out, u8::try_from(c).ok()?)?;
            basic += 1;
        }
    }
    if basic > 0 {
        push(out, b'-')?;
    }
    let total = u32::try_from(input.len()).ok()?;
    let mut handled = basic;
    let mut n = INITIAL_N;
    let mut delta: u32 = 0;
    let mut bias = INITIAL_BIAS;
    while handled < total {
        let m = input.iter().copied().filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in input {
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    push(out, digit_char(t + (q - t) % (BASE - t)))?;
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                push(out, digit_char(q))?;
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(len)
}
