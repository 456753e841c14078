//! `arbor match --compliance`: one engine through a scripted check of its protocol
//! (native, NBoard, GTP or Gomocup), each check reported, each deviation said.
//!
//! The engine talks to a bare process (no driver smoothing anything over), and arbor's
//! own engine core keeps the reference game, so every move the engine gives is checked
//! against the rules.

use std::io::Write;
use std::time::{Duration, Instant};

use super::EngineSpec;
use super::engine::{EngineFailure, Process};
use super::foreign::Proto;
use crate::engine::{Engine, Settings};
use crate::game::variant::Variant;
use crate::protocol::gtp::vertex_to_name;
use crate::text::quote;

/// Time for an answer that needs no thought.
const QUICK: Duration = Duration::from_secs(5);
/// The move time the checks ask for, and the slack allowed past it.
const MOVE_TIME: Duration = Duration::from_secs(1);
const SLACK: Duration = Duration::from_millis(400);

/// The engine stopped answering or died: the checks after it cannot run.
struct Gone(String);

impl From<EngineFailure> for Gone {
    fn from(failure: EngineFailure) -> Gone {
        Gone(failure.to_string())
    }
}

struct Checker<'a> {
    process: Process,
    /// The reference game.
    game: Engine,
    out: &'a mut dyn Write,
    checks: usize,
    deviations: usize,
}

