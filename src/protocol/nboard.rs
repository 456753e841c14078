//! The NBoard protocol (version 2) as a front end of the engine core: `arbor nboard`.
//!
//! The NBoard GUI sends `nboard 2`, `set depth N`, `set game <GGF>`, `move F5/eval/time`,
//! `hint N`, `go`, `analyze`, `learn` and `ping N`; it reads `set myname`, `pong N`,
//! `search`/`book` hint lines, `=== move/eval/time`, `analysis`, `nodestats` and `status`.
//! The GUI drops every reply older than its last `ping`, so a `ping` stops whatever runs
//! and is answered once it has ended (a stopped `go` still names its move first, for
//! referees that stop an engine by `ping`). `go` does not play its move: the GUI sends it
//! back with `move`, as it does every move. The protocol has no error reply: bad lines
//! are logged on stderr and change nothing. See protocol.md, "NBoard protocol".

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::ggf;
use crate::bounds;
use crate::engine::events::{self, Arrival, Flow, Frontend};
use crate::engine::input::InputLine;
use crate::engine::output::Replies;
use crate::engine::{AnalysisOptions, Engine, Finished, Settings};
use crate::game::othello::Othello;
use crate::game::roles::ScoreValue;
use crate::game::variant::Variant;
use crate::game::{Game, Move, Side, fill_left_out_pass};
use crate::search::limits::Limits;
use crate::search::report::{Line, Report};
use crate::search::tt::Bound;
use crate::text::quote;

/// Longest accepted input line: a GGF game of 60 moves with evals and times fits many
/// times over.
const MAX_LINE_BYTES: usize = 1 << 16;
/// Thinking time for `go` and `hint` when the GUI has set no depth.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);
/// Thinking time per position for `analyze`, and for a forced move's score, when the GUI
/// has set no depth.
const DEFAULT_ANALYSIS_TIME: Duration = Duration::from_secs(1);

/// Runs the protocol until `quit` or the end of input (a running job is finished and
/// answered at the end of input). Replies go to `output`, flushed line by line.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
) -> io::Result<()> {
    let mut nboard = NBoard {
        out: Replies::new(output),
        depth: None,
        job: None,
        cancelled: false,
        pings_waiting: 0,
        nodes: None,
        pending: None,
        shown: Vec::new(),
    };
    let settings = Settings {
        variant: Variant::default(),
        ..settings
    };
    match Engine::new(&settings) {
        Ok((mut engine, receiver)) => {
            events::run(input, MAX_LINE_BYTES, &mut engine, receiver, &mut nboard)
        }
        Err(error) => {
            log::error!("nboard: {error}");
            Ok(())
        }
    }
}

/// What the running job was started for.
enum Job {
    Go {
        started: Instant,
    },
    Hint,
    /// `analyze`: the game's moves, and the position (moves played) being searched;
    /// positions are analysed from the last back to the start, then the game is restored.
    Analyze {
        moves: Vec<Move>,
        at: usize,
    },
}

struct NBoard {
    out: Replies,
    /// `set depth`: the search depth for `go`, `hint` and `analyze`.
    depth: Option<u32>,
    job: Option<Job>,
    /// A `ping` arrived while the job ran: its answer would be dropped by the GUI.
    cancelled: bool,
    /// `ping` lines read but not yet answered: a job queued before one is not started.
    pings_waiting: usize,
    /// Nodes and time of the running job's latest report.
    nodes: Option<(u64, Duration)>,
    /// The move the last `go` answered, not played until the GUI plays it with `move`.
    pending: Option<Move>,
    /// The running hint's last line for each move: a line is sent again only changed.
    shown: Vec<SearchLine>,
}

/// An evaluation in discs for the side to move, as the GUI parses it (no exponent, no NaN).
fn eval_text(score: ScoreValue) -> String {
    let discs = match score {
        ScoreValue::Eval { value, per_unit } => value as f64 / per_unit.max(1) as f64,
        ScoreValue::Margin(margin) => margin as f64,
        ScoreValue::Win(_) => 64.0,
        ScoreValue::Loss(_) => -64.0,
        ScoreValue::Draw => 0.0,
    };
    format!("{discs:.2}")
}

/// A move as NBoard writes it: `F5`, `PA` for a pass.
fn nboard_move(name: &str) -> String {
    if name == "pass" {
        "PA".to_string()
    } else {
        name.to_ascii_uppercase()
    }
}

