use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::Player;
use crate::game::{Game, Move};
use crate::limits::Limits;

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

impl<G: Game> Player<G> for RandomMover {
    fn choose(
        &mut self,
        game: &G,
        _limits: &Limits,
        _stop: &AtomicBool,
        _info: &mut dyn FnMut(String),
    ) -> Move {
        game.generate_moves(&mut self.moves);
        *self
            .moves
            .choose(&mut self.rng)
            .expect("choose is called on unfinished games")
    }
}
