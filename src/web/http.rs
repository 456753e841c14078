//! Just enough HTTP/1.1 for `arbor serve`, on std's sockets: one request at a time per
//! connection (keep-alive), every read under a deadline, heads and bodies bounded, and a
//! body that is refused never read (the connection closes instead).

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The longest request line and headers together.
pub const MAX_HEAD: usize = 16 * 1024;
/// Headers in one request, at most.
const MAX_HEADERS: usize = 64;
/// A request's head and body must arrive within this once its first byte has.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// A kept-alive connection waits this long for its next request.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// After refusing a request, the rest of what the client sent is read for this long (or
/// this much) before the socket closes, so that the client sees the answer rather than a
/// reset; never more.
const LINGER_TIME: Duration = Duration::from_secs(1);
const LINGER_BYTES: usize = 256 * 1024;

/// A request as read: the method, the path and query (split at `?`, not decoded), the
/// headers (names in lower case) and the body.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Whether the client keeps the connection for another request.
    pub keep_alive: bool,
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

    /// The status line and headers.
    fn head(&self, keep_alive: bool) -> String {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: {}\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len(),
            if keep_alive { "keep-alive" } else { "close" }
        );
        for (name, value) in &self.headers {
            let _ = write!(head, "{name}: {value}\r\n");
        }
        head.push_str("\r\n");
        head
    }
}

/// What the next read on a connection brought.
#[derive(Debug)]
pub enum Incoming {
    Request(Request),
    /// The client closed the connection or let it idle out between requests.
    Closed,
    /// A request that cannot be read (too large, malformed, too slow): answer, then close.
    Refused(Response),
}

/// One client's connection; bytes read past a request wait for the next one.
pub struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    pub fn new(stream: TcpStream) -> Connection {
        let _ = stream.set_nodelay(true);
        Connection {
            stream,
            buffer: Vec::new(),
        }
    }

    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    /// Reads the next request, its body at most `max_body` bytes. `head_in` is called
    /// once the request's head has come (the request is under way); if it says no, the
    /// connection is dropped (it was closed meanwhile).
    pub fn read_request(&mut self, max_body: usize, head_in: impl FnOnce() -> bool) -> Incoming {
        let refuse = |status, message: String| Incoming::Refused(error_text(status, &message));
        // The first byte may take the keep-alive time; the whole request must then
        // follow within the request time.
        let mut waiting = self.buffer.is_empty();
        let mut deadline = Instant::now() + if waiting { KEEP_ALIVE } else { REQUEST_TIMEOUT };
        let head_end = loop {
            let end = find(&self.buffer, b"\r\n\r\n").map(|end| end + 4);
            if end.unwrap_or(self.buffer.len()) > MAX_HEAD {
                return refuse(431, format!("the request's head is over {MAX_HEAD} bytes"));
            }
            if let Some(end) = end {
                if !head_in() {
                    return Incoming::Closed;
                }
                break end;
            }
            match self.fill(deadline) {
                Ok(0) => return Incoming::Closed,
                Ok(_) if waiting => {
                    waiting = false;
                    deadline = Instant::now() + REQUEST_TIMEOUT;
                }
                Ok(_) => {}
                Err(_) if self.buffer.is_empty() => return Incoming::Closed,
                Err(_) => return refuse(408, "the request came too slowly".to_string()),
            }
        };
        let head = match std::str::from_utf8(&self.buffer[..head_end]) {
            Ok(head) => head.to_string(),
            Err(_) => return refuse(400, "the request's head is not UTF-8".to_string()),
        };
        self.buffer.drain(..head_end);
        let mut request = match parse_head(&head) {
            Ok(request) => request,
            Err((status, message)) => return refuse(status, message),
        };
        if request.header("transfer-encoding").is_some() {
            return refuse(411, "send a Content-Length, not a chunked body".to_string());
        }
        let mut lengths = request
            .headers
            .iter()
            .filter(|(name, _)| name == "content-length")
            .map(|(_, value)| value.trim());
        let length = match (lengths.next(), lengths.next()) {
            (None, _) => 0,
            (Some(text), None) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
                // A length too long for a number is certainly too long for the server.
                text.parse::<u64>().unwrap_or(u64::MAX)
            }
            _ => return refuse(400, "bad Content-Length".to_string()),
        };
        if length > max_body as u64 {
            return refuse(413, format!("the body is over {max_body} bytes"));
        }
        let length = length as usize;
        match request.header("expect") {
            None => {}
            Some(value) if !value.eq_ignore_ascii_case("100-continue") => {
                return refuse(417, "unknown Expect".to_string());
            }
            // The client waits for the go-ahead before it sends the body.
            Some(_) => {
                let go_ahead = b"HTTP/1.1 100 Continue\r\n\r\n";
                if length > self.buffer.len() && self.stream.write_all(go_ahead).is_err() {
                    return Incoming::Closed;
                }
            }
        }
        while self.buffer.len() < length {
            match self.fill(deadline) {
                Ok(0) => return Incoming::Closed,
                Ok(_) => {}
                Err(_) => return refuse(408, "the body came too slowly".to_string()),
            }
        }
        request.body = self.buffer.drain(..length).collect();
        Incoming::Request(request)
    }

    /// Reads what has come, waiting until `deadline` at most.
    fn fill(&mut self, deadline: Instant) -> io::Result<usize> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut chunk = [0; 8192];
        let count = self.stream.read(&mut chunk)?;
        self.buffer.extend_from_slice(&chunk[..count]);
        Ok(count)
    }

    /// Sends an answer (its head only for `HEAD`).
    pub fn respond(
        &mut self,
        response: &Response,
        head_only: bool,
        keep_alive: bool,
    ) -> io::Result<()> {
        let _ = self.stream.set_write_timeout(Some(REQUEST_TIMEOUT));
        let mut bytes = response.head(keep_alive).into_bytes();
        if !head_only {
            bytes.extend_from_slice(&response.body);
        }
        self.stream.write_all(&bytes)?;
        self.stream.flush()
    }

    /// Answers and closes, reading (and dropping) a bounded amount of what the client
    /// still sends so that it gets the answer; an announced body is never read whole.
    pub fn refuse(mut self, response: &Response) {
        if self.respond(response, false, false).is_err() {
            return;
        }
        linger(&mut self.stream);
    }

    /// The socket, for a response written as it goes (an event stream).
    pub fn into_stream(self) -> TcpStream {
        self.stream
    }
}

