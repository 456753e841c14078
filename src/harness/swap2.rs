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
