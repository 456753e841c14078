//! HTTP/1.1 for `arbor serve` on hyper: hyper reads requests and writes answers; this
//! file bounds them (heads, bodies, time) and keeps what the server counts on for each
//! connection (a [`Watch`]: whether it waits for a request and since when). A body that
//! is refused is never read, and a connection closes lingering so that a refused client
//! sees its answer rather than a reset.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::Shutdown;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderMap};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use socket2::SockRef;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, sleep_until, timeout_at};

/// The longest request line and headers together.
pub const MAX_HEAD: usize = 16 * 1024;
/// Headers in one request, at most.
const MAX_HEADERS: usize = 64;
/// A request's head and body must arrive within this once its first byte has.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// A kept-alive connection waits this long for its next request; an answer (or an event)
/// that the client does not take for this long closes the connection too.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How often a busy connection looks at its deadlines.
const TICK: Duration = Duration::from_secs(1);
/// After the last answer, the rest of what the client sent is read for this long (or
/// this much) before the socket closes, so that the client sees the answer rather than a
/// reset; never more.
const LINGER_TIME: Duration = Duration::from_secs(1);
const LINGER_BYTES: usize = 256 * 1024;

/// What hyper sends: a whole answer, or an event stream.
pub type Body = UnsyncBoxBody<Bytes, Infallible>;

/// A request as read: the method, the path and query (split at `?`, not decoded), the
/// headers (names in lower case) and the body.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// An answer: a status, a body and its type, and any other headers.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }

    /// The message for hyper; `close` ends the connection after it.
    pub fn into_hyper(self, close: bool) -> hyper::Response<Body> {
        let body = Full::new(Bytes::from(self.body)).boxed_unsync();
        let mut response = message(self.status, self.content_type, body, close);
        for (name, value) in self.headers {
            if let Ok(value) = value.parse() {
                response.headers_mut().append(name, value);
            }
        }
        response
    }
}

/// An event stream's answer: `text/event-stream`, closed when the stream ends.
pub fn event_stream(body: Body) -> hyper::Response<Body> {
    message(200, "text/event-stream", body, true)
}

