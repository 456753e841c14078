//! The Go Text Protocol (version 2) as a front end of the engine core: `arbor gtp`, for
//! GTP GUIs (GoGui, Quarry) and controllers, with GoGui's rules commands so that a GUI
//! that does not know the game's rules can still show it.
//!
//! Vertices are GTP's: a column letter (A to Z without I, as GoGui writes them) and the
//! game's own row number (1 at the top, as Othello engines and Quarry number rows), so on
//! boards up to 8 wide a vertex is the game's move name. See protocol.md, "GTP".

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::engine::events::{self, Arrival, Flow, Frontend};
use crate::engine::input::InputLine;
use crate::engine::output::Replies;
use crate::engine::{Engine, Finished, Settings};
use crate::game::notation::{COLUMNS, MAX_GTP_SIZE, point_vertex, vertex_to_name};
use crate::game::variant::Variant;
use crate::game::{Move, Side};
use crate::search::limits::Limits;
use crate::search::report::{Report, report_fields, score_text};
use crate::text::quote;

/// Longest accepted input line.
const MAX_LINE_BYTES: usize = 1 << 16;
/// Thinking time per move when the controller sets no clock.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);
/// Thinking time for the `arbor-hint` analysis command without an argument.
const DEFAULT_HINT_TIME: Duration = Duration::from_secs(1);

/// The game as the command line named it: `boardsize` re-reads it with another size, so
/// that the options' defaults follow the size (even Gomoku boards open freely).
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub name: String,
    pub options: Vec<(String, String)>,
}

impl GameSpec {
    fn variant(&self, size: Option<usize>) -> Result<Variant, String> {
        let size = size.map(|size| size.to_string());
        let options = self
            .options
            .iter()
            .filter(|(key, _)| size.is_none() || !key.eq_ignore_ascii_case("size"))
            .map(|(key, value)| (key.as_str(), value.as_str()))
            .chain(size.as_deref().map(|size| ("size", size)));
        let variant = Variant::parse(&self.name, options).map_err(|e| e.to_string())?;
        let width = board_size(variant);
        if width > MAX_GTP_SIZE {
            return Err(format!(
                "a {width}x{width} board is wider than GTP vertices reach ({MAX_GTP_SIZE})"
            ));
        }
        Ok(variant)
    }
}

fn board_size(variant: Variant) -> usize {
    match variant {
        Variant::Othello { size, .. } => size,
        Variant::KInRow(config) => config.size,
    }
}

/// Runs the protocol until `quit` or the end of input (a running `genmove` still
/// answers). A game GTP cannot name is refused before anything is read.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
    game: GameSpec,
) -> Result<(), String> {
    let variant = game.variant(None)?;
    let settings = Settings {
        variant,
        ..settings
    };
    let (mut engine, receiver) = Engine::new(&settings)?;
    let mut gtp = Gtp {
        out: Replies::new(output),
        game,
        plies: Vec::new(),
        clock: Clock::default(),
        job: None,
        best: None,
    };
    events::run(input, MAX_LINE_BYTES, &mut engine, receiver, &mut gtp)
        .map_err(crate::engine::output::stdout_error)
}

/// `time_settings`: main time, then byo-yomi periods of `byo_time` for `byo_stones`
/// moves (Canadian); `byo_time` > 0 with no stones means no limit.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    settings: Option<(Duration, Duration, u32)>,
    /// Per side (Black, White): time left and stones left in the period (0: main time),
    /// as `time_left` last said and the engine's own moves since used.
    left: [Option<(Duration, u32)>; 2],
}

impl Clock {
    fn unlimited(&self) -> bool {
        matches!(self.settings, Some((_, byo, 0)) if !byo.is_zero())
    }

    /// `side`'s time left and stones left in the period (0: main time); once main time
    /// is gone, a fresh period.
    fn current(&self, side: Side) -> Option<(Duration, u32)> {
        let (main, byo_time, byo_stones) = self.settings?;
        let (left, stones) = self.left[side.index()].unwrap_or((main, 0));
        if stones == 0 && left.is_zero() && byo_stones > 0 {
            return Some((byo_time, byo_stones));
        }
        Some((left, stones))
    }

