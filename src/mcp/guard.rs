//! The MCP session guard: [`Guard`], and what it answers and records.

use super::{Role, SchemaCache, ToolSchema};
use crate::error::ValidationError;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use smallvec::SmallVec;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Distinct schemas a guard's own cache keeps compiled.
const CACHED_SCHEMAS: usize = 1024;
/// Tracked requests (calls and listings awaiting their response) by default.
const MAX_IN_FLIGHT: usize = 10_000;
/// Distinct schema problems remembered so that each is reported once.
const MAX_REPORTED: usize = 4096;
/// Distinct unlisted tool names the guard lists the tools again for, per generation;
/// past it, a call to a tool not in the table is answered at once.
const MAX_SOUGHT: usize = 4096;
/// The prefix of the ids of the guard's own requests.
const OWN_ID_PREFIX: &str = "mcp-jsonschema-guard-";
/// The `_meta` keys of a request that say which protocol it speaks (2026-07-28 and later
/// carry them on every request); the guard's own requests copy them.
const PROTOCOL_META_PREFIX: &str = "io.modelcontextprotocol/";
/// The `_meta` key of a request's protocol version (2026-07-28 and later).
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// JSON-RPC error codes the guard answers with.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;
/// Implementation-defined (the range MCP leaves to implementations): too many requests
/// in flight through the guard.
const TOO_MANY_IN_FLIGHT: i64 = -32000;

/// One end of the session. See the example on [`Guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The MCP client (the host that runs the model).
    Client,
    /// The MCP server (the tools).
    Server,
}

impl Side {
    /// The other end. See the example on [`Guard`].
    pub fn other(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }
}

/// What a transport does with a message it gave to [`Guard::handle`]; one message may
/// call for none, one or several actions, carried out in order. See the examples on
/// [`Guard`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Pass the message, byte for byte, to the other side.
    Forward,
    /// Send `message` (one JSON-RPC message, without a line end) to `to`: a replacement
    /// for the message (to the other side), the guard's own answer (back to the sender),
    /// or a request of the guard's own (a further `tools/list` page).
    Send {
        /// Who receives it.
        to: Side,
        /// The JSON-RPC message.
        message: String,
    },
    /// The message is a `tools/call` and the guard has no current tools table: send
    /// `request` (a `tools/list` of the guard's own) to the server, feed the server's
    /// messages to [`Guard::handle`] as usual (the guard keeps the answers to itself)
    /// until [`Guard::is_listing`] is false, then give the message to
    /// [`Guard::handle_listed`]. Transports keep the client's later messages back
    /// meanwhile, so that order is kept.
    ListFirst {
        /// The `tools/list` request for the server.
        request: String,
    },
}

/// The actions for one message, in order (see [`Action`]). See the example on
/// [`Guard`].
#[derive(Debug)]
pub struct Actions {
    inner: smallvec::IntoIter<[Action; 2]>,
}

impl Iterator for Actions {
    type Item = Action;
    fn next(&mut self) -> Option<Action> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for Actions {}

impl Actions {
    fn of(actions: SmallVec<[Action; 2]>) -> Actions {
        Actions {
            inner: actions.into_iter(),
        }
    }

    fn none() -> Actions {
        Self::of(SmallVec::new())
    }

    fn forward() -> Actions {
        Self::one(Action::Forward)
    }

    fn one(action: Action) -> Actions {
        let mut actions = SmallVec::new();
        actions.push(action);
        Self::of(actions)
    }

    fn send(to: Side, message: &Value) -> Actions {
        Self::one(Action::Send {
            to,
            message: message.to_string(),
        })
    }
}

/// What to do with a tool whose `inputSchema` or `outputSchema` does not compile under
/// the MCP profile (each such tool is also reported once as a [`Decision`]). See the
/// examples on [`Guard`] ([`Hide`](BadSchema::Hide)) and [`GuardOptions`]
/// ([`Pass`](BadSchema::Pass)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BadSchema {
    /// Leave the tool out of the `tools/list` results the client receives, and answer
    /// calls to it with a tool error (the default): nothing unchecked reaches the server.
    #[default]
    Hide,
    /// List it and pass its calls: the schema that compiles is still applied, the other
    /// side of the call goes unchecked.
    Pass,
}

/// What to do with a result whose `structuredContent` breaks the tool's `outputSchema`.
/// See the example on [`GuardOptions`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BadOutput {
    /// Replace the result with a tool error (`isError: true`) whose text names each
    /// problem (the default), as the SDKs' own servers answer a bad output: the model
    /// reads it, and a client never receives a result that breaks the tool's promise.
    #[default]
    Fail,
    /// Answer the client with a JSON-RPC error naming each problem (-32603, the problems
    /// also in its `data`).
    Error,
    /// Pass the result and record the problems.
    Warn,
}

/// What to do with a call to a tool that is not in the server's `tools/list`, once the
/// guard listed the tools again to be sure. See the example on [`GuardOptions`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unlisted {
    /// Answer it as the SDKs' servers answer an unknown tool, with a tool error (the
    /// default); likewise when the tools could not be listed at all. The server never
    /// sees the call.
    #[default]
    Answer,
    /// Pass it on unchecked, recorded as [`Verdict::Unguarded`].
    Forward,
}

