//! `arbor serve` over HTTP on loopback: every endpoint, and the requests it must refuse.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
            .args(["serve", "--port", "0", "--hash", "4"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("arbor starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("arbor serve: listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// One request on its own connection: the status and the body.
    fn raw(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.address,
            body.len()
        );
        let (status, _, body) = self.send(head.as_bytes(), body);
        (status, body)
    }

    /// Bytes as they are on a connection of their own: the status, the head and the body
    /// of the answer.
    fn send(&self, head: &[u8], body: &[u8]) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(head).unwrap();
        // The server may answer (413) before reading a large body.
        let _ = stream.write_all(body);
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let status = reply
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status in {reply:?}"));
        let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
        (status, head.to_string(), body.to_string())
    }

    /// Whether the server still answers (a fresh connection, a plain request).
    fn answers(&self) -> bool {
        self.raw("GET", "/api/games", b"").0 == 200
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let (status, text) = self.raw(method, path, body.as_bytes());
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:?}"));
        (status, value)
    }

    fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, value) = self.call(method, path, body);
        assert_eq!(status, 200, "{method} {path}: {value}");
        value
    }

    /// A refusal: its status, and an error message in JSON.
    fn refused(&self, method: &str, path: &str, body: Option<Value>) -> (u16, String) {
        let (status, value) = self.call(method, path, body);
        assert!(
            (400..600).contains(&status),
            "{method} {path}: {status} {value}"
        );
        let error = value["error"]
            .as_str()
            .expect("an error message")
            .to_string();
        assert!(!error.is_empty());
        (status, error)
    }

    fn create(&self, game: &str, options: Value) -> String {
        let reply = self.ok(
            "POST",
            "/api/sessions",
            Some(json!({"game": game, "options": options})),
        );
        reply["id"].as_str().unwrap().to_string()
    }

    fn state(&self, id: &str) -> Value {
        self.ok("GET", &format!("/api/sessions/{id}"), None)
    }

    /// Polls the state until `done` holds (or fails after 30 s).
    fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let state = self.state(id);
            if done(&state) {
                return state;
            }
            assert!(Instant::now() < deadline, "no {what}: {state}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn page_games_and_unknown_paths() {
    let server = Server::start(&[]);
    let (status, page) = server.raw("GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\"") && page.contains("EventSource"));
    let games = server.ok("GET", "/api/games", None);
    let listed: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["othello", "gomoku", "pente", "tictactoe"]);
    assert_eq!(server.refused("GET", "/etc/passwd", None).0, 404);
    assert_eq!(server.refused("GET", "/../Cargo.toml", None).0, 404);
    // Unknown paths are 404 whatever the method; a known path's wrong method is 405
    // with the methods it takes.
    assert_eq!(server.refused("GET", "/api/nothing", None).0, 404);
    assert_eq!(server.refused("GET", "/api/../src/main.rs", None).0, 404);
    assert_eq!(server.refused("POST", "/api/sessions/x/y/z", None).0, 404);
    assert_eq!(server.refused("PUT", "/api/sessions", None).0, 405);
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\n\r\n",
        server.address
    );
    let (status, head, _) = server.send(head.as_bytes(), b"");
    assert_eq!(status, 405);
    assert!(head.contains("\r\nAllow: GET, HEAD"), "{head}");
    // HEAD / is the page's head.
    let head = format!("HEAD / HTTP/1.1\r\nHost: {}\r\n\r\n", server.address);
    let (status, head, body) = server.send(head.as_bytes(), b"");
    assert_eq!(status, 200);
    assert!(head.contains("text/html"), "{head}");
    assert!(body.is_empty(), "{body}");
    // Query strings: malformed or unknown parameters are refused.
    let id = server.create("othello", json!({}));
    for query in [
        "%%%%",
        "format=ggf&x=%zz",
        "format=ggf&x=1",
        "format=ggf&format=text",
        "x",
    ] {
        let (status, _) = server.raw("GET", &format!("/api/sessions/{id}/save?{query}"), b"");
        assert_eq!(status, 400, "{query}");
    }
    assert_eq!(server.refused("GET", "/api/games?x=1", None).0, 400);
    let (status, _) = server.raw(
        "GET",
        &format!("/api/sessions/{id}/save?format=t%65xt"),
        b"",
    );
    assert_eq!(status, 200);
}

