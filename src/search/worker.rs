//! One thread's alpha-beta: principal-variation search with aspiration windows over
//! the shared transposition table, with this thread's own killers, history and counters.
//! The main thread's worker drives iterative deepening; helper threads' workers search
//! the same position beside it and share only the table (lazy SMP).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::MAX_PLY;
use super::analysis::Progress;
use super::tt::{Bound, TranspositionTable, TtEntry};
use crate::game::Move;
use crate::game::roles::{
    INFINITY, ProbCut, Score, SearchGame, WIN_BOUND, win_from_node, win_to_node,
};
use crate::stop::Stop;

pub(super) struct Worker {
    pub(super) tt: Arc<TranspositionTable>,
    /// This thread's nodes in the current search.
    pub(super) nodes: u64,
    pub(super) start: Instant,
    pub(super) stop: Stop,
    pub(super) node_limit: u64,
    /// When the stop is next polled (quiescence nodes count too, so not every multiple).
    next_check: u64,
    pub(super) stopped: bool,
    buffers: Vec<Vec<Move>>,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    keys: Vec<i32>,
    /// The best root move of the iteration under way.
    pub(super) root_best: Move,
    /// In the iteration under way, the first root move of a search of the root and a
    /// later one that beat it there: proven better at this depth, even if the iteration
    /// is cut short.
    pub(super) root_improved: Option<(Move, Move)>,
    /// The moves searched at the root.
    pub(super) root_moves: Vec<Move>,
    /// An analysis's interval reports (main thread only).
    pub(super) progress: Option<Progress>,
    /// Every thread's nodes in the current search, as far as each has added them.
    counted: Arc<AtomicU64>,
    /// Nodes of this thread already added to `counted`.
    flushed: u64,
    /// A helper's signal that the main thread is done; `None` on the main thread.
    helper_done: Option<Arc<AtomicBool>>,
    /// The moves other threads are searching, with several threads.
    pub(super) busy: Option<Arc<Busy>>,
    /// Whether Multi-ProbCut may cut nodes (off for searches that must be exact to
    /// their depth).
    pub(super) selective: bool,
    /// Tests make the search panic at this node.
    #[cfg(test)]
    pub(crate) panic_at_node: u64,
}

impl Worker {
    pub(super) fn new(tt: Arc<TranspositionTable>) -> Worker {
        Worker {
            tt,
            nodes: 0,
            start: Instant::now(),
            stop: Stop::never(),
            node_limit: u64::MAX,
            next_check: 0,
            stopped: false,
            buffers: vec![Vec::new(); MAX_PLY + 1],
            killers: vec![[Move::PASS; 2]; MAX_PLY + 1],
            history: vec![0; 2 * (1 << 16)],
            keys: Vec::new(),
            root_best: Move::PASS,
            root_improved: None,
            root_moves: Vec::new(),
            progress: None,
            counted: Arc::new(AtomicU64::new(0)),
            flushed: 0,
            helper_done: None,
            busy: None,
            selective: true,
            #[cfg(test)]
            panic_at_node: u64::MAX,
        }
    }

    /// Forgets the move-ordering memory.
    pub(super) fn clear(&mut self) {
        self.killers.fill([Move::PASS; 2]);
        self.history.fill(0);
    }

