use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::Baseline;
use crate::game::{Game, Move};

/// Uniform among the legal moves.
pub struct RandomMover {
    rng: StdRng,
    moves: Vec<Move>,
}

impl RandomMover {
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: StdRng::seed_from_u64(seed),
            moves: Vec::new(),
        }
    }
}

impl<G: Game> Baseline<G> for RandomMover {
    fn choose(&mut self, game: &G) -> Move {
        game.generate_moves(&mut self.moves);
        *self
            .moves
            .choose(&mut self.rng)
            .expect("choose is called on unfinished games")
    }
}
