//! The k-in-a-row games' roles for the engine: the pattern evaluation, the candidate
//! moves and the solvers.

use std::sync::LazyLock;

use super::exact::{self, ExactTable};
use super::pattern::{Pattern, PointClass, Threat};
use super::{Family, Gomoku, eval_table, quiesce, threat, threat_from_u8};
use crate::game::roles::{Evaluate, Proof, Score, ScoreValue, Scoring, Solve};
use crate::game::{Game, Move, Side};
use crate::stop::Stop;

pub use crate::game::roles::WIN;

/// A position won by force within a move or two, but not yet searched out.
pub(crate) const SURE_WIN: Score = 100_000;

/// The largest positional evaluation, well below [`SURE_WIN`]: the sums of line values
/// grow with the board (99x99 tic-tac-toe reached 137,000), and a sure win must still
/// sort above every one of them.
pub(crate) const MAX_EVAL: Score = SURE_WIN / 2;

/// Largest board solved exactly by `solve` (25 points: 5x5), from the start up to 16
/// points and on larger boards once at most `EXACT_EMPTIES` points are left.
const EXACT_POINTS: usize = 25;
const EXACT_EMPTIES: u32 = 20;

/// Most candidate moves searched below the root: the best by the points' value to both
/// sides.
const SEARCH_CANDIDATES: usize = 8;

/// The moves a side plans to think about from the start: games between engines last
/// about 20 a side, but a search stops well short of its share (it starts no iteration
/// it cannot finish), so planning for fewer spends the clock. And the fewest the time
/// manager plans for while the game goes on.
const EXPECTED_MOVES: u32 = 11;
const MIN_MOVES_LEFT: u32 = 5;

/// The hand-set weights: per line pattern and per point threat class (what a stone there
/// would make, for the side that would place it) they value points for the move order;
/// the tempo by the side to move's best threat and the combination terms of
/// `threat_terms` are part of the evaluation, beside the fitted tables of `eval_table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// By `Pattern`, Dead to Five.
    pub lines: [i16; 9],
    /// By `Threat`, None to Five: a point's bonus over its lines' sum.
    pub points: [i16; 9],
    /// By the side to move's best `Threat`.
    pub tempo: [Score; 9],
    /// Own four-three, own double three, the opponent's four-three, its double three.
    pub terms: [Score; 4],
}

pub const WEIGHTS: Weights = Weights {
    lines: [0, 1, 4, 12, 10, 45, 60, 300, 1000],
    points: [0, 0, 0, 0, 120, 0, 300, 200, 0],
    tempo: [420, 440, 500, 670, 670, 620, 720, 720, 720],
    terms: [4000, 2500, -1500, -800],
};

/// How much playing on a point is worth to one side, for the move order: its four lines
/// plus a bonus for threats that combine lines.
pub(super) fn point_value(patterns: [Pattern; 4], threat: Threat) -> i16 {
    let lines: i16 = patterns.iter().map(|&p| WEIGHTS.lines[p as usize]).sum();
    lines + WEIGHTS.points[threat as usize]
}

/// How many values `Gomoku::threat_mask` takes (11 bits).
pub const THREAT_MASKS: usize = 1 << 11;

/// `eval_table::THREAT_VALUES` spread over every mask.
fn threat_values() -> &'static [Score] {
    static TABLE: LazyLock<Vec<Score>> = LazyLock::new(|| {
        let mut table = vec![0; THREAT_MASKS];
        for &(mask, value) in eval_table::THREAT_VALUES {
            table[mask as usize] = value as Score;
        }
        table
    });
    &TABLE
}

/// The tables `arbor tune --game gomoku` fits, as numbers: by `PointClass`, a point's
/// value to the side to move and to the other side; by threat mask, a correction.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTables {
    pub points: Vec<[f64; 2]>,
    pub threats: Vec<f64>,
}

impl EvalTables {
    /// The tables the engine plays with.
    pub fn shipped() -> EvalTables {
        EvalTables {
            points: eval_table::POINT_VALUES
                .iter()
                .map(|v| v.map(|x| x as f64))
                .collect(),
            threats: threat_values().iter().map(|&v| v as f64).collect(),
        }
    }

