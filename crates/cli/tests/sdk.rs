//! The proxy between real MCP SDKs, no mocks: servers built on the Python SDK (`mcp` 2.3.0
//! from PyPI) and the TypeScript SDK (`@modelcontextprotocol/sdk` 1.32.2 from npm), each
//! driven by a real client of either SDK through `mcp-jsonschema proxy`, over stdio
//! (`proxy -- SERVER`) and over Streamable HTTP (`proxy --listen --upstream`). The servers
//! validate nothing themselves and record every `tools/call` they receive; each test
//! asserts what the client got back, what the server received, and that no invalid call
//! reached it (`tests/sdk/`: the servers, the clients, the tools and the calls).
//!
//! Last, the official MCP conformance suite (`@modelcontextprotocol/conformance` from npm,
//! its server scenarios) runs against a TypeScript SDK server, directly and through
//! `proxy --listen`, and each scenario must end the same both ways.
//!
//! The SDKs are installed on first use into `target/tmp/sdk-env/` (a venv, and an npm
//! prefix; the suite a prefix of its own) and kept there. Where Python >= 3.10 with venv, or node >= 18 with npm, is
//! missing, the tests that need it print that they skipped and pass; the reasons are
//! also written to `target/tmp/sdk-env/SKIPPED`, which `scripts/test.sh` prints.

mod common;

use common::HttpProxy;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

const PYTHON_SDK: &str = "mcp==2.3.0";
const TYPESCRIPT_SDK: &str = "@modelcontextprotocol/sdk@1.32.2";
/// How long one client run (its proxy and server included) may take.
const RUN_LIMIT: Duration = Duration::from_secs(120);

/// The SDK a server or client is built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sdk {
    Python,
    TypeScript,
}

/// Where each SDK's interpreter is, once installed, or why it is not.
struct Setup {
    python: Result<PathBuf, String>,
    node: Result<PathBuf, String>,
}

fn env_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("sdk-env")
}

fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk")
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let dir = env_dir();
        std::fs::create_dir_all(&dir).expect("target/tmp/sdk-env");
        let _ = std::fs::remove_file(dir.join("SKIPPED"));
        Setup {
            python: python(&dir),
            node: node(&dir),
        }
    })
}

