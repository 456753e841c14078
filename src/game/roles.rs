//! What the search, the solvers and the harness need from a game beyond its rules, as
//! narrow roles beside [`Game`]: evaluation and move ordering ([`Evaluate`]), exact and
//! threat solvers ([`Solve`]), and how results are scored and shown ([`Scoring`]).
//! The search depends on these; nothing here depends on the search.

use super::{Game, Move, Side};
use crate::stop::Stop;

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

/// The inverse of [`win_from_node`], for scores stored in a table.
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

/// How a score was proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofKind {
    /// An exact solve of the whole game tree (Othello's endgame, small boards).
    Solve,
    /// A victory by continuous fours (five-in-a-row).
    Vcf,
    /// A victory by threats: fours and open threes (five-in-a-row).
    Vct,
}

impl ProofKind {
    pub fn name(self) -> &'static str {
        match self {
            ProofKind::Solve => "solve",
            ProofKind::Vcf => "vcf",
            ProofKind::Vct => "vct",
        }
    }
}

/// What a solver proved: `lower <= score <= upper` for the side to move. When `pv` is
/// not empty its first move reaches at least `lower` and, when the proof is exact, the
/// whole line is proven best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub lower: Score,
    pub upper: Score,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub kind: ProofKind,
}

impl Proof {
    /// An exact result with its proven line (never empty).
    pub fn exact(score: Score, pv: Vec<Move>, nodes: u64) -> Proof {
        debug_assert!(!pv.is_empty());
        Proof {
            lower: score,
            upper: score,
            pv,
            nodes,
            kind: ProofKind::Solve,
        }
    }

    /// The same proof, found by `kind`.
    pub fn by(self, kind: ProofKind) -> Proof {
        Proof { kind, ..self }
    }

    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The proven move, if the proof names one.
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }
}

/// A score as a front end shows it, independent of any protocol's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreValue {
    /// A heuristic evaluation: `value / per_unit` of the game's unit (Othello: discs,
    /// `per_unit` 100); `per_unit` 1 for games whose evaluation has no natural unit.
    Eval { value: i32, per_unit: i32 },
    /// An exact final margin in the game's unit (Othello: discs); 0 is a draw.
    Margin(i32),
    /// A forced win for the side to move in this many plies.
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
    /// A proven draw, in games without a margin.
    Draw,
}

impl ScoreValue {
    /// A win or loss score at a known distance, for games scored by [`WIN`].
    pub fn from_win_distance(score: Score) -> Option<ScoreValue> {
        if score >= WIN_BOUND {
            Some(ScoreValue::Win((WIN - score) as u32))
        } else if score <= -WIN_BOUND {
            Some(ScoreValue::Loss((WIN + score) as u32))
        } else {
            None
        }
    }
}

/// A shallow search predicting a deep one (Multi-ProbCut).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    /// The depth of the predicting search.
    pub shallow: u32,
    /// How far beyond the window its result must lie for the node to be cut: the
    /// prediction's standard error times the confidence asked for, in score units.
    pub margin: Score,
}

/// Evaluation and move selection for the alpha-beta search.
pub trait Evaluate: Game {
    /// Static evaluation of an unfinished position.
    fn evaluate(&self) -> Score;
    /// Exact score of a finished game (same units as `evaluate`).
    fn final_score(&self) -> Score;
    /// How many more moves the side to move has to think about: the time manager spreads
    /// its clock over them.
    fn moves_left(&self) -> u32;
    /// The moves worth searching: a non-empty subset of the legal moves while the game
    /// goes on (Gomoku: points near stones, or only the answers to a threat).
    fn search_moves(&self, moves: &mut Vec<Move>) {
        self.generate_moves(moves)
    }
    /// The moves worth searching at the root, where more time may go into choosing
    /// them (Gomoku: only the moves that stop an opponent's forced win, when it has one).
    fn root_moves(&self, moves: &mut Vec<Move>, _stop: &Stop) {
        self.search_moves(moves)
    }
    /// Ordering key for a legal move at a node searched `depth` plies deep: higher is
    /// searched first. Deep nodes may afford a costlier key (Othello: the child's
    /// evaluation), leaf parents want a cheap one.
    fn order_key(&self, _mv: Move, _depth: u32) -> i32 {
        0
    }
    /// Whether the search tries its killer moves (the last cutoff moves at the same
    /// ply) first; off where the order key already predicts cutoffs better.
    const KILLERS: bool = true;
    /// Plies to take off the search of `mv`, the `index`th move (from 0, in search order)
    /// of a node searched to `depth` (at the root from its fourth move on): late quiet
    /// moves are searched less deeply first (and again at full depth if they beat the
    /// best so far).
    fn reduction(&self, _mv: Move, _index: usize, _depth: u32) -> u32 {
        0
    }
    /// Multi-ProbCut: for a null-window search of this position to `depth`, a shallower
    /// search whose result predicts the deep one, and the error of that prediction; a
    /// shallow result beyond the window by the margin ends the node. `None` where the
    /// game has no fitted model (every game but 8x8 Othello under the normal rule).
    fn probcut(&self, _depth: u32) -> Option<ProbCut> {
        None
    }
    /// A move from the game's opening book within `spread` (in the game's displayed
    /// unit) of the book's best, chosen among several by `seed`, with its score; `None`
    /// out of the book, or where a move leaving it scores better.
    fn book_move(&self, _spread: u32, _seed: u64) -> Option<(Move, Score)> {
        None
    }
    /// Whether the side to move must answer a threat now (Gomoku: a four, or an open
    /// three): the search looks one ply further instead of evaluating such a position,
    /// whose static value misses the answer.
    fn must_answer(&self) -> bool {
        false
    }
    /// Whether the side to move has one forced reply (Gomoku: the block of a four): the
    /// search spends no depth on it, so that attacks by fours are read to their end.
    fn reply_is_forced(&self) -> bool {
        false
    }
    /// The value of an unfinished position where the main search stops, `ply` plies from
    /// the root (win scores count from there): the static evaluation, or for games with
    /// forcing moves a quiescence search over them within `alpha..beta` (Gomoku:
    /// continuous fours). `nodes` counts the positions it visits.
    fn quiesce(&mut self, _alpha: Score, _beta: Score, _ply: usize, _nodes: &mut u64) -> Score {
        self.evaluate()
    }
}

