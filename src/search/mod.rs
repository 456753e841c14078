//! Game-independent search: iterative-deepening principal-variation search with
//! aspiration windows, a shared transposition table, killer and history ordering, and
//! an exact solver at the root where the game has one.

pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use self::time::budget;
use self::tt::{Bound, TranspositionTable, TtEntry};
use crate::game::{Game, Move};
use crate::limits::Limits;

/// Scores are in the game's units (Othello: centi-discs), from the side to move's view.
pub type Score = i32;

/// Above every evaluation: marks an unset score.
pub const INFINITY: Score = 1_000_000;

/// A won game, from the winner's view; a win found `n` plies ahead scores `WIN - n`.
pub const WIN: Score = 500_000;
/// Scores at least this far out are wins or losses at a known distance.
pub const WIN_BOUND: Score = WIN - 10_000;

/// A win or loss score seen from `ply` plies higher up keeps its distance from the root.
#[inline]
pub fn win_from_node(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// The inverse of [`win_from_node`], for scores stored in the table.
#[inline]
pub fn win_to_node(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// What the search needs from a game beyond the rules.
pub trait SearchGame: Game {
    /// Static evaluation of an unfinished position.
    fn evaluate(&self) -> Score;
    /// Exact score of a finished game (same units as `evaluate`).
    fn final_score(&self) -> Score;
    /// How many moves the side to move still has to make, for the time manager.
    fn moves_left(&self) -> u32;
    /// The moves worth searching: a non-empty subset of the legal moves while the game
    /// goes on (Gomoku: points near stones, or only the answers to a threat).
    fn search_moves(&self, moves: &mut Vec<Move>) {
        self.generate_moves(moves)
    }
    /// The moves worth searching at the root, where more time may go into choosing
    /// them (Gomoku: only the moves that stop an opponent's forced win, when it has one).
    fn root_moves(&self, moves: &mut Vec<Move>, _stop: &AtomicBool) {
        self.search_moves(moves)
    }
    /// Whether [`SearchGame::threat_win`] looks for forced wins.
    fn has_threat_solver(&self) -> bool {
        false
    }
    /// A forced win for the side to move by a threat-space search (Gomoku: continuous
    /// fours, then threes and fours), or `None` when none is found before `stop`.
    fn threat_win(&self, _stop: &AtomicBool) -> Option<Exact> {
        None
    }
    /// Cheap ordering key for a legal move: higher is searched first.
    fn order_key(&self, _mv: Move) -> i32 {
        0
    }
    /// How hard an exact solve of this position is (Othello: empty squares), or `None`
    /// when the game has no exact solver.
    fn exact_size(&self) -> Option<u32> {
        None
    }
    /// Solves exactly, or returns `None` once `stop` is raised.
    fn solve_exact(&self, _stop: &AtomicBool) -> Option<Exact> {
        None
    }
    /// A finished game's result from Black's view for match tables (Othello: the disc
    /// margin with empty squares to the winner, -64..64).
    fn match_score(&self) -> i32 {
        match self.outcome().and_then(|outcome| outcome.winner) {
            Some(crate::game::Side::Black) => 1,
            Some(crate::game::Side::White) => -1,
            None => 0,
        }
    }
    /// Black's `match_score` when White forfeits (Othello: every square, 64 on 8x8).
    fn forfeit_score(&self) -> i32 {
        1
    }
    /// Formats a score for `info` lines (Othello: discs, `+4.25`).
    fn format_score(&self, score: Score) -> String {
        format!("{score:+}")
    }
    /// Formats an exact score (Othello: the disc margin, `+4`).
    fn format_exact_score(&self, score: Score) -> String {
        self.format_score(score)
    }
}

/// An exact solve: the score and a proven best line (never empty: its first move is the
/// best move), and the nodes it took.
#[derive(Clone, Debug)]
pub struct Exact {
    pub score: Score,
    pub pv: Vec<Move>,
    pub nodes: u64,
}

/// One `info` report: a finished iteration or an exact solve.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
    pub exact: bool,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    pub score: Score,
    pub depth: u32,
    pub exact: bool,
    pub nodes: u64,
}

const MAX_PLY: usize = 128;

pub struct Searcher<G: SearchGame> {
    tt: Arc<TranspositionTable>,
    nodes: u64,
    start: Instant,
    hard_deadline: Option<Instant>,
    node_limit: u64,
    stopped: bool,
    buffers: Vec<Vec<Move>>,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    keys: Vec<i32>,
    /// The best root move of the iteration under way.
    root_best: Move,
    /// The moves searched at the root.
    root_moves: Vec<Move>,
    _game: std::marker::PhantomData<G>,
}

impl<G: SearchGame> Searcher<G> {
    pub fn new(tt: Arc<TranspositionTable>) -> Searcher<G> {
        Searcher {
            tt,
            nodes: 0,
            start: Instant::now(),
            hard_deadline: None,
            node_limit: u64::MAX,
            stopped: false,
            buffers: vec![Vec::new(); MAX_PLY + 1],
            killers: vec![[Move::PASS; 2]; MAX_PLY + 1],
            history: vec![0; 2 * (1 << 16)],
            keys: Vec::new(),
            root_best: Move::PASS,
            root_moves: Vec::new(),
            _game: std::marker::PhantomData,
        }
    }

    /// Chooses a move for an unfinished game within `limits`, calling `report` after each
    /// iteration.
    pub fn think(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&G, &Report),
    ) -> SearchResult {
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        self.history.iter_mut().for_each(|h| *h /= 8);
        let budget = budget(limits, game.moves_left());
        self.hard_deadline = budget.map(|b| self.start + b.hard);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);

        let mut moves = Vec::new();
        // Choosing the root moves may take up to a quarter of the move's time.
        let root_deadline = budget.map(|b| self.start + b.soft / 4);
        DeadlineStop::new(stop, root_deadline).run(|flag| game.root_moves(&mut moves, flag));
        self.root_moves.clone_from(&moves);
        let mut result = SearchResult {
            best: moves[0],
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
        };
        if moves.len() == 1 && budget.is_some() {
            // A forced move needs no thought when the clock is what limits us.
            return result;
        }
        if let Some(exact) = self.threat_search(game, limits, budget, stop) {
            report(
                game,
                &Report {
                    depth: exact.pv.len() as u32,
                    score: exact.score,
                    nodes: self.nodes,
                    elapsed: self.start.elapsed(),
                    pv: exact.pv.clone(),
                    exact: true,
                },
            );
            return SearchResult {
                best: exact.pv[0],
                score: exact.score,
                depth: exact.pv.len() as u32,
                exact: true,
                nodes: self.nodes,
            };
        }
        self.root_best = moves[0];
        let solve = game.exact_size().is_some_and(|size| {
            limits.depth.is_none() && size <= solve_limit(budget.map(|b| b.hard))
        });

        let mut work = game.clone();
        let mut score = 0;
        let search_depth = if solve { max_depth.min(4) } else { max_depth };
        for depth in 1..=search_depth {
            score = self.aspiration(&mut work, depth, score, stop);
            if self.stopped && depth > 1 {
                break;
            }
            if work.is_legal(self.root_best) {
                result.best = self.root_best;
            }
            result.score = score;
            result.depth = depth;
            let pv = self.principal_variation(&work, depth as usize);
            report(
                game,
                &Report {
                    depth,
                    score,
                    nodes: self.nodes,
                    elapsed: self.start.elapsed(),
                    pv,
                    exact: false,
                },
            );
            if self.stopped {
                break;
            }
            // An iteration costs more than all before it: start one only with time for it.
            if !solve && budget.is_some_and(|b| self.start.elapsed() >= b.soft / 2) {
                break;
            }
        }
        if solve && !self.stopped {
            let deadline_stop = DeadlineStop::new(stop, self.hard_deadline);
            if let Some(exact) = deadline_stop.run(|flag| game.solve_exact(flag)) {
                self.nodes += exact.nodes;
                result = SearchResult {
                    best: exact.pv[0],
                    score: exact.score,
                    depth: game.exact_size().unwrap_or(0),
                    exact: true,
                    nodes: self.nodes,
                };
                report(
                    game,
                    &Report {
                        depth: result.depth,
                        score: exact.score,
                        nodes: self.nodes,
                        elapsed: self.start.elapsed(),
                        pv: exact.pv,
                        exact: true,
                    },
                );
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// A forced win by threats, searched with a third of the move's time first: it is
    /// cheaper than the full-width search and certain when it succeeds.
    fn threat_search(
        &mut self,
        game: &G,
        limits: &Limits,
        budget: Option<time::Budget>,
        stop: &AtomicBool,
    ) -> Option<Exact> {
        if !game.has_threat_solver() || limits.depth.is_some() {
            return None;
        }
        let budget = budget?;
        let deadline = self.start + budget.soft / 3;
        let exact = DeadlineStop::new(stop, Some(deadline)).run(|flag| game.threat_win(flag));
        if let Some(exact) = &exact {
            self.nodes += exact.nodes;
            debug_assert!(game.is_legal(exact.pv[0]));
        }
        exact
    }

    fn aspiration(&mut self, game: &mut G, depth: u32, guess: Score, stop: &AtomicBool) -> Score {
        if depth <= 2 {
            return self.pvs(game, depth, -INFINITY, INFINITY, 0, stop);
        }
        let mut delta = 50;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let score = self.pvs(game, depth, alpha, beta, 0, stop);
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

    fn check_limits(&mut self, stop: &AtomicBool) {
        if stop.load(Ordering::Relaxed)
            || self.nodes >= self.node_limit
            || self
                .hard_deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.stopped = true;
        }
    }

    fn pvs(
        &mut self,
        game: &mut G,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        stop: &AtomicBool,
    ) -> Score {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.nodes >= self.node_limit {
            self.check_limits(stop);
        }
        if self.stopped && ply > 0 {
            return 0;
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
        if depth == 0 || ply >= MAX_PLY {
            self.buffers[ply] = moves;
            return game.evaluate();
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
            let undo = game.make(mv);
            let score = if index == 0 {
                -self.pvs(game, depth - 1, -beta, -alpha, ply + 1, stop)
            } else {
                let mut score = -self.pvs(game, depth - 1, -alpha - 1, -alpha, ply + 1, stop);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(game, depth - 1, -beta, -alpha, ply + 1, stop);
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

/// The largest exact solve worth starting with this much time (`None`: no clock).
fn solve_limit(hard: Option<Duration>) -> u32 {
    match hard {
        None => 16,
        Some(t) if t >= Duration::from_secs(20) => 22,
        Some(t) if t >= Duration::from_secs(5) => 20,
        Some(t) if t >= Duration::from_secs(1) => 18,
        Some(t) if t >= Duration::from_millis(200) => 16,
        Some(t) if t >= Duration::from_millis(50) => 14,
        Some(_) => 10,
    }
}

/// A stop flag that is also raised at a deadline, for solvers that only watch a flag.
pub struct DeadlineStop<'a> {
    outer: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl<'a> DeadlineStop<'a> {
    pub fn new(outer: &'a AtomicBool, deadline: Option<Instant>) -> DeadlineStop<'a> {
        DeadlineStop { outer, deadline }
    }

    pub fn run<T: Send>(&self, work: impl FnOnce(&AtomicBool) -> T + Send) -> T {
        let flag = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if self.outer.load(Ordering::Relaxed)
                        || self.deadline.is_some_and(|d| Instant::now() >= d)
                    {
                        flag.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            let result = work(&flag);
            done.store(true, Ordering::Relaxed);
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::{Othello, Rule};
    use rand::{Rng, SeedableRng};

    /// Plain negamax to a fixed depth with the same leaf scores.
    fn negamax<G: SearchGame>(game: &mut G, depth: u32) -> Score {
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
        let stop = AtomicBool::new(false);
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
                let tt = Arc::new(TranspositionTable::new(1));
                let mut searcher = Searcher::new(tt);
                for depth in 1..=4 {
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let result = searcher.think(&game, &limits, &stop, &mut |_, _| {});
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
}