/// How a [`Guard`] treats what it finds. A by-value builder.
///
/// ```
/// use std::sync::Arc;
/// use mcp_jsonschema::mcp::{
///     Action, BadOutput, BadSchema, Check, Guard, GuardOptions, SchemaCache, Side, Unlisted,
///     Verdict,
/// };
/// let cache = Arc::new(SchemaCache::new(256));
/// let options = GuardOptions::default()
///     .with_bad_schema(BadSchema::Pass)
///     .with_bad_output(BadOutput::Warn)
///     .with_unlisted(Unlisted::Forward)
///     .with_masked_decisions(false)
///     .with_own_listing(false)
///     .with_max_in_flight(100)
///     .with_cache(Arc::clone(&cache));
/// let mut guard = Guard::with_options(options.clone());
///
/// // Without a listing of its own, a call before any `tools/list` passes unchecked.
/// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#;
/// assert_eq!(guard.handle(Side::Client, call).collect::<Vec<_>>(), [Action::Forward]);
/// assert_eq!(guard.take_decisions()[0].verdict, Verdict::Unguarded);
///
/// // A tool whose schema does not compile is listed as it is, its calls unchecked.
/// let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
/// let tools = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[
///     {"name":"echo","inputSchema":{"type":"object"}},
///     {"name":"broken","inputSchema":{"type":"string"}}]}}"#;
/// assert_eq!(guard.handle(Side::Client, list).collect::<Vec<_>>(), [Action::Forward]);
/// assert_eq!(guard.handle(Side::Server, tools).collect::<Vec<_>>(), [Action::Forward]);
/// assert!(guard.guards("echo") && !guard.guards("broken"));
/// let decision = guard.take_decisions().pop().unwrap();
/// assert_eq!((decision.check, decision.verdict), (Check::Schema, Verdict::Unguarded));
///
/// // The schemas were compiled into the shared cache: another guard finds them there.
/// let mut other = Guard::with_options(options);
/// other.handle(Side::Client, list).for_each(drop);
/// other.handle(Side::Server, tools).for_each(drop);
/// assert!(other.guards("echo"));
/// assert_eq!(cache.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct GuardOptions {
    bad_schema: BadSchema,
    bad_output: BadOutput,
    unlisted: Unlisted,
    masked: bool,
    lists_tools: bool,
    max_in_flight: usize,
    cache: Option<Arc<SchemaCache>>,
}

impl Default for GuardOptions {
    fn default() -> Self {
        GuardOptions {
            bad_schema: BadSchema::default(),
            bad_output: BadOutput::default(),
            unlisted: Unlisted::default(),
            masked: true,
            lists_tools: true,
            max_in_flight: MAX_IN_FLIGHT,
            cache: None,
        }
    }
}

impl GuardOptions {
    /// What to do with tools whose schemas do not compile (default [`BadSchema::Hide`]).
    /// See the example on [`GuardOptions`].
    #[must_use]
    pub fn with_bad_schema(mut self, policy: BadSchema) -> Self {
        self.bad_schema = policy;
        self
    }

    /// What to do with results that break their output schema (default
    /// [`BadOutput::Fail`]). See the example on [`GuardOptions`].
    #[must_use]
    pub fn with_bad_output(mut self, policy: BadOutput) -> Self {
        self.bad_output = policy;
        self
    }

    /// What to do with a call to a tool the server does not list (default
    /// [`Unlisted::Answer`]). See the example on [`GuardOptions`].
    #[must_use]
    pub fn with_unlisted(mut self, policy: Unlisted) -> Self {
        self.unlisted = policy;
        self
    }

    /// Whether the errors in [`Decision`]s are masked (the default): types, lengths,
    /// locations and the schema's own values, never the instance's
    /// ([`ValidationError::masked`]). What the client is answered is never masked: the
    /// model needs its own values quoted back to correct a call. See the example on
    /// [`GuardOptions`].
    #[must_use]
    pub fn with_masked_decisions(mut self, masked: bool) -> Self {
        self.masked = masked;
        self
    }

    /// Whether the guard lists the server's tools itself ([`Action::ListFirst`]) when a
    /// call arrives before any listing, or after the server said the list changed (the
    /// default). Without it, such a call passes unchecked (recorded as
    /// [`Verdict::Unguarded`]) unless the tool is in the table. See the example on
    /// [`GuardOptions`].
    #[must_use]
    pub fn with_own_listing(mut self, lists: bool) -> Self {
        self.lists_tools = lists;
        self
    }

    /// The most requests tracked at once (calls and listings awaiting their response;
    /// 10,000 by default); beyond it, further calls are answered with an error. See the
    /// example on [`GuardOptions`].
    #[must_use]
    pub fn with_max_in_flight(mut self, max: usize) -> Self {
        self.max_in_flight = max.max(1);
        self
    }

    /// Compile schemas through `cache` (shared between guards: an HTTP gateway's
    /// sessions, a process serving many servers), rather than a cache of the guard's own.
    /// See the example on [`GuardOptions`].
    #[must_use]
    pub fn with_cache(mut self, cache: Arc<SchemaCache>) -> Self {
        self.cache = Some(cache);
        self
    }
}

/// What a [`Decision`] is about. See the examples on [`Guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Check {
    /// A call's arguments against the tool's `inputSchema`.
    Arguments,
    /// A result's `structuredContent` against the tool's `outputSchema`.
    Output,
    /// A tool's schemas, as listed: one that does not compile.
    Schema,
    /// The guard's own `tools/list`, which the server did not answer with a result.
    Listing,
}

impl Check {
    /// The check's name in logs: `arguments`, `output`, `schema`, `listing`. See the
    /// example on [`Guard`].
    pub fn name(self) -> &'static str {
        match self {
            Check::Arguments => "arguments",
            Check::Output => "output",
            Check::Schema => "schema",
            Check::Listing => "listing",
        }
    }
}

