//! Othello's roles for the engine: evaluation, final scores, move ordering and the exact
//! endgame solver.

use super::bitboard::{flips, legal_moves, square_bit};
use super::endgame::{Solver, final_margin};
use super::{Othello, Rule, book, eval, probcut};
use crate::game::roles::{Evaluate, ProbCut, Proof, ProofKind, Score, ScoreValue, Scoring, Solve};
use crate::game::{Game, Move};
use crate::stop::Stop;

/// Centi-discs per disc.
pub const DISC: Score = 100;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Where the clock's shares per move are planned to end: the moves after the exact
/// solve cost nothing, so the midgame spends as if the game ended here. Planned at 26
/// empties, 10-s games came to 20 empties with too little clock to solve them: against
/// NTest, from 20 empties on, 30 discs lost in 9 of 40 games (`scripts/endgame-losses.py`);
/// planned at 18, 4 in 2.
const PLANNED_EMPTIES: u32 = 18;

/// Nodes searched this deep or deeper order their moves by the children's evaluations
/// too; below, their subtrees cost little more than the evaluations would.
const EVALUATED_ORDER_DEPTH: u32 = 3;

/// Moves of the proven best line an exact solve reports.
const PV_LENGTH: usize = 12;

impl Evaluate for Othello {
    fn evaluate(&self) -> Score {
        eval::evaluate(self)
    }

    fn final_score(&self) -> Score {
        let margin = final_margin(
            self.player(),
            self.opponent(),
            self.board().count_ones() as i32,
        );
        DISC * if self.rule() == Rule::Misere {
            -margin
        } else {
            margin
        }
    }

    /// The moves to [`PLANNED_EMPTIES`] and two in hand.
    fn moves_left(&self) -> u32 {
        self.empties()
            .count_ones()
            .saturating_sub(PLANNED_EMPTIES)
            .div_ceil(2)
            + 2
    }

    fn book_move(&self, spread: u32, seed: u64) -> Option<(Move, Score)> {
        book::shipped(self.rule()).choose(self, spread, seed)
    }

    fn probcut(&self, depth: u32) -> Option<ProbCut> {
        // Fitted for the trained evaluations (8x8) only.
        if self.board() != !0 {
            return None;
        }
        probcut::probcut(self.rule(), self.empties().count_ones(), depth)
    }

    /// Corners first and the opponent's replies fewest (fastest first); from
    /// [`EVALUATED_ORDER_DEPTH`] on, the child's pattern evaluation too, one disc of it
    /// weighing as a quarter of a reply.
    fn order_key(&self, mv: Move, depth: u32) -> i32 {
        let square = mv.square();
        let flipped = flips(square, self.player(), self.opponent());
        let bit = square_bit(square);
        let replies = legal_moves(
            self.opponent() ^ flipped,
            self.player() | flipped | bit,
            self.board(),
        );
        let mobility = 8 * (bit & CORNERS != 0) as i32 - replies.count_ones() as i32;
        if depth < EVALUATED_ORDER_DEPTH {
            return mobility;
        }
        match self.child_pattern_evaluation(square, flipped) {
            Some(child) => 4 * mobility - child / 25,
            None => mobility,
        }
    }

    /// The evaluated order finds the cutoffs that killers would guess.
    const KILLERS: bool = false;
}

fn square_move(square: Option<usize>) -> Move {
    square.map_or(Move::PASS, |square| Move::new(square as u16))
}

impl Solve for Othello {
    type SolverTable = Solver;

    fn solver_table(&self, bytes: usize) -> Result<Solver, String> {
        Solver::try_new(bytes)
    }

    fn clear_solver_table(table: &mut Solver) {
        table.zero();
    }

    fn forget_solver_table(table: &mut Solver) {
        table.forget();
    }

    fn set_solver_threads(table: &mut Solver, threads: usize) {
        table.set_threads(threads);
    }

    fn set_solver_jamboree(table: &mut Solver, children: usize) {
        table.set_jamboree(children);
    }

    fn has_exact_solver(&self) -> bool {
        true
    }

    fn exact_size(&self) -> Option<u32> {
        Some(self.empties().count_ones())
    }

    fn solve_window(
        &self,
        solver: &mut Solver,
        alpha: Score,
        beta: Score,
        stop: &Stop,
    ) -> (Option<Score>, u64) {
        // The solver counts whole discs: the disc window that holds (alpha, beta).
        let low = alpha.div_euclid(DISC);
        let high = -(-beta).div_euclid(DISC);
        solver.nodes = 0;
        let (player, opponent, board) = (self.player(), self.opponent(), self.board());
        let solution = solver.solve_window(player, opponent, board, self.rule(), low, high, stop);
        (solution.map(|s| DISC * s.score), solver.nodes)
    }

