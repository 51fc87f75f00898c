//! The Streamable HTTP proxy: clients POST, GET and DELETE at the proxy's address as they
//! would at the server's endpoint, each request first admitted by its `Host` and `Origin`
//! ([`super::hosts`], against DNS rebinding; refused with 403 otherwise); each request goes to the upstream endpoint with its
//! headers (`Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`, authorisation)
//! and each response comes back with its status and headers. A POSTed message is first
//! the [`Guard`]'s: a `tools/call` with bad arguments is answered by the proxy (a tool
//! result with `isError`, as JSON) and never forwarded. The server's messages, a JSON
//! body or each event of an SSE stream (a POST's or the GET stream's), pass through the
//! guard on their way back: a `tools/call` result whose `structuredContent` breaks the
//! tool's `outputSchema` is replaced, in its place in the stream, by the guard's answer.
//!
//! One guard per session: per `Mcp-Session-Id` (dropped when a DELETE of it succeeds or
//! the server answers 404 to it, or, past 10,000 sessions, when it is the one used least
//! recently), and for requests without one (a stateless server) per
//! client connection, since request ids are unique per client, not per server. The
//! guards share one schema cache. When a call arrives before its guard has the tools
//! (a new connection of a stateless client), the guard lists them itself first, with the
//! call's headers; server messages that arrive on the response to that listing other
//! than its answer are dropped (reported on standard error).
//!
//! A POSTed request whose answer cannot come through the proxy (the server is not there,
//! answers with an error status, or its stream ends or loses its client first without
//! having given an event id to resume from) is forgotten by the guard as if cancelled,
//! so that abandoned requests do not pile up in a long session. A stream with event ids
//! can be resumed (a GET with `Last-Event-ID`, as a client does when the server closes a
//! POST's stream early to be polled): its requests stay tracked, and a result that comes
//! on the resumed stream is checked like any other.
//!
//! The proxy runs until it is killed; plain HTTP/1.1 both ways (the proxy sits beside
//! the server, and beside the client or behind the TLS front that serves it). Two threads
//! run it, each a current-thread runtime: one the clients' connections and the guard, one
//! the server's connections, so that each side has a thread to keep hot between messages
//! ([`super::hot`]); a call's hops within a side are task switches, not wake-ups of other
//! threads, which on the 2-core machine of the README's figures made both the added
//! latency and the 8-client throughput better than a multi-thread runtime.

use super::hosts::Admission;
use super::{decide, failure, lock, refusal, Args, Report};
use crate::sse::Events;
use crate::upstream::Upstream;
use crate::{Failure, Outcome};
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Frame, Incoming};
use hyper::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::http::request::Parts;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_jsonschema::mcp::{Action, Guard, GuardOptions, SchemaCache, Side};
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

/// Distinct schemas kept compiled for all sessions.
const CACHED_SCHEMAS: usize = 1024;
/// Sessions guarded at once; past it the session used least recently is forgotten (a
/// client that vanished without a DELETE leaves its session behind). A forgotten session
/// that comes back gets a new guard, which lists the tools itself before its next call.
const MAX_SESSIONS: usize = 10_000;
/// The JSON-RPC error code of a request refused for its `Host` or `Origin` (the
/// implementation-defined range; the TypeScript SDK's servers answer with it too).
const FORBIDDEN: i64 = -32000;
/// Events of an SSE stream relayed ahead of a client that reads slowly.
const STREAM_BUFFER: usize = 64;
/// Headers of one hop, never forwarded (RFC 9110, 7.6.1), and the length, which the
/// proxy sets for the body it sends.
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// What a response's body is: the proxy's own, a JSON body, or a relayed stream.
type Body = BoxBody<Bytes, Infallible>;

/// The proxy's state, shared by every connection.
struct Proxy {
    upstream: Upstream,
    options: GuardOptions,
    /// The guard of each session, by `Mcp-Session-Id`, and when it was last used.
    sessions: Mutex<Sessions>,
    report: Report,
    list_timeout: Duration,
    limit: usize,
    /// Told of each request and each response, to keep the runtime hot meanwhile.
    activity: Arc<Notify>,
    /// The `Host` and `Origin` headers answered.
    admission: Admission,
}

