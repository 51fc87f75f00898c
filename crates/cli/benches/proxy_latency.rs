//! What `mcp-jsonschema proxy` adds to a `tools/call`: round trips of 10,000 calls
//! straight to a server and then through the proxy, with p50 and p99 of each and their difference; over stdio
//! (`proxy -- SERVER`) and over Streamable HTTP (`proxy --listen --upstream`), and for
//! HTTP the throughput of 8 clients calling at once, straight and through the proxy.
//!
//! ```sh
//! cargo bench -p mcp-jsonschema-cli --bench proxy_latency            # stdio and HTTP
//! cargo bench -p mcp-jsonschema-cli --bench proxy_latency -- --only http --calls 2000
//! ```
//!
//! The server is this program run again with `--serve` (stdio) or `--serve-http` (a
//! hyper server on a free loopback port, answering each POST with a JSON body): it
//! answers `tools/list` with one tool (`get_weather`, the kind of schema the README's
//! examples use) and each `tools/call` at once with a fixed result carrying conforming
//! `structuredContent`, so that the server's own time is the same both ways and small.
//! The arguments are under 1 KB (about 200 bytes). The HTTP client is a plain blocking
//! HTTP/1.1 client over one kept-alive connection per client, so that what is timed is
//! the exchange, not a client runtime.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Clients calling at once in the throughput run.
const CLIENTS: usize = 8;

fn tools() -> Value {
    json!({"tools": [{
        "name": "get_weather",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1, "maxLength": 100},
                "units": {"enum": ["metric", "imperial"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "where": {
                    "type": "object",
                    "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                    "required": ["lat", "lon"],
                    "additionalProperties": false
                },
                "include": {"type": "array", "items": {"enum": ["wind", "rain", "uv", "pressure"]}, "uniqueItems": true},
                "note": {"type": "string", "maxLength": 500}
            },
            "required": ["city", "units"],
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {"temp": {"type": "number"}, "conditions": {"type": "string"}},
            "required": ["temp", "conditions"]
        }
    }]})
}

fn arguments() -> Value {
    json!({
        "city": "Reykjavik",
        "units": "metric",
        "days": 3,
        "where": {"lat": 64.1466, "lon": -21.9426},
        "include": ["wind", "rain", "uv"],
        "note": "an ordinary call: a few fields, a nested object, an array of enum values, and some text"
    })
}

/// The server's answer to `message`, if it is a request.
fn answer(message: &[u8]) -> Option<Value> {
    let message = serde_json::from_slice::<Value>(message).ok()?;
    let id = message.get("id")?;
    let result = match message["method"].as_str() {
        Some("tools/list") => tools(),
        Some("tools/call") => {
            json!({"content": [{"type": "text", "text": "{\"temp\":4.5,\"conditions\":\"cloudy\"}"}],
                   "structuredContent": {"temp": 4.5, "conditions": "cloudy"}})
        }
        _ => json!({}),
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// The server side over stdio: one line in, one line out.
fn serve() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Some(answer) = answer(line.as_bytes()) else {
            continue;
        };
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Serves HTTP/1.1 on a free loopback port (printed on standard output) on a
/// current-thread runtime, each connection with the service `serve` makes for it.
fn listen<S, F>(serve: F)
where
    F: Fn() -> std::pin::Pin<Box<dyn std::future::Future<Output = S>>>,
    S: hyper::service::Service<
            hyper::Request<hyper::body::Incoming>,
            Response = hyper::Response<http_body_util::Full<hyper::body::Bytes>>,
            Error = hyper::Error,
        > + 'static,
    S::Future: 'static,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        println!("{}", listener.local_addr().expect("its address").port());
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            let service = serve();
            tokio::task::spawn_local(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service.await)
                    .await;
            });
        }
    });
}

