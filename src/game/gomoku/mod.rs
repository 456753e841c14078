//! The k-in-a-row family: Gomoku (freestyle or exact five), Pente (Gomoku with pair
//! captures) and n×n tic-tac-toe, one board type with the rule as data.
//!
//! The board is a padded array (a wall of [`pattern::RADIUS`] points on every side) so
//! line walks need no bounds checks. For k up to 5 every empty point keeps per-direction
//! pattern keys and its threat class for both colours, updated as stones come and go; the
//! evaluation, the move generator and the threat solver read them without rescanning.

mod candidates;
pub mod dataset;
mod eval;
mod eval_table;
mod eval_table_renju;
mod exact;
pub mod pattern;
pub mod policy;
mod quiesce;
mod renju;
mod search;
pub mod threat;

use std::fmt::{self, Write as _};
use std::ops::RangeInclusive;
use std::sync::LazyLock;

use self::pattern::{EMPTY, Pattern, PatternTable, PointClass, RADIUS, Threat, WALL, slot};
use super::notation::{self, Point};
use super::{Game, GameError, Move, Outcome, Side};
use crate::text::quote;

pub use self::eval::{EVAL_SCALE, EvalTables, Features, THREAT_MASKS, WEIGHTS, Weights};
pub use self::policy::PolicyTables;
pub use self::search::WIN;

/// Which game of the family, with its own options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Gomoku,
    Pente,
    TicTacToe,
}

/// Where the first stones may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// Black's first stone on the centre point (odd sizes).
    Center,
    /// Pente's tournament rule: the centre first, Black's second stone at least three
    /// points from it.
    Tournament,
    Free,
}

impl Opening {
    pub fn name(self) -> &'static str {
        match self {
            Opening::Center => "center",
            Opening::Tournament => "tournament",
            Opening::Free => "free",
        }
    }
}

/// A game of the family: what `newgame` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub family: Family,
    pub size: usize,
    /// Stones in a row that win.
    pub k: usize,
    /// Exactly k wins; a longer line does not.
    pub exact: bool,
    /// The renju rule (Gomoku): Black wins with exactly five and may not play a
    /// forbidden point (overline, double four, double three); White wins with five or
    /// more. `exact` stays false: it is White's rule.
    pub renju: bool,
    pub opening: Opening,
}

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 99;
/// Pairs captured that win at Pente.
pub const CAPTURE_WIN: u8 = 5;

impl Config {
    pub fn gomoku(size: usize, exact: bool, opening: Opening) -> Config {
        Config {
            family: Family::Gomoku,
            size,
            k: 5,
            exact,
            renju: false,
            opening,
        }
    }

    /// Gomoku under the renju rule.
    pub fn renju(size: usize, opening: Opening) -> Config {
        Config {
            renju: true,
            ..Config::gomoku(size, false, opening)
        }
    }

    /// Whether only exactly k in a row wins for `side`.
    #[inline]
    pub fn exact_for(&self, side: Side) -> bool {
        self.exact || (self.renju && side == Side::Black)
    }

    /// The rule's name as `newgame` takes it (`freestyle`, `exact`, `renju`).
    pub fn rule_name(&self) -> &'static str {
        if self.renju {
            "renju"
        } else if self.exact {
            "exact"
        } else {
            "freestyle"
        }
    }

    pub fn pente(size: usize, opening: Opening) -> Config {
        Config {
            family: Family::Pente,
            size,
            k: 5,
            exact: false,
            renju: false,
            opening,
        }
    }

    pub fn tictactoe(size: usize, k: usize) -> Config {
        Config {
            family: Family::TicTacToe,
            size,
            k,
            exact: false,
            renju: false,
            opening: Opening::Free,
        }
    }

    pub fn name(&self) -> &'static str {
        match self.family {
            Family::Gomoku => "gomoku",
            Family::Pente => "pente",
            Family::TicTacToe => "tictactoe",
        }
    }

    /// Checks sizes and option combinations.
    pub fn validate(&self) -> Result<(), GameError> {
        let (low, high) = match self.family {
            Family::TicTacToe => (3, MAX_SIZE),
            _ => (MIN_SIZE, MAX_SIZE),
        };
        if !(low..=high).contains(&self.size) {
            return Err(GameError::Variant(format!(
                "{} size must be {low} to {high}, not {}",
                self.name(),
                self.size
            )));
        }
        if !(3..=self.size).contains(&self.k) {
            return Err(GameError::Variant(format!(
                "k must be 3 to the board size {}, not {}",
                self.size, self.k
            )));
        }
        if self.opening != Opening::Free && self.size.is_multiple_of(2) {
            return Err(GameError::Variant(format!(
                "opening={} needs an odd size (a centre point); use opening=free on {}x{}",
                self.opening.name(),
                self.size,
                self.size
            )));
        }
        if self.renju && (self.family != Family::Gomoku || self.k != 5 || self.exact) {
            return Err(GameError::Variant(
                "rule=renju is a gomoku rule (five in a row)".to_string(),
            ));
        }
        if self.opening == Opening::Tournament && self.family != Family::Pente {
            return Err(GameError::Variant(
                "opening=tournament is a pente rule".to_string(),
            ));
        }
        // Black's second stone must go 3 points from the centre: a 5x5 board has none,
        // and Black could neither move nor pass.
        if self.opening == Opening::Tournament && self.size < 7 {
            return Err(GameError::Variant(format!(
                "opening=tournament needs a board of at least 7x7 (Black's second stone goes 3 points from the centre), not {}x{}",
                self.size, self.size
            )));
        }
        Ok(())
    }

    fn captures(&self) -> bool {
        self.family == Family::Pente
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.family {
            Family::Gomoku => write!(
                f,
                "gomoku size={} rule={} opening={}",
                self.size,
                self.rule_name(),
                self.opening.name()
            ),
            Family::Pente => write!(
                f,
                "pente size={} opening={}",
                self.size,
                self.opening.name()
            ),
            Family::TicTacToe => write!(f, "tictactoe size={} k={}", self.size, self.k),
        }
    }
}

