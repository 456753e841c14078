//! The native protocol's command loop: one reply per command, in command order, with
//! `go` and `perft` running in the background so that `stop` and `quit` act at once.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

use super::command::{Command, ParseError, Request, parse_line, parse_number, quote};
use super::input::{InputLine, read_line_capped};
use super::session::{GoSetup, JobContext, JobResult, Session, new_session};
use crate::game::variant::Variant;
use crate::players::PlayerKind;
use crate::search::tt::TranspositionTable;

/// Longest accepted input line; longer ones are skipped and answered with `?`.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Engine settings chosen before the first command (the command line mirrors `set`).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub variant: Variant,
    pub player: PlayerKind,
    /// `None` seeds from the system's entropy.
    pub seed: Option<u64>,
}

/// Shared, line-flushed output: replies from the loop, `info` lines from jobs.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes text and flushes; a closed output is not the engine's concern.
    pub fn write(&self, text: &str) {
        let mut writer = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writer.write_all(text.as_bytes());
        let _ = writer.flush();
    }

    fn reply(&self, id: Option<u64>, result: Result<String, String>) {
        let id = id.map(|id| id.to_string()).unwrap_or_default();
        let text = match result {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(message) => format!("?{id} {message}\n\n"),
        };
        self.write(&text);
    }
}

enum Event {
    Input(InputLine),
    EndOfInput,
    Job(JobResult),
}

/// A queued line, parsed: replies go out in the order lines came in.
type Pending = Result<Request, ParseError>;

struct RunningJob {
    id: Option<u64>,
    stop: Arc<AtomicBool>,
}

/// Default transposition table size, MiB.
pub const DEFAULT_HASH_MB: usize = 64;
const MAX_HASH_MB: u64 = 65_536;
const MAX_LEVEL: u64 = 60;

struct Engine {
    session: Box<dyn Session>,
    player: PlayerKind,
    tt: Arc<TranspositionTable>,
    /// Fixed search depth for `go` (`set level`), 0 for none.
    level: u32,
    rng: StdRng,
    out: Output,
    events: Sender<Event>,
    job: Option<RunningJob>,
    queue: VecDeque<Pending>,
    quitting: bool,
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: Output, settings: Settings) {
    let (events, receiver) = mpsc::channel();
    spawn_reader(input, events.clone());
    let mut engine = Engine {
        session: new_session(settings.variant),
        player: settings.player,
        tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
        level: 0,
        rng: settings
            .seed
            .map_or_else(StdRng::from_os_rng, StdRng::seed_from_u64),
        out: output,
        events,
        job: None,
        queue: VecDeque::new(),
        quitting: false,
    };
    engine.event_loop(receiver);
}

fn spawn_reader(mut input: impl BufRead + Send + 'static, events: Sender<Event>) {
    thread::spawn(move || {
        let mut buffer = Vec::new();
        loop {
            match read_line_capped(&mut input, &mut buffer, MAX_LINE_BYTES) {
                Ok(Some(line)) => {
                    if events.send(Event::Input(line)).is_err() {
                        return;
                    }
                }
                Ok(None) | Err(_) => {
                    let _ = events.send(Event::EndOfInput);
                    return;
                }
            }
        }
    });
}

impl Engine {
    fn event_loop(&mut self, receiver: Receiver<Event>) {
        let mut input_open = true;
        loop {
            let Ok(event) = receiver.recv() else { return };
            match event {
                Event::Input(line) => self.accept(line),
                Event::EndOfInput => input_open = false,
                Event::Job(result) => self.finish_job(result),
            }
            if self.drain() {
                return;
            }
            if !input_open && self.job.is_none() && self.queue.is_empty() {
                return;
            }
        }
    }

    /// Parses a line; `stop` and `quit` take effect now, everything is answered in turn.
    fn accept(&mut self, line: InputLine) {
        let pending = match line {
            InputLine::Text(text) => match parse_line(&text) {
                Ok(None) => return,
                Ok(Some(request)) => Ok(request),
                Err(error) => Err(error),
            },
            InputLine::TooLong(bytes) => Err(ParseError {
                id: None,
                message: format!("line too long ({bytes} bytes; the limit is {MAX_LINE_BYTES})"),
            }),
            InputLine::NotUtf8 => Err(ParseError {
                id: None,
                message: "line is not valid UTF-8 text".to_string(),
            }),
        };
        if let Ok(request) = &pending {
            match request.command {
                Command::Stop => self.raise_stop(),
                Command::Quit => {
                    self.quitting = true;
                    self.raise_stop();
                }
                _ => {}
            }
        }
        self.queue.push_back(pending);
    }

