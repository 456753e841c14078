//! The Gomocup (Piskvork) brain protocol: `arbor gomocup`.
//!
//! A manager starts the brain, sends `START 20`, `INFO ...`, then `BEGIN`, `TURN x,y` or a
//! `BOARD ... DONE` block whenever the brain is to move, and reads one line back: the move
//! as `x,y` (0-based column,row), or `OK`, `ERROR <reason>`, `UNKNOWN <command>`. Progress
//! goes out as `MESSAGE` lines before the move. See protocol.md, "Gomocup protocol".
//!
//! Like the native loop, stdin is read on its own thread and the search runs on another,
//! so `YXSTOP`, `END` and `INFO` act while the brain thinks.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::input::{InputLine, read_line_capped};
use crate::game::gomoku::{Config, Gomoku, MAX_SIZE, MIN_SIZE, Opening, Undo};
use crate::game::{Game, Move, Outcome, Side};
use crate::limits::Limits;
use crate::players::{Player, SearchPlayer};
use crate::search::SearchGame;
use crate::search::tt::TranspositionTable;

/// Longest accepted input line; longer ones are answered with `UNKNOWN`.
const MAX_LINE_BYTES: usize = 1 << 16;
/// Thinking time per move when the manager sends no `INFO timeout_turn`.
const DEFAULT_TURN_MS: u64 = 5_000;
/// `INFO time_left` this large (or larger) means the match has no time limit.
const UNLIMITED_MS: i64 = i32::MAX as i64;
/// Time kept back from every limit: at least this, or 5% of the limit.
const MIN_MARGIN: Duration = Duration::from_millis(30);
/// The least a move ever gets to think.
const MIN_THINK: Duration = Duration::from_millis(1);
/// Search depth for `INFO timeout_turn 0` ("play as fast as possible").
const FAST_DEPTH: u32 = 2;
/// Transposition table size without `INFO max_memory`, and its ceiling, MiB.
const DEFAULT_HASH_MB: usize = 64;
/// Longest echo of a bad command in `UNKNOWN` and `ERROR` replies, in characters.
const MAX_ECHO: usize = 80;

/// Runs the brain until `END` or the end of input (a move being thought about at the end
/// of input is still played). Protocol lines go to `output`, one per reply, flushed.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let (events, receiver) = mpsc::channel();
    spawn_reader(input, events.clone());
    let mut brain = Brain::new(Out::new(output), events);
    brain.event_loop(receiver);
    brain.out.close();
}

/// Shared, line-flushed output that can be closed: after `END` nothing more is written,
/// not even a `MESSAGE` from a search still winding down.
#[derive(Clone)]
struct Out(Arc<Mutex<Option<Box<dyn Write + Send>>>>);

impl Out {
    fn new(writer: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Some(Box::new(writer)))))
    }

    /// Writes one line; control characters become `?` so a line stays one line.
    fn line(&self, text: &str) {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(writer) = guard.as_mut() {
            let _ = writer.write_all(clean.as_bytes());
            let _ = writer.write_all(b"\n");
            let _ = writer.flush();
        }
    }

    fn close(&self) {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mut writer) = guard.take() {
            let _ = writer.flush();
        }
    }
}

enum Event {
    /// A line and when it arrived (a turn's time counts from its command).
    Input(InputLine, Instant),
    EndOfInput,
    /// The search's answer, with the player handed back (`None` if it panicked).
    Done {
        mv: Option<Move>,
        player: Option<SearchPlayer<Gomoku>>,
    },
}

