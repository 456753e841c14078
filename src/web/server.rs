//! `arbor serve`: the HTTP front end. Requests are read by `http.rs`, checked and routed
//! here, answered by calling a session's engine, and formatted as JSON; the page is
//! compiled in.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rand::RngCore;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::http::{self, Connection, Incoming, Request, Response};
use super::session::{MAX_STREAMS, STREAM_BACKLOG, Shared, TimeControl};
use crate::cli::review::parse_record;
use crate::game::Side;
use crate::game::variant::Variant;
use crate::protocol::ggf;

/// The largest request body read.
pub const MAX_BODY: usize = 64 * 1024;
/// A session nobody asked about for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// A session its page let go (`close`) is kept this long for a reload to take it back.
const RELEASE_GRACE: Duration = Duration::from_secs(10);
/// Connections open at once beside the event streams (each has a thread). When all are
/// taken, the one waiting longest for a request's head (kept alive, or its head not all
/// in) is closed for a newcomer, as idle sockets are cheap to drop and must not lock a
/// page out; only if every one is in the middle of a request is a newcomer refused (429).
const MAX_CONNECTIONS: usize = 64;
/// Seconds a client refused for capacity is told to wait.
const RETRY_AFTER: &str = "2";
/// Longest engine move a page may ask for.
const MAX_GO: Duration = Duration::from_secs(60);
/// Longest and shortest main time of a clock, and the largest increment.
const MAX_CLOCK: Duration = Duration::from_secs(3 * 3600);
const MIN_CLOCK: Duration = Duration::from_secs(1);
const MAX_INCREMENT: Duration = Duration::from_secs(60);
/// Memory for each session's tables, MiB: sessions stay cheap.
pub const SESSION_HASH_MB: usize = 16;
/// A quiet event stream gets a comment this often (proxies and dead pages show).
const KEEPALIVE: Duration = Duration::from_secs(15);
/// How often an event stream looks whether its page has gone.
const STREAM_CHECK: Duration = Duration::from_secs(1);
/// The actions `POST /api/sessions/{id}/{action}` knows.
const ACTIONS: [&str; 8] = [
    "move", "undo", "go", "stop", "analyze", "load", "new", "close",
];

const PAGE: &str = include_str!("page.html");

/// How `arbor serve` runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: String,
    pub port: u16,
    pub max_sessions: usize,
    pub idle: Duration,
    pub hash_mb: usize,
    /// Whether the engines play from the Othello opening book.
    pub book: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: "127.0.0.1".to_string(),
            port: 8080,
            max_sessions: 16,
            idle: IDLE_TIMEOUT,
            hash_mb: SESSION_HASH_MB,
            book: true,
        }
    }
}

struct App {
    config: Config,
    sessions: Mutex<HashMap<String, Arc<Shared>>>,
    /// The connections being served, event streams aside.
    connections: Mutex<Connections>,
    /// Event streams open (each holds a thread): at most `max_sessions` × `MAX_STREAMS`.
    streams: Arc<AtomicUsize>,
}

/// The ordinary connections (each holds a thread), by number.
#[derive(Default)]
struct Connections {
    next: u64,
    open: HashMap<u64, Open>,
}

struct Open {
    /// The socket, for closing it from the accepting thread.
    socket: TcpStream,
    /// Since when it has waited for a request's head; `None` while a request is served.
    waiting: Option<Instant>,
}

/// A request's failure: its status and message (sent as `{"error": ...}`), and for a
/// wrong method the methods the path takes.
struct Failure {
    status: u16,
    message: String,
    allow: Option<&'static str>,
}

fn fail(status: u16, message: impl Into<String>) -> Failure {
    Failure {
        status,
        message: message.into(),
        allow: None,
    }
}

type Answer = Result<Value, Failure>;

fn bad(message: impl Into<String>) -> Failure {
    fail(400, message)
}

/// What a request gets: an answer, or the event stream of a session (and its place).
enum Reply {
    Answer(Response),
    Events(Receiver<String>, StreamSlot),
}

