//! Where the exact solver's nodes go: per empty count, how many nodes, how each ended
//! (a table, stability or enhanced-transposition cutoff, a cut by the first move or by a
//! later one, a fail-low or an exact score). Counted only with the `solver-stats`
//! feature; without it every call is empty and compiles away. `RUST_LOG=debug` prints
//! the counts after each solve:
//!
//! ```text
//! RUST_LOG=debug cargo run --release --features solver-stats -- solve --threads 1 FILE
//! ```

/// The counters of one thread, or the sum of several.
#[derive(Clone)]
pub(super) struct Stats {
    #[cfg(feature = "solver-stats")]
    counts: Box<[[u64; KINDS]; 65]>,
}

/// What happened at a node.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "solver-stats"), allow(dead_code))]
pub(super) enum Kind {
    /// Every node searched (the other kinds split these).
    Node = 0,
    /// Ended by the table's bounds.
    TableCut,
    /// Ended by stable discs.
    StabilityCut,
    /// Ended by a child's bounds in the table (enhanced transposition cutoff).
    EnhancedCut,
    /// Cut off by the first move tried.
    CutFirst,
    /// Cut off by a later move: the move ordering failed.
    CutLater,
    /// Every move searched, none reached alpha.
    FailLow,
    /// Every move searched, the score inside the window.
    Exact,
}

#[cfg(feature = "solver-stats")]
const KINDS: usize = 8;

#[cfg(feature = "solver-stats")]
const NAMES: [&str; KINDS] = [
    "nodes", "table", "stable", "etc", "cut1st", "cutlater", "faillow", "exact",
];

impl Stats {
    pub(super) fn new() -> Stats {
        Stats {
            #[cfg(feature = "solver-stats")]
            counts: Box::new([[0; KINDS]; 65]),
        }
    }

    /// Counts one node of `kind` at `empties`.
    #[inline(always)]
    pub(super) fn count(&mut self, _kind: Kind, _empties: u32) {
        #[cfg(feature = "solver-stats")]
        {
            self.counts[_empties as usize][_kind as usize] += 1;
        }
    }

    /// Counts a node that searched moves: a cutoff (by the first move or a later one),
    /// a fail-low or an exact score.
    #[inline(always)]
    pub(super) fn searched(
        &mut self,
        _empties: u32,
        _score: i32,
        _alpha: i32,
        _beta: i32,
        _first: bool,
    ) {
        #[cfg(feature = "solver-stats")]
        {
            let kind = if _score >= _beta {
                if _first {
                    Kind::CutFirst
                } else {
                    Kind::CutLater
                }
            } else if _score <= _alpha {
                Kind::FailLow
            } else {
                Kind::Exact
            };
            self.count(kind, _empties);
        }
    }

    /// Adds another thread's counts.
    pub(super) fn add(&mut self, _other: &Stats) {
        #[cfg(feature = "solver-stats")]
        for (row, other) in self.counts.iter_mut().zip(_other.counts.iter()) {
            for (count, more) in row.iter_mut().zip(other) {
                *count += more;
            }
        }
    }

    /// The counts as a table, one row per empty count that saw a node, and a total row
    /// (empty without the feature).
    pub(super) fn report(&self) -> String {
        #[cfg(feature = "solver-stats")]
        {
            use std::fmt::Write;
            let mut out = format!("{:>7}", "empties");
            for name in NAMES {
                let _ = write!(out, " {name:>12}");
            }
            out.push_str("  fail%\n");
            let mut total = [0u64; KINDS];
            let row_out = |label: String, row: &[u64; KINDS], out: &mut String| {
                let _ = write!(out, "{label:>7}");
                for count in row {
                    let _ = write!(out, " {count:>12}");
                }
                let cuts = row[Kind::CutFirst as usize] + row[Kind::CutLater as usize];
                let fail = 100.0 * row[Kind::CutLater as usize] as f64 / cuts.max(1) as f64;
                let _ = writeln!(out, "  {fail:5.2}");
            };
            for (empties, row) in self.counts.iter().enumerate() {
                if row[0] == 0 {
                    continue;
                }
                for (sum, count) in total.iter_mut().zip(row) {
                    *sum += count;
                }
                row_out(empties.to_string(), row, &mut out);
            }
            row_out("all".to_string(), &total, &mut out);
            out
        }
        #[cfg(not(feature = "solver-stats"))]
        String::new()
    }

    /// Whether counts are kept (the `solver-stats` feature).
    pub(super) const ENABLED: bool = cfg!(feature = "solver-stats");
}
