//! Line patterns of the k-in-a-row games, read from precomputed tables.
//!
//! Every empty point keeps, per direction, a 20-bit key: the 10 points at distance 1 to 5
//! on both sides, 2 bits each (empty, black, white, wall). A table maps the key to what a
//! stone of each colour placed on the point would make in that line (a five, an open
//! four, ...). Placing or removing a stone rewrites the keys of the 40 points it can
//! reach, so nothing rescans the board.

use std::sync::{LazyLock, OnceLock};

/// Farthest neighbour a key covers.
pub const RADIUS: usize = 5;
/// Key slots: `RADIUS` points before and after the centre.
const SLOTS: usize = 2 * RADIUS;

/// Cell codes in keys and in the board array.
pub const EMPTY: u8 = 0;
pub const WALL: u8 = 3;

/// What a stone placed on a point makes in one line, weakest first. "Five" means k in a
/// row under the rule (exactly k under `exact`); "open four" means two distinct points
/// would then complete it, "four" one; a three can become a four in one move, and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pattern {
    /// No k-in-a-row through this point can ever be made in this line.
    Dead = 0,
    One,
    Two,
    OpenTwo,
    Three,
    OpenThree,
    Four,
    OpenFour,
    Five,
}

impl Pattern {
    pub const COUNT: usize = 9;

    const ALL: [Pattern; 9] = [
        Pattern::Dead,
        Pattern::One,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
    ];

    #[inline]
    pub fn from_u8(value: u8) -> Pattern {
        Pattern::ALL[value as usize]
    }

    /// The pattern one move earlier: a line one move from `self`.
    fn weaker(self) -> Pattern {
        match self {
            Pattern::Five => Pattern::Four,
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four => Pattern::Three,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::Three => Pattern::Two,
            Pattern::OpenTwo | Pattern::Two | Pattern::One => Pattern::One,
            Pattern::Dead => Pattern::Dead,
        }
    }
}

/// What a stone makes on a point over its four lines together, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    Two,
    Three,
    /// An open three: the opponent must answer it.
    OpenThree,
    DoubleThree,
    Four,
    /// A four and an open three at once.
    FourThree,
    /// An open four or two fours: a win next move unless the opponent wins first.
    OpenFour,
    Five,
}

impl Threat {
    pub fn from_patterns(patterns: [Pattern; 4]) -> Threat {
        let mut count = [0u8; 9];
        for pattern in patterns {
            count[pattern as usize] += 1;
        }
        let at = |p: Pattern| count[p as usize];
        if at(Pattern::Five) > 0 {
            Threat::Five
        } else if at(Pattern::OpenFour) > 0 || at(Pattern::Four) >= 2 {
            Threat::OpenFour
        } else if at(Pattern::Four) == 1 && at(Pattern::OpenThree) > 0 {
            Threat::FourThree
        } else if at(Pattern::Four) == 1 {
            Threat::Four
        } else if at(Pattern::OpenThree) >= 2 {
            Threat::DoubleThree
        } else if at(Pattern::OpenThree) == 1 {
            Threat::OpenThree
        } else if at(Pattern::Three) > 0 || at(Pattern::OpenTwo) >= 2 {
            Threat::Three
        } else if at(Pattern::OpenTwo) > 0 {
            Threat::Two
        } else {
            Threat::None
        }
    }

    /// Makes a four (or better): the opponent's reply is forced.
    #[inline]
    pub fn is_four(self) -> bool {
        self >= Threat::Four
    }
}

/// A point's four line patterns as a multiset (the directions' order does not matter to
/// the evaluation): 495 classes, numbered in the order of the patterns sorted strongest
/// first. Class 0 is four dead lines, what an occupied point has too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PointClass(pub u16);

impl PointClass {
    /// Multisets of 4 of the 9 patterns.
    pub const COUNT: usize = 495;

    pub fn of(patterns: [Pattern; 4]) -> PointClass {
        static CLASSES: LazyLock<Vec<u16>> = LazyLock::new(|| {
            let canonical = |index: usize| {
                let sorted = PointClass::sorted_digits(index);
                sorted.iter().fold(0, |acc, &p| acc * Pattern::COUNT + p)
            };
            let mut number = vec![u16::MAX; Pattern::COUNT.pow(4)];
            let mut next = 0;
            for (index, slot) in number.iter_mut().enumerate() {
                if canonical(index) == index {
                    *slot = next;
                    next += 1;
                }
            }
            (0..number.len())
                .map(|index| number[canonical(index)])
                .collect()
        });
        let index = patterns
            .iter()
            .fold(0, |acc, &p| acc * Pattern::COUNT + p as usize);
        PointClass(CLASSES[index])
    }

