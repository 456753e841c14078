//! `arbor play`: a person against the engine (or another person) at the terminal.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::variant::GameVisitor;
use crate::game::{Move, Side};
use crate::limits::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchGame, Searcher};

/// Who sits on each side, and how the engine thinks.
#[derive(Clone, Copy, Debug)]
pub struct PlaySettings {
    /// `humans[side.index()]`: whether a person plays that side.
    pub humans: [bool; 2],
    /// The engine's clock for the whole game, or `None` to use `depth`.
    pub engine_time: Option<Duration>,
    pub depth: Option<u32>,
}

pub struct PlayTerminal<'a, R: BufRead, W: Write> {
    pub settings: PlaySettings,
    pub input: &'a mut R,
    pub output: &'a mut W,
}

impl<R: BufRead, W: Write> GameVisitor for PlayTerminal<'_, R, W> {
    type Output = std::io::Result<()>;

    fn visit<G: SearchGame>(self, game: G) -> std::io::Result<()> {
        let PlayTerminal {
            settings,
            input,
            output,
        } = self;
        let mut game = game;
        let mut history: Vec<(Move, G::Undo, Side)> = Vec::new();
        let mut searcher = Searcher::<G>::new(Arc::new(TranspositionTable::new(64)));
        let stop = AtomicBool::new(false);
        let mut engine_left = settings.engine_time;
        let mut engine_used = Duration::ZERO;
        let mut moves = Vec::new();
        writeln!(
            output,
            "{} (type a move such as d3, or pass, undo, hint, moves, quit)",
            game.name()
        )?;
        let mut changed = true;
        loop {
            if std::mem::take(&mut changed) {
                writeln!(output, "\n{}", game.diagram())?;
                if let Some(&(mv, _, side)) = history.last() {
                    writeln!(output, "last move: {side} {}", game.format_move(mv))?;
                }
            }
            if let Some(outcome) = game.outcome() {
                let result = match outcome.winner {
                    Some(side) => format!("{side} wins"),
                    None => "a draw".to_string(),
                };
                writeln!(
                    output,
                    "game over: {result} ({}); the engine used {:.1} s",
                    game.status_details(),
                    engine_used.as_secs_f64()
                )?;
                return Ok(());
            }
            let side = game.side_to_move();
            game.generate_moves(&mut moves);
            let think = |searcher: &mut Searcher<G>, game: &G, left: Option<Duration>| {
                let limits = Limits {
                    time: left,
                    depth: settings.depth,
                    ..Limits::default()
                };
                searcher.think(game, &limits, &stop, &mut |_, _| {})
            };
            if !settings.humans[side.index()] {
                let started = Instant::now();
                let result = think(&mut searcher, &game, engine_left);
                let spent = started.elapsed();
                engine_used += spent;
                if let Some(left) = engine_left.as_mut() {
                    *left = left.saturating_sub(spent);
                }
                let name = game.format_move(result.best);
                let undo = game.make(result.best);
                history.push((result.best, undo, side));
                changed = true;
                let clock = engine_left.map_or(String::new(), |left| {
                    format!(", {:.1} s left", left.as_secs_f64())
                });
                writeln!(
                    output,
                    "arbor ({side}) plays {name} ({:.1} s{clock}, its score {})",
                    spent.as_secs_f64(),
                    game_score(&game, result.score, result.exact)
                )?;
                continue;
            }
            write!(output, "{side}> ")?;
            output.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(output)?;
                return Ok(());
            }
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" => return Ok(()),
                "moves" => {
                    let names: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
                    writeln!(output, "legal moves: {}", names.join(" "))?;
                }
                "hint" => {
                    let limits = Limits {
                        movetime: Some(Duration::from_secs(1)),
                        ..Limits::default()
                    };
                    let result = searcher.think(&game, &limits, &stop, &mut |_, _| {});
                    writeln!(
                        output,
                        "hint: {} (score {})",
                        game.format_move(result.best),
                        game_score(&game, result.score, result.exact)
                    )?;
                }
                "undo" => {
                    // Back to this person's previous turn: through the engine's replies too.
                    let mut undone = false;
                    while let Some((mv, undo, mover)) = history.pop() {
                        game.unmake(mv, undo);
                        undone = true;
                        if settings.humans[mover.index()] {
                            break;
                        }
                    }
                    if !undone {
                        writeln!(output, "nothing to undo")?;
                    }
                    changed = undone;
                }
                _ => match game.parse_move(text) {
                    Err(error) => {
                        writeln!(output, "{error}; try again (moves lists the legal ones)")?
                    }
                    Ok(mv) if !game.is_legal(mv) => {
                        if mv.is_pass() {
                            writeln!(output, "you cannot pass: you have a legal move")?;
                        } else {
                            writeln!(output, "{text} is not a legal move here; try again")?;
                        }
                    }
                    Ok(mv) => {
                        let undo = game.make(mv);
                        history.push((mv, undo, side));
                        changed = true;
                    }
                },
            }
        }
    }
}

fn game_score<G: SearchGame>(game: &G, score: i32, exact: bool) -> String {
    // `score` is from the mover's view; after the move it is the other side's turn.
    if exact {
        game.format_exact_score(score)
    } else {
        game.format_score(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::{Othello, Rule};

    #[test]
    fn a_person_plays_a_4x4_game_against_the_engine() {
        let script = "e9\nd4\npass\nhint\nmoves\nundo\nundo\nb1\nxyz\n".to_string()
            + &"a1\nb1\nc1\nd1\na2\nb2\nc2\nd2\na3\nb3\nc3\nd3\na4\nb4\nc4\nd4\npass\n".repeat(2);
        let mut input = std::io::Cursor::new(script.into_bytes());
        let mut output = Vec::new();
        let settings = PlaySettings {
            humans: [true, false],
            engine_time: None,
            depth: Some(3),
        };
        let game = Othello::new(4, Rule::Normal).unwrap();
        PlayTerminal {
            settings,
            input: &mut input,
            output: &mut output,
        }
        .visit(game)
        .unwrap();
        let text = String::from_utf8(output).unwrap();
        assert!(text.contains("move 'e9' is off the 4x4 board"), "{text}");
        assert!(text.contains("d4 is not a legal move here"));
        assert!(text.contains("you cannot pass"));
        assert!(text.contains("hint: "));
        assert!(text.contains("legal moves: b1 a2 d3 c4"));
        assert!(text.contains("nothing to undo"));
        assert!(text.contains("arbor (white) plays"));
        assert!(text.contains("game over: "), "{text}");
    }
}
