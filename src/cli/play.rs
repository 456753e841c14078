//! `arbor play`: a person against the engine (or another person) at the terminal, as a
//! front end of the engine core.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::engine::clock::{ClockControl, GameClock};
use crate::engine::events::{self, Arrival, Flow, Frontend};
use crate::engine::input::InputLine;
use crate::engine::job::JobKind;
use crate::engine::output::Replies;
use crate::engine::{Engine, Finished, Settings};
use crate::game::Side;
use crate::game::variant::Variant;
use crate::players::PlayerKind;
use crate::search::SearchResult;
use crate::search::limits::Limits;
use crate::search::report::{Report, score_text};
use crate::text::quote;

/// Longest line a person may type.
const MAX_LINE_BYTES: usize = 4096;
/// How long `hint` thinks.
const HINT_TIME: Duration = Duration::from_secs(1);

/// Who sits on each side, and how the engine thinks.
#[derive(Clone, Copy, Debug)]
pub struct PlaySettings {
    /// `humans[side.index()]`: whether a person plays that side.
    pub humans: [bool; 2],
    /// The engine's clock for the whole game, or `None` to use `depth`.
    pub engine_time: Option<Duration>,
    pub depth: Option<u32>,
    /// Memory for the engine's tables, MiB.
    pub hash_mb: usize,
    /// The engine's search threads.
    pub threads: usize,
    /// Who plays for the engine (the search, or a baseline).
    pub player: PlayerKind,
    /// Seed for the engine's random choices; `None` seeds from the system.
    pub seed: Option<u64>,
    /// Whether the engine plays from the opening book (as `set book`).
    pub book: bool,
    /// Book moves within this many discs of the best are chosen among at random.
    pub book_spread: u32,
}

