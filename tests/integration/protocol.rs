//! The binary through its stdin/stdout: framing, bad input, fuzzing, stop and quit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

/// How long a reply may take before the test calls it a hang: a guard against a stuck
/// engine, not a timing check (timings belong in benchmarks).
const HANG_GUARD: Duration = Duration::from_secs(20);

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Runs a whole script and returns its replies (each without its closing empty line);
/// checks that every command line got exactly one framed reply and the exit was clean.
fn run(script: &[u8], commands: usize) -> Vec<String> {
    let mut child = spawn(&["--seed", "5"]);
    let mut stdin = child.stdin.take().unwrap();
    let data = script.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).expect("replies are UTF-8");
    assert!(
        stdout.is_empty() || stdout.ends_with("\n\n"),
        "unterminated: {stdout:?}"
    );
    let replies: Vec<String> = stdout
        .split_terminator("\n\n")
        .map(|reply| {
            let reply = reply.strip_prefix('\n').unwrap_or(reply);
            let body = reply
                .lines()
                .find(|line| !line.starts_with("info "))
                .unwrap_or("");
            assert!(
                body.starts_with('=') || body.starts_with('?'),
                "bad reply {reply:?}"
            );
            reply.to_string()
        })
        .collect();
    assert_eq!(replies.len(), commands, "{stdout}");
    replies
}

#[test]
fn bad_input_gets_an_error_and_changes_nothing() {
    let long = format!("move {}\n", "a".repeat(3 << 20));
    let bad: Vec<Vec<u8>> = vec![
        b"frobnicate".to_vec(),
        b"move".to_vec(),
        b"move z9".to_vec(),
        b"move d4".to_vec(),
        b"move pass".to_vec(),
        b"move d3 c4".to_vec(),
        b"setboard XO X".to_vec(),
        format!("setboard {}Q X", "-".repeat(63)).into_bytes(),
        format!("setboard {} purple", "-".repeat(64)).into_bytes(),
        b"newgame othello size=5".to_vec(),
        b"newgame othello size=99999999999999999999999".to_vec(),
        b"newgame othello rule=fast".to_vec(),
        b"newgame go".to_vec(),
        b"perft 99999999999999999999".to_vec(),
        b"perft x".to_vec(),
        b"go time -5".to_vec(),
        b"go depth".to_vec(),
        b"go nodes 1e9".to_vec(),
        b"set player wise".to_vec(),
        b"set seed -1".to_vec(),
        b"set hash 0".to_vec(),
        b"set threads 0".to_vec(),
        b"set threads 999".to_vec(),
        b"set threads x".to_vec(),
        b"set level 61".to_vec(),
        b"set".to_vec(),
        b"undo 2".to_vec(),
        b"\xff\xfe\x00binary".to_vec(),
        b"\x00\x01\x02".to_vec(),
        long.trim_end().as_bytes().to_vec(),
        b"clear everything".to_vec(),
        b"99999999999999999999999 ping".to_vec(),
    ];
    let mut script = b"move d3\nshow\n".to_vec();
    for line in &bad {
        script.extend_from_slice(line);
        script.extend_from_slice(b"\nshow\n");
    }
    let replies = run(&script, 2 + 2 * bad.len());
    let board = &replies[1];
    for (index, line) in bad.iter().enumerate() {
        let reply = &replies[2 + 2 * index];
        assert!(
            reply.starts_with("? "),
            "{:?} got {reply}",
            String::from_utf8_lossy(&line[..line.len().min(40)])
        );
        assert!(!reply.contains("panicked"));
        assert_eq!(
            &replies[3 + 2 * index],
            board,
            "state changed by {:?}",
            String::from_utf8_lossy(&line[..line.len().min(40)])
        );
    }
    assert!(replies[2 + 2 * (bad.len() - 3)].contains("line too long"));
}

#[test]
fn a_game_to_the_end_with_passes() {
    let full = format!("{}O-", "X".repeat(62));
    let script = format!(
        "newgame othello size=4\nmoves\nmove b1\nmove 2,0\nundo\nundo\nundo\nnewgame othello\nsetboard {full} white\nmoves\nmove h8\nmove pass\nstatus\nmove h8\nstatus\nmoves\ngo\nmove a1\n"
    );
    let replies = run(script.as_bytes(), 18);
    assert_eq!(replies[1], "= b1 a2 d3 c4");
    assert_eq!(replies[2], "=");
    assert_eq!(replies[3], "=");
    assert_eq!(replies[4], "= c1");
    assert_eq!(replies[5], "= b1");
    assert_eq!(replies[6], "? no move to undo");
    assert_eq!(replies[8], "=");
    assert_eq!(replies[9], "= pass");
    assert!(
        replies[10].starts_with("? illegal move h8"),
        "{}",
        replies[10]
    );
    assert_eq!(replies[11], "=");
    assert_eq!(replies[12], "= playing black");
    assert_eq!(replies[13], "=");
    assert_eq!(replies[14], "= over black 64 0");
    assert_eq!(replies[15], "=");
    assert!(replies[16].starts_with("? go: the game is over"));
    assert!(replies[17].contains("the game is over"));
}