impl Checker<'_> {
    fn report(&mut self, check: &str, result: Result<(), String>) {
        self.checks += 1;
        let line = match result {
            Ok(()) => format!("ok        {check}"),
            Err(deviation) => {
                self.deviations += 1;
                format!("DEVIATION {check}: {deviation}")
            }
        };
        let _ = writeln!(self.out, "{line}");
    }

    fn send(&mut self, line: &str) -> Result<(), Gone> {
        Ok(self.process.send(line)?)
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, Gone> {
        Ok(self.process.recv(deadline)?)
    }

    /// Whether `name` is a legal move in the reference game.
    fn legal(&self, name: &str) -> Result<(), String> {
        let mv = self
            .game
            .parse_move(name)
            .map_err(|e| format!("{} is not a move: {e}", quote(name)))?;
        if self.game.legal_moves().contains(&mv) {
            Ok(())
        } else {
            Err(format!("{} is illegal here", quote(name)))
        }
    }

    /// A legal move of the reference game (the first in its order).
    fn some_move(&self) -> String {
        let moves = self.game.legal_moves();
        self.game.move_name(moves[0])
    }

    /// An occupied point (the last move played).
    fn occupied(&self) -> String {
        let history = self.game.history();
        self.game
            .move_name(*history.last().expect("a move was played"))
    }

    /// Sends `quit` (unless it was sent already) and checks that the process ends.
    fn exits(&mut self, quit: &str, send: bool) {
        let sent = if send {
            self.process.send(quit)
        } else {
            Ok(())
        };
        let deadline = Instant::now() + Duration::from_secs(2);
        let result = loop {
            if self.process.exited().is_some() {
                break Ok(());
            }
            if Instant::now() > deadline {
                break Err("still running 2 s after it".to_string());
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        self.report(
            &format!("{quit} ends the process"),
            sent.map_err(|e| e.to_string()).and(result),
        );
    }
}

/// Runs the checks for `spec`'s protocol on games of `variant`, printing one line per
/// check; returns the number of deviations.
pub fn run(spec: &EngineSpec, variant: Variant, out: &mut dyn Write) -> Result<usize, String> {
    spec.proto.check(
        variant,
        super::referee::TimeControl::MoveTime(MOVE_TIME),
        &[],
    )?;
    // Gomocup brains choose their first move freely: the reference game does too.
    let variant = match variant {
        Variant::KInRow(mut config) if spec.proto == Proto::Gomocup => {
            config.opening = crate::game::gomoku::Opening::Free;
            Variant::KInRow(config)
        }
        other => other,
    };
    let settings = Settings {
        variant,
        hash_mb: 1,
        ..Settings::default()
    };
    let (game, _events) = Engine::new(&settings)?;
    let process = Process::start(&spec.name, &spec.command)?;
    let _ = writeln!(
        out,
        "compliance of {} ({}, proto={}, {variant})",
        spec.name,
        spec.command,
        spec.proto.name()
    );
    let mut checker = Checker {
        process,
        game,
        out,
        checks: 0,
        deviations: 0,
    };
    let script = match spec.proto {
        Proto::Native => native(&mut checker, variant),
        Proto::Gtp => gtp(&mut checker),
        Proto::Nboard => nboard(&mut checker),
        Proto::Gomocup => gomocup(&mut checker, variant),
    };
    if let Err(Gone(reason)) = script {
        checker.report("the engine answers to the end of the script", Err(reason));
    }
    checker.process.kill();
    let (checks, deviations) = (checker.checks, checker.deviations);
    let _ = writeln!(
        checker.out,
        "{checks} checks, {deviations} deviation{}",
        if deviations == 1 { "" } else { "s" }
    );
    Ok(deviations)
}

/// A native or GTP reply: its first line (with the `=`/`?` and the id) and the rest.
fn framed_reply(
    checker: &mut Checker,
    deadline: Instant,
) -> Result<Result<Vec<String>, String>, Gone> {
    let first = loop {
        let line = checker.recv(deadline)?;
        if line.trim().is_empty() || line.starts_with("info") {
            continue;
        }
        break line;
    };
    if !first.starts_with(['=', '?']) {
        // Read on to the end of whatever this is, so that the next check starts clean.
        while !checker.recv(deadline)?.is_empty() {}
        return Ok(Err(format!("{} is not a reply (= or ?)", quote(&first))));
    }
    let mut lines = vec![first];
    loop {
        let line = checker.recv(deadline)?;
        if line.is_empty() {
            return Ok(Ok(lines));
        }
        lines.push(line);
    }
}

/// Sends `line` and checks its reply: `success` (`=`) or not (`?`), the id echoed as
/// `=<id>` when `id` is given; returns the result text.
fn exchange(
    checker: &mut Checker,
    check: &str,
    line: &str,
    success: bool,
    deadline: Instant,
) -> Result<Option<String>, Gone> {
    checker.send(line)?;
    let reply = framed_reply(checker, deadline)?;
    let id: String = line.chars().take_while(char::is_ascii_digit).collect();
    let result = reply.and_then(|lines| {
        let first = &lines[0];
        let mark = if success { '=' } else { '?' };
        let rest = first
            .strip_prefix(mark)
            .ok_or_else(|| format!("expected a {mark} reply, got {}", quote(&lines.join(" | "))))?;
        let rest = rest.strip_prefix(id.as_str()).ok_or_else(|| {
            format!(
                "the id {id} is not echoed right after {mark}: {}",
                quote(first)
            )
        })?;
        if !rest.is_empty() && !rest.starts_with(' ') {
            return Err(format!("no space after {mark}{id}: {}", quote(first)));
        }
        let mut text = vec![rest.trim().to_string()];
        text.extend(lines[1..].iter().cloned());
        Ok(text.join("\n").trim().to_string())
    });
    let text = result.as_ref().ok().cloned();
    checker.report(check, result.map(|_| ()));
    Ok(text)
}

fn native(checker: &mut Checker, variant: Variant) -> Result<(), Gone> {
    let quick = || Instant::now() + QUICK;
    if let Some(text) = exchange(checker, "ping is answered pong", "ping", true, quick())? {
        let check = "ping's reply is 'pong'";
        checker.report(check, judged(text == "pong", &text));
    }
    exchange(checker, "ids are echoed", "17 ping", true, quick())?;
    exchange(
        checker,
        "newgame is accepted",
        &format!("newgame {variant}"),
        true,
        quick(),
    )?;
    if let Some(text) = exchange(
        checker,
        "moves lists the legal moves",
        "moves",
        true,
        quick(),
    )? {
        let mut expected: Vec<String> = checker
            .game
            .legal_moves()
            .into_iter()
            .map(|mv| checker.game.move_name(mv))
            .collect();
        let mut got: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        expected.sort();
        got.sort();
        let result = if got == expected {
            Ok(())
        } else {
            Err(format!(
                "{} instead of {}",
                quote(&got.join(" ")),
                quote(&expected.join(" "))
            ))
        };
        checker.report("moves are the rules' legal moves", result);
    }
    exchange(
        checker,
        "an unknown command is an error",
        "xyzzy",
        false,
        quick(),
    )?;
    let first = checker.some_move();
    exchange(
        checker,
        "a legal move is played",
        &format!("move {first}"),
        true,
        quick(),
    )?;
    let _ = checker.game.play(&first);
    let occupied = checker.occupied();
    exchange(
        checker,
        "an illegal move is an error",
        &format!("move {occupied}"),
        false,
        quick(),
    )?;
    let started = Instant::now();
    let line = format!("go movetime {}", MOVE_TIME.as_millis());
    if let Some(mv) = exchange(
        checker,
        "go answers a move",
        &line,
        true,
        started + MOVE_TIME * 5,
    )? {
        let elapsed = started.elapsed();
        checker.report("go's move is legal", checker.legal(&mv));
        checker.report("go keeps its move time", within(elapsed));
    }
    exchange(checker, "undo takes back a move", "undo", true, quick())?;
    checker.exits("quit", true);
    Ok(())
}

/// Whether a move came within the move time and its slack.
fn within(elapsed: Duration) -> Result<(), String> {
    if elapsed <= MOVE_TIME + SLACK {
        Ok(())
    } else {
        Err(format!(
            "took {} ms for a move time of {} ms",
            elapsed.as_millis(),
            MOVE_TIME.as_millis()
        ))
    }
}

/// GTP version 2's required commands.
const GTP_REQUIRED: [&str; 11] = [
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
];

fn gtp(checker: &mut Checker) -> Result<(), Gone> {
    let quick = || Instant::now() + QUICK;
    let size = checker.game.size();
    if let Some(text) = exchange(
        checker,
        "protocol_version",
        "protocol_version",
        true,
        quick(),
    )? {
        checker.report("protocol_version is 2", judged(text == "2", &text));
    }
    if let Some(text) = exchange(checker, "name", "name", true, quick())? {
        checker.report(
            "name is not empty",
            if text.is_empty() {
                Err("empty".into())
            } else {
                Ok(())
            },
        );
    }
    exchange(checker, "version", "version", true, quick())?;
    exchange(checker, "ids are echoed as =<id>", "17 name", true, quick())?;
    let listed =
        exchange(checker, "list_commands", "list_commands", true, quick())?.unwrap_or_default();
    let listed: Vec<&str> = listed.lines().map(str::trim).collect();
    let missing: Vec<&str> = GTP_REQUIRED
        .iter()
        .copied()
        .filter(|name| !listed.contains(name))
        .collect();
    checker.report(
        "list_commands has every required command",
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("missing {}", missing.join(", ")))
        },
    );
    if let Some(text) = exchange(
        checker,
        "known_command",
        "known_command genmove",
        true,
        quick(),
    )? {
        checker.report(
            "known_command genmove is true",
            judged(text == "true", &text),
        );
    }
    if let Some(text) = exchange(
        checker,
        "known_command of a made-up name",
        "known_command xyzzy",
        true,
        quick(),
    )? {
        checker.report(
            "known_command xyzzy is false",
            judged(text == "false", &text),
        );
    }
    exchange(
        checker,
        "an unknown command is an error",
        "xyzzy",
        false,
        quick(),
    )?;
    exchange(
        checker,
        "boardsize of the game",
        &format!("boardsize {size}"),
        true,
        quick(),
    )?;
    exchange(
        checker,
        "boardsize 1 is unacceptable",
        "boardsize 1",
        false,
        quick(),
    )?;
    exchange(
        checker,
        "boardsize of the game again",
        &format!("boardsize {size}"),
        true,
        quick(),
    )?;
    exchange(checker, "clear_board", "clear_board", true, quick())?;
    let first = checker.some_move();
    let vertex = gtp_vertex(checker, &first);
    exchange(
        checker,
        "play of a legal move",
        &format!("play b {vertex}"),
        true,
        quick(),
    )?;
    let _ = checker.game.play(&first);
    let occupied = gtp_vertex(checker, &checker.occupied());
    exchange(
        checker,
        "play on an occupied point is an error",
        &format!("play w {occupied}"),
        false,
        quick(),
    )?;
    let timed = listed.contains(&"time_settings") && listed.contains(&"time_left");
    let seconds = MOVE_TIME.as_secs();
    if timed {
        exchange(
            checker,
            "time_settings",
            &format!("time_settings 0 {seconds} 1"),
            true,
            quick(),
        )?;
        exchange(
            checker,
            "time_left",
            &format!("time_left w {seconds} 1"),
            true,
            quick(),
        )?;
    } else {
        checker.report(
            "time_settings and time_left are listed",
            Err("not listed: genmove cannot be told the clock".into()),
        );
    }
    let started = Instant::now();
    if let Some(reply) = exchange(
        checker,
        "genmove answers",
        "genmove w",
        true,
        started + MOVE_TIME * 5,
    )? {
        let elapsed = started.elapsed();
        let name = vertex_to_name(&reply, size).unwrap_or(reply);
        checker.report("genmove's move is legal", checker.legal(&name));
        if timed {
            checker.report("genmove keeps time_left", within(elapsed));
        }
    }
    if listed.contains(&"undo") {
        exchange(checker, "undo", "undo", true, quick())?;
    }
    exchange(checker, "quit is answered", "quit", true, quick())?;
    checker.exits("quit", false);
    Ok(())
}

