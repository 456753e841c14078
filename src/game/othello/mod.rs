//! Othello (Reversi) on 4x4, 6x6 and 8x8 boards, normal or misère rule.

pub mod bitboard;
pub mod book;
pub mod campaign;
pub mod endgame;
pub mod eval;
pub mod obf;
pub mod pattern;
pub mod probcut;
pub mod search;
mod solver_stats;
pub mod stability;
pub mod symmetry;
mod zobrist;

use std::fmt::Write as _;
use std::str::FromStr;

use self::bitboard::{Squares, flips, legal_moves, square_bit};
use self::pattern::Features;
use super::notation::{self, Point};
use super::{Game, GameError, Move, Outcome, Side};
use crate::text::quote;

/// Who wins at the end: most discs (`Normal`) or fewest (`Misere`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rule {
    #[default]
    Normal,
    Misere,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Normal => "normal",
            Rule::Misere => "misere",
        }
    }
}

impl FromStr for Rule {
    type Err = GameError;

    fn from_str(text: &str) -> Result<Rule, GameError> {
        match text.to_ascii_lowercase().as_str() {
            "normal" => Ok(Rule::Normal),
            "misere" | "misère" => Ok(Rule::Misere),
            _ => Err(GameError::Variant(format!(
                "unknown othello rule {}: expected normal or misere",
                quote(text)
            ))),
        }
    }
}

pub const SIZES: [usize; 3] = [4, 6, 8];

/// An Othello position. Discs are kept relative to the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    player: u64,
    opponent: u64,
    side: Side,
    /// The squares of the board within the 8x8 layout.
    board: u64,
    size: u8,
    rule: Rule,
    hash: u64,
    /// Whether the pattern evaluation applies (8x8, either rule): only then are
    /// `features` kept.
    patterned: bool,
    features: Features,
}

/// What `unmake` needs: the flipped discs, and the hash and pattern features before the
/// move (copied back whole: cheaper than undoing the features' update).
#[derive(Clone, Copy, Debug)]
pub struct OthelloUndo {
    flipped: u64,
    hash: u64,
    features: Features,
}

impl Othello {
    /// The start position: white on the main-diagonal centre squares, black on the others.
    pub fn new(size: usize, rule: Rule) -> Result<Othello, GameError> {
        if !SIZES.contains(&size) {
            return Err(GameError::Variant(format!(
                "othello board size must be 4, 6 or 8, not {size}"
            )));
        }
        let low = size / 2 - 1;
        let high = size / 2;
        let white = square_bit(low * 8 + low) | square_bit(high * 8 + high);
        let black = square_bit(low * 8 + high) | square_bit(high * 8 + low);
        Ok(Othello::from_discs(size, rule, black, white, Side::Black))
    }

    pub fn standard() -> Othello {
        Othello::new(8, Rule::Normal).expect("8 is a valid size")
    }

    /// An 8x8 normal-rule position with these discs for the side to move and the other.
    pub fn from_sides(player: u64, opponent: u64, black_to_move: bool) -> Othello {
        Othello::from_sides_under(Rule::Normal, player, opponent, black_to_move)
    }

    /// [`Othello::from_sides`] under `rule`.
    pub fn from_sides_under(
        rule: Rule,
        player: u64,
        opponent: u64,
        black_to_move: bool,
    ) -> Othello {
        let (black, white, side) = if black_to_move {
            (player, opponent, Side::Black)
        } else {
            (opponent, player, Side::White)
        };
        Othello::from_discs(8, rule, black, white, side)
    }