fn spawn_reader(mut input: impl BufRead + Send + 'static, events: Sender<Event>) {
    thread::spawn(move || {
        let mut buffer = Vec::new();
        loop {
            match read_line_capped(&mut input, &mut buffer, MAX_LINE_BYTES) {
                Ok(Some(line)) => {
                    if events.send(Event::Input(line, Instant::now())).is_err() {
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

/// The time and search limits the manager has given with `INFO`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Clock {
    /// Milliseconds per move; `None` until given (then [`DEFAULT_TURN_MS`]), 0 = fast.
    timeout_turn: Option<u64>,
    /// Milliseconds for the whole match, 0 = no limit.
    timeout_match: Option<u64>,
    /// Milliseconds left in the match (may be negative), kept up to date between
    /// `INFO time_left` lines by subtracting our own thinking time.
    time_left: Option<i64>,
    /// Yixin-Board extensions (`INFO max_depth`, `INFO max_node`), 0 = none.
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
}

/// `total` less the safety margin: max(30 ms, 5%), never below 1 ms.
fn after_margin(total: Duration) -> Duration {
    total
        .saturating_sub((total / 20).max(MIN_MARGIN))
        .max(MIN_THINK)
}

impl Clock {
    /// The longest this move may take, measured from its command: the turn limit and
    /// the match clock, each less a margin. `None` when neither limits the move.
    fn cap(&self) -> Option<Duration> {
        let turn = match self.timeout_turn.unwrap_or(DEFAULT_TURN_MS) {
            0 => None,
            ms => Some(after_margin(Duration::from_millis(ms))),
        };
        match (turn, self.match_clock()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// What is left of the match clock, less a margin; `None` without a match limit.
    fn match_clock(&self) -> Option<Duration> {
        if self.timeout_match == Some(0) {
            return None;
        }
        let left = match (self.time_left, self.timeout_match) {
            (Some(left), _) if left >= UNLIMITED_MS => return None,
            (Some(left), _) => left.max(0) as u64,
            (None, Some(total)) => total,
            (None, None) => return None,
        };
        Some(after_margin(Duration::from_millis(left)))
    }

    /// The limits for a move whose command came `elapsed` ago.
    fn limits(&self, elapsed: Duration) -> Limits {
        let fast = self.timeout_turn == Some(0);
        let turn = (!fast).then(|| {
            after_margin(Duration::from_millis(
                self.timeout_turn.unwrap_or(DEFAULT_TURN_MS),
            ))
        });
        let left = |limit: Duration| limit.saturating_sub(elapsed).max(MIN_THINK);
        let depth = match (self.max_depth, fast) {
            (Some(depth), true) => Some(depth.min(FAST_DEPTH)),
            (None, true) => Some(FAST_DEPTH),
            (depth, false) => depth,
        };
        Limits {
            time: self.match_clock().map(left),
            inc: None,
            movetime: turn.map(left),
            depth,
            nodes: self.max_nodes,
        }
    }
}

/// Transposition table size for `INFO max_memory` (bytes, 0 = no limit): a third of the
/// memory, at least 1 MiB, at most [`DEFAULT_HASH_MB`].
fn table_megabytes(max_memory: u64) -> usize {
    if max_memory == 0 {
        return DEFAULT_HASH_MB;
    }
    ((max_memory / 3) >> 20).clamp(1, DEFAULT_HASH_MB as u64) as usize
}

/// Which colour the brain has in a `BOARD` position: Black when it has as many stones as
/// the opponent (Black moves first) or more, White when it has fewer.
fn brain_side(own: usize, opponent: usize) -> Side {
    if own >= opponent {
        Side::Black
    } else {
        Side::White
    }
}

/// `x,y` as 0-based column,row, both below `size`.
fn parse_point(text: &str, size: usize) -> Result<(usize, usize), String> {
    let bad = || format!("bad coordinates '{}': expected x,y", echo(text));
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let (x, y) = (
        parse_index(x).ok_or_else(bad)?,
        parse_index(y).ok_or_else(bad)?,
    );
    if x >= size || y >= size {
        return Err(format!("{x},{y} is off the {size}x{size} board"));
    }
    Ok((x, y))
}

/// A non-negative decimal number of a few digits.
fn parse_index(text: &str) -> Option<usize> {
    let text = text.trim();
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Keeps echoed input short.
fn echo(text: &str) -> String {
    if text.chars().count() <= MAX_ECHO {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX_ECHO).collect();
        format!("{head}...")
    }
}

/// The Gomocup name of a move: `x,y`.
fn point_name(game: &Gomoku, mv: Move) -> String {
    let size = game.size();
    format!("{},{}", mv.square() % size, mv.square() / size)
}

/// An `info depth ... pv h8 i9` line from the player as a `MESSAGE`, with `x,y` names.
fn message(game: &Gomoku, info: &str) -> String {
    let text = info.strip_prefix("info ").unwrap_or(info);
    let mut words = Vec::new();
    let mut in_pv = false;
    for word in text.split_whitespace() {
        if in_pv && let Ok(mv) = game.parse_move(word) {
            words.push(point_name(game, mv));
            continue;
        }
        in_pv |= word == "pv";
        words.push(word.to_string());
    }
    format!("MESSAGE {}", words.join(" "))
}

/// Why a finished game cannot take another move.
fn game_over_reason(game: &Gomoku) -> String {
    match game.outcome() {
        Some(Outcome {
            winner: Some(Side::Black),
        }) => "game over: black (the first player) has won".to_string(),
        Some(Outcome {
            winner: Some(Side::White),
        }) => "game over: white (the second player) has won".to_string(),
        _ => "game over: the board is full".to_string(),
    }
}

/// The answer to try when the search cannot give one (it never should).
fn fallback_move(game: &Gomoku) -> Option<Move> {
    let mut moves = Vec::new();
    game.search_moves(&mut moves);
    if moves.is_empty() {
        game.generate_moves(&mut moves);
    }
    moves.first().copied()
}

/// A `BOARD` block being read: stones so far, the first problem, when it started.
struct BoardInput {
    stones: Vec<(usize, usize, u8)>,
    error: Option<String>,
    started: Instant,
}

struct Job {
    stop: Arc<AtomicBool>,
    /// When the search must have answered: `stop` is raised then, as a backstop.
    deadline: Option<Instant>,
    started: Instant,
}

enum Flow {
    Continue,
    Exit,
}

struct Brain {
    out: Out,
    events: Sender<Event>,
    /// The board size of the last `START`.
    size: Option<usize>,
    /// Exact five (`INFO rule 1`) for the next game.
    exact: bool,
    game: Option<Gomoku>,
    /// Moves made since `START`/`BOARD`, for `TAKEBACK`.
    history: Vec<(Move, Undo)>,
    clock: Clock,
    max_memory: u64,
    table_mb: usize,
    player: Option<SearchPlayer<Gomoku>>,
    job: Option<Job>,
    /// Lines that came while the brain was thinking, answered afterwards in order.
    queue: VecDeque<(InputLine, Instant)>,
    board: Option<BoardInput>,
}

impl Brain {
    fn new(out: Out, events: Sender<Event>) -> Brain {
        Brain {
            out,
            events,
            size: None,
            exact: false,
            game: None,
            history: Vec::new(),
            clock: Clock::default(),
            max_memory: 0,
            table_mb: 0,
            player: None,
            job: None,
            queue: VecDeque::new(),
            board: None,
        }
    }

    fn event_loop(&mut self, receiver: Receiver<Event>) {
        let mut input_open = true;
        loop {
            let deadline = self.job.as_ref().and_then(|job| job.deadline);
            let event = match deadline {
                Some(deadline) => {
                    match receiver.recv_timeout(deadline.saturating_duration_since(Instant::now()))
                    {
                        Ok(event) => Some(event),
                        Err(RecvTimeoutError::Timeout) => None,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                None => match receiver.recv() {
                    Ok(event) => Some(event),
                    Err(_) => return,
                },
            };
            match event {
                None => {
                    if let Some(job) = self.job.as_mut() {
                        log::warn!("gomocup: search overran its deadline; stopping it");
                        job.stop.store(true, Ordering::Relaxed);
                        job.deadline = None;
                    }
                }
                Some(Event::Input(line, at)) => {
                    if let Flow::Exit = self.accept(line, at) {
                        return;
                    }
                }
                Some(Event::EndOfInput) => input_open = false,
                Some(Event::Done { mv, player }) => self.finish_move(mv, player),
            }
            while self.job.is_none() {
                let Some((line, at)) = self.queue.pop_front() else {
                    break;
                };
                if let Flow::Exit = self.handle(line, at) {
                    return;
                }
            }
            if !input_open && self.job.is_none() && self.queue.is_empty() {
                return;
            }
        }
    }

    /// While thinking, `YXSTOP`, `END` and `INFO` act at once and the rest waits.
    fn accept(&mut self, line: InputLine, at: Instant) -> Flow {
        if let (Some(job), InputLine::Text(text)) = (&self.job, &line) {
            let text = text.trim();
            let (word, rest) = split_word(text);
            match word.to_ascii_uppercase().as_str() {
                "YXSTOP" => {
                    job.stop.store(true, Ordering::Relaxed);
                    return Flow::Continue;
                }
                "END" => {
                    job.stop.store(true, Ordering::Relaxed);
                    self.out.close();
                    return Flow::Exit;
                }
                "INFO" => {
                    self.info(rest);
                    return Flow::Continue;
                }
                _ => {}
            }
        }
        self.queue.push_back((line, at));
        Flow::Continue
    }

    fn ok(&self) {
        self.out.line("OK");
    }

    fn error(&self, reason: &str) {
        self.out.line(&format!("ERROR {reason}"));
    }

    fn handle(&mut self, line: InputLine, at: Instant) -> Flow {
        let text = match line {
            InputLine::Text(text) => text,
            InputLine::TooLong(bytes) => {
                self.abort_board();
                self.out.line(&format!(
                    "UNKNOWN line too long ({bytes} bytes; the limit is {MAX_LINE_BYTES})"
                ));
                return Flow::Continue;
            }
            InputLine::NotUtf8 => {
                self.abort_board();
                self.out.line("UNKNOWN line is not valid UTF-8 text");
                return Flow::Continue;
            }
        };
        let text = text.trim();
        if text.is_empty() {
            return Flow::Continue;
        }
        let (word, rest) = split_word(text);
        let command = word.to_ascii_uppercase();
        if self.board.is_some() {
            match command.as_str() {
                "DONE" => {
                    self.finish_board();
                    return Flow::Continue;
                }
                "END" => return Flow::Exit,
                "INFO" => {
                    self.info(rest);
                    return Flow::Continue;
                }
                _ if text.starts_with(|c: char| c.is_ascii_digit()) => {
                    self.board_line(text);
                    return Flow::Continue;
                }
                // Anything else ends the block unfinished, then runs as a command.
                _ => self.abort_board(),
            }
        }
        match command.as_str() {
            "START" => self.start(rest),
            "RECTSTART" => self.rectstart(rest),
            "RESTART" => self.restart(),
            "BEGIN" => self.begin(at),
            "TURN" => self.turn(rest, at),
            "BOARD" => {
                self.board = Some(BoardInput {
                    stones: Vec::new(),
                    error: None,
                    started: at,
                });
            }
            "INFO" => self.info(rest),
            "END" => return Flow::Exit,
            "ABOUT" => self.out.line(&format!(
                "name=\"arbor\", version=\"{}\", author=\"arbor developers\", country=\"unknown\"",
                env!("CARGO_PKG_VERSION")
            )),
            "TAKEBACK" => self.takeback(rest),
            "PLAY" => self.play(rest),
            // Nothing to stop: the answer has gone already.
            "YXSTOP" => {}
            "DONE" => self.error("DONE without BOARD"),
            _ => self.out.line(&format!("UNKNOWN {}", echo(text))),
        }
        Flow::Continue
    }

    fn new_game(&mut self, size: usize) -> Result<(), String> {
        let game = Gomoku::new(Config::gomoku(size, self.exact, Opening::Free))
            .map_err(|e| e.to_string())?;
        self.size = Some(size);
        self.game = Some(game);
        self.history.clear();
        // A new match: the manager sends time_left again before the first move.
        self.clock.time_left = None;
        self.ensure_player();
        Ok(())
    }

    fn start(&mut self, rest: &str) {
        match parse_index(rest) {
            Some(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => match self.new_game(size) {
                Ok(()) => self.ok(),
                Err(reason) => self.error(&reason),
            },
            Some(_) => self.error("unsupported size"),
            None => self.error(&format!("START needs a board size, not '{}'", echo(rest))),
        }
    }

    fn rectstart(&mut self, rest: &str) {
        let Some((width, height)) = rest
            .split_once(',')
            .and_then(|(w, h)| Some((parse_index(w)?, parse_index(h)?)))
        else {
            return self.error(&format!(
                "RECTSTART needs width,height, not '{}'",
                echo(rest)
            ));
        };
        if width != height {
            return self.error("rectangular boards are not supported");
        }
        self.start(&width.to_string());
    }

    fn restart(&mut self) {
        let Some(size) = self.size else {
            return self.error("no board size yet: send START first");
        };
        match self.new_game(size) {
            Ok(()) => self.ok(),
            Err(reason) => self.error(&reason),
        }
    }

    fn begin(&mut self, at: Instant) {
        let Some(game) = &self.game else {
            return self.error("no game: send START first");
        };
        if game.stones(Side::Black) + game.stones(Side::White) > 0 {
            return self.error("BEGIN needs an empty board: use TURN or BOARD");
        }
        self.think(at);
    }

    /// Plays the move `x,y` names on the brain's board, for either side; `None` (with
    /// an ERROR sent) when there is no game or the move is bad.
    fn play_point(&mut self, rest: &str) -> Option<(usize, usize)> {
        let Some(game) = self.game.as_mut() else {
            self.error("no game: send START first");
            return None;
        };
        let (x, y) = match parse_point(rest, game.size()) {
            Ok(point) => point,
            Err(reason) => {
                self.error(&reason);
                return None;
            }
        };
        if game.outcome().is_some() {
            let reason = game_over_reason(game);
            self.error(&reason);
            return None;
        }
        let mv = Move::new((y * game.size() + x) as u16);
        if !game.is_legal(mv) {
            self.error(&format!("{x},{y} is occupied"));
            return None;
        }
        let undo = game.make(mv);
        self.history.push((mv, undo));
        Some((x, y))
    }

    /// `TURN x,y`: the opponent's move, then the brain's answer.
    fn turn(&mut self, rest: &str, at: Instant) {
        if self.play_point(rest).is_some() {
            self.think(at);
        }
    }

    /// `PLAY x,y`: the manager imposes the brain's own move (the answer to `SUGGEST`).
    fn play(&mut self, rest: &str) {
        if let Some((x, y)) = self.play_point(rest) {
            self.out.line(&format!("{x},{y}"));
        }
    }

    fn takeback(&mut self, rest: &str) {
        let Some(game) = self.game.as_mut() else {
            return self.error("no game: send START first");
        };
        let size = game.size();
        let (x, y) = match parse_point(rest, size) {
            Ok(point) => point,
            Err(reason) => return self.error(&reason),
        };
        let field = y * size + x;
        match self.history.last() {
            Some(&(mv, undo)) if mv.square() == field => {
                game.unmake(mv, undo);
                self.history.pop();
            }
            Some(&(mv, _)) => {
                let last = point_name(game, mv);
                return self.error(&format!("TAKEBACK {x},{y}: the last move was {last}"));
            }
            None => {
                // A position from BOARD (or nothing): its order is unknown, so any stone
                // may go; its owner is to move again.
                let owner = match game.cell(field) {
                    1 => Side::Black,
                    2 => Side::White,
                    _ => return self.error(&format!("TAKEBACK {x},{y}: no stone there")),
                };
                let mut cells = game.to_board_string().into_bytes();
                cells[field] = b'-';
                let cells = String::from_utf8(cells).unwrap_or_default();
                let mut replaced = game.clone();
                if let Err(e) = replaced.set_board(&cells, owner) {
                    return self.error(&e.to_string());
                }
                *game = replaced;
            }
        }
        self.ok();
    }

    fn board_line(&mut self, text: &str) {
        let Some(size) = self.game.as_ref().map(Game::size) else {
            // Read to DONE all the same; the error comes then.
            return;
        };
        let Some(board) = self.board.as_mut() else {
            return;
        };
        if board.error.is_some() {
            return;
        }
        let parsed = text
            .rsplit_once(',')
            .ok_or_else(|| format!("bad BOARD line '{}': expected x,y,field", echo(text)))
            .and_then(|(point, field)| {
                let (x, y) = parse_point(point, size)?;
                match field.trim() {
                    "1" => Ok((x, y, 1)),
                    "2" => Ok((x, y, 2)),
                    "3" => Err(format!(
                        "BOARD {x},{y},3: field 3 (continuous game or renju marks) is not supported"
                    )),
                    other => Err(format!(
                        "bad BOARD field '{}' at {x},{y}: expected 1 (own) or 2 (opponent)",
                        echo(other)
                    )),
                }
            })
            .and_then(|(x, y, field)| {
                if board.stones.iter().any(|&(a, b, _)| (a, b) == (x, y)) {
                    Err(format!("BOARD gives {x},{y} twice"))
                } else {
                    Ok((x, y, field))
                }
            });
        match parsed {
            Ok(stone) => board.stones.push(stone),
            Err(reason) => board.error = Some(reason),
        }
    }

    /// A `BOARD` block cut short by another command.
    fn abort_board(&mut self) {
        if self.board.take().is_some() {
            self.error("BOARD ended without DONE; the position is unchanged");
        }
    }

    fn finish_board(&mut self) {
        let Some(board) = self.board.take() else {
            return;
        };
        let Some(game) = &self.game else {
            return self.error("no game: send START first");
        };
        if let Some(reason) = board.error {
            return self.error(&reason);
        }
        let own = board.stones.iter().filter(|s| s.2 == 1).count();
        let side = brain_side(own, board.stones.len() - own);
        let size = game.size();
        let mut cells = vec![b'-'; size * size];
        for &(x, y, field) in &board.stones {
            let black = (field == 1) == (side == Side::Black);
            cells[y * size + x] = if black { b'X' } else { b'O' };
        }
        let cells = String::from_utf8(cells).unwrap_or_default();
        let mut position = game.clone();
        if let Err(e) = position.set_board(&cells, side) {
            return self.error(&e.to_string());
        }
        self.game = Some(position);
        self.history.clear();
        self.think(board.started);
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = split_word(rest);
        let key = key.to_ascii_lowercase();
        let number = || value.trim().parse::<i64>().ok();
        let bad = |this: &Brain| {
            this.error(&format!(
                "INFO {key}: expected a number, not '{}'",
                echo(value)
            ))
        };
        match key.as_str() {
            "timeout_turn" => match number() {
                Some(ms) => self.clock.timeout_turn = Some(ms.max(0) as u64),
                None => bad(self),
            },
            "timeout_match" => match number() {
                Some(ms) => self.clock.timeout_match = Some(ms.max(0) as u64),
                None => bad(self),
            },
            "time_left" => match number() {
                Some(ms) => self.clock.time_left = Some(ms),
                None => bad(self),
            },
            "max_memory" => match number() {
                Some(bytes) => {
                    self.max_memory = bytes.max(0) as u64;
                    if self.job.is_none() {
                        self.ensure_player();
                    }
                }
                None => bad(self),
            },
            "max_depth" => match number() {
                Some(depth) => {
                    self.clock.max_depth = (depth > 0).then(|| depth.min(1000) as u32);
                }
                None => bad(self),
            },
            "max_node" => match number() {
                Some(nodes) => self.clock.max_nodes = (nodes > 0).then_some(nodes as u64),
                None => bad(self),
            },
            "rule" => match number() {
                Some(bits) => self.rule(bits),
                None => bad(self),
            },
            // game_type, evaluate, folder, thread_num and anything unknown.
            _ => {}
        }
    }

    /// `INFO rule`: 1 exact five, 2 continuous game (ignored), 4 renju, 8 caro.
    fn rule(&mut self, bits: i64) {
        if bits & 4 != 0 {
            return self.error("renju is not supported");
        }
        if bits & 8 != 0 {
            return self.error("caro is not supported");
        }
        self.exact = bits & 1 != 0;
        // A game not yet begun takes the rule at once (managers send it after START).
        if let Some(game) = &self.game
            && self.job.is_none()
            && self.board.is_none()
            && game.stones(Side::Black) + game.stones(Side::White) == 0
            && game.config().exact != self.exact
        {
            let size = game.size();
            let time_left = self.clock.time_left;
            if let Err(reason) = self.new_game(size) {
                self.error(&reason);
            }
            self.clock.time_left = time_left;
        }
    }

    /// Makes sure there is a player with a table of the size `max_memory` allows.
    fn ensure_player(&mut self) {
        let megabytes = table_megabytes(self.max_memory);
        if self.player.is_none() || self.table_mb != megabytes {
            log::info!("gomocup: transposition table {megabytes} MiB");
            self.player = Some(SearchPlayer::new(Arc::new(TranspositionTable::new(
                megabytes,
            ))));
            self.table_mb = megabytes;
        }
    }

    /// Starts the search for the brain's move; its answer comes as `Event::Done`.
    fn think(&mut self, started: Instant) {
        let Some(game) = &self.game else {
            return self.error("no game: send START first");
        };
        if game.outcome().is_some() {
            let reason = game_over_reason(game);
            return self.error(&reason);
        }
        let game = game.clone();
        self.ensure_player();
        let Some(mut player) = self.player.take() else {
            return self.error("internal error: no player");
        };
        if self.clock.timeout_match.is_some_and(|ms| ms > 0) && self.clock.time_left.is_none() {
            self.clock.time_left = self.clock.timeout_match.map(|ms| ms as i64);
        }
        let limits = self.clock.limits(started.elapsed());
        log::debug!("gomocup: thinking with {limits:?}");
        let stop = Arc::new(AtomicBool::new(false));
        self.job = Some(Job {
            stop: Arc::clone(&stop),
            deadline: self.clock.cap().map(|cap| started + cap),
            started,
        });
        let events = self.events.clone();
        let out = self.out.clone();
        thread::spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                player.choose(&game, &limits, &stop, &mut |line| {
                    out.line(&message(&game, &line))
                })
            }));
            let event = match result {
                Ok(mv) => Event::Done {
                    mv: Some(mv),
                    player: Some(player),
                },
                Err(_) => Event::Done {
                    mv: None,
                    player: None,
                },
            };
            let _ = events.send(event);
        });
    }

    /// Plays the search's move on the brain's board and sends it.
    fn finish_move(&mut self, mv: Option<Move>, player: Option<SearchPlayer<Gomoku>>) {
        let Some(job) = self.job.take() else { return };
        if player.is_some() {
            self.player = player;
        } else {
            log::error!("gomocup: the search failed; playing a fallback move");
        }
        let elapsed = job.started.elapsed();
        if let Some(left) = self.clock.time_left.as_mut()
            && *left < UNLIMITED_MS
        {
            *left -= elapsed.as_millis() as i64;
        }
        let Some(game) = self.game.as_mut() else {
            return self.error("no game");
        };
        let mv = match mv.filter(|&mv| game.is_legal(mv)) {
            Some(mv) => Some(mv),
            None => fallback_move(game),
        };
        let Some(mv) = mv else {
            return self.error("no legal move");
        };
        let undo = game.make(mv);
        self.history.push((mv, undo));
        let name = point_name(game, mv);
        log::debug!("gomocup: {name} after {} ms", elapsed.as_millis());
        self.out.line(&name);
    }
}

/// The first word and the rest, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<Vec<u8>>>);

    impl Write for Capture {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Runs a whole session to the end of input; the replies without `MESSAGE` lines.
    fn session(input: &str) -> Vec<String> {
        let capture = Capture::default();
        run(Cursor::new(input.to_string().into_bytes()), capture.clone());
        let bytes = capture.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .filter(|line| !line.starts_with("MESSAGE"))
            .map(str::to_string)
            .collect()
    }

    const FAST: &str = "INFO timeout_turn 100\n";

    /// A BOARD block: `own` stones as 1, `theirs` as 2.
    fn board(own: &[(usize, usize)], theirs: &[(usize, usize)]) -> String {
        let mut text = String::from("BOARD\n");
        for &(x, y) in own {
            text.push_str(&format!("{x},{y},1\n"));
        }
        for &(x, y) in theirs {
            text.push_str(&format!("{x},{y},2\n"));
        }
        text.push_str("DONE\n");
        text
    }

    #[test]
    fn margins_and_limits() {
        let ms = Duration::from_millis;
        assert_eq!(after_margin(ms(1000)), ms(950));
        assert_eq!(after_margin(ms(200)), ms(170));
        assert_eq!(after_margin(ms(10)), ms(1));
        let clock = Clock::default();
        assert_eq!(clock.cap(), Some(ms(4750)));
        assert_eq!(clock.limits(ms(0)).movetime, Some(ms(4750)));
        assert_eq!(clock.limits(ms(0)).time, None);
        let clock = Clock {
            timeout_turn: Some(200),
            timeout_match: Some(10_000),
            time_left: Some(2_000),
            ..Clock::default()
        };
        let limits = clock.limits(ms(20));
        assert_eq!(limits.movetime, Some(ms(150)));
        assert_eq!(limits.time, Some(ms(1900 - 20)));
        assert_eq!(clock.cap(), Some(ms(170)));
        // A match without a limit ignores time_left; a negative one leaves a minimum.
        let unlimited = Clock {
            timeout_match: Some(0),
            time_left: Some(5),
            ..Clock::default()
        };
        assert_eq!(unlimited.limits(ms(0)).time, None);
        let late = Clock {
            time_left: Some(-300),
            ..Clock::default()
        };
        assert_eq!(late.limits(ms(0)).time, Some(MIN_THINK));
        assert_eq!(late.cap(), Some(MIN_THINK));
        let fast = Clock {
            timeout_turn: Some(0),
            ..Clock::default()
        };
        assert_eq!(fast.limits(ms(0)).depth, Some(FAST_DEPTH));
        assert_eq!(fast.limits(ms(0)).movetime, None);
        assert_eq!(fast.cap(), None);
    }

    #[test]
    fn table_sizes_follow_max_memory() {
        assert_eq!(table_megabytes(0), DEFAULT_HASH_MB);
        assert_eq!(table_megabytes(350 << 20), DEFAULT_HASH_MB);
        assert_eq!(table_megabytes(30 << 20), 10);
        assert_eq!(table_megabytes(1000), 1);
    }

    #[test]
    fn colours_from_stone_counts() {
        assert_eq!(brain_side(0, 0), Side::Black);
        assert_eq!(brain_side(3, 3), Side::Black);
        assert_eq!(brain_side(2, 3), Side::White);
        assert_eq!(brain_side(4, 3), Side::Black);
        assert_eq!(brain_side(1, 4), Side::White);
    }

    #[test]
    fn points_parse_strictly() {
        assert_eq!(parse_point("3,4", 15), Ok((3, 4)));
        assert_eq!(parse_point(" 3 , 4 ", 15), Ok((3, 4)));
        for bad in [
            "", "3", "3,", ",4", "a,b", "-1,2", "+1,2", "15,0", "0,15", "1,2,3",
        ] {
            assert!(parse_point(bad, 15).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn pv_moves_become_coordinates() {
        let game = Gomoku::new(Config::gomoku(15, false, Opening::Free)).unwrap();
        assert_eq!(
            message(&game, "info depth 2 score win 3 nodes 10 pv h8 a1"),
            "MESSAGE depth 2 score win 3 nodes 10 pv 7,7 0,0"
        );
    }

    #[test]
    fn exact_five_ignores_an_overline() {
        // Own stones 1,5 and 3..6,5: 2,5 makes six, 7,5 makes exactly five.
        let own = [(1, 5), (3, 5), (4, 5), (5, 5), (6, 5)];
        let theirs = [(0, 12), (3, 12), (6, 12), (9, 12), (12, 12)];
        let exact = session(&format!(
            "INFO rule 1\nSTART 15\n{FAST}{}",
            board(&own, &theirs)
        ));
        assert_eq!(exact, ["OK", "7,5"]);
        // Rule set after START, before any stone, applies to that game too.
        let late = session(&format!(
            "START 15\nINFO rule 1\n{FAST}{}",
            board(&own, &theirs)
        ));
        assert_eq!(late, ["OK", "7,5"]);
        let free = session(&format!("START 15\n{FAST}{}", board(&own, &theirs)));
        assert!(free[1] == "2,5" || free[1] == "7,5", "{free:?}");
    }

    #[test]
    fn an_opponent_overline_does_not_end_an_exact_game() {
        // White (the opponent) has 1,5 and 3..6,5, blocked at 7,5: 2,5 makes six.
        let own = [(7, 5), (0, 12), (4, 12), (8, 12), (12, 12)];
        let theirs = [(1, 5), (3, 5), (4, 5), (5, 5), (6, 5)];
        let free = session(&format!("START 15\n{FAST}{}", board(&own, &theirs)));
        assert_eq!(free, ["OK", "2,5"], "freestyle: six wins, so block it");
        let exact = session(&format!(
            "INFO rule 1\nSTART 15\n{FAST}{}TURN 2,5\n",
            board(&own, &theirs)
        ));
        assert_eq!(exact.len(), 3, "{exact:?}");
        assert_ne!(exact[1], "2,5", "exact five: six is no threat");
        assert!(
            parse_point(&exact[2], 15).is_ok(),
            "the game goes on: {exact:?}"
        );
    }

    #[test]
    fn renju_and_caro_are_refused_and_the_rule_stays() {
        let replies = session("INFO rule 4\nINFO rule 8\nINFO rule 2\nSTART 15\n");
        assert_eq!(
            replies,
            [
                "ERROR renju is not supported",
                "ERROR caro is not supported",
                "OK"
            ]
        );
    }

    /// Depth-limited thinking: the same input gives the same moves.
    const REPEATABLE: &str = "INFO timeout_turn 0\n";

    #[test]
    fn takeback_follows_history_and_board() {
        let opening = format!("START 15\n{REPEATABLE}TURN 7,7\n");
        let reply = session(&opening)[1].clone();
        let replies = session(&format!(
            "{opening}TAKEBACK 7,7\nTAKEBACK {reply}\nTAKEBACK {reply}\nTAKEBACK 7,7\nTURN 7,7\n"
        ));
        assert_eq!(replies.len(), 7, "{replies:?}");
        assert_eq!(
            replies[2],
            format!("ERROR TAKEBACK 7,7: the last move was {reply}")
        );
        assert_eq!(replies[3], "OK");
        assert!(replies[4].starts_with("ERROR TAKEBACK"), "{replies:?}");
        assert_eq!(replies[5], "OK");
        assert!(
            parse_point(&replies[6], 15).is_ok_and(|p| p != (7, 7)),
            "{replies:?}"
        );
        // After BOARD any stone may go (the order is unknown); the owner is to move.
        let opening = format!("START 15\n{REPEATABLE}{}", board(&[(5, 5)], &[(6, 6)]));
        let reply = session(&opening)[1].clone();
        let replies = session(&format!(
            "{opening}TAKEBACK {reply}\nTAKEBACK 5,5\nTAKEBACK 5,5\nTAKEBACK 6,6\nBEGIN\n"
        ));
        assert_eq!(replies.len(), 7, "{replies:?}");
        assert_eq!(replies[2..4], ["OK", "OK"]);
        assert_eq!(replies[4], "ERROR TAKEBACK 5,5: no stone there");
        assert_eq!(replies[5], "OK");
        assert!(parse_point(&replies[6], 15).is_ok(), "{replies:?}");
    }

    #[test]
    fn malformed_commands_leave_the_state_alone() {
        let replies = session(&format!(
            "TURN 7,7\nBOARD\n1,1,1\nDONE\nSTART 4\nSTART 100\nSTART x\nRESTART\nSTART 15\n\
             {FAST}TURN 15,0\nTURN 7\nBOARD\n1,1,1\n1,1,2\nDONE\nBOARD\n2,2,3\nDONE\n\
             BOARD\n3,3,1\nABOUT\nDONE\nINFO timeout_turn soon\nfoo bar\n"
        ));
        let expected_prefixes = [
            "ERROR no game",
            "ERROR no game",
            "ERROR unsupported size",
            "ERROR unsupported size",
            "ERROR START needs",
            "ERROR no board size",
            "OK",
            "ERROR 15,0 is off",
            "ERROR bad coordinates",
            "ERROR BOARD gives 1,1 twice",
            "ERROR BOARD 2,2,3",
            "ERROR BOARD ended without DONE",
            "name=\"arbor\"",
            "ERROR DONE without BOARD",
            "ERROR INFO timeout_turn",
            "UNKNOWN foo bar",
        ];
        assert_eq!(replies.len(), expected_prefixes.len(), "{replies:?}");
        for (reply, prefix) in replies.iter().zip(expected_prefixes) {
            assert!(reply.starts_with(prefix), "{reply:?} for {prefix:?}");
        }
    }

    #[test]
    fn full_or_won_boards_get_an_error() {
        // Five own stones in a row: the game is over before the brain moves.
        let replies = session(&format!(
            "START 15\n{FAST}{}",
            board(
                &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
                &[(0, 5), (1, 5), (2, 5), (3, 5), (9, 9)]
            )
        ));
        assert_eq!(replies[0], "OK");
        assert!(replies[1].starts_with("ERROR game over"), "{replies:?}");
        // A full 5x5 board without five in a row.
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                // Colour pairs of columns, shifted by row: no five anywhere.
                if ((x + 2 * y) / 2) % 2 == 0 {
                    own.push((x, y));
                } else {
                    theirs.push((x, y));
                }
            }
        }
        let replies = session(&format!("START 5\n{FAST}{}", board(&own, &theirs)));
        assert_eq!(replies[0], "OK");
        assert!(replies[1].starts_with("ERROR"), "{replies:?}");
    }
}
