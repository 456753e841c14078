//! `arbor gomocup` through its stdin/stdout, as a Gomocup manager drives it.

use std::collections::HashSet;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::common;

/// A running brain: lines in, replies out.
struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// `MESSAGE` lines seen so far.
    messages: Vec<String>,
}

/// How long a reply may take before the test calls it a hang: a guard, not a timing check
/// (timings belong in benchmarks).
const PATIENCE: Duration = Duration::from_secs(20);

impl Brain {
    fn spawn() -> Brain {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command.arg("gomocup");
        Brain::spawn_command(command)
    }

    fn spawn_command(command: Command) -> Brain {
        let (child, stdin, lines) = common::spawn_lines(command);
        Brain {
            child,
            stdin,
            lines,
            messages: Vec::new(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    /// The next line that is not a `MESSAGE`.
    fn reply_within(&mut self, limit: Duration) -> Option<String> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("MESSAGE") => self.messages.push(line),
                Ok(line) => return Some(line),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    return None;
                }
            }
        }
    }

    fn reply(&mut self) -> String {
        self.reply_within(PATIENCE)
            .expect("no reply from the brain")
    }

    fn ask(&mut self, text: &str) -> String {
        self.send(text);
        self.reply()
    }

    /// Nothing but `MESSAGE` lines for a while.
    fn assert_quiet(&mut self, wait: Duration) {
        if let Some(line) = self.reply_within(wait) {
            panic!("unexpected line {line:?}");
        }
    }

    fn start(&mut self, size: usize, turn_ms: u64) {
        self.send(&format!("INFO timeout_turn {turn_ms}"));
        assert_eq!(self.ask(&format!("START {size}")), "OK");
    }

    /// Sends `END` and checks the brain exits at once with status 0, saying nothing.
    fn end(mut self) {
        self.send("END");
        drop(self.stdin.take());
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                break;
            }
            assert!(started.elapsed() < PATIENCE, "END did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
        // MESSAGE lines may have come before END was read; nothing else may follow.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(100)) {
            assert!(line.starts_with("MESSAGE"), "output after END: {line:?}");
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A move reply `x,y` on a `size` board.
fn point(reply: &str, size: usize) -> (usize, usize) {
    let parsed = reply.split_once(',').and_then(|(x, y)| {
        let x: usize = x.parse().ok()?;
        let y: usize = y.parse().ok()?;
        (x < size && y < size).then_some((x, y))
    });
    parsed.unwrap_or_else(|| panic!("not a move on a {size}x{size} board: {reply:?}"))
}

/// Sends a `BOARD` block: `own` stones as 1, `theirs` as 2, interleaved in an odd order.
fn send_board(brain: &mut Brain, own: &[(usize, usize)], theirs: &[(usize, usize)]) {
    let mut lines: Vec<String> = own
        .iter()
        .map(|(x, y)| format!("{x},{y},1"))
        .chain(theirs.iter().map(|(x, y)| format!("{x},{y},2")))
        .collect();
    // Any order must do: reverse, then swap neighbours.
    lines.reverse();
    for pair in lines.chunks_mut(2) {
        pair.reverse();
    }
    brain.send("BOARD");
    for line in lines {
        brain.send(&line);
    }
    brain.send("DONE");
}

#[test]
fn start_begin_and_turns_give_legal_moves() {
    let mut brain = Brain::spawn();
    brain.start(15, 150);
    let mut taken = HashSet::new();
    let first = point(&brain.ask("BEGIN"), 15);
    taken.insert(first);
    // Four replies at most: against moves far away the brain's fifth stone may make
    // five, and the game is then over.
    for (x, y) in [(0, 0), (14, 14), (0, 14), (3, 9)] {
        if taken.contains(&(x, y)) {
            continue;
        }
        taken.insert((x, y));
        let reply = point(&brain.ask(&format!("TURN {x},{y}")), 15);
        assert!(taken.insert(reply), "{reply:?} is occupied");
    }
    // Thinking is reported in MESSAGE lines with x,y move names.
    assert!(!brain.messages.is_empty());
    for message in &brain.messages {
        if let Some((_, pv)) = message.split_once(" pv ") {
            for name in pv.split_whitespace() {
                point(name, 15);
            }
        }
    }
    brain.assert_quiet(Duration::from_millis(100));
    brain.end();
}

#[test]
fn board_in_any_order_takes_an_open_four_win() {
    let mut brain = Brain::spawn();
    brain.start(15, 300);
    send_board(
        &mut brain,
        &[(5, 5), (6, 5), (7, 5), (8, 5)],
        &[(5, 9), (7, 10), (10, 3), (2, 12)],
    );
    let reply = brain.reply();
    assert!(reply == "4,5" || reply == "9,5", "{reply}");
    brain.end();
}

#[test]
fn board_blocks_a_closed_four() {
    let mut brain = Brain::spawn();
    brain.start(15, 300);
    // The brain has three stones to the opponent's four: it is White, to move.
    send_board(
        &mut brain,
        &[(4, 5), (0, 14), (14, 0)],
        &[(5, 5), (6, 5), (7, 5), (8, 5)],
    );
    assert_eq!(brain.reply(), "9,5");
    brain.end();
}

#[test]
fn exact_five_does_not_count_an_overline() {
    // Own stones 1,5 and 3..6,5: 2,5 makes six, 7,5 exactly five.
    let own = [(1, 5), (3, 5), (4, 5), (5, 5), (6, 5)];
    let theirs = [(0, 12), (3, 12), (6, 12), (9, 12), (12, 12)];
    let mut brain = Brain::spawn();
    brain.send("INFO rule 1");
    brain.start(15, 300);
    send_board(&mut brain, &own, &theirs);
    assert_eq!(brain.reply(), "7,5");
    // Freestyle again from the next game on.
    brain.send("INFO rule 0");
    assert_eq!(brain.ask("RESTART"), "OK");
    send_board(&mut brain, &own, &theirs);
    let reply = brain.reply();
    assert!(reply == "2,5" || reply == "7,5", "{reply}");
    brain.end();
}

#[test]
fn timeout_turn_is_kept() {
    let mut brain = Brain::spawn();
    brain.start(20, 200);
    let mut taken = HashSet::new();
    for (x, y) in [(10, 10), (11, 11), (9, 11), (12, 9), (8, 8)] {
        if !taken.insert((x, y)) {
            continue;
        }
        brain.send(&format!("INFO time_left {}", i32::MAX));
        let reply = brain.ask(&format!("TURN {x},{y}"));
        assert!(taken.insert(point(&reply, 20)), "{reply} is occupied");
    }
    brain.end();
}

#[test]
fn time_left_shortens_the_move() {
    let mut brain = Brain::spawn();
    brain.start(15, 20_000);
    brain.send("INFO timeout_match 600000");
    brain.send("INFO time_left 800");
    // With 20 s a turn the move would take seconds; 800 ms left brings it within a
    // guard far below the turn's time (a bound on hangs, not a timing check).
    brain.send("TURN 7,7");
    let reply = brain
        .reply_within(Duration::from_secs(10))
        .expect("time_left was not heeded");
    point(&reply, 15);
    brain.end();
}

#[test]
fn takeback_undoes_the_last_moves() {
    let mut brain = Brain::spawn();
    brain.start(15, 100);
    let reply = brain.ask("TURN 7,7");
    point(&reply, 15);
    assert!(brain.ask("TAKEBACK 7,7").starts_with("ERROR"));
    assert_eq!(brain.ask(&format!("TAKEBACK {reply}")), "OK");
    assert_eq!(brain.ask("TAKEBACK 7,7"), "OK");
    // The point is free again, and so is the board.
    let again = point(&brain.ask("TURN 7,7"), 15);
    assert_ne!(again, (7, 7));
    assert!(brain.ask("TAKEBACK 0,0").starts_with("ERROR"));
    assert!(brain.ask("TAKEBACK 99,99").starts_with("ERROR"));
    brain.end();
}

#[test]
fn rectangles_sizes_and_restart() {
    let mut brain = Brain::spawn();
    assert_eq!(
        brain.ask("RECTSTART 15,20"),
        "ERROR unsupported size: rectangular boards are not supported"
    );
    assert!(brain.ask("TURN 1,1").starts_with("ERROR"), "no game yet");
    assert_eq!(brain.ask("START 4"), "ERROR unsupported size");
    assert_eq!(brain.ask("START 100"), "ERROR unsupported size");
    assert_eq!(brain.ask("RECTSTART 9,9"), "OK");
    brain.send("INFO timeout_turn 50");
    point(&brain.ask("TURN 8,8"), 9);
    assert!(brain.ask("TURN 9,0").starts_with("ERROR"), "off the board");
    assert!(brain.ask("TURN 8,8").starts_with("ERROR"), "occupied");
    assert_eq!(brain.ask("RESTART"), "OK");
    point(&brain.ask("TURN 8,8"), 9);
    assert_eq!(brain.ask("START 99"), "OK");
    point(&brain.ask("TURN 98,98"), 99);
    let about = brain.ask("ABOUT");
    assert!(about.starts_with("name=\"arbor\", version=\""), "{about}");
    brain.end();
}

#[test]
fn garbage_gets_unknown_and_the_brain_lives_on() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("hello world"), "UNKNOWN 'hello world'");
    // A block before any game: read to its DONE, answered once.
    brain.send("SWAP2BOARD");
    brain.send("7,7");
    brain.send("8,8");
    assert_eq!(brain.ask("DONE"), "ERROR no game: send START first");
    brain.send_bytes(b"\xff\xfe\n");
    assert!(brain.reply().starts_with("UNKNOWN"));
    brain.send(&"x".repeat(200_000));
    assert!(brain.reply().starts_with("UNKNOWN"));
    brain.send("   ");
    brain.send("info unheard_of 12");
    assert!(brain.ask("INFO timeout_turn lots").starts_with("ERROR"));
    brain.start(15, 100);
    assert!(brain.ask("TURN 1;2").starts_with("ERROR"));
    assert!(brain.ask("TURN -1,2").starts_with("ERROR"));
    assert!(
        brain
            .ask("TURN 99999999999999999999,1")
            .starts_with("ERROR")
    );
    // A block with many bad lines, a command and bytes that are not text: one reply.
    brain.send("BOARD");
    brain.send("1,1,7");
    brain.send("TURN 3,3");
    brain.send_bytes(b"\xff\n\x00,\x1b\n");
    brain.send(&"9".repeat(100_000));
    brain.send("99999999999,1,1");
    assert_eq!(
        brain.ask("DONE"),
        "ERROR bad BOARD field '7' at 1,1: expected 1 (own) or 2 (opponent)"
    );
    point(&brain.ask("begin"), 15);
    brain.end();
}

