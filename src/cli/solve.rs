//! `arbor solve FILE`: exact endgame scores for every position of an OBF file.

use std::time::{Duration, Instant};

use crate::game::Game;
use crate::game::othello::endgame::Solver;
use crate::game::othello::obf::parse_obf_line;
use crate::stop::Stop;

/// Totals over a file; `mismatches` counts scores that disagree with the file.
#[derive(Debug, Default)]
pub struct SuiteReport {
    pub positions: usize,
    pub mismatches: usize,
    pub nodes: u64,
    pub time: Duration,
}

/// Solves each position with a table of `megabytes` MiB (emptied before each), printing
/// one line per position and a total line.
pub fn solve_file(
    text: &str,
    megabytes: usize,
    out: &mut impl std::io::Write,
) -> Result<SuiteReport, String> {
    let stop = Stop::never();
    crate::memory::check_available(megabytes, 0)?;
    let mut solver = Solver::try_new(megabytes << 20)?;
    let mut report = SuiteReport::default();
    for (number, line) in text.lines().enumerate() {
        let Some(position) =
            parse_obf_line(line).map_err(|e| format!("line {}: {e}", number + 1))?
        else {
            continue;
        };
        let game = &position.game;
        solver.clear();
        solver.nodes = 0;
        let start = Instant::now();
        let solution = solver
            .solve(
                game.player(),
                game.opponent(),
                game.board(),
                game.rule(),
                &stop,
            )
            .expect("nothing stops a suite run");
        let time = start.elapsed();
        let best = solution.best.map_or("pass".to_string(), |square| {
            game.format_move(crate::game::Move::new(square as u16))
        });
        let expected = position.best_score();
        let verdict = match expected {
            Some(score) if score == solution.score => {
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
        let nps = solver.nodes as f64 / time.as_secs_f64().max(1e-9);
        writeln!(
            out,
            "line {:>3}  empties {:>2}  best {best:<4} score {:>+3}  expected {expected:>3}  {verdict:<8} nodes {:>12}  time {:>8.3} s  {:>6.1} Mnodes/s",
            number + 1,
            game.empties().count_ones(),
            solution.score,
            solver.nodes,
            time.as_secs_f64(),
            nps / 1e6
        )
        .map_err(|e| e.to_string())?;
        report.positions += 1;
        report.nodes += solver.nodes;
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
