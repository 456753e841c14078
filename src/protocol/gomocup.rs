//! The Gomocup (Piskvork) brain protocol as a front end of the engine core: `arbor gomocup`.
//!
//! A manager starts the brain, sends `START 20`, `INFO ...`, then `BEGIN`, `TURN x,y` or a
//! `BOARD ... DONE` block whenever the brain is to move, and reads one line back: the move
//! as `x,y` (0-based column,row), or `OK`, `ERROR <reason>`, `UNKNOWN <command>`. Progress
//! goes out as `MESSAGE` lines before the move. See protocol.md, "Gomocup protocol".
//!
//! `YXSTOP`, `END` and `INFO` act while the brain thinks; the rest waits its turn.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use crate::bounds::MAX_THREADS;
use crate::engine::events::{self, Arrival, Flow, Frontend};
use crate::engine::input::InputLine;
use crate::engine::output::Replies;
use crate::engine::{AnalysisOptions, DEFAULT_HASH_MB, Engine, Finished, Settings, swap2};
use crate::game::gomoku::{Config, MAX_SIZE, MIN_SIZE, Opening};
use crate::game::variant::Variant;
use crate::game::{Move, Outcome, Side};
use crate::players::PlayerKind;
use crate::search::limits::Limits;
use crate::search::report::{Report, report_fields, score_text};
use crate::text::quote;

/// Longest accepted input line; longer ones are answered with `UNKNOWN`.
const MAX_LINE_BYTES: usize = 1 << 16;
/// Thinking time per move when the manager sends no `INFO timeout_turn`.
const DEFAULT_TURN_MS: u64 = 5_000;
/// `INFO time_left` this large (or larger) means the match has no time limit.
const UNLIMITED_MS: i64 = i32::MAX as i64;
/// Kept back from every move by default: managers time the brain through pipes and
/// process scheduling, and some count their own latency against it.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(50);
/// Search depth for `INFO timeout_turn 0` ("play as fast as possible").
const FAST_DEPTH: u32 = 2;
/// The largest table `INFO max_memory` gets, MiB.
const MAX_TABLE_MB: usize = 1024;

/// Runs the brain until `END` or the end of input (a move being thought about at the end
/// of input is still played). Protocol lines go to `output`, one per reply, flushed.
/// `overhead` is kept back from every move once; the search uses `threads` threads until
/// `INFO thread_num` says otherwise.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    overhead: Duration,
    threads: usize,
) -> io::Result<()> {
    run_with(input, output, PlayerKind::Search, overhead, threads)
}

fn run_with(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    player: PlayerKind,
    overhead: Duration,
    threads: usize,
) -> io::Result<()> {
    let mut brain = Brain::new(Replies::new(output));
    let settings = Settings {
        variant: Variant::KInRow(Config::gomoku(15, false, Opening::Free)),
        player,
        move_overhead: overhead,
        threads,
        ..Settings::default()
    };
    match Engine::new(&settings) {
        Ok((mut engine, receiver)) => {
            events::run(input, MAX_LINE_BYTES, &mut engine, receiver, &mut brain)
        }
        Err(error) => {
            brain.error(&error.to_string());
            brain.out.take_error().map_or(Ok(()), Err)
        }
    }
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

impl Clock {
    /// What is left of the match clock; `None` without a match limit.
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
        Some(Duration::from_millis(left))
    }

    /// The raw clock for a move: the turn limit as a move time, the match clock as the
    /// time left; the core's time manager keeps the overhead back once.
    fn limits(&self) -> Limits {
        let fast = self.timeout_turn == Some(0);
        let turn =
            (!fast).then(|| Duration::from_millis(self.timeout_turn.unwrap_or(DEFAULT_TURN_MS)));
        let depth = match (self.max_depth, fast) {
            (Some(depth), true) => Some(depth.min(FAST_DEPTH)),
            (None, true) => Some(FAST_DEPTH),
            (depth, false) => depth,
        };
        Limits {
            time: self.match_clock(),
            movetime: turn,
            depth,
            nodes: self.max_nodes,
            ..Limits::default()
        }
    }
}

/// The table size for `INFO max_memory` (bytes, 0 = no limit): half of the memory, at
/// least 1 MiB, at most [`MAX_TABLE_MB`]; the default without a limit.
fn table_megabytes(max_memory: u64) -> usize {
    if max_memory == 0 {
        return DEFAULT_HASH_MB;
    }
    ((max_memory / 2) >> 20).clamp(1, MAX_TABLE_MB as u64) as usize
}

/// The search threads for `INFO thread_num`: managers send it whatever the brain, so a
/// count out of range is clamped, not refused (0 or less: one thread).
fn thread_count(thread_num: i64) -> usize {
    thread_num.clamp(1, MAX_THREADS as i64) as usize
}

/// Most lines `YXNBEST` gives.
const MAX_NBEST: usize = 64;
/// What an analysis the brain started is for: the brain's move (with `YXNBEST`, `lines`
/// of them ranked first). Swap2's decisions are the core's jobs (`engine::swap2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    Move { lines: usize },
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
    let bad = || format!("bad coordinates {}: expected x,y", quote(text));
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

