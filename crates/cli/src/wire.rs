//! Line framing of MCP's stdio transport, shared by the proxy and the `tools --stdio`
//! client: one JSON-RPC message per line, LF or CRLF, read into one reused buffer with a
//! bound on what is kept of a line.

use std::io::BufRead;

/// One line read by [`read_line`].
pub(crate) enum Line {
    /// The line, without its line end (LF or CRLF).
    Text(String),
    /// A line that is not UTF-8, as it was read.
    Bytes(Vec<u8>),
    /// A line longer than the limit: its bytes past the limit were read and dropped.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next non-blank line of `reader` into `buffer` (reused), keeping at most
/// `limit` bytes of it.
pub(crate) fn read_line(reader: &mut impl BufRead, buffer: &mut Vec<u8>, limit: usize) -> Line {
    loop {
        buffer.clear();
        let mut too_long = false;
        loop {
            let available = match reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return Line::End,
            };
            if available.is_empty() {
                if buffer.is_empty() && !too_long {
                    return Line::End;
                }
                break;
            }
            let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (&available[..=end], true),
                None => (available, false),
            };
            let used = chunk.len();
            if buffer.len() + used <= limit.saturating_add(2) {
                buffer.extend_from_slice(chunk);
            } else {
                too_long = true;
            }
            reader.consume(used);
            if done {
                break;
            }
        }
        if too_long {
            return Line::TooLong;
        }
        while buffer.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            buffer.pop();
        }
        if buffer.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        return match String::from_utf8(std::mem::take(buffer)) {
            Ok(text) => Line::Text(text),
            Err(e) => Line::Bytes(e.into_bytes()),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<String> {
        let mut reader = std::io::BufReader::with_capacity(4, input);
        let mut buffer = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, &mut buffer, limit) {
                Line::Text(text) => out.push(text),
                Line::Bytes(bytes) => out.push(format!("bytes {}", bytes.len())),
                Line::TooLong => out.push("too long".into()),
                Line::End => return out,
            }
        }
    }

    #[test]
    fn lines_end_with_lf_or_crlf_blank_ones_skipped_long_ones_dropped() {
        assert_eq!(
            lines(b"{\"a\":1}\r\n\n  \n{}\nlast", 100),
            ["{\"a\":1}", "{}", "last"]
        );
        assert_eq!(
            lines(b"0123456789\n01\n\xff\xfe\n", 4),
            ["too long", "01", "bytes 2"]
        );
        assert!(lines(b"", 4).is_empty());
    }
}
