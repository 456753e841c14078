//! Line protocols over the engine core: the native protocol (see protocol.md) and the
//! Gomocup brain protocol, with the parsing they share.

pub mod command;
pub mod gomocup;
pub mod native;

pub use native::run;