#[test]
fn huge_bodies_are_refused_unread_and_the_server_lives_on() {
    let server = Server::start(&[]);
    for (method, path) in [("POST", "/api/sessions"), ("GET", "/")] {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 99999999999\r\n\r\n",
            server.address
        );
        let (status, head, body) = server.send(head.as_bytes(), b"x");
        assert_eq!(status, 413, "{body}");
        assert!(head.contains("Connection: close"), "{head}");
        assert!(body.contains("over 65536 bytes"), "{body}");
        assert!(server.answers(), "the server died after {method} {path}");
    }
    // A length no number holds, a bad one, two that differ, chunked bodies.
    for header in [
        "Content-Length: 999999999999999999999999999",
        "Content-Length: -1",
        "Content-Length: 1\r\nContent-Length: 2",
        "Transfer-Encoding: chunked",
    ] {
        let head = format!(
            "POST /api/sessions HTTP/1.1\r\nHost: {}\r\n{header}\r\n\r\n",
            server.address
        );
        let (status, _, body) = server.send(head.as_bytes(), b"");
        assert!(
            [400, 411, 413].contains(&status),
            "{header}: {status} {body}"
        );
        assert!(server.answers(), "the server died after {header}");
    }
    // curl's Expect: 100-continue gets the refusal instead of the go-ahead.
    let head = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {}\r\nExpect: 100-continue\r\n\
         Content-Length: 10000000\r\n\r\n",
        server.address
    );
    assert_eq!(server.send(head.as_bytes(), b"").0, 413);
    // An over-long head.
    let head = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX: {}\r\n\r\n",
        server.address,
        "y".repeat(20_000)
    );
    assert_eq!(server.send(head.as_bytes(), b"").0, 431);
    // Garbage.
    assert_eq!(server.send(b"\x01\x02 nonsense\r\n\r\n", b"").0, 400);
    assert!(server.answers());
    // Keep-alive: two requests on one connection.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let one = format!(
        "GET /api/games HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address
    );
    let two = format!(
        "GET /api/games HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.address
    );
    stream.write_all(one.as_bytes()).unwrap();
    stream.write_all(two.as_bytes()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    assert_eq!(reply.matches("HTTP/1.1 200 OK").count(), 2, "{reply}");
}

#[test]
fn connections_are_bounded_and_slow_ones_time_out() {
    // 64 connections beside the event streams.
    let server = Server::start(&["--max-sessions", "2"]);
    let limit = 64;
    // Requests whose head came but whose body never does: each holds its connection
    // (the go-ahead says the server took the head in).
    let stalled: Vec<TcpStream> = (0..limit)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            stream
                .write_all(
                    b"POST /api/sessions HTTP/1.1\r\nExpect: 100-continue\r\n\
                      Content-Length: 10\r\n\r\n",
                )
                .unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            let mut go_ahead = [0; 25];
            stream.read_exact(&mut go_ahead).unwrap();
            assert_eq!(&go_ahead, b"HTTP/1.1 100 Continue\r\n\r\n");
            stream
        })
        .collect();
    // All are in the middle of a request: others are told at once to come back later.
    for _ in 0..40 {
        let (status, head, _) = server.send(b"GET /api/games HTTP/1.1\r\n\r\n", b"");
        assert_eq!(status, 429, "{head}");
        assert!(head.contains("Retry-After:"), "{head}");
    }
    let threads = std::fs::read_dir(format!("/proc/{}/task", server.child.id()))
        .map(|tasks| tasks.count())
        .unwrap_or(0);
    assert!(threads <= limit + 8, "{threads} threads");
    // The stalled requests time out (408) and the server answers again.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !server.answers() {
        assert!(Instant::now() < deadline, "the server never answered again");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut first = &stalled[0];
    let mut reply = String::new();
    let _ = first.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
}

/// Reads one answer (status and body) from a connection that stays open, each read
/// waiting 5 s at most.
fn read_answer(stream: &mut TcpStream) -> (u16, String) {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut reply = Vec::new();
    let mut chunk = [0; 8192];
    loop {
        if let Some(end) = reply.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&reply[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .map_or(0, |n| n.trim().parse().unwrap());
            if reply.len() >= end + 4 + length {
                let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
                let body = String::from_utf8_lossy(&reply[end + 4..end + 4 + length]);
                return (status, body.into_owned());
            }
        }
        let count = stream.read(&mut chunk).unwrap_or(0);
        assert!(
            count > 0,
            "no answer: {:?}",
            String::from_utf8_lossy(&reply)
        );
        reply.extend_from_slice(&chunk[..count]);
    }
}

