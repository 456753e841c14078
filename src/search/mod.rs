//! Game-independent search: iterative-deepening principal-variation search with
//! aspiration windows, a transposition table, killer and history ordering, and the
//! game's exact and threat solvers at the root where it has them.
//!
//! A [`Searcher`] lives as long as the engine's game: its tables, killers and history
//! carry over from one move to the next.

pub mod analysis;
pub mod limits;
pub mod report;
pub mod time;
pub mod tt;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use self::report::{Line, Report};
use self::time::TimeManager;
use self::tt::{Bound, TranspositionTable};
use self::worker::{Busy, Worker};
use crate::game::Move;
use crate::game::roles::{Proof, ProofKind, Score, SearchGame, WIN, WIN_BOUND};
use crate::search::limits::Limits;
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
    /// How often the best move changed lately (`time::best_move_instability`).
    instability: f64,
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
    /// The main thread's search: iterative deepening, reports, the move played.
    main: Worker,
    /// The other threads' searches (lazy SMP), kept with their move-ordering memory.
    helpers: Vec<Worker>,
    solver: G::SolverTable,
    megabytes: usize,
    /// Threads the search and the solver use.
    threads: usize,
}

impl<G: SearchGame> Searcher<G> {
    /// A searcher whose tables together take `megabytes` MiB; an error when the memory
    /// cannot be had.
    pub fn new(game: &G, megabytes: usize) -> Result<Searcher<G>, String> {
        let (table_mb, solver_bytes) = split_memory(megabytes, game.has_exact_solver());
        Ok(Searcher {
            main: Worker::new(Arc::new(TranspositionTable::try_new(table_mb)?)),
            helpers: Vec::new(),
            solver: game.solver_table(solver_bytes)?,
            megabytes: megabytes.max(1),
            threads: 1,
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
        let tt = &self.main.tt;
        self.helpers
            .resize_with(self.threads - 1, || Worker::new(Arc::clone(tt)));
        self.main.busy = (self.threads > 1).then(|| Arc::new(Busy::new()));
    }

    /// With several threads, the exact solver searches the first `children` moves of a
    /// node alone before sharing out the rest (Jamboree; 1 is young brothers wait).
    pub fn set_jamboree(&mut self, children: usize) {
        G::set_solver_jamboree(&mut self.solver, children);
    }

    /// Whether the midgame search may cut nodes by Multi-ProbCut (on by default); off,
    /// a search to a depth gives the full-width result at that depth.
    pub fn set_selective(&mut self, on: bool) {
        self.main.selective = on;
    }

    /// Makes the search panic at this node (tests of a failing job).
    #[cfg(test)]
    pub(crate) fn panic_at_node(&mut self, node: u64) {
        self.main.panic_at_node = node;
    }

    /// Nodes of the current search: every thread's, and the solvers' once added.
    fn nodes(&self) -> u64 {
        self.main.total_nodes()
    }

    /// Runs `search` on this thread while the helpers search `game` beside it, sharing
    /// the table, until it returns (lazy SMP); without helpers, just runs it.
    fn with_helpers<R>(
        &mut self,
        game: &G,
        max_depth: u32,
        search: impl FnOnce(&mut Self) -> R,
    ) -> R {
        if self.helpers.is_empty() {
            return search(self);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let done = Arc::new(AtomicBool::new(false));
        for helper in &mut helpers {
            helper.follow(&self.main, &done);
        }
        let result = std::thread::scope(|scope| {
            // Raised however `search` ends, so that the scope's join cannot wait forever.
            let _done = RaiseOnDrop(&done);
            for (index, helper) in helpers.iter_mut().enumerate() {
                let game = game.clone();
                scope.spawn(move || helper.help(game, max_depth, index));
            }
            search(self)
        });
        self.helpers = helpers;
        result
    }

    /// Forgets everything learnt: tables (touching all their memory), killers, history.
    pub fn clear(&mut self) {
        self.main.tt.clear();
        G::clear_solver_table(&mut self.solver);
        self.forget_moves();
    }

    /// Forgets everything learnt for a new game, as `clear` does, except that the
    /// solver's table may be emptied without writing it (`arbor solve FILE` starts a
    /// new game for each position).
    pub fn new_game(&mut self) {
        self.main.tt.clear();
        G::forget_solver_table(&mut self.solver);
        self.forget_moves();
    }

    /// Forgets every worker's move-ordering memory (killers, history).
    fn forget_moves(&mut self) {
        self.main.clear();
        self.helpers.iter_mut().for_each(Worker::clear);
    }

    /// Searches `game` to `limits` alone, from now, with no clock running on and no move
    /// overhead: what the offline tools (bench, training, tuning, probcut) ask for.
    pub fn search_to(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Stop,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        let time = TimeManager::new(limits, game.moves_left(), Duration::ZERO, Instant::now());
        self.think(game, limits, &time, stop, report)
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
        self.main.root_moves.clone_from(&moves);
        let mut result = SearchResult {
            best: moves[0],
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
        };
        let (forced_time, forced_stop);
        let (time, stop) = if moves.len() == 1 && time.is_clocked() {
            forced_time = time.for_forced_move();
            forced_stop = stop.narrowed(forced_time.hard_deadline(), 0);
            (&forced_time, &forced_stop)
        } else {
            (time, stop)
        };
        self.main.begin(stop);
        self.main.start = time.start();
        if limits.depth.is_none() && time.is_clocked() && game.has_threat_solver() {
            let threat_stop = stop.narrowed(time.threat_deadline(), 0);
            if let Some(proof) = game.threat_win(&threat_stop) {
                self.main.nodes += proof.nodes;
                debug_assert!(game.is_legal(proof.pv[0]));
                return self.proven(game, &proof, proof.pv.len() as u32, report);
            }
        }
        self.main.root_best = moves[0];
        let solve = limits.depth.is_none()
            && game
                .exact_size()
                .is_some_and(|size| size <= time.solve_limit());

        let mut iterations = Iterations {
            work: game.clone(),
            score: 0,
            depth: 0,
            max_depth,
            instability: 0.0,
        };
        // Before a solve, a short search (a move in hand should the solve not finish);
        // without one, deepen until the clock says no further iteration fits.
        let mut may_deepen = |depth: u32, instability: f64| {
            if solve {
                time.may_deepen_before_solve(depth)
            } else {
                time.may_start_iteration(instability)
            }
        };
        self.with_helpers(game, max_depth, |this| {
            this.deepen(game, &mut iterations, &mut result, &mut may_deepen, report)
        });
        if solve && !self.main.stopped {
            let solve_stop = stop.narrowed(time.solve_deadline(), self.nodes());
            if let Some(proof) = game.solve_exact(&mut self.solver, &solve_stop) {
                self.main.nodes += proof.nodes;
                // A proven win or draw beats the searched move; a bound below that does
                // not (a proven loss says nothing about which move resists best).
                if proof.best().is_some() && (proof.is_exact() || proof.lower >= 0) {
                    let size = game.exact_size().unwrap_or(0);
                    return self.proven(game, &proof, size, report);
                }
            }
            // The solve did not finish: the midgame search goes on with the time left.
            if !stop.check(self.nodes()) {
                let mut may_deepen = |_, _| time.may_deepen_after_solve();
                self.with_helpers(game, max_depth, |this| {
                    this.deepen(game, &mut iterations, &mut result, &mut may_deepen, report)
                });
            }
        }
        result.nodes = self.nodes();
        result
    }

    /// Iterative deepening from the last completed depth while `may_deepen(depth)`
    /// allows and nothing stops it, keeping the last completed iteration's move and score
    /// in `result`.
    fn deepen(
        &mut self,
        game: &G,
        it: &mut Iterations<G>,
        result: &mut SearchResult,
        may_deepen: &mut dyn FnMut(u32, f64) -> bool,
        report: &mut dyn FnMut(Report),
    ) {
        while it.depth < it.max_depth {
            if it.depth > 0 && !may_deepen(it.depth, it.instability) {
                break;
            }
            let next = it.depth + 1;
            self.main.root_improved = None;
            let score = self.main.aspiration(&mut it.work, next, it.score);
            if self.main.stopped && next > 1 {
                // Cut short, the iteration may still have proved a move better than
                // the last iteration's best.
                if let Some((beaten, better)) = self.main.root_improved
                    && beaten == result.best
                    && it.work.is_legal(better)
                {
                    result.best = better;
                }
                break;
            }
            it.depth = next;
            it.score = score;
            let changed = next > 1 && self.main.root_best != result.best;
            it.instability = time::best_move_instability(it.instability, changed);
            if it.work.is_legal(self.main.root_best) {
                result.best = self.main.root_best;
            }
            result.score = score;
            result.depth = next;
            let pv = self.main.principal_variation(&it.work, next as usize);
            report(self.report(game, next, score, Bound::Exact, pv, None));
            // A win or loss within the depth searched: deeper iterations find the same.
            if self.main.stopped || (score.abs() >= WIN_BOUND && WIN - score.abs() <= next as Score)
            {
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
            nodes: self.nodes(),
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
        self.main.start = Instant::now();
        let proof = match game.exact_size() {
            Some(_) => game.solve_exact(&mut self.solver, stop),
            None if game.has_threat_solver() => game.threat_win(stop),
            None => None,
        }?;
        self.main.reset_nodes(proof.nodes);
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
            nodes: self.nodes(),
            elapsed: self.main.start.elapsed(),
            exact: proof.is_some(),
            lines: vec![Line {
                score: game.score_value(score, proof.is_some()),
                bound,
                pv,
                proof,
                depth,
            }],
        }
    }
}

/// Raises a flag when dropped, on every way out of a scope.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
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
    use crate::game::roles::INFINITY;
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
                searcher.set_selective(false);
                for depth in 1..=4 {
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let result = searcher.search_to(&game, &limits, &stop, &mut |_| {});
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

    /// A search cut short by its node limit plays the last finished iteration's move,
    /// or one that the unfinished iteration proved better: full-width negamax one ply
    /// deeper than the finished iteration agrees.
    #[test]
    fn an_iteration_cut_short_plays_only_a_move_proved_better() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let mut switched = 0;
        for _ in 0..30 {
            let mut game = Othello::new(8, Rule::Normal).unwrap();
            let mut moves = Vec::new();
            for _ in 0..rng.random_range(8..20) {
                game.generate_moves(&mut moves);
                game.make(moves[rng.random_range(0..moves.len())]);
            }
            for limit in [500, 1500, 4000, 10_000] {
                let mut searcher = Searcher::new(&game, 2).unwrap();
                searcher.set_selective(false);
                let limits = Limits {
                    nodes: Some(limit),
                    ..Limits::default()
                };
                let stop = Stop::never().with_node_limit(limit);
                let mut finished = None;
                let result = searcher.search_to(&game, &limits, &stop, &mut |report| {
                    finished = Some((report.depth, report.lines[0].pv[0]));
                });
                let (depth, finished_best) = finished.unwrap();
                assert!(game.is_legal(result.best));
                if result.best == finished_best {
                    continue;
                }
                switched += 1;
                let value = |mv| {
                    let mut child = game.clone();
                    child.make(mv);
                    -negamax(&mut child, depth)
                };
                assert!(
                    value(result.best) > value(finished_best),
                    "{} depth {depth}: {:?} for {:?}",
                    game.to_board_string(),
                    result.best,
                    finished_best
                );
            }
        }
        assert!(
            switched >= 3,
            "{switched} searches played a move of an unfinished iteration"
        );
    }

    /// With helper threads the search still answers a legal move at every depth and
    /// stops on its node limit; a solve gives the single thread's exact score.
    #[test]
    fn helper_threads_answer_legal_moves_and_exact_solves() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        for threads in [2, 4] {
            for empties in [40, 30, 14] {
                let mut game = Othello::new(8, Rule::Normal).unwrap();
                let mut moves = Vec::new();
                while game.empties().count_ones() > empties {
                    game.generate_moves(&mut moves);
                    game.make(moves[rng.random_range(0..moves.len())]);
                    if game.outcome().is_some() {
                        game = Othello::new(8, Rule::Normal).unwrap();
                    }
                }
                let mut searcher = Searcher::new(&game, 4).unwrap();
                searcher.set_threads(threads);
                for depth in [1, 3, 6] {
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let result = searcher.search_to(&game, &limits, &Stop::never(), &mut |_| {});
                    assert!(game.is_legal(result.best) && result.depth == depth);
                }
                let stop = Stop::never().with_node_limit(20_000);
                let limits = Limits {
                    nodes: Some(20_000),
                    ..Limits::default()
                };
                let result = searcher.search_to(&game, &limits, &stop, &mut |_| {});
                assert!(game.is_legal(result.best));
                assert!(
                    result.nodes <= 20_000 + threads as u64 * 2048,
                    "{}",
                    result.nodes
                );
                if empties == 14 {
                    let proof = searcher.solve(&game, &Stop::never(), &mut |_| {}).unwrap();
                    let mut single = Searcher::new(&game, 4).unwrap();
                    let expected = single.solve(&game, &Stop::never(), &mut |_| {}).unwrap();
                    assert_eq!(proof.lower, expected.lower);
                    assert!(proof.is_exact() && game.is_legal(proof.pv[0]));
                }
            }
        }
    }

    /// Thousands of short parallel searches, stopped at once, by the clock or from
    /// another thread, all end with a legal move and leave no thread behind.
    #[test]
    fn many_short_parallel_searches_end_cleanly() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut game = Othello::new(8, Rule::Normal).unwrap();
        let mut searcher = Searcher::new(&game, 2).unwrap();
        searcher.set_threads(3);
        let mut moves = Vec::new();
        for round in 0..2000u64 {
            if game.outcome().is_some() || round % 50 == 0 {
                game = Othello::new(8, Rule::Normal).unwrap();
            }
            let stop = Stop::never();
            let raiser = stop.clone();
            let wait = Duration::from_micros(rng.random_range(0..300));
            let limits = Limits::default();
            let result = std::thread::scope(|scope| {
                scope.spawn(move || {
                    std::thread::sleep(wait);
                    raiser.raise();
                });
                let stop = match round % 3 {
                    0 => stop.clone(),
                    1 => stop.clone().with_node_limit(rng.random_range(1..5000)),
                    _ => stop.clone().with_deadline(Some(Instant::now() + wait)),
                };
                searcher.search_to(&game, &limits, &stop, &mut |_| {})
            });
            assert!(game.is_legal(result.best), "round {round}");
            game.generate_moves(&mut moves);
            game.make(moves[rng.random_range(0..moves.len())]);
        }
    }

    /// Multi-ProbCut cuts 8x8 midgame searches short under either rule (fewer nodes to
    /// the same depth, legal moves) and leaves exact solves alone.
    #[test]
    fn probcut_prunes_the_midgame_and_not_the_solve() {
        for rule in [Rule::Normal, Rule::Misere] {
            probcut_prunes_the_midgame_and_not_the_solve_under(rule);
        }
    }

    fn probcut_prunes_the_midgame_and_not_the_solve_under(rule: Rule) {
        let start = Othello::new(8, rule).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let (mut selective_nodes, mut full_nodes) = (0, 0);
        for plies in [12, 20, 28, 36, 44] {
            let mut game = start.clone();
            let mut moves = Vec::new();
            while game.empties().count_ones() > 60 - plies {
                game.generate_moves(&mut moves);
                game.make(moves[rng.random_range(0..moves.len())]);
                if game.outcome().is_some() {
                    game = start.clone();
                }
            }
            let limits = Limits {
                depth: Some(7),
                ..Limits::default()
            };
            let mut results = Vec::new();
            for selective in [true, false] {
                let mut searcher = Searcher::new(&game, 8).unwrap();
                searcher.set_selective(selective);
                let result = searcher.search_to(&game, &limits, &Stop::never(), &mut |_| {});
                assert!(game.is_legal(result.best) && result.depth == 7);
                results.push(result.nodes);
            }
            selective_nodes += results[0];
            full_nodes += results[1];
        }
        assert!(
            selective_nodes * 10 < full_nodes * 9,
            "{rule:?}: {selective_nodes} nodes with ProbCut, {full_nodes} without"
        );
        for seed in 0..4usize {
            let mut game = start.clone();
            let mut moves = Vec::new();
            while game.empties().count_ones() > 16 {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let pick = seed * 7 + game.empties().count_ones() as usize;
                game.make(moves[pick % moves.len()]);
            }
            if game.outcome().is_some() {
                continue;
            }
            let proofs: Vec<Proof> = [true, false]
                .into_iter()
                .map(|selective| {
                    let mut searcher = Searcher::new(&game, 8).unwrap();
                    searcher.set_selective(selective);
                    searcher.solve(&game, &Stop::never(), &mut |_| {}).unwrap()
                })
                .collect();
            assert_eq!(proofs[0].lower, proofs[1].lower, "{rule:?}");
            assert!(proofs[0].is_exact());
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
        let result = searcher.search_to(&game, &limits, &stop, &mut |_| {});
        assert!(game.is_legal(result.best));
        assert!(result.nodes <= 101_000, "{} nodes", result.nodes);
    }
}
