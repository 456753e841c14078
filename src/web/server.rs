//! `arbor serve`: the HTTP front end. Connections are admitted and counted here, their
//! requests read by hyper through `http.rs`, checked and routed here, answered by calling
//! a session's engine (on a small pool of threads, as a call may wait for an engine to
//! stop), and formatted as JSON; the page is compiled in.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::thread;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Frame;
use rand::RngCore;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::mpsc::{self, Receiver};
use tokio::task::AbortHandle;
use tokio::time::{Instant, Sleep};

use super::http::{self, Request, Response, Watch};
use super::session::{MAX_STREAMS, STREAM_BACKLOG, Shared};
use crate::engine::clock::ClockControl;
use crate::game::Side;
use crate::game::variant::Variant;
use crate::protocol::ggf;
use crate::protocol::record::parse_record;

/// The largest request body read.
pub const MAX_BODY: usize = 64 * 1024;
/// A session nobody asked about for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// A session its page let go (`close`) is kept this long for a reload to take it back.
const RELEASE_GRACE: Duration = Duration::from_secs(10);
/// Connections open at once beside the event streams. When all are taken, the one
/// waiting longest for a request's head (kept alive, or its head not all in) is closed
/// for a newcomer, as idle sockets are cheap to drop and must not lock a page out; only
/// if every one is in the middle of a request is a newcomer refused (429).
const MAX_CONNECTIONS: usize = 64;
/// Newcomers being refused at once (each is told 429 as soon as its head is in, and
/// given `REFUSAL_TIME` for it); past these, a newcomer is closed unanswered.
const MAX_REFUSALS: usize = 64;
const REFUSAL_TIME: Duration = Duration::from_secs(2);
/// Threads that call the sessions (a call may wait for an engine to stop).
const HANDLER_THREADS: usize = 16;
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
    /// Event streams open: at most `max_sessions` × `MAX_STREAMS`.
    streams: Arc<AtomicUsize>,
    /// Newcomers being refused for capacity.
    refusals: Arc<AtomicUsize>,
}

/// The ordinary connections, by number.
#[derive(Default)]
struct Connections {
    next: u64,
    open: HashMap<u64, Open>,
}

