//! Hand-written Othello evaluation in centi-discs from the side to move's view:
//! mobility, potential mobility, corners and the squares next to them, and the disc
//! count late in the game, with weights that move with the game's phase. Misère has its
//! own weights: corners anchor discs that can never be given away, so they hurt there.
//!
//! The weights are a first hand-set version; `Weights` is the seam where tuned or
//! pattern-based evaluations plug in.

use std::sync::LazyLock;

use super::bitboard::{legal_moves, square_bit};
use super::{Othello, Rule};

/// Weights at the start (index 0) and at the end (index 1) of the game, centi-discs.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub mobility: [i32; 2],
    pub frontier: [i32; 2],
    pub corner: [i32; 2],
    pub x_square: [i32; 2],
    pub c_square: [i32; 2],
    pub discs: [i32; 2],
}

pub const NORMAL: Weights = Weights {
    mobility: [90, 40],
    frontier: [30, 10],
    corner: [800, 400],
    x_square: [-350, -100],
    c_square: [-120, -40],
    discs: [-10, 60],
};

pub const MISERE: Weights = Weights {
    mobility: [90, 40],
    frontier: [20, 5],
    corner: [-300, -200],
    x_square: [150, 50],
    c_square: [40, 10],
    discs: [15, -60],
};

/// Corners with their diagonal (X) and edge (C) neighbours, per board size.
struct Geometry {
    corners: u64,
    x_squares: [(u64, u64); 4],
    c_squares: [(u64, u64); 4],
}

static GEOMETRY: LazyLock<[Geometry; 3]> =
    LazyLock::new(|| [geometry(4), geometry(6), geometry(8)]);

fn geometry(size: usize) -> Geometry {
    let at = |col: usize, row: usize| square_bit(row * 8 + col);
    let last = size - 1;
    let corners = [
        (0, 0, 1, 1),
        (last, 0, last - 1, 1),
        (0, last, 1, last - 1),
        (last, last, last - 1, last - 1),
    ];
    let mut x_squares = [(0, 0); 4];
    let mut c_squares = [(0, 0); 4];
    for (index, &(col, row, inner_col, inner_row)) in corners.iter().enumerate() {
        x_squares[index] = (at(col, row), at(inner_col, inner_row));
        c_squares[index] = (at(col, row), at(inner_col, row) | at(col, inner_row));
    }
    Geometry {
        corners: corners
            .iter()
            .fold(0, |bits, &(col, row, _, _)| bits | at(col, row)),
        x_squares,
        c_squares,
    }
}

/// Empty squares next to `discs` (what an opponent's frontier offers the side to move).
fn neighbours(discs: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let east = (discs << 1) & NOT_A;
    let west = (discs >> 1) & NOT_H;
    let row = discs | east | west;
    east | west | (row << 8) | (row >> 8)
}

pub fn evaluate(game: &Othello) -> i32 {
    let (player, opponent, board) = (game.player(), game.opponent(), game.board());
    let weights = match game.rule() {
        Rule::Normal => &NORMAL,
        Rule::Misere => &MISERE,
    };
    let geometry = &GEOMETRY[board_index(board)];
    let empty = board & !(player | opponent);
    let squares = board.count_ones() as i32;
    // Phase 0 at the start, `squares` at the end.
    let filled = squares - empty.count_ones() as i32;
    let blend = |pair: [i32; 2]| (pair[0] * (squares - filled) + pair[1] * filled) / squares;

    let own_moves = legal_moves(player, opponent, board).count_ones() as i32;
    let other_moves = legal_moves(opponent, player, board).count_ones() as i32;
    let mobility = own_moves - other_moves;
    let frontier = (neighbours(opponent) & empty).count_ones() as i32
        - (neighbours(player) & empty).count_ones() as i32;
    let corners = (player & geometry.corners).count_ones() as i32
        - (opponent & geometry.corners).count_ones() as i32;
    let mut x_squares = 0;
    for &(corner, x) in &geometry.x_squares {
        if empty & corner != 0 {
            x_squares += (player & x != 0) as i32 - (opponent & x != 0) as i32;
        }
    }
    let mut c_squares = 0;
    for &(corner, c) in &geometry.c_squares {
        if empty & corner != 0 {
            c_squares += (player & c).count_ones() as i32 - (opponent & c).count_ones() as i32;
        }
    }
    let discs = player.count_ones() as i32 - opponent.count_ones() as i32;
    blend(weights.mobility) * mobility
        + blend(weights.frontier) * frontier
        + blend(weights.corner) * corners
        + blend(weights.x_square) * x_squares
        + blend(weights.c_square) * c_squares
        + blend(weights.discs) * discs
}

fn board_index(board: u64) -> usize {
    match board.count_ones() {
        16 => 0,
        36 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Side};

    #[test]
    fn corners_are_good_in_normal_and_bad_in_misere() {
        let start = "---------------------------OX------XO---------------------------";
        let with_corner = format!("X{}", &start[1..]);
        for (rule, corner_helps) in [(Rule::Normal, true), (Rule::Misere, false)] {
            let mut plain = Othello::new(8, rule).unwrap();
            plain.set_board(start, Side::Black).unwrap();
            let mut cornered = plain.clone();
            cornered.set_board(&with_corner, Side::Black).unwrap();
            assert_eq!(
                evaluate(&cornered) > evaluate(&plain),
                corner_helps,
                "{rule:?}"
            );
        }
    }

    #[test]
    fn start_position_is_balanced() {
        for size in [4, 6, 8] {
            let game = Othello::new(size, Rule::Normal).unwrap();
            assert_eq!(evaluate(&game), 0, "size {size}");
        }
    }
}