/// What the guard did. See the examples on [`Guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The message conforms and was passed on.
    Passed,
    /// The call's arguments do not conform: the guard answered it, the server never saw it.
    Rejected,
    /// The result breaks the output schema: the client got a tool error instead
    /// ([`BadOutput::Fail`]), or a JSON-RPC error ([`BadOutput::Error`]).
    Failed,
    /// The result breaks the output schema and was passed on ([`BadOutput::Warn`]).
    Warned,
    /// The tool's schema does not compile: the tool is hidden from the client and calls to
    /// it are answered by the guard ([`BadSchema::Hide`]).
    Hidden,
    /// The tool is not in the server's `tools/list` (listed again to be sure), or the
    /// tools could not be listed: the guard answered the call as an unknown tool, the
    /// server never saw it ([`Unlisted::Answer`]).
    Unlisted,
    /// Passed without a check: the tool is not in the table and [`Unlisted::Forward`] is
    /// set (or the guard lists no tools itself and has no table), or its schema does not
    /// compile and [`BadSchema::Pass`] is set.
    Unguarded,
}

impl Verdict {
    /// The verdict's name in logs: `passed`, `rejected`, `failed`, `warned`, `hidden`,
    /// `unlisted`, `unguarded`. See the example on [`Guard`].
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Rejected => "rejected",
            Verdict::Failed => "failed",
            Verdict::Warned => "warned",
            Verdict::Hidden => "hidden",
            Verdict::Unlisted => "unlisted",
            Verdict::Unguarded => "unguarded",
        }
    }
}

/// One decision of the guard, for logs: a call checked (either way), a schema that does
/// not compile, a listing that failed. Taken with [`Guard::take_decisions`]. See the
/// examples on [`Guard`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Decision {
    /// The tool's name (empty for [`Check::Listing`]).
    pub tool: String,
    /// The JSON-RPC id of the call, for [`Check::Arguments`] and [`Check::Output`].
    pub id: Option<Value>,
    /// What was checked.
    pub check: Check,
    /// What the guard did.
    pub verdict: Verdict,
    /// The problems, one line each (masked unless
    /// [`GuardOptions::with_masked_decisions`] says otherwise).
    pub errors: Vec<String>,
    /// The time the guard took over the message.
    pub check_time: Duration,
    /// For [`Check::Output`]: the time from the call's forwarding to its result.
    pub call_time: Option<Duration>,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.check {
            Check::Listing => write!(f, "tools/list {}", self.verdict.name())?,
            check => write!(
                f,
                "tool {:?}: {} {}",
                self.tool,
                check.name(),
                self.verdict.name()
            )?,
        }
        match self.errors.as_slice() {
            [] => Ok(()),
            errors => write!(f, ": {}", errors.join("; ")),
        }
    }
}

/// A tool as the table keeps it: each schema compiled, or why it does not compile.
#[derive(Debug)]
struct Tool {
    input: Result<Arc<ToolSchema>, String>,
    output: Option<Result<Arc<ToolSchema>, String>>,
}

impl Tool {
    /// Why the tool cannot be fully checked, one line per schema.
    fn problems(&self) -> Vec<String> {
        let input = self
            .input
            .as_ref()
            .err()
            .map(|e| format!("inputSchema: {e}"));
        let output = match &self.output {
            Some(Err(e)) => Some(format!("outputSchema: {e}")),
            _ => None,
        };
        input.into_iter().chain(output).collect()
    }
}

/// A request of the client's (or the guard's own) awaiting the server's response.
#[derive(Debug)]
enum Pending {
    /// A `tools/call` that was forwarded; `typed` when it speaks 2026-07-28 or later
    /// (its results say their `resultType`).
    Call {
        tool: String,
        id: Value,
        forwarded: Instant,
        typed: bool,
    },
    /// A `tools/list` page of the client's (the first one, without a cursor, starts a
    /// new table) or of the guard's own listing number `own`.
    List { first: bool, own: Option<u64> },
}

/// A forwarded call, as its result is checked.
struct Forwarded<'a> {
    tool: &'a str,
    id: &'a Value,
    forwarded: Instant,
    typed: bool,
}

/// A listing being read page by page: the tools so far, the generation its first page
/// was asked at, and (for the guard's own) the `_meta` members its pages carry.
#[derive(Debug)]
struct Listing {
    tools: HashMap<String, Arc<Tool>>,
    generation: u64,
    meta: Map<String, Value>,
}

impl Listing {
    fn new(generation: u64, meta: Map<String, Value>) -> Listing {
        Listing {
            tools: HashMap::new(),
            generation,
            meta,
        }
    }
}

