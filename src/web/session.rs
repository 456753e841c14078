//! One board in the browser: an engine core, its event pump, the latest analysis and the
//! page's event streams. Everything here calls the core; nothing searches or rules.

use std::sync::mpsc::Receiver;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::mpsc::Sender;

use crate::engine::clock::{ClockControl, GameClock};
use crate::engine::events::Event;
use crate::engine::job::JobKind;
use crate::engine::{AnalysisOptions, Engine, Finished, Settings};
use crate::game::Side;
use crate::game::variant::Variant;
use crate::protocol::json::ReportJson;
use crate::search::limits::Limits;

/// How long a live analysis looks at one position before it rests (one core per session
/// at most, never for ever).
pub const ANALYSIS_TIME: Duration = Duration::from_secs(30);
/// How often a live analysis reports.
const ANALYSIS_INTERVAL: Duration = Duration::from_millis(400);
/// How long a request waits for a stopped analysis to end.
const STOP_WAIT: Duration = Duration::from_secs(5);
/// Event streams open on one session at most.
pub const MAX_STREAMS: usize = 4;
/// Events a slow page may leave unread before its stream is closed.
pub const STREAM_BACKLOG: usize = 256;

/// A session shared by the request threads and its pump.
pub struct Shared {
    board: Mutex<Board>,
    /// Signalled whenever a job ends.
    idle: Condvar,
}

pub struct Board {
    pub engine: Engine,
    /// The position the game started from (cells, side): GGF and text records need it.
    start: (String, Side),
    /// The variant's own start: a game from there is saved as `setup start`.
    initial: (String, Side),
    /// Whether the page wants a live analysis of every position.
    analyzing: bool,
    multipv: usize,
    analysis: Option<ReportJson>,
    /// A job's failure, shown once.
    error: Option<String>,
    pub last_used: Instant,
    /// When the page let the session go (`close`, as it unloads): closed after a grace
    /// unless a request (a reload) takes it back.
    pub released: Option<Instant>,
    clock: GameClock,
    /// The side whose clock ran out: the game is over.
    lost_on_time: Option<Side>,
    /// Counts the changes: a page keeps the newest state whichever way it came.
    version: u64,
    streams: Vec<Sender<String>>,
}

/// A move on the board: its name and its field (`None` for a pass).
#[derive(Serialize)]
pub struct MoveJson {
    pub name: String,
    pub index: Option<usize>,
}

/// The clocks as the page shows them.
#[derive(Serialize)]
pub struct ClockState {
    /// The time control (`null`: none, the clocks count up).
    pub base_ms: Option<u64>,
    pub inc_ms: u64,
    /// Time left with a time control, time used without.
    pub black_ms: u64,
    pub white_ms: u64,
    /// The side whose clock runs.
    pub running: Option<&'static str>,
}

/// What `GET /api/sessions/{id}` answers and every `state` event carries.
#[derive(Serialize)]
pub struct StateJson {
    /// Grows with every change (replies and events may arrive out of order).
    pub version: u64,
    pub game: String,
    /// `othello` or `kinrow`: discs on squares or stones on intersections.
    pub board: &'static str,
    pub size: usize,
    pub cells: Vec<String>,
    pub side: &'static str,
    pub legal: Vec<MoveJson>,
    pub history: Vec<MoveJson>,
    pub status: String,
    /// `black`, `white` or `draw` once the game is over.
    pub result: Option<&'static str>,
    pub last: Option<MoveJson>,
    /// The running job: `go` or `analyze`.
    pub busy: Option<&'static str>,
    pub clock: ClockState,
    pub analyzing: bool,
    pub multipv: usize,
    pub analysis: Option<ReportJson>,
    pub error: Option<String>,
}