pub(super) fn run(
    args: &Args,
    listen: &str,
    upstream: &str,
    report: Report,
) -> Result<Outcome, Failure> {
    let cache = Arc::new(SchemaCache::new(CACHED_SCHEMAS));
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure(format!("cannot start the HTTP proxy: {e}")))
    };
    // The server's connections live on a thread of their own, kept hot while calls are
    // under way as the clients' side is (hot.rs), as the stdio proxy's two readers are.
    let (upstream_runtime, sent) = (runtime()?, Arc::new(Notify::new()));
    let upstream = Upstream::new(upstream)
        .map_err(Failure)?
        .on(upstream_runtime.handle().clone(), Arc::clone(&sent));
    std::thread::Builder::new()
        .name("upstream".into())
        .spawn(move || upstream_runtime.block_on(super::hot::keep_hot(sent)))
        .map_err(|e| Failure(format!("cannot start the HTTP proxy: {e}")))?;
    let list_timeout = args.list_timeout()?;
    runtime()?.block_on(async {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| Failure(format!("--listen {listen}: {e}")))?;
        let address = listener
            .local_addr()
            .map_err(|e| Failure(format!("--listen {listen}: {e}")))?;
        let proxy = Arc::new(Proxy {
            upstream,
            options: args.guard_options().with_cache(cache),
            sessions: Mutex::new(Sessions::default()),
            report,
            list_timeout,
            limit: args.max_message_size,
            activity: Arc::new(Notify::new()),
            admission: Admission::new(listen, address, &args.allow_host, &args.allow_origin)?,
        });
        serve(proxy, listener, address).await
    })
}

