//! `mcp-jsonschema proxy` over stdio, run as a client would run it, in front of servers
//! scripted in `sh` (every Unix has one): what passes, what the proxy answers itself, the
//! server's exit status and shutdown; and what the HTTP proxy answers without a server.
//! The real SDKs are driven through both in `sdk.rs`.

mod common;

use common::HttpProxy;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("proxy")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A server in `sh`: records every line it reads to `record`, answers `tools/list` with
/// one tool (`get_weather`, `city` required, `units` an enum, and an output schema),
/// `tools/call` with a result whose structured content is `structured`, and anything
/// with an id with an empty result; writes `ping` to its stderr when it starts.
fn weather_server(record: &Path, structured: &str) -> Vec<String> {
    let tools = json!({"tools": [{
        "name": "get_weather",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "units": {"enum": ["metric", "imperial"]}},
            "required": ["city"]
        },
        "outputSchema": {"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp"]}
    }]});
    let script = format!(
        r#"echo ping >&2
while IFS= read -r line; do
  printf '%s\n' "$line" >> '{record}'
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([^,}}]*\).*/\1/p')
  case "$line" in
    *'"tools/list"'*) printf '{{"jsonrpc":"2.0","id":%s,"result":%s}}\n' "$id" '{tools}' ;;
    *'"tools/call"'*) printf '{{"jsonrpc":"2.0","id":%s,"result":{{"content":[],"structuredContent":%s}}}}\n' "$id" '{structured}' ;;
    *'"id"'*) printf '{{"jsonrpc":"2.0","id":%s,"result":{{}}}}\n' "$id" ;;
  esac
done"#,
        record = record.display(),
    );
    vec!["sh".into(), "-c".into(), script]
}

/// A proxy run: its standard input is written line by line, each answer awaited.
struct Proxy {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Proxy {
    fn start(options: &[&str], server: &[String]) -> Proxy {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
            .arg("proxy")
            .args(options)
            .arg("--")
            .args(server)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the proxy starts");
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Proxy {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, message: &str) {
        writeln!(self.input, "{message}").expect("the proxy reads");
    }

    fn receive(&mut self) -> Value {
        let mut line = String::new();
        self.output.read_line(&mut line).expect("the proxy writes");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }

    fn ask(&mut self, message: Value) -> Value {
        self.send(&message.to_string());
        self.receive()
    }

    /// Closes the proxy's input and waits for it: its exit code and standard error.
    fn finish(mut self) -> (i32, String) {
        drop(self.input);
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut self.output, &mut rest);
        let output = self.child.wait_with_output().expect("the proxy ends");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code().unwrap_or(-1), stderr)
    }
}

fn call(id: u32, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "get_weather", "arguments": arguments}})
}