/// The paths served, whatever the method.
enum Route<'a> {
    Page,
    Games,
    Sessions,
    Session(&'a str),
    Events(&'a str),
    Save(&'a str),
    Action(&'a str, &'a str),
}

impl Route<'_> {
    fn parse<'a>(segments: &[&'a str]) -> Option<Route<'a>> {
        Some(match segments {
            [""] | ["index.html"] => Route::Page,
            ["api", "games"] => Route::Games,
            ["api", "sessions"] => Route::Sessions,
            ["api", "sessions", id] => Route::Session(id),
            ["api", "sessions", id, "events"] => Route::Events(id),
            ["api", "sessions", id, "save"] => Route::Save(id),
            ["api", "sessions", id, action] if ACTIONS.contains(action) => {
                Route::Action(id, action)
            }
            _ => return None,
        })
    }

    /// The methods the path takes (`HEAD` wherever a `GET` answers with a body).
    fn allow(&self) -> &'static str {
        match self {
            Route::Page | Route::Games | Route::Save(_) => "GET, HEAD",
            Route::Sessions | Route::Action(..) => "POST",
            Route::Session(_) => "GET, HEAD, DELETE",
            Route::Events(_) => "GET",
        }
    }

    /// The query parameters the path takes.
    fn parameters(&self) -> &'static [&'static str] {
        match self {
            Route::Save(_) => &["format"],
            _ => &[],
        }
    }
}

/// Binds and serves until the process ends; `ready` hears the bound address (port 0
/// picks a free one).
pub fn serve(
    config: Config,
    ready: impl FnOnce(SocketAddr) -> Result<(), String>,
) -> Result<(), String> {
    let address = (config.bind.as_str(), config.port);
    let listener = TcpListener::bind(address)
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    ready(bound)?;
    let app = Arc::new(App {
        config,
        sessions: Mutex::new(HashMap::new()),
        connections: Mutex::new(Connections::default()),
        streams: Arc::new(AtomicUsize::new(0)),
    });
    let reaper = Arc::clone(&app);
    thread::Builder::new()
        .name("web-reaper".to_string())
        .spawn(move || {
            loop {
                thread::sleep(Duration::from_secs(1));
                reaper.close_idle();
            }
        })
        .map_err(|e| e.to_string())?;
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                // Out of descriptors, most likely: wait for some to close.
                log::warn!("cannot accept a connection: {error}");
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let Some(id) = app.admit(&stream) else {
            refuse_connection(stream);
            continue;
        };
        let slot = Slot {
            app: Arc::clone(&app),
            id,
        };
        let spawned = thread::Builder::new()
            .name("web-connection".to_string())
            .spawn(move || slot.serve(stream));
        if let Err(error) = spawned {
            log::error!("cannot start a connection's thread: {error}");
        }
    }
    Ok(())
}

/// A connection's place among the open ones, given back however its thread ends.
struct Slot {
    app: Arc<App>,
    id: u64,
}

impl Slot {
    fn serve(self, stream: TcpStream) {
        self.app.connection(stream, self.id);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.app.lock_connections().open.remove(&self.id);
    }
}

