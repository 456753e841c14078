//! `arbor match --opening swap2`: the Swap2 opening refereed between two engines, each
//! decision asked of the engine in its protocol (`EngineDriver::swap2`), timed like a
//! move and checked by the game's rules before the game goes on.
//!
//! The proposer puts three stones (black, white, black) on the empty board; the other
//! engine answers `swap` (it takes Black, the proposer plays White's fourth stone), one
//! stone (it stays White: White's fourth) or two (White's fourth and Black's fifth); after
//! two, the proposer answers `swap` (it takes Black, the other plays White's sixth
//! stone) or one stone (it stays White: White's sixth). While the colours are open the
//! proposer counts as Black: a decision's time comes out of its engine's clock, and an
//! engine that fails or answers wrongly loses the game under that colour.

use std::time::{Duration, Instant};

use super::engine::{EngineDriver, Setup};
use super::referee::{
    Ending, GameRecord, GameStart, TimeControl, ask, forfeit, new_clock, play_game,
};
use crate::game::{Game, Side};

/// How a Swap2 opening went, as the game's record keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap2Log {
    /// The proposer's colour in the game (Black while the colours were open).
    pub proposer: Side,
    /// The decisions in order (proposer, other, proposer): stones by name, or `swap`.
    pub decisions: Vec<String>,
}

impl Swap2Log {
    /// The decisions as one text: `h8 i9 j10; h9 g9; swap`.
    pub fn text(&self) -> String {
        self.decisions.join("; ")
    }
}

/// A Swap2 answer the rules accept.
enum Answer {
    Swap,
    /// The stones' names, played on the referee's board.
    Stones(Vec<String>),
}

/// Checks `text` as a Swap2 answer on `game`: `swap` where `swap` is allowed, or
/// `counts`' numbers of stones, each a point of the board that the rules let the side to
/// move play (empty, and not forbidden to Black under renju). Accepted stones are played
/// on `game`; a refused answer leaves it as it was and says why.
fn check_answer<G: Game>(
    game: &mut G,
    text: &str,
    counts: &[usize],
    swap: bool,
) -> Result<Answer, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("swap") {
        return if swap {
            Ok(Answer::Swap)
        } else {
            Err("swap is no answer here".into())
        };
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if !counts.contains(&words.len()) {
        let expected = match counts {
            [one] => format!("{one}"),
            _ => format!("{} or {}", counts[0], counts[1]),
        };
        return Err(format!(
            "{} stones where {expected}{} were expected",
            words.len(),
            if swap { " or swap" } else { "" }
        ));
    }
    let mut trial = game.clone();
    let mut names = Vec::new();
    for word in words {
        let mv = trial.parse_move(word).map_err(|e| e.to_string())?;
        if mv.is_pass() || !trial.is_legal(mv) {
            let name = trial.format_move(mv);
            return Err(trial
                .illegal_reason(mv)
                .unwrap_or_else(|| format!("{name} is not an empty point")));
        }
        names.push(trial.format_move(mv));
        trial.make(mv);
    }
    *game = trial;
    Ok(Answer::Stones(names))
}