#[test]
fn ids_comments_crlf_and_seeded_players() {
    let script = b"# comment\n\n7 ping\r\n8 moves\r\nset player random\nset seed 3\ngo\ngo\ngo\nnewgame\nset seed 3\ngo\ngo\ngo\n";
    let replies = run(script, 12);
    assert_eq!(replies[0], "=7 pong");
    assert_eq!(replies[1], "=8 d3 c4 f5 e6");
    assert_eq!(replies[4..7], replies[9..12]);
}

#[test]
fn fuzzed_lines_each_get_one_reply() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(99);
    let words = [
        "move",
        "undo",
        "moves",
        "status",
        "show",
        "setboard",
        "newgame",
        "othello",
        "reversi",
        "size=4",
        "size=6",
        "rule=misere",
        "set",
        "player",
        "random",
        "greedy",
        "seed",
        "ping",
        "help",
        "stop",
        "go",
        "depth",
        "1",
        "nodes",
        "10",
        "time",
        "perft",
        "2",
        "d3",
        "pass",
        "c4",
        "3,2",
        "-1",
        "99999999999999999999",
        "X",
        "O",
        "white",
        "solve",
        "clear",
        "hash",
        "level",
    ];
    let mut script = b"set player random\n".to_vec();
    let mut commands = 1;
    for _ in 0..3000 {
        let mut line = Vec::new();
        for _ in 0..rng.random_range(1..5) {
            match rng.random_range(0..10) {
                0 => line.extend(
                    (0..rng.random_range(1..20))
                        .map(|_| rng.random::<u8>())
                        .filter(|&b| b != b'\n'),
                ),
                1 => line.extend(std::iter::repeat_n(b'x', rng.random_range(0..5000))),
                _ => line.extend_from_slice(words[rng.random_range(0..words.len())].as_bytes()),
            }
            line.push(b' ');
        }
        // Only short searches: this test is about framing.
        let text = String::from_utf8_lossy(&line).to_string();
        let first = text.split_whitespace().next().unwrap_or("");
        if matches!(first, "perft" | "go" | "solve") {
            continue;
        }
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        script.extend_from_slice(&line);
        script.push(b'\n');
        commands += 1;
    }
    let replies = run(&script, commands);
    assert!(replies.iter().all(|reply| !reply.contains("panicked")));
}

fn reader(child: &mut Child) -> Receiver<String> {
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if lines.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    received
}

fn reply(lines: &Receiver<String>, within: Duration) -> String {
    let deadline = Instant::now() + within;
    let mut reply = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no reply within {within:?}: {reply:?}"));
        if line.is_empty() {
            return reply.join("\n");
        }
        if !line.starts_with("info ") {
            reply.push(line);
        }
    }
}

fn send(stdin: &mut ChildStdin, line: &str) {
    stdin.write_all(line.as_bytes()).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
}

#[test]
fn stop_and_quit_act_at_once() {
    let mut child = spawn(&[]);
    let lines = reader(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    send(&mut stdin, "ping");
    assert_eq!(reply(&lines, HANG_GUARD), "= pong");
    send(&mut stdin, "perft 15");
    send(&mut stdin, "moves");
    std::thread::sleep(Duration::from_millis(200));
    send(&mut stdin, "stop");
    assert_eq!(
        reply(&lines, HANG_GUARD),
        "? perft stopped before it finished"
    );
    assert_eq!(reply(&lines, HANG_GUARD), "= d3 c4 f5 e6");
    assert_eq!(reply(&lines, HANG_GUARD), "=");

    // Ten minutes of thinking: only `stop` makes the reply come within the guard.
    send(&mut stdin, "go movetime 600000");
    std::thread::sleep(Duration::from_millis(300));
    send(&mut stdin, "stop");
    let moved = reply(&lines, HANG_GUARD);
    assert!(
        ["= d3", "= c4", "= f5", "= e6"].contains(&moved.as_str()),
        "{moved}"
    );
    assert_eq!(reply(&lines, HANG_GUARD), "=");

    send(&mut stdin, "perft 16");
    std::thread::sleep(Duration::from_millis(100));
    send(&mut stdin, "quit");
    assert_eq!(
        reply(&lines, HANG_GUARD),
        "? perft stopped before it finished"
    );
    assert_eq!(reply(&lines, HANG_GUARD), "=");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < HANG_GUARD, "no exit after quit");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(child.wait().unwrap().success());
}

