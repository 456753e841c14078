//! Multi-line analysis: a score for each of the best K root moves (or every one), each
//! searched with its own window, exact where a solver proves it.
//!
//! Each iteration searches the root moves in the last iteration's order. While fewer
//! than K exact scores are known a move gets the full window; after that, a null window
//! at the K-th best score: a move that fails low is reported as an upper bound, one that
//! beats it is searched again for its exact score. So the K best are exact and every
//! other move is bounded by them.
//!
//! In solve range the same holds for the solver: the K best moves are solved exactly and
//! every other move only gets a null-window solve at the K-th best score, which proves
//! it no better (reported as an upper bound) unless it beats that score (then it is
//! solved exactly). While the solver runs, a thread of its own keeps the interval
//! reports coming.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::report::{Line, Report};
use super::tt::Bound;
use super::{MAX_PLY, Searcher};
use crate::game::Move;
#[cfg(test)]
use crate::game::roles::ScoreValue;
use crate::game::roles::{
    INFINITY, Proof, ProofKind, Score, SearchGame, WIN, WIN_BOUND, win_from_node, win_to_node,
};
use crate::stop::Stop;

/// What to analyse and how far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnalysisRequest {
    /// How many of the best moves get exact scores; `None` for every one.
    pub lines: Option<usize>,
    /// The root moves to analyse; empty for every move the search considers.
    pub moves: Vec<Move>,
    pub max_depth: Option<u32>,
    /// The largest position (Othello: empties) whose candidates are solved exactly; 0
    /// for none.
    pub solve_limit: u32,
    /// How long the threat solver may look for a forced win first; `None` to skip it.
    pub threat_time: Option<Duration>,
    /// Reports also come this often while an iteration runs.
    pub interval: Option<Duration>,
}

/// Where a report goes while the analysis runs (another thread's channel).
pub type Reporter = Box<dyn FnMut(Report) + Send>;

/// Interval reports: the last full report again, with the nodes and time so far.
pub(super) struct Progress {
    reporter: Reporter,
    interval: Option<Duration>,
    next: Instant,
    last: Option<Report>,
}

impl Progress {
    fn emit(&mut self, report: Report) {
        (self.reporter)(report.clone());
        self.last = Some(report);
        if let Some(interval) = self.interval {
            self.next = Instant::now() + interval;
        }
    }

    /// Called as the search polls its stop.
    pub(super) fn tick(&mut self, nodes: u64, start: Instant) {
        let Some(interval) = self.interval else {
            return;
        };
        let now = Instant::now();
        if now < self.next {
            return;
        }
        self.next = now + interval;
        if let Some(last) = &self.last {
            let mut report = last.clone();
            report.nodes = nodes;
            report.elapsed = start.elapsed();
            (self.reporter)(report);
        }
    }
}

/// One root move's standing.
#[derive(Clone, Debug)]
struct Candidate {
    mv: Move,
    score: Score,
    bound: Bound,
    pv: Vec<Move>,
    /// How a solver proved it; later iterations leave it alone.
    proof: Option<ProofKind>,
    /// The depth its score was searched at (solved: the plies solved).
    depth: u32,
}

/// The least a solve tried because the game ends on every line searched may spend, in
/// nodes (more when the search before it spent more).
const ENDED_SOLVE_NODES: u64 = 100_000;

