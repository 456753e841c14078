//! Drivers for engines that speak another protocol than arbor's: NBoard, GTP and
//! Gomocup. The referee keeps the rules and the clock whatever the protocol; each driver
//! translates the game, the moves and the clock into its protocol's terms, and reads
//! only what that protocol allows (anything else is a protocol error).
//!
//! How each protocol hears about time (protocol.md, "Driving other engines"): NBoard has
//! no clock, only `set depth`, so under a clock or a move time the referee stops the
//! engine by `ping` when its time for the move is spent; GTP gets `time_settings` once and `time_left` before each
//! `genmove`; Gomocup gets `INFO timeout_match`/`timeout_turn` once and `INFO time_left`
//! before each move. The referee's deadline holds in every case.

use std::time::{Duration, Instant};

use super::engine::{
    COMMAND_TIME, EngineDriver, EngineFailure, GoRequest, NativeEngine, Process, Setup,
};
use super::referee::TimeControl;
use crate::game::Side;
use crate::game::gomoku::Family;
use crate::game::notation::{MAX_GTP_SIZE, point_vertex, vertex_to_name};
use crate::game::notation::{Point, parse_point};
use crate::game::othello::Rule;
use crate::game::variant::Variant;
use crate::text::quote;

/// The protocol an engine speaks (`proto=` in `--engine`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    #[default]
    Native,
    Nboard,
    Gtp,
    Gomocup,
}