    /// The class's patterns, strongest first.
    pub fn patterns(self) -> [Pattern; 4] {
        static PATTERNS: LazyLock<Vec<[Pattern; 4]>> = LazyLock::new(|| {
            let mut all = vec![[Pattern::Dead; 4]; PointClass::COUNT];
            for index in 0..Pattern::COUNT.pow(4) {
                let digits = PointClass::sorted_digits(index);
                let patterns = digits.map(|d| Pattern::from_u8(d as u8));
                all[PointClass::of(patterns).0 as usize] = patterns;
            }
            all
        });
        PATTERNS[self.0 as usize]
    }

    /// Base-9 digits of `index`, sorted strongest first.
    fn sorted_digits(index: usize) -> [usize; 4] {
        let mut digits = [0, 1, 2, 3].map(|d| index / Pattern::COUNT.pow(d) % Pattern::COUNT);
        digits.sort_unstable_by(|a, b| b.cmp(a));
        digits
    }
}

/// Key slot of the neighbour at signed distance `offset` (1..=5 or -5..=-1).
#[inline]
pub const fn slot(offset: isize) -> usize {
    if offset < 0 {
        (offset + RADIUS as isize) as usize
    } else {
        (offset + RADIUS as isize - 1) as usize
    }
}

/// Pattern tables for one k and rule: index a 20-bit key, get both colours' patterns.
/// Without the exact rule no five through the centre reaches the key's end slots (five
/// points away), so those rules keep a 16-bit table (64 KB, which stays in cache) and
/// drop the end slots from the key.
pub struct PatternTable {
    /// Low nibble: black's pattern, high nibble: white's.
    packed: Vec<u8>,
    /// The key's bits the table is indexed by: `(key >> shift) & mask`.
    shift: u32,
    mask: u32,
}

impl PatternTable {
    /// The shared table for `k` in a row (3 to 5), `exact` meaning that longer lines do
    /// not count.
    pub fn get(k: usize, exact: bool) -> &'static PatternTable {
        static TABLES: [[OnceLock<PatternTable>; 2]; 3] = [
            [OnceLock::new(), OnceLock::new()],
            [OnceLock::new(), OnceLock::new()],
            [OnceLock::new(), OnceLock::new()],
        ];
        assert!((3..=5).contains(&k), "pattern tables cover k = 3 to 5");
        TABLES[k - 3][exact as usize].get_or_init(|| PatternTable::build(k, exact))
    }

    /// The renju table (five in a row): Black's patterns under the exact rule (an
    /// overline is no five), White's under freestyle. Black's forbidden points are not
    /// in the table: `renju::forbidden` judges them.
    pub fn renju() -> &'static PatternTable {
        static TABLE: OnceLock<PatternTable> = OnceLock::new();
        TABLE.get_or_init(|| PatternTable {
            packed: Self::build_mixed(&LineTable::build(5, true), &LineTable::build(5, false)),
            shift: 0,
            mask: (1 << (2 * SLOTS)) - 1,
        })
    }

    /// Black's pattern (`colour` 1) or white's (`colour` 2) for a key.
    #[inline]
    pub fn pattern(&self, key: u32, colour: u8) -> Pattern {
        Pattern::from_u8((self.packed(key) >> (4 * (colour - 1))) & 15)
    }

    /// How far along a line a stone can change another point's patterns: the end slots
    /// only count under the exact rule.
    pub fn reach(&self) -> usize {
        if self.shift == 0 { RADIUS } else { RADIUS - 1 }
    }

    /// Both colours' patterns for a key: black's in the low nibble, white's in the high.
    #[inline]
    pub fn packed(&self, key: u32) -> u8 {
        self.packed[((key >> self.shift) & self.mask) as usize]
    }

    fn build(k: usize, exact: bool) -> PatternTable {
        let full = Self::build_full(k, exact);
        if exact {
            return PatternTable {
                packed: full,
                shift: 0,
                mask: (1 << (2 * SLOTS)) - 1,
            };
        }
        let end_slots = 2 * (SLOTS - 2);
        PatternTable {
            packed: (0..1usize << end_slots).map(|key| full[key << 2]).collect(),
            shift: 2,
            mask: (1 << end_slots) - 1,
        }
    }

    /// The table over all 20 key bits.
    fn build_full(k: usize, exact: bool) -> Vec<u8> {
        let lines = LineTable::build(k, exact);
        Self::build_mixed(&lines, &lines)
    }

    /// The table over all 20 key bits, Black's lines read from `black_lines` and
    /// White's from `white_lines`.
    fn build_mixed(black_lines: &LineTable, white_lines: &LineTable) -> Vec<u8> {
        let mut packed = vec![0u8; 1 << (2 * SLOTS)];
        for (key, entry) in packed.iter_mut().enumerate() {
            let (mut black, mut white) = (0usize, 0usize);
            for slot in (0..SLOTS).rev() {
                let code = (key >> (2 * slot)) & 3;
                let (b, w) = match code as u8 {
                    EMPTY => (0, 0),
                    1 => (1, 2),
                    2 => (2, 1),
                    _ => (2, 2),
                };
                black = black * 3 + b;
                white = white * 3 + w;
            }
            *entry = black_lines.patterns[black] as u8 | (white_lines.patterns[white] as u8) << 4;
        }
        packed
    }
}