fn nboard(checker: &mut Checker) -> Result<(), Gone> {
    // The GUI's start: engines name themselves at `nboard` (arbor) or `set depth` (Edax).
    checker.send("nboard 2")?;
    checker.send("set depth 2")?;
    let start = "---------------------------O*------*O---------------------------";
    let first = checker.some_move();
    checker.send(&format!(
        "set game (;GM[Othello]PC[arbor compliance]TY[8]BO[8 {start} *]B[{}];)",
        first.to_ascii_uppercase()
    ))?;
    let _ = checker.game.play(&first);
    nboard_ping(checker, 1, "set game is taken before ping is answered")?;
    checker.send("hint 1")?;
    let deadline = Instant::now() + MOVE_TIME * 10;
    let mut searches = Vec::new();
    loop {
        let line = checker.recv(deadline)?;
        // The hint is over at an empty status (arbor) or one that is not thinking (Edax).
        if line.starts_with("status") && !line.contains("thinking") {
            break;
        }
        if line.starts_with("search ") {
            searches.push(line);
        }
    }
    let result = match searches.last() {
        None => Err("no search line before the closing status".to_string()),
        Some(line) => nboard_search(checker, line),
    };
    checker.report(
        "hint sends search lines, then a status that is not thinking",
        result,
    );
    checker.send("go")?;
    let started = Instant::now();
    let deadline = started + MOVE_TIME * 10;
    let answer = loop {
        let line = checker.recv(deadline)?;
        if let Some(answer) = line.strip_prefix("=== ") {
            break answer.to_string();
        }
    };
    let mv = answer
        .split(|c: char| c == '/' || c.is_whitespace())
        .find(|word| !word.is_empty())
        .unwrap_or("")
        .to_ascii_lowercase();
    let mv = if mv == "pa" { "pass".to_string() } else { mv };
    checker.report("go's === move is legal", checker.legal(&mv));
    let _ = checker.game.play(&mv);
    checker.report(
        "go's === has a move, an eval and a time",
        // The GUI reads Edax's spaces as slashes.
        match answer
            .split(|c: char| c == '/' || c.is_whitespace())
            .filter(|word| !word.is_empty())
            .collect::<Vec<_>>()
            .as_slice()
        {
            [_, eval, time] if eval.parse::<f64>().is_ok() && time.parse::<f64>().is_ok() => Ok(()),
            [_] => Ok(()),
            _ => Err(format!("{} is not move/eval/time", quote(&answer))),
        },
    );
    // As the GUI does: the engine's own move, then the reply.
    let own = if mv == "pass" {
        "PA".to_string()
    } else {
        mv.to_ascii_uppercase()
    };
    checker.send(&format!("move {own}"))?;
    let reply = checker.some_move();
    checker.send(&format!("move {}", reply.to_ascii_uppercase()))?;
    let _ = checker.game.play(&reply);
    checker.send("xyzzy")?;
    nboard_ping(checker, 2, "a move and an unknown line, then ping")?;
    checker.exits("quit", true);
    Ok(())
}

