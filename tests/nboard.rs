//! `arbor nboard` through its stdin/stdout, sent what the NBoard GUI sends.

use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;
use std::time::Duration;

mod common;
use common::glob;

/// How long a reply may take before the test calls it a hang: a guard, not a timing check.
const PATIENCE: Duration = Duration::from_secs(30);

/// The 8x8 start board in GGF (`*` black, `O` white).
const START: &str = "---------------------------O*------*O---------------------------";

/// A GGF game as NBoard sends it, from `board` (64 cells then `*` or `O`) with `moves`.
fn ggf(board: &str, moves: &str) -> String {
    format!(
        "(;GM[Othello]PC[NBoard]DT[2026-01-01 00:00:00 GMT]PB[arbor]PW[you]RE[?]TI[5:00]\
         TY[8]BO[8 {board}]{moves};)"
    )
}

/// Black has a1 and White b1 and nothing else: White cannot move, Black only c1.
fn white_stuck() -> String {
    format!("*O{} O", "-".repeat(62))
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn() -> Engine {
        Engine::spawn_with(&[])
    }

    fn spawn_with(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command.args(["nboard", "--hash", "16"]).args(args);
        let (child, stdin, lines) = common::spawn_lines(command);
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.send("nboard 2");
        assert_eq!(engine.next(), "set myname arbor");
        engine
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn next(&mut self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("no reply within the hang guard")
    }

    /// Lines up to and including the first that `last` accepts.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = last(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// `ping n`, and every line before its `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut seen = self.until(|line| line.starts_with("pong"));
        assert_eq!(seen.pop().unwrap(), format!("pong {n}"), "{seen:?}");
        seen
    }

    /// `hint 1` to its closing empty `status`: the hint lines.
    fn hint(&mut self) -> Vec<String> {
        self.send("hint 1");
        let lines = self.until(|line| line == "status");
        lines
            .into_iter()
            .filter(|line| !line.starts_with("status") && !line.starts_with("nodestats"))
            .collect()
    }

    /// `go` to its `===`: the move and the eval.
    fn go(&mut self) -> (String, f64) {
        self.send("go");
        let last = self.until(|line| line.starts_with("==="));
        let item = last
            .last()
            .unwrap()
            .strip_prefix("=== ")
            .unwrap()
            .to_string();
        let parts: Vec<&str> = item.split('/').collect();
        assert_eq!(parts.len(), 3, "{item}");
        parts[2].parse::<f64>().unwrap();
        (parts[0].to_string(), parts[1].parse().unwrap())
    }

    /// `analyze`'s lines, in the order sent, as (move number, eval).
    fn analyze(&mut self, positions: usize) -> Vec<(usize, f64)> {
        self.send("analyze");
        assert_eq!(self.next(), "status thinking");
        let lines = (0..positions)
            .map(|_| {
                let line = self.next();
                let words: Vec<&str> = line.split(' ').collect();
                assert_eq!((words[0], words.len()), ("analysis", 3), "{line}");
                (words[1].parse().unwrap(), words[2].parse().unwrap())
            })
            .collect();
        assert_eq!(self.next(), "status");
        lines
    }

    fn finish(mut self) {
        self.stdin.take();
        assert!(self.child.wait().unwrap().success());
        assert!(
            self.lines.recv_timeout(PATIENCE).is_err(),
            "output after the end"
        );
    }
}

/// Checks a hint line as NBoard's parser reads it; its move.
fn check_search_line(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 5, "{line}");
    assert_eq!(words[0], "search", "{line}");
    let pv = words[1];
    assert!(
        !pv.is_empty() && pv.len().is_multiple_of(2) && pv.is_ascii(),
        "{line}"
    );
    let eval: f64 = words[2].parse().unwrap();
    assert!(eval.is_finite() && !words[2].contains(['e', 'E']), "{line}");
    assert_eq!(words[3], "0");
    assert!(words[4].starts_with(|c: char| c.is_ascii_digit()), "{line}");
    pv[..2].to_string()
}

