//! Command-line tools beyond the protocol: solving OBF suites and Gomoku puzzles, tuning,
//! playing at the terminal.

pub mod analysis;
pub mod bench;
pub mod book;
pub mod game_args;
pub mod matches;
pub mod play;
pub mod probcut;
pub mod puzzles;
pub mod review;
pub mod solve;
pub mod tasks;
pub mod train;
pub mod tune;
pub mod tune_gomoku;