/// Whether the side to move has a single move (a pass included): the search would play
/// it without a score, so an analysis of that one move gives its score instead.
fn forced(engine: &Engine) -> bool {
    engine.legal_moves().len() == 1
}

/// The first word and the rest, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

impl NBoard {
    /// Writes one line; control characters become `?` so a line stays one line.
    fn line(&mut self, text: &str) {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        self.out.line(&clean);
    }

    fn limits(&self, default: Duration) -> Limits {
        match self.depth {
            Some(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(default),
                ..Limits::default()
            },
        }
    }

    /// What an analysis of a forced move searches: its one line, to `set depth` or for
    /// the analysis time.
    fn forced_options(&self) -> AnalysisOptions {
        AnalysisOptions {
            lines: Some(1),
            time: self.depth.is_none().then_some(DEFAULT_ANALYSIS_TIME),
            depth: self.depth,
            ..AnalysisOptions::default()
        }
    }

    /// Plays a `move`. After `go` the GUI plays the engine's move back (as the NBoard GUI
    /// and Edax do); a driver that sends the opponent's reply instead still keeps the
    /// game in step: the engine's move is played first.
    fn play(&mut self, engine: &mut Engine, name: &str) -> Result<(), String> {
        let Some(pending) = self.pending.take() else {
            engine.play(name)?;
            return Ok(());
        };
        if engine.parse_move(name) == Ok(pending) {
            engine.play_move(pending)?;
            return Ok(());
        }
        // Another move for the engine's side (the user played it instead).
        if engine.play(name).is_ok() {
            return Ok(());
        }
        engine.play_move(pending)?;
        engine.play(name).inspect_err(|_| {
            let _ = engine.undo();
        })?;
        Ok(())
    }

    fn command(&mut self, engine: &mut Engine, text: &str, at: Instant) -> Result<Flow, String> {
        let (word, rest) = split_word(text);
        if matches!(word, "go" | "hint" | "analyze") && self.pings_waiting > 0 {
            log::debug!("nboard: {word} skipped: a ping after it drops its answer");
            return Ok(Flow::Continue);
        }
        match word {
            "" => {}
            "nboard" => {
                bounds::number(rest).map_err(|e| format!("nboard: version {e}"))?;
                self.line("set myname arbor");
            }
            "set" => self.set(engine, rest)?,
            "move" => {
                let name = ggf::move_name(rest)?;
                self.play(engine, &name)?;
            }
            "ping" => {
                self.pings_waiting = self.pings_waiting.saturating_sub(1);
                let number: i64 = rest
                    .parse()
                    .map_err(|_| format!("ping needs a number, not {}", quote(rest)))?;
                self.line(&format!("pong {number}"));
            }
            "hint" => {
                let count = bounds::number(rest).map_err(|e| format!("hint: {e}"))?;
                if count == 0 {
                    return Err("hint: at least one move".to_string());
                }
                self.hint(engine, count, at);
            }
            "go" => self.go(engine, at),
            "analyze" => {
                self.pending = None;
                let moves = engine.history();
                let at_end = moves.len();
                self.line("status thinking");
                self.analyse_from(engine, moves, at_end);
            }
            // No book yet: the game is acknowledged, not kept.
            "learn" => self.line("learned"),
            "quit" => return Ok(Flow::Exit),
            _ => return Err(format!("unknown command {}", quote(word))),
        }
        Ok(Flow::Continue)
    }

    fn set(&mut self, engine: &mut Engine, rest: &str) -> Result<(), String> {
        let (name, value) = split_word(rest);
        match name {
            "depth" => {
                let depth = bounds::fixed_depth(value).map_err(|e| format!("set depth: {e}"))?;
                self.depth = Some(depth);
            }
            "game" => self.set_game(engine, value)?,
            // The search has no contempt; the value is checked and ignored.
            "contempt" => {
                value
                    .parse::<i64>()
                    .map_err(|_| format!("set contempt needs a number, not {}", quote(value)))?;
            }
            _ => return Err(format!("unknown option {}", quote(name))),
        }
        Ok(())
    }