/// Patterns of one colour's lines: 10 points in base 3 (empty, own, blocked), the
/// centre holding an own stone.
struct LineTable {
    patterns: Vec<Pattern>,
}

impl LineTable {
    const EMPTY: u8 = 0;
    const OWN: u8 = 1;

    fn build(k: usize, exact: bool) -> LineTable {
        let states = 3usize.pow(SLOTS as u32);
        let mut table = LineTable {
            patterns: vec![Pattern::Dead; states],
        };
        let mut known = vec![false; states];
        for state in 0..states {
            table.solve(state, k, exact, &mut known);
        }
        table
    }

    fn digits(state: usize) -> [u8; SLOTS] {
        let mut cells = [0u8; SLOTS];
        let mut rest = state;
        for cell in cells.iter_mut() {
            *cell = (rest % 3) as u8;
            rest /= 3;
        }
        cells
    }

    /// The line as 11 points with the centre (index 5) own.
    fn line(state: usize) -> [u8; SLOTS + 1] {
        let cells = Self::digits(state);
        let mut line = [0u8; SLOTS + 1];
        line[..RADIUS].copy_from_slice(&cells[..RADIUS]);
        line[RADIUS] = Self::OWN;
        line[RADIUS + 1..].copy_from_slice(&cells[RADIUS..]);
        line
    }

