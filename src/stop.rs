//! One stop for every search and solver: a flag the front end raises (`stop`, `quit`,
//! `YXSTOP`), a hard deadline and a node limit, all polled by the search itself at its
//! own cadence; and, for the whole process, [`abandon`] once nobody can read its results.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Raised for the whole process when its standard output's reader has gone: every stop
/// then counts as raised, so no search or solve runs on for nobody.
static ABANDONED: AtomicBool = AtomicBool::new(false);

/// Stops every search of the process at its next check (see `engine::output`).
pub fn abandon() {
    ABANDONED.store(true, Ordering::Relaxed);
}

/// Whether [`abandon`] has been called.
pub fn abandoned() -> bool {
    ABANDONED.load(Ordering::Relaxed)
}

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

    /// Whether the flag (not a limit) has been raised, or the process abandoned.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || abandoned()
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
            || self.is_raised()
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }
}

/// The nodes of a job searched by several threads, against one stop's node limit.
///
/// Counting after the fact lets a thread that the OS happens to run alone spend what
/// the others were about to: each thread instead claims its share of what the limit
/// leaves before searching it, so that together they overrun the limit by at most a
/// node each, however they are scheduled.
#[derive(Debug, Default)]
pub struct SharedNodes {
    counted: AtomicU64,
    /// Nodes claimed by threads and not yet counted.
    claimed: AtomicU64,
}

impl SharedNodes {
    pub fn new(counted: u64) -> SharedNodes {
        SharedNodes {
            counted: AtomicU64::new(counted),
            claimed: AtomicU64::new(0),
        }
    }

    /// The nodes counted so far.
    pub fn total(&self) -> u64 {
        self.counted.load(Ordering::Relaxed)
    }

    /// Counts `searched` nodes of a thread and returns the new total.
    pub fn add(&self, searched: u64) -> u64 {
        self.counted.fetch_add(searched, Ordering::Relaxed) + searched
    }

    /// Counts `searched` nodes and trades the thread's claim `held` for a new one: at
    /// most `most` nodes and at most its share (of `threads`) of what `stop`'s limit
    /// leaves unclaimed, at least one while any is left. Returns the new total and the
    /// new claim; a claim of 0 means the limit is spent and the thread must stop.
    pub fn settle(
        &self,
        searched: u64,
        held: u64,
        stop: &Stop,
        threads: usize,
        most: u64,
    ) -> (u64, u64) {
        // Counted before the old claim is released: the sum never undercounts.
        let total = self.add(searched);
        if stop.node_limit == u64::MAX {
            return (total, most);
        }
        let others = self.claimed.fetch_sub(held, Ordering::Relaxed) - held;
        let left = stop.node_limit.saturating_sub(total + others);
        let claim = most.min(left.div_ceil(threads.max(1) as u64));
        self.claimed.fetch_add(claim, Ordering::Relaxed);
        (total, claim)
    }

    /// Counts a thread's last `searched` nodes and gives back its claim `held`.
    pub fn finish(&self, searched: u64, held: u64, stop: &Stop) -> u64 {
        let total = self.add(searched);
        if stop.node_limit != u64::MAX {
            self.claimed.fetch_sub(held, Ordering::Relaxed);
        }
        total
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

    /// Two threads whose claims are settled in any interleaving stay within the limit
    /// by a node each.
    #[test]
    fn claims_keep_threads_within_the_limit() {
        let stop = Stop::never().with_node_limit(20_000);
        let shared = SharedNodes::new(5_000);
        let (_, mut a) = shared.settle(0, 0, &stop, 2, 16_384);
        let (_, mut b) = shared.settle(0, 0, &stop, 2, 16_384);
        assert_eq!(
            (a, b),
            (7_500, 3_750),
            "each claims half of what is left to claim"
        );
        // Thread a runs alone: its claims shrink to nothing, b's claim stays reserved.
        let mut total = 0;
        let mut polls = 0;
        while a > 0 {
            (total, a) = shared.settle(a, a, &stop, 2, 16_384);
            polls += 1;
        }
        assert_eq!((total + b, polls), (20_000, 13));
        (total, b) = shared.settle(b, b, &stop, 2, 16_384);
        assert_eq!((total, b), (20_000, 0));
        assert!(stop.check(total));
        assert_eq!(shared.finish(0, a, &stop), total);
        let unlimited = Stop::never();
        assert_eq!(
            SharedNodes::new(0).settle(10, 0, &unlimited, 2, 4096),
            (10, 4096)
        );
    }
}