fn message(
    status: u16,
    content_type: &'static str,
    body: Body,
    close: bool,
) -> hyper::Response<Body> {
    let mut response = hyper::Response::new(body);
    *response.status_mut() =
        hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    let fixed = |value| header::HeaderValue::from_static(value);
    headers.insert(header::CONTENT_TYPE, fixed(content_type));
    headers.insert(header::CACHE_CONTROL, fixed("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, fixed("nosniff"));
    if close {
        headers.insert(header::CONNECTION, fixed("close"));
    }
    response
}

/// A plain JSON error for refusals made before a request is routed.
pub fn error_text(status: u16, message: &str) -> Response {
    Response::new(
        status,
        "application/json",
        serde_json::json!({ "error": message }).to_string(),
    )
}

/// Checks a request's head and reads its body by `deadline`, at most `max_body` bytes
/// (the go-ahead of `Expect: 100-continue` goes out only then). A refusal is an answer
/// to send before closing; a refused body is never read.
pub async fn read(
    request: hyper::Request<Incoming>,
    max_body: usize,
    deadline: Instant,
) -> Result<Request, Response> {
    let (head, body) = request.into_parts();
    let mut request = check_head(&head.method, &head.uri, &head.headers, max_body)?;
    match timeout_at(deadline, body.collect()).await {
        Ok(Ok(body)) => request.body = body.to_bytes().to_vec(),
        Ok(Err(_)) => return Err(error_text(400, "the body ended early")),
        Err(_) => return Err(error_text(408, "the body came too slowly")),
    }
    Ok(request)
}

/// What hyper left to check in a head (it refuses malformed heads, lengths and those
/// over `MAX_HEAD` itself): the body's framing and size, `Expect`, and ASCII headers.
fn check_head(
    method: &hyper::Method,
    uri: &hyper::Uri,
    headers: &HeaderMap,
    max_body: usize,
) -> Result<Request, Response> {
    let refuse = |status, message: &str| Err(error_text(status, message));
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return refuse(411, "send a Content-Length, not a chunked body");
    }
    let length = match headers.get(header::CONTENT_LENGTH) {
        None => 0,
        // A length too long for a number is certainly too long for the server.
        Some(value) => value
            .to_str()
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(u64::MAX),
    };
    if length > max_body as u64 {
        return refuse(413, &format!("the body is over {max_body} bytes"));
    }
    if let Some(value) = headers.get(header::EXPECT)
        && !value.as_bytes().eq_ignore_ascii_case(b"100-continue")
    {
        return refuse(417, "unknown Expect");
    }
    let mut pairs = Vec::with_capacity(headers.len());
    for (name, value) in headers {
        let Ok(value) = value.to_str() else {
            return refuse(400, "a header is not ASCII");
        };
        pairs.push((name.as_str().to_string(), value.trim().to_string()));
    }
    Ok(Request {
        method: method.as_str().to_string(),
        path: uri.path().to_string(),
        query: uri.query().unwrap_or("").to_string(),
        headers: pairs,
        body: Vec::new(),
    })
}

/// One connection's state, shared by its socket, its requests and the server: whether
/// it waits for a request, and the times its deadlines run from.
#[derive(Debug)]
pub struct Watch(Mutex<WatchState>);

#[derive(Debug)]
struct WatchState {
    /// Since when it has waited for a request's head; `None` while one is served (or an
    /// event stream goes on).
    waiting: Option<Instant>,
    /// When the awaited request's first byte came.
    first_byte: Option<Instant>,
    /// Since when a write has waited for the client to read.
    blocked: Option<Instant>,
}

impl Watch {
    pub fn new() -> Arc<Watch> {
        Arc::new(Watch(Mutex::new(WatchState {
            waiting: Some(Instant::now()),
            first_byte: None,
            blocked: None,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, WatchState> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Since when it has waited for a request's head (kept alive, or the head not all
    /// in); `None` while a request is served.
    pub fn waiting_since(&self) -> Option<Instant> {
        self.lock().waiting
    }

    /// A request's head came: it is served (until `waiting`). Returns when its first
    /// byte came.
    pub fn serving(&self) -> Instant {
        let mut state = self.lock();
        state.waiting = None;
        state.first_byte.take().unwrap_or_else(Instant::now)
    }

    /// Answered: it waits for the next request.
    pub fn waiting(&self) {
        let mut state = self.lock();
        state.waiting = Some(Instant::now());
        state.first_byte = None;
    }

    fn read_some(&self) {
        let mut state = self.lock();
        if state.waiting.is_some() && state.first_byte.is_none() {
            state.first_byte = Some(Instant::now());
        }
    }

    fn write_blocked(&self, blocked: bool) {
        let mut state = self.lock();
        state.blocked = if blocked {
            state.blocked.or_else(|| Some(Instant::now()))
        } else {
            None
        };
    }

    /// When the connection closes if nothing changes, and whether with a 408 (a request
    /// under way too slow); `None` while it is served and writes go out.
    fn deadline(&self) -> Option<(Instant, bool)> {
        let state = self.lock();
        match (state.waiting, state.first_byte) {
            (Some(_), Some(at)) => Some((at + REQUEST_TIMEOUT, true)),
            (Some(since), None) => Some((since + KEEP_ALIVE, false)),
            (None, _) => state.blocked.map(|at| (at + KEEP_ALIVE, false)),
        }
    }
}

/// Serves one connection, each request answered by `handler`, until it closes or a
/// deadline of its [`Watch`] passes; then closes it lingering.
pub async fn serve<H, F>(stream: TcpStream, watch: Arc<Watch>, handler: H)
where
    H: Fn(hyper::Request<Incoming>) -> F + Send + 'static,
    F: Future<Output = hyper::Response<Body>> + Send + 'static,
{
    let _ = stream.set_nodelay(true);
    let stream = Arc::new(stream);
    let io = TokioIo::new(Io {
        stream: Arc::clone(&stream),
        watch: Arc::clone(&watch),
    });
    let service = service_fn(move |request| {
        let answer = handler(request);
        async move { Ok::<_, Infallible>(answer.await) }
    });
    let connection = http1::Builder::new()
        .title_case_headers(true)
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .max_buf_size(2 * MAX_HEAD)
        // Deadlines are the watchdog's: hyper's closes without a 408.
        .header_read_timeout(None)
        .serve_connection(io, service);
    let late = tokio::select! {
        _ = connection => false,
        late = watchdog(&watch) => late,
    };
    let farewell = late.then(|| {
        let refusal = error_text(408, "the request came too slowly");
        raw_answer(408, "Request Timeout", &refusal.body)
    });
    linger(&stream, farewell).await;
}

/// Waits until the connection's deadline passes: true if a request was under way.
async fn watchdog(watch: &Watch) -> bool {
    loop {
        let now = Instant::now();
        let wake = match watch.deadline() {
            Some((deadline, late)) if deadline <= now => return late,
            Some((deadline, _)) => deadline.min(now + TICK),
            None => now + TICK,
        };
        sleep_until(wake).await;
    }
}

/// The one answer hyper cannot give: to a head that never came whole.
fn raw_answer(status: u16, reason: &str, body: &[u8]) -> Vec<u8> {
    let mut bytes = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Sends `farewell`, closes the sending side and reads for a moment so that the answer
/// is not lost to a reset; bounded in time and bytes.
async fn linger(stream: &TcpStream, farewell: Option<Vec<u8>>) {
    let deadline = Instant::now() + LINGER_TIME;
    let mut unsent = farewell.as_deref().unwrap_or_default();
    while !unsent.is_empty() {
        if !matches!(timeout_at(deadline, stream.writable()).await, Ok(Ok(()))) {
            return;
        }
        match stream.try_write(unsent) {
            Ok(count) => unsent = &unsent[count..],
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
    let _ = SockRef::from(stream).shutdown(Shutdown::Write);
    let mut chunk = [0; 8192];
    let mut read = 0;
    while read < LINGER_BYTES {
        if !matches!(timeout_at(deadline, stream.readable()).await, Ok(Ok(()))) {
            return;
        }
        match stream.try_read(&mut chunk) {
            Ok(0) => return,
            Ok(count) => read += count,
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
}

/// The socket as hyper uses it, shared with [`linger`], telling the [`Watch`] when a
/// request's first byte comes and when writes wait for the client.
struct Io {
    stream: Arc<TcpStream>,
    watch: Arc<Watch>,
}

impl AsyncRead for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            ready!(self.stream.poll_read_ready(cx))?;
            match self.stream.try_read(buf.initialize_unfilled()) {
                Ok(count) => {
                    buf.advance(count);
                    if count > 0 {
                        self.watch.read_some();
                    }
                    return Poll::Ready(Ok(()));
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) => return Poll::Ready(Err(error)),
            }
        }
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            if self.stream.poll_write_ready(cx)?.is_pending() {
                self.watch.write_blocked(true);
                return Poll::Pending;
            }
            match self.stream.try_write(data) {
                Ok(count) => {
                    self.watch.write_blocked(false);
                    return Poll::Ready(Ok(count));
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) => return Poll::Ready(Err(error)),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(SockRef::from(&*self.stream).shutdown(Shutdown::Write))
    }
}

/// A query string's `key=value` pairs, percent-decoded; anything malformed is refused.
pub fn parse_query(query: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    if query.is_empty() {
        return Ok(pairs);
    }
    for pair in query.split('&') {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("bad query parameter {pair:?}: expected key=value"))?;
        let key = decode(key)?;
        let value = decode(value)?;
        if key.is_empty() {
            return Err(format!("bad query parameter {pair:?}: no name"));
        }
        if pairs.iter().any(|(seen, _)| *seen == key) {
            return Err(format!("query parameter {key:?} is given twice"));
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// Percent-decoding (`+` is a space); a `%` without two hex digits, or bytes that are
/// not UTF-8, are refused.
fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|pair| std::str::from_utf8(pair).ok())
                    .filter(|pair| pair.bytes().all(|b| b.is_ascii_hexdigit()))
                    .ok_or_else(|| format!("bad percent escape in {text:?}"))?;
                out.push(u8::from_str_radix(hex, 16).expect("two hex digits"));
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| format!("query {text:?} is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(lines: &[(&str, &str)]) -> Result<Request, Response> {
        let mut request = hyper::Request::post("/api/x?a=1");
        for (name, value) in lines {
            request = request.header(*name, *value);
        }
        let request = request.body(()).unwrap();
        check_head(request.method(), request.uri(), request.headers(), 100)
    }

    #[test]
    fn heads_are_checked_before_bodies_are_read() {
        let request = head(&[("Host", "h"), ("Content-Length", "3")]).unwrap();
        assert_eq!(
            (request.method.as_str(), request.path.as_str()),
            ("POST", "/api/x")
        );
        assert_eq!(request.query, "a=1");
        assert_eq!(request.header("host"), Some("h"));
        let status = |lines: &[(&str, &str)]| head(lines).err().map(|refusal| refusal.status);
        assert_eq!(status(&[("Content-Length", "101")]), Some(413));
        assert_eq!(
            status(&[("Content-Length", "99999999999999999999999")]),
            Some(413)
        );
        assert_eq!(status(&[("Transfer-Encoding", "chunked")]), Some(411));
        assert_eq!(status(&[("Expect", "100-Continue")]), None);
        assert_eq!(status(&[("Expect", "teapot")]), Some(417));
        let refusal = head(&[("Content-Length", "101")]).unwrap_err();
        let sent = refusal.into_hyper(true);
        assert_eq!(sent.headers()["connection"], "close");
        assert_eq!(sent.headers()["content-type"], "application/json");
    }

    #[test]
    fn queries_decode_strictly() {
        assert_eq!(parse_query("").unwrap(), []);
        assert_eq!(
            parse_query("format=ggf&x=a%20b+c").unwrap(),
            [
                ("format".to_string(), "ggf".to_string()),
                ("x".to_string(), "a b c".to_string())
            ]
        );
        for bad in [
            "%%%%",
            "format=ggf&x=%zz",
            "x",
            "=1",
            "a=1&a=2",
            "a=%ff",
            "a=%4",
        ] {
            assert!(parse_query(bad).is_err(), "{bad:?}");
        }
    }
}