/// Whether the server closed the connection (an end of file or a reset within 5 s).
fn closed_by_server(mut stream: &TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    match stream.read(&mut [0; 1024]) {
        Ok(count) => count == 0,
        Err(error) => error.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

#[test]
fn idle_sockets_never_lock_out_a_page() {
    let server = Server::start(&[]);
    // More sockets than every limit (before: 128 of any kind): kept-alive ones whose
    // request was answered, half heads, and sockets that send nothing.
    let games = format!(
        "GET /api/games HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address
    );
    let idle: Vec<TcpStream> = (0..130)
        .map(|i| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            if i < 40 {
                stream.write_all(games.as_bytes()).unwrap();
                assert_eq!(read_answer(&mut stream).0, 200);
            } else if i < 85 {
                let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: x");
            }
            stream
        })
        .collect();
    // The page loads at once (well within the 10 s a head may take) ...
    let started = Instant::now();
    let mut page = TcpStream::connect(&server.address).unwrap();
    let get = format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.address);
    page.write_all(get.as_bytes()).unwrap();
    let (status, body) = read_answer(&mut page);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("EventSource"));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "the page took {took:?}");
    // ... and so do its board and its event stream.
    let id = server.create("othello", json!({}));
    let mut events = open_stream(&server, &id);
    events
        .get_ref()
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut line = String::new();
    while line != "event: state\n" {
        line.clear();
        assert!(events.read_line(&mut line).unwrap() > 0, "the stream ended");
    }
    // The oldest idle ones made room: a kept-alive one and a half head were closed
    // (long before their 10 s ran out).
    assert!(closed_by_server(&idle[0]));
    assert!(closed_by_server(&idle[40]));
    // The page's kept-alive connection still serves.
    page.write_all(get.as_bytes()).unwrap();
    assert_eq!(read_answer(&mut page).0, 200);
    // A half head that was left its place still gets no more than 10 s from its first
    // byte (slowloris).
    let mut slow = &idle[84];
    slow.set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    let mut reply = String::new();
    let _ = slow.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply:?}");
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let server = Server::start(&[]);
    let body = r#"{"game":"othello"}"#;
    let post = |headers: &str| {
        let head = format!(
            "POST /api/sessions HTTP/1.1\r\n{headers}\r\nContent-Type: text/plain\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        server.send(head.as_bytes(), body.as_bytes())
    };
    let port = server.address.rsplit_once(':').unwrap().1;
    for headers in [
        "Host: evil.example\r\nOrigin: http://evil.example".to_string(),
        format!("Host: evil.example:{port}"),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example"),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: null"),
        format!("Host: localhost:{port}\r\nOrigin: http://127.0.0.1:{port}"),
    ] {
        let (status, _, reply) = post(&headers);
        assert_eq!(status, 403, "{headers}: {reply}");
        assert!(reply.contains("error"), "{reply}");
    }
    for headers in [
        format!("Host: 127.0.0.1:{port}"),
        format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}"),
        format!("Host: [::1]:{port}"),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}"),
    ] {
        let (status, _, reply) = post(&headers);
        assert_eq!(status, 200, "{headers}: {reply}");
    }
    // The page itself is refused to a foreign name too (DNS rebinding).
    let head = "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n";
    assert_eq!(server.send(head.as_bytes(), b"").0, 403);
}

