//! Finding a name among a fixed set known at compile time: the `properties` of a schema
//! and the strings of an `enum`, looked up for every key of every instance.
//!
//! The general-purpose tools cost more than the job: a `memcmp` call per comparison, or
//! a keyed hash that (without the `aes` target feature of a default build) runs ~90
//! instructions per key. So a name is first told apart by a [`probe`] word (length and
//! first byte), compared by [`same_bytes`] in two word loads, and a set too large to
//! scan gets an index: a [`QuickIndex`] (a slot per name by its [`Spelling`], with a
//! multiplier chosen at compile time) or a [`ProbedIndex`] (open addressing at a
//! quarter load), which leave about one candidate to compare per lookup.

use smallvec::SmallVec;

/// A name's length and first byte in one word, compared before the bytes themselves:
/// among the short, mostly distinct names of a real `properties` it singles out the one
/// entry that can match.
#[inline(always)]
pub(crate) fn probe(name: &str) -> u64 {
    ((name.len() as u64) << 8) | u64::from(name.as_bytes().first().copied().unwrap_or(0))
}

/// `a == b`, without a call into `memcmp` for names of up to 32 bytes: three byte loads
/// cover up to 3 bytes, two overlapping word loads 4 to 16, four 17 to 32.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let same = |at: usize| word(a, at) == word(b, at);
    match n {
        0..=16 => words(a) == words(b),
        17..=32 => same(0) && same(8) && same(n - 16) && same(n - 8),
        _ => a == b,
    }
}

/// A name's length and [`words`]: for a name of up to [`Spelling::DECIDES_UP_TO`] bytes
/// they determine it, so a key is compared with a known name by two words and its
/// length, computed once per key, without reading the name's bytes (a pointer away).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Spelling {
    len: usize,
    words: (u64, u64),
}

impl Spelling {
    /// The longest names whose spelling decides equality.
    const DECIDES_UP_TO: usize = 16;

    /// Whether a name of `len` bytes is decided by its spelling.
    #[inline(always)]
    pub(crate) fn decides(len: usize) -> bool {
        len <= Self::DECIDES_UP_TO
    }

    /// The spelling of `name`.
    #[inline(always)]
    pub(crate) fn of(name: &str) -> Spelling {
        Spelling {
            len: name.len(),
            words: words(name.as_bytes()),
        }
    }

    /// The spelling folded into a word, for a [`QuickIndex`]: equal spellings give equal
    /// keys, and the names of one `properties` table almost always distinct ones (those
    /// that collide get no quick index).
    #[inline(always)]
    pub(crate) fn key(self) -> u64 {
        let (first, last) = self.words;
        (first ^ last.rotate_left(29)).wrapping_add(self.len as u64)
    }
}

/// Two words that, with the length, determine a string of up to 16 bytes: its first and
/// last 8 bytes (overlapping), or 4 and 4, or three bytes that cover up to 3.
#[inline(always)]
fn words(bytes: &[u8]) -> (u64, u64) {
    let n = bytes.len();
    match n {
        0 => (0, 0),
        1..=3 => {
            let byte = |at: usize| u64::from(bytes[at]);
            (byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16, 0)
        }
        4..=7 => (half(bytes, 0), half(bytes, n - 4)),
        _ => (word(bytes, 0), word(bytes, n - 8)),
    }
}

/// The 8 bytes at `at`.
#[inline(always)]
pub(crate) fn word(bytes: &[u8], at: usize) -> u64 {
    let mut buf = [0; 8];
    buf.copy_from_slice(&bytes[at..at + 8]);
    u64::from_ne_bytes(buf)
}

/// The 4 bytes at `at`, as the low half of a word.
#[inline(always)]
pub(crate) fn half(bytes: &[u8], at: usize) -> u64 {
    let mut buf = [0; 4];
    buf.copy_from_slice(&bytes[at..at + 4]);
    u64::from(u32::from_ne_bytes(buf))
}

