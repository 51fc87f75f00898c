//! What the command-line tests share: the binary run in a directory of test files, the
//! HTTP proxy run as a process, and a plain HTTP/1.1 POST to it.
#![allow(dead_code)] // Each test crate uses what it needs.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// What a run printed and how it exited.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary in `dir` with `args`, feeding `stdin`.
pub fn run_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A process that exits before reading its input closes the pipe: not an error here.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let output = child.wait_with_output().expect("the binary ends");
    Run {
        code: output.status.code().expect("an exit code, not a signal"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    }
}

/// A fresh directory holding `files` (name, contents).
pub fn dir_with(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (name, contents) in files {
        std::fs::write(dir.join(name), contents).expect("a test file");
    }
    dir
}

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
        let host = format!("host: {}\r\n", self.address);
        self.request("POST", &format!("{host}{headers}"), body)
    }

    /// Sends a `method` request with `headers` (`name: value` lines, each ended by CRLF,
    /// `Host` among them) and `body` on a connection of its own: the status and the body
    /// of the answer.
    pub fn request(&self, method: &str, headers: &str, body: &[u8]) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(&self.address).expect("the proxy listens");
        let head = format!(
            "{method} /mcp HTTP/1.1\r\ncontent-type: application/json\r\n\
             accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\
             {headers}connection: close\r\n\r\n",
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
