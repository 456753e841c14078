//! The players that answer `go`: the built-in baselines now, the search later.

mod greedy;
mod random;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::game::{Game, Move};
use crate::limits::Limits;

pub use greedy::Greedy;
pub use random::RandomMover;

/// Chooses moves for one side of one game.
pub trait Player<G: Game>: Send {
    /// A legal move for the side to move of `game`, which must not be over. Returns soon
    /// after `stop` is raised, with the best move found so far.
    fn choose(&mut self, game: &G, limits: &Limits, stop: &AtomicBool) -> Move;
}

/// The players `set player` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayerKind {
    Random,
    #[default]
    Greedy,
}

impl PlayerKind {
    pub const NAMES: &'static str = "random or greedy";

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
        }
    }

    /// A fresh player of this kind; `seed` makes its random choices repeatable.
    pub fn create<G: Game>(self, seed: u64) -> Box<dyn Player<G>> {
        match self {
            PlayerKind::Random => Box::new(RandomMover::new(seed)),
            PlayerKind::Greedy => Box::new(Greedy::new(seed)),
        }
    }
}

impl FromStr for PlayerKind {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerKind, String> {
        match text.to_ascii_lowercase().as_str() {
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            _ => Err(format!(
                "unknown player '{}': expected {}",
                crate::game::notation::shorten(text),
                PlayerKind::NAMES
            )),
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
