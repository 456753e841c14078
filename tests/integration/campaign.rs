//! Sharded and resumed matches: shards merged, and a run resumed after a kill, equal the
//! unsharded run game for game; `arbor match merge` and `--resume` refuse files that are
//! not one match's, and drop an unfinished last line. `arbor selfplay` from the command
//! line: its shards join into the whole file, and other arguments are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ARBOR: &str = env!("CARGO_BIN_EXE_arbor");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-campaign-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A deterministic 6x6 match: searches to depth 2 against the greedy player, from 7
/// random openings (7 pairs, 14 games).
fn match_command(extra: &[&str]) -> Command {
    let mut command = Command::new(ARBOR);
    command
        .args(["match", "--game", "othello", "--size", "6", "--depth", "2"])
        .args(["--random-openings", "4", "--rounds", "7", "--seed", "5"])
        .args(["--engine", "name=search", &format!("cmd={ARBOR}")])
        .args([
            "--engine",
            "name=greedy",
            &format!("cmd={ARBOR} --player greedy --seed 3"),
        ])
        .args(extra);
    command
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

fn merge(files: &[&Path], extra: &[&str]) -> Output {
    Command::new(ARBOR)
        .args(["match", "merge"])
        .args(files)
        .args(extra)
        .output()
        .unwrap()
}

/// From the table's header on: what a run and a merge both print.
fn summary(stdout: &str) -> &str {
    &stdout[stdout.find("engine ").expect(stdout)..]
}

/// Each game as `number result moves`, in game order, from JSON-lines files.
fn games(files: &[&Path]) -> Vec<String> {
    let mut games = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(file).unwrap().lines() {
            let pair: serde_json::Value = serde_json::from_str(line).unwrap();
            for game in pair["games"].as_array().unwrap() {
                games.push(format!(
                    "{:>3} {} {} {} {}",
                    game["number"], game["black"], game["setup"], game["result"], game["moves"]
                ));
            }
        }
    }
    games.sort();
    games
}

