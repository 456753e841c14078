//! Hostile input to the command-line tools: every bad number, file or option gets a clear
//! one-line error on stderr and exit status 2, never a panic, never output on stdout, and
//! nothing is written. (The protocols' own hostile input is in protocol.rs and
//! gomocup.rs; `arbor match` against misbehaving engines in harness.rs.)

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ARBOR: &str = env!("CARGO_BIN_EXE_arbor");

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts arbor with `args`, stdin and stderr piped and stdout to `stdout`.
fn spawn(args: &[&str], stdout: Stdio) -> std::process::Child {
    Command::new(ARBOR)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs arbor with `args` and `input` on stdin (written from another thread, so a large
/// input cannot block on a full pipe) until it exits, its stdout going to `stdout`.
fn run_to(args: &[&str], input: Vec<u8>, stdout: Stdio) -> std::process::Output {
    let mut child = spawn(args, stdout);
    let mut stdin = child.stdin.take().unwrap();
    // The process may refuse before reading: a closed pipe is fine.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// [`run_to`] with stdout piped.
fn run(args: &[&str], input: Vec<u8>) -> std::process::Output {
    run_to(args, input, Stdio::piped())
}

/// Runs arbor with `args` and `input` on stdin; asserts a refusal whose message contains
/// `expected`, and returns what it printed on stdout (progress, for the long tools).
fn refused(args: &[&str], input: &[u8], expected: &str) -> String {
    let output = run(args, input.to_vec());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}{stdout}");
    assert!(
        stderr.contains(expected),
        "{args:?}: expected {expected:?} in {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(
        !stderr.chars().any(|c| c.is_control() && c != '\n'),
        "{args:?}: control characters in {stderr:?}"
    );
    stdout.into_owned()
}

#[test]
fn every_number_of_every_subcommand_is_checked() {
    let engines = [
        "--engine", "name=a", "cmd=true", "--engine", "name=b", "cmd=true",
    ];
    let matches = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut args = vec!["match"];
        args.extend(engines);
        args.extend(extra);
        args
    };
    let not_integer = "expected a non-negative integer";
    let not_seconds = "expected a non-negative number of seconds";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--hash", "0"], "0 MiB is outside 1..=1048576"),
        (vec!["--hash", "1048577"], "outside 1..=1048576"),
        (vec!["--hash=-1"], not_integer),
        (vec!["--hash", "1e3"], not_integer),
        (vec!["--hash", "99999999999999999999999"], "too large"),
        (vec!["--overhead", "10001"], "10001 ms is outside 0..=10000"),
        (vec!["--overhead", "0.5"], not_integer),
        (vec!["--seed=-1"], not_integer),
        (vec!["--seed", "18446744073709551616"], "too large"),
        (vec!["perft", "--depth", "61"], "61 is outside 0..=60"),
        (vec!["perft", "--depth=-1"], not_integer),
        (vec!["perft", "--depth", "4294967296"], "outside 0..=60"),
        (vec!["perft", "--depth", ""], not_integer),
        (vec!["play", "--time", "1e30"], not_seconds),
        (vec!["play", "--time", "1e19"], not_seconds),
        (vec!["play", "--time", "inf"], not_seconds),
        (vec!["play", "--time", "NaN"], not_seconds),
        (vec!["play", "--time=-5"], not_seconds),
        (vec!["play", "--time", "1000000001"], "too long"),
        (vec!["play", "--time", "0"], "more than 0 seconds"),
        (vec!["play", "--level", "61"], "61 is outside 0..=60"),
        (vec!["play", "--level=-1"], not_integer),
        (vec!["play", "--hash", "0"], "outside 1..=1048576"),
        (vec!["play", "--seed", "x"], not_integer),
        (
            vec!["play", "--color", "purple\u{1b}[2J"],
            "not 'purple\\u{1b}[2J'",
        ),
        (vec!["solve", "x.obf", "--hash", "0"], "outside 1..=1048576"),
        (
            vec!["solve", "x.obf", "--hash", "4294967296000"],
            "outside 1..=1048576",
        ),
        (
            vec!["solve", "--jsonl", "--hash", "0"],
            "outside 1..=1048576",
        ),
        (matches(&["--shard", "0/4"]), "0 is outside 1..=4"),
        (matches(&["--shard", "1/1000001"]), "outside 1..=1000000"),
        (matches(&["--shard", "1/-4"]), not_integer),
        (matches(&["--shard", "1/99999999999999999999"]), "too large"),
        (vec!["puzzles", "x.txt", "--movetime", "1e3"], not_integer),
        (vec!["puzzles", "x.txt", "--nodes=-5"], not_integer),
        (
            vec!["puzzles", "x.txt", "--nodes", "99999999999999999999"],
            "too large",
        ),
        (
            vec!["puzzles", "x.txt", "--movetime", "1000000000001"],
            "outside 0..=1000000000000",
        ),
        (
            vec!["train", "--wthor", "x", "--solve-empties", "31"],
            "31 empties is outside 0..=30",
        ),
        (
            vec!["train", "--wthor", "x", "--threads", "0"],
            "0 threads is outside 1..=256",
        ),
        (
            vec!["train", "--wthor", "x", "--search-depth", "21"],
            "21 is outside 0..=20",
        ),
        (
            vec!["train", "--wthor", "x", "--search-share", "1.5"],
            "\"1.5\": a share from 0 to 1",
        ),
        (
            vec!["train", "--wthor", "x", "--search-share", "NaN"],
            "\"NaN\": a share from 0 to 1",
        ),
        (
            vec!["train", "--selfplay", "10000001"],
            "10000001 is outside 0..=10000000",
        ),
        (vec!["train", "--selfplay=-1"], not_integer),
        (vec!["train", "--selfplay", "5", "--seed", "x"], not_integer),
        (
            vec!["train", "--selfplay", "5", "--rule", "reversed"],
            "unknown othello rule 'reversed'",
        ),
        (vec!["train"], "nothing to train on"),
        (
            vec!["train", "--selfplay-openings", "xot.txt"],
            "nothing to train on",
        ),
        (
            vec!["train", "--wthor", "x", "--selfplay-openings", "xot.txt"],
            "--selfplay-openings needs --selfplay GAMES",
        ),
        (
            vec!["train", "--logbook", "/nonexistent/logbook.gam.gz"],
            "/nonexistent/logbook.gam.gz: No such file",
        ),
        (
            vec![
                "train",
                "--selfplay",
                "5",
                "--selfplay-openings",
                "/nonexistent/xot",
            ],
            "/nonexistent/xot: No such file",
        ),
        (vec!["probcut"], "nothing to sample"),
        (
            vec!["probcut", "--selfplay", "5", "--rule", "reversed"],
            "unknown othello rule 'reversed'",
        ),
        (
            vec!["probcut", "--selfplay", "10000001"],
            "10000001 is outside 0..=10000000",
        ),
        (
            vec!["probcut", "--endgame", "--rule", "misere", "--wthor", "x"],
            "--endgame samples WTHOR positions under the normal rule",
        ),
        (
            vec!["probcut", "--endgame", "--wthor", "x", "--selfplay", "3"],
            "--endgame samples WTHOR positions only",
        ),
        (
            vec!["selfplay", "--games", "4", "--out", "x", "--shard", "5/4"],
            "5 is outside 1..=4",
        ),
        (
            vec!["selfplay", "--games", "4", "--out", "x", "--shard", "1of4"],
            "expected I/N such as 1/4",
        ),
        (
            vec!["selfplay", "--games", "0", "--out", "x"],
            "0 games is outside",
        ),
        (
            vec!["selfplay", "--games", "4", "--out", "x", "--nodes", "0"],
            "0 nodes is outside",
        ),
        (
            vec!["selfplay", "--games", "4", "--out", "x", "--size", "30"],
            "30 is outside 5..=26",
        ),
        (
            vec!["selfplay", "--games", "4", "--out", "x", "--rule", "caro"],
            "unknown rule 'caro'",
        ),
        (
            vec![
                "selfplay", "--games", "4", "--out", "x", "--game", "othello",
            ],
            "Gomoku data only",
        ),
        (
            vec!["selfplay", "--games", "4", "--out", "/nonexistent/x.txt"],
            "does not exist",
        ),
        (vec!["tune", "--selfplay", "0"], "0 is outside 1..="),
        (vec!["tune", "--selfplay=-3"], not_integer),
        (vec!["tune", "--seed", "1.5"], not_integer),
        (vec!["gomocup", "--overhead", "99999"], "outside 0..=10000"),
        (vec!["--threads", "0"], "0 threads is outside 1..=256"),
        (vec!["--threads", "257"], "257 threads is outside 1..=256"),
        (vec!["--threads", "x"], not_integer),
        (
            vec!["gtp", "--threads", "0"],
            "0 threads is outside 1..=256",
        ),
        (
            vec!["nboard", "--threads", "0"],
            "0 threads is outside 1..=256",
        ),
        (
            vec!["gomocup", "--threads", "0"],
            "0 threads is outside 1..=256",
        ),
        (vec!["gomocup", "--threads=-1"], not_integer),
        (
            vec!["play", "--threads", "0"],
            "0 threads is outside 1..=256",
        ),
        (vec!["analysis", "--threads", "999"], "outside 1..=256"),
        (vec!["review", "x.txt", "--threads", "0"], "outside 1..=256"),
        (vec!["solve", "x.obf", "--threads", "0"], "outside 1..=256"),
        (vec!["solve", "--jsonl", "--threads", "1e3"], not_integer),
        (matches(&["--tc", "1e20"]), not_seconds),
        (matches(&["--tc", "1e19"]), not_seconds),
        (matches(&["--tc", "1e12"]), not_seconds),
        (matches(&["--tc", "1000000000000"]), "too long"),
        (matches(&["--tc", "60+1e20"]), not_seconds),
        (matches(&["--tc=-1"]), not_seconds),
        (matches(&["--tc", "x"]), not_seconds),
        (
            matches(&["--movetime", "1000000000001"]),
            "outside 0..=1000000000000",
        ),
        (matches(&["--movetime=-1"]), not_integer),
        (
            matches(&["--depth", "4294967296"]),
            "outside 0..=4294967295",
        ),
        (matches(&["--nodes=-1"]), not_integer),
        (matches(&["--rounds", "0"]), "0 is outside 1..="),
        (matches(&["--rounds", "99999999999"]), "outside 1..=1000000"),
        (matches(&["--concurrency", "0"]), "0 is outside 1..="),
        (matches(&["--concurrency", "100000"]), "outside 1..=256"),
        (
            matches(&["--random-openings", "99999999"]),
            "outside 0..=10000",
        ),
        (matches(&["--seed=-1"]), not_integer),
    ];
    for (args, expected) in &cases {
        let stdout = refused(args, b"", expected);
        assert!(stdout.is_empty(), "{args:?}: printed {stdout}");
    }
    eprintln!("{} bad numbers refused", cases.len());
}

