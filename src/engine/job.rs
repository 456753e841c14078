//! Background jobs: one runs at a time, reports and its end go straight onto the event
//! channel, and a panic inside it becomes a failed job instead of a silent engine.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Duration;

use super::events::Event;
use crate::game::Move;
use crate::game::roles::Proof;
use crate::search::SearchResult;
use crate::search::report::Report;
use crate::stop::Stop;

/// What a job was asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Choose a move and play it.
    Go,
    /// Choose a move without playing it.
    Hint,
    /// Score the best root moves, playing nothing.
    Analyze,
    /// Take a Swap2 decision (an analysis), playing its stones.
    Swap2,
    Solve,
    Perft,
}

impl JobKind {
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Go => "go",
            JobKind::Hint => "hint",
            JobKind::Analyze => "analyze",
            JobKind::Swap2 => "swap2",
            JobKind::Solve => "solve",
            JobKind::Perft => "perft",
        }
    }
}

/// What a job found, as it sends it back.
#[derive(Debug)]
pub enum Outcome {
    /// `go` or a hint: the move and, for the search, its result.
    Chose {
        mv: Move,
        result: Option<SearchResult>,
    },
    /// An analysis's last full report.
    Analyzed(Report),
    /// `None` when nothing was proven before the stop.
    Solved(Option<Proof>),
    /// `None` when `stop` cut it short.
    Counted {
        leaves: Option<u64>,
        elapsed: Duration,
    },
    /// The job panicked; the message says where.
    Failed(String),
}

/// The job under way.
pub struct Running {
    pub kind: JobKind,
    pub stop: Stop,
    /// Whether only a stop ends it (an analysis without a limit).
    pub endless: bool,
}

/// Runs `work` on its own thread; its outcome (or its panic, as [`Outcome::Failed`]) is
/// sent as [`Event::Done`].
pub fn spawn(events: Sender<Event>, work: impl FnOnce(&Sender<Event>) -> Outcome + Send + 'static) {
    thread::spawn(move || {
        let outcome = match catch_unwind(AssertUnwindSafe(|| work(&events))) {
            Ok(outcome) => outcome,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|text| text.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                Outcome::Failed(message)
            }
        };
        let _ = events.send(Event::Done(outcome));
    });
}