    fn from_discs(size: usize, rule: Rule, black: u64, white: u64, side: Side) -> Othello {
        let (player, opponent) = match side {
            Side::Black => (black, white),
            Side::White => (white, black),
        };
        let patterned = size == 8;
        Othello {
            player,
            opponent,
            side,
            board: board_squares(size),
            size: size as u8,
            rule,
            hash: zobrist::full_hash(black, white, side),
            patterned,
            features: if patterned {
                Features::new(black, white)
            } else {
                Features::default()
            },
        }
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The pattern evaluation kept up to date move by move; `None` where it does not
    /// apply (boards other than 8x8).
    #[inline]
    pub fn pattern_evaluation(&self) -> Option<i32> {
        self.patterned.then(|| {
            let empties = 64 - (self.player | self.opponent).count_ones();
            self.features
                .evaluate(self.rule, self.side == Side::Black, empties)
        })
    }

    /// The pattern evaluation after the side to move fills `square` and turns
    /// `flipped`, from the other side's view, without making the move; `None` where the
    /// pattern evaluation does not apply.
    #[inline]
    pub fn child_pattern_evaluation(&self, square: usize, flipped: u64) -> Option<i32> {
        self.patterned.then(|| {
            let mut features = self.features;
            features.play(self.side == Side::Black, square, flipped);
            let empties = 63 - (self.player | self.opponent).count_ones();
            features.evaluate(self.rule, self.side != Side::Black, empties)
        })
    }

    /// Discs of the side to move.
    #[inline]
    pub fn player(&self) -> u64 {
        self.player
    }

    /// Discs of the side not to move.
    #[inline]
    pub fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The board's squares within the 8x8 layout.
    #[inline]
    pub fn board(&self) -> u64 {
        self.board
    }

    pub fn discs(&self, side: Side) -> u64 {
        if side == self.side {
            self.player
        } else {
            self.opponent
        }
    }

    pub fn empties(&self) -> u64 {
        self.board & !(self.player | self.opponent)
    }

    /// Legal squares for the side to move, as a bitboard.
    #[inline]
    pub fn move_mask(&self) -> u64 {
        legal_moves(self.player, self.opponent, self.board)
    }

    fn opponent_move_mask(&self) -> u64 {
        legal_moves(self.opponent, self.player, self.board)
    }

    pub fn is_over(&self) -> bool {
        self.move_mask() == 0 && self.opponent_move_mask() == 0
    }

    fn col_row(&self, square: usize) -> (usize, usize) {
        (square % 8, square / 8)
    }

    fn cell_char(&self, square: usize) -> char {
        let bit = square_bit(square);
        if self.discs(Side::Black) & bit != 0 {
            'X'
        } else if self.discs(Side::White) & bit != 0 {
            'O'
        } else {
            '-'
        }
    }

    /// The position as `setboard` takes it: cells row by row, then the side (`X`/`O`).
    pub fn to_board_string(&self) -> String {
        let size = self.size();
        let mut text = String::with_capacity(size * size + 2);
        for row in 0..size {
            for col in 0..size {
                text.push(self.cell_char(row * 8 + col));
            }
        }
        text.push(' ');
        text.push(if self.side == Side::Black { 'X' } else { 'O' });
        text
    }
}

fn board_squares(size: usize) -> u64 {
    let row: u64 = (1u64 << size) - 1;
    (0..size).fold(0, |board, r| board | row << (8 * r))
}

impl Game for Othello {
    type Undo = OthelloUndo;

    fn name(&self) -> &'static str {
        "othello"
    }

