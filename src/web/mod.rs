//! `arbor serve`: a board in the browser over the engine core. `server.rs` parses HTTP
//! requests and formats JSON; `session.rs` holds one engine per board; `page.html` is
//! the one page, compiled into the binary.

pub mod server;
pub mod session;

pub use server::{Config, serve};