#[test]
fn checked_calls_pass_bad_ones_are_answered_and_everything_else_is_untouched() {
    let dir = scratch("checked");
    let record = dir.join("record");
    let log = dir.join("log.jsonl");
    let log_arg = log.to_str().unwrap();
    let mut proxy = Proxy::start(
        &["--log", log_arg],
        &weather_server(&record, r#"{"temp":4.5}"#),
    );
    let unknown = r#"{"jsonrpc":"2.0","id":"u","method":"vendor/thing","params":[1,{"x":null}]}"#;
    proxy.send(unknown);
    assert_eq!(
        proxy.receive(),
        json!({"jsonrpc": "2.0", "id": "u", "result": {}})
    );
    let listed = proxy.ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    assert_eq!(listed["result"]["tools"][0]["name"], "get_weather");
    let passed = proxy.ask(call(2, json!({"city": "Oslo", "units": "metric"})));
    assert_eq!(passed["result"]["structuredContent"], json!({"temp": 4.5}));
    let refused = proxy.ask(call(3, json!({"city": "Oslo", "units": "kelvin"})));
    assert_eq!(refused["id"], 3);
    assert_eq!(refused["result"]["isError"], true);
    assert_eq!(
        refused["result"]["content"][0]["text"],
        "invalid arguments for tool \"get_weather\":\n/units: expected one of \"metric\", \"imperial\", got \"kelvin\""
    );
    let garbage = proxy.ask(json!("not an object"));
    assert_eq!(garbage["error"]["code"], -32600);
    proxy.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"get_weather\",\"arguments\":{\"city\":NaN}}}");
    assert_eq!(proxy.receive()["error"]["code"], -32700);
    let (code, stderr) = proxy.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.starts_with("ping\n"),
        "the server's stderr is the proxy's: {stderr}"
    );
    assert!(stderr.contains("tool \"get_weather\": arguments rejected: /units: expected one of \"metric\", \"imperial\", got string"), "{stderr}");
    // The server saw the messages byte for byte, and never the bad calls.
    let seen = std::fs::read_to_string(&record).unwrap();
    let seen: Vec<&str> = seen.lines().collect();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert_eq!(seen[0], unknown);
    assert!(seen[2].contains("\"metric\""));
    let log = std::fs::read_to_string(&log).unwrap();
    let verdicts: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|d| json!([d["check"], d["verdict"], d["id"]]))
        .collect();
    assert_eq!(
        verdicts,
        [
            json!(["arguments", "passed", 2]),
            json!(["output", "passed", 2]),
            json!(["arguments", "rejected", 3])
        ]
    );
}

/// The processor time process `pid` has used so far (Linux: /proc/PID/stat), in clock
/// ticks (10 ms each on every Linux of note).
#[cfg(target_os = "linux")]
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc");
    // After the command name in parentheses: state, then 10 fields, then utime, stime.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Asserts that process `pid` uses (almost) no processor time over a second.
#[cfg(target_os = "linux")]
fn assert_asleep(pid: u32, what: &str) {
    std::thread::sleep(Duration::from_millis(200));
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_ticks(pid) - before;
    assert!(used <= 3, "{what} used {used} ticks of one idle second");
}

/// Neither proxy waits by polling: after a burst of calls an idle proxy uses no
/// processor time.
#[cfg(target_os = "linux")]
#[test]
fn an_idle_proxy_sleeps() {
    let dir = scratch("idle");
    let mut proxy = Proxy::start(&[], &weather_server(&dir.join("record"), r#"{"temp":1}"#));
    proxy.ask(json!({"jsonrpc": "2.0", "id": 0, "method": "tools/list"}));
    for id in 1..=50 {
        proxy.ask(call(id, json!({"city": "Oslo"})));
    }
    assert_asleep(proxy.child.id(), "the stdio proxy");
    let (code, stderr) = proxy.finish();
    assert_eq!(code, 0, "{stderr}");

    let (upstream, _) = counting_server();
    let proxy = HttpProxy::start(&[], &upstream, std::io::sink());
    for id in 1..=50 {
        let (status, _) = proxy.post(call(id, json!({"city": "Oslo"})).to_string().as_bytes());
        assert_eq!(status, 200);
    }
    assert_asleep(proxy.id(), "the HTTP proxy");
}

/// A minimal HTTP/1.1 MCP endpoint on a free loopback port, kept-alive connections
/// each served by a thread: every POST is answered with an empty JSON-RPC result for
/// its id. Returns its URL and the count of connections it accepted.
fn counting_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("its address"));
    let accepted = std::sync::Arc::new(AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&accepted);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            count.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                loop {
                    let mut length = 0;
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let line = line.trim_end();
                        if line.is_empty() {
                            break;
                        }
                        if let Some((name, value)) = line.split_once(':') {
                            if name.eq_ignore_ascii_case("content-length") {
                                length = value.trim().parse().unwrap_or(0);
                            }
                        }
                    }
                    let mut body = vec![0; length];
                    if std::io::Read::read_exact(&mut reader, &mut body).is_err() {
                        return;
                    }
                    let id = serde_json::from_slice::<Value>(&body)
                        .ok()
                        .map(|m| m["id"].clone());
                    let answer = json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string();
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
                        answer.len()
                    );
                    if reader.get_mut().write_all(response.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (url, accepted)
}

