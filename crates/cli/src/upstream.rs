//! An HTTP/1.1 client for one MCP endpoint (`http://host:port/path`), shared by
//! `tools --http` and the HTTP proxy: each request goes to the endpoint's path with its
//! `Host`, over a kept-alive connection when an idle one is ready (a proxy's calls must
//! not pay a TCP handshake each), or a new one. Plain `http` only: the proxy and the
//! servers it fronts share a machine.

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderValue, HOST};
use hyper::{Request, Response, Uri};
use hyper_util::rt::TokioIo;
use std::sync::{Arc, Mutex};
use tokio::runtime::Handle;
use tokio::sync::Notify;

/// Connections kept per endpoint (idle, or busy with a body still arriving).
const IDLE: usize = 32;
/// How long a call waits for the connection kept last to turn ready before it opens
/// another.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(2);

/// An MCP endpoint.
pub(crate) struct Upstream {
    url: String,
    /// `/path?query` of the endpoint.
    path: Uri,
    /// `host:port`, to connect to and for `Host`.
    authority: String,
    idle: Mutex<Vec<SendRequest<Full<Bytes>>>>,
    /// Where the connections' tasks run, and whom to tell of each request sent: another
    /// runtime's thread ([`Upstream::on`]); by default the caller's runtime, told nothing.
    runtime: Option<(Handle, Arc<Notify>)>,
}

impl Upstream {
    /// The endpoint at `url`, which must be `http://`.
    pub(crate) fn new(url: &str) -> Result<Upstream, String> {
        let uri: Uri = url.parse().map_err(|e| format!("{url}: not a URL: {e}"))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => {
                return Err(format!(
                    "{url}: https is not supported (the proxy and the server share a machine: use http)"
                ))
            }
            _ => return Err(format!("{url}: not an http:// URL")),
        }
        let Some(authority) = uri.authority() else {
            return Err(format!("{url}: no host"));
        };
        let authority = match authority.port() {
            Some(_) => authority.to_string(),
            None => format!("{}:80", authority.host()),
        };
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        Ok(Upstream {
            url: url.to_string(),
            path: path.parse().map_err(|e| format!("{url}: {e}"))?,
            authority,
            idle: Mutex::new(Vec::new()),
            runtime: None,
        })
    }

    /// Runs the connections' tasks (their sockets) on `runtime` instead of the caller's,
    /// and notifies `sent` as each request is sent.
    pub(crate) fn on(mut self, runtime: Handle, sent: Arc<Notify>) -> Upstream {
        self.runtime = Some((runtime, sent));
        self
    }

    /// The URL as given.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// Sends `request` (its method, headers and body; its URI is replaced by the
    /// endpoint's) and returns the response, whose body may still be arriving.
    pub(crate) async fn send(
        &self,
        mut request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, String> {
        *request.uri_mut() = self.path.clone();
        if let Ok(host) = HeaderValue::from_str(&self.authority) {
            request.headers_mut().insert(HOST, host);
        }
        let mut sender = match self.ready() {
            Some(sender) => sender,
            None => match self.settled().await {
                Some(sender) => sender,
                None => self.connect().await?,
            },
        };
        if let Some((_, sent)) = &self.runtime {
            sent.notify_one();
        }
        let response = sender.send_request(request).await;
        // The connection serves the next request once this response's body is read.
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < IDLE {
            idle.push(sender);
        }
        drop(idle);
        response.map_err(|e| format!("{}: {e}", self.url))
    }

    /// A kept connection ready for a request. Closed ones are dropped; busy ones (a body
    /// still arriving: an event stream, a response being read) are kept for later.
    fn ready(&self) -> Option<SendRequest<Full<Bytes>>> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.retain(|sender| !sender.is_closed());
        let ready = idle.iter().rposition(SendRequest::is_ready)?;
        Some(idle.swap_remove(ready))
    }

    /// The connection kept last, once it is ready, if that takes at most [`SETTLE`]: a
    /// connection whose last response was just read turns ready once its task has run
    /// (on this thread, or on the connections' own), which must not cost a new
    /// connection for each call in turn. `None` when it stays busy (an event stream).
    async fn settled(&self) -> Option<SendRequest<Full<Bytes>>> {
        let mut sender = {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            idle.retain(|sender| !sender.is_closed());
            idle.pop()?
        };
        match tokio::time::timeout(SETTLE, sender.ready()).await {
            Ok(Ok(())) => Some(sender),
            Ok(Err(_)) => None,
            Err(_) => {
                let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
                if idle.len() < IDLE {
                    idle.push(sender);
                }
                None
            }
        }
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, String> {
        let (authority, url) = (self.authority.clone(), self.url.clone());
        let connect = async move {
            let stream = tokio::net::TcpStream::connect(&authority)
                .await
                .map_err(|e| format!("{url}: cannot connect: {e}"))?;
            let _ = stream.set_nodelay(true);
            let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|e| format!("{url}: {e}"))?;
            tokio::spawn(connection);
            Ok(sender)
        };
        match &self.runtime {
            None => connect.await,
            Some((runtime, _)) => (runtime.spawn(connect).await)
                .map_err(|e| format!("{}: cannot connect: {e}", self.url))?,
        }
    }
}
