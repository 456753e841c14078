//! The k-in-a-row games' roles for the engine (`Evaluate`, `Solve`, `Scoring`) over the
//! evaluation (`eval`), the candidate moves (`candidates`) and the solvers.

use super::candidates::{candidates, keep_best, late_move_reduction};
use super::eval::{capture_score, capture_threats, static_score};
use super::exact::{self, ExactTable};
use super::pattern::Threat;
use super::{Family, Gomoku, quiesce, threat};
use crate::game::roles::{Evaluate, Proof, Score, ScoreValue, Scoring, Solve};
use crate::game::{Game, Move};
use crate::stop::Stop;

pub use crate::game::roles::WIN;

/// A position won by force within a move or two, but not yet searched out.
pub(crate) const SURE_WIN: Score = 100_000;

/// The largest positional evaluation, well below [`SURE_WIN`]: the sums of line values
/// grow with the board (99x99 tic-tac-toe reached 137,000), and a sure win must still
/// sort above every one of them.
pub(crate) const MAX_EVAL: Score = SURE_WIN / 2;

/// Largest board solved exactly by `solve` (25 points: 5x5), from the start up to 16
/// points and on larger boards once at most `EXACT_EMPTIES` points are left.
const EXACT_POINTS: usize = 25;
const EXACT_EMPTIES: u32 = 20;

/// Most candidate moves searched below the root: the best by the points' value to both
/// sides.
const SEARCH_CANDIDATES: usize = 8;

/// The moves a side plans to think about from the start: games between engines last
/// about 20 a side, but a search stops well short of its share (it starts no iteration
/// it cannot finish), so planning for fewer spends the clock. And the fewest the time
/// manager plans for while the game goes on.
const EXPECTED_MOVES: u32 = 11;
const MIN_MOVES_LEFT: u32 = 5;

impl Evaluate for Gomoku {
    fn evaluate(&self) -> Score {
        let me = self.side_to_move();
        let them = me.opponent();
        if !self.has_patterns() {
            return static_score(self, me).clamp(-MAX_EVAL, MAX_EVAL);
        }
        if self.threat_count(me, Threat::Five) > 0 {
            return SURE_WIN;
        }
        let pente = self.config.family == Family::Pente;
        if !pente {
            let their_fives = self.threat_count(them, Threat::Five);
            if their_fives >= 2 {
                return -SURE_WIN;
            }
            if their_fives == 0 && self.has_open_four(me) {
                return SURE_WIN - 1;
            }
        }
        // The side to move gets to use its threats first: its best move's class is worth
        // a tempo, a bounded bonus so that scores agree between odd and even depths.
        let tempo = self.tempo(me);
        if pente {
            let [mine, theirs] = capture_threats(self);
            let score = self.potential(me) - self.potential(them)
                + tempo
                + capture_score(self.captures(me))
                - capture_score(self.captures(them))
                + 60 * mine
                - 40 * theirs;
            return score.clamp(-MAX_EVAL, MAX_EVAL);
        }
        let mut score = self.role_potential(me, true) - self.role_potential(them, false)
            + tempo
            + self.threat_correction(me);
        if self.threat_count(them, Threat::Five) == 0 {
            score += self.terms_score(me);
        }
        score.clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn final_score(&self) -> Score {
        match self.outcome().and_then(|outcome| outcome.winner) {
            Some(winner) if winner == self.side_to_move() => WIN,
            Some(_) => -WIN,
            None => 0,
        }
    }

    /// Fewer as own stones accumulate, and never more than the empty points allow.
    fn moves_left(&self) -> u32 {
        let own = self.stones(self.side_to_move());
        let expected = if self.config.k >= 5 {
            EXPECTED_MOVES.saturating_sub(own).max(MIN_MOVES_LEFT)
        } else {
            u32::MAX
        };
        expected.min(self.empties().div_ceil(2)).max(1)
    }

    /// A four to block, or an open three when the side to move has no four to play first.
    fn must_answer(&self) -> bool {
        let (me, them) = (self.side_to_move(), self.side_to_move().opponent());
        self.reply_is_forced()
            || (self.config.family == Family::Gomoku
                && self.threat_count(me, Threat::Four) == 0
                && self.has_open_four(them))
    }

    fn reply_is_forced(&self) -> bool {
        let (me, them) = (self.side_to_move(), self.side_to_move().opponent());
        self.config.family == Family::Gomoku
            && self.threat_count(me, Threat::Five) == 0
            && self.threat_count(them, Threat::Five) > 0
    }

    fn quiesce(&mut self, alpha: Score, beta: Score, ply: usize, nodes: &mut u64) -> Score {
        if self.config.family == Family::Gomoku && self.has_patterns() {
            quiesce::quiesce(
                self,
                alpha,
                beta,
                ply,
                quiesce::QUIESCE_FOURS,
                [None; 2],
                nodes,
            )
        } else {
            self.evaluate()
        }
    }

    /// Gomoku, from the third move on at depth 2 and more: `ln(depth) * ln(index + 1)`
    /// plies, rounded, for every move but a four (open threes too); at least one ply,
    /// and two from the sixth move at depth 4, for a move that neither makes nor stops
    /// an open three. Where a four or an open three must be answered, only that floor.
    fn reduction(&self, mv: Move, index: usize, depth: u32) -> u32 {
        if self.config.family != Family::Gomoku || index < 2 || depth < 2 {
            return 0;
        }
        let quiet = !self.is_threat_point(mv);
        let floor = match (quiet, index >= 5 && depth >= 4) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        if self.must_answer() || self.threat(self.side_to_move(), mv.square()).is_four() {
            return floor;
        }
        late_move_reduction(depth, index).max(floor)
    }

    fn search_moves(&self, moves: &mut Vec<Move>) {
        candidates(self, moves);
        if moves.len() > SEARCH_CANDIDATES && self.config.family == Family::Gomoku {
            // Below the root only the points that matter most to either side are searched.
            keep_best(self, moves, SEARCH_CANDIDATES);
        }
    }

    fn order_key(&self, mv: Move, _depth: u32) -> i32 {
        self.point_key(mv)
    }

    fn root_moves(&self, moves: &mut Vec<Move>, stop: &Stop) {
        candidates(self, moves);
        if moves.len() > 1 && self.has_threat_solver() {
            threat::keep_defences(self, moves, stop);
        }
    }
}

impl Solve for Gomoku {
    type SolverTable = ExactTable;

