//! The native protocol as a front end of the engine core: one reply per command, in
//! command order; `go`, `solve` and `perft` run as jobs, so `stop` and `quit` act at once.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use super::command::{Command, ParseError, Request, parse_line};
use super::json::{Message, ReportJson};
use crate::bounds;
use crate::engine::events::{self, Arrival, Flow, Frontend};
use crate::engine::input::InputLine;
use crate::engine::job::JobKind;
use crate::engine::output::Replies;
use crate::engine::swap2::Answer;
use crate::engine::{Engine, EngineError, Finished, Settings};
use crate::game::variant::Variant;
use crate::search::report::{Report, analysis_fields, report_fields, score_text};
use crate::text::quote;

/// Longest accepted input line; longer ones are skipped and answered with `?`.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Runs the protocol until `quit` or the end of input.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
) -> io::Result<()> {
    let mut native = Native {
        out: Replies::new(output),
        job_id: None,
        quitting: false,
        json: false,
        job_json: None,
    };
    match Engine::new(&settings) {
        Ok((mut engine, receiver)) => {
            events::run(input, MAX_LINE_BYTES, &mut engine, receiver, &mut native)
        }
        Err(error) => {
            native.reply(None, Err(error.to_string()));
            native.out.take_error().map_or(Ok(()), Err)
        }
    }
}

struct Native {
    out: Replies,
    /// The id of the command whose job is running.
    job_id: Option<u64>,
    quitting: bool,
    /// `set format json`: every reply and report is one JSON object per line.
    json: bool,
    /// The running job's reports and reply are JSON or text whatever `json` says
    /// (`analyze ... format json|text`).
    job_json: Option<bool>,
}

impl Native {
    fn write(&mut self, text: &str) {
        self.out.write(text);
    }

    fn reply(&mut self, id: Option<u64>, result: Result<String, String>) {
        if self.job_json.take().unwrap_or(self.json) {
            let line = Message::reply(id, result).to_line();
            self.write(&format!("{line}\n"));
            return;
        }
        let id = id.map(|id| id.to_string()).unwrap_or_default();
        let text = match result {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(message) => format!("?{id} {message}\n\n"),
        };
        self.write(&text);
    }

    /// Starts a job, or answers at once if it cannot start.
    /// A job `command` started, or the answer why not.
    fn start(
        &mut self,
        id: Option<u64>,
        command: &str,
        started: Result<(), EngineError>,
        engine: &Engine,
    ) {
        match started {
            Ok(()) => {
                self.job_id = id;
                if self.quitting {
                    engine.stop();
                }
            }
            Err(error) => self.reply(id, Err(error.for_command(command))),
        }
    }

    fn new_game(
        engine: &mut Engine,
        game: Option<String>,
        options: &[(String, String)],
    ) -> Result<String, String> {
        let variant = match game {
            None => None,
            Some(name) => Some(
                Variant::parse(
                    &name,
                    options
                        .iter()
                        .map(|(key, value)| (key.as_str(), value.as_str())),
                )
                .map_err(|e| e.to_string())?,
            ),
        };
        engine.new_game(variant)?;
        Ok(String::new())
    }

    fn set(&mut self, engine: &mut Engine, name: &str, value: &str) -> Result<String, String> {
        match name {
            "format" => {
                self.json = match value.to_ascii_lowercase().as_str() {
                    "json" => true,
                    "text" => false,
                    _ => {
                        return Err(format!(
                            "set format: expected text or json, got {}",
                            quote(value)
                        ));
                    }
                }
            }
            "player" => engine.set_player(value.parse()?),
            "seed" => engine.set_seed(bounds::number(value).map_err(|e| format!("set seed: {e}"))?),
            "hash" => {
                let megabytes = bounds::hash_mb(value).map_err(|e| format!("set hash: {e}"))?;
                engine
                    .set_hash(megabytes)
                    .map_err(|e| format!("set hash: {e}"))?;
            }
            "threads" => {
                let threads = bounds::threads(value).map_err(|e| format!("set threads: {e}"))?;
                engine
                    .set_threads(threads)
                    .map_err(|e| format!("set threads: {e}"))?;
            }
            "jamboree" => {
                let children = bounds::jamboree(value).map_err(|e| format!("set jamboree: {e}"))?;
                engine
                    .set_jamboree(children)
                    .map_err(|e| format!("set jamboree: {e}"))?;
            }
            "book" => engine.set_book(bounds::switch(value).map_err(|e| format!("set book: {e}"))?),
            "book_spread" => engine
                .set_book_spread(
                    bounds::book_spread(value).map_err(|e| format!("set book_spread: {e}"))?,
                )
                .map_err(|e| format!("set book_spread: {e}"))?,
            "level" => {
                engine.set_level(bounds::level(value).map_err(|e| format!("set level: {e}"))?)
            }
            "overhead" => {
                let overhead =
                    bounds::move_overhead(value).map_err(|e| format!("set overhead: {e}"))?;
                engine
                    .set_move_overhead(overhead)
                    .map_err(|e| format!("set overhead: {e}"))?;
            }
            _ => {
                return Err(format!(
                    "unknown option {}: expected player, seed, hash, threads, jamboree, level, overhead, book, book_spread or format",
                    quote(name)
                ));
            }
        }
        Ok(String::new())
    }
}

