//! The nearest name for a key `additionalProperties: false` refused ("did you mean
//! ...?"): a cheap filter on the bytes each name holds, then an edit distance bounded by
//! a third of the key, within the explanations' budget.

/// The bytes of `name` as a set, which [`suggestion`] rules names out by: bit `b % 64`
/// for each byte `b`; 0 (which rules nothing out) when a byte is not ASCII.
pub(super) fn byte_set(name: &str) -> u64 {
    let mut set = 0;
    for b in name.bytes() {
        if !b.is_ascii() {
            return 0;
        }
        set |= 1 << (b & 63);
    }
    set
}

/// Whether `set` has more than `most` bits set: `count_ones` without the `popcnt`
/// target feature (not in a default build) is a dozen instructions, and `most` is
/// mostly 1 or 2.
#[inline(always)]
fn more_bits(set: u64, most: usize) -> bool {
    if most == 0 {
        return set != 0;
    }
    // Each step clears the lowest bit set; the first is taken out of the loop, which
    // most keys (shorter than 6 characters) need no more of.
    let mut rest = set & set.wrapping_sub(1);
    for _ in 1..most {
        rest &= rest.wrapping_sub(1);
    }
    rest != 0
}

/// The name among some names that `key` most likely misspells: the nearest by edit
/// distance, if at most a third of the key's length (and at least one) apart. The key
/// has `key_chars` characters (at most [`LONGEST`], from [`short_key_chars`]); the names
/// are `name(i)` for each `i` of `sets`, which holds their [`byte_set`]s.
pub(super) fn suggestion<'n>(
    key: &str,
    key_chars: usize,
    sets: &[u64],
    name: impl Fn(usize) -> &'n str,
) -> Option<&'n str> {
    if sets.is_empty() {
        return None;
    }
    // A character outside ASCII takes two bytes or more.
    let ascii_key = key_chars == key.len();
    let most = (key_chars / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    // The bytes of the key, as bits (bytes share bits modulo 64, which only weakens the
    // bound below); read only for an ASCII key.
    let key_bytes = byte_set(key);
    // Lower bounds on the distance, which rule out most names before it is computed:
    // against an ASCII key, one edit per ASCII byte of the name that the key lacks,
    // counted once per distinct byte (modulo 64) from the sets, without a look at the
    // name; then the difference in length (a name has no more characters than bytes);
    // then, for the few names left, once per occurrence, in one pass over the name that
    // leaves at the first byte over `most` (and at a byte of another character: the
    // distance then counts those).
    let absent = !key_bytes;
    'names: for (i, &bytes) in sets.iter().enumerate() {
        if ascii_key && more_bits(bytes & absent, most) {
            continue;
        }
        let name = name(i);
        if name.len() + most < key_chars {
            continue;
        }
        let mut ascii_name = ascii_key;
        if ascii_key {
            let mut absent = 0;
            for b in name.bytes() {
                if !b.is_ascii() {
                    ascii_name = false;
                    break;
                }
                if key_bytes & (1 << (b & 63)) == 0 {
                    absent += 1;
                    if absent > most {
                        continue 'names;
                    }
                }
            }
        }
        let distance = if ascii_name {
            if name.len() > key.len() + most {
                continue;
            }
            edit_distance(key.as_bytes(), name.as_bytes(), most)
        } else {
            let a: Vec<char> = key.chars().collect();
            let b: Vec<char> = name.chars().take(LONGEST + most + 1).collect();
            edit_distance(&a, &b, most)
        };
        if let Some(distance) = distance.filter(|&d| d > 0) {
            if best.is_none_or(|(least, _)| distance < least) {
                best = Some((distance, name));
            }
        }
    }
    best.map(|(_, name)| name)
}

/// Keys longer than this (in characters) get no suggestion: the distance is quadratic.
const LONGEST: usize = 64;

/// How many characters `key` has, if at most [`LONGEST`]: counted only for keys short
/// enough to have so few (a character is at most four bytes), and without decoding
/// an ASCII key (counting a short key's characters was a tenth of what a suggestion
/// that found no name cost).
pub(super) fn short_key_chars(key: &str) -> Option<usize> {
    if key.len() > 4 * LONGEST {
        return None;
    }
    let chars = match key.is_ascii() {
        true => key.len(),
        false => key.chars().count(),
    };
    (chars <= LONGEST).then_some(chars)
}