/// `ping n` answered `pong n`, with only status lines (and at the start the engine's
/// name) before it.
fn nboard_ping(checker: &mut Checker, n: u32, check: &str) -> Result<(), Gone> {
    checker.send(&format!("ping {n}"))?;
    let deadline = Instant::now() + QUICK;
    let mut stray = Vec::new();
    let mut named = false;
    loop {
        let line = checker.recv(deadline)?;
        if line == format!("pong {n}") {
            break;
        }
        if let Some(name) = line.strip_prefix("set myname ") {
            named |= !name.trim().is_empty();
        } else if !line.starts_with("status") && !line.starts_with("nodestats") {
            stray.push(line);
        }
    }
    if n == 1 {
        let named = if named {
            Ok(())
        } else {
            Err("no set myname line".to_string())
        };
        checker.report(
            "the engine names itself (set myname) by the first pong",
            named,
        );
    }
    let result = if stray.is_empty() {
        Ok(())
    } else {
        Err(format!("unexpected {}", quote(&stray.join(" | "))))
    };
    checker.report(check, result);
    Ok(())
}

/// `search <pv> <eval> 0 <depth>`: a legal first move, a number, a depth that starts
/// with a digit.
fn nboard_search(checker: &Checker, line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [_, pv, eval, _, depth] = words.as_slice() else {
        return Err(format!(
            "{} is not 'search <pv> <eval> 0 <depth>'",
            quote(line)
        ));
    };
    let first = pv.get(..2).unwrap_or(pv).to_ascii_lowercase();
    let first = if first == "pa" {
        "pass".to_string()
    } else {
        first
    };
    checker.legal(&first)?;
    if eval.parse::<f64>().map_or(true, |e| !e.is_finite()) {
        return Err(format!("eval {} is not a number", quote(eval)));
    }
    if !depth.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(format!(
            "depth {} does not start with a digit",
            quote(depth)
        ));
    }
    Ok(())
}