/// Exact and threat solvers, with the table an exact solver keeps between solves.
pub trait Solve: Game {
    /// What an exact solver keeps from one solve to the next (its table).
    type SolverTable: Send + 'static;
    /// A solver table of at most `bytes` bytes; an error when the memory cannot be had.
    fn solver_table(&self, bytes: usize) -> Result<Self::SolverTable, String>;
    /// Empties the table (`clear hash`), touching all of its memory.
    fn clear_solver_table(table: &mut Self::SolverTable);
    /// Empties the table for a new game, without writing it where it can.
    fn forget_solver_table(table: &mut Self::SolverTable) {
        Self::clear_solver_table(table);
    }
    /// How many threads the exact solver may use (1 for a solver that has no
    /// parallel search).
    fn set_solver_threads(_table: &mut Self::SolverTable, _threads: usize) {}
    /// With several threads, how many children of a node the exact solver searches
    /// alone before it shares out the rest (Jamboree search; 1 is young brothers wait).
    fn set_solver_jamboree(_table: &mut Self::SolverTable, _children: usize) {}
    /// Whether this game and board size has an exact solver at all (the memory budget
    /// gives it a share only then).
    fn has_exact_solver(&self) -> bool {
        false
    }
    /// How hard an exact solve of this position is (Othello: empty squares), or `None`
    /// when this position is beyond the exact solver.
    fn exact_size(&self) -> Option<u32> {
        None
    }
    /// Solves exactly, or once `stop` comes, returns what is proven by then (possibly
    /// only the trivial bounds, with the nodes spent; `None` when the game has no solver
    /// or it counts nothing).
    fn solve_exact(&self, _table: &mut Self::SolverTable, _stop: &Stop) -> Option<Proof> {
        None
    }
    /// The exact solver's score within the window (`alpha`, `beta`), fail-soft: exact
    /// inside it, an upper bound at or below `alpha`, a lower bound at or above `beta`.
    /// `None` when the game has no solver or `stop` came first; with the nodes spent
    /// either way. A null window (`beta - 1`, `beta`) asks only whether the score
    /// reaches `beta`, far more cheaply than an exact solve.
    fn solve_window(
        &self,
        table: &mut Self::SolverTable,
        alpha: Score,
        beta: Score,
        stop: &Stop,
    ) -> (Option<Score>, u64) {
        let _ = (alpha, beta);
        match self.solve_exact(table, stop) {
            Some(proof) if proof.is_exact() => (Some(proof.lower), proof.nodes),
            Some(proof) => (None, proof.nodes),
            None => (None, 0),
        }
    }
    /// Whether [`Solve::threat_win`] looks for forced wins.
    fn has_threat_solver(&self) -> bool {
        false
    }
    /// A forced win for the side to move by a threat-space search (Gomoku: continuous
    /// fours, then threes and fours), or `None` when none is found before `stop`.
    fn threat_win(&self, _stop: &Stop) -> Option<Proof> {
        None
    }
}

/// How results are scored and shown.
pub trait Scoring: Game {
    /// A search score (from the side to move's view) as a front end shows it; `exact`
    /// when a solver proved it.
    fn score_value(&self, score: Score, exact: bool) -> ScoreValue;
    /// A finished game's result from Black's view for match tables (Othello: the disc
    /// margin with empty squares to the winner, -64..64).
    fn match_score(&self) -> i32 {
        match self.outcome().and_then(|outcome| outcome.winner) {
            Some(Side::Black) => 1,
            Some(Side::White) => -1,
            None => 0,
        }
    }
    /// Black's `match_score` when White forfeits (Othello: every square, 64 on 8x8).
    fn forfeit_score(&self) -> i32 {
        1
    }
}

/// Every role: what the engine core needs to play a game.
pub trait SearchGame: Evaluate + Solve + Scoring {}

impl<G: Evaluate + Solve + Scoring> SearchGame for G {}
