//! Othello on a u64: bit `row * 8 + col`, a1 = bit 0 (top-left), h8 = bit 63.
//! Smaller boards sit in the top-left corner; their off-board squares are never occupied,
//! and callers mask legal moves with the board's square set.

/// Squares of the 8x8 board without the a and h files: discs there cannot be flipped
/// along a line that has a horizontal component, and masking them stops row wrap-around.
const NOT_EDGE_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

#[inline]
pub fn square_bit(square: usize) -> u64 {
    1u64 << square
}

/// Squares where `player` can move: empty, and bracketing at least one `opponent` disc.
#[inline]
pub fn legal_moves(player: u64, opponent: u64, board: u64) -> u64 {
    let inner = opponent & NOT_EDGE_FILES;
    let lines = fill_both_ways(player, inner, 1)
        | fill_both_ways(player, opponent, 8)
        | fill_both_ways(player, inner, 7)
        | fill_both_ways(player, inner, 9);
    lines & !(player | opponent) & board
}

/// Squares one step beyond runs of `opponent` that start next to `player`, in both
/// senses of one direction. Runs are at most six long, so two doubling steps after two
/// single steps cover them.
#[inline(always)]
fn fill_both_ways(player: u64, opponent: u64, shift: u32) -> u64 {
    let mut up = opponent & (player << shift);
    let mut down = opponent & (player >> shift);
    up |= opponent & (up << shift);
    down |= opponent & (down >> shift);
    let pairs_up = opponent & (opponent << shift);
    let pairs_down = pairs_up >> shift;
    let double = 2 * shift;
    up |= pairs_up & (up << double);
    down |= pairs_down & (down >> double);
    up |= pairs_up & (up << double);
    down |= pairs_down & (down >> double);
    (up << shift) | (down >> shift)
}

/// Squares next to `discs` in any direction (frontier and potential mobility).
#[inline]
pub const fn neighbours(discs: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let east = (discs << 1) & NOT_A;
    let west = (discs >> 1) & NOT_H;
    let row = discs | east | west;
    east | west | (row << 8) | (row >> 8)
}

/// The squares around each square: a move there flips something only if one of them
/// holds an opponent disc, a test much cheaper than [`flips`].
pub static ADJACENT: [u64; 64] = build_adjacent();

const fn build_adjacent() -> [u64; 64] {
    let mut adjacent = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        adjacent[square] = neighbours(1 << square);
        square += 1;
    }
    adjacent
}

/// Rays from each square: `[square][direction]`, directions 0..4 run toward higher bits
/// (E, SW, S, SE), 4..8 toward lower bits (W, NE, N, NW). Each ray holds the squares
/// after the origin up to the 8x8 edge.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut dir = 0;
        while dir < 8 {
            let (dc, dr) = STEPS[dir];
            let mut col = (square % 8) as i32 + dc;
            let mut row = (square / 8) as i32 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[square][dir] = ray;
            dir += 1;
        }
        square += 1;
    }
    rays
}

/// Discs flipped when `player` moves on `square` (empty if the move is illegal there).
#[inline]
pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[square];
    let mut flipped = 0;
    for ray in &rays[..4] {
        // The first non-opponent square along a rising ray is its lowest such bit.
        let stop = ray & !opponent;
        let outflank = stop & stop.wrapping_neg() & player;
        if outflank != 0 {
            flipped |= (outflank - 1) & ray;
        }
    }
    for ray in &rays[4..] {
        // Along a falling ray it is the highest such bit.
        let stop = ray & !opponent;
        let outflank = highest_bit(stop) & player;
        flipped |= (outflank.wrapping_neg() << 1) & ray;
    }
    flipped
}

#[inline(always)]
fn highest_bit(bits: u64) -> u64 {
    if bits == 0 {
        0
    } else {
        1u64 << (63 - bits.leading_zeros())
    }
}

/// Leaf count from (`player`, `opponent`) to move; see [`crate::game::Game::perft`].
/// The last ply's moves are counted, not made.
pub fn perft(player: u64, opponent: u64, board: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(player, opponent, board);
    if depth == 1 {
        // No move is one leaf either way: a pass, or the end of the game.
        return (moves.count_ones() as u64).max(1);
    }
    if moves == 0 {
        if legal_moves(opponent, player, board) == 0 {
            return 1;
        }
        return perft(opponent, player, board, depth - 1);
    }
    let mut leaves = 0;
    let mut remaining = moves;
    while remaining != 0 {
        let square = remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let flipped = flips(square, player, opponent);
        leaves += perft(
            opponent ^ flipped,
            player | flipped | square_bit(square),
            board,
            depth - 1,
        );
    }
    leaves
}

/// An iterator over the squares of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let square = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(square)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flips by walking each direction square by square.
    fn slow_flips(square: usize, player: u64, opponent: u64) -> u64 {
        let (col, row) = ((square % 8) as i32, (square / 8) as i32);
        let mut all = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r, mut run) = (col + dc, row + dr, 0u64);
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    #[test]
    fn flips_and_moves_match_square_walks() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let a = next();
            let b = next();
            let player = a & b;
            let opponent = !a & next() & !player;
            let mut expected_moves = 0;
            for square in 0..64 {
                let bit = 1u64 << square;
                if (player | opponent) & bit != 0 {
                    continue;
                }
                let slow = slow_flips(square, player, opponent);
                assert_eq!(flips(square, player, opponent), slow);
                if slow != 0 {
                    expected_moves |= bit;
                }
            }
            assert_eq!(legal_moves(player, opponent, !0), expected_moves);
        }
    }

    #[test]
    fn squares_iterates_low_to_high() {
        let squares: Vec<usize> = Squares(0x8000_0000_0000_0005).collect();
        assert_eq!(squares, vec![0, 2, 63]);
    }
}