/// Accepts connections until the process is killed.
async fn serve(
    proxy: Arc<Proxy>,
    listener: tokio::net::TcpListener,
    address: std::net::SocketAddr,
) -> Result<Outcome, Failure> {
    tell!(
        "mcp-jsonschema proxy: listening on http://{address}, guarding {}",
        proxy.upstream.url()
    );
    tokio::spawn(super::hot::keep_hot(Arc::clone(&proxy.activity)));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors, most likely: let connections end.
                tell!("mcp-jsonschema proxy: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let proxy = Arc::clone(&proxy);
        tokio::spawn(async move {
            let connection = Arc::new(Mutex::new(Guard::with_options(proxy.options.clone())));
            let service = hyper::service::service_fn(move |request| {
                let (proxy, connection) = (Arc::clone(&proxy), Arc::clone(&connection));
                async move {
                    let activity = Arc::clone(&proxy.activity);
                    activity.notify_one();
                    let response = proxy.handle(request, connection).await;
                    activity.notify_one();
                    Ok::<_, Infallible>(response)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// What to do with a client's POSTed message, once the guard had it.
enum Plan {
    /// Send it to the server.
    Forward,
    /// Answer it with this message, the server never sees it.
    Answer(String),
    /// Answer 202: the guard kept it (nothing the guard does today).
    Accept,
}

impl Proxy {
    async fn handle(
        self: Arc<Self>,
        request: Request<Incoming>,
        connection: Arc<Mutex<Guard>>,
    ) -> Response<Body> {
        let (parts, body) = request.into_parts();
        let host = header(&parts.headers, "host");
        if let Err(refusal) = (self.admission).admit(host, header(&parts.headers, "origin")) {
            tell!(
                "mcp-jsonschema proxy: refused a {} request: {refusal}",
                parts.method
            );
            return json_response(
                StatusCode::FORBIDDEN,
                failure(FORBIDDEN, &format!("Forbidden: {refusal}")),
            );
        }
        let session = header(&parts.headers, "mcp-session-id").map(str::to_string);
        let guard = match &session {
            None => connection,
            Some(id) => lock(&self.sessions).guard(id, &self.options),
        };
        let body = match Limited::new(body, self.limit).collect().await {
            Ok(body) => body.to_bytes(),
            Err(e) => {
                let message = format!(
                    "the request body cannot be read (over {} bytes?): {e}",
                    self.limit
                );
                return json_response(StatusCode::PAYLOAD_TOO_LARGE, refusal(&message));
            }
        };
        let plan = match parts.method {
            Method::POST => match std::str::from_utf8(&body) {
                Ok(message) => self.plan(&guard, &parts.headers, message).await,
                Err(_) => {
                    let answer = refusal("parse error: the message is not UTF-8");
                    return json_response(StatusCode::BAD_REQUEST, answer);
                }
            },
            _ => Plan::Forward,
        };
        let response = match plan {
            Plan::Answer(message) => return json_response(StatusCode::OK, message),
            Plan::Accept => return empty_response(StatusCode::ACCEPTED),
            Plan::Forward => self.forward(&parts, body.clone()).await,
        };
        let response = match response {
            Ok(response) => response,
            Err(e) => {
                self.forget(&guard, &body);
                return json_response(StatusCode::BAD_GATEWAY, failure(-32603, &e));
            }
        };
        if let Some(id) = &session {
            let ended = parts.method == Method::DELETE && response.status().is_success();
            if ended || response.status() == StatusCode::NOT_FOUND {
                lock(&self.sessions).guards.remove(id);
            }
        }
        let request = Request::from_parts(parts, body);
        self.relay(response, guard, request).await
    }

    /// Tells the guard that the client's `request` will get no answer through the proxy
    /// (the server's was lost, or the client left before it came), as a cancellation
    /// would, so that the guard stops tracking it. Nothing when it was answered.
    fn forget(&self, guard: &Mutex<Guard>, request: &[u8]) {
        let Ok(request) = serde_json::from_slice::<serde_json::Value>(request) else {
            return;
        };
        let (Some(id), Some(_)) = (request.get("id"), request.get("method")) else {
            return;
        };
        let cancel = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id, "reason": "no answer through the proxy"}});
        let message = cancel.to_string();
        let _ = decide(guard, &self.report, |g| {
            g.handle(Side::Client, &message).collect()
        });
    }

    /// What the guard makes of a client's `message`, after listing the tools itself if
    /// it asks to.
    async fn plan(&self, guard: &Mutex<Guard>, headers: &HeaderMap, message: &str) -> Plan {
        let mut actions = decide(guard, &self.report, |g| {
            g.handle(Side::Client, message).collect()
        });
        // A listing first is the only action; after it the guard decides for good.
        if let [Action::ListFirst { request }] = actions.as_mut_slice() {
            self.own(guard, headers, std::mem::take(request)).await;
            actions = decide(guard, &self.report, |g| g.handle_listed(message).collect());
        }
        let mut plan = Plan::Accept;
        for action in actions {
            match action {
                Action::Forward => plan = Plan::Forward,
                Action::Send {
                    to: Side::Client,
                    message,
                } => plan = Plan::Answer(message),
                Action::Send {
                    to: Side::Server,
                    message,
                } => self.own(guard, headers, message).await,
                Action::ListFirst { .. } => {}
            }
        }
        plan
    }

    /// Sends the guard's own request `message` (a `tools/list`, and the further pages it
    /// asks for) with the headers of the client's request that prompted it, and gives
    /// the guard the answers, within the list timeout; a listing that did not end by
    /// then (no answer, a failure, a response without it) is given up.
    async fn own(&self, guard: &Mutex<Guard>, headers: &HeaderMap, message: String) {
        let first = message.clone();
        let exchange = async {
            let mut queue = vec![message];
            while let Some(message) = queue.pop() {
                let mut request = Request::post(self.upstream.url())
                    .body(Full::new(Bytes::from(message)))
                    .map_err(|e| e.to_string())?;
                *request.headers_mut() = own_headers(headers);
                let response = self.upstream.send(request).await?;
                let mut dropped = 0;
                let mut each = |message: &str| {
                    let routed = self.route(guard, message);
                    dropped += routed.to_client.len();
                    queue.extend(routed.to_server);
                };
                if is_stream(response.headers()) {
                    let mut events = Events::new(response.into_body());
                    while let Some(event) = events.next().await {
                        // A priming event (an id to resume from, no message) is no message.
                        if let Some(data) = event?.data.filter(|data| !data.trim().is_empty()) {
                            each(&data);
                        }
                    }
                } else {
                    let body = response
                        .into_body()
                        .collect()
                        .await
                        .map_err(|e| e.to_string())?;
                    each(&String::from_utf8_lossy(&body.to_bytes()));
                }
                if dropped > 0 {
                    tell!("mcp-jsonschema proxy: {dropped} server message(s) on the proxy's own tools/list dropped");
                }
            }
            Ok::<(), String>(())
        };
        let why = match tokio::time::timeout(self.list_timeout, exchange).await {
            Ok(Ok(())) => "the server's response to the proxy's tools/list held no answer".into(),
            Ok(Err(e)) => format!("the proxy's own tools/list failed: {e}"),
            Err(_) => super::no_listing_in_time(self.list_timeout),
        };
        // Nothing when the listing is over.
        let _ = decide(guard, &self.report, |g| {
            g.abandon_listing(&first, &why);
            Vec::new()
        });
    }

    /// Sends the client's request upstream as it came.
    async fn forward(&self, parts: &Parts, body: Bytes) -> Result<Response<Incoming>, String> {
        let mut request = Request::builder()
            .method(parts.method.clone())
            .uri(self.upstream.url())
            .body(Full::new(body))
            .map_err(|e| e.to_string())?;
        *request.headers_mut() = end_to_end(&parts.headers);
        self.upstream.send(request).await
    }

    /// The server's `response` for the client, its messages through `guard`: a JSON
    /// body read whole, an event stream relayed event by event as it arrives.
    async fn relay(
        self: Arc<Self>,
        response: Response<Incoming>,
        guard: Arc<Mutex<Guard>>,
        request: Request<Bytes>,
    ) -> Response<Body> {
        let (request, sent) = request.into_parts();
        let headers = request.headers;
        let (mut parts, body) = response.into_parts();
        parts.headers = end_to_end(&parts.headers);
        parts.version = hyper::Version::HTTP_11;
        if is_stream(&parts.headers) {
            let (sender, receiver) = mpsc::channel(STREAM_BUFFER);
            tokio::spawn(async move {
                let resumable = self.stream(body, &guard, &headers, sender).await;
                if request.method == Method::POST && !resumable {
                    self.forget(&guard, &sent);
                }
            });
            return Response::from_parts(parts, Channel(receiver).boxed());
        }
        let body = match body.collect().await {
            Ok(body) => body.to_bytes(),
            Err(e) => {
                self.forget(&guard, &sent);
                let message = format!("{}: {e}", self.upstream.url());
                return json_response(StatusCode::BAD_GATEWAY, failure(-32603, &message));
            }
        };
        let json = header(&parts.headers, CONTENT_TYPE.as_str())
            .is_some_and(|t| t.starts_with("application/json"));
        if !(json && parts.status.is_success()) && request.method == Method::POST {
            self.forget(&guard, &sent);
        }
        let body = match (json, std::str::from_utf8(&body)) {
            (true, Ok(message)) => {
                let routed = self.route(&guard, message);
                for request in routed.to_server {
                    self.own(&guard, &headers, request).await;
                }
                match routed.to_client.into_iter().last() {
                    Some(Some(replacement)) => Bytes::from(replacement),
                    _ => body,
                }
            }
            _ => body,
        };
        Response::from_parts(parts, Full::new(body).boxed())
    }

    /// Relays an event stream to `sender`, each event's message through the guard,
    /// until either side ends it: whether the client can resume it (an event gave an id
    /// to resume from).
    async fn stream(
        &self,
        body: Incoming,
        guard: &Mutex<Guard>,
        headers: &HeaderMap,
        sender: mpsc::Sender<Bytes>,
    ) -> bool {
        let mut events = Events::new(body);
        let mut resumable = false;
        while let Some(event) = until_closed(&sender, events.next()).await {
            let Ok(event) = event else { return resumable };
            if let Some(id) = &event.id {
                // An empty id resets the client's last event id (the SSE standard).
                resumable = !id.is_empty();
            }
            let texts = match &event.data {
                None => vec![event.to_text(None)],
                Some(data) => {
                    let routed = self.route(guard, data);
                    for request in routed.to_server {
                        self.own(guard, headers, request).await;
                    }
                    (routed.to_client.iter())
                        .map(|message| event.to_text(message.as_deref()))
                        .collect()
                }
            };
            for text in texts {
                if sender.send(Bytes::from(text)).await.is_err() {
                    // The client is gone; dropping the body ends the upstream's.
                    return resumable;
                }
            }
        }
        resumable
    }

    /// Where the guard sends a server message.
    fn route(&self, guard: &Mutex<Guard>, message: &str) -> Routed {
        let actions = decide(guard, &self.report, |g| {
            g.handle(Side::Server, message).collect()
        });
        let mut routed = Routed::default();
        for action in actions {
            match action {
                Action::Forward => routed.to_client.push(None),
                Action::Send {
                    to: Side::Client,
                    message,
                } => routed.to_client.push(Some(message)),
                Action::Send {
                    to: Side::Server,
                    message,
                } => routed.to_server.push(message),
                Action::ListFirst { .. } => {}
            }
        }
        routed
    }
}

/// The sessions' guards.
#[derive(Default)]
struct Sessions {
    /// By session id: the guard and the tick of its last use.
    guards: HashMap<String, (Arc<Mutex<Guard>>, u64)>,
    /// Counts uses.
    tick: u64,
}

impl Sessions {
    /// The guard of session `id`, made on its first request (forgetting the session
    /// used least recently when [`MAX_SESSIONS`] are guarded).
    fn guard(&mut self, id: &str, options: &GuardOptions) -> Arc<Mutex<Guard>> {
        self.tick += 1;
        if let Some((guard, used)) = self.guards.get_mut(id) {
            *used = self.tick;
            return Arc::clone(guard);
        }
        if self.guards.len() >= MAX_SESSIONS {
            let oldest = (self.guards.iter())
                .min_by_key(|(_, (_, used))| *used)
                .map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                self.guards.remove(&oldest);
            }
        }
        let guard = Arc::new(Mutex::new(Guard::with_options(options.clone())));
        (self.guards).insert(id.to_string(), (Arc::clone(&guard), self.tick));
        guard
    }
}

/// A server message's fate.
#[derive(Default)]
struct Routed {
    /// For the client: the message itself (`None`) or what replaces it.
    to_client: Vec<Option<String>>,
    /// The guard's own requests for the server.
    to_server: Vec<String>,
}

/// What `next` gives, or `None` once the client's end of `sender` is gone (an idle event
/// stream then ends at once rather than at the server's next event).
async fn until_closed<T>(
    sender: &mpsc::Sender<Bytes>,
    next: impl Future<Output = Option<T>>,
) -> Option<T> {
    let mut next = std::pin::pin!(next);
    let mut closed = std::pin::pin!(sender.closed());
    std::future::poll_fn(|cx| match closed.as_mut().poll(cx) {
        Poll::Ready(()) => Poll::Ready(None),
        Poll::Pending => next.as_mut().poll(cx),
    })
    .await
}

/// A response body fed by a relaying task.
struct Channel(mpsc::Receiver<Bytes>);

impl hyper::body::Body for Channel {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|c| Ok(Frame::data(c))))
    }
}