#[test]
fn moves_undo_and_bad_requests() {
    let server = Server::start(&[]);
    let id = server.create("othello", json!({}));
    let state = server.state(&id);
    assert_eq!(state["size"], 8);
    assert_eq!(state["side"], "black");
    assert_eq!(state["board"], "othello");
    assert_eq!(state["cells"][3], "---OX---");
    assert_eq!(names(&state["legal"]), ["d3", "c4", "f5", "e6"]);
    assert!(state["last"].is_null() && state["analysis"].is_null());

    let path = format!("/api/sessions/{id}/move");
    let reply = server.ok("POST", &path, Some(json!({"move": "f5"})));
    assert_eq!(reply["played"], "f5");
    assert_eq!(reply["state"]["side"], "white");
    assert_eq!(reply["state"]["last"]["name"], "f5");
    assert_eq!(reply["state"]["last"]["index"], 4 * 8 + 5);

    let (status, error) = server.refused("POST", &path, Some(json!({"move": "a1"})));
    assert_eq!(status, 400);
    assert!(error.contains("illegal"), "{error}");
    assert_eq!(
        server
            .refused("POST", &path, Some(json!({"move": "z99"})))
            .0,
        400
    );
    assert_eq!(
        server.refused("POST", &path, Some(json!({"mv": "d6"}))).0,
        400
    );
    assert_eq!(server.refused("POST", &path, Some(json!(["d6"]))).0, 400);
    let (status, malformed) = server.raw("POST", &path, b"{\"move\": ");
    assert_eq!(status, 400);
    assert!(malformed.contains("bad JSON"), "{malformed}");
    let (_, error) = server.refused("POST", &path, Some(json!(["d6"])));
    assert!(error.contains("object"), "{error}");
    let (status, huge) = server.raw("POST", &path, &vec![b' '; 100 * 1024]);
    assert_eq!(status, 413, "{huge}");
    assert_eq!(names(&server.state(&id)["history"]), ["f5"]);

    let undo = format!("/api/sessions/{id}/undo");
    assert_eq!(server.ok("POST", &undo, None)["undone"], json!(["f5"]));
    assert_eq!(server.refused("POST", &undo, None).0, 400);
    assert_eq!(
        server
            .refused("POST", &undo, Some(json!({"until": "red"})))
            .0,
        400
    );
    assert_eq!(
        server
            .refused("POST", &format!("/api/sessions/{id}/fly"), None)
            .0,
        404
    );

    for path in [
        "/api/sessions/nope",
        "/api/sessions/nope/move",
        "/api/sessions/nope/events",
        "/api/sessions/nope/save",
    ] {
        let method = if path.ends_with("move") {
            "POST"
        } else {
            "GET"
        };
        let (status, error) = server.refused(method, path, Some(json!({"move": "f5"})));
        assert_eq!(status, 404);
        assert!(error.contains("unknown session"), "{error}");
    }
    let (status, error) = server.refused("POST", "/api/sessions", Some(json!({"game": "chess"})));
    assert_eq!(status, 400);
    assert!(error.contains("unknown game"), "{error}");
    assert_eq!(
        server
            .refused(
                "POST",
                "/api/sessions",
                Some(json!({"game": "othello", "options": {"size": "7"}}))
            )
            .0,
        400
    );
    assert_eq!(
        server
            .refused(
                "POST",
                "/api/sessions",
                Some(json!({"game": "gomoku", "options": {"size": [15]}}))
            )
            .0,
        400
    );
}

#[test]
fn engine_moves_and_refuses_while_busy() {
    // A search from the start: the opening book would answer at once.
    let server = Server::start(&["--book", "off"]);
    let id = server.create("othello", json!({}));
    let go = format!("/api/sessions/{id}/go");
    let reply = server.ok("POST", &go, Some(json!({"time_ms": 1500})));
    assert_eq!(reply["state"]["busy"], "go");
    let (status, error) = server.refused("POST", &go, Some(json!({"time_ms": 100})));
    assert_eq!(status, 409);
    assert!(error.contains("busy"), "{error}");
    let mv = format!("/api/sessions/{id}/move");
    assert_eq!(
        server.refused("POST", &mv, Some(json!({"move": "f5"}))).0,
        409
    );
    let analyze = format!("/api/sessions/{id}/analyze");
    assert_eq!(
        server
            .refused("POST", &analyze, Some(json!({"on": true})))
            .0,
        409
    );
    let state = server.wait_for(&id, "engine move", |s| {
        s["history"].as_array().unwrap().len() == 1
    });
    assert!(state["busy"].is_null());
    assert_eq!(state["side"], "white");
    assert_eq!(
        server.refused("POST", &go, Some(json!({"time_ms": 0}))).0,
        400
    );
    assert_eq!(
        server
            .refused("POST", &go, Some(json!({"time_ms": 999_999})))
            .0,
        400
    );
    assert_eq!(server.refused("POST", &go, Some(json!({}))).0, 400);
}

#[test]
fn engine_against_itself_finishes_a_game() {
    let server = Server::start(&[]);
    let id = server.create("tictactoe", json!({}));
    let go = format!("/api/sessions/{id}/go");
    for ply in 0..9 {
        let state = server.state(&id);
        if !state["result"].is_null() {
            break;
        }
        server.ok("POST", &go, Some(json!({"time_ms": 200})));
        server.wait_for(&id, "engine move", |s| {
            s["busy"].is_null() && s["history"].as_array().unwrap().len() == ply + 1
        });
    }
    let state = server.state(&id);
    // Perfect play draws tic-tac-toe.
    assert_eq!(state["result"], "draw", "{state}");
    assert!(state["legal"].as_array().unwrap().is_empty());
    let (status, error) = server.refused("POST", &go, Some(json!({"time_ms": 100})));
    assert_eq!(status, 400);
    assert!(error.contains("over"), "{error}");
}