/// The guard of one MCP session, free of any transport: fed every JSON-RPC message that
/// passes between a client and a server, in either direction, it validates `tools/call`
/// arguments before the server sees them and `structuredContent` before the client
/// does, and passes everything else through untouched.
///
/// The guard owns the session's state: the tools table (from every `tools/list` result
/// that passes, each schema compiled under the MCP profile through a [`SchemaCache`]),
/// which request id called which tool, and whether the table is current (a
/// `notifications/tools/list_changed` makes it stale). It performs no I/O and runs no
/// clock-driven work: a transport (stdio pipes, an HTTP gateway) reads a message, asks
/// [`Guard::handle`] what to do, and carries out the [`Action`]s.
///
/// What it relies on: a message is one JSON-RPC 2.0 object (batches are not part of
/// the protocol versions it speaks, 2025-06-18 and later); responses are matched to
/// requests by id, numbers that are whole counted as integers (`1.0` matches `1`).
/// Both sides are untrusted: malformed JSON, wrong types and unknown ids never panic,
/// and whatever the guard cannot read from the client is answered rather than
/// forwarded, so the server never receives a call the guard did not check.
///
/// A transport hands it every message, in the order it arrives from each side, and
/// carries out the actions it answers:
///
/// ```
/// use mcp_jsonschema::mcp::{Action, Actions, Guard, Side};
///
/// let mut guard = Guard::new();
/// let mut to_server = Vec::new();
/// let mut to_client = Vec::new();
/// let mut route = |guard: &mut Guard, from: Side, message: &str| {
///     let actions: Actions = guard.handle(from, message);
///     for action in actions {
///         let (to, text) = match action {
///             Action::Forward => (from.other(), message.to_string()),
///             Action::Send { to, message } => (to, message),
///             Action::ListFirst { .. } => unreachable!("the client listed the tools first"),
///         };
///         match to {
///             Side::Server => to_server.push(text),
///             Side::Client => to_client.push(text),
///         }
///     }
/// };
///
/// route(&mut guard, Side::Client, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
/// route(&mut guard, Side::Server, r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[
///     {"name":"get_weather","inputSchema":{"type":"object",
///      "properties":{"city":{"type":"string"},"units":{"enum":["metric","imperial"]}},
///      "required":["city"]}}]}}"#);
/// route(&mut guard, Side::Client, r#"{"jsonrpc":"2.0","id":2,"method":"tools/call",
///     "params":{"name":"get_weather","arguments":{"city":"Oslo","units":"kelvin"}}}"#);
///
/// // The listing reached both sides; the bad call went back to the client, answered.
/// assert_eq!(to_server.len(), 1);
/// assert_eq!(to_client.len(), 2);
/// let answer: serde_json::Value = serde_json::from_str(&to_client[1])?;
/// assert_eq!(answer["result"]["isError"], true);
/// assert_eq!(
///     answer["result"]["content"][0]["text"],
///     "invalid arguments for tool \"get_weather\":\n\
///      /units: expected one of \"metric\", \"imperial\", got \"kelvin\""
/// );
/// let decision = guard.take_decisions().pop().unwrap();
/// assert_eq!(decision.to_string(), "tool \"get_weather\": arguments rejected: \
///     /units: expected one of \"metric\", \"imperial\", got string");
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// A call that arrives before any listing is held while the guard lists the tools
/// itself ([`Action::ListFirst`]); a tool whose schema does not compile is hidden
/// ([`BadSchema::Hide`]):
///
/// ```
/// use serde_json::{json, Value};
/// use mcp_jsonschema::mcp::{Action, Check, Decision, Guard, Side, Verdict};
///
/// let mut guard = Guard::new();
/// let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call",
///     "params":{"name":"echo","arguments":{"text":1}}}"#;
/// let request = match guard.handle(Side::Client, call).next() {
///     Some(Action::ListFirst { request }) => request,
///     other => panic!("expected a listing first, got {other:?}"),
/// };
/// assert!(guard.is_listing());
///
/// // The transport sends `request` to the server and feeds the answer back: the guard
/// // keeps it to itself.
/// let id = serde_json::from_str::<Value>(&request)?["id"].clone();
/// let answer = json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [
///     {"name": "echo", "inputSchema": {"properties": {"text": {"type": "string"}}}},
///     {"name": "broken", "inputSchema": {"type": "string"}}
/// ]}});
/// assert_eq!(guard.handle(Side::Server, &answer.to_string()).count(), 0);
/// assert!(!guard.is_listing());
/// assert!(guard.guards("echo"));
/// assert!(!guard.guards("broken"));
///
/// // Then the held call, decided with the table: answered, never forwarded.
/// let actions: Vec<Action> = guard.handle_listed(call).collect();
/// assert!(matches!(&actions[..], [Action::Send { to: Side::Client, .. }]));
///
/// let decisions: Vec<Decision> = guard.take_decisions();
/// let what: Vec<(&str, Check, Verdict)> =
///     decisions.iter().map(|d| (d.tool.as_str(), d.check, d.verdict)).collect();
/// assert_eq!(what, [
///     ("broken", Check::Schema, Verdict::Hidden),
///     ("echo", Check::Arguments, Verdict::Rejected),
/// ]);
/// assert_eq!(decisions[1].id, Some(json!(7)));
/// assert_eq!((decisions[1].check.name(), decisions[1].verdict.name()), ("arguments", "rejected"));
/// assert_eq!(decisions[1].errors, ["/text: expected string, got integer"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug)]
pub struct Guard {
    options: GuardOptions,
    cache: Arc<SchemaCache>,
    /// The tools of the last complete listing.
    tools: HashMap<String, Arc<Tool>>,
    /// The client's listing being read.
    client_listing: Option<Listing>,
    /// The guard's own listings being read, by number.
    own_listings: HashMap<u64, Listing>,
    /// Bumped by each `notifications/tools/list_changed`.
    generation: u64,
    /// The generation the table was completely listed at, if any.
    listed_at: Option<u64>,
    /// The generation the guard last listed at (it lists once per generation, unless a
    /// call arrives while its listing is under way).
    asked: Option<u64>,
    /// Requests awaiting the server's response, by id key ([`id_key`]).
    pending: HashMap<String, Pending>,
    /// The guard's requests so far (its ids and listing numbers).
    own_requests: u64,
    /// Schema problems already reported.
    reported: HashSet<String>,
    /// The names of tools not in the current table that the guard listed again for, this
    /// generation.
    sought: HashSet<String>,
    decisions: Vec<Decision>,
}

impl Default for Guard {
    fn default() -> Self {
        Self::new()
    }
}

/// A message as the guard reads it: its members, each left as JSON text.
type Members<'a> = BTreeMap<String, &'a RawValue>;

