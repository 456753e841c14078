//! `arbor match --opening swap2`: arbor engines in the native and the Gomocup protocol
//! decide the opening and the colours, the records replay, and the JSON lines resume and
//! merge.

use std::path::Path;
use std::process::Command;

use arbor::game::gomoku::{Config, Gomoku, Opening};
use arbor::game::{Game, Side};

const ARBOR: &str = env!("CARGO_BIN_EXE_arbor");

/// Runs `arbor match` with `args`; its stdout (it must succeed).
fn run(args: &[&str]) -> String {
    let output = Command::new(ARBOR)
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn word_after<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(key)
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

/// Checks a pair's records: the Swap2 decisions are there, each game's proposer is the
/// other one's other engine, and the setup and moves replay legally to the result.
fn check_records(records: &str, config: Config, names: [&str; 2]) {
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(lines.len(), 2, "{records}");
    let mut proposers = Vec::new();
    for line in lines {
        let swap2 = line
            .split(" swap2 \"")
            .nth(1)
            .and_then(|rest| rest.split_once('"'))
            .map(|(text, _)| text)
            .unwrap_or_else(|| panic!("no swap2 in {line}"));
        let (proposer, decisions) = swap2.split_once(": ").unwrap();
        proposers.push(proposer.to_string());
        let decisions: Vec<&str> = decisions.split("; ").collect();
        assert!((2..=3).contains(&decisions.len()), "{line}");
        assert_eq!(decisions[0].split_whitespace().count(), 3, "{line}");
        let (head, moves) = line.split_once(" moves ").unwrap();
        let setup = head.rsplit(" setup ").next().unwrap();
        let stones: Vec<&str> = setup.split(',').collect();
        let placed: Vec<&str> = decisions
            .iter()
            .filter(|d| **d != "swap")
            .flat_map(|d| d.split_whitespace())
            .collect();
        assert_eq!(stones, placed, "{line}");
        let mut game = Gomoku::new(config).unwrap();
        for text in stones.iter().copied().chain(moves.split_whitespace()) {
            let mv = game.parse_move(text).unwrap();
            assert!(game.is_legal(mv), "{text} in {line}");
            game.make(mv);
        }
        let ending = head.split(" ending \"").nth(1).unwrap();
        if ending.starts_with("over") {
            let expected = match game.outcome().expect("finished").winner {
                Some(Side::Black) => "1-0",
                Some(Side::White) => "0-1",
                None => "1/2-1/2",
            };
            assert_eq!(word_after(head, " result "), expected, "{line}");
        }
        // The proposer plays the colour the decisions give it.
        let black = word_after(head, " black ");
        let proposer_black = match decisions.as_slice() {
            [_, "swap"] => false,
            [_, _] => true,
            [_, _, "swap"] => true,
            _ => false,
        };
        assert_eq!(black == proposer, proposer_black, "{line}");
    }
    proposers.sort();
    assert_eq!(proposers, names.map(String::from), "{records}");
}

/// Two native arbor engines (one playing random moves after deciding by search): the
/// pair's games alternate who proposes; records and JSON lines keep the decisions; a
/// resumed run has nothing left to play and `merge` tallies the pair.
#[test]
fn native_engines_decide_swap2_openings() {
    let dir = std::env::temp_dir().join(format!("arbor-swap2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("records.txt");
    let jsonl = dir.join("pairs.jsonl");
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let random = format!("cmd={ARBOR} --player random --seed 3");
    let base = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "--engine",
            "name=a",
            &format!("cmd={ARBOR} --hash 16"),
            "--engine",
            "name=b",
            &random,
            "--game",
            "gomoku",
            "--opening",
            "swap2",
            "--nodes",
            "400",
            "--rounds",
            "1",
        ]
        .map(String::from)
        .to_vec();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let args = base(&["--records", &path(&records), "--jsonl", &path(&jsonl)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stdout = run(&args);
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{stdout}");
    assert!(games[0].contains(" swap2 a: "), "{stdout}");
    assert!(games[1].contains(" swap2 b: "), "{stdout}");
    let records_text = std::fs::read_to_string(&records).unwrap();
    check_records(
        &records_text,
        Config::gomoku(15, false, Opening::Free),
        ["a", "b"],
    );
    let pairs = std::fs::read_to_string(&jsonl).unwrap();
    assert!(pairs.contains(r#""opening":"swap2""#), "{pairs}");
    assert!(
        pairs.contains(r#""swap2":{"proposer":"a","decisions":["#),
        "{pairs}"
    );
    assert!(
        pairs.contains(r#""swap2":{"proposer":"b","decisions":["#),
        "{pairs}"
    );
    // Resuming finds the pair played; merging tallies it.
    let args = base(&["--resume", &path(&jsonl)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let resumed = run(&args);
    assert!(
        resumed.contains("resumed 1 pairs (2 games) from the JSON-lines file; 0 games to play"),
        "{resumed}"
    );
    let merged = run(&["merge", &path(&jsonl)]);
    assert!(merged.contains("merged 1 of 1 pairs (2 games)"), "{merged}");
    // A run without Swap2 is another match.
    let other = Command::new(ARBOR)
        .args([
            "match",
            "--engine",
            "name=a",
            &format!("cmd={ARBOR} --hash 16"),
        ])
        .args(["--engine", "name=b", &random, "--game", "gomoku"])
        .args(["--opening", "free", "--nodes", "400", "--rounds", "1"])
        .args(["--resume", &path(&jsonl)])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(stderr.contains("opening swap2 vs as scheduled"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arbor gomocup` brains (renju): `SWAP2BOARD` decisions, then the game from `BOARD`.
#[test]
fn gomocup_brains_decide_swap2_openings_under_renju() {
    let dir = std::env::temp_dir().join(format!("arbor-swap2-gomocup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("records.txt");
    let brain = format!("cmd={ARBOR} gomocup");
    let stdout = run(&[
        "--engine",
        "name=x",
        &brain,
        "proto=gomocup",
        "--engine",
        "name=y",
        &format!("cmd={ARBOR} gomocup --threads 1"),
        "proto=gomocup",
        "--rule",
        "renju",
        "--opening",
        "swap2",
        "--nodes",
        "400",
        "--rounds",
        "1",
        "--records",
        records.to_str().unwrap(),
    ]);
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{stdout}");
    assert!(games.iter().all(|g| g.contains("(over ")), "{stdout}");
    let records_text = std::fs::read_to_string(&records).unwrap();
    assert!(
        records_text.contains("rule=renju opening=free"),
        "{records_text}"
    );
    check_records(&records_text, Config::renju(15, Opening::Free), ["x", "y"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Swap2 needs Gomoku, a free board, no openings, and engines whose protocol has it.
#[test]
fn swap2_is_refused_where_it_cannot_be_played() {
    let a = format!("cmd={ARBOR}");
    let two = ["--engine", "name=a", &a, "--engine", "name=b", &a];
    for (extra, expected) in [
        (
            &["--opening", "swap2"][..],
            "--opening swap2 is a Gomoku opening",
        ),
        (
            &["--game", "pente", "--opening", "swap2"],
            "--opening swap2 is a Gomoku opening",
        ),
        (
            &[
                "--game",
                "gomoku",
                "--opening",
                "swap2",
                "--random-openings",
                "2",
            ],
            "--openings and --random-openings do not apply",
        ),
    ] {
        let output = Command::new(ARBOR)
            .arg("match")
            .args(two)
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{extra:?} played");
    }
    let output = Command::new(ARBOR)
        .args(["match", "--engine", "name=a", &a])
        .args([
            "--engine",
            "name=g",
            &format!("cmd={ARBOR} gtp"),
            "proto=gtp",
        ])
        .args(["--game", "gomoku", "--opening", "swap2", "--movetime", "50"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("engine 'g': proto=gtp has no Swap2 decisions"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}