    /// The search's limits for `side`'s move.
    fn limits(&self, side: Side) -> Limits {
        let current = self.current(side).filter(|_| !self.unlimited());
        let (Some((left, stones)), Some((_, byo_time, byo_stones))) = (current, self.settings)
        else {
            return Limits {
                movetime: Some(DEFAULT_MOVE_TIME),
                ..Limits::default()
            };
        };
        if stones > 0 {
            return Limits {
                time: Some(left),
                moves_to_go: Some(stones),
                ..Limits::default()
            };
        }
        // In main time a byo-yomi period waits behind the clock: its share is a bonus.
        Limits {
            time: Some(left),
            inc: (byo_stones > 0).then(|| byo_time / byo_stones),
            ..Limits::default()
        }
    }

    /// Charges `side` for a move that took `used`, until the next `time_left`.
    fn charge(&mut self, side: Side, used: Duration) {
        let (Some((left, stones)), Some((_, byo_time, byo_stones))) =
            (self.current(side), self.settings)
        else {
            return;
        };
        let left = left.saturating_sub(used);
        self.left[side.index()] = Some(match stones {
            // The period's last stone was played: a new period starts.
            1 => (byo_time, byo_stones),
            0 => (left, 0),
            _ => (left, stones - 1),
        });
    }
}

/// What the running job answers.
enum Job {
    /// `genmove`: the command's id, when it arrived, and the plies it played first (a
    /// pass of a side with no move).
    Genmove {
        id: Option<u64>,
        started: Instant,
        passes: usize,
    },
    /// `arbor-hint`: the command's id.
    Hint { id: Option<u64> },
}

struct Gtp {
    out: Replies,
    game: GameSpec,
    /// Plies each `play` or `genmove` added (a move, or a pass then a move), for `undo`.
    plies: Vec<usize>,
    clock: Clock,
    job: Option<Job>,
    /// The running hint's latest line: score and principal variation.
    best: Option<(String, Vec<String>)>,
}

/// A parsed command: its id, its name and its arguments.
struct Command {
    id: Option<u64>,
    name: String,
    args: Vec<String>,
}

/// Every command, in `list_commands` order.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "list_games",
    "set_game",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "arbor-hint",
];

/// GTP's preprocessing: control characters other than tab and newline go, a tab is a
/// space, and a `#` starts a comment. `None` for a line left empty.
fn preprocess(line: &str) -> Option<String> {
    let text: String = line
        .chars()
        .take_while(|&c| c != '#')
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Splits off an id (a leading integer) and the command name.
fn parse(text: &str) -> Result<Command, (Option<u64>, String)> {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or_default();
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        let id = first
            .parse::<u64>()
            .map_err(|_| (None, format!("id {} is too large", quote(first))))?;
        let name = words
            .next()
            .ok_or((Some(id), "missing command".to_string()))?;
        (Some(id), name)
    } else {
        (None, first)
    };
    Ok(Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    })
}

/// `b`, `w`, `black`, `white`, in any case.
fn parse_colour(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Side::Black),
        "w" | "white" => Ok(Side::White),
        _ => Err(format!("invalid color {}", quote(text))),
    }
}

fn colour_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// A move as a GTP vertex (lower case, as the game names its moves).
fn vertex(engine: &Engine, mv: Move) -> String {
    match engine.field_index(mv) {
        None => "pass".to_string(),
        Some(index) => point_vertex(index % engine.size(), index / engine.size()),
    }
}

/// A move name (`d3`, `pass`) as a vertex.
fn name_to_vertex(engine: &Engine, name: &str) -> String {
    engine
        .parse_move(name)
        .map(|mv| vertex(engine, mv))
        .unwrap_or_else(|_| name.to_string())
}