impl Guard {
    /// A guard with the default [`GuardOptions`]. See the examples on [`Guard`].
    pub fn new() -> Guard {
        Self::with_options(GuardOptions::default())
    }

    /// A guard with `options`. See the example on [`GuardOptions`].
    pub fn with_options(options: GuardOptions) -> Guard {
        let cache =
            (options.cache.clone()).unwrap_or_else(|| Arc::new(SchemaCache::new(CACHED_SCHEMAS)));
        Guard {
            options,
            cache,
            tools: HashMap::new(),
            client_listing: None,
            own_listings: HashMap::new(),
            generation: 0,
            listed_at: None,
            asked: None,
            pending: HashMap::new(),
            own_requests: 0,
            reported: HashSet::new(),
            sought: HashSet::new(),
            decisions: Vec::new(),
        }
    }

    /// What to do with `message`, one JSON-RPC message (a line of the stdio transport,
    /// the body of an HTTP POST, the data of an SSE event) that arrived `from` one side.
    /// See the examples on [`Guard`].
    pub fn handle(&mut self, from: Side, message: &str) -> Actions {
        self.handle_message(from, message, false)
    }

    /// Handles a client message that [`handle`](Guard::handle) answered with
    /// [`Action::ListFirst`], once that listing is over (or abandoned): this time the
    /// guard decides with the table it has. See the second example on [`Guard`].
    pub fn handle_listed(&mut self, message: &str) -> Actions {
        self.handle_message(Side::Client, message, true)
    }

    /// Whether a `tools/list` of the guard's own is awaiting the server. See the second
    /// example on [`Guard`].
    pub fn is_listing(&self) -> bool {
        !self.own_listings.is_empty()
    }

