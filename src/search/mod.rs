//! Game-independent search: iterative-deepening principal-variation search with
//! aspiration windows, a transposition table, killer and history ordering, and the
//! game's exact and threat solvers at the root where it has them.
//!
//! A [`Searcher`] lives as long as the engine's game: its tables, killers and history
//! carry over from one move to the next.

pub mod analysis;
pub mod report;
pub mod time;
pub mod tt;

use std::time::Instant;

use self::analysis::Progress;
use self::report::{Line, Report};
use self::time::TimeManager;
use self::tt::{Bound, TranspositionTable, TtEntry};
use crate::game::Move;
use crate::game::roles::{
    INFINITY, Proof, ProofKind, Score, SearchGame, WIN, WIN_BOUND, win_from_node, win_to_node,
};
use crate::limits::Limits;
use crate::stop::Stop;

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    pub score: Score,
    pub depth: u32,
    /// Whether a solver proved `score` (exactly, or as a lower bound for a proven win or
    /// draw that the solve could not finish narrowing).
    pub exact: bool,
    pub nodes: u64,
}

const MAX_PLY: usize = 128;

/// Where iterative deepening has got to: the position searched, the last completed
/// iteration's depth and score, and the deepest allowed.
struct Iterations<G> {
    work: G,
    score: Score,
    depth: u32,
    max_depth: u32,
}

/// How a memory budget is shared between the tables: games with an exact solver give it
/// three quarters (its entries save the most work); the rest goes to the search's table.
pub fn split_memory(megabytes: usize, has_exact_solver: bool) -> (usize, usize) {
    let megabytes = megabytes.max(1);
    if has_exact_solver && megabytes >= 2 {
        let table = (megabytes / 4).max(1);
        (table, (megabytes - table) << 20)
    } else {
        (megabytes, 0)
    }
}

pub struct Searcher<G: SearchGame> {
    tt: TranspositionTable,
    solver: G::SolverTable,
    megabytes: usize,
    /// Threads the search and the solver use.
    threads: usize,
    nodes: u64,
    start: Instant,
    stop: Stop,
    node_limit: u64,
    /// When the stop is next polled (quiescence nodes count too, so not every multiple).
    next_check: u64,
    stopped: bool,
    buffers: Vec<Vec<Move>>,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    keys: Vec<i32>,
    /// The best root move of the iteration under way.
    root_best: Move,
    /// The moves searched at the root.
    root_moves: Vec<Move>,
    /// An analysis's interval reports.
    progress: Option<Progress>,
    /// Tests make the search panic at this node.
    #[cfg(test)]
    pub(crate) panic_at_node: u64,
}

impl<G: SearchGame> Searcher<G> {
    /// A searcher whose tables together take `megabytes` MiB; an error when the memory
    /// cannot be had.
    pub fn new(game: &G, megabytes: usize) -> Result<Searcher<G>, String> {
        let (table_mb, solver_bytes) = split_memory(megabytes, game.has_exact_solver());
        Ok(Searcher {
            tt: TranspositionTable::try_new(table_mb)?,
            solver: game.solver_table(solver_bytes)?,
            megabytes: megabytes.max(1),
            threads: 1,
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
            root_moves: Vec::new(),
            progress: None,
            #[cfg(test)]
            panic_at_node: u64::MAX,
        })
    }

