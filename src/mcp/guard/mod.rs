//! The MCP session guard: [`Guard`], its options, and what it answers and records.
//!
//! This file is the guard's face: the types a transport and a user see, and `Guard`'s
//! public methods. The session's state and how each message moves it are
//! [`session`]'s; reading a message as JSON-RPC, and the answers the guard writes, are
//! [`jsonrpc`]'s.

mod jsonrpc;
mod session;

use self::jsonrpc::id_key;
use self::session::{Listing, Pending, Tool};
use super::SchemaCache;
use serde_json::Value;
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Distinct schemas a guard's own cache keeps compiled.
const CACHED_SCHEMAS: usize = 1024;
/// Tracked requests (calls and listings awaiting their response) by default.
const MAX_IN_FLIGHT: usize = 10_000;
/// The prefix of the ids of the guard's own requests.
const OWN_ID_PREFIX: &str = "mcp-jsonschema-guard-";

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
    /// ([`ValidationError::masked`](crate::ValidationError::masked)). What the client is answered is never masked: the
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
}
