//! `arbor serve`: the HTTP front end. Requests are parsed and checked here, answered by
//! calling a session's engine, and formatted as JSON; the page is compiled in.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rand::RngCore;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use super::session::{MAX_STREAMS, STREAM_BACKLOG, Shared};
use crate::cli::review::parse_record;
use crate::game::variant::Variant;
use crate::protocol::ggf;

/// The largest request body read.
pub const MAX_BODY: usize = 64 * 1024;
/// A session nobody asked about for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// Requests handled at once beside the event streams; more are refused with 503.
const MAX_IN_FLIGHT: usize = 64;
/// Longest engine move a page may ask for.
const MAX_GO: Duration = Duration::from_secs(60);
/// Memory for each session's tables, MiB: sessions stay cheap.
pub const SESSION_HASH_MB: usize = 16;
/// A quiet event stream gets a comment this often (proxies and dead pages show).
const KEEPALIVE: Duration = Duration::from_secs(15);

const PAGE: &str = include_str!("page.html");

/// How `arbor serve` runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: String,
    pub port: u16,
    pub max_sessions: usize,
    pub idle: Duration,
    pub hash_mb: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: "127.0.0.1".to_string(),
            port: 8080,
            max_sessions: 16,
            idle: IDLE_TIMEOUT,
            hash_mb: SESSION_HASH_MB,
        }
    }
}

struct App {
    config: Config,
    sessions: Mutex<HashMap<String, Arc<Shared>>>,
    in_flight: AtomicUsize,
}

/// A request's failure: its status and message (sent as `{"error": ...}`).
struct Failure(u16, String);

type Answer = Result<Value, Failure>;

fn bad(message: impl Into<String>) -> Failure {
    Failure(400, message.into())
}

