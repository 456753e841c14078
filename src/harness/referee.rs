//! Plays one game between two engines: the referee keeps its own copy of the game
//! through the library's rules, keeps the clocks and checks every reply.

use std::time::{Duration, Instant};

use super::engine::{EngineDriver, EngineFailure, GoRequest, Setup};
use super::swap2::Swap2Log;
use crate::engine::clock::{ClockControl, GameClock};
use crate::game::{Game, Move, Side};

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Time per side for the whole game, plus an increment per move.
    Clock {
        base: Duration,
        inc: Duration,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// A clock may run this far below zero before the side loses on time: pipes and the
/// scheduler add latency the engine cannot see.
pub const TIME_TOLERANCE: Duration = Duration::from_millis(50);

/// Searches limited by depth or nodes still get a deadline.
const UNTIMED_DEADLINE: Duration = Duration::from_secs(600);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game reached its end under the rules.
    Rules,
    TimeForfeit(Side),
    Illegal(Side, String),
    Failure(Side, String),
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub ending: Ending,
    /// Moves after the setup, as the game names them (passes included).
    pub moves: Vec<String>,
    /// Black's final margin as the game scores it (Othello: the exam's disc score,
    /// -64..64), when the game reached its end.
    pub black_score: i32,
    /// The game's status words when it ended under the rules (`over black 40 24`).
    pub status: String,
    /// Clock time each side used.
    pub used: [Duration; 2],
    /// How a Swap2 opening went (`--opening swap2`); its stones are the game's setup.
    pub swap2: Option<Swap2Log>,
}

impl GameRecord {
    /// A game with no move yet.
    pub fn unplayed() -> GameRecord {
        GameRecord {
            winner: None,
            ending: Ending::Rules,
            moves: Vec::new(),
            black_score: 0,
            status: String::new(),
            used: [Duration::ZERO; 2],
            swap2: None,
        }
    }
}

/// How a game starts: the game as `newgame` names it, the opening the engines are given,
/// and both sides' clocks (with the time an opening such as Swap2 took already used).
pub struct GameStart<'a> {
    pub spec: &'a str,
    pub setup: &'a Setup,
    pub clock: GameClock,
}

impl<'a> GameStart<'a> {
    /// A game from `setup` on fresh clocks.
    pub fn new(spec: &'a str, setup: &'a Setup, control: TimeControl) -> GameStart<'a> {
        GameStart {
            spec,
            setup,
            clock: new_clock(control),
        }
    }
}

/// Both sides' clocks stopped at the start of `control` (counting up without a clock).
pub fn new_clock(control: TimeControl) -> GameClock {
    GameClock::new(match control {
        TimeControl::Clock { base, inc } => Some(ClockControl { base, inc }),
        _ => None,
    })
}

/// Plays `game` (its setup already applied) from `start` with `engines[0]` as Black.
pub fn play_game<G: Game>(
    mut game: G,
    start: GameStart,
    engines: [&mut dyn EngineDriver; 2],
    control: TimeControl,
    score_of: impl Fn(&G) -> i32,
    forfeit_score: i32,
) -> GameRecord {
    let [black, white] = engines;
    let mut engines: [&mut dyn EngineDriver; 2] = [black, white];
    let mut record = GameRecord::unplayed();
    let mut clock = start.clock;
    let now = Instant::now();
    record.used = [Side::Black, Side::White].map(|side| clock.used(side, now));
    for (index, engine) in engines.iter_mut().enumerate() {
        if let Err(failure) = engine.new_game(start.spec, start.setup) {
            return forfeit(
                record,
                side_of(index),
                Ending::Failure(side_of(index), failure.to_string()),
                forfeit_score,
            );
        }
    }
    loop {
        if let Some(outcome) = game.outcome() {
            record.winner = outcome.winner;
            record.black_score = score_of(&game);
            record.status = format!(
                "{} {}",
                outcome.winner.map_or("draw", Side::name),
                game.status_details()
            );
            return record;
        }
        let side = game.side_to_move();
        let index = side.index();
        let engine = &mut engines[index];
        let asked = ask(
            &mut clock,
            side,
            control,
            &mut record.used[index],
            |request, deadline| engine.go(request, deadline),
        );
        let text = match asked {
            Ok(text) => text,
            Err(ending) => return forfeit(record, side, ending, forfeit_score),
        };
        let mv = match game.parse_move(&text) {
            Ok(mv) if game.is_legal(mv) => mv,
            Ok(mv) => {
                // The position stays as it was; the rule's reason goes with the move.
                let text = match game.illegal_reason(mv) {
                    Some(reason) => format!("{text} ({reason})"),
                    None => text,
                };
                return forfeit(record, side, Ending::Illegal(side, text), forfeit_score);
            }
            _ => return forfeit(record, side, Ending::Illegal(side, text), forfeit_score),
        };
        let name = game.format_move(mv);
        game.make(mv);
        record.moves.push(name.clone());
        if let Err(failure) = engines[1 - index].opponent_moved(&name) {
            let other = side.opponent();
            return forfeit(
                record,
                other,
                Ending::Failure(other, failure.to_string()),
                forfeit_score,
            );
        }
    }
}