/// Any whole number, however large or negative: sizes out of range are "unsupported",
/// not "not a number".
fn is_integer(text: &str) -> bool {
    let text = text.trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A non-negative decimal number of a few digits.
fn parse_index(text: &str) -> Option<usize> {
    let text = text.trim();
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The Gomocup name of a move: `x,y`.
fn point_name(engine: &Engine, mv: Move) -> String {
    let size = engine.size();
    let field = engine.field_index(mv).unwrap_or(0);
    format!("{},{}", field % size, field / size)
}

/// A report as `MESSAGE` lines, moves as `x,y`: the same fields as native `info` lines.
fn messages(engine: &Engine, report: &Report) -> Vec<String> {
    report_fields(report, |line| {
        line.iter()
            .take(engine.line_names(line).len())
            .map(|&mv| point_name(engine, mv))
            .collect()
    })
    .into_iter()
    .map(|fields| format!("MESSAGE {fields}"))
    .collect()
}

/// Why a finished game cannot take another move.
fn game_over_reason(outcome: Outcome) -> String {
    match outcome.winner {
        Some(Side::Black) => "game over: black (the first player) has won".to_string(),
        Some(Side::White) => "game over: white (the second player) has won".to_string(),
        None => "game over: the board is full".to_string(),
    }
}

/// Which block is being read up to its `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    /// `BOARD`: the position, then the brain's move.
    Board,
    /// `YXBOARD`: the position only.
    YxBoard,
    /// `SWAP2BOARD`: 0, 3 or 5 stones in playing order, then the brain's Swap2 choice.
    Swap2,
    /// `YXBLOCK` / `YXBLOCKUNDO`: points the search must not choose, added or taken off.
    Blocked { remove: bool },
}

impl Block {
    fn name(self) -> &'static str {
        match self {
            Block::Board => "BOARD",
            Block::YxBoard => "YXBOARD",
            Block::Swap2 => "SWAP2BOARD",
            Block::Blocked { remove: false } => "YXBLOCK",
            Block::Blocked { remove: true } => "YXBLOCKUNDO",
        }
    }

    /// Whether lines may be bare `x,y` (no field): Swap2 stones and blocked points.
    fn bare_points(self) -> bool {
        matches!(self, Block::Swap2 | Block::Blocked { .. })
    }
}

/// A block being read up to its `DONE`: the stones or points so far, the first problem,
/// when it started; answered once, at its `DONE`.
struct BoardInput {
    kind: Block,
    stones: Vec<(usize, usize, u8)>,
    error: Option<String>,
    started: Instant,
}

impl BoardInput {
    fn new(started: Instant, kind: Block) -> BoardInput {
        BoardInput {
            kind,
            stones: Vec::new(),
            error: None,
            started,
        }
    }

    /// Keeps the block's first problem: it is the one reported at `DONE`.
    fn fail(&mut self, reason: String) {
        self.error.get_or_insert(reason);
    }
}

struct Brain {
    out: Replies,
    /// Whether a `START` has set up a game.
    started: bool,
    /// The rule for the next game (`INFO rule`): `freestyle`, `exact` or `renju`.
    rule: &'static str,
    /// Points the search must not choose (`YXBLOCK`), as fields.
    blocked: Vec<usize>,
    /// What the analysis running now is for (the brain's move, `YXNBEST`, Swap2).
    pending: Option<Pending>,
    clock: Clock,
    /// A table size `INFO max_memory` asked for while the brain was thinking.
    pending_memory: Option<usize>,
    /// A thread count `INFO thread_num` asked for while the brain was thinking.
    pending_threads: Option<usize>,
    /// When the move being thought about was asked for.
    thinking_since: Option<Instant>,
    board: Option<BoardInput>,
}

impl Brain {
    fn new(out: Replies) -> Brain {
        Brain {
            out,
            started: false,
            rule: "freestyle",
            blocked: Vec::new(),
            pending: None,
            clock: Clock::default(),
            pending_memory: None,
            pending_threads: None,
            thinking_since: None,
            board: None,
        }
    }

    /// Writes one line; control characters become `?` so a line stays one line.
    fn line(&mut self, text: &str) {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        self.out.line(&clean);
    }

    fn ok(&mut self) {
        self.line("OK");
    }

    fn error(&mut self, reason: &str) {
        self.line(&format!("ERROR {reason}"));
    }

    /// `END`: nothing more is written, not even a report from a search winding down.
    fn close(&mut self) {
        self.out.close();
    }

    fn command(&mut self, engine: &mut Engine, text: &str, at: Instant) -> Flow {
        let text = text.trim();
        if text.is_empty() {
            return Flow::Continue;
        }
        let (word, rest) = split_word(text);
        let command = word.to_ascii_uppercase();
        // Inside a block every line up to DONE belongs to it (END and INFO still act):
        // a malformed block gets one reply, at its DONE.
        if self.board.is_some() {
            match command.as_str() {
                "DONE" => self.finish_board(engine),
                "END" => return Flow::Exit,
                "INFO" => self.info(engine, rest),
                _ => self.board_line(engine, text),
            }
            return Flow::Continue;
        }
        match command.as_str() {
            "START" => self.start(engine, rest),
            "RECTSTART" => self.rectstart(engine, rest),
            "RESTART" => self.restart(engine),
            "BEGIN" => self.begin(engine, at),
            "TURN" => self.turn(engine, rest, at),
            "BOARD" => self.board = Some(BoardInput::new(at, Block::Board)),
            "YXBOARD" => self.board = Some(BoardInput::new(at, Block::YxBoard)),
            "SWAP2BOARD" => self.board = Some(BoardInput::new(at, Block::Swap2)),
            "YXBLOCK" => self.board = Some(BoardInput::new(at, Block::Blocked { remove: false })),
            "YXBLOCKUNDO" => {
                self.board = Some(BoardInput::new(at, Block::Blocked { remove: true }))
            }
            "YXBLOCKRESET" => self.blocked.clear(),
            "YXSHOWFORBID" => self.show_forbid(engine),
            "YXNBEST" => self.nbest(engine, rest, at),
            "YXHASHCLEAR" => match engine.clear_hash() {
                Ok(()) => self.line("MESSAGE hash table cleared"),
                Err(reason) => self.error(&reason.to_string()),
            },
            "INFO" => self.info(engine, rest),
            "END" => return Flow::Exit,
            "ABOUT" => self.line(&format!(
                "name=\"arbor\", version=\"{}\", author=\"arbor developers\", country=\"unknown\"",
                env!("CARGO_PKG_VERSION")
            )),
            "TAKEBACK" => self.takeback(engine, rest),
            "PLAY" => self.play(engine, rest),
            // Nothing to stop: the answer has gone already.
            "YXSTOP" => {}
            "DONE" => self.error("DONE without BOARD"),
            _ => self.line(&format!("UNKNOWN {}", quote(text))),
        }
        Flow::Continue
    }