impl Shared {
    /// A new session over its own engine; the pump thread lives as long as the engine.
    pub fn new(variant: Variant, hash_mb: usize, book: bool) -> Result<Arc<Shared>, String> {
        let settings = Settings {
            variant,
            hash_mb,
            book,
            ..Settings::default()
        };
        let (engine, receiver) = Engine::new(&settings)?;
        let start = (engine.cells(), engine.side_to_move());
        let shared = Arc::new(Shared {
            board: Mutex::new(Board {
                engine,
                initial: start.clone(),
                start,
                analyzing: false,
                multipv: 3,
                analysis: None,
                error: None,
                last_used: Instant::now(),
                released: None,
                clock: GameClock::default(),
                lost_on_time: None,
                version: 0,
                streams: Vec::new(),
            }),
            idle: Condvar::new(),
        });
        let weak = Arc::downgrade(&shared);
        thread::Builder::new()
            .name("web-pump".to_string())
            .spawn(move || pump(weak, receiver))
            .map_err(|e| format!("cannot start the session's thread: {e}"))?;
        Ok(shared)
    }

    pub fn lock(&self) -> MutexGuard<'_, Board> {
        // A panic elsewhere must not take the whole board down with it.
        self.board
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The board with no job running: a live analysis is stopped (and restarted by
    /// `changed`); an engine move in progress is stopped if `stop_go` (its move is
    /// played), else refused. A game lost on time takes no move.
    pub fn idle(&self, stop_go: bool) -> Result<MutexGuard<'_, Board>, String> {
        let mut board = self.lock();
        board.touch();
        board.check_time();
        let deadline = Instant::now() + STOP_WAIT;
        loop {
            match board.engine.job_kind() {
                None => return Ok(board),
                Some(JobKind::Analyze) => board.engine.stop(),
                Some(JobKind::Go) if stop_go => board.engine.stop(),
                Some(kind) => return Err(format!("busy: {} is running", kind.name())),
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err("busy: the engine did not stop in time".to_string());
            }
            board = self
                .idle
                .wait_timeout(board, left)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
    }

    /// Stops whatever runs (the session is closing).
    pub fn close(&self) {
        let mut board = self.lock();
        board.engine.stop();
        board.streams.clear();
    }
}

impl Board {
    pub fn state(&self) -> StateJson {
        let engine = &self.engine;
        let size = engine.size();
        let cells = engine.cells();
        let named = |mv| MoveJson {
            name: engine.move_name(mv),
            index: engine.field_index(mv),
        };
        let history: Vec<MoveJson> = engine.history().into_iter().map(named).collect();
        let outcome = engine.outcome();
        let clock = &self.clock;
        let now = Instant::now();
        let shown = |side| {
            clock
                .left(side, now)
                .unwrap_or_else(|| clock.used(side, now))
                .as_millis() as u64
        };
        let over = outcome.is_some() || self.lost_on_time.is_some();
        StateJson {
            version: self.version,
            game: engine.variant().to_string(),
            board: match engine.variant() {
                Variant::Othello { .. } => "othello",
                Variant::KInRow(_) => "kinrow",
            },
            size,
            cells: cells
                .as_bytes()
                .chunks(size.max(1))
                .map(|row| String::from_utf8_lossy(row).into_owned())
                .collect(),
            side: engine.side_to_move().name(),
            legal: if over {
                Vec::new()
            } else {
                engine.legal_moves().into_iter().map(named).collect()
            },
            last: engine.history().last().map(|&mv| named(mv)),
            history,
            status: match self.lost_on_time {
                Some(loser) => format!("{} wins on time", loser.opponent().name()),
                None => engine.status(),
            },
            result: match self.lost_on_time {
                Some(loser) => Some(loser.opponent().name()),
                None => outcome.map(|outcome| outcome.winner.map_or("draw", Side::name)),
            },
            busy: engine.job_kind().map(JobKind::name),
            clock: ClockState {
                base_ms: clock.control().map(|c| c.base.as_millis() as u64),
                inc_ms: clock.control().map_or(0, |c| c.inc.as_millis() as u64),
                black_ms: shown(Side::Black),
                white_ms: shown(Side::White),
                running: clock.running().map(Side::name),
            },
            analyzing: self.analyzing,
            multipv: self.multipv,
            analysis: self.analysis.clone(),
            error: self.error.clone(),
        }
    }

