//! `arbor gtp` through its stdin/stdout: the commands Quarry and GoGui send, ids, passes,
//! the end of a game, and hostile lines that must change nothing.

use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crate::common;
use common::glob;

/// How long a reply may take before the test calls it a hang: a guard, not a timing check.
const PATIENCE: Duration = Duration::from_secs(30);

/// A 4x4 game with a pass: White has no move after b1, Black ends it with d1 (14-2).
const PASS_GAME: [&str; 12] = [
    "c4", "b4", "a1", "d2", "d4", "d3", "a2", "c1", "a4", "a3", "b1", "d1",
];

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command.args(["gtp", "--hash", "16"]).args(args);
        let (child, stdin, lines) = common::spawn_lines(command);
        Engine {
            child,
            stdin,
            lines,
        }
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

    /// One reply: its lines up to the empty line that ends it.
    fn reply(&mut self) -> String {
        let mut lines = Vec::new();
        loop {
            let line = self.next();
            if line.is_empty() {
                return lines.join("\n");
            }
            lines.push(line);
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    /// A command that must succeed; its result text.
    fn ok(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        let text = reply
            .strip_prefix('=')
            .unwrap_or_else(|| panic!("{line}: {reply}"));
        text.trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string()
    }

    /// Everything that describes the game, to show that a command changed nothing.
    fn state(&mut self) -> Vec<String> {
        [
            "gogui-rules_board",
            "gogui-rules_side_to_move",
            "gogui-rules_legal_moves",
        ]
        .iter()
        .map(|command| self.ok(command))
        .collect()
    }

    fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status}");
        assert!(
            self.lines.recv_timeout(Duration::from_secs(5)).is_err(),
            "output after the end"
        );
    }
}

#[test]
fn quarry_starts_a_game_and_genmove_answers_in_time() {
    // The search's clock is the point: the opening book would answer at once.
    let mut engine = Engine::spawn(&["--book", "off"]);
    // Quarry's start, from its GTP log (`quarry --gtp-log=-`).
    assert_eq!(engine.ok("protocol_version"), "2");
    assert_eq!(engine.ok("name"), "arbor");
    assert_eq!(engine.ok("version"), env!("CARGO_PKG_VERSION"));
    let commands = engine.ok("list_commands");
    for name in [
        "genmove",
        "gogui-rules_legal_moves",
        "set_game",
        "list_games",
    ] {
        assert!(commands.lines().any(|line| line == name), "{commands}");
    }
    assert_eq!(engine.ok("list_games"), "Othello");
    assert_eq!(engine.ok("set_game Othello"), "");
    assert_eq!(engine.ok("boardsize 8"), "");
    assert_eq!(engine.ok("clear_board"), "");
    assert_eq!(engine.ok("time_settings 0 1 1"), "");
    for _ in 0..4 {
        let side = engine.ok("gogui-rules_side_to_move");
        engine.ok(&format!("time_left {side} 1 1"));
        let legal = engine.ok("gogui-rules_legal_moves");
        let started = Instant::now();
        let played = engine.ok(&format!("genmove {side}"));
        // One second a move; the hang guard is generous, this is the clock. The second
        // is this move's alone: most of it is used (no iteration starts past half of it).
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_millis(1500), "{played}");
        assert!(
            elapsed >= Duration::from_millis(400),
            "{played} in {elapsed:?}"
        );
        assert!(
            legal.split(' ').any(|m| m == played),
            "{played} not in {legal}"
        );
    }
    assert_eq!(engine.ok("gogui-rules_side_to_move"), "black");
    engine.finish();
}

/// `--threads` as `arbor gtp` takes it: a game starts and `genmove` answers legally.
#[test]
fn with_two_threads_genmove_answers() {
    let mut engine = Engine::spawn(&["--threads", "2"]);
    assert_eq!(engine.ok("time_settings 0 1 1"), "");
    assert_eq!(engine.ok("play b d3"), "");
    let legal = engine.ok("gogui-rules_legal_moves");
    let played = engine.ok("genmove w");
    assert!(
        legal.split(' ').any(|m| m == played),
        "{played} not in {legal}"
    );
    engine.finish();
}

#[test]
fn ids_are_echoed_on_success_and_error() {
    let mut engine = Engine::spawn(&[]);
    assert_eq!(engine.ask("7 protocol_version"), "=7 2");
    assert_eq!(engine.ask("8 frobnicate"), "?8 unknown command");
    assert_eq!(engine.ask("9 known_command genmove"), "=9 true");
    assert_eq!(engine.ask("10 known_command frobnicate"), "=10 false");
    assert_eq!(engine.ask("0 play b d3"), "=0");
    assert_eq!(
        engine.ask("11 play b d3"),
        "?11 illegal move: white is to move"
    );
    let reply = engine.ask("12 genmove w");
    assert!(
        ["=12 c3", "=12 e3", "=12 c5"].contains(&reply.as_str()),
        "{reply}"
    );
    assert!(engine.ask("99999999999999999999999 name").starts_with("? "));
    assert_eq!(engine.ask("13"), "?13 missing command");
    engine.finish();
}