impl Proto {
    pub fn parse(text: &str) -> Result<Proto, String> {
        match text.to_ascii_lowercase().as_str() {
            "native" => Ok(Proto::Native),
            "nboard" => Ok(Proto::Nboard),
            "gtp" => Ok(Proto::Gtp),
            "gomocup" => Ok(Proto::Gomocup),
            _ => Err(format!(
                "unknown protocol {}: expected native, nboard, gtp or gomocup",
                quote(text)
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Proto::Native => "native",
            Proto::Nboard => "nboard",
            Proto::Gtp => "gtp",
            Proto::Gomocup => "gomocup",
        }
    }

    /// Whether arbor can ask an engine of this protocol for a thread count: native
    /// engines get `set threads N`, Gomocup brains `INFO thread_num N`; NBoard and GTP
    /// have no such command.
    pub fn has_threads(self) -> bool {
        matches!(self, Proto::Native | Proto::Gomocup)
    }

    /// Whether an engine of this protocol takes Swap2 decisions: native engines by
    /// `swap2`, Gomocup brains by `SWAP2BOARD`; NBoard and GTP have no such command.
    pub fn has_swap2(self) -> bool {
        matches!(self, Proto::Native | Proto::Gomocup)
    }

    /// Refuses `threads=N` for a protocol that cannot say it, and `depth=N` for one other
    /// than NBoard.
    pub fn check_options(
        self,
        threads: Option<usize>,
        max_depth: Option<u32>,
    ) -> Result<(), String> {
        match (threads, max_depth) {
            (Some(_), _) if !self.has_threads() => Err(format!(
                "proto={} has no thread count to send: give it on the engine's command line (arbor {} --threads N)",
                self.name(),
                self.name()
            )),
            (_, Some(_)) if self != Proto::Nboard => Err(format!(
                "depth= is NBoard's maximum depth: proto={} takes --depth for the whole match",
                self.name()
            )),
            _ => Ok(()),
        }
    }

    /// Refuses, before any game, what the protocol cannot express.
    pub fn check(
        self,
        variant: Variant,
        control: TimeControl,
        openings: &[Setup],
    ) -> Result<(), String> {
        let boards = openings.iter().any(|o| matches!(o, Setup::Board(_)));
        let name = self.name();
        match self {
            Proto::Native => Ok(()),
            Proto::Nboard => {
                if variant
                    != (Variant::Othello {
                        size: 8,
                        rule: Rule::Normal,
                    })
                {
                    return Err(format!(
                        "proto=nboard plays 8x8 Othello under the normal rule, not {variant}"
                    ));
                }
                if matches!(control, TimeControl::Nodes(_)) {
                    return Err("proto=nboard has no node limit: use --depth (sent as `set depth`), --tc or --movetime".into());
                }
                Ok(())
            }
            Proto::Gtp => {
                if board_size(variant) > MAX_GTP_SIZE {
                    return Err(format!(
                        "proto=gtp: GTP vertices do not reach a board of {}",
                        board_size(variant)
                    ));
                }
                if matches!(control, TimeControl::Depth(_) | TimeControl::Nodes(_)) {
                    return Err("proto=gtp has no depth or node limit: use --tc or --movetime (sent as time_settings and time_left)".into());
                }
                if boards {
                    return Err(format!(
                        "proto={name} cannot set up a board: use openings of moves"
                    ));
                }
                Ok(())
            }
            Proto::Gomocup => {
                let Variant::KInRow(config) = variant else {
                    return Err(format!("proto=gomocup plays Gomoku, not {variant}"));
                };
                if config.family != Family::Gomoku {
                    return Err(format!("proto=gomocup plays Gomoku, not {variant}"));
                }
                if boards {
                    return Err(format!(
                        "proto={name} cannot set up a board: use openings of moves"
                    ));
                }
                Ok(())
            }
        }
    }
}

fn board_size(variant: Variant) -> usize {
    match variant {
        Variant::Othello { size, .. } => size,
        Variant::KInRow(config) => config.size,
    }
}

/// Starts an engine in its protocol for games of `variant` under `control`, asking for
/// `threads` search threads where the protocol can (see [`Proto::has_threads`]); an
/// NBoard engine gets `max_depth` (or 60) as its depth under a clock.
pub fn start(
    name: &str,
    command: &str,
    proto: Proto,
    variant: Variant,
    control: TimeControl,
    threads: Option<usize>,
    max_depth: Option<u32>,
) -> Result<Box<dyn EngineDriver>, String> {
    proto.check_options(threads, max_depth)?;
    Ok(match proto {
        Proto::Native => Box::new(NativeEngine::start(name, command, threads)?),
        Proto::Nboard => Box::new(NboardEngine::start(name, command, control, max_depth)?),
        Proto::Gtp => Box::new(GtpEngine::start(name, command, variant, control)?),
        Proto::Gomocup => Box::new(GomocupEngine::start(
            name, command, variant, control, threads,
        )?),
    })
}

/// Seconds as GTP sends them: whole when they are, else to the millisecond.
fn seconds(time: Duration) -> String {
    let millis = time.as_millis().min(crate::bounds::MAX_MILLIS as u128);
    if millis.is_multiple_of(1000) {
        (millis / 1000).to_string()
    } else {
        format!("{}.{:03}", millis / 1000, millis % 1000)
    }
}

/// The longest an NBoard engine stopped by `ping` has to answer with its move: its move
/// time is spent this much before the move's deadline (less for short move times).
const NBOARD_STOP_GRACE: Duration = Duration::from_millis(200);

/// When an NBoard engine's time for a move under `request` is spent (it is then stopped
/// by `ping`), counted from the `go`; `None` under a depth or node limit. A move time
/// keeps back a grace of a fifth (at most [`NBOARD_STOP_GRACE`]) for the answer; a clock
/// gives a twentieth of what is left plus most of the increment, never more than half.
fn nboard_move_time(request: GoRequest) -> Option<Duration> {
    match request {
        GoRequest::MoveTime(time) => Some(time - (time / 5).min(NBOARD_STOP_GRACE)),
        GoRequest::Clock { left, inc } => Some((left / 20 + inc * 3 / 4).min(left / 2)),
        GoRequest::Depth(_) | GoRequest::Nodes(_) => None,
    }
}

/// An NBoard engine (Edax, arbor nboard): `nboard 2`, `set depth`, `set game`, `ping`,
/// `go` answered by `=== move/eval/time`, `move` for every move played.
pub struct NboardEngine {
    process: Process,
    /// Sent as `set depth` at the start.
    depth: u32,
    /// The match clock (base, increment), told in the record's `TI[]` as the GUI does.
    clock: Option<(Duration, Duration)>,
    pings: u32,
}

impl NboardEngine {
    fn start(
        name: &str,
        command: &str,
        control: TimeControl,
        max_depth: Option<u32>,
    ) -> Result<NboardEngine, String> {
        // As the GUI: a depth always (NTest refuses `go` without one), the match's under
        // `--depth`, else the user's maximum, the ping stopping the engine in time.
        let depth = match control {
            TimeControl::Depth(depth) => depth,
            _ => max_depth.unwrap_or(crate::bounds::MAX_LEVEL),
        };
        let clock = match control {
            TimeControl::Clock { base, inc } => Some((base, inc)),
            _ => None,
        };
        let mut engine = NboardEngine {
            process: Process::start(name, command)?,
            depth,
            clock,
            pings: 0,
        };
        engine
            .handshake()
            .map_err(|e| format!("{name} did not start: {e}"))?;
        Ok(engine)
    }

    /// `nboard 2`, `set depth`, then a `ping`: engines name themselves (`set myname`) at
    /// `nboard` (arbor) or at `set depth` (Edax); anything may come before the `pong`.
    fn handshake(&mut self) -> Result<(), EngineFailure> {
        self.process.send("nboard 2")?;
        self.process
            .send(&format!("set depth {}", self.depth.clamp(1, 60)))?;
        self.sync(true)
    }

    /// Lines NBoard engines send besides the answer waited for: the GUI ignores what it
    /// does not know (NTest's `>> Abort round!!!` after a ping, banners), so they are
    /// logged and skipped.
    fn skip(&self, line: &str, waiting: &str) {
        let word = line.split_whitespace().next().unwrap_or("");
        // A `pong` may answer the ping that stopped an earlier move.
        let known = matches!(
            word,
            "" | "status"
                | "nodestats"
                | "search"
                | "book"
                | "learned"
                | "analysis"
                | "set"
                | "pong"
        );
        if !known {
            log::info!(
                "{}: skipped {} while waiting for {waiting}",
                self.process.name(),
                quote(line)
            );
        }
    }

    /// `ping n`, answered `pong n` once the engine has done everything before it; only
    /// lines NBoard allows may come first, unless `lenient` (at the start).
    fn sync(&mut self, lenient: bool) -> Result<(), EngineFailure> {
        self.pings += 1;
        let expected = format!("pong {}", self.pings);
        self.process.send(&format!("ping {}", self.pings))?;
        let deadline = Instant::now() + COMMAND_TIME;
        loop {
            let line = self.process.recv(deadline)?;
            if line.trim() == expected {
                return Ok(());
            }
            if !lenient {
                self.skip(&line, &expected);
            }
        }
    }

    /// `move F5` (`move PA` for a pass).
    fn tell(&mut self, name: &str) -> Result<(), EngineFailure> {
        let name = if name == "pass" {
            "PA".to_string()
        } else {
            name.to_ascii_uppercase()
        };
        self.process.send(&format!("move {name}"))
    }

    /// The game as GGF: the start (or the opening board), the clock (`TI[base/inc]` in
    /// whole seconds, as GGF writes it) and the opening's moves.
    fn ggf(setup: &Setup, clock: Option<(Duration, Duration)>) -> String {
        let (cells, side, moves) = match setup {
            Setup::Moves(moves) => (
                "---------------------------O*------*O---------------------------".to_string(),
                '*',
                moves.clone(),
            ),
            Setup::Board(board) => {
                let (cells, side) = board.rsplit_once(' ').unwrap_or((board, "X"));
                let cells = cells.replace(['X', 'x'], "*").replace(['o', '0'], "O");
                let side = if Side::parse(side) == Some(Side::White) {
                    'O'
                } else {
                    '*'
                };
                (cells, side, Vec::new())
            }
        };
        let mut colour = if side == '*' { 'B' } else { 'W' };
        let time = clock.map_or(String::new(), |(base, inc)| match inc.as_secs() {
            0 => format!("TI[{}]", base.as_secs().max(1)),
            inc => format!("TI[{}/{inc}]", base.as_secs().max(1)),
        });
        let mut text = format!("(;GM[Othello]PC[arbor match]{time}TY[8]BO[8 {cells} {side}]");
        for mv in moves {
            let name = if mv == "pass" {
                "PA".to_string()
            } else {
                mv.to_ascii_uppercase()
            };
            text.push_str(&format!("{colour}[{name}]"));
            colour = if colour == 'B' { 'W' } else { 'B' };
        }
        text.push_str(";)");
        text
    }
}

impl EngineDriver for NboardEngine {
    fn name(&self) -> &str {
        self.process.name()
    }

    fn new_game(&mut self, _game: &str, setup: &Setup) -> Result<(), EngineFailure> {
        self.process.send(&format!(
            "set game {}",
            NboardEngine::ggf(setup, self.clock)
        ))?;
        self.sync(false)
    }

    /// NBoard has no clock: the engine thinks as `set depth` (or its own settings) tell
    /// it. Under a clock or a move time, once its time for the move is spent (see
    /// [`nboard_move_time`]) it is sent `ping N`, as the GUI stops an engine: a `===` that
    /// comes before the `pong N` and the move's deadline counts; a `pong N` without a
    /// move, or nothing by the deadline, loses on time.
    fn go(&mut self, request: GoRequest, deadline: Instant) -> Result<String, EngineFailure> {
        self.process.send("go")?;
        let mut stop_at = nboard_move_time(request).map(|time| Instant::now() + time);
        let mut stopped_by: Option<String> = None;
        loop {
            let until = stop_at.map_or(deadline, |at| at.min(deadline));
            let Some(line) = self.process.try_recv(until)? else {
                if stop_at.take().is_some() && Instant::now() < deadline {
                    self.pings += 1;
                    self.process.send(&format!("ping {}", self.pings))?;
                    stopped_by = Some(format!("pong {}", self.pings));
                    continue;
                }
                self.process.kill();
                return Err(EngineFailure::NoAnswer);
            };
            if Instant::now() >= deadline {
                self.process.kill();
                return Err(EngineFailure::NoAnswer);
            }
            if stopped_by.as_deref() == Some(line.trim()) {
                // Stopped, and no move: as good as silent.
                self.process.kill();
                return Err(EngineFailure::NoAnswer);
            }
            if let Some(answer) = line.strip_prefix("===") {
                // `=== F5/eval/time`, or Edax's `=== f5 eval time`.
                let mv = answer
                    .split(|c: char| c == '/' || c.is_whitespace())
                    .find(|word| !word.is_empty())
                    .unwrap_or("");
                let name = if mv.eq_ignore_ascii_case("pa") {
                    "pass".to_string()
                } else {
                    mv.to_ascii_lowercase()
                };
                // The GUI plays every move through `move`, the engine's own too (Edax
                // and arbor nboard do not play it at `go`).
                self.tell(&name)?;
                return Ok(name);
            }
            self.skip(&line, "===");
        }
    }

    fn opponent_moved(&mut self, text: &str) -> Result<(), EngineFailure> {
        self.tell(text)
    }

    fn quit(&mut self) {
        self.process.quit("quit");
    }
}

/// A GTP engine (Edax, Egaroucid, arbor gtp): `boardsize`, `clear_board`,
/// `time_settings`, `play`, `time_left` and `genmove`.
pub struct GtpEngine {
    process: Process,
    size: usize,
    control: TimeControl,
    to_move: Side,
    /// Whether the engine lists `time_settings` and `time_left`.
    timed: bool,
}

impl GtpEngine {
    fn start(
        name: &str,
        command: &str,
        variant: Variant,
        control: TimeControl,
    ) -> Result<GtpEngine, String> {
        let mut engine = GtpEngine {
            process: Process::start(name, command)?,
            size: board_size(variant),
            control,
            to_move: Side::Black,
            timed: false,
        };
        let commands = engine
            .command("list_commands", Instant::now() + COMMAND_TIME)
            .map_err(|e| format!("{name} did not start: {e}"))?;
        let listed: Vec<&str> = commands.lines().map(str::trim).collect();
        engine.timed = listed.contains(&"time_settings") && listed.contains(&"time_left");
        Ok(engine)
    }

    /// Sends a command and returns its result (after `=` and any id); a `?` reply or a
    /// line that is not a reply is a protocol error.
    fn command(&mut self, line: &str, deadline: Instant) -> Result<String, EngineFailure> {
        self.process.send(line)?;
        let first = loop {
            let text = self.process.recv(deadline)?;
            if text.trim().is_empty() {
                continue;
            }
            if !text.starts_with(['=', '?']) {
                let message = format!("{} got {} before its reply", quote(line), quote(&text));
                return Err(self.process.violation(message));
            }
            break text;
        };
        let mut lines = vec![first];
        loop {
            let text = self.process.recv(deadline)?;
            if text.trim().is_empty() {
                break;
            }
            lines.push(text);
        }
        let reply = lines.join("\n");
        match reply.strip_prefix('=') {
            Some(rest) => Ok(rest
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim()
                .to_string()),
            None => Err(EngineFailure::Protocol(format!(
                "{} got {}",
                quote(line),
                quote(&reply)
            ))),
        }
    }

    fn colour(&self) -> &'static str {
        match self.to_move {
            Side::Black => "b",
            Side::White => "w",
        }
    }

    /// A move name as a vertex (`pass` stays).
    fn vertex(&self, name: &str) -> Result<String, EngineFailure> {
        match parse_point(name, self.size) {
            Ok(Point::Pass) => Ok("pass".to_string()),
            Ok(Point::At { col, row }) => Ok(point_vertex(col, row)),
            Err(error) => Err(EngineFailure::Protocol(error.to_string())),
        }
    }

    fn play(&mut self, name: &str) -> Result<(), EngineFailure> {
        let vertex = self.vertex(name)?;
        let line = format!("play {} {vertex}", self.colour());
        self.command(&line, Instant::now() + COMMAND_TIME)?;
        self.to_move = self.to_move.opponent();
        Ok(())
    }
}

impl EngineDriver for GtpEngine {
    fn name(&self) -> &str {
        self.process.name()
    }