    /// After the position changed: the old analysis is dropped, a live one restarts,
    /// and the pages hear of it.
    pub fn changed(&mut self) {
        self.analysis = None;
        self.restart_analysis();
        self.broadcast_state();
    }

    /// A request on the session: it is in use (and no longer let go).
    pub fn touch(&mut self) {
        self.last_used = Instant::now();
        self.released = None;
    }

    /// The page went away; a reload may take the session back.
    pub fn release(&mut self) {
        self.released = Some(Instant::now());
    }

    pub fn set_time_control(&mut self, control: Option<ClockControl>) {
        self.clock.set_control(control);
    }

    /// Both clocks back to the start, the side to move's running (none once over).
    pub fn restart_clock(&mut self) {
        self.lost_on_time = None;
        let next = self
            .engine
            .outcome()
            .is_none()
            .then(|| self.engine.side_to_move());
        self.clock.reset(next, Instant::now());
    }

    /// Ends the game if the running clock is out of time (stopping the engine).
    pub fn check_time(&mut self) {
        if self.lost_on_time.is_some() {
            return;
        }
        let now = Instant::now();
        if let Some(loser) = self.clock.flagged(now, Duration::ZERO) {
            self.lost_on_time = Some(loser);
            self.clock.halt(now);
            self.engine.stop();
            self.analysis = None;
            self.broadcast_state();
        }
    }

    /// A move was played by `mover`: the clocks turn (and stop at the game's end).
    fn moved(&mut self, mover: Side) {
        let over = self.engine.outcome().is_some();
        // An engine move that came after its time was up still loses on time.
        let now = Instant::now();
        if self.clock.flagged(now, Duration::ZERO) == Some(mover) {
            self.check_time();
            return;
        }
        self.clock
            .press((!over).then(|| self.engine.side_to_move()), now);
    }

    /// Makes a running engine move end now (it plays its best so far).
    pub fn stop_go(&mut self) -> bool {
        let going = self.engine.job_kind() == Some(JobKind::Go);
        if going {
            self.engine.stop();
        }
        going
    }

    fn restart_analysis(&mut self) {
        if !self.analyzing
            || self.engine.is_busy()
            || self.engine.outcome().is_some()
            || self.lost_on_time.is_some()
        {
            return;
        }
        let options = AnalysisOptions {
            lines: Some(self.multipv),
            time: Some(ANALYSIS_TIME),
            interval: Some(ANALYSIS_INTERVAL),
            ..AnalysisOptions::default()
        };
        // A position without a legal move (an Othello pass) has nothing to analyse.
        if let Err(error) = self.engine.analyze(&options, Instant::now()) {
            log::debug!("no analysis: {error}");
        }
    }

    fn playable(&self) -> Result<(), String> {
        match self.lost_on_time {
            Some(loser) => Err(format!("the game is over: {} lost on time", loser.name())),
            None => Ok(()),
        }
    }

    pub fn play(&mut self, text: &str) -> Result<String, String> {
        self.playable()?;
        self.error = None;
        let mover = self.engine.side_to_move();
        let name = self.engine.play(text)?;
        self.moved(mover);
        self.changed();
        Ok(name)
    }

    /// Takes back the last move, and with `until` more until that side is to move (the
    /// human's previous turn against the engine). The names taken back, latest first.
    pub fn undo(&mut self, until: Option<Side>) -> Result<Vec<String>, String> {
        self.playable()?;
        self.error = None;
        let mut names = vec![self.engine.undo()?];
        while until.is_some_and(|side| side != self.engine.side_to_move())
            && !self.engine.history().is_empty()
        {
            names.push(self.engine.undo()?);
        }
        // Time spent stays spent; the side now to move has the clock.
        self.clock.start(self.engine.side_to_move(), Instant::now());
        self.changed();
        Ok(names)
    }