#[test]
fn a_game_with_a_pass_as_quarry_sends_it_and_as_gogui_sends_it() {
    // Quarry leaves the pass out: Black plays twice.
    let mut engine = Engine::spawn(&["--size", "4"]);
    let mut colour = ["b", "w"].iter().cycle();
    for mv in &PASS_GAME[..11] {
        engine.ok(&format!("play {} {mv}", colour.next().unwrap()));
    }
    assert_eq!(engine.ok("gogui-rules_side_to_move"), "white");
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "pass");
    assert_eq!(engine.ok("gogui-rules_final_result"), "unknown");
    assert!(engine.ask("final_score").starts_with("? cannot score"));
    let before = engine.state();
    assert_eq!(
        engine.ask("play b a1"),
        "? illegal move: a1",
        "an illegal move after the pass"
    );
    assert_eq!(engine.state(), before, "the pass was taken back");
    engine.ok("play b d1");
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "");
    assert_eq!(engine.ok("final_score"), "B+12");
    assert_eq!(engine.ok("gogui-rules_final_result"), "B+12");
    assert!(engine.ask("genmove w").starts_with("? the game is over"));
    assert!(engine.ask("play w a1").starts_with("? illegal move"));
    // Undo takes back d1 and the pass it implied.
    engine.ok("undo");
    assert_eq!(engine.state(), before);
    // GoGui sends the pass; genmove for White answers it.
    assert_eq!(engine.ok("genmove w"), "pass");
    assert_eq!(engine.ok("gogui-rules_side_to_move"), "black");
    assert_eq!(engine.ok("genmove b"), "d1");
    assert_eq!(engine.ok("final_score"), "B+12");
    engine.ok("undo");
    engine.ok("undo");
    assert_eq!(engine.state(), before);
    engine.ok("play w pass");
    assert_eq!(engine.ok("gogui-rules_side_to_move"), "black");
    for _ in 0..12 {
        engine.ok("undo");
    }
    assert!(engine.ask("undo").starts_with("? cannot undo"));
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "b1 a2 d3 c4");
    engine.finish();
}

#[test]
fn gogui_rules_commands_describe_the_game() {
    let mut engine = Engine::spawn(&[]);
    assert_eq!(engine.ok("gogui-rules_game_id"), "othello");
    assert_eq!(engine.ok("gogui-rules_board_size"), "8");
    assert_eq!(engine.ok("gogui-rules_side_to_move"), "black");
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "d3 c4 f5 e6");
    engine.ok("play b f5");
    // The last row first: GoGui's top row is its row 8.
    let board = engine.ok("gogui-rules_board");
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows.len(), 8, "{board}");
    assert_eq!(rows[3], ". . . X X X . .", "row 5 (f5 played)");
    assert_eq!(rows[4], ". . . O X . . .", "row 4");
    let analyze = engine.ok("gogui-analyze_commands");
    for line in analyze.lines() {
        let parts: Vec<&str> = line.split('/').collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert_eq!(engine.ok(&format!("known_command {}", parts[2])), "true");
    }
    // The best line and its score, the first move legal.
    let hint = engine.ok("arbor-hint 100");
    let first = hint.split(' ').next().unwrap();
    assert!(["d6", "f4", "f6"].contains(&first), "{hint}");
    assert!(hint.contains(" score "), "{hint}");
    assert_eq!(
        engine.ok("gogui-rules_side_to_move"),
        "white",
        "a hint plays nothing"
    );
    let shown = engine.ok("showboard");
    assert!(shown.contains("A B C D E F G H"), "{shown}");
    assert!(shown.ends_with("playing white"), "{shown}");
    engine.finish();
}

#[test]
fn boardsize_keeps_the_game_and_refuses_other_sizes() {
    let mut engine = Engine::spawn(&[]);
    engine.ok("play b d3");
    assert_eq!(engine.ask("boardsize 7"), "? unacceptable size");
    assert_eq!(
        engine.ok("gogui-rules_side_to_move"),
        "white",
        "kept the game"
    );
    assert_eq!(engine.ok("boardsize 6"), "");
    assert_eq!(engine.ok("gogui-rules_game_id"), "othello");
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "c2 b3 e4 d5");
    engine.finish();

    let mut engine = Engine::spawn(&["--game", "gomoku"]);
    assert_eq!(engine.ok("gogui-rules_game_id"), "gomoku");
    assert_eq!(engine.ok("gogui-rules_board_size"), "15");
    engine.ok("play b h8");
    // GTP's J is the ninth column.
    engine.ok("play w j9");
    let board = engine.ok("gogui-rules_board");
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows[15 - 9].split(' ').nth(8), Some("O"), "{board}");
    assert!(engine.ask("play b i5").starts_with("? invalid vertex"));
    assert!(engine.ask("play b q5").starts_with("? vertex 'q5' is off"));
    for size in ["4", "26", "100"] {
        assert_eq!(
            engine.ask(&format!("boardsize {size}")),
            "? unacceptable size"
        );
    }
    assert_eq!(engine.ok("gogui-rules_board_size"), "15");
    // An even board opens anywhere, as `--game gomoku --size 14` would.
    engine.ok("boardsize 14");
    engine.ok("play b a1");
    engine.ok("clear_board");
    assert_eq!(engine.ok("gogui-rules_board_size"), "14");
    engine.finish();
}

