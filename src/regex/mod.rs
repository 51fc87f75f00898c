//! Temporary stand-in until the ECMA-262 translator lands.
#[derive(Debug, Clone)]
pub(crate) struct Pattern(regex::Regex);
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PatternError(String);
impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl Pattern {
    pub(crate) fn new(source: &str) -> Result<Pattern, PatternError> {
        regex::Regex::new(source)
            .map(Pattern)
            .map_err(|e| PatternError(e.to_string()))
    }
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        self.0.is_match(haystack)
    }
    pub(crate) fn as_str(&self) -> &str {
        self.0.as_str()
    }
}
