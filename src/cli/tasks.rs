//! `arbor solve --jsonl`: Othello solving tasks read line by line, one JSON result per
//! line, for campaigns that split a game into many positions (book building, the weak
//! solution's task lists). A bad task gets an error line and the rest go on.

use std::collections::HashSet;
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::bounds;
use crate::game::othello::endgame::Solver;
use crate::game::othello::obf::parse_obf_line;
use crate::game::othello::search::DISC;
use crate::game::othello::{Othello, Rule};
use crate::game::roles::Solve;
use crate::game::{Game, Move, Side};
use crate::harness::campaign::Shard;
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;
use crate::text::quote;

/// Longest task line read, in bytes.
const MAX_LINE: usize = 64 * 1024;

/// A task as a JSON object.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskLine {
    /// Echoed in the result, to match results to tasks.
    #[serde(default)]
    id: Option<Value>,
    /// `<cells> <side>`: 16, 36 or 64 cells (`X`, `O`, `-`) and `X` or `O` to move.
    position: String,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    alpha: Option<i64>,
    #[serde(default)]
    beta: Option<i64>,
    /// A number of plies, or `"exact"` (the default).
    #[serde(default)]
    depth: Option<Value>,
}

#[derive(Debug, PartialEq)]
enum Depth {
    Exact,
    Plies(u32),
}

struct Task {
    /// [`task_key`]: what the task asks.
    key: String,
    id: Option<Value>,
    game: Othello,
    window: Option<(i32, i32)>,
    depth: Depth,
}

/// A result or error line, fields in this order; a field a task does not have is left
/// out (`score` is the depth-limited search's, `lower` and `upper` an exact solve's).
#[derive(Default, Serialize)]
struct Answer {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
    /// The task's window, echoed: a result names the question it answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    alpha: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    beta: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    /// Null when no move is proven (a fail-low or a finished game).
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// How the tasks are solved.
#[derive(Clone, Debug)]
pub struct Options {
    /// Memory for the solver (three quarters) and the depth-limited search, MiB.
    pub megabytes: usize,
    pub threads: usize,
    /// Moves of a node the solver searches alone before a split (Jamboree).
    pub jamboree: usize,
    /// The slice of the task lines this run takes (line N belongs to shard
    /// `(N - 1) mod count + 1`).
    pub shard: Shard,
    /// Tasks already answered (their [`task_key`]s): skipped without an answer.
    pub answered: HashSet<String>,
}

impl Options {
    /// `megabytes` MiB and `threads` threads, young brothers wait, every task.
    pub fn new(megabytes: usize, threads: usize) -> Options {
        Options {
            megabytes,
            threads,
            jamboree: 1,
            shard: Shard::WHOLE,
            answered: HashSet::new(),
        }
    }
}

/// What identifies a task's question: position, rule, window and depth (not its id or
/// line), so that a result answers every task that asks the same.
fn task_key(
    position: &str,
    rule: &str,
    alpha: Option<i64>,
    beta: Option<i64>,
    depth: &Value,
) -> String {
    format!("{position}|{rule}|{alpha:?}|{beta:?}|{depth}")
}

/// For `--resume`: the tasks a results file has answered (error lines do not count),
/// after cutting off an unfinished last line; whether one was cut.
pub fn answered(path: &Path) -> Result<(HashSet<String>, bool), String> {
    let name = path.display();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(format!("{name}: {error}")),
    };
    let complete = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |end| end + 1);
    let mut keys = HashSet::new();
    for (number, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        let place = || format!("{name}:{}", number + 1);
        let line = std::str::from_utf8(line).map_err(|_| format!("{}: not UTF-8", place()))?;
        if line.trim().is_empty() {
            continue;
        }
        let result: Value = serde_json::from_str(line)
            .map_err(|e| format!("{}: not a result line: {e}", place()))?;
        if result.get("error").is_some() {
            continue;
        }
        let (Some(position), Some(rule), Some(depth)) = (
            result.get("position").and_then(Value::as_str),
            result.get("rule").and_then(Value::as_str),
            result.get("depth"),
        ) else {
            return Err(format!(
                "{}: a result needs position, rule and depth",
                place()
            ));
        };
        let alpha = result.get("alpha").and_then(Value::as_i64);
        let beta = result.get("beta").and_then(Value::as_i64);
        keys.insert(task_key(position, rule, alpha, beta, depth));
    }
    let cut = complete < bytes.len();
    if cut {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|handle| handle.set_len(complete as u64))
            .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok((keys, cut))
}

/// Totals over the stream.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TasksReport {
    pub solved: usize,
    pub failed: usize,
    /// Tasks skipped as answered before (`--resume`) or in another shard.
    pub skipped: usize,
}