    fn new_game(&mut self, _game: &str, setup: &Setup) -> Result<(), EngineFailure> {
        let deadline = || Instant::now() + COMMAND_TIME;
        self.command(&format!("boardsize {}", self.size), deadline())?;
        self.command("clear_board", deadline())?;
        if self.timed {
            let settings = match self.control {
                TimeControl::Clock { base, .. } => format!("time_settings {} 0 0", seconds(base)),
                TimeControl::MoveTime(time) => format!("time_settings 0 {} 1", seconds(time)),
                _ => "time_settings 0 1 0".to_string(),
            };
            self.command(&settings, deadline())?;
        }
        self.to_move = Side::Black;
        if let Setup::Moves(moves) = setup {
            for name in moves {
                self.play(name)?;
            }
        }
        Ok(())
    }

    fn go(&mut self, request: GoRequest, deadline: Instant) -> Result<String, EngineFailure> {
        if self.timed {
            let left = match request {
                GoRequest::Clock { left, .. } => Some(format!("{} 0", seconds(left))),
                GoRequest::MoveTime(time) => Some(format!("{} 1", seconds(time))),
                _ => None,
            };
            if let Some(left) = left {
                self.command(&format!("time_left {} {left}", self.colour()), deadline)?;
            }
        }
        let reply = self.command(&format!("genmove {}", self.colour()), deadline)?;
        if reply.eq_ignore_ascii_case("resign") {
            return Err(EngineFailure::Resigned);
        }
        let name = vertex_to_name(&reply, self.size).unwrap_or(reply);
        self.to_move = self.to_move.opponent();
        Ok(name)
    }

