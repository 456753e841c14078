//! Time management: one owner for how long a move may think and for every share of that
//! time the search hands out (choosing root moves, the threat search, the next iteration,
//! whether to start an exact solve).
//!
//! Front ends pass the raw clock (`Limits`: time left, increment, moves to go, or a fixed
//! move time) and the move overhead once; nothing else keeps time back.

use std::time::{Duration, Instant};

use crate::search::limits::Limits;

/// What a move may spend: past `soft` no new iteration starts; at `hard` the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
    /// The time is this move's alone (a move time, or a byo-yomi period of one move):
    /// what it leaves unused is lost, so iterations start until `hard`.
    pub use_all: bool,
}

impl Budget {
    /// How long after the move's start a new iteration may still begin: half the soft
    /// limit, stretched by the best move's `instability` up to twice, never past half
    /// the hard limit; the hard limit itself when the time is the move's alone (an
    /// iteration cut short keeps the last one's move, or a better one it proved).
    pub fn iteration_limit(&self, instability: f64) -> Duration {
        if self.use_all {
            return self.hard;
        }
        let soft = self.soft.mul_f64(1.0 + instability.clamp(0.0, 1.0));
        soft.min(self.hard) / 2
    }
}

/// Default time kept back per move for process start-up, pipes and scheduling.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// Thinking time when `go` names no limit at all.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// A move with no alternative gets this fraction of the move's share of a clock.
const FORCED_MOVE_SHARE: u32 = 8;

/// The least a move is given when the clock is nearly out: enough for a first iteration.
const MIN_THINK: Duration = Duration::from_millis(1);

/// The budget for one move, `None` when only depth or nodes limit the search.
/// `moves_left` is the game's estimate of the moves this side has still to think about.
pub fn budget(limits: &Limits, moves_left: u32, overhead: Duration) -> Option<Budget> {
    let from_movetime = limits.movetime.map(|movetime| {
        let hard = movetime
            .saturating_sub(overhead.min(movetime / 2))
            .max(MIN_THINK);
        Budget {
            soft: hard,
            hard,
            use_all: true,
        }
    });
    let from_clock = limits
        .time
        .map(|time| clock_budget(time, limits, moves_left, overhead));
    match (from_movetime, from_clock) {
        // The move time is the move's alone only when the clock leaves it all.
        (Some(a), Some(b)) => Some(Budget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
            use_all: b.use_all || a.hard <= b.soft,
        }),
        (Some(budget), None) | (None, Some(budget)) => Some(budget),
        (None, None) if limits.depth.is_none() && limits.nodes.is_none() => Some(Budget {
            soft: DEFAULT_MOVETIME,
            hard: DEFAULT_MOVETIME,
            use_all: true,
        }),
        (None, None) => None,
    }
}

fn clock_budget(time: Duration, limits: &Limits, moves_left: u32, overhead: Duration) -> Budget {
    let inc = limits.inc.unwrap_or_default();
    // The most this move may ever take: what is on the clock less this move's overhead,
    // and never all of it, whatever the increment promises for later.
    let available = time.saturating_sub(overhead);
    if limits.moves_to_go == Some(1) {
        // The clock is topped up after this move (a byo-yomi period of one stone, GTP's
        // `time_settings 0 T 1`): the move is a move time, less a sixteenth kept back
        // for the scheduler.
        let hard = (available - available / 16).max(MIN_THINK);
        return Budget {
            soft: hard,
            hard,
            use_all: true,
        };
    }
    let cap = (available / 2 + inc.min(available / 2)).max(MIN_THINK);
    let horizon = limits.moves_to_go.unwrap_or(moves_left).max(1);
    // Every move still to come pays the overhead too.
    let reserve = (overhead * horizon.min(64)).min(available / 2);
    let usable = available - reserve;
    // An even share for each move the game says is left to think about (or the moves to
    // go); the game shapes the spread and keeps moves in hand where its length is
    // uncertain.
    let share = usable / horizon + inc * 3 / 4;
    let hard = (share * 3)
        .min(usable / 4 + inc / 2)
        .min(cap)
        .max(MIN_THINK);
    Budget {
        soft: share.min(hard),
        hard,
        use_all: false,
    }
}

/// One move's time, from when its command arrived.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    budget: Option<Budget>,
    /// What an exact solve may take under a clock with no moves to go: a third of what
    /// is left. Once solved, the rest of the game costs nothing, so a solve may draw on
    /// the clock beyond the move's share.
    solve_allowance: Option<Duration>,
    /// A clock runs on to later moves (`time` without `movestogo 1`): what this move
    /// leaves unused is theirs, even where its move time is spent in full.
    clock_runs_on: bool,
}