#[test]
fn live_analysis_streams_and_yields_to_moves() {
    let server = Server::start(&[]);
    let id = server.create("othello", json!({}));
    // The stream opens with the state.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address
    )
    .unwrap();
    let mut events = BufReader::new(stream);
    let mut read_until = |name: &str| -> Value {
        let wanted = format!("event: {name}");
        let mut line = String::new();
        loop {
            line.clear();
            assert!(events.read_line(&mut line).unwrap() > 0, "stream ended");
            if line.trim_end() == wanted {
                line.clear();
                events.read_line(&mut line).unwrap();
                let data = line.trim_end().strip_prefix("data: ").unwrap();
                return serde_json::from_str(data).unwrap();
            }
        }
    };
    assert_eq!(read_until("state")["side"], "black");

    let analyze = format!("/api/sessions/{id}/analyze");
    let reply = server.ok("POST", &analyze, Some(json!({"on": true, "multipv": 2})));
    assert_eq!(reply["state"]["analyzing"], true);
    let report = read_until("analysis");
    let lines = report["lines"].as_array().unwrap();
    assert!(!lines.is_empty() && lines.len() <= 2, "{report}");
    assert!(["d3", "c4", "f5", "e6"].contains(&lines[0]["move"].as_str().unwrap()));
    assert!(lines[0]["score"]["kind"].is_string());
    let state = server.wait_for(&id, "analysis", |s| !s["analysis"].is_null());
    assert_eq!(state["busy"], "analyze");
    assert_eq!(state["multipv"], 2);

    // A move stops the analysis, and it starts again on the new position.
    let mv = format!("/api/sessions/{id}/move");
    let reply = server.ok("POST", &mv, Some(json!({"move": "d3"})));
    assert_eq!(reply["state"]["busy"], "analyze");
    assert!(reply["state"]["analysis"].is_null());
    let state = read_until("state");
    assert!(state["history"].as_array().is_some());
    let report = read_until("analysis");
    assert!(
        ["c3", "e3", "c5"].contains(&report["lines"][0]["move"].as_str().unwrap()),
        "{report}"
    );

    // So does an engine move.
    let go = format!("/api/sessions/{id}/go");
    server.ok("POST", &go, Some(json!({"time_ms": 200})));
    server.wait_for(&id, "engine move", |s| {
        s["history"].as_array().unwrap().len() == 2
    });

    let reply = server.ok("POST", &analyze, Some(json!({"on": false})));
    assert_eq!(reply["state"]["analyzing"], false);
    let state = server.wait_for(&id, "idle", |s| s["busy"].is_null());
    assert!(state["analysis"].is_null());
    assert_eq!(
        server
            .refused("POST", &analyze, Some(json!({"on": true, "multipv": 0})))
            .0,
        400
    );
    assert_eq!(
        server
            .refused("POST", &analyze, Some(json!({"multipv": 2})))
            .0,
        400
    );
}

