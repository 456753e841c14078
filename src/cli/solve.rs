//! `arbor solve FILE`: exact endgame scores for every position of an OBF file.

use std::time::{Duration, Instant};

use crate::engine::{Engine, Finished, Settings};
use crate::game::othello::obf::parse_obf_line;
use crate::game::othello::search::DISC;
use crate::game::variant::Variant;
use crate::game::{Game, Side};

/// Totals over a file; `mismatches` counts scores that disagree with the file,
/// `bad_lines` the lines that were not positions to solve.
#[derive(Debug, Default)]
pub struct SuiteReport {
    pub positions: usize,
    pub mismatches: usize,
    pub bad_lines: usize,
    pub nodes: u64,
    pub time: Duration,
}

impl SuiteReport {
    /// An error when a line was bad or a score disagreed with the file `name`.
    pub fn verdict(&self, name: &str) -> Result<(), String> {
        let mut faults = Vec::new();
        if self.bad_lines > 0 {
            faults.push(format!("{} bad lines", self.bad_lines));
        }
        if self.mismatches > 0 {
            faults.push(format!("{} scores disagree", self.mismatches));
        }
        match faults.is_empty() {
            true => Ok(()),
            false => Err(format!("{name}: {}", faults.join(", "))),
        }
    }
}

/// Solves each position of the OBF file `name` with the engine core's solve (tables of
/// `megabytes` MiB, emptied by a new game before each position so that every time
/// stands alone; `threads` search threads, the solver's Jamboree setting `jamboree`), printing one line per position and a total
/// line. Every line is checked first: each bad one goes to `errors` as `name:LINE:
/// message` and the others are still solved.
pub fn solve_file(
    name: &str,
    text: &str,
    megabytes: usize,
    threads: usize,
    jamboree: usize,
    out: &mut impl std::io::Write,
    errors: &mut dyn std::io::Write,
) -> Result<SuiteReport, String> {
    let settings = Settings {
        hash_mb: megabytes,
        threads,
        jamboree,
        ..Settings::default()
    };
    let mut report = SuiteReport::default();
    // Checked before the first solve: a bad line late in a long file should be seen
    // at once, and should not stop the solves of the good ones.
    let mut positions = Vec::new();
    for (number, line) in crate::files::strip_bom(text).lines().enumerate() {
        let checked = parse_obf_line(line)
            .map_err(|e| e.to_string())
            .and_then(|position| match position {
                Some(position) if position.game.outcome().is_some() => {
                    Err("the game is over: neither side has a move".to_string())
                }
                other => Ok(other),
            });
        match checked {
            Ok(Some(position)) => positions.push((number, position)),
            Ok(None) => {}
            Err(error) => {
                report.bad_lines += 1;
                writeln!(errors, "{name}:{}: {error}", number + 1).map_err(|e| e.to_string())?;
            }
        }
    }
    if positions.is_empty() {
        return Err(match report.bad_lines {
            0 => format!(
                "{name}: no positions (expected OBF lines: <64 cells> <side>; MOVE:+score;)"
            ),
            bad => format!("{name}: no positions to solve ({bad} bad lines)"),
        });
    }
    let (mut engine, receiver) = Engine::new(&settings)?;
    for (number, position) in positions {
        let game = &position.game;
        let cells = game.to_board_string();
        let (cells, side) = cells.split_at(64);
        let side = Side::parse(side.trim()).ok_or("bad side")?;
        engine.new_game(Some(Variant::default()))?;
        engine.set_board(cells, side)?;
        let start = Instant::now();
        engine.solve(None)?;
        let finished = engine.wait(&receiver, &mut |_, _| {});
        let time = start.elapsed();
        let (score, best, nodes) = match finished {
            Some(Finished::Solved { proof, line, .. }) if proof.is_exact() => (
                proof.lower / DISC,
                line.first().cloned().unwrap_or_else(|| "pass".to_string()),
                proof.nodes,
            ),
            other => {
                return Err(format!(
                    "{name}:{}: the solve failed: {other:?}",
                    number + 1
                ));
            }
        };
        let expected = position.best_score();
        let verdict = match expected {
            Some(expected) if expected == score => {
                if position.best_moves().contains(&best) {
                    "ok"
                } else {
                    "ok (other best move)"
                }
            }
            Some(_) => {
                report.mismatches += 1;
                "MISMATCH"
            }
            None => "-",
        };
        let expected = expected.map_or("?".to_string(), |score| format!("{score:+}"));
        let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
        writeln!(
            out,
            "line {:>3}  empties {:>2}  best {best:<4} score {score:>+3}  expected {expected:>3}  {verdict:<8} nodes {nodes:>12}  time {:>8.3} s  {:>6.1} Mnodes/s",
            number + 1,
            game.empties().count_ones(),
            time.as_secs_f64(),
            nps / 1e6
        )
        .map_err(|e| e.to_string())?;
        report.positions += 1;
        report.nodes += nodes;
        report.time += time;
    }
    writeln!(
        out,
        "total: {} positions, {} mismatches, nodes {}, time {:.3} s, {:.1} Mnodes/s",
        report.positions,
        report.mismatches,
        report.nodes,
        report.time.as_secs_f64(),
        report.nodes as f64 / report.time.as_secs_f64().max(1e-9) / 1e6
    )
    .map_err(|e| e.to_string())?;
    Ok(report)
}

/// Solves the OBF file `file` with stdout for the results, stderr for the errors; fails
/// when a score disagrees or a line is bad.
pub fn run_path(
    file: &std::path::Path,
    hash_mb: usize,
    threads: usize,
    jamboree: usize,
) -> Result<(), String> {
    let text = crate::files::read_text(file)?;
    let name = file.display().to_string();
    let (out, errors) = (&mut std::io::stdout(), &mut std::io::stderr());
    solve_file(&name, &text, hash_mb, threads, jamboree, out, errors)?.verdict(&name)
}
