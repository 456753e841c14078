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
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
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
        let body = reply
            .split_once("\r\n\r\n")
            .map_or("", |(_, body)| body)
            .to_string();
        (status, body)
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
    assert_eq!(server.refused("GET", "/api/nothing", None).0, 405);
    assert_eq!(server.refused("PUT", "/api/sessions", None).0, 405);
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
    assert_eq!(server.ok("POST", &undo, None)["undone"], "f5");
    assert_eq!(server.refused("POST", &undo, None).0, 400);
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
    let server = Server::start(&[]);
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
        "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: test\r\n\r\n"
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
    let server = Server::start(&["--max-sessions", "2", "--idle", "1"]);
    let first = server.create("othello", json!({}));
    let second = server.create("pente", json!({}));
    assert_ne!(first, second);
    let (status, error) = server.refused("POST", "/api/sessions", Some(json!({"game": "gomoku"})));
    assert_eq!(status, 503);
    assert!(error.contains("sessions"), "{error}");
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
    // Unused for a second: closed within the reaper's next rounds (asking would count
    // as use, so the test asks once).
    std::thread::sleep(Duration::from_secs(4));
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
            "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: t\r\n\r\n"
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
            "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: t\r\n\r\n"
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
