//! Checkers for the `format` keyword's known formats.
//!
//! JSON Schema treats `format` as an annotation unless format assertion is
//! switched on (and the draft 4/6/7 suites assert it in their optional
//! tests); when it asserts, the validator asks [`lookup`] for the named
//! format's checker and runs it on string instances. Formats this library does
//! not know are ignored, so [`lookup`] returns `None` for them.
//!
//! Every checker is a plain `fn(&str) -> bool` written against the grammar of
//! the RFC that defines the format, without regular expressions or heap
//! allocation (apart from `regex`, which compiles the pattern), and never
//! panics: checkers run on untrusted instance strings.
//!
//! Files: [`datetime`] (`date`, `time`, `date-time`, `duration`), [`email`]
//! (`email`, `idn-email`), [`hostname`] with [`idna`], [`punycode`] and the
//! generated [`idna_table`] (`hostname`, `idn-hostname`), [`ip`] (`ipv4`,
//! `ipv6`), [`uri`] (`uri`, `uri-reference`, `iri`, `iri-reference`),
//! [`uri_template`] (`uri-template`), and here `uuid`, `json-pointer`,
//! `relative-json-pointer` and `regex`.

mod datetime;
mod email;
mod hostname;
mod idna;
mod idna_table;
mod ip;
mod punycode;
mod uri;
mod uri_template;

/// A known format's checker: returns true if `value` conforms.
pub(crate) type FormatCheck = fn(&str) -> bool;

/// A checker registered with
/// [`ValidationOptions::with_format`](crate::ValidationOptions::with_format): any
/// closure, shared by the options and every program compiled with them.
pub(crate) type CustomCheck = std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The checker a `format` assertion runs: a built-in function (no allocation), or one
/// registered by the user.
#[derive(Clone)]
pub(crate) enum Checker {
    /// One of [`lookup`]'s.
    Builtin(FormatCheck),
    /// A registered closure.
    Custom(CustomCheck),
}

impl Checker {
    /// Whether `value` conforms.
    #[inline]
    pub(crate) fn accepts(&self, value: &str) -> bool {
        match self {
            Checker::Builtin(check) => check(value),
            Checker::Custom(check) => check(value),
        }
    }
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Checker::Builtin(check) => write!(f, "Builtin({check:p})"),
            Checker::Custom(_) => f.write_str("Custom"),
        }
    }
}

/// Looks up a format by name; None for a format this library does not know
/// (unknown formats are ignored by the validator).
pub(crate) fn lookup(name: &str) -> Option<FormatCheck> {
    let check: FormatCheck = match name {
        "date" => datetime::is_date,
        "date-time" => datetime::is_date_time,
        "time" => datetime::is_time,
        "duration" => datetime::is_duration,
        "email" => email::is_email,
        "idn-email" => email::is_idn_email,
        "hostname" => hostname::is_hostname,
        "idn-hostname" => hostname::is_idn_hostname,
        "ipv4" => ip::is_ipv4,
        "ipv6" => ip::is_ipv6,
        "uri" => uri::is_uri,
        "uri-reference" => uri::is_uri_reference,
        "iri" => uri::is_iri,
        "iri-reference" => uri::is_iri_reference,
        "uri-template" => uri_template::is_uri_template,
        "uuid" => is_uuid,
        "json-pointer" => is_json_pointer,
        "relative-json-pointer" => is_relative_json_pointer,
        "regex" => is_regex,
        _ => return None,
    };
    Some(check)
}

/// `uuid`: the RFC 9562 (formerly RFC 4122) section 4 string form.
///
/// 32 hexadecimal digits in either case, grouped 8-4-4-4-12 by hyphens. Any
/// version and variant is accepted (including the nil and max UUIDs), as the
/// string syntax does not restrict them.
fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// `json-pointer`: an RFC 6901 section 3 JSON Pointer in its string form.
///
/// Empty, or a sequence of `/`-prefixed reference tokens in which every `~`
/// is followed by `0` or `1`. (The URI fragment form, `#/...`, is not a JSON
/// Pointer string.)
fn is_json_pointer(s: &str) -> bool {
    (s.is_empty() || s.starts_with('/')) && tildes_escaped(s)
}

/// Every `~` in `s` starts a `~0` or `~1` escape.
fn tildes_escaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, &c)| c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