    /// The memory budget the tables were made for, MiB.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// How many threads the search and the exact solver use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches and solves with `threads` threads (at least one) from the next job on.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        G::set_solver_threads(&mut self.solver, self.threads);
    }

    /// Forgets everything learnt: tables (touching all their memory), killers, history.
    pub fn clear(&mut self) {
        self.tt.clear();
        G::clear_solver_table(&mut self.solver);
        self.killers.fill([Move::PASS; 2]);
        self.history.fill(0);
    }

    /// Chooses a move for an unfinished game within `limits` and the time `time` gives,
    /// until `stop` (which carries the hard deadline and the node limit); `report`
    /// receives each finished iteration and each solve.
    pub fn think(
        &mut self,
        game: &G,
        limits: &Limits,
        time: &TimeManager,
        stop: &Stop,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        self.begin(stop);
        self.start = time.start();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);

        let mut moves = Vec::new();
        game.root_moves(&mut moves, &stop.narrowed(time.root_moves_deadline(), 0));
        if moves.is_empty() {
            // Only a position the core refuses to search has no move: stay legal anyway.
            moves.push(Move::PASS);
        }
        self.root_moves.clone_from(&moves);
        let mut result = SearchResult {
            best: moves[0],
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
        };
        if moves.len() == 1 && time.is_clocked() {
            // A forced move needs no thought when the clock is what limits us.
            return result;
        }
        if limits.depth.is_none() && time.is_clocked() && game.has_threat_solver() {
            let threat_stop = stop.narrowed(time.threat_deadline(), 0);
            if let Some(proof) = game.threat_win(&threat_stop) {
                self.nodes += proof.nodes;
                debug_assert!(game.is_legal(proof.pv[0]));
                return self.proven(game, &proof, proof.pv.len() as u32, report);
            }
        }
        self.root_best = moves[0];
        let solve = limits.depth.is_none()
            && game
                .exact_size()
                .is_some_and(|size| size <= time.solve_limit());

        let mut iterations = Iterations {
            work: game.clone(),
            score: 0,
            depth: 0,
            max_depth,
        };
        // Before a solve, a short search (a move in hand should the solve not finish);
        // without one, deepen until the clock says no further iteration fits.
        let mut may_deepen = |depth: u32| {
            if solve {
                time.may_deepen_before_solve(depth)
            } else {
                time.may_start_iteration()
            }
        };
        self.deepen(game, &mut iterations, &mut result, &mut may_deepen, report);
        if solve && !self.stopped {
            let solve_stop = stop.narrowed(time.solve_deadline(), self.nodes);
            if let Some(proof) = game.solve_exact(&mut self.solver, &solve_stop) {
                self.nodes += proof.nodes;
                // A proven win or draw beats the searched move; a bound below that does
                // not (a proven loss says nothing about which move resists best).
                if proof.best().is_some() && (proof.is_exact() || proof.lower >= 0) {
                    let size = game.exact_size().unwrap_or(0);
                    return self.proven(game, &proof, size, report);
                }
            }
            // The solve did not finish: the midgame search goes on with the time left.
            if !stop.check(self.nodes) {
                let mut may_deepen = |_| time.may_deepen_after_solve();
                self.deepen(game, &mut iterations, &mut result, &mut may_deepen, report);
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Resets the counters for a new search under `stop`; the tables age.
    fn begin(&mut self, stop: &Stop) {
        self.start = Instant::now();
        self.nodes = 0;
        self.next_check = 1024;
        self.stopped = false;
        self.stop = stop.clone();
        self.node_limit = stop.node_limit().max(1);
        self.tt.new_search();
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    /// Iterative deepening from the last completed depth while `may_deepen(depth)`
    /// allows and nothing stops it, keeping the last completed iteration's move and score
    /// in `result`.
    fn deepen(
        &mut self,
        game: &G,
        it: &mut Iterations<G>,
        result: &mut SearchResult,
        may_deepen: &mut dyn FnMut(u32) -> bool,
        report: &mut dyn FnMut(Report),
    ) {
        while it.depth < it.max_depth {
            if it.depth > 0 && !may_deepen(it.depth) {
                break;
            }
            let next = it.depth + 1;
            let score = self.aspiration(&mut it.work, next, it.score);
            if self.stopped && next > 1 {
                break;
            }
            it.depth = next;
            it.score = score;
            if it.work.is_legal(self.root_best) {
                result.best = self.root_best;
            }
            result.score = score;
            result.depth = next;
            let pv = self.principal_variation(&it.work, next as usize);
            report(self.report(game, next, score, Bound::Exact, pv, None));
            // A win or loss within the depth searched: deeper iterations find the same.
            if self.stopped || (score.abs() >= WIN_BOUND && WIN - score.abs() <= next as Score) {
                break;
            }
        }
    }

    /// The result (and the report) of a solver's proof that names a move.
    fn proven(
        &mut self,
        game: &G,
        proof: &Proof,
        depth: u32,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        report(self.proof_report(game, depth, proof));
        SearchResult {
            best: proof.pv[0],
            score: proof.lower,
            depth,
            exact: true,
            nodes: self.nodes,
        }
    }

    /// Solves the position exactly where the game's exact solver takes it, else looks
    /// for a forced win by threats; `None` when the game has neither or nothing was
    /// proven before `stop`.
    pub fn solve(
        &mut self,
        game: &G,
        stop: &Stop,
        report: &mut dyn FnMut(Report),
    ) -> Option<Proof> {
        self.start = Instant::now();
        let proof = match game.exact_size() {
            Some(_) => game.solve_exact(&mut self.solver, stop),
            None if game.has_threat_solver() => game.threat_win(stop),
            None => None,
        }?;
        self.nodes = proof.nodes;
        if !proof.pv.is_empty() {
            let depth = game.exact_size().unwrap_or(proof.pv.len() as u32);
            report(self.proof_report(game, depth, &proof));
        }
        Some(proof)
    }

    /// The report of a solver's proof: its bound, its line and how it was found.
    fn proof_report(&self, game: &G, depth: u32, proof: &Proof) -> Report {
        let bound = proof_bound(proof);
        self.report(
            game,
            depth,
            proof.lower,
            bound,
            proof.pv.clone(),
            Some(proof.kind),
        )
    }

    fn report(
        &self,
        game: &G,
        depth: u32,
        score: Score,
        bound: Bound,
        pv: Vec<Move>,
        proof: Option<ProofKind>,
    ) -> Report {
        Report {
            depth,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            exact: proof.is_some(),
            lines: vec![Line {
                score: game.score_value(score, proof.is_some()),
                bound,
                pv,
                proof,
            }],
        }
    }

    fn aspiration(&mut self, game: &mut G, depth: u32, guess: Score) -> Score {
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

    fn check_limits(&mut self) {
        if self.stop.check(self.nodes) {
            self.stopped = true;
        }
        if let Some(progress) = &mut self.progress {
            progress.tick(self.nodes, self.start);
        }
    }

    fn pvs(
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
        let depth = if depth == 0 && ply < MAX_PLY && game.must_answer() {
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
        let key = game.hash();
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            if moves.contains(&entry.best) {
                tt_move = Some(entry.best);
            }
            let is_pv = beta - alpha > 1;
            if ply > 0 && !is_pv && entry.depth as u32 >= depth {
                let score = win_from_node(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    self.buffers[ply] = moves;
                    return score;
                }
            }
        }
        self.order(game, &mut moves, tt_move, ply);
        let side = game.side_to_move().index();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves[0];
        for (index, &mv) in moves.iter().enumerate() {
            let reduction = if index > 0 && ply > 0 {
                game.reduction(mv, index, depth).min(depth - 1)
            } else {
                0
            };
            let undo = game.make(mv);
            let score = if index == 0 {
                -self.pvs(game, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut score = -self.pvs(game, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                // A reduced move that beats alpha is searched again at full depth.
                if reduction > 0 && score > alpha && !self.stopped {
                    score = -self.pvs(game, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(game, depth - 1, -beta, -alpha, ply + 1);
                }
                score
            };
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if ply == 0 {
                    self.root_best = mv;
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !mv.is_pass() {
                            let killers = &mut self.killers[ply];
                            if killers[0] != mv {
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

    fn order(&mut self, game: &G, moves: &mut [Move], tt_move: Option<Move>, ply: usize) {
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
                let killer = if self.killers[ply][0] == mv {
                    2_000_000
                } else if self.killers[ply][1] == mv {
                    1_000_000
                } else {
                    0
                };
                killer + game.order_key(mv) * 1000 + self.history[side << 16 | mv.square()].min(999)
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

    fn principal_variation(&self, game: &G, max_len: usize) -> Vec<Move> {
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

/// A solver's proof as a report bound: exact, or the lower bound its move reaches.
fn proof_bound(proof: &Proof) -> Bound {
    if proof.is_exact() {
        Bound::Exact
    } else {
        Bound::Lower
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::othello::{Othello, Rule};
    use rand::{Rng, SeedableRng};
    use std::time::Duration;

    /// Plain negamax to a fixed depth with the same leaf scores.
    pub(crate) fn negamax<G: SearchGame>(game: &mut G, depth: u32) -> Score {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            return game.final_score();
        }
        if depth == 0 {
            return game.evaluate();
        }
        let mut best = -INFINITY;
        for mv in moves {
            let undo = game.make(mv);
            best = best.max(-negamax(game, depth - 1));
            game.unmake(mv, undo);
        }
        best
    }

    #[test]
    fn search_scores_equal_plain_negamax() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let stop = Stop::never();
        for (size, rule) in [(8, Rule::Normal), (6, Rule::Misere), (8, Rule::Misere)] {
            for _ in 0..12 {
                let mut game = Othello::new(size, rule).unwrap();
                let mut moves = Vec::new();
                for _ in 0..rng.random_range(0..(size * size - 10)) {
                    game.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    game.make(moves[rng.random_range(0..moves.len())]);
                }
                if game.outcome().is_some() {
                    continue;
                }
                let mut searcher = Searcher::new(&game, 2).unwrap();
                for depth in 1..=4 {
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let time = TimeManager::new(&limits, 30, Duration::ZERO, Instant::now());
                    let result = searcher.think(&game, &limits, &time, &stop, &mut |_| {});
                    if result.exact {
                        continue;
                    }
                    let expected = negamax(&mut game.clone(), depth);
                    assert_eq!(
                        result.score,
                        expected,
                        "{} depth {depth}",
                        game.to_board_string()
                    );
                    let mut after = game.clone();
                    assert!(after.is_legal(result.best));
                    after.make(result.best);
                    assert_eq!(
                        -negamax(&mut after, depth - 1),
                        expected,
                        "best move {:?}",
                        result.best
                    );
                }
            }
        }
    }

    /// A node limit holds through the exact solve too (it checks the same stop).
    #[test]
    fn node_limits_hold_through_the_solver() {
        let stop = Stop::never().with_node_limit(100_000);
        let limits = Limits {
            nodes: Some(100_000),
            ..Limits::default()
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let mut game = Othello::new(8, Rule::Normal).unwrap();
        let mut moves = Vec::new();
        while game.empties().count_ones() > 16 {
            game.generate_moves(&mut moves);
            game.make(moves[rng.random_range(0..moves.len())]);
        }
        let mut searcher = Searcher::new(&game, 4).unwrap();
        let time = TimeManager::new(&limits, 8, Duration::ZERO, Instant::now());
        let result = searcher.think(&game, &limits, &time, &stop, &mut |_| {});
        assert!(game.is_legal(result.best));
        assert!(result.nodes <= 101_000, "{} nodes", result.nodes);
    }
}
