//! Parsing one line of the native protocol into a [`Request`].

use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, opt, rest};
use nom::multi::many0;
use nom::sequence::{preceded, separated_pair, terminated};
use nom::{IResult, Parser};

use crate::bounds;
use crate::engine::AnalysisOptions;
use crate::game::Side;
use crate::search::limits::Limits;
use crate::text::quote;

/// One command line: an optional id echoed in the reply, and the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Command,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `game` is `None` to restart the current game with its options.
    NewGame {
        game: Option<String>,
        options: Vec<(String, String)>,
    },
    SetBoard {
        cells: String,
        side: Side,
    },
    Move(String),
    Undo,
    Moves,
    Status,
    Show,
    Perft(u32),
    Go(Limits),
    /// `analyze ...`, and `hint [K]` (an analysis with a default time limit).
    Analyze {
        options: AnalysisOptions,
        /// `format json|text` on the command: this analysis's output as JSON lines or
        /// text, whatever `set format` says; `None` to follow it.
        json: Option<bool>,
        /// The command's name for its errors: `analyze` or `hint`.
        name: &'static str,
    },
    /// `swap2 [<stone> ...] [<go limits>]`: the Swap2 decision with these stones (0, 3
    /// or 5, in playing order) on an empty board, thought about as one move.
    Swap2 {
        stones: Vec<String>,
        limits: Limits,
    },
    /// An optional time limit (`solve movetime <ms>`).
    Solve(Option<Duration>),
    ClearHash,
    Stop,
    Set {
        name: String,
        value: String,
    },
    Ping(Option<String>),
    Help,
    Quit,
}

/// A line that is not a valid command; `id` is kept when it could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub id: Option<u64>,
    pub message: String,
}

/// Parses a line without its line ending. `Ok(None)` for blank and `#` comment lines.
pub fn parse_line(line: &str) -> Result<Option<Request>, ParseError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (after_id, id_text) = opt(terminated(digit1::<&str, ()>, alt((space1, end))))
        .parse(line)
        .expect("opt never fails");
    let id = match id_text {
        Some(digits) => Some(digits.parse::<u64>().map_err(|_| ParseError {
            id: None,
            message: format!("id {} is too large (at most {})", quote(digits), u64::MAX),
        })?),
        None => None,
    };
    let fail = |message: String| ParseError { id, message };
    let (args, name) = terminated(word, space0)
        .parse(after_id)
        .map_err(|_| fail("missing command after the id".to_string()))?;
    let args = args.trim_end();
    let command = match name.to_ascii_lowercase().as_str() {
        "newgame" => parse_newgame(args),
        "setboard" => parse_setboard(args),
        "move" | "play" => one_word(args, "move", "a move such as d3").map(Command::Move),
        "undo" => no_args(args, "undo", Command::Undo),
        "moves" => no_args(args, "moves", Command::Moves),
        "status" => no_args(args, "status", Command::Status),
        "show" => no_args(args, "show", Command::Show),
        "perft" => parse_perft(args),
        "go" => parse_go(args).map(Command::Go),
        "analyze" | "analyse" => parse_analyze(args),
        "hint" => parse_hint(args),
        "stop" => no_args(args, "stop", Command::Stop),
        "solve" => parse_solve(args),
        "swap2" => parse_swap2(args),
        "clear" => match args.to_ascii_lowercase().as_str() {
            "hash" => Ok(Command::ClearHash),
            _ => Err(format!("clear: expected 'clear hash', got {}", quote(args))),
        },
        "set" => parse_set(args),
        "ping" => Ok(Command::Ping((!args.is_empty()).then(|| args.to_string()))),
        "help" => no_args(args, "help", Command::Help),
        "quit" | "exit" => no_args(args, "quit", Command::Quit),
        _ => Err(format!("unknown command {} (try help)", quote(name))),
    }
    .map_err(fail)?;
    Ok(Some(Request { id, command }))
}