/// The server side over Streamable HTTP: a JSON body per POST, 202 for a notification.
/// Prints its port on standard output.
fn serve_http() {
    use http_body_util::{BodyExt, Full};
    use hyper::{body::Bytes, Response, StatusCode};
    listen(|| {
        Box::pin(async {
            hyper::service::service_fn(|request: hyper::Request<hyper::body::Incoming>| async {
                let body = request.into_body().collect().await?.to_bytes();
                let response = match answer(&body) {
                    Some(answer) => Response::builder()
                        .header("content-type", "application/json")
                        .body(Full::new(Bytes::from(answer.to_string()))),
                    None => Response::builder()
                        .status(StatusCode::ACCEPTED)
                        .body(Full::new(Bytes::new())),
                };
                Ok::<_, hyper::Error>(response.expect("a response"))
            })
        })
    });
}

/// A plain HTTP forwarder in front of the server at `upstream`, on the same stack as the
/// proxy (tokio's current-thread runtime, hyper both ways, one upstream connection per
/// client connection) but without a guard: what any such HTTP hop costs here. Prints its
/// port on standard output.
fn forward_http(upstream: u16) {
    use http_body_util::{BodyExt, Full};
    use hyper::{body::Bytes, Request, Response};
    listen(move || {
        Box::pin(async move {
            let server = tokio::net::TcpStream::connect(("127.0.0.1", upstream))
                .await
                .expect("the server listens");
            let _ = server.set_nodelay(true);
            let io = hyper_util::rt::TokioIo::new(server);
            let (sender, connection) = hyper::client::conn::http1::handshake(io)
                .await
                .expect("a connection");
            tokio::task::spawn_local(connection);
            let sender = std::rc::Rc::new(tokio::sync::Mutex::new(sender));
            hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                let sender = std::rc::Rc::clone(&sender);
                async move {
                    let (parts, body) = request.into_parts();
                    let body = body.collect().await?.to_bytes();
                    let request = Request::from_parts(parts, Full::new(body));
                    let response = sender.lock().await.send_request(request).await?;
                    let (parts, body) = response.into_parts();
                    let body: Bytes = body.collect().await?.to_bytes();
                    Ok::<_, hyper::Error>(Response::from_parts(parts, Full::new(body)))
                }
            })
        })
    });
}

/// A client's end of a server: one request, its answer awaited.
trait Client {
    /// Sends `request` (one JSON-RPC message) and returns the answer.
    fn exchange(&mut self, request: &[u8]) -> &str;
}

/// A client of a stdio server (or of the proxy in front of it).
struct Pipes {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    line: String,
}

impl Client for Pipes {
    fn exchange(&mut self, request: &[u8]) -> &str {
        self.input.write_all(request).expect("the server reads");
        self.input.write_all(b"\n").expect("the server reads");
        self.line.clear();
        self.output
            .read_line(&mut self.line)
            .expect("the server answers");
        &self.line
    }
}

impl Drop for Pipes {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP/1.1 client over one kept-alive connection to `/mcp`.
struct Http {
    /// The port it is connected to, which its `Host` names.
    port: u16,
    stream: BufReader<TcpStream>,
    request: Vec<u8>,
    body: Vec<u8>,
    answer: String,
}

impl Http {
    fn connect(port: u16) -> Http {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("the server listens");
        stream.set_nodelay(true).expect("TCP_NODELAY");
        Http {
            port,
            stream: BufReader::new(stream),
            request: Vec::new(),
            body: Vec::new(),
            answer: String::new(),
        }
    }
}

impl Client for Http {
    fn exchange(&mut self, message: &[u8]) -> &str {
        self.request.clear();
        write!(
            self.request,
            "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{}\r\ncontent-type: application/json\r\n\
             accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n",
            self.port,
            message.len()
        )
        .expect("a request in memory");
        self.request.extend_from_slice(message);
        self.stream
            .get_mut()
            .write_all(&self.request)
            .expect("the server reads");
        let mut length = 0;
        loop {
            self.answer.clear();
            self.stream
                .read_line(&mut self.answer)
                .expect("the server answers");
            let line = self.answer.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().expect("a length");
                }
            }
        }
        self.body.resize(length, 0);
        self.stream
            .read_exact(&mut self.body)
            .expect("the whole body");
        self.answer = String::from_utf8_lossy(&self.body).into_owned();
        &self.answer
    }
}

/// Numbers each request of one client.
struct Caller<C> {
    client: C,
    next_id: u64,
}