/// Binds and serves until the process ends; `ready` hears the bound address (port 0
/// picks a free one).
pub fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let address = format!("{}:{}", config.bind, config.port);
    let server = Server::http(&address).map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    ready(bound);
    let app = Arc::new(App {
        config,
        sessions: Mutex::new(HashMap::new()),
        in_flight: AtomicUsize::new(0),
    });
    let reaper = Arc::clone(&app);
    thread::Builder::new()
        .name("web-reaper".to_string())
        .spawn(move || {
            loop {
                thread::sleep(Duration::from_secs(5).min(reaper.config.idle));
                reaper.close_idle();
            }
        })
        .map_err(|e| e.to_string())?;
    // Every stream holds a thread: they get room of their own.
    let limit = MAX_IN_FLIGHT + app.config.max_sessions.saturating_mul(MAX_STREAMS);
    for request in server.incoming_requests() {
        if app.in_flight.fetch_add(1, Ordering::SeqCst) >= limit {
            app.in_flight.fetch_sub(1, Ordering::SeqCst);
            let _ = request.respond(error_response(&Failure(503, "server busy".to_string())));
            continue;
        }
        let app = Arc::clone(&app);
        let spawned = thread::Builder::new()
            .name("web-request".to_string())
            .spawn(move || {
                app.handle(request);
                app.in_flight.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(error) = spawned {
            log::error!("cannot start a request thread: {error}");
        }
    }
    Ok(())
}

impl App {
    fn handle(&self, mut request: Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let path = path.to_string();
        let query = query.to_string();
        let method = request.method().clone();
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (&method, segments.as_slice()) {
            (Method::Get, [""] | ["index.html"]) => {
                let _ = request.respond(
                    Response::from_string(PAGE)
                        .with_header(header("Content-Type", "text/html; charset=utf-8")),
                );
                return;
            }
            (Method::Get, ["api", "sessions", id, "events"]) => {
                return self.stream(request, id);
            }
            (Method::Get, ["api", "sessions", id, "save"]) => {
                let answer = self.save(id, &query);
                let _ = match answer {
                    Ok(text) => request.respond(
                        Response::from_string(text)
                            .with_header(header("Content-Type", "text/plain; charset=utf-8")),
                    ),
                    Err(failure) => request.respond(error_response(&failure)),
                };
                return;
            }
            _ => {}
        }
        let answer = read_body(&mut request).and_then(|body| self.route(&method, &segments, &body));
        let response = match answer {
            Ok(value) => json_response(200, &value),
            Err(failure) => error_response(&failure),
        };
        let _ = request.respond(response);
    }

    fn route(&self, method: &Method, segments: &[&str], body: &[u8]) -> Answer {
        match (method, segments) {
            (Method::Post, ["api", "sessions"]) => self.create(body),
            (Method::Get, ["api", "games"]) => Ok(games()),
            (Method::Get, ["api", "sessions", id]) => {
                let shared = self.session(id)?;
                let mut board = shared.lock();
                board.last_used = Instant::now();
                Ok(json!(board.state()))
            }
            (Method::Delete, ["api", "sessions", id]) => {
                let removed = self.lock_sessions().remove(*id);
                let shared = removed.ok_or_else(|| unknown(id))?;
                shared.close();
                Ok(json!({"closed": id}))
            }
            (Method::Post, ["api", "sessions", id, action]) => {
                let shared = self.session(id)?;
                self.act(&shared, action, body)
            }
            (_, ["api", ..]) | (_, [""]) => Err(Failure(405, "method not allowed".to_string())),
            _ => Err(Failure(404, "not found".to_string())),
        }
    }

    fn act(&self, shared: &Arc<Shared>, action: &str, body: &[u8]) -> Answer {
        let busy = |error: String| Failure(409, error);
        match action {
            "move" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Play {
                    r#move: String,
                }
                let play: Play = parse(body)?;
                let mut board = shared.idle().map_err(busy)?;
                let name = board.play(&play.r#move).map_err(bad)?;
                Ok(json!({"played": name, "state": board.state()}))
            }
            "undo" => {
                let mut board = shared.idle().map_err(busy)?;
                let name = board.undo().map_err(bad)?;
                Ok(json!({"undone": name, "state": board.state()}))
            }
            "go" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Go {
                    time_ms: u64,
                }
                let go: Go = parse(body)?;
                let time = Duration::from_millis(go.time_ms);
                if time.is_zero() || time > MAX_GO {
                    return Err(bad(format!("time_ms must be 1..={}", MAX_GO.as_millis())));
                }
                let mut board = shared.idle().map_err(busy)?;
                board.go(time).map_err(bad)?;
                Ok(json!({"state": board.state()}))
            }
            "analyze" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Analyze {
                    on: bool,
                    #[serde(default = "three")]
                    multipv: usize,
                }
                fn three() -> usize {
                    3
                }
                let analyze: Analyze = parse(body)?;
                if !(1..=64).contains(&analyze.multipv) {
                    return Err(bad("multipv must be 1..=64"));
                }
                let mut board = shared.idle().map_err(busy)?;
                board.set_analysis(analyze.on, analyze.multipv);
                Ok(json!({"state": board.state()}))
            }
            "load" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Load {
                    ggf: Option<String>,
                    record: Option<String>,
                }
                let load: Load = parse(body)?;
                let mut board = shared.idle().map_err(busy)?;
                let (variant, setup, moves) = match (load.ggf, load.record) {
                    (Some(text), None) => {
                        let game = ggf::parse(&text).map_err(bad)?;
                        let moves = game.moves.into_iter().map(|(_, name)| name).collect();
                        (Variant::default(), Some((game.cells, game.side)), moves)
                    }
                    (None, Some(text)) => {
                        let variant = record_variant(&text)?.unwrap_or(board.engine.variant());
                        let record = parse_record(&text, variant).map_err(bad)?;
                        (record.variant, record.setup, record.moves)
                    }
                    _ => return Err(bad("give one of ggf or record")),
                };
                board.load(variant, setup, &moves).map_err(bad)?;
                Ok(json!({"state": board.state()}))
            }
            "new" => {
                let game: NewGame = parse(body)?;
                let variant = game.variant()?;
                let mut board = shared.idle().map_err(busy)?;
                board.new_game(variant).map_err(bad)?;
                Ok(json!({"state": board.state()}))
            }
            _ => Err(Failure(404, format!("unknown action {action}"))),
        }
    }

    fn create(&self, body: &[u8]) -> Answer {
        let game: NewGame = parse(body)?;
        let variant = game.variant()?;
        let mut sessions = self.lock_sessions();
        if sessions.len() >= self.config.max_sessions {
            return Err(Failure(
                503,
                format!(
                    "all {} sessions are in use; close one or try later",
                    self.config.max_sessions
                ),
            ));
        }
        let shared = Shared::new(variant, self.config.hash_mb).map_err(|e| Failure(503, e))?;
        let id = format!("{:016x}", rand::rng().next_u64());
        let state = json!(shared.lock().state());
        sessions.insert(id.clone(), shared);
        Ok(json!({"id": id, "state": state}))
    }

    fn save(&self, id: &str, query: &str) -> Result<String, Failure> {
        let shared = self.session(id)?;
        let board = shared.lock();
        let format = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("format="))
            .unwrap_or("text");
        match format {
            "text" => Ok(board.text_record()),
            "ggf" => board.ggf().map_err(bad),
            other => Err(bad(format!("format must be ggf or text, not {other:?}"))),
        }
    }

    /// Server-sent events: `state` after each change, `analysis` per report. The
    /// stream holds its own thread and writes straight to the socket, unbuffered.
    fn stream(&self, request: Request, id: &str) {
        let shared = match self.session(id) {
            Ok(shared) => shared,
            Err(failure) => {
                let _ = request.respond(error_response(&failure));
                return;
            }
        };
        let (sender, receiver) = mpsc::sync_channel(STREAM_BACKLOG);
        let subscribed = shared.lock().subscribe(sender);
        drop(shared);
        if let Err(error) = subscribed {
            let _ = request.respond(error_response(&Failure(429, error)));
            return;
        }
        let mut writer = request.into_writer();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                    Cache-Control: no-cache\r\nConnection: close\r\n\r\n";
        if writer
            .write_all(head.as_bytes())
            .and_then(|()| writer.flush())
            .is_err()
        {
            return;
        }
        loop {
            let text = match receiver.recv_timeout(KEEPALIVE) {
                Ok(text) => text,
                Err(RecvTimeoutError::Timeout) => ": keepalive\n\n".to_string(),
                Err(RecvTimeoutError::Disconnected) => return,
            };
            if writer
                .write_all(text.as_bytes())
                .and_then(|()| writer.flush())
                .is_err()
            {
                return;
            }
        }
    }

    fn session(&self, id: &str) -> Result<Arc<Shared>, Failure> {
        self.lock_sessions()
            .get(id)
            .cloned()
            .ok_or_else(|| unknown(id))
    }

    fn lock_sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Shared>>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Closes sessions unused for the idle time and not watched by an open page.
    fn close_idle(&self) {
        let idle = self.config.idle;
        let mut sessions = self.lock_sessions();
        sessions.retain(|id, shared| {
            let board = shared.lock();
            let keep = board.last_used.elapsed() < idle || board.has_streams();
            drop(board);
            if !keep {
                log::info!("closing idle session {id}");
                shared.close();
            }
            keep
        });
    }
}