/// `B+16`, `W+2`, `0`: Black's margin (Othello: discs, empties to the winner); the
/// five-in-a-row games have no margin and give the winner only (`B+`).
fn score_string(engine: &Engine) -> Option<String> {
    let outcome = engine.outcome()?;
    let margin = engine.match_score().abs();
    let counted = matches!(engine.variant(), Variant::Othello { .. });
    Some(match outcome.winner {
        None => "0".to_string(),
        Some(side) => {
            let letter = if side == Side::Black { 'B' } else { 'W' };
            if counted {
                format!("{letter}+{margin}")
            } else {
                format!("{letter}+")
            }
        }
    })
}

/// A duration in seconds as GTP gives it: a non-negative number, possibly decimal.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .ok_or_else(|| format!("expected seconds, got {}", quote(text)))?;
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_count(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("expected a count of stones, got {}", quote(text)))
}

impl Gtp {
    fn write(&mut self, text: &str) {
        self.out.write(text);
    }

    /// `=id text` or `?id text`, then the empty line; a reply never holds an empty line.
    fn reply(&mut self, id: Option<u64>, result: Result<String, String>) {
        let id = id.map(|id| id.to_string()).unwrap_or_default();
        let (mark, text) = match result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        // A text starting with a newline (a diagram) starts on the next line.
        let separator = match text.chars().next() {
            None => "",
            Some('\n') => "\n",
            Some(_) => " ",
        };
        let text: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .collect();
        let text = text.join("\n");
        self.write(&format!("{mark}{id}{separator}{text}\n\n"));
    }

    /// Makes `side` the side to move, passing for the other side when its only move is a
    /// pass (GUIs that leave passes out, as Quarry does); returns the passes played.
    fn bring_to_move(engine: &mut Engine, side: Side) -> Result<usize, String> {
        if engine.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        let passes = usize::from(engine.fill_left_out_pass(Some(side), None)?);
        if engine.side_to_move() != side {
            return Err(format!("{} is to move", colour_name(engine.side_to_move())));
        }
        Ok(passes)
    }

    fn play(&mut self, engine: &mut Engine, args: &[String]) -> Result<String, String> {
        let [colour, point] = args else {
            return Err("syntax error: play <color> <vertex>".to_string());
        };
        let side = parse_colour(colour)?;
        let name = vertex_to_name(point, engine.size())?;
        let mv = engine.parse_move(&name)?;
        if engine.outcome().is_some() {
            return Err("illegal move: the game is over".to_string());
        }
        // Checked before anything changes: a pass played for nothing would stay.
        let passes = if engine.side_to_move() == side {
            0
        } else {
            Gtp::bring_to_move(engine, side).map_err(|e| format!("illegal move: {e}"))?
        };
        if !engine.legal_moves().contains(&mv) {
            if passes > 0 {
                let _ = engine.undo();
            }
            return Err(format!("illegal move: {}", point.to_ascii_lowercase()));
        }
        engine.play_move(mv)?;
        self.plies.push(passes + 1);
        Ok(String::new())
    }

    fn genmove(
        &mut self,
        engine: &mut Engine,
        id: Option<u64>,
        args: &[String],
        at: Instant,
    ) -> Result<Option<String>, String> {
        let [colour] = args else {
            return Err("syntax error: genmove <color>".to_string());
        };
        let side = parse_colour(colour)?;
        let passes = Gtp::bring_to_move(engine, side)?;
        let limits = self.clock.limits(side);
        match engine.go(limits, at) {
            Ok(()) => {
                self.job = Some(Job::Genmove {
                    id,
                    started: at,
                    passes,
                });
                Ok(None)
            }
            Err(error) => {
                for _ in 0..passes {
                    let _ = engine.undo();
                }
                Err(error.for_command("genmove"))
            }
        }
    }

    fn undo(&mut self, engine: &mut Engine) -> Result<String, String> {
        let plies = self.plies.pop().ok_or("cannot undo")?;
        for _ in 0..plies {
            engine.undo()?;
        }
        Ok(String::new())
    }