/// Stone colours as board codes.
#[inline]
fn colour(side: Side) -> u8 {
    side.index() as u8 + 1
}

const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist key of a stone: computed, not tabled, since boards go up to 99x99.
#[inline]
fn stone_key(side: Side, field: usize) -> u64 {
    splitmix64(0x6f6d_6f6b_0000_0000 ^ (field as u64) << 1 ^ side.index() as u64)
}

fn capture_key(side: Side, pairs: u8) -> u64 {
    splitmix64(0x7065_6e74_6500_0000 ^ (pairs as u64) << 1 ^ side.index() as u64)
}

const SIDE_KEY: u64 = splitmix64(0x5eed_0000_0000_0002);

/// Rows and columns the stones have reached, for scanning only the busy part of big boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    pub rows: (u8, u8),
    pub cols: (u8, u8),
}

impl Extent {
    const NONE: Extent = Extent {
        rows: (u8::MAX, 0),
        cols: (u8::MAX, 0),
    };

    fn include(&mut self, row: usize, col: usize) {
        self.rows = (self.rows.0.min(row as u8), self.rows.1.max(row as u8));
        self.cols = (self.cols.0.min(col as u8), self.cols.1.max(col as u8));
    }

    fn is_empty(&self) -> bool {
        self.rows.0 > self.rows.1
    }
}

/// What `unmake` needs: the pairs the move captured (one bit per direction) and the
/// extent before it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    extent: Extent,
}

/// Per-point threat bookkeeping: both colours' threat and values on an empty point, and
/// the packed pattern bytes of its four lines they were combined from.
#[derive(Clone, Copy, Debug, Default)]
struct PointInfo {
    /// By colour (0 black, 1 white); all zero on an occupied point.
    colours: [Combined; 2],
    /// One byte per direction (`d` at bits `8d`), kept in a word so that changing one
    /// line's byte and reading all four stays in a register.
    lines: u32,
}

/// One colour's threat and values on a point, as combined from its four lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Combined {
    threat: u8,
    /// The point's `PointClass` for this colour (the move policy's feature).
    class: u16,
    /// The move order's value of a stone there (`eval::point_value`).
    value: i16,
    /// The evaluation's value of the point (`eval::point_values`): as the side to
    /// move's point (`[0]`) and as the other side's (`[1]`).
    role_value: [i16; 2],
}

/// A point's threat and values for one colour from its four lines' patterns, indexed by
/// the patterns in base 9 (6,561 entries): a stone changes one line of each neighbour,
/// and the combination is then one lookup, of one 8-byte entry.
struct Combination {
    entries: Vec<Combined>,
}

impl Combination {
    /// The table whose role values are `points` (by `PointClass`).
    fn build(points: &[[i16; 2]]) -> Combination {
        let entries = (0..Pattern::COUNT.pow(4))
            .map(|index| {
                let patterns = [0, 1, 2, 3].map(|d| {
                    Pattern::from_u8((index / Pattern::COUNT.pow(d) % Pattern::COUNT) as u8)
                });
                let threat = Threat::from_patterns(patterns);
                let class = PointClass::of(patterns).0;
                Combined {
                    threat: threat as u8,
                    class,
                    value: eval::point_value(patterns, threat),
                    role_value: points[class as usize],
                }
            })
            .collect();
        Combination { entries }
    }

    /// The tables of Black's points and of White's under the rule: the same one but
    /// under renju, whose evaluation values the colours apart.
    fn by_colour(renju: bool) -> [&'static Combination; 2] {
        static FREESTYLE: LazyLock<Combination> =
            LazyLock::new(|| Combination::build(eval::point_values(false)));
        static RENJU: LazyLock<[Combination; 2]> = LazyLock::new(|| {
            let (black, white) = eval::point_values(true).split_at(PointClass::COUNT);
            [Combination::build(black), Combination::build(white)]
        });
        if renju {
            let [black, white] = &*RENJU;
            [black, white]
        } else {
            [&FREESTYLE, &FREESTYLE]
        }
    }