    fn opponent_moved(&mut self, text: &str) -> Result<(), EngineFailure> {
        self.play(text)
    }

    fn quit(&mut self) {
        self.process.quit("quit");
    }
}

/// A Gomocup brain (Carbon, Wine, arbor gomocup): `START`, `INFO`, then `BEGIN`, `TURN`
/// or a `BOARD` block for the opening, each answered by a move `x,y`.
pub struct GomocupEngine {
    process: Process,
    variant: Variant,
    control: TimeControl,
    /// Every stone in the order played: (column, row).
    stones: Vec<(usize, usize)>,
    /// The opponent's move to send with the next `TURN`.
    pending: Option<(usize, usize)>,
    started: bool,
    /// Sent as `INFO thread_num` at the start of each game.
    threads: Option<usize>,
    /// The words of the `INFO` lines sent since the last reply, in lower case: an `INFO`
    /// has no reply, but some brains answer one they do not take with `ERROR` lines
    /// (Rapfi, thinking, to `INFO time_left 3683`: `ERROR Unknown command: TIME_LEFT`,
    /// then `... 3683`), which are no answer to the command that follows.
    info_words: Vec<String>,
}

impl GomocupEngine {
    fn start(
        name: &str,
        command: &str,
        variant: Variant,
        control: TimeControl,
        threads: Option<usize>,
    ) -> Result<GomocupEngine, String> {
        Ok(GomocupEngine {
            process: Process::start(name, command)?,
            variant,
            control,
            stones: Vec::new(),
            pending: None,
            started: false,
            threads,
            info_words: Vec::new(),
        })
    }