/// Whether `headers` announce an event stream.
fn is_stream(headers: &HeaderMap) -> bool {
    header(headers, CONTENT_TYPE.as_str()).is_some_and(|t| t.starts_with("text/event-stream"))
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// `headers` without those of one hop, those a `Connection` header names, `Host` (the
/// upstream's is set) and the length.
fn end_to_end(headers: &HeaderMap) -> HeaderMap {
    let named: Vec<String> = (headers.get_all("connection").iter())
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(|n| n.trim().to_ascii_lowercase()))
        .collect();
    let mut kept = headers.clone();
    let dropped = HOP_BY_HOP
        .iter()
        .copied()
        .chain(["host", CONTENT_LENGTH.as_str()]);
    for name in dropped.chain(named.iter().map(String::as_str)) {
        kept.remove(name);
    }
    kept
}

/// The headers of the guard's own `tools/list`: the client request's (its session, its
/// protocol version, its credentials), without what described that request's message.
fn own_headers(client: &HeaderMap) -> HeaderMap {
    let mut headers = end_to_end(client);
    let described: Vec<HeaderName> = (headers.keys())
        .filter(|name| {
            let name = name.as_str();
            name.starts_with("mcp-") && name != "mcp-session-id" && name != "mcp-protocol-version"
        })
        .cloned()
        .collect();
    for name in described {
        headers.remove(name);
    }
    if client.contains_key("mcp-method") {
        headers.insert("mcp-method", HeaderValue::from_static("tools/list"));
    }
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers
}