/// Plays `game` (an empty board) with a Swap2 opening: `engines[0]` proposes. Returns
/// the record (with its [`Swap2Log`]) and the opening's stones as the game's setup.
pub fn play_swap2<G: Game>(
    mut game: G,
    spec: &str,
    engines: [&mut dyn EngineDriver; 2],
    control: TimeControl,
    score_of: impl Fn(&G) -> i32,
    forfeit_score: i32,
) -> (GameRecord, Setup) {
    let [proposer, other] = engines;
    // Seats: the proposer's counts as Black while the colours are open (its clock too).
    let mut seats: [&mut dyn EngineDriver; 2] = [proposer, other];
    let mut log = Swap2Log {
        proposer: Side::Black,
        decisions: Vec::new(),
    };
    let mut clock = new_clock(control);
    let mut used = [Duration::ZERO; 2];
    let mut stones: Vec<String> = Vec::new();
    let lose = |log: &Swap2Log, stones: &[String], used: [Duration; 2], ending: Ending| {
        let loser = match &ending {
            Ending::TimeForfeit(side) | Ending::Illegal(side, _) | Ending::Failure(side, _) => {
                *side
            }
            Ending::Rules => Side::Black,
        };
        let mut record = GameRecord::unplayed();
        record.used = used;
        record.swap2 = Some(log.clone());
        (
            forfeit(record, loser, ending, forfeit_score),
            Setup::Moves(stones.to_vec()),
        )
    };
    let empty = Setup::Moves(Vec::new());
    for (seat, side) in [(0, Side::Black), (1, Side::White)] {
        if let Err(failure) = seats[seat].new_game(spec, &empty) {
            return lose(
                &log,
                &stones,
                used,
                Ending::Failure(side, failure.to_string()),
            );
        }
    }
    // (seat, stone counts accepted, whether swap is) for each decision in turn.
    let steps: [(usize, &[usize], bool); 3] =
        [(0, &[3], false), (1, &[1, 2], true), (0, &[1], true)];
    for (seat, counts, swap) in steps {
        let side = if seat == 0 { Side::Black } else { Side::White };
        let engine = &mut seats[seat];
        let asked = ask(
            &mut clock,
            side,
            control,
            &mut used[seat],
            |request, deadline| engine.swap2(&stones, request, deadline),
        );
        let text = match asked {
            Ok(text) => text,
            Err(ending) => return lose(&log, &stones, used, ending),
        };
        let answer = match check_answer(&mut game, &text, counts, swap) {
            Ok(answer) => answer,
            Err(reason) => {
                let ending = Ending::Illegal(side, format!("{} (Swap2: {reason})", text.trim()));
                return lose(&log, &stones, used, ending);
            }
        };
        match answer {
            Answer::Swap => {
                log.decisions.push("swap".into());
                // The one who swaps takes Black: the proposer, or the other (so the
                // proposer is White).
                log.proposer = if seat == 0 { Side::Black } else { Side::White };
                break;
            }
            Answer::Stones(names) => {
                let count = names.len();
                log.decisions.push(names.join(" "));
                stones.extend(names);
                // One stone is White's: its player stays White.
                if seat == 0 && count == 1 {
                    log.proposer = Side::White;
                }
                if seat == 1 && count == 1 {
                    break;
                }
            }
        }
    }
    let [proposer, other] = seats;
    let engines: [&mut dyn EngineDriver; 2] = if log.proposer == Side::Black {
        [proposer, other]
    } else {
        clock.swap_sides(Instant::now());
        [other, proposer]
    };
    let setup = Setup::Moves(stones);
    let mut record = play_game(
        game,
        GameStart {
            spec,
            setup: &setup,
            clock,
        },
        engines,
        control,
        score_of,
        forfeit_score,
    );
    record.swap2 = Some(log);
    (record, setup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Config, Gomoku, Opening};
    use crate::harness::engine::{EngineFailure, GoRequest};

    /// A list of answers, decisions or words.
    type Words = &'static [&'static str];

    /// Answers Swap2 and moves from its lists, in order, and logs what it is asked.
    #[derive(Default)]
    struct Scripted {
        answers: Vec<&'static str>,
        moves: Vec<&'static str>,
        /// `new_game <setup>`, `swap2 <stones>`, `go`.
        asked: Vec<String>,
        /// How long each Swap2 answer takes.
        delay: Duration,
        /// Fails at Swap2 instead of answering.
        crash: bool,
    }

    impl Scripted {
        fn new(answers: &[&'static str], moves: &[&'static str]) -> Scripted {
            Scripted {
                answers: answers.to_vec(),
                moves: moves.to_vec(),
                ..Scripted::default()
            }
        }
    }

    impl EngineDriver for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }

        fn new_game(&mut self, _game: &str, setup: &Setup) -> Result<(), EngineFailure> {
            let Setup::Moves(moves) = setup else {
                panic!("Swap2 games start from moves")
            };
            self.asked.push(format!("new_game {}", moves.join(",")));
            Ok(())
        }

        fn go(&mut self, _request: GoRequest, _deadline: Instant) -> Result<String, EngineFailure> {
            self.asked.push("go".into());
            Ok(if self.moves.is_empty() {
                "zz".to_string()
            } else {
                self.moves.remove(0).to_string()
            })
        }

        fn opponent_moved(&mut self, _text: &str) -> Result<(), EngineFailure> {
            Ok(())
        }

        fn swap2(
            &mut self,
            stones: &[String],
            _request: GoRequest,
            _deadline: Instant,
        ) -> Result<String, EngineFailure> {
            self.asked.push(format!("swap2 {}", stones.join(",")));
            std::thread::sleep(self.delay);
            if self.crash {
                return Err(EngineFailure::Crashed);
            }
            Ok(self.answers.remove(0).to_string())
        }

        fn quit(&mut self) {}
    }

    fn gomoku(renju: bool) -> Gomoku {
        let config = if renju {
            Config::renju(15, Opening::Free)
        } else {
            Config::gomoku(15, false, Opening::Free)
        };
        Gomoku::new(config).unwrap()
    }

    /// Plays a Swap2 game, `a` proposing, under `control`.
    fn play(a: &mut Scripted, b: &mut Scripted, control: TimeControl) -> (GameRecord, Setup) {
        play_swap2(
            gomoku(true),
            "gomoku size=15 rule=renju opening=free",
            [a, b],
            control,
            |_| 0,
            1,
        )
    }

    fn moves(names: &str) -> Setup {
        Setup::Moves(names.split_whitespace().map(String::from).collect())
    }

    /// Every branch: the stones become the setup, the colours are the ones decided, and
    /// the side to move first is asked first (here it answers an occupied point and
    /// loses, which shows who it was).
    #[test]
    fn every_branch_decides_stones_and_colours() {
        // (A's answers, B's answers, decisions, stones, proposer's colour, who moves
        // first: A or B, its colour).
        let branches: [(Words, Words, Words, &str, Side, bool, Side); 4] = [
            // Three stones, then B plays White's fourth: A is Black, to move.
            (
                &["h8 i9 j10"],
                &["h9"],
                &["h8 i9 j10", "h9"],
                "h8 i9 j10 h9",
                Side::Black,
                true,
                Side::Black,
            ),
            // Three stones, then B swaps: B is Black, A White and plays the fourth.
            (
                &["h8 i9 j10"],
                &["swap"],
                &["h8 i9 j10", "swap"],
                "h8 i9 j10",
                Side::White,
                true,
                Side::White,
            ),
            // Two more stones, then A stays White with the sixth: B Black, to move.
            (
                &["h8 i9 j10", "k9"],
                &["h9 g9"],
                &["h8 i9 j10", "h9 g9", "k9"],
                "h8 i9 j10 h9 g9 k9",
                Side::White,
                false,
                Side::Black,
            ),
            // Two more stones, then A swaps: A Black, B White plays the sixth.
            (
                &["h8 i9 j10", "SWAP"],
                &["h9 g9"],
                &["h8 i9 j10", "h9 g9", "swap"],
                "h8 i9 j10 h9 g9",
                Side::Black,
                false,
                Side::White,
            ),
        ];
        for (a_answers, b_answers, decisions, stones, proposer, a_first, first) in branches {
            let mut a = Scripted::new(a_answers, &["h8"]);
            let mut b = Scripted::new(b_answers, &["h8"]);
            let (record, setup) = play(&mut a, &mut b, TimeControl::Depth(1));
            let log = record.swap2.clone().unwrap();
            assert_eq!(log.decisions, decisions, "{decisions:?}");
            assert_eq!(log.proposer, proposer, "{decisions:?}");
            assert_eq!(setup, moves(stones), "{decisions:?}");
            match &record.ending {
                Ending::Illegal(side, text) => {
                    assert_eq!(*side, first, "{decisions:?}");
                    assert_eq!(text, "h8", "{decisions:?}");
                }
                other => panic!("{decisions:?}: {other:?}"),
            }
            assert_eq!(record.winner, Some(first.opponent()));
            let (mover, waiter) = if a_first { (&a, &b) } else { (&b, &a) };
            assert_eq!(mover.asked.last().unwrap(), "go", "{decisions:?}");
            assert!(!waiter.asked.contains(&"go".to_string()), "{decisions:?}");
            // Both engines started the game afresh from the stones.
            let start = format!("new_game {}", stones.replace(' ', ","));
            assert!(a.asked.contains(&start) && b.asked.contains(&start));
            // Decisions were asked with the stones so far.
            assert_eq!(a.asked[1], "swap2 ");
            assert_eq!(b.asked[1], "swap2 h8,i9,j10");
        }
    }

    /// A bad answer loses the game for the engine that gave it, with the reason; the
    /// stones accepted before it stay the setup.
    #[test]
    fn bad_answers_forfeit_with_a_reason() {
        // (A's answers, B's answers, loser's colour, words in the message).
        let cases: [(Words, Words, Side, Words); 7] = [
            (
                &["h8 h8 j10"],
                &[],
                Side::Black,
                &["h8 h8 j10", "not an empty point"],
            ),
            (
                &["h8 i9"],
                &[],
                Side::Black,
                &["2 stones where 3 were expected"],
            ),
            (
                &["h8 i9 z99"],
                &[],
                Side::Black,
                &["h8 i9 z99 (Swap2:", "z99"],
            ),
            (&["h8 i9 p1"], &[], Side::Black, &["p1"]),
            (&["swap"], &[], Side::Black, &["swap is no answer here"]),
            (
                &["h8 i9 j10"],
                &["h9 g9 f9"],
                Side::White,
                &["3 stones where 1 or 2 or swap were expected"],
            ),
            (
                &["h8 i9 j10", "h9 g9"],
                &["k9 l9"],
                Side::Black,
                &["2 stones where 1 or swap were expected"],
            ),
        ];
        for (a_answers, b_answers, loser, words) in cases {
            let mut a = Scripted::new(a_answers, &[]);
            let mut b = Scripted::new(b_answers, &[]);
            let (record, setup) = play(&mut a, &mut b, TimeControl::Depth(1));
            assert_eq!(record.winner, Some(loser.opponent()), "{a_answers:?}");
            let Ending::Illegal(side, text) = &record.ending else {
                panic!("{a_answers:?}: {:?}", record.ending)
            };
            assert_eq!(*side, loser);
            for word in words {
                assert!(text.contains(word), "{a_answers:?}: {text}");
            }
            assert!(record.moves.is_empty());
            let Setup::Moves(stones) = setup else {
                panic!()
            };
            assert!(stones.len() <= 5, "{stones:?}");
        }
    }

    /// Renju: a stone on a point forbidden to Black is refused with the rule's reason,
    /// and the board stays as it was. (Swap2's three black stones cannot make one: the
    /// check is the rules' own, shown here on a fuller board.)
    #[test]
    fn a_forbidden_point_for_black_is_refused() {
        let mut game = gomoku(true);
        for name in ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"] {
            let mv = game.parse_move(name).unwrap();
            game.make(mv);
        }
        let before = game.clone();
        let refused = check_answer(&mut game, "h8", &[1], true).err().unwrap();
        assert!(refused.contains("h8 is a forbidden point"), "{refused}");
        assert_eq!(format!("{game:?}"), format!("{before:?}"));
        assert!(matches!(
            check_answer(&mut game, "swap", &[1], true),
            Ok(Answer::Swap)
        ));
        let Ok(Answer::Stones(names)) = check_answer(&mut game, "7,9", &[1], true) else {
            panic!()
        };
        assert_eq!(names.len(), 1);
        assert_eq!(game.parse_move(&names[0]), game.parse_move("7,9"));
    }

    /// A decision is timed like a move: too slow loses on time, a crash is a failure,
    /// and under a clock its time stays on the decider's clock for the game.
    #[test]
    fn decisions_are_timed_and_failures_lose() {
        let mut a = Scripted::new(&["h8 i9 j10"], &[]);
        a.delay = Duration::from_millis(150);
        let mut b = Scripted::new(&["swap"], &[]);
        let (record, _) = play(
            &mut a,
            &mut b,
            TimeControl::MoveTime(Duration::from_millis(20)),
        );
        assert_eq!(record.ending, Ending::TimeForfeit(Side::Black));
        let mut a = Scripted::new(&["h8 i9 j10"], &[]);
        let mut b = Scripted::new(&[], &[]);
        b.crash = true;
        let (record, _) = play(&mut a, &mut b, TimeControl::Depth(1));
        assert_eq!(
            record.ending,
            Ending::Failure(Side::White, "crashed".into())
        );
        // B swaps after a 60 ms decision: B is Black, and the time is on Black's clock.
        let mut a = Scripted::new(&["h8 i9 j10"], &["h8"]);
        let mut b = Scripted::new(&["swap"], &[]);
        b.delay = Duration::from_millis(60);
        let clock = TimeControl::Clock {
            base: Duration::from_secs(5),
            inc: Duration::ZERO,
        };
        let (record, _) = play(&mut a, &mut b, clock);
        assert_eq!(record.swap2.unwrap().proposer, Side::White);
        assert!(
            record.used[0] >= Duration::from_millis(60),
            "{:?}",
            record.used
        );
        assert!(
            record.used[1] < Duration::from_millis(60),
            "{:?}",
            record.used
        );
    }
}
