//! Time management: how long one move may think, from the clock and the limits of `go`.

use std::time::Duration;

use crate::limits::Limits;

/// What a move may spend: past `soft` no new iteration starts; at `hard` the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

/// Kept back per move for process start-up, pipes and scheduling.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// Thinking time when `go` names no limit at all.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// The budget for one move, `None` when only depth or nodes limit the search.
/// `moves_left` is the game's estimate of this side's remaining moves.
pub fn budget(limits: &Limits, moves_left: u32) -> Option<Budget> {
    let from_movetime = limits.movetime.map(|movetime| {
        let hard = movetime.saturating_sub(MOVE_OVERHEAD.min(movetime / 4));
        Budget { soft: hard, hard }
    });
    let from_clock = limits.time.map(|time| {
        let inc = limits.inc.unwrap_or_default();
        // Keep back the latency of every move still to come, then spread the rest over
        // those moves plus a reserve of a few.
        let reserve = (MOVE_OVERHEAD * (moves_left + 1)).min(time / 2);
        let usable = time - reserve;
        // The middle game gets more than its share: that is where games are decided;
        // the opening and the solved endgame need less.
        let weight = match moves_left {
            0..8 => 8,
            8..22 => 13,
            _ => 9,
        };
        let share = usable / (moves_left.max(1) + 3) * weight / 10 + inc * 3 / 4;
        let hard = (share * 3).min(usable / 4 + inc / 2);
        Budget {
            soft: share.min(hard),
            hard,
        }
    });
    match (from_movetime, from_clock) {
        (Some(a), Some(b)) => Some(Budget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
        }),
        (Some(budget), None) | (None, Some(budget)) => Some(budget),
        (None, None) if limits.depth.is_none() && limits.nodes.is_none() => Some(Budget {
            soft: DEFAULT_MOVETIME,
            hard: DEFAULT_MOVETIME,
        }),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_keeps_an_overhead() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            budget(&limits, 30),
            Some(Budget {
                soft: ms(980),
                hard: ms(980)
            })
        );
        let tiny = Limits {
            movetime: Some(ms(8)),
            ..Limits::default()
        };
        assert_eq!(budget(&tiny, 30).unwrap().hard, ms(6));
    }

    /// A simulated game: every move spends its whole hard budget (the worst case), and
    /// the clock must never run out, whatever the time control.
    #[test]
    fn a_whole_game_never_overruns_the_clock() {
        for (start, inc) in [
            (2_000, 0),
            (300_000, 0),
            (60_000, 1_000),
            (1_000, 50),
            (5_000, 0),
        ] {
            let mut clock = ms(start);
            for moves_left in (1..=32u32).rev() {
                let limits = Limits {
                    time: Some(clock),
                    inc: Some(ms(inc)),
                    ..Limits::default()
                };
                let budget = budget(&limits, moves_left).unwrap();
                assert!(budget.soft <= budget.hard);
                let spent = budget.hard + MOVE_OVERHEAD / 2;
                assert!(
                    spent < clock,
                    "{start}+{inc}: {spent:?} of {clock:?} with {moves_left} left"
                );
                clock = clock - spent + ms(inc);
            }
        }
    }

    #[test]
    fn depth_or_nodes_alone_means_no_clock() {
        assert_eq!(
            budget(
                &Limits {
                    depth: Some(5),
                    ..Limits::default()
                },
                10
            ),
            None
        );
        assert_eq!(
            budget(&Limits::default(), 10),
            Some(Budget {
                soft: DEFAULT_MOVETIME,
                hard: DEFAULT_MOVETIME
            })
        );
    }
}