impl<G: SearchGame> Searcher<G> {
    /// Analyses `game` (unfinished, with a legal move) until `request`'s limits or
    /// `stop`; every finished iteration, every solved candidate and every interval goes
    /// to `reporter`. Returns the last full report: its lines best first, the first
    /// `request.lines` of them with exact scores.
    pub fn analyze(
        &mut self,
        game: &G,
        request: &AnalysisRequest,
        stop: &Stop,
        reporter: Reporter,
    ) -> Report {
        self.main.begin(stop);
        self.main.progress = Some(Progress {
            reporter,
            interval: request.interval,
            next: Instant::now() + request.interval.unwrap_or_default(),
            last: None,
        });
        // A forced win by threats first: with one in hand, the other candidates need no
        // defence check (the win comes first).
        let threat = request
            .threat_time
            .filter(|_| game.has_threat_solver())
            .and_then(|time| game.threat_win(&stop.narrowed(Some(Instant::now() + time), 0)))
            .filter(|proof| {
                proof
                    .best()
                    .is_some_and(|mv| request.moves.is_empty() || request.moves.contains(&mv))
            });
        // A depth that reaches the end of the game is a solve.
        let size = game.exact_size();
        let solvable = size.is_some_and(|size| {
            size <= request.solve_limit || request.max_depth.is_some_and(|depth| depth >= size)
        });
        let mut moves = request.moves.clone();
        if moves.is_empty() && request.lines.is_none() && solvable {
            // `all` in solve range: every legal move gets its proven score, not only the
            // candidates the search would choose among.
            game.generate_moves(&mut moves);
        } else if moves.is_empty() {
            match &threat {
                Some(proof) => {
                    game.search_moves(&mut moves);
                    let best = proof.pv[0];
                    if !moves.contains(&best) {
                        moves.push(best);
                    }
                }
                None => {
                    let deadline = request.threat_time.map(|time| Instant::now() + time);
                    game.root_moves(&mut moves, &stop.narrowed(deadline, 0));
                }
            }
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
        let mut candidates: Vec<Candidate> = moves
            .iter()
            .map(|&mv| Candidate {
                mv,
                score: -INFINITY,
                bound: Bound::Upper,
                pv: vec![mv],
                proof: None,
                depth: 0,
            })
            .collect();
        let wanted = request
            .lines
            .unwrap_or(usize::MAX)
            .clamp(1, candidates.len());
        let mut depth = 0;
        if let Some(proof) = threat {
            self.main.nodes += proof.nodes;
            let candidate = candidates
                .iter_mut()
                .find(|c| c.mv == proof.pv[0])
                .expect("the winning move is a candidate");
            candidate.score = proof.lower;
            candidate.bound = Bound::Exact;
            candidate.depth = proof.pv.len() as u32;
            candidate.pv = proof.pv;
            candidate.proof = Some(proof.kind);
            rank(&mut candidates);
            let report = self.analysis_report(game, 0, &candidates, wanted);
            self.emit(report);
        }

        // No depth beyond the empty squares: past them every line has ended, or a solve
        // (below) says what the search could not.
        let max_depth = request
            .max_depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(size.unwrap_or(u32::MAX))
            .clamp(1, MAX_PLY as u32 - 1);
        let mut work = game.clone();
        self.main.root_moves.clone_from(&moves);
        // When the game ends on every line searched (or the depth reaches the empties), an
        // exact solve on a node budget; should it not finish, the search goes on and tries
        // again once it has spent four times as much.
        let mut next_solve = 0;
        loop {
            let mut ended = false;
            self.with_helpers(game, max_depth, |this| {
                while depth < max_depth {
                    // Before solving, a short search orders the candidates.
                    if (depth > 0 && this.main.stopped) || (solvable && depth >= 4) {
                        break;
                    }
                    let next = depth + 1;
                    let Some(searched) = this.root_iteration(&mut work, next, &candidates, wanted)
                    else {
                        break;
                    };
                    candidates = searched;
                    rank(&mut candidates);
                    depth = next;
                    let report = this.analysis_report(game, depth, &candidates, wanted);
                    this.emit(report);
                    if decided(&candidates[..wanted], depth) || all_proven(&candidates) {
                        break;
                    }
                    if !solvable
                        && size.is_some()
                        && this.nodes() >= next_solve
                        && (size == Some(depth) || lines_end(game, &candidates[..wanted]))
                    {
                        ended = true;
                        break;
                    }
                }
            });
            if !ended || self.main.stopped {
                break;
            }
            let budget = (self.nodes() * 2).max(ENDED_SOLVE_NODES);
            self.solve_candidates(game, &mut candidates, wanted, Some(budget));
            if all_proven(&candidates) || self.main.stopped || depth >= max_depth {
                break;
            }
            next_solve = self.nodes() * 4;
        }

        if solvable && !self.main.stopped {
            self.solve_candidates(game, &mut candidates, wanted, None);
        }
        let progress = self.main.progress.take();
        let mut last = progress
            .and_then(|progress| progress.last)
            .unwrap_or_else(|| self.analysis_report(game, depth, &candidates, wanted));
        last.nodes = self.nodes();
        last.elapsed = self.main.start.elapsed();
        last
    }

    fn emit(&mut self, report: Report) {
        if let Some(progress) = &mut self.main.progress {
            progress.emit(report);
        }
    }

    /// One iteration over the root moves; `None` when the stop cut it short.
    fn root_iteration(
        &mut self,
        game: &mut G,
        depth: u32,
        candidates: &[Candidate],
        wanted: usize,
    ) -> Option<Vec<Candidate>> {
        // The first iteration always finishes: an analysis stopped at once still
        // answers with a score for every line.
        if depth == 1 {
            let stop = std::mem::take(&mut self.main.stop);
            let node_limit = std::mem::replace(&mut self.main.node_limit, u64::MAX);
            let stopped = std::mem::replace(&mut self.main.stopped, false);
            let searched = self.search_root_moves(game, 1, candidates, wanted);
            self.main.stop = stop;
            self.main.node_limit = node_limit;
            self.main.stopped = stopped;
            self.main.check_limits();
            return searched;
        }
        self.search_root_moves(game, depth, candidates, wanted)
    }

    fn search_root_moves(
        &mut self,
        game: &mut G,
        depth: u32,
        candidates: &[Candidate],
        wanted: usize,
    ) -> Option<Vec<Candidate>> {
        let mut searched = Vec::with_capacity(candidates.len());
        // The exact scores found so far, best first (at most `wanted`).
        let mut exact: Vec<Score> = Vec::with_capacity(wanted + 1);
        for candidate in candidates {
            if candidate.proof.is_some() {
                if candidate.bound == Bound::Exact {
                    keep_best(&mut exact, candidate.score, wanted);
                }
                searched.push(candidate.clone());
                continue;
            }
            let floor = if exact.len() >= wanted {
                exact[wanted - 1]
            } else {
                -INFINITY
            };
            let mv = candidate.mv;
            let undo = game.make(mv);
            let mut score = if floor == -INFINITY {
                -self.main.pvs(game, depth - 1, -INFINITY, INFINITY, 1)
            } else {
                -self.main.pvs(game, depth - 1, -floor - 1, -floor, 1)
            };
            let bound = if floor > -INFINITY && score <= floor {
                Bound::Upper
            } else {
                if floor > -INFINITY && !self.main.stopped {
                    score = -self.main.pvs(game, depth - 1, -INFINITY, -floor, 1);
                }
                Bound::Exact
            };
            let mut pv = vec![mv];
            if !self.main.stopped {
                pv.extend(self.main.principal_variation(game, depth as usize - 1));
            }
            game.unmake(mv, undo);
            if self.main.stopped {
                return None;
            }
            if bound == Bound::Exact {
                keep_best(&mut exact, score, wanted);
            }
            searched.push(Candidate {
                mv,
                score,
                bound,
                pv,
                proof: None,
                depth,
            });
        }
        Some(searched)
    }

    /// Solves the candidates' positions, best first, until the stop (or until `budget`
    /// nodes are spent: the search then goes on, not stopped): the best `wanted` exactly,
    /// each other one with a null window at the `wanted`-th best score (an upper bound, or
    /// an exact solve when it beats that score). A solve cut short by the stop leaves the
    /// bound it proved; one cut short by the budget leaves its move as the search had it.
    /// With an interval, a ticker thread reports meanwhile.
    fn solve_candidates(
        &mut self,
        game: &G,
        candidates: &mut [Candidate],
        wanted: usize,
        budget: Option<u64>,
    ) {
        let progress = self.main.progress.take();
        let interval = progress.as_ref().and_then(|progress| progress.interval);
        let shared = Shared {
            state: Mutex::new(SolveState {
                progress,
                candidates: candidates.to_vec(),
                base: self.nodes(),
                finished: false,
            }),
            wake: Condvar::new(),
            seen: Arc::new(AtomicU64::new(0)),
            until: budget.map(|budget| self.nodes().saturating_add(budget)),
        };
        let depth = game.exact_size().unwrap_or(0);
        let start = self.main.start;
        std::thread::scope(|scope| {
            let _done = Finish(&shared);
            if let Some(interval) = interval {
                let game = game.clone();
                let shared = &shared;
                scope.spawn(move || shared.tick(&game, depth, wanted, start, interval));
            }
            self.solve_each(game, candidates, wanted, &shared);
        });
        let state = shared.state.into_inner().unwrap_or_else(|e| e.into_inner());
        self.main.progress = state.progress;
        rank(candidates);
    }

    fn solve_each(
        &mut self,
        game: &G,
        candidates: &mut [Candidate],
        wanted: usize,
        shared: &Shared,
    ) {
        let depth = game.exact_size().unwrap_or(0);
        // The exact scores so far, best first (at most `wanted`).
        let mut exact: Vec<Score> = Vec::with_capacity(wanted + 1);
        for candidate in candidates.iter() {
            if candidate.proof.is_some() && candidate.bound == Bound::Exact {
                keep_best(&mut exact, candidate.score, wanted);
            }
        }
        if exact.is_empty() && !self.solve_root(game, candidates, &mut exact, wanted, shared) {
            return;
        }
        for index in 0..candidates.len() {
            if candidates[index].proof.is_some() {
                continue;
            }
            let mv = candidates[index].mv;
            let mut child = game.clone();
            child.make(mv);
            let solved = if child.outcome().is_some() {
                Solved::Exact(-win_from_node(child.final_score(), 1), Vec::new())
            } else {
                self.solve_child(&child, exact.get(wanted - 1).copied(), shared)
            };
            let cut = !matches!(solved, Solved::Exact(..) | Solved::Bound(_, _, false));
            if cut && !self.solve_stopped(shared) {
                // Out of budget is not a stop: the move stays as the search left it, and
                // the search goes on.
                break;
            }
            let candidate = &mut candidates[index];
            match solved {
                Solved::Exact(score, line) => {
                    keep_best(&mut exact, score, wanted);
                    candidate.score = score;
                    candidate.bound = Bound::Exact;
                    candidate.pv = std::iter::once(mv).chain(line).collect();
                    candidate.proof = Some(ProofKind::Solve);
                    candidate.depth = depth;
                }
                Solved::Bound(score, bound, _) => {
                    candidate.score = score;
                    candidate.bound = bound;
                    candidate.pv = vec![mv];
                    candidate.proof = Some(ProofKind::Solve);
                    candidate.depth = depth;
                }
                Solved::Stopped => {}
            }
            self.show_solved(game, depth, candidates, wanted, shared);
            if cut {
                break;
            }
        }
    }

    /// The candidates as far as solved, to the ticker and (when the lines changed) as a
    /// report.
    fn show_solved(
        &self,
        game: &G,
        depth: u32,
        candidates: &[Candidate],
        wanted: usize,
        shared: &Shared,
    ) {
        let mut ranked = candidates.to_vec();
        rank(&mut ranked);
        let report = solve_report(
            game,
            depth,
            &ranked,
            wanted,
            self.nodes(),
            self.main.start.elapsed(),
        );
        let mut state = shared.lock();
        state.candidates = ranked;
        state.base = self.nodes();
        if let Some(progress) = &mut state.progress
            && progress
                .last
                .as_ref()
                .is_none_or(|last| last.lines != report.lines)
        {
            progress.emit(report);
        }
    }

    /// When every legal move is a candidate: solves the position itself, which gives
    /// the best move's exact score about as fast as anything can (the other moves are
    /// then refuted from a warm table), or, cut short by the stop, the lower bound its
    /// best move reaches. Returns whether the solve phase goes on.
    fn solve_root(
        &mut self,
        game: &G,
        candidates: &mut [Candidate],
        exact: &mut Vec<Score>,
        wanted: usize,
        shared: &Shared,
    ) -> bool {
        let mut legal = Vec::new();
        game.generate_moves(&mut legal);
        let all = legal.len() == candidates.len()
            && legal
                .iter()
                .all(|mv| candidates.iter().any(|c| c.mv == *mv));
        if !all || candidates.iter().any(|c| c.proof.is_some()) {
            return true;
        }
        let stop = self.solve_stop(shared);
        let Some(proof) = game.solve_exact(&mut self.solver, &stop) else {
            self.solve_stopped(shared);
            return false;
        };
        self.main.nodes += proof.nodes;
        let goes_on = proof.is_exact();
        // Out of budget is not a stop: the search goes on, the moves as it left them.
        if !goes_on && !self.solve_stopped(shared) {
            return false;
        }
        let Some(index) = proof
            .best()
            .and_then(|best| candidates.iter().position(|c| c.mv == best))
        else {
            return goes_on;
        };
        let depth = game.exact_size().unwrap_or(0);
        let candidate = &mut candidates[index];
        candidate.score = proof.lower;
        candidate.proof = Some(ProofKind::Solve);
        candidate.depth = depth;
        if goes_on {
            candidate.bound = Bound::Exact;
            candidate.pv = proof.pv;
            keep_best(exact, proof.lower, wanted);
        } else {
            // Stopped: the move reaches at least this.
            candidate.bound = Bound::Lower;
            candidate.pv = vec![candidate.mv];
        }
        self.show_solved(game, depth, candidates, wanted, shared);
        goes_on
    }

    /// The stop of one solver call, its nodes seen by the ticker (and within the solve
    /// phase's node budget, if it has one).
    fn solve_stop(&self, shared: &Shared) -> Stop {
        shared.seen.store(0, Ordering::Relaxed);
        shared.lock().base = self.nodes();
        let stop = self
            .main
            .stop
            .narrowed(None, self.nodes())
            .with_seen(Arc::clone(&shared.seen));
        match shared.until {
            Some(until) => stop.with_node_limit(until.saturating_sub(self.nodes())),
            None => stop,
        }
    }

    /// After a solve cut short: whether the analysis's stop cut it (recorded in
    /// `stopped`), not only the solve phase's node budget.
    fn solve_stopped(&mut self, shared: &Shared) -> bool {
        self.main.stopped = shared.until.is_none() || self.main.stop.check(self.nodes());
        self.main.stopped
    }

    /// Solves one candidate's position (`child`, after its move): exactly, or when
    /// `floor` (the `wanted`-th best exact score) is known and the move proves no better,
    /// only that bound.
    fn solve_child(&mut self, child: &G, floor: Option<Score>, shared: &Shared) -> Solved {
        if let Some(floor) = floor {
            // Does the move beat `floor`? A null window (floor, floor + 1) from the root,
            // seen from the child.
            let stop = self.solve_stop(shared);
            let (alpha, beta) = (-win_to_node(floor + 1, 1), -win_to_node(floor, 1));
            let (score, nodes) = child.solve_window(&mut self.solver, alpha, beta, &stop);
            self.main.nodes += nodes;
            match score.map(|score| -win_from_node(score, 1)) {
                None => return Solved::Stopped,
                Some(score) if score <= floor => return Solved::Bound(score, Bound::Upper, false),
                Some(_) => {}
            }
        }
        let stop = self.solve_stop(shared);
        let Some(proof) = child.solve_exact(&mut self.solver, &stop) else {
            return Solved::Stopped;
        };
        self.main.nodes += proof.nodes;
        if proof.is_exact() {
            return Solved::Exact(-win_from_node(proof.lower, 1), proof.pv);
        }
        interrupted_bound(&proof)
    }

    fn analysis_report(
        &self,
        game: &G,
        depth: u32,
        candidates: &[Candidate],
        wanted: usize,
    ) -> Report {
        let elapsed = self.main.start.elapsed();
        let shown = shown_lines(candidates, wanted, false);
        lines_report(game, depth, &shown, wanted, self.nodes(), elapsed)
    }
}

/// What solving one candidate gave, from the root's view.
enum Solved {
    /// The exact score and the proven line after the move.
    Exact(Score, Vec<Move>),
    /// A proven bound; `true` when the solve was stopped.
    Bound(Score, Bound, bool),
    /// Stopped before anything was proven.
    Stopped,
}

/// What an exact solve of a child stopped early still proves for the move: the child's
/// lower bound is the move's upper bound (the child names a move that reaches it), and
/// an upper bound that is not the trivial one (minus the lower bound of a solve that has
/// proven nothing from below) the move's lower bound.
fn interrupted_bound(proof: &Proof) -> Solved {
    if !proof.pv.is_empty() {
        Solved::Bound(-win_from_node(proof.lower, 1), Bound::Upper, true)
    } else if proof.upper < -proof.lower {
        Solved::Bound(-win_from_node(proof.upper, 1), Bound::Lower, true)
    } else {
        Solved::Stopped
    }
}

/// What the solve phase shares with its ticker thread.
struct Shared {
    state: Mutex<SolveState>,
    wake: Condvar,
    /// The running solve's nodes, as its checks of the stop see them.
    seen: Arc<AtomicU64>,
    /// The nodes by which a solve phase on a budget ends (the search then goes on).
    until: Option<u64>,
}

struct SolveState {
    progress: Option<Progress>,
    /// The candidates as last solved, ranked.
    candidates: Vec<Candidate>,
    /// Nodes before the running solve.
    base: u64,
    finished: bool,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, SolveState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every `interval` until the solve phase ends: a report of the candidates as far
    /// as they are solved, with the nodes and time so far.
    fn tick<G: SearchGame>(
        &self,
        game: &G,
        depth: u32,
        wanted: usize,
        start: Instant,
        interval: Duration,
    ) {
        let mut state = self.lock();
        let mut next = Instant::now() + interval;
        loop {
            let now = Instant::now();
            if state.finished {
                return;
            }
            if now < next {
                state = self
                    .wake
                    .wait_timeout(state, next - now)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                continue;
            }
            next = now + interval;
            let nodes = state.base + self.seen.load(Ordering::Relaxed);
            let report = solve_report(
                game,
                depth,
                &state.candidates,
                wanted,
                nodes,
                start.elapsed(),
            );
            if let Some(progress) = &mut state.progress {
                (progress.reporter)(report);
            }
        }
    }
}

/// Ends the ticker however the solve phase ends.
struct Finish<'a>(&'a Shared);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.lock().finished = true;
        self.0.wake.notify_all();
    }
}