#[test]
fn serve_numbers_are_bounded() {
    let cases: [(&[&str], &str); 6] = [
        (&["--idle", "0"], "0 s is outside 10..=86400"),
        (&["--idle", "9"], "9 s is outside 10..=86400"),
        (&["--idle", "86401"], "86401 s is outside 10..=86400"),
        (&["--idle=-1"], "expected a non-negative integer"),
        (&["--max-sessions", "0"], "0 is outside 1..=128"),
        (&["--max-sessions", "129"], "129 is outside 1..=128"),
    ];
    for (args, expected) in cases {
        let mut child = Command::new(ARBOR)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Refused before it listens: a server that starts instead fails the test.
        let deadline = Instant::now() + Duration::from_secs(10);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("serve {args:?} was not refused");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_files_are_refused_before_any_work() {
    let dir = scratch("files");
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, [0xff, 0xfe, 0x00, 0x80, b'\n', 0xc3]).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "\n\n   \n").unwrap();
    let nul = dir.join("nul.obf");
    std::fs::write(&nul, "XX\0X O;\n").unwrap();
    let late = dir.join("late.obf");
    // A position, then a bad line: no puzzle at all (arbor solve would solve the good
    // one and name the bad one, see tests/integration/files.rs).
    std::fs::write(
        &late,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\nnonsense\n",
    )
    .unwrap();
    let missing = dir.join("missing.txt");
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["solve".into(), path(&garbage)], "valid UTF-8"),
        (vec!["solve".into(), path(&empty)], "no positions"),
        (vec!["solve".into(), path(&nul)], "nul.obf:1: setboard"),
        (vec!["solve".into(), path(&missing)], "No such file"),
        (vec!["solve".into(), path(&dir)], "directory"),
        (vec!["puzzles".into(), path(&garbage)], "valid UTF-8"),
        (vec!["puzzles".into(), path(&empty)], "no puzzles"),
        (vec!["puzzles".into(), path(&late)], "late.obf:1: "),
        (vec!["puzzles".into(), path(&missing)], "No such file"),
        (
            vec!["tune".into(), "--wthor".into(), path(&missing)],
            "No such file",
        ),
        (
            vec!["tune".into(), "--wthor".into(), path(&dir)],
            "no finished games",
        ),
        (vec!["tune".into()], "needs --wthor"),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stdout = refused(&args, b"", expected);
        assert!(stdout.is_empty(), "{args:?}: printed {stdout}");
    }
    eprintln!("{} bad files refused", cases.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_writes_nothing_unless_it_trained() {
    let dir = scratch("train");
    let out = dir.join("weights.bin");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let (out_text, games_text) = (out.to_str().unwrap(), games.to_str().unwrap());
    // A typo in --wthor, no games, too few games: no file appears.
    let typo = format!("{games_text}-typo");
    refused(
        &["train", "--wthor", &typo, "--out", out_text],
        b"",
        "No such file",
    );
    refused(
        &["train", "--wthor", games_text, "--out", out_text],
        b"",
        "no finished games",
    );
    std::fs::write(games.join("a.txt"), "f5d6c3d3c4f4 12\n").unwrap();
    refused(
        &["train", "--wthor", games_text, "--out", out_text],
        b"",
        "too few",
    );
    let not_weights = games.join("a.txt");
    refused(
        &[
            "train",
            "--wthor",
            games_text,
            "--search-weights",
            not_weights.to_str().unwrap(),
            "--out",
            out_text,
        ],
        b"",
        "a.txt: not an arbor weights file",
    );
    assert!(!out.exists());
    // An existing file is kept without --force.
    std::fs::write(&out, "keep").unwrap();
    refused(
        &["train", "--wthor", games_text, "--out", out_text],
        b"",
        "--force",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep");
    let listing: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(listing.len(), 2, "only weights.bin and games/: {listing:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_outlives_hostile_input() {
    // Bytes that are not text, escapes, NULs, an over-long line: each is explained and the
    // game goes on to its end.
    let mut input = b"\xff\xfe\n\x00\n\x1b[31m\n\r\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 2 << 20));
    input.extend(b"\nhelp\n");
    for _ in 0..20 {
        input.extend(b"a1\nb1\nc1\nd1\na2\nb2\nc2\nd2\na3\nb3\nc3\nd3\na4\nb4\nc4\nd4\npass\n");
    }
    let output = run(
        &["play", "--size", "4", "--level", "2", "--seed", "1"],
        input,
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success());
    assert!(text.contains("that line is not text"), "{text}");
    assert!(text.contains("that line is too long"), "{text}");
    assert!(text.contains("bad move '\\u{1b}[31m'"), "{text}");
    assert!(text.contains("game over: "), "{text}");
    assert!(
        !text.contains('\0') && !text.contains('\u{1b}'),
        "control characters echoed"
    );
}

/// `arbor solve --jsonl` on a hostile stream: every line gets a one-line JSON error and
/// the stream goes on to the good task at the end; never a panic, exit status 0.
#[test]
fn solve_tasks_outlive_hostile_input() {
    let four = "-XXX-OOX-XOXXXO- X";
    let nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let mut input: Vec<u8> = Vec::new();
    let lines: Vec<Vec<u8>> = vec![
        b"\xff\xfe\x00garbage".to_vec(),
        vec![b'x'; 100_000],
        nested.into_bytes(),
        b"{\"position\": \"\x1b[2J\"}".to_vec(),
        format!("{{\"position\":\"{four}\",\"depth\":1e300}}").into_bytes(),
        format!("{{\"position\":\"{four}\",\"depth\":-1}}").into_bytes(),
        format!("{{\"position\":\"{four}\",\"depth\":99999999999999999999}}").into_bytes(),
        format!("{{\"position\":\"{four}\",\"alpha\":-9e99,\"beta\":1}}").into_bytes(),
        format!("{{\"position\":\"{four}\",\"alpha\":null,\"beta\":1}}").into_bytes(),
        format!("{{\"position\":\"{four}\"}} trailing").into_bytes(),
        br#"{"position": "\u0000"}"#.to_vec(),
        b"[]".to_vec(),
        format!("{{\"id\":\"end\",\"position\":\"{four}\"}}").into_bytes(),
    ];
    for line in &lines {
        input.extend(line);
        input.push(b'\n');
    }
    let output = run(&["solve", "--jsonl", "--hash", "8"], input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), lines.len(), "{stdout}");
    for (number, answer) in answers.iter().enumerate() {
        assert_eq!(answer["line"], number + 1, "{answer}");
        let last = number + 1 == lines.len();
        assert_eq!(answer["error"].is_string(), !last, "{answer}");
        if let Some(error) = answer["error"].as_str() {
            assert!(error.len() < 300, "{error}");
            assert!(!error.chars().any(char::is_control), "{error:?}");
        }
    }
    assert_eq!(answers.last().unwrap()["id"], "end");
}

/// Small inputs for the file-reading commands, in a scratch directory.
struct Inputs {
    obf: String,
    puzzles: String,
    review: String,
    svg: String,
}

fn inputs(name: &str) -> Inputs {
    let dir = scratch(name);
    let path = |file: &str| dir.join(file).to_str().unwrap().to_string();
    // Black takes b1 from a1: the last move of the game.
    let obf = format!("-O{} X; A1:+64;\n", "X".repeat(62));
    std::fs::write(path("one.obf"), obf).unwrap();
    std::fs::write(
        path("one.txt"),
        "15 black B:h8,i8,j8,k8 W:h9,i9,j9 ; g8 ; g8 ; open four\n",
    )
    .unwrap();
    std::fs::write(path("game.txt"), "f5d6c3d3c4\n").unwrap();
    Inputs {
        obf: path("one.obf"),
        puzzles: path("one.txt"),
        review: path("game.txt"),
        svg: path("game.svg"),
    }
}

/// Every command, with what it reads on stdin.
fn every_command(files: &Inputs) -> Vec<(Vec<String>, &'static str)> {
    let owned = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let engine = format!("cmd={ARBOR}");
    vec![
        (owned(&["perft", "--depth", "3"]), ""),
        (owned(&["--book", "off"]), "go depth 2\n"),
        (
            owned(&["gomocup"]),
            "START 15\nINFO timeout_turn 100\nBEGIN\n",
        ),
        (owned(&["nboard"]), "nboard 2\nping 1\n"),
        (owned(&["gtp"]), "name\n"),
        (
            owned(&["analysis", "--threads", "1"]),
            "{\"id\":1,\"moves\":[\"f5\"],\"depth\":2}\n",
        ),
        (owned(&["book", "check"]), ""),
        (owned(&["solve", &files.obf, "--threads", "1"]), ""),
        (
            owned(&["solve", "--jsonl", "--threads", "1"]),
            "{\"position\":\"---------------------------OX------XO--------------------------- X\",\"depth\":2}\n",
        ),
        (owned(&["puzzles", &files.puzzles, "--movetime", "100"]), ""),
        (owned(&["play", "--color", "none", "--level", "1"]), ""),
        (
            owned(&[
                "review",
                &files.review,
                "--depth",
                "1",
                "--threads",
                "1",
                "--svg",
                &files.svg,
            ]),
            "",
        ),
        (owned(&["serve", "--port", "0"]), ""),
        (
            owned(&[
                "match", "--engine", "name=a", &engine, "--engine", "name=b", &engine, "--depth",
                "1",
            ]),
            "",
        ),
        (
            owned(&["match", "--compliance", "--engine", "name=a", &engine]),
            "",
        ),
        (
            owned(&[
                "tune",
                "--game",
                "gomoku",
                "--selfplay",
                "4",
                "--threads",
                "1",
            ]),
            "",
        ),
    ]
}

/// Standard output on a full disk (`/dev/full`): every command says so on stderr and
/// exits with a failure, never a panic, never a success that wrote nothing.
#[test]
fn every_command_reports_a_full_disk() {
    let files = inputs("full");
    for (args, input) in every_command(&files) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = run_to(&args, input.as_bytes().to_vec(), full.into());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A reader that goes away (`arbor ... | head -c 1`) ends the work at once with an error,
/// not after the search's limit (20 s to a minute here), whether the search writes
/// reports (read one byte, then close) or nothing until its answer (close at once).
#[test]
fn a_closed_pipe_ends_the_work_at_once() {
    use std::io::Read;
    let cases: [(&[&str], &str, bool); 8] = [
        (&["--book", "off"], "go movetime 60000\n", true),
        (&["--book", "off"], "analyze time 60000\n", true),
        (
            &["gomocup"],
            "START 15\nINFO timeout_turn 60000\nINFO timeout_match 0\nBEGIN\n",
            true,
        ),
        (
            &["analysis", "--threads", "1"],
            "{\"id\":1,\"time_ms\":60000,\"report_every_ms\":10}\n",
            true,
        ),
        (&["nboard"], "nboard 2\nset depth 40\ngo\n", true),
        (
            &["gtp", "--book", "off"],
            "time_settings 600 0 0\ngenmove b\n",
            false,
        ),
        (
            &["analysis", "--threads", "1"],
            "{\"id\":1,\"time_ms\":60000}\n",
            false,
        ),
        (
            &["solve", "--jsonl", "--threads", "1"],
            "{\"position\":\"---------------------------OX------XO--------------------------- X\",\"depth\":40}\n",
            false,
        ),
    ];
    for (args, input, read_first) in cases {
        let started = std::time::Instant::now();
        let mut child = spawn(args, Stdio::piped());
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        // The input stays open: only the closed output may end the search early.
        let mut stdout = child.stdout.take().unwrap();
        if read_first {
            let mut byte = [0u8];
            stdout.read_exact(&mut byte).unwrap();
        }
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        drop(stdin);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(15),
            "{args:?} ran on for {:?} after its reader went",
            started.elapsed()
        );
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}