    fn new_game(&mut self, engine: &mut Engine, variant: Option<Variant>) -> Result<(), String> {
        engine.new_game(variant)?;
        self.plies.clear();
        Ok(())
    }

    fn boardsize(&mut self, engine: &mut Engine, args: &[String]) -> Result<String, String> {
        let [size] = args else {
            return Err("syntax error: boardsize <size>".to_string());
        };
        let size: usize = size
            .parse()
            .map_err(|_| format!("syntax error: boardsize {}", quote(size)))?;
        let variant = self
            .game
            .variant(Some(size))
            .map_err(|_| "unacceptable size".to_string())?;
        self.new_game(engine, Some(variant))?;
        Ok(String::new())
    }

    fn time_settings(&mut self, args: &[String]) -> Result<String, String> {
        let [main, byo_time, byo_stones] = args else {
            return Err("syntax error: time_settings <main> <byo-yomi time> <stones>".to_string());
        };
        let settings = (
            parse_seconds(main)?,
            parse_seconds(byo_time)?,
            parse_count(byo_stones)?,
        );
        self.clock = Clock {
            settings: Some(settings),
            left: [None; 2],
        };
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[String]) -> Result<String, String> {
        let [colour, time, stones] = args else {
            return Err("syntax error: time_left <color> <time> <stones>".to_string());
        };
        let side = parse_colour(colour)?;
        let left = (parse_seconds(time)?, parse_count(stones)?);
        // A controller may send time_left without time_settings: an absolute clock.
        self.clock
            .settings
            .get_or_insert((left.0, Duration::ZERO, 0));
        self.clock.left[side.index()] = Some(left);
        Ok(String::new())
    }

    /// `showboard`: the board as the game draws it (row 1 at the top), with GTP's column
    /// letters.
    fn showboard(engine: &Engine) -> String {
        let size = engine.size();
        let cells = engine.cells();
        let letters: String = COLUMNS[..size]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        let mut text = format!("\n   {letters}\n");
        for (row, line) in cells.as_bytes().chunks(size).enumerate() {
            let marks: String = line
                .iter()
                .map(|&c| match c {
                    b'X' => " X",
                    b'O' => " O",
                    _ => " .",
                })
                .collect();
            text.push_str(&format!("{:>2} {marks}\n", row + 1));
        }
        text.push_str(&engine.status());
        text
    }