    /// Replaces the game with the record's, or leaves it alone if any of it is wrong:
    /// the record is played through on a scratch board first.
    fn set_game(&mut self, engine: &mut Engine, text: &str) -> Result<(), String> {
        let game = ggf::parse(text)?;
        if game.variant != crate::game::variant::Variant::default() {
            return Err(format!("{}: NBoard plays 8x8 normal Othello", game.variant));
        }
        self.pending = None;
        let mut scratch = Othello::standard();
        scratch
            .set_board(&game.cells, game.side)
            .map_err(|e| e.to_string())?;
        for (side, name) in &game.moves {
            let mv = scratch.parse_move(name).map_err(|e| e.to_string())?;
            // The GUI leaves forced passes out: the next move is the other colour's.
            fill_left_out_pass(&mut scratch, Some(*side), Some(mv));
            let to_move = scratch.side_to_move();
            if *side != to_move {
                return Err(format!("{to_move} to move, not {side}: {name}"));
            }
            if !scratch.is_legal(mv) {
                return Err(format!("illegal move {name} for {to_move}"));
            }
            scratch.make(mv);
        }
        engine.set_board(&game.cells, game.side)?;
        for (side, name) in &game.moves {
            engine.fill_left_out_pass(Some(*side), None)?;
            engine.play(name)?;
        }
        Ok(())
    }

    /// Starts `go` (the move is chosen, not played); a game without a move to search gets
    /// no answer (the GUI knows). A forced move is scored by an analysis of it.
    fn go(&mut self, engine: &mut Engine, at: Instant) {
        self.pending = None;
        let started = if forced(engine) {
            engine.analyze(&self.forced_options(), at)
        } else {
            engine.hint(self.limits(DEFAULT_MOVE_TIME), at)
        };
        match started {
            Ok(()) => {
                self.line("status thinking");
                self.begin(Job::Go { started: at });
            }
            Err(error) => log::warn!("nboard: {error}"),
        }
    }

    /// Starts `hint N`: an analysis of the best N moves, each reported with its score.
    fn hint(&mut self, engine: &mut Engine, count: u64, at: Instant) {
        self.pending = None;
        self.shown.clear();
        let limits = self.limits(DEFAULT_MOVE_TIME);
        let options = AnalysisOptions {
            lines: Some(count.min(bounds::MAX_LINES) as usize),
            time: limits.movetime,
            depth: limits.depth,
            ..AnalysisOptions::default()
        };
        match engine.analyze(&options, at) {
            Ok(()) => {
                self.line("status thinking");
                self.begin(Job::Hint);
            }
            Err(error) => {
                log::warn!("nboard: {error}");
                // Nothing to hint: the GUI still gets its end of hints.
                self.line("status");
            }
        }
    }

    fn begin(&mut self, job: Job) {
        self.job = Some(job);
        self.cancelled = false;
        self.nodes = None;
    }

    /// Analyses the position after `at` of `moves` and the ones before it, each in turn;
    /// the game is restored after the start position or a `ping`.
    fn analyse_from(&mut self, engine: &mut Engine, moves: Vec<Move>, at: usize) {
        let mut at = at;
        loop {
            if engine.outcome().is_some() {
                // The core's result is Black's; the GUI wants the mover's.
                let margin = match engine.side_to_move() {
                    Side::Black => engine.match_score(),
                    Side::White => -engine.match_score(),
                };
                self.line(&format!(
                    "analysis {at} {}",
                    eval_text(ScoreValue::Margin(margin))
                ));
            } else {
                let started = if forced(engine) {
                    engine.analyze(&self.forced_options(), Instant::now())
                } else {
                    engine.hint(self.limits(DEFAULT_ANALYSIS_TIME), Instant::now())
                };
                match started {
                    Ok(()) => return self.begin(Job::Analyze { moves, at }),
                    Err(error) => log::warn!("nboard: analyze: {error}"),
                }
            }
            if at == 0 || engine.undo().is_err() {
                return self.restore(engine, &moves);
            }
            at -= 1;
        }
    }

    /// Plays back the moves `analyze` took back: the analysis is over.
    fn restore(&mut self, engine: &mut Engine, moves: &[Move]) {
        self.line("status");
        let done = engine.history().len();
        for &mv in moves.iter().skip(done) {
            if let Err(error) = engine.play_move(mv) {
                log::error!("nboard: analyze could not restore the game: {error}");
                return;
            }
        }
    }

    /// A search line for the GUI: `search <pv> <eval> 0 <depth>`, the pv without spaces,
    /// for each line of the report (the best first), each labelled with the depth it was
    /// searched at, but a solver's bound: NBoard would show it as the move's proven value
    /// (`100%`) and has no way to say that it is only a bound (an analysis's solved moves
    /// past the hint's count, a solve cut short).
    fn search_lines(engine: &Engine, report: &Report) -> Vec<SearchLine> {
        report
            .lines
            .iter()
            .filter(|line| line.proof.is_none() || line.bound == Bound::Exact)
            .filter_map(|line| SearchLine::new(engine, line))
            .collect()
    }