    /// One colour's index from four packed line bytes (`shift` 0 black, 4 white).
    #[inline]
    fn index(lines: u32, shift: u32) -> usize {
        let p = |d: u32| ((lines >> (8 * d + shift)) & 15) as usize;
        p(0) + Pattern::COUNT * (p(1) + Pattern::COUNT * (p(2) + Pattern::COUNT * p(3)))
    }
}

#[derive(Clone)]
pub struct Gomoku {
    config: Config,
    stride: usize,
    /// Padded board: `EMPTY`, 1 black, 2 white, `WALL`.
    cells: Vec<u8>,
    /// Pattern keys per padded point and direction (empty when k > 5).
    keys: Vec<[u32; 4]>,
    info: Vec<PointInfo>,
    table: Option<&'static PatternTable>,
    /// Stones within two points (Chebyshev), for candidate moves.
    near: Vec<u8>,
    side: Side,
    /// Moves made since the start (stones on the board after `setboard`).
    ply: u32,
    stones: [u32; 2],
    captures: [u8; 2],
    outcome: Option<Outcome>,
    /// Why the game ended, for `status`.
    ending: Ending,
    hash: u64,
    extent: Extent,
    /// `[colour][threat]`: empty points where that colour's stone would make that threat.
    threat_count: [[u16; 9]; 2],
    /// Sum of point values per colour: the Pente evaluation's main term.
    potential: [i32; 2],
    /// Sum of `Combined::role_value` per colour and role: the Gomoku evaluation's.
    role_potential: [[i32; 2]; 2],
    /// The point combinations (with the evaluation's values) of Black and of White.
    combination: [&'static Combination; 2],
    /// Every point info replaced since the position was set up, before the change:
    /// `unmake` puts them back instead of recomputing the lines.
    changes: Vec<(u32, PointInfo)>,
    /// Per move made, where its changes start and the totals before it.
    marks: Vec<Mark>,
}

/// What `unmake` restores: the changes to undo (`changes` from `first_change` on) and the
/// threat counts and potentials from before the move.
#[derive(Clone, Copy, Debug)]
struct Mark {
    /// The move's field.
    field: u16,
    first_change: usize,
    threat_count: [[u16; 9]; 2],
    potential: [i32; 2],
    role_potential: [[i32; 2]; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    None,
    Line,
    Captures,
    Full,
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} to move\n{}",
            self.config,
            self.side,
            self.diagram()
        )
    }
}

/// Direction offsets on the padded board: right, down, down-right, down-left.
#[inline]
fn directions(stride: usize) -> [isize; 4] {
    let s = stride as isize;
    [1, s, s + 1, s - 1]
}

