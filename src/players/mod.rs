//! The players that answer `go`: the built-in baselines now, the search later.

mod greedy;
mod random;
mod search;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::game::{Game, Move};
use crate::limits::Limits;
use crate::search::SearchGame;
use crate::search::tt::TranspositionTable;

pub use greedy::Greedy;
pub use random::RandomMover;
pub use search::{SearchPlayer, info_line};

/// Chooses moves for one side of one game.
pub trait Player<G: Game>: Send {
    /// A legal move for the side to move of `game`, which must not be over. Returns soon
    /// after `stop` is raised, with the best move found so far.
    /// `info` receives progress lines (`info depth ...`) as they come.
    fn choose(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(String),
    ) -> Move;
}

/// The players `set player` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayerKind {
    #[default]
    Search,
    Random,
    Greedy,
}

impl PlayerKind {
    pub const NAMES: &'static str = "search, random or greedy";

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Search => "search",
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
        }
    }

    /// A fresh player of this kind; `seed` makes its random choices repeatable, `tt` is
    /// the table the search shares across moves.
    pub fn create<G: SearchGame>(
        self,
        seed: u64,
        tt: Arc<TranspositionTable>,
    ) -> Box<dyn Player<G>> {
        match self {
            PlayerKind::Search => Box::new(SearchPlayer::new(tt)),
            PlayerKind::Random => Box::new(RandomMover::new(seed)),
            PlayerKind::Greedy => Box::new(Greedy::new(seed)),
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
