//! Exact solving of small boards (tic-tac-toe, 5x5 Gomoku): alpha-beta over every legal
//! move with a transposition table. Only provably forced moves are pruned: a point that
//! wins at once, or blocking the opponent's only winning point. With several threads,
//! the moves after the first are shared out among them (young brothers wait), and the
//! table is shared without locks.

use std::sync::atomic::{AtomicU64, Ordering};

use super::Gomoku;
use super::pattern::Threat;
use crate::game::roles::{Evaluate, Proof, Score, WIN, win_from_node, win_to_node};
use crate::game::split::{self, SplitPoint};
use crate::game::{Game, Move};
use crate::memory::{Zeroable, ZeroedTable};
use crate::stop::{SharedNodes, Stop};

/// With several threads, from this many empty points on a node's moves after the first
/// are shared out: the trees of these boards are small, and below this waking a thread
/// for a split costs more than it saves.
const SPLIT_MIN_EMPTIES: u32 = 14;
/// Nodes between two looks at the stop.
const STOP_CHECK_NODES: u64 = 4096;

/// One entry, 16 bytes: `check` is the key xored with `data`, so that an entry torn by
/// two threads writing at once reads as a miss. `data`: the score in bits 0-31, the
/// bound in 32-39 (0 for a free slot), the best move in 40-55.
#[derive(Default)]
#[repr(C, align(16))]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

// SAFETY: atomics only; all zero is a free slot (bound 0).
unsafe impl Zeroable for Slot {}

const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;

#[derive(Clone, Copy)]
struct Entry {
    score: Score,
    bound: u8,
    best: Move,
}

pub struct ExactTable {
    slots: ZeroedTable<Slot>,
    /// The threads that share out split points; `None` for one.
    pool: Option<rayon::ThreadPool>,
    split_min_empties: u32,
    /// Children of a node searched alone before the rest are shared out (Jamboree).
    jamboree: usize,
}

impl ExactTable {
    /// A table of at most `bytes`, and of at most 4 x 2^`points` entries for a board of
    /// `points` points: a small board reaches few positions, and every page of the table
    /// a solve touches first costs a page fault (4x4 tic-tac-toe's 206k nodes spent half
    /// their time faulting in a 48 MiB table).
    pub fn try_new(bytes: usize, points: usize) -> Result<ExactTable, String> {
        let reachable = 1usize << points.clamp(12, 40);
        let entries = (bytes / std::mem::size_of::<Slot>()).min(4 * reachable);
        let slots = ZeroedTable::new(entries, "the exact solver's table")?;
        Ok(ExactTable {
            slots,
            pool: None,
            split_min_empties: SPLIT_MIN_EMPTIES,
            jamboree: 1,
        })
    }

