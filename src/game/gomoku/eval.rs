//! The k-in-a-row games' evaluation: the hand-set weights (the move order's point values,
//! the tempo and the combination terms), the features the fitted tables of `eval_table`
//! score, and the window count for boards beyond the pattern tables.

use std::sync::LazyLock;

use super::pattern::{Pattern, PointClass, Threat};
use super::{Family, Gomoku, eval_table, eval_table_renju, threat_from_u8};
use crate::game::roles::{Evaluate, Score};
use crate::game::{Game, Side};

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

/// arbor's score scale: `sigmoid(score / EVAL_SCALE)` is the side to move's chance to
/// win. `arbor tune --game gomoku` once fitted it to game results with the freestyle
/// tables of 2d13120; every fit now keeps it (both rules' tables), so that a score means
/// the same whatever the tables (the search's margins, Swap2, selfplay's scores).
pub const EVAL_SCALE: f64 = 948.0;

/// How many values `Gomoku::threat_mask` takes (11 bits).
pub const THREAT_MASKS: usize = 1 << 11;

/// The shipped threat corrections of a rule (`eval_table` or, under renju,
/// `eval_table_renju`) spread over every mask, by the side to move's colour under renju.
pub(super) fn threat_values(renju: bool) -> &'static [Score] {
    fn spread(values: &[(u16, i16)], colours: usize) -> Vec<Score> {
        let mut table = vec![0; THREAT_MASKS * colours];
        for &(mask, value) in values {
            table[mask as usize] = value as Score;
        }
        table
    }
    static FREESTYLE: LazyLock<Vec<Score>> = LazyLock::new(|| spread(eval_table::THREAT_VALUES, 1));
    static RENJU: LazyLock<Vec<Score>> =
        LazyLock::new(|| spread(eval_table_renju::THREAT_VALUES, 2));
    if renju { &RENJU } else { &FREESTYLE }
}

/// The shipped point values of a rule, by `PointClass` (under renju Black's classes,
/// then White's).
pub(super) fn point_values(renju: bool) -> &'static [[i16; 2]] {
    if renju {
        &eval_table_renju::POINT_VALUES
    } else {
        &eval_table::POINT_VALUES
    }
}

/// The tables `arbor tune --game gomoku` fits, as numbers: by `PointClass`, a point's
/// value to the side to move and to the other side; by threat mask, a correction. Under
/// renju each comes twice, by colour (Black's first): the class's colour for the point
/// values, the side to move's for the corrections (`Features` index them so).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTables {
    pub points: Vec<[f64; 2]>,
    pub threats: Vec<f64>,
}

impl EvalTables {
    /// The tables the engine plays with under the rule.
    pub fn shipped(renju: bool) -> EvalTables {
        EvalTables {
            points: point_values(renju)
                .iter()
                .map(|v| v.map(|x| x as f64))
                .collect(),
            threats: threat_values(renju).iter().map(|&v| v as f64).collect(),
        }
    }

    /// What the fit starts from: the move order's point values (`point_value`) for
    /// both roles (and both colours under renju), no threat corrections.
    pub fn hand_set(renju: bool) -> EvalTables {
        let colours = if renju { 2 } else { 1 };
        EvalTables {
            points: (0..PointClass::COUNT * colours)
                .map(|index| {
                    let patterns = PointClass((index % PointClass::COUNT) as u16).patterns();
                    [point_value(patterns, Threat::from_patterns(patterns)) as f64; 2]
                })
                .collect(),
            threats: vec![0.0; THREAT_MASKS * colours],
        }
    }

    /// Whether these are renju tables (by colour).
    pub fn renju(&self) -> bool {
        self.points.len() > PointClass::COUNT
    }