impl Gomoku {
    pub fn new(config: Config) -> Result<Gomoku, GameError> {
        config.validate()?;
        let stride = config.size + 2 * RADIUS;
        let table = (config.k <= 5).then(|| {
            if config.renju {
                PatternTable::renju()
            } else {
                PatternTable::get(config.k, config.exact)
            }
        });
        let mut cells = vec![WALL; stride * stride];
        for row in 0..config.size {
            for col in 0..config.size {
                cells[(row + RADIUS) * stride + col + RADIUS] = EMPTY;
            }
        }
        let mut game = Gomoku {
            config,
            stride,
            cells,
            keys: Vec::new(),
            info: vec![PointInfo::default(); stride * stride],
            table,
            near: vec![0; stride * stride],
            side: Side::Black,
            ply: 0,
            stones: [0; 2],
            captures: [0; 2],
            outcome: None,
            ending: Ending::None,
            hash: 0,
            extent: Extent::NONE,
            threat_count: [[0; 9]; 2],
            potential: [0; 2],
            role_potential: [[0; 2]; 2],
            combination: Combination::by_colour(config.renju),
            changes: Vec::new(),
            marks: Vec::new(),
        };
        if let Some(table) = table {
            game.keys = vec![[0; 4]; stride * stride];
            let dirs = directions(stride);
            // Keys hold the slots the table reads: the end ones stay empty without the
            // exact rule.
            let reach = table.reach() as isize;
            for point in game.board_points() {
                for (d, &dir) in dirs.iter().enumerate() {
                    let mut key = 0u32;
                    for offset in (-reach..=reach).filter(|&o| o != 0) {
                        let code = game.cells[(point as isize + offset * dir) as usize];
                        key |= (code as u32) << (2 * slot(offset));
                    }
                    game.keys[point][d] = key;
                }
                game.refresh(point);
            }
            game.changes.clear();
        }
        Ok(game)
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// Pairs captured by `side` (Pente).
    pub fn captures(&self, side: Side) -> u8 {
        self.captures[side.index()]
    }

    pub fn stones(&self, side: Side) -> u32 {
        self.stones[side.index()]
    }

    pub fn empties(&self) -> u32 {
        (self.config.size * self.config.size) as u32 - self.stones[0] - self.stones[1]
    }

    fn board_points(&self) -> impl Iterator<Item = usize> + use<> {
        let (size, stride) = (self.config.size, self.stride);
        (0..size * size).map(move |field| (field / size + RADIUS) * stride + field % size + RADIUS)
    }

    #[inline]
    fn point(&self, field: usize) -> usize {
        let size = self.config.size;
        (field / size + RADIUS) * self.stride + field % size + RADIUS
    }

    #[inline]
    fn field(&self, point: usize) -> usize {
        (point / self.stride - RADIUS) * self.config.size + point % self.stride - RADIUS
    }

    /// The stone (1 black, 2 white) or `EMPTY` on a field.
    #[inline]
    pub fn cell(&self, field: usize) -> u8 {
        self.cells[self.point(field)]
    }

    /// Whether pattern bookkeeping (threats, potentials) is kept: k up to 5.
    #[inline]
    pub fn has_patterns(&self) -> bool {
        self.table.is_some()
    }

    /// The threat a stone of `side` on the empty `field` would make.
    #[inline]
    pub fn threat(&self, side: Side, field: usize) -> Threat {
        threat_from_u8(self.info[self.point(field)].colours[side.index()].threat)
    }

    /// The line patterns a stone of `side` on `field` would make, by direction (all
    /// `Dead` on an occupied field).
    #[inline]
    pub fn patterns(&self, side: Side, field: usize) -> [Pattern; 4] {
        let shift = 4 * side.index();
        let lines = self.info[self.point(field)].lines;
        [0, 1, 2, 3].map(|d| Pattern::from_u8(((lines >> (8 * d + shift)) & 15) as u8))
    }

    /// How valuable the empty `field` is for `side` (its patterns' weights).
    #[inline]
    /// The `PointClass` of a stone of `side` on the empty `field` (0 when occupied).
    pub fn class(&self, side: Side, field: usize) -> PointClass {
        PointClass(self.info[self.point(field)].colours[side.index()].class)
    }

    /// The last `N` moves made in this game (not stones set up), the latest first.
    pub fn recent_moves<const N: usize>(&self) -> [Option<Move>; N] {
        std::array::from_fn(|i| {
            (self.marks.len().checked_sub(i + 1)).map(|at| Move::new(self.marks[at].field))
        })
    }

    pub fn value(&self, side: Side, field: usize) -> i32 {
        self.info[self.point(field)].colours[side.index()].value as i32
    }

    /// Empty points where `side` would make at least `threat` (above `Threat::None`).
    pub fn threat_count(&self, side: Side, threat: Threat) -> u32 {
        self.threat_count[side.index()][threat as usize..]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }

    pub fn potential(&self, side: Side) -> i32 {
        self.potential[side.index()]
    }

    /// The evaluation's sum over `side`'s points, valued as the side to move's (`mover`)
    /// or as the other side's.
    pub fn role_potential(&self, side: Side, mover: bool) -> i32 {
        self.role_potential[side.index()][!mover as usize]
    }

    /// The rows and columns of the stones' extent widened by `margin`.
    fn busy_area(&self, margin: usize) -> (RangeInclusive<usize>, RangeInclusive<usize>) {
        let size = self.config.size;
        let (rows, cols) = if self.extent.is_empty() {
            ((size / 2, size / 2), (size / 2, size / 2))
        } else {
            (
                (self.extent.rows.0 as usize, self.extent.rows.1 as usize),
                (self.extent.cols.0 as usize, self.extent.cols.1 as usize),
            )
        };
        (
            rows.0.saturating_sub(margin)..=(rows.1 + margin).min(size - 1),
            cols.0.saturating_sub(margin)..=(cols.1 + margin).min(size - 1),
        )
    }

    /// Fields inside the stones' extent widened by `margin`, row by row.
    pub fn busy_fields(&self, margin: usize) -> impl Iterator<Item = usize> + use<> {
        let size = self.config.size;
        let (row_range, col_range) = self.busy_area(margin);
        row_range.flat_map(move |row| col_range.clone().map(move |col| row * size + col))
    }

    /// An empty field with a stone within two points.
    #[inline]
    pub fn is_near_stone(&self, field: usize) -> bool {
        let point = self.point(field);
        self.cells[point] == EMPTY && self.near[point] > 0
    }

    /// Empty fields where `side` would make at least `threat`, in field order.
    pub fn threat_fields(&self, side: Side, threat: Threat, out: &mut Vec<Move>) {
        out.clear();
        let mut wanted = self.threat_count(side, threat);
        if wanted == 0 {
            return;
        }
        let (rows, cols) = self.busy_area(RADIUS);
        let (size, c) = (self.config.size, side.index());
        'rows: for row in rows {
            let base = (row + RADIUS) * self.stride + RADIUS;
            for col in cols.clone() {
                // Occupied points carry no threat.
                if self.info[base + col].colours[c].threat >= threat as u8 {
                    out.push(Move::new((row * size + col) as u16));
                    wanted -= 1;
                    if wanted == 0 {
                        break 'rows;
                    }
                }
            }
        }
    }

