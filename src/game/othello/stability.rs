//! Stable discs: discs that no sequence of moves can flip. A disc is stable when on each
//! of the four axes its line is full, or one of its two neighbours on that axis is a wall
//! or a stable disc of its colour; the set grows from the corners until it stops changing.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00ff;
const RANK_8: u64 = 0xff00_0000_0000_0000;

/// Every line of the 8x8 board on each axis: rows, columns, and both diagonal families.
#[cfg(test)]
static LINES: std::sync::LazyLock<[Vec<u64>; 4]> = std::sync::LazyLock::new(|| {
    let mut rows = Vec::new();
    let mut cols = Vec::new();
    let mut falling = Vec::new();
    let mut rising = Vec::new();
    for i in 0..8 {
        rows.push(RANK_1 << (8 * i));
        cols.push(FILE_A << i);
    }
    for d in -7i32..=7 {
        let (mut down, mut up) = (0u64, 0u64);
        for row in 0..8i32 {
            let col = row + d;
            if (0..8).contains(&col) {
                down |= 1 << (row * 8 + col);
            }
            let col = 7 - row + d;
            if (0..8).contains(&col) {
                up |= 1 << (row * 8 + col);
            }
        }
        falling.push(down);
        rising.push(up);
    }
    [rows, cols, falling, rising]
});

/// Squares whose line on each axis is completely filled (off-board squares count as filled).
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    // Rows: a row is full when its eight bits are; the AND of each bit with the next
    // seven lands on the a file.
    let mut row = filled & (filled >> 1);
    row &= row >> 2;
    row &= row >> 4;
    let row = (row & FILE_A) * 0xff;
    // Columns: the AND over all eight rotations by a rank.
    let mut col = filled & filled.rotate_right(8);
    col &= col.rotate_right(16);
    col &= col.rotate_right(32);
    [
        row,
        col,
        ray_full(filled, 9, &FALLING_EDGES),
        ray_full(filled, 7, &RISING_EDGES),
    ]
}

/// Squares from which every square along the diagonal (both senses, by `shift`) up to
/// the edge is filled: `edges[k]` holds the squares whose step of `2^k * shift` (either
/// sense) leaves the board, which count as filled.
#[inline(always)]
fn ray_full(filled: u64, shift: u32, edges: &[[u64; 3]; 2]) -> u64 {
    let mut up = filled;
    let mut down = filled;
    for (k, (&ahead, &behind)) in edges[0].iter().zip(&edges[1]).enumerate() {
        let step = shift << k;
        up &= ahead | (up >> step);
        down &= behind | (down << step);
    }
    up & down
}

/// For the diagonal of step (`dc`, `dr`) per square: `[sense][k]` the squares whose
/// step of `2^k` squares that way (sense 0: +`dr` rows, sense 1: -`dr` rows) leaves
/// the 8x8 board.
const fn diagonal_edges(dc: i32) -> [[u64; 3]; 2] {
    let mut edges = [[0u64; 3]; 2];
    let mut sense = 0;
    while sense < 2 {
        let sign = if sense == 0 { 1 } else { -1 };
        let mut k = 0;
        while k < 3 {
            let steps = 1 << k;
            let mut square: i32 = 0;
            while square < 64 {
                let col = square % 8 + sign * dc * steps;
                let row = square / 8 + sign * steps;
                if col < 0 || col >= 8 || row < 0 || row >= 8 {
                    edges[sense][k] |= 1 << square;
                }
                square += 1;
            }
            k += 1;
        }
        sense += 1;
    }
    edges
}

/// a1-h8 direction: one step is +9 bits (a row down, a column right).
const FALLING_EDGES: [[u64; 3]; 2] = diagonal_edges(1);
/// h1-a8 direction: one step is +7 bits (a row down, a column left).
const RISING_EDGES: [[u64; 3]; 2] = diagonal_edges(-1);