/// The lines a report shows: the first `wanted` searched candidates and, with
/// `bounds`, after them the moves the solver proved no better.
fn shown_lines(candidates: &[Candidate], wanted: usize, bounds: bool) -> Vec<&Candidate> {
    candidates
        .iter()
        .enumerate()
        .filter(|(index, c)| {
            // A move not searched yet has no score to show.
            let searched = c.score > -INFINITY || c.proof.is_some();
            searched && (*index < wanted || (bounds && c.proof.is_some()))
        })
        .map(|(_, c)| c)
        .collect()
}

/// A report of the solve phase: the `wanted` best, then the proven bounds.
fn solve_report<G: SearchGame>(
    game: &G,
    depth: u32,
    candidates: &[Candidate],
    wanted: usize,
    nodes: u64,
    elapsed: Duration,
) -> Report {
    let shown = shown_lines(candidates, wanted, true);
    lines_report(game, depth, &shown, wanted, nodes, elapsed)
}

fn lines_report<G: SearchGame>(
    game: &G,
    depth: u32,
    shown: &[&Candidate],
    wanted: usize,
    nodes: u64,
    elapsed: Duration,
) -> Report {
    let exact =
        shown.len() >= wanted.min(1) && shown.iter().take(wanted).all(|c| c.proof.is_some());
    Report {
        depth,
        nodes,
        elapsed,
        exact,
        lines: shown
            .iter()
            .map(|c| Line {
                score: game.score_value(c.score, c.proof.is_some()),
                bound: c.bound,
                pv: c.pv.clone(),
                proof: c.proof,
                depth: c.depth,
            })
            .collect(),
    }
}

