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

/// The side (4, 6 or 8) of the board whose square set is `board`: its first row.
#[inline]
pub fn board_size(board: u64) -> usize {
    (board & 0xff).count_ones() as usize
}

/// Squares where `player` can move: empty, and bracketing at least one `opponent` disc.
/// Always inlined, so that the solver's fast build compiles it with its instructions.
#[inline(always)]
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
/// Always inlined, as [`legal_moves`].
#[inline(always)]
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

/// [`legal_moves`] on the vector unit: the four directions' fills side by side in one
/// 256-bit register (AVX2), then joined.
///
/// # Safety
/// Only callers compiled with AVX2 call it safely; others must detect AVX2 first.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn legal_moves_avx2(player: u64, opponent: u64, board: u64) -> u64 {
    use std::arch::x86_64::*;
    let shift = direction_shifts();
    let (up, down) = runs_avx2(player, opponent);
    let lines = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    join_lanes(lines) & !(player | opponent) & board
}

/// [`flips`] on the vector unit: from the square, the runs of `opponent` discs in the
/// four directions each way, kept where one of `player`'s discs ends them (AVX2).
///
/// # Safety
/// As [`legal_moves_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2(square: usize, player: u64, opponent: u64) -> u64 {
    use std::arch::x86_64::*;
    let shift = direction_shifts();
    let (up, down) = runs_avx2(square_bit(square), opponent);
    let player_lanes = _mm256_set1_epi64x(player as i64);
    let zero = _mm256_setzero_si256();
    // A run flips when the square after it is the player's (the mask is all ones in
    // the lanes where it is not).
    let open_up = _mm256_cmpeq_epi64(
        _mm256_and_si256(_mm256_sllv_epi64(up, shift), player_lanes),
        zero,
    );
    let open_down = _mm256_cmpeq_epi64(
        _mm256_and_si256(_mm256_srlv_epi64(down, shift), player_lanes),
        zero,
    );
    join_lanes(_mm256_or_si256(
        _mm256_andnot_si256(open_up, up),
        _mm256_andnot_si256(open_down, down),
    ))
}

/// The shifts of the four directions in the vector paths' lanes: E-W, N-S and the two
/// diagonals.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn direction_shifts() -> std::arch::x86_64::__m256i {
    std::arch::x86_64::_mm256_set_epi64x(9, 7, 8, 1)
}

/// The runs of `opponent` discs that start next to `seeds`, toward higher bits and toward
/// lower bits, one direction per lane as [`fill_both_ways`] (without its last step): the
/// opponent's discs are masked per direction so that no run wraps around a row.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn runs_avx2(
    seeds: u64,
    opponent: u64,
) -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    let shift = direction_shifts();
    let double = _mm256_add_epi64(shift, shift);
    let inner = (opponent & NOT_EDGE_FILES) as i64;
    let opponent = _mm256_set_epi64x(inner, inner, opponent as i64, inner);
    let seeds = _mm256_set1_epi64x(seeds as i64);
    let mut up = _mm256_and_si256(opponent, _mm256_sllv_epi64(seeds, shift));
    let mut down = _mm256_and_si256(opponent, _mm256_srlv_epi64(seeds, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(opponent, _mm256_sllv_epi64(up, shift)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(opponent, _mm256_srlv_epi64(down, shift)),
    );
    let pairs_up = _mm256_and_si256(opponent, _mm256_sllv_epi64(opponent, shift));
    let pairs_down = _mm256_srlv_epi64(pairs_up, shift);
    for _ in 0..2 {
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, double)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, double)),
        );
    }
    (up, down)
}

/// The four lanes OR-ed together.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn join_lanes(lanes: std::arch::x86_64::__m256i) -> u64 {
    use std::arch::x86_64::*;
    let half = _mm_or_si128(
        _mm256_castsi256_si128(lanes),
        _mm256_extracti128_si256::<1>(lanes),
    );
    (_mm_cvtsi128_si64(half) | _mm_extract_epi64::<1>(half)) as u64
}