fn parse_solve(args: &str) -> Result<Command, String> {
    match words(args).as_slice() {
        [] => Ok(Command::Solve(None)),
        [key, value] if key.eq_ignore_ascii_case("movetime") => bounds::millis(value)
            .map(|limit| Command::Solve(Some(limit)))
            .map_err(|e| format!("solve movetime: {e}")),
        _ => Err(format!(
            "solve: expected nothing or 'movetime <ms>', got {}",
            quote(args)
        )),
    }
}

/// The limits `go` takes, which no move name is.
const LIMIT_KEYS: [&str; 6] = ["time", "inc", "movestogo", "movetime", "depth", "nodes"];

/// `swap2 h8 h9 i10 movetime 500`: the stones up to the first limit, then `go`'s limits.
fn parse_swap2(args: &str) -> Result<Command, String> {
    let list = words(args);
    let split = list
        .iter()
        .position(|word| LIMIT_KEYS.iter().any(|key| word.eq_ignore_ascii_case(key)))
        .unwrap_or(list.len());
    let stones = list[..split].iter().map(|w| w.to_string()).collect();
    let limits =
        parse_go(&list[split..].join(" ")).map_err(|e| format!("swap2{}", &e["go".len()..]))?;
    Ok(Command::Swap2 { stones, limits })
}

fn end(input: &str) -> IResult<&str, &str, ()> {
    if input.is_empty() {
        Ok((input, input))
    } else {
        Err(nom::Err::Error(()))
    }
}

fn word(input: &str) -> IResult<&str, &str, ()> {
    take_till1(|c: char| c.is_whitespace()).parse(input)
}

fn words(input: &str) -> Vec<&str> {
    let (_, list) = many0(preceded(space0, word))
        .parse(input)
        .expect("many0 never fails");
    list
}

fn no_args(args: &str, name: &str, command: Command) -> Result<Command, String> {
    if args.is_empty() {
        Ok(command)
    } else {
        Err(format!("{name} takes no arguments, got {}", quote(args)))
    }
}

fn one_word(args: &str, name: &str, what: &str) -> Result<String, String> {
    match words(args).as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err(format!("{name} needs {what}")),
        _ => Err(format!("{name} takes one argument, got {}", quote(args))),
    }
}

fn parse_newgame(args: &str) -> Result<Command, String> {
    let mut list = words(args).into_iter();
    let game = list.next().map(str::to_string);
    let options = list
        .map(|item| {
            all_consuming(separated_pair(
                take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
                tag("="),
                rest,
            ))
            .parse(item)
            .map(|(_, (key, value)): (&str, (&str, &str))| (key.to_string(), value.to_string()))
            .map_err(|_: nom::Err<()>| format!("newgame: expected key=value, got {}", quote(item)))
        })
        .collect::<Result<_, _>>()?;
    Ok(Command::NewGame { game, options })
}

fn parse_setboard(args: &str) -> Result<Command, String> {
    // OBF lines carry `; MOVE:+score;` annotations after the side: ignore them.
    let board = args.split(';').next().unwrap_or("");
    let list = words(board);
    let Some((side, rows)) = list.split_last().filter(|(_, rows)| !rows.is_empty()) else {
        return Err("setboard needs <cells> <side>, e.g. setboard ---------------------------OX------XO--------------------------- X".to_string());
    };
    let side = Side::parse(side).ok_or_else(|| {
        format!(
            "setboard: bad side {}: expected black, white, X or O",
            quote(side)
        )
    })?;
    Ok(Command::SetBoard {
        cells: rows.concat(),
        side,
    })
}

fn parse_perft(args: &str) -> Result<Command, String> {
    let depth = one_word(args, "perft", "a depth")?;
    bounds::perft_depth(&depth)
        .map(Command::Perft)
        .map_err(|e| format!("perft depth: {e}"))
}