    fn solve_exact(&self, solver: &mut Solver, stop: &Stop) -> Option<Proof> {
        let (player, opponent, board) = (self.player(), self.opponent(), self.board());
        solver.nodes = 0;
        match solver.solve_line(player, opponent, board, self.rule(), PV_LENGTH, stop) {
            Some((score, line)) => {
                let pv: Vec<Move> = line.into_iter().map(square_move).collect();
                debug_assert!(self.is_legal(pv[0]));
                Some(Proof::exact(DISC * score, pv, solver.nodes))
            }
            None => {
                // Even a proof of nothing says how many nodes it took.
                let progress = solver.progress();
                let squares = board.count_ones() as i32;
                let pv = match progress.best {
                    Some(square) => vec![Move::new(square as u16)],
                    None if legal_moves(player, opponent, board) == 0
                        && progress.lower > -squares =>
                    {
                        vec![Move::PASS]
                    }
                    None => Vec::new(),
                };
                Some(Proof {
                    lower: DISC * progress.lower,
                    upper: DISC * progress.upper,
                    pv,
                    nodes: solver.nodes,
                    kind: ProofKind::Solve,
                })
            }
        }
    }
}

impl Scoring for Othello {
    fn score_value(&self, score: Score, exact: bool) -> ScoreValue {
        if exact {
            ScoreValue::Margin(score / DISC)
        } else {
            ScoreValue::Eval {
                value: score,
                per_unit: DISC,
            }
        }
    }

    fn match_score(&self) -> i32 {
        let margin = final_margin(
            self.discs(crate::game::Side::Black),
            self.discs(crate::game::Side::White),
            self.board().count_ones() as i32,
        );
        if self.rule() == Rule::Misere {
            -margin
        } else {
            margin
        }
    }

    fn forfeit_score(&self) -> i32 {
        (self.size() * self.size()) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Limits;
    use crate::search::time::{TimeManager, budget};
    use rand::{Rng, SeedableRng, rngs::StdRng};
    use std::time::{Duration, Instant};

    /// Over whole games under a clock, moves that take two thirds of their share (as
    /// searches that stop short of an iteration do) spend most of it before the solve,
    /// and the solve starts early (22 empties at 25 s and 300 s, 20 at 10 s, 18 at 5 s)
    /// with time that the clock holds. (Planned at 26 empties, 10-s games came to the
    /// solve at 18 empties with 12% of the clock; now at 20 with 26%, 25-s and longer
    /// games at 22 with 32%.)
    #[test]
    fn a_clocked_game_spends_its_clock_before_the_solve() {
        let overhead = Duration::from_millis(20);
        for (seconds, seed, least_used, least_empties) in [
            (25, 1, 0.65, 22),
            (300, 2, 0.65, 22),
            (10, 4, 0.7, 20),
            (5, 3, 0.75, 18),
        ] {
            {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut game = Othello::new(8, Rule::Normal).unwrap();
                let mut clock = Duration::from_secs(seconds);
                let mut moves = Vec::new();
                while game.outcome().is_none() {
                    game.generate_moves(&mut moves);
                    let empties = game.empties().count_ones();
                    if game.side_to_move() == crate::game::Side::Black && moves[0] != Move::PASS {
                        let limits = Limits {
                            time: Some(clock),
                            ..Limits::default()
                        };
                        let mut time =
                            TimeManager::new(&limits, game.moves_left(), overhead, Instant::now());
                        time.plan_solve(game.exact_size());
                        if empties <= time.solve_limit() {
                            let used = 1.0 - clock.as_secs_f64() / seconds as f64;
                            assert!(
                                used > least_used,
                                "{seconds} s: {used:.2} used at {empties}"
                            );
                            assert!(empties >= least_empties, "{seconds} s: solved at {empties}");
                            let solve_end = time.hard_deadline().unwrap() - time.start();
                            assert!(solve_end + overhead <= clock, "{seconds} s: {solve_end:?}");
                            break;
                        }
                        let budget = budget(&limits, game.moves_left(), overhead).unwrap();
                        let spent = budget.soft * 2 / 3 + overhead;
                        assert!(spent <= clock, "{seconds} s: {spent:?} of {clock:?}");
                        clock -= spent;
                    }
                    game.make(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }
}
