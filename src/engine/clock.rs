//! Both sides' game clocks, as the referee (`arbor match`), the web board and `arbor
//! play` keep them.
//!
//! With a control the clocks count down from `base`, each move earning `inc`; without
//! one they count the time used. Time past zero is kept as debt (as arenas such as
//! cutechess keep it), so a side that overdraws within the tolerance starts its next
//! move with less. Every reading takes `now`, so the clock is a pure value that tests
//! drive through whole games without sleeping.

use std::time::{Duration, Instant};

use crate::game::Side;

/// A time control: the main time and what each move adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockControl {
    pub base: Duration,
    pub inc: Duration,
}

#[derive(Clone, Debug, Default)]
pub struct GameClock {
    control: Option<ClockControl>,
    /// Time each side has used, the running stretch excluded.
    spent: [Duration; 2],
    /// The increments each side has earned.
    bonus: [Duration; 2],
    /// The side whose clock runs, since when.
    running: Option<(Side, Instant)>,
}

impl GameClock {
    /// Both clocks stopped at the start.
    pub fn new(control: Option<ClockControl>) -> GameClock {
        GameClock {
            control,
            ..GameClock::default()
        }
    }

    pub fn control(&self) -> Option<ClockControl> {
        self.control
    }

    /// Changes the control; time already used stays used.
    pub fn set_control(&mut self, control: Option<ClockControl>) {
        self.control = control;
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// Time `side` has used, its running stretch included.
    pub fn used(&self, side: Side, now: Instant) -> Duration {
        let running = match self.running {
            Some((runner, since)) if runner == side => now.saturating_duration_since(since),
            _ => Duration::ZERO,
        };
        self.spent[side.index()] + running
    }

    /// Time `side` has left under the control (zero once overdrawn); `None` without one.
    pub fn left(&self, side: Side, now: Instant) -> Option<Duration> {
        self.control.map(|control| {
            (control.base + self.bonus[side.index()]).saturating_sub(self.used(side, now))
        })
    }

    /// How far `side` has gone past zero (zero while it has time, or without a control).
    pub fn overdrawn(&self, side: Side, now: Instant) -> Duration {
        self.control.map_or(Duration::ZERO, |control| {
            self.used(side, now)
                .saturating_sub(control.base + self.bonus[side.index()])
        })
    }

    /// How long `side` may still think before it is more than `tolerance` past zero;
    /// `None` without a control.
    pub fn allowance(&self, side: Side, now: Instant, tolerance: Duration) -> Option<Duration> {
        self.control.map(|control| {
            (control.base + self.bonus[side.index()] + tolerance)
                .saturating_sub(self.used(side, now))
        })
    }

    /// The running side, if it is more than `tolerance` past zero.
    pub fn flagged(&self, now: Instant, tolerance: Duration) -> Option<Side> {
        let (side, _) = self.running?;
        (self.overdrawn(side, now) > tolerance).then_some(side)
    }

    /// Starts `side`'s clock (stopping the other's, which is charged).
    pub fn start(&mut self, side: Side, now: Instant) {
        self.halt(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock, charging its side; returns the stretch charged.
    pub fn halt(&mut self, now: Instant) -> Duration {
        match self.running.take() {
            Some((side, since)) => {
                let stretch = now.saturating_duration_since(since);
                self.spent[side.index()] += stretch;
                stretch
            }
            None => Duration::ZERO,
        }
    }

    /// The running side moved: its clock stops and earns the increment, and `next`'s
    /// starts (none at the game's end). Returns the time the move took.
    pub fn press(&mut self, next: Option<Side>, now: Instant) -> Duration {
        let mover = self.running();
        let stretch = self.halt(now);
        if let (Some(mover), Some(control)) = (mover, self.control) {
            self.bonus[mover.index()] += control.inc;
        }
        self.running = next.map(|side| (side, now));
        stretch
    }

    /// The clocks with the sides exchanged (time used and increments earned), stopped:
    /// for an opening in which the players chose their colours (Swap2) on clocks kept
    /// by player.
    pub fn swap_sides(&mut self, now: Instant) {
        self.halt(now);
        self.spent.swap(0, 1);
        self.bonus.swap(0, 1);
    }

    /// Both clocks back to the start; `next`'s runs.
    pub fn reset(&mut self, next: Option<Side>, now: Instant) {
        self.spent = [Duration::ZERO; 2];
        self.bonus = [Duration::ZERO; 2];
        self.running = next.map(|side| (side, now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);
    const MS: Duration = Duration::from_millis(1);

    fn control(base: u64, inc_ms: u64) -> Option<ClockControl> {
        Some(ClockControl {
            base: S * base as u32,
            inc: MS * inc_ms as u32,
        })
    }

    #[test]
    fn a_whole_game_counts_down_with_increments() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(control(10, 100));
        clock.start(Side::Black, t0);
        // Black thinks 3 s, White 1 s, Black 2 s.
        assert_eq!(clock.press(Some(Side::White), t0 + 3 * S), 3 * S);
        assert_eq!(clock.press(Some(Side::Black), t0 + 4 * S), S);
        assert_eq!(clock.left(Side::Black, t0 + 5 * S), Some(S * 6 + MS * 100));
        assert_eq!(clock.press(Some(Side::White), t0 + 6 * S), 2 * S);
        assert_eq!(clock.left(Side::Black, t0 + 7 * S), Some(S * 5 + MS * 200));
        assert_eq!(clock.left(Side::White, t0 + 7 * S), Some(S * 8 + MS * 100));
        assert_eq!(clock.used(Side::White, t0 + 7 * S), 2 * S);
        assert_eq!(clock.running(), Some(Side::White));
        assert_eq!(clock.flagged(t0 + 7 * S, 50 * MS), None);
    }

    #[test]
    fn flag_falls_only_past_the_tolerance_and_debt_is_carried() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(control(1, 0));
        clock.start(Side::Black, t0);
        assert_eq!(clock.allowance(Side::Black, t0, 50 * MS), Some(S + 50 * MS));
        assert_eq!(clock.flagged(t0 + S + 50 * MS, 50 * MS), None);
        assert_eq!(clock.flagged(t0 + S + 51 * MS, 50 * MS), Some(Side::Black));
        clock.press(Some(Side::White), t0 + S + 30 * MS);
        // 30 ms overdrawn: no time left, and the debt counts on the next move.
        assert_eq!(clock.left(Side::Black, t0 + 2 * S), Some(Duration::ZERO));
        assert_eq!(clock.overdrawn(Side::Black, t0 + 2 * S), 30 * MS);
        clock.press(Some(Side::Black), t0 + 2 * S);
        assert_eq!(
            clock.allowance(Side::Black, t0 + 2 * S, 50 * MS),
            Some(20 * MS)
        );
        assert_eq!(
            clock.flagged(t0 + 2 * S + 21 * MS, 50 * MS),
            Some(Side::Black)
        );
    }

    #[test]
    fn without_a_control_clocks_count_up_and_never_flag() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(None);
        clock.start(Side::White, t0);
        assert_eq!(clock.left(Side::White, t0 + S), None);
        assert_eq!(clock.flagged(t0 + 1000 * S, Duration::ZERO), None);
        clock.press(None, t0 + 2 * S);
        assert_eq!(clock.used(Side::White, t0 + 9 * S), 2 * S);
        assert_eq!(clock.running(), None);
        clock.reset(Some(Side::Black), t0 + 9 * S);
        assert_eq!(clock.used(Side::White, t0 + 9 * S), Duration::ZERO);
        assert_eq!(clock.used(Side::Black, t0 + 10 * S), S);
    }

    #[test]
    fn swapping_sides_exchanges_time_and_increments() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(control(10, 100));
        clock.start(Side::Black, t0);
        clock.press(Some(Side::White), t0 + 3 * S);
        clock.swap_sides(t0 + 4 * S);
        assert_eq!(clock.running(), None);
        assert_eq!(clock.used(Side::Black, t0 + 9 * S), S);
        assert_eq!(clock.left(Side::White, t0 + 9 * S), Some(7 * S + 100 * MS));
    }

    #[test]
    fn halting_keeps_time_spent() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(control(5, 0));
        clock.start(Side::Black, t0);
        assert_eq!(clock.halt(t0 + 2 * S), 2 * S);
        assert_eq!(clock.halt(t0 + 3 * S), Duration::ZERO);
        clock.start(Side::Black, t0 + 4 * S);
        assert_eq!(clock.left(Side::Black, t0 + 5 * S), Some(2 * S));
    }
}