/// Reads tasks from `input` until it ends and writes a result or an error line for each
/// (blank and `%` lines are skipped), solving and searching as `options` say; tables
/// are kept from task to task, which changes node counts and times, never results.
pub fn run(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    options: &Options,
) -> Result<TasksReport, String> {
    // As in the engine core: no more threads than the cores run at once.
    let threads = crate::bounds::runnable_threads(options.threads);
    let megabytes = options.megabytes;
    let mut solver = Solver::try_new((megabytes - megabytes / 4) << 20)?;
    Othello::set_solver_threads(&mut solver, threads);
    solver.set_jamboree(options.jamboree);
    let mut searcher: Option<Searcher<Othello>> = None;
    let search_mb = (megabytes / 4).max(1);
    let mut report = TasksReport::default();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        let read = (&mut *input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("reading tasks: {e}"))?;
        if read == 0 {
            break;
        }
        if !options.shard.owns(number - 1) {
            // Another shard's line: read past it (long lines too).
            if bytes.len() > MAX_LINE && !bytes.ends_with(b"\n") {
                input
                    .read_until(b'\n', &mut Vec::new())
                    .map_err(|e| format!("reading tasks: {e}"))?;
            }
            report.skipped += 1;
            continue;
        }
        let mut result = Answer {
            line: number,
            ..Answer::default()
        };
        let outcome = if bytes.len() > MAX_LINE && !bytes.ends_with(b"\n") {
            // Skip the rest of the long line.
            let mut rest = Vec::new();
            input
                .read_until(b'\n', &mut rest)
                .map_err(|e| format!("reading tasks: {e}"))?;
            Err(format!("the line is longer than {MAX_LINE} bytes"))
        } else {
            match std::str::from_utf8(&bytes) {
                Err(_) => Err("the line is not UTF-8 text".to_string()),
                Ok(line) => match parse_task(line) {
                    Ok(None) => continue,
                    Ok(Some(task)) if options.answered.contains(&task.key) => {
                        report.skipped += 1;
                        continue;
                    }
                    Ok(Some(task)) => {
                        result.id.clone_from(&task.id);
                        solve_task(
                            &task,
                            &mut solver,
                            &mut searcher,
                            search_mb,
                            threads,
                            &mut result,
                        )
                    }
                    Err(error) => {
                        // An object's id is echoed even when the task is refused.
                        if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(line)
                            && let Some(id) = object.get("id")
                        {
                            result.id = Some(id.clone());
                        }
                        Err(error)
                    }
                },
            }
        };
        match outcome {
            Ok(()) => report.solved += 1,
            Err(error) => {
                report.failed += 1;
                result.error = Some(error);
            }
        }
        let line = serde_json::to_string(&result).expect("plain data serializes");
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| e.to_string())?;
    }
    Ok(report)
}

/// A task from an OBF line (an exact solve of an 8x8 position) or a JSON object; `None`
/// for a blank or comment line.
fn parse_task(line: &str) -> Result<Option<Task>, String> {
    let line = line.trim();
    if !line.starts_with('{') {
        return Ok(parse_obf_line(line)
            .map_err(|e| e.to_string())?
            .map(|position| Task {
                key: task_key(
                    &position.game.to_board_string(),
                    position.game.rule().name(),
                    None,
                    None,
                    &json!("exact"),
                ),
                id: None,
                game: position.game,
                window: None,
                depth: Depth::Exact,
            }));
    }
    let task: TaskLine = serde_json::from_str(line).map_err(|e| format!("bad task: {e}"))?;
    let rule = match task.rule.as_deref() {
        None => Rule::Normal,
        Some(rule) => rule.parse::<Rule>().map_err(|e| e.to_string())?,
    };
    let mut words = task.position.split_whitespace();
    let (Some(cells), Some(side), None) = (words.next(), words.next(), words.next()) else {
        return Err(format!(
            "position: expected '<cells> <side>', got {}",
            quote(&task.position)
        ));
    };
    let size = match cells.chars().count() {
        16 => 4,
        36 => 6,
        64 => 8,
        count => {
            return Err(format!(
                "position: {count} cells; a 4x4, 6x6 or 8x8 board has 16, 36 or 64"
            ));
        }
    };
    let side = Side::parse(side).ok_or_else(|| format!("position: bad side {}", quote(side)))?;
    let mut game = Othello::new(size, rule).map_err(|e| e.to_string())?;
    game.set_board(cells, side).map_err(|e| e.to_string())?;
    let squares = (size * size) as i64;
    let window = match (task.alpha, task.beta) {
        (None, None) => None,
        (Some(alpha), Some(beta)) => {
            if !(-squares..=squares).contains(&alpha) || !(-squares..=squares).contains(&beta) {
                return Err(format!(
                    "alpha {alpha} and beta {beta} must be within -{squares}..={squares}"
                ));
            }
            if alpha >= beta {
                return Err(format!("alpha {alpha} must be below beta {beta}"));
            }
            Some((alpha as i32, beta as i32))
        }
        _ => return Err("give both alpha and beta, or neither".into()),
    };
    let depth = match &task.depth {
        None => Depth::Exact,
        Some(Value::String(word)) if word == "exact" => Depth::Exact,
        Some(Value::Number(number)) => {
            let depth = bounds::number_in(&number.to_string(), 1, bounds::MAX_LEVEL as u64, "")
                .map_err(|e| format!("depth: {e}"))?;
            Depth::Plies(depth as u32)
        }
        Some(other) => {
            return Err(format!(
                "depth: expected a number of plies or \"exact\", got {}",
                quote(&other.to_string())
            ));
        }
    };
    // A search to the end is the exact solve; a finished game needs no search.
    let empties = game.empties().count_ones();
    let depth = match depth {
        Depth::Plies(plies) if plies < empties && game.outcome().is_none() => Depth::Plies(plies),
        _ => Depth::Exact,
    };
    if depth != Depth::Exact && window.is_some() {
        return Err(format!(
            "alpha and beta bound an exact solve; depth {} is below the {empties} empties",
            task.depth.as_ref().map_or(String::new(), Value::to_string)
        ));
    }
    let key = task_key(
        &game.to_board_string(),
        game.rule().name(),
        window.map(|w| w.0 as i64),
        window.map(|w| w.1 as i64),
        &match depth {
            Depth::Exact => json!("exact"),
            Depth::Plies(plies) => json!(plies),
        },
    );
    Ok(Some(Task {
        key,
        id: task.id,
        game,
        window,
        depth,
    }))
}