    /// What the fit starts from: the move order's point values (`point_value`) for
    /// both roles, no threat corrections.
    pub fn hand_set() -> EvalTables {
        EvalTables {
            points: (0..PointClass::COUNT)
                .map(|class| {
                    let patterns = PointClass(class as u16).patterns();
                    [point_value(patterns, Threat::from_patterns(patterns)) as f64; 2]
                })
                .collect(),
            threats: vec![0.0; THREAT_MASKS],
        }
    }

    /// `src/game/gomoku/eval_table.rs` holding these tables (rounded): what
    /// `arbor tune --game gomoku` writes.
    pub fn source(&self, provenance: &str) -> String {
        let rounded = |v: f64| v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let mut out = String::from(
            "//! The evaluation's fitted tables, written by `arbor tune --game gomoku`.\n",
        );
        for line in provenance.lines() {
            out += &format!("//! {line}\n");
        }
        out += "\nuse super::pattern::PointClass;\n\n";
        out += "/// By `PointClass`: a point's value to the side to move, and to the other side.\n";
        out += "#[rustfmt::skip]\n";
        out += "pub const POINT_VALUES: [[i16; 2]; PointClass::COUNT] = [\n";
        for (class, values) in self.points.iter().enumerate() {
            let patterns = PointClass(class as u16).patterns();
            let [mover, other] = values.map(rounded);
            out += &format!("    [{mover}, {other}], // {patterns:?}\n");
        }
        out += "];\n\n";
        out += "/// By `Gomoku::threat_mask`, the masks whose correction is not zero.\n";
        out += "#[rustfmt::skip]\n";
        out += "pub const THREAT_VALUES: &[(u16, i16)] = &[\n";
        for (mask, value) in self.threats.iter().enumerate() {
            let value = rounded(*value);
            if value != 0 {
                out += &format!("    ({mask:#013b}, {value}),\n");
            }
        }
        out += "];\n";
        out
    }
}

/// A quiet position's evaluation as a linear function of `EvalTables`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// Empty points by class for the side to move, and for the other side: (class, count).
    pub mover: Vec<(u16, u16)>,
    pub other: Vec<(u16, u16)>,
    pub threat_mask: u16,
    /// The hand-set rest: tempo and combination terms.
    pub fixed: Score,
}

impl Features {
    pub fn score(&self, tables: &EvalTables) -> f64 {
        let mover: f64 = (self.mover.iter())
            .map(|&(class, n)| n as f64 * tables.points[class as usize][0])
            .sum();
        let other: f64 = (self.other.iter())
            .map(|&(class, n)| n as f64 * tables.points[class as usize][1])
            .sum();
        mover - other + tables.threats[self.threat_mask as usize] + self.fixed as f64
    }
}

impl Gomoku {
    /// The evaluation's features in a Gomoku position the evaluation scores by its tables:
    /// no five to make or to stop, no open four to make, no open three to answer.
    pub fn eval_features(&self) -> Option<Features> {
        let me = self.side_to_move();
        let them = me.opponent();
        if self.config.family != Family::Gomoku
            || !self.has_patterns()
            || self.outcome().is_some()
            || self.has_open_four(me)
            || self.threat_count(them, Threat::Five) > 0
            || self.must_answer()
        {
            return None;
        }
        let mut counts = vec![[0u16; 2]; PointClass::COUNT];
        for field in 0..self.size() * self.size() {
            if self.cell(field) == 0 {
                for (role, side) in [me, them].into_iter().enumerate() {
                    counts[PointClass::of(self.patterns(side, field)).0 as usize][role] += 1;
                }
            }
        }
        let listed = |role: usize| {
            (counts.iter().enumerate())
                .filter(|&(class, n)| class > 0 && n[role] > 0)
                .map(|(class, n)| (class as u16, n[role]))
                .collect()
        };
        Some(Features {
            mover: listed(0),
            other: listed(1),
            threat_mask: self.threat_mask() as u16,
            fixed: self.tempo(me) + self.terms_score(me),
        })
    }
}