struct Open {
    /// What it does (whether it waits for a request, since when).
    watch: Arc<Watch>,
    /// Its task, for closing it to make room.
    task: Option<AbortHandle>,
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
    Events(Receiver<String>, Place),
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
    let listener = std::net::TcpListener::bind(address)
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    ready(bound)?;
    let app = Arc::new(App {
        config,
        sessions: Mutex::new(HashMap::new()),
        connections: Mutex::new(Connections::default()),
        streams: Arc::new(AtomicUsize::new(0)),
        refusals: Arc::new(AtomicUsize::new(0)),
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
    // The sockets on this thread; the sessions are called on a few others.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(HANDLER_THREADS)
        .thread_name("web-handler")
        .build()
        .map_err(|e| format!("cannot start the web server: {e}"))?;
    runtime.block_on(app.accept(listener))
}

/// A connection's place among the open ones, given back however its task ends.
struct Slot {
    app: Arc<App>,
    id: u64,
}

impl Slot {
    async fn serve(self, stream: TcpStream, watch: Arc<Watch>) {
        let (app, id) = (Arc::clone(&self.app), self.id);
        let requests = Arc::clone(&watch);
        http::serve(stream, watch, move |request| {
            Arc::clone(&app).request(request, Arc::clone(&requests), id)
        })
        .await;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.app.lock_connections().open.remove(&self.id);
    }
}

/// A place counted in a limit (an event stream, a refusal), given back when it ends.
struct Place(Arc<AtomicUsize>);

impl Place {
    /// One more of `count`, unless there are `limit` already.
    fn take(count: &Arc<AtomicUsize>, limit: usize) -> Option<Place> {
        count
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |open| {
                (open < limit).then_some(open + 1)
            })
            .ok()?;
        Some(Place(Arc::clone(count)))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl App {
    async fn accept(self: Arc<Self>, listener: std::net::TcpListener) -> Result<(), String> {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of descriptors, most likely: wait for some to close.
                    log::warn!("cannot accept a connection: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let watch = Watch::new();
            let Some(id) = self.admit(&watch) else {
                self.refuse(stream);
                continue;
            };
            let slot = Slot {
                app: Arc::clone(&self),
                id,
            };
            // The task runs once this loop waits again: its place is set up by then.
            let task = tokio::spawn(slot.serve(stream, watch));
            if let Some(open) = self.lock_connections().open.get_mut(&id) {
                open.task = Some(task.abort_handle());
            }
        }
    }

    /// Takes a new connection in, closing the one that has waited longest for a request
    /// if all places are taken; `None` if every one is in the middle of a request.
    fn admit(&self, watch: &Arc<Watch>) -> Option<u64> {
        let mut connections = self.lock_connections();
        if connections.open.len() >= MAX_CONNECTIONS {
            let (_, victim) = connections
                .open
                .iter()
                .filter_map(|(&id, open)| open.watch.waiting_since().map(|since| (since, id)))
                .min()?;
            if let Some(open) = connections.open.remove(&victim) {
                log::debug!("closing an idle connection to make room");
                if let Some(task) = open.task {
                    task.abort();
                }
            }
        }
        let id = connections.next;
        connections.next += 1;
        let open = Open {
            watch: Arc::clone(watch),
            task: None,
        };
        connections.open.insert(id, open);
        Some(id)
    }

    /// A connection over the limit: 429 to its request, and closed; a few at once at most
    /// (past them it is closed unanswered).
    fn refuse(&self, stream: TcpStream) {
        let Some(place) = Place::take(&self.refusals, MAX_REFUSALS) else {
            return;
        };
        tokio::spawn(async move {
            let refusal = http::serve(stream, Watch::new(), |_| async {
                let failure = fail(429, "server busy: too many connections; try again");
                error_response(&failure).into_hyper(true)
            });
            let _ = tokio::time::timeout(REFUSAL_TIME, refusal).await;
            drop(place);
        });
    }

    fn lock_connections(&self) -> std::sync::MutexGuard<'_, Connections> {
        self.connections
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Reads a request, calls the sessions and answers: the connection is marked as
    /// serving meanwhile, and taken out of the count if it becomes an event stream.
    async fn request(
        self: Arc<Self>,
        request: hyper::Request<hyper::body::Incoming>,
        watch: Arc<Watch>,
        id: u64,
    ) -> hyper::Response<http::Body> {
        let began = watch.serving();
        let request = match http::read(request, MAX_BODY, began + http::REQUEST_TIMEOUT).await {
            Ok(request) => request,
            Err(refusal) => return refusal.into_hyper(true),
        };
        let app = Arc::clone(&self);
        match tokio::task::spawn_blocking(move || app.handle(&request)).await {
            Ok(Reply::Answer(response)) => {
                watch.waiting();
                response.into_hyper(false)
            }
            Ok(Reply::Events(receiver, place)) => {
                // Streams are counted apart: this place goes to the next newcomer.
                self.lock_connections().open.remove(&id);
                let events = Events {
                    receiver,
                    keepalive: Box::pin(tokio::time::sleep(KEEPALIVE)),
                    _place: place,
                };
                http::event_stream(events.boxed_unsync())
            }
            Err(error) => {
                log::error!("a request failed: {error}");
                http::error_text(500, "internal error").into_hyper(true)
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
        let place = Place::take(&self.streams, limit)
            .ok_or_else(|| fail(429, format!("all {limit} event streams are open")))?;
        let (sender, receiver) = mpsc::channel(STREAM_BACKLOG);
        let mut board = shared.lock();
        board.touch();
        board.subscribe(sender).map_err(|e| fail(429, e))?;
        Ok(Reply::Events(receiver, place))
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

/// Server-sent events: `state` after each change, `analysis` per report, a comment when
/// quiet. The stream ends when the session closes, or with its connection when the page
/// goes (hyper sees its end of input) or stops reading.
struct Events {
    receiver: Receiver<String>,
    keepalive: Pin<Box<Sleep>>,
    _place: Place,
}

impl hyper::body::Body for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let text = match self.receiver.poll_recv(cx) {
            Poll::Ready(Some(text)) => text,
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {
                ready!(self.keepalive.as_mut().poll(cx));
                ": keepalive\n\n".to_string()
            }
        };
        self.keepalive.as_mut().reset(Instant::now() + KEEPALIVE);
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(text)))))
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
    fn control(&self) -> Result<Option<ClockControl>, Failure> {
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
        Ok(Some(ClockControl { base, inc }))
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