/// Best first; at equal scores an exact score before a bound.
fn rank(candidates: &mut [Candidate]) {
    candidates.sort_by_key(|c| (std::cmp::Reverse(c.score), c.bound != Bound::Exact));
}

fn keep_best(best: &mut Vec<Score>, score: Score, wanted: usize) {
    let at = best.partition_point(|&s| s >= score);
    best.insert(at, score);
    best.truncate(wanted);
}

/// Whether every candidate's score is proven (deeper searches find nothing new).
fn all_proven(candidates: &[Candidate]) -> bool {
    candidates.iter().all(|c| c.proof.is_some())
}

/// Whether each line's moves, played out, end the game: the search saw the end of the
/// game along the lines it reports (a solve may then confirm it cheaply).
fn lines_end<G: SearchGame>(game: &G, lines: &[Candidate]) -> bool {
    lines.iter().all(|line| {
        let mut position = game.clone();
        for &mv in &line.pv {
            if position.outcome().is_some() || !position.is_legal(mv) {
                return false;
            }
            position.make(mv);
        }
        position.outcome().is_some()
    })
}

/// Whether every line is a win or loss within `depth` plies: deeper finds the same.
fn decided(lines: &[Candidate], depth: u32) -> bool {
    lines
        .iter()
        .all(|c| c.score.abs() >= WIN_BOUND && WIN - c.score.abs() <= depth as Score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::othello::{Othello, Rule};
    use crate::game::roles::{Evaluate, Scoring, Solve};
    use crate::search::tests::negamax;
    use rand::{Rng, SeedableRng};

    fn random_position(rng: &mut impl Rng, size: usize, plies: usize) -> Othello {
        let mut game = Othello::new(size, Rule::Normal).unwrap();
        let mut moves = Vec::new();
        for _ in 0..plies {
            game.generate_moves(&mut moves);
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            game.make(moves[rng.random_range(0..moves.len())]);
        }
        game
    }

    fn child_value(game: &Othello, mv: Move, depth: u32) -> Score {
        let mut child = game.clone();
        child.make(mv);
        -negamax(&mut child, depth - 1)
    }

    /// Every line's score is its move's own negamax value (exact lines), or at least
    /// that value (upper bounds); the exact lines are the best moves.
    #[test]
    fn every_line_is_its_moves_value() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(19);
        for round in 0..24 {
            let plies = rng.random_range(0..40);
            let game = random_position(&mut rng, 8, plies);
            if game.outcome().is_some() {
                continue;
            }
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            let depth = 1 + round % 4;
            for lines in [None, Some(1), Some(3)] {
                // Full width: Multi-ProbCut may prove a null-window search below the
                // floor that negamax would not, so only then are the values exact.
                let mut searcher = Searcher::new(&game, 2).unwrap();
                searcher.set_selective(false);
                let request = AnalysisRequest {
                    lines,
                    max_depth: Some(depth),
                    ..AnalysisRequest::default()
                };
                let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
                let wanted = lines.unwrap_or(legal.len()).min(legal.len());
                assert_eq!(report.lines.len(), wanted);
                let values: Vec<Score> = legal
                    .iter()
                    .map(|&mv| child_value(&game, mv, depth))
                    .collect();
                let mut sorted = values.clone();
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                for (rank, line) in report.lines.iter().enumerate() {
                    let index = legal.iter().position(|&mv| mv == line.pv[0]).unwrap();
                    let ScoreValue::Eval { value, .. } = line.score else {
                        panic!("{line:?}");
                    };
                    assert_eq!(
                        line.bound,
                        Bound::Exact,
                        "{} depth {depth}",
                        game.to_board_string()
                    );
                    assert_eq!(
                        value,
                        values[index],
                        "{} depth {depth}",
                        game.to_board_string()
                    );
                    assert_eq!(
                        value,
                        sorted[rank],
                        "rank {rank} of {}",
                        game.to_board_string()
                    );
                }
            }
        }
    }

    /// In solve range every candidate is solved exactly: each equals a solve of its child.
    #[test]
    fn solved_lines_equal_the_solved_children() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checked = 0;
        while checked < 12 {
            let game = random_position(&mut rng, 8, 50);
            if game.outcome().is_some() || game.exact_size().unwrap() > 14 {
                continue;
            }
            let mut searcher = Searcher::new(&game, 4).unwrap();
            let request = AnalysisRequest {
                lines: None,
                solve_limit: 14,
                ..AnalysisRequest::default()
            };
            let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            assert_eq!(report.lines.len(), legal.len().max(1));
            assert!(report.exact);
            for line in &report.lines {
                let expected = solved_child(&game, line.pv[0]);
                assert_eq!(
                    line.score,
                    ScoreValue::Margin(expected / 100),
                    "{}",
                    game.to_board_string()
                );
                assert!(line.proof == Some(ProofKind::Solve) && line.bound == Bound::Exact);
            }
            checked += 1;
        }
    }

    fn solved_child(game: &Othello, mv: Move) -> Score {
        let mut child = game.clone();
        child.make(mv);
        if child.outcome().is_some() {
            return -child.final_score();
        }
        let mut table = child.solver_table(1 << 20).unwrap();
        -child.solve_exact(&mut table, &Stop::never()).unwrap().lower
    }

    fn margin(line: &Line) -> Score {
        match line.score {
            ScoreValue::Margin(value) => value * 100,
            other => panic!("not a margin: {other:?}"),
        }
    }

    /// With `multipv K` in solve range the K best are solved exactly and every other
    /// move follows as a proven upper bound: at least its exact score, at most the Kth.
    #[test]
    fn partial_multipv_solves_k_and_bounds_the_rest() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(29);
        let mut checked = 0;
        let (mut upper, mut nodes_one, mut nodes_all) = (0, 0, 0);
        while checked < 10 {
            let game = random_position(&mut rng, 8, 48);
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            if game.outcome().is_some() || game.exact_size().unwrap() > 14 || legal.len() < 4 {
                continue;
            }
            let mut searcher = Searcher::new(&game, 4).unwrap();
            let request = AnalysisRequest {
                lines: None,
                solve_limit: 14,
                ..AnalysisRequest::default()
            };
            nodes_all += searcher
                .analyze(&game, &request, &Stop::never(), Box::new(|_| {}))
                .nodes;
            for wanted in [1, 2] {
                let mut searcher = Searcher::new(&game, 4).unwrap();
                let request = AnalysisRequest {
                    lines: Some(wanted),
                    solve_limit: 14,
                    ..AnalysisRequest::default()
                };
                let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
                let board = game.to_board_string();
                if wanted == 1 {
                    nodes_one += report.nodes;
                }
                assert!(report.exact, "{board}");
                assert_eq!(report.lines.len(), legal.len(), "{board}: {report:?}");
                let mut values: Vec<Score> =
                    legal.iter().map(|&mv| solved_child(&game, mv)).collect();
                values.sort_unstable_by(|a, b| b.cmp(a));
                for (rank, line) in report.lines.iter().enumerate() {
                    let value = solved_child(&game, line.pv[0]);
                    assert_eq!(line.proof, Some(ProofKind::Solve), "{board}");
                    if rank < wanted {
                        assert_eq!(line.bound, Bound::Exact, "{board} rank {rank}");
                        assert_eq!(margin(line), value, "{board} rank {rank}");
                        assert_eq!(value, values[rank], "{board} rank {rank}");
                    } else if line.bound == Bound::Exact {
                        // A move that ends the game is scored exactly for free.
                        assert_eq!(margin(line), value, "{board} rank {rank}");
                    } else {
                        assert_eq!(line.bound, Bound::Upper, "{board} rank {rank}");
                        assert!(margin(line) >= value, "{board} rank {rank}");
                        upper += 1;
                        assert!(margin(line) <= margin(&report.lines[wanted - 1]));
                    }
                }
            }
            checked += 1;
        }
        assert!(upper > 10, "{upper} moves bounded");
        // Bounding is cheaper than solving every move.
        assert!(
            nodes_one * 3 < nodes_all * 2,
            "{nodes_one} nodes for 1, {nodes_all} for all"
        );
    }

    /// A solve cut short shows what it proved: a line bounded from above or below that
    /// holds for the move's exact score, never a bound dropped or a wrong one.
    #[test]
    fn interrupted_solves_report_their_proven_bounds() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let mut bounded = 0;
        let mut positions = 0;
        while positions < 6 {
            let game = random_position(&mut rng, 8, 44);
            if game.outcome().is_some() || game.exact_size().unwrap() != 16 {
                continue;
            }
            positions += 1;
            for limit in [20_000, 60_000, 150_000, 400_000] {
                let mut searcher = Searcher::new(&game, 4).unwrap();
                let request = AnalysisRequest {
                    lines: Some(1),
                    solve_limit: 20,
                    ..AnalysisRequest::default()
                };
                let stop = Stop::never().with_node_limit(limit);
                let report = searcher.analyze(&game, &request, &stop, Box::new(|_| {}));
                for line in &report.lines {
                    if line.proof.is_none() || line.bound == Bound::Exact {
                        continue;
                    }
                    bounded += 1;
                    let value = solved_child(&game, line.pv[0]);
                    let board = game.to_board_string();
                    match line.bound {
                        Bound::Upper => assert!(margin(line) >= value, "{board} {line:?}"),
                        Bound::Lower => assert!(margin(line) <= value, "{board} {line:?}"),
                        Bound::Exact => unreachable!(),
                    }
                }
            }
        }
        assert!(bounded > 0, "no solve was cut short with a bound proven");
    }

    /// Outside solve range, the solve tried once the search reaches the end of the game
    /// (on a node budget) is the same solve: the best K exact, every other move proven
    /// no better, each labelled with the empties as its depth; cut short by the stop it
    /// keeps what it proved, and a line left to the search never claims more depth than
    /// the empties.
    #[test]
    fn the_end_of_game_solve_on_a_budget_solves_k_and_bounds_the_rest() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        let (mut positions, mut upper) = (0, 0);
        while positions < 8 {
            let game = random_position(&mut rng, 8, 54);
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            if game.outcome().is_some() || game.exact_size().unwrap() != 10 || legal.len() < 3 {
                continue;
            }
            positions += 1;
            let board = game.to_board_string();
            let mut values: Vec<Score> = legal.iter().map(|&mv| solved_child(&game, mv)).collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            for wanted in [1, 2] {
                let request = AnalysisRequest {
                    lines: Some(wanted),
                    solve_limit: 0,
                    ..AnalysisRequest::default()
                };
                let mut searcher = Searcher::new(&game, 4).unwrap();
                let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
                assert!(report.exact, "{board}: {report:?}");
                for (rank, line) in report.lines.iter().enumerate() {
                    let value = solved_child(&game, line.pv[0]);
                    assert_eq!(line.proof, Some(ProofKind::Solve), "{board}");
                    assert_eq!(line.depth, 10, "{board} {line:?}");
                    if rank < wanted {
                        assert_eq!(line.bound, Bound::Exact, "{board} rank {rank}");
                        assert_eq!(margin(line), values[rank], "{board} rank {rank}");
                    } else if line.bound == Bound::Exact {
                        assert_eq!(margin(line), value, "{board} rank {rank}");
                    } else {
                        assert_eq!(line.bound, Bound::Upper, "{board} rank {rank}");
                        assert!(margin(line) >= value, "{board} rank {rank}");
                        assert!(margin(line) <= margin(&report.lines[wanted - 1]));
                        upper += 1;
                    }
                }
                for limit in [3_000, 10_000, 30_000] {
                    let mut searcher = Searcher::new(&game, 4).unwrap();
                    let stop = Stop::never().with_node_limit(limit);
                    let report = searcher.analyze(&game, &request, &stop, Box::new(|_| {}));
                    for line in &report.lines {
                        assert!(line.depth <= 10, "{board} {line:?}");
                        if line.proof.is_none() {
                            continue;
                        }
                        let value = solved_child(&game, line.pv[0]);
                        match line.bound {
                            Bound::Exact => assert_eq!(margin(line), value, "{board} {line:?}"),
                            Bound::Upper => assert!(margin(line) >= value, "{board} {line:?}"),
                            Bound::Lower => assert!(margin(line) <= value, "{board} {line:?}"),
                        }
                    }
                }
            }
        }
        assert!(upper > 0, "no move was only bounded");
    }

    /// Interval reports go on while the candidates are solved (a ticker beside the
    /// solver), not only when a solve ends.
    #[test]
    fn interval_reports_keep_coming_while_solving() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(37);
        let game = loop {
            let game = random_position(&mut rng, 8, 40);
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            if game.outcome().is_none() && game.exact_size().unwrap() == 20 && legal.len() >= 6 {
                break game;
            }
        };
        let times = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&times);
        let mut searcher = Searcher::new(&game, 16).unwrap();
        let request = AnalysisRequest {
            lines: None,
            solve_limit: 20,
            interval: Some(Duration::from_millis(20)),
            ..AnalysisRequest::default()
        };
        let start = Instant::now();
        let report = searcher.analyze(
            &game,
            &request,
            &Stop::never(),
            Box::new(move |report| seen.lock().unwrap().push((Instant::now(), report.nodes))),
        );
        let end = Instant::now();
        assert!(report.exact);
        let times = times.lock().unwrap();
        let mut previous = start;
        let mut longest = Duration::ZERO;
        for &(at, _) in times.iter().chain([&(end, 0)]) {
            longest = longest.max(at - previous);
            previous = at;
        }
        let total = end - start;
        assert!(
            longest < Duration::from_millis(400),
            "{} reports in {total:?}, longest gap {longest:?}",
            times.len()
        );
        // The nodes grow while a solve runs, not only between solves.
        assert!(times.windows(2).all(|pair| pair[0].1 <= pair[1].1));
    }

    /// Gomoku with a forced win in hand: the other lines appear only once searched,
    /// never with the placeholder of a move not searched yet.
    #[test]
    fn unsearched_moves_are_never_shown() {
        use crate::game::gomoku::{Config, Gomoku, Opening};
        let config = Config::gomoku(15, false, Opening::Free);
        let mut game = Gomoku::new(config).unwrap();
        let cells = "--------------- --------------- --------------- --------------- --------------- --------------- --------O------ ------OX------- -----XX---X---- ---------XO---- -------X---O--- -----O-O-O-X--- ----O---XX-O--- --------------- ---------------";
        let cells: String = cells.split_whitespace().collect();
        game.set_board(&cells, crate::game::Side::Black).unwrap();
        let reports = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&reports);
        let mut searcher = Searcher::new(&game, 16).unwrap();
        let request = AnalysisRequest {
            lines: Some(3),
            max_depth: Some(2),
            threat_time: Some(Duration::from_secs(2)),
            interval: Some(Duration::from_millis(10)),
            ..AnalysisRequest::default()
        };
        let last = searcher.analyze(
            &game,
            &request,
            &Stop::never(),
            Box::new(move |report| seen.lock().unwrap().push(report)),
        );
        let reports = reports.lock().unwrap();
        assert_eq!(reports[0].lines.len(), 1, "{:?}", reports[0]);
        assert_eq!(reports[0].lines[0].score, ScoreValue::Win(5));
        assert_eq!(last.lines.len(), 3);
        for report in reports.iter().chain([&last]) {
            for line in &report.lines {
                match line.score {
                    ScoreValue::Win(plies) | ScoreValue::Loss(plies) => {
                        assert!(plies < 300, "{report:?}")
                    }
                    ScoreValue::Eval { value, .. } => assert!(value.abs() < WIN_BOUND),
                    _ => {}
                }
            }
        }
    }

    /// `all` means every legal move where the solver takes the position: the 16 points
    /// of an empty 4x4 tic-tac-toe board, each solved (a draw or a loss), not only the
    /// one point the search would start from.
    #[test]
    fn all_covers_every_legal_move_in_solve_range() {
        use crate::game::gomoku::{Config, Gomoku};
        for (size, k) in [(3, 3), (4, 3), (4, 4)] {
            let game = Gomoku::new(Config::tictactoe(size, k)).unwrap();
            let mut searcher = Searcher::new(&game, 4).unwrap();
            let request = AnalysisRequest {
                lines: None,
                solve_limit: 16,
                ..AnalysisRequest::default()
            };
            let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
            assert_eq!(report.lines.len(), size * size, "{size}x{size} k {k}");
            assert!(report.exact);
            let mut moves: Vec<Move> = report.lines.iter().map(|line| line.pv[0]).collect();
            moves.sort_unstable();
            moves.dedup();
            assert_eq!(moves.len(), size * size);
            for line in &report.lines {
                let mut child = game.clone();
                child.make(line.pv[0]);
                let mut table = child.solver_table(1 << 20).unwrap();
                let expected = -win_from_node(
                    child.solve_exact(&mut table, &Stop::never()).unwrap().lower,
                    1,
                );
                assert_eq!(line.score, game.score_value(expected, true), "{line:?}");
            }
        }
    }
}
