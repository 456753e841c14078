//! arbor: a game-playing engine for two-player perfect-information board games.

pub mod bounds;
pub mod cli;
pub mod engine;
pub mod files;
pub mod game;
pub mod harness;
pub mod memory;
pub mod players;
pub mod protocol;
pub mod search;
pub mod stop;
pub mod text;
pub mod web;
