//! The server at a Streamable HTTP endpoint: each message a POST with the headers the
//! transport asks for (`Accept` of both JSON and SSE, `MCP-Protocol-Version`,
//! `Mcp-Method`, and after a handshake-era `initialize` the `Mcp-Session-Id` it
//! returned, which a DELETE ends when done); each answer read from a JSON body or from
//! the SSE stream the server opens for the request.

use super::{message, shorten, Reply, Transport};
use crate::sse;
use crate::upstream::Upstream;
use crate::Failure;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{ACCEPT, CONTENT_TYPE};
use hyper::{Method, Request, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;

/// A server at an HTTP endpoint.
pub(crate) struct HttpServer {
    /// Drives the exchanges (a current-thread runtime runs its tasks, the connections,
    /// only inside its own `block_on`).
    runtime: tokio::runtime::Runtime,
    endpoint: Endpoint,
    next_id: u64,
    timeout: Duration,
}

/// The endpoint and the session's state.
struct Endpoint {
    upstream: Upstream,
    session: Option<String>,
    protocol: String,
}

impl HttpServer {
    /// The server at `url`.
    pub(crate) fn new(url: &str, timeout: Duration) -> Result<HttpServer, Failure> {
        let upstream = Upstream::new(url).map_err(Failure)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure(format!("cannot start the HTTP client: {e}")))?;
        Ok(HttpServer {
            runtime,
            endpoint: Endpoint {
                upstream,
                session: None,
                protocol: String::new(),
            },
            next_id: 0,
            timeout,
        })
    }
}

impl Endpoint {
    fn post(&self, method: &str, body: &Value) -> Result<Request<Full<Bytes>>, Failure> {
        let mut request = Request::post(self.upstream.url())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", self.protocol.as_str())
            .header("mcp-method", method);
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session.as_str());
        }
        (request.body(Full::new(Bytes::from(body.to_string()))))
            .map_err(|e| Failure(format!("{}: {e}", self.upstream.url())))
    }

    /// Sends `body` and reads the answer to request `id` (`None`: a notification).
    async fn exchange(
        &mut self,
        method: &str,
        body: Value,
        id: Option<u64>,
    ) -> Result<Option<Reply>, Failure> {
        let url = self.upstream.url().to_string();
        let request = self.post(method, &body)?;
        let response = self.upstream.send(request).await.map_err(Failure)?;
        let status = response.status();
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_string());
        }
        let streamed = (response.headers().get(CONTENT_TYPE))
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let body = response.into_body();
        let Some(id) = id else {
            let _ = body.collect().await;
            return match status.is_success() {
                true => Ok(None),
                false => Err(Failure(format!(
                    "{url}: {method} was refused with HTTP {status}"
                ))),
            };
        };
        if streamed && status.is_success() {
            let mut events = sse::Events::new(body);
            while let Some(event) = events.next().await {
                let event = event.map_err(|e| Failure(format!("{url}: {e}")))?;
                let Some(data) = event.data else { continue };
                if let Some(reply) = answer(&url, data.as_bytes(), id)? {
                    return Ok(Some(reply));
                }
            }
            return Err(Failure(format!(
                "{url}: the event stream ended before {method} was answered"
            )));
        }
        let bytes = body
            .collect()
            .await
            .map_err(|e| Failure(format!("{url}: {e}")))?
            .to_bytes();
        match answer(&url, &bytes, id) {
            Ok(Some(reply)) => Ok(Some(reply)),
            _ if !status.is_success() => Ok(Some(Reply::Error(http_error(status, &bytes)))),
            Ok(None) => Err(Failure(format!(
                "{url}: the answer to {method} is not its response"
            ))),
            Err(failure) => Err(failure),
        }
    }
}

/// The reply in `data` if it is the response to request `id`.
fn answer(url: &str, data: &[u8], id: u64) -> Result<Option<Reply>, Failure> {
    let parsed = serde_json::from_slice::<Value>(data)
        .ok()
        .filter(Value::is_object);
    let Some(message) = parsed else {
        return Err(Failure(format!(
            "{url}: the server sent a message that is not JSON-RPC: {}",
            shorten(&String::from_utf8_lossy(data))
        )));
    };
    if message.get("method").is_some() || message.get("id") != Some(&json!(id)) {
        return Ok(None);
    }
    Ok(Some(match message.get("error") {
        Some(error) => Reply::Error(error.clone()),
        None => Reply::Result(message.get("result").cloned().unwrap_or(Value::Null)),
    }))
}

/// An HTTP error without a JSON-RPC response of its own, as an error reply.
fn http_error(status: StatusCode, body: &[u8]) -> Value {
    let error = serde_json::from_slice::<Value>(body).ok();
    match error.as_ref().and_then(|e| e.get("error")) {
        Some(error) => error.clone(),
        None => {
            json!({"message": format!("HTTP {status}: {}", shorten(&String::from_utf8_lossy(body)))})
        }
    }
}

impl Transport for HttpServer {
    fn request(
        &mut self,
        method: &str,
        params: Value,
        wait: Duration,
    ) -> Result<Option<Reply>, Failure> {
        self.next_id += 1;
        let id = self.next_id;
        let body = message(Some(id), method, params);
        let endpoint = &mut self.endpoint;
        let exchange =
            async { tokio::time::timeout(wait, endpoint.exchange(method, body, Some(id))).await };
        match self.runtime.block_on(exchange) {
            Ok(reply) => reply,
            Err(_elapsed) => Ok(None),
        }
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), Failure> {
        let body = message(None, method, params);
        let (endpoint, wait) = (&mut self.endpoint, self.timeout);
        let exchange =
            async { tokio::time::timeout(wait, endpoint.exchange(method, body, None)).await };
        match self.runtime.block_on(exchange) {
            Ok(result) => result.map(|_| ()),
            Err(_elapsed) => Err(Failure(format!(
                "{}: {method} was not accepted in time",
                self.endpoint.upstream.url()
            ))),
        }
    }

    fn set_protocol(&mut self, version: &str) {
        self.endpoint.protocol = version.to_string();
    }

    fn timeout(&self) -> Duration {
        self.timeout
    }

    fn name(&self) -> &str {
        self.endpoint.upstream.url()
    }
}

impl Drop for HttpServer {
    /// Ends a handshake-era session, as the transport asks a client to.
    fn drop(&mut self) {
        let endpoint = &mut self.endpoint;
        let Some(session) = endpoint.session.take() else {
            return;
        };
        let request = Request::builder()
            .method(Method::DELETE)
            .uri(endpoint.upstream.url())
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", endpoint.protocol.as_str())
            .body(Full::new(Bytes::new()));
        let Ok(request) = request else { return };
        let upstream = &endpoint.upstream;
        self.runtime.block_on(async {
            let sent = tokio::time::timeout(Duration::from_secs(2), upstream.send(request)).await;
            if let Ok(Ok(response)) = sent {
                let _ = response.into_body().collect().await;
            }
        });
    }
}