#[test]
fn crlf_and_lower_case_input() {
    let mut brain = Brain::spawn();
    brain.send_bytes(b"info timeout_turn 100\r\n  start 15  \r\n");
    assert_eq!(brain.reply(), "OK");
    brain.send_bytes(b"Turn 7,8\r\n");
    let reply = point(&brain.reply(), 15);
    assert_ne!(reply, (7, 8));
    brain.send_bytes(b"BOARD\r\n7,7,2\r\n 8,8 , 1 \r\nDONE\r\n");
    point(&brain.reply(), 15);
    brain.end();
}

#[test]
fn yxstop_answers_at_once() {
    let mut brain = Brain::spawn();
    brain.start(20, 60_000);
    brain.send("TURN 10,10");
    std::thread::sleep(Duration::from_millis(300));
    // INFO while thinking is taken without a reply.
    brain.send("INFO time_left 2147483647");
    // A minute to think: only YXSTOP brings the move within the guard.
    brain.send("YXSTOP");
    let reply = brain
        .reply_within(Duration::from_secs(20))
        .expect("no move after YXSTOP");
    assert_ne!(point(&reply, 20), (10, 10));
    brain.assert_quiet(Duration::from_millis(200));
    brain.end();
}

#[test]
fn end_while_thinking_exits_at_once() {
    let mut brain = Brain::spawn();
    brain.start(20, 60_000);
    brain.send("TURN 10,10");
    std::thread::sleep(Duration::from_millis(200));
    brain.end();
}