/// Plays one game of `variant` at the terminal until it ends, `quit` or the end of input.
pub fn play(
    variant: Variant,
    settings: PlaySettings,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> Result<(), String> {
    let core_settings = Settings {
        variant,
        hash_mb: settings.hash_mb,
        threads: settings.threads,
        player: settings.player,
        seed: settings.seed,
        book: settings.book,
        book_spread: settings.book_spread,
        ..Settings::default()
    };
    let (mut engine, receiver) = Engine::new(&core_settings)?;
    let mut terminal = Terminal {
        out: Replies::new(output),
        settings,
        clock: GameClock::new(settings.engine_time.map(|base| ClockControl {
            base,
            inc: Duration::ZERO,
        })),
        played: Vec::new(),
        changed: true,
        prompted: false,
        quit: false,
    };
    terminal.say(&format!(
        "{} (type a move such as d3, or pass, undo, hint, moves, help, quit)",
        variant
    ));
    events::run(input, MAX_LINE_BYTES, &mut engine, receiver, &mut terminal)
        .and_then(|()| {
            // Ctrl-D (the end of input) leaves a game unfinished: say so, not nothing.
            if !terminal.quit && engine.outcome().is_none() {
                terminal.say(&format!(
                    "\nend of input: the game is left unfinished after {} moves",
                    terminal.played.len()
                ));
            }
            terminal.out.close();
            terminal.out.take_error().map_or(Ok(()), Err)
        })
        .map_err(crate::engine::output::stdout_error)
}

const HELP: &str = "a move (d3, or x,y such as 3,2; pass when you have none), moves (the legal ones), \
hint (the engine's suggestion), undo (back to your previous turn), quit";

struct Terminal {
    out: Replies,
    settings: PlaySettings,
    /// The engine's clocks (a person's time is not kept).
    clock: GameClock,
    /// Who made each move of the game and its name, for `undo` and the display.
    played: Vec<(Side, String)>,
    /// Whether the board must be shown again.
    changed: bool,
    /// Whether the person to move has been asked.
    prompted: bool,
    /// Whether the person typed `quit` (rather than ending the input).
    quit: bool,
}

impl Terminal {
    fn say(&mut self, text: &str) {
        self.out.line(text);
    }

    fn score(engine: &Engine, result: &Option<SearchResult>) -> String {
        result.as_ref().map_or("-".to_string(), |result| {
            score_text(engine.score_value(result.score, result.exact))
        })
    }

    fn undo(&mut self, engine: &mut Engine) {
        // Back to this person's previous turn: through the engine's replies too.
        let mut undone = false;
        while let Some((mover, _)) = self.played.pop() {
            if engine.undo().is_err() {
                break;
            }
            undone = true;
            if self.settings.humans[mover.index()] {
                break;
            }
        }
        if undone {
            self.changed = true;
        } else {
            self.say("nothing to undo");
        }
    }

    fn human_move(&mut self, engine: &mut Engine, text: &str) {
        let side = engine.side_to_move();
        if !self.settings.humans[side.index()] || engine.outcome().is_some() {
            return self.say("it is not your turn");
        }
        let mv = match engine.parse_move(text) {
            Ok(mv) => mv,
            Err(error) => {
                return self.say(&format!("{error}; try again (moves lists the legal ones)"));
            }
        };
        if !engine.legal_moves().contains(&mv) {
            return if mv.is_pass() {
                self.say("you cannot pass: you have a legal move")
            } else {
                self.say(&format!(
                    "{} is not a legal move here; try again",
                    quote(text)
                ))
            };
        }
        match engine.play_move(mv) {
            Ok(name) => {
                self.played.push((side, name));
                self.changed = true;
            }
            Err(error) => self.say(&error.to_string()),
        }
    }
}

impl Frontend for Terminal {
    fn replies(&mut self) -> &mut Replies {
        &mut self.out
    }

    type Item = String;

    fn arrive(&mut self, _engine: &mut Engine, line: InputLine, _at: Instant) -> Arrival<String> {
        match line {
            InputLine::Text(text) => Arrival::Queue(text.trim().to_string()),
            InputLine::TooLong(bytes) => {
                self.say(&format!(
                    "that line is too long ({bytes} bytes); type a move such as d3, or help"
                ));
                self.prompted = false;
                Arrival::Handled
            }
            InputLine::NotUtf8 => {
                self.say("that line is not text (not UTF-8); type a move such as d3, or help");
                self.prompted = false;
                Arrival::Handled
            }
        }
    }

    fn handle(&mut self, engine: &mut Engine, text: String) -> Flow {
        self.prompted = false;
        match text.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => {
                self.quit = true;
                return Flow::Exit;
            }
            "moves" => {
                let names: Vec<String> = engine
                    .legal_moves()
                    .into_iter()
                    .map(|mv| engine.move_name(mv))
                    .collect();
                self.say(&format!("legal moves: {}", names.join(" ")));
            }
            "hint" => {
                let limits = Limits {
                    movetime: Some(HINT_TIME),
                    ..Limits::default()
                };
                if let Err(error) = engine.hint(limits, Instant::now()) {
                    self.say(&error.for_command("hint"));
                }
            }
            "undo" => self.undo(engine),
            "help" | "?" => self.say(HELP),
            _ => self.human_move(engine, &text),
        }
        Flow::Continue
    }

    fn report(&mut self, _engine: &Engine, _report: Report) {}

    fn finished(&mut self, engine: &mut Engine, finished: Finished) -> Flow {
        match finished {
            Finished::Played { name, result, .. } => {
                let now = Instant::now();
                let spent = self.clock.press(None, now);
                let side = engine.side_to_move().opponent();
                self.played.push((side, name.clone()));
                self.changed = true;
                let clock = self.clock.left(side, now).map_or(String::new(), |left| {
                    format!(", {:.1} s left", left.as_secs_f64())
                });
                // The score is the mover's, from before its move.
                let score = Terminal::score(engine, &result);
                self.say(&format!(
                    "arbor ({side}) plays {name} ({:.1} s{clock}, its score {score})",
                    spent.as_secs_f64()
                ));
            }
            Finished::Hinted { name, result, .. } => {
                let score = Terminal::score(engine, &result);
                self.say(&format!("hint: {name} (score {score})"));
            }
            Finished::Failed {
                kind: JobKind::Hint,
                message,
            } => self.say(&format!("no hint: {message}")),
            Finished::Failed { message, .. } => {
                self.clock.halt(Instant::now());
                self.say(&format!("engine error: {message}"));
                let side = engine.side_to_move();
                match engine.play_fallback() {
                    Ok(name) => {
                        self.played.push((side, name.clone()));
                        self.changed = true;
                        self.say(&format!("arbor ({side}) plays {name} (a fallback move)"));
                    }
                    Err(error) => self.say(&error.to_string()),
                }
            }
            other => self.say(&format!("internal error: unexpected {other:?}")),
        }
        Flow::Continue
    }

    fn idle(&mut self, engine: &mut Engine) -> Flow {
        if std::mem::take(&mut self.changed) {
            self.say(&format!("\n{}", engine.show()));
            if let Some((side, name)) = self.played.last() {
                let text = format!("last move: {side} {name}");
                self.say(&text);
            }
        }
        if let Some(outcome) = engine.outcome() {
            let result = match outcome.winner {
                Some(side) => format!("{side} wins"),
                None => "a draw".to_string(),
            };
            let status = engine.status();
            let details = status.split_once(' ').map_or("", |(_, rest)| rest);
            let details = details.split_once(' ').map_or("", |(_, rest)| rest);
            self.say(&format!(
                "game over: {result} ({details}); the engine used {:.1} s",
                Side::BOTH
                    .iter()
                    .map(|&side| self.clock.used(side, Instant::now()))
                    .sum::<Duration>()
                    .as_secs_f64()
            ));
            return Flow::Exit;
        }
        let side = engine.side_to_move();
        if !self.settings.humans[side.index()] {
            let now = Instant::now();
            self.clock.start(side, now);
            let limits = Limits {
                time: self.clock.left(side, now),
                depth: self.settings.depth,
                ..Limits::default()
            };
            if let Err(error) = engine.go(limits, now) {
                self.say(&error.for_command("go"));
                return Flow::Exit;
            }
        } else if !self.prompted {
            self.prompted = true;
            self.out.write(&format!("{side}> "));
        }
        Flow::Continue
    }
}