    fn raise_stop(&self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Answers queued lines until a job starts or the queue is empty; true on `quit`.
    fn drain(&mut self) -> bool {
        while self.job.is_none() {
            let Some(pending) = self.queue.pop_front() else {
                break;
            };
            match pending {
                Err(error) => self.out.reply(error.id, Err(error.message)),
                Ok(Request {
                    id,
                    command: Command::Quit,
                }) => {
                    self.out.reply(id, Ok(String::new()));
                    return true;
                }
                Ok(Request { id, command }) => self.execute(id, command),
            }
        }
        false
    }

    fn execute(&mut self, id: Option<u64>, command: Command) {
        let result = match command {
            Command::NewGame { game, options } => self.new_game(game, &options),
            Command::SetBoard { cells, side } => {
                self.session.set_board(&cells, side).map(|()| String::new())
            }
            Command::Move(text) => self.session.play(&text).map(|()| String::new()),
            Command::Undo => self.session.undo(),
            Command::Moves => Ok(self.session.moves()),
            Command::Status => Ok(self.session.status()),
            Command::Show => Ok(self.session.show()),
            Command::Perft(depth) => {
                let job = self.start_job(id);
                self.session.start_perft(depth, job);
                return;
            }
            Command::Go(mut limits) => {
                if self.level > 0 {
                    limits.depth.get_or_insert(self.level);
                }
                let setup = GoSetup {
                    player: self.player,
                    seed: self.rng.next_u64(),
                    tt: Arc::clone(&self.tt),
                };
                let job = self.start_job(id);
                match self.session.start_go(setup, limits, job) {
                    Ok(()) => return,
                    Err(message) => {
                        self.job = None;
                        Err(message)
                    }
                }
            }
            Command::Solve(limit) => {
                let job = self.start_job(id);
                match self.session.start_solve(limit, job) {
                    Ok(()) => return,
                    Err(message) => {
                        self.job = None;
                        Err(message)
                    }
                }
            }
            Command::ClearHash => {
                self.tt.clear();
                Ok(String::new())
            }
            Command::Stop => Ok(String::new()),
            Command::Set { name, value } => self.set(&name, &value),
            Command::Ping(text) => {
                Ok(text.map_or("pong".to_string(), |text| format!("pong {text}")))
            }
            Command::Help => Ok(HELP.trim_end().to_string()),
            Command::Quit => unreachable!("quit is answered by drain"),
        };
        self.out.reply(id, result);
    }

    fn start_job(&mut self, id: Option<u64>) -> JobContext {
        let stop = Arc::new(AtomicBool::new(self.quitting));
        let (done, results) = mpsc::channel();
        let events = self.events.clone();
        // Forward the job's one result into the event stream.
        thread::spawn(move || {
            if let Ok(result) = results.recv() {
                let _ = events.send(Event::Job(result));
            }
        });
        self.job = Some(RunningJob {
            id,
            stop: Arc::clone(&stop),
        });
        let out = self.out.clone();
        let info = Arc::new(move |line: &str| out.write(&format!("{line}\n")));
        JobContext { stop, done, info }
    }

    fn finish_job(&mut self, result: JobResult) {
        let Some(job) = self.job.take() else { return };
        let reply = match result {
            JobResult::Go(mv) => self.session.finish_go(mv),
            JobResult::Perft {
                leaves: Some(leaves),
                elapsed,
            } => {
                log::info!("perft: {leaves} leaves in {:.3} s", elapsed.as_secs_f64());
                Ok(leaves.to_string())
            }
            JobResult::Perft { leaves: None, .. } => {
                Err("perft stopped before it finished".to_string())
            }
            JobResult::Solve(Some(answer)) => Ok(answer),
            JobResult::Solve(None) => Err("solve stopped before it finished".to_string()),
        };
        self.out.reply(job.id, reply);
    }

    fn new_game(
        &mut self,
        game: Option<String>,
        options: &[(String, String)],
    ) -> Result<String, String> {
        let variant = match game {
            None => self.session.variant(),
            Some(name) => Variant::parse(
                &name,
                options
                    .iter()
                    .map(|(key, value)| (key.as_str(), value.as_str())),
            )
            .map_err(|e| e.to_string())?,
        };
        self.session = new_session(variant);
        Ok(String::new())
    }

    fn set(&mut self, name: &str, value: &str) -> Result<String, String> {
        match name {
            "player" => self.player = value.parse()?,
            "seed" => self.rng = StdRng::seed_from_u64(parse_number(value, "set seed")?),
            "hash" => {
                let megabytes = parse_number(value, "set hash")?;
                if !(1..=MAX_HASH_MB).contains(&megabytes) {
                    return Err(format!(
                        "set hash: {megabytes} MiB is outside 1..={MAX_HASH_MB}"
                    ));
                }
                self.tt = Arc::new(TranspositionTable::new(megabytes as usize));
            }
            "level" => {
                let level = parse_number(value, "set level")?;
                if level > MAX_LEVEL {
                    return Err(format!("set level: {level} is outside 0..={MAX_LEVEL}"));
                }
                self.level = level as u32;
            }
            _ => {
                return Err(format!(
                    "unknown option {}: expected player, seed, hash or level",
                    quote(name)
                ));
            }
        }
        Ok(String::new())
    }
}

const HELP: &str = "\
commands (see protocol.md):
  newgame [othello|reversi] [size=4|6|8] [rule=normal|misere]
  newgame gomoku [size=N] [rule=freestyle|exact] [opening=center|free]
  newgame pente [size=N] [opening=center|tournament|free]
  newgame tictactoe [size=N] [k=K]
  setboard <cells> <side>     cells row by row: X x * black, O o white, - . empty
  move <m>                    d3, D3, 3,2 (0-based column,row) or pass
  undo                        take back the last move
  moves                       legal moves in field order
  status                      playing <side> | over <winner|draw> <details>
  show                        board diagram
  perft <depth>               leaf count
  go [time <ms>] [inc <ms>] [movetime <ms>] [depth <n>] [nodes <n>]
  stop                        end a running go or perft now
  solve [movetime <ms>]       exact result and best move, or a forced win by threats
  set player search|random|greedy
  set seed <n>
  set hash <MiB>              transposition table size (default 64)
  set level <n>               fixed search depth for go, 0 = none
  clear hash
  ping [text]
  help
  quit
";
