//! Command-line tools beyond the protocol: solving OBF suites.

pub mod play;
pub mod solve;
pub mod tune;