/// Calls one after the other go to the server over one kept-alive connection, not a
/// new one whenever the last response's connection has not caught up yet.
#[test]
fn the_http_proxy_keeps_one_connection_to_the_server_for_calls_in_turn() {
    let (upstream, accepted) = counting_server();
    let proxy = HttpProxy::start(&[], &upstream, std::io::sink());
    for id in 1..=200 {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let (status, body) = proxy.post(message.to_string().as_bytes());
        assert_eq!(status, 200, "{body}");
    }
    let connections = accepted.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        connections, 1,
        "connections to the server for 200 calls in turn"
    );
}

/// A result that breaks its output schema becomes a tool error the model reads (the
/// default), a JSON-RPC error (`error`), or passes with a report (`warn`).
#[test]
fn a_result_that_breaks_the_output_schema_fails_or_is_passed_with_a_warning() {
    let dir = scratch("output");
    let server = weather_server(&dir.join("record"), r#"{"temp":"warm"}"#);
    let mut proxy = Proxy::start(&[], &server);
    proxy.ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let failed = proxy.ask(call(2, json!({"city": "Oslo"})));
    let text =
        "invalid output from tool \"get_weather\":\n/temp: expected number, got string \"warm\"";
    let expected = json!({"content": [{"type": "text", "text": text}], "isError": true});
    assert_eq!(
        failed,
        json!({"jsonrpc": "2.0", "id": 2, "result": expected})
    );
    let (code, stderr) = proxy.finish();
    assert_eq!(code, 0);
    assert!(
        stderr
            .contains("tool \"get_weather\": output failed: /temp: expected number, got string\n"),
        "masked on standard error: {stderr}"
    );

    let mut proxy = Proxy::start(&["--on-bad-output", "error"], &server);
    proxy.ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let failed = proxy.ask(call(2, json!({"city": "Oslo"})));
    assert_eq!(failed["error"]["code"], -32603);
    assert_eq!(
        failed["error"]["message"],
        "tool \"get_weather\" returned structured content that its outputSchema rejects: /temp: expected number, got string \"warm\""
    );
    assert_eq!(proxy.finish().0, 0);

    let mut proxy = Proxy::start(&["--on-bad-output", "warn"], &server);
    proxy.ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let passed = proxy.ask(call(2, json!({"city": "Oslo"})));
    assert_eq!(passed["result"]["structuredContent"]["temp"], "warm");
    let (_, stderr) = proxy.finish();
    assert!(
        stderr
            .contains("tool \"get_weather\": output warned: /temp: expected number, got string\n"),
        "{stderr}"
    );
}

/// A call to a tool the server does not list: the proxy lists once more, then answers
/// it as unknown (the server never sees it), or forwards it with `--unlisted forward`.
#[test]
fn a_call_to_an_unlisted_tool_is_answered_or_forwarded() {
    let dir = scratch("unlisted");
    let record = dir.join("record");
    let server = weather_server(&record, r#"{"temp":1}"#);
    let mut proxy = Proxy::start(&[], &server);
    proxy.ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let unknown = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "delete_everything", "arguments": {}}});
    let answer = proxy.ask(unknown.clone());
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["result"]["isError"], true);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "unknown tool \"delete_everything\": the server does not list it"
    );
    let (_, stderr) = proxy.finish();
    assert!(
        stderr.contains(
            "tool \"delete_everything\": arguments unlisted: the server does not list this tool"
        ),
        "{stderr}"
    );
    let seen = std::fs::read_to_string(&record).unwrap();
    let methods: Vec<String> = (seen.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["method"].to_string())
        .collect();
    assert_eq!(
        methods,
        ["\"tools/list\"", "\"tools/list\""],
        "listed again, never called"
    );

    let mut proxy = Proxy::start(&["--unlisted", "forward"], &server);
    proxy.ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let answer = proxy.ask(unknown);
    assert_eq!(answer["id"], 2);
    assert!(answer["result"].get("isError").is_none(), "{answer}");
    let (_, stderr) = proxy.finish();
    assert!(
        stderr.contains(
            "tool \"delete_everything\": arguments unguarded: the server does not list this tool"
        ),
        "{stderr}"
    );
}

