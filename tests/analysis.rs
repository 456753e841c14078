//! `arbor analysis` through its stdin/stdout: answers per turn, progress answers, errors
//! in the middle of a batch, the end of input.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

fn answers(queries: &str) -> Vec<Value> {
    answers_with(&[], queries)
}

fn answers_with(args: &[&str], queries: &str) -> Vec<Value> {
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
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
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
