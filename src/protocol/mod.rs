//! Line protocols over the engine core: the native protocol (see protocol.md) and the
//! Gomocup brain protocol, the NBoard protocol and GTP, with the parsing they share.

pub mod command;
pub mod ggf;
pub mod gomocup;
pub mod gtp;
pub mod json;
pub mod native;
pub mod nboard;
pub mod record;

pub use native::run;