    /// Pairs a stone of the side to move on `field` would capture (Pente), as a
    /// direction mask.
    pub fn capture_mask(&self, field: usize) -> u8 {
        self.capture_mask_for(self.side, field)
    }

    /// Pairs a stone of `side` on `field` would capture (Pente), as a direction mask.
    pub fn capture_mask_for(&self, side: Side, field: usize) -> u8 {
        if !self.config.captures() {
            return 0;
        }
        let point = self.point(field);
        let own = colour(side);
        let other = colour(side.opponent());
        let mut mask = 0u8;
        for (bit, dir) in self.eight_directions().into_iter().enumerate() {
            let at = |n: isize| self.cells[(point as isize + n * dir) as usize];
            if at(1) == other && at(2) == other && at(3) == own {
                mask |= 1 << bit;
            }
        }
        mask
    }

    fn eight_directions(&self) -> [isize; 8] {
        let [a, b, c, d] = directions(self.stride);
        [a, b, c, d, -a, -b, -c, -d]
    }

    /// Recomputes the threat classes and values of `point` from all four lines.
    #[inline]
    fn refresh(&mut self, point: usize) {
        let Some(table) = self.table else { return };
        let mut new = PointInfo::default();
        if self.cells[point] == EMPTY {
            new.lines = u32::from_le_bytes(self.keys[point].map(|key| table.packed(key)));
            self.combine(&mut new);
        }
        self.replace_info(point, new);
    }

    /// Recomputes the empty `point` after its line in direction `d` changed: nothing
    /// to do when that line's patterns did not.
    #[inline]
    fn refresh_line(&mut self, point: usize, d: usize, table: &PatternTable) {
        let byte = table.packed(self.keys[point][d]);
        let mut new = self.info[point];
        let shift = 8 * d;
        if (new.lines >> shift) as u8 == byte {
            return;
        }
        new.lines = (new.lines & !(0xff << shift)) | (byte as u32) << shift;
        self.combine(&mut new);
        self.replace_info(point, new);
    }

    #[inline]
    fn combine(&self, info: &mut PointInfo) {
        for (c, shift) in [(0, 0), (1, 4)] {
            info.colours[c] = self.combination[c].entries[Combination::index(info.lines, shift)];
        }
    }

    /// Stores `point`'s new info, keeping the threat counts and potentials.
    #[inline(always)]
    fn replace_info(&mut self, point: usize, new: PointInfo) {
        let old = self.info[point];
        for (c, (old, new)) in old.colours.iter().zip(&new.colours).enumerate() {
            // Points without a threat are not counted: occupied points have none.
            if old.threat != 0 {
                self.threat_count[c][old.threat as usize] -= 1;
            }
            if new.threat != 0 {
                self.threat_count[c][new.threat as usize] += 1;
            }
            self.potential[c] += new.value as i32 - old.value as i32;
            for role in 0..2 {
                self.role_potential[c][role] +=
                    new.role_value[role] as i32 - old.role_value[role] as i32;
            }
        }
        self.changes.push((point as u32, old));
        self.info[point] = new;
    }

    /// Puts a stone on the empty `point` or takes one off (`code` = `EMPTY`), keeping
    /// keys, threats, neighbourhood counts and the hash.
    fn set_cell(&mut self, point: usize, code: u8) {
        self.change_cell::<true>(point, code);
    }

    /// `set_cell` for `unmake`, which puts the point infos back from `changes`: the
    /// keys, counts and hash only.
    fn restore_cell(&mut self, point: usize, code: u8) {
        self.change_cell::<false>(point, code);
    }

    #[inline(always)]
    fn change_cell<const REFRESH: bool>(&mut self, point: usize, code: u8) {
        let side_of = |code: u8| {
            if code == 1 { Side::Black } else { Side::White }
        };
        let previous = self.cells[point];
        let field = self.field(point);
        let (delta, side) = if code == EMPTY {
            (-1i32, side_of(previous))
        } else {
            (1, side_of(code))
        };
        self.hash ^= stone_key(side, field);
        self.stones[side.index()] = (self.stones[side.index()] as i32 + delta) as u32;
        self.cells[point] = code;
        let stride = self.stride as isize;
        let step = delta as u8;
        for dr in -2..=2isize {
            let centre = (point as isize + dr * stride) as usize;
            for count in &mut self.near[centre - 2..=centre + 2] {
                *count = count.wrapping_add(step);
            }
        }
        let Some(table) = self.table else { return };
        if REFRESH {
            self.refresh(point);
        }
        let reach = table.reach() as isize;
        for (d, dir) in directions(self.stride).into_iter().enumerate() {
            for distance in 1..=reach {
                for offset in [distance, -distance] {
                    // The padding keeps every neighbour in the array; a wall point's key
                    // is written too, and never read.
                    let other = (point as isize + offset * dir) as usize;
                    // `point` sits at `-offset` as seen from `other`.
                    let shift = 2 * slot(-offset);
                    let key = &mut self.keys[other][d];
                    *key = (*key & !(3 << shift)) | (code as u32) << shift;
                    if REFRESH && self.cells[other] == EMPTY {
                        self.refresh_line(other, d, table);
                    }
                }
            }
        }
    }