    fn solver_table(&self, bytes: usize) -> Result<ExactTable, String> {
        ExactTable::try_new(bytes, self.size() * self.size())
    }

    fn clear_solver_table(table: &mut ExactTable) {
        table.clear();
    }

    fn set_solver_threads(table: &mut ExactTable, threads: usize) {
        table.set_threads(threads);
    }

    fn set_solver_jamboree(table: &mut ExactTable, children: usize) {
        table.set_jamboree(children);
    }

    fn has_exact_solver(&self) -> bool {
        self.size() * self.size() <= EXACT_POINTS && self.has_patterns()
    }

    fn exact_size(&self) -> Option<u32> {
        let points = self.size() * self.size();
        let fits = points <= 16 || (points <= EXACT_POINTS && self.empties() <= EXACT_EMPTIES);
        (fits && self.has_patterns()).then(|| self.empties())
    }

    fn solve_exact(&self, table: &mut ExactTable, stop: &Stop) -> Option<Proof> {
        exact::solve(self, table, stop)
    }

    fn solve_window(
        &self,
        table: &mut ExactTable,
        alpha: Score,
        beta: Score,
        stop: &Stop,
    ) -> (Option<Score>, u64) {
        exact::solve_window(self, table, alpha, beta, stop)
    }

    fn has_threat_solver(&self) -> bool {
        self.has_patterns() && self.config.k == 5
    }

    fn threat_win(&self, stop: &Stop) -> Option<Proof> {
        threat::find_win(self, stop)
    }
}

impl Scoring for Gomoku {
    fn score_value(&self, score: Score, exact: bool) -> ScoreValue {
        match ScoreValue::from_win_distance(score) {
            Some(value) => value,
            None if exact && score == 0 => ScoreValue::Draw,
            None => ScoreValue::Eval {
                value: score,
                per_unit: 1,
            },
        }
    }
}
