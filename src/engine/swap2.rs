//! Swap2, the Gomoku opening in which the players decide the colours: the one way arbor
//! takes its decisions, for every front end (`SWAP2BOARD` in `protocol::gomocup`,
//! `swap2` in `protocol::native`).
//!
//! The proposer puts three stones on the empty board (black, white, black); the other
//! player takes Black (`swap`), stays White and plays the fourth stone, or adds two stones
//! (white, black) and lets the proposer choose: Black (`swap`) or White with the sixth
//! stone.
//!
//! The decision comes from an analysis of the position under the limits of one move:
//! with no stones yet, Black's centre stone and White's diagonally beside it are fixed and
//! Black's third stone is the one of [`CHOICES`] candidates whose score leaves the
//! position closest to even; with three stones, White's best score S (White's view, the
//! game's evaluation points) gives two more stones when |S| <= [`EVEN`] (White's best move
//! and Black's best reply), the move when S > [`EVEN`], `swap` below; with five stones,
//! S >= 0 plays the move, S < 0 takes Black.

use std::time::{Duration, Instant};

use super::job::JobKind;
use super::session::Task;
use super::{AnalysisOptions, Engine, EngineError, Finished};
use crate::game::gomoku::Family;
use crate::game::roles::ScoreValue;
use crate::game::variant::Variant;
use crate::game::{Move, Side};
use crate::search::limits::Limits;
use crate::search::report::Report;

/// Third stones weighed on an empty board.
pub const CHOICES: usize = 12;
/// A score (White's, with three stones) this close to 0 gets two more stones.
pub const EVEN: i64 = 60;
/// How long a decision thinks when it is given no limit.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Where a Swap2 opening stands: the decision asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The empty board: the proposer's three stones.
    Propose,
    /// Three stones: `swap`, White's fourth stone, or two more stones.
    Answer,
    /// Five stones: `swap` (Black) or White's sixth stone.
    Choose,
}

impl Stage {
    /// The stage with `stones` on the board as a Swap2 request gives them.
    pub fn of(stones: usize) -> Option<Stage> {
        match stones {
            0 => Some(Stage::Propose),
            3 => Some(Stage::Answer),
            5 => Some(Stage::Choose),
            _ => None,
        }
    }

    /// How many stones the board holds during the stage's analysis (the proposer's two
    /// fixed stones on an empty board).
    fn analysed_stones(self) -> usize {
        match self {
            Stage::Propose => 2,
            Stage::Answer => 3,
            Stage::Choose => 5,
        }
    }
}

/// A Swap2 decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Take Black.
    Swap,
    /// Stones in playing order: the proposer's three, White's fourth, White's fourth and
    /// Black's fifth, or White's sixth.
    Stones(Vec<Move>),
}

/// A root line of an analysis: its first move, its score as one number, its moves.
pub struct Ranked<'a> {
    pub mv: Move,
    pub score: i64,
    pub pv: &'a [Move],
}

/// A score as one number for comparing: evaluations as they are, wins and losses
/// beyond any evaluation.
pub fn score_number(score: ScoreValue) -> i64 {
    match score {
        ScoreValue::Eval { value, .. } | ScoreValue::Margin(value) => value as i64,
        ScoreValue::Win(plies) => 1_000_000 - plies as i64,
        ScoreValue::Loss(plies) => -1_000_000 + plies as i64,
        ScoreValue::Draw => 0,
    }
}

/// The report's lines with a move, best first.
pub fn ranked(report: &Report) -> Vec<Ranked<'_>> {
    report
        .lines
        .iter()
        .filter(|line| !line.pv.is_empty())
        .map(|line| Ranked {
            mv: line.pv[0],
            score: score_number(line.score),
            pv: &line.pv,
        })
        .collect()
}

/// The decision at `stage` from the analysis's lines (best first); `fixed` are the
/// proposer's two fixed stones (used at [`Stage::Propose`]). `None` without a line.
pub fn decide(stage: Stage, fixed: [Move; 2], lines: &[Ranked]) -> Option<Answer> {
    let best = lines.first()?;
    Some(match stage {
        Stage::Propose => {
            // The third stone that leaves the position closest to even for White.
            let third = lines.iter().min_by_key(|line| line.score.abs())?.mv;
            Answer::Stones(vec![fixed[0], fixed[1], third])
        }
        Stage::Answer if best.score.abs() <= EVEN && best.pv.len() >= 2 => {
            Answer::Stones(best.pv[..2].to_vec())
        }
        // White's fourth or sixth stone when White stands well enough, else Black.
        _ if best.score >= 0 => Answer::Stones(vec![best.mv]),
        _ => Answer::Swap,
    })
}

