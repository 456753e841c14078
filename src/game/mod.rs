//! The game abstraction shared by the search, the protocol, the players and the harness:
//! the rules behind [`Game`], and the narrow roles the engine needs beside them in
//! [`roles`].
//!
//! Every game arbor plays is a two-player placement game on a square board: a move is a
//! point (or a pass). Game-specific speed (bitboards, incremental pattern counts) stays
//! behind [`Game`].

pub mod gomoku;
pub mod notation;
pub mod othello;
pub mod perft;
pub mod roles;
pub mod split;
pub mod variant;

use std::fmt;

/// One of the two players. Black moves first in every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Black, Side::White];

    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// Accepts `black`/`white`, `b`/`w`, `X`/`O` in any case.
    pub fn parse(text: &str) -> Option<Side> {
        match text.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" | "*" => Some(Side::Black),
            "white" | "w" | "o" => Some(Side::White),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move: a point in the game's own square numbering, or a pass.
///
/// The numbering is internal (Othello uses its bitboard index); text goes through
/// [`Game::parse_move`] and [`Game::format_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    pub const PASS: Move = Move(u16::MAX);

    #[inline]
    pub const fn new(square: u16) -> Move {
        Move(square)
    }

    #[inline]
    pub const fn square(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == u16::MAX
    }

    /// Raw encoding, for compact storage (transposition table entries).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
}

/// Why the rules refused a text: the kinds callers tell apart, each with its message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// Text that names no move of the game (or none on this board).
    #[error("{0}")]
    Move(String),
    /// Cells and a side that are no position of the game.
    #[error("{0}")]
    Board(String),
    /// A game name or option (size, rule, opening, k) the games do not have.
    #[error("{0}")]
    Variant(String),
    /// A line of an OBF file that is not one.
    #[error("{0}")]
    Obf(String),
}

/// Whether a record left out a forced pass before its move `next`: the side to move has
/// only a pass, and `next` is the other side's (`side`, where the record names colours)
/// or, without colours, a move rather than a pass. WTHOR's records, Quarry and the NBoard
/// GUI leave these passes out; everything that replays a record asks here.
pub fn pass_left_out(
    legal: &[Move],
    to_move: Side,
    side: Option<Side>,
    next: Option<Move>,
) -> bool {
    legal == [Move::PASS]
        && match side {
            Some(side) => side != to_move,
            None => next.is_some_and(|mv| !mv.is_pass()),
        }
}

/// Plays the pass a record left out before `next` (see [`pass_left_out`]); returns
/// whether it did.
pub fn fill_left_out_pass<G: Game>(game: &mut G, side: Option<Side>, next: Option<Move>) -> bool {
    let mut legal = Vec::new();
    game.generate_moves(&mut legal);
    let left_out = pass_left_out(&legal, game.side_to_move(), side, next);
    if left_out {
        game.make(Move::PASS);
    }
    left_out
}

/// A two-player perfect-information game, as seen by everything outside the game module.
///
/// Move lists are reusable buffers: `generate_moves` clears and fills one without
/// allocating once it has grown. `make` returns what `unmake` needs to restore the
/// position exactly, hash included.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// Whatever `unmake` needs beyond the move itself.
    type Undo: Copy + Send + fmt::Debug;

    /// The protocol's name of the game (`othello`, `gomoku`, ...).
    fn name(&self) -> &'static str;

    /// Board width (boards are square).
    fn size(&self) -> usize;

    fn side_to_move(&self) -> Side;

    /// Legal moves in increasing field index; exactly `[Move::PASS]` when passing is
    /// the only move; empty when the game is over.
    fn generate_moves(&self, moves: &mut Vec<Move>);

    /// Whether `mv` is legal for the side to move (a pass only when it is the only move).
    fn is_legal(&self, mv: Move) -> bool;

    /// Fields where the rule forbids Black a stone whoever is to move (renju); none in
    /// most games.
    fn forbidden_fields(&self) -> Vec<usize> {
        Vec::new()
    }

    /// Why `mv` is illegal when the rule has something to say beyond "occupied" or
    /// "off the board" (renju's forbidden points): for error messages.
    fn illegal_reason(&self, _mv: Move) -> Option<String> {
        None
    }

    /// Plays a legal move. Playing an illegal move is a logic error (the position is
    /// unspecified afterwards, but memory stays safe).
    fn make(&mut self, mv: Move) -> Self::Undo;

    /// Takes back `mv`, which must be the last move made, with the undo `make` returned.
    fn unmake(&mut self, mv: Move, undo: Self::Undo);

    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit hash of the position (board and side to move), kept incrementally.
    fn hash(&self) -> u64;

    /// Parses a move name (`d3`, `D3`, `3,2` as 0-based column,row, or `pass`).
    /// Checks the syntax and the board bounds, not legality.
    fn parse_move(&self, text: &str) -> Result<Move, GameError>;

    fn format_move(&self, mv: Move) -> String;

    /// The field index (row * size + col) of a point; `None` for a pass.
    fn field_index(&self, mv: Move) -> Option<usize>;

    /// A board diagram with coordinates, side to move and counts.
    fn diagram(&self) -> String;

    /// Game-specific words for `status` after `over <winner>`, e.g. Othello's disc counts.
    fn status_details(&self) -> String;

    /// Game-specific words for `status` after `playing <side>` (Pente: captures).
    fn playing_details(&self) -> String {
        String::new()
    }

    /// The board row by row, one of `X` (black), `O` (white), `-` per point: what
    /// `set_board` reads.
    fn cells(&self) -> String;

    /// Replaces the position from a row-by-row cell string (see protocol.md).
    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), GameError>;

    /// The built-in greedy player's one-move measure: how good the position is for `side`
    /// by the game's own immediate count (Othello: disc difference under the rule).
    fn immediate_score(&self, side: Side) -> i32;

    /// Leaf count at `depth` (a pass is a ply; a finished game is one leaf). Games
    /// override this with a faster walk; the default is the plain make/unmake one.
    fn perft(&mut self, depth: u32) -> u64 {
        perft::perft_generic(self, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_of_the_rules_has_its_kind() {
        use othello::Othello;
        let mut game = Othello::standard();
        assert!(matches!(game.parse_move("z9"), Err(GameError::Move(_))));
        assert!(matches!(
            game.set_board("XO", Side::Black),
            Err(GameError::Board(_))
        ));
        assert!(matches!(
            variant::Variant::parse("chess", []),
            Err(GameError::Variant(_))
        ));
        assert!(matches!(
            othello::obf::parse_obf_line("XO"),
            Err(GameError::Obf(_))
        ));
        // The messages are the rules' own.
        let error = game.parse_move("z9").unwrap_err().to_string();
        assert_eq!(error, "move 'z9' is off the 8x8 board");
    }

    #[test]
    fn a_pass_is_left_out_only_before_the_other_sides_move() {
        let d3 = Some(Move::new(19));
        let pass = [Move::PASS];
        let black = Side::Black;
        // Without colours: a move where only a pass is legal.
        assert!(pass_left_out(&pass, black, None, d3));
        assert!(!pass_left_out(&pass, black, None, Some(Move::PASS)));
        assert!(!pass_left_out(&pass, black, None, None));
        assert!(!pass_left_out(&[Move::new(19)], black, None, d3));
        // With colours: the other side's move, whatever it is.
        assert!(pass_left_out(&pass, black, Some(Side::White), None));
        assert!(!pass_left_out(&pass, black, Some(black), d3));
        assert!(!pass_left_out(
            &[Move::PASS, Move::new(19)],
            black,
            Some(Side::White),
            d3
        ));
    }
}
