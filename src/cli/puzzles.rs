//! `arbor puzzles FILE`: the threat solver on Gomoku forced-win puzzles.
//!
//! Line format (see ../shared/data/gomoku/README.md): `<size> <black|white> B:<cells>
//! W:<cells> ; <first move> ; <line | -> ; <tag> [key=value ...]`. A puzzle counts as
//! solved when the solver finds a win within the limit and its line replays to the
//! attacker's win; the first move is also checked against `firsts=` when the file lists it.

use crate::text::quote;
use std::time::{Duration, Instant};

use crate::game::gomoku::threat::ThreatSolver;
use crate::game::gomoku::{Config, Gomoku, Opening};
use crate::game::{Game, Move, Side};
use crate::stop::Stop;

/// One puzzle: the position (attacker to move) and the listed winning first moves.
pub struct Puzzle {
    pub game: Gomoku,
    pub firsts: Vec<String>,
}

pub fn parse_puzzle(line: &str) -> Result<Puzzle, String> {
    let fields: Vec<&str> = line.split(" ; ").collect();
    let [position, first, _line, tags] = fields.as_slice() else {
        return Err("expected four fields separated by ' ; '".to_string());
    };
    let words: Vec<&str> = position.split_whitespace().collect();
    let [size, side, black, white] = words.as_slice() else {
        return Err("expected '<size> <side> B:... W:...'".to_string());
    };
    let size: usize = size
        .parse()
        .map_err(|_| format!("bad size {}", quote(size)))?;
    let side = Side::parse(side).ok_or_else(|| format!("bad side {}", quote(side)))?;
    let mut game = Gomoku::new(Config::gomoku(size, false, Opening::Free)).map_err(|e| e.0)?;
    let mut cells = vec!['-'; size * size];
    for (list, prefix, stone) in [(black, "B:", 'X'), (white, "W:", 'O')] {
        let names = list
            .strip_prefix(prefix)
            .ok_or_else(|| format!("expected {prefix}"))?;
        for name in names.split(',').filter(|name| !name.is_empty()) {
            let mv = game.parse_move(name).map_err(|e| e.0)?;
            cells[mv.square()] = stone;
        }
    }
    game.set_board(&cells.into_iter().collect::<String>(), side)
        .map_err(|e| e.0)?;
    let mut firsts: Vec<String> = tags
        .split_whitespace()
        .find_map(|tag| tag.strip_prefix("firsts="))
        .map(|list| list.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    if firsts.is_empty() {
        firsts.push(first.trim().to_string());
    }
    Ok(Puzzle { game, firsts })
}

/// Whether `line` replays legally from `game` to a win for its side to move.
pub fn line_wins(game: &Gomoku, line: &[Move]) -> bool {
    let attacker = game.side_to_move();
    let mut game = game.clone();
    for &mv in line {
        if !game.is_legal(mv) {
            return false;
        }
        game.make(mv);
    }
    game.outcome().and_then(|outcome| outcome.winner) == Some(attacker)
}

/// One puzzle's result.
pub struct PuzzleResult {
    pub line: Option<Vec<Move>>,
    pub time: Duration,
    pub nodes: u64,
}

/// What one solve may spend: time, and nodes when given.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleLimit {
    pub time: Duration,
    pub nodes: Option<u64>,
}

pub fn solve_puzzle(game: &Gomoku, limit: PuzzleLimit) -> PuzzleResult {
    let start = Instant::now();
    let mut stop = Stop::never().with_deadline(Some(start + limit.time));
    if let Some(nodes) = limit.nodes {
        stop = stop.with_node_limit(nodes);
    }
    let mut solver = ThreatSolver::new(game.side_to_move(), &stop);
    let line = solver.solve(game).map(|(line, _)| line);
    let nodes = solver.nodes;
    PuzzleResult {
        line,
        time: start.elapsed(),
        nodes,
    }
}

/// Checks a found first move against every reply, not only the defences the solver
/// tries: after each, the attacker must still have a win the solver finds within
/// `limit`. Returns the first reply that escapes.
pub fn refutation(game: &Gomoku, first: Move, limit: PuzzleLimit) -> Option<Move> {
    let mut after = game.clone();
    after.make(first);
    if after.outcome().is_some() {
        return None;
    }
    let mut replies = Vec::new();
    after.generate_moves(&mut replies);
    replies.into_iter().find(|&reply| {
        let mut position = after.clone();
        position.make(reply);
        if position.outcome().is_some() {
            return true;
        }
        !solve_puzzle(&position, limit)
            .line
            .is_some_and(|line| line_wins(&position, &line))
    })
}

/// Runs every puzzle of `text`, printing one line each and a summary; returns
/// (solved, total). With `verify`, each solved puzzle's first move is also checked
/// against every reply (see [`refutation`]).
pub fn run_file(
    text: &str,
    limit: PuzzleLimit,
    verify: bool,
    out: &mut impl std::io::Write,
) -> Result<(usize, usize), String> {
    let (mut solved, mut total, mut other_first) = (0, 0, 0);
    let mut times = Vec::new();
    // Every line is checked before the first solve.
    let mut puzzles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if !line.trim().is_empty() {
            let puzzle = parse_puzzle(line).map_err(|e| format!("line {}: {e}", number + 1))?;
            puzzles.push((number, puzzle));
        }
    }
    if puzzles.is_empty() {
        return Err("no puzzles (expected lines: <size> <side> B:<cells> W:<cells> ; ...)".into());
    }
    for (number, puzzle) in puzzles {
        total += 1;
        let result = solve_puzzle(&puzzle.game, limit);
        times.push(result.time);
        let verdict = match &result.line {
            Some(moves) if line_wins(&puzzle.game, moves) => {
                solved += 1;
                let first = puzzle.game.format_move(moves[0]);
                let escape = if verify {
                    refutation(&puzzle.game, moves[0], limit)
                } else {
                    None
                };
                if let Some(reply) = escape {
                    solved -= 1;
                    format!(
                        "UNSOUND {first}: {} escapes",
                        puzzle.game.format_move(reply)
                    )
                } else if puzzle.firsts.contains(&first) {
                    format!("ok {first} in {} plies", moves.len())
                } else {
                    other_first += 1;
                    format!(
                        "ok {first} in {} plies (first move not listed)",
                        moves.len()
                    )
                }
            }
            Some(_) => "WRONG line does not win".to_string(),
            None => "not found".to_string(),
        };
        let _ = writeln!(
            out,
            "{:>5} {verdict:<40} {:>8.1} ms {:>10} nodes",
            number + 1,
            result.time.as_secs_f64() * 1000.0,
            result.nodes
        );
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let nodes = limit
        .nodes
        .map_or(String::new(), |nodes| format!(" and {nodes} nodes"));
    let _ = writeln!(
        out,
        "solved {solved}/{total} within {} ms{nodes} each ({other_first} with a first move not listed); median time {:.1} ms, total {:.1} s",
        limit.time.as_millis(),
        median.as_secs_f64() * 1000.0,
        times.iter().sum::<Duration>().as_secs_f64()
    );
    Ok((solved, total))
}
