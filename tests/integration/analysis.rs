//! `arbor analysis` through its stdin/stdout: answers per turn, progress answers, errors
//! in the middle of a batch, the end of input.

use std::io::Write;
use std::process::{Command, Stdio};

use arbor::protocol::json::LineJson;
use serde::Deserialize;
use serde_json::Value;

use crate::common;

/// The answers of `arbor analysis` as protocol.md documents them, typed and closed: an
/// answer with a field the documentation does not name, or without one it promises,
/// does not parse.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
#[allow(dead_code)] // an error answer is only parsed
enum Answer {
    Turn(TurnAnswer),
    Error(ErrorAnswer),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read through Debug and the checks below
struct TurnAnswer {
    id: Value,
    turn: usize,
    #[serde(rename = "final")]
    is_final: bool,
    side: String,
    depth: u32,
    exact: bool,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    lines: Vec<LineJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ErrorAnswer {
    id: Value,
    #[serde(default)]
    turn: Option<usize>,
    error: String,
}

/// Parses an answer line against the schema and checks what the types cannot: sides,
/// ranks, bounds, proofs, and that every line's first move is its `move`.
fn checked(line: &str) -> Answer {
    let answer: Answer =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: not an answer: {e}"));
    if let Answer::Turn(turn) = &answer {
        assert!(["black", "white"].contains(&turn.side.as_str()), "{line}");
        assert!(!turn.lines.is_empty(), "{line}");
        for (index, l) in turn.lines.iter().enumerate() {
            assert_eq!(l.rank, index + 1, "{line}");
            assert!(
                ["exact", "lower", "upper"].contains(&l.bound.as_str()),
                "{line}"
            );
            assert_eq!(l.exact, l.proof.is_some(), "{line}");
            assert!(l.pv.first().is_none_or(|mv| *mv == l.r#move), "{line}");
        }
        if turn.exact {
            assert!(turn.lines.iter().all(|l| l.exact), "{line}");
        }
    }
    answer
}

fn answers(queries: &str) -> Vec<Value> {
    answers_with(&[], queries)
}

fn answers_with(args: &[&str], queries: &str) -> Vec<Value> {
    raw_answers(args, queries)
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

/// The answer lines as written, each checked against the schema.
fn raw_answers(args: &[&str], queries: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["analysis", "--hash", "16"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(queries.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            checked(line);
            line.to_string()
        })
        .collect()
}

/// protocol.md's `arbor analysis` example, replayed: its queries (the quoted arguments
/// of its `printf`) sent, every documented answer matched (`...` for any text) and
/// parsed against the schema, like every answer the engine gives.
#[test]
fn the_documented_batch_example_replays() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let mut lines = doc.lines();
    let command = lines
        .find(|line| line.starts_with("$ printf") && line.contains("| arbor analysis"))
        .expect("protocol.md has an arbor analysis example");
    let (printed, args) = command.split_once("| arbor analysis").unwrap();
    let queries: Vec<&str> = printed
        .split('\'')
        .skip(3) // `$ printf '%s\n' `
        .step_by(2)
        .collect();
    assert!(queries.len() >= 3, "{queries:?}");
    let expected: Vec<&str> = lines.take_while(|line| !line.starts_with("```")).collect();
    let args: Vec<&str> = args.split_whitespace().collect();
    let actual = raw_answers(&args, &(queries.join("\n") + "\n"));
    assert_eq!(actual.len(), expected.len(), "{actual:#?}");
    for (pattern, line) in expected.iter().zip(&actual) {
        checked(pattern.replace("...", "0").as_str());
        assert!(
            common::glob(pattern, line),
            "documented\n{pattern}\ngot\n{line}"
        );
    }
}

/// Queries the engine could mistake: an empty `turns` (an error, never silence),
/// WTHOR-style moves without their passes, setup rows separated by spaces.
#[test]
fn empty_turns_missing_passes_and_spaced_setups() {
    // After Black's f4 White has no move; the record goes on with Black's e3, after
    // which White must pass again.
    let queries = [
        r#"{"id":1,"moves":["f5"],"turns":[]}"#,
        r#"{"id":2,"setup":{"cells":"XXXXXOXX XXOXXOXO XXXX-XXX OXXXO-XX XXXXXOXX XXXXXXXX XOXXXXOX OOO-XX-O","side":"black"},"moves":["f4","e3"],"turns":[0,1,2],"depth":2}"#,
        r#"{"id":3,"game":"tictactoe","options":{"size":4,"k":3},"multipv":"all"}"#,
    ]
    .join("\n");
    let answers = answers(&queries);
    assert_eq!(answers.len(), 5, "{answers:#?}");
    assert_eq!(answers[0]["id"], 1);
    assert!(
        answers[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("turns: empty"),
        "{}",
        answers[0]
    );
    for (answer, (turn, side)) in
        answers[1..4]
            .iter()
            .zip([(0, "black"), (1, "white"), (2, "white")])
    {
        assert_eq!(answer["id"], 2, "{answer}");
        assert_eq!(answer["turn"], turn, "{answer}");
        assert_eq!(answer["side"], side, "{answer}");
        assert_eq!(answer["final"], true, "{answer}");
    }
    assert_eq!(answers[2]["lines"][0]["move"], "pass");
    assert_eq!(answers[3]["lines"][0]["move"], "pass");
    // Every point of the empty 4x4 board, each proven.
    let lines = answers[4]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 16, "{}", answers[4]);
    assert!(
        lines.iter().all(|line| line["exact"] == true),
        "{}",
        answers[4]
    );
}

#[test]
fn a_batch_with_errors_in_the_middle_goes_on() {
    let queries = [
        r#"{"id":"a","moves":["f5","d6","c3"],"turns":[0,3,1],"depth":3,"multipv":2}"#,
        "this is not JSON",
        r#"{"id":2,"moves":["f5","a1"]}"#,
        r#"{"id":3,"depth":2,"colour":"red"}"#,
        r#"{"id":4,"game":"chess"}"#,
        r#"{"id":5,"moves":["f5"],"turns":[2]}"#,
        r#"{"id":6,"multipv":0}"#,
        "",
        r#"{"id":7,"game":"gomoku","options":{"size":9,"opening":"free"},"moves":["e5"],"depth":2,"multipv":"all"}"#,
        r#"{"id":8,"setup":{"cells":"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--","side":"black"},"multipv":"all"}"#,
    ]
    .join("\n");
    let answers = answers(&queries);
    let ids: Vec<String> = answers.iter().map(|a| a["id"].to_string()).collect();
    assert_eq!(
        ids,
        [
            "\"a\"", "\"a\"", "\"a\"", "null", "2", "3", "4", "5", "6", "7", "8"
        ],
        "{answers:#?}"
    );
    // Turns in order, each final, from the right side.
    for (answer, (turn, side)) in
        answers[..3]
            .iter()
            .zip([(0, "black"), (1, "white"), (3, "white")])
    {
        assert_eq!(answer["turn"], turn);
        assert_eq!(answer["side"], side);
        assert_eq!(answer["final"], true);
        assert_eq!(answer["depth"], 3);
        assert_eq!(answer["lines"].as_array().unwrap().len(), 2);
    }
    assert_eq!(answers[0]["lines"][0]["pv"].as_array().unwrap().len(), 3);
    assert!(
        answers[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("bad JSON")
    );
    assert_eq!(
        answers[4]["error"],
        "move 2 (a1): illegal move a1 for white"
    );
    assert!(
        answers[5]["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `colour`")
    );
    assert!(answers[6]["error"].as_str().unwrap().contains("chess"));
    assert_eq!(answers[7]["error"], "turn 2 is beyond the 1 moves given");
    assert_eq!(answers[8]["error"], "multipv: 0 is outside 1..=1000");
    // Every point the search considers on a small Gomoku board, best first.
    let lines = answers[9]["lines"].as_array().unwrap();
    assert!(lines.len() > 8, "{lines:?}");
    assert_eq!(answers[9]["side"], "white");
    // FFO #1: every move solved, as the published scores say.
    let lines = answers[10]["lines"].as_array().unwrap();
    let solved: Vec<(String, i64)> = lines
        .iter()
        .map(|line| {
            assert_eq!(line["score"]["kind"], "margin");
            (
                line["move"].as_str().unwrap().to_string(),
                line["score"]["value"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("g8", 18),
        ("h1", 12),
        ("a3", 4),
        ("b1", -4),
        ("a4", -22),
        ("g2", -24),
    ];
    for (mv, score) in expected {
        assert!(solved.contains(&(mv.to_string(), score)), "{solved:?}");
    }
    assert_eq!(solved.len(), 8);
    assert_eq!(answers[10]["exact"], true);
}

#[test]
fn progress_answers_come_before_the_final_one() {
    let answers =
        answers(r#"{"id":1,"moves":["f5","d6"],"time_ms":400,"report_every_ms":50,"multipv":3}"#);
    let (last, progress) = answers.split_last().unwrap();
    assert_eq!(last["final"], true);
    assert!(progress.len() >= 3, "{answers:?}");
    for answer in progress {
        assert_eq!(answer["final"], false);
        assert_eq!(answer["turn"], 2);
        assert_eq!(answer["lines"].as_array().unwrap().len(), 3);
    }
}

/// `--threads` as `arbor analysis` takes it: each turn gets its final answer.
#[test]
fn with_two_threads_every_turn_is_answered() {
    let query = r#"{"id":1,"moves":["f5"],"turns":[0,1],"depth":4,"multipv":2}"#;
    let answers = answers_with(&["--threads", "2"], query);
    assert_eq!(answers.len(), 2, "{answers:#?}");
    for (answer, (turn, legal)) in answers
        .iter()
        .zip([(0, ["d3", "c4", "f5", "e6"]), (1, ["d6", "f4", "f6", "-"])])
    {
        assert_eq!(answer["turn"], turn, "{answer}");
        assert_eq!(answer["final"], true, "{answer}");
        assert_eq!(answer["depth"], 4, "{answer}");
        let lines = answer["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 2, "{answer}");
        for line in lines {
            let mv = line["move"].as_str().unwrap();
            assert!(legal.contains(&mv), "{answer}");
        }
    }
}