    /// Whether the stone on `point` is part of a winning line.
    fn makes_line(&self, point: usize) -> bool {
        let own = self.cells[point];
        let k = self.config.k;
        directions(self.stride).into_iter().any(|dir| {
            let count = |step: isize| {
                let mut n = 0;
                let mut at = point as isize + step;
                while self.cells[at as usize] == own {
                    n += 1;
                    at += step;
                }
                n
            };
            let run = 1 + count(dir) + count(-dir);
            let exact = self
                .config
                .exact_for(if own == 1 { Side::Black } else { Side::White });
            run == k || (run > k && !exact)
        })
    }

    fn centre(&self) -> usize {
        let half = self.config.size / 2;
        half * self.config.size + half
    }

    /// Opening restrictions on the side to move's next stone.
    fn opening_allows(&self, field: usize) -> bool {
        match self.config.opening {
            Opening::Free => true,
            _ if self.stones == [0, 0] => field == self.centre(),
            Opening::Tournament if self.ply == 2 && self.side == Side::Black => {
                let size = self.config.size;
                let (row, col) = (field / size, field % size);
                let half = size / 2;
                row.abs_diff(half).max(col.abs_diff(half)) >= 3
            }
            _ => true,
        }
    }

    /// Whether the side to move may not play on the empty `field`: Black's forbidden
    /// points under renju.
    #[inline]
    fn forbids(&self, field: usize) -> bool {
        self.config.renju && self.side == Side::Black && self.is_forbidden(field)
    }

    fn finish(&mut self, winner: Option<Side>, ending: Ending) {
        self.outcome = Some(Outcome { winner });
        self.ending = ending;
    }

    fn count_threats_from_scratch(&self) -> ([[u16; 9]; 2], [i32; 2], [[i32; 2]; 2]) {
        let mut counts = [[0u16; 9]; 2];
        let mut potential = [0i32; 2];
        let mut role_potential = [[0i32; 2]; 2];
        for point in self.board_points() {
            for c in 0..2 {
                if self.info[point].colours[c].threat != 0 {
                    counts[c][self.info[point].colours[c].threat as usize] += 1;
                }
                potential[c] += self.info[point].colours[c].value as i32;
                for (sum, value) in role_potential[c]
                    .iter_mut()
                    .zip(self.info[point].colours[c].role_value)
                {
                    *sum += value as i32;
                }
            }
        }
        (counts, potential, role_potential)
    }

    /// The hash after `mv` when it captures nothing (every move outside Pente), without
    /// making it.
    pub fn hash_after(&self, mv: Move) -> u64 {
        debug_assert!(self.capture_mask(mv.square()) == 0);
        self.hash ^ stone_key(self.side, mv.square()) ^ SIDE_KEY
    }

    /// Hands the move to the other side without a stone: not a legal move in these
    /// games, but what threat analysis asks ("what if the defender did nothing").
    pub fn pass_turn(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= SIDE_KEY;
    }

    /// Cross-checks the incremental bookkeeping against a fresh build (tests).
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh = Gomoku::new(self.config).map_err(|e| e.to_string())?;
        for point in self.board_points() {
            if self.cells[point] != EMPTY {
                fresh.set_cell(point, self.cells[point]);
            }
        }
        if fresh.keys != self.keys {
            return Err("pattern keys differ from a fresh build".into());
        }
        if fresh.near != self.near {
            return Err("neighbour counts differ".into());
        }
        for point in self.board_points() {
            let (mine, theirs) = (self.info[point], fresh.info[point]);
            if mine.colours != theirs.colours
                || (self.cells[point] == EMPTY && mine.lines != theirs.lines)
            {
                return Err(format!("threats differ at field {}", self.field(point)));
            }
            // The combination table against the line patterns combined directly.
            if let (Some(table), EMPTY) = (self.table, self.cells[point]) {
                for c in 0..2 {
                    let patterns = self.keys[point].map(|key| table.pattern(key, c as u8 + 1));
                    let threat = Threat::from_patterns(patterns);
                    let class = PointClass::of(patterns).0 as usize;
                    let side = if c == 0 { Side::Black } else { Side::White };
                    let role_value = eval::point_values(self.config.renju)
                        [class + self.colour_offset(side, PointClass::COUNT)];
                    let direct = Combined {
                        threat: threat as u8,
                        class: PointClass::of(patterns).0,
                        value: eval::point_value(patterns, threat),
                        role_value,
                    };
                    if mine.colours[c] != direct {
                        return Err(format!(
                            "combined threat wrong at field {}",
                            self.field(point)
                        ));
                    }
                }
            }
        }
        let kept = (self.threat_count, self.potential, self.role_potential);
        if (fresh.threat_count, fresh.potential, fresh.role_potential) != kept
            || self.count_threats_from_scratch() != kept
        {
            return Err("threat counts differ".into());
        }
        let mut hash = if self.side == Side::White {
            SIDE_KEY
        } else {
            0
        };
        for side in Side::BOTH {
            hash ^= capture_key(side, self.captures[side.index()]) ^ capture_key(side, 0);
        }
        if fresh.hash ^ hash != self.hash {
            return Err("hash differs".into());
        }
        Ok(())
    }

    fn cell_char(&self, field: usize) -> char {
        match self.cell(field) {
            1 => 'X',
            2 => 'O',
            _ => '.',
        }
    }

    /// The board as `setboard` takes it: `X`, `O` and `-`, row by row.
    pub fn to_board_string(&self) -> String {
        let size = self.config.size;
        (0..size * size)
            .map(|field| match self.cell(field) {
                1 => 'X',
                2 => 'O',
                _ => '-',
            })
            .collect()
    }
}