fn parse_go(args: &str) -> Result<Limits, String> {
    let list = words(args);
    let mut limits = Limits::default();
    let mut pairs = list.chunks(2);
    for pair in &mut pairs {
        let [key, value] = pair else {
            return Err(format!("go: {} needs a value", quote(pair[0])));
        };
        let check = |what: &str, e: String| format!("go {what}: {e}");
        let millis = |what: &str| bounds::millis(value).map(Some).map_err(|e| check(what, e));
        match key.to_ascii_lowercase().as_str() {
            "time" => limits.time = millis("time")?,
            "inc" => limits.inc = millis("inc")?,
            "movetime" => limits.movetime = millis("movetime")?,
            "depth" => limits.depth = Some(bounds::depth(value).map_err(|e| check("depth", e))?),
            "nodes" => limits.nodes = Some(bounds::number(value).map_err(|e| check("nodes", e))?),
            "movestogo" => {
                limits.moves_to_go =
                    Some(bounds::moves_to_go(value).map_err(|e| check("movestogo", e))?)
            }
            _ => {
                return Err(format!(
                    "go: unknown limit {}: expected time, inc, movestogo, movetime, depth or nodes",
                    quote(key)
                ));
            }
        }
    }
    Ok(limits)
}

/// Time a `hint` thinks.
pub const HINT_TIME: Duration = Duration::from_secs(1);

fn parse_hint(args: &str) -> Result<Command, String> {
    let lines = match words(args).as_slice() {
        [] => Some(1),
        [count] => bounds::lines(count).map_err(|e| format!("hint: {e}"))?,
        _ => {
            return Err(format!(
                "hint takes one argument (a count or all), got {}",
                quote(args)
            ));
        }
    };
    Ok(Command::Analyze {
        options: AnalysisOptions {
            lines,
            time: Some(HINT_TIME),
            ..AnalysisOptions::default()
        },
        json: None,
        name: "hint",
    })
}

fn parse_analyze(args: &str) -> Result<Command, String> {
    let list = words(args);
    let mut options = AnalysisOptions {
        lines: Some(1),
        ..AnalysisOptions::default()
    };
    let mut json = None;
    let mut index = 0;
    while index < list.len() {
        let key = list[index].to_ascii_lowercase();
        if key == "infinite" {
            index += 1;
            continue;
        }
        if key == "moves" || key == "searchmoves" {
            options.moves = list[index + 1..].iter().map(|m| m.to_string()).collect();
            if options.moves.is_empty() {
                return Err("analyze moves: needs at least one move".to_string());
            }
            break;
        }
        let Some(value) = list.get(index + 1) else {
            return Err(format!("analyze: {} needs a value", quote(list[index])));
        };
        let check = |e: String| format!("analyze {key}: {e}");
        match key.as_str() {
            "multipv" | "lines" => options.lines = bounds::lines(value).map_err(check)?,
            "interval" => options.interval = Some(bounds::interval(value).map_err(check)?),
            "time" | "movetime" => options.time = Some(bounds::millis(value).map_err(check)?),
            "depth" => options.depth = Some(bounds::depth(value).map_err(check)?.max(1)),
            "nodes" => options.nodes = Some(bounds::number(value).map_err(check)?),
            "format" => {
                json = match value.to_ascii_lowercase().as_str() {
                    "json" => Some(true),
                    "text" => Some(false),
                    _ => {
                        return Err(format!(
                            "analyze format: expected json or text, got {}",
                            quote(value)
                        ));
                    }
                }
            }
            _ => {
                return Err(format!(
                    "analyze: unknown option {}: expected multipv, interval, time, depth, nodes, infinite, format or moves",
                    quote(list[index])
                ));
            }
        }
        index += 2;
    }
    Ok(Command::Analyze {
        options,
        json,
        name: "analyze",
    })
}