/// `{"game": "gomoku", "options": {"size": "15"}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: String,
    #[serde(default)]
    options: HashMap<String, Value>,
}

impl NewGame {
    fn variant(&self) -> Result<Variant, Failure> {
        let mut options = Vec::new();
        for (key, value) in &self.options {
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                _ => return Err(bad(format!("option {key} must be a string or a number"))),
            };
            options.push((key.clone(), text));
        }
        Variant::parse(
            &self.game,
            options.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )
        .map_err(|e| bad(e.to_string()))
    }
}

/// The variant a saved text record names (`variant "gomoku size=15 ..."`), if any.
fn record_variant(text: &str) -> Result<Option<Variant>, Failure> {
    let Some((_, rest)) = text.split_once("variant \"") else {
        return Ok(None);
    };
    let name = rest.split('"').next().unwrap_or("");
    let mut words = name.split_whitespace();
    let game = words.next().ok_or_else(|| bad("empty variant"))?;
    let options: Vec<(&str, &str)> = words.filter_map(|word| word.split_once('=')).collect();
    Variant::parse(game, options)
        .map(Some)
        .map_err(|e| bad(e.to_string()))
}

/// The games and their options, for the new-game dialog.
fn games() -> Value {
    json!([
        {"game": "othello", "options": {"size": ["8", "6", "4"], "rule": ["normal", "misere"]}},
        {"game": "gomoku", "options": {"size": ["15", "19", "13", "9"], "rule": ["freestyle", "exact"], "opening": ["center", "free"]}},
        {"game": "pente", "options": {"size": ["19", "13", "9"], "opening": ["center", "tournament", "free"]}},
        {"game": "tictactoe", "options": {"size": ["3", "4", "5"], "k": ["3", "4", "5"]}},
    ])
}

fn unknown(id: &str) -> Failure {
    Failure(404, format!("unknown session {id:?}"))
}

/// A JSON object's fields (serde would also take an array for a struct).
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Failure> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    let value: Value = serde_json::from_slice(body).map_err(|e| bad(format!("bad JSON: {e}")))?;
    if !value.is_object() {
        return Err(bad("bad JSON: expected an object"));
    }
    serde_json::from_value(value).map_err(|e| bad(format!("bad request: {e}")))
}

/// The body, at most [`MAX_BODY`] bytes (a longer one is refused, not read).
fn read_body(request: &mut Request) -> Result<Vec<u8>, Failure> {
    let too_large = || Failure(413, format!("the body is over {MAX_BODY} bytes"));
    if request
        .body_length()
        .is_some_and(|length| length > MAX_BODY)
    {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| bad(format!("cannot read the body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large());
    }
    Ok(body)
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("headers are ASCII")
}

fn json_response(status: u16, value: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(value.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
}

fn error_response(failure: &Failure) -> Response<std::io::Cursor<Vec<u8>>> {
    json_response(failure.0, &json!({"error": failure.1}))
}
