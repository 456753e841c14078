//! Zobrist keys for Othello. A move changes one square's owner and flips others; the
//! flip part comes from per-byte tables so `make` needs eight lookups, not one per disc.

use super::bitboard::Squares;
use crate::game::Side;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// `[side][square]`.
static DISC: [[u64; 64]; 2] = {
    let mut keys = [[0u64; 64]; 2];
    let mut state = 0x0a7b_0a7b_0a7b_0a7b;
    let mut side = 0;
    while side < 2 {
        let mut square = 0;
        while square < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            keys[side][square] = key;
            square += 1;
        }
        side += 1;
    }
    keys
};

/// Toggled when White is to move.
pub const SIDE: u64 = splitmix64(0x5eed_0000_0000_0001).1;

/// `[byte][bits]`: the key change of flipping the discs `bits << (8 * byte)`.
static FLIP: [[u64; 256]; 8] = {
    let mut table = [[0u64; 256]; 8];
    let mut byte = 0;
    while byte < 8 {
        let mut bits: usize = 1;
        while bits < 256 {
            let low = bits & (bits - 1);
            let square = byte * 8 + (bits ^ low).trailing_zeros() as usize;
            table[byte][bits] = table[byte][low] ^ DISC[0][square] ^ DISC[1][square];
            bits += 1;
        }
        byte += 1;
    }
    table
};

#[inline]
pub fn placed(side: Side, square: usize) -> u64 {
    DISC[side.index()][square]
}

#[inline]
pub fn flipped(discs: u64) -> u64 {
    let bytes = discs.to_le_bytes();
    let mut key = 0;
    for (byte, &bits) in bytes.iter().enumerate() {
        key ^= FLIP[byte][bits as usize];
    }
    key
}

pub fn full_hash(black: u64, white: u64, side: Side) -> u64 {
    let side_key = if side == Side::White { SIDE } else { 0 };
    let discs =
        |bits: u64, keys: &[u64; 64]| Squares(bits).fold(0, |key, square| key ^ keys[square]);
    side_key ^ discs(black, &DISC[0]) ^ discs(white, &DISC[1])
}