/// An event stream's place among the open ones, given back when it ends.
struct StreamSlot(Arc<AtomicUsize>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A connection over the limit: a 429 at once, without reading its request, and closed.
fn refuse_connection(mut stream: TcpStream) {
    // What the client already sent is read (never waited for) so that closing does not
    // reset the connection before the answer is seen.
    if stream.set_nonblocking(true).is_ok() {
        let mut chunk = [0; 4096];
        while matches!(stream.read(&mut chunk), Ok(count) if count > 0) {}
    }
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    let body = json!({"error": "server busy: too many connections; try again"}).to_string();
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nRetry-After: {RETRY_AFTER}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(answer.as_bytes());
    let _ = stream.shutdown(Shutdown::Both);
}

impl App {
    /// Takes a new connection in, closing the one that has waited longest for a request
    /// if all places are taken; `None` if every one is in the middle of a request.
    fn admit(&self, stream: &TcpStream) -> Option<u64> {
        // Out of descriptors, most likely: refused like a full server.
        let socket = stream.try_clone().ok()?;
        let mut connections = self.lock_connections();
        if connections.open.len() >= MAX_CONNECTIONS {
            let (_, victim) = connections
                .open
                .iter()
                .filter_map(|(&id, open)| open.waiting.map(|since| (since, id)))
                .min()?;
            if let Some(open) = connections.open.remove(&victim) {
                log::debug!("closing an idle connection to make room");
                // Its thread reads the end of the stream and ends.
                let _ = open.socket.shutdown(Shutdown::Both);
            }
        }
        let id = connections.next;
        connections.next += 1;
        let waiting = Some(Instant::now());
        connections.open.insert(id, Open { socket, waiting });
        Some(id)
    }

    /// Marks a connection as serving a request or waiting for the next; false if it was
    /// closed to make room meanwhile.
    fn set_waiting(&self, id: u64, waiting: bool) -> bool {
        match self.lock_connections().open.get_mut(&id) {
            Some(open) => {
                open.waiting = waiting.then(Instant::now);
                true
            }
            None => false,
        }
    }

    fn lock_connections(&self) -> std::sync::MutexGuard<'_, Connections> {
        self.connections
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Reads and answers a connection's requests until it closes (or becomes a stream).
    fn connection(&self, stream: TcpStream, id: u64) {
        let mut connection = Connection::new(stream);
        loop {
            let request = match connection.read_request(MAX_BODY, || self.set_waiting(id, false)) {
                Incoming::Request(request) => request,
                Incoming::Closed => return,
                Incoming::Refused(response) => return connection.refuse(&response),
            };
            match self.handle(&request) {
                Reply::Answer(response) => {
                    let head_only = request.method == "HEAD";
                    if connection
                        .respond(&response, head_only, request.keep_alive)
                        .is_err()
                        || !request.keep_alive
                    {
                        return;
                    }
                    self.set_waiting(id, true);
                }
                Reply::Events(receiver, counted) => {
                    // Streams are counted apart: this place goes to the next newcomer.
                    self.lock_connections().open.remove(&id);
                    stream_events(connection, receiver);
                    drop(counted);
                    return;
                }
            }
        }
    }

    fn handle(&self, request: &Request) -> Reply {
        match self.route(request) {
            Ok(reply) => reply,
            Err(failure) => Reply::Answer(error_response(&failure)),
        }
    }

    fn route(&self, request: &Request) -> Result<Reply, Failure> {
        check_origin(request)?;
        let segments: Vec<&str> = request.path.trim_matches('/').split('/').collect();
        let route = Route::parse(&segments).ok_or_else(|| fail(404, "not found"))?;
        let method = request.method.as_str();
        let allow = route.allow();
        if !allow.split(", ").any(|allowed| allowed == method) {
            return Err(Failure {
                status: 405,
                message: format!("{} takes {allow}", request.path),
                allow: Some(allow),
            });
        }
        let query = http::parse_query(&request.query).map_err(bad)?;
        if let Some((key, _)) = query
            .iter()
            .find(|(key, _)| !route.parameters().contains(&key.as_str()))
        {
            return Err(bad(format!("unknown query parameter {key:?}")));
        }
        let json = |answer: Answer| -> Result<Reply, Failure> {
            answer.map(|value| Reply::Answer(json_response(200, &value)))
        };
        let body = request.body.as_slice();
        match (method, route) {
            (_, Route::Page) => Ok(Reply::Answer(Response::new(
                200,
                "text/html; charset=utf-8",
                PAGE,
            ))),
            (_, Route::Games) => json(Ok(games())),
            (_, Route::Sessions) => json(self.create(body)),
            ("DELETE", Route::Session(id)) => {
                let removed = self.lock_sessions().remove(id);
                let shared = removed.ok_or_else(|| unknown(id))?;
                shared.close();
                json(Ok(json!({"closed": id})))
            }
            (_, Route::Session(id)) => {
                let shared = self.session(id)?;
                let mut board = shared.lock();
                board.touch();
                board.check_time();
                json(Ok(json!(board.state())))
            }
            (_, Route::Events(id)) => self.subscribe(id),
            (_, Route::Save(id)) => {
                let format = query
                    .iter()
                    .find(|(key, _)| key == "format")
                    .map_or("text", |(_, value)| value.as_str());
                let text = self.save(id, format)?;
                Ok(Reply::Answer(Response::new(
                    200,
                    "text/plain; charset=utf-8",
                    text,
                )))
            }
            (_, Route::Action(id, "close")) => {
                // A page going away (navigator.sendBeacon): the session is let go, and
                // closed unless a reload takes it back soon.
                let shared = self.session(id)?;
                shared.lock().release();
                json(Ok(json!({"released": id})))
            }
            (_, Route::Action(id, action)) => {
                let shared = self.session(id)?;
                json(self.act(&shared, action, body))
            }
        }
    }

    fn act(&self, shared: &Arc<Shared>, action: &str, body: &[u8]) -> Answer {
        let busy = |error: String| fail(409, error);
        match action {
            "move" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Play {
                    r#move: String,
                }
                let play: Play = parse(body)?;
                let mut board = shared.idle(false).map_err(busy)?;
                let name = board.play(&play.r#move).map_err(bad)?;
                Ok(json!({"played": name, "state": board.state()}))
            }
            "undo" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Undo {
                    until: Option<String>,
                }
                let undo: Undo = parse(body)?;
                let until = undo.until.as_deref().map(side_named).transpose()?;
                // Taking back stops an engine move in progress (its move is taken back
                // too when `until` asks for it).
                let mut board = shared.idle(true).map_err(busy)?;
                let names = board.undo(until).map_err(bad)?;
                Ok(json!({"undone": names, "state": board.state()}))
            }
            "go" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Go {
                    time_ms: Option<u64>,
                }
                let go: Go = parse(body)?;
                let time = go.time_ms.map(Duration::from_millis);
                if time.is_some_and(|time| time.is_zero() || time > MAX_GO) {
                    return Err(bad(format!("time_ms must be 1..={}", MAX_GO.as_millis())));
                }
                let mut board = shared.idle(false).map_err(busy)?;
                board.go(time).map_err(bad)?;
                Ok(json!({"state": board.state()}))
            }
            "stop" => {
                let mut board = shared.lock();
                board.touch();
                let stopped = board.stop_go();
                Ok(json!({"stopped": stopped, "state": board.state()}))
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
                let mut board = shared.idle(false).map_err(busy)?;
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
                let mut board = shared.idle(true).map_err(busy)?;
                let (variant, setup, moves) = match (load.ggf, load.record) {
                    (Some(text), None) => {
                        let game = ggf::parse(&text).map_err(bad)?;
                        let moves = game.moves.into_iter().map(|(_, name)| name).collect();
                        (game.variant, Some((game.cells, game.side)), moves)
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
                let control = game.control()?;
                let mut board = shared.idle(true).map_err(busy)?;
                board.set_time_control(control);
                board.new_game(variant).map_err(bad)?;
                Ok(json!({"state": board.state()}))
            }
            _ => Err(fail(404, format!("unknown action {action}"))),
        }
    }

    fn create(&self, body: &[u8]) -> Answer {
        let game: NewGame = parse(body)?;
        let variant = game.variant()?;
        let control = game.control()?;
        let mut sessions = self.lock_sessions();
        if sessions.len() >= self.config.max_sessions && !evict(&mut sessions) {
            return Err(fail(
                429,
                format!(
                    "all {} sessions are in use (each by an open page); close one or try later",
                    self.config.max_sessions
                ),
            ));
        }
        let shared = Shared::new(variant, self.config.hash_mb, self.config.book)
            .map_err(|e| fail(429, e))?;
        let id = format!("{:016x}", rand::rng().next_u64());
        let state = {
            let mut board = shared.lock();
            board.set_time_control(control);
            board.restart_clock();
            json!(board.state())
        };
        sessions.insert(id.clone(), shared);
        Ok(json!({"id": id, "state": state}))
    }

    fn save(&self, id: &str, format: &str) -> Result<String, Failure> {
        let shared = self.session(id)?;
        let mut board = shared.lock();
        board.touch();
        match format {
            "text" => Ok(board.text_record()),
            "ggf" => board.ggf().map_err(bad),
            other => Err(bad(format!("format must be ggf or text, not {other:?}"))),
        }
    }

    /// Opens an event stream on a session (a few at most each, and `MAX_STREAMS` for
    /// each possible session in all: those of a closed session count until they end).
    fn subscribe(&self, id: &str) -> Result<Reply, Failure> {
        let shared = self.session(id)?;
        let limit = self.config.max_sessions.saturating_mul(MAX_STREAMS);
        self.streams
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |open| {
                (open < limit).then_some(open + 1)
            })
            .map_err(|_| fail(429, format!("all {limit} event streams are open")))?;
        let counted = StreamSlot(Arc::clone(&self.streams));
        let (sender, receiver) = mpsc::sync_channel(STREAM_BACKLOG);
        let mut board = shared.lock();
        board.touch();
        board.subscribe(sender).map_err(|e| fail(429, e))?;
        Ok(Reply::Events(receiver, counted))
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

    /// Closes the sessions unused for the idle time (or let go by their page a while
    /// ago) and not watched by an open page; ends the games whose clock ran out.
    fn close_idle(&self) {
        let idle = self.config.idle;
        let grace = RELEASE_GRACE.min(idle);
        let mut sessions = self.lock_sessions();
        sessions.retain(|id, shared| {
            let mut board = shared.lock();
            board.check_time();
            let keep = board.has_streams()
                || (board.last_used.elapsed() < idle
                    && board.released.is_none_or(|at| at.elapsed() < grace));
            drop(board);
            if !keep {
                log::info!("closing idle session {id}");
                shared.close();
            }
            keep
        });
    }
}

/// Makes room for a new session: the one let go by its page, else the longest unused,
/// of those no page watches. False if every session has an open page.
fn evict(sessions: &mut HashMap<String, Arc<Shared>>) -> bool {
    let victim = sessions
        .iter()
        .filter_map(|(id, shared)| {
            let mut board = shared.lock();
            (!board.has_streams()).then(|| (board.released.is_none(), board.last_used, id.clone()))
        })
        .min();
    let Some((_, _, id)) = victim else {
        return false;
    };
    log::info!("closing session {id} to make room");
    if let Some(shared) = sessions.remove(&id) {
        shared.close();
    }
    true
}

/// Server-sent events: `state` after each change, `analysis` per report. The stream holds
/// its connection's thread and writes straight to the socket; it ends when the page goes
/// (seen within a second) or the session closes.
fn stream_events(connection: Connection, receiver: Receiver<String>) {
    let mut stream = connection.into_stream();
    let _ = stream.set_write_timeout(Some(KEEPALIVE));
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nConnection: close\r\n\r\n";
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let mut quiet_since = Instant::now();
    loop {
        let text = match receiver.recv_timeout(STREAM_CHECK) {
            Ok(text) => text,
            Err(RecvTimeoutError::Timeout) => {
                if peer_closed(&mut stream) {
                    return;
                }
                if quiet_since.elapsed() < KEEPALIVE {
                    continue;
                }
                ": keepalive\n\n".to_string()
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if stream.write_all(text.as_bytes()).is_err() {
            return;
        }
        quiet_since = Instant::now();
    }
}

/// Whether the client closed its side (a page that left); what it sent is dropped.
fn peer_closed(stream: &mut TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let mut chunk = [0; 512];
    let result = stream.read(&mut chunk);
    let _ = stream.set_nonblocking(false);
    match result {
        Ok(count) => count == 0,
        Err(error) => error.kind() != std::io::ErrorKind::WouldBlock,
    }
}

/// Only this machine's pages and names may call: a `Host` that is a domain other than
/// `localhost` is refused (DNS rebinding), and so is an `Origin` other than the page's
/// own (another site's page posting to the API).
fn check_origin(request: &Request) -> Result<(), Failure> {
    let host = request.header("host");
    if let Some(host) = host
        && !host_allowed(host)
    {
        return Err(fail(
            403,
            format!("host {host:?} is not served: use localhost or an IP address"),
        ));
    }
    if let Some(origin) = request.header("origin") {
        let same = host.is_some_and(|host| {
            origin
                .strip_prefix("http://")
                .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
        });
        if !same {
            return Err(fail(
                403,
                format!("origin {origin:?} may not call this server"),
            ));
        }
    }
    Ok(())
}

/// `localhost` (or a name under it) or an IP address, with or without a port.
fn host_allowed(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((address, port)) if port.is_empty() || is_port(port) => address,
            _ => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if is_port(port) => name,
            Some(_) => return false,
            None => host,
        }
    };
    let name = name.to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost") || name.parse::<IpAddr>().is_ok()
}

fn is_port(text: &str) -> bool {
    text.strip_prefix(':')
        .unwrap_or(text)
        .parse::<u16>()
        .is_ok()
}

fn side_named(name: &str) -> Result<Side, Failure> {
    match name {
        "black" => Ok(Side::Black),
        "white" => Ok(Side::White),
        _ => Err(bad(format!("until must be black or white, not {name:?}"))),
    }
}

/// `{"game": "gomoku", "options": {"size": "15"}, "clock": {"base_ms": 300000, "inc_ms": 2000}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: String,
    #[serde(default)]
    options: HashMap<String, Value>,
    /// A time control; none: the clocks only count.
    #[serde(default)]
    clock: Option<ClockJson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockJson {
    base_ms: u64,
    #[serde(default)]
    inc_ms: u64,
}

impl NewGame {
    fn control(&self) -> Result<Option<TimeControl>, Failure> {
        let Some(clock) = &self.clock else {
            return Ok(None);
        };
        let base = Duration::from_millis(clock.base_ms);
        let inc = Duration::from_millis(clock.inc_ms);
        if !(MIN_CLOCK..=MAX_CLOCK).contains(&base) || inc > MAX_INCREMENT {
            return Err(bad(format!(
                "clock: base_ms must be {}..={}, inc_ms at most {}",
                MIN_CLOCK.as_millis(),
                MAX_CLOCK.as_millis(),
                MAX_INCREMENT.as_millis()
            )));
        }
        Ok(Some(TimeControl { base, inc }))
    }

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
        {"game": "gomoku", "options": {"size": ["15", "19", "13", "9"], "rule": ["freestyle", "exact", "renju"], "opening": ["center", "free"]}},
        {"game": "pente", "options": {"size": ["19", "13", "9"], "opening": ["center", "tournament", "free"]}},
        {"game": "tictactoe", "options": {"size": ["3", "4", "5"], "k": ["3", "4", "5"]}},
    ])
}

fn unknown(id: &str) -> Failure {
    fail(404, format!("unknown session {id:?}"))
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

fn json_response(status: u16, value: &Value) -> Response {
    Response::new(status, "application/json", value.to_string())
}

fn error_response(failure: &Failure) -> Response {
    let mut response = json_response(failure.status, &json!({"error": failure.message}));
    if let Some(allow) = failure.allow {
        response = response.with_header("Allow", allow);
    }
    if failure.status == 429 {
        response = response.with_header("Retry-After", RETRY_AFTER);
    }
    response
}
