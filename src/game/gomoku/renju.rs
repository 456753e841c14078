//! Black's forbidden points under the renju rule.
//!
//! Black may not play an overline (six or more in a row), a double four (two fours, in
//! two lines or in one), or a double three (two threes); a move that makes exactly five
//! wins whatever else it makes. A three counts only when it can become a straight four
//! (`_XXXX_`, both ends making exactly five) by a move that is not itself forbidden and
//! does not already make five elsewhere: the recursive definition renju judges use, so a
//! point can be a false double three because one three's four point is forbidden (or
//! wins at once, as the classic forbidden-point finder behind Rapfi and Yixin reads it).
//!
//! `forbidden` judges a point from the stones alone, placing trial stones on a copy of
//! the board. `Gomoku::is_forbidden` first asks the pattern bookkeeping, kept as stones
//! come and go, whether the point can be forbidden at all (two lines with a three or
//! better, a line with two five points, or black stones that would join into six), and
//! only then runs the full judgement; `forbidden_from_scratch` skips that filter, and
//! the tests check that both agree.

use super::Gomoku;
use super::pattern::{EMPTY, Pattern, RADIUS};
use crate::game::Side;

const BLACK: u8 = 1;
/// The window along a line: the point and `RADIUS` points on each side.
const WIDTH: usize = 2 * RADIUS + 1;
const CENTRE: usize = RADIUS;

/// What a black stone on the window's centre makes along one line.
#[derive(Clone, Copy, Debug, Default)]
struct Shape {
    five: bool,
    overline: bool,
    /// Distinct fours (a straight four is one, `X_XXX_X` through the centre two).
    fours: u8,
    /// Where a further stone would turn the line into a straight four through the centre
    /// (the line is a three if one of them is not forbidden), as window indices.
    three_points: [u8; 4],
    three_count: u8,
}

/// Length of the black run through `at` in the window; a run reaching the window's edge
/// contains the centre and a point five away, so it is at least six long.
fn run(c: &[u8; WIDTH], at: usize) -> (usize, usize, usize) {
    let mut start = at;
    while start > 0 && c[start - 1] == BLACK {
        start -= 1;
    }
    let mut end = at;
    while end + 1 < WIDTH && c[end + 1] == BLACK {
        end += 1;
    }
    let length = if start == 0 || end == WIDTH - 1 {
        WIDTH
    } else {
        end - start + 1
    };
    (length, start, end)
}

fn shape(c: &mut [u8; WIDTH]) -> Shape {
    let mut shape = Shape::default();
    let (length, _, _) = run(c, CENTRE);
    if length == 5 {
        shape.five = true;
        return shape;
    }
    if length > 5 {
        shape.overline = true;
        return shape;
    }
    let near = CENTRE - 4..=CENTRE + 4;
    let mut five_points = [false; WIDTH];
    for q in near.clone() {
        if c[q] != EMPTY {
            continue;
        }
        c[q] = BLACK;
        five_points[q] = run(c, CENTRE).0 == 5;
        c[q] = EMPTY;
    }
    let count = five_points.iter().filter(|&&f| f).count();
    // Two five points five apart complete the same four from its two ends.
    let straight = (0..WIDTH - 5)
        .filter(|&q| five_points[q] && five_points[q + 5])
        .count();
    shape.fours = (count - straight) as u8;
    if shape.fours > 0 {
        return shape;
    }
    for q in near {
        if c[q] != EMPTY {
            continue;
        }
        c[q] = BLACK;
        let (length, start, end) = run(c, CENTRE);
        // A run of four holding the centre lies within 3 of it: both ends and the points
        // beyond them are inside the window.
        if length == 4
            && (start..=end).contains(&q)
            && c[start - 1] == EMPTY
            && c[end + 1] == EMPTY
            && c[start - 2] != BLACK
            && c[end + 2] != BLACK
        {
            shape.three_points[shape.three_count as usize] = q as u8;
            shape.three_count += 1;
        }
        c[q] = EMPTY;
    }
    shape
}

/// Whether a black stone on the empty `point` of the padded board `cells` (stride
/// `stride`) is forbidden. `cells` is used as scratch and left as it was.
pub(super) fn forbidden(cells: &mut [u8], stride: usize, point: usize) -> bool {
    debug_assert_eq!(cells[point], EMPTY);
    cells[point] = BLACK;
    let verdict = judge(cells, stride, point);
    cells[point] = EMPTY;
    verdict
}