/// Every job in every game ends soon after `stop`: the jobs run without limits of their
/// own (a depth of 60, `infinite`, a perft of 60), so only the stop ends them. The bound
/// is generous for a loaded machine; a job that ignores the stop runs for hours.
#[test]
fn every_job_in_every_game_stops_soon_after_stop() {
    const STOP_BOUND: Duration = Duration::from_secs(3);
    let games = [
        "othello",
        "othello size=6 rule=misere",
        "othello size=4",
        "gomoku",
        "gomoku size=99",
        "gomoku rule=exact",
        "pente",
        "pente size=99",
        "tictactoe",
        "tictactoe size=99 k=3",
        "tictactoe size=7 k=4",
    ];
    let jobs = [
        "go depth 60",
        "analyze infinite",
        "solve",
        "perft 60",
        "hint all",
    ];
    let mut child = spawn(&["--book", "off", "--hash", "16"]);
    let lines = reader(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let mut id = 0;
    for game in games {
        send(&mut stdin, &format!("newgame {game}"));
        assert_eq!(reply(&lines, HANG_GUARD), "=", "{game}");
        for job in jobs {
            id += 1;
            send(&mut stdin, &format!("{id} {job}"));
            std::thread::sleep(Duration::from_millis(100));
            send(&mut stdin, "stop");
            let stopped = Instant::now();
            let answer = reply(&lines, HANG_GUARD);
            assert!(
                stopped.elapsed() < STOP_BOUND,
                "{game}: {job}: answered {:?} after stop: {answer}",
                stopped.elapsed()
            );
            assert!(
                answer.starts_with(&format!("={id}")) || answer.starts_with(&format!("?{id}")),
                "{game}: {job}: {answer}"
            );
            assert_eq!(
                reply(&lines, HANG_GUARD),
                "=",
                "{game}: {job}: the stop's own"
            );
        }
    }
    send(&mut stdin, "quit");
    assert_eq!(reply(&lines, HANG_GUARD), "=");
    assert!(child.wait().unwrap().success());
}

#[test]
fn end_of_input_still_answers_a_running_go() {
    let replies = run(b"go depth 3\n", 1);
    assert!(
        ["= d3", "= c4", "= f5", "= e6"]
            .iter()
            .any(|m| replies[0].ends_with(m)),
        "{replies:?}"
    );
}

/// Runs `script` to its end of input and returns the output, or `None` when the engine
/// has not exited within the hang guard (it is killed then).
fn run_to_exit(script: &str) -> Option<(String, Duration)> {
    let mut child = spawn(&["--seed", "5"]);
    let started = Instant::now();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > HANG_GUARD {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let elapsed = started.elapsed();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    Some((String::from_utf8(output.stdout).unwrap(), elapsed))
}

/// An analysis without a limit ends at the end of input as on `stop` (nothing else
/// could end it), also one that was still queued then; one with a limit runs to it.
#[test]
fn end_of_input_ends_an_analysis_without_a_limit() {
    for script in [
        "analyze\n",
        "analyze infinite multipv 2 interval 50\n",
        "go depth 4\nanalyze\n",
    ] {
        let (output, _) = run_to_exit(script).unwrap_or_else(|| panic!("{script:?}: no exit"));
        let last = output.trim_end().lines().last().unwrap_or("");
        // `= <move> <score>`: the analysis's reply, last.
        assert_eq!(last.split(' ').count(), 3, "{script:?}: {output}");
        assert!(last.starts_with("= "), "{script:?}: {output}");
        assert!(output.contains("info line 1 move"), "{script:?}: {output}");
    }
    let (output, elapsed) = run_to_exit("analyze time 400\n").expect("no exit");
    assert!(
        elapsed >= Duration::from_millis(400),
        "{elapsed:?}: {output}"
    );
}

#[test]
fn set_threads_then_go_plays_and_bad_counts_are_refused() {
    let replies = run(
        b"set threads 2\ngo depth 4\nset threads 0\nset threads 999\nset threads x\nset threads\nset threads 256\nset threads 3\ngo depth 2\n",
        9,
    );
    assert_eq!(replies[0], "=");
    let moved = replies[1].lines().last().unwrap();
    assert!(
        ["= d3", "= c4", "= f5", "= e6"].contains(&moved),
        "{replies:?}"
    );
    assert_eq!(replies[2], "? set threads: 0 threads is outside 1..=256");
    assert_eq!(replies[3], "? set threads: 999 threads is outside 1..=256");
    assert_eq!(
        replies[4],
        "? set threads: expected a non-negative integer, got 'x'"
    );
    assert_eq!(replies[5], "? set 'threads': missing value");
    assert_eq!(replies[6], "=");
    assert_eq!(replies[7], "=");
    // White answers the move just played.
    let answer = replies[8].lines().last().unwrap();
    assert!(answer.starts_with("= "), "{replies:?}");
}

/// `set threads` sent while a `go` searches waits its turn, as every command but `stop`
/// and `quit` does: the search goes on undisturbed, and the setting applies after it.
#[test]
fn set_threads_during_go_waits_and_the_search_goes_on() {
    let mut child = spawn(&["--threads", "2", "--book", "off"]);
    let lines = reader(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    send(&mut stdin, "go movetime 600000");
    std::thread::sleep(Duration::from_millis(200));
    send(&mut stdin, "set threads 1");
    // Still searching: no reply comes.
    let quiet = Instant::now() + Duration::from_millis(500);
    while let Some(left) = quiet.checked_duration_since(Instant::now()) {
        match lines.recv_timeout(left) {
            Ok(line) => assert!(line.starts_with("info "), "answered: {line}"),
            Err(_) => break,
        }
    }
    send(&mut stdin, "stop");
    let moved = reply(&lines, HANG_GUARD);
    assert!(
        ["= d3", "= c4", "= f5", "= e6"].contains(&moved.as_str()),
        "{moved}"
    );
    assert_eq!(reply(&lines, HANG_GUARD), "=", "set threads 1");
    assert_eq!(reply(&lines, HANG_GUARD), "=", "stop");
    send(&mut stdin, "go depth 3");
    let answer = reply(&lines, HANG_GUARD);
    assert!(answer.starts_with("= "), "{answer}");
    send(&mut stdin, "quit");
    assert_eq!(reply(&lines, HANG_GUARD), "=");
    assert!(child.wait().unwrap().success());
}

/// Resident memory of a running process, MiB (Linux only).
fn resident_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[test]
fn set_hash_gives_that_much_memory() {
    if resident_mib(std::process::id()).is_none() {
        eprintln!("skipped: no /proc/<pid>/status here");
        return;
    }
    for (game, megabytes) in [("othello", 256.0), ("gomoku", 192.0)] {
        let mut child = spawn(&[]);
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        writeln!(
            stdin,
            "newgame {game}\nset hash {megabytes}\nclear hash\nping"
        )
        .unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        while !line.starts_with("= pong") {
            line.clear();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "engine closed");
            assert!(!line.starts_with('?'), "{line}");
        }
        let rss = resident_mib(child.id()).unwrap();
        assert!(
            (rss - megabytes).abs() <= megabytes / 10.0,
            "{game}: {rss:.1} MiB resident after set hash {megabytes}"
        );
        drop(stdin);
        child.wait().unwrap();
    }
}

#[test]
fn an_impossible_hash_is_refused_and_the_engine_goes_on() {
    let replies = run(b"set hash 1048576\nset hash 1048577\ngo depth 1\n", 3);
    assert!(
        replies[0].starts_with("? set hash: cannot allocate") || replies[0] == "=",
        "{replies:?}"
    );
    assert!(replies[1].contains("outside 1..=1048576"), "{replies:?}");
    assert!(
        replies[2].lines().last().unwrap().starts_with("= "),
        "{replies:?}"
    );
}

/// Lines queued behind a job are bounded: a flood stops the job (here a perft that
/// would run for hours) instead of filling the memory, and every line is answered.
#[test]
fn a_flood_behind_a_job_stops_it_and_everything_is_answered() {
    let mut script = b"perft 40\n".to_vec();
    for _ in 0..6000 {
        script.extend_from_slice(b"ping\n");
    }
    let replies = run(&script, 6001);
    assert_eq!(replies[0], "? perft stopped before it finished");
    assert!(replies[1..].iter().all(|reply| reply == "= pong"));
}

/// Every line up to and including the next empty line.
fn framed(lines: &Receiver<String>) -> Vec<String> {
    let mut framed = Vec::new();
    loop {
        let line = lines
            .recv_timeout(HANG_GUARD)
            .unwrap_or_else(|_| panic!("no reply: {framed:?}"));
        if line.is_empty() {
            return framed;
        }
        framed.push(line);
    }
}

#[test]
fn analyze_ends_on_any_command_and_its_reply_comes_last() {
    let mut child = spawn(&[]);
    let lines = reader(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    for (interrupt, expected) in [
        ("status", "= playing black"),
        ("move d3", "="),
        ("frobnicate", "? unknown command 'frobnicate' (try help)"),
        ("set threads 2", "="),
        ("stop", "="),
    ] {
        send(&mut stdin, "analyze infinite multipv 2 interval 20");
        // A report arrives, then the interrupting command.
        let first = lines.recv_timeout(HANG_GUARD).unwrap();
        assert!(first.starts_with("info analysis depth "), "{first}");
        std::thread::sleep(Duration::from_millis(150));
        send(&mut stdin, interrupt);
        let analysis = framed(&lines);
        let (reply, reports) = analysis.split_last().unwrap();
        assert!(reply.starts_with("= "), "{analysis:?}");
        let best = reply.split(' ').nth(1).unwrap();
        // The last report is complete (a root line and its two lines), best line first.
        let tail = &reports[reports.len() - 3..];
        assert!(tail[0].starts_with("info analysis depth "), "{tail:?}");
        assert!(tail[0].ends_with(" lines 2"), "{tail:?}");
        assert!(
            tail[1].starts_with(&format!("info line 1 move {best} ")),
            "{tail:?}"
        );
        assert!(tail[2].starts_with("info line 2 move "), "{tail:?}");
        assert!(reports.iter().all(|line| line.starts_with("info ")));
        assert_eq!(framed(&lines), [expected], "after {interrupt}");
        if interrupt == "move d3" {
            send(&mut stdin, "undo");
            assert_eq!(framed(&lines), ["= d3"]);
        }
    }
    send(&mut stdin, "quit");
    assert_eq!(framed(&lines), ["="]);
    assert!(child.wait().unwrap().success());
}

/// `format text` on one analysis wins over `set format json` (and only for it); a hint
/// on a finished game names `hint` in its error.
#[test]
fn one_analysis_in_text_under_json_and_hint_errors_name_hint() {
    let full = "X".repeat(63) + "-";
    let script = format!(
        "set format json\nanalyze depth 2 format text\nping\nset format text\nsetboard {full} white\nmove pass\nmove h8\nhint\n"
    );
    let mut child = spawn(&[]);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().filter(|line| !line.is_empty()).collect();
    assert!(lines[0].starts_with('{'), "{stdout}");
    assert!(lines[1].starts_with("info analysis depth 1 "), "{stdout}");
    let reply = lines
        .iter()
        .position(|line| line.starts_with("= "))
        .unwrap();
    assert!(
        lines[1..reply].iter().all(|line| line.starts_with("info ")),
        "{stdout}"
    );
    assert_eq!(
        lines[reply + 1],
        r#"{"type":"reply","ok":true,"text":"pong"}"#
    );
    assert_eq!(lines.last(), Some(&"? hint: the game is over"), "{stdout}");
}

#[test]
fn analyze_json_lines_fit_the_schema() {
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"set format json\nanalyze depth 3 multipv all\nhint 2\nanalyze moves z9\nset format text\n")
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let json: Vec<&str> = stdout.lines().filter(|line| !line.is_empty()).collect();
    let mut analyses = 0;
    let mut answers = Vec::new();
    for line in &json[..json.len() - 1] {
        let message: arbor::protocol::json::Message = serde_json::from_str(line).unwrap();
        match message {
            arbor::protocol::json::Message::Analysis(report) => {
                analyses += 1;
                assert!(!report.lines.is_empty());
                for (rank, line) in report.lines.iter().enumerate() {
                    assert_eq!(line.rank, rank + 1);
                    assert_eq!(line.pv.first(), Some(&line.r#move));
                }
            }
            arbor::protocol::json::Message::Reply {
                ok, text, error, ..
            } => answers.push((ok, text, error)),
            other => panic!("{other:?}"),
        }
    }
    assert!(analyses >= 4, "{json:?}");
    assert_eq!(answers.len(), 4, "{json:?}");
    assert!(answers[0].0 && answers[0].1.as_deref() == Some(""));
    assert!(answers[1].0 && answers[1].1.as_deref().is_some_and(|t| t.len() > 3));
    assert!(answers[2].0);
    assert_eq!(
        answers[3],
        (
            false,
            None,
            Some("analyze: move 'z9' is off the 8x8 board".to_string())
        )
    );
    assert_eq!(json.last(), Some(&"="));
}
