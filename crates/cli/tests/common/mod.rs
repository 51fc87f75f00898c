//! What the proxy tests share: the HTTP proxy run as a process, and a plain HTTP/1.1
//! POST to it.
#![allow(dead_code)] // Each test crate uses what it needs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};

/// The HTTP proxy in front of `upstream`, killed when dropped, and the address it
/// listens on (from its first line on standard error).
pub struct HttpProxy {
    child: Child,
    /// `host:port`.
    pub address: String,
}

impl HttpProxy {
    /// Starts the proxy with `options`; what it says after its first line goes to `rest`.
    pub fn start(
        options: &[&str],
        upstream: &str,
        mut rest: impl Write + Send + 'static,
    ) -> HttpProxy {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
            .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream])
            .args(options)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the proxy starts");
        let mut said = String::new();
        let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
        stderr.read_line(&mut said).expect("the proxy's first line");
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut rest));
        let address = (said.split("listening on http://").nth(1))
            .and_then(|rest| rest.split(',').next())
            .unwrap_or_else(|| panic!("the proxy said {said:?}"))
            .to_string();
        HttpProxy { child, address }
    }

    /// POSTs `body` on a connection of its own: the status and the body of the answer.
    /// The proxy's process id.
    #[allow(dead_code)] // Not every test file that shares this module asks.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    pub fn post(&self, body: &[u8]) -> (u16, String) {
        self.post_with("", body)
    }

    /// POSTs `body` with `headers` (`name: value` lines, each ended by CRLF) on a
    /// connection of its own: the status and the body of the answer (a JSON body: a
    /// chunked one would keep its chunk sizes).
    pub fn post_with(&self, headers: &str, body: &[u8]) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(&self.address).expect("the proxy listens");
        let head = format!(
            "POST /mcp HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
             accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\
             {headers}connection: close\r\n\r\n",
            self.address,
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("the proxy reads");
        stream.write_all(body).expect("the proxy reads");
        let mut answer = String::new();
        std::io::Read::read_to_string(&mut stream, &mut answer).expect("the proxy answers");
        let status = (answer.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("an HTTP answer: {answer:?}"));
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        (status, body.to_string())
    }
}

impl Drop for HttpProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