/// `forbidden` with the stone already on `point`.
fn judge(cells: &mut [u8], stride: usize, point: usize) -> bool {
    let dirs = super::directions(stride);
    let mut shapes = [Shape::default(); 4];
    for (shape_slot, &dir) in shapes.iter_mut().zip(&dirs) {
        let mut window = [0u8; WIDTH];
        for (i, cell) in window.iter_mut().enumerate() {
            // The padding (RADIUS wall points) keeps the window inside the array.
            *cell = cells[(point as isize + (i as isize - CENTRE as isize) * dir) as usize];
        }
        *shape_slot = shape(&mut window);
    }
    if shapes.iter().any(|s| s.five) {
        return false;
    }
    if shapes.iter().any(|s| s.overline) {
        return true;
    }
    if shapes.iter().map(|s| s.fours as u32).sum::<u32>() >= 2 {
        return true;
    }
    if shapes.iter().filter(|s| s.three_count > 0).count() < 2 {
        return false;
    }
    let mut threes = 0;
    for (shape, &dir) in shapes.iter().zip(&dirs) {
        let real = shape.three_points[..shape.three_count as usize]
            .iter()
            .any(|&q| {
                let at = (point as isize + (q as isize - CENTRE as isize) * dir) as usize;
                !makes_five(cells, stride, at) && !forbidden(cells, stride, at)
            });
        if real {
            threes += 1;
            if threes >= 2 {
                return true;
            }
        }
    }
    false
}

/// Whether a black stone on the empty `point` makes exactly five in some line. Such a
/// point does not make a three real: its stone wins rather than making the straight
/// four (the reading of the classic forbidden-point finder that Rapfi and Yixin follow).
fn makes_five(cells: &[u8], stride: usize, point: usize) -> bool {
    super::directions(stride).into_iter().any(|dir| {
        let count = |step: isize| {
            let mut n = 0;
            let mut at = point as isize + step;
            while cells[at as usize] == BLACK {
                n += 1;
                at += step;
            }
            n
        };
        count(dir) + count(-dir) + 1 == 5
    })
}

impl Gomoku {
    /// Whether the rule forbids Black a stone on the empty `field` (renju only; any side
    /// to move: the question is what Black may play there).
    pub fn is_forbidden(&self, field: usize) -> bool {
        if !self.config.renju || self.cell(field) != EMPTY || !self.may_be_forbidden(field) {
            return false;
        }
        self.forbidden_from_scratch(field)
    }

    /// `is_forbidden` without the pattern filter: the full judgement from the stones.
    pub fn forbidden_from_scratch(&self, field: usize) -> bool {
        if !self.config.renju || self.cell(field) != EMPTY {
            return false;
        }
        let mut cells = self.cells.clone();
        forbidden(&mut cells, self.stride, self.point(field))
    }

    /// Points where `side` would make an open four (or two fours) it may play: Black's
    /// forbidden double fours left out under renju.
    pub fn open_four_fields(&self, side: Side, out: &mut Vec<crate::game::Move>) {
        self.threat_fields(side, super::pattern::Threat::OpenFour, out);
        if self.config.renju && side == Side::Black {
            out.retain(|mv| !self.is_forbidden(mv.square()));
        }
    }

    /// Whether `side` has an open four (or two fours) to make that it may play.
    pub fn has_open_four(&self, side: Side) -> bool {
        if self.threat_count(side, super::pattern::Threat::OpenFour) == 0 {
            return false;
        }
        if !(self.config.renju && side == Side::Black) {
            return true;
        }
        let mut fields = Vec::new();
        self.open_four_fields(side, &mut fields);
        !fields.is_empty()
    }

    /// Black's forbidden points, in field order.
    pub fn forbidden_fields(&self) -> Vec<usize> {
        if !self.config.renju {
            return Vec::new();
        }
        (0..self.config.size * self.config.size)
            .filter(|&field| self.is_forbidden(field))
            .collect()
    }

