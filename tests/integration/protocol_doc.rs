//! Every example exchange in protocol.md and README.md, replayed against the engine, one
//! session per file.
//! Lines starting with `> ` are sent; the rest are the expected output. An expected line
//! `  ...` stands for any number of lines, and `...` within a line for any text.

use std::io::Write;
use std::process::Command;
use std::time::Duration;

use arbor::protocol::json::Message;

use crate::common;
use common::glob;

struct Example {
    input: String,
    expected: Vec<String>,
}

fn examples(doc: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut block: Option<Example> = None;
    for line in doc.lines() {
        if line.starts_with("```") {
            match block.take() {
                Some(example) if !example.input.is_empty() => examples.push(example),
                Some(_) => {}
                None => {
                    block = Some(Example {
                        input: String::new(),
                        expected: Vec::new(),
                    })
                }
            }
            continue;
        }
        if let Some(example) = block.as_mut() {
            if let Some(command) = line.strip_prefix("> ") {
                example.input.push_str(command);
                example.input.push('\n');
            } else if !line.starts_with("$ ") {
                example.expected.push(line.to_string());
            }
        }
    }
    examples
}

fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|line| glob(first, line)) && matches(rest, &actual[1..])
        }
    }
}

/// Whether an output line is a JSON reply; every JSON line must fit the schema.
fn json_reply(line: &str) -> bool {
    if !line.starts_with('{') {
        return false;
    }
    let message: Message = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("{line}: does not fit the JSON schema: {e}"));
    matches!(message, Message::Reply { .. })
}

#[test]
fn protocol_md_examples_match_the_engine() {
    replay("protocol.md", 15);
}

#[test]
fn readme_transcripts_match_the_engine() {
    replay("README.md", 3);
}

/// Replays every example exchange of `file` (at least `at_least` of them) in one session.
/// Each example is sent as one write and its replies are read before the next, so running
/// commands in one example are not cut short by the next example's `stop`.
fn replay(file: &str, at_least: usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let doc = std::fs::read_to_string(path).unwrap();
    let examples = examples(&doc);
    assert!(
        examples.len() >= at_least,
        "only {} examples found in {file}",
        examples.len()
    );
    let (mut child, stdin, received) =
        common::spawn_lines(Command::new(env!("CARGO_BIN_EXE_arbor")));
    let mut stdin = stdin.unwrap();
    for example in &examples {
        stdin.write_all(example.input.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let replies = example
            .input
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
            .count();
        let mut actual = Vec::new();
        let mut seen = 0;
        while seen < replies {
            let line = received
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| {
                    panic!("no reply to\n{}got\n{}", example.input, actual.join("\n"))
                });
            seen += (line.is_empty() || json_reply(&line)) as usize;
            actual.push(line);
        }
        let actual: Vec<&str> = actual.iter().map(String::as_str).collect();
        assert!(
            matches(&example.expected, &actual),
            "example\n{}\nexpected:\n{}\nactual:\n{}",
            example.input,
            example.expected.join("\n"),
            actual.join("\n")
        );
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(
        received.recv_timeout(Duration::from_secs(5)).is_err(),
        "output after the examples"
    );
}

/// A Gomocup session in protocol.md: a code block opening with `$ arbor gomocup`, then
/// `manager: ` lines (sent) and `brain: ` lines (expected, `...` as in the native
/// examples). The brain's search progress (`MESSAGE depth ...`) is not compared.
struct Session {
    input: String,
    expected: Vec<String>,
}

fn gomocup_sessions(doc: &str) -> Vec<Session> {
    let mut sessions = Vec::new();
    let mut block: Option<Session> = None;
    let mut in_code = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            if let Some(session) = block.take() {
                sessions.push(session);
            }
            continue;
        }
        if !in_code {
            continue;
        }
        if line.trim() == "$ arbor gomocup" {
            block = Some(Session {
                input: String::new(),
                expected: Vec::new(),
            });
        } else if let Some(session) = block.as_mut() {
            if let Some(command) = line.strip_prefix("manager: ") {
                session.input.push_str(command.trim());
                session.input.push('\n');
            } else if let Some(reply) = line.strip_prefix("brain: ") {
                session.expected.push(reply.trim().to_string());
            }
        }
    }
    sessions
}

#[test]
fn protocol_md_gomocup_sessions_match_the_brain() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let sessions = gomocup_sessions(&doc);
    assert!(
        !sessions.is_empty(),
        "no `$ arbor gomocup` session in protocol.md"
    );
    for session in &sessions {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command.arg("gomocup");
        let (mut child, stdin, received) = common::spawn_lines(command);
        let mut stdin = stdin.unwrap();
        stdin.write_all(session.input.as_bytes()).unwrap();
        drop(stdin);
        let mut actual = Vec::new();
        while let Ok(line) = received.recv_timeout(Duration::from_secs(60)) {
            if !line.starts_with("MESSAGE depth ") {
                actual.push(line);
            }
        }
        assert!(child.wait().unwrap().success());
        let actual: Vec<&str> = actual.iter().map(String::as_str).collect();
        assert!(
            matches(&session.expected, &actual),
            "session\n{}\nexpected:\n{}\nactual:\n{}",
            session.input,
            session.expected.join("\n"),
            actual.join("\n")
        );
    }
}
