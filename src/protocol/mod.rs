//! The native line protocol (see protocol.md): parsing, the command loop and the
//! per-game session behind it.

pub mod command;
pub mod engine;
pub mod gomocup;
pub mod input;
pub mod session;

pub use engine::{Output, Settings, run};