/// A fixed set of names found by [`probe`] word, then one [`same_bytes`] compare: the
/// strings of an `enum`, the tag values of a `oneOf` switch. Positions are in probe
/// order, which [`NameSet::names`] lists.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameSet {
    /// [`probe`] of each name, ascending.
    probes: Box<[u64]>,
    /// The distinct names, in probe order.
    names: Box<[Box<str>]>,
    /// For a set of more than [`NameSet::SCAN_UP_TO`] names, an index that leaves one
    /// candidate to compare (the names of large enums often share their probe words:
    /// same lengths, same first letters).
    index: Option<SetIndex>,
}

/// The index of a [`NameSet`].
#[derive(Clone, Debug)]
enum SetIndex {
    /// A small set whose names are all decided by their [`Spelling`]: the spellings, in
    /// position order, compared with a text's (the short `enum`s of tool schemas: a
    /// spelling and a few word compares, no name read a pointer away).
    Spelled(Box<[Spelling]>),
    Quick(QuickIndex),
    Probed(ProbedIndex),
}

/// An open-addressing table of a set's positions by a cheap hash of each name's length
/// and [`words`] (hashing a middle word too cost 1.8% of warm validation): built in one
/// pass, with no search for a hash (an `enum` of hundreds of strings, a `properties` of
/// a hundred names), looked up by one hash and, at a quarter load, a slot or two
/// compared.
///
/// Names that agree on all the hash reads share a home slot. A table whose names would
/// sit more than [`ProbedIndex::MAX_PROBES`] slots from home is not built (the caller
/// falls back to its general lookup), so that many lookalike names do not make every
/// lookup of a known name walk their run.
#[derive(Clone, Debug)]
pub(crate) struct ProbedIndex {
    shift: u32,
    /// Position + 1 of a name in each slot; 0 for none.
    slots: Box<[u32]>,
}

impl ProbedIndex {
    /// How far from its home slot a name may be placed.
    const MAX_PROBES: usize = 32;

    /// The index of `names` (distinct), unless they are too many or too alike.
    pub(crate) fn build(names: &[&str]) -> Option<ProbedIndex> {
        let bits = (4 * names.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        if bits > 28 {
            return None;
        }
        let mut index = ProbedIndex {
            shift: 64 - bits,
            slots: vec![0; 1 << bits].into_boxed_slice(),
        };
        let mask = index.slots.len() - 1;
        for (i, name) in names.iter().enumerate() {
            let mut slot = index.start(Spelling::of(name));
            let mut probes = 0;
            while index.slots[slot] != 0 {
                probes += 1;
                if probes > Self::MAX_PROBES {
                    return None;
                }
                slot = (slot + 1) & mask;
            }
            index.slots[slot] = i as u32 + 1;
        }
        Some(index)
    }

    /// The slot a name spelled `spelling` is looked for from (its home).
    #[inline(always)]
    pub(crate) fn start(&self, spelling: Spelling) -> usize {
        let (first, last) = spelling.words;
        let mixed = (first ^ (spelling.len as u64).rotate_left(47))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ last.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (mixed >> self.shift) as usize
    }

    /// The position in slot `slot`, `None` for an empty one (the end of a search), and
    /// the slot to look in next.
    #[inline(always)]
    pub(crate) fn at(&self, slot: usize) -> Option<(usize, usize)> {
        let at = (*self.slots.get(slot)? as usize).checked_sub(1)?;
        Some((at, (slot + 1) & (self.slots.len() - 1)))
    }

    /// The position of `name` among the names the index was built of, which `name_at`
    /// gives by position. Ends at the first empty slot (three in four are), so it reads at
    /// most one slot more than the table has names. (Stopping after
    /// [`ProbedIndex::MAX_PROBES`] + 1 slots as well cost 1.5% of warm validation.)
    #[inline(always)]
    pub(crate) fn find<'n>(
        &self,
        name: &str,
        name_at: impl Fn(usize) -> Option<&'n [u8]>,
    ) -> Option<usize> {
        let mut slot = self.start(Spelling::of(name));
        loop {
            let (at, next) = self.at(slot)?;
            if same_bytes(name_at(at)?, name.as_bytes()) {
                return Some(at);
            }
            slot = next;
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        crate::memory::slice(&self.slots)
    }
}

impl NameSet {
    /// Sets shorter than this are scanned rather than searched.
    const SCAN_UP_TO: usize = 8;

