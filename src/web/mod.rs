//! `arbor serve`: a board in the browser over the engine core. `http.rs` bounds what
//! hyper reads and writes (heads, bodies, time) and watches each connection; `server.rs`
//! admits and counts connections, checks and routes requests and formats JSON;
//! `session.rs` holds one engine per board; `page.html` is the one page, compiled into
//! the binary.

pub mod http;
pub mod server;
pub mod session;

pub use server::{Config, serve};
