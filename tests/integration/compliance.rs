//! `arbor match --compliance`: arbor's own front ends pass the scripted checks of their
//! protocols; engines that break them get each deviation reported and a failing status.

use std::process::Command;

const ARBOR: &str = env!("CARGO_BIN_EXE_arbor");

fn engine(name: &str) -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/").to_string() + name
}

/// Runs the check (with `--game` unless `game` is empty); returns the exit code and the
/// output.
fn compliance(command: &str, proto: &str, game: &str) -> (Option<i32>, String) {
    let mut args = vec!["match", "--compliance"];
    if !game.is_empty() {
        args.extend(["--game", game]);
    }
    let output = Command::new(ARBOR)
        .args(args)
        .args(["--engine", "name=e"])
        .arg(format!("cmd={command}"))
        .arg(format!("proto={proto}"))
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn arbor_front_ends_pass_clean() {
    for (front, proto, game, at_least) in [
        ("--hash 16", "native", "othello", 12),
        // With GoGui's rules commands and, in Othello, a game up to a pass.
        ("gtp --hash 16", "gtp", "othello", 40),
        ("gtp --hash 16 --game gomoku", "gtp", "gomoku", 35),
        // With a record ending in a pass, a pass-only hint, a non-standard start
        // board, analyze, and a ping during a search and during a hint.
        ("nboard --hash 16", "nboard", "othello", 15),
        ("gomocup", "gomocup", "gomoku", 11),
        // A Gomocup brain plays Gomoku: no --game needed.
        ("gomocup", "gomocup", "", 11),
    ] {
        let (code, out) = compliance(&format!("{ARBOR} {front}"), proto, game);
        assert_eq!(code, Some(0), "{front}:\n{out}");
        assert!(out.ends_with(" 0 deviations\n"), "{out}");
        let checks = out.lines().filter(|l| l.starts_with("ok ")).count();
        assert!(checks >= at_least, "{front}: {checks} checks\n{out}");
        assert!(!out.contains("DEVIATION"), "{out}");
    }
}

#[test]
fn a_broken_gtp_engine_gets_each_deviation_reported() {
    let command = format!("python3 {} {ARBOR} gtp --hash 16", engine("broken_gtp.py"));
    let (code, out) = compliance(&command, "gtp", "othello");
    assert_eq!(code, Some(2), "{out}");
    let deviations: Vec<&str> = out.lines().filter(|l| l.starts_with("DEVIATION")).collect();
    assert_eq!(deviations.len(), 4, "{out}");
    for expected in [
        "ids are echoed as =<id>: the id 17 is not echoed right after =: '= 17 arbor'",
        "list_commands has every required command: missing komi",
        "an unknown command is an error: expected a ? reply",
        "boardsize 1 is unacceptable: expected a ? reply",
    ] {
        assert!(
            deviations.iter().any(|d| d.contains(expected)),
            "{expected}\n{out}"
        );
    }
    assert!(out.ends_with("4 deviations\n"), "{out}");
}

#[test]
fn a_brain_that_answers_garbage_or_dies_is_reported() {
    let script = engine("misbehave_foreign.py");
    let command = format!("python3 {script} gomocup garbage 2 {ARBOR} gomocup");
    let (code, out) = compliance(&command, "gomocup", "gomoku");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("DEVIATION TURN is answered with a legal move: 'hello there' is not x,y"),
        "{out}"
    );
    // A crash ends the script: said once, and the checks before it still count.
    let command = format!("python3 {script} nboard crash 1 {ARBOR} nboard");
    let (code, out) = compliance(&command, "nboard", "othello");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("ok        the engine names itself (set myname) by the first pong"),
        "{out}"
    );
    assert!(
        out.contains("DEVIATION the engine answers to the end of the script: crashed"),
        "{out}"
    );
}

#[test]
fn compliance_checks_one_engine_in_a_protocol_that_fits_the_game() {
    let output = Command::new(ARBOR)
        .args(["match", "--compliance", "--engine", "name=a", "cmd=arbor"])
        .args(["--engine", "name=b", "cmd=arbor"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("one --engine"));
    let (code, _) = compliance(&format!("{ARBOR} nboard"), "nboard", "gomoku");
    assert_eq!(code, Some(2));
}

/// An NBoard engine that writes a stray line instead of its move: the line is noted as
/// skipped (a GUI skips it too), the missing move is the deviation, and the script ends
/// where the engine stopped.
#[test]
fn a_stray_nboard_line_is_reported_as_such() {
    let script = engine("misbehave_foreign.py");
    let command = format!("python3 {script} nboard garbage 1 {ARBOR} nboard");
    let (code, out) = compliance(&command, "nboard", "othello");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains(
            "note      go sends only NBoard lines before ===: 'hello there' skipped (not NBoard lines)"
        ),
        "{out}"
    );
    assert!(
        out.contains("DEVIATION the engine answers to the end of the script: stopped answering"),
        "{out}"
    );
    // At its second go (after a record ending in a pass) the same, and what came before
    // passed.
    let command = format!("python3 {script} nboard garbage 2 {ARBOR} nboard");
    let (code, out) = compliance(&command, "nboard", "othello");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("ok        a move and an unknown line, then ping"),
        "{out}"
    );
    assert!(
        out.contains("note      go after a record ending in a pass sends only NBoard lines"),
        "{out}"
    );
}