impl TimeManager {
    pub fn new(
        limits: &Limits,
        moves_left: u32,
        overhead: Duration,
        start: Instant,
    ) -> TimeManager {
        let solve_allowance = match (limits.time, limits.moves_to_go) {
            (Some(time), None) => Some(time.saturating_sub(overhead) / 3),
            _ => None,
        };
        TimeManager {
            start,
            budget: budget(limits, moves_left, overhead),
            solve_allowance,
            clock_runs_on: limits.time.is_some() && limits.moves_to_go != Some(1),
        }
    }

    /// Plans for the exact solve of a position of this size (`Game::exact_size`): when
    /// the move's budget is too short for it but the solve allowance is long enough, the
    /// move's hard limit grows to the allowance (and [`TimeManager::solve_limit`] with
    /// it). Called before the move's deadline is set.
    pub fn plan_solve(&mut self, exact_size: Option<u32>) {
        if let (Some(budget), Some(allowance), Some(size)) =
            (&mut self.budget, self.solve_allowance, exact_size)
            && allowance > budget.hard
            && size > solvable_empties(budget.hard)
            && size <= solvable_empties(allowance)
        {
            budget.hard = allowance;
        }
    }

    /// The budget for a move that is the only candidate, searched even so for the score
    /// it reports and for what the next move finds in the table: all of a move time
    /// that nothing else draws on (saving it gains nothing), else an eighth of the
    /// move's share, leaving the rest on a clock that later moves share.
    pub fn for_forced_move(&self) -> TimeManager {
        let mut forced = *self;
        if let Some(budget) = &mut forced.budget
            && (self.clock_runs_on || !budget.use_all)
        {
            let hard = (budget.soft / FORCED_MOVE_SHARE)
                .min(budget.hard)
                .max(MIN_THINK);
            *budget = Budget {
                soft: hard,
                hard,
                use_all: true,
            };
        }
        forced.solve_allowance = None;
        forced
    }

    /// When the move started (its command's arrival).
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Whether a clock (rather than depth or nodes alone) limits the move.
    pub fn is_clocked(&self) -> bool {
        self.budget.is_some()
    }

    /// When the search must have answered.
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.start + b.hard)
    }

    /// Choosing the root moves may take up to a quarter of the move's time.
    pub fn root_moves_deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.start + b.soft / 4)
    }

    /// A forced win by threats is looked for with a third of the move's time first.
    pub fn threat_deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.start + b.soft / 3)
    }

    /// An iteration costs more than all before it: start one only with time for it.
    /// An unsettled best move (`instability`, see [`best_move_instability`]) is worth
    /// more time.
    pub fn may_start_iteration(&self, instability: f64) -> bool {
        self.budget
            .is_none_or(|b| self.start.elapsed() < b.iteration_limit(instability))
    }

    /// Before an exact solve, the midgame search deepens to depth 4 at most, and for an
    /// eighth of the move's time at most: a move in hand, most of the time left for the
    /// solve.
    pub fn may_deepen_before_solve(&self, depth: u32) -> bool {
        depth < 4
            && self
                .budget
                .is_none_or(|b| self.start.elapsed() < b.soft / 8)
    }

    /// When an exact solve started in a clocked move must give up: at three quarters of
    /// the hard budget, leaving the rest for deepening should it not finish.
    pub fn solve_deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.start + b.hard * 3 / 4)
    }

    /// After a solve that did not finish, the midgame search deepens on while less than
    /// seven eighths of the hard budget has gone (the hard deadline stops it anyway).
    pub fn may_deepen_after_solve(&self) -> bool {
        self.budget
            .is_none_or(|b| self.start.elapsed() < b.hard * 7 / 8)
    }

    /// The largest exact solve worth starting with this move's hard budget.
    pub fn solve_limit(&self) -> u32 {
        self.budget.map_or(16, |b| solvable_empties(b.hard))
    }
}

/// How unsettled the best move is after an iteration, from its value after the one
/// before: halved each iteration, plus one when this iteration changed the best move.
pub fn best_move_instability(before: f64, changed: bool) -> f64 {
    before / 2.0 + if changed { 1.0 } else { 0.0 }
}