    fn new_game(&mut self, engine: &mut Engine, size: usize) -> Result<(), String> {
        let variant = Variant::parse(
            "gomoku",
            [
                ("size", size.to_string().as_str()),
                ("rule", self.rule),
                ("opening", "free"),
            ],
        )
        .map_err(|e| e.to_string())?;
        self.apply_pending(engine);
        engine.new_game(Some(variant))?;
        self.started = true;
        self.blocked.clear();
        // A new match: the manager sends time_left again before the first move.
        self.clock.time_left = None;
        Ok(())
    }

    fn start(&mut self, engine: &mut Engine, rest: &str) {
        match parse_index(rest) {
            Some(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => {
                match self.new_game(engine, size) {
                    Ok(()) => self.ok(),
                    Err(reason) => self.error(&reason),
                }
            }
            Some(_) => self.error("unsupported size"),
            None if is_integer(rest) => self.error("unsupported size"),
            None => self.error(&format!("START needs a board size, not {}", quote(rest))),
        }
    }

    fn rectstart(&mut self, engine: &mut Engine, rest: &str) {
        let Some((width, height)) = rest
            .split_once(',')
            .and_then(|(w, h)| Some((parse_index(w)?, parse_index(h)?)))
        else {
            if rest
                .split_once(',')
                .is_some_and(|(w, h)| is_integer(w) && is_integer(h))
            {
                return self.error("unsupported size");
            }
            return self.error(&format!(
                "RECTSTART needs width,height, not {}",
                quote(rest)
            ));
        };
        if width != height {
            return self.error("unsupported size: rectangular boards are not supported");
        }
        self.start(engine, &width.to_string());
    }

    fn restart(&mut self, engine: &mut Engine) {
        if !self.started {
            return self.error("no board size yet: send START first");
        }
        let size = engine.size();
        match self.new_game(engine, size) {
            Ok(()) => self.ok(),
            Err(reason) => self.error(&reason),
        }
    }

    fn stones(engine: &Engine) -> usize {
        engine.cells().bytes().filter(|&c| c != b'-').count()
    }

    fn begin(&mut self, engine: &mut Engine, at: Instant) {
        if !self.started {
            return self.error("no game: send START first");
        }
        if Brain::stones(engine) > 0 {
            return self.error("BEGIN needs an empty board: use TURN or BOARD");
        }
        self.think(engine, at);
    }

    /// Plays the move `x,y` names on the brain's board, for either side; `None` (with
    /// an ERROR sent) when there is no game or the move is bad.
    fn play_point(&mut self, engine: &mut Engine, rest: &str) -> Option<(usize, usize)> {
        if !self.started {
            self.error("no game: send START first");
            return None;
        }
        let (x, y) = match parse_point(rest, engine.size()) {
            Ok(point) => point,
            Err(reason) => {
                self.error(&reason);
                return None;
            }
        };
        if let Some(outcome) = engine.outcome() {
            self.error(&game_over_reason(outcome));
            return None;
        }
        let field = y * engine.size() + x;
        if let Err(reason) = engine.play(&format!("{x},{y}")) {
            // Reworded in the protocol's coordinates; only a refused move pays for the check.
            let occupied = engine.cells().as_bytes()[field] != b'-';
            let forbidden = !occupied
                && engine.side_to_move() == Side::Black
                && engine.forbidden_fields().contains(&field);
            self.error(&if occupied {
                format!("{x},{y} is occupied")
            } else if forbidden {
                format!(
                    "{x},{y} is a forbidden point for black under renju (overline, double four or double three)"
                )
            } else {
                reason.to_string()
            });
            return None;
        }
        Some((x, y))
    }

    /// `TURN x,y`: the opponent's move, then the brain's answer.
    fn turn(&mut self, engine: &mut Engine, rest: &str, at: Instant) {
        if self.play_point(engine, rest).is_some() {
            self.think(engine, at);
        }
    }

    /// `PLAY x,y`: the manager imposes the brain's own move (the answer to `SUGGEST`).
    fn play(&mut self, engine: &mut Engine, rest: &str) {
        if let Some((x, y)) = self.play_point(engine, rest) {
            self.line(&format!("{x},{y}"));
        }
    }

    fn takeback(&mut self, engine: &mut Engine, rest: &str) {
        if !self.started {
            return self.error("no game: send START first");
        }
        let size = engine.size();
        let (x, y) = match parse_point(rest, size) {
            Ok(point) => point,
            Err(reason) => return self.error(&reason),
        };
        let field = y * size + x;
        match engine.history().last() {
            Some(&mv) if engine.field_index(mv) == Some(field) => {
                if let Err(reason) = engine.undo() {
                    return self.error(&reason.to_string());
                }
            }
            Some(&mv) => {
                let last = point_name(engine, mv);
                return self.error(&format!("TAKEBACK {x},{y}: the last move was {last}"));
            }
            None => {
                // A position from BOARD (or nothing): its order is unknown, so any stone
                // may go; its owner is to move again.
                let mut cells = engine.cells().into_bytes();
                let owner = match cells[field] {
                    b'X' => Side::Black,
                    b'O' => Side::White,
                    _ => return self.error(&format!("TAKEBACK {x},{y}: no stone there")),
                };
                cells[field] = b'-';
                let cells = String::from_utf8(cells).unwrap_or_default();
                if let Err(reason) = engine.set_board(&cells, owner) {
                    return self.error(&reason.to_string());
                }
            }
        }
        self.ok();
    }

    fn board_line(&mut self, engine: &Engine, text: &str) {
        if !self.started {
            // Read to DONE all the same; the error comes then.
            return;
        }
        let size = engine.size();
        let Some(board) = self.board.as_mut() else {
            return;
        };
        if board.error.is_some() {
            return;
        }
        let name = board.kind.name();
        let bare = board.kind.bare_points() && text.matches(',').count() == 1;
        let parsed = if bare {
            // In playing order: the field says nothing more.
            parse_point(text, size).map(|(x, y)| (x, y, 0))
        } else {
            text.rsplit_once(',')
                .ok_or_else(|| format!("bad {name} line {}: expected x,y,field", quote(text)))
                .and_then(|(point, field)| {
                    let (x, y) = parse_point(point, size)?;
                    match field.trim() {
                        "1" => Ok((x, y, 1)),
                        "2" => Ok((x, y, 2)),
                        "3" => Err(format!(
                            "{name} {x},{y},3: field 3 (continuous game or renju marks) is not supported"
                        )),
                        other => Err(format!(
                            "bad {name} field {} at {x},{y}: expected 1 (own) or 2 (opponent)",
                            quote(other)
                        )),
                    }
                })
        };
        let parsed = parsed.and_then(|(x, y, field)| {
            if board.stones.iter().any(|&(a, b, _)| (a, b) == (x, y)) {
                Err(format!("{name} gives {x},{y} twice"))
            } else {
                Ok((x, y, field))
            }
        });
        match parsed {
            Ok(stone) => board.stones.push(stone),
            Err(reason) => board.fail(reason),
        }
    }

    /// A line in a block that is not text.
    fn bad_board_line(&mut self, problem: String) {
        if let Some(board) = self.board.as_mut() {
            board.fail(problem);
        }
    }

    fn finish_board(&mut self, engine: &mut Engine) {
        let Some(board) = self.board.take() else {
            return;
        };
        if !self.started {
            return self.error("no game: send START first");
        }
        if let Some(reason) = board.error {
            return self.error(&reason);
        }
        let size = engine.size();
        if let Block::Blocked { remove } = board.kind {
            for &(x, y, _) in &board.stones {
                let field = y * size + x;
                self.blocked.retain(|&f| f != field);
                if !remove {
                    self.blocked.push(field);
                }
            }
            return;
        }
        if board.kind == Block::Swap2 {
            // Swap2 stones come in playing order: black, white, black, ...
            if swap2::Stage::of(board.stones.len()).is_none() {
                return self.error(&format!(
                    "SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                    board.stones.len()
                ));
            }
            let stones: Vec<String> = board
                .stones
                .iter()
                .map(|&(x, y, _)| format!("{x},{y}"))
                .collect();
            if let Err(reason) = engine.swap2_board(&stones) {
                return self.error(&format!("SWAP2BOARD: {reason}"));
            }
            return self.swap2(engine, board.started);
        }
        let mut cells = vec![b'-'; size * size];
        let own = board.stones.iter().filter(|s| s.2 == 1).count();
        let side = brain_side(own, board.stones.len() - own);
        for &(x, y, field) in &board.stones {
            let black = (field == 1) == (side == Side::Black);
            cells[y * size + x] = if black { b'X' } else { b'O' };
        }
        let cells = String::from_utf8(cells).unwrap_or_default();
        if let Err(reason) = engine.set_board(&cells, side) {
            return self.error(&reason.to_string());
        }
        match board.kind {
            Block::YxBoard => {}
            _ => self.think(engine, board.started),
        }
    }

    /// `YXSHOWFORBID`: Black's forbidden points when Black is to move (renju), as
    /// `FORBID xxyy...` then `.`.
    fn show_forbid(&mut self, engine: &Engine) {
        let mut text = String::from("FORBID ");
        if self.started && engine.side_to_move() == Side::Black && engine.outcome().is_none() {
            let size = engine.size();
            for field in engine.forbidden_fields() {
                text.push_str(&format!("{:02}{:02}", field % size, field / size));
            }
        }
        text.push('.');
        self.line(&text);
    }

    /// `YXNBEST N`: the N best moves as `MESSAGE` lines, then the best one, played.
    fn nbest(&mut self, engine: &mut Engine, rest: &str, at: Instant) {
        if !self.started {
            return self.error("no game: send START first");
        }
        match parse_index(rest) {
            Some(count) if (1..=MAX_NBEST).contains(&count) => {
                self.analyse(engine, Pending::Move { lines: count }, at)
            }
            _ => self.error(&format!(
                "YXNBEST needs a number of moves from 1 to {MAX_NBEST}, not {}",
                quote(rest)
            )),
        }
    }

    /// `SWAP2BOARD`, its stones set up: the core's Swap2 decision under the clock of a
    /// move, over the candidates the block list leaves; its answer comes in `finished`.
    fn swap2(&mut self, engine: &mut Engine, at: Instant) {
        let moves = match self.unblocked_moves(engine) {
            Ok(moves) => moves,
            Err(reason) => return self.error(&reason),
        };
        match engine.swap2(&self.clock.limits(), moves, at) {
            Ok(()) => self.thinking_since = Some(at),
            Err(reason) => self.error(&reason.to_string()),
        }
    }

    /// Starts an analysis for `pending` under the clock, over the candidates the block
    /// list leaves; its answer comes in `finished`.
    fn analyse(&mut self, engine: &mut Engine, pending: Pending, at: Instant) {
        if let Some(outcome) = engine.outcome() {
            return self.error(&game_over_reason(outcome));
        }
        let moves = match self.unblocked_moves(engine) {
            Ok(moves) => moves,
            Err(reason) => return self.error(&reason),
        };
        let limits = self.clock.limits();
        let mut time = limits.movetime;
        if let Some(clock) = limits.time {
            // A share of the match clock, as the time manager would give a move.
            let share = clock / 20;
            time = Some(time.map_or(share, |turn| turn.min(share)));
        }
        let time = time.map(|t| {
            t.saturating_sub(DEFAULT_MOVE_OVERHEAD)
                .max(Duration::from_millis(10))
        });
        let Pending::Move { lines } = pending;
        let options = AnalysisOptions {
            lines: Some(lines),
            moves,
            time: if limits.depth.is_some() || limits.nodes.is_some() {
                None
            } else {
                time
            },
            depth: limits.depth,
            nodes: limits.nodes,
            interval: None,
        };
        match engine.analyze(&options, at) {
            Ok(()) => {
                self.pending = Some(pending);
                self.thinking_since = Some(at);
            }
            Err(reason) => self.error(&reason.to_string()),
        }
    }

    /// The moves an analysis may choose among: empty (the search's own candidates)
    /// without blocks; with them, the legal points within two of a stone that are not
    /// blocked (any unblocked legal point if none is).
    fn unblocked_moves(&self, engine: &Engine) -> Result<Vec<String>, String> {
        if self.blocked.is_empty() {
            return Ok(Vec::new());
        }
        let size = engine.size();
        let cells = engine.cells().into_bytes();
        let near = |field: usize| {
            let (x, y) = ((field % size) as isize, (field / size) as isize);
            (-2..=2isize).any(|dy| {
                (-2..=2isize).any(|dx| {
                    let (a, b) = (x + dx, y + dy);
                    a >= 0
                        && b >= 0
                        && (a as usize) < size
                        && (b as usize) < size
                        && cells[b as usize * size + a as usize] != b'-'
                })
            })
        };
        let legal: Vec<usize> = engine
            .legal_moves()
            .into_iter()
            .filter_map(|mv| engine.field_index(mv))
            .filter(|field| !self.blocked.contains(field))
            .collect();
        if legal.is_empty() {
            return Err("every legal move is blocked (YXBLOCK)".to_string());
        }
        let close: Vec<usize> = legal.iter().copied().filter(|&f| near(f)).collect();
        let chosen = if close.is_empty() { legal } else { close };
        Ok(chosen
            .into_iter()
            .map(|field| format!("{},{}", field % size, field / size))
            .collect())
    }

    /// An analysis has ended: the brain's move (with `YXNBEST`'s lines).
    fn analysed(&mut self, engine: &mut Engine, pending: Pending, report: &Report) {
        let ranked = swap2::ranked(report);
        let Some(best) = ranked.first() else {
            return self.error("internal error: the analysis gave no move");
        };
        let Pending::Move { lines } = pending;
        if lines > 1 {
            for (rank, line) in ranked.iter().take(lines).enumerate() {
                let names: Vec<String> = line
                    .pv
                    .iter()
                    .take(engine.line_names(line.pv).len())
                    .map(|&m| point_name(engine, m))
                    .collect();
                self.line(&format!(
                    "MESSAGE nbest {} {} score {} pv {}",
                    rank + 1,
                    point_name(engine, line.mv),
                    score_text(report.lines[rank].score),
                    names.join(" ")
                ));
            }
        }
        self.play_answer(engine, &[best.mv]);
    }

    /// Plays `moves` on the brain's board and answers them as `x,y x,y`.
    fn play_answer(&mut self, engine: &mut Engine, moves: &[Move]) {
        let mut names = Vec::new();
        for &mv in moves {
            let name = point_name(engine, mv);
            if let Err(reason) = engine.play_move(mv) {
                return self.error(&format!("internal error: {reason}"));
            }
            names.push(name);
        }
        self.line(&names.join(" "));
    }

    fn info(&mut self, engine: &mut Engine, rest: &str) {
        let (key, value) = split_word(rest);
        let key = key.to_ascii_lowercase();
        let Ok(number) = value.trim().parse::<i64>() else {
            if matches!(
                key.as_str(),
                "timeout_turn"
                    | "timeout_match"
                    | "time_left"
                    | "max_memory"
                    | "thread_num"
                    | "max_depth"
                    | "max_node"
                    | "rule"
                    | "caution_factor"
            ) {
                self.error(&format!(
                    "INFO {key}: expected a number, not {}",
                    quote(value)
                ));
            }
            // game_type, evaluate, folder and anything unknown.
            return;
        };
        match key.as_str() {
            "timeout_turn" => self.clock.timeout_turn = Some(number.max(0) as u64),
            "timeout_match" => self.clock.timeout_match = Some(number.max(0) as u64),
            "time_left" => self.clock.time_left = Some(number),
            "max_memory" => {
                self.pending_memory = Some(table_megabytes(number.max(0) as u64));
                if !engine.is_busy() {
                    self.apply_pending(engine);
                }
            }
            "thread_num" => {
                self.pending_threads = Some(thread_count(number));
                if !engine.is_busy() {
                    self.apply_pending(engine);
                }
            }
            "max_depth" => self.clock.max_depth = (number > 0).then(|| number.min(1000) as u32),
            "max_node" => self.clock.max_nodes = (number > 0).then_some(number as u64),
            "rule" => self.rule(engine, number),
            // Rapfi's candidate range; arbor's candidates are fixed (points within two of
            // a stone, and the threat points): accepted, nothing changes.
            "caution_factor" => {}
            _ => {}
        }
    }

    /// Applies what `INFO max_memory` and `INFO thread_num` asked for (while thinking,
    /// they wait for the move). `INFO` has no reply: a size that cannot be had leaves the
    /// tables as they are.
    fn apply_pending(&mut self, engine: &mut Engine) {
        if let Some(megabytes) = self.pending_memory.take()
            && let Err(reason) = engine.set_hash(megabytes)
        {
            log::warn!("gomocup: INFO max_memory: {reason}");
        }
        if let Some(threads) = self.pending_threads.take()
            && let Err(reason) = engine.set_threads(threads)
        {
            log::warn!("gomocup: INFO thread_num: {reason}");
        }
    }

    /// `INFO rule`: 1 exact five, 2 continuous game (ignored), 4 renju, 8 caro.
    fn rule(&mut self, engine: &mut Engine, bits: i64) {
        if bits & 8 != 0 {
            return self.error("caro is not supported");
        }
        self.rule = if bits & 4 != 0 {
            "renju"
        } else if bits & 1 != 0 {
            "exact"
        } else {
            "freestyle"
        };
        // A game not yet begun takes the rule at once (managers send it after START).
        let current = match engine.variant() {
            Variant::KInRow(config) => config.rule_name(),
            _ => "",
        };
        if self.started
            && !engine.is_busy()
            && self.board.is_none()
            && Brain::stones(engine) == 0
            && current != self.rule
        {
            let size = engine.size();
            let time_left = self.clock.time_left;
            if let Err(reason) = self.new_game(engine, size) {
                self.error(&reason);
            }
            self.clock.time_left = time_left;
        }
    }

    /// Starts the search for the brain's move; its answer comes in `finished`.
    fn think(&mut self, engine: &mut Engine, started: Instant) {
        if let Some(outcome) = engine.outcome() {
            return self.error(&game_over_reason(outcome));
        }
        if self.clock.timeout_match.is_some_and(|ms| ms > 0) && self.clock.time_left.is_none() {
            self.clock.time_left = self.clock.timeout_match.map(|ms| ms as i64);
        }
        if !self.blocked.is_empty() {
            return self.analyse(engine, Pending::Move { lines: 1 }, started);
        }
        let limits = self.clock.limits();
        log::debug!("gomocup: thinking with {limits:?}");
        match engine.go(limits, started) {
            Ok(()) => self.thinking_since = Some(started),
            Err(reason) => self.error(&reason.to_string()),
        }
    }
}

impl Frontend for Brain {
    fn replies(&mut self) -> &mut Replies {
        &mut self.out
    }