fn parse_set(args: &str) -> Result<Command, String> {
    match words(args).as_slice() {
        [name, value] => Ok(Command::Set {
            name: name.to_ascii_lowercase(),
            value: value.to_string(),
        }),
        [] => Err("set needs <name> <value>".to_string()),
        [name] => Err(format!("set {}: missing value", quote(name))),
        _ => Err(format!("set takes <name> <value>, got {}", quote(args))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Command {
        parse_line(line).unwrap().unwrap().command
    }

    fn error(line: &str) -> String {
        parse_line(line).unwrap_err().message
    }

    #[test]
    fn ids_comments_and_blank_lines() {
        assert_eq!(parse_line("   "), Ok(None));
        assert_eq!(parse_line("# note"), Ok(None));
        assert_eq!(
            parse_line("7 ping"),
            Ok(Some(Request {
                id: Some(7),
                command: Command::Ping(None)
            }))
        );
        assert_eq!(
            parse_line("7").unwrap_err(),
            ParseError {
                id: Some(7),
                message: "missing command after the id".into()
            }
        );
        assert_eq!(
            parse_line("99999999999999999999999 ping").unwrap_err().id,
            None
        );
        assert_eq!(
            command("ping hello  world"),
            Command::Ping(Some("hello  world".into()))
        );
        assert_eq!(command("PING"), Command::Ping(None));
    }

    #[test]
    fn game_commands() {
        assert_eq!(
            command("newgame othello size=6 rule=misere"),
            Command::NewGame {
                game: Some("othello".into()),
                options: vec![
                    ("size".into(), "6".into()),
                    ("rule".into(), "misere".into())
                ]
            }
        );
        assert_eq!(
            command("newgame"),
            Command::NewGame {
                game: None,
                options: vec![]
            }
        );
        assert!(error("newgame othello size").contains("key=value"));
        let obf =
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
        assert_eq!(
            command(&format!("setboard {obf}")),
            Command::SetBoard {
                cells: obf[..64].into(),
                side: Side::Black
            }
        );
        assert_eq!(
            command("setboard ---- -OX- -XO- ---- white"),
            Command::SetBoard {
                cells: "-----OX--XO-----".into(),
                side: Side::White
            }
        );
        assert!(error("setboard ----------------").contains("needs <cells> <side>"));
        assert!(error("setboard ---------------- purple").contains("bad side"));
        assert_eq!(command("move d3"), Command::Move("d3".into()));
        assert!(error("move").contains("needs"));
        assert!(error("move d3 e4").contains("one argument"));
        assert!(error("undo 3").contains("no arguments"));
    }

    #[test]
    fn numbers_and_limits() {
        assert_eq!(command("perft 9"), Command::Perft(9));
        assert!(error("perft 99999999999999999999999").contains("too large"));
        assert!(error("perft -1").contains("non-negative integer"));
        assert!(error("perft 61").contains("61 is outside 0..=60"));
        assert_eq!(
            command("go time 60000 inc 500 movestogo 20 movetime 100 depth 4 nodes 1000"),
            Command::Go(Limits {
                time: Some(Duration::from_secs(60)),
                inc: Some(Duration::from_millis(500)),
                moves_to_go: Some(20),
                movetime: Some(Duration::from_millis(100)),
                depth: Some(4),
                nodes: Some(1000),
            })
        );
        assert_eq!(command("go"), Command::Go(Limits::default()));
        assert!(error("go time").contains("needs a value"));
        assert!(error("go wtime 5").contains("unknown limit"));
        assert!(error("go movestogo 0").contains("outside"));
        assert!(error("go time 1e9").contains("non-negative integer"));
        assert!(error("go time 18446744073709551615").contains("outside 0..=1000000000000"));
    }

    #[test]
    fn swap2_takes_stones_then_limits() {
        assert_eq!(
            command("swap2"),
            Command::Swap2 {
                stones: Vec::new(),
                limits: Limits::default()
            }
        );
        assert_eq!(
            command("swap2 h8 7,8 j10 movetime 500 nodes 9"),
            Command::Swap2 {
                stones: vec!["h8".into(), "7,8".into(), "j10".into()],
                limits: Limits {
                    movetime: Some(Duration::from_millis(500)),
                    nodes: Some(9),
                    ..Limits::default()
                }
            }
        );
        assert_eq!(error("swap2 h8 depth"), "swap2: 'depth' needs a value");
        assert!(error("swap2 h8 nodes x").starts_with("swap2 nodes: "));
    }

    #[test]
    fn set_and_unknown() {
        assert_eq!(
            command("set Player random"),
            Command::Set {
                name: "player".into(),
                value: "random".into()
            }
        );
        assert!(error("set seed").contains("missing value"));
        assert!(error("frobnicate").contains("unknown command 'frobnicate'"));
        assert!(error("\u{1}\u{2}").contains("\\u{1}"));
    }
}