    pub fn clear(&mut self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Solves with `threads` threads (at least one) from the next solve on.
    pub fn set_threads(&mut self, threads: usize) {
        if threads == self.threads() {
            return;
        }
        self.pool = split::pool(threads, "arbor-exact");
    }

    /// Splits from `empties` empty points on, so that tests reach split points on
    /// small positions.
    #[cfg(test)]
    pub(super) fn split_from(&mut self, empties: u32) {
        self.split_min_empties = empties;
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

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let bound = (data >> 32) as u8;
        (bound != 0 && slot.check.load(Ordering::Relaxed) ^ data == key).then(|| Entry {
            score: data as u32 as i32,
            bound,
            best: Move::from_bits((data >> 40) as u16),
        })
    }

    /// Stores over anything but another position's exact entry with more empty points:
    /// exact entries are the proven line's, which is read back from the table.
    #[inline]
    fn store(&self, key: u64, entry: Entry, empties: u32) {
        let data = entry.score as u32 as u64
            | (entry.bound as u64) << 32
            | (entry.best.to_bits() as u64) << 40
            | (empties.min(255) as u64) << 56;
        let slot = self.slot(key);
        let old = slot.data.load(Ordering::Relaxed);
        if (old >> 32) as u8 == EXACT
            && old >> 56 > empties as u64
            && slot.check.load(Ordering::Relaxed) ^ old != key
        {
            return;
        }
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

/// What every thread of one solve shares.
struct Shared<'a> {
    table: &'a ExactTable,
    stop: &'a Stop,
    /// Every thread's nodes, as far as each has added them.
    counted: SharedNodes,
    threads: usize,
    split_min_empties: u32,
    jamboree: usize,
}

/// One thread's share of a solve.
struct Solver<'a> {
    shared: &'a Shared<'a>,
    split: Option<&'a SplitPoint<'a>>,
    nodes: u64,
    flushed: u64,
    /// Nodes this thread has claimed from the node limit and not yet counted.
    claim: u64,
    next_check: u64,
    stopped: bool,
    buffers: Vec<Vec<Move>>,
}

pub(super) fn solve(game: &Gomoku, table: &mut ExactTable, stop: &Stop) -> Option<Proof> {
    let (solved, nodes) = with_threads(table, stop, |shared| {
        let score = solve_position(shared, game, -WIN - 1, WIN + 1)?;
        Some((score, principal_variation(shared, game)))
    });
    let (score, pv) = solved?;
    Some(Proof::exact(score, pv, nodes))
}

/// The score within (`alpha`, `beta`), fail-soft; `None` when stopped; and the nodes.
pub(super) fn solve_window(
    game: &Gomoku,
    table: &mut ExactTable,
    alpha: Score,
    beta: Score,
    stop: &Stop,
) -> (Option<Score>, u64) {
    with_threads(table, stop, |shared| {
        solve_position(shared, game, alpha, beta)
    })
}

/// Runs `work` on the table's threads; what it returns and the nodes it counted.
fn with_threads<T: Send>(
    table: &ExactTable,
    stop: &Stop,
    work: impl FnOnce(&Shared) -> Option<T> + Send,
) -> (Option<T>, u64) {
    let shared = Shared {
        table,
        stop,
        counted: SharedNodes::new(0),
        threads: table.threads(),
        split_min_empties: table.split_min_empties,
        jamboree: table.jamboree,
    };
    let run = || work(&shared);
    let result = match &table.pool {
        Some(pool) => pool.install(run),
        None => run(),
    };
    (result, shared.counted.total())
}

impl<'a> Solver<'a> {
    fn new(shared: &'a Shared<'a>, split: Option<&'a SplitPoint<'a>>, game: &Gomoku) -> Self {
        Solver {
            shared,
            split,
            nodes: 0,
            flushed: 0,
            claim: 0,
            next_check: 0,
            stopped: false,
            buffers: vec![Vec::new(); game.empties() as usize + 2],
        }
    }

    /// Counts this thread's last nodes and gives back what it claimed.
    fn finish(&mut self) {
        let searched = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.shared
            .counted
            .finish(searched, self.claim, self.shared.stop);
        self.claim = 0;
    }

    fn negamax(&mut self, game: &mut Gomoku, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            let searched = self.nodes - self.flushed;
            self.flushed = self.nodes;
            let (total, claim) = self.shared.counted.settle(
                searched,
                self.claim,
                self.shared.stop,
                self.shared.threads,
                STOP_CHECK_NODES,
            );
            self.claim = claim;
            self.next_check = self.nodes + claim.max(1);
            self.stopped |= claim == 0 || self.shared.stop.check(total);
        }
        if let Some(split) = self.split {
            self.stopped |= split.aborted();
        }
        if self.stopped {
            return 0;
        }
        if game.outcome().is_some() {
            return game.final_score();
        }
        let me = game.side_to_move();
        if game.threat_count(me, Threat::Five) > 0 {
            return WIN - 1;
        }
        let key = game.hash();
        let table = self.shared.table;
        let mut tt_move = None;
        if let Some(entry) = table.probe(key) {
            let cut = match entry.bound {
                EXACT => true,
                LOWER => entry.score >= beta,
                _ => entry.score <= alpha,
            };
            if cut {
                return entry.score;
            }
            tt_move = Some(entry.best);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let them = me.opponent();
        if game.config.family != super::Family::Pente && game.threat_count(them, Threat::Five) > 0 {
            game.threat_fields(them, Threat::Five, &mut moves);
            moves.retain(|&mv| game.is_legal(mv));
        } else {
            game.generate_moves(&mut moves);
        }
        if moves.is_empty() {
            game.generate_moves(&mut moves);
        }
        if moves.is_empty() {
            // Renju: every empty point forbidden to Black. No move, no result: scored as
            // the search scores it, a draw.
            self.buffers[ply] = moves;
            return 0;
        }
        moves.sort_by_key(|&mv| {
            if Some(mv) == tt_move {
                i32::MIN
            } else {
                -game.point_key(mv)
            }
        });
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (index, &mv) in moves.iter().enumerate() {
            if index >= self.shared.jamboree
                && self.shared.threads > 1
                && game.empties() >= self.shared.split_min_empties
                && moves.len() - index > 1
            {
                (best, best_move) =
                    self.split_moves(game, &moves, index, alpha, beta, (best, best_move));
                break;
            }
            let undo = game.make(mv);
            let child = self.negamax(game, -win_to_node(beta, 1), -win_to_node(alpha, 1), ply + 1);
            let score = -win_from_node(child, 1);
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            LOWER
        } else if best <= original_alpha {
            UPPER
        } else {
            EXACT
        };
        table.store(
            key,
            Entry {
                score: best,
                bound,
                best: best_move,
            },
            game.empties(),
        );
        best
    }

