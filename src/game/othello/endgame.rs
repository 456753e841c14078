//! Exact Othello endgame solver: the final disc margin under perfect play.
//!
//! Scores are from the side to move's view, with empty squares going to the winner
//! (the usual Othello margin); under misère the margin is negated, so fewer discs is
//! better and the same search serves both rules. Works on bare bitboards, without the
//! `Game` trait, and allocates nothing while searching.

use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};

use super::Rule;
use super::bitboard::{
    ADJACENT, Squares, board_size, flips, last_flip_count, legal_moves, neighbours, square_bit,
};
use super::eval::evaluate_discs;
use super::pattern::Features;
use super::solver_stats::{Kind, Stats};
use super::stability::stable_discs;
use super::symmetry::{distinct_moves, stabilizer};
use crate::game::split::{self, SplitPoint};
use crate::memory::{Zeroable, ZeroedTable};
use crate::stop::{SharedNodes, Stop};

/// Below this many empties no transposition table is used.
const TABLE_MIN_EMPTIES: u32 = 9;
/// Up to this many empties, squares are tried directly without a move list, the table,
/// stability or fastest-first order: on FFO #40-#44, 6 took 20% more nodes than 4 and
/// 17% less time (medians of 3 runs: 5.74 s against 6.95 s; 5.79 s at 7).
const FEW_EMPTIES: u32 = 6;
/// The same on the small boards, where the fastest-first order pays more: from the 6x6
/// start 68.4 s against 76.3 s at 6 (1.08 G nodes against 1.39 G); on four 6x6 misère
/// positions at 24 empties (stability bounds from 5 there) 6 took 32% more nodes and no
/// less time than 4.
const SMALL_BOARD_FEW_EMPTIES: u32 = 4;
/// From this many empties on, moves are ordered by the opponent's replies (fastest first).
const FASTEST_FIRST_MIN_EMPTIES: u32 = 5;
/// From this many empties on, children are probed for a cutoff before any is searched.
const ETC_MIN_EMPTIES: u32 = 12;
/// From this many empties on, the evaluation helps to order moves.
const EVAL_ORDER_MIN_EMPTIES: u32 = 12;
/// From this many empties on, a shallow search of each move helps to order moves (8x8,
/// patterns).
const SHALLOW_ORDER_MIN_EMPTIES: u32 = 16;
/// The depth of that search where no shallow search orders.
const NO_SHALLOW_ORDER: u32 = 0;
/// Where no deeper search orders.
const NO_DEEPER_ORDER: u32 = u32::MAX;
/// The depth of the shallow search that guesses the score before the first probe. With
/// the hand-written evaluation (small boards), depth 4: on four 6x6 positions at 24
/// empties it took fewer nodes than 3, 6, 8 or 10 (10: 22% more under misère).
const ESTIMATE_DEPTH: u32 = 4;
/// The same with the trained patterns (8x8): depth 10, its children ordered, missed
/// FFO #40-#59's scores by 1.9 discs on average against 4.4 at depth 4, for 5-8% fewer
/// nodes (FFO #40-#49, #49-#52) at about 30 ms a position.
const PATTERN_ESTIMATE_DEPTH: u32 = 10;
/// From this depth on, the shallow search tries the children in the order of their
/// evaluation: the estimate at depth 10 in 0.03 s instead of up to 23 s unordered.
const SHALLOW_SORT_MIN_DEPTH: u32 = 4;
/// Beyond any evaluation, in centi-discs.
const EVAL_BOUND: i32 = 30_000;
/// With at most this many discs on the board, moves that lead to mirror images of one
/// position are searched once: symmetric positions occur near the start.
const SYMMETRY_MAX_DISCS: i32 = 16;
/// Nodes between two looks at the stop (about a millisecond).
const STOP_CHECK_NODES: u64 = 16_384;
/// From this many empties on, stable discs bound the score.
const STABILITY_MIN_EMPTIES: u32 = 7;
/// In the last plies' search (8x8, normal rule), stable discs bound the score from this
/// many empties on: on FFO #40-#44 6.4% fewer nodes (110.5 M against 118.1 M) in the
/// same time (5.05 s against 5.07 s, medians of 5); from 6 empties 111.6 M.
const FEW_STABILITY_MIN_EMPTIES: u32 = 5;
/// The same on the small boards under misère, where the bounds are tested from below as
/// well: 11% fewer nodes (0.64 G against 0.72 G) and less time on four 6x6 positions at
/// 24 empties than from 7 empties and above only (under the normal rule, from 5 empties
/// took 3% fewer nodes on the 6x6 start and no less time).
const MISERE_STABILITY_MIN_EMPTIES: u32 = 5;
/// With several threads, from this many empties on the moves after the first are
/// shared out among the threads (young brothers wait).
const SPLIT_MIN_EMPTIES: u32 = 12;
/// The root and its children search their moves one by one: a split there that a cutoff
/// makes useless wastes the largest subtrees, and the splits below keep the threads
/// busy. On FFO #20-#39 at 2 threads: 129.6 M nodes with the root splitting, 120.3 M
/// from one ply down, 117.7 M from two.
const SPLIT_MIN_PLY: u32 = 2;
/// From this many empties on, a search under a split point looks whether a sibling has
/// already cut it off.
const ABORT_CHECK_MIN_EMPTIES: u32 = 9;
/// A node splits only while no move left looks, by the evaluation, at least this much
/// (centi-discs) above beta: a node expected to cut off is searched on alone. With the
/// 8x8 order of d6f4043, 2 discs (was 4) at two threads: FFO #40-#49 828.8 M -> 770.9 M
/// nodes, #20-#39 102.9 M -> 100.5 M (medians of 3 and 5; 0 and 1 disc about the same).
const EXPECTED_CUT_MARGIN: i32 = 200;

/// The final margin for `player` when the game ends with these discs.
#[inline]
pub fn final_margin(player: u64, opponent: u64, squares: i32) -> i32 {
    let own = player.count_ones() as i32;
    let other = opponent.count_ones() as i32;
    let empties = squares - own - other;
    let diff = own - other;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A bounds entry for one position: `lower <= score <= upper`.
#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// Empty squares of the position, which measures the work the entry saves.
    /// A selective search's bounds carry [`SELECTIVE`] too.
    empties: u8,
    /// The table's generation when stored: entries of an earlier one are free.
    generation: u16,
}

/// A selective solve's ProbCut looks at nodes with this many empties or more.
const SELECTIVE_MIN_EMPTIES: u32 = 14;

/// The depth of ProbCut's shallow search in a selective solve at `empties`.
fn selective_depth(empties: u32) -> u32 {
    if empties >= 20 { 4 } else { 2 }
}

/// The standard error (centi-discs) of a search to `depth` (0: the evaluation) as a
/// prediction of the exact score, from `arbor probcut --endgame --positions 600 --seed 1`
/// (598 positions at 14-22 empties): the rows per empty count differ by no more than
/// their noise, so one value per depth, their mean (rounded).
fn endgame_sigma(depth: u32) -> i32 {
    ENDGAME_SIGMA[depth.min(6) as usize]
}

const ENDGAME_SIGMA: [i32; 7] = [900, 860, 790, 730, 710, 650, 600];

/// Marks an entry's bounds as a selective search's: only a selective search trusts
/// them (an exact one takes just the move).
const SELECTIVE: u8 = 0x80;

impl Entry {
    /// The empties the entry saves work for, without the selective mark.
    #[inline]
    fn work(&self) -> u8 {
        self.empties & !SELECTIVE
    }

    #[inline]
    fn data(&self) -> u64 {
        self.lower as u8 as u64
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (self.generation as u64) << 32
    }
}