    /// Sets of up to this many names, each decided by its spelling, are scanned by
    /// spelling ([`SetIndex::Spelled`]).
    const SPELLED_UP_TO: usize = 8;

    /// The set of `names` (duplicates kept once).
    pub(crate) fn new<'n>(names: impl IntoIterator<Item = &'n str>) -> NameSet {
        let mut entries: Vec<(u64, &str)> = names.into_iter().map(|s| (probe(s), s)).collect();
        entries.sort_unstable();
        entries.dedup();
        let names: Vec<&str> = entries.iter().map(|&(_, s)| s).collect();
        let spelled = names.iter().all(|name| Spelling::decides(name.len()));
        let index = match names.len() {
            0..=Self::SPELLED_UP_TO if spelled => Some(SetIndex::Spelled(
                names.iter().map(|name| Spelling::of(name)).collect(),
            )),
            0..=Self::SCAN_UP_TO => None,
            _ => (QuickIndex::build(&names).map(SetIndex::Quick))
                .or_else(|| ProbedIndex::build(&names).map(SetIndex::Probed)),
        };
        NameSet {
            probes: entries.iter().map(|&(p, _)| p).collect(),
            names: names.iter().map(|&s| Box::from(s)).collect(),
            index,
        }
    }

    /// The bytes of the name at `position`.
    #[inline(always)]
    fn bytes(&self, position: usize) -> Option<&[u8]> {
        self.names.get(position).map(|name| name.as_bytes())
    }

    /// The name at `position` (below [`NameSet::len`]).
    pub(crate) fn name(&self, position: usize) -> &str {
        &self.names[position]
    }

    /// How many names the set holds.
    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// The position of `name` in [`NameSet::names`], if the set holds it: by spelling
    /// in line (the few short strings of an `enum`), by [`NameSet::indexed`] otherwise.
    #[inline(always)]
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(SetIndex::Spelled(spellings)) => Self::spelled(spellings, name),
            _ => self.indexed(name),
        }
    }

    /// [`NameSet::position`] out of line, for a set of any index.
    #[inline(never)]
    fn indexed(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(SetIndex::Spelled(spellings)) => Self::spelled(spellings, name),
            Some(SetIndex::Quick(index)) => self.quick(index, name),
            Some(SetIndex::Probed(index)) => index.find(name, |i| self.bytes(i)),
            None => self.scanned(name),
        }
    }

    /// [`NameSet::position`] of each of `keys` that the set holds, passed to `found` with
    /// what comes with the key: the kind of index decided once for all of them, and the
    /// lookup inlined into a loop of its own (a formula's names looked up for every key
    /// of an object).
    #[inline(always)]
    pub(crate) fn each_position<'k, T>(
        &self,
        keys: impl Iterator<Item = (&'k str, T)>,
        found: impl FnMut(usize, T),
    ) {
        match &self.index {
            Some(SetIndex::Spelled(spellings)) => each(
                keys,
                found,
                #[inline(always)]
                |name| Self::spelled(spellings, name),
            ),
            Some(SetIndex::Quick(index)) => each(
                keys,
                found,
                #[inline(always)]
                |name| self.quick(index, name),
            ),
            Some(SetIndex::Probed(index)) => each(
                keys,
                found,
                #[inline(always)]
                |name| index.find(name, |i| self.bytes(i)),
            ),
            None => each(
                keys,
                found,
                #[inline(always)]
                |name| self.scanned(name),
            ),
        }
    }

    /// [`NameSet::position`] by spelling ([`SetIndex::Spelled`]).
    #[inline(always)]
    fn spelled(spellings: &[Spelling], name: &str) -> Option<usize> {
        let spelling = Spelling::of(name);
        spellings.iter().position(|&known| known == spelling)
    }

    /// [`NameSet::position`] by a [`QuickIndex`]: its candidate, compared.
    #[inline(always)]
    fn quick(&self, index: &QuickIndex, name: &str) -> Option<usize> {
        let at = index.candidate(Spelling::of(name));
        same_bytes(self.bytes(at)?, name.as_bytes()).then_some(at)
    }

    /// [`NameSet::position`] by a scan of the probe words (from where a binary search
    /// puts `name`'s, for a set without an index).
    fn scanned(&self, name: &str) -> Option<usize> {
        let probe = probe(name);
        let start = if self.probes.len() <= Self::SCAN_UP_TO {
            0
        } else {
            self.probes.partition_point(|&p| p < probe)
        };
        for (i, &p) in self.probes.iter().enumerate().skip(start) {
            if p == probe && same_bytes(self.names[i].as_bytes(), name.as_bytes()) {
                return Some(i);
            }
            if p > probe {
                break;
            }
        }
        None
    }

    /// The names, in the order [`NameSet::position`] counts.
    pub(crate) fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.names.iter().map(|name| &**name)
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        let index = match &self.index {
            Some(SetIndex::Spelled(spellings)) => crate::memory::slice(spellings),
            Some(SetIndex::Quick(index)) => index.memory_usage(),
            Some(SetIndex::Probed(index)) => index.memory_usage(),
            None => 0,
        };
        index
            + crate::memory::slice(&self.probes)
            + crate::memory::slice(&self.names)
            + self
                .names
                .iter()
                .map(|name| crate::memory::text(name))
                .sum::<usize>()
    }
}