impl Frontend for Native {
    fn replies(&mut self) -> &mut Replies {
        &mut self.out
    }

    /// A parsed line and when it arrived (a `go`'s time counts from then).
    type Item = (Result<Request, ParseError>, Instant);

    fn arrive(&mut self, engine: &mut Engine, line: InputLine, at: Instant) -> Arrival<Self::Item> {
        let pending = match line {
            InputLine::Text(text) => match parse_line(&text) {
                Ok(None) => return Arrival::Handled,
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
        // An analysis runs until the next command, which it then lets through.
        if engine.job_kind() == Some(JobKind::Analyze) {
            engine.stop();
        }
        if let Ok(request) = &pending {
            match request.command {
                Command::Stop => engine.stop(),
                Command::Quit => {
                    self.quitting = true;
                    engine.stop();
                }
                _ => {}
            }
        }
        Arrival::Queue((pending, at))
    }

    fn handle(&mut self, engine: &mut Engine, (item, at): Self::Item) -> Flow {
        let Request { id, command } = match item {
            Ok(request) => request,
            Err(error) => {
                self.reply(error.id, Err(error.message));
                return Flow::Continue;
            }
        };
        let result = match command {
            Command::Quit => {
                self.reply(id, Ok(String::new()));
                return Flow::Exit;
            }
            Command::NewGame { game, options } => Native::new_game(engine, game, &options),
            Command::SetBoard { cells, side } => engine
                .set_board(&cells, side)
                .map(|()| String::new())
                .map_err(String::from),
            Command::Move(text) => engine
                .play(&text)
                .map(|_| String::new())
                .map_err(String::from),
            Command::Undo => engine.undo().map_err(String::from),
            Command::Moves => {
                let names: Vec<String> = engine
                    .legal_moves()
                    .into_iter()
                    .map(|mv| engine.move_name(mv))
                    .collect();
                Ok(names.join(" "))
            }
            Command::Status => Ok(engine.status()),
            Command::Show => Ok(engine.show()),
            Command::Perft(depth) => {
                let started = engine.perft(depth);
                self.start(id, "perft", started, engine);
                return Flow::Continue;
            }
            Command::Go(limits) => {
                let started = engine.go(limits, at);
                self.start(id, "go", started, engine);
                return Flow::Continue;
            }
            Command::Analyze {
                options,
                json,
                name,
            } => {
                let started = engine.analyze(&options, at);
                self.job_json = json.filter(|_| started.is_ok());
                self.start(id, name, started, engine);
                return Flow::Continue;
            }
            Command::Swap2 { stones, limits } => {
                let started = engine
                    .swap2_board(&stones)
                    .and_then(|_| engine.swap2(&limits, Vec::new(), at));
                self.start(id, "swap2", started, engine);
                return Flow::Continue;
            }
            Command::Solve(limit) => {
                let started = engine.solve(limit);
                self.start(id, "solve", started, engine);
                return Flow::Continue;
            }
            Command::ClearHash => engine
                .clear_hash()
                .map(|()| String::new())
                .map_err(String::from),
            Command::Stop => Ok(String::new()),
            Command::Set { name, value } => self.set(engine, &name, &value),
            Command::Ping(text) => Ok(text.map_or("pong".to_string(), |text| {
                format!("pong {}", crate::text::printable(&text))
            })),
            Command::Help => Ok(HELP.trim_end().to_string()),
        };
        self.reply(id, result);
        Flow::Continue
    }

    fn report(&mut self, engine: &Engine, report: Report) {
        let analysis = engine.job_kind() == Some(JobKind::Analyze);
        let name = |line: &[crate::game::Move]| engine.line_names(line);
        if self.job_json.unwrap_or(self.json) {
            let json = ReportJson::new(&report, name);
            let message = if analysis {
                Message::Analysis(json)
            } else {
                Message::Info(json)
            };
            self.write(&format!("{}\n", message.to_line()));
            return;
        }
        let lines = if analysis {
            analysis_fields(&report, name)
        } else {
            report_fields(&report, name)
        };
        let text: String = lines
            .iter()
            .map(|fields| format!("info {fields}\n"))
            .collect();
        self.write(&text);
    }

    fn finished(&mut self, engine: &mut Engine, finished: Finished) -> Flow {
        let id = self.job_id.take();
        let reply = match finished {
            Finished::Played { name, .. } | Finished::Hinted { name, .. } => Ok(name),
            Finished::Analyzed { report } => Ok(match report.lines.first() {
                Some(line) => {
                    let best = engine.line_names(&line.pv);
                    let best = best.first().map_or("pass", String::as_str);
                    format!("{best} {}", score_text(line.score))
                }
                None => String::new(),
            }),
            Finished::Swap2 { answer, .. } => Ok(match answer {
                Answer::Swap => "swap".to_string(),
                Answer::Stones(stones) => {
                    let names: Vec<String> =
                        stones.iter().map(|&mv| engine.move_name(mv)).collect();
                    names.join(" ")
                }
            }),
            Finished::Solved {
                proof,
                line,
                threat,
            } if proof.is_exact() => {
                let best = line.first().cloned().unwrap_or_else(|| "pass".to_string());
                let score = score_text(engine.score_value(proof.lower, true));
                if threat {
                    Ok(format!("{best} {score} line {}", line.join(" ")))
                } else {
                    Ok(format!("{best} {score}"))
                }
            }
            Finished::Solved { proof, line, .. } => Err(format!(
                "solve stopped before it finished (proven so far: {} reaches at least {})",
                line.first().map_or("the best move", String::as_str),
                score_text(engine.score_value(proof.lower, true))
            )),
            Finished::Unsolved {
                stopped: false,
                threat: true,
            } => Ok("none".to_string()),
            Finished::Unsolved { .. } => Err("solve stopped before it finished".to_string()),
            Finished::Counted {
                leaves: Some(leaves),
                elapsed,
            } => {
                log::info!("perft: {leaves} leaves in {:.3} s", elapsed.as_secs_f64());
                Ok(leaves.to_string())
            }
            Finished::Counted { leaves: None, .. } => {
                Err("perft stopped before it finished".to_string())
            }
            Finished::Failed { message, .. } => Err(message),
        };
        self.reply(id, reply);
        Flow::Continue
    }
}

const HELP: &str = "\
commands (see protocol.md):
  newgame [othello|reversi] [size=4|6|8] [rule=normal|misere]
  newgame gomoku [size=N] [rule=freestyle|exact|renju] [opening=center|free]
  newgame pente [size=N] [opening=center|tournament|free]
  newgame tictactoe [size=N] [k=K]
  setboard <cells> <side>     cells row by row: X x * black, O o white, - . empty
  move <m>                    d3, D3, 3,2 (0-based column,row) or pass
  undo                        take back the last move
  moves                       legal moves in field order
  status                      playing <side> | over <winner|draw> <details>
  show                        board diagram
  perft <depth>               leaf count
  go [time <ms>] [inc <ms>] [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>]
  analyze [multipv <k>|all] [interval <ms>] [time <ms>|depth <n>|nodes <n>|infinite]
          [format json|text] [moves <m> ...]
                              score the best k moves (or all) until the limit or the next command
  hint [<k>|all]              analyze for 1 s
  stop                        end a running go, analyze, solve or perft now
  solve [movetime <ms>]       exact result and best move, or a forced win by threats
  swap2 [<stone> ...] [<go limits>]
                              Gomoku's Swap2 decision with 0, 3 or 5 stones: stones or swap
  set player search|random|greedy
  set seed <n>
  set hash <MiB>              memory for all tables (default 128)
  set threads <n>             search threads, 1 to 256 (default 1)
  set jamboree <n>            children an exact solve searches alone before a split (default 1)
  set level <n>               fixed search depth for go, 0 = none
  set overhead <ms>           time kept back per move for pipes (default 20)
  set format text|json        replies and reports as text or JSON lines
  clear hash
  ping [text]
  help
  quit
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::capture::Capture;
    use crate::players::PlayerKind;
    use std::io::Cursor;

    /// The replies (without `info` lines) of a whole session.
    fn replies(input: &str, settings: Settings) -> Vec<String> {
        let capture = Capture::default();
        run(
            Cursor::new(input.as_bytes().to_vec()),
            capture.clone(),
            settings,
        )
        .expect("the capture takes every write");
        let text = capture.text();
        text.split_terminator("\n\n")
            .map(|reply| {
                reply
                    .lines()
                    .filter(|line| !line.starts_with("info "))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect()
    }

    /// `ping` echoes its text with control characters escaped: ESC, BEL, NUL and a CR
    /// inside the line never reach the client raw.
    #[test]
    fn ping_escapes_control_characters() {
        let got = replies(
            "1 ping are you there\n2 ping a\x1b[2Jb\x07c\0d\re\n",
            Settings::default(),
        );
        assert_eq!(got[0], "=1 pong are you there");
        assert_eq!(got[1], "=2 pong a\\u{1b}[2Jb\\u{7}c\\u{0}d\\re");
    }

    #[test]
    fn a_panicking_search_is_an_error_and_the_engine_goes_on() {
        let settings = Settings {
            player: PlayerKind::Panic,
            hash_mb: 2,
            book: false,
            ..Settings::default()
        };
        let got = replies(
            "1 go depth 6\n2 ping\n3 moves\nset player search\n4 go depth 2\n5 status\nquit\n",
            settings,
        );
        assert_eq!(got.len(), 7, "{got:?}");
        assert_eq!(
            got[0],
            "?1 internal error: go failed (a test panic mid-search)"
        );
        assert_eq!(got[1], "=2 pong");
        assert_eq!(got[2], "=3 d3 c4 f5 e6", "the failed go played nothing");
        assert_eq!(got[3], "=");
        assert!(
            ["=4 d3", "=4 c4", "=4 f5", "=4 e6"].contains(&got[4].as_str()),
            "{got:?}"
        );
        assert_eq!(got[5], "=5 playing white");
        assert_eq!(got[6], "=");
    }

    #[test]
    fn book_moves_come_at_once_and_set_book_off_searches() {
        let settings = Settings {
            hash_mb: 2,
            ..Settings::default()
        };
        let capture = Capture::default();
        run(
            Cursor::new(
                b"go depth 8\nset book off\ngo depth 2\nset book on\nset book nope\nstatus\n"
                    .to_vec(),
            ),
            capture.clone(),
            settings,
        )
        .expect("the capture takes every write");
        let text = capture.text();
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        // The start is in the book: one depth-0 line, whatever the depth asked.
        assert!(
            lines[0].starts_with("info depth 0 score +0.69 nodes 0 ") && lines[1].starts_with("= "),
            "{text}"
        );
        let first = lines[1].trim_start_matches("= ");
        assert!(["d3", "c4", "f5", "e6"].contains(&first), "{text}");
        assert!(lines[0].ends_with(&format!("pv {first}")), "{text}");
        // Book off: the search's own iterations.
        assert!(lines[3].starts_with("info depth 1 "), "{text}");
        assert!(lines[4].starts_with("info depth 2 "), "{text}");
        assert_eq!(lines[7], "? set book: expected on or off, got 'nope'");
        assert_eq!(lines[8], "= playing black", "two moves played: {text}");
    }

    #[test]
    fn misere_plays_from_its_own_book() {
        use crate::game::othello::{Othello, Rule};
        let settings = Settings {
            hash_mb: 2,
            ..Settings::default()
        };
        let capture = Capture::default();
        let input = b"newgame othello rule=misere\ngo depth 8\ngo depth 8\n".to_vec();
        run(Cursor::new(input), capture.clone(), settings).expect("the capture takes every write");
        let text = capture.text();
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        let book = crate::game::othello::book::shipped(Rule::Misere);
        let start = Othello::new(8, Rule::Misere).unwrap();
        let (_, score) = book.choose(&start, 0, 0).unwrap();
        let expected = format!("info depth 0 score {:+.2} nodes 0 ", score as f64 / 100.0);
        assert!(lines[1].starts_with(&expected), "{text}");
        // The four first moves are one position: the engine's seed picks among them.
        let first = lines[2].trim_start_matches("= ");
        assert!(["d3", "c4", "f5", "e6"].contains(&first), "{text}");
        // The reply is in the book as well.
        assert!(lines[3].starts_with("info depth 0 "), "{text}");
    }

    #[test]
    fn info_lines_are_the_typed_report() {
        let capture = Capture::default();
        let settings = Settings {
            hash_mb: 2,
            book: false,
            ..Settings::default()
        };
        run(
            Cursor::new(b"go depth 2\n".to_vec()),
            capture.clone(),
            settings,
        )
        .expect("the capture takes every write");
        let text = capture.text();
        let infos: Vec<&str> = text.lines().filter(|l| l.starts_with("info ")).collect();
        assert_eq!(infos.len(), 2, "{text}");
        for (depth, info) in infos.iter().enumerate() {
            let words: Vec<&str> = info.split(' ').collect();
            assert_eq!(words[..3], ["info", "depth", &(depth + 1).to_string()]);
            assert_eq!(words[3], "score");
            assert!(
                words[4].starts_with(['+', '-']) && words[4].contains('.'),
                "{info}"
            );
            assert_eq!(
                [words[5], words[7], words[9], words[11]],
                ["nodes", "nps", "time", "pv"]
            );
            assert_eq!(words.len(), 12 + depth + 1, "{info}");
        }
    }

    fn native() -> Native {
        Native {
            out: Replies::new(Capture::default()),
            job_id: None,
            quitting: false,
            json: false,
            job_json: None,
        }
    }

    #[test]
    fn set_threads_takes_1_to_256_and_a_bad_value_changes_nothing() {
        let settings = Settings {
            hash_mb: 2,
            ..Settings::default()
        };
        let (mut engine, _events) = Engine::new(&settings).unwrap();
        let mut native = native();
        assert_eq!(engine.threads(), 1);
        assert_eq!(native.set(&mut engine, "threads", "3"), Ok(String::new()));
        assert_eq!(engine.threads(), 3);
        for (bad, message) in [
            ("0", "set threads: 0 threads is outside 1..=256"),
            ("257", "set threads: 257 threads is outside 1..=256"),
            ("999", "set threads: 999 threads is outside 1..=256"),
            ("x", "set threads: expected a non-negative integer, got 'x'"),
            (
                "-2",
                "set threads: expected a non-negative integer, got '-2'",
            ),
        ] {
            assert_eq!(
                native.set(&mut engine, "threads", bad),
                Err(message.to_string())
            );
            assert_eq!(engine.threads(), 3, "changed by set threads {bad}");
        }
        assert_eq!(native.set(&mut engine, "threads", "256"), Ok(String::new()));
        assert_eq!(engine.threads(), 256);
        // A new game of another variant keeps the setting.
        assert_eq!(native.set(&mut engine, "threads", "2"), Ok(String::new()));
        let gomoku = Variant::parse("gomoku", []).unwrap();
        engine.new_game(Some(gomoku)).unwrap();
        assert_eq!(engine.threads(), 2);
    }

    #[test]
    fn set_threads_during_a_search_is_an_error_and_the_search_goes_on() {
        let settings = Settings {
            hash_mb: 2,
            ..Settings::default()
        };
        let (mut engine, events) = Engine::new(&settings).unwrap();
        let mut native = native();
        let limits = crate::search::limits::Limits {
            movetime: Some(std::time::Duration::from_secs(600)),
            ..Default::default()
        };
        engine.go(limits, Instant::now()).unwrap();
        assert_eq!(
            native.set(&mut engine, "threads", "2"),
            Err("set threads: busy: go is running".to_string())
        );
        assert!(engine.is_busy(), "the search was disturbed");
        // (`Engine::threads` waits for the searcher a running job holds: ask after it.)
        engine.stop();
        let finished = engine.wait(&events, &mut |_, _| {});
        assert!(
            matches!(finished, Some(Finished::Played { .. })),
            "{finished:?}"
        );
        assert_eq!(engine.threads(), 1, "changed by the refused set threads");
        assert_eq!(native.set(&mut engine, "threads", "2"), Ok(String::new()));
        assert_eq!(engine.threads(), 2);
    }

    #[test]
    fn a_threat_search_that_runs_out_of_time_answers_none() {
        let settings = Settings {
            variant: Variant::parse("gomoku", []).unwrap(),
            player: PlayerKind::Random,
            seed: Some(5),
            hash_mb: 2,
            ..Settings::default()
        };
        let script = "go\n".repeat(40) + "1 solve movetime 200\n";
        let got = replies(&script, settings);
        let last = got.last().unwrap();
        assert!(
            last == "=1 none" || last.starts_with("=1 ") && last.contains(" win "),
            "{got:?}"
        );
    }
}
