//! `arbor solve split`, `arbor solve merge` and `arbor solve campaign`: positions split
//! into tasks a few plies down for `arbor solve --jsonl` (on one machine, or on many
//! under the Ray runner), and the results merged back into exact scores and best moves
//! (the logic is in `game::othello::campaign`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::files;
use crate::game::Game;
use crate::game::othello::Othello;
use crate::game::othello::campaign::{self, Added, Known, Root, Tree};
use crate::game::othello::obf::parse_obf_line;
use crate::game::othello::search::DISC;
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;

/// How positions are split.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// Plies from each root to its tasks.
    pub depth: u32,
    /// The root window; `None` centres one on a search's estimate.
    pub window: Option<(i32, i32)>,
    /// Discs on either side of the estimate the window covers.
    pub width: i32,
    /// Depth of the search that estimates each root's score.
    pub estimate_depth: u32,
    /// Memory for that search, MiB.
    pub hash_mb: usize,
}

/// `A,B` or `A:B`: a window, alpha below beta.
pub fn parse_window(text: &str) -> Result<(i32, i32), String> {
    let (alpha, beta) = text
        .split_once([',', ':'])
        .ok_or_else(|| format!("expected ALPHA,BETA such as -3,3, got {text:?}"))?;
    let number = |word: &str| {
        word.trim()
            .parse::<i32>()
            .map_err(|_| format!("{word:?} is not a whole number of discs"))
    };
    let (alpha, beta) = (number(alpha)?, number(beta)?);
    if alpha >= beta || alpha < -64 || beta > 64 {
        return Err(format!(
            "the window {alpha},{beta}: alpha must be below beta, both within -64..=64"
        ));
    }
    Ok((alpha, beta))
}

/// Positions named `FILE:LINE`, with the score their file lists.
type Named = Vec<(String, Othello, Option<i32>)>;