#[test]
fn four_shards_merged_equal_the_unsharded_run() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let stdout = run(match_command(&["--jsonl", whole.to_str().unwrap()])
        .arg("--concurrency")
        .arg("2"));
    let mut shards = Vec::new();
    for index in 1..=4 {
        let file = dir.join(format!("shard{index}.jsonl"));
        run(&mut match_command(&[
            "--shard",
            &format!("{index}/4"),
            "--jsonl",
            file.to_str().unwrap(),
        ]));
        shards.push(file);
    }
    let shards: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let expected = games(&[&whole]);
    assert_eq!(expected.len(), 14);
    assert_eq!(games(&shards), expected);
    let merged = merge(&shards, &[]);
    let merged = String::from_utf8(merged.stdout).unwrap();
    assert!(
        merged.starts_with("merged 7 of 7 pairs (14 games) from 4 files\n"),
        "{merged}"
    );
    assert_eq!(summary(&merged), summary(&stdout));
    assert!(summary(&stdout).contains("\npairs ["), "{stdout}");
    // The SPRT over all pairs (a test that does not stop the unsharded run early).
    let sprt = ["--sprt", "elo0=0", "elo1=5"];
    let whole_sprt = run(&mut match_command(&sprt));
    let merged = String::from_utf8(merge(&shards, &sprt).stdout).unwrap();
    assert!(merged.ends_with(": no decision yet\n"), "{merged}");
    assert_eq!(summary(&merged), summary(&whole_sprt));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_resumed_loses_and_repeats_no_game() {
    let dir = scratch("resume");
    let whole = dir.join("whole.jsonl");
    let stdout = run(&mut match_command(&["--jsonl", whole.to_str().unwrap()]));
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // A run killed after three pairs, while writing the fourth.
    let cut = dir.join("cut.jsonl");
    let partial = &lines[3][..lines[3].len() / 2];
    std::fs::write(&cut, format!("{}\n{partial}", lines[..3].join("\n"))).unwrap();
    let merged = merge(&[&cut], &[]);
    assert!(merged.status.success());
    assert!(
        String::from_utf8_lossy(&merged.stderr).contains("the last line is unfinished"),
        "{merged:?}"
    );
    assert!(
        String::from_utf8_lossy(&merged.stdout)
            .starts_with("merged 3 of 7 pairs (6 games) from 1 file;")
    );
    let resumed = run(&mut match_command(&["--resume", cut.to_str().unwrap()]));
    assert!(
        resumed.starts_with(
            "resumed 3 pairs (6 games) from the JSON-lines file (an unfinished last line was \
             cut off); 8 games to play\n"
        ),
        "{resumed}"
    );
    assert_eq!(
        resumed.lines().filter(|l| l.starts_with("game ")).count(),
        8
    );
    assert_eq!(summary(&resumed), summary(&stdout));
    assert_eq!(games(&[&cut]), games(&[&whole]));
    // Resuming a finished file plays nothing.
    let again = run(&mut match_command(&["--resume", cut.to_str().unwrap()]));
    assert!(
        again.starts_with("resumed 7 pairs (14 games) from the JSON-lines file; 0 games to play\n"),
        "{again}"
    );
    assert_eq!(summary(&again), summary(&stdout));
    // A real kill: whatever it cut short, resuming completes the match exactly once.
    let killed = dir.join("killed.jsonl");
    let mut child = match_command(&["--jsonl", killed.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let written = || std::fs::read_to_string(&killed).unwrap_or_default();
    let start = std::time::Instant::now();
    while written().lines().count() < 1 && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let pairs = written().lines().count();
    assert!((1..7).contains(&pairs), "killed after {pairs} pairs");
    run(&mut match_command(&["--resume", killed.to_str().unwrap()]));
    assert_eq!(games(&[&killed]), games(&[&whole]));
    let _ = std::fs::remove_dir_all(&dir);
}

fn refused(output: Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(expected), "expected {expected:?}: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn files_from_other_matches_and_broken_lines_are_refused() {
    let dir = scratch("refused");
    let whole = dir.join("whole.jsonl");
    run(&mut match_command(&["--jsonl", whole.to_str().unwrap()]));
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, content: &str| {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path
    };
    let first = write("first.jsonl", &format!("{}\n", lines[0]));
    let other_seed = lines[1].replacen("\"openings\":\"", "\"openings\":\"0", 1);
    let other = write("other.jsonl", &format!("{other_seed}\n"));
    refused(
        merge(&[&first, &other], &[]),
        "other.jsonl:1: the pair is from another match than",
    );
    refused(merge(&[&first, &first], &[]), "pair 0 is in");
    let broken = write(
        "broken.jsonl",
        &format!("{}\n{{\"match\": 1\n{}\n", lines[0], lines[1]),
    );
    refused(merge(&[&broken], &[]), "broken.jsonl:2: ");
    let wrong = lines[0].replacen("\"pentanomial\":", "\"pentanomial\":1", 1);
    let wrong = write("wrong.jsonl", &format!("{wrong}\n"));
    refused(merge(&[&wrong], &[]), "does not match the pair's results");
    let moved = lines[0].replacen("\"pair\":0", "\"pair\":1", 1);
    let moved = write("moved.jsonl", &format!("{moved}\n"));
    refused(
        merge(&[&moved], &[]),
        "pair 1 must be games 3 and 4, not 1 and 2",
    );
    let empty = write("empty.jsonl", "");
    refused(merge(&[&empty], &[]), "the files hold no finished pair");
    refused(merge(&[&dir.join("missing.jsonl")], &[]), "missing.jsonl: ");
    refused(
        merge(&[&first], &["--sprt", "alpha=2"]),
        "alpha must be between 0 and 1",
    );
    // The match's own options.
    refused(
        match_command(&["--jsonl", whole.to_str().unwrap()])
            .output()
            .unwrap(),
        "the file exists: --resume",
    );
    refused(
        match_command(&["--resume", other.to_str().unwrap()])
            .output()
            .unwrap(),
        ":1: the pair is from another match (other openings",
    );
    let second = write("second.jsonl", &format!("{}\n", lines[1]));
    refused(
        match_command(&["--shard", "1/2", "--resume", second.to_str().unwrap()])
            .output()
            .unwrap(),
        "pair 1 is not in shard 1/2",
    );
    refused(
        match_command(&["--shard", "1/2", "--sprt", "elo1=5"])
            .output()
            .unwrap(),
        "give --sprt to `arbor match merge`",
    );
    refused(
        match_command(&["--shard", "3/2"]).output().unwrap(),
        "outside 1..=2",
    );
    refused(
        match_command(&["--shard", "x"]).output().unwrap(),
        "expected I/N",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arbor solve --jsonl`: a result line per task, in order, an error line for a bad one,
/// and the stream goes on; with one thread or two, the same proven bounds.
#[test]
fn solve_tasks_from_stdin_answer_line_by_line() {
    let one = solve_tasks("1");
    let two = solve_tasks("2");
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(
            (&a["lower"], &a["upper"]),
            (&b["lower"], &b["upper"]),
            "{a} {b}"
        );
    }
}

fn solve_tasks(threads: &str) -> Vec<serde_json::Value> {
    use std::io::Write;
    let mut child = Command::new(ARBOR)
        .args(["solve", "--jsonl", "--hash", "16", "--threads", threads])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let four = "-XXX-OOX-XOXXXO- X";
    let six = "--OOO-X-XOO-XXXXOXXXXXOOXXXOOO-XXXX- O";
    write!(
        child.stdin.take().unwrap(),
        "{{\"id\":1,\"position\":\"{four}\"}}\n{{\"id\":2,\"position\":\"{four}\",\"beta\":3}}\n\
         {{\"id\":3,\"position\":\"{six}\",\"alpha\":-2,\"beta\":2}}\n{{\"id\":4,\"position\":\"{six}\",\"depth\":2}}\n"
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let results: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(results.len(), 4, "{results:?}");
    for (index, result) in results.iter().enumerate() {
        assert_eq!(result["id"], index + 1, "{result}");
        assert_eq!(result["line"], index + 1, "{result}");
    }
    assert_eq!(results[0]["lower"], results[0]["upper"], "{}", results[0]);
    assert!(results[0]["nodes"].as_u64().unwrap() > 0);
    assert!(results[0]["ms"].is_number());
    assert!(
        results[1]["error"]
            .as_str()
            .unwrap()
            .contains("give both alpha and beta")
    );
    assert!(results[2]["error"].is_null(), "{}", results[2]);
    assert_eq!(results[3]["depth"], 2, "{}", results[3]);
    assert!(results[3]["score"].is_number(), "{}", results[3]);
    results
}

/// `arbor selfplay`'s shards, each run as a command, join into the one-process file; the
/// same command again plays nothing; a file of other arguments is refused.
#[test]
fn selfplay_shards_join_into_the_whole_file() {
    let dir = scratch("selfplay");
    let selfplay_with = |nodes: &str, extra: &[&str]| {
        let mut command = Command::new(ARBOR);
        command
            .args(["selfplay", "--games", "3", "--seed", "11", "--nodes", nodes])
            .args(["--hash", "1", "--threads", "2"])
            .args(extra);
        command
    };
    let selfplay = |extra: &[&str]| selfplay_with("200", extra);
    let whole = dir.join("whole.txt");
    let printed = run(&mut selfplay(&["--out", whole.to_str().unwrap()]));
    assert!(printed.starts_with("selfplay: 3 games in "), "{printed}");
    let mut joined = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.join(format!("shard-{}.txt", &shard[..1]));
        run(&mut selfplay(&[
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ]));
        joined.extend(std::fs::read(&out).unwrap());
    }
    assert_eq!(joined, std::fs::read(&whole).unwrap());
    let again = run(&mut selfplay(&["--out", whole.to_str().unwrap()]));
    assert!(
        again.contains("0 played") && again.contains("3 were there already"),
        "{again}"
    );
    let other = selfplay_with("300", &["--out", whole.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("other arguments (nodes 200 (now 300))"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// FFO #1, #2, #3 and #13 (14 to 16 empties) with the scores the suite lists.
const FFO_SMALL: &str = "\
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;
----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X; D1:+2; G3:+0; B8:-2; B1:-4; C1:-4; A2:-4; A3:-6; B2:-12;
--XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X; B7:+14; A4:+0; A3:-8; B1:-18; G8:-20; H7:-20; A2:-24;
";

/// The best score and best moves each line lists.
fn listed(obf: &str) -> Vec<(i32, Vec<String>)> {
    obf.lines()
        .map(|line| {
            let scores: Vec<(String, i32)> = line
                .split(';')
                .skip(1)
                .filter_map(|part| part.trim().split_once(':'))
                .map(|(mv, score)| (mv.to_ascii_lowercase(), score.parse().unwrap()))
                .collect();
            let best = scores.iter().map(|s| s.1).max().unwrap();
            let moves = scores.into_iter().filter(|s| s.1 == best).map(|s| s.0);
            (best, moves.collect())
        })
        .collect()
}

/// `arbor solve split`, `arbor solve --jsonl --resume` and `arbor solve merge`, round
/// after round: a window every position fails (its score is below it) is widened and
/// the tasks it leaves undecided are solved again; the merged scores are the one-process
/// solve's and the suite's, each best move one the suite lists as best.
#[test]
fn a_split_campaign_merges_to_the_whole_solve() {
    let dir = scratch("split");
    let obf = dir.join("ffo.obf");
    std::fs::write(&obf, FFO_SMALL).unwrap();
    let whole = run(Command::new(ARBOR)
        .args(["solve", "--hash", "16", "--threads", "1"])
        .arg(&obf));
    let split = run(Command::new(ARBOR)
        .args(["solve", "split", "--depth", "2", "--window", "20,30"])
        .arg(&obf));
    std::fs::write(dir.join("round-1.jsonl"), &split).unwrap();
    let results = dir.join("results.jsonl");
    let mut round = 1;
    let merged = loop {
        let tasks = dir.join(format!("round-{round}.jsonl"));
        let next = dir.join(format!("round-{}.jsonl", round + 1));
        let mut solve = Command::new(ARBOR);
        solve
            .args([
                "solve",
                "--jsonl",
                "--hash",
                "16",
                "--threads",
                "2",
                "--jamboree",
                "2",
            ])
            .arg("--resume")
            .arg(&results)
            .stdin(std::fs::File::open(&tasks).unwrap());
        run(&mut solve);
        let merged = run(Command::new(ARBOR)
            .args(["solve", "merge"])
            .arg(&tasks)
            .arg(&results)
            .arg("--next")
            .arg(&next));
        if !next.exists() {
            break merged;
        }
        round += 1;
        assert!(round < 20, "{merged}");
    };
    assert!(round > 1, "the failed window took more rounds: {merged}");
    assert!(merged.contains("all exact"), "{merged}");
    let solved: Vec<&str> = whole.lines().filter(|l| l.starts_with("line ")).collect();
    // Round 1's task file names every root: merged with all the results, each is exact.
    let out = run(Command::new(ARBOR)
        .args(["solve", "merge"])
        .arg(dir.join("round-1.jsonl"))
        .arg(&results));
    assert!(out.contains("merged 4 roots: all exact"), "{out}");
    let found: Vec<&str> = out.lines().filter(|l| l.contains(" exact ")).collect();
    let listed = listed(FFO_SMALL);
    assert_eq!(found.len(), 4, "{found:?}");
    for (index, ((score, moves), solved)) in listed.iter().zip(&solved).enumerate() {
        let name = format!("ffo.obf:{} ", index + 1);
        let line = found.iter().find(|l| l.starts_with(&name)).expect(&name);
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[2], format!("{score:+}"), "{line}");
        assert!(
            moves.contains(&words[4].to_string()),
            "{line}: best {moves:?}"
        );
        assert!(line.ends_with("ok"), "{line}");
        let words: Vec<&str> = solved.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "score").unwrap();
        assert_eq!(words[at + 1], format!("{score:+}"), "{solved}");
    }
    // Solving a round again answers nothing new.
    let mut again = Command::new(ARBOR);
    again
        .args([
            "solve",
            "--jsonl",
            "--hash",
            "16",
            "--threads",
            "1",
            "--resume",
        ])
        .arg(&results)
        .stdin(std::fs::File::open(dir.join("round-1.jsonl")).unwrap());
    let output = again.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("solved 0 tasks"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arbor solve campaign` does the rounds on one machine; cut short (a results file
/// whose last line is unfinished) and run again, it resumes and ends with the same
/// scores; shards of a task file together answer every task once.
#[test]
fn a_one_machine_campaign_resumes() {
    let dir = scratch("one-machine");
    let obf = dir.join("ffo.obf");
    std::fs::write(
        &obf,
        FFO_SMALL.lines().take(2).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    let campaign = |args: &[&str]| {
        run(Command::new(ARBOR)
            .args([
                "solve",
                "campaign",
                "--depth",
                "1",
                "--hash",
                "16",
                "--threads",
                "1",
            ])
            .args(args)
            .arg("--dir")
            .arg(dir.join("c"))
            .arg(&obf))
    };
    let first = campaign(&[]);
    assert!(
        first.contains("ffo.obf:1  exact +18  best g8  expected +18 ok"),
        "{first}"
    );
    assert!(
        first.contains("ffo.obf:2  exact +10  best a4  expected +10 ok"),
        "{first}"
    );
    // Cut the results short in the middle of a line, and drop the later rounds.
    let results = dir.join("c").join("results.jsonl");
    let text = std::fs::read_to_string(&results).unwrap();
    let cut = text.lines().next().unwrap().len() + 10;
    std::fs::write(&results, &text[..cut]).unwrap();
    for round in 2..10 {
        let _ = std::fs::remove_file(dir.join("c").join(format!("round-{round}.jsonl")));
    }
    let again = campaign(&[]);
    assert!(
        again.contains("an unfinished last line was cut off"),
        "{again}"
    );
    assert!(again.contains("ffo.obf:1  exact +18"), "{again}");
    assert!(again.contains("ffo.obf:2  exact +10"), "{again}");
    // Shards: two runs over one task file answer each task once.
    let tasks = dir.join("c").join("round-1.jsonl");
    let count = std::fs::read_to_string(&tasks)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('{'))
        .count();
    let mut lines = 0;
    for shard in ["1/2", "2/2"] {
        let out = run(Command::new(ARBOR)
            .args([
                "solve",
                "--jsonl",
                "--hash",
                "16",
                "--threads",
                "1",
                "--shard",
                shard,
            ])
            .stdin(std::fs::File::open(&tasks).unwrap()));
        lines += out.lines().count();
    }
    assert_eq!(lines, count);
    // Bad input: a clear error, never a panic.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "% arbor-split {\"name\":1}\n").unwrap();
    let output = Command::new(ARBOR)
        .args(["solve", "merge"])
        .arg(&bad)
        .arg(&results)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("bad.jsonl:1: bad split header"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
