//! Hand-written Othello evaluation in centi-discs from the side to move's view:
//! mobility, potential mobility, corners and the squares next to them, and the disc
//! count late in the game, with weights that move with the game's phase. Misère has its
//! own weights: corners anchor discs that can never be given away, so they hurt there.
//!
//! `features` is the seam the tuner fits; `evaluate` hands 8x8 positions to the trained
//! pattern evaluation (pattern.rs) instead, so these weights evaluate 4x4 and 6x6, 6x6
//! with weights of its own under each rule fitted to exact solves.

use std::sync::LazyLock;

use super::bitboard::{board_size, legal_moves, neighbours, square_bit};
use super::stability::stable_discs;
use super::{Othello, Rule};

/// The features, each from the side to move's view (own minus opponent's).
pub const FEATURES: [&str; 8] = [
    "mobility",
    "frontier",
    "corners",
    "x_squares",
    "c_squares",
    "stable",
    "parity",
    "discs",
];

/// Weights per feature at the start (index 0) and at the end (index 1) of the game, in
/// centi-discs; the weight in between is the linear blend by the share of filled squares.
pub type Weights = [[i32; 2]; FEATURES.len()];

/// Fitted by `arbor tune --rule normal` on the WTHOR games (see docs/othello-evaluation.md).
pub const NORMAL: Weights = [
    [101, 320],
    [-3, 5],
    [1057, 3],
    [-958, -43],
    [-97, -178],
    [259, 73],
    [78, 140],
    [-138, 13],
];

/// Fitted by `arbor tune --rule misere` on self-play games (see docs/othello-evaluation.md).
pub const MISERE: Weights = [
    [32, 4],
    [5, 63],
    [-1009, -202],
    [-118, 101],
    [242, 35],
    [-96, -40],
    [-90, -120],
    [-5, -25],
];

/// 6x6 under the normal rule: fitted by `arbor tune --rule normal --size 6 --selfplay 4000
/// --seed 2 --solve-empties 18` at 1896200, whose self-play evaluated with `NORMAL` (see
/// docs/othello-evaluation.md). Held-out error 12.35 -> 11.50 discs.
pub const NORMAL6: Weights = [
    [22, 269],
    [-27, -55],
    [1778, -380],
    [-1550, 385],
    [-623, -11],
    [495, 37],
    [-275, 189],
    [-84, -20],
];

/// 6x6 misère: fitted by `arbor tune --rule misere --size 6 --selfplay 4000 --seed 2
/// --solve-empties 18` at 4309ff4, whose self-play still evaluated with `MISERE` (see
/// docs/othello-evaluation.md). Held-out error 5.64 -> 4.78 discs.
pub const MISERE6: Weights = [
    [41, 108],
    [-35, 79],
    [-375, -153],
    [-71, 65],
    [135, 15],
    [-43, -66],
    [-340, -8],
    [-36, -22],
];

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

/// Feature values and the phase (filled squares, all squares) of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub values: [i32; FEATURES.len()],
    pub filled: i32,
    pub squares: i32,
}

impl Features {
    /// The evaluation these features get under `weights`.
    pub fn score(&self, weights: &Weights) -> i32 {
        let (early, late) = (self.squares - self.filled, self.filled);
        let mut total = 0;
        for (value, pair) in self.values.iter().zip(weights) {
            total += value * (pair[0] * early + pair[1] * late);
        }
        total / self.squares
    }
}

pub fn features(game: &Othello) -> Features {
    disc_features(game.player(), game.opponent(), game.board())
}

/// `features` on bare bitboards (`player` to move).
pub fn disc_features(player: u64, opponent: u64, board: u64) -> Features {
    let geometry = &GEOMETRY[board_index(board)];
    let empty = board & !(player | opponent);
    let squares = board.count_ones() as i32;
    let empties = empty.count_ones() as i32;

    let own_moves = legal_moves(player, opponent, board).count_ones() as i32;
    let other_moves = legal_moves(opponent, player, board).count_ones() as i32;
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
    let stable = stable_discs(player, opponent, board).count_ones() as i32
        - stable_discs(opponent, player, board).count_ones() as i32;
    // With an odd number of empties the side to move gets the last move.
    let parity = if empties % 2 == 1 { 1 } else { -1 };
    let discs = player.count_ones() as i32 - opponent.count_ones() as i32;
    Features {
        values: [
            own_moves - other_moves,
            frontier,
            corners,
            x_squares,
            c_squares,
            stable,
            parity,
            discs,
        ],
        filled: squares - empties,
        squares,
    }
}

/// The weights of `size`x`size` boards under `rule`.
pub fn weights(size: usize, rule: Rule) -> &'static Weights {
    match (rule, size) {
        (Rule::Normal, 6) => &NORMAL6,
        (Rule::Normal, _) => &NORMAL,
        (Rule::Misere, 6) => &MISERE6,
        (Rule::Misere, _) => &MISERE,
    }
}

/// The engine's evaluation: the trained patterns on 8x8 under either rule, the
/// hand-written features on the small boards (no patterns were trained for them).
pub fn evaluate(game: &Othello) -> i32 {
    game.pattern_evaluation().unwrap_or_else(|| {
        evaluate_discs(game.player(), game.opponent(), game.board(), game.rule())
    })
}

/// `evaluate` on bare bitboards (`player` to move).
#[inline]
pub fn evaluate_discs(player: u64, opponent: u64, board: u64, rule: Rule) -> i32 {
    if board == !0 {
        return super::pattern::evaluate(rule, player, opponent);
    }
    disc_features(player, opponent, board).score(weights(board_size(board), rule))
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
            let hand = |game: &Othello| features(game).score(weights(8, rule));
            assert_eq!(hand(&cornered) > hand(&plain), corner_helps, "{rule:?}");
        }
    }

    #[test]
    fn start_position_is_balanced_but_for_parity() {
        for size in [4, 6, 8] {
            let game = Othello::new(size, Rule::Normal).unwrap();
            let features = features(&game);
            assert_eq!(features.values, [0, 0, 0, 0, 0, 0, -1, 0], "size {size}");
        }
    }
}