/// One entry, shared by every thread without a lock: the key words are stored xored
/// with the data word, so that an entry torn by two threads writing at once reads as a
/// miss rather than as another position's bounds.
#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        Entry {
            player: self.player.load(Ordering::Relaxed) ^ data,
            opponent: self.opponent.load(Ordering::Relaxed) ^ data,
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            generation: (data >> 32) as u16,
        }
    }

    #[inline]
    fn save(&self, entry: &Entry) {
        let data = entry.data();
        self.player.store(entry.player ^ data, Ordering::Relaxed);
        self.opponent
            .store(entry.opponent ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// Two entries in one cache line: a probe reads one line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; 2]);

// SAFETY: atomics only; all zero is an entry of generation 0, which no table is in.
unsafe impl Zeroable for Bucket {}

/// The solver's table of bounds, shared by its threads. Emptying it starts a new
/// generation rather than writing every entry: `arbor solve FILE` empties it before
/// each position, and writing its 480 MiB was most of the wall time on FFO #1-#19.
struct Table {
    buckets: ZeroedTable<Bucket>,
    /// Never 0, the generation of the zeroed memory.
    generation: u16,
}

impl Table {
    #[inline]
    fn slot(&self, player: u64, opponent: u64) -> usize {
        let key = (player.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ opponent.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
        .rotate_left(29)
        .wrapping_mul(0x1656_67b1_9e37_79f9);
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry of this position in the bucket at `slot`, if any.
    #[inline]
    fn probe(&self, slot: usize, player: u64, opponent: u64) -> Option<Entry> {
        self.buckets[slot].0.iter().find_map(|slot| {
            let entry = slot.load();
            (entry.player == player
                && entry.opponent == opponent
                && entry.generation == self.generation)
                .then_some(entry)
        })
    }

    /// The work an entry saves in this generation (none from an earlier one).
    #[inline]
    fn worth(&self, entry: &Entry) -> u8 {
        if entry.generation == self.generation {
            entry.work()
        } else {
            0
        }
    }

    /// Stores over the same position, else over the bucket's entry with fewer empties
    /// (less work lost), the second on a tie so that deep entries stay.
    #[inline]
    fn store(&self, slot: usize, mut entry: Entry) {
        entry.generation = self.generation;
        let bucket = &self.buckets[slot].0;
        let (first, second) = (bucket[0].load(), bucket[1].load());
        let index = if first.player == entry.player && first.opponent == entry.opponent {
            0
        } else if second.player == entry.player && second.opponent == entry.opponent {
            1
        } else if self.worth(&first) < self.worth(&second) {
            0
        } else {
            1
        };
        bucket[index].save(&entry);
    }

    /// Frees every entry: a new generation, and once in 65,535 times (when the
    /// generations run out) zeroes in full.
    fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.zero();
        }
    }

    /// Frees every entry by writing it, so that all the memory is then resident.
    fn zero(&mut self) {
        for slot in self.buckets.iter().flat_map(|bucket| &bucket.0) {
            slot.save(&Entry::default());
        }
        self.generation = 1;
    }
}

/// What a solve reads and never changes: the board's squares, geometry and rule.
#[derive(Clone, Copy)]
struct Setup {
    board: u64,
    squares: i32,
    size: usize,
    quadrants: [u64; 4],
    /// Each square's quadrant as a bit of a parity mask (bit `i`: quadrant `i` has an
    /// odd number of empties); 0 off the board.
    quadrant_bit: [u8; 64],
    /// The squares of the odd quadrants, by parity mask.
    odd_squares: [u64; 16],
    corners: u64,
    symmetry_max_discs: i32,
    order: OrderWeights,
    misere: bool,
    rule: Rule,
    /// From this many empties on, stable discs bound the score: from above, and from
    /// below too where `stability_floor` (small boards under misère only).
    stability_from: u32,
    stability_floor: bool,
    /// Up to this many empties the search takes no move list ([`FEW_EMPTIES`]).
    few_empties: u32,
    /// Whether the trained patterns evaluate (8x8, either rule).
    patterned: bool,
    /// ProbCut's confidence in hundredths of a standard error; 0 for an exact solve.
    selectivity: i32,
}

impl Setup {
    fn new(board: u64, rule: Rule) -> Setup {
        let size = board_size(board);
        let small_misere = rule == Rule::Misere && size < 8;
        Setup {
            board,
            squares: board.count_ones() as i32,
            size,
            quadrants: quadrants(size),
            quadrant_bit: quadrant_bits(size),
            odd_squares: odd_squares(size),
            corners: corners(size),
            symmetry_max_discs: SYMMETRY_MAX_DISCS,
            order: OrderWeights::of(size, rule),
            misere: rule == Rule::Misere,
            stability_from: if small_misere {
                MISERE_STABILITY_MIN_EMPTIES
            } else {
                STABILITY_MIN_EMPTIES
            },
            stability_floor: small_misere,
            few_empties: if size < 8 {
                SMALL_BOARD_FEW_EMPTIES
            } else {
                FEW_EMPTIES
            },
            rule,
            patterned: board == !0,
            selectivity: 0,
        }
    }

    #[inline]
    fn terminal(&self, player: u64, opponent: u64) -> i32 {
        let margin = final_margin(player, opponent, self.squares);
        if self.misere { -margin } else { margin }
    }
}

/// A position as the move ordering evaluates it: its discs and, under the trained
/// patterns, their features, so that a child's evaluation updates its parent's features
/// instead of starting from scratch. The features count `first`'s discs as digit 1: the
/// side to move where the position was made from scratch.
#[derive(Clone, Copy)]
struct Evaluated {
    player: u64,
    opponent: u64,
    features: Features,
    first_to_move: bool,
}

impl Evaluated {
    #[inline]
    fn new(setup: &Setup, player: u64, opponent: u64) -> Evaluated {
        Evaluated {
            player,
            opponent,
            features: if setup.patterned {
                Features::new(player, opponent)
            } else {
                Features::default()
            },
            first_to_move: true,
        }
    }

    /// After the side to move fills `square` and turns `flipped`.
    #[inline]
    fn child(&self, setup: &Setup, square: usize, flipped: u64) -> Evaluated {
        let mut features = self.features;
        if setup.patterned {
            features.play(self.first_to_move, square, flipped);
        }
        Evaluated {
            player: self.opponent ^ flipped,
            opponent: self.player | flipped | square_bit(square),
            features,
            first_to_move: !self.first_to_move,
        }
    }

    #[inline]
    fn pass(&self) -> Evaluated {
        Evaluated {
            player: self.opponent,
            opponent: self.player,
            first_to_move: !self.first_to_move,
            ..*self
        }
    }

    /// The evaluation from the side to move's view, in centi-discs.
    #[inline]
    fn value(&self, setup: &Setup) -> i32 {
        if setup.patterned {
            let empties = 64 - (self.player | self.opponent).count_ones();
            self.features
                .evaluate(setup.rule, self.first_to_move, empties)
        } else {
            evaluate_discs(self.player, self.opponent, setup.board, setup.rule)
        }
    }
}

/// What a solve has proven so far: `lower <= score <= upper`, and a move that reaches
/// `lower` when `best` is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub lower: i32,
    pub upper: i32,
    pub best: Option<usize>,
}

/// The result of a solve: the exact margin (from the side to move) and a best move
/// (`None` when the side to move must pass or the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub score: i32,
    pub best: Option<usize>,
}

pub struct Solver {
    table: Table,
    pub nodes: u64,
    /// What the last `solve` proved, kept when it was stopped.
    progress: Progress,
    setup: Setup,
    /// The threads beside the caller's that share out split points; `None` for one.
    pool: Option<rayon::ThreadPool>,
    /// Children of a node searched alone before the rest are shared out (Jamboree).
    jamboree: usize,
    /// Where the nodes went (the `solver-stats` feature), since the last report.
    stats: std::sync::Mutex<Stats>,
}