/// `arbor play`'s command line.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: super::game_args::GameArgs,
    /// Your colour: black, white, both (two people) or none (watch the engine).
    #[arg(long, default_value = "black", value_parser = humans)]
    pub color: [bool; 2],
    /// A fixed search depth for the engine instead of its clock (1 to 60; 0: the clock).
    #[arg(long, value_parser = crate::bounds::level)]
    pub level: Option<u32>,
    /// The engine's clock for the whole game, in seconds.
    #[arg(long, default_value = "300", value_parser = engine_clock)]
    pub time: Duration,
    /// Memory for the engine's tables, MiB.
    #[arg(long, default_value_t = crate::engine::DEFAULT_HASH_MB, value_parser = crate::bounds::hash_mb)]
    pub hash: usize,
    /// The engine's search threads, 1 to 256; default: the machine's cores.
    #[arg(long, default_value_t = crate::bounds::available_threads(), value_parser = crate::bounds::threads)]
    pub threads: usize,
    /// Who plays for the engine: search, random or greedy.
    #[arg(long, default_value = "search")]
    pub player: PlayerKind,
    /// Seed for the engine's random choices (repeatable games); default: from the
    /// system.
    #[arg(long, value_parser = crate::bounds::number)]
    pub seed: Option<u64>,
    /// Whether the engine plays from the Othello opening book, on or off.
    #[arg(long, default_value = "on", value_parser = crate::bounds::switch, action = clap::ArgAction::Set)]
    pub book: bool,
    /// Book moves within this many discs of the book's best are chosen among at random;
    /// 0 plays a best one.
    #[arg(long, default_value_t = 0, value_parser = crate::bounds::book_spread)]
    pub book_spread: u32,
    #[command(flatten)]
    pub weights: super::weights_args::WeightsArgs,
}

impl PlayArgs {
    /// Plays one game on stdin and stdout.
    pub fn run(&self) -> Result<(), String> {
        self.weights.load()?;
        let depth = self.level.filter(|&depth| depth > 0);
        let settings = PlaySettings {
            humans: self.color,
            engine_time: depth.is_none().then_some(self.time),
            depth,
            hash_mb: self.hash,
            threads: self.threads,
            player: self.player,
            seed: self.seed,
            book: self.book,
            book_spread: self.book_spread,
        };
        let input = std::io::BufReader::new(std::io::stdin());
        play(self.game.variant()?, settings, input, std::io::stdout())
    }
}

/// `--color`: which sides people play, `[black, white]`.
fn humans(text: &str) -> Result<[bool; 2], String> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok([true, false]),
        "white" | "w" | "o" => Ok([false, true]),
        "both" => Ok([true, true]),
        "none" => Ok([false, false]),
        _ => Err(format!(
            "must be black, white, both or none, not {}",
            quote(text)
        )),
    }
}