/// `relative-json-pointer`: a Relative JSON Pointer
/// (draft-bhutton-relative-json-pointer-00 section 3).
///
/// A non-negative integer without leading zeros, optionally followed by an
/// index adjustment (`+` or `-` and a positive integer, as added by that
/// draft), then either `#` or a [`is_json_pointer`] JSON Pointer.
fn is_relative_json_pointer(s: &str) -> bool {
    let Some(rest) = strip_integer(s, true) else {
        return false;
    };
    let rest = match rest.strip_prefix(['+', '-']) {
        Some(adjusted) => match strip_integer(adjusted, false) {
            Some(rest) => rest,
            None => return false,
        },
        None => rest,
    };
    rest == "#" || is_json_pointer(rest)
}

/// Strips a decimal integer without leading zeros from the front of `s`;
/// `zero` says whether `0` itself is allowed.
fn strip_integer(s: &str, zero: bool) -> Option<&str> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    match s.as_bytes() {
        [b'0', ..] if zero && digits == 1 => Some(&s[1..]),
        [b'1'..=b'9', ..] => Some(&s[digits..]),
        _ => None,
    }
}

/// `regex`: a regular expression in the ECMA-262 dialect JSON Schema uses
/// (draft 2020-12 validation section 7.3.1), checked by the same translator as the
/// `pattern` keyword, without building an engine: the string is the instance's, and a
/// size only an engine minds does not make a regular expression invalid.
fn is_regex(s: &str) -> bool {
    crate::regex::is_valid(s)
}

#[cfg(test)]
mod tests {
    use super::lookup;

    /// Asserts that every `valid` string passes `format` and every `invalid`
    /// one fails it.
    fn check(format: &str, valid: &[&str], invalid: &[&str]) {
        let f = lookup(format).unwrap_or_else(|| panic!("{format} is not known"));
        for s in valid {
            assert!(f(s), "{format}: {s:?} should be valid");
        }
        for s in invalid {
            assert!(!f(s), "{format}: {s:?} should be invalid");
        }
    }