/// A server that never answers tools/list: a call waits no longer than the list
/// timeout and is answered; nothing reaches the server but the listings.
#[test]
fn a_server_that_never_lists_its_tools_leaves_calls_answered() {
    let dir = scratch("silent");
    let record = dir.join("record");
    let script = format!(
        "while IFS= read -r line; do printf '%s\\n' \"$line\" >> '{}'; done",
        record.display()
    );
    let server = ["sh".to_string(), "-c".into(), script];
    let mut proxy = Proxy::start(&["--list-timeout", "0.5"], &server);
    let started = Instant::now();
    let answer = proxy.ask(call(1, json!({"city": "Oslo"})));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(answer["id"], 1);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "tool \"get_weather\" cannot be called now: the server's tools could not be listed, \
         so the call cannot be checked"
    );
    // The next call lists again, and is answered the same.
    assert_eq!(proxy.ask(call(2, json!({"city": "Oslo"})))["id"], 2);
    let (_, stderr) = proxy.finish();
    assert!(
        stderr.contains("tools/list unguarded: the server did not answer the proxy's tools/list within 0.5 s (--list-timeout)"),
        "{stderr}"
    );
    let seen = std::fs::read_to_string(&record).unwrap();
    let methods: Vec<String> = (seen.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["method"].to_string())
        .collect();
    assert_eq!(methods, ["\"tools/list\"", "\"tools/list\""]);
}

