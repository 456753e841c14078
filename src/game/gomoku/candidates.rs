//! The k-in-a-row games' candidate moves: the forced answers when threats stand, the
//! points near stones otherwise, their order by value, the late-move reductions, and the
//! small geometry the threat solver and the quiescence search share.

use std::sync::LazyLock;

use super::pattern::Threat;
use super::{Family, Gomoku};
use crate::game::{Game, Move, Side};

/// Candidate moves for the search, and the forced ones when threats are on the board.
pub(super) fn candidates(game: &Gomoku, moves: &mut Vec<Move>) {
    moves.clear();
    if game.outcome().is_some() {
        return;
    }
    if !game.has_patterns() || game.stones(Side::Black) + game.stones(Side::White) == 0 {
        game.generate_moves(moves);
        if game.stones(Side::Black) + game.stones(Side::White) == 0 && moves.len() > 1 {
            let centre = Move::new((game.size() / 2 * game.size() + game.size() / 2) as u16);
            moves.clear();
            moves.push(centre);
        }
        return;
    }
    let me = game.side_to_move();
    let them = me.opponent();
    let pente = game.config.family == Family::Pente;
    let mut extra = Vec::new();
    if game.threat_count(me, Threat::Five) > 0 {
        game.threat_fields(me, Threat::Five, moves);
        moves.truncate(1);
        return;
    }
    if game.threat_count(them, Threat::Five) > 0 {
        game.threat_fields(them, Threat::Five, moves);
        if pente {
            add_captures(game, moves);
        }
        moves.retain(|&mv| game.is_legal(mv));
        if !moves.is_empty() {
            return;
        }
    } else if !pente && game.has_open_four(me) {
        game.open_four_fields(me, moves);
        moves.truncate(1);
        return;
    } else if game.has_open_four(them) && game.threat_count(me, Threat::Four) == 0 {
        // Against a three: block where it would become a four, or counter with a four.
        game.threat_fields(them, Threat::Four, moves);
        game.threat_fields(me, Threat::Four, &mut extra);
        moves.append(&mut extra);
        if pente {
            add_captures(game, moves);
        }
        moves.sort_unstable();
        moves.dedup();
        moves.retain(|&mv| game.is_legal(mv));
        if !moves.is_empty() {
            return;
        }
    }
    moves.clear();
    for field in game.busy_fields(2) {
        if game.is_near_stone(field) {
            let mv = Move::new(field as u16);
            if game.is_legal(mv) {
                moves.push(mv);
            }
        }
    }
    if moves.is_empty() {
        game.generate_moves(moves);
    }
}

/// `ln(depth) * ln(index + 1)`, rounded: how many plies late moves lose (table lookup).
pub(super) fn late_move_reduction(depth: u32, index: usize) -> u32 {
    const DEPTHS: usize = 64;
    const INDICES: usize = 64;
    static TABLE: LazyLock<Vec<u8>> = LazyLock::new(|| {
        let mut table = vec![0u8; DEPTHS * INDICES];
        for depth in 1..DEPTHS {
            for index in 0..INDICES {
                let plies = (depth as f64).ln() * ((index + 1) as f64).ln();
                table[depth * INDICES + index] = plies.round() as u8;
            }
        }
        table
    });
    let depth = (depth as usize).min(DEPTHS - 1);
    let index = index.min(INDICES - 1);
    TABLE[depth * INDICES + index] as u32
}

/// Keeps the `count` moves of highest `point_key`, best first (ties by field): each key
/// computed once, the best selected rather than the whole list sorted.
pub(super) fn keep_best(game: &Gomoku, moves: &mut Vec<Move>, count: usize) {
    const MAX_RANKED: usize = 512;
    if moves.len() > MAX_RANKED {
        moves.sort_by_key(|&mv| (std::cmp::Reverse(game.point_key(mv)), mv.square()));
        moves.truncate(count);
        return;
    }
    // Highest key first, then lowest field: ascending order of the packed words.
    let mut ranked = [0u64; MAX_RANKED];
    let ranked = &mut ranked[..moves.len()];
    for (word, &mv) in ranked.iter_mut().zip(moves.iter()) {
        let key = (game.point_key(mv) as i64 - i32::MIN as i64) as u64;
        *word = (u32::MAX as u64 - key) << 32 | mv.square() as u64;
    }
    ranked.select_nth_unstable(count - 1);
    let best = &mut ranked[..count];
    best.sort_unstable();
    moves.clear();
    moves.extend(best.iter().map(|&word| Move::new(word as u16)));
}

/// Appends the side to move's capturing moves (Pente).
pub(super) fn add_captures(game: &Gomoku, moves: &mut Vec<Move>) {
    for field in game.busy_fields(3) {
        if game.cell(field) == 0 && game.capture_mask(field) != 0 {
            moves.push(Move::new(field as u16));
        }
    }
    moves.sort_unstable();
    moves.dedup();
}

impl Gomoku {
    /// Whether a stone on `mv` makes or stops an open three or better.
    pub(super) fn is_threat_point(&self, mv: Move) -> bool {
        let me = self.side_to_move();
        let field = mv.square();
        self.threat(me, field) >= Threat::OpenThree
            || self.threat(me.opponent(), field) >= Threat::OpenThree
    }

    /// What `mv`'s point is worth to the side to move and, a little less, to the
    /// other side: the search's move order and its choice of candidates.
    pub(super) fn point_key(&self, mv: Move) -> i32 {
        if !self.has_patterns() {
            return 0;
        }
        let field = mv.square();
        let me = self.side_to_move();
        let mut key = self.value(me, field) * 3 / 2 + self.value(me.opponent(), field);
        if self.config.family == Family::Pente {
            key += 400 * self.capture_mask(field).count_ones() as i32;
        }
        key
    }
}

/// Whether fields `a` and `b` of a `size` board share a row, column or diagonal within
/// `reach` points.
pub(super) fn on_a_line(size: usize, a: usize, b: usize, reach: usize) -> bool {
    let (ar, ac) = ((a / size) as isize, (a % size) as isize);
    let (br, bc) = ((b / size) as isize, (b % size) as isize);
    let (dr, dc) = (br - ar, bc - ac);
    let far = dr.abs().max(dc.abs()) as usize;
    far <= reach && (dr == 0 || dc == 0 || dr.abs() == dc.abs())
}