/// `--time`: seconds, more than 0.
fn engine_clock(text: &str) -> Result<Duration, String> {
    match crate::bounds::seconds(text)? {
        time if time.is_zero() => Err("must be more than 0 seconds".into()),
        time => Ok(time),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::capture::Capture;
    use crate::game::othello::Rule;

    /// Every square of a 4x4 board, then a pass: whatever is legal of it gets played.
    const EVERY_SQUARE: &str =
        "a1\nb1\nc1\nd1\na2\nb2\nc2\nd2\na3\nb3\nc3\nd3\na4\nb4\nc4\nd4\npass\n";

    /// An engine at a fixed depth with 1 MiB, one thread and seed 1.
    fn depth_settings(
        humans: [bool; 2],
        depth: u32,
        player: PlayerKind,
        book: bool,
    ) -> PlaySettings {
        PlaySettings {
            humans,
            engine_time: None,
            depth: Some(depth),
            hash_mb: 1,
            threads: 1,
            player,
            seed: Some(1),
            book,
            book_spread: 0,
        }
    }

    /// A whole 4x4 game, the person as Black against `player` at depth 3; the transcript.
    fn play_4x4(script: impl Into<Vec<u8>>, player: PlayerKind) -> String {
        let output = Capture::default();
        let settings = depth_settings([true, false], 3, player, true);
        let variant = Variant::Othello {
            size: 4,
            rule: Rule::Normal,
        };
        let input = std::io::Cursor::new(script.into());
        play(variant, settings, input, output.clone()).unwrap();
        output.text()
    }

    /// The moves of an 8x8 game the engine plays against itself at depth 1.
    fn watched_8x8_moves(book: bool) -> Vec<String> {
        let output = Capture::default();
        let settings = depth_settings([false, false], 1, PlayerKind::Search, book);
        let variant = Variant::Othello {
            size: 8,
            rule: Rule::Normal,
        };
        play(variant, settings, std::io::Cursor::new(""), output.clone()).unwrap();
        let text = output.text();
        assert!(text.contains("game over: "), "{text}");
        text.lines()
            .filter_map(|line| line.split_once(") plays ").map(|(_, rest)| rest))
            .map(|rest| rest.split_whitespace().next().unwrap_or("").to_string())
            .collect()
    }

    #[test]
    fn the_book_plays_its_best_moves_unless_turned_off() {
        use crate::game::Game;
        use crate::game::othello::{Othello, book::shipped};
        let with_book = watched_8x8_moves(true);
        let mut game = Othello::new(8, Rule::Normal).unwrap();
        let mut from_book = 0;
        for name in &with_book {
            let mv = game.parse_move(name).unwrap();
            // Where the book has a move that beats leaving it.
            let Some((_, best)) = shipped(Rule::Normal).choose(&game, 0, 0) else {
                break;
            };
            let listed = shipped(Rule::Normal).moves(&game);
            assert!(
                listed.contains(&(mv, best)),
                "{name} is not a best book move: {listed:?}"
            );
            from_book += 1;
            game.make(mv);
        }
        assert!(from_book >= 10, "only {from_book} book moves");
        let without = watched_8x8_moves(false);
        assert_ne!(with_book[..from_book], without[..from_book]);
    }

    #[test]
    fn a_person_plays_a_4x4_game_against_the_engine() {
        let script = "e9\nd4\npass\nhint\nmoves\nundo\nundo\nb1\nxyz\n".to_string()
            + &EVERY_SQUARE.repeat(2);
        let text = play_4x4(script, PlayerKind::Search);
        assert!(text.contains("move 'e9' is off the 4x4 board"), "{text}");
        assert!(text.contains("'d4' is not a legal move here"));
        assert!(text.contains("you cannot pass"));
        assert!(text.contains("hint: "));
        assert!(text.contains("legal moves: b1 a2 d3 c4"));
        assert!(text.contains("nothing to undo"));
        assert!(text.contains("arbor (white) plays"));
        assert!(text.contains("game over: "), "{text}");
    }

    #[test]
    fn bad_input_gets_an_explanation_and_the_game_goes_on() {
        let mut script = b"\xff\xfe\n\x00\x1b[2J\n\r\n\x04\nhelp\n".to_vec();
        script.extend("x".repeat(MAX_LINE_BYTES + 10).bytes());
        script.extend(b"\n");
        script.extend(EVERY_SQUARE.repeat(2).bytes());
        let text = play_4x4(script, PlayerKind::Search);
        assert!(text.contains("that line is not text (not UTF-8)"), "{text}");
        assert!(text.contains("bad move '\\u{0}\\u{1b}[2J'"), "{text}");
        assert!(text.contains("bad move '\\u{4}'"), "{text}");
        assert!(text.contains("moves (the legal ones)"), "{text}");
        assert!(text.contains("that line is too long"), "{text}");
        assert!(
            !text.contains('\0') && !text.contains('\x1b'),
            "control characters echoed"
        );
        assert!(text.contains("game over: "), "{text}");
    }

    #[test]
    fn a_panicking_engine_plays_a_fallback_and_the_game_goes_on() {
        let text = play_4x4(EVERY_SQUARE.repeat(3), PlayerKind::Panic);
        assert!(
            text.contains("engine error: internal error: go failed (a test panic mid-search)"),
            "{text}"
        );
        assert!(text.contains("(a fallback move)"), "{text}");
        assert!(text.contains("game over: "), "{text}");
    }

    #[test]
    fn colours_and_the_clock_are_checked_by_the_parser() {
        assert_eq!(humans("Black"), Ok([true, false]));
        assert_eq!(humans("o"), Ok([false, true]));
        assert_eq!(humans("both"), Ok([true, true]));
        assert_eq!(humans("none"), Ok([false, false]));
        for bad in ["", "purple", "blackk", "b w"] {
            assert!(
                humans(bad)
                    .unwrap_err()
                    .contains("black, white, both or none")
            );
        }
        assert_eq!(engine_clock("0.5"), Ok(Duration::from_millis(500)));
        assert!(
            engine_clock("0")
                .unwrap_err()
                .contains("more than 0 seconds")
        );
        assert!(engine_clock("-1").is_err() && engine_clock("1e9999").is_err());
    }
}