    /// Young brothers wait: `moves[index..]` searched by every thread of the pool, each
    /// taking the next move not yet taken; the node's best score and move.
    fn split_moves(
        &mut self,
        game: &Gomoku,
        moves: &[Move],
        index: usize,
        alpha: Score,
        beta: Score,
        best: (Score, Move),
    ) -> (Score, Move) {
        let split = SplitPoint::new(self.split, index, alpha, beta, (best.0, best.1.to_bits()));
        let helpers = (self.shared.threads - 1).min(moves.len() - index - 1);
        let shared = self.shared;
        // This thread waits on the split: its claim goes back for the split's threads to
        // spend, and it claims anew after.
        self.finish();
        self.next_check = self.nodes;
        rayon::scope(|scope| {
            for _ in 0..helpers {
                let split = &split;
                scope.spawn(move |_| {
                    Solver::new(shared, Some(split), game).share(split, game, moves)
                });
            }
            Solver::new(shared, Some(&split), game).share(&split, game, moves);
        });
        let Some((score, mv)) = split.result() else {
            self.stopped = true;
            return best;
        };
        (score, Move::from_bits(mv))
    }

    /// This thread's share of a split point's moves.
    fn share(mut self, split: &SplitPoint, game: &Gomoku, moves: &[Move]) {
        let mut work = game.clone();
        loop {
            if split.aborted() {
                self.stopped = true;
                break;
            }
            let index = split.take();
            let Some(&mv) = moves.get(index) else {
                break;
            };
            let alpha = split.alpha();
            let undo = work.make(mv);
            let child = self.negamax(
                &mut work,
                -win_to_node(split.beta(), 1),
                -win_to_node(alpha, 1),
                1,
            );
            work.unmake(mv, undo);
            if self.stopped || split.record(-win_from_node(child, 1), index, mv.to_bits(), alpha) {
                break;
            }
        }
        if self.stopped {
            split.mark_stopped();
        }
        self.finish();
    }
}

/// The value of `game` within (`alpha`, `beta`), fail-soft, or `None` once the stop
/// comes.
fn solve_position(shared: &Shared, game: &Gomoku, alpha: Score, beta: Score) -> Option<Score> {
    let mut solver = Solver::new(shared, None, game);
    let mut work = game.clone();
    let score = solver.negamax(&mut work, alpha, beta, 0);
    solver.finish();
    (!solver.stopped).then_some(score)
}

/// The proven line: each move the best one stored for its position (exact, or proven
/// at least as good as needed), which is solved again when the table has no such entry.
fn principal_variation(shared: &Shared, game: &Gomoku) -> Vec<Move> {
    let mut game = game.clone();
    let mut pv = Vec::new();
    while game.outcome().is_none() {
        let me = game.side_to_move();
        let mv = if game.threat_count(me, Threat::Five) > 0 {
            let mut fives = Vec::new();
            game.threat_fields(me, Threat::Five, &mut fives);
            fives[0]
        } else {
            let exact = |game: &Gomoku| {
                shared
                    .table
                    .probe(game.hash())
                    .filter(|entry| entry.bound != UPPER)
            };
            let entry = match exact(&game) {
                Some(entry) => Some(entry),
                None => solve_position(shared, &game, -WIN - 1, WIN + 1).and_then(|_| exact(&game)),
            };
            let Some(entry) = entry else {
                break;
            };
            if !game.is_legal(entry.best) {
                break;
            }
            entry.best
        };
        pv.push(mv);
        game.make(mv);
    }
    pv
}
