//! What a `go` asks for: the clock and the limits on one move's thinking.

use std::time::Duration;

/// Several limits together mean the first one reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time left on this side's clock for the rest of the game.
    pub time: Option<Duration>,
    /// Added to the clock after each move.
    pub inc: Option<Duration>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}