    /// `src/game/gomoku/eval_table.rs` (`eval_table_renju.rs` for renju tables) holding
    /// these tables (rounded): what `arbor tune --game gomoku` writes.
    pub fn source(&self, provenance: &str) -> String {
        let rounded = |v: f64| v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let mut out = String::from(
            "//! The evaluation's fitted tables, written by `arbor tune --game gomoku`.\n",
        );
        for line in provenance.lines() {
            out += &format!("//! {line}\n");
        }
        out += "\nuse super::pattern::PointClass;\n\n";
        let (length, threat_index) = if self.renju() {
            out +=
                "/// By `PointClass`, Black's then White's: a point's value to the side to move,\n";
            out += "/// and to the other side.\n";
            (
                "2 * PointClass::COUNT",
                "`Gomoku::threat_mask` + 2^11 if White is to move",
            )
        } else {
            out += "/// By `PointClass`: a point's value to the side to move, and to the other side.\n";
            ("PointClass::COUNT", "`Gomoku::threat_mask`")
        };
        out += "#[rustfmt::skip]\n";
        out += &format!("pub const POINT_VALUES: [[i16; 2]; {length}] = [\n");
        for (index, values) in self.points.iter().enumerate() {
            let patterns = PointClass((index % PointClass::COUNT) as u16).patterns();
            let [mover, other] = values.map(rounded);
            out += &format!("    [{mover}, {other}], // {patterns:?}\n");
        }
        out += "];\n\n";
        out += &format!("/// By {threat_index}, the masks whose correction is not zero.\n");
        out += "#[rustfmt::skip]\n";
        out += "pub const THREAT_VALUES: &[(u16, i16)] = &[\n";
        // `0b` and a digit a bit of the index.
        let width = 2 + (self.threats.len() - 1).max(1).ilog2() as usize + 1;
        for (mask, value) in self.threats.iter().enumerate() {
            let value = rounded(*value);
            if value != 0 {
                out += &format!("    ({mask:#0width$b}, {value}),\n");
            }
        }
        out += "];\n";
        out
    }
}

/// A quiet position's evaluation as a linear function of `EvalTables`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// Empty points by class for the side to move, and for the other side: (class, count),
    /// the class's index in `EvalTables::points` (under renju, after the other colour's).
    pub mover: Vec<(u16, u16)>,
    pub other: Vec<(u16, u16)>,
    /// The index in `EvalTables::threats` (under renju, after Black's if White moves).
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
        // Under renju the tables come by colour: the class's, and the side to move's.
        let listed = |role: usize, side: Side| {
            let offset = self.colour_offset(side, PointClass::COUNT);
            (counts.iter().enumerate())
                .filter(|&(class, n)| class > 0 && n[role] > 0)
                .map(|(class, n)| ((class + offset) as u16, n[role]))
                .collect()
        };
        Some(Features {
            mover: listed(0, me),
            other: listed(1, them),
            threat_mask: (self.threat_mask() + self.colour_offset(me, THREAT_MASKS)) as u16,
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
pub(super) fn capture_score(pairs: u8) -> Score {
    [0, 150, 350, 650, 1200, 0][pairs.min(5) as usize]
}

/// Pente: pairs each side could capture next move (`[side to move, other]`).
pub(super) fn capture_threats(game: &Gomoku) -> [i32; 2] {
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

impl Gomoku {
    /// What having the move is worth to `me`: by the strongest threat it can make now.
    /// About what a stone adds to its side's potential, so that leaves with either side
    /// to move score alike (scores at odd and even depths agree).
    pub(super) fn tempo(&self, me: Side) -> Score {
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

    /// Where `side`'s part starts in an evaluation table of `count` entries a colour:
    /// under renju the tables come by colour, Black's first; otherwise one part serves
    /// both colours.
    pub(super) fn colour_offset(&self, side: Side, count: usize) -> usize {
        if self.config.renju {
            side.index() * count
        } else {
            0
        }
    }

    /// The shipped correction for the threats on the board, `me` to move.
    pub(super) fn threat_correction(&self, me: Side) -> Score {
        threat_values(self.config.renju)[self.threat_mask() + self.colour_offset(me, THREAT_MASKS)]
    }

    /// The combination terms that apply (`threat_terms`), summed.
    pub(super) fn terms_score(&self, me: Side) -> Score {
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