fn json_response(status: StatusCode, message: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn empty_response(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_used_least_recently_is_forgotten_first() {
        let options = GuardOptions::default();
        let mut sessions = Sessions::default();
        let first = sessions.guard("s0", &options);
        for n in 1..MAX_SESSIONS {
            sessions.guard(&format!("s{n}"), &options);
        }
        assert!(Arc::ptr_eq(&first, &sessions.guard("s0", &options)));
        sessions.guard("new", &options);
        assert_eq!(sessions.guards.len(), MAX_SESSIONS);
        assert!(sessions.guards.contains_key("s0"), "used since");
        assert!(
            !sessions.guards.contains_key("s1"),
            "the least recently used"
        );
    }

    #[test]
    fn hop_by_hop_headers_stay_behind() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("connection", "keep-alive, x-hop"),
            ("x-hop", "1"),
            ("host", "proxy:8001"),
            ("content-length", "12"),
            ("mcp-session-id", "s"),
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "get_weather"),
            ("authorization", "Bearer t"),
        ] {
            headers.append(name, HeaderValue::from_static(value));
        }
        let kept = end_to_end(&headers);
        let mut names: Vec<&str> = kept.keys().map(HeaderName::as_str).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "authorization",
                "mcp-method",
                "mcp-name",
                "mcp-protocol-version",
                "mcp-session-id"
            ]
        );
        let own = own_headers(&headers);
        assert_eq!(header(&own, "mcp-method"), Some("tools/list"));
        assert_eq!(header(&own, "mcp-name"), None);
        assert_eq!(header(&own, "mcp-session-id"), Some("s"));
        assert_eq!(header(&own, "authorization"), Some("Bearer t"));
        assert_eq!(
            header(&own, "accept"),
            Some("application/json, text/event-stream")
        );
    }
}
