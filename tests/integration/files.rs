//! Files in and out of the command-line tools: outputs are written through symbolic
//! links and never replace a FIFO, device or directory; inputs are validated whole, a
//! bad line named as FILE:LINE while the good ones are still used, a byte-order mark
//! skipped.

use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use arbor::game::Game;
use arbor::game::othello::Othello;

const ARBOR: &str = env!("CARGO_BIN_EXE_arbor");

/// FFO position 1 (14 empties, solved in a moment) and its score.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";

/// A finished game: the board is full.
fn full_board() -> String {
    format!("{}{} O", "X".repeat(40), "O".repeat(24))
}

/// A four-three for Black: j8 wins in five plies.
const FOUR_THREE: &str = "15 black B:g8,h8,i8,j9,j10 W:f8,a1,a15,o1,o15 ; j8 ; - ; four-three";

/// A fresh scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs arbor in `dir` with `args` and no input.
fn arbor_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(ARBOR)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs arbor with `input` on stdin.
fn arbor_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(ARBOR)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that arbor refused with exit status 2, a message containing each of
/// `expected`, and nothing on stdout (no work done).
fn assert_refused(output: &Output, expected: &[&str]) {
    let (out, err) = (stdout(output), stderr(output));
    assert_eq!(
        output.status.code(),
        Some(2),
        "stdout: {out}\nstderr: {err}"
    );
    for word in expected {
        assert!(err.contains(word), "expected {word:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.is_empty(), "work was done before the refusal: {out}");
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    path.symlink_metadata().unwrap().file_type().is_fifo()
}

fn is_link(path: &Path) -> bool {
    path.symlink_metadata().unwrap().file_type().is_symlink()
}

/// `count` random Othello games to their end as WTHOR lines (`<moves> <diff>`).
fn wthor_games(count: usize) -> String {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut text = String::new();
    for _ in 0..count {
        let mut game = Othello::standard();
        let mut line = String::new();
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            moves.clear();
            game.generate_moves(&mut moves);
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(state >> 33) as usize % moves.len()];
            if !mv.is_pass() {
                line.push_str(&game.format_move(mv));
            }
            game.make(mv);
        }
        text.push_str(&format!("{line} +0\n"));
    }
    text
}

/// A directory `games` in `dir` with enough WTHOR games to train on.
fn corpus(dir: &Path) -> PathBuf {
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("a.txt"), wthor_games(30)).unwrap();
    games
}