    /// Every thread's nodes in the current search (each helper's up to its last look
    /// at the stop).
    pub(super) fn total_nodes(&self) -> u64 {
        self.counted.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    /// Counts from zero: a new search, or a solve's nodes alone.
    pub(super) fn reset_nodes(&mut self, nodes: u64) {
        self.nodes = nodes;
        self.flushed = 0;
        self.counted.store(0, Ordering::Relaxed);
    }

    /// Readies a helper to search beside `main` until `done`: the same stop, root moves
    /// and clock, its nodes counted into `main`'s total.
    pub(super) fn follow(&mut self, main: &Worker, done: &Arc<AtomicBool>) {
        self.helper_done = Some(Arc::clone(done));
        self.counted = Arc::clone(&main.counted);
        self.begin_helper(&main.stop, main.start);
        self.root_moves.clone_from(&main.root_moves);
        self.busy.clone_from(&main.busy);
        self.selective = main.selective;
    }

    fn begin_helper(&mut self, stop: &Stop, start: Instant) {
        self.start = start;
        self.nodes = 0;
        self.flushed = 0;
        self.next_check = 1024;
        self.stopped = false;
        self.stop = stop.clone();
        self.node_limit = stop.node_limit().max(1);
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    /// A helper's search: iterative deepening on its own from depth 1 (odd helpers
    /// one ply ahead, so that the threads spread over two depths) until the main thread
    /// is done.
    pub(super) fn help<G: SearchGame>(&mut self, mut game: G, max_depth: u32, index: usize) {
        let mut depth = 1 + (index as u32 % 2);
        let mut score = 0;
        while depth <= max_depth && !self.stopped {
            score = self.aspiration(&mut game, depth, score);
            depth += 1;
        }
        self.flush();
    }

    fn flush(&mut self) {
        self.counted
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Resets the counters for a new search under `stop`; the tables age.
    pub(super) fn begin(&mut self, stop: &Stop) {
        self.start = Instant::now();
        self.reset_nodes(0);
        self.next_check = 1024;
        self.stopped = false;
        self.stop = stop.clone();
        self.node_limit = stop.node_limit().max(1);
        self.tt.new_search();
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    pub(super) fn aspiration<G: SearchGame>(
        &mut self,
        game: &mut G,
        depth: u32,
        guess: Score,
    ) -> Score {
        if depth <= 2 {
            return self.pvs(game, depth, -INFINITY, INFINITY, 0);
        }
        let mut delta = 50;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let score = self.pvs(game, depth, alpha, beta, 0);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 3;
        }
    }

    /// Adds this thread's nodes to the count and looks at the stop (the node limit
    /// holds for all threads together); a helper also at the main thread's end, the main
    /// thread at the interval reports.
    pub(super) fn check_limits(&mut self) {
        self.flush();
        let nodes = self.counted.load(Ordering::Relaxed);
        if self.stop.check(nodes)
            || self
                .helper_done
                .as_ref()
                .is_some_and(|done| done.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        if let Some(progress) = &mut self.progress {
            progress.tick(nodes, self.start);
        }
    }

    pub(super) fn pvs<G: SearchGame>(
        &mut self,
        game: &mut G,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.nodes += 1;
        #[cfg(test)]
        assert!(self.nodes != self.panic_at_node, "a test panic mid-search");
        if self.nodes >= self.next_check || self.nodes >= self.node_limit {
            self.next_check = self.nodes + 1024;
            self.check_limits();
        }
        if self.stopped && ply > 0 {
            return 0;
        }
        // Threats are searched out before the evaluation is trusted.
        let at_leaf = depth == 0;
        let depth = if at_leaf && ply < MAX_PLY && game.must_answer() {
            1
        } else {
            depth
        };
        if depth == 0 || ply >= MAX_PLY {
            if game.outcome().is_some() {
                return win_from_node(game.final_score(), ply);
            }
            return game.quiesce(alpha, beta, ply, &mut self.nodes);
        }
        let key = game.hash();
        let is_pv = beta - alpha > 1;
        let entry = self.tt.probe(key);
        if let Some(entry) = entry
            && ply > 0
            && !is_pv
            && entry.depth as u32 >= depth
        {
            let score = win_from_node(entry.score, ply);
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        if ply > 0
            && !is_pv
            && self.selective
            && let Some(cut) = game.probcut(depth)
            && let Some(score) = self.probcut(game, cut, alpha, ply)
        {
            return score;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        if ply == 0 {
            moves.clone_from(&self.root_moves);
        } else {
            game.search_moves(&mut moves);
        }
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return win_from_node(game.final_score(), ply);
        }
        let tt_move = entry
            .map(|entry| entry.best)
            .filter(|best| moves.contains(best));
        self.order(game, &mut moves, tt_move, ply, depth);
        let side = game.side_to_move().index();
        // A forced reply costs no depth below the root (at a leaf it already costs none).
        let child_depth = if ply > 0 && !at_leaf && game.reply_is_forced() {
            depth
        } else {
            depth - 1
        };
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves[0];
        // With several threads, a move another thread is searching here goes to the end
        // of the list (searched after the others, when its result may be in the table).
        let busy = self.busy.clone().filter(|_| depth >= DEFER_MIN_DEPTH);
        let first_pass = moves.len();
        let mut next = 0;
        let mut index = 0;
        while next < moves.len() {
            let mv = moves[next];
            next += 1;
            let tag = Busy::tag(key, mv);
            if let Some(busy) = &busy {
                if index > 0 && next <= first_pass && busy.is_busy(tag) {
                    moves.push(mv);
                    continue;
                }
                busy.enter(tag);
            }
            let reduction = if index > 0 && (ply > 0 || index >= ROOT_REDUCED_FROM) {
                game.reduction(mv, index, depth).min(child_depth)
            } else {
                0
            };
            let undo = game.make(mv);
            let score = if index == 0 {
                -self.pvs(game, child_depth, -beta, -alpha, ply + 1)
            } else {
                let mut score =
                    -self.pvs(game, child_depth - reduction, -alpha - 1, -alpha, ply + 1);
                // A reduced move that beats alpha is searched again at full depth.
                if reduction > 0 && score > alpha && !self.stopped {
                    score = -self.pvs(game, child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(game, child_depth, -beta, -alpha, ply + 1);
                }
                score
            };
            game.unmake(mv, undo);
            if let Some(busy) = &busy {
                busy.leave(tag);
            }
            index += 1;
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if ply == 0 {
                    self.root_best = mv;
                    if index > 1 && score > alpha {
                        self.root_improved = Some((moves[0], mv));
                    }
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !mv.is_pass() {
                            let killers = &mut self.killers[ply];
                            if G::KILLERS && killers[0] != mv {
                                killers[1] = killers[0];
                                killers[0] = mv;
                            }
                            self.history[side << 16 | mv.square()] += (depth * depth) as i32;
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if self.stopped {
            // Only a root move fully searched before the stop counts.
            return if best_score == -INFINITY {
                0
            } else {
                best_score
            };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score <= original_alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.tt.store(
            key,
            TtEntry {
                best: best_move,
                score: win_to_node(best_score, ply),
                depth: depth.min(255) as u8,
                bound,
            },
        );
        best_score
    }

    /// Multi-ProbCut at a null-window node (`alpha`, `alpha + 1`): a shallow search
    /// that fails high above the window by `cut.margin` (or low below it) predicts the
    /// deep search's result; the node's bound, or `None` to search it in full.
    fn probcut<G: SearchGame>(
        &mut self,
        game: &mut G,
        cut: ProbCut,
        alpha: Score,
        ply: usize,
    ) -> Option<Score> {
        let beta = alpha + 1;
        if alpha.abs() + cut.margin >= WIN_BOUND {
            return None;
        }
        let high = beta + cut.margin;
        if self.pvs(game, cut.shallow, high - 1, high, ply) >= high && !self.stopped {
            return Some(beta);
        }
        let low = alpha - cut.margin;
        if self.pvs(game, cut.shallow, low, low + 1, ply) <= low && !self.stopped {
            return Some(alpha);
        }
        None
    }

    fn order<G: SearchGame>(
        &mut self,
        game: &G,
        moves: &mut [Move],
        tt_move: Option<Move>,
        ply: usize,
        depth: u32,
    ) {
        if moves.len() < 2 {
            return;
        }
        let side = game.side_to_move().index();
        self.keys.clear();
        for &mv in moves.iter() {
            let key = if Some(mv) == tt_move {
                i32::MAX
            } else if mv.is_pass() {
                0
            } else {
                let killer = if !G::KILLERS {
                    0
                } else if self.killers[ply][0] == mv {
                    2_000_000
                } else if self.killers[ply][1] == mv {
                    1_000_000
                } else {
                    0
                };
                killer
                    + game.order_key(mv, depth) * 1000
                    + self.history[side << 16 | mv.square()].min(999)
            };
            self.keys.push(key);
        }
        // Insertion sort, highest key first: lists are short.
        for i in 1..moves.len() {
            let (mv, key) = (moves[i], self.keys[i]);
            let mut j = i;
            while j > 0 && self.keys[j - 1] < key {
                moves[j] = moves[j - 1];
                self.keys[j] = self.keys[j - 1];
                j -= 1;
            }
            moves[j] = mv;
            self.keys[j] = key;
        }
    }

    pub(super) fn principal_variation<G: SearchGame>(&self, game: &G, max_len: usize) -> Vec<Move> {
        let mut game = game.clone();
        let mut pv = Vec::new();
        while pv.len() < max_len {
            let Some(entry) = self.tt.probe(game.hash()) else {
                break;
            };
            if !game.is_legal(entry.best) {
                break;
            }
            pv.push(entry.best);
            game.make(entry.best);
        }
        pv
    }
}

/// The first root move the game's late-move reduction applies to: the root searches
/// every move its game offers (below it a game may keep the best few), so reductions
/// save most there, and its first moves, the likeliest best, keep their full depth.
const ROOT_REDUCED_FROM: usize = 3;

/// Below this depth no thread defers moves: the subtrees are too small to matter.
const DEFER_MIN_DEPTH: u32 = 3;

/// Which (position, move) pairs some thread is searching now, so that the other threads
/// search them last (the deferral of ABDADA, on top of lazy SMP). Lossy and lock-free:
/// a slot holds one tag, overwritten by the next thread to enter it.
pub(super) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    const SLOTS: usize = 1 << 14;

    pub(super) fn new() -> Busy {
        Busy {
            slots: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn tag(key: u64, mv: Move) -> u64 {
        (key ^ (mv.to_bits() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1
    }

    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 32) as usize & (Self::SLOTS - 1)]
    }

    #[inline]
    fn is_busy(&self, tag: u64) -> bool {
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    #[inline]
    fn enter(&self, tag: u64) {
        self.slot(tag).store(tag, Ordering::Relaxed);
    }

    #[inline]
    fn leave(&self, tag: u64) {
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}
