//! The server as a child process, spoken to over its standard input and output. A thread
//! reads its output a line at a time into a channel (so that a wait can time out), and
//! another copies its standard error to ours, each line marked `[server]`, so that it
//! stays apart from the report. Requests the server sends meanwhile are answered (`ping`
//! with an empty result, anything else with method-not-found), notifications ignored.

use super::{message, shorten, Reply, Transport};
use crate::wire::{read_line, Line};
use crate::Failure;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running server.
pub(crate) struct StdioServer {
    name: String,
    child: Child,
    input: Option<ChildStdin>,
    /// The server's output lines; `None` once it ended.
    lines: Receiver<Option<Vec<u8>>>,
    /// The thread copying the server's standard error.
    errors: std::thread::JoinHandle<()>,
    next_id: u64,
    timeout: Duration,
}

impl StdioServer {
    /// Starts `command` (the program and its arguments).
    pub(crate) fn start(command: &[String], timeout: Duration) -> Result<StdioServer, Failure> {
        let Some((program, arguments)) = command.split_first() else {
            return Err(Failure(
                "tools --stdio: give the server's command after --".into(),
            ));
        };
        let name = command.join(" ");
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Failure(format!("{program}: cannot start the server: {e}")))?;
        let (Some(input), Some(output), Some(errors)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(Failure(format!("{program}: no pipes to the server")));
        };
        let errors = std::thread::spawn(move || {
            for line in BufReader::new(errors).lines() {
                let Ok(line) = line else { break };
                tell!("[server] {line}");
            }
        });
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut buffer = Vec::new();
            loop {
                let line = match read_line(&mut reader, &mut buffer, usize::MAX) {
                    Line::Text(text) => text.into_bytes(),
                    Line::Bytes(bytes) => bytes,
                    Line::TooLong | Line::End => break,
                };
                if sender.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = sender.send(None);
        });
        Ok(StdioServer {
            name,
            child,
            input: Some(input),
            lines,
            errors,
            next_id: 0,
            timeout,
        })
    }

    fn send(&mut self, message: &Value) -> Result<(), Failure> {
        let mut line = message.to_string();
        line.push('\n');
        let written = match &mut self.input {
            Some(input) => input
                .write_all(line.as_bytes())
                .and_then(|()| input.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|_| self.ended("could be sent", message["method"].as_str().unwrap_or("")))
    }

    /// The failure for a server whose output ended before `method` got an answer.
    fn ended(&mut self, what: &str, method: &str) -> Failure {
        self.input = None;
        let deadline = Instant::now() + Duration::from_secs(1);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => break None,
            }
        };
        // What the server said before it went comes first (unless a process it left
        // behind keeps its standard error open).
        while !self.errors.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let how = match status {
            Some(status) => format!("exited ({status})"),
            None => "closed its output".to_string(),
        };
        Failure(format!(
            "{}: the server {how} before {method} {what}",
            self.name
        ))
    }
}

impl Transport for StdioServer {
    fn request(
        &mut self,
        method: &str,
        params: Value,
        wait: Duration,
    ) -> Result<Option<Reply>, Failure> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&message(Some(id), method, params))?;
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Some(line)) => line,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended("was answered", method))
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
            };
            let parsed = serde_json::from_slice::<Value>(&line)
                .ok()
                .filter(Value::is_object);
            let Some(received) = parsed else {
                return Err(Failure(format!(
                    "{}: the server sent a line that is not JSON-RPC: {}",
                    self.name,
                    shorten(&String::from_utf8_lossy(&line))
                )));
            };
            match (received.get("method"), received.get("id")) {
                (Some(asked), Some(their_id)) => {
                    let answer = match asked.as_str() {
                        Some("ping") => json!({"jsonrpc": "2.0", "id": their_id, "result": {}}),
                        _ => json!({"jsonrpc": "2.0", "id": their_id,
                                    "error": {"code": -32601, "message": "method not found"}}),
                    };
                    self.send(&answer)?;
                }
                (Some(_), None) => {}
                (None, Some(their_id)) if *their_id == json!(id) => {
                    return Ok(Some(match received.get("error") {
                        Some(error) => Reply::Error(error.clone()),
                        None => {
                            Reply::Result(received.get("result").cloned().unwrap_or(Value::Null))
                        }
                    }));
                }
                // An answer to an earlier request (a late probe): not this one's.
                (None, _) => {}
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), Failure> {
        self.send(&message(None, method, params))
    }

    fn set_protocol(&mut self, _version: &str) {}

    fn timeout(&self) -> Duration {
        self.timeout
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for StdioServer {
    /// Closes the server's input, as the stdio transport ends a session, and kills a
    /// server still running a second later.
    fn drop(&mut self) {
        self.input = None;
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
