//! `arbor serve`: a board in the browser over the engine core. `http.rs` reads requests
//! and writes answers on std's sockets (bounded in size, time and threads); `server.rs`
//! checks and routes them and formats JSON; `session.rs` holds one engine per board;
//! `page.html` is the one page, compiled into the binary.

pub mod http;
pub mod server;
pub mod session;

pub use server::{Config, serve};