/// The roots of an OBF file, named `FILE:LINE`; bad lines go to `errors` as `FILE:LINE:
/// message` and are counted.
fn roots_of(path: &Path, errors: &mut dyn Write) -> Result<(Named, usize), String> {
    let text = files::read_text(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    let mut roots = Vec::new();
    let mut bad = 0;
    for (number, line) in files::strip_bom(&text).lines().enumerate() {
        let place = format!("{}:{}", path.display(), number + 1);
        match parse_obf_line(line) {
            Ok(None) => {}
            Ok(Some(position)) if position.game.outcome().is_some() => {
                bad += 1;
                writeln!(errors, "{place}: the game is over: neither side has a move")
                    .map_err(|e| e.to_string())?;
            }
            Ok(Some(position)) => {
                let expected = position.best_score();
                roots.push((format!("{name}:{}", number + 1), position.game, expected));
            }
            Err(error) => {
                bad += 1;
                writeln!(errors, "{place}: {error}").map_err(|e| e.to_string())?;
            }
        }
    }
    Ok((roots, bad))
}

/// The round-1 task lines of every position of the OBF file `path`: per root a header,
/// then its tasks. Bad lines are reported on `errors` and left out; it fails when one
/// was bad or none is left.
pub fn split(
    path: &Path,
    options: &SplitOptions,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> Result<(), String> {
    if options.depth == 0 || options.depth > campaign::MAX_DEPTH {
        return Err(format!(
            "--depth {} is outside 1..={}",
            options.depth,
            campaign::MAX_DEPTH
        ));
    }
    let (roots, bad) = roots_of(path, errors)?;
    if roots.is_empty() {
        return Err(format!("{}: no positions to split", path.display()));
    }
    let mut searcher: Option<Searcher<Othello>> = None;
    for (name, game, expected) in roots {
        let squares = game.board().count_ones() as i32;
        let (alpha, beta) = match options.window {
            Some(window) => window,
            None => {
                let searcher = match &mut searcher {
                    Some(searcher) => searcher,
                    None => searcher.insert(Searcher::new(&game, options.hash_mb)?),
                };
                searcher.clear();
                let limits = Limits {
                    depth: Some(options.estimate_depth),
                    ..Limits::default()
                };
                let found = searcher.search_to(&game, &limits, &Stop::never(), &mut |_| {});
                // Final margins on an even board are even.
                let estimate = (found.score as f64 / DISC as f64 / 2.0).round() as i32 * 2;
                (estimate - options.width - 1, estimate + options.width + 1)
            }
        };
        let root = Root {
            name,
            position: game.to_board_string(),
            rule: game.rule().name().to_string(),
            depth: options.depth,
            alpha: alpha.max(-squares),
            beta: beta.min(squares),
            round: 1,
            expected,
        };
        let tree = Tree::build(&game, root.depth);
        let merged = campaign::merge(&root, &tree, &Known::default());
        for line in campaign::task_lines(&root, &merged.tasks) {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    match bad {
        0 => Ok(()),
        bad => Err(format!("{}: {bad} bad lines", path.display())),
    }
}

/// What a merge found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    pub roots: usize,
    pub exact: usize,
    /// Roots whose exact score differs from the score their file listed.
    pub mismatches: usize,
    /// Tasks of the next round.
    pub tasks: usize,
}

/// Merges the results in `results` for the roots of the task file `tasks`: prints a
/// line per root (its exact score and best move, or its bounds and the tasks it needs
/// next) and, when any root needs more, writes the next round's task file to `next`.
pub fn merge(
    tasks: &Path,
    results: &[PathBuf],
    next: Option<&Path>,
    out: &mut dyn Write,
) -> Result<MergeReport, String> {
    let text = files::read_text(tasks)?;
    let mut roots = Vec::new();
    for (number, line) in files::strip_bom(&text).lines().enumerate() {
        if let Some(root) = Root::parse_header(line)
            .map_err(|e| format!("{}:{}: {e}", tasks.display(), number + 1))?
        {
            roots.push(root);
        }
    }
    if roots.is_empty() {
        return Err(format!(
            "{}: no split headers (lines starting '{}'): not a task file of arbor solve split",
            tasks.display(),
            campaign::HEADER.trim_end()
        ));
    }
    let mut known = Known::default();
    let mut failed = 0;
    for path in results {
        let text = files::read_text(path)?;
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match known.add(line) {
                Ok(Added::Bounds) => {}
                Ok(Added::Nothing(_)) => failed += 1,
                Err(error) => return Err(format!("{}:{}: {error}", path.display(), number + 1)),
            }
        }
    }
    let mut report = MergeReport::default();
    let mut lines = Vec::new();
    for root in &roots {
        let game = root.game()?;
        let tree = Tree::build(&game, root.depth);
        let merged = campaign::merge(root, &tree, &known);
        report.roots += 1;
        let text = if merged.is_exact() {
            report.exact += 1;
            let check = match root.expected {
                None => String::new(),
                Some(expected) if expected == merged.lower => format!("  expected {expected:+} ok"),
                Some(expected) => {
                    report.mismatches += 1;
                    format!("  expected {expected:+} MISMATCH")
                }
            };
            format!(
                "{}  exact {:+}  best {}{check}",
                root.name,
                merged.lower,
                merged.best.as_deref().unwrap_or("none")
            )
        } else {
            let next_root = merged
                .next
                .as_ref()
                .expect("an inexact merge has a next round");
            report.tasks += merged.tasks.len();
            lines.extend(campaign::task_lines(next_root, &merged.tasks));
            format!(
                "{}  round {}  bounds {:+}..{:+}  window {}..{}  next: round {}, window {}..{}, {} tasks",
                root.name,
                root.round,
                merged.lower,
                merged.upper,
                root.alpha,
                root.beta,
                next_root.round,
                next_root.alpha,
                next_root.beta,
                merged.tasks.len()
            )
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
    }
    if failed > 0 {
        writeln!(
            out,
            "{failed} result lines were errors or not exact solves (ignored)"
        )
        .map_err(|e| e.to_string())?;
    }
    let pending = report.roots - report.exact;
    match (pending, next) {
        (0, _) => writeln!(out, "merged {} roots: all exact", report.roots),
        (_, Some(next)) => {
            let mut text = lines.join("\n");
            text.push('\n');
            files::Output::check(next, true)
                .and_then(|output| output.write(text.as_bytes()))
                .map_err(|e| e.to_string())?;
            writeln!(
                out,
                "merged {} roots: {} exact, {pending} need round {} ({} tasks) -> {}",
                report.roots,
                report.exact,
                roots.iter().map(|r| r.round).max().unwrap_or(1) + 1,
                report.tasks,
                next.display()
            )
        }
        (_, None) => writeln!(
            out,
            "merged {} roots: {} exact, {pending} need another round ({} tasks; --next FILE writes them)",
            report.roots, report.exact, report.tasks
        ),
    }
    .map_err(|e| e.to_string())?;
    Ok(report)
}

/// The one-machine campaign in `dir`: splits `file` into `dir/round-1.jsonl` (unless it
/// is there), then solves each round's tasks into `dir/results.jsonl` (tasks already
/// answered there are skipped, so running it again resumes) and merges, until every
/// root is exact.
pub fn run(
    file: &Path,
    dir: &Path,
    split_options: &SplitOptions,
    solve_options: &crate::cli::tasks::Options,
    out: &mut dyn Write,
) -> Result<MergeReport, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let round_path = |round: u32| dir.join(format!("round-{round}.jsonl"));
    let results = dir.join("results.jsonl");
    if !round_path(1).exists() {
        let mut text = Vec::new();
        split(file, split_options, &mut text, &mut std::io::stderr())?;
        files::Output::check(&round_path(1), false)
            .and_then(|output| output.write(&text))
            .map_err(|e| e.to_string())?;
    }
    let mut round = 1;
    while round_path(round + 1).exists() {
        round += 1;
    }
    loop {
        let tasks = round_path(round);
        let (answered, cut) = crate::cli::tasks::answered(&results)?;
        if cut {
            writeln!(
                out,
                "{}: an unfinished last line was cut off",
                results.display()
            )
            .map_err(|e| e.to_string())?;
        }
        let options = crate::cli::tasks::Options {
            answered,
            ..solve_options.clone()
        };
        let start = Instant::now();
        let mut sink = files::open_append(&results).map_err(|e| e.to_string())?;
        let input = std::fs::File::open(&tasks).map_err(|e| format!("{}: {e}", tasks.display()))?;
        let report =
            crate::cli::tasks::run(&mut std::io::BufReader::new(input), &mut sink, &options)?;
        writeln!(
            out,
            "round {round}: solved {} tasks ({} failed, {} answered before) in {:.1} s",
            report.solved,
            report.failed,
            report.skipped,
            start.elapsed().as_secs_f64()
        )
        .map_err(|e| e.to_string())?;
        let next = round_path(round + 1);
        let merged = merge(&tasks, std::slice::from_ref(&results), Some(&next), out)?;
        if merged.exact == merged.roots {
            return Ok(merged);
        }
        round += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_parsed_with_clear_errors() {
        assert_eq!(parse_window("-3,3"), Ok((-3, 3)));
        assert_eq!(parse_window("-10:-2"), Ok((-10, -2)));
        for (bad, message) in [
            ("3", "expected ALPHA,BETA"),
            ("a,3", "not a whole number"),
            ("3,3", "alpha must be below beta"),
            ("-65,0", "within -64..=64"),
        ] {
            let error = parse_window(bad).unwrap_err();
            assert!(error.contains(message), "{bad}: {error}");
        }
    }
}