/// Closes the sending side and reads for a moment so that the answer is not lost to a
/// reset; bounded in time and bytes.
pub fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + LINGER_TIME;
    let mut chunk = [0; 8192];
    let mut read = 0;
    while read < LINGER_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(count) => read += count,
        }
    }
}

/// A plain JSON error for refusals made before a request is routed.
pub fn error_text(status: u16, message: &str) -> Response {
    Response::new(
        status,
        "application/json",
        serde_json::json!({ "error": message }).to_string(),
    )
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// The request line and headers.
fn parse_head(head: &str) -> Result<Request, (u16, String)> {
    let bad = |message: &str| (400, message.to_string());
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap_or("");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("bad request line"));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(bad("bad method"));
    }
    let http11 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Err(bad("only HTTP/1.0 and 1.1 are spoken")),
    };
    if !target.starts_with('/') || target.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err(bad("bad request target"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    for line in lines.filter(|line| !line.is_empty()) {
        if headers.len() == MAX_HEADERS {
            return Err((431, format!("over {MAX_HEADERS} headers")));
        }
        let (name, value) = line.split_once(':').ok_or_else(|| bad("bad header"))?;
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(bad("bad header name"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let connection = headers
        .iter()
        .filter(|(name, _)| name == "connection")
        .map(|(_, value)| value.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(",");
    let keep_alive = if http11 {
        !connection.contains("close")
    } else {
        connection.contains("keep-alive")
    };
    Ok(Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: Vec::new(),
        keep_alive,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        _ => "Error",
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

    #[test]
    fn heads_parse_and_refuse() {
        let request =
            parse_head("POST /api/x?a=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n").unwrap();
        assert_eq!(
            (request.method.as_str(), request.path.as_str()),
            ("POST", "/api/x")
        );
        assert_eq!(request.query, "a=1");
        assert_eq!(request.header("host"), Some("h"));
        assert!(request.keep_alive);
        let request = parse_head("GET / HTTP/1.0\r\n\r\n").unwrap();
        assert!(!request.keep_alive);
        let request = parse_head("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n").unwrap();
        assert!(!request.keep_alive);
        for bad in [
            "GET\r\n\r\n",
            "GET / HTTP/2\r\n\r\n",
            "get / HTTP/1.1\r\n\r\n",
            "GET x HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nno colon\r\n\r\n",
            "GET  / HTTP/1.1\r\n\r\n",
        ] {
            assert!(parse_head(bad).is_err(), "{bad:?}");
        }
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
