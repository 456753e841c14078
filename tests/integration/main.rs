//! Every integration test in one crate: one binary to build and link instead of one per
//! file, each file a module. (`shared_data.rs` stays apart: it runs without libtest's
//! harness, to report each shared file it skips.)

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod bench;
mod campaign;
mod compliance;
mod files;
mod gomocup;
mod gomoku_reference;
mod gtp;
mod harness;
mod hostile;
mod nboard;
mod othello_reference;
mod protocol;
mod protocol_doc;
mod swap2;
mod web;
