//! One stop for every search and solver: a flag the front end raises (`stop`, `quit`,
//! `YXSTOP`), a hard deadline and a node limit, all polled by the search itself at its
//! own cadence (no watcher threads).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Cloning shares the flag; [`Stop::narrowed`] gives a part of a job (a threat search,
/// choosing root moves) its own earlier deadline or smaller node budget.
#[derive(Clone, Debug)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
    node_limit: u64,
    /// The most nodes a check has been given, for progress reports from another thread.
    seen: Option<Arc<AtomicU64>>,
}

impl Default for Stop {
    fn default() -> Stop {
        Stop::never()
    }
}

impl Stop {
    /// A stop raised only through `flag`.
    pub fn new(flag: Arc<AtomicBool>) -> Stop {
        Stop {
            flag,
            deadline: None,
            node_limit: u64::MAX,
            seen: None,
        }
    }

    /// A stop with a flag of its own and no limits yet: only `raise` (or a limit added
    /// later) stops what polls it.
    pub fn never() -> Stop {
        Stop::new(Arc::new(AtomicBool::new(false)))
    }

    /// The same flag, with the earlier of the two deadlines.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Stop {
        self.deadline = match (self.deadline, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// The same flag, with a node limit (the smaller one wins).
    pub fn with_node_limit(mut self, nodes: u64) -> Stop {
        self.node_limit = self.node_limit.min(nodes);
        self
    }

    /// The same stop, whose checks also record in `seen` the most nodes they were given
    /// (another thread reads how far a solver has got).
    pub fn with_seen(mut self, seen: Arc<AtomicU64>) -> Stop {
        self.seen = Some(seen);
        self
    }

    /// A part of a job that has already searched `used` nodes: its node budget is what
    /// is left, its deadline the earlier of the two.
    pub fn narrowed(&self, deadline: Option<Instant>, used: u64) -> Stop {
        let mut part = self.clone().with_deadline(deadline);
        part.node_limit = part.node_limit.saturating_sub(used);
        part
    }

    /// Raises the flag: every search sharing it stops at its next check.
    pub fn raise(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether the flag (not a limit) has been raised.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    pub fn node_limit(&self) -> u64 {
        self.node_limit
    }

    /// Whether a search that has visited `nodes` nodes must stop now. Costs a clock read:
    /// searches call it every thousand nodes or so.
    #[inline]
    pub fn check(&self, nodes: u64) -> bool {
        if let Some(seen) = &self.seen {
            seen.fetch_max(nodes, Ordering::Relaxed);
        }
        nodes >= self.node_limit
            || self.flag.load(Ordering::Relaxed)
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn limits_and_flag() {
        let stop = Stop::never();
        assert!(!stop.check(u64::MAX - 1));
        let limited = stop.clone().with_node_limit(100);
        assert!(!limited.check(99));
        assert!(limited.check(100));
        let part = limited.narrowed(None, 60);
        assert!(part.check(40) && !part.check(39));
        let past = stop
            .clone()
            .with_deadline(Some(Instant::now() - Duration::from_millis(1)));
        assert!(past.check(0));
        assert!(!stop.check(0));
        part.raise();
        assert!(stop.check(0) && stop.is_raised(), "clones share the flag");
    }
}