/// How many discs `player` flips by moving on `square` when it is the board's last empty
/// square: every other square of the board is then `player`'s or the opponent's, so the
/// count depends on `player`'s discs alone, read along the four lines through `square`
/// and looked up (no flips are made). On the small boards the squares off the board
/// count as the opponent's: a run reaching them never ends on a `player` disc, since the
/// board is a corner square and a line that leaves it never comes back.
#[inline]
pub fn last_flip_count(square: usize, player: u64) -> u32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    // Gathers one bit of each row into the top byte (rank order).
    const GATHER_FILE: u64 = 0x0102_0408_1020_4080;
    // Adds every row onto the top byte: a diagonal has one square per file.
    const GATHER_DIAGONAL: u64 = 0x0101_0101_0101_0101;
    let (row, col) = (square / 8, square % 8);
    let rank = (player >> (row * 8)) & 0xff;
    let file = (((player >> col) & FILE_A).wrapping_mul(GATHER_FILE)) >> 56;
    let diagonal = ((player & DIAGONALS[square]).wrapping_mul(GATHER_DIAGONAL)) >> 56;
    let anti = ((player & ANTI_DIAGONALS[square]).wrapping_mul(GATHER_DIAGONAL)) >> 56;
    let counts = &LINE_FLIP_COUNT[col];
    (counts[rank as usize]
        + LINE_FLIP_COUNT[row][file as usize]
        + counts[diagonal as usize]
        + counts[anti as usize]) as u32
}

/// `[position][line]`: the discs flipped along a line of eight by a move at `position`
/// when the line's other squares are the mover's (bits set in `line`) or the
/// opponent's (bits clear). Bit `position` itself is ignored.
static LINE_FLIP_COUNT: [[u8; 256]; 8] = build_line_flip_count();

const fn build_line_flip_count() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Toward higher bits, then toward lower ones: a run of the opponent's discs
            // counts if one of the mover's ends it.
            let mut at = position + 1;
            while at < 8 && line & (1 << at) == 0 {
                at += 1;
            }
            if at < 8 {
                count += at - position - 1;
            }
            let mut at = position as i32 - 1;
            while at >= 0 && line & (1 << at) == 0 {
                at -= 1;
            }
            if at >= 0 {
                count += position - at as usize - 1;
            }
            table[position][line] = count as u8;
            line += 1;
        }
        position += 1;
    }
    table
}

/// The diagonal (a1-h8 direction) and anti-diagonal (h1-a8 direction) through each
/// square, the square included.
static DIAGONALS: [u64; 64] = build_diagonals(1);
static ANTI_DIAGONALS: [u64; 64] = build_diagonals(-1);

const fn build_diagonals(step: i32) -> [u64; 64] {
    let mut lines = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (col, row) = ((square % 8) as i32, (square / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (c, r) = (other % 8, other / 8);
            if r - row == step * (c - col) {
                lines[square] |= 1u64 << other;
            }
            other += 1;
        }
        square += 1;
    }
    lines
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

    /// A xorshift stream of random bitboards from `seed`.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

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
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
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

    /// The vector paths equal the portable ones on random positions of every board size.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_and_portable_paths_agree() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for board in [0x0f0f_0f0f_u64, 0x3f3f_3f3f_3f3f, !0] {
            for _ in 0..20_000 {
                let (a, b) = (next(), next());
                let player = a & b & board;
                let opponent = !a & next() & !player & board;
                // SAFETY: AVX2 was detected above.
                let moves = unsafe { legal_moves_avx2(player, opponent, board) };
                assert_eq!(moves, legal_moves(player, opponent, board));
                for square in Squares(board & !(player | opponent)) {
                    // SAFETY: as above.
                    let fast = unsafe { flips_avx2(square, player, opponent) };
                    assert_eq!(fast, flips(square, player, opponent), "square {square}");
                }
            }
        }
    }

    /// The count equals the discs [`flips`] flips, on every board size, whenever the
    /// square is the last empty one.
    #[test]
    fn last_flip_counts_match_flips() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        for board in [0x0f0f_0f0f_u64, 0x3f3f_3f3f_3f3f, !0] {
            for _ in 0..20_000 {
                let square = loop {
                    let square = (next() % 64) as usize;
                    if board & (1 << square) != 0 {
                        break square;
                    }
                };
                let filled = board & !(1u64 << square);
                let player = next() & filled;
                let opponent = filled & !player;
                for (mover, other) in [(player, opponent), (opponent, player)] {
                    assert_eq!(
                        last_flip_count(square, mover),
                        flips(square, mover, other).count_ones(),
                        "square {square} mover {mover:#x} board {board:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn squares_iterates_low_to_high() {
        let squares: Vec<usize> = Squares(0x8000_0000_0000_0005).collect();
        assert_eq!(squares, vec![0, 2, 63]);
    }
}