    fn send_info(&mut self, info: &str) -> Result<(), EngineFailure> {
        self.process.send(info)?;
        self.info_words.extend(
            info.split_whitespace()
                .skip(1)
                .map(|word| word.to_ascii_lowercase()),
        );
        Ok(())
    }

    /// The next line that is not a message; `ERROR` and `UNKNOWN` are protocol errors,
    /// but for those that name a word of an `INFO` sent since the last reply, and for the
    /// one that says the command `sent` was dropped (see [`dropped`]): the command is then
    /// sent again, once.
    fn answer(&mut self, sent: &str, deadline: Instant) -> Result<String, EngineFailure> {
        let mut resent = false;
        loop {
            let line = self.process.recv(deadline)?;
            let text = line.trim();
            let word = text.split_whitespace().next().unwrap_or("");
            if text.is_empty() || matches!(word, "MESSAGE" | "DEBUG" | "SUGGEST") {
                continue;
            }
            if matches!(word, "ERROR" | "UNKNOWN") {
                let lower = text.to_ascii_lowercase();
                let names_an_info = self.info_words.iter().any(|word| {
                    lower
                        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                        .any(|w| w == word)
                });
                if names_an_info {
                    log::warn!("{}: an INFO was refused: {}", self.process.name(), text);
                    continue;
                }
                if !resent && dropped(sent, text) {
                    log::warn!(
                        "{}: {} was dropped ({}): sent again",
                        self.process.name(),
                        quote(sent),
                        text
                    );
                    resent = true;
                    self.process.send(sent)?;
                    continue;
                }
                let message = format!("{} got {}", quote(sent), quote(text));
                return Err(self.process.violation(message));
            }
            self.info_words.clear();
            return Ok(text.to_string());
        }
    }