/// The Levenshtein distance between `a` (at most [`LONGEST`] long) and `b`, if at most
/// `most` (at most a third of [`LONGEST`]), on one row kept on the stack.
fn edit_distance<T: PartialEq>(a: &[T], b: &[T], most: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > most || a.len() > LONGEST {
        return None;
    }
    // Distances stay below `2 * LONGEST`, so a byte holds each.
    let mut row = [0u8; 2 * LONGEST];
    let row = &mut row[..=b.len()];
    for (j, cell) in (0u8..).zip(row.iter_mut()) {
        *cell = j;
    }
    for (i, ca) in (1u8..).zip(a) {
        let mut diagonal = row[0];
        row[0] = i;
        let mut least = i;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + u8::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
            least = least.min(row[j + 1]);
        }
        // No entry of a later row drops below this row's least.
        if usize::from(least) > most {
            return None;
        }
    }
    let distance = usize::from(row[b.len()]);
    (distance <= most).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`suggestion`] for `key` as `not_allowed` asks for it: none for a key too long.
    fn suggested<'n>(key: &str, sets: &[u64], name: impl Fn(usize) -> &'n str) -> Option<&'n str> {
        suggestion(key, short_key_chars(key)?, sets, name)
    }

    /// The textbook recursion-free Levenshtein distance, on a full table.
    fn levenshtein(a: &[char], b: &[char]) -> usize {
        let mut table = vec![vec![0; b.len() + 1]; a.len() + 1];
        for (i, row) in table.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in table[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let substitution = table[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
                table[i][j] = substitution
                    .min(table[i - 1][j] + 1)
                    .min(table[i][j - 1] + 1);
            }
        }
        table[a.len()][b.len()]
    }

    proptest! {
        #[test]
        fn edit_distance_is_levenshtein_up_to_the_bound(
            a in "[abc]{0,10}",
            b in "[abcé]{0,12}",
            most in 1usize..4,
        ) {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let exact = levenshtein(&a, &b);
            prop_assert_eq!(edit_distance(&a, &b, most), (exact <= most).then_some(exact));
        }
    }

    proptest! {
        /// The bounds that rule names out early change no suggestion: it is the first
        /// name at the least distance, if above 0 and at most a third of the key.
        #[test]
        fn suggestions_are_what_levenshtein_says(
            key in "[abcd_]{0,9}|[abé]{0,6}",
            names in prop::collection::vec("[abcd_]{0,11}|[abé]{0,7}", 0..8),
        ) {
            let key_chars: Vec<char> = key.chars().collect();
            let most = (key_chars.len() / 3).max(1);
            let mut expected: Option<(usize, &str)> = None;
            for name in &names {
                let d = levenshtein(&key_chars, &name.chars().collect::<Vec<_>>());
                if d > 0 && d <= most && expected.is_none_or(|(least, _)| d < least) {
                    expected = Some((d, name));
                }
            }
            let sets: Vec<u64> = names.iter().map(|name| byte_set(name)).collect();
            let got = suggested(&key, &sets, |i| &names[i]);
            prop_assert_eq!(got, expected.map(|(_, name)| name));
        }
    }

    proptest! {
        /// The byte sets only rule out names too far to be suggested: with sets that
        /// rule nothing out (all 0), every suggestion is the same.
        #[test]
        fn the_byte_sets_change_no_suggestion(
            key in "[a-f~]{1,9}",
            names in prop::collection::vec("[a-f~]{0,11}", 0..12),
        ) {
            let sets: Vec<u64> = names.iter().map(|name| byte_set(name)).collect();
            let none = vec![0; names.len()];
            prop_assert_eq!(
                suggested(&key, &sets, |i| &names[i]),
                suggested(&key, &none, |i| &names[i])
            );
        }

        #[test]
        fn more_bits_is_a_count_of_ones(set in any::<u64>(), most in 0usize..70) {
            prop_assert_eq!(more_bits(set, most), set.count_ones() as usize > most);
        }
    }

    #[test]
    fn suggestions_are_the_nearest_name_within_a_third_of_the_key() {
        let names = ["city", "country", "units", "days"];
        let sets = names.map(byte_set);
        let suggest = |key: &str| suggested(key, &sets, |i| names[i]);
        assert_eq!(suggest("cty"), Some("city"));
        assert_eq!(suggest("Units"), Some("units"));
        assert_eq!(suggest("countyr"), Some("country"));
        assert_eq!(suggest("city"), None, "an exact name is no misspelling");
        assert_eq!(suggest("verbose"), None);
        assert_eq!(suggest("dayz"), Some("days"));
        assert_eq!(suggest(&"x".repeat(100)), None);
    }
}
