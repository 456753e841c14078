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
use crate::game::Side;
use crate::game::notation::vertex_to_name;
use crate::game::variant::Variant;
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
    /// The first failed write of the report: the run ends with it.
    write_error: Option<std::io::Error>,
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
        if let Err(error) = writeln!(self.out, "{line}").and_then(|()| self.out.flush()) {
            self.write_error.get_or_insert(error);
        }
    }

    /// A line that is neither a check nor a deviation: something a GUI tolerates.
    fn note(&mut self, check: &str, text: &str) {
        if let Err(error) = writeln!(self.out, "note      {check}: {text}") {
            self.write_error.get_or_insert(error);
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Gone> {
        Ok(self.process.send(line)?)
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, Gone> {
        Ok(self.process.recv(deadline)?)
    }

    /// The next line if one comes before `deadline` (the engine is left running if not).
    fn try_recv(&mut self, deadline: Instant) -> Result<Option<String>, Gone> {
        Ok(self.process.try_recv(deadline)?)
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
    let mut checker = Checker {
        process,
        game,
        out,
        write_error: None,
        checks: 0,
        deviations: 0,
    };
    let title = format!(
        "compliance of {} ({}, proto={}, {variant})",
        spec.name,
        spec.command,
        spec.proto.name()
    );
    if let Err(error) = writeln!(checker.out, "{title}") {
        checker.process.kill();
        return Err(crate::engine::output::stdout_error(error));
    }
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
    let summary = writeln!(
        checker.out,
        "{checks} checks, {deviations} deviation{}",
        if deviations == 1 { "" } else { "s" }
    );
    match checker.write_error.map_or(summary, Err) {
        Ok(()) => Ok(deviations),
        Err(error) => Err(crate::engine::output::stdout_error(error)),
    }
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
    if GOGUI_RULES.iter().all(|name| listed.contains(name)) {
        gogui_rules(checker)?;
    } else {
        checker.report(
            "GoGui's rules commands (not all listed: not checked)",
            Ok(()),
        );
    }
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
    if matches!(checker.game.variant(), Variant::Othello { .. }) {
        gtp_pass(checker, timed)?;
    }
    exchange(checker, "quit is answered", "quit", true, quick())?;
    checker.exits("quit", false);
    Ok(())
}

/// The 8x8 start in GGF.
const GGF_START: &str = "---------------------------O*------*O---------------------------";

/// A `set game` record from `board` (64 GGF cells and `*` or `O`) with `moves` (GGF).
fn ggf_game(board: &str, moves: &str) -> String {
    format!("set game (;GM[Othello]PC[arbor compliance]TY[8]BO[8 {board}]{moves};)")
}

/// Sets the reference game to `cells` (`X`, `O`, `-`) with `side` to move, then `moves`.
fn reference(checker: &mut Checker, cells: &str, side: Side, moves: &[&str]) {
    let _ = checker.game.set_board(cells, side);
    for name in moves {
        let _ = checker.game.play(name);
    }
}

/// GoGui's rules commands, for GUIs that take the rules from the engine.
const GOGUI_RULES: [&str; 6] = [
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

/// GoGui's rules commands after Black's first move: the game, the size, a board of that
/// many rows, White to move, the reference game's legal moves, a final result.
fn gogui_rules(checker: &mut Checker) -> Result<(), Gone> {
    let quick = || Instant::now() + QUICK;
    let size = checker.game.size();
    if let Some(text) = exchange(
        checker,
        "gogui-rules_game_id",
        "gogui-rules_game_id",
        true,
        quick(),
    )? {
        checker.report(
            "gogui-rules_game_id names a game",
            judged(!text.is_empty(), &text),
        );
    }
    if let Some(text) = exchange(
        checker,
        "gogui-rules_board_size",
        "gogui-rules_board_size",
        true,
        quick(),
    )? {
        checker.report(
            "gogui-rules_board_size is the game's",
            judged(text == size.to_string(), &text),
        );
    }
    if let Some(text) = exchange(
        checker,
        "gogui-rules_board",
        "gogui-rules_board",
        true,
        quick(),
    )? {
        let rows = text.lines().filter(|line| !line.trim().is_empty()).count();
        checker.report(
            "gogui-rules_board has a row per line of the board",
            judged(rows == size, &text),
        );
    }
    let side = checker.game.side_to_move();
    if let Some(text) = exchange(
        checker,
        "gogui-rules_side_to_move",
        "gogui-rules_side_to_move",
        true,
        quick(),
    )? {
        let expected = if side == Side::Black {
            "black"
        } else {
            "white"
        };
        checker.report(
            "gogui-rules_side_to_move is the side to move",
            judged(text.eq_ignore_ascii_case(expected), &text),
        );
    }
    if let Some(text) = exchange(
        checker,
        "gogui-rules_legal_moves",
        "gogui-rules_legal_moves",
        true,
        quick(),
    )? {
        let mut got: Vec<String> = text
            .split_whitespace()
            .map(str::to_ascii_uppercase)
            .collect();
        let mut expected: Vec<String> = checker
            .game
            .legal_moves()
            .into_iter()
            .map(|mv| gtp_vertex(checker, &checker.game.move_name(mv)))
            .collect();
        got.sort();
        expected.sort();
        checker.report(
            "gogui-rules_legal_moves are the rules' legal moves",
            if got == expected {
                Ok(())
            } else {
                Err(format!(
                    "{} instead of {}",
                    quote(&text),
                    expected.join(" ")
                ))
            },
        );
    }
    exchange(
        checker,
        "gogui-rules_final_result",
        "gogui-rules_final_result",
        true,
        quick(),
    )?;
    Ok(())
}

/// A game played by `play` up to a position where the side to move has only a pass
/// (found by seeded random games in the reference game): `genmove` must pass.
fn gtp_pass(checker: &mut Checker, timed: bool) -> Result<(), Gone> {
    let quick = || Instant::now() + QUICK;
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut line = Vec::new();
    for _ in 0..1000 {
        let _ = checker.game.new_game(None);
        line.clear();
        while checker.game.outcome().is_none() {
            let moves = checker.game.legal_moves();
            if moves.len() == 1 && moves[0].is_pass() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            line.push(checker.game.move_name(mv));
            let _ = checker.game.play_move(mv);
        }
        if checker.game.outcome().is_none() {
            break;
        }
    }
    if checker.game.outcome().is_some() {
        return Ok(());
    }
    exchange(
        checker,
        "clear_board before a game with a pass",
        "clear_board",
        true,
        quick(),
    )?;
    let mut colour = "b";
    let mut accepted = true;
    for name in &line {
        let vertex = gtp_vertex(checker, name);
        checker.send(&format!("play {colour} {vertex}"))?;
        let reply = framed_reply(checker, quick())?;
        if !reply.is_ok_and(|lines| lines[0].starts_with('=')) {
            accepted = false;
        }
        colour = if colour == "b" { "w" } else { "b" };
    }
    checker.report(
        &format!("a game of {} moves up to a pass is played", line.len()),
        if accepted {
            Ok(())
        } else {
            Err("a play was refused".into())
        },
    );
    if timed {
        let seconds = MOVE_TIME.as_secs();
        exchange(
            checker,
            "time_left before the pass",
            &format!("time_left {colour} {seconds} 1"),
            true,
            quick(),
        )?;
    }
    let started = Instant::now();
    if let Some(reply) = exchange(
        checker,
        "genmove answers where the only move is a pass",
        &format!("genmove {colour}"),
        true,
        started + MOVE_TIME * 5,
    )? {
        checker.report(
            "genmove passes when the side to move has no move",
            judged(reply.eq_ignore_ascii_case("pass"), &reply),
        );
    }
    Ok(())
}

fn nboard(checker: &mut Checker) -> Result<(), Gone> {
    // The GUI's start: engines name themselves at `nboard` (arbor) or `set depth` (Edax).
    checker.send("nboard 2")?;
    checker.send("set depth 2")?;
    let first = checker.some_move();
    checker.send(&ggf_game(
        &format!("{GGF_START} *"),
        &format!("B[{}]", first.to_ascii_uppercase()),
    ))?;
    let _ = checker.game.play(&first);
    nboard_ping(checker, 1, "set game is taken before ping is answered")?;
    nboard_hint(
        checker,
        "hint sends search lines, then a status that is not thinking",
    )?;
    let Some(mv) = nboard_go(checker, "go")? else {
        return Ok(());
    };
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

    // The quirks GUIs meet. A record that ends with a pass: the other side is to move
    // (White has no move with a1 black and b1 white; Black's only move is then c1).
    let stuck = format!("XO{}", "-".repeat(62));
    let stuck_ggf = format!("{} O", stuck.replace('X', "*"));
    checker.send(&ggf_game(&stuck_ggf, "W[PA]"))?;
    reference(checker, &stuck, Side::White, &["pass"]);
    nboard_go(checker, "go after a record ending in a pass")?;
    // A hint where the only move is a pass.
    checker.send(&ggf_game(&stuck_ggf, ""))?;
    reference(checker, &stuck, Side::White, &[]);
    nboard_hint(checker, "hint where the only move is a pass")?;
    // A start board that is not the standard one, White to move (b7 its only move).
    let board = "OOOXXXXOOOXXXXXOOXOOOOXOOOXOOOXOOOOXOOXOOOXXXXXOO-OXXXOO--OXXXXO";
    checker.send(&ggf_game(&format!("{} O", board.replace('X', "*")), ""))?;
    reference(checker, board, Side::White, &[]);
    nboard_go(checker, "go from a non-standard start board")?;
    // analyze: an analysis line for each position of a two-move game.
    checker.send(&ggf_game(&format!("{GGF_START} *"), "B[F5]W[F6]"))?;
    nboard_analyze(checker)?;
    // A ping during a search and during a hint stops them: the pong comes at once.
    checker.send("set depth 30")?;
    checker.send(&ggf_game(&format!("{GGF_START} *"), ""))?;
    checker.send("go")?;
    nboard_ping_busy(checker, 3, "ping during a search is answered within 5 s")?;
    checker.send("hint 3")?;
    nboard_ping_busy(checker, 4, "ping during a hint is answered within 5 s")?;
    checker.exits("quit", true);
    Ok(())
}

/// A `status` line saying the engine is at work (`thinking`, NTest's `Analyzing`).
fn busy_status(line: &str) -> bool {
    let text = line.to_ascii_lowercase();
    text.contains("thinking") || text.contains("analyzing")
}

/// Whether NBoard allows `line` from an engine at any time (not a move, not a pong).
fn nboard_line(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    matches!(
        word,
        "" | "status" | "nodestats" | "search" | "book" | "set" | "learned" | "analysis"
    )
}

/// A note for lines NBoard does not define, if any came: the GUI (and `arbor match`)
/// skips them, so they are not deviations (NTest prints banners and `>> Abort round!!!`).
fn stray_lines(checker: &mut Checker, check: &str, stray: &[String]) {
    if !stray.is_empty() {
        checker.note(
            check,
            &format!("{} skipped (not NBoard lines)", quote(&stray.join(" | "))),
        );
    }
}

/// `go`, answered `=== <move>/<eval>/<time>` with a legal move (played in the reference
/// game); returns the move, `None` if there was none.
fn nboard_go(checker: &mut Checker, what: &str) -> Result<Option<String>, Gone> {
    checker.send("go")?;
    let deadline = Instant::now() + MOVE_TIME * 10;
    let mut stray = Vec::new();
    let answer = loop {
        let line = match checker.recv(deadline) {
            Ok(line) => line,
            Err(gone) => {
                stray_lines(
                    checker,
                    &format!("{what} sends only NBoard lines before ==="),
                    &stray,
                );
                return Err(gone);
            }
        };
        if let Some(answer) = line.strip_prefix("=== ") {
            break answer.to_string();
        }
        if !nboard_line(&line) && !line.starts_with("pong") {
            stray.push(line);
        }
    };
    stray_lines(
        checker,
        &format!("{what} sends only NBoard lines before ==="),
        &stray,
    );
    let words: Vec<&str> = answer
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .collect();
    let mv = words.first().copied().unwrap_or("").to_ascii_lowercase();
    let mv = if mv == "pa" { "pass".to_string() } else { mv };
    checker.report(
        &format!("{what}: the === move is legal"),
        checker.legal(&mv),
    );
    let _ = checker.game.play(&mv);
    checker.report(
        &format!("{what}: === has a move, an eval and a time"),
        // The GUI reads Edax's spaces as slashes.
        match words.as_slice() {
            [_, eval, time]
                if eval.parse::<f64>().is_ok_and(f64::is_finite) && time.parse::<f64>().is_ok() =>
            {
                Ok(())
            }
            [_] => Ok(()),
            // No eval (NTest's `C1//0.00`): the GUI shows none.
            [_, time] if answer.contains("//") && time.parse::<f64>().is_ok() => Ok(()),
            _ => Err(format!("{} is not move/eval/time", quote(&answer))),
        },
    );
    Ok(Some(mv))
}

/// `hint 1`: search lines (the last one checked), then a status that is not thinking.
fn nboard_hint(checker: &mut Checker, check: &str) -> Result<(), Gone> {
    checker.send("hint 1")?;
    let deadline = Instant::now() + MOVE_TIME * 10;
    let mut searches = Vec::new();
    let mut stray = Vec::new();
    loop {
        let line = match checker.recv(deadline) {
            Ok(line) => line,
            Err(gone) => {
                stray_lines(checker, check, &stray);
                return Err(gone);
            }
        };
        // The hint is over at an empty status (arbor, NTest) or one that is not thinking
        // (Edax); NTest opens it with `status Analyzing`.
        if line.starts_with("status") && !busy_status(&line) {
            break;
        }
        if line.starts_with("search ") {
            searches.push(line);
        } else if !nboard_line(&line) && !line.starts_with("pong") {
            stray.push(line);
        }
    }
    stray_lines(checker, check, &stray);
    let result = match searches.last() {
        None => Err("no search line before the closing status".to_string()),
        Some(line) => nboard_search(checker, line),
    };
    checker.report(check, result);
    Ok(())
}

/// `analyze` of the game set (two moves: three positions): `analysis <n> <eval>` for
/// moves 2, 1 and 0, then a status that is not thinking.
fn nboard_analyze(checker: &mut Checker) -> Result<(), Gone> {
    let check = "analyze sends analysis <n> <eval> for each position";
    checker.send("analyze")?;
    let deadline = Instant::now() + MOVE_TIME * 10;
    let mut numbers = Vec::new();
    let mut bad = Vec::new();
    loop {
        let line = checker.recv(deadline)?;
        if line.starts_with("status") && !busy_status(&line) {
            break;
        }
        if line.starts_with("analysis") {
            match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                [_, n, eval] if eval.parse::<f64>().is_ok_and(f64::is_finite) => {
                    match n.parse::<u32>() {
                        Ok(n) => numbers.push(n),
                        Err(_) => bad.push(line.clone()),
                    }
                }
                _ => bad.push(line.clone()),
            }
        } else if !nboard_line(&line) && !line.starts_with("pong") {
            bad.push(line);
        }
    }
    numbers.sort_unstable();
    let result = if !bad.is_empty() {
        Err(format!(
            "{} is not 'analysis <n> <eval>'",
            quote(&bad.join(" | "))
        ))
    } else if numbers != [0, 1, 2] {
        Err(format!("positions {numbers:?}, not 0, 1 and 2"))
    } else {
        Ok(())
    };
    checker.report(check, result);
    Ok(())
}

/// `ping n` while a search or hint runs: `pong n` within 5 s, only NBoard lines (and a
/// `===`) before it. An engine that finishes its search first gets a minute more before
/// the script gives up on it.
fn nboard_ping_busy(checker: &mut Checker, n: u32, check: &str) -> Result<(), Gone> {
    std::thread::sleep(Duration::from_millis(200));
    checker.send(&format!("ping {n}"))?;
    let pong = format!("pong {n}");
    let sent = Instant::now();
    let mut stray = Vec::new();
    let mut late = false;
    loop {
        let line = match checker.try_recv(sent + QUICK)? {
            Some(line) => line,
            None if !late => {
                late = true;
                checker.report(
                    check,
                    Err("no pong within 5 s: the ping did not stop it".into()),
                );
                match checker.try_recv(sent + Duration::from_secs(60))? {
                    Some(line) => line,
                    None => return Err(Gone("no pong a minute after the ping".into())),
                }
            }
            None => return Err(Gone("no pong a minute after the ping".into())),
        };
        if line.trim() == pong {
            break;
        }
        if !nboard_line(&line) && !line.starts_with("===") {
            stray.push(line);
        }
    }
    stray_lines(checker, check, &stray);
    if !late {
        checker.report(check, Ok(()));
    }
    Ok(())
}

/// `ping n` answered `pong n`, with only status lines (and at the start the engine's
/// name) before it.
fn nboard_ping(checker: &mut Checker, n: u32, check: &str) -> Result<(), Gone> {
    checker.send(&format!("ping {n}"))?;
    let deadline = Instant::now() + QUICK;
    // NBoard lines out of place are deviations; lines NBoard does not define are skipped.
    let (mut stray, mut unknown) = (Vec::new(), Vec::new());
    let mut named = false;
    loop {
        let line = checker.recv(deadline)?;
        if line == format!("pong {n}") {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix("set myname ") {
            named |= !name.trim().is_empty();
        } else if !nboard_line(&line) && !line.starts_with("===") && !line.starts_with("pong") {
            unknown.push(line);
        } else if !line.starts_with("status") && !line.starts_with("nodestats") {
            stray.push(line);
        }
    }
    stray_lines(checker, check, &unknown);
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
    checker.send(&format!("START {size}"))?;
    let answer = gomocup_answer(checker, quick())?;
    checker.report("START is answered OK", judged(answer == "OK", &answer));
    for info in [
        format!("INFO rule {}", super::foreign::gomocup_rule(variant)),
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
            crate::game::notation::point_vertex(col, row).to_ascii_uppercase()
        }
        _ => name.to_ascii_uppercase(),
    }
}

/// A check's result: passed, or the deviation is the answer as it came.
fn judged(passed: bool, answer: &str) -> Result<(), String> {
    if passed { Ok(()) } else { Err(quote(answer)) }
}