    fn point(&self, name: &str) -> Result<(usize, usize), EngineFailure> {
        match parse_point(name, board_size(self.variant)) {
            Ok(Point::At { col, row }) => Ok((col, row)),
            _ => Err(EngineFailure::Protocol(format!(
                "{} is not a point",
                quote(name)
            ))),
        }
    }
}

impl EngineDriver for GomocupEngine {
    fn name(&self) -> &str {
        self.process.name()
    }

    fn new_game(&mut self, _game: &str, setup: &Setup) -> Result<(), EngineFailure> {
        let size = board_size(self.variant);
        let start = format!("START {size}");
        self.process.send(&start)?;
        let reply = self.answer(&start, Instant::now() + COMMAND_TIME)?;
        if reply != "OK" {
            let message = format!("{} got {}", quote(&start), quote(&reply));
            return Err(self.process.violation(message));
        }
        let mut infos = vec![format!("INFO rule {}", gomocup_rule(self.variant))];
        match self.control {
            TimeControl::Clock { base, .. } => {
                infos.push(format!("INFO timeout_match {}", base.as_millis()));
                infos.push(format!("INFO timeout_turn {}", base.as_millis()));
            }
            TimeControl::MoveTime(time) => {
                infos.push("INFO timeout_match 0".to_string());
                infos.push(format!("INFO timeout_turn {}", time.as_millis()));
            }
            TimeControl::Depth(depth) => infos.push(format!("INFO max_depth {depth}")),
            TimeControl::Nodes(nodes) => infos.push(format!("INFO max_node {nodes}")),
        }
        if let Some(threads) = self.threads {
            infos.push(format!("INFO thread_num {threads}"));
        }
        for info in infos {
            self.send_info(&info)?;
        }
        self.stones.clear();
        self.pending = None;
        self.started = false;
        if let Setup::Moves(moves) = setup {
            for name in moves {
                let point = self.point(name)?;
                self.stones.push(point);
            }
        }
        Ok(())
    }