#[test]
fn end_of_input_still_gets_the_move() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .arg("gomocup")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"INFO timeout_turn 100\nSTART 15\nBEGIN\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let replies: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(replies, ["OK", "7,7"]);
}

#[test]
fn small_memory_and_fast_play() {
    let mut brain = Brain::spawn();
    brain.send("INFO max_memory 1000000");
    brain.start(15, 0);
    let mut taken = HashSet::new();
    for (x, y) in [(7, 7), (3, 3), (11, 4)] {
        taken.insert((x, y));
        let reply = point(&brain.ask(&format!("TURN {x},{y}")), 15);
        assert!(taken.insert(reply));
    }
    brain.end();
}

/// `INFO thread_num` as managers send it: before `START`, out of range (clamped, no
/// reply), while thinking (it waits for the move), and `--threads` on the command line.
#[test]
fn thread_num_before_and_during_a_game() {
    for spawned in [Brain::spawn(), {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command.args(["gomocup", "--threads", "2"]);
        Brain::spawn_command(command)
    }] {
        let mut brain = spawned;
        brain.send("INFO thread_num 2");
        brain.start(15, 200);
        let mut taken = HashSet::new();
        for (x, y, info) in [
            (7, 7, "INFO thread_num 0"),
            (3, 3, "INFO thread_num 99999"),
            (11, 4, "INFO thread_num 2"),
        ] {
            taken.insert((x, y));
            brain.send(&format!("TURN {x},{y}"));
            brain.send(info);
            let reply = point(&brain.reply(), 15);
            assert!(taken.insert(reply), "{reply:?} is occupied");
        }
        assert_eq!(
            brain.ask("INFO thread_num many"),
            "ERROR INFO thread_num: expected a number, not 'many'"
        );
        let reply = point(&brain.ask("TURN 0,14"), 15);
        assert!(taken.insert(reply), "{reply:?} is occupied");
        brain.assert_quiet(Duration::from_millis(100));
        brain.end();
    }
}