/// Runs `command`, returning its standard output, or its output as the error.
fn output(command: &mut Command) -> Result<String, String> {
    let shown = format!("{command:?}");
    match command.output() {
        Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        Ok(out) => Err(format!(
            "{shown}: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

/// The venv's Python with the Python SDK installed (installed now if needed).
fn python(dir: &Path) -> Result<PathBuf, String> {
    let venv = dir.join("venv");
    let python = venv.join("bin/python");
    let marker = venv.join(format!(".installed-{PYTHON_SDK}"));
    if marker.exists() {
        return Ok(python);
    }
    let check = "import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)";
    output(Command::new("python3").args(["-c", check]))
        .map_err(|_| "no python3 >= 3.10 with venv on this machine".to_string())?;
    output(
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv),
    )
    .map_err(|e| format!("python3 cannot make a venv with pip (python3-venv missing?): {e}"))?;
    let install = output(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        PYTHON_SDK,
    ]));
    if let Err(e) = install {
        panic!("installing {PYTHON_SDK} failed: {e}");
    }
    std::fs::write(&marker, "").expect("the venv's marker");
    Ok(python)
}

/// `node`, with the TypeScript SDK installed beside copies of the scripts.
fn node(dir: &Path) -> Result<PathBuf, String> {
    let prefix = dir.join("node");
    let version = output(Command::new("node").arg("--version"))
        .map_err(|_| "no node on this machine".to_string())?;
    let major: u32 = (version.trim().trim_start_matches('v').split('.').next())
        .and_then(|major| major.parse().ok())
        .unwrap_or(0);
    if major < 18 {
        return Err(format!("node {} is older than 18", version.trim()));
    }
    let marker = prefix.join(format!(".installed-{}", TYPESCRIPT_SDK.replace('/', "+")));
    if !marker.exists() {
        output(Command::new("npm").arg("--version"))
            .map_err(|_| "no npm on this machine".to_string())?;
        std::fs::create_dir_all(&prefix).expect("the npm prefix");
        let install = output(
            Command::new("npm")
                .args([
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    "--prefix",
                ])
                .arg(&prefix)
                .arg(TYPESCRIPT_SDK),
        );
        if let Err(e) = install {
            panic!("installing {TYPESCRIPT_SDK} failed: {e}");
        }
        std::fs::write(&marker, "").expect("the npm prefix's marker");
    }
    // Node finds packages beside the importing script: the scripts run from the prefix.
    let files = [
        "server.mjs",
        "client.mjs",
        "tools.json",
        "calls.json",
        "conformance-server.mjs",
    ];
    for file in files {
        std::fs::copy(sources().join(file), prefix.join(file)).expect("a script copied");
    }
    Ok(PathBuf::from("node"))
}

/// The interpreter and script of `sdk`'s `role` (`server` or `client`), or why it is
/// skipped (printed, and added to the SKIPPED file).
fn program(sdk: Sdk, role: &str) -> Option<Vec<String>> {
    let setup = setup();
    let found = match sdk {
        Sdk::Python => (setup.python.as_ref())
            .map(|python| vec![path(python), path(&sources().join(format!("{role}.py")))]),
        Sdk::TypeScript => (setup.node.as_ref()).map(|node| {
            let script = env_dir().join("node").join(format!("{role}.mjs"));
            vec![path(node), path(&script)]
        }),
    };
    match found {
        Ok(program) => Some(program),
        Err(why) => {
            static SKIPPED: Mutex<()> = Mutex::new(());
            let _one_at_a_time = SKIPPED.lock();
            let line = format!("SKIPPED the {sdk:?} SDK tests: {why}");
            println!("{line}");
            let file = env_dir().join("SKIPPED");
            let known = std::fs::read_to_string(&file).unwrap_or_default();
            if !known.contains(&line) {
                let _ = std::fs::write(&file, format!("{known}{line}\n"));
            }
            None
        }
    }
}

fn path(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}

/// A scratch directory for one case.
fn scratch(case: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sdk")
        .join(case);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs `command` to its end within [`RUN_LIMIT`]: its standard output.
fn run(command: &mut Command, what: &str) -> String {
    let (status, text, errors) = run_to_end(command, what);
    assert!(status.success(), "{what}: {status}\n{text}\n{errors}");
    text
}

/// Runs `command` to its end within [`RUN_LIMIT`]: its status, standard output and
/// standard error.
fn run_to_end(command: &mut Command, what: &str) -> (std::process::ExitStatus, String, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let mut text = String::new();
    let reading = std::thread::spawn(move || {
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("the client's status") {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            panic!("{what}: still running after {RUN_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reading.join().expect("stdout read");
    let errors = reader.join().expect("stderr read");
    (status, text, errors)
}

/// The proxy's command line, before the server's.
fn proxy(log: &Path) -> Vec<String> {
    vec![
        env!("CARGO_BIN_EXE_mcp-jsonschema").to_string(),
        "proxy".into(),
        "--log".into(),
        path(log),
    ]
}

/// One run of a client through the proxy to a server.
struct Case {
    name: String,
    server: Vec<String>,
    client: Vec<String>,
    dir: PathBuf,
    /// What the server received.
    record: PathBuf,
    /// The proxy's `--log`.
    log: PathBuf,
}

/// The programs and scratch files of case `name`, `None` if an SDK is missing.
fn prepare(name: String, server: Sdk, client: Sdk) -> Option<Case> {
    let (Some(server), Some(client)) = (program(server, "server"), program(client, "client"))
    else {
        return None;
    };
    let dir = scratch(&name);
    Some(Case {
        record: dir.join("record.jsonl"),
        log: dir.join("log.jsonl"),
        name,
        server,
        client,
        dir,
    })
}

/// `client` calling `server` through the stdio proxy.
fn stdio(server: Sdk, client: Sdk) {
    let name = format!("stdio-{server:?}-server-{client:?}-client").to_lowercase();
    let Some(case) = prepare(name, server, client) else {
        return;
    };
    let mut command = Command::new(&case.client[0]);
    command
        .args(&case.client[1..])
        .arg("stdio")
        .args(proxy(&case.log))
        .arg("--")
        .args(&case.server)
        .arg("stdio")
        .env("MCP_RECORD", &case.record)
        .current_dir(&case.dir);
    let report = run(&mut command, &case.name);
    check(server, client, &report, &case.record, &case.log);
}

/// A child process killed when the test is done with it (or fails).
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A port free a moment ago, for a server that takes its port on the command line.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// How a server over HTTP answers a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answers {
    /// With an SSE stream (the SDKs' default).
    Sse,
    /// With a JSON body.
    Json,
}

/// Starts `server` over Streamable HTTP on a free port, recording its calls to `record`;
/// returns once it accepts connections.
fn serve_http(server: &[String], answers: Answers, record: &Path, case: &str) -> (Running, u16) {
    let port = free_port();
    let mut command = Command::new(&server[0]);
    command
        .args(&server[1..])
        .args(["http", &port.to_string()])
        .args((answers == Answers::Json).then_some("json"))
        .env("MCP_RECORD", record);
    (listening(&mut command, port, case), port)
}

/// Starts `command`, a server, and waits until it accepts connections on `port`.
fn listening(command: &mut Command, port: u16, case: &str) -> Running {
    let running = Running(
        command
            .stdin(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{case}: the server: {e}")),
    );
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < RUN_LIMIT,
            "{case}: the server never listened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    running
}

/// The HTTP proxy in front of the server at `port`, logging to the case's log; what it
/// says on standard error (its decisions, as the log has them) is kept beside the log.
fn http_proxy(case: &Case, port: u16) -> HttpProxy {
    let stderr = std::fs::File::create(case.dir.join("proxy.stderr")).expect("a scratch file");
    let upstream = format!("http://127.0.0.1:{port}/mcp");
    HttpProxy::start(&["--log", &path(&case.log)], &upstream, stderr)
}

/// `client` calling `server` through the HTTP proxy, both on the loopback interface.
fn http(server: Sdk, client: Sdk, answers: Answers) {
    let name = format!("http-{answers:?}-{server:?}-server-{client:?}-client").to_lowercase();
    let Some(case) = prepare(name, server, client) else {
        return;
    };
    let (_server, port) = serve_http(&case.server, answers, &case.record, &case.name);
    let proxy = http_proxy(&case, port);
    let mut command = Command::new(&case.client[0]);
    command
        .args(&case.client[1..])
        .args(["http", &format!("http://{}/mcp", proxy.address)])
        .current_dir(&case.dir);
    let report = run(&mut command, &case.name);
    check(server, client, &report, &case.record, &case.log);
}

/// A 2026-07-28 client's calls to a stateless server (the Python SDK's), each on a new
/// connection and without a listing first, as a gateway might send them: the proxy lists
/// the tools itself (with the call's headers and `_meta`) before deciding each call.
#[test]
fn http_calls_before_any_listing_python_server() {
    let name = "http-calls-before-listing-python-server".to_string();
    let Some(case) = prepare(name, Sdk::Python, Sdk::Python) else {
        return;
    };
    let (_server, port) = serve_http(&case.server, Answers::Sse, &case.record, &case.name);
    let proxy = http_proxy(&case, port);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let call = |id: u32, arguments: Value| {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "get_weather", "arguments": arguments, "_meta": meta}});
        let headers = "mcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\n\
                       mcp-name: get_weather\r\n";
        let (status, body) = proxy.post_with(headers, call.to_string().as_bytes());
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Value>(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
    };
    let bad = call(1, json!({"city": "Oslo", "units": "kelvin"}));
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    assert_eq!(
        bad["result"]["content"][0]["text"],
        "invalid arguments for tool \"get_weather\":\n\
         /units: expected one of \"metric\", \"imperial\", got \"kelvin\""
    );
    assert_eq!(bad["result"]["resultType"], "complete");
    let good = call(2, json!({"city": "Oslo"}));
    assert_eq!(
        good["result"]["structuredContent"]["city"], "Oslo",
        "{good}"
    );
    let bad_output = call(3, json!({"city": "Nowhere"}));
    assert_eq!(bad_output["result"]["isError"], true, "{bad_output}");
    assert_eq!(
        bad_output["result"]["resultType"], "complete",
        "{bad_output}"
    );
    let received: Vec<Value> = (lines(&case.record).into_iter())
        .map(|r| r["arguments"].clone())
        .collect();
    assert_eq!(
        received,
        [json!({"city": "Oslo"}), json!({"city": "Nowhere"})]
    );
}

/// Parses JSON Lines.
fn lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// What a client must have got, a server received and the proxy logged.
fn check(server: Sdk, client: Sdk, report: &str, record: &Path, log: &Path) {
    let report: Value = serde_json::from_str(report).unwrap_or_else(|e| panic!("{e}: {report}"));
    let both_python = server == Sdk::Python && client == Sdk::Python;
    // The Python SDKs speak 2026-07-28 together; anything with the TypeScript SDK 1.x the
    // handshake era: the proxy carries both.
    let protocol = if both_python {
        "2026-07-28"
    } else {
        "2025-11-25"
    };
    assert_eq!(report["protocol"], protocol, "{report}");
    // The tool whose schema does not compile is hidden.
    assert_eq!(
        report["tools"],
        json!(["find-by-id-or-name", "get_hourly", "get_weather"])
    );
    let weather = &report["good-weather"];
    assert_eq!(weather["isError"], false, "{weather}");
    assert_eq!(weather["structured"]["city"], "Oslo");
    assert_eq!(
        weather["structured"]["hours"].as_array().map(Vec::len),
        Some(4)
    );
    assert_eq!(report["good-find"]["isError"], false);
    let found: Value =
        serde_json::from_str(report["good-find"]["text"][0].as_str().unwrap()).unwrap();
    assert_eq!(found, json!({"id": 7, "name": "?"}));
    // An array output schema: on 2026-07-28 only (see server.py).
    let hourly = &report["good-hourly"];
    assert_eq!(hourly["isError"], false);
    match both_python {
        true => assert_eq!(
            hourly["structured"].as_array().map(Vec::len),
            Some(2),
            "{hourly}"
        ),
        false => assert_eq!(hourly["structured"], Value::Null),
    }
    let refusals = [
        (
            "bad-nested-enum",
            "invalid arguments for tool \"get_weather\":\n\
             /units: expected one of \"metric\", \"imperial\", got \"kelvin\"\n\
             /where: missing required property \"lon\"\n\
             /where/lat: expected number, got string \"59.9\"; send the number itself, not a JSON-encoded string",
        ),
        (
            "bad-one-of",
            "invalid arguments for tool \"find-by-id-or-name\":\n\
             (root): {\"id\":7,\"name\":\"seven\"} is valid under more than one of the schemas in oneOf (#0 and #1)",
        ),
        (
            "bad-missing",
            "invalid arguments for tool \"get_weather\":\n(root): missing required property \"city\"",
        ),
        (
            "bad-misspelt",
            "invalid arguments for tool \"get_weather\":\n\
             /unit: property \"unit\" is not allowed; did you mean \"units\"?",
        ),
    ];
    for (label, text) in refusals {
        assert_eq!(report[label]["isError"], true, "{label}: {}", report[label]);
        assert_eq!(report[label]["text"], json!([text]), "{label}");
    }
    assert_eq!(report["hidden"]["isError"], true);
    let hidden = report["hidden"]["text"][0].as_str().unwrap_or_default();
    assert!(
        hidden.starts_with("tool \"broken\" is not available: its inputSchema does not compile"),
        "{hidden}"
    );
    // A bad output reaches the client as a tool error the model reads, which neither
    // SDK's client turns into an exception (its own output check skips error results).
    let failed = &report["bad-output"];
    assert_eq!(failed["isError"], true, "{failed}");
    let text = failed["text"][0].as_str().unwrap_or_default();
    assert!(
        text.starts_with(
            "invalid output from tool \"get_weather\":\n/city: expected string, got integer 0\n"
        ),
        "{text}"
    );
    assert_eq!(failed["structured"], Value::Null, "{failed}");
    // A tool the server never listed: answered as the SDKs answer an unknown tool.
    assert_eq!(
        report["unlisted"],
        json!({"isError": true, "structured": null,
               "text": ["unknown tool \"no_such_tool\": the server does not list it"]}),
    );
    // The server received the valid calls and the one whose result it got wrong, in order,
    // as sent; never an invalid one.
    let calls: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(sources().join("calls.json")).unwrap())
            .unwrap();
    let sent = |label: &str| {
        let call = calls
            .iter()
            .find(|c| c[0] == label)
            .expect("a call of calls.json");
        json!({"tool": call[1], "arguments": call[2]})
    };
    let received: Vec<Value> = (lines(record).into_iter())
        .map(|r| json!({"tool": r["tool"], "arguments": r["arguments"]}))
        .collect();
    assert_eq!(
        received,
        ["good-weather", "good-find", "good-hourly", "bad-output"].map(sent),
        "what the server received"
    );
    // The proxy's log: one line per decision.
    let decisions: Vec<String> = (lines(log).iter())
        .map(|d| {
            format!(
                "{} {} {}",
                d["tool"].as_str().unwrap_or("-"),
                d["check"].as_str().unwrap(),
                d["verdict"].as_str().unwrap()
            )
        })
        .collect();
    for expected in [
        "broken schema hidden",
        "get_weather arguments rejected",
        "find-by-id-or-name arguments rejected",
        "broken arguments hidden",
        "get_weather output failed",
        "get_weather output passed",
        "no_such_tool arguments unlisted",
    ] {
        assert!(
            decisions.iter().any(|d| d == expected),
            "{expected} in {decisions:?}"
        );
    }
    let rejected = decisions
        .iter()
        .filter(|d| d.ends_with("arguments rejected"))
        .count();
    assert_eq!(rejected, 4, "{decisions:?}");
}

/// `tools --stdio` on a real server of `sdk`: the report on its four tools.
fn tools_stdio(sdk: Sdk) {
    let Some(server) = program(sdk, "server") else {
        return;
    };
    let dir = scratch(&format!("tools-stdio-{sdk:?}").to_lowercase());
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
        .args(["tools", "--output", "json", "--stdio", "--"])
        .args(&server)
        .arg("stdio")
        .env("MCP_RECORD", dir.join("record.jsonl"))
        .output()
        .expect("the command runs");
    check_tools(sdk, &output);
}

/// `tools --http` on a real server of `sdk` over Streamable HTTP: the same report.
fn tools_http(sdk: Sdk) {
    let Some(server) = program(sdk, "server") else {
        return;
    };
    let case = format!("tools-http-{sdk:?}").to_lowercase();
    let dir = scratch(&case);
    let (_server, port) = serve_http(&server, Answers::Sse, &dir.join("record.jsonl"), &case);
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
        .args(["tools", "--output", "json", "--http"])
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .output()
        .expect("the command runs");
    check_tools(sdk, &output);
}

/// What `tools` must report on the test servers' four tools.
fn check_tools(sdk: Sdk, output: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the broken tool is an error: {stderr}"
    );
    let (name, protocol) = match sdk {
        Sdk::Python => ("python-sdk-server 1", "2026-07-28"),
        Sdk::TypeScript => ("typescript-sdk-server 1", "2025-11-25"),
    };
    assert!(
        stderr.contains(&format!(": {name}, protocol {protocol}, 4 tools listed\n")),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    let verdicts: Vec<Value> = (report["tools"].as_array().expect("tools").iter())
        .map(|t| json!([t["name"], t["inputSchema"]["compiles"]]))
        .collect();
    assert_eq!(
        verdicts,
        [
            json!(["get_weather", true]),
            json!(["get_hourly", true]),
            json!(["find-by-id-or-name", true]),
            json!(["broken", false])
        ]
    );
    // The array output schema is listed on 2026-07-28 only.
    let hourly_output = report["tools"][1]["outputSchema"]["compiles"].clone();
    match sdk {
        Sdk::Python => assert_eq!(hourly_output, true),
        Sdk::TypeScript => assert_eq!(hourly_output, Value::Null),
    }
}

#[test]
fn tools_stdio_python_server() {
    tools_stdio(Sdk::Python);
}

#[test]
fn tools_stdio_typescript_server() {
    tools_stdio(Sdk::TypeScript);
}

#[test]
fn tools_http_python_server() {
    tools_http(Sdk::Python);
}

#[test]
fn tools_http_typescript_server() {
    tools_http(Sdk::TypeScript);
}

/// One test per transport, server, client (and for HTTP, how the server answers).
macro_rules! proxy_tests {
    ($($name:ident: $transport:ident($server:ident, $client:ident $(, $answers:ident)?);)*) => {$(
        #[test]
        fn $name() {
            $transport(Sdk::$server, Sdk::$client $(, Answers::$answers)?);
        }
    )*};
}

proxy_tests! {
    stdio_python_server_python_client: stdio(Python, Python);
    stdio_python_server_typescript_client: stdio(Python, TypeScript);
    stdio_typescript_server_python_client: stdio(TypeScript, Python);
    stdio_typescript_server_typescript_client: stdio(TypeScript, TypeScript);
    http_python_server_python_client: http(Python, Python, Sse);
    http_python_server_typescript_client: http(Python, TypeScript, Sse);
    http_typescript_server_python_client: http(TypeScript, Python, Sse);
    http_typescript_server_typescript_client: http(TypeScript, TypeScript, Sse);
    http_json_python_server_typescript_client: http(Python, TypeScript, Json);
    http_json_typescript_server_python_client: http(TypeScript, Python, Json);
}

// --- The official conformance suite, directly and through the proxy ----------------------

/// The official MCP conformance suite, from npm.
const CONFORMANCE: &str = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
/// What serves the suite's one `fs.globSync` import on Node < 22.
const GLOB: &str = "glob@15.0.0";

/// The suite's entry point, installed now if needed (into `target/tmp/sdk-env/conformance`)
/// and, on Node 20 and 21, patched there to import `globSync` from `glob` (the only Node
/// 22 API it uses); or why it is skipped.
fn conformance_suite() -> Result<PathBuf, String> {
    setup().node.as_ref().map_err(Clone::clone)?;
    let version = output(Command::new("node").arg("--version"))?;
    let major: u32 = (version.trim().trim_start_matches('v').split('.').next())
        .and_then(|major| major.parse().ok())
        .unwrap_or(0);
    if major < 20 {
        return Err(format!("node {} is older than 20", version.trim()));
    }
    let prefix = env_dir().join("conformance");
    let marker = prefix.join(format!(".installed-{}", CONFORMANCE.replace('/', "+")));
    if !marker.exists() {
        std::fs::create_dir_all(&prefix).expect("the suite's npm prefix");
        let install = output(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .arg("--prefix")
                .arg(&prefix)
                .args([CONFORMANCE, GLOB]),
        );
        if let Err(e) = install {
            panic!("installing {CONFORMANCE} failed: {e}");
        }
        std::fs::write(&marker, "").expect("the suite's marker");
    }
    let entry = prefix.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    if major < 22 {
        let code = std::fs::read_to_string(&entry).expect("the suite's dist/index.js");
        if let Some(patched) = serve_glob_sync(&code)? {
            std::fs::write(&entry, patched).expect("the suite patched");
        }
    }
    Ok(entry)
}

/// `code` (the suite's bundle) with its `globSync` taken from `glob` rather than `fs`:
/// `None` when it already is.
fn serve_glob_sync(code: &str) -> Result<Option<String>, String> {
    if code.contains(r#"}from"glob";"#) {
        return Ok(None);
    }
    let unknown = || "the suite no longer imports globSync from fs as this test knows".to_string();
    let at = code.find("globSync as ").ok_or_else(unknown)?;
    let end = at + code[at..].find(r#"}from"fs";"#).ok_or_else(unknown)?;
    let name: String = (code[at + "globSync as ".len()..].chars())
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
        .collect();
    let specifier = format!("globSync as {name}");
    let import = &code[..end];
    let start = import.rfind("import{").ok_or_else(unknown)?;
    let list = &import[start + "import{".len()..];
    let kept: Vec<&str> = list.split(',').filter(|s| *s != specifier).collect();
    let statement_end = end + r#"}from"fs";"#.len();
    Ok(Some(format!(
        r#"{}import{{{}}}from"fs";import{{globSync as {name}}}from"glob";{}"#,
        &code[..start],
        kept.join(","),
        &code[statement_end..]
    )))
}

/// The string members `first` and `second` of `object`, as `first second`.
fn two(object: &Value, first: &str, second: &str) -> String {
    let member = |name: &str| object[name].as_str().unwrap_or("?").to_string();
    format!("{} {}", member(first), member(second))
}

/// One run of the suite's server scenarios (the active suite) against `url`: each
/// scenario's checks as `id status`, by scenario, and the summary's total line.
fn conformance_run(suite: &Path, url: &str, out: &Path) -> (BTreeMap<String, Vec<String>>, String) {
    let what = format!("the conformance suite against {url}");
    let mut command = Command::new("node");
    command
        .arg(suite)
        .args(["server", "--url", url, "-o"])
        .arg(out);
    let (status, stdout, stderr) = run_to_end(&mut command, &what);
    let total = (stdout.lines())
        .find(|line| line.starts_with("Total: "))
        .unwrap_or_else(|| panic!("{what}: {status}, no total\n{stdout}\n{stderr}"))
        .to_string();
    let mut scenarios = BTreeMap::new();
    for entry in std::fs::read_dir(out).expect("the suite's results") {
        let dir = entry.expect("a result").path();
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        // server-<scenario>-<time>, the time as 2026-12-07T06-53-44-434Z.
        let scenario = name.strip_prefix("server-").unwrap_or(name);
        let time = "-2026-12-07T06-53-44-434Z".len();
        let scenario = match scenario.len() > time && scenario.ends_with('Z') {
            true => &scenario[..scenario.len() - time],
            false => scenario,
        };
        let checks: Value =
            serde_json::from_slice(&std::fs::read(dir.join("checks.json")).expect("checks.json"))
                .expect("checks.json is JSON");
        let checks = (checks.as_array().expect("an array of checks").iter())
            .map(|check| two(check, "id", "status"))
            .collect();
        scenarios.insert(scenario.to_string(), checks);
    }
    (scenarios, total)
}

/// The official conformance suite's server scenarios against a real TypeScript SDK server
/// (`tests/sdk/conformance-server.mjs`, the project's own fixture for the suite's
/// scenarios) directly and through `proxy --listen`: every scenario must end the same,
/// check by check, DNS-rebinding protection included; the server's own run passes all.
#[test]
fn the_conformance_suite_passes_through_the_proxy_as_directly() {
    let suite = match conformance_suite() {
        Ok(suite) => suite,
        Err(why) => {
            let line = format!("SKIPPED the conformance suite through the proxy: {why}");
            println!("{line}");
            let file = env_dir().join("SKIPPED");
            let known = std::fs::read_to_string(&file).unwrap_or_default();
            let _ = std::fs::write(&file, format!("{known}{line}\n"));
            return;
        }
    };
    let dir = scratch("conformance");
    let port = free_port();
    let server = env_dir().join("node/conformance-server.mjs");
    let mut command = Command::new("node");
    command
        .arg(&server)
        .arg(port.to_string())
        .stdout(Stdio::null());
    let _server = listening(&mut command, port, "the conformance server");
    let log = dir.join("log.jsonl");
    let stderr = std::fs::File::create(dir.join("proxy.stderr")).expect("a scratch file");
    let upstream = format!("http://127.0.0.1:{port}/mcp");
    let proxy = HttpProxy::start(&["--log", &path(&log)], &upstream, stderr);
    // The suite checks DNS-rebinding protection on a localhost URL only.
    let localhost = |address: &str| {
        let port = address.rsplit(':').next().expect("a port");
        format!("http://localhost:{port}/mcp")
    };
    let (direct, direct_total) = conformance_run(
        &suite,
        &localhost(&format!("127.0.0.1:{port}")),
        &dir.join("direct"),
    );
    let (proxied, proxied_total) =
        conformance_run(&suite, &localhost(&proxy.address), &dir.join("proxied"));
    println!("directly:          {direct_total}\nthrough the proxy: {proxied_total}");
    assert!(
        direct.len() >= 31,
        "the active suite's scenarios: {direct:?}"
    );
    assert!(
        direct_total.ends_with(" 0 failed"),
        "the fixture passes the suite directly: {direct_total}\n{direct:#?}"
    );
    for (scenario, checks) in &direct {
        assert_eq!(
            proxied.get(scenario),
            Some(checks),
            "{scenario}: directly, then through the proxy"
        );
    }
    assert_eq!(direct.len(), proxied.len());
    assert_eq!(direct_total, proxied_total);
    let rebinding = &proxied["dns-rebinding-protection"];
    assert!(
        rebinding
            .iter()
            .any(|c| c == "localhost-host-rebinding-rejected SUCCESS"),
        "{rebinding:?}"
    );
    // The proxy checked calls both ways on the way, not only passed them.
    let decisions: Vec<String> = (lines(&log).iter())
        .map(|decision| two(decision, "check", "verdict"))
        .collect();
    for expected in ["arguments passed", "output passed"] {
        assert!(
            decisions.iter().any(|d| d == expected),
            "{expected} in {decisions:?}"
        );
    }
}