    /// Starts an engine move: `time` for it, and within the side's clock if there is a
    /// time control; one of the two is needed.
    pub fn go(&mut self, time: Option<Duration>) -> Result<(), String> {
        self.playable()?;
        self.error = None;
        let side = self.engine.side_to_move();
        let left = self.clock.left(side, Instant::now());
        if time.is_none() && left.is_none() {
            return Err("give time_ms: there is no clock".to_string());
        }
        let limits = Limits {
            movetime: time,
            time: left,
            inc: self.clock.control().map(|control| control.inc),
            ..Limits::default()
        };
        self.engine.go(limits, Instant::now())?;
        self.broadcast_state();
        Ok(())
    }

    pub fn set_analysis(&mut self, on: bool, multipv: usize) {
        self.analyzing = on;
        self.multipv = multipv;
        if !on {
            self.analysis = None;
        }
        self.restart_analysis();
        self.broadcast_state();
    }

    /// Replaces the game by a record's: the variant, its start (`None`: the game's
    /// own) and moves. A record that does not play out leaves the old game as it was.
    pub fn load(
        &mut self,
        variant: Variant,
        setup: Option<(String, Side)>,
        moves: &[String],
    ) -> Result<(), String> {
        let old = (
            self.engine.variant(),
            self.start.clone(),
            self.initial.clone(),
            self.engine.history(),
        );
        let result = self.replay(variant, setup, moves);
        if result.is_ok() {
            self.restart_clock();
        }
        if result.is_err() {
            let (variant, (cells, side), initial, history) = old;
            let restored = self
                .engine
                .new_game(Some(variant))
                .and_then(|()| self.engine.set_board(&cells, side))
                .and_then(|()| {
                    history
                        .into_iter()
                        .try_for_each(|mv| self.engine.play_move(mv).map(|_| ()))
                });
            if let Err(error) = restored {
                log::error!("cannot restore the game after a bad record: {error}");
            }
            self.start = (cells, side);
            self.initial = initial;
        }
        self.changed();
        result
    }

    fn replay(
        &mut self,
        variant: Variant,
        setup: Option<(String, Side)>,
        moves: &[String],
    ) -> Result<(), String> {
        self.engine.new_game(Some(variant))?;
        self.initial = (self.engine.cells(), self.engine.side_to_move());
        if let Some((cells, side)) = &setup {
            self.engine.set_board(cells, *side)?;
        }
        self.start = (self.engine.cells(), self.engine.side_to_move());
        for (number, text) in moves.iter().enumerate() {
            // Records such as WTHOR's leave forced passes out.
            let next = self.engine.parse_move(text).ok();
            self.engine
                .fill_left_out_pass(None, next)
                .and_then(|_| self.engine.play(text))
                .map_err(|e| format!("move {}: {e}", number + 1))?;
        }
        Ok(())
    }

    pub fn new_game(&mut self, variant: Variant) -> Result<(), String> {
        self.load(variant, None, &[])
    }

    /// arbor's text record (`arbor review` and `load` read it back).
    pub fn text_record(&self) -> String {
        let (cells, side) = &self.start;
        let fresh = self.history_names();
        let setup = if self.started_fresh() {
            "start".to_string()
        } else {
            format!("{cells}:{}", side_char(*side))
        };
        format!(
            "game 1 variant \"{}\" result {} setup {setup} moves {}\n",
            self.engine.variant(),
            self.result_text(),
            fresh.join(" ")
        )
    }

    /// A GGF record (Othello only).
    pub fn ggf(&self) -> Result<String, String> {
        let Variant::Othello { size, rule } = self.engine.variant() else {
            return Err("GGF records are for Othello; save as text".to_string());
        };
        let (cells, side) = &self.start;
        let board: String = cells
            .chars()
            .map(|c| if c == 'X' { '*' } else { c })
            .collect();
        let mut moves = String::new();
        let mut colour = *side;
        for name in self.history_names() {
            let item = if name == "pass" {
                "PA".to_string()
            } else {
                name.to_ascii_uppercase()
            };
            let tag = if colour == Side::Black { "B" } else { "W" };
            moves.push_str(&format!("{tag}[{item}]"));
            colour = colour.opponent();
        }
        let anti = if rule.name() == "misere" { "a" } else { "" };
        let side = if *side == Side::Black { '*' } else { 'O' };
        Ok(format!(
            "(;GM[Othello]PC[arbor serve]PB[black]PW[white]RE[{}]TY[{size}{anti}]BO[{size} {board} {side}]{moves};)\n",
            self.result_text()
        ))
    }