/// The position for `side`, not counting whose move it is (the greedy player's measure).
pub(super) fn static_score(game: &Gomoku, side: Side) -> Score {
    let other = side.opponent();
    if !game.has_patterns() {
        return window_score(game, side) - window_score(game, other);
    }
    let mut score = game.potential(side) - game.potential(other);
    if game.config.family == Family::Pente {
        score += capture_score(game.captures(side)) - capture_score(game.captures(other));
    }
    score
}

/// Captured pairs grow dearer as the fifth comes near.
fn capture_score(pairs: u8) -> Score {
    [0, 150, 350, 650, 1200, 0][pairs.min(5) as usize]
}

/// Pente: pairs each side could capture next move (`[side to move, other]`).
fn capture_threats(game: &Gomoku) -> [i32; 2] {
    let me = game.side_to_move();
    let mut threats = [0; 2];
    for field in game.busy_fields(3) {
        if game.cell(field) == 0 {
            threats[0] += game.capture_mask_for(me, field).count_ones() as i32;
            threats[1] += game.capture_mask_for(me.opponent(), field).count_ones() as i32;
        }
    }
    threats
}

/// For boards whose k is beyond the pattern tables: open windows of k points holding
/// only `side`'s stones, weighted by how full they are.
fn window_score(game: &Gomoku, side: Side) -> Score {
    let size = game.config.size as isize;
    let k = game.config.k as isize;
    let own = side.index() as u8 + 1;
    let mut score = 0;
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for row in 0..size {
            for col in 0..size {
                let (end_row, end_col) = (row + dr * (k - 1), col + dc * (k - 1));
                if !(0..size).contains(&end_row) || !(0..size).contains(&end_col) {
                    continue;
                }
                let mut count = 0;
                let mut open = true;
                for i in 0..k {
                    let field = ((row + dr * i) * size + col + dc * i) as usize;
                    match game.cell(field) {
                        0 => {}
                        c if c == own => count += 1,
                        _ => {
                            open = false;
                            break;
                        }
                    }
                }
                if open && count > 0 {
                    score += 1 << (2 * count).min(24);
                }
            }
        }
    }
    score
}

/// Candidate moves for the search, and the forced ones when threats are on the board.
pub(super) fn candidates(game: &Gomoku, moves: &mut Vec<Move>) {
    moves.clear();
    if game.outcome().is_some() {
        return;
    }
    if !game.has_patterns() || game.stones(Side::Black) + game.stones(Side::White) == 0 {
        game.generate_moves(moves);
        if game.stones(Side::Black) + game.stones(Side::White) == 0 && moves.len() > 1 {
            let centre = Move::new((game.size() / 2 * game.size() + game.size() / 2) as u16);
            moves.clear();
            moves.push(centre);
        }
        return;
    }
    let me = game.side_to_move();
    let them = me.opponent();
    let pente = game.config.family == Family::Pente;
    let mut extra = Vec::new();
    if game.threat_count(me, Threat::Five) > 0 {
        game.threat_fields(me, Threat::Five, moves);
        moves.truncate(1);
        return;
    }
    if game.threat_count(them, Threat::Five) > 0 {
        game.threat_fields(them, Threat::Five, moves);
        if pente {
            add_captures(game, moves);
        }
        moves.retain(|&mv| game.is_legal(mv));
        if !moves.is_empty() {
            return;
        }
    } else if !pente && game.has_open_four(me) {
        game.open_four_fields(me, moves);
        moves.truncate(1);
        return;
    } else if game.has_open_four(them) && game.threat_count(me, Threat::Four) == 0 {
        // Against a three: block where it would become a four, or counter with a four.
        game.threat_fields(them, Threat::Four, moves);
        game.threat_fields(me, Threat::Four, &mut extra);
        moves.append(&mut extra);
        if pente {
            add_captures(game, moves);
        }
        moves.sort_unstable();
        moves.dedup();
        moves.retain(|&mv| game.is_legal(mv));
        if !moves.is_empty() {
            return;
        }
    }
    moves.clear();
    for field in game.busy_fields(2) {
        if game.is_near_stone(field) {
            let mv = Move::new(field as u16);
            if game.is_legal(mv) {
                moves.push(mv);
            }
        }
    }
    if moves.is_empty() {
        game.generate_moves(moves);
    }
}

