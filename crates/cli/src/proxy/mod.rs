//! `proxy`: an MCP proxy that guards tool calls between any client and any server, over
//! stdio (`proxy -- CMD ARGS...`, [`stdio`]) or Streamable HTTP (`proxy --listen ADDR
//! --upstream URL`, [`http`]).
//!
//! The decisions are the library's [`Guard`]; this module adds the transports, the
//! report of each decision on standard error and the `--log` file ([`Report`]).

mod hosts;
mod hot;
mod http;
mod stdio;

use crate::{Failure, Outcome};
use clap::ValueEnum;
use mcp_jsonschema::mcp::{
    Action, BadOutput, BadSchema, Check, Decision, Guard, GuardOptions, Unlisted, Verdict,
};
use serde_json::json;
use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mcp-jsonschema proxy -- python server.py        (a client config's command, prefixed)\n  \
    mcp-jsonschema proxy --listen 127.0.0.1:8001 --upstream http://127.0.0.1:8000/mcp")]
pub(crate) struct Args {
    /// The server to run and guard over stdio: the command and its arguments, after `--`.
    #[arg(
        last = true,
        value_name = "CMD ARGS",
        required_unless_present = "listen",
        conflicts_with = "listen"
    )]
    command: Vec<String>,
    /// Guard a Streamable HTTP server instead: listen for MCP clients at this address
    /// (`127.0.0.1:8001`; port 0 picks a free one, said on standard error) and forward
    /// to the endpoint given by --upstream.
    #[arg(long, value_name = "ADDR", requires = "upstream")]
    listen: Option<String>,
    /// The Streamable HTTP endpoint of the server guarded with --listen
    /// (`http://127.0.0.1:8000/mcp`).
    #[arg(long, value_name = "URL", requires = "listen")]
    upstream: Option<String>,
    /// With --listen: a `Host` a client may use besides the loopback names (`localhost`,
    /// `127.0.0.1`, `[::1]` with the listening port, always answered), as `NAME` (any
    /// port) or `NAME:PORT`; repeat it for more, `*` for any. Needed when --listen is not
    /// a loopback address. Other requests are refused with 403, against DNS rebinding.
    #[arg(long, value_name = "HOST", requires = "listen")]
    allow_host: Vec<String>,
    /// With --listen: an `Origin` a browser page may send besides the loopback ones
    /// (`http://localhost`, any port), as `https://app.example.com` or with a port;
    /// repeat it for more, `*` for any. A request with another Origin is refused with
    /// 403; one with none (a client that is not a browser) is judged by its Host.
    #[arg(long, value_name = "ORIGIN", requires = "listen")]
    allow_origin: Vec<String>,
    /// What to do with a tool whose inputSchema or outputSchema does not compile under the
    /// MCP profile: leave it out of tools/list and answer its calls (hide), or list it and
    /// pass what cannot be checked (pass).
    #[arg(long, value_enum, default_value_t = OnBadSchema::Hide)]
    on_bad_schema: OnBadSchema,
    /// What to do with a result whose structuredContent breaks the tool's outputSchema:
    /// replace it with a tool error (`isError: true`) naming each problem, which the model
    /// reads, as the SDKs' servers do (fail); answer with a JSON-RPC error instead
    /// (error); or pass it and report it on standard error (warn).
    #[arg(long, value_enum, default_value_t = OnBadOutput::Fail)]
    on_bad_output: OnBadOutput,
    /// What to do with a call to a tool the server does not list (the proxy lists the
    /// tools once more first): answer it as the SDKs answer an unknown tool, a tool error
    /// (answer); or pass it on unchecked, reported on standard error (forward).
    #[arg(long, value_enum, default_value_t = OnUnlisted::Answer)]
    unlisted: OnUnlisted,
    /// Append one JSON line per decision (tool, verdict, errors, latency) to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Quote the values of arguments and results in the log and on standard error (by
    /// default errors are masked: types, lengths and locations only).
    #[arg(long)]
    log_unmasked: bool,
    /// How long a call waits for the proxy's own tools/list (sent when a call arrives
    /// before the client listed the tools, after the server said they changed, or for a
    /// tool not in the list), in seconds; past it the listing is given up and the call
    /// decided with the tools the proxy has (one it has not got is answered with an
    /// error); the next call lists again.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    list_timeout: f64,
    /// The largest message accepted from the client, in bytes; a larger one is answered
    /// with a JSON-RPC error and never forwarded.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    max_message_size: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnBadSchema {
    Hide,
    Pass,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnBadOutput {
    Fail,
    Error,
    Warn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnUnlisted {
    Answer,
    Forward,
}

impl Args {
    fn guard_options(&self) -> GuardOptions {
        GuardOptions::default()
            .with_bad_schema(match self.on_bad_schema {
                OnBadSchema::Hide => BadSchema::Hide,
                OnBadSchema::Pass => BadSchema::Pass,
            })
            .with_bad_output(match self.on_bad_output {
                OnBadOutput::Fail => BadOutput::Fail,
                OnBadOutput::Error => BadOutput::Error,
                OnBadOutput::Warn => BadOutput::Warn,
            })
            .with_unlisted(match self.unlisted {
                OnUnlisted::Answer => Unlisted::Answer,
                OnUnlisted::Forward => Unlisted::Forward,
            })
            .with_masked_decisions(!self.log_unmasked)
    }

    fn list_timeout(&self) -> Result<Duration, Failure> {
        Duration::try_from_secs_f64(self.list_timeout).map_err(|_| {
            Failure(format!(
                "--list-timeout {}: not a duration",
                self.list_timeout
            ))
        })
    }
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    let report = Report::open(args.log.as_deref())?;
    match (&args.listen, &args.upstream) {
        (Some(listen), Some(upstream)) => http::run(args, listen, upstream, report),
        _ => stdio::run(args, report),
    }
}

/// Runs `step` on the session's guard (locked only meanwhile, never while a message is
/// written) and reports its decisions.
fn decide(
    guard: &Mutex<Guard>,
    report: &Report,
    step: impl FnOnce(&mut Guard) -> Vec<Action>,
) -> Vec<Action> {
    let (actions, decisions) = {
        let mut guard = lock(guard);
        let actions = step(&mut guard);
        (actions, guard.take_decisions())
    };
    report.decisions(decisions);
    actions
}

/// Locks `mutex`, whatever a panicking thread left: every value behind the proxies'
/// locks is whole between statements (a writer, the guard between messages).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where decisions go: those that are not a plain pass to standard error, one line each,
/// and every one to the `--log` file as a JSON line.
pub(crate) struct Report {
    log: Option<Mutex<File>>,
}

impl Report {
    fn open(path: Option<&str>) -> Result<Report, Failure> {
        let log = match path {
            None => None,
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| Failure(format!("{path}: cannot open the log: {e}")))?;
                Some(Mutex::new(file))
            }
        };
        Ok(Report { log })
    }

    /// Reports each decision.
    fn decisions(&self, decisions: Vec<Decision>) {
        for decision in decisions {
            if decision.verdict != Verdict::Passed {
                tell!("mcp-jsonschema proxy: {decision}");
            }
            if let Some(log) = &self.log {
                let line = log_line(&decision);
                let _ = writeln!(lock(log), "{line}");
            }
        }
    }
}