impl<C: Client> Caller<C> {
    fn new(client: C) -> Caller<C> {
        let mut caller = Caller { client, next_id: 0 };
        caller.round_trip("tools/list", &json!({}));
        caller
    }

    /// One request, its answer awaited: the time it took.
    fn round_trip(&mut self, method: &str, params: &Value) -> Duration {
        self.next_id += 1;
        let request =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
                .to_string();
        let started = Instant::now();
        let answer = self.client.exchange(request.as_bytes());
        let took = started.elapsed();
        assert!(
            answer.contains("\"structuredContent\"") || method != "tools/call",
            "{answer}"
        );
        took
    }
}

/// A child process ended with the bench.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_stdio(command: &mut Command) -> Pipes {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let input = child.stdin.take().expect("piped");
    let output = BufReader::new(child.stdout.take().expect("piped"));
    Pipes {
        child,
        input,
        output,
        line: String::new(),
    }
}

/// The HTTP server, and the proxy in front of it: each with the port it listens on.
fn start_http(me: &std::path::Path) -> ((Running, u16), (Running, u16)) {
    let (server, port) = start_listening(Command::new(me).arg("--serve-http"));
    let mut said = String::new();
    let mut proxy = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream"])
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("the proxy starts");
    let mut errors = BufReader::new(proxy.stderr.take().expect("piped"));
    said.clear();
    errors.read_line(&mut said).expect("the proxy's address");
    let address = (said.split("listening on http://").nth(1))
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("the proxy said {said:?}"));
    let proxy_port: u16 = (address.rsplit(':').next())
        .and_then(|p| p.parse().ok())
        .expect("a port");
    std::thread::spawn(move || std::io::copy(&mut errors, &mut std::io::sink()));
    ((server, port), (Running(proxy), proxy_port))
}

/// Runs `command`, a mode of this program that prints the port it listens on.
fn start_listening(command: &mut Command) -> (Running, u16) {
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .expect("this program starts");
    let mut said = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut said)
        .expect("its port");
    (Running(child), said.trim().parse().expect("a port"))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The times of `calls` round trips of `caller`, after a thousand to warm up.
fn times(caller: &mut Caller<impl Client>, calls: usize, params: &Value) -> Vec<Duration> {
    for _ in 0..1000 {
        caller.round_trip("tools/call", params);
    }
    (0..calls)
        .map(|_| caller.round_trip("tools/call", params))
        .collect()
}

/// `calls` round trips each way, direct first, then the table.
fn compare(
    title: &str,
    direct: &mut Caller<impl Client>,
    proxied: &mut Caller<impl Client>,
    calls: usize,
    params: &Value,
) {
    // One way after the other, each warmed up first (the proxy's schema compile, the
    // page cache, the branch predictors). Not interleaved: a proxy that kept a processor
    // busy moves where the scheduler puts the direct pair's processes next, and on this
    // kind of machine that placement alone decides a direct call's time (5 or 65 us over
    // stdio), so interleaving would measure the proxy's effect on the direct pair.
    let mut straight = times(direct, calls, params);
    let mut through = times(proxied, calls, params);
    straight.sort();
    through.sort();
    let size = params["arguments"].to_string().len();
    println!(
        "{title}, {} calls each way, arguments of {size} bytes, direct first",
        straight.len()
    );
    println!(
        "{:>10} {:>12} {:>12} {:>12}",
        "", "direct", "proxied", "added"
    );
    for (name, p) in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99)] {
        let (a, b) = (percentile(&straight, p), percentile(&through, p));
        println!(
            "{name:>10} {:>9.1} us {:>9.1} us {:>9.1} us",
            micros(a),
            micros(b),
            micros(b) - micros(a)
        );
    }
}

