//! Colour on standard output: only on a terminal, and never when `NO_COLOR` is set to a
//! non-empty value (no-color.org).

use std::io::IsTerminal;

/// Whether standard output gets colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paint {
    on: bool,
}

impl Paint {
    /// The choice for this process's standard output and environment.
    pub(crate) fn for_stdout() -> Paint {
        let no_color = std::env::var_os("NO_COLOR");
        Paint::new(std::io::stdout().is_terminal(), no_color.as_deref())
    }

    fn new(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> Paint {
        Paint {
            on: terminal && no_color.is_none_or(|value| value.is_empty()),
        }
    }

    /// `text` in green.
    pub(crate) fn good(self, text: &str) -> String {
        self.wrap("32", text)
    }

    /// `text` in bold red.
    pub(crate) fn bad(self, text: &str) -> String {
        self.wrap("1;31", text)
    }

    fn wrap(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Paint;
    use std::ffi::OsStr;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert_eq!(Paint::new(true, None).bad("x"), "\x1b[1;31mx\x1b[0m");
        assert_eq!(
            Paint::new(true, Some(OsStr::new(""))).good("x"),
            "\x1b[32mx\x1b[0m"
        );
        assert_eq!(Paint::new(true, Some(OsStr::new("1"))).bad("x"), "x");
        assert_eq!(Paint::new(false, None).good("x"), "x");
    }
}
