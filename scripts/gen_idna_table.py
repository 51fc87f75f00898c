#!/usr/bin/env python3
"""Regenerates src/formats/idna_table.rs for the IDNA2008 checks.

    python3 src/formats/gen_idna_table.py

Needs Python 3 (its `unicodedata`: categories, Bidi classes, combining
classes, normalization, case folding) and Perl (for the Unicode properties
`unicodedata` lacks: Default_Ignorable_Code_Point, White_Space,
Noncharacter_Code_Point, Joining_Type, Script, Hangul_Syllable_Type). Both
must implement the same Unicode version; the script checks that and names it
in the output. Takes a few seconds.

The derived property of every code point is computed with the algorithm of
RFC 5892 section 3 (exceptions of section 2.6, no backward-compatible
entries); see derived() below.
"""
import collections
import os
import subprocess
import unicodedata as ud

PERL = r'''
no warnings 'utf8';
print "VERSION ", Unicode::UCD::UnicodeVersion(), "\n";
my @props = (
  ['DI', qr/\p{Default_Ignorable_Code_Point}/], ['WS', qr/\p{White_Space}/],
  ['NCH', qr/\p{Noncharacter_Code_Point}/],
  ['JT_D', qr/\p{Joining_Type=Dual_Joining}/], ['JT_L', qr/\p{Joining_Type=Left_Joining}/],
  ['JT_R', qr/\p{Joining_Type=Right_Joining}/], ['JT_T', qr/\p{Joining_Type=Transparent}/],
  ['SC_Greek', qr/\p{Script=Greek}/], ['SC_Hebrew', qr/\p{Script=Hebrew}/],
  ['SC_Hiragana', qr/\p{Script=Hiragana}/], ['SC_Katakana', qr/\p{Script=Katakana}/],
  ['SC_Han', qr/\p{Script=Han}/],
  ['HST', qr/[\p{Hangul_Syllable_Type=L}\p{Hangul_Syllable_Type=V}\p{Hangul_Syllable_Type=T}]/],
);
for my $p (@props) {
  my ($name, $re) = @$p; my $start = -1;
  for my $cp (0 .. 0x110000) {
    my $m = $cp < 0x110000 && ($cp < 0xD800 || $cp > 0xDFFF) && chr($cp) =~ $re;
    if ($m && $start < 0) { $start = $cp }
    if (!$m && $start >= 0) { print "$name $start ", $cp - 1, "\n"; $start = -1 }
  }
}
'''

props = collections.defaultdict(set)
perl_version = None
for line in subprocess.run(['perl', '-MUnicode::UCD', '-e', PERL], check=True,
                           capture_output=True, text=True).stdout.splitlines():
    name, a, *b = line.split()
    if name == 'VERSION':
        perl_version = a
    else:
        props[name].update(range(int(a), int(b[0]) + 1))
assert perl_version == ud.unidata_version, (perl_version, ud.unidata_version)

EXC_PVALID = {0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007}
EXC_CONTEXTO = ({0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB}
                | set(range(0x0660, 0x066A)) | set(range(0x06F0, 0x06FA)))
EXC_DISALLOWED = {0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033,
                  0x3034, 0x3035, 0x303B}
IGNORABLE_BLOCKS = (set(range(0x20D0, 0x2100)) | set(range(0x1D100, 0x1D200))
                    | set(range(0x1D200, 0x1D250)))
LETTER_DIGITS = {'Ll', 'Lu', 'Lo', 'Nd', 'Lm', 'Mn', 'Mc'}


def derived(cp):
    """RFC 5892 section 3 derived property of `cp`."""
    if cp in EXC_PVALID:
        return 'PVALID'
    if cp in EXC_CONTEXTO:
        return 'CONTEXTO'
    if cp in EXC_DISALLOWED or 0xD800 <= cp <= 0xDFFF:
        return 'DISALLOWED'
    c = chr(cp)
    if ud.category(c) == 'Cn' and cp not in props['NCH']:
        return 'UNASSIGNED'
    if cp == 0x2D or 0x30 <= cp <= 0x39 or 0x61 <= cp <= 0x7A:
        return 'PVALID'
    if cp in (0x200C, 0x200D):
        return 'CONTEXTJ'
    if ud.normalize('NFKC', ud.normalize('NFKC', c).casefold()) != c:
        return 'DISALLOWED'  # Unstable
    if cp in props['DI'] or cp in props['WS'] or cp in props['NCH']:
        return 'DISALLOWED'  # IgnorableProperties
    if cp in IGNORABLE_BLOCKS or cp in props['HST']:
        return 'DISALLOWED'  # IgnorableBlocks, OldHangulJamo
    if ud.category(c) in LETTER_DIGITS:
        return 'PVALID'
    return 'DISALLOWED'


