//! The session a [`Guard`] keeps: its tools table, the requests awaiting the server, its
//! own listings; and how each message moves it (a call checked and forwarded or
//! answered, a listing read page by page, a result checked).

use super::jsonrpc::{
    error, id_key, own_meta, parse, tool_error, value, Members, INTERNAL_ERROR, INVALID_PARAMS,
    PROTOCOL_VERSION_META, TOO_MANY_IN_FLIGHT,
};
use super::{
    Action, Actions, BadOutput, BadSchema, Check, Decision, Guard, Side, Unlisted, Verdict,
    OWN_ID_PREFIX,
};
use crate::error::ValidationError;
use crate::mcp::{Role, ToolSchema};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Distinct schema problems remembered so that each is reported once.
const MAX_REPORTED: usize = 4096;
/// Distinct unlisted tool names the guard lists the tools again for, per generation;
/// past it, a call to a tool not in the table is answered at once.
const MAX_SOUGHT: usize = 4096;

/// A tool as the table keeps it: each schema compiled, or why it does not compile.
#[derive(Debug)]
pub(super) struct Tool {
    input: Result<Arc<ToolSchema>, String>,
    output: Option<Result<Arc<ToolSchema>, String>>,
}

impl Tool {
    /// Why the tool cannot be fully checked, one line per schema.
    pub(super) fn problems(&self) -> Vec<String> {
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
pub(super) enum Pending {
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
pub(super) struct Listing {
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

impl Guard {
    pub(super) fn handle_message(&mut self, from: Side, message: &str, listed: bool) -> Actions {
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
                    let text = crate::mcp::invalid_arguments_text(name, &errors);
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
    pub(super) fn decide(
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