    /// Gives up the guard's own listing that `request` belongs to (the request of an
    /// [`Action::ListFirst`], or of a further page the guard asked for), because the
    /// server did not answer it (in time, or at all): recorded as a [`Check::Listing`]
    /// decision saying `why`. A call then held is given to
    /// [`handle_listed`](Guard::handle_listed) as usual; the next call lists again; an
    /// answer that comes later is the guard's own and dropped. Nothing for a request that
    /// is not the guard's, or a listing already over.
    ///
    /// ```
    /// use mcp_jsonschema::mcp::{Action, Check, Guard, Side, Verdict};
    /// let mut guard = Guard::new();
    /// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#;
    /// let Some(Action::ListFirst { request }) = guard.handle(Side::Client, call).next() else {
    ///     unreachable!("no table yet")
    /// };
    /// guard.abandon_listing(&request, "no answer within 10 s");
    /// assert!(!guard.is_listing());
    /// let listing = guard.take_decisions().pop().unwrap();
    /// assert_eq!((listing.check, listing.verdict), (Check::Listing, Verdict::Unguarded));
    /// assert_eq!(listing.errors, ["no answer within 10 s"]);
    ///
    /// // The call is answered: without the tools, it cannot be checked.
    /// let answer = match guard.handle_listed(call).next() {
    ///     Some(Action::Send { to: Side::Client, message }) => message,
    ///     other => panic!("{other:?}"),
    /// };
    /// assert!(answer.contains("cannot be called now"), "{answer}");
    /// ```
    pub fn abandon_listing(&mut self, request: &str, why: &str) {
        let Some(id) = (serde_json::from_str::<Value>(request).ok()).and_then(|request| {
            request
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string)
        }) else {
            return;
        };
        let number = match self.pending.get(&id_key(&Value::from(id.as_str()))) {
            Some(Pending::List {
                own: Some(number), ..
            }) => Some(*number),
            _ => (id.strip_prefix(OWN_ID_PREFIX))
                .and_then(|n| n.parse().ok())
                .filter(|n| self.own_listings.contains_key(n)),
        };
        let Some(number) = number else { return };
        self.own_listings.remove(&number);
        (self.pending)
            .retain(|_, p| !matches!(p, Pending::List { own: Some(n), .. } if *n == number));
        // The next call asks again.
        self.asked = None;
        let now = Instant::now();
        let why = vec![why.to_string()];
        self.decide("", None, Check::Listing, Verdict::Unguarded, why, now, None);
    }

    /// Whether `tool` is in the table and both its schemas compiled: its calls are
    /// checked both ways. See the second example on [`Guard`].
    pub fn guards(&self, tool: &str) -> bool {
        self.tools
            .get(tool)
            .is_some_and(|t| t.problems().is_empty())
    }

    /// The decisions since the last call, oldest first. See the examples on [`Guard`].
    pub fn take_decisions(&mut self) -> Vec<Decision> {
        std::mem::take(&mut self.decisions)
    }

    fn handle_message(&mut self, from: Side, message: &str, listed: bool) -> Actions {
        let started = Instant::now();
        let members = match parse(message) {
            Ok(members) => members,
            Err(problem) => {
                return match from {
                    // The server may not receive what the guard cannot read: its parser
                    // might read it otherwise (NaN, a batch).
                    Side::Client => Actions::send(Side::Client, &problem.answer()),
                    Side::Server => Actions::forward(),
                };
            }
        };
        let method = members
            .get("method")
            .and_then(|m| serde_json::from_str::<String>(m.get()).ok());
        let id = members.get("id").copied();
        match (from, method.as_deref(), id) {
            (Side::Client, Some("tools/call"), Some(id)) => {
                self.on_call(&members, id, started, listed)
            }
            (Side::Client, Some("tools/list"), Some(id)) => {
                self.track_list(&members, id);
                Actions::forward()
            }
            (Side::Client, Some("notifications/cancelled"), None) => {
                let params = members.get("params").and_then(|p| value(p));
                if let Some(id) = params.as_ref().and_then(|p| p.get("requestId")) {
                    self.pending.remove(&id_key(id));
                }
                Actions::forward()
            }
            (Side::Server, Some("notifications/tools/list_changed"), None) => {
                self.generation += 1;
                self.sought.clear();
                Actions::forward()
            }
            (Side::Server, None, Some(id)) => self.on_response(&members, id, started),
            _ => Actions::forward(),
        }
    }

    /// Records a `tools/list` request of the client's under `id`.
    fn track_list(&mut self, members: &Members<'_>, id: &RawValue) {
        let params = members.get("params").and_then(|p| value(p));
        let first = params.as_ref().and_then(|p| p.get("cursor")).is_none();
        if self.pending.len() < self.options.max_in_flight {
            let key = id_key(&value(id).unwrap_or(Value::Null));
            self.pending.insert(key, Pending::List { first, own: None });
        }
    }

    fn on_call(
        &mut self,
        members: &Members<'_>,
        raw_id: &RawValue,
        started: Instant,
        listed: bool,
    ) -> Actions {
        let id = value(raw_id).unwrap_or(Value::Null);
        let params = members.get("params").and_then(|p| value(p));
        let Some(Value::Object(params)) = params else {
            return Actions::send(
                Side::Client,
                &error(&id, INVALID_PARAMS, "tools/call params must be an object"),
            );
        };
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Actions::send(
                Side::Client,
                &error(&id, INVALID_PARAMS, "tools/call params must name the tool"),
            );
        };
        let current = self.listed_at == Some(self.generation);
        let unasked = self.asked != Some(self.generation) || self.is_listing();
        // A tool the current table lacks may have been added without a word: the guard
        // lists the tools once more for each such name before it calls the tool unknown.
        let unknown = || {
            current
                && !self.tools.contains_key(name)
                && self.sought.len() < MAX_SOUGHT
                && !self.sought.contains(name)
        };
        if !listed && self.options.lists_tools && ((!current && unasked) || unknown()) {
            if current {
                self.sought.insert(name.to_string());
            }
            let number = self.own_requests + 1;
            let listing = Listing::new(self.generation, own_meta(&params));
            self.own_listings.insert(number, listing);
            self.asked = Some(self.generation);
            return Actions::one(Action::ListFirst {
                request: self.own_list_request(number, None),
            });
        }
        if self.pending.len() >= self.options.max_in_flight {
            return Actions::send(
                Side::Client,
                &error(&id, TOO_MANY_IN_FLIGHT, "too many requests in flight"),
            );
        }
        let tool = self.tools.get(name).cloned();
        let (verdict, errors, answer) = match tool.as_ref().map(|t| &t.input) {
            None => self.unlisted(name, current),
            Some(Err(problem)) => match self.options.bad_schema {
                BadSchema::Pass => (Verdict::Unguarded, Vec::new(), None),
                BadSchema::Hide => {
                    let text = format!(
                        "tool {name:?} is not available: its inputSchema does not compile \
                         under the MCP profile: {problem}"
                    );
                    (Verdict::Hidden, vec![problem.clone()], Some(text))
                }
            },
            Some(Ok(schema)) => {
                // A call that gives no arguments gives `{}`, as MCP reads it.
                let none = Value::Object(Map::new());
                let arguments = params.get("arguments").unwrap_or(&none);
                if schema.is_valid(arguments) {
                    (Verdict::Passed, Vec::new(), None)
                } else {
                    let errors: Vec<ValidationError> =
                        schema.iter_listed_errors(arguments).collect();
                    let text = super::invalid_arguments_text(name, &errors);
                    (Verdict::Rejected, self.render(&errors), Some(text))
                }
            }
        };
        self.decide(
            name,
            Some(&id),
            Check::Arguments,
            verdict,
            errors,
            started,
            None,
        );
        // 2026-07-28 results carry their kind (a call of that era says its version).
        let meta = params.get("_meta").and_then(Value::as_object);
        let typed = meta.is_some_and(|meta| meta.contains_key(PROTOCOL_VERSION_META));
        if let Some(text) = answer {
            return Actions::send(Side::Client, &tool_error(&id, &text, typed));
        }
        if tool.as_ref().is_some_and(|t| t.output.is_some()) {
            let pending = Pending::Call {
                tool: name.to_string(),
                id: id.clone(),
                forwarded: Instant::now(),
                typed,
            };
            self.pending.insert(id_key(&id), pending);
        }
        Actions::forward()
    }

    fn on_response(
        &mut self,
        members: &Members<'_>,
        raw_id: &RawValue,
        started: Instant,
    ) -> Actions {
        let Some(id) = value(raw_id) else {
            return Actions::forward();
        };
        let Some(pending) = self.pending.remove(&id_key(&id)) else {
            // The answer to a listing of the guard's own that it gave up on is its own.
            if id.as_str().is_some_and(|id| id.starts_with(OWN_ID_PREFIX)) {
                return Actions::none();
            }
            return Actions::forward();
        };
        let result = members.get("result").and_then(|r| value(r));
        match pending {
            Pending::List { first, own } => self.on_list_result(result, first, own, members),
            Pending::Call {
                tool,
                id,
                forwarded,
                typed,
            } => match result {
                Some(result) => {
                    let call = Forwarded {
                        tool: &tool,
                        id: &id,
                        forwarded,
                        typed,
                    };
                    self.on_call_result(call, &result, started)
                }
                None => Actions::forward(),
            },
        }
    }

    fn on_list_result(
        &mut self,
        result: Option<Value>,
        first: bool,
        own: Option<u64>,
        members: &Members<'_>,
    ) -> Actions {
        let tools = result
            .as_ref()
            .and_then(|r| r.get("tools"))
            .and_then(Value::as_array);
        let Some(tools) = tools else {
            let Some(number) = own else {
                return Actions::forward();
            };
            self.own_listings.remove(&number);
            // The next call asks again.
            self.asked = None;
            let why = members.get("error").map_or_else(
                || "the server's answer has no tools array".to_string(),
                |e| format!("the server answered {}", e.get()),
            );
            let now = Instant::now();
            self.decide(
                "",
                None,
                Check::Listing,
                Verdict::Unguarded,
                vec![why],
                now,
                None,
            );
            return Actions::none();
        };
        if own.is_none() && (first || self.client_listing.is_none()) {
            self.client_listing = Some(Listing::new(self.generation, Map::new()));
        }
        let mut hidden = Vec::new();
        let mut page = Vec::new();
        for (index, listed) in tools.iter().enumerate() {
            let Some(name) = listed.get("name").and_then(Value::as_str) else {
                continue;
            };
            let tool = Arc::new(self.compile(listed));
            let problems = tool.problems();
            if !problems.is_empty() {
                let verdict = match self.options.bad_schema {
                    BadSchema::Hide => {
                        hidden.push(index);
                        Verdict::Hidden
                    }
                    BadSchema::Pass => Verdict::Unguarded,
                };
                let key = format!("{name}\u{0}{}", problems.join("\n"));
                if self.reported.len() < MAX_REPORTED && self.reported.insert(key) {
                    let now = Instant::now();
                    self.decide(name, None, Check::Schema, verdict, problems, now, None);
                }
            }
            page.push((name.to_string(), tool));
        }
        let next = (result.as_ref())
            .and_then(|r| r.get("nextCursor"))
            .filter(|cursor| !cursor.is_null())
            .cloned();
        let listing = match own {
            Some(number) => self.own_listings.get_mut(&number),
            None => self.client_listing.as_mut(),
        };
        if let Some(listing) = listing {
            listing.tools.extend(page);
        }
        let mut actions = SmallVec::new();
        match (next, own) {
            (Some(cursor), Some(number)) => actions.push(Action::Send {
                to: Side::Server,
                message: self.own_list_request(number, Some(cursor)),
            }),
            (Some(_), None) => {}
            (None, _) => {
                let listing = match own {
                    Some(number) => self.own_listings.remove(&number),
                    None => self.client_listing.take(),
                };
                if let Some(listing) = listing {
                    self.tools = listing.tools;
                    if listing.generation == self.generation {
                        self.listed_at = Some(listing.generation);
                    }
                }
            }
        }
        if own.is_none() {
            actions.push(match (hidden.is_empty(), result) {
                (true, _) | (false, None) => Action::Forward,
                (false, Some(mut result)) => {
                    if let Some(Value::Array(tools)) = result.get_mut("tools") {
                        let mut index = 0;
                        tools.retain(|_| {
                            index += 1;
                            !hidden.contains(&(index - 1))
                        });
                    }
                    let id = members.get("id").and_then(|i| value(i));
                    let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
                    Action::Send {
                        to: Side::Client,
                        message: answer.to_string(),
                    }
                }
            });
        }
        Actions::of(actions)
    }

    fn on_call_result(&mut self, call: Forwarded<'_>, result: &Value, started: Instant) -> Actions {
        let Forwarded { tool, id, .. } = call;
        let call_time = Some(call.forwarded.elapsed());
        let Some(Ok(schema)) = self.tools.get(tool).and_then(|t| t.output.clone()) else {
            return Actions::forward();
        };
        let interim = result
            .get("resultType")
            .and_then(Value::as_str)
            .is_some_and(|kind| kind != "complete");
        let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
        // Only a finished tool result is checked: not an error, not an interim result
        // asking the client for input, not a task handle (no `content`).
        let finished = result.get("content").is_some() || result.get("structuredContent").is_some();
        if interim || is_error || !finished {
            return Actions::forward();
        }
        let (plain, rendered) = match result.get("structuredContent") {
            None => {
                let problem =
                    "the tool declares an outputSchema but the result has no structuredContent";
                (vec![problem.to_string()], vec![problem.to_string()])
            }
            Some(structured) if schema.is_valid(structured) => (Vec::new(), Vec::new()),
            Some(structured) => {
                let errors: Vec<ValidationError> = schema.iter_listed_errors(structured).collect();
                let plain = errors.iter().map(ToString::to_string).collect();
                (plain, self.render(&errors))
            }
        };
        if plain.is_empty() {
            self.decide(
                tool,
                Some(id),
                Check::Output,
                Verdict::Passed,
                Vec::new(),
                started,
                call_time,
            );
            return Actions::forward();
        }
        let verdict = match self.options.bad_output {
            BadOutput::Fail | BadOutput::Error => Verdict::Failed,
            BadOutput::Warn => Verdict::Warned,
        };
        self.decide(
            tool,
            Some(id),
            Check::Output,
            verdict,
            rendered,
            started,
            call_time,
        );
        match self.options.bad_output {
            BadOutput::Warn => Actions::forward(),
            BadOutput::Fail => {
                let text = format!("invalid output from tool {tool:?}:\n{}", plain.join("\n"));
                Actions::send(Side::Client, &tool_error(id, &text, call.typed))
            }
            BadOutput::Error => {
                let message = format!(
                    "tool {tool:?} returned structured content that its outputSchema rejects: {}",
                    plain.join("; ")
                );
                let mut answer = error(id, INTERNAL_ERROR, &message);
                answer["error"]["data"] = json!({"tool": tool, "errors": plain});
                Actions::send(Side::Client, &answer)
            }
        }
    }

    /// The verdict, errors and answer for a call to `name`, which the table lacks;
    /// `current` when the table is the server's latest complete listing.
    fn unlisted(&self, name: &str, current: bool) -> (Verdict, Vec<String>, Option<String>) {
        let (problem, text) = match current {
            true => (
                "the server does not list this tool",
                format!("unknown tool {name:?}: the server does not list it"),
            ),
            false => (
                "the server's tools could not be listed",
                format!(
                    "tool {name:?} cannot be called now: the server's tools could not be \
                     listed, so the call cannot be checked"
                ),
            ),
        };
        match self.options.unlisted {
            // Without a listing of its own and without a table, the guard cannot know.
            _ if !current && !self.options.lists_tools => (Verdict::Unguarded, Vec::new(), None),
            Unlisted::Forward => (Verdict::Unguarded, vec![problem.to_string()], None),
            Unlisted::Answer => (Verdict::Unlisted, vec![problem.to_string()], Some(text)),
        }
    }

    /// A `tools/list` request of the guard's own listing `number` (tracked as pending),
    /// asking for the page at `cursor` with the listing's `_meta` members.
    fn own_list_request(&mut self, number: u64, cursor: Option<Value>) -> String {
        self.own_requests += 1;
        let id = format!("{OWN_ID_PREFIX}{}", self.own_requests);
        let mut params = Map::new();
        if let Some(cursor) = cursor {
            params.insert("cursor".into(), cursor);
        }
        if let Some(listing) = self.own_listings.get(&number) {
            if !listing.meta.is_empty() {
                params.insert("_meta".into(), Value::Object(listing.meta.clone()));
            }
        }
        let pending = Pending::List {
            first: false,
            own: Some(number),
        };
        self.pending
            .insert(id_key(&Value::from(id.as_str())), pending);
        let mut request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
        if !params.is_empty() {
            request["params"] = Value::Object(params);
        }
        request.to_string()
    }

    /// A listed tool's schemas, compiled through the cache.
    fn compile(&self, tool: &Value) -> Tool {
        let compile = |role, schema: &Value| {
            (self.cache.get_or_compile(role, schema)).map_err(|e| e.to_string())
        };
        let input = match tool.get("inputSchema") {
            Some(schema) => compile(Role::Input, schema),
            None => Err("the tool has no inputSchema".to_string()),
        };
        let output = (tool.get("outputSchema"))
            .filter(|schema| !schema.is_null())
            .map(|schema| compile(Role::Output, schema));
        Tool { input, output }
    }

    /// `errors` as the decisions carry them: masked unless asked otherwise.
    fn render(&self, errors: &[ValidationError]) -> Vec<String> {
        let render = |e: &ValidationError| match self.options.masked {
            true => e.masked().to_string(),
            false => e.to_string(),
        };
        errors.iter().map(render).collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        tool: &str,
        id: Option<&Value>,
        check: Check,
        verdict: Verdict,
        errors: Vec<String>,
        started: Instant,
        call_time: Option<Duration>,
    ) {
        self.decisions.push(Decision {
            tool: tool.to_string(),
            id: id.cloned(),
            check,
            verdict,
            errors,
            check_time: started.elapsed(),
            call_time,
        });
    }
}