    fn size(&self) -> usize {
        self.size as usize
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let mask = self.move_mask();
        if mask != 0 {
            moves.extend(Squares(mask).map(|square| Move::new(square as u16)));
        } else if self.opponent_move_mask() != 0 {
            moves.push(Move::PASS);
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        let mask = self.move_mask();
        if mv.is_pass() {
            mask == 0 && self.opponent_move_mask() != 0
        } else {
            mv.square() < 64 && mask & square_bit(mv.square()) != 0
        }
    }

    #[inline]
    fn make(&mut self, mv: Move) -> OthelloUndo {
        let undo = OthelloUndo {
            flipped: 0,
            hash: self.hash,
            features: self.features,
        };
        if mv.is_pass() {
            self.hash ^= zobrist::SIDE;
        } else {
            let square = mv.square();
            let flipped = flips(square, self.player, self.opponent);
            self.hash ^=
                zobrist::placed(self.side, square) ^ zobrist::flipped(flipped) ^ zobrist::SIDE;
            if self.patterned {
                self.features
                    .play(self.side == Side::Black, square, flipped);
            }
            let player = self.player | flipped | square_bit(square);
            self.player = self.opponent ^ flipped;
            self.opponent = player;
            self.side = self.side.opponent();
            return OthelloUndo { flipped, ..undo };
        }
        std::mem::swap(&mut self.player, &mut self.opponent);
        self.side = self.side.opponent();
        undo
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: OthelloUndo) {
        if mv.is_pass() {
            std::mem::swap(&mut self.player, &mut self.opponent);
        } else {
            let mover = self.opponent ^ undo.flipped ^ square_bit(mv.square());
            self.opponent = self.player ^ undo.flipped;
            self.player = mover;
        }
        self.side = self.side.opponent();
        self.hash = undo.hash;
        self.features = undo.features;
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let black = self.discs(Side::Black).count_ones();
        let white = self.discs(Side::White).count_ones();
        let leader = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(Side::Black),
            std::cmp::Ordering::Less => Some(Side::White),
            std::cmp::Ordering::Equal => None,
        };
        let winner = match self.rule {
            Rule::Normal => leader,
            Rule::Misere => leader.map(Side::opponent),
        };
        Some(Outcome { winner })
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        match notation::parse_point(text, self.size())? {
            Point::Pass => Ok(Move::PASS),
            Point::At { col, row } => Ok(Move::new((row * 8 + col) as u16)),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        if mv.is_pass() {
            return "pass".to_string();
        }
        let (col, row) = self.col_row(mv.square());
        notation::format_point(col, row, self.size())
    }

    fn field_index(&self, mv: Move) -> Option<usize> {
        if mv.is_pass() {
            return None;
        }
        let (col, row) = self.col_row(mv.square());
        Some(row * self.size() + col)
    }

    fn diagram(&self) -> String {
        let size = self.size();
        let moves = self.move_mask();
        let mut text = String::from("  ");
        for col in 0..size {
            text.push(' ');
            text.push(notation::column_name(col));
        }
        text.push('\n');
        for row in 0..size {
            let _ = write!(text, "{:>2}", row + 1);
            for col in 0..size {
                let square = row * 8 + col;
                let cell = match self.cell_char(square) {
                    '-' if moves & square_bit(square) != 0 => '*',
                    '-' => '.',
                    disc => disc,
                };
                text.push(' ');
                text.push(cell);
            }
            text.push('\n');
        }
        let black = self.discs(Side::Black).count_ones();
        let white = self.discs(Side::White).count_ones();
        let _ = write!(text, "black (X) {black}, white (O) {white}; ");
        match self.outcome() {
            None => {
                let _ = write!(text, "{} to move (* = legal move)", self.side);
            }
            Some(Outcome { winner: Some(side) }) => {
                let _ = write!(text, "game over, {side} wins ({} rule)", self.rule.name());
            }
            Some(Outcome { winner: None }) => text.push_str("game over, draw"),
        }
        text
    }

    fn status_details(&self) -> String {
        format!(
            "{} {}",
            self.discs(Side::Black).count_ones(),
            self.discs(Side::White).count_ones()
        )
    }

    fn cells(&self) -> String {
        let mut text = self.to_board_string();
        text.truncate(self.size() * self.size());
        text
    }

    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), GameError> {
        let size = self.size();
        let count = cells.chars().count();
        if count != size * size {
            return Err(GameError::Board(format!(
                "setboard: a {size}x{size} board needs {} cells, got {count}",
                size * size
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (index, cell) in cells.chars().enumerate() {
            let bit = square_bit((index / size) * 8 + index % size);
            match cell {
                'X' | 'x' | '*' => black |= bit,
                'O' | 'o' => white |= bit,
                '-' | '.' => {}
                other => {
                    return Err(GameError::Board(format!(
                        "setboard: bad cell {other:?} at position {}: expected X, x, *, O, o, - or .",
                        index + 1
                    )));
                }
            }
        }
        *self = Othello::from_discs(size, self.rule, black, white, side);
        Ok(())
    }

    fn immediate_score(&self, side: Side) -> i32 {
        let own = self.discs(side).count_ones() as i32;
        let other = self.discs(side.opponent()).count_ones() as i32;
        match self.rule {
            Rule::Normal => own - other,
            Rule::Misere => other - own,
        }
    }

    fn perft(&mut self, depth: u32) -> u64 {
        bitboard::perft(self.player, self.opponent, self.board, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(game: &Othello) -> Vec<String> {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        moves.iter().map(|&mv| game.format_move(mv)).collect()
    }

    #[test]
    fn start_positions() {
        let game = Othello::standard();
        assert_eq!(names(&game), ["d3", "c4", "f5", "e6"]);
        assert_eq!(
            game.to_board_string(),
            "---------------------------OX------XO--------------------------- X"
        );
        let small = Othello::new(4, Rule::Normal).unwrap();
        assert_eq!(small.to_board_string(), "-----OX--XO----- X");
        assert_eq!(names(&small), ["b1", "a2", "d3", "c4"]);
        assert!(Othello::new(5, Rule::Normal).is_err());
    }

    #[test]
    fn make_unmake_restores_and_hash_matches_scratch() {
        let mut game = Othello::standard();
        let start = game.clone();
        let mut played = Vec::new();
        let mut moves = Vec::new();
        for step in 0..60 {
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(step * 7) % moves.len()];
            let undo = game.make(mv);
            let black = game.discs(Side::Black);
            let white = game.discs(Side::White);
            assert_eq!(
                game.hash(),
                zobrist::full_hash(black, white, game.side_to_move())
            );
            played.push((mv, undo));
        }
        assert!(game.is_over());
        while let Some((mv, undo)) = played.pop() {
            game.unmake(mv, undo);
        }
        assert_eq!(game, start);
    }

    /// The pattern features kept by make and unmake give the evaluation from scratch,
    /// through random games that go forward and back, passes included.
    #[test]
    fn incremental_and_scratch_evaluations_agree() {
        for rule in [Rule::Normal, Rule::Misere] {
            incremental_and_scratch_evaluations_agree_under(rule);
        }
        // Only 8x8 has trained patterns.
        for rule in [Rule::Normal, Rule::Misere] {
            assert_eq!(Othello::new(6, rule).unwrap().pattern_evaluation(), None);
        }
    }

    fn incremental_and_scratch_evaluations_agree_under(rule: Rule) {
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let check = |game: &Othello| {
            let (black, white) = (game.discs(Side::Black), game.discs(Side::White));
            assert_eq!(
                game.features,
                Features::new(black, white),
                "{}",
                game.to_board_string()
            );
            assert_eq!(
                game.pattern_evaluation(),
                Some(pattern::evaluate(rule, game.player(), game.opponent())),
                "{}",
                game.to_board_string()
            );
        };
        let mut rng = StdRng::seed_from_u64(17);
        let mut moves = Vec::new();
        let mut passes = 0;
        for _ in 0..200 {
            let mut game = Othello::new(8, rule).unwrap();
            let start = game.clone();
            let mut played: Vec<(Move, OthelloUndo)> = Vec::new();
            check(&game);
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // One step in four goes back (and then forward again).
                if !played.is_empty() && rng.random_range(0..4) == 0 {
                    let (mv, undo) = played.pop().unwrap();
                    game.unmake(mv, undo);
                    check(&game);
                    continue;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                passes += mv.is_pass() as u32;
                played.push((mv, game.make(mv)));
                check(&game);
            }
            while let Some((mv, undo)) = played.pop() {
                game.unmake(mv, undo);
                check(&game);
            }
            assert_eq!(game, start);
        }
        assert!(passes > 0, "no pass was played");
    }

    /// The move order's look at a child without making it gives the evaluation the
    /// child itself has, made and from scratch.
    #[test]
    fn a_child_is_evaluated_as_if_played() {
        for rule in [Rule::Normal, Rule::Misere] {
            a_child_is_evaluated_as_if_played_under(rule);
        }
        let small = Othello::new(6, Rule::Normal).unwrap();
        let square = small.move_mask().trailing_zeros() as usize;
        let flipped = flips(square, small.player(), small.opponent());
        assert_eq!(small.child_pattern_evaluation(square, flipped), None);
    }

    fn a_child_is_evaluated_as_if_played_under(rule: Rule) {
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(23);
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..60 {
            let mut game = Othello::new(8, rule).unwrap();
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter().filter(|mv| !mv.is_pass()) {
                    let flipped = flips(mv.square(), game.player(), game.opponent());
                    let seen = game.child_pattern_evaluation(mv.square(), flipped);
                    let mut child = game.clone();
                    child.make(mv);
                    assert_eq!(
                        seen,
                        child.pattern_evaluation(),
                        "{}",
                        child.to_board_string()
                    );
                    let scratch = pattern::evaluate(rule, child.player(), child.opponent());
                    assert_eq!(seen, Some(scratch), "{}", child.to_board_string());
                    checked += 1;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                game.make(mv);
            }
        }
        assert!(checked > 10_000, "{checked} children");
    }

    #[test]
    fn misere_reverses_the_winner() {
        let mut game = Othello::new(4, Rule::Misere).unwrap();
        game.set_board("XXXXXXXXXXXXOOOO", Side::Black).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(Side::White)
            })
        );
        assert_eq!(game.status_details(), "12 4");
        let mut normal = Othello::new(4, Rule::Normal).unwrap();
        normal.set_board("XXXXXXXXOOOOOOOO", Side::White).unwrap();
        assert_eq!(normal.outcome(), Some(Outcome { winner: None }));
    }

    #[test]
    fn pass_is_the_only_move_when_stuck() {
        let mut game = Othello::standard();
        // White to move with no discs to bracket; black can still move.
        game.set_board(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-",
            Side::White,
        )
        .unwrap();
        assert_eq!(names(&game), ["pass"]);
        assert!(game.is_legal(Move::PASS));
        game.set_board(&format!("{}-", "X".repeat(63)), Side::White)
            .unwrap();
        assert_eq!(names(&game), Vec::<String>::new());
        assert!(game.is_over());
    }
}
