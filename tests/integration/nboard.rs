//! `arbor nboard` through its stdin/stdout, sent what the NBoard GUI sends.

use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::common;
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

/// A board as rows (`X` black, `O` white, `-` empty) and the side to move, in GGF.
fn board(rows: [&str; 8], side: &str) -> String {
    format!("{} {side}", rows.concat().replace('X', "*"))
}

/// White to move with b7 its only move, 4 empties: White wins by 4 (b7 a8 b8).
fn one_move() -> String {
    board(
        [
            "OOOXXXXO", "OOXXXXXO", "OXOOOOXO", "OOXOOOXO", "OOOXOOXO", "OOXXXXXO", "O-OXXXOO",
            "--OXXXXO",
        ],
        "O",
    )
}

/// Black to move with 12 empties.
fn twelve_empties() -> String {
    board(
        [
            "O-OXXXXO", "-OXXXXXO", "XXOXOOXO", "XXXOOOXO", "-XXOOOOO", "-XXXOOOO", "--OOOO-O",
            "--O-XX--",
        ],
        "*",
    )
}

/// The depth field of a hint line, the eval and the first move.
fn hint_fields(line: &str) -> (String, f64, String) {
    let first = check_search_line(line);
    let words: Vec<&str> = line.split(' ').collect();
    (words[4].to_string(), words[2].parse().unwrap(), first)
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
        Engine::spawn_logging(args, None)
    }

    /// With stderr (arbor's log) written to `log`, if given.
    fn spawn_logging(args: &[&str], log: Option<&std::path::Path>) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command.args(["nboard", "--hash", "16"]).args(args);
        let (child, stdin, lines) = match log {
            Some(path) => {
                command.stderr(std::fs::File::create(path).unwrap());
                common::spawn_lines_keeping_stderr(command)
            }
            None => common::spawn_lines(command),
        };
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

    /// `go` to its `===`: the move and the eval; the move is then played with `move`, as
    /// the NBoard GUI plays it back.
    fn go(&mut self) -> (String, f64) {
        let (played, eval) = self.go_only();
        self.send(&format!("move {played}"));
        (played, eval)
    }

    /// `go` to its `===`, the move not played back.
    fn go_only(&mut self) -> (String, f64) {
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
    // Searches from the start: the opening book would answer at once.
    let mut engine = Engine::spawn_with(&["--book", "off"]);
    // Deep enough that only the ping ends them within the hang guard.
    engine.send("set depth 40");
    engine.send("go");
    assert_eq!(engine.next(), "status thinking");
    // A stopped go still names its move before the pong (a referee stopping the engine
    // by ping takes it; the GUI drops it), and plays nothing.
    let before = engine.sync(7);
    let answer = before
        .iter()
        .find(|line| line.starts_with("=== "))
        .expect("a move");
    assert!(
        ["D3", "C4", "F5", "E6"].contains(&&answer[4..6]),
        "{before:?}"
    );
    engine.send("hint 3");
    assert_eq!(engine.next(), "status thinking");
    let before = engine.sync(8);
    assert_eq!(before.last().map(String::as_str), Some("status"));
    // A go, hint or analyze before a ping gives no answer (the GUI would drop it), but
    // the move of a go the ping stopped (had it started).
    engine.send_bytes(b"go\nhint 1\nanalyze\n");
    let before = engine.sync(9);
    assert!(
        before.iter().all(|line| line.starts_with("status")
            || line.starts_with("nodestats")
            || line.starts_with("=== ")),
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
    // FFO #1 in solve range: every hint is an exact margin, as published (a new engine:
    // no `set depth`, so near the end it solves).
    engine.finish();
    let mut engine = Engine::spawn();
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--".replace('X', "*");
    engine.send(&format!("set game {}", ggf(&format!("{ffo1} *"), "")));
    engine.send("hint 2");
    let lines = engine.until(|line| line == "status");
    // Each move's exact line, best first.
    let mut last: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l.ends_with(" 100%"))
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            (words[1][..2].to_string(), words[2].to_string())
        })
        .collect();
    last.sort_by(|a, b| b.1.parse::<f64>().unwrap().total_cmp(&a.1.parse().unwrap()));
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

