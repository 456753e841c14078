//! Young brothers wait, shared by the exact solvers: once a node's first move has not
//! cut off, its other moves are handed out in order to the threads of a rayon pool, each
//! searching the next move not yet taken against the best score so far.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicUsize, Ordering};

/// A pool of `threads` threads named `name-<index>` for a solver's split points; `None`
/// for one thread (or, with a warning, when the system refuses the threads).
pub fn pool(threads: usize, name: &'static str) -> Option<rayon::ThreadPool> {
    (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(move |index| format!("{name}-{index}"))
                .build()
                .map_err(|error| log::warn!("{name} threads: {error}; solving with one"))
                .ok()
        })
        .flatten()
}

/// The thread count of a solver with this pool.
pub fn pool_threads(pool: &Option<rayon::ThreadPool>) -> usize {
    pool.as_ref().map_or(1, |pool| pool.current_num_threads())
}

/// A node whose moves after the first are shared out among threads.
pub struct SplitPoint<'a> {
    /// The split point above, whose cutoff makes this one's work useless too.
    parent: Option<&'a SplitPoint<'a>>,
    /// The next move to hand out.
    next: AtomicUsize,
    alpha: AtomicI32,
    beta: i32,
    /// The best score and move so far, packed so that `fetch_max` keeps the best and, of
    /// equal scores, the move earliest in the list, as one thread would: a fail-low
    /// node's best move is the first move the table offers to the next probe.
    best: AtomicI64,
    /// A move reached beta: the remaining moves need no search.
    cutoff: AtomicBool,
    /// A thread stopped before its move was searched (the solve's stop, or a cutoff
    /// above): the node's result is unknown.
    stopped: AtomicBool,
}

impl<'a> SplitPoint<'a> {
    /// A split point under `parent` whose moves from index `next` on are still to be
    /// searched within (`alpha`, `beta`), the best so far being `best` by move `mv`
    /// (one before `next`).
    pub fn new(
        parent: Option<&'a SplitPoint<'a>>,
        next: usize,
        alpha: i32,
        beta: i32,
        (best, mv): (i32, u16),
    ) -> SplitPoint<'a> {
        SplitPoint {
            parent,
            next: AtomicUsize::new(next),
            alpha: AtomicI32::new(alpha),
            beta,
            best: AtomicI64::new(pack(best, 0, mv)),
            cutoff: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
        }
    }

    /// The index of the next move to search (past the end when none is left).
    pub fn take(&self) -> usize {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    pub fn alpha(&self) -> i32 {
        self.alpha.load(Ordering::Relaxed)
    }

    pub fn beta(&self) -> i32 {
        self.beta
    }

    /// Records the score of move `mv`, the `index`th of the list, searched with alpha
    /// `alpha`; whether it cut the node off.
    pub fn record(&self, score: i32, index: usize, mv: u16, alpha: i32) -> bool {
        self.best
            .fetch_max(pack(score, index, mv), Ordering::Relaxed);
        if score > alpha {
            self.alpha.fetch_max(score, Ordering::Relaxed);
            if score >= self.beta {
                self.cutoff.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// A thread stopped before finishing its share.
    pub fn mark_stopped(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// The node's best score and move, `None` when a thread stopped before a cutoff
    /// made the rest needless (the result is unknown).
    pub fn result(&self) -> Option<(i32, u16)> {
        if !self.cutoff.load(Ordering::Relaxed) && self.stopped.load(Ordering::Relaxed) {
            return None;
        }
        let best = self.best.load(Ordering::Relaxed);
        Some(((best >> 32) as i32, best as u16))
    }

    /// Whether this split point or one above it has been cut off.
    pub fn aborted(&self) -> bool {
        let mut split = Some(self);
        while let Some(point) = split {
            if point.cutoff.load(Ordering::Relaxed) {
                return true;
            }
            split = point.parent;
        }
        false
    }
}

/// The score above the list index (inverted: the earlier the higher) above the move.
fn pack(score: i32, index: usize, mv: u16) -> i64 {
    let rank = u16::MAX - index.min(u16::MAX as usize) as u16;
    (score as i64) << 32 | (rank as i64) << 16 | mv as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_score_wins_and_beta_cuts_off() {
        let parent = SplitPoint::new(None, 1, -5, 5, (-9, 3));
        let split = SplitPoint::new(Some(&parent), 1, 0, 4, (-2, 7));
        assert_eq!((split.take(), split.take()), (1, 2));
        assert!(!split.record(-30, 1, 9, 0));
        assert!(!split.record(-2, 3, 12, 0));
        assert_eq!(
            split.result(),
            Some((-2, 7)),
            "a tie goes to the earlier move"
        );
        assert!(!split.record(2, 5, 11, 0));
        assert!(!split.record(2, 4, 3, 0));
        assert!(!split.record(2, 6, 20, 0));
        assert_eq!((split.alpha(), split.result()), (2, Some((2, 3))));
        split.mark_stopped();
        assert_eq!(split.result(), None, "stopped before a cutoff: unknown");
        assert!(!split.aborted());
        assert!(
            parent.record(6, 1, 1, -5) && split.aborted(),
            "a cutoff above aborts"
        );
        assert!(split.record(4, 7, 12, 2));
        assert_eq!(
            split.result(),
            Some((4, 12)),
            "a cutoff decides despite the stop"
        );
    }
}