#[test]
fn a_mid_game_position_gets_hints_a_move_and_an_analysis() {
    let mut engine = Engine::spawn();
    engine.send("set depth 4");
    engine.send("set contempt 0");
    engine.send(&format!(
        "set game {}",
        ggf(&format!("{START} *"), "B[F5]W[F6/-1.00/2.1]")
    ));
    assert!(engine.sync(1).is_empty());
    let hints = engine.hint();
    assert_eq!(hints.len(), 4, "one line per depth: {hints:?}");
    for (depth, line) in hints.iter().enumerate() {
        assert!(line.ends_with(&format!(" {}", depth + 1)), "{line}");
        let first = check_search_line(line);
        assert!(["D3", "C4", "E6", "F7"].contains(&first.as_str()), "{line}");
    }
    let (first, _) = engine.go();
    assert!(["D3", "C4", "E6", "F7"].contains(&first.as_str()));
    // White answers, then the game (4 moves: 5 positions) is analysed from the end.
    engine.send("set depth 2");
    engine.go();
    let analysis = engine.analyze(5);
    let numbers: Vec<usize> = analysis.iter().map(|&(n, _)| n).collect();
    assert_eq!(numbers, [4, 3, 2, 1, 0]);
    // The game is back where it was: Black to move after 4 moves.
    let analysis = engine.analyze(5);
    assert_eq!(analysis[0].0, 4);
    engine.send("learn");
    assert_eq!(engine.next(), "learned");
    engine.finish();
}

/// `--threads` as `arbor nboard` takes it: hints and a move as with one thread.
#[test]
fn with_two_threads_hint_and_go_answer() {
    let mut engine = Engine::spawn_with(&["--threads", "2"]);
    engine.send("set depth 3");
    engine.send(&format!("set game {}", ggf(&format!("{START} *"), "B[F5]")));
    assert!(engine.sync(1).is_empty());
    let hints = engine.hint();
    assert_eq!(hints.len(), 3, "one line per depth: {hints:?}");
    for line in &hints {
        let first = check_search_line(line);
        assert!(["D6", "F4", "F6"].contains(&first.as_str()), "{line}");
    }
    let (played, _) = engine.go();
    assert!(["D6", "F4", "F6"].contains(&played.as_str()), "{played}");
    engine.finish();
}

#[test]
fn a_game_ending_with_a_pass_leaves_the_other_side_to_move() {
    let mut engine = Engine::spawn();
    engine.send("set depth 3");
    // White to move but stuck: the one hint is a pass, with a number for its eval.
    engine.send(&format!("set game {}", ggf(&white_stuck(), "")));
    let hints = engine.hint();
    assert!(!hints.is_empty());
    for line in &hints {
        assert_eq!(check_search_line(line), "PA", "{line}");
    }
    // The record's pass: Black is to move, and c1 is Black's only move.
    engine.send(&format!("set game {}", ggf(&white_stuck(), "W[PA]")));
    for line in engine.hint() {
        assert_eq!(check_search_line(&line), "C1", "{line}");
    }
    assert_eq!(engine.go().0, "C1");
    // c1 took b1: the game is over, Black won 64-0; the analysis says so for both.
    let analysis = engine.analyze(3);
    assert_eq!(analysis, [(2, -64.0), (1, 64.0), (0, -64.0)]);
    // A record that leaves the pass out is read as NBoard reads it: the pass is played.
    engine.send(&format!("set game {}", ggf(&white_stuck(), "B[C1]")));
    assert_eq!(engine.analyze(3)[0], (2, -64.0));
    engine.finish();
}

#[test]
fn ping_stops_a_search_and_a_hint_and_the_game_stays() {
    let mut engine = Engine::spawn();
    // Deep enough that only the ping ends them within the hang guard.
    engine.send("set depth 40");
    engine.send("go");
    assert_eq!(engine.next(), "status thinking");
    let before = engine.sync(7);
    assert!(
        !before.iter().any(|line| line.starts_with("===")),
        "{before:?}"
    );
    engine.send("hint 3");
    assert_eq!(engine.next(), "status thinking");
    let before = engine.sync(8);
    assert_eq!(before.last().map(String::as_str), Some("status"));
    // A go, hint or analyze before a ping gives no answer (the GUI would drop it).
    engine.send_bytes(b"go\nhint 1\nanalyze\n");
    let before = engine.sync(9);
    assert!(
        before
            .iter()
            .all(|line| line.starts_with("status") || line.starts_with("nodestats")),
        "{before:?}"
    );
    // The stopped go played nothing: Black is still to move at the start.
    engine.send("set depth 1");
    assert!(["D3", "C4", "F5", "E6"].contains(&engine.go().0.as_str()));
    // An analysis stopped mid-game puts the game back: 1 move, 2 positions.
    engine.send("set depth 40");
    engine.send("analyze");
    assert_eq!(engine.next(), "status thinking");
    assert_eq!(engine.sync(10), ["status"]);
    engine.send("set depth 1");
    let numbers: Vec<usize> = engine.analyze(2).iter().map(|&(n, _)| n).collect();
    assert_eq!(numbers, [1, 0]);
    engine.finish();
}