/// The time a decision thinks under `limits`: none under a depth or node limit, else the
/// move time, a twentieth of the clock (the smaller of the two when both are given) or
/// [`DEFAULT_TIME`], less `overhead`, never under 10 ms.
pub fn decision_time(limits: &Limits, overhead: Duration) -> Option<Duration> {
    if limits.depth.is_some() || limits.nodes.is_some() {
        return None;
    }
    let share = limits.time.map(|clock| clock / 20);
    let time = match (limits.movetime, share) {
        (Some(turn), Some(share)) => turn.min(share),
        (turn, share) => turn.or(share).unwrap_or(DEFAULT_TIME),
    };
    Some(time.saturating_sub(overhead).max(Duration::from_millis(10)))
}

/// The proposer's fixed stones on a `size` board: Black on the centre, White diagonally
/// beside it (up and to the right), as `x,y` names.
fn fixed_names(size: usize) -> [String; 2] {
    let centre = size / 2;
    [
        format!("{centre},{centre}"),
        format!("{},{}", centre + 1, centre - 1),
    ]
}

impl Engine {
    /// Sets up a Swap2 decision: a new game of the current variant (a Gomoku) with
    /// `stones` (0, 3 or 5 names, in playing order: black, white, black, ...) played,
    /// each checked by the rules. On an empty board the proposer's two fixed stones are
    /// played too, so that the analysis weighs Black's third.
    pub fn swap2_board(&mut self, stones: &[String]) -> Result<Stage, EngineError> {
        self.ensure_idle()?;
        match self.variant() {
            Variant::KInRow(config) if config.family == Family::Gomoku => {}
            other => {
                return Err(EngineError::IllegalMove(format!(
                    "Swap2 is a Gomoku opening, not one of {other}"
                )));
            }
        }
        let stage = Stage::of(stones.len()).ok_or_else(|| {
            EngineError::IllegalMove(format!(
                "Swap2 takes 0, 3 or 5 stones, not {}",
                stones.len()
            ))
        })?;
        // The empty board, keeping the tables (a restart would clear them, on the
        // decision's time).
        let size = self.size();
        self.session
            .set_board(&"-".repeat(size * size), Side::Black)?;
        let fixed = fixed_names(size);
        let stones = if stage == Stage::Propose {
            &fixed[..]
        } else {
            stones
        };
        for text in stones {
            let mv = self.session.legal_move(text)?;
            self.session.play(mv)?;
        }
        Ok(stage)
    }

    /// Starts the Swap2 decision for the position [`Engine::swap2_board`] set up, under
    /// the limits of one move (see [`decision_time`]), choosing among `moves` (names;
    /// empty for the search's own candidates). The answer comes as
    /// [`Finished::Swap2`], its stones played on the board.
    pub fn swap2(
        &mut self,
        limits: &Limits,
        moves: Vec<String>,
        started: Instant,
    ) -> Result<(), EngineError> {
        self.ensure_idle()?;
        let stones = self.session.history().len();
        let stage = [Stage::Propose, Stage::Answer, Stage::Choose]
            .into_iter()
            .find(|stage| stage.analysed_stones() == stones)
            .ok_or_else(|| {
                EngineError::IllegalMove(format!(
                    "no Swap2 position: {stones} stones were played since the empty board"
                ))
            })?;
        let options = AnalysisOptions {
            lines: Some(if stage == Stage::Propose { CHOICES } else { 1 }),
            moves,
            time: decision_time(limits, self.move_overhead),
            depth: limits.depth,
            nodes: limits.nodes,
            interval: None,
        };
        let (request, stop) = self.analysis_request(&options, started)?;
        self.start(JobKind::Swap2, Task::Analyze(request), stop)?;
        self.swap2_stage = Some(stage);
        Ok(())
    }