    fn go(&mut self, request: GoRequest, deadline: Instant) -> Result<String, EngineFailure> {
        if let GoRequest::Clock { left, .. } = request {
            let millis = left.as_millis().min(i32::MAX as u128);
            self.send_info(&format!("INFO time_left {millis}"))?;
        }
        let sent = match (self.started, self.pending.take()) {
            (true, Some((x, y))) => format!("TURN {x},{y}"),
            (false, _) if self.stones.is_empty() => "BEGIN".to_string(),
            (false, _) => {
                // The brain is to move: its stones are the ones of the side to move.
                let own = self.stones.len() % 2;
                self.process.send("BOARD")?;
                for (index, (x, y)) in self.stones.clone().into_iter().enumerate() {
                    let field = if index % 2 == own { 1 } else { 2 };
                    self.process.send(&format!("{x},{y},{field}"))?;
                }
                "DONE".to_string()
            }
            (true, None) => {
                return Err(EngineFailure::Protocol(
                    "internal error: no move to send with TURN".into(),
                ));
            }
        };
        self.started = true;
        self.process.send(&sent)?;
        let reply = self.answer(&sent, deadline)?;
        let coordinates: Vec<&str> = reply.split(',').map(str::trim).collect();
        let parsed = match coordinates.as_slice() {
            [x, y] => x.parse::<usize>().ok().zip(y.parse::<usize>().ok()),
            _ => None,
        };
        let Some((x, y)) = parsed else {
            let message = format!("{} got {} instead of a move", quote(&sent), quote(&reply));
            return Err(self.process.violation(message));
        };
        self.stones.push((x, y));
        Ok(format!("{x},{y}"))
    }

    fn opponent_moved(&mut self, text: &str) -> Result<(), EngineFailure> {
        let point = self.point(text)?;
        self.stones.push(point);
        self.pending = Some(point);
        Ok(())
    }

    /// `SWAP2BOARD`, the stones in playing order as `x,y,field` lines (fields as in
    /// `BOARD`: 1 the side to move's, 2 the other's; Rapfi refuses bare `x,y`), `DONE`;
    /// the answer (`x,y ...` or `SWAP`) as the brain gives it. The game that follows
    /// starts afresh (`new_game`).
    fn swap2(
        &mut self,
        stones: &[String],
        request: GoRequest,
        deadline: Instant,
    ) -> Result<String, EngineFailure> {
        if let GoRequest::Clock { left, .. } = request {
            let millis = left.as_millis().min(i32::MAX as u128);
            self.send_info(&format!("INFO time_left {millis}"))?;
        }
        self.process.send("SWAP2BOARD")?;
        let own = stones.len() % 2;
        for (index, name) in stones.iter().enumerate() {
            let (x, y) = self.point(name)?;
            let field = if index % 2 == own { 1 } else { 2 };
            self.process.send(&format!("{x},{y},{field}"))?;
        }
        self.process.send("DONE")?;
        self.answer("SWAP2BOARD", deadline)
    }

