//! Perft: leaf counts of the game tree, the standard check of move generation.

use super::{Game, Move};
use crate::stop::Stop;

/// Plain make/unmake perft over the trait; the reference for games' faster walks.
pub fn perft_generic<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    walk(game, depth, &mut buffers)
}

fn walk<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    game.generate_moves(moves);
    if moves.is_empty() {
        return 1;
    }
    let mut leaves = 0;
    for &mv in moves.iter() {
        let undo = game.make(mv);
        leaves += walk(game, depth - 1, rest);
        game.unmake(mv, undo);
    }
    leaves
}

/// Two plies with at most this many leaves (the node's move count squared) are counted
/// in one uninterruptible call: at most a few milliseconds on any board. Deeper subtrees
/// are split, however few moves the node has (a centre opening has one, then hundreds).
const SPLIT_LEAVES: usize = 1 << 20;

/// Perft that gives up (returning `None`) soon after `stop` is raised: the tree is split
/// into subtrees of at most two plies and the flag is checked between them.
pub fn perft_interruptible<G: Game>(game: &mut G, depth: u32, stop: &Stop) -> Option<u64> {
    if stop.check(0) {
        return None;
    }
    if depth <= 1 {
        return Some(game.perft(depth));
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    if moves.is_empty() {
        return Some(1);
    }
    if depth == 2 && moves.len().saturating_mul(moves.len()) <= SPLIT_LEAVES {
        return Some(game.perft(depth));
    }
    let mut leaves = 0;
    for mv in moves {
        let undo = game.make(mv);
        let sub = perft_interruptible(game, depth - 1, stop);
        game.unmake(mv, undo);
        leaves += sub?;
    }
    Some(leaves)
}