/// A decision as a line of the log.
fn log_line(decision: &Decision) -> serde_json::Value {
    let time = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let mut line = json!({
        "time": (time * 1000.0).round() / 1000.0,
        "tool": decision.tool,
        "check": decision.check.name(),
        "verdict": decision.verdict.name(),
        "errors": decision.errors,
        "check_us": decision.check_time.as_micros() as u64,
    });
    if let Some(id) = &decision.id {
        line["id"] = id.clone();
    }
    if let Some(call) = decision.call_time {
        line["call_ms"] = json!((call.as_secs_f64() * 1e6).round() / 1e3);
    }
    if decision.check == Check::Listing {
        line.as_object_mut().map(|o| o.remove("tool"));
    }
    line
}

/// Why the guard's own listing was given up after `timeout`.
fn no_listing_in_time(timeout: Duration) -> String {
    format!(
        "the server did not answer the proxy's tools/list within {} s (--list-timeout)",
        timeout.as_secs_f64()
    )
}

/// The JSON-RPC error the proxy answers a client message it cannot pass with.
pub(crate) fn refusal(message: &str) -> String {
    failure(-32600, message)
}

/// A JSON-RPC error response without an id, with `code` and `message`.
fn failure(code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_line_names_the_decision() {
        use mcp_jsonschema::mcp::{Action, Guard, Side};
        let mut guard = Guard::new();
        let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert_eq!(
            guard.handle(Side::Client, list).collect::<Vec<_>>(),
            [Action::Forward]
        );
        let tools = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"required":["a"]}}]}}"#;
        let _ = guard.handle(Side::Server, tools).count();
        let call = r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t","arguments":{}}}"#;
        let _ = guard.handle(Side::Client, call).count();
        let decision = guard.take_decisions().pop().unwrap();
        let line = log_line(&decision);
        assert_eq!(line["tool"], "t");
        assert_eq!(line["id"], "c");
        assert_eq!(line["check"], "arguments");
        assert_eq!(line["verdict"], "rejected");
        assert_eq!(
            line["errors"],
            json!(["(root): missing required property \"a\""])
        );
        assert!(line["check_us"].is_u64() && line["time"].is_f64());
    }
}