/// [`CLIENTS`] clients on connections of their own, each making `calls` calls to `port`
/// at once: calls per second, and the p50 and p99 of a call meanwhile.
fn throughput(port: u16, calls: usize, params: &Value) -> (f64, Duration, Duration) {
    let started = Instant::now();
    let mut times: Vec<Duration> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|_| {
                scope.spawn(|| {
                    let mut caller = Caller::new(Http::connect(port));
                    (0..calls)
                        .map(|_| caller.round_trip("tools/call", params))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        (clients.into_iter())
            .flat_map(|client| client.join().expect("a client"))
            .collect()
    });
    let rate = times.len() as f64 / started.elapsed().as_secs_f64();
    times.sort();
    (rate, percentile(&times, 0.5), percentile(&times, 0.99))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let option = |name: &str| {
        (args.iter().position(|a| a == name))
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if args.iter().any(|a| a == "--serve") {
        return serve();
    }
    if args.iter().any(|a| a == "--serve-http") {
        return serve_http();
    }
    if let Some(upstream) = option("--forward-http").and_then(|p| p.parse().ok()) {
        return forward_http(upstream);
    }
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this program
    // without it, as a check that it still works: a hundred calls do.
    let default_calls = match args.iter().any(|a| a == "--bench") {
        true => 10_000,
        false => 100,
    };
    let calls: usize = option("--calls")
        .and_then(|n| n.parse().ok())
        .unwrap_or(default_calls);
    let only = option("--only");
    let me = std::env::current_exe().expect("this program's path");
    let params = json!({"name": "get_weather", "arguments": arguments()});
    if only.as_deref() != Some("http") {
        let mut direct = Caller::new(start_stdio(Command::new(&me).arg("--serve")));
        let mut proxied = Caller::new(start_stdio(
            Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
                .args(["proxy", "--"])
                .arg(&me)
                .arg("--serve"),
        ));
        compare("stdio", &mut direct, &mut proxied, calls, &params);
    }
    if only.as_deref() != Some("stdio") {
        let ((_server, port), (_proxy, proxy_port)) = start_http(&me);
        let mut direct = Caller::new(Http::connect(port));
        let mut proxied = Caller::new(Http::connect(proxy_port));
        compare("HTTP", &mut direct, &mut proxied, calls, &params);
        let mut forwarder = Command::new(&me);
        forwarder.args(["--forward-http", &port.to_string()]);
        let (_forwarder, forwarder_port) = start_listening(&mut forwarder);
        let mut forwarded = Caller::new(Http::connect(forwarder_port));
        let title = "HTTP through a plain hyper forwarder (no guard), for comparison";
        compare(title, &mut direct, &mut forwarded, calls, &params);
        let per_client = calls / CLIENTS;
        println!("HTTP, {CLIENTS} clients at once, {per_client} calls each");
        println!("{:>10} {:>12} {:>12} {:>12}", "", "calls/s", "p50", "p99");
        for (name, port) in [("direct", port), ("proxied", proxy_port)] {
            let (rate, p50, p99) = throughput(port, per_client, &params);
            println!(
                "{name:>10} {rate:>12.0} {:>9.1} us {:>9.1} us",
                micros(p50),
                micros(p99)
            );
        }
    }
    let guard = guard_time(&params);
    println!(
        "the guard's own work per call (arguments and result, in process, median): {:.1} us",
        micros(guard)
    );
}

/// The median time `mcp::Guard` takes over one call: the request and its result.
fn guard_time(params: &Value) -> Duration {
    use mcp_jsonschema::mcp::{Guard, Side};
    let mut guard = Guard::new();
    let list = json!({"jsonrpc": "2.0", "id": 0, "method": "tools/list"}).to_string();
    let _ = guard.handle(Side::Client, &list).count();
    let listed = json!({"jsonrpc": "2.0", "id": 0, "result": tools()}).to_string();
    let _ = guard.handle(Side::Server, &listed).count();
    let result = json!({"content": [{"type": "text", "text": "{\"temp\":4.5,\"conditions\":\"cloudy\"}"}],
                        "structuredContent": {"temp": 4.5, "conditions": "cloudy"}});
    let mut times: Vec<Duration> = (1..=20_000)
        .map(|id| {
            let call =
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
                    .to_string();
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
            let started = Instant::now();
            let forwarded = guard.handle(Side::Client, &call).count();
            let passed = guard.handle(Side::Server, &answer).count();
            let took = started.elapsed();
            assert_eq!((forwarded, passed), (1, 1));
            let _ = guard.take_decisions();
            took
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}