    fn solve(&mut self, state: usize, k: usize, exact: bool, known: &mut [bool]) -> Pattern {
        if known[state] {
            return self.patterns[state];
        }
        let line = Self::line(state);
        let run_start = (0..RADIUS)
            .rev()
            .find(|&i| line[i] != Self::OWN)
            .map_or(0, |i| i + 1);
        let run_end = (RADIUS + 1..=SLOTS)
            .find(|&i| line[i] != Self::OWN)
            .unwrap_or(SLOTS + 1);
        let run = run_end - run_start;
        let pattern = if run == k || (run > k && !exact) {
            Pattern::Five
        } else if run > k {
            // An overline through the centre under the exact rule never becomes a five.
            Pattern::Dead
        } else {
            let mut fives = 0;
            let mut best = Pattern::Dead;
            // Only points within k - 1 of the centre can share a line of k with it.
            for (cell, &code) in line
                .iter()
                .enumerate()
                .take(RADIUS + k)
                .skip(RADIUS + 1 - k)
            {
                if code != Self::EMPTY {
                    continue;
                }
                let slot = if cell < RADIUS { cell } else { cell - 1 };
                let next = state + 3usize.pow(slot as u32) * Self::OWN as usize;
                let after = self.solve(next, k, exact, known);
                if after == Pattern::Five {
                    fives += 1;
                } else {
                    best = best.max(after.weaker());
                }
            }
            match fives {
                0 => best,
                1 => Pattern::Four,
                _ => Pattern::OpenFour,
            }
        };
        known[state] = true;
        self.patterns[state] = pattern;
        pattern
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key for a line written as 11 characters, the centre `.` being the point played:
    /// `x` black, `o` white, `#` wall, `_` empty.
    fn key(line: &str) -> u32 {
        let chars: Vec<char> = line.chars().collect();
        assert_eq!(chars.len(), 11);
        let mut key = 0u32;
        for (i, &c) in chars.iter().enumerate() {
            if i == RADIUS {
                continue;
            }
            let code = match c {
                '_' => 0,
                'x' => 1,
                'o' => 2,
                _ => 3,
            };
            let offset = i as isize - RADIUS as isize;
            key |= code << (2 * slot(offset));
        }
        key
    }

    #[test]
    fn without_the_exact_rule_the_end_slots_change_no_pattern() {
        for k in 3..=5 {
            let full = PatternTable::build_full(k, false);
            let compact = PatternTable::get(k, false);
            for (key, &entry) in full.iter().enumerate() {
                assert_eq!(entry, compact.packed(key as u32), "k {k} key {key:#x}");
            }
        }
        // Under the exact rule they do: a sixth stone five points away.
        let exact = PatternTable::get(5, true);
        assert_eq!(exact.pattern(key("x_xxx.____#"), 1), Pattern::Four);
        assert_eq!(exact.pattern(key("__xxx.____#"), 1), Pattern::OpenFour);
    }

    #[test]
    fn classifies_standard_shapes_for_black() {
        let free = PatternTable::get(5, false);
        let exact = PatternTable::get(5, true);
        let black = |t: &PatternTable, line: &str| t.pattern(key(line), 1);
        assert_eq!(black(free, "___xx.xx___"), Pattern::Five);
        assert_eq!(black(free, "__xxx.xx___"), Pattern::Five);
        assert_eq!(black(exact, "__xxx.xx___"), Pattern::Dead);
        assert_eq!(black(exact, "__oxx.xxx__"), Pattern::Dead);
        assert_eq!(black(exact, "___xx.xx_x_"), Pattern::Five);
        assert_eq!(black(free, "____x.xx___"), Pattern::OpenFour);
        assert_eq!(black(free, "___ox.xx___"), Pattern::Four);
        assert_eq!(black(free, "____x.x_x__"), Pattern::Four);
        assert_eq!(black(free, "____x.x____"), Pattern::OpenThree);
        assert_eq!(black(free, "___ox.x____"), Pattern::Three);
        assert_eq!(black(free, "____x._x___"), Pattern::OpenThree);
        assert_eq!(black(free, "_____.x____"), Pattern::OpenTwo);
        assert_eq!(black(free, "____#.x____"), Pattern::Two);
        assert_eq!(black(free, "___o_.__o__"), Pattern::Dead);
        assert_eq!(black(free, "__o__.___o_"), Pattern::One);
        // Exact five: a completion that would make six does not count.
        assert_eq!(black(free, "x_xxx.____#"), Pattern::OpenFour);
        assert_eq!(black(exact, "x_xxx.____#"), Pattern::Four);
        assert_eq!(black(exact, "_x_xx.x____"), Pattern::Four);
        // White sees black stones as blocks.
        assert_eq!(free.pattern(key("____x.xx___"), 2), Pattern::Dead);
        assert_eq!(free.pattern(key("____o.oo___"), 2), Pattern::OpenFour);
    }

    #[test]
    fn point_classes_number_the_multisets_of_four_patterns() {
        use Pattern::*;
        assert_eq!(PointClass::of([Dead; 4]), PointClass(0));
        let a = PointClass::of([Two, Four, Dead, Two]);
        assert_eq!(a, PointClass::of([Four, Two, Two, Dead]));
        assert_eq!(a.patterns(), [Four, Two, Two, Dead]);
        assert_eq!(
            PointClass::of([Five; 4]),
            PointClass(PointClass::COUNT as u16 - 1)
        );
        let mut seen = std::collections::HashSet::new();
        for index in 0..Pattern::COUNT.pow(4) {
            let patterns =
                [0, 1, 2, 3].map(|d| Pattern::from_u8((index / 9usize.pow(d) % 9) as u8));
            let class = PointClass::of(patterns);
            assert!((class.0 as usize) < PointClass::COUNT);
            assert_eq!(PointClass::of(class.patterns()), class);
            seen.insert(class);
        }
        assert_eq!(seen.len(), PointClass::COUNT);
    }

    #[test]
    fn combines_lines_into_threats() {
        use Pattern::*;
        assert_eq!(
            Threat::from_patterns([Four, Four, Dead, One]),
            Threat::OpenFour
        );
        assert_eq!(
            Threat::from_patterns([Four, OpenThree, Dead, One]),
            Threat::FourThree
        );
        assert_eq!(
            Threat::from_patterns([OpenThree, OpenThree, Dead, One]),
            Threat::DoubleThree
        );
        assert_eq!(
            Threat::from_patterns([Five, Dead, Dead, Dead]),
            Threat::Five
        );
        assert_eq!(Threat::from_patterns([Two, One, Dead, Dead]), Threat::None);
    }

    #[test]
    fn three_in_a_row_tables() {
        let t = PatternTable::get(3, false);
        assert_eq!(t.pattern(key("____x.x____"), 1), Pattern::Five);
        assert_eq!(t.pattern(key("_____.x____"), 1), Pattern::OpenFour);
        assert_eq!(t.pattern(key("____o.x____"), 1), Pattern::Four);
    }
}