KIND = {'PVALID': 1, 'CONTEXTO': 2, 'CONTEXTJ': 3}
JT = {'D': 1, 'L': 2, 'R': 3, 'T': 4}
SC = {'Greek': 1, 'Hebrew': 2, 'Hiragana': 3, 'Katakana': 4, 'Han': 5}
BIDI = {'L': 0, 'R': 1, 'AL': 2, 'AN': 3, 'EN': 4, 'ES': 5, 'CS': 6, 'ET': 7,
        'ON': 8, 'BN': 9, 'NSM': 10}


def packed(cp, kind):
    """The property word documented in the generated file."""
    c = chr(cp)
    v = KIND[kind]
    if ud.category(c)[0] == 'M':
        v |= 1 << 2
    for k, j in JT.items():
        if cp in props['JT_' + k]:
            v |= j << 4
    for k, s in SC.items():
        if cp in props['SC_' + k]:
            v |= s << 7
    v |= BIDI.get(ud.bidirectional(c), 11) << 10
    v |= ud.combining(c) << 16
    return v


ranges = []
allowed = set()
for cp in range(0x110000):
    kind = derived(cp)
    if kind in KIND:
        allowed.add(cp)
        v = packed(cp, kind)
        if ranges and ranges[-1][1] == cp - 1 and ranges[-1][2] == v:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp, v])

pairs = []
for cp in range(0x110000):
    d = ud.decomposition(chr(cp))
    if not d or d.startswith('<'):
        continue
    parts = [int(x, 16) for x in d.split()]
    if (len(parts) == 2 and parts[0] in allowed and parts[1] in allowed
            and ud.normalize('NFC', chr(parts[0]) + chr(parts[1])) == chr(cp)):
        pairs.append(tuple(parts))
pairs.sort()

char_lines = ['    ' + ' '.join('(0x%05X, 0x%05X, 0x%06X),' % tuple(e) for e in ranges[i:i + 4])
              for i in range(0, len(ranges), 4)]
pair_lines = ['    ' + ' '.join('(0x%05X, 0x%05X),' % p for p in pairs[i:i + 6])
              for i in range(0, len(pairs), 6)]

SRC = '''//! Generated IDNA2008 character data (Unicode %s) by `gen_idna_table.py`;
//! do not edit by hand.
//!
//! [`CHARS`] has one sorted, non-overlapping range per run of code points
//! sharing the same properties. Only code points that RFC 5892 permits in a
//! U-label are listed (derived property PVALID, CONTEXTJ or CONTEXTO, computed
//! with the algorithm of RFC 5892 section 3 including the exceptions of
//! section 2.6); every code point absent from it is DISALLOWED or UNASSIGNED.
//!
//! [`COMPOSITIONS`] lists the canonical compositions between such code
//! points, for the Normalization Form C check.
//!
//! The third field of [`CHARS`] packs the properties the label rules consult:
//!
//! | bits  | meaning                                                        |
//! |-------|----------------------------------------------------------------|
//! | 0-1   | derived property: 1 PVALID, 2 CONTEXTO, 3 CONTEXTJ             |
//! | 2     | General_Category is a combining mark (M)                       |
//! | 4-6   | Joining_Type: 0 other, 1 D, 2 L, 3 R, 4 T                       |
//! | 7-9   | Script: 0 other, 1 Greek, 2 Hebrew, 3 Hiragana, 4 Katakana, 5 Han |
//! | 10-13 | Bidi_Class: 0 L, 1 R, 2 AL, 3 AN, 4 EN, 5 ES, 6 CS, 7 ET, 8 ON, 9 BN, 10 NSM, 11 other |
//! | 16-23 | Canonical_Combining_Class                                      |

/// `(first, last, properties)` for every run of U-label code points.
#[rustfmt::skip]
pub(super) static CHARS: [(u32, u32, u32); %d] = [
%s
];

/// `(starter, combining)` pairs of U-label code points that canonically
/// compose into a primary composite (so a U-label containing such a pair,
/// unblocked, is not in Normalization Form C). Sorted.
#[rustfmt::skip]
pub(super) static COMPOSITIONS: [(u32, u32); %d] = [
%s
];
''' % (ud.unidata_version, len(ranges), '\n'.join(char_lines), len(pairs), '\n'.join(pair_lines))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'formats', 'idna_table.rs')
with open(out, 'w', encoding='utf-8') as f:
    f.write(SRC)
print('wrote %s: %d ranges, %d compositions' % (out, len(ranges), len(pairs)))
