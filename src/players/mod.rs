//! Who answers `go`: the search (`search::Searcher`, run by the engine core) or one of
//! the baselines here, which choose at once and ignore the clock.

mod greedy;
mod random;

use std::fmt;
use std::str::FromStr;

use crate::game::roles::SearchGame;
use crate::game::{Game, Move};
use crate::text::quote;

pub use greedy::Greedy;
pub use random::RandomMover;

/// A baseline player: a legal move for the side to move of an unfinished game.
pub trait Baseline<G: Game>: Send {
    fn choose(&mut self, game: &G) -> Move;
}

/// The players `set player` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayerKind {
    #[default]
    Search,
    Random,
    Greedy,
    /// The search, made to panic mid-search: tests that every front end survives it.
    #[cfg(test)]
    Panic,
}

impl PlayerKind {
    pub const NAMES: &'static str = "search, random or greedy";

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Search => "search",
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            #[cfg(test)]
            PlayerKind::Panic => "panic",
        }
    }

    /// The baseline of this kind (`None` for the search); `seed` makes its random
    /// choices repeatable.
    pub fn baseline<G: SearchGame>(self, seed: u64) -> Option<Box<dyn Baseline<G>>> {
        match self {
            PlayerKind::Search => None,
            #[cfg(test)]
            PlayerKind::Panic => None,
            PlayerKind::Random => Some(Box::new(RandomMover::new(seed))),
            PlayerKind::Greedy => Some(Box::new(Greedy::new(seed))),
        }
    }
}

impl FromStr for PlayerKind {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerKind, String> {
        match text.to_ascii_lowercase().as_str() {
            "search" => Ok(PlayerKind::Search),
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            _ => Err(format!(
                "unknown player {}: expected {}",
                quote(text),
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