#[inline]
fn threat_from_u8(value: u8) -> Threat {
    const ALL: [Threat; 9] = [
        Threat::None,
        Threat::Two,
        Threat::Three,
        Threat::OpenThree,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::OpenFour,
        Threat::Five,
    ];
    ALL[value as usize]
}

impl Game for Gomoku {
    type Undo = Undo;

    fn name(&self) -> &'static str {
        self.config.name()
    }

    fn size(&self) -> usize {
        self.config.size
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        let size = self.config.size;
        if self.config.opening != Opening::Free && self.stones == [0, 0] {
            moves.push(Move::new(self.centre() as u16));
            return;
        }
        for field in 0..size * size {
            if self.cell(field) == EMPTY && self.opening_allows(field) && !self.forbids(field) {
                moves.push(Move::new(field as u16));
            }
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none()
            && !mv.is_pass()
            && mv.square() < self.config.size * self.config.size
            && self.cell(mv.square()) == EMPTY
            && self.opening_allows(mv.square())
            && !self.forbids(mv.square())
    }

    fn forbidden_fields(&self) -> Vec<usize> {
        Gomoku::forbidden_fields(self)
    }

    fn illegal_reason(&self, mv: Move) -> Option<String> {
        let on_board = !mv.is_pass() && mv.square() < self.config.size * self.config.size;
        (on_board && self.outcome.is_none() && self.forbids(mv.square())).then(|| {
            format!(
                "{} is a forbidden point for black under renju (overline, double four or double three)",
                self.format_move(mv)
            )
        })
    }

    fn make(&mut self, mv: Move) -> Undo {
        let field = mv.square();
        let point = self.point(field);
        let undo = Undo {
            captured: self.capture_mask(field),
            extent: self.extent,
        };
        let side = self.side;
        self.marks.push(Mark {
            field: field as u16,
            first_change: self.changes.len(),
            threat_count: self.threat_count,
            potential: self.potential,
            role_potential: self.role_potential,
        });
        self.set_cell(point, colour(side));
        if undo.captured != 0 {
            let dirs = self.eight_directions();
            let before = self.captures[side.index()];
            for (bit, dir) in dirs.into_iter().enumerate() {
                if undo.captured & 1 << bit != 0 {
                    self.set_cell((point as isize + dir) as usize, EMPTY);
                    self.set_cell((point as isize + 2 * dir) as usize, EMPTY);
                    self.captures[side.index()] += 1;
                }
            }
            self.hash ^= capture_key(side, before) ^ capture_key(side, self.captures[side.index()]);
        }
        let size = self.config.size;
        self.extent.include(field / size, field % size);
        self.ply += 1;
        self.side = side.opponent();
        self.hash ^= SIDE_KEY;
        if self.makes_line(point) {
            self.finish(Some(side), Ending::Line);
        } else if self.captures[side.index()] >= CAPTURE_WIN {
            self.finish(Some(side), Ending::Captures);
        } else if self.empties() == 0 {
            self.finish(None, Ending::Full);
        }
        undo
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        let point = self.point(mv.square());
        let side = self.side.opponent();
        self.outcome = None;
        self.ending = Ending::None;
        self.side = side;
        self.hash ^= SIDE_KEY;
        self.ply -= 1;
        self.extent = undo.extent;
        if undo.captured != 0 {
            let before = self.captures[side.index()];
            let other = colour(side.opponent());
            for (bit, dir) in self.eight_directions().into_iter().enumerate() {
                if undo.captured & 1 << bit != 0 {
                    self.restore_cell((point as isize + dir) as usize, other);
                    self.restore_cell((point as isize + 2 * dir) as usize, other);
                    self.captures[side.index()] -= 1;
                }
            }
            self.hash ^= capture_key(side, before) ^ capture_key(side, self.captures[side.index()]);
        }
        self.restore_cell(point, EMPTY);
        let mark = self.marks.pop().expect("unmake follows its make");
        for (changed, info) in self.changes.drain(mark.first_change..).rev() {
            self.info[changed as usize] = info;
        }
        self.threat_count = mark.threat_count;
        self.potential = mark.potential;
        self.role_potential = mark.role_potential;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        match notation::parse_point(text, self.config.size)? {
            Point::Pass => Err(GameError::Move(format!(
                "{} has no passes: name an empty point",
                self.name()
            ))),
            Point::At { col, row } => Ok(Move::new((row * self.config.size + col) as u16)),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        if mv.is_pass() {
            return "pass".to_string();
        }
        let size = self.config.size;
        notation::format_point(mv.square() % size, mv.square() / size, size)
    }

    fn field_index(&self, mv: Move) -> Option<usize> {
        (!mv.is_pass()).then_some(mv.square())
    }

    fn diagram(&self) -> String {
        let size = self.config.size;
        let letters = size <= notation::MAX_LETTER_SIZE;
        let mut text = String::from("   ");
        for col in 0..size {
            if letters {
                let _ = write!(text, " {}", notation::column_name(col));
            } else {
                let _ = write!(text, " {}", col % 10);
            }
        }
        text.push('\n');
        for row in 0..size {
            let label = if letters { row + 1 } else { row };
            let _ = write!(text, "{label:>3}");
            for col in 0..size {
                text.push(' ');
                text.push(self.cell_char(row * size + col));
            }
            text.push('\n');
        }
        let _ = write!(
            text,
            "black (X) {}, white (O) {}",
            self.stones[0], self.stones[1]
        );
        if self.config.captures() {
            let _ = write!(
                text,
                ", captured pairs black {} white {}",
                self.captures[0], self.captures[1]
            );
        }
        text.push_str("; ");
        match self.outcome {
            None => {
                let _ = write!(text, "{} to move", self.side);
            }
            Some(Outcome { winner: Some(side) }) => {
                let _ = write!(text, "game over, {side} wins");
            }
            Some(Outcome { winner: None }) => text.push_str("game over, draw"),
        }
        text
    }

    fn status_details(&self) -> String {
        let how = match self.ending {
            Ending::Line => format!("{} in a row", self.config.k),
            Ending::Captures => "captures".to_string(),
            Ending::Full => "board full".to_string(),
            Ending::None => "set up".to_string(),
        };
        if self.config.captures() {
            format!(
                "{how} captures black {} white {}",
                self.captures[0], self.captures[1]
            )
        } else {
            how
        }
    }

    fn playing_details(&self) -> String {
        if self.config.captures() {
            format!(
                "captures black {} white {}",
                self.captures[0], self.captures[1]
            )
        } else {
            String::new()
        }
    }

    fn cells(&self) -> String {
        self.to_board_string()
    }

    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), GameError> {
        let size = self.config.size;
        let count = cells.chars().count();
        if count != size * size {
            return Err(GameError::Board(format!(
                "setboard: a {size}x{size} board needs {} cells, got {count}",
                size * size
            )));
        }
        let mut game = Gomoku::new(self.config)?;
        for (field, cell) in cells.chars().enumerate() {
            let code = match cell {
                'X' | 'x' | '*' => 1,
                'O' | 'o' => 2,
                '-' | '.' => continue,
                other => {
                    return Err(GameError::Board(format!(
                        "setboard: bad cell {} at position {}: expected X, x, *, O, o, - or .",
                        quote(&other.to_string()),
                        field + 1
                    )));
                }
            };
            let point = game.point(field);
            game.set_cell(point, code);
            game.extent.include(field / size, field % size);
        }
        game.changes.clear();
        let lines: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|&s| {
                game.board_points()
                    .any(|p| game.cells[p] == colour(s) && game.makes_line(p))
            })
            .collect();
        if side == Side::White {
            game.hash ^= SIDE_KEY;
        }
        game.side = side;
        game.ply = game.stones[0] + game.stones[1];
        match lines.as_slice() {
            [] if game.empties() == 0 => game.finish(None, Ending::Full),
            [] => {}
            [winner] => game.finish(Some(*winner), Ending::Line),
            _ => {
                return Err(GameError::Board(
                    "setboard: both sides have a winning line".to_string(),
                ));
            }
        }
        *self = game;
        Ok(())
    }

    fn immediate_score(&self, side: Side) -> i32 {
        match self.outcome {
            Some(Outcome { winner: Some(w) }) => {
                return if w == side { 1_000_000 } else { -1_000_000 };
            }
            Some(Outcome { winner: None }) => return 0,
            None => {}
        }
        eval::static_score(self, side)
    }
}

#[cfg(test)]
mod tests;