    /// A Swap2 analysis has ended with `report`: the decision, its stones played (at
    /// [`Stage::Propose`], the board holds the three stones afterwards).
    pub(super) fn finish_swap2(&mut self, stage: Option<Stage>, report: Report) -> Finished {
        let failed = |message: String| Finished::Failed {
            kind: JobKind::Swap2,
            message,
        };
        let Some(stage) = stage else {
            return failed("internal error: no Swap2 decision was running".into());
        };
        let history = self.session.history();
        let fixed = match history.as_slice() {
            [black, white, ..] => [*black, *white],
            _ => [Move::PASS; 2],
        };
        let Some(answer) = decide(stage, fixed, &ranked(&report)) else {
            return failed("internal error: the analysis gave no move".into());
        };
        if let Answer::Stones(stones) = &answer {
            let skip = if stage == Stage::Propose { 2 } else { 0 };
            for &mv in &stones[skip..] {
                if let Err(error) = self.session.play(mv) {
                    return failed(format!("internal error: {error}"));
                }
            }
        }
        Finished::Swap2 { answer, report }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::report::Line;
    use crate::search::tt::Bound;

    fn at(x: usize, y: usize) -> Move {
        Move::new((y * 15 + x) as u16)
    }

    /// A report of root lines (score, pv).
    fn report_of(lines: &[(i32, &[Move])]) -> Report {
        Report {
            depth: 4,
            nodes: 100,
            elapsed: Duration::from_millis(5),
            exact: false,
            lines: lines
                .iter()
                .map(|&(value, pv)| Line {
                    score: ScoreValue::Eval { value, per_unit: 1 },
                    bound: Bound::Exact,
                    pv: pv.to_vec(),
                    proof: None,
                    depth: 4,
                })
                .collect(),
        }
    }

    #[test]
    fn decisions_in_every_branch() {
        let fixed = [at(7, 7), at(8, 6)];
        let decide = |stage, report: &Report| decide(stage, fixed, &ranked(report));
        // Three stones: White stands well, plays the fourth stone.
        let good = report_of(&[(300, &[at(6, 6), at(5, 5)])]);
        assert_eq!(
            decide(Stage::Answer, &good),
            Some(Answer::Stones(vec![at(6, 6)]))
        );
        // White stands badly: take Black.
        let bad = report_of(&[(-300, &[at(6, 6), at(5, 5)])]);
        assert_eq!(decide(Stage::Answer, &bad), Some(Answer::Swap));
        // Near even: two more stones, White's and Black's; the other side chooses.
        let even = report_of(&[(20, &[at(6, 6), at(5, 5)])]);
        assert_eq!(
            decide(Stage::Answer, &even),
            Some(Answer::Stones(vec![at(6, 6), at(5, 5)]))
        );
        // Near even but a line of one move: the move.
        let short = report_of(&[(20, &[at(6, 6)])]);
        assert_eq!(
            decide(Stage::Answer, &short),
            Some(Answer::Stones(vec![at(6, 6)]))
        );
        // Five stones: play White, or take Black.
        assert_eq!(
            decide(Stage::Choose, &even),
            Some(Answer::Stones(vec![at(6, 6)]))
        );
        let slightly_bad = report_of(&[(-20, &[at(6, 6)])]);
        assert_eq!(decide(Stage::Choose, &slightly_bad), Some(Answer::Swap));
        // An empty board: the fixed stones and the third stone closest to even.
        let choices = report_of(&[(400, &[at(7, 8)]), (-30, &[at(9, 7)]), (120, &[at(6, 6)])]);
        assert_eq!(
            decide(Stage::Propose, &choices),
            Some(Answer::Stones(vec![at(7, 7), at(8, 6), at(9, 7)]))
        );
        assert_eq!(decide(Stage::Answer, &report_of(&[])), None);
    }

    #[test]
    fn decision_time_is_one_move_s() {
        let ms = Duration::from_millis;
        let overhead = ms(20);
        let limits = |time, movetime, nodes| Limits {
            time,
            movetime,
            nodes,
            ..Limits::default()
        };
        assert_eq!(
            decision_time(&limits(None, Some(ms(500)), None), overhead),
            Some(ms(480))
        );
        assert_eq!(
            decision_time(&limits(Some(ms(10_000)), None, None), overhead),
            Some(ms(480))
        );
        assert_eq!(
            decision_time(&limits(Some(ms(10_000)), Some(ms(100)), None), overhead),
            Some(ms(80))
        );
        assert_eq!(
            decision_time(&limits(None, None, Some(1000)), overhead),
            None
        );
        assert_eq!(
            decision_time(&limits(None, None, None), overhead),
            Some(DEFAULT_TIME - overhead)
        );
        assert_eq!(
            decision_time(&limits(Some(ms(100)), None, None), overhead),
            Some(ms(10))
        );
        assert_eq!(Stage::of(4), None);
    }
}
