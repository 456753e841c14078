use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::Baseline;
use crate::game::{Game, Move};

/// The move with the best immediate count under the game's rule (Othello: disc
/// difference, reversed for misère); ties are broken at random.
pub struct Greedy {
    rng: StdRng,
    moves: Vec<Move>,
    best: Vec<Move>,
}

impl Greedy {
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: StdRng::seed_from_u64(seed),
            moves: Vec::new(),
            best: Vec::new(),
        }
    }
}

impl<G: Game> Baseline<G> for Greedy {
    fn choose(&mut self, game: &G) -> Move {
        game.generate_moves(&mut self.moves);
        let side = game.side_to_move();
        let mut scratch = game.clone();
        let mut best_score = i32::MIN;
        self.best.clear();
        for &mv in &self.moves {
            let undo = scratch.make(mv);
            let score = scratch.immediate_score(side);
            scratch.unmake(mv, undo);
            if score > best_score {
                best_score = score;
                self.best.clear();
            }
            if score == best_score {
                self.best.push(mv);
            }
        }
        *self
            .best
            .choose(&mut self.rng)
            .expect("choose is called on unfinished games")
    }
}