/// `ln(depth) * ln(index + 1)`, rounded: how many plies late moves lose (table lookup).
fn late_move_reduction(depth: u32, index: usize) -> u32 {
    const DEPTHS: usize = 64;
    const INDICES: usize = 64;
    static TABLE: LazyLock<Vec<u8>> = LazyLock::new(|| {
        let mut table = vec![0u8; DEPTHS * INDICES];
        for depth in 1..DEPTHS {
            for index in 0..INDICES {
                let plies = (depth as f64).ln() * ((index + 1) as f64).ln();
                table[depth * INDICES + index] = plies.round() as u8;
            }
        }
        table
    });
    let depth = (depth as usize).min(DEPTHS - 1);
    let index = index.min(INDICES - 1);
    TABLE[depth * INDICES + index] as u32
}

/// Keeps the `count` moves of highest `point_key`, best first (ties by field): each key
/// computed once, the best selected rather than the whole list sorted.
fn keep_best(game: &Gomoku, moves: &mut Vec<Move>, count: usize) {
    const MAX_RANKED: usize = 512;
    if moves.len() > MAX_RANKED {
        moves.sort_by_key(|&mv| (std::cmp::Reverse(game.point_key(mv)), mv.square()));
        moves.truncate(count);
        return;
    }
    // Highest key first, then lowest field: ascending order of the packed words.
    let mut ranked = [0u64; MAX_RANKED];
    let ranked = &mut ranked[..moves.len()];
    for (word, &mv) in ranked.iter_mut().zip(moves.iter()) {
        let key = (game.point_key(mv) as i64 - i32::MIN as i64) as u64;
        *word = (u32::MAX as u64 - key) << 32 | mv.square() as u64;
    }
    ranked.select_nth_unstable(count - 1);
    let best = &mut ranked[..count];
    best.sort_unstable();
    moves.clear();
    moves.extend(best.iter().map(|&word| Move::new(word as u16)));
}

/// Appends the side to move's capturing moves (Pente).
pub(super) fn add_captures(game: &Gomoku, moves: &mut Vec<Move>) {
    for field in game.busy_fields(3) {
        if game.cell(field) == 0 && game.capture_mask(field) != 0 {
            moves.push(Move::new(field as u16));
        }
    }
    moves.sort_unstable();
    moves.dedup();
}

impl Gomoku {
    /// Whether a stone on `mv` makes or stops an open three or better.
    fn is_threat_point(&self, mv: Move) -> bool {
        let me = self.side_to_move();
        let field = mv.square();
        self.threat(me, field) >= Threat::OpenThree
            || self.threat(me.opponent(), field) >= Threat::OpenThree
    }

    /// What `mv`'s point is worth to the side to move and, a little less, to the
    /// other side: the search's move order and its choice of candidates.
    pub(super) fn point_key(&self, mv: Move) -> i32 {
        if !self.has_patterns() {
            return 0;
        }
        let field = mv.square();
        let me = self.side_to_move();
        let mut key = self.value(me, field) * 3 / 2 + self.value(me.opponent(), field);
        if self.config.family == Family::Pente {
            key += 400 * self.capture_mask(field).count_ones() as i32;
        }
        key
    }

    /// What having the move is worth to `me`: by the strongest threat it can make now.
    /// About what a stone adds to its side's potential, so that leaves with either side
    /// to move score alike (scores at odd and even depths agree).
    fn tempo(&self, me: Side) -> Score {
        WEIGHTS.tempo[self.best_threat(me) as usize]
    }

    /// The strongest threat `side` could make with its next stone.
    fn best_threat(&self, side: Side) -> Threat {
        (1..9)
            .rev()
            .find(|&threat| self.threat_count[side.index()][threat] > 0)
            .map_or(Threat::None, |threat| threat_from_u8(threat as u8))
    }

