//! Multi-line analysis: a score for each of the best K root moves (or every one), each
//! searched with its own window, exact where a solver proves it.
//!
//! Each iteration searches the root moves in the last iteration's order. While fewer
//! than K exact scores are known a move gets the full window; after that, a null window
//! at the K-th best score: a move that fails low is reported as an upper bound, one that
//! beats it is searched again for its exact score. So the K best are exact and every
//! other move is bounded by them.

use std::time::{Duration, Instant};

use super::report::{Line, Report};
use super::tt::Bound;
use super::{MAX_PLY, Searcher};
use crate::game::Move;
#[cfg(test)]
use crate::game::roles::ScoreValue;
use crate::game::roles::{INFINITY, ProofKind, Score, SearchGame, WIN, WIN_BOUND, win_from_node};
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
        let mut moves = request.moves.clone();
        if moves.is_empty() {
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

        // A depth that reaches the end of the game is a solve.
        let size = game.exact_size();
        let solvable = size.is_some_and(|size| {
            size <= request.solve_limit || request.max_depth.is_some_and(|depth| depth >= size)
        });
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

    /// Solves each candidate's position exactly, best first, until the stop (or until
    /// `budget` nodes are spent: the search then goes on, not stopped).
    fn solve_candidates(
        &mut self,
        game: &G,
        candidates: &mut [Candidate],
        wanted: usize,
        budget: Option<u64>,
    ) {
        let size = game.exact_size().unwrap_or(0);
        let started = self.nodes();
        for index in 0..candidates.len() {
            if candidates[index].proof.is_some() {
                continue;
            }
            let mv = candidates[index].mv;
            let mut child = game.clone();
            child.make(mv);
            let (score, bound, line) = if child.outcome().is_some() {
                (
                    -win_from_node(child.final_score(), 1),
                    Bound::Exact,
                    Vec::new(),
                )
            } else {
                let mut stop = self.main.stop.narrowed(None, self.nodes());
                if let Some(budget) = budget {
                    let spent = self.nodes() - started;
                    stop = stop.with_node_limit(budget.saturating_sub(spent));
                }
                let Some(proof) = child.solve_exact(&mut self.solver, &stop) else {
                    break;
                };
                self.main.nodes += proof.nodes;
                if !proof.is_exact() {
                    // Stopped: what was proven still bounds the move from above.
                    let upper = -win_from_node(proof.lower, 1);
                    let candidate = &mut candidates[index];
                    candidate.score = candidate.score.min(upper);
                    // Out of budget is not a stop: the search goes on.
                    self.main.stopped = self.main.stop.check(self.nodes());
                    break;
                }
                (-win_from_node(proof.lower, 1), Bound::Exact, proof.pv)
            };
            let candidate = &mut candidates[index];
            candidate.score = score;
            candidate.bound = bound;
            candidate.pv = std::iter::once(mv).chain(line).collect();
            candidate.proof = Some(ProofKind::Solve);
            candidate.depth = size;
            let mut ranked = candidates.to_vec();
            rank(&mut ranked);
            let report = self.analysis_report(game, size, &ranked, wanted);
            let shown = self.main.progress.as_ref().and_then(|p| p.last.as_ref());
            if shown.is_none_or(|last| last.lines != report.lines) {
                self.emit(report);
            }
        }
        rank(candidates);
    }

    fn analysis_report(
        &self,
        game: &G,
        depth: u32,
        candidates: &[Candidate],
        wanted: usize,
    ) -> Report {
        let exact = candidates[..wanted].iter().all(|c| c.proof.is_some());
        Report {
            depth,
            nodes: self.nodes(),
            elapsed: self.main.start.elapsed(),
            exact,
            lines: candidates[..wanted]
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
    use crate::game::roles::{Evaluate, Solve};
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
                let mut searcher = Searcher::new(&game, 2).unwrap();
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
                let mut child = game.clone();
                child.make(line.pv[0]);
                let expected = if child.outcome().is_some() {
                    -child.final_score()
                } else {
                    let mut table = child.solver_table(1 << 20).unwrap();
                    -child.solve_exact(&mut table, &Stop::never()).unwrap().lower
                };
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
}