    /// `gogui-rules_board`: rows from the last to the first, for GoGui, which reads the
    /// first line as its top row and numbers rows from the bottom, so that its names for
    /// the points are our vertices. Only `X`, `O` and `.` (GoGui skips the rest).
    fn rules_board(engine: &Engine) -> String {
        let size = engine.size();
        let cells = engine.cells();
        let rows: Vec<String> = cells
            .as_bytes()
            .chunks(size)
            .rev()
            .map(|line| {
                line.iter()
                    .map(|&c| match c {
                        b'X' => "X",
                        b'O' => "O",
                        _ => ".",
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        format!("\n{}", rows.join("\n"))
    }

    fn legal_moves(engine: &Engine) -> String {
        if engine.outcome().is_some() {
            return String::new();
        }
        let moves: Vec<String> = engine
            .legal_moves()
            .into_iter()
            .map(|mv| vertex(engine, mv))
            .collect();
        moves.join(" ")
    }

    fn game_id(engine: &Engine) -> String {
        let variant = engine.variant().to_string();
        variant.split(' ').next().unwrap_or_default().to_string()
    }

    fn hint(
        &mut self,
        engine: &mut Engine,
        id: Option<u64>,
        args: &[String],
    ) -> Result<(), String> {
        let time = match args {
            [] => DEFAULT_HINT_TIME,
            [ms] => crate::bounds::millis(ms).map_err(|e| format!("arbor-hint: {e}"))?,
            _ => return Err("syntax error: arbor-hint [milliseconds]".to_string()),
        };
        if engine.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        let limits = Limits {
            movetime: Some(time),
            ..Limits::default()
        };
        engine
            .hint(limits, Instant::now())
            .map_err(|e| e.for_command("arbor-hint"))?;
        self.best = None;
        self.job = Some(Job::Hint { id });
        Ok(())
    }

    /// Answers a command; `None` when a job was started and will answer.
    fn command(
        &mut self,
        engine: &mut Engine,
        command: &Command,
        at: Instant,
    ) -> Result<Option<String>, String> {
        let args = command.args.as_slice();
        let no_args = |text: String| {
            if args.is_empty() {
                Ok(Some(text))
            } else {
                Err(format!("syntax error: {} takes no arguments", command.name))
            }
        };
        match command.name.as_str() {
            "protocol_version" => no_args("2".to_string()),
            "name" => no_args("arbor".to_string()),
            "version" => no_args(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match args {
                [name] => Ok(Some(COMMANDS.contains(&name.as_str()).to_string())),
                _ => Err("syntax error: known_command <command>".to_string()),
            },
            "list_commands" => no_args(COMMANDS.join("\n")),
            "boardsize" => self.boardsize(engine, args).map(Some),
            "clear_board" => {
                no_args(String::new())?;
                self.new_game(engine, None)?;
                Ok(Some(String::new()))
            }
            // Go's compensation: checked, and meaningless here.
            "komi" => match args {
                [value] if value.parse::<f64>().is_ok_and(f64::is_finite) => {
                    Ok(Some(String::new()))
                }
                _ => Err("syntax error: komi <number>".to_string()),
            },
            "play" => self.play(engine, args).map(Some),
            "genmove" => self.genmove(engine, command.id, args, at),
            "undo" => {
                no_args(String::new())?;
                self.undo(engine).map(Some)
            }
            "showboard" => no_args(Gtp::showboard(engine)),
            "time_settings" => self.time_settings(args).map(Some),
            "time_left" => self.time_left(args).map(Some),
            "final_score" => {
                no_args(String::new())?;
                score_string(engine)
                    .map(Some)
                    .ok_or_else(|| "cannot score: the game is not over".to_string())
            }
            // Quarry's game selection (Edax answers them too).
            "list_games" => no_args(quarry_game(engine.variant()).to_string()),
            "set_game" => match args {
                [name] if name.eq_ignore_ascii_case(quarry_game(engine.variant())) => {
                    Ok(Some(String::new()))
                }
                _ => Err("unsupported game".to_string()),
            },
            "gogui-rules_game_id" => no_args(Gtp::game_id(engine)),
            "gogui-rules_board_size" => no_args(engine.size().to_string()),
            "gogui-rules_board" => no_args(Gtp::rules_board(engine)),
            "gogui-rules_legal_moves" => no_args(Gtp::legal_moves(engine)),
            "gogui-rules_side_to_move" => no_args(colour_name(engine.side_to_move()).to_string()),
            "gogui-rules_final_result" => {
                no_args(score_string(engine).unwrap_or_else(|| "unknown".to_string()))
            }
            "gogui-analyze_commands" => no_args(ANALYZE_COMMANDS.to_string()),
            // Announces that `# interrupt` stops a running genmove.
            "gogui-interrupt" => no_args(String::new()),
            "arbor-hint" => self.hint(engine, command.id, args).map(|()| None),
            "quit" => Ok(Some(String::new())),
            _ => Err("unknown command".to_string()),
        }
    }
}

/// GoGui's analysis menu: `type/label/command` per line.
const ANALYZE_COMMANDS: &str = "\
var/Best line (1 s)/arbor-hint
plist/Legal moves/gogui-rules_legal_moves
string/Side to move/gogui-rules_side_to_move
string/Final result/gogui-rules_final_result
string/Show board/showboard";

/// The game's name as Quarry's `set_game` gives it.
fn quarry_game(variant: Variant) -> &'static str {
    match variant {
        Variant::Othello { .. } => "Othello",
        Variant::KInRow(_) => "Gomoku",
    }
}

impl Frontend for Gtp {
    fn replies(&mut self) -> &mut Replies {
        &mut self.out
    }

    type Item = (Result<Command, (Option<u64>, String)>, Instant);

    /// `# interrupt` (GoGui) stops a running job; `quit` too, and is answered after it.
    fn arrive(&mut self, engine: &mut Engine, line: InputLine, at: Instant) -> Arrival<Self::Item> {
        let parsed = match line {
            InputLine::Text(text) => {
                if text.trim() == "# interrupt" {
                    engine.stop();
                    return Arrival::Handled;
                }
                let Some(text) = preprocess(&text) else {
                    return Arrival::Handled;
                };
                parse(&text)
            }
            InputLine::TooLong(bytes) => Err((
                None,
                format!("line too long ({bytes} bytes; the limit is {MAX_LINE_BYTES})"),
            )),
            InputLine::NotUtf8 => Err((None, "line is not valid UTF-8 text".to_string())),
        };
        if matches!(&parsed, Ok(command) if command.name == "quit") {
            engine.stop();
        }
        Arrival::Queue((parsed, at))
    }

    fn handle(&mut self, engine: &mut Engine, (parsed, at): Self::Item) -> Flow {
        let command = match parsed {
            Ok(command) => command,
            Err((id, message)) => {
                self.reply(id, Err(message));
                return Flow::Continue;
            }
        };
        match self.command(engine, &command, at) {
            Ok(None) => {}
            Ok(Some(text)) => self.reply(command.id, Ok(text)),
            Err(message) => self.reply(command.id, Err(message)),
        }
        if command.name == "quit" {
            return Flow::Exit;
        }
        Flow::Continue
    }

    /// Progress goes to stderr, which GUIs show in their GTP console.
    fn report(&mut self, engine: &Engine, report: Report) {
        if let Some(line) = report.lines.first() {
            let pv = engine
                .line_names(&line.pv)
                .iter()
                .map(|name| name_to_vertex(engine, name))
                .collect();
            self.best = Some((score_text(line.score), pv));
        }
        for fields in report_fields(&report, |line| engine.line_names(line)) {
            eprintln!("info {fields}");
        }
    }

    fn finished(&mut self, engine: &mut Engine, finished: Finished) -> Flow {
        match self.job.take() {
            Some(Job::Genmove {
                id,
                started,
                passes,
            }) => {
                let played = match finished {
                    Finished::Played { mv, .. } => Ok(mv),
                    // A failed search still owes the controller a legal move.
                    Finished::Failed { message, .. } => {
                        log::error!("gtp: {message}");
                        engine
                            .play_fallback()
                            .and_then(|name| engine.parse_move(&name))
                            .map_err(String::from)
                    }
                    other => Err(format!("internal error: {other:?}")),
                };
                match played {
                    Ok(mv) => {
                        let side = engine.side_to_move().opponent();
                        self.clock.charge(side, started.elapsed());
                        self.plies.push(passes + 1);
                        let text = vertex(engine, mv);
                        self.reply(id, Ok(text));
                    }
                    Err(message) => {
                        for _ in 0..passes {
                            let _ = engine.undo();
                        }
                        self.reply(id, Err(message));
                    }
                }
            }
            Some(Job::Hint { id }) => {
                let text = match (finished, self.best.take()) {
                    (Finished::Hinted { mv, .. }, best) => {
                        let (score, pv) = best.unwrap_or_else(|| ("?".to_string(), Vec::new()));
                        let mut pv = pv;
                        let first = vertex(engine, mv);
                        if pv.first() != Some(&first) {
                            pv = vec![first];
                        }
                        Ok(format!("{} score {score}", pv.join(" ")))
                    }
                    (Finished::Failed { message, .. }, _) => Err(message),
                    (other, _) => Err(format!("internal error: {other:?}")),
                };
                self.reply(id, text);
            }
            None => log::error!("gtp: a job ended that was not started"),
        }
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_drops_comments_controls_and_blank_lines() {
        assert_eq!(
            preprocess("  genmove\tb # why"),
            Some("genmove b".to_string())
        );
        assert_eq!(preprocess("# a comment"), None);
        assert_eq!(preprocess("\u{1}\u{7f}  "), None);
        assert_eq!(preprocess("na\u{1b}me"), Some("name".to_string()));
    }

    #[test]
    fn ids_and_names() {
        let command = parse("12 genmove b").unwrap();
        assert_eq!(command.id, Some(12));
        assert_eq!(command.name, "genmove");
        assert_eq!(command.args, ["b"]);
        assert_eq!(parse("name").unwrap().id, None);
        assert!(parse("99999999999999999999999 name").is_err());
        assert_eq!(
            parse("7").err(),
            Some((Some(7), "missing command".to_string()))
        );
    }

    #[test]
    fn vertices_skip_i_and_keep_the_game_rows() {
        assert_eq!(vertex_to_name("D3", 8).unwrap(), "d3");
        assert_eq!(vertex_to_name("d3", 8).unwrap(), "d3");
        assert_eq!(vertex_to_name("PASS", 8).unwrap(), "pass");
        // J is the ninth column: the game calls it i.
        assert_eq!(vertex_to_name("J10", 15).unwrap(), "i10");
        assert_eq!(vertex_to_name("P15", 15).unwrap(), "o15");
        for bad in [
            "I5", "J1", "A9", "A0", "", "3D", "D", "D3x", "DD3", "d-3", "é3",
        ] {
            assert!(vertex_to_name(bad, 8).is_err(), "{bad} accepted");
        }
        assert!(vertex_to_name("Q1", 15).is_err());
    }

    #[test]
    fn colours() {
        assert_eq!(parse_colour("B"), Ok(Side::Black));
        assert_eq!(parse_colour("white"), Ok(Side::White));
        assert_eq!(parse_colour("WHITE"), Ok(Side::White));
        assert!(parse_colour("x").is_err());
    }

    #[test]
    fn the_clock_follows_time_settings_and_time_left() {
        let mut clock = Clock::default();
        assert_eq!(clock.limits(Side::Black).movetime, Some(DEFAULT_MOVE_TIME));
        // Absolute: 60 s for the game.
        clock.settings = Some((Duration::from_secs(60), Duration::ZERO, 0));
        assert_eq!(
            clock.limits(Side::Black).time,
            Some(Duration::from_secs(60))
        );
        clock.charge(Side::Black, Duration::from_secs(10));
        assert_eq!(
            clock.limits(Side::Black).time,
            Some(Duration::from_secs(50))
        );
        assert_eq!(
            clock.limits(Side::White).time,
            Some(Duration::from_secs(60))
        );
        // Canadian byo-yomi: 30 s for 2 stones once main time is gone.
        clock.settings = Some((Duration::ZERO, Duration::from_secs(30), 2));
        clock.left = [None; 2];
        let limits = clock.limits(Side::White);
        assert_eq!(
            (limits.time, limits.moves_to_go),
            (Some(Duration::from_secs(30)), Some(2))
        );
        clock.charge(Side::White, Duration::from_secs(5));
        let limits = clock.limits(Side::White);
        assert_eq!(
            (limits.time, limits.moves_to_go),
            (Some(Duration::from_secs(25)), Some(1))
        );
        clock.charge(Side::White, Duration::from_secs(5));
        assert_eq!(
            clock.limits(Side::White).time,
            Some(Duration::from_secs(30))
        );
        // Quarry's mode, one stone a period of one second: the move may use most of it.
        clock.settings = Some((Duration::ZERO, Duration::from_secs(1), 1));
        clock.left = [Some((Duration::from_secs(1), 1)); 2];
        let budget =
            crate::search::time::budget(&clock.limits(Side::Black), 30, Duration::ZERO).unwrap();
        assert!(budget.hard >= Duration::from_millis(900), "{budget:?}");
        // Byo-yomi time without stones: no limit, the default move time.
        clock.settings = Some((Duration::ZERO, Duration::from_secs(1), 0));
        assert_eq!(clock.limits(Side::White).movetime, Some(DEFAULT_MOVE_TIME));
    }
}