/// Asks one timed question on `side`'s clock (a move, or a Swap2 decision: each is
/// limited like a move), adding the time it took to `used`: the answer's text, or how
/// `side` lost (on time, or the engine failed).
pub fn ask(
    clock: &mut GameClock,
    side: Side,
    control: TimeControl,
    used: &mut Duration,
    question: impl FnOnce(GoRequest, Instant) -> Result<String, EngineFailure>,
) -> Result<String, Ending> {
    let started = Instant::now();
    clock.start(side, started);
    let (request, deadline_after) = match control {
        TimeControl::Clock { inc, .. } => (
            GoRequest::Clock {
                left: clock.left(side, started).unwrap_or_default(),
                inc,
            },
            clock
                .allowance(side, started, TIME_TOLERANCE)
                .unwrap_or_default(),
        ),
        TimeControl::MoveTime(time) => (GoRequest::MoveTime(time), time + TIME_TOLERANCE),
        TimeControl::Depth(depth) => (GoRequest::Depth(depth), UNTIMED_DEADLINE),
        TimeControl::Nodes(nodes) => (GoRequest::Nodes(nodes), UNTIMED_DEADLINE),
    };
    let reply = question(request, started + deadline_after);
    let elapsed = clock.press(None, Instant::now());
    *used += elapsed;
    let text = match reply {
        Ok(text) => text,
        Err(EngineFailure::NoAnswer)
            if matches!(
                control,
                TimeControl::Clock { .. } | TimeControl::MoveTime(_)
            ) =>
        {
            return Err(Ending::TimeForfeit(side));
        }
        Err(failure) => return Err(Ending::Failure(side, failure.to_string())),
    };
    if elapsed > deadline_after {
        return Err(Ending::TimeForfeit(side));
    }
    Ok(text)
}

fn side_of(index: usize) -> Side {
    if index == 0 { Side::Black } else { Side::White }
}

/// The record of a game that never started: `loser`'s engine failed before the first
/// move (it would not start, or not take the game), for `reason`.
pub fn lost_before_start(loser: Side, reason: String, forfeit_score: i32) -> GameRecord {
    let ending = Ending::Failure(loser, reason);
    forfeit(GameRecord::unplayed(), loser, ending, forfeit_score)
}

pub fn forfeit(mut record: GameRecord, loser: Side, ending: Ending, score: i32) -> GameRecord {
    record.winner = Some(loser.opponent());
    record.ending = ending;
    record.black_score = if loser == Side::Black { -score } else { score };
    record
}

/// Applies a setup to the referee's game; errors name the bad move or board.
pub fn apply_setup<G: Game>(game: &mut G, setup: &Setup) -> Result<(), String> {
    match setup {
        Setup::Moves(moves) => {
            for text in moves {
                let mv: Move = game.parse_move(text).map_err(|e| e.to_string())?;
                if !game.is_legal(mv) {
                    return Err(format!("opening move {text} is illegal"));
                }
                game.make(mv);
            }
            Ok(())
        }
        Setup::Board(board) => {
            let (cells, side) = board
                .rsplit_once(' ')
                .ok_or("opening board needs '<cells> <side>'")?;
            let side = Side::parse(side)
                .ok_or_else(|| format!("bad side {} in opening", crate::text::quote(side)))?;
            game.set_board(cells, side).map_err(|e| e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Config, Gomoku, Opening};

    /// Plays its moves in order, whatever the position.
    struct Scripted {
        moves: Vec<&'static str>,
    }

    impl EngineDriver for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }

        fn new_game(&mut self, _game: &str, _setup: &Setup) -> Result<(), EngineFailure> {
            Ok(())
        }

        fn go(&mut self, _request: GoRequest, _deadline: Instant) -> Result<String, EngineFailure> {
            Ok(self.moves.remove(0).to_string())
        }

        fn opponent_moved(&mut self, _text: &str) -> Result<(), EngineFailure> {
            Ok(())
        }

        fn quit(&mut self) {}
    }

    #[test]
    fn a_forbidden_renju_move_ends_the_game_with_its_reason_and_is_not_played() {
        let game = Gomoku::new(Config::renju(15, Opening::Free)).unwrap();
        // Black's h8 makes two open threes (f8 g8, h6 h7): a double three.
        let mut black = Scripted {
            moves: vec!["f8", "g8", "h6", "h7", "h8"],
        };
        let mut white = Scripted {
            moves: vec!["a1", "a3", "a5", "a7", "a9"],
        };
        let setup = Setup::Moves(Vec::new());
        let spec = "gomoku size=15 rule=renju opening=free";
        let record = play_game(
            game,
            GameStart::new(spec, &setup, TimeControl::Depth(1)),
            [&mut black, &mut white],
            TimeControl::Depth(1),
            |_| 0,
            1,
        );
        assert_eq!(record.winner, Some(Side::White));
        match &record.ending {
            Ending::Illegal(Side::Black, text) => {
                assert!(text.starts_with("h8 (h8 is a forbidden point"), "{text}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(record.moves.len(), 8, "{:?}", record.moves);
        assert!(!record.moves.contains(&"h8".to_string()));
    }
}
