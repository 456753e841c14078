//! `arbor solve FILE`: exact endgame scores for every position of an OBF file.

use std::time::{Duration, Instant};

use crate::engine::{Engine, Finished, Settings};
use crate::game::Side;
use crate::game::othello::obf::parse_obf_line;
use crate::game::othello::search::DISC;
use crate::game::variant::Variant;

/// Totals over a file; `mismatches` counts scores that disagree with the file.
#[derive(Debug, Default)]
pub struct SuiteReport {
    pub positions: usize,
    pub mismatches: usize,
    pub nodes: u64,
    pub time: Duration,
}

/// Solves each position with the engine core's solve (tables of `megabytes` MiB, emptied
/// by a new game before each position so that every time stands alone; `threads` search
/// threads), printing one line per position and a total line.
pub fn solve_file(
    text: &str,
    megabytes: usize,
    threads: usize,
    out: &mut impl std::io::Write,
) -> Result<SuiteReport, String> {
    let settings = Settings {
        hash_mb: megabytes,
        threads,
        ..Settings::default()
    };
    // Every line is checked before the first solve: a bad line late in a long file
    // should not cost the solves before it.
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if let Some(position) =
            parse_obf_line(line).map_err(|e| format!("line {}: {e}", number + 1))?
        {
            positions.push((number, position));
        }
    }
    if positions.is_empty() {
        return Err("no positions (expected OBF lines: <64 cells> <side>; MOVE:+score;)".into());
    }
    let (mut engine, receiver) = Engine::new(&settings)?;
    let mut report = SuiteReport::default();
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
            other => return Err(format!("line {}: the solve failed: {other:?}", number + 1)),
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