    fn history_names(&self) -> Vec<String> {
        let engine = &self.engine;
        engine
            .history()
            .into_iter()
            .map(|mv| engine.move_name(mv))
            .collect()
    }

    fn started_fresh(&self) -> bool {
        // The game's own start is what a new game of the variant shows.
        let (cells, side) = &self.start;
        self.initial == (cells.clone(), *side)
    }

    fn result_text(&self) -> &'static str {
        match self.engine.outcome() {
            None => "*",
            Some(outcome) => match outcome.winner {
                Some(Side::Black) => "1-0",
                Some(Side::White) => "0-1",
                None => "1/2-1/2",
            },
        }
    }

    /// Adds a page's event stream (a session has a few at most).
    pub fn subscribe(&mut self, stream: Sender<String>) -> Result<(), String> {
        // Streams whose page left are found by sending to them.
        self.broadcast(": ping\n\n".to_string());
        if self.streams.len() >= MAX_STREAMS {
            return Err(format!("this session has {MAX_STREAMS} event streams open"));
        }
        let state = self.state();
        let _ = stream.try_send(event("state", &state));
        self.streams.push(stream);
        Ok(())
    }

    /// Whether a page watches (streams whose page left are dropped first).
    pub fn has_streams(&mut self) -> bool {
        self.broadcast(": ping\n\n".to_string());
        !self.streams.is_empty()
    }

    fn broadcast_state(&mut self) {
        self.version += 1;
        let text = event("state", &self.state());
        self.broadcast(text);
    }

    fn broadcast(&mut self, text: String) {
        // A page that stopped reading (or left) loses its stream, never the session.
        self.streams
            .retain(|stream| stream.try_send(text.clone()).is_ok());
    }
}

fn side_char(side: Side) -> char {
    if side == Side::Black { 'X' } else { 'O' }
}

/// One server-sent event.
fn event(name: &str, data: &impl Serialize) -> String {
    let json = serde_json::to_string(data).expect("states always serialize");
    format!("event: {name}\ndata: {json}\n\n")
}

/// Reads the engine's events until the engine is gone: reports become the latest
/// analysis, a job's end is finished on the core (an engine move gets played).
fn pump(shared: Weak<Shared>, receiver: Receiver<Event>) {
    for event_in in receiver {
        let Some(shared) = shared.upgrade() else {
            // The session was closed; the job's last events go nowhere.
            continue;
        };
        let mut board = shared.lock();
        match event_in {
            Event::Report(report) if board.engine.job_kind() == Some(JobKind::Analyze) => {
                let json = ReportJson::new(&report, |line| board.engine.line_names(line));
                board.broadcast(event("analysis", &json));
                board.analysis = Some(json);
            }
            Event::Done(outcome) => {
                match board.engine.finish(outcome) {
                    Finished::Analyzed { report } => {
                        let json = ReportJson::new(&report, |line| board.engine.line_names(line));
                        if !json.lines.is_empty() {
                            board.broadcast(event("analysis", &json));
                            board.analysis = Some(json);
                        }
                        board.broadcast_state();
                    }
                    Finished::Played { .. } => {
                        let mover = board.engine.side_to_move().opponent();
                        board.moved(mover);
                        board.changed();
                    }
                    Finished::Failed { message, .. } => {
                        board.error = Some(message);
                        board.broadcast_state();
                    }
                    _ => board.broadcast_state(),
                }
                shared.idle.notify_all();
            }
            _ => {}
        }
    }
}