impl Solver {
    /// A solver whose table takes `bytes` (64 per bucket of two entries, at least one
    /// bucket).
    pub fn new(bytes: usize) -> Solver {
        Solver::try_new(bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like `new`, but an error instead of an abort when the memory cannot be had.
    pub fn try_new(bytes: usize) -> Result<Solver, String> {
        let buckets = bytes / std::mem::size_of::<Bucket>();
        let buckets = ZeroedTable::new(buckets, "the endgame table")?;
        Ok(Solver {
            table: Table {
                buckets,
                generation: 1,
            },
            nodes: 0,
            progress: Progress {
                lower: -64,
                upper: 64,
                best: None,
            },
            setup: Setup::new(!0, Rule::Normal),
            pool: None,
            jamboree: 1,
            stats: std::sync::Mutex::new(Stats::new()),
        })
    }

    /// Makes the next solves selective (ProbCut at `percent` hundredths of a standard
    /// error; 8x8 under the normal rule only, where the error was measured) or, with 0,
    /// exact. A selective score is probable, not proven.
    pub fn set_selectivity(&mut self, percent: u32) {
        self.setup.selectivity = percent.min(1000) as i32;
    }

    /// Solves with `threads` threads (at least one) from the next solve on.
    pub fn set_threads(&mut self, threads: usize) {
        if threads == self.threads() {
            return;
        }
        self.pool = split::pool(threads, "arbor-solver");
    }

    pub fn threads(&self) -> usize {
        split::pool_threads(&self.pool)
    }

    /// With several threads, searches the first `children` moves of a node (at least
    /// one) alone before the rest are shared out: Jamboree search, 1 being young
    /// brothers wait. Changes the work, never the result.
    pub fn set_jamboree(&mut self, children: usize) {
        self.jamboree = children.max(1);
    }

    pub fn jamboree(&self) -> usize {
        self.jamboree
    }

    /// What the last solve proved, even if it was stopped.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// Looks for mirror-image moves in every position, not only near the start.
    #[cfg(test)]
    fn check_symmetry_everywhere(&mut self) {
        self.setup.symmetry_max_discs = 64;
    }

    /// Forgets every entry without writing the table.
    pub fn forget(&mut self) {
        self.table.forget();
    }

    /// Forgets every entry by writing each, so that all the table's memory is resident
    /// (`clear hash`).
    pub fn zero(&mut self) {
        self.table.zero();
    }

    /// Solves the position exactly, or returns `None` once `stop` is raised.
    pub fn solve(
        &mut self,
        player: u64,
        opponent: u64,
        board: u64,
        rule: Rule,
        stop: &Stop,
    ) -> Option<Solution> {
        let squares = board.count_ones() as i32;
        self.progress = Progress {
            lower: -squares,
            upper: squares,
            best: None,
        };
        // Null-window probes, the first at a guess from a shallow search of the
        // evaluation, then on from the fail-soft bound score by score, and by halves once
        // the score is bracketed. Probes far from the score are cheap but not free: the
        // guess spares the win-loss-draw probe and the halving probes that came before.
        let guess = self.estimate(player, opponent, board, rule);
        log::debug!("solve guess {guess}");
        let (mut low, mut high) = (-squares, squares);
        let mut best = None;
        // The next probe tests `score >= target`; `rising` and `step` follow the run of
        // probes on one side, `bracketed` whether probes have failed on both.
        let mut target = guess;
        let (mut rising, mut step, mut bracketed) = (None, 2, false);
        while low < high {
            let probe = if bracketed {
                low + (high - low + 1) / 2
            } else {
                target.clamp(low + 1, high)
            };
            let bound = self.solve_window(player, opponent, board, rule, probe - 1, probe, stop)?;
            log::debug!(
                "solve probe {probe}: {} after {} nodes",
                bound.score,
                self.nodes
            );
            let up = bound.score >= probe;
            if up {
                low = bound.score;
                best = bound.best;
            } else {
                high = bound.score;
            }
            match rising {
                Some(side) if side != up => bracketed = true,
                // ProbCut's bounds stop at the window, so a selective solve doubles its
                // steps both ways. An exact solve does not: on FFO #57 (guess -2, score
                // -10) steps doubling downwards overshot to `>= -16` and took 1.73 G
                // nodes climbing back after `>= -8` had failed low, where `>= -10` ends
                // it; FFO #40-#59 without #55 took 12.57 G -> 11.58 G nodes.
                Some(_) if self.setup.selectivity > 0 => step *= 2,
                _ => {}
            }
            rising = Some(up);
            // Scores are even on every board, so a step of 2 tests the next score.
            target = if up { low + step - 1 } else { high - step + 2 };
            self.progress = Progress {
                lower: low,
                upper: high,
                best,
            };
        }
        if best.is_none() && legal_moves(player, opponent, board) != 0 {
            // Every move reaches the worst score: any legal move is best.
            best = Squares(legal_moves(player, opponent, board)).next();
        }
        self.progress.best = best;
        if Stats::ENABLED {
            let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
            log::debug!("solver stats:\n{}", stats.report());
            *stats = Stats::new();
        }
        Some(Solution { score: low, best })
    }

    /// Solves the position and then each position along the best line, so every move of
    /// the returned line is proven best: up to `length` moves, `None` for a pass.
    pub fn solve_line(
        &mut self,
        player: u64,
        opponent: u64,
        board: u64,
        rule: Rule,
        length: usize,
        stop: &Stop,
    ) -> Option<(i32, Vec<Option<usize>>)> {
        let root = self.solve(player, opponent, board, rule, stop)?;
        let (mut player, mut opponent, mut score) = (player, opponent, root.score);
        let mut line = vec![root.best];
        let mut best = root.best;
        while line.len() < length {
            match best {
                Some(square) => {
                    let flipped = flips(square, player, opponent);
                    (player, opponent) =
                        (opponent ^ flipped, player | flipped | square_bit(square));
                }
                None => (player, opponent) = (opponent, player),
            }
            score = -score;
            if legal_moves(player, opponent, board) == 0
                && legal_moves(opponent, player, board) == 0
            {
                break;
            }
            // The true score is known: a window around it finds a move that keeps it.
            best = self
                .solve_window(player, opponent, board, rule, score - 1, score + 1, stop)?
                .best;
            line.push(best);
        }
        Some((root.score, line))
    }

    /// Makes the solver's setup that of `board` and `rule`, emptying the table when they
    /// change (entries hold scores for one board and rule).
    fn prepare(&mut self, board: u64, rule: Rule) {
        if board != self.setup.board || rule != self.setup.rule {
            self.forget();
            self.setup = Setup {
                symmetry_max_discs: self.setup.symmetry_max_discs,
                selectivity: self.setup.selectivity,
                ..Setup::new(board, rule)
            };
        }
    }

    /// A guess at the exact score (even, within the board's squares): a shallow
    /// alpha-beta search of the evaluation.
    fn estimate(&mut self, player: u64, opponent: u64, board: u64, rule: Rule) -> i32 {
        self.prepare(board, rule);
        let counted = SharedNodes::new(self.nodes);
        let stop = Stop::never();
        let root = Root {
            table: &self.table,
            setup: self.setup,
            stop: &stop,
            counted: &counted,
            threads: 1,
            jamboree: 1,
            stats: &self.stats,
        };
        let context = Context::<Portable>::new(&root);
        let empties = (board & !(player | opponent)).count_ones();
        let position = Evaluated::new(&self.setup, player, opponent);
        let depth = if self.setup.patterned {
            PATTERN_ESTIMATE_DEPTH
        } else {
            ESTIMATE_DEPTH
        }
        .min(empties);
        // On one thread the guess took about 6% of FFO #20-#39's solve time; unshared,
        // it would be a serial part that no thread count shortens.
        let value = match &self.pool {
            Some(pool) => shallow_shared(&context, &position, depth, pool),
            None => context.shallow(&position, depth, -EVAL_BOUND, EVAL_BOUND),
        };
        let squares = self.setup.squares;
        // To the nearest even score.
        (2 * (value as f64 / 200.0).round() as i32).clamp(-squares, squares)
    }

    /// Like `solve` within (`alpha`, `beta`): the score is exact inside the window and a
    /// bound outside it (fail-soft).
    #[allow(clippy::too_many_arguments)]
    pub fn solve_window(
        &mut self,
        player: u64,
        opponent: u64,
        board: u64,
        rule: Rule,
        alpha: i32,
        beta: i32,
        stop: &Stop,
    ) -> Option<Solution> {
        self.prepare(board, rule);
        let empties = (board & !(player | opponent)).count_ones();
        let counted = SharedNodes::new(self.nodes);
        let root = Root {
            table: &self.table,
            setup: self.setup,
            stop,
            counted: &counted,
            threads: self.threads(),
            jamboree: self.jamboree,
            stats: &self.stats,
        };
        let solve = || {
            #[cfg(target_arch = "x86_64")]
            if *USE_FAST {
                let mut context = Context::<Fast>::new(&root);
                // SAFETY: USE_FAST is only true on a CPU with every feature `Fast` enables.
                let (score, best) = unsafe { context.root(player, opponent, alpha, beta, empties) };
                context.finish();
                return (!context.stopped).then_some(Solution { score, best });
            }
            root_portable(&root, player, opponent, alpha, beta, empties)
        };
        let solution = match &self.pool {
            Some(pool) => pool.install(solve),
            None => solve(),
        };
        self.nodes = counted.total();
        solution
    }

    /// The root search compiled for any CPU.
    #[cfg(test)]
    fn root_portable(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
        stop: &Stop,
    ) -> Option<Solution> {
        let counted = SharedNodes::new(self.nodes);
        let root = Root {
            table: &self.table,
            setup: self.setup,
            stop,
            counted: &counted,
            threads: 1,
            jamboree: 1,
            stats: &self.stats,
        };
        let solution = root_portable(&root, player, opponent, alpha, beta, empties);
        self.nodes = counted.total();
        solution
    }
}

/// A shallow search of the evaluation over the full window, with the root's moves after
/// the first shared out among the pool's threads: the same value as `shallow`.
fn shallow_shared(
    context: &Context<Portable>,
    position: &Evaluated,
    depth: u32,
    pool: &rayon::ThreadPool,
) -> i32 {
    let setup = &context.setup;
    let (player, opponent) = (position.player, position.opponent);
    let moves = legal_moves(player, opponent, setup.board);
    if depth == 0 || moves == 0 {
        return context.shallow(position, depth, -EVAL_BOUND, EVAL_BOUND);
    }
    let mut list = MoveList::new();
    for square in Squares(moves) {
        let flipped = flips(square, player, opponent);
        let value = position.child(setup, square, flipped).value(setup);
        list.insert(-value, square as u8, flipped);
    }
    let moves = list.as_slice();
    let child = |index: usize| position.child(setup, moves[index].1 as usize, moves[index].2);
    let best = AtomicI32::new(-context.shallow(&child(0), depth - 1, -EVAL_BOUND, EVAL_BOUND));
    let next = AtomicUsize::new(1);
    pool.install(|| {
        rayon::scope(|scope| {
            for _ in 0..pool.current_num_threads() {
                scope.spawn(|_| {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= moves.len() {
                            break;
                        }
                        // Above the best so far a score is exact; at or below it, a bound
                        // that leaves the maximum as it is.
                        let alpha = best.load(Ordering::Relaxed);
                        let score = -context.shallow(&child(index), depth - 1, -EVAL_BOUND, -alpha);
                        best.fetch_max(score, Ordering::Relaxed);
                    }
                })
            }
        })
    });
    best.into_inner()
}

/// The root search compiled for any CPU.
fn root_portable(
    root: &Root,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
) -> Option<Solution> {
    let mut context = Context::<Portable>::new(root);
    let (score, best) = context.root(player, opponent, alpha, beta, empties);
    context.finish();
    (!context.stopped).then_some(Solution { score, best })
}

/// Weights of the fastest-first move order, in key units: per opponent reply, per
/// opponent corner reply (on top of the first), for taking a corner, per disc flipped,
/// and the evaluation's divisor (centi-discs per key unit).
#[derive(Clone, Copy)]
struct OrderWeights {
    reply: i32,
    corner_reply: i32,
    corner_taken: i32,
    flipped: i32,
    eval_divisor: i32,
    /// From `shallow_from` empties on, order by a search of the evaluation this deep
    /// (`NO_SHALLOW_ORDER`: by the evaluation itself).
    shallow_depth: u32,
    shallow_from: u32,
    /// From `deeper_from` empties on, by a search this deep instead (`NO_DEEPER_ORDER`:
    /// never).
    deeper_depth: u32,
    deeper_from: u32,
}

impl OrderWeights {
    /// The depth of the search that orders the moves of a node with `empties` empties
    /// (`NO_SHALLOW_ORDER`: the evaluation alone).
    fn search_depth(&self, empties: u32) -> u32 {
        if empties >= self.deeper_from {
            self.deeper_depth
        } else if empties >= self.shallow_from {
            self.shallow_depth
        } else {
            NO_SHALLOW_ORDER
        }
    }

