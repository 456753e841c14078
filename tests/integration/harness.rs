//! `arbor match` as referee: misbehaving engines are adjudicated, the match finishes, the
//! records are complete and replay legally, and no engine process is left behind.

use std::process::Command;

use arbor::game::othello::Othello;
use arbor::game::roles::Scoring;
use arbor::game::{Game, Side};

const ARBOR: &str = env!("CARGO_BIN_EXE_arbor");

/// A misbehaving engine's command. The seed is this test process's id, so the command
/// line is unique to it: the leftover check sees this process's engines only.
fn misbehave(mode: &str, at: u32) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/misbehave.py");
    let tag = std::process::id();
    format!("python3 {script} {mode} {at} {ARBOR} --player random --seed {tag}")
}

struct Outcome {
    stdout: String,
    records: String,
}

fn run_match(second: &str, extra: &[&str]) -> Outcome {
    run_match_with(&[&format!("cmd={second}")], extra)
}

/// A match against the engine `second` describes (`cmd=...`, `proto=...`).
fn run_match_with(second: &[&str], extra: &[&str]) -> Outcome {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arbor-harness-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("records.txt");
    let output = Command::new(ARBOR)
        .args([
            "match",
            "--engine",
            "name=good",
            &format!("cmd={ARBOR} --player random --seed 1"),
        ])
        .args(["--engine", "name=bad"])
        .args(second)
        .args(["--records", records.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let outcome = Outcome {
        stdout: String::from_utf8(output.stdout).unwrap(),
        records: std::fs::read_to_string(&records).unwrap_or_default(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

/// No process whose command line contains `marker` (unique to this test process) is
/// left once the match is over: gone at once or within a few seconds (a killed process
/// takes a moment to leave the process table on a loaded machine).
fn no_leftover(marker: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let ps = Command::new("ps").args(["-eo", "args"]).output().unwrap();
        let listing = String::from_utf8_lossy(&ps.stdout);
        let left: Vec<String> = listing
            .lines()
            .filter(|line| line.contains(marker) && !line.contains("ps -eo"))
            .map(str::to_string)
            .collect();
        if left.is_empty() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "processes left behind: {left:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn check_adjudication(mode: &str, at: u32, reason: &str, extra: &[&str]) {
    let outcome = run_match(&misbehave(mode, at), extra);
    check_outcome(&outcome, mode, reason);
    no_leftover(&misbehave(mode, at));
}

/// A match's output has two game lines, each with `reason`.
fn two_games_each(outcome: &Outcome, what: &str, reason: &str) {
    let games: Vec<&str> = outcome
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(games.len(), 2, "{}", outcome.stdout);
    for line in games {
        assert!(line.contains(reason), "{what}: {line}");
    }
}

/// The bad engine lost both games for `reason`, and the records have both.
fn check_outcome(outcome: &Outcome, mode: &str, reason: &str) {
    two_games_each(outcome, mode, reason);
    // The bad engine lost both games, the good one won both.
    let table = outcome
        .stdout
        .lines()
        .find(|l| l.starts_with("good "))
        .unwrap();
    let columns: Vec<&str> = table.split_whitespace().collect();
    assert_eq!(&columns[1..5], ["2", "2", "0", "0"], "{table}");
    assert_eq!(outcome.records.lines().count(), 2, "{}", outcome.records);
}

/// An NBoard, GTP or Gomocup engine (arbor's own front end behind a relay) that
/// misbehaves at its `at`-th request for a move.
fn misbehave_foreign(proto: &str, mode: &str, at: u32) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/engines/misbehave_foreign.py"
    );
    let tag = std::process::id();
    let front = match proto {
        "gtp" => format!("gtp --hash 16 --seed {tag}"),
        "nboard" => "nboard --hash 16".to_string(),
        _ => "gomocup".to_string(),
    };
    format!("python3 {script} {proto} {mode} {at} {ARBOR} {front}")
}

fn check_foreign(proto: &str, mode: &str, at: u32, reason: &str, extra: &[&str]) {
    let command = misbehave_foreign(proto, mode, at);
    let mut args = vec![
        "--game",
        if proto == "gomocup" {
            "gomoku"
        } else {
            "othello"
        },
    ];
    args.extend_from_slice(extra);
    let outcome = run_match_with(
        &[&format!("cmd={command}"), &format!("proto={proto}")],
        &args,
    );
    check_outcome(&outcome, &format!("{proto} {mode}"), reason);
    no_leftover(&command);
}

/// An NBoard engine with NTest's habits (`go` refused until `set depth`, banners and
/// `>> Abort round!!!` after a ping mid-search, see tests/engines/ntest_like.py) plays
/// whole games under a clock and under a move time: the referee sends a maximum depth
/// and skips the lines it does not know, as the NBoard GUI does.
#[test]
fn an_nboard_engine_with_ntests_habits_plays_under_a_clock() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/ntest_like.py");
    let command = format!("cmd=python3 {script} {ARBOR} nboard --hash 16");
    for control in [["--tc", "3"], ["--movetime", "150"]] {
        let outcome = run_match_with(&[&command, "proto=nboard"], &control);
        two_games_each(&outcome, &control.join(" "), "(over ");
    }
    no_leftover(script);
}

#[test]
fn misbehaving_nboard_gtp_and_gomocup_engines_lose() {
    for proto in ["nboard", "gtp", "gomocup"] {
        let illegal = if proto == "gomocup" {
            "played an illegal move"
        } else {
            "illegal move 'a1'"
        };
        check_foreign(proto, "crash", 3, "crashed", &["--tc", "5"]);
        check_foreign(proto, "illegal", 2, illegal, &["--tc", "5"]);
        check_foreign(proto, "silent", 2, "lost on time", &["--movetime", "300"]);
        check_foreign(proto, "flood", 2, "lost on time", &["--movetime", "300"]);
        // NBoard GUIs skip lines they do not know (NTest prints `>> Abort round!!!`), so
        // a line that is not a move only leaves the move unanswered.
        let garbage = if proto == "nboard" {
            "lost on time"
        } else {
            "protocol error"
        };
        check_foreign(proto, "garbage", 2, garbage, &["--tc", "5"]);
    }
}

/// A Gomocup brain that answers `INFO time_left` with `ERROR` (as Rapfi does) has not
/// failed its next `TURN`: its games are played out. One that answers the `TURN` itself
/// with `ERROR` loses for it at once, clock or not.
#[test]
fn a_gomocup_brain_refusing_an_info_plays_on() {
    check_foreign("gomocup", "error", 2, "protocol error", &["--tc", "5"]);
    check_foreign(
        "gomocup",
        "error",
        2,
        "protocol error",
        &["--movetime", "300"],
    );
    let command = misbehave_foreign("gomocup", "refuse_info", 1);
    let outcome = run_match_with(
        &[&format!("cmd={command}"), "proto=gomocup"],
        &["--game", "gomoku", "--tc", "5", "--random-openings", "4"],
    );
    two_games_each(&outcome, "refuse_info", "in a row)");
    no_leftover(&command);
}

/// arbor's own front ends, driven in their protocols, play whole games to their end.
#[test]
fn arbor_front_ends_play_whole_games_in_their_protocols() {
    for (game, front, proto, control) in [
        // 100 ms: at 20 a debug build on two loaded cores once overran the 50 ms tolerance.
        ("othello", "gtp --hash 16", "gtp", ["--movetime", "100"]),
        // Columns after H: GTP's J is the game's i, both ways.
        (
            "gomoku",
            "gtp --hash 16 --game gomoku",
            "gtp",
            ["--movetime", "50"],
        ),
        ("othello", "nboard --hash 16", "nboard", ["--depth", "2"]),
        // arbor nboard thinks 5 s a move by itself: the referee stops it by ping in time.
        (
            "othello",
            "nboard --hash 16",
            "nboard",
            ["--movetime", "200"],
        ),
        ("gomoku", "gomocup", "gomocup", ["--movetime", "50"]),
    ] {
        let command = format!("cmd={ARBOR} {front}");
        let outcome = run_match_with(
            &[&command, &format!("proto={proto}")],
            &[
                "--game",
                game,
                control[0],
                control[1],
                "--random-openings",
                "4",
                // Sent to the native and Gomocup engines; GTP and NBoard have no command.
                "--threads",
                "2",
            ],
        );
        two_games_each(&outcome, proto, "(over ");
    }
}

/// `threads=N` on an engine and `--threads N` for the others reach native engines as
/// `set threads N` and Gomocup brains as `INFO thread_num N`, at every game's start.
#[test]
fn thread_counts_reach_native_and_gomocup_engines() {
    let dir = std::env::temp_dir().join(format!("arbor-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (game, proto, front, sent) in [
        ("othello", "native", "--hash 16", "set threads"),
        ("gomoku", "gomocup", "gomocup", "INFO thread_num"),
    ] {
        // Each engine's input is copied to a log on its way in.
        let logged = |name: &str| {
            let log = dir.join(format!("{proto}-{name}.log"));
            let _ = std::fs::remove_file(&log);
            let command = format!(
                "cmd=sh -c 'tee -a {} | exec {ARBOR} {front}'",
                log.display()
            );
            (log, command)
        };
        let (own_log, own) = logged("own");
        let (global_log, global) = logged("global");
        let proto_word = format!("proto={proto}");
        let output = Command::new(ARBOR)
            // A depth, not a clock: engines told 3 threads on a loaded 2-core machine
            // must not lose on time, which this test is not about.
            .args(["match", "--game", game, "--depth", "2"])
            .args(["--random-openings", "4", "--threads", "3"])
            .args(["--engine", "name=own", &own, &proto_word, "threads=2"])
            .args(["--engine", "name=global", &global, &proto_word])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2, "{stdout}");
        for line in games {
            assert!(line.contains("(over "), "{proto}: {line}");
        }
        for (log, threads) in [(own_log, 2), (global_log, 3)] {
            let text = std::fs::read_to_string(&log).unwrap();
            let counts: Vec<&str> = text.lines().filter(|l| l.starts_with(sent)).collect();
            // A fresh process per game, each told once.
            assert_eq!(
                counts,
                [format!("{sent} {threads}"), format!("{sent} {threads}")],
                "{proto}: {text}"
            );
        }
        no_leftover(dir.to_str().unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn crash_mid_game_loses() {
    check_adjudication("crash", 3, "crashed", &["--tc", "5"]);
}

#[test]
fn illegal_move_loses() {
    check_adjudication("illegal", 2, "illegal move 'a1'", &["--tc", "5"]);
}

#[test]
fn sleeping_past_the_clock_loses_on_time() {
    check_adjudication("sleep", 2, "lost on time", &["--tc", "1"]);
}

#[test]
fn garbage_loses() {
    check_adjudication("garbage", 2, "protocol error", &["--tc", "5"]);
}

#[test]
fn never_answering_loses_and_is_killed() {
    check_adjudication("silent", 2, "lost on time", &["--tc", "1"]);
}

/// Real games between built-in players: every record replays legally to its result.
#[test]
fn records_replay_to_their_results() {
    let outcome = run_match(
        &format!("{ARBOR} --player greedy --seed 2"),
        &["--tc", "10", "--random-openings", "4", "--rounds", "5"],
    );
    let records: Vec<&str> = outcome.records.lines().collect();
    assert_eq!(records.len(), 10);
    for line in records {
        let (head, moves) = line.split_once(" moves ").unwrap();
        let setup = head.split(" setup ").nth(1).unwrap();
        let mut game = Othello::standard();
        for text in setup.split(',').chain(moves.split_whitespace()) {
            let mv = game.parse_move(text).unwrap();
            assert!(game.is_legal(mv), "{text} in {line}");
            game.make(mv);
        }
        let outcome = game.outcome().expect("recorded games are finished");
        let result = head
            .split(" result ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        let expected = match outcome.winner {
            Some(Side::Black) => "1-0",
            Some(Side::White) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(result, expected, "{line}");
        let score: i32 = head
            .split(" score ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(score, game.match_score(), "{line}");
    }
}

/// Three engines: every pair meets with both colours; an openings file sets the starts.
#[test]
fn round_robin_with_an_openings_file() {
    let dir = std::env::temp_dir().join(format!("arbor-rr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two starts\nf5d6\nc4 e3\n").unwrap();
    // One time control at a time.
    let refused = Command::new(ARBOR)
        .args(["match", "--tc", "5", "--depth", "2"])
        .args([
            "--engine",
            "name=a",
            &format!("cmd={ARBOR}"),
            "--engine",
            "name=b",
            &format!("cmd={ARBOR}"),
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let output = Command::new(ARBOR)
        .args([
            "match",
            "--depth",
            "2",
            "--openings",
            openings.to_str().unwrap(),
        ])
        .args([
            "--engine",
            "name=random",
            &format!("cmd={ARBOR} --player random --seed 4"),
        ])
        .args([
            "--engine",
            "name=greedy",
            &format!("cmd={ARBOR} --player greedy --seed 4"),
        ])
        .args([
            "--engine",
            "name=search",
            &format!("cmd={ARBOR} --player search"),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    // 3 pairs x 2 openings x 2 colours.
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        12,
        "{stdout}"
    );
    for name in ["random", "greedy", "search"] {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        assert_eq!(row.split_whitespace().nth(1), Some("8"), "{row}");
    }
    assert!(stdout.contains("(black) - ") && stdout.contains("over "));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT to the harness alone) takes the engines down with it, and the games
/// finished so far are still reported.
#[test]
fn interrupt_leaves_no_engine_behind() {
    let marker = format!("--seed {}777", std::process::id());
    let mut harness = Command::new(ARBOR)
        .args(["match", "--game", "othello", "--size", "4", "--depth", "1"])
        .args(["--engine", "name=quick", &format!("cmd={ARBOR} {marker}")])
        .args(["--engine", "name=slow", &format!("cmd={ARBOR} {marker}")])
        .args(["--random-openings", "1", "--rounds", "1000"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once a game has ended (its line printed), however long that takes.
    let mut lines = std::io::BufReader::new(harness.stdout.take().unwrap());
    let mut stdout = String::new();
    while !stdout.lines().any(|line| line.starts_with("game ")) {
        let read = std::io::BufRead::read_line(&mut lines, &mut stdout).unwrap();
        assert!(read > 0, "the match ended before a game: {stdout}");
    }
    let status = Command::new("kill")
        .args(["-INT", &harness.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    std::io::Read::read_to_string(&mut lines, &mut stdout).unwrap();
    let status = harness.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("interrupted after "), "{stdout}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("quick "))
        .expect(&stdout);
    let games: u32 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(games > 0, "{stdout}");
    no_leftover(&format!("{ARBOR} {marker}"));
}

/// A clock far smaller than its increment (`--tc 0.1+1`): the search never spends more
/// than the clock holds, so no game is lost on time.
#[test]
fn a_tiny_clock_with_a_large_increment_never_forfeits() {
    let output = Command::new(ARBOR)
        .args([
            "match",
            "--engine",
            "name=one",
            &format!("cmd={ARBOR} --hash 4"),
        ])
        .args(["--engine", "name=two", &format!("cmd={ARBOR} --hash 4")])
        .args(["--game", "othello", "--size", "6", "--tc", "0.1+1"])
        .args(["--random-openings", "2", "--rounds", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    let table: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("one ") || line.starts_with("two "))
        .collect();
    assert_eq!(table.len(), 2, "{stdout}");
    for row in table {
        let columns: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(columns[1], "2", "{stdout}");
        assert_eq!(&columns[columns.len() - 3..], ["0", "0", "0"], "{stdout}");
    }
}

#[test]
fn flooding_info_lines_lose_at_the_deadline() {
    check_adjudication("flood", 2, "lost on time", &["--movetime", "300"]);
}

#[test]
fn a_reply_that_never_ends_loses() {
    // No newline ever comes: the line is a protocol error once it passes the cap.
    check_adjudication(
        "endless",
        2,
        "protocol error: a line longer than",
        &["--movetime", "300"],
    );
}

#[test]
fn an_overlong_line_is_a_protocol_error() {
    check_adjudication(
        "longline",
        2,
        "protocol error: a line longer than 65536 bytes",
        &["--tc", "5"],
    );
}

/// Engines that cannot start, or flood or never end their first line: each game is lost
/// by that engine, the match goes on, and the table is printed.
#[test]
fn engines_that_never_start_lose_their_games_and_the_match_goes_on() {
    for (command, reason) in [
        ("/nonexistent/engine", "cannot start bad"),
        ("yes", "'ping' got 'y' before its reply"),
        (
            "sh -c 'exec cat /dev/zero'",
            "protocol error: a line longer than",
        ),
        ("false", "crashed"),
    ] {
        let outcome = run_match(command, &["--movetime", "100", "--rounds", "1"]);
        let games: Vec<&str> = outcome
            .stdout
            .lines()
            .filter(|l| l.starts_with("game "))
            .collect();
        assert_eq!(games.len(), 2, "{command}: {}", outcome.stdout);
        assert!(
            games.iter().all(|g| g.contains(reason)),
            "{command}: {games:?}"
        );
        let bad = outcome
            .stdout
            .lines()
            .find(|l| l.starts_with("bad "))
            .unwrap();
        let columns: Vec<&str> = bad.split_whitespace().collect();
        assert_eq!(&columns[1..5], ["2", "0", "0", "2"], "{bad}");
        assert_eq!(columns.last(), Some(&"2"), "two failures: {bad}");
    }
}

fn refused(args: &[&str], expected: &str) {
    let output = Command::new(ARBOR)
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} played");
}

#[test]
fn bad_match_settings_are_refused_before_any_game() {
    let a = format!("cmd={ARBOR}");
    let two = ["--engine", "name=a", &a, "--engine", "name=b", &a];
    let with = |extra: &[&str]| -> Vec<String> {
        two.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(&["--sprt", "alpha=2"]),
            "alpha must be between 0 and 1",
        ),
        (with(&["--sprt", "beta=0"]), "beta must be between 0 and 1"),
        (
            with(&["--sprt", "alpha=1"]),
            "alpha must be between 0 and 1",
        ),
        (with(&["--sprt", "elo0=10", "elo1=0"]), "must be below elo1"),
        (with(&["--sprt", "elo0=5", "elo1=5"]), "must be below elo1"),
        (with(&["--sprt", "elo1=inf"]), "not a number"),
        (with(&["--sprt", "alpha=NaN"]), "not a number"),
        (with(&["--sprt", "gamma=1"]), "unknown 'gamma'"),
        (
            with(&["--sprt", "alpha=0.1", "alpha=0.2"]),
            "alpha given twice",
        ),
        (with(&["--sprt", "alpha"]), "expected key=value"),
        (with(&["--tc", "0"]), "more than 0 seconds"),
        (with(&["--tc", "0+0"]), "more than 0 seconds"),
        (
            with(&["--tc", "1e12"]),
            "expected a non-negative number of seconds",
        ),
        (
            with(&["--tc", "60+"]),
            "expected a non-negative number of seconds",
        ),
        (
            vec!["--engine", "name=a", &a, "--engine", "name=b", "cmd=x 'y"]
                .into_iter()
                .map(String::from)
                .collect(),
            "engine 'b': unbalanced quote",
        ),
        (
            vec!["--engine", "name=a", &a, "--engine", "name=b", "cmd=''"]
                .into_iter()
                .map(String::from)
                .collect(),
            "engine 'b': empty command",
        ),
        (
            vec!["--engine", "name=a", &a, "--engine", "name=a", &a]
                .into_iter()
                .map(String::from)
                .collect(),
            "two engines are named 'a'",
        ),
        (
            vec![
                "--engine", "name=a", &a, "--engine", "name=b", &a, "--engine", "name=c", &a,
                "--sprt", "elo1=5",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "--sprt needs exactly two engines",
        ),
    ];
    // `threads=` words go with the first engine; a last word of `--threads` goes with
    // the whole match.
    let threads = |words: &[&str], expected: &'static str| -> (Vec<String>, &'static str) {
        let mut args = vec!["--engine", "name=a", &a];
        args.extend(words);
        args.extend(["--engine", "name=b", &a]);
        (args.into_iter().map(String::from).collect(), expected)
    };
    let thread_cases = [
        threads(
            &["threads=0"],
            "--engine 'a': threads: 0 threads is outside 1..=256",
        ),
        threads(
            &["threads=x"],
            "--engine 'a': threads: expected a non-negative integer",
        ),
        threads(&["threads=2", "threads=2"], "'threads=2' given twice"),
        threads(
            &["proto=gtp", "threads=2"],
            "engine 'a': proto=gtp has no thread count to send",
        ),
        threads(
            &["proto=nboard", "threads=2"],
            "engine 'a': proto=nboard has no thread count to send",
        ),
        threads(&["--threads", "0"], "0 threads is outside 1..=256"),
    ];
    for (args, expected) in cases.iter().chain(&thread_cases) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, expected);
    }
}

#[test]
fn openings_that_leave_no_choice_are_refused() {
    let dir = std::env::temp_dir().join(format!("arbor-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = format!("cmd={ARBOR}");
    let two = ["--engine", "name=a", &a, "--engine", "name=b", &a];
    // After these moves White's only move is c4; the board is a finished game.
    let forced = "d3c3b3b2b1a1f5c1";
    let over = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O";
    for (text, expected) in [
        (
            forced,
            "openings.txt:1: the opening leaves a single forced move",
        ),
        (over, "openings.txt:1: the opening ends the game"),
    ] {
        let file = dir.join("openings.txt");
        std::fs::write(&file, format!("{text}\n")).unwrap();
        let mut args: Vec<&str> = two.to_vec();
        args.extend(["--openings", file.to_str().unwrap()]);
        refused(&args, expected);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two copies of a deterministic engine play the same game with both colours: the pair
/// is flagged.
#[test]
fn identical_colour_swapped_games_are_flagged() {
    let greedy = format!("cmd={ARBOR} --player greedy --seed 1");
    let output = Command::new(ARBOR)
        .args(["match", "--game", "othello", "--size", "6", "--depth", "1"])
        .args([
            "--engine", "name=one", &greedy, "--engine", "name=two", &greedy,
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("warning: games 1 and 2 are the same game with colours swapped"),
        "{stdout}"
    );
    assert!(
        stdout.contains("warning: 1 of 1 pairs were one game played twice"),
        "{stdout}"
    );
}
