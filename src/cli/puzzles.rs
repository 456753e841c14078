//! `arbor puzzles FILE`: the threat solver on Gomoku forced-win puzzles.
//!
//! Line format (see ../shared/data/gomoku/README.md): `<size> <black|white> B:<cells>
//! W:<cells> ; <first move> ; <line | -> ; <tag> [key=value ...]`. A puzzle counts as
//! solved when the solver finds a win within the limit and its line replays to the
//! attacker's win; the first move is also checked against `firsts=` when the file lists it.
//! With `--search` the engine plays each puzzle as a move instead (the root's threat
//! search, then the alpha-beta, as in a game) and a puzzle counts when it reports a win.

use crate::text::quote;
use std::time::{Duration, Instant};

use std::sync::mpsc::Receiver;

use crate::engine::events::Event;
use crate::engine::output::stdout_error;
use crate::engine::{Engine, Finished, Settings};
use crate::game::gomoku::threat::ThreatSolver;
use crate::game::gomoku::{Config, Gomoku, Opening};
use crate::game::roles::WIN_BOUND;
use crate::game::variant::Variant;
use crate::game::{Game, Move, Side};
use crate::search::limits::Limits;
use crate::stop::Stop;

/// One puzzle: the position (attacker to move) and the listed winning first moves.
pub struct Puzzle {
    pub game: Gomoku,
    pub firsts: Vec<String>,
}