/// Without `set depth`: a forced move and a pass get their real scores from `go`,
/// `analyze` and `hint` (the search used to skip them and say 0.00), and a game that ends
/// within the search is marked exact, in a few lines.
#[test]
fn forced_moves_and_passes_get_real_scores_without_set_depth() {
    let mut engine = Engine::spawn();
    engine.send(&format!("set game {}", ggf(&one_move(), "")));
    let hints = engine.hint();
    let last = hint_fields(hints.last().unwrap());
    assert_eq!(
        last,
        ("100%".to_string(), 4.0, "B7".to_string()),
        "{hints:?}"
    );
    for line in &hints {
        let (depth, _, _) = hint_fields(line);
        assert!(
            depth == "100%" || depth.parse::<u32>().unwrap() <= 4,
            "{hints:?}"
        );
    }
    assert_eq!(engine.go_only(), ("B7".to_string(), 4.0));
    assert_eq!(engine.analyze(1), [(0, 4.0)]);

    // White's only move is a pass; Black then ends the game with c1, 64-0.
    engine.send(&format!("set game {}", ggf(&white_stuck(), "")));
    engine.send("hint 3");
    let lines = engine.until(|line| line == "status");
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search")).collect();
    assert!(hints.len() <= 3, "a flood: {lines:?}");
    assert_eq!(
        hint_fields(hints.last().unwrap()),
        ("100%".to_string(), -64.0, "PA".to_string())
    );
    assert_eq!(engine.go_only(), ("PA".to_string(), -64.0));
    assert_eq!(engine.analyze(1), [(0, -64.0)]);
    engine.finish();
}

/// `set depth` at least the empties is a solve: every line ends exact, no depth label
/// passes the empties, and each line is sent once per iteration.
#[test]
fn a_depth_past_the_empties_solves_and_each_line_comes_once_per_iteration() {
    let mut engine = Engine::spawn();
    engine.send("set depth 20");
    engine.send(&format!("set game {}", ggf(&twelve_empties(), "")));
    engine.send("hint 3");
    let lines = engine.until(|line| line == "status");
    let hints: Vec<(String, f64, String)> = lines
        .iter()
        .filter(|l| l.starts_with("search"))
        .map(|l| hint_fields(l))
        .collect();
    let mut last: Vec<(String, f64, String)> = Vec::new();
    for hint in &hints {
        assert!(
            hint.0 == "100%" || hint.0.parse::<u32>().unwrap() <= 12,
            "{lines:?}"
        );
        last.retain(|h| h.2 != hint.2);
        last.push(hint.clone());
    }
    // The best three, as the exact solver has them, and no line repeated unchanged.
    let mut best: Vec<(String, f64, String)> = last.into_iter().filter(|h| h.0 == "100%").collect();
    best.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert_eq!(
        best[0],
        ("100%".to_string(), -4.0, "G8".to_string()),
        "{lines:?}"
    );
    assert_eq!(
        best[1],
        ("100%".to_string(), -6.0, "A2".to_string()),
        "{lines:?}"
    );
    let mut seen = lines.clone();
    seen.sort();
    let before = seen.len();
    seen.dedup();
    assert_eq!(seen.len(), before, "a line sent twice: {lines:?}");
    engine.finish();
}

/// `set depth` takes 1 to 60, as protocol.md says: 0 and 61 are refused (logged) and the
/// depth set before stays.
#[test]
fn set_depth_out_of_range_is_refused_and_the_depth_stays() {
    let log = std::env::temp_dir().join(format!("arbor-nboard-depth-{}.log", std::process::id()));
    let mut engine = Engine::spawn_logging(&[], Some(&log));
    engine.send("set depth 2");
    engine.send("set depth 0");
    engine.send("set depth 61");
    engine.send(&format!("set game {}", ggf(&format!("{START} *"), "")));
    engine.send("hint 1");
    let lines = engine.until(|line| line == "status");
    let deepest = lines
        .iter()
        .filter(|line| line.starts_with("search "))
        .filter_map(|line| line.split(' ').nth(4)?.parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(2), "{lines:?}");
    engine.finish();
    let logged = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(
        logged.contains("set depth: 0 is outside 1..=60"),
        "{logged}"
    );
    assert!(
        logged.contains("set depth: 61 is outside 1..=60"),
        "{logged}"
    );
}

/// `go` does not play its move: the GUI plays it back with `move` (as the NBoard GUI and
/// Edax do) and nothing is logged as wrong; a driver that sends the opponent's reply
/// instead still finds the game in step.
#[test]
fn go_leaves_the_move_to_the_gui_and_its_echo_logs_no_warning() {
    let log = std::env::temp_dir().join(format!("arbor-nboard-echo-{}.log", std::process::id()));
    let mut engine = Engine::spawn_logging(&[], Some(&log));
    engine.send("set depth 2");
    engine.send(&format!("set game {}", ggf(&format!("{START} *"), "")));
    assert!(engine.sync(1).is_empty());
    // As the GUI: `===`, then a ping and the move played back, for both sides.
    for n in 0..6 {
        let (played, _) = engine.go_only();
        assert!(engine.sync(n + 2).is_empty());
        engine.send(&format!("move {played}"));
    }
    assert_eq!(engine.analyze(7)[0].0, 6);
    engine.finish();
    let logged = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(!logged.contains("WARN"), "{logged}");

    // A driver that does not echo: Black's move, then White's reply straight away.
    let mut engine = Engine::spawn();
    engine.send("set depth 1");
    let (black, _) = engine.go_only();
    let reply = match black.as_str() {
        "F5" | "E6" => "F6",
        _ => "C3",
    };
    engine.send(&format!("move {reply}"));
    assert_eq!(engine.analyze(3)[0].0, 2);
    engine.finish();
}