/// The next Gomocup answer that is not a message.
fn gomocup_answer(checker: &mut Checker, deadline: Instant) -> Result<String, Gone> {
    loop {
        let line = checker.recv(deadline)?;
        let word = line.split_whitespace().next().unwrap_or("");
        if !line.trim().is_empty() && !matches!(word, "MESSAGE" | "DEBUG") {
            return Ok(line.trim().to_string());
        }
    }
}

/// A Gomocup move: `x,y`, legal in the reference game; it is played there.
fn gomocup_move(checker: &mut Checker, check: &str, answer: &str) {
    let parts: Vec<&str> = answer.split(',').map(str::trim).collect();
    let result = match parts.as_slice() {
        [x, y] if x.parse::<usize>().is_ok() && y.parse::<usize>().is_ok() => {
            let name = format!("{x},{y}");
            let legal = checker.legal(&name);
            if legal.is_ok() {
                let _ = checker.game.play(&name);
            }
            legal
        }
        _ => Err(format!("{} is not x,y", quote(answer))),
    };
    checker.report(check, result);
}

fn gomocup(checker: &mut Checker, variant: Variant) -> Result<(), Gone> {
    let quick = || Instant::now() + QUICK;
    let size = checker.game.size();
    let exact = matches!(variant, Variant::KInRow(config) if config.exact);
    checker.send(&format!("START {size}"))?;
    let answer = gomocup_answer(checker, quick())?;
    checker.report("START is answered OK", judged(answer == "OK", &answer));
    for info in [
        format!("INFO rule {}", exact as u8),
        format!("INFO timeout_turn {}", MOVE_TIME.as_millis()),
        "INFO timeout_match 100000".to_string(),
        "INFO time_left 100000".to_string(),
    ] {
        checker.send(&info)?;
    }
    let started = Instant::now();
    checker.send("BEGIN")?;
    let answer = gomocup_answer(checker, started + MOVE_TIME * 5)?;
    let elapsed = started.elapsed();
    gomocup_move(checker, "BEGIN is answered with a legal move", &answer);
    checker.report("BEGIN keeps timeout_turn", within(elapsed));
    let reply = checker.some_move();
    let point = point_of(checker, &reply);
    let started = Instant::now();
    checker.send(&format!("TURN {point}"))?;
    let _ = checker.game.play(&reply);
    let answer = gomocup_answer(checker, started + MOVE_TIME * 5)?;
    let elapsed = started.elapsed();
    gomocup_move(checker, "TURN is answered with a legal move", &answer);
    checker.report("TURN keeps timeout_turn", within(elapsed));
    let occupied = point_of(checker, &checker.occupied());
    checker.send(&format!("TURN {occupied}"))?;
    let answer = gomocup_answer(checker, quick())?;
    checker.report(
        "TURN on an occupied point is an ERROR",
        judged(answer.starts_with("ERROR"), &answer),
    );
    checker.send("ABOUT")?;
    let answer = gomocup_answer(checker, quick())?;
    checker.report(
        "ABOUT gives name=\"...\"",
        judged(answer.contains("name=\""), &answer),
    );
    // Silence is the deviation here, not the end of the script.
    checker.send("XYZZY")?;
    let deadline = Instant::now() + Duration::from_secs(2);
    let answer = loop {
        match checker.process.try_recv(deadline)? {
            Some(line) if line.starts_with("MESSAGE") || line.starts_with("DEBUG") => {}
            other => break other,
        }
    };
    checker.report(
        "an unknown command is UNKNOWN",
        match answer {
            Some(answer) if answer.starts_with("UNKNOWN") => Ok(()),
            Some(answer) => Err(quote(&answer)),
            None => Err("no reply within 2 s".to_string()),
        },
    );
    checker.send("RESTART")?;
    let answer = gomocup_answer(checker, quick())?;
    checker.report("RESTART is answered OK", judged(answer == "OK", &answer));
    // A position by BOARD: the brain's stone and the opponent's at the centre; its move.
    while checker.game.undo().is_ok() {}
    let centre = size / 2;
    let stones = [(centre, centre, 1), (centre, centre + 1, 2)];
    checker.send("BOARD")?;
    for (x, y, field) in stones {
        checker.send(&format!("{x},{y},{field}"))?;
        let _ = checker.game.play(&format!("{x},{y}"));
    }
    let started = Instant::now();
    checker.send("DONE")?;
    let answer = gomocup_answer(checker, started + MOVE_TIME * 5)?;
    gomocup_move(checker, "BOARD is answered with a legal move", &answer);
    checker.exits("END", true);
    Ok(())
}

/// A move name as Gomocup's `x,y`.
fn point_of(checker: &Checker, name: &str) -> String {
    match crate::game::notation::parse_point(name, checker.game.size()) {
        Ok(crate::game::notation::Point::At { col, row }) => format!("{col},{row}"),
        _ => name.to_string(),
    }
}

/// A move name as a GTP vertex, in capitals as Quarry sends them.
fn gtp_vertex(checker: &Checker, name: &str) -> String {
    match crate::game::notation::parse_point(name, checker.game.size()) {
        Ok(crate::game::notation::Point::At { col, row }) => {
            crate::protocol::gtp::point_vertex(col, row).to_ascii_uppercase()
        }
        _ => name.to_ascii_uppercase(),
    }
}

/// A check's result: passed, or the deviation is the answer as it came.
fn judged(passed: bool, answer: &str) -> Result<(), String> {
    if passed { Ok(()) } else { Err(quote(answer)) }
}