/// The stable discs of `discs`, with `others` the opposing discs, on `board`.
pub fn stable_discs(discs: u64, others: u64, board: u64) -> u64 {
    let walls = !board;
    let [row_full, col_full, falling_full, rising_full] = full_lines(discs | others | walls);
    let mut stable = 0u64;
    loop {
        let s = stable | walls;
        let horizontal = row_full | ((s >> 1) & !FILE_H) | FILE_H | ((s << 1) & !FILE_A) | FILE_A;
        let vertical = col_full | (s << 8) | RANK_1 | (s >> 8) | RANK_8;
        let falling = falling_full
            | ((s << 9) & !FILE_A)
            | ((s >> 9) & !FILE_H)
            | FILE_A
            | FILE_H
            | RANK_1
            | RANK_8;
        let rising = rising_full
            | ((s << 7) & !FILE_H)
            | ((s >> 7) & !FILE_A)
            | FILE_A
            | FILE_H
            | RANK_1
            | RANK_8;
        let next = discs & horizontal & vertical & falling & rising;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line-by-line definition of `full_lines`.
    fn full_lines_by_line(filled: u64) -> [u64; 4] {
        let mut full = [0u64; 4];
        for (axis, lines) in LINES.iter().enumerate() {
            for &line in lines {
                if filled & line == line {
                    full[axis] |= line;
                }
            }
        }
        full
    }

    #[test]
    fn full_lines_match_their_definition() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..20_000 {
            // Dense boards, so that many lines are full.
            let filled = rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>();
            assert_eq!(full_lines(filled), full_lines_by_line(filled), "{filled:x}");
        }
        for filled in [
            0,
            !0,
            RANK_1,
            FILE_A,
            0x8040_2010_0804_0201,
            0x0102_0408_1020_4080,
        ] {
            assert_eq!(full_lines(filled), full_lines_by_line(filled), "{filled:x}");
        }
    }
    use crate::game::othello::bitboard::{Squares, flips, legal_moves, square_bit};

    #[test]
    fn corners_and_full_edges() {
        assert_eq!(stable_discs(1, 0, !0), 1);
        assert_eq!(stable_discs(1 << 1, 0, !0), 0);
        // A filled first rank of one colour is stable.
        assert_eq!(stable_discs(RANK_1, 0, !0), RANK_1);
        // On a 4x4 board, d1 is a corner.
        let board4 = 0x0f0f_0f0f;
        assert_eq!(stable_discs(1 << 3, 0, board4), 1 << 3);
    }

    /// Plays random games; discs reported stable must keep their colour to the end.
    #[test]
    fn stable_discs_never_flip() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for board in [!0u64, 0x3f3f_3f3f_3f3f, 0x0f0f_0f0f] {
            let size = (board & 0xff).count_ones() as usize;
            let (low, high) = (size / 2 - 1, size / 2);
            for _ in 0..300 {
                // [black, white]; `mover` indexes the side to move.
                let mut discs = [
                    square_bit(low * 8 + high) | square_bit(high * 8 + low),
                    square_bit(low * 8 + low) | square_bit(high * 8 + high),
                ];
                let mut mover = 0;
                let mut history = Vec::new();
                loop {
                    history.push(discs);
                    let (own, other) = (discs[mover], discs[1 - mover]);
                    let moves = legal_moves(own, other, board);
                    if moves == 0 {
                        if legal_moves(other, own, board) == 0 {
                            break;
                        }
                        mover = 1 - mover;
                        continue;
                    }
                    let squares: Vec<usize> = Squares(moves).collect();
                    let square = squares[rng.random_range(0..squares.len())];
                    let flipped = flips(square, own, other);
                    discs[mover] = own | flipped | square_bit(square);
                    discs[1 - mover] = other ^ flipped;
                    mover = 1 - mover;
                }
                let last = *history.last().unwrap();
                for position in &history {
                    for colour in 0..2 {
                        let stable = stable_discs(position[colour], position[1 - colour], board);
                        assert_eq!(stable & last[colour], stable, "{position:x?}");
                    }
                }
            }
        }
    }
}