    /// Sends a hint's lines that are new or changed since the hint began: each finished
    /// iteration (or solve) once per move, not the whole report again.
    fn send_hints(&mut self, engine: &Engine, report: &Report) {
        for line in NBoard::search_lines(engine, report) {
            match self
                .shown
                .iter()
                .position(|shown| shown.first == line.first)
            {
                Some(at) if self.shown[at] == line => continue,
                Some(at) => self.shown[at].clone_from(&line),
                None => self.shown.push(line.clone()),
            }
            self.line(&line.to_string());
        }
    }

    fn nodestats(&mut self, fallback: u64, elapsed: Duration) {
        let (nodes, _) = self.nodes.unwrap_or((fallback, elapsed));
        self.line(&format!("nodestats {nodes} {:.3}", elapsed.as_secs_f64()));
    }
}

/// One line of a search as the GUI shows it: `search <pv> <eval> 0 <depth>`, the pv
/// without spaces, the depth `100%` for an exact solve.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SearchLine {
    first: Move,
    pv: String,
    eval: String,
    depth: String,
}

impl SearchLine {
    /// `None` for a line without moves.
    fn new(engine: &Engine, line: &Line) -> Option<SearchLine> {
        let first = *line.pv.first()?;
        let pv = engine
            .line_names(&line.pv)
            .iter()
            .map(|name| nboard_move(name))
            .collect();
        let depth = if line.proof.is_some() {
            "100%".to_string()
        } else {
            line.depth.to_string()
        };
        Some(SearchLine {
            first,
            pv,
            eval: eval_text(line.score),
            depth,
        })
    }
}

impl std::fmt::Display for SearchLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "search {} {} 0 {}", self.pv, self.eval, self.depth)
    }
}

impl Frontend for NBoard {
    fn replies(&mut self) -> &mut Replies {
        &mut self.out
    }

    type Item = (InputLine, Instant);

    /// A `ping` stops the running job at once (its answer would be dropped, but a `go`
    /// still names the move it has); `quit` too, with no answer.
    fn arrive(&mut self, engine: &mut Engine, line: InputLine, at: Instant) -> Arrival<Self::Item> {
        if let InputLine::Text(text) = &line {
            let word = split_word(text).0;
            if word == "ping" {
                self.pings_waiting += 1;
            }
            if engine.is_busy() && matches!(word, "ping" | "quit") {
                if word == "quit" || !matches!(self.job, Some(Job::Go { .. })) {
                    self.cancelled = true;
                }
                engine.stop();
            }
        }
        Arrival::Queue((line, at))
    }

    fn handle(&mut self, engine: &mut Engine, (line, at): Self::Item) -> Flow {
        let result = match line {
            InputLine::Text(text) => self.command(engine, &text, at),
            InputLine::TooLong(bytes) => Err(format!(
                "line too long ({bytes} bytes; the limit is {MAX_LINE_BYTES})"
            )),
            InputLine::NotUtf8 => Err("line is not valid UTF-8 text".to_string()),
        };
        result.unwrap_or_else(|error| {
            log::warn!("nboard: {error}");
            Flow::Continue
        })
    }

    fn report(&mut self, engine: &Engine, report: Report) {
        self.nodes = Some((report.nodes, report.elapsed));
        if self.cancelled {
            return;
        }
        match self.job {
            Some(Job::Hint) => self.send_hints(engine, &report),
            Some(Job::Go { .. }) => {
                if let Some(line) = NBoard::search_lines(engine, &report).first() {
                    // A depth-0 report is an opening book move.
                    let SearchLine {
                        pv, eval, depth, ..
                    } = line;
                    if report.depth == 0 {
                        self.line(&format!("status book: {eval} {pv}"));
                    } else {
                        self.line(&format!("status depth {depth}: {eval} {pv}"));
                    }
                }
            }
            _ => {}
        }
    }

