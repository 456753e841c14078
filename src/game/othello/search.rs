//! What the generic search needs from Othello: evaluation, final scores, move ordering
//! and the exact endgame solver.

use std::sync::atomic::AtomicBool;

use super::bitboard::{flips, legal_moves, square_bit};
use super::endgame::{Solver, final_margin};
use super::{Othello, Rule, eval};
use crate::game::{Game, Move};
use crate::search::{Exact, Score, SearchGame};

/// Centi-discs per disc.
pub const DISC: Score = 100;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// log2 of the endgame table's entries (24 bytes each) for a solve with this many
/// empties: small solves must not pay for clearing a big table, which no stop can cut,
/// and the longest (minutes or more) get 400 MB.
fn solver_table_bits(empties: u32) -> u32 {
    match empties {
        0..=19 => (empties + 2).max(10),
        20..=25 => 22,
        _ => 24,
    }
}

/// Moves of the proven best line an exact solve reports.
const PV_LENGTH: usize = 12;

impl SearchGame for Othello {
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

    fn moves_left(&self) -> u32 {
        self.empties().count_ones().div_ceil(2)
    }

    fn order_key(&self, mv: Move) -> i32 {
        let square = mv.square();
        let flipped = flips(square, self.player(), self.opponent());
        let bit = square_bit(square);
        let replies = legal_moves(
            self.opponent() ^ flipped,
            self.player() | flipped | bit,
            self.board(),
        );
        8 * (bit & CORNERS != 0) as i32 - replies.count_ones() as i32
    }

    fn exact_size(&self) -> Option<u32> {
        Some(self.empties().count_ones())
    }

    fn solve_exact(&self, stop: &AtomicBool) -> Option<Exact> {
        let empties = self.empties().count_ones();
        let mut solver = Solver::new(solver_table_bits(empties));
        let (player, opponent, board) = (self.player(), self.opponent(), self.board());
        let (score, line) =
            solver.solve_line(player, opponent, board, self.rule(), PV_LENGTH, stop)?;
        let pv: Vec<Move> = line
            .iter()
            .map(|square| square.map_or(Move::PASS, |square| Move::new(square as u16)))
            .collect();
        debug_assert!(self.is_legal(pv[0]));
        Some(Exact {
            score: DISC * score,
            pv,
            nodes: solver.nodes,
        })
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

    fn format_score(&self, score: Score) -> String {
        format!("{:+.2}", score as f64 / DISC as f64)
    }

    fn format_exact_score(&self, score: Score) -> String {
        format!("{:+}", score / DISC)
    }
}
