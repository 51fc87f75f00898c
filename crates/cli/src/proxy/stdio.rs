//! The stdio proxy: the client speaks MCP on this process's standard input and output,
//! the server is a child process spoken to on its standard input and output, and its
//! standard error is this process's. One thread reads each side (blocking reads, no
//! async runtime: the fewest hops per message, kept hot between the messages of a busy
//! session by [`super::hot`]), a line at a time; the [`Guard`] sits
//! behind a mutex that is never held while writing, so a side that stops reading cannot
//! stall the other direction.
//!
//! Shutdown: the client's end of input closes the server's input, and a server that has
//! not exited 5 seconds later is killed; the server's end of output (it exited or closed
//! it) ends the proxy with the server's exit status (128 + the signal number when a
//! signal ended it).

use super::hot::Hot;
use super::{lock, refusal, Args, Report};
use crate::wire::{read_line, Line};
use crate::{Failure, Outcome};
use mcp_jsonschema::mcp::{Action, Guard, Side};
use std::io::{BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a server may take to exit once its input is closed, or once it closed its
/// output, before it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// What both threads share.
struct Shared {
    guard: Mutex<Guard>,
    /// Signalled after each server message, for a call waiting on the guard's listing.
    listed: Condvar,
    /// The server's standard input; `None` once the client's input ended.
    server: Mutex<Option<BufWriter<ChildStdin>>>,
    client: Mutex<BufWriter<std::io::Stdout>>,
    child: Mutex<Child>,
    report: Report,
    list_timeout: Duration,
}

pub(super) fn run(args: &Args, report: Report) -> Result<Outcome, Failure> {
    let Some((program, arguments)) = args.command.split_first() else {
        return Err(Failure("proxy: give the server's command after --".into()));
    };
    let mut child = Command::new(program)
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| Failure(format!("{program}: cannot start the server: {e}")))?;
    let (Some(server_in), Some(server_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(Failure(format!("{program}: no pipes to the server")));
    };
    let shared = Arc::new(Shared {
        guard: Mutex::new(Guard::with_options(args.guard_options())),
        listed: Condvar::new(),
        server: Mutex::new(Some(BufWriter::with_capacity(1 << 16, server_in))),
        client: Mutex::new(BufWriter::with_capacity(1 << 16, std::io::stdout())),
        child: Mutex::new(child),
        report,
        list_timeout: args.list_timeout()?,
    });
    let from_server = Arc::clone(&shared);
    let server_thread = std::thread::spawn(move || {
        let reader = BufReader::with_capacity(1 << 16, Hot(server_out));
        let status = serve_server(&from_server, reader);
        let _ = lock(&from_server.client).flush();
        std::process::exit(exit_code(status));
    });
    serve_client(&shared, args.max_message_size);
    // The client is gone: close the server's input and give it time to exit; the server
    // thread ends the process with its status.
    drop(lock(&shared.server).take());
    let deadline = Instant::now() + GRACE;
    while !server_thread.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = lock(&shared.child).kill();
    let _ = server_thread.join();
    Ok(Outcome::Valid)
}

/// Reads the client's messages until its input ends.
fn serve_client(shared: &Shared, limit: usize) {
    let mut reader = BufReader::with_capacity(1 << 16, Hot(std::io::stdin()));
    let mut buffer = Vec::new();
    loop {
        let line = match read_line(&mut reader, &mut buffer, limit) {
            Line::Text(line) => line,
            Line::Bytes(_) => {
                let answer = refusal("parse error: the message is not UTF-8");
                if send(shared, Side::Client, answer.as_bytes()).is_err() {
                    return;
                }
                continue;
            }
            Line::TooLong => {
                let answer = refusal(&format!("the message is larger than {limit} bytes"));
                if send(shared, Side::Client, answer.as_bytes()).is_err() {
                    return;
                }
                continue;
            }
            Line::End => return,
        };
        if carry_out(shared, Side::Client, &line).is_err() {
            return;
        }
    }
}

/// Reads the server's messages until its output ends, then waits for it to exit.
fn serve_server(shared: &Shared, mut reader: BufReader<Hot<ChildStdout>>) -> ExitStatus {
    let mut buffer = Vec::new();
    loop {
        let result = match read_line(&mut reader, &mut buffer, usize::MAX) {
            Line::Text(line) => carry_out(shared, Side::Server, &line),
            // What the guard cannot read from the server is the client's to judge.
            Line::Bytes(bytes) => send(shared, Side::Client, &bytes),
            Line::TooLong | Line::End => break,
        };
        shared.listed.notify_all();
        if result.is_err() {
            // The client stopped reading: the session is over.
            let _ = lock(&shared.child).kill();
            break;
        }
    }
    shared.listed.notify_all();
    wait(&shared.child)
}

/// Hands `line` from `from` to the guard and carries out its actions.
fn carry_out(shared: &Shared, from: Side, line: &str) -> std::io::Result<()> {
    let actions = decide(shared, |guard| guard.handle(from, line).collect());
    for action in actions {
        match action {
            Action::Forward => send(shared, from.other(), line.as_bytes())?,
            Action::Send { to, message } => send(shared, to, message.as_bytes())?,
            Action::ListFirst { request } => {
                send(shared, Side::Server, request.as_bytes())?;
                await_listing(shared, &request);
                let actions = decide(shared, |guard| guard.handle_listed(line).collect());
                for action in actions {
                    match action {
                        Action::Forward => send(shared, Side::Server, line.as_bytes())?,
                        Action::Send { to, message } => send(shared, to, message.as_bytes())?,
                        Action::ListFirst { .. } => {}
                    }
                }
            }
        }
    }
    Ok(())
}

/// Runs `step` on the guard and reports its decisions.
fn decide(shared: &Shared, step: impl FnOnce(&mut Guard) -> Vec<Action>) -> Vec<Action> {
    super::decide(&shared.guard, &shared.report, step)
}

/// Waits until the guard's own listing (its first `request`) is over, or gives it up
/// once the list timeout passed.
fn await_listing(shared: &Shared, request: &str) {
    let deadline = Instant::now() + shared.list_timeout;
    let mut guard = lock(&shared.guard);
    while guard.is_listing() {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            drop(guard);
            let why = super::no_listing_in_time(shared.list_timeout);
            decide(shared, |guard| {
                guard.abandon_listing(request, &why);
                Vec::new()
            });
            return;
        };
        guard = match shared.listed.wait_timeout(guard, left) {
            Ok((guard, _)) => guard,
            Err(poisoned) => poisoned.into_inner().0,
        };
    }
}

/// Writes one message and its line end to `to`, and flushes it.
fn send(shared: &Shared, to: Side, message: &[u8]) -> std::io::Result<()> {
    fn line(out: &mut impl Write, message: &[u8]) -> std::io::Result<()> {
        out.write_all(message)?;
        out.write_all(b"\n")?;
        out.flush()
    }
    match to {
        Side::Client => line(&mut *lock(&shared.client), message),
        Side::Server => match lock(&shared.server).as_mut() {
            Some(server) => line(server, message),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        },
    }
}

/// The server's exit status, once it exits by itself or, after [`GRACE`], is killed.
fn wait(child: &Mutex<Child>) -> ExitStatus {
    let deadline = Instant::now() + GRACE;
    loop {
        let mut child = lock(child);
        match child.try_wait() {
            Ok(Some(status)) => return status,
            Ok(None) if Instant::now() < deadline => {}
            Ok(None) | Err(_) => {
                let _ = child.kill();
                if let Ok(status) = child.wait() {
                    return status;
                }
            }
        }
        drop(child);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The proxy's exit code for the server's exit status.
fn exit_code(status: ExitStatus) -> i32 {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return 128 + signal;
    }
    status.code().unwrap_or(1)
}