#[test]
fn train_writes_through_links_and_refuses_fifos_devices_and_directories() {
    let dir = scratch("train");
    let games = corpus(&dir);
    let train = |out: &Path| {
        arbor_in(
            &dir,
            &[
                "train",
                "--wthor",
                text(&games),
                "--out",
                text(out),
                "--force",
            ],
        )
    };
    // A link: the file it names is replaced, the link kept.
    std::fs::write(dir.join("real.bin"), "old").unwrap();
    symlink("real.bin", dir.join("link.bin")).unwrap();
    let output = train(&dir.join("link.bin"));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(is_link(&dir.join("link.bin")));
    assert_ne!(std::fs::read(dir.join("real.bin")).unwrap(), b"old");
    // A FIFO, a device (through a link) and a directory are refused before training.
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    assert_refused(&train(&fifo), &["fifo is a FIFO", "not a regular file"]);
    assert!(is_fifo(&fifo));
    symlink("/dev/null", dir.join("null")).unwrap();
    assert_refused(
        &train(&dir.join("null")),
        &["(a link to /dev/null) is a character device"],
    );
    assert!(is_link(&dir.join("null")));
    assert_refused(&train(&games), &["games is a directory"]);
    // Nothing is left behind.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["fifo", "games", "link.bin", "null", "real.bin"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_build_refuses_a_device() {
    let dir = scratch("book");
    let games = corpus(&dir);
    symlink("/dev/null", dir.join("null")).unwrap();
    let build = |out: &str| {
        arbor_in(
            &dir,
            &[
                "book",
                "build",
                "--wthor",
                text(&games),
                "--out",
                out,
                "--plies",
                "4",
                "--min-games",
                "3",
                "--depth",
                "1",
            ],
        )
    };
    assert_refused(
        &build("null"),
        &["null (a link to /dev/null) is a character device"],
    );
    // And a missing directory is found before the searches, not after.
    let output = build("no/such.book");
    assert_refused(&output, &["no/such.book: the directory no does not exist"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_gomoku_refuses_a_device_as_out_or_labels() {
    let dir = scratch("tune");
    symlink("/dev/null", dir.join("null")).unwrap();
    let tune = [
        "tune",
        "--game",
        "gomoku",
        "--selfplay",
        "10",
        "--threads",
        "1",
    ];
    let output = arbor_in(&dir, &[&tune[..], &["--out", "null"]].concat());
    assert_refused(
        &output,
        &["null (a link to /dev/null) is a character device"],
    );
    let output = arbor_in(
        &dir,
        &[&tune[..], &["--label-depth", "1", "--labels", "null"]].concat(),
    );
    assert_refused(
        &output,
        &["null (a link to /dev/null) is a character device"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn review_svg_refuses_a_device_and_never_replaces_the_record() {
    let dir = scratch("review-svg");
    std::fs::write(dir.join("game.txt"), "f5 d6 c3\n").unwrap();
    symlink("/dev/null", dir.join("null.svg")).unwrap();
    let output = arbor_in(
        &dir,
        &["review", "game.txt", "--depth", "1", "--svg", "null.svg"],
    );
    assert_refused(
        &output,
        &["null.svg (a link to /dev/null) is a character device"],
    );
    // A record named .svg: the default graph path is the record itself.
    std::fs::write(dir.join("game.svg"), "f5 d6 c3\n").unwrap();
    let output = arbor_in(&dir, &["review", "game.svg", "--depth", "1"]);
    assert_refused(&output, &["game.svg", "the record itself"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("game.svg")).unwrap(),
        "f5 d6 c3\n"
    );
    // A good path gets the graph.
    let output = arbor_in(&dir, &["review", "game.txt", "--depth", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        std::fs::read_to_string(dir.join("game.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arbor match` of two built-in engines at tic-tac-toe with `extra` arguments, in `dir`.
fn tictactoe_match(dir: &Path, extra: &[&str]) -> Output {
    let engine = format!("cmd={ARBOR} --player random --seed 1");
    arbor_in(
        dir,
        &[
            &[
                "match",
                "--game",
                "tictactoe",
                "--depth",
                "1",
                "--engine",
                "name=a",
                &engine,
                "--engine",
                "name=b",
                &engine,
            ][..],
            extra,
        ]
        .concat(),
    )
}

#[test]
fn match_files_refuse_fifos_devices_and_directories_before_any_game() {
    let dir = scratch("match");
    mkfifo(&dir.join("fifo"));
    symlink("/dev/null", dir.join("null")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    for option in ["--records", "--ggf", "--jsonl", "--resume"] {
        for (path, kind) in [
            ("null", "null (a link to /dev/null) is a character device"),
            ("sub", "sub is a directory"),
            ("fifo", "fifo is a FIFO"),
        ] {
            let output = tictactoe_match(&dir, &[option, path]);
            assert_refused(&output, &[kind]);
        }
    }
    assert!(is_fifo(&dir.join("fifo")));
    // Records are appended through a link.
    std::fs::write(dir.join("real.txt"), "kept\n").unwrap();
    symlink("real.txt", dir.join("records.txt")).unwrap();
    let output = tictactoe_match(&dir, &["--records", "records.txt"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(is_link(&dir.join("records.txt")));
    let records = std::fs::read_to_string(dir.join("real.txt")).unwrap();
    assert!(records.starts_with("kept\ngame 1 "), "{records}");
    assert_eq!(records.lines().count(), 3, "{records}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_reports_a_finished_position_by_line_and_solves_the_rest() {
    let dir = scratch("solve-over");
    let file = dir.join("suite.obf");
    std::fs::write(&file, format!("{FFO_1}\n{}\n{FFO_1}\n", full_board())).unwrap();
    let output = arbor_in(
        &dir,
        &["solve", "suite.obf", "--threads", "1", "--hash", "16"],
    );
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(2), "{out}{err}");
    assert!(err.contains("suite.obf:2: "), "{err}");
    assert!(err.contains("over"), "{err}");
    assert!(
        !err.contains("suite.obf:1:") && !err.contains("suite.obf:3:"),
        "{err}"
    );
    assert!(
        out.contains("line   1 ") && out.contains("line   3 "),
        "{out}"
    );
    assert!(out.contains("total: 2 positions, 0 mismatches"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_skips_a_byte_order_mark() {
    let dir = scratch("solve-bom");
    std::fs::write(dir.join("bom.obf"), format!("\u{feff}{FFO_1}\n")).unwrap();
    let output = arbor_in(
        &dir,
        &["solve", "bom.obf", "--threads", "1", "--hash", "16"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("total: 1 positions, 0 mismatches"));
}

/// Not a fix: `solve --jsonl` answers a finished position with its final score (a
/// leaf of a campaign) and goes on, as it did before.
#[test]
fn solve_tasks_answer_a_finished_position_and_go_on() {
    let input = format!("{}\n\u{feff}\n{FFO_1}\n", full_board());
    let output = arbor_with_input(
        &["solve", "--jsonl", "--threads", "1", "--hash", "16"],
        &input,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(
        (&lines[0]["lower"], &lines[0]["upper"]),
        (&(-16).into(), &(-16).into())
    );
    assert!(lines[1]["error"].is_string(), "{lines:?}");
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[2]["lower"], 18, "{lines:?}");
}

#[test]
fn puzzles_name_bad_stones_and_run_the_good_ones() {
    let dir = scratch("puzzles");
    let bad = [
        "15 black B:h8,h8,i8 W:a1 ; g8 ; - ; twice",
        "15 black B:h8,i8 W:h8 ; g8 ; - ; both",
        "15 black B:h8,p16 W:a1 ; g8 ; - ; off",
        "4 black B:a1 W:b2 ; c3 ; - ; small",
    ];
    std::fs::write(
        dir.join("set.txt"),
        format!("\u{feff}{FOUR_THREE}\n{}\n", bad.join("\n")),
    )
    .unwrap();
    let output = arbor_in(&dir, &["puzzles", "set.txt", "--nodes", "20000"]);
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(2), "{out}{err}");
    for expected in [
        "set.txt:2: h8 is given twice",
        "set.txt:3: h8 is both black and white",
        "set.txt:4: 'p16': ",
        "set.txt:5: size 4: ",
    ] {
        assert!(err.contains(expected), "expected {expected:?} in {err}");
    }
    assert!(!err.contains("set.txt:1:"), "{err}");
    assert!(out.contains("solved 1/1 "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn review_takes_the_variant_from_a_saved_record() {
    let dir = scratch("review-variant");
    let record = "game 1 variant \"gomoku size=15 rule=freestyle opening=center\" result * \
                  setup start moves h8 h9 i8\n";
    std::fs::write(dir.join("web.txt"), record).unwrap();
    let output = arbor_in(&dir, &["review", "web.txt", "--depth", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let graph = std::fs::read_to_string(dir.join("web.svg")).unwrap();
    assert!(graph.contains("(gomoku size=15 "), "{graph}");
    // A --game that contradicts the record names both.
    let output = arbor_in(
        &dir,
        &["review", "web.txt", "--depth", "1", "--game", "othello"],
    );
    assert_refused(&output, &["gomoku size=15", "othello size=8"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn review_reads_a_gomoku_match_record_line() {
    let dir = scratch("review-match");
    let engine = format!("cmd={ARBOR} --player random --seed 3");
    let output = arbor_in(
        &dir,
        &[
            "match",
            "--game",
            "gomoku",
            "--size",
            "9",
            "--depth",
            "1",
            "--engine",
            "name=a",
            &engine,
            "--engine",
            "name=b",
            &engine,
            "--records",
            "games.txt",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let first = std::fs::read_to_string(dir.join("games.txt")).unwrap();
    let first = first.lines().next().unwrap();
    std::fs::write(dir.join("one.txt"), format!("{first}\n")).unwrap();
    let output = arbor_in(&dir, &["review", "one.txt", "--depth", "1"]);
    assert!(output.status.success(), "{first}: {}", stderr(&output));
    let graph = std::fs::read_to_string(dir.join("one.svg")).unwrap();
    assert!(graph.contains("(gomoku size=9 "), "{graph}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn review_finds_an_illegal_move_before_any_analysis() {
    let dir = scratch("review-illegal");
    std::fs::write(
        dir.join("game.txt"),
        "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6 a1 d8\n",
    )
    .unwrap();
    let output = arbor_in(&dir, &["review", "game.txt", "--depth", "1"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("move 13") && err.contains("a1"), "{err}");
    assert!(
        !err.contains("reviewed"),
        "analysed before the check: {err:?}"
    );
    // Every message starts its own line.
    for line in err.lines() {
        assert!(
            !line.contains("arbor:") || line.starts_with("arbor:"),
            "{err:?}"
        );
    }
    assert!(!dir.join("game.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_check_without_a_file_checks_the_compiled_in_book() {
    let dir = scratch("book-check");
    let output = arbor_in(&dir, &["book", "check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.contains("compiled-in book"), "{out}");
    assert!(out.contains("positions"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_openings_skip_a_byte_order_mark_and_name_a_bad_line() {
    let dir = scratch("openings");
    std::fs::write(dir.join("good.txt"), "\u{feff}f5d6\n").unwrap();
    let engine = format!("cmd={ARBOR} --player random --seed 1");
    let othello = |file: &str| {
        arbor_in(
            &dir,
            &[
                "match",
                "--depth",
                "1",
                "--engine",
                "name=a",
                &engine,
                "--engine",
                "name=b",
                &engine,
                "--openings",
                file,
                "--rounds",
                "1",
            ],
        )
    };
    let output = othello("good.txt");
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::write(dir.join("bad.txt"), "f5d6\nf5z9\n").unwrap();
    assert_refused(&othello("bad.txt"), &["bad.txt:2: "]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A weights file whose every configuration weighs nothing and whose bias is `bias`
/// centi-discs in every band: it evaluates every position at `bias`.
fn constant_weights(bias: i16) -> Vec<u8> {
    use arbor::game::othello::pattern::{LAYOUT, Weights, encode, phases};
    let len = LAYOUT.phase_len;
    let mut values = vec![0i16; phases(3) * len];
    for table in values.chunks_mut(len) {
        table[LAYOUT.bias_index()] = bias;
    }
    encode(&Weights::new(values, 3).unwrap())
}

#[test]
fn weights_files_replace_the_evaluation_and_bad_ones_are_refused() {
    let dir = scratch("weights");
    let weights = dir.join("constant.bin");
    std::fs::write(&weights, constant_weights(1234)).unwrap();
    let depth_one = |args: &[&str], newgame: &str| {
        let input = format!("{newgame}\ngo depth 1\nquit\n");
        let output = arbor_with_input(args, &input);
        assert!(output.status.success(), "{}", stderr(&output));
        let out = stdout(&output);
        let info = out.lines().find(|line| line.starts_with("info depth 1 "));
        info.unwrap_or_else(|| panic!("no depth-1 info in {out}"))
            .to_string()
    };
    // Every reply is worth the bias to the side that replies.
    let normal = depth_one(
        &["--weights", text(&weights), "--book", "off"],
        "newgame othello",
    );
    assert!(normal.contains(" score -12.34 "), "{normal}");
    let shipped = depth_one(&["--book", "off"], "newgame othello");
    assert!(!shipped.contains(" score -12.34 "), "{shipped}");
    // --weights is the normal rule's; misère reads its own file.
    let args = ["--weights", text(&weights), "--book", "off"];
    let misere = depth_one(&args, "newgame othello rule=misere");
    assert!(!misere.contains(" score -12.34 "), "{misere}");
    let args = ["--misere-weights", text(&weights), "--book", "off"];
    let misere = depth_one(&args, "newgame othello rule=misere");
    assert!(misere.contains(" score -12.34 "), "{misere}");

    let bad = dir.join("bad.bin");
    let mut cut = constant_weights(1234);
    cut.truncate(cut.len() - 1);
    std::fs::write(&bad, cut).unwrap();
    assert_refused(
        &arbor_in(&dir, &["--weights", text(&bad)]),
        &[text(&bad), "truncated"],
    );
    let missing = dir.join("missing.bin");
    for front_end in [&["nboard"][..], &["gtp"], &["analysis"], &["play"]] {
        let mut args = front_end.to_vec();
        args.extend(["--misere-weights", text(&missing)]);
        assert_refused(&arbor_in(&dir, &args), &[text(&missing)]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_build_takes_one_source_and_bounded_limits() {
    let dir = scratch("book-args");
    let out = dir.join("b.book");
    let refused = [
        (&["book", "build", "--rule", "misere"][..], "--wthor"),
        (
            &["book", "build", "--expand", "0"],
            "0 positions is outside",
        ),
        (
            &["book", "build", "--expand", "10", "--wthor", "."],
            "cannot be used with",
        ),
        (
            &["book", "build", "--wthor", ".", "--window", "3"],
            "cannot be used with",
        ),
        (
            &["book", "build", "--expand", "10", "--min-games", "3"],
            "cannot be used with",
        ),
        (&["book", "build", "--expand", "10", "--window", "65"], "65"),
        (
            &["book", "build", "--expand", "10", "--rule", "chess"],
            "chess",
        ),
    ];
    for (args, expected) in refused {
        let mut args = args.to_vec();
        args.extend(["--out", text(&out)]);
        assert_refused(&arbor_in(&dir, &args), &[expected]);
        assert!(!out.exists());
    }
    let args = [
        "book",
        "build",
        "--rule",
        "misere",
        "--wthor",
        ".",
        "--out",
        text(&out),
    ];
    assert_refused(&arbor_in(&dir, &args), &["grows by --expand"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