/// Calls `found` with the `position` of each of `keys` that has one (see
/// [`NameSet::each_position`]).
#[inline(always)]
fn each<'k, T>(
    keys: impl Iterator<Item = (&'k str, T)>,
    mut found: impl FnMut(usize, T),
    position: impl Fn(&str) -> Option<usize>,
) {
    for (key, with) in keys {
        if let Some(at) = position(key) {
            found(at, with);
        }
    }
}

/// The index of a short list of names (up to [`QuickIndex::MAX_NAMES`]) whose
/// [`Spelling::key`]s are all distinct: a multiplier chosen at compile time sends each to
/// a slot of its own in a table of at most 256 bytes. A lookup is the key's spelling
/// (which the comparison that follows needs anyway), a multiply, a shift, one byte load
/// and the one comparison, where a scan compares up to every name's probe.
#[derive(Clone, Debug)]
pub(crate) struct QuickIndex {
    multiplier: u64,
    shift: u32,
    /// Position of the name in each slot; [`QuickIndex::EMPTY`] for none, a position
    /// past the end of any list indexed, so that the bounds check of the caller's fetch
    /// by the position is also the check for an empty slot.
    slots: Box<[u8]>,
}

impl QuickIndex {
    /// The most names an index is built for (positions must fit a byte).
    pub(crate) const MAX_NAMES: usize = 24;

    /// The content of an empty slot.
    const EMPTY: u8 = u8::MAX;

    /// Multipliers tried per table size.
    const TRIES: u32 = 16;