#[test]
fn a_call_before_any_listing_waits_for_the_proxys_own() {
    let dir = scratch("own_listing");
    let record = dir.join("record");
    let mut proxy = Proxy::start(&[], &weather_server(&record, r#"{"temp":1}"#));
    let refused = proxy.ask(call(7, json!({"units": "metric"})));
    assert_eq!(refused["id"], 7);
    assert_eq!(refused["result"]["isError"], true);
    let passed = proxy.ask(call(8, json!({"city": "Oslo"})));
    assert_eq!(passed["id"], 8);
    proxy.finish();
    let seen = std::fs::read_to_string(&record).unwrap();
    let methods: Vec<String> = (seen.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["method"].to_string())
        .collect();
    assert_eq!(methods, ["\"tools/list\"", "\"tools/call\""]);
}

#[test]
fn the_proxy_exits_with_the_servers_status() {
    let server = ["sh".to_string(), "-c".into(), "read line; exit 3".into()];
    let mut proxy = Proxy::start(&[], &server);
    proxy.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(proxy.finish().0, 3);
    // A server that ignores the end of its input is killed after a grace period.
    let started = Instant::now();
    let server = ["sh".to_string(), "-c".into(), "exec sleep 30".into()];
    let (code, _) = Proxy::start(&[], &server).finish();
    assert_eq!(code, 128 + 9);
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_server_that_cannot_start_is_a_usage_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
        .args(["proxy", "--", "/nonexistent/server"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("mcp-jsonschema: /nonexistent/server: cannot start the server:"),
        "{stderr}"
    );
}

/// What the HTTP proxy answers itself, without a server: what it cannot read, what is
/// too large, and an upstream that is not there (and it keeps serving after each).
#[test]
fn the_http_proxy_answers_what_it_cannot_pass() {
    // A port nothing listens on. Not one bound and released: that port is in the ephemeral
    // range, where another test's server (or the proxy's own socket, connected to itself) can
    // take it under load and the call then hangs; port 1 is below that range and privileged.
    let upstream = "http://127.0.0.1:1/mcp";
    let proxy = HttpProxy::start(&["--max-message-size", "1000"], upstream, std::io::sink());
    let (status, body) = proxy.post(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}");
    assert_eq!(status, 400);
    let answer: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!(
        answer["error"]["message"],
        "parse error: the message is not UTF-8"
    );
    let (status, body) = proxy.post(&[b' '; 1001]);
    assert_eq!(status, 413, "{body}");
    let (status, body) = proxy.post(b"[1, 2]");
    assert_eq!(status, 200, "the guard's own answer: {body}");
    let answer: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!(answer["error"]["code"], -32600);
    // A call cannot even be checked: the proxy's own listing failed.
    let (status, body) = proxy.post(call(1, json!({"city": "Oslo"})).to_string().as_bytes());
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("a tool error");
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("cannot be called now"), "{body}");
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let (status, body) = proxy.post(ping.to_string().as_bytes());
    assert_eq!(status, 502, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("cannot connect"), "{message}");
}

#[test]
fn the_http_proxy_needs_both_ends_and_an_address() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
            .arg("proxy")
            .args(args)
            .output()
            .expect("the proxy runs")
    };
    let output = run(&["--listen", "127.0.0.1:0"]);
    assert_eq!(output.status.code(), Some(2), "--upstream is required");
    let output = run(&[
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "https://a.example/mcp",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("https is not supported"), "{stderr}");
    let output = run(&[
        "--listen",
        "no-such-address",
        "--upstream",
        "http://127.0.0.1:1/",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("mcp-jsonschema: --listen no-such-address:"),
        "{stderr}"
    );
}

/// What a process wrote, shared with the thread that copies it.
#[derive(Clone, Default)]
struct Said(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Said {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Said {
    /// What was written so far, once `needle` is among it (or after five seconds).
    fn once_it_says(&self, needle: &str) -> String {
        let started = Instant::now();
        loop {
            let text = String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned();
            if text.contains(needle) || started.elapsed() > Duration::from_secs(5) {
                return text;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// DNS rebinding: a page whose name resolves to 127.0.0.1 sends its own name as `Host`
/// and `Origin`. The proxy refuses it with 403 and a JSON-RPC error before anything
/// reaches the server, for every method, and answers the loopback names as before.
#[test]
fn the_http_proxy_refuses_hosts_and_origins_it_does_not_know() {
    let (upstream, accepted) = counting_server();
    let said = Said::default();
    let proxy = HttpProxy::start(&[], &upstream, said.clone());
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let port = proxy.address.rsplit(':').next().unwrap().to_string();
    let refused = [
        (
            "POST",
            "host: evil.example.com\r\norigin: http://evil.example.com\r\n",
        ),
        (
            "POST",
            &format!("host: evil.example.com:{port}\r\n") as &str,
        ),
        ("GET", "host: evil.example.com\r\n"),
        (
            "DELETE",
            &format!("host: localhost:{port}\r\norigin: http://evil.example.com\r\n"),
        ),
        (
            "POST",
            &format!("host: localhost:{port}\r\norigin: null\r\n"),
        ),
        ("POST", "host: localhost:1\r\n"),
    ];
    for (method, headers) in refused {
        let (status, body) = proxy.request(method, headers, ping.as_bytes());
        assert_eq!(status, 403, "{method} {headers:?}: {body}");
        let answer: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
        assert_eq!(answer["error"]["code"], -32000, "{body}");
        assert!(
            (answer["error"]["message"].as_str().unwrap()).starts_with("Forbidden: "),
            "{body}"
        );
    }
    let stderr = said.once_it_says("refused a POST request: Host \"localhost:1\"");
    assert!(
        stderr.contains(
            "mcp-jsonschema proxy: refused a DELETE request: Origin \"http://evil.example.com\" \
             is not allowed (the loopback names are; --allow-origin adds others)\n"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.matches("refused a").count(), 6, "{stderr}");
    let connections = accepted.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(connections, 0, "a refused request reached the server");
    for headers in [
        format!("host: localhost:{port}\r\n"),
        format!("host: [::1]:{port}\r\norigin: http://localhost:6274\r\n"),
    ] {
        let (status, body) = proxy.request("POST", &headers, ping.as_bytes());
        assert_eq!(status, 200, "{headers:?}: {body}");
    }
    // Widened: a name and an origin of the user's.
    let proxy = HttpProxy::start(
        &[
            "--allow-host",
            "mcp.example.com",
            "--allow-origin",
            "https://app.example.com",
        ],
        &upstream,
        std::io::sink(),
    );
    let headers = "host: mcp.example.com\r\norigin: https://app.example.com\r\n";
    let (status, body) = proxy.request("POST", headers, ping.as_bytes());
    assert_eq!(status, 200, "{body}");
    let headers = "host: mcp.example.com\r\norigin: https://evil.example.com\r\n";
    assert_eq!(proxy.request("POST", headers, ping.as_bytes()).0, 403);
}

/// A listener beyond loopback is reachable under names the proxy cannot know: it does
/// not start until they are said.
#[test]
fn a_listener_beyond_loopback_needs_allow_host() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
        .args([
            "proxy",
            "--listen",
            "0.0.0.0:0",
            "--upstream",
            "http://127.0.0.1:1/mcp",
        ])
        .output()
        .expect("the proxy runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("mcp-jsonschema: --listen 0.0.0.0:0: not a loopback address"),
        "{stderr}"
    );
    assert!(stderr.contains("--allow-host"), "{stderr}");
}

/// A Streamable HTTP server that closes a call's event stream after its first event (an
/// id to resume from, no data), as a server that wants to be polled does, and delivers
/// the call's result, whose structured content breaks the output schema, on the GET
/// stream the client resumes with `Last-Event-ID`; its one session is `s1`. Returns its
/// URL.
fn polling_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("its address"));
    let tools = json!({"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"temp": {"type": "number"}}}}]});
    let call_id = std::sync::Arc::new(std::sync::Mutex::new(Value::Null));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let mut reader = BufReader::new(stream);
            let (mut head, mut length) = (String::new(), 0);
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                if line.trim_end().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = std::io::Read::read_exact(&mut reader, &mut body);
            let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let (kind, answer) = if head.starts_with("GET") {
                let id = call_id.lock().unwrap().clone();
                let result = json!({"jsonrpc": "2.0", "id": id,
                    "result": {"content": [], "structuredContent": {"temp": "warm"}}});
                ("text/event-stream", format!("id: 2\ndata: {result}\n\n"))
            } else if message["method"] == "tools/call" {
                *call_id.lock().unwrap() = message["id"].clone();
                ("text/event-stream", "id: 1\ndata: \n\n".to_string())
            } else {
                let result = json!({"jsonrpc": "2.0", "id": message["id"], "result": tools});
                ("application/json", result.to_string())
            };
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\nmcp-session-id: s1\r\n\
                 connection: close\r\n\r\n{answer}"
            );
            let _ = reader.get_mut().write_all(response.as_bytes());
        }
    });
    url
}

/// A result that comes on a resumed stream is checked like any other: the server closed
/// the call's stream early, the client resumed it with a GET, and the bad result on it
/// is replaced by the tool error.
#[test]
fn a_result_on_a_resumed_stream_is_checked() {
    let upstream = polling_server();
    let proxy = HttpProxy::start(&[], &upstream, std::io::sink());
    let session = "mcp-session-id: s1\r\n";
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert_eq!(proxy.post_with(session, list.to_string().as_bytes()).0, 200);
    let call = call(2, json!({"city": "Oslo"})).to_string();
    let (status, body) = proxy.post_with(session, call.as_bytes());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("id: 1"), "the event to resume from: {body}");
    let headers = format!("host: {}\r\n{session}last-event-id: 1\r\n", proxy.address);
    let (status, body) = proxy.request("GET", &headers, b"");
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(r#"invalid output from tool \"get_weather\":\n/temp: expected number, got string \"warm\""#),
        "{body}"
    );
    assert!(!body.contains(r#""structuredContent""#), "{body}");
}