#[test]
fn boards_gtp_cannot_name_are_refused_at_the_start() {
    let output = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["gtp", "--game", "gomoku", "--size", "30"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("wider than GTP"), "{stderr}");
}

#[test]
fn hostile_lines_get_errors_and_change_nothing() {
    let mut engine = Engine::spawn(&[]);
    engine.ok("play b d3");
    let before = engine.state();
    for line in [
        "play",
        "play b",
        "play x d6",
        "play w d6 extra",
        "play w z99",
        "play w i3",
        "play w d3",
        "play w a1",
        "play b c3",
        "genmove",
        "genmove purple",
        "boardsize",
        "boardsize eight",
        "boardsize -8",
        "time_settings 1 2",
        "time_settings -1 0 0",
        "time_settings nan 0 0",
        "time_left b 10",
        "time_left x 10 0",
        "time_left w 1e999 0",
        "komi lots",
        "known_command",
        "set_game Go",
        "arbor-hint soon",
        "undo now",
        "name please",
        "PLAY w c3",
        "fin\u{1b}al_score",
    ] {
        let reply = engine.ask(line);
        assert!(reply.starts_with("? "), "{line:?} got {reply:?}");
        assert_eq!(engine.state(), before, "{line:?} changed the game");
    }
    // Comments and empty lines get no reply; tabs are spaces.
    engine.send("# a comment");
    engine.send("");
    engine.send("   ");
    engine.send("\u{7}");
    assert_eq!(engine.ask("1\tname"), "=1 arbor");
    engine.send_bytes(b"\xff\xfe\n");
    assert_eq!(engine.reply(), "? line is not valid UTF-8 text");
    engine.send(&"x".repeat(100_000));
    assert!(engine.reply().starts_with("? line too long"));
    assert_eq!(engine.state(), before);
    engine.finish();
}

#[test]
fn interrupt_and_quit_stop_a_long_genmove() {
    let mut engine = Engine::spawn(&[]);
    engine.ok("time_settings 3600 0 0");
    // GoGui's interrupt: the search stops, the move is still legal and played.
    engine.send("1 genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    engine.send("# interrupt");
    let reply = engine.reply();
    assert!(started.elapsed() < Duration::from_secs(5), "{reply}");
    assert!(
        ["=1 d3", "=1 c4", "=1 f5", "=1 e6"].contains(&reply.as_str()),
        "{reply}"
    );
    assert_eq!(engine.ok("gogui-rules_side_to_move"), "white");
    // quit: the genmove answers first, then quit, then the end.
    engine.send("2 genmove w");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("3 quit");
    assert!(engine.reply().starts_with("=2 "));
    assert_eq!(engine.reply(), "=3");
    engine.finish();
}

#[test]
fn a_whole_game_by_genmove_ends_with_a_score() {
    let mut engine = Engine::spawn(&["--size", "6"]);
    engine.ok("time_settings 0 0.02 1");
    let mut plies = 0;
    while !engine.ok("gogui-rules_legal_moves").is_empty() {
        let side = engine.ok("gogui-rules_side_to_move");
        engine.ok(&format!("genmove {side}"));
        plies += 1;
        assert!(plies <= 100, "the game does not end");
    }
    let score = engine.ok("final_score");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
    assert_eq!(engine.ok("gogui-rules_final_result"), score);
    engine.finish();
}

#[test]
fn the_protocol_md_example_replays() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let section = doc
        .split_once("## GTP (`arbor gtp`)")
        .expect("protocol.md has a GTP section")
        .1;
    let block = section.split("```").nth(1).expect("an example block");
    let mut engine = Engine::spawn(&[]);
    let mut replayed = 0;
    for line in block.lines().filter(|line| !line.is_empty()) {
        if let Some(sent) = line.strip_prefix("gui:") {
            engine.send(sent.trim());
        } else {
            let expected = line.strip_prefix("arbor: ").unwrap_or_else(|| {
                assert_eq!(line.trim(), "arbor:", "gui: or arbor: lines");
                ""
            });
            let got = engine.next();
            assert!(glob(expected, &got), "expected {expected:?}, got {got:?}");
            replayed += 1;
        }
    }
    assert!(replayed >= 20, "only {replayed} lines replayed");
    engine.finish();
}