/// The largest exact solve (Othello empties) worth starting with `time`: about twice
/// what 8x8 positions of real games take the solver on one thread at the median (22
/// empties 1.0 s, 20 empties 0.25 s). The solve gives up at three quarters of the time
/// and the midgame search answers then, so a slow one costs time, not the game.
fn solvable_empties(time: Duration) -> u32 {
    match time {
        t if t >= Duration::from_secs(2) => 22,
        t if t >= Duration::from_millis(500) => 20,
        t if t >= Duration::from_millis(150) => 18,
        t if t >= Duration::from_millis(50) => 16,
        t if t >= Duration::from_millis(15) => 14,
        _ => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    const OVERHEAD: Duration = DEFAULT_MOVE_OVERHEAD;

    #[test]
    fn movetime_keeps_the_overhead_once() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            budget(&limits, 30, OVERHEAD),
            Some(Budget {
                soft: ms(980),
                hard: ms(980),
                use_all: true,
            })
        );
        let tiny = Limits {
            movetime: Some(ms(8)),
            ..Limits::default()
        };
        assert_eq!(budget(&tiny, 30, OVERHEAD).unwrap().hard, ms(4));
        assert_eq!(budget(&limits, 30, ms(0)).unwrap().hard, ms(1000));
    }

    #[test]
    fn a_move_time_is_spent_in_full_only_where_the_clock_leaves_it_all() {
        let gomocup = |match_ms| Limits {
            movetime: Some(ms(5000)),
            time: Some(ms(match_ms)),
            ..Limits::default()
        };
        // Gomocup's tournament clock early on: 5 s a move of 180 s.
        let early = budget(&gomocup(180_000), 11, OVERHEAD).unwrap();
        assert!(early.use_all);
        assert_eq!(early.iteration_limit(0.0), early.hard);
        assert_eq!(early.hard, ms(4980));
        // Late, the clock's share binds: half of it, as under any clock.
        let late = budget(&gomocup(20_000), 11, OVERHEAD).unwrap();
        assert!(!late.use_all);
        assert!(late.hard < ms(4980));
        assert_eq!(late.iteration_limit(0.0), late.soft / 2);
        let byo_yomi = Limits {
            time: Some(ms(1600)),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        assert!(budget(&byo_yomi, 11, OVERHEAD).unwrap().use_all);
    }

    #[test]
    fn a_forced_move_takes_an_eighth_of_a_clock_share_and_all_of_a_move_time() {
        let start = Instant::now();
        let clock = Limits {
            time: Some(ms(60_000)),
            ..Limits::default()
        };
        let full = TimeManager::new(&clock, 11, OVERHEAD, start);
        let forced = full.for_forced_move();
        let (share, hard) = (full.budget.unwrap().soft, forced.budget.unwrap().hard);
        assert_eq!(hard, share / 8);
        assert_eq!(forced.budget.unwrap().iteration_limit(0.0), hard);
        assert_eq!(forced.hard_deadline(), Some(start + hard));
        assert_eq!(forced.solve_allowance, None);
        let movetime = Limits {
            movetime: Some(ms(2000)),
            ..Limits::default()
        };
        let fixed = TimeManager::new(&movetime, 11, OVERHEAD, start);
        assert_eq!(fixed.for_forced_move().budget, fixed.budget);
        // Gomocup's 5 s a move within a 180 s match: the move time is the move's alone
        // for an ordinary move, but what a forced one saves stays on the match clock.
        let gomocup = Limits {
            movetime: Some(ms(5000)),
            time: Some(ms(180_000)),
            ..Limits::default()
        };
        let turn = TimeManager::new(&gomocup, 11, OVERHEAD, start);
        assert!(turn.budget.unwrap().use_all);
        let forced_turn = turn.for_forced_move().budget.unwrap();
        assert_eq!(forced_turn.hard, turn.budget.unwrap().soft / 8);
        // A byo-yomi period of one move is lost if unused: all of it.
        let byo_yomi = Limits {
            time: Some(ms(1600)),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        let period = TimeManager::new(&byo_yomi, 11, OVERHEAD, start);
        assert_eq!(period.for_forced_move().budget, period.budget);
        let depth_only = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let unclocked = TimeManager::new(&depth_only, 11, OVERHEAD, start);
        assert_eq!(unclocked.for_forced_move().budget, None);
    }

    #[test]
    fn an_unsettled_best_move_gets_up_to_twice_the_iteration_time() {
        let budget = Budget {
            soft: ms(400),
            hard: ms(1000),
            use_all: false,
        };
        assert_eq!(budget.iteration_limit(0.0), ms(200));
        assert_eq!(budget.iteration_limit(0.5), ms(300));
        assert_eq!(budget.iteration_limit(1.5), ms(400));
        let tight = Budget {
            soft: ms(400),
            hard: ms(500),
            use_all: false,
        };
        assert_eq!(tight.iteration_limit(1.0), ms(250));
        // A move time left unused is lost: iterations start until its end.
        let fixed = Budget {
            use_all: true,
            ..tight
        };
        assert_eq!(fixed.iteration_limit(0.0), ms(500));
        // A change counts one; it halves with each settled iteration after.
        let mut instability = 0.0;
        for changed in [true, true, false, false] {
            instability = best_move_instability(instability, changed);
        }
        assert_eq!(instability, 0.375);
    }

    /// Simulated games: every move spends its whole hard budget plus the overhead it was
    /// told about (the worst case), and the clock must never run out, whatever the time
    /// control, however large the increment, with or without moves to go.
    #[test]
    fn whole_games_never_overrun_the_clock() {
        for (start, inc, to_go) in [
            (2_000, 0, None),
            (300_000, 0, None),
            (60_000, 1_000, None),
            (1_000, 50, None),
            (5_000, 0, None),
            (100, 1_000, None),
            (100, 10_000, None),
            (50, 100_000, None),
            (0, 5_000, None),
            (10_000, 0, Some(10)),
            (500, 2_000, Some(3)),
        ] {
            for overhead in [ms(0), ms(30), ms(200)] {
                let mut clock = ms(start);
                for moves_left in (1..=60u32).rev() {
                    let to_go = to_go.map(|n: u32| (moves_left - 1) % n + 1);
                    let limits = Limits {
                        time: Some(clock),
                        inc: Some(ms(inc)),
                        moves_to_go: to_go,
                        ..Limits::default()
                    };
                    let budget = budget(&limits, moves_left, overhead).unwrap();
                    assert!(budget.soft <= budget.hard);
                    let spent = budget.hard + overhead;
                    assert!(
                        spent <= clock.max(overhead + MIN_THINK),
                        "{start}+{inc} ({overhead:?}): {spent:?} of {clock:?}, {moves_left} left"
                    );
                    clock = clock.saturating_sub(spent) + ms(inc);
                    if to_go == Some(1) {
                        clock += ms(start);
                    }
                }
            }
        }
    }

    #[test]
    fn the_last_move_before_the_clock_is_topped_up_uses_most_of_it() {
        // GTP's byo-yomi of one stone a period (`time_settings 0 1 1`, Quarry's mode) and
        // the native `go time 1000 movestogo 1`: a second for this move alone.
        let limits = Limits {
            time: Some(ms(1000)),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        let budget = budget(&limits, 30, OVERHEAD).unwrap();
        assert!(
            budget.hard >= ms(900) && budget.hard + OVERHEAD <= ms(1000),
            "{budget:?}"
        );
        assert_eq!(budget.soft, budget.hard);
    }

    #[test]
    fn a_large_increment_never_buys_more_than_the_clock_holds() {
        let limits = Limits {
            time: Some(ms(100)),
            inc: Some(ms(1000)),
            ..Limits::default()
        };
        let budget = budget(&limits, 30, OVERHEAD).unwrap();
        assert!(budget.hard + OVERHEAD <= ms(100), "{budget:?}");
    }

    #[test]
    fn the_clock_is_spent_over_the_expected_game() {
        // A Gomoku game of about 20 moves a side: the first move gets about a twentieth.
        let limits = Limits {
            time: Some(ms(10_000)),
            ..Limits::default()
        };
        let first = budget(&limits, 20, OVERHEAD).unwrap();
        assert!(first.soft >= ms(300) && first.soft <= ms(600), "{first:?}");
    }

    /// A solve that fits a third of the clock but not the move's share gets that third;
    /// one too large for it, a clock with moves to go, or a move time get nothing more.
    #[test]
    fn a_solve_may_draw_on_a_third_of_the_clock() {
        let clock = |time: u64, moves_to_go: Option<u32>| Limits {
            time: Some(ms(time)),
            moves_to_go,
            ..Limits::default()
        };
        let planned = |limits: &Limits, size: Option<u32>| {
            let mut time = TimeManager::new(limits, 6, OVERHEAD, Instant::now());
            let before = time.hard_deadline();
            time.plan_solve(size);
            (
                before.map(|b| b - time.start()),
                time.hard_deadline().map(|d| d - time.start()),
                time.solve_limit(),
            )
        };
        let (before, after, limit) = planned(&clock(7_520, None), Some(22));
        assert!(before < Some(ms(2_000)), "{before:?}");
        assert_eq!((after, limit), (Some(ms(2_500)), 22));
        // 24 empties need more than 2.5 s: the move keeps its share.
        assert_eq!(planned(&clock(7_520, None), Some(24)).1, before);
        assert_eq!(planned(&clock(7_520, None), None).1, before);
        let (before, after, _) = planned(&clock(7_520, Some(6)), Some(22));
        assert_eq!(before, after);
        let movetime = Limits {
            movetime: Some(ms(1_000)),
            ..Limits::default()
        };
        let (before, after, limit) = planned(&movetime, Some(22));
        assert_eq!((before, after, limit), (Some(ms(980)), Some(ms(980)), 20));
    }

    #[test]
    fn depth_or_nodes_alone_means_no_clock() {
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth, 10, OVERHEAD), None);
        assert_eq!(
            budget(&Limits::default(), 10, OVERHEAD),
            Some(Budget {
                soft: DEFAULT_MOVETIME,
                hard: DEFAULT_MOVETIME,
                use_all: true,
            })
        );
    }
}