#[test]
fn garbage_changes_nothing() {
    let mut engine = Engine::spawn();
    engine.send("set depth 1");
    engine.send(&format!(
        "set game {}",
        ggf(&format!("{START} *"), "B[F5]W[F6]")
    ));
    for line in [
        "hello",
        "move",
        "move Z9",
        "move PA",
        "move F5",
        "move f5/x/y",
        "set",
        "set depth",
        "set depth -3",
        "set depth 99",
        "set game",
        "set game (;GM[Othello]",
        "set game (;GM[Chess]BO[8 x *];)",
        &format!("set game {}", ggf(&format!("{START} *"), "B[F5]W[F6]B[A1]")),
        &format!("set game {}", ggf(&format!("{START} *"), "B[F5]B[E6]")),
        "set contempt lots",
        "set colour blue",
        "hint",
        "hint 0",
        "hint -1",
        "nboard",
        "ping",
        "ping x",
        "=== F5",
        "\u{7}\u{0}",
    ] {
        engine.send(line);
    }
    engine.send_bytes(b"\xff\xfe\n");
    engine.send(&"x".repeat(100_000));
    assert!(engine.sync(1).is_empty(), "garbage got replies");
    // Still Black to move after f5 f6: 3 moves analysed, a legal hint.
    assert_eq!(engine.analyze(3)[0].0, 2);
    for line in engine.hint() {
        assert!(["D3", "C4", "E6", "F7"].contains(&check_search_line(&line).as_str()));
    }
    engine.finish();
}

#[test]
fn the_protocol_md_example_replays() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let section = doc
        .split_once("## NBoard protocol")
        .expect("protocol.md has an NBoard section")
        .1;
    let block = section.split("```").nth(1).expect("an example block");
    let mut engine = Engine::spawn();
    let mut lines = block.lines().filter(|line| !line.trim().is_empty());
    assert_eq!(lines.next(), Some("gui:   nboard 2"));
    assert_eq!(lines.next(), Some("arbor: set myname arbor"));
    let mut replayed = 0;
    for line in lines {
        if let Some(sent) = line.strip_prefix("gui:") {
            engine.send(sent.trim());
        } else {
            let expected = line.strip_prefix("arbor: ").expect("gui: or arbor: lines");
            let got = engine.next();
            assert!(glob(expected, &got), "expected {expected:?}, got {got:?}");
            replayed += 1;
        }
    }
    assert!(replayed >= 10, "only {replayed} lines replayed");
    engine.finish();
}

#[test]
fn an_analysis_stopped_half_way_puts_the_game_back() {
    let mut engine = Engine::spawn();
    engine.send("set depth 1");
    for _ in 0..48 {
        engine.go();
    }
    // The last positions are solved at once; the early ones would take for ever.
    engine.send("set depth 40");
    engine.send("analyze");
    assert_eq!(engine.next(), "status thinking");
    assert!(engine.next().starts_with("analysis 48 "));
    let before = engine.sync(1);
    assert_eq!(before.last().map(String::as_str), Some("status"));
    assert!(
        before[..before.len() - 1]
            .iter()
            .all(|line| line.starts_with("analysis ")),
        "{before:?}"
    );
    engine.send("set depth 1");
    assert_eq!(engine.analyze(49)[0].0, 48);
    engine.finish();
}

#[test]
fn hint_n_gives_n_moves_each_with_its_own_score() {
    let mut engine = Engine::spawn();
    engine.send("set depth 3");
    engine.send(&format!(
        "set game {}",
        ggf(&format!("{START} *"), "B[F5]W[F6]")
    ));
    engine.send("hint 3");
    let lines = engine.until(|line| line == "status");
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    // Three lines per depth, three different moves each time.
    assert_eq!(hints.len(), 9, "{lines:?}");
    for (depth, group) in hints.chunks(3).enumerate() {
        let mut moves: Vec<String> = group.iter().map(|line| check_search_line(line)).collect();
        assert!(
            group
                .iter()
                .all(|line| line.ends_with(&format!(" {}", depth + 1)))
        );
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), 3, "{group:?}");
    }
    // FFO #1 in solve range: every hint is an exact margin, as published.
    engine.send("set depth 0");
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--".replace('X', "*");
    engine.send(&format!("set game {}", ggf(&format!("{ffo1} *"), "")));
    engine.send("hint 2");
    let lines = engine.until(|line| line == "status");
    let exact: Vec<&String> = lines.iter().filter(|l| l.ends_with(" 100%")).collect();
    let last: Vec<(String, String)> = exact[exact.len() - 2..]
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            (words[1][..2].to_string(), words[2].to_string())
        })
        .collect();
    assert_eq!(
        last,
        [
            ("G8".to_string(), "18.00".to_string()),
            ("H1".to_string(), "12.00".to_string())
        ],
        "{lines:?}"
    );
    engine.finish();
}