    /// Whether the kept patterns leave `field` a possible forbidden point: black stones
    /// that would join into six, two lines with a three or better, or a line with two
    /// five points (a straight four, or two fours in one line). No five: a five wins.
    fn may_be_forbidden(&self, field: usize) -> bool {
        let patterns = self.patterns(Side::Black, field);
        if patterns.contains(&Pattern::Five) {
            return false;
        }
        if patterns.contains(&Pattern::OpenFour)
            || patterns
                .iter()
                .filter(|&&p| p >= Pattern::OpenThree)
                .count()
                >= 2
        {
            return true;
        }
        let point = self.point(field);
        super::directions(self.stride).into_iter().any(|dir| {
            let count = |step: isize| {
                let mut n = 0;
                let mut at = point as isize + step;
                while n < 5 && self.cells[at as usize] == BLACK {
                    n += 1;
                    at += step;
                }
                n
            };
            count(dir) + count(-dir) >= 5
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Config, Opening};
    use crate::game::{Game, Move};
    use proptest::prelude::*;

    fn renju() -> Gomoku {
        Gomoku::new(Config::renju(15, Opening::Free)).unwrap()
    }

    /// A renju position from the stones' names, `side` to move.
    fn position(black: &[&str], white: &[&str], side: Side) -> Gomoku {
        let mut game = renju();
        let mut cells = vec!['-'; 15 * 15];
        for (stones, c) in [(black, 'X'), (white, 'O')] {
            for name in stones {
                cells[game.parse_move(name).unwrap().square()] = c;
            }
        }
        game.set_board(&cells.iter().collect::<String>(), side)
            .unwrap();
        game
    }

    fn field(game: &Gomoku, name: &str) -> usize {
        game.parse_move(name).unwrap().square()
    }

    /// Whether `name` is forbidden, checking the filtered and the full judgement agree
    /// and that legality follows them with Black to move.
    fn forbidden_at(game: &Gomoku, name: &str) -> bool {
        let at = field(game, name);
        let verdict = game.is_forbidden(at);
        assert_eq!(verdict, game.forbidden_from_scratch(at), "{name}");
        assert_eq!(game.is_legal(Move::new(at as u16)), !verdict, "{name}");
        verdict
    }

    #[test]
    fn overline_is_forbidden() {
        let game = position(&["e8", "f8", "g8", "i8", "j8"], &["a1", "a3"], Side::Black);
        assert!(forbidden_at(&game, "h8"));
        let reason = game.illegal_reason(game.parse_move("h8").unwrap()).unwrap();
        assert!(reason.contains("forbidden"), "{reason}");
    }

    #[test]
    fn white_may_play_and_win_with_an_overline() {
        let mut game = position(
            &["a1", "a3", "a5", "a7", "a9"],
            &["e8", "f8", "g8", "i8", "j8"],
            Side::White,
        );
        assert!(!game.is_forbidden(field(&game, "a11")) || game.cell(field(&game, "a11")) == 0);
        let mv = game.parse_move("h8").unwrap();
        assert!(game.is_legal(mv));
        game.make(mv);
        assert_eq!(game.outcome().and_then(|o| o.winner), Some(Side::White));
    }

    #[test]
    fn black_overline_is_no_win() {
        // Black's six stones in a row (set up) win nothing; exactly five does.
        let game = position(
            &["c8", "d8", "e8", "f8", "g8", "h8"],
            &["a1", "a3", "a5", "a7", "a9"],
            Side::Black,
        );
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn five_with_a_double_four_wins() {
        // h8 makes exactly five in its row, and fours in its column and diagonal.
        let mut game = position(
            &["f8", "g8", "i8", "j8", "h5", "h6", "h7", "e5", "f6", "g7"],
            &["a1", "a3", "a5", "a7", "c1", "c3", "c5", "c7", "e1", "e3"],
            Side::Black,
        );
        assert!(!forbidden_at(&game, "h8"));
        game.make(game.parse_move("h8").unwrap());
        assert_eq!(game.outcome().and_then(|o| o.winner), Some(Side::Black));
    }

    #[test]
    fn five_with_an_overline_in_another_line_wins() {
        let game = position(
            &["f8", "g8", "i8", "j8", "h4", "h5", "h6", "h7", "h9", "h10"],
            &["a1", "a3", "a5", "a7", "c1", "c3", "c5", "c7", "e1", "e3"],
            Side::Black,
        );
        assert!(!forbidden_at(&game, "h8"));
    }

    #[test]
    fn double_four_in_two_lines_is_forbidden() {
        let game = position(
            &["e8", "f8", "g8", "h5", "h6", "h7"],
            &["d8", "h4"],
            Side::Black,
        );
        assert!(forbidden_at(&game, "h8"));
    }

    #[test]
    fn double_four_in_one_line_is_forbidden() {
        // X_XXX_X with the move in the middle of the three.
        let game = position(&["e8", "g8", "i8", "k8"], &["a1", "a3", "a5"], Side::Black);
        assert!(forbidden_at(&game, "h8"));
        // XX_XX_XX and XXX_X_XXX.
        let game = position(
            &["d8", "e8", "h8", "j8", "k8"],
            &["a1", "a3", "a5"],
            Side::Black,
        );
        assert!(forbidden_at(&game, "g8"));
        let game = position(
            &["e8", "f8", "g8", "k8", "l8", "m8"],
            &["a1", "a3", "a5"],
            Side::Black,
        );
        assert!(forbidden_at(&game, "i8"));
    }

    #[test]
    fn straight_four_is_no_double_four() {
        let game = position(&["e8", "f8", "g8"], &["a1", "a3"], Side::Black);
        assert!(!forbidden_at(&game, "h8"));
    }

    #[test]
    fn four_three_is_legal() {
        // A four in the row (blocked at d8) and an open three in the column.
        let game = position(&["e8", "f8", "g8", "h6", "h7"], &["d8", "a1"], Side::Black);
        assert!(!forbidden_at(&game, "h8"));
    }

    #[test]
    fn double_three_is_forbidden() {
        let game = position(&["f8", "g8", "h6", "h7"], &["a1", "a3"], Side::Black);
        assert!(forbidden_at(&game, "h8"));
        // A split three counts too: f8 _ h8 i8 and the column.
        let game = position(&["f8", "i8", "h6", "h7"], &["a1", "a3"], Side::Black);
        assert!(forbidden_at(&game, "h8"));
    }

    #[test]
    fn a_blocked_three_is_no_three() {
        // The column's three is blocked at h5 with h9 h10: only h9-h10 side... a white
        // stone on each side: no straight four can come.
        let game = position(&["f8", "g8", "h6", "h7"], &["h5", "h9"], Side::Black);
        assert!(!forbidden_at(&game, "h8"));
    }

    #[test]
    fn false_three_because_its_four_point_is_an_overline() {
        // h8 makes an open three in row 8 and a three in column h whose only four
        // point, h9 (h5 is blocked by h4), is an overline for Black (e9 f9 g9 _ i9 j9).
        let black = ["f8", "g8", "h6", "h7", "e9", "f9", "g9", "i9", "j9"];
        let white = ["h4", "a1", "a3", "a5", "a7", "a9", "a11", "a13"];
        let game = position(&black, &white, Side::Black);
        assert!(forbidden_at(&game, "h9"));
        assert!(!forbidden_at(&game, "h8"), "only one real three");
        // Without j9, h9 makes five: h9 is no forbidden point, but a stone there wins
        // rather than making the column's straight four, so the column is still no three
        // (the classic reading, Rapfi's and Yixin's) and h8 is still legal.
        let game = position(&black[..8], &white, Side::Black);
        assert!(!forbidden_at(&game, "h9"));
        assert!(!forbidden_at(&game, "h8"), "a four point that makes five");
    }

    #[test]
    fn a_three_whose_four_points_make_five_elsewhere_is_no_three() {
        // h8 joins f8 g8 into a three whose four points e8 and i8 each make five in their
        // columns (e4-e7, i4-i7), and h9 h10 into a real three in column h.
        let black = [
            "f8", "g8", "e4", "e5", "e6", "e7", "i4", "i5", "i6", "i7", "h9", "h10",
        ];
        let white = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "o1", "o3", "o5"];
        let game = position(&black, &white, Side::Black);
        assert!(!forbidden_at(&game, "h8"), "one real three");
        // Without the columns e and i, e8 and i8 are plain straight-four points and h8 a
        // double three.
        let game = position(&["f8", "g8", "h9", "h10"], &white, Side::Black);
        assert!(forbidden_at(&game, "h8"), "two real threes");
    }

    #[test]
    fn double_three_that_is_only_one_real_three() {
        // The column's four point h9 would be a double four for Black (h6-h9 and
        // e9-h9 blocked at d9), so after h8 the column is no three.
        let black = ["f8", "g8", "h6", "h7", "e9", "f9", "g9"];
        let white = ["h4", "d9", "a1", "a3", "a5", "a7", "a9"];
        let game = position(&black, &white, Side::Black);
        assert!(!forbidden_at(&game, "h8"));
        // Unblock d9: h9 makes a straight four and a... still one four (row) plus the
        // column's four once h8 is there; without h8 it is legal.
        assert!(!forbidden_at(&game, "h9"));
    }

    #[test]
    fn white_has_no_forbidden_points() {
        let game = position(
            &["a1", "a3", "a5"],
            &["e8", "f8", "g8", "i8", "j8"],
            Side::White,
        );
        let h8 = game.parse_move("h8").unwrap();
        assert!(game.is_legal(h8));
        assert!(game.forbidden_fields().is_empty());
    }

    #[test]
    fn forbidden_points_are_listed_and_not_generated() {
        let game = position(&["f8", "g8", "h6", "h7"], &["a1", "a3"], Side::Black);
        let h8 = field(&game, "h8");
        assert_eq!(game.forbidden_fields(), vec![h8]);
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        assert!(!moves.contains(&Move::new(h8 as u16)));
        assert_eq!(moves.len(), 15 * 15 - 6 - 1);
    }

    #[test]
    fn white_wins_by_a_four_whose_only_block_is_forbidden() {
        // White's h9 makes a four whose only five point, h8, is a double three for
        // Black (f8 g8 in the row, f6 g7 on the diagonal).
        let game = position(
            &["f8", "g8", "f6", "g7", "h13"],
            &["h10", "h11", "h12", "a1"],
            Side::White,
        );
        let stop = crate::stop::Stop::never();
        let proof = crate::game::gomoku::threat::find_win(&game, &stop).expect("a win");
        let names: Vec<String> = proof.pv.iter().map(|&mv| game.format_move(mv)).collect();
        assert_eq!(names[0], "h9", "{names:?}");
        assert_eq!(names.last().unwrap(), "h8", "{names:?}");
        let mut line = game.clone();
        for &mv in &proof.pv {
            assert!(line.is_legal(mv), "{names:?}");
            line.make(mv);
        }
        assert_eq!(line.outcome().and_then(|o| o.winner), Some(Side::White));
        // Black to move after h9 has no legal block: every search move loses.
        let mut after = game.clone();
        after.make(after.parse_move("h9").unwrap());
        let mut moves = Vec::new();
        crate::game::gomoku::candidates::candidates(&after, &mut moves);
        assert!(!moves.contains(&after.parse_move("h8").unwrap()));
    }

    #[test]
    fn black_threat_solver_does_not_count_a_false_three() {
        // Black's only way on is the column three whose four point h9 is an overline
        // point (e9 f9 g9 _ i9 j9): no win by threats is claimed through it.
        let game = position(
            &["h6", "h7", "h8", "e9", "f9", "g9", "i9", "j9"],
            &["h5", "a1", "a3", "a5", "a7", "a9", "a11", "c1"],
            Side::Black,
        );
        assert!(game.is_forbidden(field(&game, "h9")));
        let stop = crate::stop::Stop::never().with_node_limit(200_000);
        if let Some(proof) = crate::game::gomoku::threat::find_win(&game, &stop) {
            let mut line = game.clone();
            for &mv in &proof.pv {
                assert!(line.is_legal(mv), "{:?}", proof.pv);
                line.make(mv);
            }
            assert_eq!(line.outcome().and_then(|o| o.winner), Some(Side::Black));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The pattern-filtered check equals the full one on every empty point, and the
        /// bookkeeping stays consistent, after random moves and undos near the centre.
        #[test]
        fn filtered_check_equals_from_scratch(
            picks in proptest::collection::vec((0usize..81, 0u8..10), 20..90),
        ) {
            let mut game = renju();
            let mut made = Vec::new();
            for (pick, action) in picks {
                if action == 0 && !made.is_empty() {
                    let (mv, undo) = made.pop().unwrap();
                    game.unmake(mv, undo);
                } else {
                    if game.outcome().is_some() {
                        continue;
                    }
                    // A 9x9 square in the middle: crowded enough for forbidden shapes.
                    let field = (3 + pick / 9) * 15 + 3 + pick % 9;
                    let mv = Move::new(field as u16);
                    if game.is_legal(mv) {
                        let undo = game.make(mv);
                        made.push((mv, undo));
                    }
                }
                for field in 0..15 * 15 {
                    prop_assert_eq!(
                        game.is_forbidden(field),
                        game.forbidden_from_scratch(field),
                        "field {} in\n{}", field, game.diagram()
                    );
                }
            }
            prop_assert!(game.check_consistency().is_ok());
        }
    }
}