    fn of(size: usize, rule: Rule) -> OrderWeights {
        match rule {
            // The pattern evaluation knows more than the reply count: 40% fewer nodes on
            // FFO #40-#44 with these weights than with the hand-written evaluation's.
            // The evaluation weighs more since the weights learned from more games
            // (divisor 25, was 35), and from 22 empties a 4-ply search orders the moves:
            // FFO #40-#59 without #55 11.58 G -> 8.20 G nodes, 578.8 s -> 521.6 s, and
            // #55 11.69 G -> 7.11 G (one thread; the ordering searches' own nodes,
            // not counted, 1.99 G -> 2.43 G without #55). Either alone did less: #56
            // 1.11 G nodes, divisor 25 alone 1.08 G, 4 plies from 22 alone 0.87 G,
            // both 0.60 G; 4 plies from 20: 0.57 G, slower (more ordering searches);
            // 6 plies from 26 on top: 0.75 G.
            Rule::Normal if size == 8 => OrderWeights {
                reply: 8,
                corner_reply: 16,
                corner_taken: 4,
                flipped: 0,
                eval_divisor: 25,
                shallow_depth: 2,
                shallow_from: SHALLOW_ORDER_MIN_EMPTIES,
                deeper_depth: 4,
                deeper_from: 22,
            },
            Rule::Normal => OrderWeights {
                reply: 16,
                corner_reply: 16,
                corner_taken: 4,
                flipped: 0,
                eval_divisor: 12,
                // The hand-written evaluation (6x6), at depth 3 from 18 empties: 15% fewer
                // nodes than with no search on four 6x6 positions at 24 empties and 41%
                // fewer (1.08 G against 1.83 G) on the 6x6 start. From 16 empties took
                // 10% fewer nodes again but 9% more CPU time on the start; depth 2 took
                // more nodes, depth 4 fewer but more time. With 6x6's own weights
                // (eval.rs, `NORMAL6`) worth 4x more (divisor 12, was 50): 46% fewer
                // nodes on eight positions at 24 empties (273.6 M -> 147.4 M; divisor 50
                // 223.4 M, 30 193.2 M, 20 160.9 M, 8 150.8 M, 5 152.6 M), the start
                // 1.08 G -> 0.77 G. Again from 16 empties fewer nodes but more time.
                shallow_depth: 3,
                shallow_from: 18,
                deeper_depth: NO_DEEPER_ORDER,
                deeper_from: NO_DEEPER_ORDER,
            },
            // Fewest discs wins: corners anchor discs, so giving the opponent a corner
            // is good and taking one is bad. 30% fewer nodes on 6x6 misère positions with
            // 20-24 empties than the normal rule's weights. Then few flips first, replies
            // and corner replies weighed less, the evaluation more, and a 1-ply search of
            // it from 14 empties: 31% fewer nodes (0.72 G against 1.04 G) and 22% less
            // time on four 6x6 positions at 24 empties; deeper searches gained less and
            // cost more time.
            // 6x6 has its own evaluation fitted to exact solves (eval.rs, `MISERE6`),
            // worth more in the key (divisor 8, was 40) and searched 2 plies deep from 16
            // empties (was 1 from 14): 38% fewer nodes on eight positions at 24 and 26
            // empties (2.52 G -> 1.56 G), and the start 30.3 G -> 11.7 G nodes.
            Rule::Misere if size == 6 => OrderWeights {
                reply: 12,
                corner_reply: -6,
                corner_taken: -12,
                flipped: 4,
                eval_divisor: 8,
                shallow_depth: 2,
                shallow_from: 16,
                deeper_depth: NO_DEEPER_ORDER,
                deeper_from: NO_DEEPER_ORDER,
            },
            Rule::Misere => OrderWeights {
                reply: 12,
                corner_reply: -6,
                corner_taken: -12,
                flipped: 4,
                eval_divisor: 40,
                shallow_depth: 1,
                shallow_from: 14,
                deeper_depth: NO_DEEPER_ORDER,
                deeper_from: NO_DEEPER_ORDER,
            },
        }
    }
}

fn corners(size: usize) -> u64 {
    let last = size - 1;
    square_bit(0) | square_bit(last) | square_bit(last * 8) | square_bit(last * 8 + last)
}

/// Each square's quadrant as a parity bit (see [`Setup::quadrant_bit`]).
fn quadrant_bits(size: usize) -> [u8; 64] {
    let mut bits = [0; 64];
    for (index, quad) in quadrants(size).into_iter().enumerate() {
        for square in Squares(quad) {
            bits[square] = 1 << index;
        }
    }
    bits
}

/// The squares of the quadrants set in each parity mask.
fn odd_squares(size: usize) -> [u64; 16] {
    let quads = quadrants(size);
    std::array::from_fn(|parity| {
        (0..4)
            .filter(|index| parity & (1 << index) != 0)
            .fold(0, |squares, index| squares | quads[index])
    })
}

fn quadrants(size: usize) -> [u64; 4] {
    let mut quads = [0u64; 4];
    let half = size / 2;
    for row in 0..size {
        for col in 0..size {
            quads[(row >= half) as usize * 2 + (col >= half) as usize] |= square_bit(row * 8 + col);
        }
    }
    quads
}

/// What every thread of one solve shares.
struct Root<'a> {
    table: &'a Table,
    setup: Setup,
    stop: &'a Stop,
    /// Nodes of the solve, every thread's added as it goes (for the node limit).
    counted: &'a SharedNodes,
    threads: usize,
    /// Children of a node searched alone before a split.
    jamboree: usize,
    stats: &'a std::sync::Mutex<Stats>,
}

/// One thread's share of a solve; `I` is the instruction set its search was compiled
/// for.
struct Context<'a, I> {
    table: &'a Table,
    setup: Setup,
    stop: &'a Stop,
    counted: &'a SharedNodes,
    threads: usize,
    jamboree: usize,
    /// The empties of the search's root (moves below it: the root's empties less a
    /// node's, passes aside).
    root_empties: u32,
    /// The solve's statistics, and this thread's not yet added to them.
    shared_stats: &'a std::sync::Mutex<Stats>,
    stats: Stats,
    /// The split point this thread works under, if any.
    split: Option<&'a SplitPoint<'a>>,
    nodes: u64,
    /// Nodes already added to `counted`.
    flushed: u64,
    /// Nodes this thread has claimed from the node limit and not yet counted.
    claim: u64,
    stopped: bool,
    /// The node count at which the stop is checked next.
    next_check: u64,
    isa: PhantomData<I>,
}

impl<'a, I> Context<'a, I> {
    fn new(root: &Root<'a>) -> Context<'a, I> {
        Context {
            table: root.table,
            setup: root.setup,
            stop: root.stop,
            counted: root.counted,
            threads: root.threads,
            jamboree: root.jamboree,
            root_empties: 0,
            shared_stats: root.stats,
            stats: Stats::new(),
            split: None,
            nodes: 0,
            flushed: 0,
            claim: 0,
            stopped: false,
            next_check: 0,
            isa: PhantomData,
        }
    }

    /// A context for a thread working under `split`.
    fn fork<'b>(&self, split: &'b SplitPoint<'b>) -> Context<'b, I>
    where
        'a: 'b,
    {
        Context {
            table: self.table,
            setup: self.setup,
            stop: self.stop,
            counted: self.counted,
            threads: self.threads,
            jamboree: self.jamboree,
            root_empties: self.root_empties,
            shared_stats: self.shared_stats,
            stats: Stats::new(),
            split: Some(split),
            nodes: 0,
            flushed: 0,
            claim: 0,
            stopped: false,
            next_check: 0,
            isa: PhantomData,
        }
    }

    /// The nodes searched since they were last counted.
    fn uncounted(&mut self) -> u64 {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        delta
    }

    /// Counts this thread's last nodes and gives back what it claimed.
    fn finish(&mut self) {
        let searched = self.uncounted();
        self.counted.finish(searched, self.claim, self.stop);
        self.claim = 0;
        if Stats::ENABLED {
            let mut shared = self.shared_stats.lock().unwrap_or_else(|e| e.into_inner());
            shared.add(&self.stats);
            self.stats = Stats::new();
        }
    }

    /// Counts the nodes, claims the next ones and looks at the stop and at the split
    /// points above.
    fn poll(&mut self) {
        let searched = self.uncounted();
        let (total, claim) = self.counted.settle(
            searched,
            self.claim,
            self.stop,
            self.threads,
            STOP_CHECK_NODES,
        );
        self.claim = claim;
        self.next_check = self.nodes + claim.max(1);
        self.stopped |=
            claim == 0 || self.stop.check(total) || self.split.is_some_and(|split| split.aborted());
    }
}

/// Any x86-64 CPU (or another architecture).
struct Portable;

/// POPCNT, BMI1, BMI2, LZCNT and AVX2: the solver's bit counts and scans become single
/// instructions, and moves and flips are found on the vector unit.
#[cfg(target_arch = "x86_64")]
struct Fast;

/// Whether this CPU runs the `Fast` search, decided once; `ARBOR_PORTABLE` (any value
/// but empty or `0`) keeps every fast path off, for testing.
#[cfg(target_arch = "x86_64")]
static USE_FAST: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    !crate::game::othello::pattern::portable_forced()
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("avx2")
});