    type Item = (InputLine, Instant);

    /// While thinking, `YXSTOP`, `END` and `INFO` act at once and the rest waits.
    fn arrive(&mut self, engine: &mut Engine, line: InputLine, at: Instant) -> Arrival<Self::Item> {
        if let (true, InputLine::Text(text)) = (engine.is_busy(), &line) {
            let (word, rest) = split_word(text.trim());
            match word.to_ascii_uppercase().as_str() {
                "YXSTOP" => {
                    engine.stop();
                    return Arrival::Handled;
                }
                "END" => {
                    self.close();
                    return Arrival::Exit;
                }
                "INFO" => {
                    self.info(engine, rest);
                    return Arrival::Handled;
                }
                _ => {}
            }
        }
        Arrival::Queue((line, at))
    }

    fn handle(&mut self, engine: &mut Engine, (line, at): Self::Item) -> Flow {
        match line {
            InputLine::Text(text) => self.command(engine, &text, at),
            InputLine::TooLong(bytes) => {
                let problem =
                    format!("line too long ({bytes} bytes; the limit is {MAX_LINE_BYTES})");
                if self.board.is_some() {
                    self.bad_board_line(format!("bad BOARD line: {problem}"));
                } else {
                    self.line(&format!("UNKNOWN {problem}"));
                }
                Flow::Continue
            }
            InputLine::NotUtf8 => {
                if self.board.is_some() {
                    self.bad_board_line("bad BOARD line: not valid UTF-8 text".into());
                } else {
                    self.line("UNKNOWN line is not valid UTF-8 text");
                }
                Flow::Continue
            }
        }
    }