/// Reads and checks a puzzle line: the size, each cell (on the board, given once, one
/// colour), a game not already won, and a first move on an empty cell.
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
    let mut game = Gomoku::new(Config::gomoku(size, false, Opening::Free))
        .map_err(|e| format!("size {size}: {e}"))?;
    let mut cells = vec!['-'; size * size];
    for (list, prefix, stone) in [(black, "B:", 'X'), (white, "W:", 'O')] {
        let names = list
            .strip_prefix(prefix)
            .ok_or_else(|| format!("expected {prefix}, got {}", quote(list)))?;
        for name in names.split(',').filter(|name| !name.is_empty()) {
            let square = game
                .parse_move(name)
                .map_err(|e| format!("{}: {e}", quote(name)))?
                .square();
            match cells[square] {
                '-' => cells[square] = stone,
                seen if seen == stone => return Err(format!("{name} is given twice")),
                _ => return Err(format!("{name} is both black and white")),
            }
        }
    }
    game.set_board(&cells.into_iter().collect::<String>(), side)
        .map_err(|e| e.to_string())?;
    if game.outcome().is_some() {
        return Err("the game is already over (five in a row, or a full board)".into());
    }
    let first = first.trim();
    match game.parse_move(first) {
        Ok(mv) if game.is_legal(mv) => {}
        Ok(_) => return Err(format!("the first move {first} is on a stone")),
        Err(e) => return Err(format!("the first move {}: {e}", quote(first))),
    }
    let mut firsts: Vec<String> = tags
        .split_whitespace()
        .find_map(|tag| tag.strip_prefix("firsts="))
        .map(|list| list.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    if firsts.is_empty() {
        firsts.push(first.to_string());
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

/// The engine core's move under `limit.time`, as `go movetime` asks it in a new game
/// (fresh tables): the principal variation when it reports a win, the move alone
/// otherwise. `engine` may be left in any position by an earlier puzzle.
pub fn search_puzzle(
    engine: &mut Engine,
    events: &Receiver<Event>,
    game: &Gomoku,
    limit: PuzzleLimit,
) -> Result<(PuzzleResult, bool), String> {
    let size = game.size().to_string();
    let variant = Variant::parse("gomoku", [("size", size.as_str())]).map_err(|e| e.to_string())?;
    engine.new_game(Some(variant))?;
    engine.set_board(&game.cells(), game.side_to_move())?;
    let limits = Limits {
        movetime: Some(limit.time),
        nodes: limit.nodes,
        ..Limits::default()
    };
    let start = Instant::now();
    engine.hint(limits, start)?;
    let mut line = Vec::new();
    let finished = engine.wait(events, &mut |_, report| {
        if let Some(best) = report.lines.first() {
            line.clone_from(&best.pv);
        }
    });
    let Some(Finished::Hinted {
        mv,
        result: Some(result),
        ..
    }) = finished
    else {
        return Err(format!("the search failed: {finished:?}"));
    };
    if line.first() != Some(&mv) {
        line = vec![mv];
    }
    let found = PuzzleResult {
        line: Some(line),
        time: start.elapsed(),
        nodes: result.nodes,
    };
    Ok((found, result.score >= WIN_BOUND))
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

/// How `run_file` checks each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The threat solver; with `verify`, each solved puzzle's first move is also
    /// checked against every reply (see [`refutation`]).
    Solver { verify: bool },
    /// The engine's move (see [`search_puzzle`]).
    Search,
}

/// What a puzzle file came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileReport {
    pub solved: usize,
    pub total: usize,
    /// Lines that were not puzzles (each reported, not run).
    pub bad_lines: usize,
}

impl FileReport {
    /// An error when a line of the file `name` was bad.
    pub fn verdict(&self, name: &str) -> Result<(), String> {
        match self.bad_lines {
            0 => Ok(()),
            bad => Err(format!("{name}: {bad} bad lines")),
        }
    }
}

/// Runs every puzzle of the file `name` (its `text`), printing one line each and a
/// summary. Every line is checked first: each bad one goes to `errors` as `name:LINE:
/// message` and the others still run.
pub fn run_file(
    name: &str,
    text: &str,
    limit: PuzzleLimit,
    check: Check,
    out: &mut impl std::io::Write,
    errors: &mut dyn std::io::Write,
) -> Result<FileReport, String> {
    let (mut solved, mut total, mut other_first) = (0, 0, 0);
    let mut times = Vec::new();
    let mut bad_lines = 0;
    // Checked before the first solve, so that a bad line is seen at once.
    let mut puzzles = Vec::new();
    for (number, line) in crate::files::strip_bom(text).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_puzzle(line) {
            Ok(puzzle) => puzzles.push((number, puzzle)),
            Err(error) => {
                bad_lines += 1;
                writeln!(errors, "{name}:{}: {error}", number + 1).map_err(|e| e.to_string())?;
            }
        }
    }
    if puzzles.is_empty() {
        return Err(match bad_lines {
            0 => format!(
                "{name}: no puzzles (expected lines: <size> <side> B:<cells> W:<cells> ; ...)"
            ),
            bad => format!("{name}: no puzzles to run ({bad} bad lines)"),
        });
    }
    // `--search` asks the engine core, one for the whole file.
    let mut engine = match check {
        Check::Search => Some(Engine::new(&Settings::default())?),
        Check::Solver { .. } => None,
    };
    for (number, puzzle) in puzzles {
        total += 1;
        let (result, won) = match check {
            Check::Solver { .. } => {
                let result = solve_puzzle(&puzzle.game, limit);
                let won = result
                    .line
                    .as_ref()
                    .map(|moves| line_wins(&puzzle.game, moves));
                (result, won)
            }
            Check::Search => {
                let (engine, events) = engine.as_mut().expect("made for --search");
                let (result, won) = search_puzzle(engine, events, &puzzle.game, limit)?;
                (result, Some(won))
            }
        };
        times.push(result.time);
        let first_move = result
            .line
            .as_ref()
            .and_then(|moves| moves.first())
            .copied();
        let first = first_move.map(|mv| puzzle.game.format_move(mv));
        let verdict = match (won, first_move.zip(first)) {
            (Some(true), Some((first_move, first))) => {
                solved += 1;
                let escape = match check {
                    Check::Solver { verify: true } => refutation(&puzzle.game, first_move, limit),
                    _ => None,
                };
                let plies = result.line.as_ref().map_or(0, Vec::len);
                let length = match check {
                    Check::Search => String::new(),
                    Check::Solver { .. } => format!(" in {plies} plies"),
                };
                if let Some(reply) = escape {
                    solved -= 1;
                    format!(
                        "UNSOUND {first}: {} escapes",
                        puzzle.game.format_move(reply)
                    )
                } else if puzzle.firsts.contains(&first) {
                    format!("ok {first}{length}")
                } else {
                    other_first += 1;
                    format!("ok {first}{length} (first move not listed)")
                }
            }
            (Some(false), Some((_, first))) if check == Check::Search => {
                let listed = if puzzle.firsts.contains(&first) {
                    " (listed)"
                } else {
                    ""
                };
                format!("no win seen, plays {first}{listed}")
            }
            (Some(false), _) => "WRONG line does not win".to_string(),
            _ => "not found".to_string(),
        };
        writeln!(
            out,
            "{:>5} {verdict:<40} {:>8.1} ms {:>10} nodes",
            number + 1,
            result.time.as_secs_f64() * 1000.0,
            result.nodes
        )
        .and_then(|()| out.flush())
        .map_err(stdout_error)?;
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let nodes = limit
        .nodes
        .map_or(String::new(), |nodes| format!(" and {nodes} nodes"));
    writeln!(
        out,
        "{} {solved}/{total} within {} ms{nodes} each ({other_first} with a first move not listed); median time {:.1} ms, total {:.1} s",
        match check {
            Check::Solver { .. } => "solved",
            Check::Search => "the engine saw a win in",
        },
        limit.time.as_millis(),
        median.as_secs_f64() * 1000.0,
        times.iter().sum::<Duration>().as_secs_f64()
    )
    .map_err(stdout_error)?;
    Ok(FileReport {
        solved,
        total,
        bad_lines,
    })
}

/// Runs the puzzles of the file `file` with stdout for the results, stderr for the
/// errors; fails when a line is bad.
pub fn run_path(file: &std::path::Path, limit: PuzzleLimit, check: Check) -> Result<(), String> {
    let text = crate::files::read_text(file)?;
    let name = file.display().to_string();
    let (out, errors) = (&mut std::io::stdout(), &mut std::io::stderr());
    run_file(&name, &text, limit, check, out, errors)?.verdict(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOUR_THREE: &str = "15 black B:g8,h8,i8,j9,j10 W:f8,a1,a15,o1,o15 ; j8 ; - ; four-three";
    const QUIET: &str = "15 black B:h8 W:i9 ; g7 ; - ; quiet";

    fn run(check: Check) -> (usize, usize, String) {
        let limit = PuzzleLimit {
            time: Duration::from_secs(60),
            nodes: Some(20_000),
        };
        let mut out = Vec::new();
        let text = format!("{FOUR_THREE}\n{QUIET}\n");
        let report = run_file("test", &text, limit, check, &mut out, &mut Vec::new()).unwrap();
        let (solved, total) = (report.solved, report.total);
        (solved, total, String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_solver_proves_the_four_three_and_nothing_in_a_quiet_position() {
        let (solved, total, out) = run(Check::Solver { verify: true });
        assert_eq!((solved, total), (1, 2), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].contains("ok j8 in 5 plies"), "{out}");
        assert!(lines[1].contains("not found"), "{out}");
        assert!(lines[2].starts_with("solved 1/2 within 60000 ms and 20000 nodes each"));
    }

    #[test]
    fn the_engine_move_counts_when_it_reports_a_win() {
        let (solved, total, out) = run(Check::Search);
        assert_eq!((solved, total), (1, 2), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].contains("ok j8"), "{out}");
        assert!(lines[1].contains("no win seen, plays "), "{out}");
        assert!(lines[2].starts_with("the engine saw a win in 1/2 within 60000 ms"));
    }

    #[test]
    fn bad_lines_are_named_and_the_good_ones_run() {
        let limit = PuzzleLimit {
            time: Duration::from_secs(60),
            nodes: Some(20_000),
        };
        let bad = [
            ("15 black B:h8,h8 W:a1 ; g8 ; - ; x", "h8 is given twice"),
            (
                "15 black B:h8 W:a1,h8 ; g8 ; - ; x",
                "h8 is both black and white",
            ),
            ("15 black B:h8,p1 W:a1 ; g8 ; - ; x", "'p1': "),
            (
                "15 black B:h8 W:a1 ; h8 ; - ; x",
                "the first move h8 is on a stone",
            ),
            ("15 black B:h8 W:a1 ; pass ; - ; x", "the first move 'pass'"),
            ("3 black B:a1 W:b2 ; c3 ; - ; x", "size 3: "),
            (
                "15 black B:a1,b1,c1,d1,e1 W:a2 ; g8 ; - ; x",
                "the game is already over",
            ),
        ];
        let text: String = std::iter::once(FOUR_THREE)
            .chain(bad.iter().map(|(line, _)| *line))
            .map(|line| format!("{line}\n"))
            .collect();
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        let check = Check::Solver { verify: false };
        let report = run_file("set", &text, limit, check, &mut out, &mut errors).unwrap();
        assert_eq!(report.solved, 1);
        assert_eq!(report.total, 1);
        assert_eq!(report.bad_lines, bad.len());
        let errors = String::from_utf8(errors).unwrap();
        for (number, (_, expected)) in bad.iter().enumerate() {
            let expected = format!("set:{}: {expected}", number + 2);
            assert!(errors.contains(&expected), "{expected} in {errors}");
        }
        assert!(report.verdict("set").is_err());
    }
}