    /// Which threat classes stand on the board, a bit each: the opponent's five, open
    /// four, four-three, four, double three and open three, and the side to move's open
    /// four, four-three, four, double three and open three.
    pub fn threat_mask(&self) -> usize {
        let me = self.side_to_move().index();
        let them = 1 - me;
        let has = |c: usize, t: Threat| (self.threat_count[c][t as usize] > 0) as usize;
        has(them, Threat::Five)
            | has(me, Threat::OpenFour) << 1
            | has(them, Threat::OpenFour) << 2
            | has(me, Threat::FourThree) << 3
            | has(me, Threat::Four) << 4
            | has(me, Threat::DoubleThree) << 5
            | has(me, Threat::OpenThree) << 6
            | has(them, Threat::FourThree) << 7
            | has(them, Threat::Four) << 8
            | has(them, Threat::DoubleThree) << 9
            | has(them, Threat::OpenThree) << 10
    }

    /// The combination terms that apply (`threat_terms`), summed.
    fn terms_score(&self, me: Side) -> Score {
        let terms = self.threat_terms(me);
        (0..4).filter(|&i| terms[i]).map(|i| WEIGHTS.terms[i]).sum()
    }

    /// Combination threats one move away: the side to move may play its own; the
    /// opponent's must be stopped now unless the side to move can force with a four.
    /// Which of `Weights::terms` apply.
    fn threat_terms(&self, me: Side) -> [bool; 4] {
        let them = me.opponent();
        // `threat_count` counts points of a class or stronger; a double three is a
        // class of its own, below the fours.
        let count = |side, threat| self.threat_count(side, threat) > 0;
        let double_three =
            |side: Side| self.threat_count[side.index()][Threat::DoubleThree as usize] > 0;
        let own_four_three = count(me, Threat::FourThree);
        let own_double_three = !own_four_three && double_three(me) && !count(them, Threat::Four);
        // One block stops a single combination point, at the cost of the tempo. (Open
        // threes are answered in the move generation.)
        let unforced = !count(me, Threat::Four);
        let their_four_three = unforced && count(them, Threat::FourThree);
        let their_double_three = unforced && !their_four_three && double_three(them);
        [
            own_four_three,
            own_double_three,
            their_four_three,
            their_double_three,
        ]
    }
}