/// Why a message could not be read as one JSON-RPC object.
enum Unreadable {
    /// Not JSON (or not UTF-8 JSON the guard accepts: `NaN`, numbers beyond doubles).
    Json(String),
    /// JSON, but not one object (a batch, a bare value).
    NotAnObject,
}

impl Unreadable {
    /// The JSON-RPC error the client is answered with.
    fn answer(&self) -> Value {
        match self {
            Unreadable::Json(e) => error(&Value::Null, PARSE_ERROR, &format!("parse error: {e}")),
            Unreadable::NotAnObject => error(
                &Value::Null,
                INVALID_REQUEST,
                "a message must be one JSON-RPC object (batches are not part of MCP)",
            ),
        }
    }
}

/// The members of `message`, each left as text.
fn parse(message: &str) -> Result<Members<'_>, Unreadable> {
    match message.trim_start().as_bytes().first() {
        Some(b'{') => serde_json::from_str(message).map_err(|e| Unreadable::Json(e.to_string())),
        _ => match serde_json::from_str::<&RawValue>(message) {
            Ok(_) => Err(Unreadable::NotAnObject),
            Err(e) => Err(Unreadable::Json(e.to_string())),
        },
    }
}

/// `raw` read as a value, if it is JSON the guard reads.
fn value(raw: &RawValue) -> Option<Value> {
    serde_json::from_str(raw.get()).ok()
}

/// The key a request id is tracked by: its JSON text, a whole number written as an
/// integer (a peer that parses `1.0` as a number may answer `1`).
fn id_key(id: &Value) -> String {
    match id {
        Value::Number(n) if n.as_i64().is_none() && n.as_u64().is_none() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// The protocol members of a call's `_meta` (2026-07-28 requests carry their version,
/// client info and capabilities there), for the guard's own listing.
fn own_meta(params: &Map<String, Value>) -> Map<String, Value> {
    let meta = params.get("_meta").and_then(Value::as_object);
    (meta.into_iter().flatten())
        .filter(|(key, _)| key.starts_with(PROTOCOL_META_PREFIX))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// A response with a tool error: a result with `isError` whose one text content the
/// model reads; `typed` for a 2026-07-28 call, whose results say their kind.
fn tool_error(id: &Value, text: &str, typed: bool) -> Value {
    let mut result = json!({"content": [{"type": "text", "text": text}], "isError": true});
    if typed {
        result["resultType"] = json!("complete");
    }
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A JSON-RPC error response.
fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
