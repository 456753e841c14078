//! What a `go` asks for: the raw clock and the limits on one move's thinking. The time
//! manager (`search::time`) turns them into a budget.

use std::time::Duration;

/// Several limits together mean the first one reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time left on this side's clock.
    pub time: Option<Duration>,
    /// Added to the clock after each move.
    pub inc: Option<Duration>,
    /// Moves until the clock is topped up again (`None`: the clock must last the game).
    pub moves_to_go: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}