impl Evaluate for Gomoku {
    fn evaluate(&self) -> Score {
        let me = self.side_to_move();
        let them = me.opponent();
        if !self.has_patterns() {
            return static_score(self, me).clamp(-MAX_EVAL, MAX_EVAL);
        }
        if self.threat_count(me, Threat::Five) > 0 {
            return SURE_WIN;
        }
        let pente = self.config.family == Family::Pente;
        if !pente {
            let their_fives = self.threat_count(them, Threat::Five);
            if their_fives >= 2 {
                return -SURE_WIN;
            }
            if their_fives == 0 && self.has_open_four(me) {
                return SURE_WIN - 1;
            }
        }
        // The side to move gets to use its threats first: its best move's class is worth
        // a tempo, a bounded bonus so that scores agree between odd and even depths.
        let tempo = self.tempo(me);
        if pente {
            let [mine, theirs] = capture_threats(self);
            let score = self.potential(me) - self.potential(them)
                + tempo
                + capture_score(self.captures(me))
                - capture_score(self.captures(them))
                + 60 * mine
                - 40 * theirs;
            return score.clamp(-MAX_EVAL, MAX_EVAL);
        }
        let mut score = self.role_potential(me, true) - self.role_potential(them, false)
            + tempo
            + threat_values()[self.threat_mask()];
        if self.threat_count(them, Threat::Five) == 0 {
            score += self.terms_score(me);
        }
        score.clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn final_score(&self) -> Score {
        match self.outcome().and_then(|outcome| outcome.winner) {
            Some(winner) if winner == self.side_to_move() => WIN,
            Some(_) => -WIN,
            None => 0,
        }
    }

    /// Fewer as own stones accumulate, and never more than the empty points allow.
    fn moves_left(&self) -> u32 {
        let own = self.stones(self.side_to_move());
        let expected = if self.config.k >= 5 {
            EXPECTED_MOVES.saturating_sub(own).max(MIN_MOVES_LEFT)
        } else {
            u32::MAX
        };
        expected.min(self.empties().div_ceil(2)).max(1)
    }

    /// A four to block, or an open three when the side to move has no four to play first.
    fn must_answer(&self) -> bool {
        let (me, them) = (self.side_to_move(), self.side_to_move().opponent());
        self.reply_is_forced()
            || (self.config.family == Family::Gomoku
                && self.threat_count(me, Threat::Four) == 0
                && self.has_open_four(them))
    }

    fn reply_is_forced(&self) -> bool {
        let (me, them) = (self.side_to_move(), self.side_to_move().opponent());
        self.config.family == Family::Gomoku
            && self.threat_count(me, Threat::Five) == 0
            && self.threat_count(them, Threat::Five) > 0
    }

    fn quiesce(&mut self, alpha: Score, beta: Score, ply: usize, nodes: &mut u64) -> Score {
        if self.config.family == Family::Gomoku && self.has_patterns() {
            quiesce::quiesce(
                self,
                alpha,
                beta,
                ply,
                quiesce::QUIESCE_FOURS,
                [None; 2],
                nodes,
            )
        } else {
            self.evaluate()
        }
    }

    /// Gomoku, from the third move on at depth 2 and more: `ln(depth) * ln(index + 1)`
    /// plies, rounded, for every move but a four (open threes too); at least one ply,
    /// and two from the sixth move at depth 4, for a move that neither makes nor stops
    /// an open three. Where a four or an open three must be answered, only that floor.
    fn reduction(&self, mv: Move, index: usize, depth: u32) -> u32 {
        if self.config.family != Family::Gomoku || index < 2 || depth < 2 {
            return 0;
        }
        let quiet = !self.is_threat_point(mv);
        let floor = match (quiet, index >= 5 && depth >= 4) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        if self.must_answer() || self.threat(self.side_to_move(), mv.square()).is_four() {
            return floor;
        }
        late_move_reduction(depth, index).max(floor)
    }

    fn search_moves(&self, moves: &mut Vec<Move>) {
        candidates(self, moves);
        if moves.len() > SEARCH_CANDIDATES && self.config.family == Family::Gomoku {
            // Below the root only the points that matter most to either side are searched.
            keep_best(self, moves, SEARCH_CANDIDATES);
        }
    }

    fn order_key(&self, mv: Move, _depth: u32) -> i32 {
        self.point_key(mv)
    }

    fn root_moves(&self, moves: &mut Vec<Move>, stop: &Stop) {
        candidates(self, moves);
        if moves.len() > 1 && self.has_threat_solver() {
            threat::keep_defences(self, moves, stop);
        }
    }
}

impl Solve for Gomoku {
    type SolverTable = ExactTable;

    fn solver_table(&self, bytes: usize) -> Result<ExactTable, String> {
        ExactTable::try_new(bytes, self.size() * self.size())
    }

    fn clear_solver_table(table: &mut ExactTable) {
        table.clear();
    }

    fn set_solver_threads(table: &mut ExactTable, threads: usize) {
        table.set_threads(threads);
    }

    fn has_exact_solver(&self) -> bool {
        self.size() * self.size() <= EXACT_POINTS && self.has_patterns()
    }

    fn exact_size(&self) -> Option<u32> {
        let points = self.size() * self.size();
        let fits = points <= 16 || (points <= EXACT_POINTS && self.empties() <= EXACT_EMPTIES);
        (fits && self.has_patterns()).then(|| self.empties())
    }

    fn solve_exact(&self, table: &mut ExactTable, stop: &Stop) -> Option<Proof> {
        exact::solve(self, table, stop)
    }

    fn solve_window(
        &self,
        table: &mut ExactTable,
        alpha: Score,
        beta: Score,
        stop: &Stop,
    ) -> (Option<Score>, u64) {
        exact::solve_window(self, table, alpha, beta, stop)
    }

    fn has_threat_solver(&self) -> bool {
        self.has_patterns() && self.config.k == 5
    }

    fn threat_win(&self, stop: &Stop) -> Option<Proof> {
        threat::find_win(self, stop)
    }
}

impl Scoring for Gomoku {
    fn score_value(&self, score: Score, exact: bool) -> ScoreValue {
        match ScoreValue::from_win_distance(score) {
            Some(value) => value,
            None if exact && score == 0 => ScoreValue::Draw,
            None => ScoreValue::Eval {
                value: score,
                per_unit: 1,
            },
        }
    }
}