    fn finished(&mut self, engine: &mut Engine, finished: Finished) -> Flow {
        let job = self.job.take();
        let cancelled = std::mem::take(&mut self.cancelled);
        if let (Some(Job::Hint), Finished::Analyzed { report }) = (&job, &finished) {
            if !cancelled {
                // An analysis stopped before its first report still names its lines.
                if self.nodes.is_none() {
                    self.send_hints(engine, report);
                }
                self.nodestats(report.nodes, report.elapsed);
            }
            self.line("status");
            return Flow::Continue;
        }
        // The move chosen and its eval (the mover's, in discs).
        let (chosen, eval, nodes) = match &finished {
            Finished::Hinted { mv, result, .. } => (
                Some(*mv),
                result
                    .as_ref()
                    .map(|r| eval_text(engine.score_value(r.score, r.exact))),
                result.as_ref().map_or(0, |r| r.nodes),
            ),
            Finished::Analyzed { report } => {
                let best = report.lines.first();
                (
                    best.and_then(|line| line.pv.first().copied())
                        .or_else(|| engine.fallback_move()),
                    best.map(|line| eval_text(line.score)),
                    report.nodes,
                )
            }
            Finished::Failed { message, .. } => {
                log::error!("nboard: {message}");
                (None, None, 0)
            }
            other => {
                log::error!("nboard: unexpected {other:?}");
                (None, None, 0)
            }
        };
        let eval = eval.unwrap_or_else(|| "0.00".to_string());
        match job {
            Some(Job::Go { started }) => {
                let elapsed = started.elapsed();
                if cancelled {
                    self.line("status");
                    return Flow::Continue;
                }
                // A failed search still owes the GUI a legal move.
                let Some(mv) = chosen.or_else(|| engine.fallback_move()) else {
                    log::error!("nboard: no legal move to answer go");
                    self.line("status");
                    return Flow::Continue;
                };
                self.nodestats(nodes, elapsed);
                self.pending = Some(mv);
                self.line(&format!(
                    "=== {}/{eval}/{:.2}",
                    nboard_move(&engine.move_name(mv)),
                    elapsed.as_secs_f64()
                ));
            }
            // A hint that failed: the GUI still gets its end of hints.
            Some(Job::Hint) => self.line("status"),
            Some(Job::Analyze { moves, at }) => {
                if cancelled {
                    self.restore(engine, &moves);
                    return Flow::Continue;
                }
                self.line(&format!("analysis {at} {eval}"));
                if at == 0 || engine.undo().is_err() {
                    self.restore(engine, &moves);
                } else {
                    self.analyse_from(engine, moves, at - 1);
                }
            }
            None => log::error!("nboard: a job ended that was not started"),
        }
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_are_plain_numbers() {
        let eval = ScoreValue::Eval {
            value: -207,
            per_unit: 100,
        };
        assert_eq!(eval_text(eval), "-2.07");
        assert_eq!(eval_text(ScoreValue::Margin(12)), "12.00");
        assert_eq!(eval_text(ScoreValue::Margin(0)), "0.00");
        assert_eq!(eval_text(ScoreValue::Loss(3)), "-64.00");
        assert_eq!(
            eval_text(ScoreValue::Eval {
                value: 5,
                per_unit: 0
            }),
            "5.00"
        );
    }

    #[test]
    fn search_lines_mark_exact_solves_and_run_the_pv_together() {
        use crate::search::report::Line;
        let (engine, _events) = Engine::new(&Settings {
            hash_mb: 1,
            ..Settings::default()
        })
        .unwrap();
        let f5 = engine.parse_move("f5").unwrap();
        let mut report = Report {
            depth: 7,
            nodes: 10,
            elapsed: Duration::from_millis(5),
            exact: false,
            lines: vec![Line {
                score: ScoreValue::Margin(-4),
                bound: Bound::Exact,
                pv: vec![f5, engine.parse_move("d6").unwrap()],
                proof: Some(crate::game::roles::ProofKind::Solve),
                depth: 12,
            }],
        };
        report.lines.push(Line {
            score: ScoreValue::Eval {
                value: -650,
                per_unit: 100,
            },
            bound: Bound::Upper,
            pv: vec![engine.parse_move("e6").unwrap()],
            proof: None,
            depth: 7,
        });
        let texts = |report: &Report| -> Vec<String> {
            NBoard::search_lines(&engine, report)
                .iter()
                .map(SearchLine::to_string)
                .collect()
        };
        assert_eq!(
            texts(&report),
            ["search F5D6 -4.00 0 100%", "search E6 -6.50 0 7"]
        );
        report.lines[0].pv.clear();
        assert_eq!(texts(&report), ["search E6 -6.50 0 7"]);
        // A move the solver only bounded is left out, not shown as proven.
        report.lines[1].proof = Some(crate::game::roles::ProofKind::Solve);
        assert!(NBoard::search_lines(&engine, &report).is_empty());
    }

    #[test]
    fn move_names() {
        assert_eq!(nboard_move("pass"), "PA");
        assert_eq!(nboard_move("f5"), "F5");
    }
}
