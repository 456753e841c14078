//! arbor: a game-playing engine for two-player perfect-information board games.

pub mod cli;
pub mod game;
pub mod harness;
pub mod limits;
pub mod players;
pub mod protocol;
pub mod search;