#[test]
fn a_won_game_gets_an_error() {
    let mut brain = Brain::spawn();
    brain.start(15, 100);
    // The opponent already has five.
    send_board(
        &mut brain,
        &[(0, 0), (2, 0), (4, 0), (6, 0), (8, 0)],
        &[(3, 3), (4, 4), (5, 5), (6, 6), (7, 7)],
    );
    assert!(brain.reply().starts_with("ERROR game over"));
    assert!(brain.ask("BEGIN").starts_with("ERROR"));
    brain.end();
}

/// A directory of this test process, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-pbrain-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn plays_a_game(command: Command) {
    let mut brain = Brain::spawn_command(command);
    brain.start(15, 100);
    point(&brain.ask("TURN 7,7"), 15);
    brain.end();
}

/// Managers link or copy a `pbrain-*` executable into their folder: the binary under such
/// a name is a brain.
#[test]
fn the_binary_under_a_pbrain_name_is_a_brain() {
    let dir = scratch("binary");
    let linked = dir.join("pbrain-linked");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_arbor"), &linked).unwrap();
    plays_a_game(Command::new(&linked));
    let copied = dir.join("PBRAIN-copied.exe");
    std::fs::copy(env!("CARGO_BIN_EXE_arbor"), &copied).unwrap();
    plays_a_game(Command::new(&copied));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The script copied away from the repository still finds the binary: beside it, through
/// ARBOR, or on the PATH; with none of them it answers errors instead of hanging.
#[test]
fn a_copied_pbrain_script_finds_the_binary() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pbrain-arbor");
    let binary = env!("CARGO_BIN_EXE_arbor");
    let system_path = "/usr/local/bin:/usr/bin:/bin";
    let copy = |name: &str| {
        let dir = scratch(name);
        let copied = dir.join("pbrain-arbor");
        std::fs::copy(script, &copied).unwrap();
        (dir, copied)
    };
    // Beside the script.
    let (beside, copied) = copy("beside");
    std::os::unix::fs::symlink(binary, beside.join("arbor")).unwrap();
    let mut command = Command::new(&copied);
    command.env("PATH", system_path).env_remove("ARBOR");
    plays_a_game(command);
    // Through ARBOR.
    let (alone, copied) = copy("env");
    let mut command = Command::new(&copied);
    command.env("PATH", system_path).env("ARBOR", binary);
    plays_a_game(command);
    // On the PATH.
    let bin = alone.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(binary, bin.join("arbor")).unwrap();
    let mut command = Command::new(&copied);
    command
        .env("PATH", format!("{}:{system_path}", bin.display()))
        .env_remove("ARBOR");
    plays_a_game(command);
    // Nowhere: every command is an error naming the fix, and END ends it.
    let (nowhere, copied) = copy("nowhere");
    let mut command = Command::new(&copied);
    command.env("PATH", system_path).env_remove("ARBOR");
    let mut brain = Brain::spawn_command(command);
    let reply = brain.ask("START 15");
    assert!(
        reply.starts_with("ERROR arbor binary not found: set ARBOR="),
        "{reply}"
    );
    brain.end();
    for dir in [beside, alone, nowhere] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The threads of a process, as Linux counts them; `None` elsewhere.
fn os_threads(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|count| count.trim().parse().ok())
}

/// The most threads the brain has while it thinks about its first move on 99x99, told
/// `INFO thread_num N`.
fn threads_while_thinking(thread_num: u64) -> usize {
    let mut brain = Brain::spawn();
    brain.send(&format!("INFO thread_num {thread_num}"));
    brain.start(99, 1000);
    brain.send("BEGIN");
    let pid = brain.child.id();
    let mut most = 0;
    let reply = loop {
        most = most.max(os_threads(pid).unwrap_or(0));
        match brain.lines.try_recv() {
            Ok(line) if line.starts_with("MESSAGE") => {}
            Ok(line) => break line,
            Err(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    assert_eq!(reply, "49,49");
    brain.end();
    most
}

/// `INFO thread_num 9999` searches with no more threads than the machine's cores (it
/// used to start 256 on two cores, and a 100 ms turn took 300-540 ms on 99x99): the
/// process's threads are counted while it thinks, against a count of one per core
/// (the counts are sampled, so a little slack).
#[test]
fn thread_num_beyond_the_cores_starts_no_more_than_the_cores() {
    if os_threads(std::process::id()).is_none() {
        eprintln!("skipped: no /proc/<pid>/status to count threads in");
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let at_cores = threads_while_thinking(cores as u64);
    let many = threads_while_thinking(9999);
    assert!(at_cores > 1, "no threads counted");
    assert!(
        many <= at_cores + cores,
        "{many} threads on {cores} cores ({at_cores} with thread_num {cores})"
    );
}