    /// An index of `names` (distinct), if their [`Spelling::key`]s are distinct and a
    /// multiplier separates them in a table of 4 to 16 slots per name (at most 256).
    pub(crate) fn build(names: &[&str]) -> Option<Self> {
        if names.len() > Self::MAX_NAMES {
            return None;
        }
        let keys: SmallVec<[u64; 16]> = names.iter().map(|name| Spelling::of(name).key()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
            return None;
        }
        // At 4 to 8 slots per name a multiplier that separates them is found within a
        // few tries (at 2 per name, 20 names collide under 96% of multipliers).
        let smallest = (4 * names.len()).next_power_of_two().max(8);
        let mut slots: SmallVec<[u8; 256]> = SmallVec::new();
        let mut size = smallest;
        while size <= 256 && size <= 2 * smallest {
            let shift = 64 - size.trailing_zeros();
            for k in 0..u64::from(Self::TRIES) {
                // Odd multipliers spread the key's bytes into the top bits.
                let multiplier = 0x9e37_79b9_7f4a_7c15_u64
                    .wrapping_add(k.wrapping_mul(0xc2b2_ae3d_27d4_eb4e))
                    | 1;
                slots.clear();
                slots.resize(size, Self::EMPTY);
                let placed = keys.iter().enumerate().all(|(i, &key)| {
                    let slot = (key.wrapping_mul(multiplier) >> shift) as usize;
                    let free = slots[slot] == Self::EMPTY;
                    slots[slot] = i as u8;
                    free
                });
                if placed {
                    return Some(QuickIndex {
                        multiplier,
                        shift,
                        slots: slots.as_slice().into(),
                    });
                }
            }
            size *= 2;
        }
        None
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(self.multiplier) >> self.shift) as usize
    }

    /// The only position a name spelled `spelling` can have in the list (not yet
    /// compared), or a position past the list's end when no name of the list has that
    /// spelling: the caller fetches what it compares by the position, bounds checked.
    #[inline(always)]
    pub(crate) fn candidate(&self, spelling: Spelling) -> usize {
        let at = self.slots.get(self.slot(spelling.key()));
        usize::from(at.map_or(Self::EMPTY, |&at| at))
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        crate::memory::slice(&self.slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn same_bytes_is_byte_equality() {
        // Every length around the word-size cases, equal or differing at each position.
        for len in 0..40 {
            let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()), "{len}");
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "{len} {at}");
            }
            assert!(!same_bytes(&a, &[a.as_slice(), b"x"].concat()));
        }
    }

    /// A lookup in a [`ProbedIndex`] of `names`.
    fn probed<'n>(
        index: &ProbedIndex,
        names: &'n [&'n str],
    ) -> impl Fn(&str) -> Option<usize> + 'n {
        let index = index.clone();
        move |name| index.find(name, |i| names.get(i).map(|name| name.as_bytes()))
    }

    #[test]
    fn a_probed_index_finds_real_names_and_no_others() {
        let names: Vec<String> = (0..300)
            .map(|i| format!("{}{i}", ["a", "prop", "x-vendor-extension-", "Z"][i % 4]))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let find = probed(&ProbedIndex::build(&names).unwrap(), &names);
        for (i, name) in names.iter().enumerate() {
            assert_eq!(find(name), Some(i), "{name}");
        }
        for other in ["", "b", "prop", "a1000", "x-vendor-extension-"] {
            assert_eq!(find(other), None, "{other}");
        }
    }

    /// An index's `candidate` gives each of `names` its own position, and once confirmed
    /// by [`same_bytes`] finds none of `others` but those among `names`.
    fn finds_exactly(
        names: &[&str],
        others: &[String],
        candidate: impl Fn(&str) -> Option<usize>,
    ) -> Result<(), TestCaseError> {
        for (i, name) in names.iter().enumerate() {
            prop_assert_eq!(candidate(name), Some(i));
        }
        for other in others {
            let found =
                candidate(other).filter(|&i| same_bytes(names[i].as_bytes(), other.as_bytes()));
            prop_assert_eq!(found.is_some(), names.contains(&other.as_str()));
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn a_probed_index_finds_each_name_and_no_other(
            names in proptest::collection::btree_set(
                "[a-e]{0,3}|[A-Za-z_$-]{1,40}|prefix-[ab]{0,12}-suffix", 1..200),
            others in proptest::collection::vec(
                "[a-e]{0,4}|[A-Za-z_$-]{1,40}|prefix-[ab]{0,12}-suffix", 0..20),
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            if let Some(index) = ProbedIndex::build(&names) {
                finds_exactly(&names, &others, probed(&index, &names))?;
            }
        }

        #[test]
        fn same_bytes_agrees_with_equality(a in "[ab]{0,40}", b in "[ab]{0,40}") {
            prop_assert_eq!(same_bytes(a.as_bytes(), b.as_bytes()), a == b);
        }
    }

    proptest! {
        #[test]
        fn a_name_set_finds_each_name_and_no_other(
            // Up to hundreds of names, some long and alike: spelled, scanned,
            // quick-indexed and probed sets alike, the short `enum`s (up to eight
            // names) drawn as often as the rest.
            (names, others) in prop_oneof![
                (proptest::collection::btree_set(
                    "[a-e]{0,3}|[A-Za-z_$-]{1,12}|prefix-[ab]{0,12}-suffix", 0..300),
                 proptest::collection::vec(
                    "[a-e]{0,4}|[A-Za-z_$-]{1,12}|prefix-[ab]{0,12}-suffix", 0..20)),
                (proptest::collection::btree_set(
                    "[a-c]{0,3}|[a\u{e9}]{1,9}|prefix-[ab]{0,12}-suffix", 0..10),
                 proptest::collection::vec(
                    "[a-c]{0,4}|[a\u{e9}]{1,9}|prefix-[ab]{0,12}-suffix", 0..20)),
            ],
        ) {
            let set = NameSet::new(names.iter().map(String::as_str));
            let listed: Vec<&str> = set.names().collect();
            prop_assert_eq!(listed.len(), names.len());
            finds_exactly(&listed, &others, |name| set.position(name))?;
            // The loop over an object's keys finds what the lookup of each finds.
            let keys: Vec<String> = names.iter().chain(&others).cloned().collect();
            let mut looped = Vec::new();
            let pairs = keys.iter().map(|key| (key.as_str(), key));
            set.each_position(pairs, |at, key| looped.push((at, key)));
            let each: Vec<_> = (keys.iter())
                .filter_map(|key| Some((set.position(key)?, key)))
                .collect();
            prop_assert_eq!(looped, each);
        }
    }

    proptest! {
        #[test]
        fn a_quick_index_finds_each_name_and_no_other(
            names in proptest::collection::btree_set("[a-e]{0,3}|[A-Za-z_$-]{1,12}", 1..40),
            others in proptest::collection::vec("[a-e]{0,4}|[A-Za-z_$-]{1,12}", 0..20),
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            if let Some(index) = QuickIndex::build(&names) {
                finds_exactly(&names, &others, |name| {
                    Some(index.candidate(Spelling::of(name))).filter(|&at| at < names.len())
                })?;
            }
        }
    }

    #[test]
    fn a_quick_index_is_built_for_real_names_and_not_for_lookalikes() {
        let names = [
            "name",
            "version",
            "description",
            "main",
            "scripts",
            "keywords",
            "author",
            "license",
            "dependencies",
            "devDependencies",
            "repository",
            "bugs",
        ];
        assert!(QuickIndex::build(&names).is_some());
        // Same length, first and last 8 bytes: no index can tell them apart by those.
        assert!(QuickIndex::build(&["abcdefgh-1-abcdefgh", "abcdefgh-2-abcdefgh"]).is_none());
    }

    #[test]
    fn names_only_their_hashed_words_tell_apart_get_no_index_past_a_few() {
        // Same length (40) and first and last 8 bytes, differing in bytes 8 to 10: one
        // home slot for all of them.
        let alike = |count: usize| -> Vec<String> {
            let rest = "x".repeat(29);
            (0..count)
                .map(|i| format!("prefixAB{i:03}{rest}"))
                .collect()
        };
        let few = alike(ProbedIndex::MAX_PROBES);
        let few: Vec<&str> = few.iter().map(String::as_str).collect();
        let index = ProbedIndex::build(&few).unwrap();
        finds_exactly(&few, &[], probed(&index, &few)).unwrap();
        let many = alike(ProbedIndex::MAX_PROBES + 2);
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(ProbedIndex::build(&many).is_none());
        // A name set of them still finds each (by its scan).
        let set = NameSet::new(many.iter().copied());
        let listed: Vec<&str> = set.names().collect();
        finds_exactly(&listed, &["prefix".to_string()], |name| set.position(name)).unwrap();
    }
}