    fn quit(&mut self) {
        self.process.quit("END");
    }
}

/// Whether `error` says that the command line `sent` (a command and one argument) was
/// dropped and its argument read as a command. Rapfi writes its answer to a move or a
/// `SWAP2BOARD` before it clears the flag that makes it ignore commands while it thinks:
/// a command that comes in between is dropped, and its argument answered `ERROR Unknown
/// command: <argument>` (`START 15` gets `ERROR Unknown command: 15`, `TURN 7,8` gets
/// `... 7,8`).
fn dropped(sent: &str, error: &str) -> bool {
    let mut words = sent.split_whitespace();
    let (Some(_), Some(argument), None) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    let lower = error.to_ascii_lowercase();
    lower.contains("unknown command") && lower.trim_end().ends_with(&argument.to_ascii_lowercase())
}

/// The `INFO rule` number of a Gomoku variant: 1 exact five, 4 renju, 0 freestyle.
pub(crate) fn gomocup_rule(variant: Variant) -> u8 {
    match variant {
        Variant::KInRow(config) if config.renju => 4,
        Variant::KInRow(config) if config.exact => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_refuse_what_they_cannot_express() {
        let othello = Variant::default();
        let gomoku = Variant::parse("gomoku", []).unwrap();
        let clock = TimeControl::MoveTime(Duration::from_millis(100));
        let moves = [Setup::Moves(vec!["f5".into()])];
        let board = [Setup::Board(format!("{} X", "-".repeat(64)))];
        assert!(Proto::Nboard.check(othello, clock, &board).is_ok());
        assert!(Proto::Nboard.check(gomoku, clock, &moves).is_err());
        assert!(
            Proto::Nboard
                .check(othello, TimeControl::Nodes(5), &moves)
                .is_err()
        );
        assert!(Proto::Gtp.check(gomoku, clock, &moves).is_ok());
        assert!(
            Proto::Gtp
                .check(othello, TimeControl::Depth(3), &moves)
                .is_err()
        );
        assert!(Proto::Gtp.check(othello, clock, &board).is_err());
        let wide = Variant::parse("gomoku", [("size", "30")]).unwrap();
        assert!(Proto::Gtp.check(wide, clock, &moves).is_err());
        assert!(Proto::Gomocup.check(othello, clock, &moves).is_err());
        let pente = Variant::parse("pente", []).unwrap();
        assert!(Proto::Gomocup.check(pente, clock, &moves).is_err());
        assert!(
            Proto::Gomocup
                .check(gomoku, TimeControl::Depth(4), &moves)
                .is_ok()
        );
        assert_eq!(Proto::parse("GTP"), Ok(Proto::Gtp));
        assert!(Proto::parse("uci").is_err());
        // threads= where a protocol can send it, depth= for NBoard only.
        assert!(Proto::Native.check_options(Some(2), None).is_ok());
        assert!(Proto::Nboard.check_options(Some(2), None).is_err());
        assert!(Proto::Nboard.check_options(None, Some(20)).is_ok());
        for proto in [Proto::Native, Proto::Gtp, Proto::Gomocup] {
            let refused = proto.check_options(None, Some(20)).unwrap_err();
            assert!(refused.contains("depth= is NBoard's"), "{refused}");
        }
    }

    #[test]
    fn a_dropped_command_is_told_from_an_error() {
        assert!(dropped("START 15", "ERROR Unknown command: 15"));
        assert!(dropped("TURN 7,8", "ERROR Unknown command: 7,8"));
        assert!(!dropped("TURN 7,8", "ERROR Unknown command: 8,8"));
        assert!(!dropped("START 15", "ERROR unsupported size 15"));
        assert!(!dropped("SWAP2BOARD", "ERROR Unknown command: SWAP2BOARD"));
        assert!(!dropped("DONE", "ERROR Unknown command: DONE"));
    }

    #[test]
    fn ggf_and_seconds() {
        let ggf = NboardEngine::ggf(&Setup::Moves(vec!["f5".into(), "d6".into()]), None);
        assert!(ggf.ends_with("*]B[F5]W[D6];)"), "{ggf}");
        assert!(!ggf.contains("TI["), "{ggf}");
        let clock = Some((Duration::from_secs(300), Duration::from_secs(2)));
        let ggf = NboardEngine::ggf(&Setup::Moves(Vec::new()), clock);
        assert!(ggf.contains("]TI[300/2]TY[8]"), "{ggf}");
        let clock = Some((Duration::from_secs(10), Duration::ZERO));
        assert!(NboardEngine::ggf(&Setup::Moves(Vec::new()), clock).contains("TI[10]"));
        let ggf = NboardEngine::ggf(&Setup::Board(format!("X{} O", "-".repeat(63))), None);
        assert!(
            ggf.contains(&format!("BO[8 *{} O]", "-".repeat(63))),
            "{ggf}"
        );
        assert_eq!(seconds(Duration::from_secs(10)), "10");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.500");
    }
}
