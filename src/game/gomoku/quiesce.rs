//! Quiescence search at the main search's leaves (Gomoku): a position is not scored
//! while a five is on the board to make or to block, and the side to move may try its
//! fours, each answered by the one forced block, before its evaluation is trusted. A win
//! by continuous fours found there is a real win in a known number of plies.

use super::Gomoku;
use super::candidates::on_a_line;
use super::pattern::Threat;
use crate::game::Game;
use crate::game::roles::{Evaluate, Score, WIN};

/// Fours the side to move may play in a row below a leaf.
pub(super) const QUIESCE_FOURS: u32 = 8;
/// Fours tried at one node, strongest first.
const FOURS_PER_NODE: usize = 8;
/// How far from the side's previous four its next one may be.
const FOUR_REACH: usize = 4;

/// A win for the side to move `plies` plies from here, seen from `ply` plies below the
/// root.
fn win_in(ply: usize, plies: usize) -> Score {
    WIN - (ply + plies) as Score
}

/// Negamax over fours and forced blocks within `alpha..beta`; `fours` more fours
/// allowed, each after the first on a line through the side's previous four (`last`),
/// as continuous fours are built: that keeps the tree narrow.
pub(super) fn quiesce(
    game: &mut Gomoku,
    mut alpha: Score,
    beta: Score,
    ply: usize,
    fours: u32,
    last: [Option<usize>; 2],
    nodes: &mut u64,
) -> Score {
    *nodes += 1;
    if let Some(outcome) = game.outcome() {
        return match outcome.winner {
            Some(winner) if winner == game.side_to_move() => win_in(ply, 0),
            Some(_) => -win_in(ply, 0),
            None => 0,
        };
    }
    let me = game.side_to_move();
    let them = me.opponent();
    if game.threat_count(me, Threat::Five) > 0 {
        return win_in(ply, 1);
    }
    let mut cells = Vec::new();
    match game.threat_count(them, Threat::Five) {
        0 => {}
        1 => {
            // The one block is forced: no standing pat.
            game.threat_fields(them, Threat::Five, &mut cells);
            let block = cells[0];
            if !game.is_legal(block) {
                // Black's only block is a forbidden point (renju): the five comes.
                return -win_in(ply, 2);
            }
            let undo = game.make(block);
            let score = -quiesce(game, -beta, -alpha, ply + 1, fours, last, nodes);
            game.unmake(block, undo);
            return score;
        }
        _ => return -win_in(ply, 2),
    }
    if game.has_open_four(me) {
        return win_in(ply, 3);
    }
    let stand = game.evaluate();
    if stand >= beta || fours == 0 || game.threat_count(me, Threat::Four) == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut best = stand;
    game.threat_fields(me, Threat::Four, &mut cells);
    cells.retain(|&mv| game.is_legal(mv));
    let size = game.size();
    if let Some(from) = last[me.index()] {
        cells.retain(|&mv| on_a_line(size, from, mv.square(), FOUR_REACH));
    }
    cells.sort_unstable_by_key(|&mv| {
        std::cmp::Reverse((game.threat(me, mv.square()), game.value(me, mv.square())))
    });
    cells.truncate(FOURS_PER_NODE);
    for &four in &cells {
        let undo = game.make(four);
        let mut after = last;
        after[me.index()] = Some(four.square());
        let score = -quiesce(game, -beta, -alpha, ply + 1, fours - 1, after, nodes);
        game.unmake(four, undo);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
    }
    best
}