    fn report(&mut self, engine: &Engine, report: Report) {
        for message in messages(engine, &report) {
            self.line(&message);
        }
    }

    /// Sends the move the core has played, or a legal fallback when the search failed.
    fn finished(&mut self, engine: &mut Engine, finished: Finished) -> Flow {
        let elapsed = self
            .thinking_since
            .take()
            .map_or(Duration::ZERO, |since| since.elapsed());
        if let Some(left) = self.clock.time_left.as_mut()
            && *left < UNLIMITED_MS
        {
            *left -= elapsed.as_millis() as i64;
        }
        if let Some(pending) = self.pending.take() {
            match finished {
                Finished::Analyzed { report } => self.analysed(engine, pending, &report),
                Finished::Failed { message, .. } => self.error(&message),
                other => self.error(&format!("internal error: unexpected {other:?}")),
            }
            self.apply_pending(engine);
            return Flow::Continue;
        }
        let played = match finished {
            Finished::Swap2 { answer, .. } => {
                let text = match answer {
                    swap2::Answer::Swap => "SWAP".to_string(),
                    swap2::Answer::Stones(stones) => {
                        let names: Vec<String> =
                            stones.iter().map(|&mv| point_name(engine, mv)).collect();
                        names.join(" ")
                    }
                };
                self.line(&text);
                self.apply_pending(engine);
                return Flow::Continue;
            }
            Finished::Played { mv, .. } => Ok(mv),
            Finished::Failed { message, .. } => {
                log::error!("gomocup: {message}; playing a fallback move");
                self.line(&format!("MESSAGE {message}; playing a fallback move"));
                engine
                    .play_fallback()
                    .map_err(String::from)
                    .and_then(|_| engine.history().last().copied().ok_or_else(String::new))
            }
            other => Err(format!("internal error: unexpected {other:?}")),
        };
        match played {
            Ok(mv) => {
                let name = point_name(engine, mv);
                log::debug!("gomocup: {name} after {} ms", elapsed.as_millis());
                self.line(&name);
            }
            Err(reason) => self.error(&reason),
        }
        self.apply_pending(engine);
        Flow::Continue
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
    use crate::engine::capture::Capture;
    use std::io::Cursor;

    /// Runs a whole session to the end of input; all the lines written.
    fn transcript(input: &str, player: PlayerKind) -> Vec<String> {
        let capture = Capture::default();
        run_with(
            Cursor::new(input.to_string().into_bytes()),
            capture.clone(),
            player,
            DEFAULT_MOVE_OVERHEAD,
            1,
        )
        .expect("the capture takes every write");
        capture.text().lines().map(str::to_string).collect()
    }

    /// The replies of a whole session, without `MESSAGE` lines.
    fn session(input: &str) -> Vec<String> {
        transcript(input, PlayerKind::Search)
            .into_iter()
            .filter(|line| !line.starts_with("MESSAGE"))
            .collect()
    }

    #[test]
    fn a_panicking_search_still_answers_with_a_legal_move() {
        let lines = transcript(
            &format!("START 15\n{FAST}TURN 7,7\nTURN 9,9\nABOUT\n"),
            PlayerKind::Panic,
        );
        let replies: Vec<&String> = lines.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(replies.len(), 4, "{lines:?}");
        assert_eq!(replies[0], "OK");
        let first = parse_point(replies[1], 15).unwrap();
        let second = parse_point(replies[2], 15).unwrap();
        assert!(
            first != (7, 7) && second != (9, 9) && first != second,
            "{lines:?}"
        );
        assert!(replies[3].starts_with("name=\"arbor\""));
        assert!(
            lines.iter().any(|l| l.contains("a test panic mid-search")),
            "{lines:?}"
        );
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
    fn the_clock_goes_to_the_core_raw() {
        let ms = Duration::from_millis;
        let clock = Clock::default();
        assert_eq!(clock.limits().movetime, Some(ms(DEFAULT_TURN_MS)));
        assert_eq!(clock.limits().time, None);
        let clock = Clock {
            timeout_turn: Some(200),
            timeout_match: Some(10_000),
            time_left: Some(2_000),
            ..Clock::default()
        };
        let limits = clock.limits();
        assert_eq!(limits.movetime, Some(ms(200)));
        assert_eq!(limits.time, Some(ms(2000)));
        // A match without a limit ignores time_left; a negative one leaves nothing.
        let unlimited = Clock {
            timeout_match: Some(0),
            time_left: Some(5),
            ..Clock::default()
        };
        assert_eq!(unlimited.limits().time, None);
        let late = Clock {
            time_left: Some(-300),
            ..Clock::default()
        };
        assert_eq!(late.limits().time, Some(ms(0)));
        let fast = Clock {
            timeout_turn: Some(0),
            ..Clock::default()
        };
        assert_eq!(fast.limits().depth, Some(FAST_DEPTH));
        assert_eq!(fast.limits().movetime, None);
    }

    #[test]
    fn thread_num_is_clamped_to_the_bounds() {
        assert_eq!(thread_count(2), 2);
        assert_eq!(thread_count(0), 1);
        assert_eq!(thread_count(-5), 1);
        assert_eq!(thread_count(MAX_THREADS as i64), MAX_THREADS);
        assert_eq!(thread_count(MAX_THREADS as i64 + 1), MAX_THREADS);
        assert_eq!(thread_count(i64::MAX), MAX_THREADS);
    }

    #[test]
    fn info_thread_num_sets_the_threads_and_waits_for_a_move_in_progress() {
        let capture = Capture::default();
        let mut brain = Brain::new(Replies::new(capture.clone()));
        let (mut engine, events) = Engine::new(&Settings {
            variant: Variant::KInRow(Config::gomoku(15, false, Opening::Free)),
            hash_mb: 1,
            ..Settings::default()
        })
        .unwrap();
        for (value, threads) in [("3", 3), ("0", 1), ("100000", MAX_THREADS), ("-2", 1)] {
            brain.info(&mut engine, &format!("thread_num {value}"));
            assert_eq!(engine.threads(), threads, "INFO thread_num {value}");
        }
        brain.info(&mut engine, "THREAD_NUM 2");
        brain.info(&mut engine, "thread_num two");
        assert_eq!(engine.threads(), 2);
        assert_eq!(
            capture.text(),
            "ERROR INFO thread_num: expected a number, not 'two'\n"
        );
        // While the brain thinks the count waits for the move (the core refuses it then).
        let limits = Limits {
            movetime: Some(Duration::from_secs(600)),
            ..Limits::default()
        };
        engine.go(limits, Instant::now()).unwrap();
        brain.thinking_since = Some(Instant::now());
        brain.info(&mut engine, "thread_num 4");
        assert!(engine.is_busy(), "the search was disturbed");
        engine.stop();
        let finished = engine.wait(&events, &mut |_, _| {}).unwrap();
        brain.finished(&mut engine, finished);
        assert_eq!(engine.threads(), 4);
        let lines = capture.text();
        let mv = lines.lines().last().unwrap();
        assert!(parse_point(mv, 15).is_ok(), "{lines}");
    }

    #[test]
    fn table_sizes_follow_max_memory() {
        assert_eq!(table_megabytes(0), DEFAULT_HASH_MB);
        assert_eq!(table_megabytes(350 << 20), 175);
        assert_eq!(table_megabytes(30 << 20), 15);
        assert_eq!(table_megabytes(1000), 1);
        assert_eq!(table_megabytes(1 << 40), MAX_TABLE_MB);
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
    fn reports_become_messages_with_coordinates() {
        use crate::game::roles::ScoreValue;
        use crate::search::report::Line;
        use crate::search::tt::Bound;
        let (engine, _events) = Engine::new(&Settings {
            variant: Variant::KInRow(Config::gomoku(15, false, Opening::Free)),
            hash_mb: 1,
            ..Settings::default()
        })
        .unwrap();
        let report = Report {
            depth: 2,
            nodes: 10,
            elapsed: Duration::from_millis(5),
            exact: false,
            lines: vec![Line {
                score: ScoreValue::Win(3),
                bound: Bound::Exact,
                pv: vec![Move::new(7 * 15 + 7), Move::new(0)],
                proof: Some(crate::game::roles::ProofKind::Vcf),
                depth: 2,
            }],
        };
        assert_eq!(
            messages(&engine, &report),
            ["MESSAGE depth 2 score win 3 nodes 10 nps 2000 time 5 pv 7,7 0,0"]
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
    fn caro_is_refused_and_the_rule_stays() {
        let replies = session("INFO rule 8\nINFO rule 2\nSTART 15\n");
        assert_eq!(replies, ["ERROR caro is not supported", "OK"]);
    }

    /// Black's L of two twos around 7,7 (a double three there), White's stones far
    /// off: a `YXBOARD` with Black (the brain, field 1) to move.
    const DOUBLE_THREE: &str =
        "YXBOARD\n5,7,1\n6,7,1\n7,5,1\n7,6,1\n0,0,2\n0,14,2\n14,0,2\n14,14,2\nDONE\n";

    #[test]
    fn renju_forbidden_points_are_shown_refused_and_never_played() {
        let replies = session(&format!(
            "START 15\nINFO rule 4\n{REPEATABLE}{DOUBLE_THREE}YXSHOWFORBID\nPLAY 7,7\nYXNBEST 6\n\
             YXSHOWFORBID\nINFO rule 0\nRESTART\n{DOUBLE_THREE}YXSHOWFORBID\n"
        ));
        assert_eq!(replies.len(), 7, "{replies:?}");
        assert_eq!(replies[0], "OK");
        assert_eq!(replies[1], "FORBID 0707.");
        assert!(
            replies[2].starts_with("ERROR 7,7 is a forbidden point for black"),
            "{replies:?}"
        );
        assert_ne!(replies[3], "7,7");
        // White to move: nothing is forbidden to it.
        assert_eq!(replies[4], "FORBID .");
        // Freestyle has no forbidden points.
        assert_eq!(replies[5..], ["OK", "FORBID ."]);
    }

    /// The `MESSAGE nbest` lines of a transcript: (move, score).
    fn nbest_lines(lines: &[String]) -> Vec<((usize, usize), i64)> {
        lines
            .iter()
            .filter_map(|line| line.strip_prefix("MESSAGE nbest "))
            .map(|rest| {
                let words: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(words[2], "score", "{rest}");
                let score = match words[3] {
                    "win" => 1_000_000 - words[4].parse::<i64>().unwrap(),
                    "loss" => -1_000_000 + words[4].parse::<i64>().unwrap(),
                    number => number.parse().unwrap(),
                };
                (parse_point(words[1], 15).unwrap(), score)
            })
            .collect()
    }

    #[test]
    fn yxnbest_gives_distinct_legal_moves_in_score_order() {
        let lines = transcript(
            &format!(
                "START 15\n{REPEATABLE}YXBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\nYXNBEST 5\nYXNBEST 0\n"
            ),
            PlayerKind::Search,
        );
        let ranked = nbest_lines(&lines);
        assert_eq!(ranked.len(), 5, "{lines:?}");
        let mut points: Vec<_> = ranked.iter().map(|r| r.0).collect();
        assert!(ranked.windows(2).all(|w| w[0].1 >= w[1].1), "{ranked:?}");
        let replies: Vec<&String> = lines.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(replies.len(), 3, "{lines:?}");
        assert_eq!(parse_point(replies[1], 15).unwrap(), points[0]);
        assert!(replies[2].starts_with("ERROR YXNBEST needs"), "{replies:?}");
        points.sort_unstable();
        points.dedup();
        assert_eq!(points.len(), 5);
        for point in points {
            assert!(![(7, 7), (8, 8), (6, 8)].contains(&point), "{point:?}");
        }
    }

    #[test]
    fn yxblock_moves_are_never_chosen() {
        // The brain's four 3,3-6,3 (blocked at 2,3 by the opponent) wins at 7,3 unless
        // that point is blocked.
        let position = "YXBOARD\n3,3,1\n4,3,1\n5,3,1\n6,3,1\n2,3,2\n9,9,2\n9,10,2\n10,9,2\nDONE\n";
        let replies = session(&format!(
            "START 15\n{REPEATABLE}YXBLOCK\n7,3\n7,4\nDONE\n{position}YXNBEST 4\n\
             YXBLOCKUNDO\n7,4\nDONE\nYXBLOCKRESET\n{position}YXNBEST 1\nYXBLOCK\n99,1\nDONE\n"
        ));
        assert_eq!(replies.len(), 4, "{replies:?}");
        assert_eq!(replies[0], "OK");
        assert!(
            !["7,3", "7,4"].contains(&replies[1].as_str()),
            "{replies:?}"
        );
        assert_eq!(replies[2], "7,3");
        assert!(replies[3].starts_with("ERROR 99,1 is off"), "{replies:?}");
        // Every point blocked: an error, not a move.
        let mut block = String::from("YXBLOCK\n");
        for y in 0..5 {
            for x in 0..5 {
                block.push_str(&format!("{x},{y}\n"));
            }
        }
        let replies = session(&format!(
            "START 5\n{REPEATABLE}{block}DONE\nBEGIN\nYXHASHCLEAR\nINFO caution_factor 3\nYXFOO 1\n"
        ));
        assert_eq!(
            replies,
            [
                "OK",
                "ERROR every legal move is blocked (YXBLOCK)",
                "UNKNOWN 'YXFOO 1'"
            ]
        );
    }

    #[test]
    fn swap2_sessions_answer_stones_or_swap() {
        let replies = session(&format!(
            "START 15\n{REPEATABLE}SWAP2BOARD\nDONE\nSWAP2BOARD\n7,7\n8,7\n9,9\nDONE\n\
             SWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE\nSWAP2BOARD\n7,7\nDONE\n"
        ));
        assert_eq!(replies.len(), 5, "{replies:?}");
        let points = |reply: &str| -> Vec<(usize, usize)> {
            reply
                .split_whitespace()
                .map(|p| parse_point(p, 15).unwrap())
                .collect()
        };
        let opening = points(&replies[1]);
        assert_eq!(opening.len(), 3, "{replies:?}");
        assert!(opening[0] != opening[1] && opening[1] != opening[2] && opening[0] != opening[2]);
        for (reply, stones, most) in [
            (&replies[2], &[(7, 7), (8, 7), (9, 9)][..], 2),
            (
                &replies[3],
                &[(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)][..],
                1,
            ),
        ] {
            if reply != "SWAP" {
                let added = points(reply);
                assert!((1..=most).contains(&added.len()), "{replies:?}");
                assert!(added.iter().all(|p| !stones.contains(p)), "{replies:?}");
            }
        }
        assert_eq!(replies[4], "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not 1");
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
             BOARD\n3,3,1\nABOUT\nDONE\nINFO timeout_turn soon\nfoo bar\n\
             BOARD\nx\n99,99,1\n1,1,7\n\nTURN 3,3\nDONE\n\
             SWAP2BOARD\n7,7\n8,8\nDONE\nYXBOARD\n1,1,5\nDONE\nYXBOARD\nDONE\n\
             START 999999999999\nSTART -1\nSTART 1e3\nRECTSTART 20,21\nRECTSTART 9,99999999999\n"
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
            "ERROR bad BOARD line 'ABOUT'",
            "ERROR INFO timeout_turn",
            "UNKNOWN 'foo bar'",
            // One reply per block, naming its first problem.
            "ERROR bad BOARD line 'x'",
            "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not 2",
            "ERROR bad YXBOARD field '5' at 1,1",
            "ERROR unsupported size",
            "ERROR unsupported size",
            "ERROR START needs a board size, not '1e3'",
            "ERROR unsupported size",
            "ERROR unsupported size",
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