    #[test]
    fn unknown_formats_are_not_known() {
        assert!(lookup("unknown").is_none());
        assert!(lookup("DATE").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn date() {
        check(
            "date",
            &[
                "1963-06-19",
                "2020-02-29",
                "2000-02-29",
                "0000-01-01",
                "9999-12-31",
            ],
            &[
                "2021-02-29",
                "1900-02-29",
                "2020-04-31",
                "2020-13-01",
                "2020-00-10",
                "2020-01-00",
                "1998-1-20",
                "20230328",
                "2023-W01",
                "2013-350",
                "1963-06-1\u{09ea}",
                "2020-01-01 ",
                "",
            ],
        );
    }

    #[test]
    fn time() {
        check(
            "time",
            &[
                "08:30:06Z",
                "08:30:06z",
                "23:20:50.52Z",
                "08:30:06-08:00",
                "23:59:60Z",
                "15:59:60-08:00",
                "01:29:60+01:30",
                "00:29:60-23:30",
                "23:59:59.999+23:59",
            ],
            &[
                "22:59:60Z",
                "23:58:60Z",
                "23:59:60+01:00",
                "24:00:00Z",
                "00:60:00Z",
                "00:00:61Z",
                "01:02:03+24:00",
                "01:02:03+00:60",
                "01:02:03Z+00:30",
                "12:00:00",
                "12:00:00.Z",
                "08:30:06-8:000",
                "12:00:00+0100",
                "01:01:01,1111",
                "1\u{09e8}:00:00Z",
                "ab:cd:ef",
            ],
        );
    }

    #[test]
    fn date_time() {
        check(
            "date-time",
            &[
                "1963-06-19T08:30:06.283185Z",
                "1963-06-19t08:30:06.283185z",
                "1998-12-31T23:59:60Z",
                "1998-12-31T15:59:60.123-08:00",
            ],
            &[
                "1998-12-31T23:59:61Z",
                "1998-12-31T22:59:60Z",
                "1990-02-31T15:59:59.123-08:00",
                "1963-06-19 08:30:06Z",
                "1963-06-19T08:30:06",
                "2013-350T01:01:01",
                "1963-06-19T",
            ],
        );
    }

    #[test]
    fn duration() {
        check(
            "duration",
            &[
                "P4DT12H30M5S",
                "P4Y",
                "PT0S",
                "P0D",
                "P1M",
                "PT1M",
                "PT36H",
                "P2W",
                "P1Y2M3DT4H5M6S",
                "P1M2D",
                "PT1M2S",
                "P01D",
            ],
            &[
                "PT1D",
                "P",
                "PT",
                "P1YT",
                "P2D1Y",
                "P1D2H",
                "P2S",
                "P1Y2W",
                "P1WT1H",
                "P1",
                "P1Y2D",
                "PT1H2S",
                "PT0.5S",
                "-P1D",
                "P1D ",
                "P\u{09e8}Y",
            ],
        );
    }

    #[test]
    fn email() {
        check(
            "email",
            &[
                "joe.bloggs@example.com",
                "te~st@example.com",
                "\"joe bloggs\"@example.com",
                "\"joe@bloggs\"@example.com",
                "\"\\\"\"@iana.org",
                "joe.bloggs@[127.0.0.1]",
                "joe.bloggs@[IPv6:::1]",
                "a@[ipv6:::]",
                "a@b",
                "test@c--n.com",
                "test@xn--hxajbheg2az3al.xn--jxalpdlp",
            ],
            &[
                "2962",
                ".test@example.com",
                "test.@example.com",
                "te..st@example.com",
                "joe.bloggs@invalid=domain.com",
                "joe.bloggs@[127.0.0.300]",
                "@example.com",
                "joe.bloggs@",
                "test@iana.org.",
                "\"\\\"@iana.org",
                "a@[extn:test]",
                "a@[1111:2222:3333:4444:5555:6666:7777:8888]",
                "a\u{e9}@iana.org",
                "a@\u{e9}.org",
                "\"Winston\" <winston@example.com>",
                "test@iana.org\n",
            ],
        );
        let long_local = format!("{}@iana.org", "a".repeat(64));
        let too_long_local = format!("{}@iana.org", "a".repeat(65));
        check("email", &[&long_local], &[&too_long_local]);
    }

    #[test]
    fn idn_email() {
        check(
            "idn-email",
            &[
                "\u{c2e4}\u{b840}@\u{c2e4}\u{b840}.\u{d14c}\u{c2a4}\u{d2b8}",
                "joe.bloggs@example.com",
                "\"\u{5b9e} \u{4f8b}\"@example.com",
            ],
            &[
                "2962",
                "\u{c2e4}\u{b840}@\u{c2e4}\u{302e}\u{b840}.\u{d14c}\u{c2a4}\u{d2b8}",
                "a b@example.com",
            ],
        );
    }

    #[test]
    fn hostname() {
        check(
            "hostname",
            &[
                "www.example.com",
                "xn--4gbwdl.xn--wgbh1c",
                "hostname",
                "1host",
                "c--n.com",
                "XN--BCHER-KVA.example",
                "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk.com",
            ],
            &[
                "",
                ".",
                "-hostname",
                "hostname-",
                "host_name",
                "example.com.",
                "a..b",
                "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl.com",
                "b\u{fc}cher.de",
                "xn--X",
                "xn--bcher-kvb",
                "a\u{3002}b",
            ],
        );
        let longest = format!("{0}.{0}.{0}.{1}", "a".repeat(63), "a".repeat(61));
        let too_long = format!("{0}.{0}.{0}.{1}", "a".repeat(63), "a".repeat(62));
        check("hostname", &[&longest], &[&too_long]);
    }

    #[test]
    fn idn_hostname() {
        check(
            "idn-hostname",
            &[
                "\u{c2e4}\u{b840}.\u{d14c}\u{c2a4}\u{d2b8}",
                "xn--ihqwcrb4cv8a8dqg056pqjye",
                "b\u{fc}cher.de",
                "m\u{fc}nchen\u{3002}de",
                "a\u{ff0e}b",
                "a\u{ff61}b",
                "Example.COM",
                "\u{df}\u{3c2}\u{f0b}\u{3007}",
                "\u{6fd}\u{6fe}",
                "l\u{b7}l",
                "\u{3b1}\u{375}\u{3b2}",
                "\u{5d0}\u{5f3}\u{5d1}",
                "\u{30fb}\u{3041}",
                "\u{628}\u{660}\u{628}",
                "\u{6f0}0",
                "\u{915}\u{94d}\u{200d}\u{937}",
                "\u{628}\u{64a}\u{200c}\u{628}\u{64a}",
                "\u{5d0}1",
                "a.\u{5d0}\u{5d1}",
            ],
            &[
                "",
                ".",
                "\u{3002}",
                "\u{302e}\u{c2e4}\u{b840}",
                "-> $1.00 <--",
                "xn--X",
                "XN--aa---o47jg78q",
                "-hello",
                "hello-",
                "ab--cd",
                "\u{903}hello",
                "\u{300}hello",
                "\u{488}hello",
                "\u{640}\u{7fa}",
                "\u{3031}\u{3032}",
                "a\u{b7}l",
                "l\u{b7}",
                "\u{3b1}\u{375}S",
                "A\u{5f3}\u{5d1}",
                "def\u{30fb}abc",
                "\u{628}\u{660}\u{6f0}",
                "\u{915}\u{200d}\u{937}",
                "a\u{200c}b",
                "B\u{fc}cher",
                "bu\u{308}cher",
                "xn--ls8h",
                "\u{5d0}a",
                "1a.\u{5d0}\u{5d1}",
                "\u{e9}.",
                &"\u{fc}".repeat(60),
            ],
        );
        // 20 syllables take 62 octets as an A-label, 21 take 66.
        let syllables = "\u{bb3a}\u{d1ed}\u{ced4}\u{b458}\u{c3ad}\u{d2a6}\u{ca56}\u{d40b}\u{d12c}\u{b031}\
                         \u{d2c2}\u{acd7}\u{ca07}\u{bc99}\u{cf40}\u{baff}\u{b845}\u{ca18}\u{ce9f}\u{cf2d}\u{ca7c}";
        let twenty = syllables.chars().take(20).collect::<String>();
        check("idn-hostname", &[&twenty], &[syllables]);
    }

    #[test]
    fn ipv4() {
        check(
            "ipv4",
            &["192.168.0.1", "87.10.0.1", "0.0.0.0", "255.255.255.255"],
            &[
                "127.0.0.0.1",
                "256.256.256.256",
                "127.0",
                "0x7f000001",
                "2130706433",
                "087.10.0.1",
                "1\u{09e8}7.0.0.1",
                "192.168.1.0/24",
                "1.2.3.4.",
                " 1.2.3.4",
                "",
            ],
        );
    }

    #[test]
    fn ipv6() {
        check(
            "ipv6",
            &[
                "::1",
                "::",
                "::abef",
                "::42:ff:1",
                "d6::",
                "1:d6::42",
                "1::d6:192.168.0.1",
                "::ffff:192.168.0.1",
                "1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7::",
                "1000:1000:1000:1000:1000:1000:255.255.255.255",
            ],
            &[
                "12345::",
                "::abcef",
                "1:1:1:1:1:1:1:1:1",
                "::laptop",
                ":2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7:",
                "1::d6::42",
                "1::2:192.168.256.1",
                "1:2:3:4:5:::8",
                "1:2:3:4:5:6:7",
                "127.0.0.1",
                "1:2:3:4:1.2.3",
                "  ::1",
                "fe80::/64",
                "fe80::a%eth1",
                "1::2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7:1.2.3.4",
                "",
            ],
        );
    }

    #[test]
    fn uri() {
        check(
            "uri",
            &[
                "http://foo.bar/?baz=qux#quux",
                "http://foo.com/blah_(wikipedia)_blah#cite-1",
                "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
                "ldap://[2001:db8::7]/c=GB?objectClass?one",
                "mailto:John.Doe@example.com",
                "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
                "http://[v1.fe]/",
                "file:///etc/hosts",
            ],
            &[
                "//foo.bar/?baz=qux#quux",
                "/abc",
                "\\\\WINDOWS\\fileshare",
                "abc",
                "http:// shouldfail.com",
                ":// should fail",
                "bar,baz:foo",
                "http://example.com/%zz",
                "http://[::g]/",
                "http://a:b:c/",
                "http://example.com/\u{fc}",
                "http://a.com#a#b",
            ],
        );
    }

    #[test]
    fn uri_reference() {
        check(
            "uri-reference",
            &[
                "http://foo.bar/?baz=qux#quux",
                "//foo.bar/?baz=qux#quux",
                "/abc",
                "abc",
                "#fragment",
                "",
                "./a:b",
            ],
            &[
                "\\\\WINDOWS\\fileshare",
                "#frag\\ment",
                "a:b c",
                ":a",
                "%zz",
                "a\u{e9}",
            ],
        );
    }

    #[test]
    fn iri() {
        check(
            "iri",
            &[
                "http://\u{192}\u{f8}\u{f8}.\u{df}\u{e5}r/?\u{2202}\u{e9}\u{153}=\u{3c0}\u{ee}x#\u{3c0}\u{ee}\u{fc}x",
                "http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", "http://example.com/?\u{e000}",
            ],
            &[
                "http://2001:0db8:85a3:0000:0000:8a2e:0370:7334", "/abc", "\u{e2}\u{3c0}\u{3c0}",
                "http://example.com/\u{e000}", "http://example.com/\u{fffe}",
            ],
        );
    }

    #[test]
    fn iri_reference() {
        check(
            "iri-reference",
            &[
                "//\u{192}\u{f8}\u{f8}.\u{df}\u{e5}r/",
                "/\u{e2}\u{3c0}\u{3c0}",
                "\u{e2}\u{3c0}\u{3c0}",
                "#\u{192}r\u{e4}gm\u{ea}nt",
            ],
            &[
                "\\\\WINDOWS\\fil\u{eb}\u{df}\u{e5}r\u{e9}",
                "#\u{192}r\u{e4}g\\m\u{ea}nt",
            ],
        );
    }

    #[test]
    fn uri_template() {
        check(
            "uri-template",
            &[
                "http://example.com/dictionary/{term:1}/{term}",
                "dictionary/{term:1}/{term}",
                "http://example.com/dictionary",
                "",
                "{+path}/here",
                "{?x,y,list*}",
                "{a.b}{%20}",
            ],
            &[
                "http://example.com/dictionary/{term:1}/{term",
                "{}",
                "{var:0}",
                "{var:10000}",
                "{=var}",
                "{a..b}",
                "{x}}",
                "a b",
                "%zz",
            ],
        );
    }

    #[test]
    fn uuid() {
        check(
            "uuid",
            &[
                "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
                "2eb8aa08-AA98-11ea-B4Aa-73B441D16380",
                "00000000-0000-0000-0000-000000000000",
                "99c17cbb-656f-f64a-940f-1a4568f03487",
            ],
            &[
                "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
                "2eb8aa08-aa98-11ea-b4ga-73b441d16380",
                "2eb8aa08aa9811eab4aa73b441d16380",
                "2eb8aa08aa9811eab4aa73b441d16380----",
                "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
            ],
        );
    }

    #[test]
    fn json_pointer() {
        check(
            "json-pointer",
            &[
                "",
                "/",
                "/foo/bar~0/baz~1/%a",
                "/foo//bar",
                "/~1.1",
                "/i\\j",
                "/ ",
            ],
            &[
                "#",
                "#/",
                "a",
                "0",
                "/foo/bar~",
                "/~2",
                "/~-1",
                "/~~",
                "/~0~",
            ],
        );
    }

    #[test]
    fn relative_json_pointer() {
        check(
            "relative-json-pointer",
            &[
                "1",
                "0/foo/bar",
                "2/0/baz/1/zip",
                "0#",
                "120/foo/bar",
                "0+1/a",
                "3-2#",
            ],
            &[
                "/foo/bar",
                "-1/foo/bar",
                "+1/foo/bar",
                "0##",
                "01/a",
                "01#",
                "",
                "0+0/a",
                "0-",
            ],
        );
    }

    #[test]
    fn regex() {
        // `\a` is no ECMA-262 escape, though other dialects accept it.
        check("regex", &["([abc])+\\s+$", ""], &["^(abc]", "(", "\\a"]);
    }

    #[test]
    fn checkers_survive_hostile_input() {
        let long_hyphens = "-".repeat(10_000);
        let long_digits = "9".repeat(10_000);
        let nested = "{".repeat(1_000);
        let punycode_overflow = format!("xn--{}", "9".repeat(50));
        let inputs = [
            "",
            "\0",
            "\u{10FFFF}",
            "\u{FFFD}",
            "%",
            "%f",
            "[",
            "]",
            "@",
            "::",
            "...",
            "xn--",
            "xn---",
            "xn--a-",
            "P",
            "T",
            "#",
            "~",
            "\"",
            "\\",
            "{",
            "}",
            "{:",
            "0+",
            &long_hyphens,
            &long_digits,
            &nested,
            &punycode_overflow,
        ];
        let names = [
            "date",
            "date-time",
            "time",
            "duration",
            "email",
            "idn-email",
            "hostname",
            "idn-hostname",
            "ipv4",
            "ipv6",
            "uri",
            "uri-reference",
            "iri",
            "iri-reference",
            "uri-template",
            "uuid",
            "json-pointer",
            "relative-json-pointer",
        ];
        for name in names {
            let f = lookup(name).unwrap_or_else(|| panic!("{name} is not known"));
            for s in inputs {
                let _ = f(s);
            }
        }
    }
}
