//! The eight symmetries of a square board (rotations and reflections) on bitboards. A
//! board smaller than 8x8 sits in the top-left corner and maps onto itself.

/// A symmetry: bit 2 transposes (a1-h8 diagonal), then bit 1 flips the rows, then bit 0
/// mirrors the columns. 0 is the identity; all eight make up the group of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry(u8);

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// `bits` of a `size`x`size` board under this symmetry.
    #[inline]
    pub fn apply(self, bits: u64, size: usize) -> u64 {
        let mut bits = bits;
        if self.0 & 4 != 0 {
            bits = transpose(bits);
        }
        if self.0 & 2 != 0 {
            bits = bits.swap_bytes() >> (8 * (8 - size));
        }
        if self.0 & 1 != 0 {
            bits = bits.reverse_bits().swap_bytes() >> (8 - size);
        }
        bits
    }
}

/// Mirror along the a1-h8 diagonal: (row, col) -> (col, row), by three delta swaps.
#[inline]
fn transpose(mut bits: u64) -> u64 {
    for (mask, shift) in [
        (0x0f0f_0f0f_0000_0000u64, 28),
        (0x3333_0000_3333_0000, 14),
        (0x5500_5500_5500_5500, 7),
    ] {
        let delta = mask & (bits ^ (bits << shift));
        bits ^= delta ^ (delta >> shift);
    }
    bits
}

/// The symmetries other than the identity that leave the position unchanged, as a set
/// of bits indexed like [`Symmetry::ALL`].
#[inline]
pub fn stabilizer(player: u64, opponent: u64, size: usize) -> u8 {
    let mut set = 0;
    for (index, symmetry) in Symmetry::ALL.iter().enumerate().skip(1) {
        if symmetry.apply(player, size) == player && symmetry.apply(opponent, size) == opponent {
            set |= 1 << index;
        }
    }
    set
}

/// `moves` with one square kept of each set that the symmetries in `stabilizer` map onto
/// each other (the lowest): such moves lead to mirror images of one position.
#[inline]
pub fn distinct_moves(moves: u64, stabilizer: u8, size: usize) -> u64 {
    let mut kept = moves;
    for (index, symmetry) in Symmetry::ALL.iter().enumerate() {
        if stabilizer & (1 << index) == 0 {
            continue;
        }
        let mut rest = kept;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            // A legal move's images under the stabilizer are legal too.
            if symmetry.apply(bit, size) < bit {
                kept ^= bit;
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::bitboard::square_bit;

    fn board(size: usize) -> u64 {
        (0..size * size).fold(0, |bits, i| bits | square_bit(i / size * 8 + i % size))
    }

    #[test]
    fn symmetries_permute_the_squares_of_the_board_as_the_square_group() {
        for size in [4, 6, 8] {
            for symmetry in Symmetry::ALL {
                assert_eq!(symmetry.apply(board(size), size), board(size));
                let mut images = 0;
                for square in 0..size * size {
                    let (row, col) = (square / size, square % size);
                    let image = symmetry.apply(square_bit(row * 8 + col), size);
                    assert_eq!(image.count_ones(), 1);
                    images |= image;
                    // The image lands where the composed row/column maps say.
                    let (mut r, mut c) = (row, col);
                    if symmetry.0 & 4 != 0 {
                        (r, c) = (c, r);
                    }
                    if symmetry.0 & 2 != 0 {
                        r = size - 1 - r;
                    }
                    if symmetry.0 & 1 != 0 {
                        c = size - 1 - c;
                    }
                    assert_eq!(image, square_bit(r * 8 + c), "size {size} {symmetry:?}");
                }
                assert_eq!(images, board(size));
            }
        }
    }

    #[test]
    fn the_start_position_has_four_symmetries_and_one_distinct_move() {
        use crate::game::othello::{Othello, Rule};
        for size in [4, 6, 8] {
            let game = Othello::new(size, Rule::Normal).unwrap();
            let stabilizer = stabilizer(game.player(), game.opponent(), size);
            assert_eq!(stabilizer.count_ones(), 3, "size {size}");
            let moves = crate::game::othello::bitboard::legal_moves(
                game.player(),
                game.opponent(),
                game.board(),
            );
            assert_eq!(moves.count_ones(), 4);
            assert_eq!(distinct_moves(moves, stabilizer, size).count_ones(), 1);
        }
    }
}