/// Moves ordered for search, kept on the stack, highest key first: (key, square, flips).
/// There is room for a move on every square, since set-up positions can have more than
/// the 33 moves a game can reach; the room is left uninitialised, as zeroing it at every
/// node cost about 5% of the solve time on FFO #40-#44.
struct MoveList {
    moves: [MaybeUninit<(i32, u8, u64)>; 64],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; 64],
            len: 0,
        }
    }

    /// The moves, best first.
    #[inline(always)]
    fn as_slice(&self) -> &[(i32, u8, u64)] {
        // SAFETY: `insert` keeps the first `len` entries initialised.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast(), self.len) }
    }

    /// Adds a move in key order (after those with the same key).
    #[inline(always)]
    fn insert(&mut self, key: i32, square: u8, flipped: u64) {
        let mut index = self.len;
        while index > 0 && self.as_slice()[index - 1].0 < key {
            self.moves[index] = self.moves[index - 1];
            index -= 1;
        }
        self.moves[index] = MaybeUninit::new((key, square, flipped));
        self.len += 1;
    }
}

/// The search proper, compiled twice: for any CPU, and (on x86-64) with the `Fast`
/// instructions, which `solve_window` picks at run time.
macro_rules! context_search {
    ($isa:ty $(, $feature:meta)?) => {
impl Context<'_, $isa> {
    $(#[$feature])?
    pub(super) fn root(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, Option<usize>) {
        self.root_empties = empties;
        let moves = legal_moves(player, opponent, self.setup.board);
        if moves == 0 {
            let score = if legal_moves(opponent, player, self.setup.board) == 0 {
                self.setup.terminal(player, opponent)
            } else {
                -self.search(opponent, player, -beta, -alpha, empties)
            };
            return (score, None);
        }
        let mut list = MoveList::new();
        self.ordered_moves(&mut list, player, opponent, moves, empties, None);
        let (best_score, best_move) =
            self.search_moves(player, opponent, &list, alpha, beta, empties);
        if self.stopped {
            return (0, None);
        }
        (best_score, Some(best_move as usize))
    }

    /// Principal-variation search over ordered moves: the best score (fail-soft) and move.
    $(#[$feature])?
    fn search_moves(
        &mut self,
        player: u64,
        opponent: u64,
        list: &MoveList,
        mut alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, u8) {
        let mut best_score = i32::MIN;
        let moves = list.as_slice();
        let mut best_move = moves[0].1;
        for (index, &(_, square, flipped)) in moves.iter().enumerate() {
            // Jamboree (young brothers wait at 1): once the first `jamboree` moves have
            // not cut off, the others are shared out among the threads.
            if index >= self.jamboree
                && self.threads > 1
                && empties >= SPLIT_MIN_EMPTIES
                && self.root_empties - empties >= SPLIT_MIN_PLY
                && list.len - index > 1
                && !self.expects_cutoff(player, opponent, &moves[index..], beta)
            {
                let split = SplitPoint::new(
                    self.split,
                    index,
                    alpha,
                    beta,
                    (best_score, best_move as u16),
                );
                let helpers = (self.threads - 1).min(list.len - index - 1);
                // This thread waits on the split: its claim goes back for the split's
                // threads to spend, and it claims anew after.
                self.finish();
                self.next_check = self.nodes;
                rayon::scope(|scope| {
                    for _ in 0..helpers {
                        let mut helper = self.fork(&split);
                        let split = &split;
                        scope.spawn(move |_| helper.share(split, player, opponent, list, empties));
                    }
                    self.fork(&split).share(&split, player, opponent, list, empties);
                });
                let Some((score, square)) = split.result() else {
                    self.stopped = true;
                    return (0, best_move);
                };
                return (score, square as u8);
            }
            let next_player = opponent ^ flipped;
            let next_opponent = player | flipped | square_bit(square as usize);
            let score = if best_score == i32::MIN {
                -self.search(next_player, next_opponent, -beta, -alpha, empties - 1)
            } else {
                let mut score =
                    -self.search(next_player, next_opponent, -alpha - 1, -alpha, empties - 1);
                if score > alpha && score < beta {
                    score = -self.search(next_player, next_opponent, -beta, -score, empties - 1);
                }
                score
            };
            if self.stopped {
                return (0, best_move);
            }
            if score > best_score {
                best_score = score;
                best_move = square;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best_score, best_move)
    }

    /// Whether one of these moves looks, by the evaluation, good enough to reach `beta`:
    /// brothers searched beside the move that cuts off would be wasted.
    $(#[$feature])?
    fn expects_cutoff(
        &self,
        player: u64,
        opponent: u64,
        moves: &[(i32, u8, u64)],
        beta: i32,
    ) -> bool {
        let threshold = 100 * beta + EXPECTED_CUT_MARGIN;
        let evaluated = Evaluated::new(&self.setup, player, opponent);
        moves.iter().any(|&(_, square, flipped)| {
            -evaluated.child(&self.setup, square as usize, flipped).value(&self.setup) >= threshold
        })
    }

    /// This thread's share of a split point's moves: the next move not yet taken, until
    /// none is left, one has cut off, or the solve stops.
    $(#[$feature])?
    fn share(
        &mut self,
        split: &SplitPoint,
        player: u64,
        opponent: u64,
        list: &MoveList,
        empties: u32,
    ) {
        let beta = split.beta();
        loop {
            if split.aborted() {
                self.stopped = true;
                break;
            }
            let index = split.take();
            if index >= list.len {
                break;
            }
            let (_, square, flipped) = list.as_slice()[index];
            let next_player = opponent ^ flipped;
            let next_opponent = player | flipped | square_bit(square as usize);
            let alpha = split.alpha();
            let mut score =
                -self.search(next_player, next_opponent, -alpha - 1, -alpha, empties - 1);
            if score > alpha && score < beta && !self.stopped {
                score = -self.search(next_player, next_opponent, -beta, -score, empties - 1);
            }
            if self.stopped || split.record(score, index, square as u16, alpha) {
                break;
            }
        }
        if self.stopped {
            split.mark_stopped();
        }
        self.finish();
    }

    /// Negamax alpha-beta, fail-soft, with `empties` empty squares.
    $(#[$feature])?
    fn search(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
    ) -> i32 {
        if empties <= self.setup.few_empties {
            let parity = self.parity(self.setup.board & !(player | opponent));
            return self.search_few(player, opponent, alpha, beta, empties, parity);
        }
        self.nodes += 1;
        self.stats.count(Kind::Node, empties);
        if self.nodes >= self.next_check {
            self.poll();
        }
        if empties >= ABORT_CHECK_MIN_EMPTIES
            && let Some(split) = self.split
        {
            self.stopped |= split.aborted();
        }
        if self.stopped {
            return 0;
        }
        let board = self.setup.board;
        let moves = legal_moves(player, opponent, board);
        if moves == 0 {
            if legal_moves(opponent, player, board) == 0 {
                return self.setup.terminal(player, opponent);
            }
            return -self.search(opponent, player, -beta, -alpha, empties);
        }
        // Stable discs cap the score: the opponent's under the normal rule (they end up
        // ours at most), our own under misère. Stable discs are at most all the discs of
        // their colour, so test only when that could cut.
        if empties >= self.setup.stability_from {
            let capping = if self.setup.misere { player } else { opponent };
            if alpha >= self.setup.squares - 2 * capping.count_ones() as i32 {
                let others = player ^ opponent ^ capping;
                let stable = stable_discs(capping, others, board).count_ones() as i32;
                let ceiling = self.setup.squares - 2 * stable;
                if ceiling <= alpha {
                    self.stats.count(Kind::StabilityCut, empties);
                    return ceiling;
                }
                beta = beta.min(ceiling);
            }
            // And under misère the opponent's floor it (they keep at least those).
            if self.setup.stability_floor {
                if beta <= 2 * opponent.count_ones() as i32 - self.setup.squares {
                    let stable = stable_discs(opponent, player, board).count_ones() as i32;
                    let floor = 2 * stable - self.setup.squares;
                    if floor >= beta {
                        self.stats.count(Kind::StabilityCut, empties);
                        return floor;
                    }
                }
            }
        }
        let mut table_move = None;
        let mut slot = 0;
        let use_table = empties >= TABLE_MIN_EMPTIES;
        if use_table {
            slot = self.table.slot(player, opponent);
            if let Some(entry) = self.table.probe(slot, player, opponent) {
                if self.trusts(&entry) {
                    let (lower, upper) = (entry.lower as i32, entry.upper as i32);
                    if lower >= beta || upper <= alpha || lower == upper {
                        self.stats.count(Kind::TableCut, empties);
                        return if lower >= beta { lower } else { upper };
                    }
                    alpha = alpha.max(lower);
                    beta = beta.min(upper);
                }
                table_move = Some(entry.best);
            }
        }
        if self.setup.selectivity > 0
            && empties >= SELECTIVE_MIN_EMPTIES
            && let Some(cut) = self.probcut(player, opponent, alpha, beta, empties)
        {
            return cut;
        }
        let original_alpha = alpha;
        let mut list = MoveList::new();
        self.ordered_moves(&mut list, player, opponent, moves, empties, table_move);
        if empties >= ETC_MIN_EMPTIES {
            // Enhanced transposition cutoff: a child already known to be bad enough for
            // the opponent ends this node without a search.
            for &(_, square, flipped) in list.as_slice() {
                let child_player = opponent ^ flipped;
                let child_opponent = player | flipped | square_bit(square as usize);
                let child_slot = self.table.slot(child_player, child_opponent);
                if let Some(entry) = self.table.probe(child_slot, child_player, child_opponent)
                    && self.trusts(&entry)
                {
                    let score = -(entry.upper as i32);
                    if score >= beta {
                        self.stats.count(Kind::EnhancedCut, empties);
                        return score;
                    }
                }
            }
        }
        let (best_score, best_move) =
            self.search_moves(player, opponent, &list, alpha, beta, empties);
        if self.stopped {
            return 0;
        }
        self.stats.searched(
            empties,
            best_score,
            original_alpha,
            beta,
            best_move == list.as_slice()[0].1,
        );
        if use_table {
            let (lower, upper) = if best_score >= beta {
                (best_score, 64)
            } else if best_score <= original_alpha {
                (-64, best_score)
            } else {
                (best_score, best_score)
            };
            self.table.store(
                slot,
                Entry {
                    player,
                    opponent,
                    lower: lower as i8,
                    upper: upper as i8,
                    best: best_move,
                    empties: empties as u8
                        | if self.setup.selectivity > 0 { SELECTIVE } else { 0 },
                    generation: 0,
                },
            );
        }
        best_score
    }

    /// Fills `list` (empty) with the moves in search order. The caller owns the list:
    /// returning it by value copied its kilobyte at every node (4% of a 6x6 solve).
    $(#[$feature])?
    fn ordered_moves(
        &self,
        list: &mut MoveList,
        player: u64,
        opponent: u64,
        moves: u64,
        empties: u32,
        first: Option<u8>,
    ) {
        let board = self.setup.board;
        let empty = board & !(player | opponent);
        let odd_quadrants = self.setup.odd_squares[self.parity(empty)];
        let evaluated = (empties >= EVAL_ORDER_MIN_EMPTIES)
            .then(|| Evaluated::new(&self.setup, player, opponent));
        let discs = self.setup.squares - empties as i32;
        let moves = if discs <= self.setup.symmetry_max_discs {
            let size = self.setup.size;
            distinct_moves(moves, stabilizer(player, opponent, size), size)
        } else {
            moves
        };
        for square in Squares(moves) {
            let flipped = flips(square, player, opponent);
            let bit = square_bit(square);
            let (child_player, child_opponent) = (opponent ^ flipped, player | flipped | bit);
            let mut key = if empties >= FASTEST_FIRST_MIN_EMPTIES {
                // Fewest replies first, then the fewest empty squares next to our discs;
                // weights from runs on FFO #40-#44.
                let replies = legal_moves(child_player, child_opponent, board);
                let potential = (neighbours(child_opponent) & empty & !bit).count_ones() as i32;
                let corners = self.setup.corners;
                let order = self.setup.order;
                let mut key = -order.reply * replies.count_ones() as i32
                    - order.corner_reply * (replies & corners).count_ones() as i32
                    + order.corner_taken * (bit & corners != 0) as i32
                    - order.flipped * flipped.count_ones() as i32
                    - 4 * potential;
                if let Some(evaluated) = &evaluated {
                    // High in the tree the evaluation of the reply position adds to it:
                    // 27% fewer nodes on FFO #40-#44. Higher still, a shallow search of
                    // it: 15% fewer again (2-ply, pattern evaluation).
                    let child = evaluated.child(&self.setup, square, flipped);
                    let depth = order.search_depth(empties);
                    let value = if depth != NO_SHALLOW_ORDER {
                        self.shallow(&child, depth, -EVAL_BOUND, EVAL_BOUND)
                    } else {
                        child.value(&self.setup)
                    };
                    key -= value / order.eval_divisor;
                }
                key
            } else {
                0
            };
            key += 2 * (bit & odd_quadrants != 0) as i32;
            if first == Some(square as u8) {
                key = i32::MAX;
            }
            list.insert(key, square as u8, flipped);
        }
    }

    /// Whether this search may take the entry's bounds (an exact search takes no
    /// selective search's).
    #[inline]
    fn trusts(&self, entry: &Entry) -> bool {
        entry.empties & SELECTIVE == 0 || self.setup.selectivity > 0
    }

    /// ProbCut in a selective solve: a shallow search whose score lies beyond the window
    /// by the confidence's share of its error ends the node at that edge.
    $(#[$feature])?
    fn probcut(
        &self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> Option<i32> {
        let depth = selective_depth(empties);
        let margin = endgame_sigma(depth) * self.setup.selectivity / 100;
        let squares = self.setup.squares;
        let evaluated = Evaluated::new(&self.setup, player, opponent);
        if beta < squares {
            let bound = beta * 100 + margin;
            if self.shallow(&evaluated, depth, bound - 1, bound) >= bound {
                return Some(beta);
            }
        }
        if alpha > -squares {
            let bound = alpha * 100 - margin;
            if self.shallow(&evaluated, depth, bound, bound + 1) <= bound {
                return Some(alpha);
            }
        }
        None
    }

    /// Alpha-beta on the evaluation to `depth`: the move order high in the tree, the
    /// guess before the first probe and ProbCut's searches.
    $(#[$feature])?
    pub(super) fn shallow(&self, position: &Evaluated, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return position.value(&self.setup);
        }
        let (player, opponent) = (position.player, position.opponent);
        let board = self.setup.board;
        let moves = legal_moves(player, opponent, board);
        if moves == 0 {
            if legal_moves(opponent, player, board) == 0 {
                return 100 * self.setup.terminal(player, opponent);
            }
            return -self.shallow(&position.pass(), depth, -beta, -alpha);
        }
        let mut best = i32::MIN;
        // Searches one child; whether it cut off.
        let mut visit = |square: usize, flipped: u64| {
            let child = position.child(&self.setup, square, flipped);
            let score = -self.shallow(&child, depth - 1, -beta, -alpha);
            if score > best {
                best = score;
                alpha = alpha.max(score);
            }
            alpha >= beta
        };
        if depth >= SHALLOW_SORT_MIN_DEPTH {
            let mut list = MoveList::new();
            for square in Squares(moves) {
                let flipped = flips(square, player, opponent);
                let value = position.child(&self.setup, square, flipped).value(&self.setup);
                list.insert(-value, square as u8, flipped);
            }
            for &(_, square, flipped) in list.as_slice() {
                if visit(square as usize, flipped) {
                    break;
                }
            }
        } else {
            for square in Squares(moves) {
                if visit(square, flips(square, player, opponent)) {
                    break;
                }
            }
        }
        best
    }

    /// The quadrants holding an odd number of empty squares.
    #[inline]
    $(#[$feature])?
    /// The parity mask of these empties: bit `i` set where quadrant `i` has an odd number.
    fn parity(&self, empty: u64) -> usize {
        let mut parity = 0;
        for (index, &quad) in self.setup.quadrants.iter().enumerate() {
            parity |= ((quad & empty).count_ones() as usize & 1) << index;
        }
        parity
    }

    /// The last few empties: no move list, squares tried directly, odd quadrants first.
    $(#[$feature])?
    fn search_few(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        parity: usize,
    ) -> i32 {
        let empty = self.setup.board & !(player | opponent);
        if empties == 2 {
            let first = empty.trailing_zeros() as usize;
            let second = 63 - empty.leading_zeros() as usize;
            return self.search_two(player, opponent, alpha, beta, first, second);
        }
        self.nodes += 1;
        self.stats.count(Kind::Node, empties);
        if empties == 1 {
            return self.last_square(player, opponent, empty.trailing_zeros() as usize);
        }
        if empties >= FEW_STABILITY_MIN_EMPTIES && !self.setup.misere {
            // As in `search`: a cut needs every opponent disc stable at least this far.
            if alpha >= self.setup.squares - 2 * opponent.count_ones() as i32 {
                let stable = stable_discs(opponent, player, self.setup.board).count_ones() as i32;
                let ceiling = self.setup.squares - 2 * stable;
                if ceiling <= alpha {
                    self.stats.count(Kind::StabilityCut, empties);
                    return ceiling;
                }
            }
        }
        // Squares in quadrants with an odd number of empties first (parity).
        let odd = self.setup.odd_squares[parity];
        let mut best_score = i32::MIN;
        let original_alpha = alpha;
        let mut tried = 0;
        for square in Squares(empty & odd).chain(Squares(empty & !odd)) {
            if ADJACENT[square] & opponent == 0 {
                continue;
            }
            let flipped = flips(square, player, opponent);
            if flipped == 0 {
                continue;
            }
            tried += 1;
            let score = -self.search_few(
                opponent ^ flipped,
                player | flipped | square_bit(square),
                -beta,
                -alpha,
                empties - 1,
                parity ^ self.setup.quadrant_bit[square] as usize,
            );
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.stats
                            .searched(empties, best_score, original_alpha, beta, tried == 1);
                        return best_score;
                    }
                }
            }
        }
        if best_score != i32::MIN {
            self.stats
                .searched(empties, best_score, original_alpha, beta, tried == 1);
            return best_score;
        }
        // No move: pass if the opponent can move, else the game is over.
        if Squares(empty)
            .any(|square| ADJACENT[square] & player != 0 && flips(square, opponent, player) != 0)
        {
            -self.search_few(opponent, player, -beta, -alpha, empties, parity)
        } else {
            self.setup.terminal(player, opponent)
        }
    }

    /// Two empties, `first` below `second` (the parity order: two squares are both odd or
    /// both even), without a move list.
    $(#[$feature])?
    fn search_two(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        first: usize,
        second: usize,
    ) -> i32 {
        self.nodes += 1;
        self.stats.count(Kind::Node, 2);
        let mut best_score = i32::MIN;
        let mut tried = 0;
        for (square, last) in [(first, second), (second, first)] {
            if ADJACENT[square] & opponent == 0 {
                continue;
            }
            let flipped = flips(square, player, opponent);
            if flipped == 0 {
                continue;
            }
            tried += 1;
            self.nodes += 1;
            self.stats.count(Kind::Node, 1);
            let score =
                -self.last_square(opponent ^ flipped, player | flipped | square_bit(square), last);
            if score > best_score {
                best_score = score;
                if score >= beta {
                    break;
                }
            }
        }
        if best_score != i32::MIN {
            self.stats.searched(2, best_score, alpha, beta, tried == 1);
            return best_score;
        }
        // No move: the opponent moves if it can (a node of its own), else the game is over.
        let can_reply = [first, second].into_iter().any(|square| {
            ADJACENT[square] & player != 0 && flips(square, opponent, player) != 0
        });
        if can_reply {
            -self.search_two(opponent, player, -beta, -alpha, first, second)
        } else {
            self.setup.terminal(player, opponent)
        }
    }

    /// The score when `square` is the last empty one: only the number of discs a move
    /// there flips matters.
    #[inline]
    $(#[$feature])?
    fn last_square(&mut self, player: u64, opponent: u64, square: usize) -> i32 {
        let own = player.count_ones() as i32;
        let margin = {
            let flipped = last_flip_count(square, player) as i32;
            if flipped != 0 {
                2 * (own + flipped + 1) - self.setup.squares
            } else {
                let flipped = last_flip_count(square, opponent) as i32;
                if flipped != 0 {
                    2 * (own - flipped) - self.setup.squares
                } else {
                    return self.setup.terminal(player, opponent);
                }
            }
        };
        if self.setup.misere { -margin } else { margin }
    }
}
    };
}

/// The portable search, with the portable move generation.
mod portable_search {
    use super::*;
    context_search!(Portable);
}

/// The fast search, with the vector move generation.
#[cfg(target_arch = "x86_64")]
mod fast_search {
    use super::super::bitboard::{flips_avx2 as flips, legal_moves_avx2 as legal_moves};
    use super::*;
    context_search!(Fast, target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::othello::Othello;

    /// Plain negamax over the trait, the reference for the solver.
    fn minimax(game: &mut Othello, squares: i32) -> i32 {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            let margin = final_margin(game.player(), game.opponent(), squares);
            return if game.rule() == Rule::Misere {
                -margin
            } else {
                margin
            };
        }
        let mut best = i32::MIN;
        for mv in moves {
            let undo = game.make(mv);
            best = best.max(-minimax(game, squares));
            game.unmake(mv, undo);
        }
        best
    }

    fn random_position(size: usize, rule: Rule, empties: u32, seed: u64) -> Othello {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        loop {
            let mut game = Othello::new(size, rule).unwrap();
            let mut moves = Vec::new();
            while game.empties().count_ones() > empties {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                game.make(mv);
            }
            if game.empties().count_ones() == empties && !game.is_over() {
                return game;
            }
        }
    }

    /// Emptying the table hides its entries, also when the generations wrap round to
    /// the one an entry was stored in; a slot of an earlier generation is overwritten
    /// first.
    #[test]
    fn emptied_tables_forget_every_entry() {
        let mut table = Table {
            buckets: ZeroedTable::new(4, "test").unwrap(),
            generation: 1,
        };
        let entry = |player: u64, empties: u8| Entry {
            player,
            opponent: 2,
            lower: -4,
            upper: 6,
            best: 9,
            empties,
            generation: 0,
        };
        let slot = table.slot(1, 2);
        table.store(slot, entry(1, 20));
        let found = table.probe(slot, 1, 2).expect("stored");
        assert_eq!(
            (found.lower, found.upper, found.best, found.work()),
            (-4, 6, 9, 20)
        );
        table.forget();
        assert!(table.probe(slot, 1, 2).is_none());
        // The deep entry of the old generation goes before the shallow one of this.
        table.store(slot, entry(5, 10));
        table.store(slot, entry(7, 10));
        assert!(table.probe(slot, 5, 2).is_some() && table.probe(slot, 7, 2).is_some());
        table.forget();
        table.store(slot, entry(1, 20));
        let stored_in = table.generation;
        // Generations run from 1 to 65,535: this many clears come back to the same.
        for _ in 0..u16::MAX {
            table.forget();
        }
        assert_eq!(table.generation, stored_in);
        assert!(table.probe(slot, 1, 2).is_none());
    }

    /// Playing the proven line to the end reaches exactly the solved margin.
    #[test]
    fn solved_lines_reach_the_solved_score() {
        let stop = Stop::never();
        let mut solver = Solver::new(1 << 20);
        for (size, rule) in [(8, Rule::Normal), (6, Rule::Misere), (8, Rule::Misere)] {
            for seed in 0..20 {
                let mut game = random_position(size, rule, 10, seed);
                let mover = game.side_to_move();
                let (p, o, board) = (game.player(), game.opponent(), game.board());
                let (score, line) = solver.solve_line(p, o, board, rule, 64, &stop).unwrap();
                for square in line {
                    let mv = square.map_or(crate::game::Move::PASS, |sq| {
                        crate::game::Move::new(sq as u16)
                    });
                    assert!(game.is_legal(mv), "{}", game.to_board_string());
                    game.make(mv);
                }
                assert!(game.is_over());
                let margin = final_margin(
                    game.discs(mover),
                    game.discs(mover.opponent()),
                    (size * size) as i32,
                );
                assert_eq!(
                    if rule == Rule::Misere {
                        -margin
                    } else {
                        margin
                    },
                    score
                );
            }
        }
    }

    /// Plain negamax on bitboards, for positions no game reaches by itself.
    fn minimax_bits(player: u64, opponent: u64, board: u64, misere: bool) -> i32 {
        let moves = legal_moves(player, opponent, board);
        if moves == 0 {
            if legal_moves(opponent, player, board) == 0 {
                let margin = final_margin(player, opponent, board.count_ones() as i32);
                return if misere { -margin } else { margin };
            }
            return -minimax_bits(opponent, player, board, misere);
        }
        Squares(moves)
            .map(|square| {
                let flipped = flips(square, player, opponent);
                -minimax_bits(
                    opponent ^ flipped,
                    player | flipped | square_bit(square),
                    board,
                    misere,
                )
            })
            .max()
            .unwrap()
    }

    #[test]
    fn the_4x4_game_is_solved_from_the_start() {
        // Symmetric moves are searched once near the start: the value must not change.
        let stop = Stop::never();
        for rule in [Rule::Normal, Rule::Misere] {
            let game = Othello::new(4, rule).unwrap();
            let (p, o, board) = (game.player(), game.opponent(), game.board());
            let expected = minimax_bits(p, o, board, rule == Rule::Misere);
            let solution = Solver::new(1 << 20)
                .solve(p, o, board, rule, &stop)
                .unwrap();
            assert_eq!(solution.score, expected, "{rule:?}");
        }
    }

    #[test]
    fn searching_one_of_each_mirror_pair_keeps_the_value() {
        use super::super::symmetry::{Symmetry, stabilizer};
        let stop = Stop::never();
        let mut checked = 0;
        for (size, rule) in [(6, Rule::Normal), (6, Rule::Misere), (8, Rule::Normal)] {
            for seed in 0..40 {
                let game = random_position(size, rule, 16, seed);
                // Folding the position onto itself by an involution makes it symmetric.
                let symmetry = Symmetry::ALL[[1, 2, 3, 4, 7][seed as usize % 5]];
                let player = game.player() | symmetry.apply(game.player(), size);
                let opponent = (game.opponent() | symmetry.apply(game.opponent(), size)) & !player;
                let board = game.board();
                let empties = (board & !(player | opponent)).count_ones();
                if empties > 11 || stabilizer(player, opponent, size) == 0 {
                    continue;
                }
                let expected = minimax_bits(player, opponent, board, rule == Rule::Misere);
                let mut solver = Solver::new(1 << 20);
                solver.check_symmetry_everywhere();
                let solution = solver.solve(player, opponent, board, rule, &stop).unwrap();
                assert_eq!(solution.score, expected, "{size} {rule:?} seed {seed}");
                checked += 1;
            }
        }
        assert!(checked >= 30, "only {checked} symmetric positions");
    }

    #[test]
    fn solver_equals_minimax_on_random_positions() {
        let stop = Stop::never();
        let mut solver = Solver::new(1 << 20);
        for (size, empties, count) in [(6, 10, 30), (8, 9, 30), (8, 11, 6), (4, 8, 30)] {
            for rule in [Rule::Normal, Rule::Misere] {
                for seed in 0..count {
                    let mut game = random_position(size, rule, empties, seed);
                    let squares = (size * size) as i32;
                    let expected = minimax(&mut game, squares);
                    let solution = solver
                        .solve(game.player(), game.opponent(), game.board(), rule, &stop)
                        .unwrap();
                    assert_eq!(
                        solution.score,
                        expected,
                        "{} {rule:?}",
                        game.to_board_string()
                    );
                    if let Some(best) = solution.best {
                        let mv = crate::game::Move::new(best as u16);
                        assert!(game.is_legal(mv));
                        let undo = game.make(mv);
                        assert_eq!(-minimax(&mut game, squares), expected);
                        game.unmake(mv, undo);
                    }
                    // Narrow windows must bound the score on the correct side.
                    for (alpha, beta) in [(expected, expected + 1), (expected - 1, expected)] {
                        let (player, opponent, board) =
                            (game.player(), game.opponent(), game.board());
                        let bound =
                            solver.solve_window(player, opponent, board, rule, alpha, beta, &stop);
                        assert_eq!(bound.unwrap().score, expected, "window {alpha} {beta}");
                    }
                }
            }
        }
    }

    /// Split points change the work, never the result: 2 and 4 threads (and Jamboree's
    /// three moves alone before a split) give the
    /// single thread's exact scores on every board size, under both rules.
    #[test]
    fn threads_give_the_same_exact_scores() {
        let stop = Stop::never();
        let mut single = Solver::new(1 << 20);
        let mut parallel = [0; 3].map(|_| Solver::new(1 << 20));
        parallel[0].set_threads(2);
        parallel[1].set_threads(4);
        assert_eq!((parallel[0].threads(), parallel[1].threads()), (2, 4));
        // Jamboree: three moves of a node searched alone before a split.
        parallel[2].set_threads(2);
        parallel[2].set_jamboree(3);
        let mut checked = 0;
        for (size, empties, count) in [(8, 15, 6), (6, 14, 6), (4, 12, 2)] {
            for rule in [Rule::Normal, Rule::Misere] {
                for seed in 0..count {
                    let game = random_position(size, rule, empties, 100 + seed);
                    let (p, o, board) = (game.player(), game.opponent(), game.board());
                    let expected = single.solve(p, o, board, rule, &stop).unwrap();
                    for solver in &mut parallel {
                        let solution = solver.solve(p, o, board, rule, &stop).unwrap();
                        assert_eq!(solution.score, expected.score, "{}", game.to_board_string());
                        let mv = crate::game::Move::new(solution.best.unwrap() as u16);
                        let mut after = game.clone();
                        after.make(mv);
                        let (p, o) = (after.player(), after.opponent());
                        let reply = single.solve(p, o, board, rule, &stop).unwrap();
                        assert_eq!(-reply.score, expected.score, "best move {mv:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 2 * (6 + 6 + 2));
    }

    /// The guess before the first probe is the same value with the root's moves shared
    /// out among threads (the probes, and so the nodes, follow from it).
    #[test]
    fn shared_guesses_equal_one_thread_guesses() {
        let mut single = Solver::new(1 << 16);
        let mut parallel = Solver::new(1 << 16);
        parallel.set_threads(3);
        let mut guesses = std::collections::BTreeSet::new();
        for (size, empties) in [(8, 22), (6, 16), (4, 10)] {
            for rule in [Rule::Normal, Rule::Misere] {
                for seed in 0..4 {
                    let game = random_position(size, rule, empties, 300 + seed);
                    let (p, o, board) = (game.player(), game.opponent(), game.board());
                    let guess = single.estimate(p, o, board, rule);
                    assert_eq!(
                        parallel.estimate(p, o, board, rule),
                        guess,
                        "{}",
                        game.to_board_string()
                    );
                    guesses.insert(guess);
                }
            }
        }
        assert!(
            guesses.len() > 4,
            "the positions have different guesses: {guesses:?}"
        );
    }

    /// A selective solve is cheaper and close to the exact score, and the bounds it
    /// leaves in the table never change a later exact solve's result.
    #[test]
    fn selective_solves_are_cheaper_and_leave_exact_solves_exact() {
        let stop = Stop::never();
        let (mut exact_nodes, mut selective_nodes, mut error) = (0, 0, 0);
        for seed in 0..8 {
            let game = random_position(8, Rule::Normal, 20, 300 + seed);
            let (p, o, board) = (game.player(), game.opponent(), game.board());
            let mut fresh = Solver::new(4 << 20);
            let expected = fresh.solve(p, o, board, Rule::Normal, &stop).unwrap();
            exact_nodes += fresh.nodes;
            let mut shared = Solver::new(4 << 20);
            shared.set_selectivity(150);
            let probable = shared.solve(p, o, board, Rule::Normal, &stop).unwrap();
            selective_nodes += shared.nodes;
            error += (probable.score - expected.score).abs();
            let best = crate::game::Move::new(probable.best.unwrap() as u16);
            assert!(game.is_legal(best));
            shared.set_selectivity(0);
            let again = shared.solve(p, o, board, Rule::Normal, &stop).unwrap();
            assert_eq!(again.score, expected.score, "{}", game.to_board_string());
        }
        // The exact solve's first probe at a guessed score spares it more than ProbCut
        // spares a selective solve: at b0daeba 58.3 M selective nodes against 86.4 M
        // exact (115.1 M when the exact solve's downward steps still doubled).
        assert!(
            selective_nodes * 4 < exact_nodes * 3,
            "{selective_nodes} selective nodes, {exact_nodes} exact"
        );
        assert!(error <= 8 * 4, "total error {error} discs over 8 positions");
    }

    /// A parallel solve under a node limit spends the limit: it proves the score when
    /// the limit is twice what it needs (a thread waiting on a split point gives its
    /// claim back), and when stopped it has searched all of the limit but what the other
    /// thread still held (one claim at most) and hardly more (the last few empties are
    /// searched without a look at the limit).
    /// A set-up position with 35 moves, more than any game reaches: the solver orders
    /// them all (it once panicked at 33) and spends its node limit.
    #[test]
    fn positions_with_more_moves_than_games_reach_are_solved() {
        let cells = "----X----OO-OXO--OXX-XO---X---X-XO--OXO--XXXXXO--OXOO-O---------";
        let (mut p, mut o) = (0u64, 0u64);
        for (square, cell) in cells.chars().enumerate() {
            match cell {
                'X' => p |= 1 << square,
                'O' => o |= 1 << square,
                _ => {}
            }
        }
        assert_eq!(legal_moves(p, o, !0).count_ones(), 35);
        let mut solver = Solver::new(1 << 20);
        solver.set_threads(1);
        let stop = Stop::never().with_node_limit(200_000);
        let solution = solver.solve_window(p, o, !0, Rule::Normal, -64, 64, &stop);
        assert!(solution.is_none(), "no exact score within 200,000 nodes");
        assert!(
            solver.nodes >= 200_000 - STOP_CHECK_NODES,
            "{} nodes",
            solver.nodes
        );
    }

    #[test]
    fn parallel_solves_spend_their_node_limit() {
        for seed in 0..6 {
            let game = random_position(8, Rule::Normal, 18, seed);
            let (p, o, board) = (game.player(), game.opponent(), game.board());
            let solve = |limit: u64| {
                let mut solver = Solver::new(1 << 20);
                solver.set_threads(2);
                let stop = Stop::never().with_node_limit(limit);
                let solution = solver.solve_window(p, o, board, Rule::Normal, -64, 64, &stop);
                (solution.map(|s| s.score), solver.nodes)
            };
            let (score, needed) = solve(u64::MAX);
            assert!(score.is_some());
            let (twice, _) = solve(2 * needed);
            assert_eq!(twice, score, "seed {seed}: {needed} nodes needed");
            let limit = needed / 2;
            let (stopped, spent) = solve(limit);
            assert!(stopped.is_none() || stopped == score);
            assert!(
                spent <= limit + 1000 && (stopped.is_some() || spent + STOP_CHECK_NODES >= limit),
                "seed {seed}: {spent} of {limit}"
            );
        }
    }

    /// Parallel solves stopped by a node limit at any point end cleanly with nothing
    /// proven, and the solver solves exactly afterwards.
    #[test]
    fn stopped_parallel_solves_end_cleanly() {
        let game = random_position(8, Rule::Normal, 16, 7);
        let (p, o, board) = (game.player(), game.opponent(), game.board());
        let mut solver = Solver::new(1 << 20);
        solver.set_threads(3);
        let expected = Solver::new(1 << 20)
            .solve(p, o, board, Rule::Normal, &Stop::never())
            .unwrap();
        let mut stopped_early = 0;
        for limit in (0..200).map(|i| 1 + i * 499) {
            let stop = Stop::never().with_node_limit(limit);
            solver.nodes = 0;
            // What earlier solves left in the table may let a later one finish.
            if let Some(solution) = solver.solve(p, o, board, Rule::Normal, &stop) {
                assert_eq!(solution.score, expected.score, "{limit}");
            } else {
                stopped_early += 1;
            }
            assert!(solver.nodes < limit + 3 * STOP_CHECK_NODES, "{limit}");
        }
        assert!(stopped_early >= 20, "{stopped_early}");
        let solution = solver.solve(p, o, board, Rule::Normal, &Stop::never());
        assert_eq!(solution.unwrap().score, expected.score);
    }

    /// The two compilations of the search (for any CPU, and with the fast instructions
    /// where this CPU has them) give the same scores and moves.
    #[test]
    fn both_instruction_sets_agree() {
        let stop = Stop::never();
        for seed in 0..8 {
            let game = random_position(8, Rule::Normal, 14, seed);
            let (p, o, board) = (game.player(), game.opponent(), game.board());
            let mut dispatched = Solver::new(1 << 20);
            let expected = dispatched.solve_window(p, o, board, Rule::Normal, -64, 64, &stop);
            let mut portable = Solver::new(1 << 20);
            // Prepares the solver for this board as solve_window does.
            portable.solve_window(p, o, board, Rule::Normal, 0, 0, &stop);
            portable.forget();
            let empties = (board & !(p | o)).count_ones();
            let got = portable.root_portable(p, o, -64, 64, empties, &stop);
            assert_eq!(got, expected, "seed {seed}");
        }
    }
}