fn solve_task(
    task: &Task,
    solver: &mut Solver,
    searcher: &mut Option<Searcher<Othello>>,
    search_mb: usize,
    threads: usize,
    result: &mut Answer,
) -> Result<(), String> {
    let game = &task.game;
    result.position = Some(game.to_board_string());
    result.rule = Some(game.rule().name());
    result.alpha = task.window.map(|w| w.0);
    result.beta = task.window.map(|w| w.1);
    let start = Instant::now();
    match task.depth {
        Depth::Exact => {
            let (player, opponent, board) = (game.player(), game.opponent(), game.board());
            let squares = board.count_ones() as i32;
            let stop = Stop::never();
            solver.nodes = 0;
            let solved = match task.window {
                None => solver.solve(player, opponent, board, game.rule(), &stop),
                Some((alpha, beta)) => {
                    solver.solve_window(player, opponent, board, game.rule(), alpha, beta, &stop)
                }
            }
            .ok_or("the solve was stopped")?;
            // Fail-soft: a score at or below alpha is an upper bound, at or above beta a
            // lower bound; a move is proven only when the score is above alpha.
            let (alpha, beta) = task.window.unwrap_or((-squares - 1, squares + 1));
            let score = solved.score;
            let (lower, upper) = if score <= alpha {
                (-squares, score)
            } else if score >= beta {
                (score, squares)
            } else {
                (score, score)
            };
            let best = if score > alpha {
                best_name(game, solved.best)
            } else {
                Value::Null
            };
            result.depth = Some(json!("exact"));
            result.lower = Some(lower);
            result.upper = Some(upper);
            result.best = Some(best);
            result.nodes = Some(solver.nodes);
        }
        Depth::Plies(depth) => {
            if searcher.is_none() {
                let mut made = Searcher::new(game, search_mb)?;
                made.set_threads(threads);
                *searcher = Some(made);
            }
            let searcher = searcher.as_mut().expect("made above");
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let found = searcher.search_to(game, &limits, &Stop::never(), &mut |_| {});
            result.depth = Some(json!(depth));
            result.score = Some(found.score as f64 / DISC as f64);
            result.best = Some(json!(game.format_move(found.best)));
            result.nodes = Some(found.nodes);
        }
    }
    let ms = (start.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    result.ms = Some(ms);
    Ok(())
}

/// A solver's best square as a move name: `pass` when the side to move has none, null in
/// a finished game.
fn best_name(game: &Othello, best: Option<usize>) -> Value {
    match best {
        Some(square) => json!(game.format_move(Move::new(square as u16))),
        None if game.outcome().is_none() => json!("pass"),
        None => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(input: &str) -> Vec<Value> {
        let mut out = Vec::new();
        run(&mut input.as_bytes(), &mut out, &Options::new(4, 1)).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// A 4x4 position with four empties, Black to move: solved at once.
    const FOUR: &str = "-XXX-OOX-XOXXXO- X";

    #[test]
    fn windows_give_bounds_and_exact_scores() {
        let exact = &results(&format!("{{\"position\":\"{FOUR}\"}}\n"))[0];
        let score = exact["lower"].as_i64().unwrap();
        assert_eq!(exact["upper"], exact["lower"], "{exact}");
        assert!(exact["best"].is_string(), "{exact}");
        let task = |alpha: i64, beta: i64| {
            format!("{{\"id\":7,\"position\":\"{FOUR}\",\"alpha\":{alpha},\"beta\":{beta}}}\n")
        };
        // Below the window: a lower bound; above: an upper bound; around: exact.
        let low = &results(&task(score - 4, score - 2))[0];
        assert_eq!(low["upper"], 16, "{low}");
        assert!(low["lower"].as_i64().unwrap() >= score - 2, "{low}");
        assert!(low["lower"].as_i64().unwrap() <= score, "{low}");
        let high = &results(&task(score + 2, score + 4))[0];
        assert_eq!(high["lower"], -16, "{high}");
        assert!(high["upper"].as_i64().unwrap() <= score + 2, "{high}");
        assert!(high["upper"].as_i64().unwrap() >= score, "{high}");
        assert_eq!(high["best"], Value::Null);
        let around = &results(&task(score - 1, score + 1))[0];
        assert_eq!(
            (&around["lower"], &around["upper"]),
            (&json!(score), &json!(score))
        );
        assert_eq!(around["id"], 7);
    }

    /// A result echoes its window, and `answered` (from a results file) and a shard
    /// skip tasks without an answer; an unfinished last line is cut off.
    #[test]
    fn answered_tasks_and_other_shards_are_skipped() {
        let tasks = format!(
            "{{\"position\":\"{FOUR}\",\"alpha\":-3,\"beta\":3}}\n{{\"position\":\"{FOUR}\"}}\n"
        );
        let first = &results(&tasks)[0];
        assert_eq!((&first["alpha"], &first["beta"]), (&json!(-3), &json!(3)));
        let path = std::env::temp_dir().join(format!("arbor-answered-{}", std::process::id()));
        std::fs::write(&path, format!("{first}\n{{\"line\":2,\"posi")).unwrap();
        let (done, cut) = answered(&path).unwrap();
        assert!(cut && done.len() == 1);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{first}\n")
        );
        let _ = std::fs::remove_file(&path);
        let mut options = Options::new(4, 1);
        options.answered = done;
        let mut out = Vec::new();
        let report = run(&mut tasks.as_bytes(), &mut out, &options).unwrap();
        assert_eq!((report.solved, report.skipped), (1, 1));
        let line: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!((&line["line"], &line["alpha"]), (&json!(2), &Value::Null));
        options.answered.clear();
        options.shard = Shard::parse("2/2").unwrap();
        let mut out = Vec::new();
        let report = run(&mut tasks.as_bytes(), &mut out, &options).unwrap();
        assert_eq!((report.solved, report.skipped), (1, 1));
        let error = answered(Path::new("/")).unwrap_err();
        assert!(error.starts_with("/:"), "{error}");
    }

    #[test]
    fn bad_tasks_get_an_error_and_the_rest_go_on() {
        let input = format!(
            "% comment\n\n\
             {{\"id\":\"a\",\"position\":\"{FOUR}\",\"alpha\":3}}\n\
             {{\"position\":\"---- X\"}}\n\
             not obf\n\
             {{\"position\":\"{FOUR}\",\"depth\":0}}\n\
             {{\"position\":\"{FOUR}\",\"depth\":\"deep\"}}\n\
             {{\"position\":\"{FOUR}\",\"alpha\":5,\"beta\":5}}\n\
             {{\"position\":\"{FOUR}\",\"alpha\":-17,\"beta\":5}}\n\
             {{\"position\":\"{FOUR}\",\"colour\":1}}\n\
             {{\"position\":\"{FOUR}\",\"rule\":\"suicide\"}}\n\
             {{\"position\":\"{FOUR}\",\"depth\":2}}\n"
        );
        let results = results(&input);
        let errors: Vec<String> = results
            .iter()
            .map(|r| r["error"].as_str().unwrap_or("").to_string())
            .collect();
        let expected = [
            "give both alpha and beta",
            "4 cells; a 4x4, 6x6 or 8x8 board",
            "OBF: bad side 'obf'",
            "depth: 0 is outside 1..=60",
            "depth: expected a number of plies",
            "alpha 5 must be below beta 5",
            "must be within -16..=16",
            "unknown field `colour`",
            "suicide",
        ];
        assert_eq!(results.len(), expected.len() + 1, "{results:?}");
        for (error, expected) in errors.iter().zip(expected) {
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
        assert_eq!(results[0]["id"], "a");
        assert_eq!(results[0]["line"], 3);
        // The last, good task: 2 plies below 4 empties is a heuristic search.
        let last = results.last().unwrap();
        assert_eq!(last["depth"], 2, "{last}");
        assert!(
            last["score"].is_number() && last["lower"].is_null(),
            "{last}"
        );
        assert!(last["error"].is_null(), "{last}");
    }
}
