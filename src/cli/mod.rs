//! Command-line tools beyond the protocol: solving OBF suites.

pub mod solve;
pub mod tune;