#[test]
fn load_and_save_records() {
    let server = Server::start(&[]);
    let id = server.create("othello", json!({}));
    let load = format!("/api/sessions/{id}/load");
    let ggf = "(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[d6//1.2]B[C3];)";
    let state = server.ok("POST", &load, Some(json!({"ggf": ggf})))["state"].clone();
    assert_eq!(names(&state["history"]), ["f5", "d6", "c3"]);
    assert_eq!(state["side"], "white");
    let (status, saved) = server.raw("GET", &format!("/api/sessions/{id}/save?format=ggf"), b"");
    assert_eq!(status, 200);
    assert!(saved.contains("B[F5]W[D6]B[C3]"), "{saved}");
    // What was saved loads back.
    server.ok("POST", &format!("/api/sessions/{id}/undo"), None);
    let state = server.ok("POST", &load, Some(json!({"ggf": saved})))["state"].clone();
    assert_eq!(names(&state["history"]), ["f5", "d6", "c3"]);

    let (status, text) = server.raw("GET", &format!("/api/sessions/{id}/save?format=text"), b"");
    assert_eq!(status, 200);
    assert!(text.contains("setup start moves f5 d6 c3"), "{text}");

    // A record that leaves a forced pass out (as WTHOR's do): the pass is played.
    let passed = "(;GM[Othello]PC[x]BO[8 *****O****O**O*O****-***O***O-*******O***********O****O*OOO-**-O *]B[f4]B[e3];)";
    let state = server.ok("POST", &load, Some(json!({"ggf": passed})))["state"].clone();
    assert_eq!(names(&state["history"]), ["f4", "pass", "e3"]);
    let state = server.ok("POST", &load, Some(json!({"ggf": saved})))["state"].clone();
    assert_eq!(names(&state["history"]), ["f5", "d6", "c3"]);

    // A bad record is refused and the game stays as it was.
    let (status, error) = server.refused("POST", &load, Some(json!({"ggf": "(;GM[Chess];)"})));
    assert_eq!(status, 400);
    assert!(error.contains("Othello"), "{error}");
    let (_, error) = server.refused("POST", &load, Some(json!({"record": "f5 d6 a1"})));
    assert!(error.contains("move 3"), "{error}");
    assert_eq!(names(&server.state(&id)["history"]), ["f5", "d6", "c3"]);
    assert_eq!(server.refused("POST", &load, Some(json!({}))).0, 400);
    assert_eq!(
        server
            .refused("POST", &load, Some(json!({"ggf": ggf, "record": "f5"})))
            .0,
        400
    );
    let (status, _) = server.raw("GET", &format!("/api/sessions/{id}/save?format=pdf"), b"");
    assert_eq!(status, 400);

    // Text records carry their game: a Gomoku game saved loads into an Othello board.
    let gomoku = server.create("gomoku", json!({"size": 9}));
    let mv = format!("/api/sessions/{gomoku}/move");
    let first = server.state(&gomoku)["legal"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    server.ok("POST", &mv, Some(json!({"move": first})));
    let (_, record) = server.raw("GET", &format!("/api/sessions/{gomoku}/save"), b"");
    assert!(record.contains("variant \"gomoku size=9"), "{record}");
    let (status, _) = server.raw(
        "GET",
        &format!("/api/sessions/{gomoku}/save?format=ggf"),
        b"",
    );
    assert_eq!(status, 400);
    let state = server.ok("POST", &load, Some(json!({"record": record})))["state"].clone();
    assert_eq!(state["board"], "kinrow");
    assert_eq!(state["size"], 9);
    assert_eq!(names(&state["history"]), [first]);

    // A new game in place.
    let state = server.ok(
        "POST",
        &format!("/api/sessions/{id}/new"),
        Some(json!({"game": "othello", "options": {"size": 6}})),
    )["state"]
        .clone();
    assert_eq!(state["size"], 6);
    assert!(state["history"].as_array().unwrap().is_empty());
}

#[test]
fn sessions_are_bounded_closed_and_deleted() {
    let server = Server::start(&["--max-sessions", "2", "--idle", "10"]);
    let first = server.create("othello", json!({}));
    let second = server.create("pente", json!({}));
    assert_ne!(first, second);
    // Full: the longest unused session no page watches makes room.
    std::thread::sleep(Duration::from_millis(50));
    server.state(&second);
    let third = server.create("gomoku", json!({}));
    assert_eq!(
        server
            .refused("GET", &format!("/api/sessions/{first}"), None)
            .0,
        404
    );
    server.ok("DELETE", &format!("/api/sessions/{third}"), None);
    let first = server.create("othello", json!({}));
    server.ok("DELETE", &format!("/api/sessions/{second}"), None);
    assert_eq!(
        server
            .refused("DELETE", &format!("/api/sessions/{second}"), None)
            .0,
        404
    );
    assert_eq!(
        server
            .refused("GET", &format!("/api/sessions/{second}"), None)
            .0,
        404
    );
    server.create("gomoku", json!({}));
    // Unused for the idle time (10 s, the least): closed within the reaper's next rounds
    // (asking would count as use, so the test asks once).
    std::thread::sleep(Duration::from_secs(14));
    assert_eq!(
        server
            .refused("GET", &format!("/api/sessions/{first}"), None)
            .0,
        404
    );
}

#[test]
fn event_streams_are_bounded() {
    let server = Server::start(&[]);
    let id = server.create("othello", json!({}));
    let open = || {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        write!(
            stream,
            "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        reader
    };
    let streams: Vec<_> = (0..4).map(|_| open()).collect();
    let (status, error) = server.refused("GET", &format!("/api/sessions/{id}/events"), None);
    assert_eq!(status, 429);
    assert!(error.contains("streams"), "{error}");
    // A page that leaves makes room for another.
    drop(streams);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _) = server.raw("GET", &format!("/api/sessions/{id}"), b"");
        assert_eq!(status, 200);
        let mut stream = TcpStream::connect(&server.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        write!(
            stream,
            "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address
        )
        .unwrap();
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line).unwrap();
        if line.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "closed streams still counted: {line}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Opens an event stream and reads its first line (the status).
fn open_stream(server: &Server, id: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(&server.address).unwrap();
    write!(
        stream,
        "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    reader
}

#[test]
fn full_servers_evict_unwatched_sessions_or_answer_429() {
    let server = Server::start(&["--max-sessions", "2"]);
    let a = server.create("othello", json!({}));
    let b = server.create("othello", json!({}));
    let watch_a = open_stream(&server, &a);
    let watch_b = open_stream(&server, &b);
    // Every session has an open page: refused, with a time to come back.
    let body = json!({"game": "gomoku"}).to_string();
    let head = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        server.address,
        body.len()
    );
    let (status, head, reply) = server.send(head.as_bytes(), body.as_bytes());
    assert_eq!(status, 429, "{reply}");
    assert!(head.contains("Retry-After: "), "{head}");
    assert!(reply.contains("all 2 sessions are in use"), "{reply}");
    // B's page goes: its session makes room (its stream is seen gone within a second).
    drop(watch_b);
    let deadline = Instant::now() + Duration::from_secs(10);
    let c = loop {
        let (status, value) = server.call("POST", "/api/sessions", Some(json!({"game": "pente"})));
        if status == 200 {
            break value["id"].as_str().unwrap().to_string();
        }
        assert_eq!(status, 429, "{value}");
        assert!(
            Instant::now() < deadline,
            "the closed page's session stayed"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(
        server.refused("GET", &format!("/api/sessions/{b}"), None).0,
        404
    );
    // A page that unloads lets its session go; a reload takes it back.
    let close = format!("/api/sessions/{c}/close");
    assert_eq!(server.ok("POST", &close, None)["released"], c.as_str());
    server.state(&c);
    // Let go again, it is the first to make room, before any session in use.
    server.ok("POST", &close, None);
    let d = server.create("othello", json!({}));
    assert_eq!(
        server.refused("GET", &format!("/api/sessions/{c}"), None).0,
        404
    );
    assert_eq!(server.state(&a)["size"], 8);
    assert_eq!(server.state(&d)["size"], 8);
    drop(watch_a);
}

#[test]
fn released_sessions_close_after_a_grace() {
    let server = Server::start(&["--idle", "600"]);
    let id = server.create("othello", json!({}));
    server.ok("POST", &format!("/api/sessions/{id}/close"), None);
    // Grace: 10 s, checked each second.
    std::thread::sleep(Duration::from_secs(12));
    assert_eq!(
        server
            .refused("GET", &format!("/api/sessions/{id}"), None)
            .0,
        404
    );
}

#[test]
fn ggf_round_trips_in_every_othello_variant() {
    let server = Server::start(&[]);
    for (options, ty) in [
        (json!({}), "TY[8]"),
        (json!({"size": 6}), "TY[6]"),
        (json!({"size": 4}), "TY[4]"),
        (json!({"rule": "misere"}), "TY[8a]"),
        (json!({"size": 6, "rule": "misere"}), "TY[6a]"),
        (json!({"size": 4, "rule": "misere"}), "TY[4a]"),
    ] {
        let id = server.create("othello", options.clone());
        let mv = format!("/api/sessions/{id}/move");
        for _ in 0..3 {
            let state = server.state(&id);
            if !state["result"].is_null() {
                break;
            }
            let first = state["legal"][0]["name"].as_str().unwrap().to_string();
            server.ok("POST", &mv, Some(json!({"move": first})));
        }
        let saved = server.state(&id);
        let (status, ggf) = server.raw("GET", &format!("/api/sessions/{id}/save?format=ggf"), b"");
        assert_eq!(status, 200, "{ggf}");
        assert!(ggf.contains(ty), "{options}: {ggf}");
        // Loaded into a session of another variant, it brings its own.
        let other = server.create("gomoku", json!({}));
        let loaded = server.ok(
            "POST",
            &format!("/api/sessions/{other}/load"),
            Some(json!({"ggf": ggf})),
        )["state"]
            .clone();
        assert_eq!(loaded["game"], saved["game"], "{ggf}");
        assert_eq!(loaded["history"], saved["history"], "{ggf}");
        assert_eq!(loaded["cells"], saved["cells"], "{ggf}");
        server.ok("DELETE", &format!("/api/sessions/{other}"), None);
        server.ok("DELETE", &format!("/api/sessions/{id}"), None);
    }
    let id = server.create("othello", json!({}));
    let (status, error) = server.refused(
        "POST",
        &format!("/api/sessions/{id}/load"),
        Some(json!({"ggf": "(;GM[Othello]TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)"})),
    );
    assert_eq!(status, 400);
    assert!(error.contains("TY[10]"), "{error}");
}

#[test]
fn clocks_run_out_and_the_engine_moves_on_its_clock() {
    let server = Server::start(&[]);
    let (status, _) = server.call(
        "POST",
        "/api/sessions",
        Some(json!({"game": "othello", "clock": {"base_ms": 0}})),
    );
    assert_eq!(status, 400);
    // A clock of 1.5 s: black moves, white's clock runs out.
    let reply = server.ok(
        "POST",
        "/api/sessions",
        Some(json!({"game": "othello", "clock": {"base_ms": 1500, "inc_ms": 0}})),
    );
    let id = reply["id"].as_str().unwrap().to_string();
    let clock = &reply["state"]["clock"];
    assert_eq!(clock["base_ms"], 1500);
    assert_eq!(clock["running"], "black");
    assert!(clock["black_ms"].as_u64().unwrap() <= 1500);
    let mv = format!("/api/sessions/{id}/move");
    let state = server.ok("POST", &mv, Some(json!({"move": "f5"})))["state"].clone();
    assert_eq!(state["clock"]["running"], "white");
    let black_left = state["clock"]["black_ms"].as_u64().unwrap();
    let state = server.wait_for(&id, "loss on time", |s| !s["result"].is_null());
    assert_eq!(state["result"], "black", "{state}");
    assert!(
        state["status"].as_str().unwrap().contains("on time"),
        "{state}"
    );
    assert!(state["legal"].as_array().unwrap().is_empty());
    assert!(state["clock"]["running"].is_null());
    assert_eq!(state["clock"]["white_ms"], 0);
    assert_eq!(state["clock"]["black_ms"].as_u64().unwrap(), black_left);
    let (status, error) = server.refused("POST", &mv, Some(json!({"move": "d6"})));
    assert_eq!(status, 400);
    assert!(error.contains("on time"), "{error}");
    // A load starts the clocks again.
    let state = server.ok(
        "POST",
        &format!("/api/sessions/{id}/load"),
        Some(json!({"record": "f5 d6"})),
    )["state"]
        .clone();
    assert!(state["result"].is_null());
    assert_eq!(state["clock"]["running"], "black");
    assert!(state["clock"]["white_ms"].as_u64().unwrap() > 1000);

    // The engine thinks within its clock (no time_ms needed) and earns the increment.
    let reply = server.ok(
        "POST",
        "/api/sessions",
        Some(json!({"game": "othello", "clock": {"base_ms": 5000, "inc_ms": 1000}})),
    );
    let id = reply["id"].as_str().unwrap().to_string();
    let go = format!("/api/sessions/{id}/go");
    server.ok("POST", &go, Some(json!({})));
    let state = server.wait_for(&id, "engine move", |s| {
        s["history"].as_array().unwrap().len() == 1
    });
    let black = state["clock"]["black_ms"].as_u64().unwrap();
    assert!(black > 1000 && black <= 6000, "{state}");
    assert_eq!(state["clock"]["running"], "white");
    // Without a clock, a go needs its time.
    let id = server.create("othello", json!({}));
    let go = format!("/api/sessions/{id}/go");
    assert_eq!(server.refused("POST", &go, Some(json!({}))).0, 400);
    let state = server.state(&id);
    assert!(state["clock"]["base_ms"].is_null());
    assert_eq!(state["clock"]["running"], "black");
}

#[test]
fn stop_and_undo_cut_an_engine_move_short() {
    let server = Server::start(&["--book", "off"]);
    let id = server.create("othello", json!({}));
    let go = format!("/api/sessions/{id}/go");
    let stop = format!("/api/sessions/{id}/stop");
    let undo = format!("/api/sessions/{id}/undo");
    let mv = format!("/api/sessions/{id}/move");
    assert_eq!(server.ok("POST", &stop, None)["stopped"], false);
    // Stop: the engine plays its best move now.
    let began = Instant::now();
    server.ok("POST", &go, Some(json!({"time_ms": 30000})));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.ok("POST", &stop, None)["stopped"], true);
    server.wait_for(&id, "the stopped move", |s| {
        s["history"].as_array().unwrap().len() == 1 && s["busy"].is_null()
    });
    assert!(began.elapsed() < Duration::from_secs(10));
    // Undo back to black's turn: the engine's move and black's.
    server.ok("POST", &undo, None);
    server.ok("POST", &mv, Some(json!({"move": "f5"})));
    server.ok("POST", &mv, Some(json!({"move": "d6"})));
    let reply = server.ok("POST", &undo, Some(json!({"until": "black"})));
    assert_eq!(reply["undone"], json!(["d6", "f5"]));
    assert_eq!(reply["state"]["side"], "black");
    // Undo while the engine thinks (black moved, white's engine on): its move stops
    // and is taken back with black's.
    server.ok("POST", &mv, Some(json!({"move": "f5"})));
    let began = Instant::now();
    server.ok("POST", &go, Some(json!({"time_ms": 30000})));
    let reply = server.ok("POST", &undo, Some(json!({"until": "black"})));
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(reply["undone"].as_array().unwrap().len(), 2, "{reply}");
    assert!(reply["state"]["history"].as_array().unwrap().is_empty());
    assert!(reply["state"]["busy"].is_null());
}
