//! arbor's Gomoku, Pente and tic-tac-toe checked against an independent reference written
//! in this file from the rules as specified, not from `src/`. The reference is a plain
//! `Vec<u8>` board (`row * size + col`); lines are found by scanning the whole board for
//! runs after every move, captures by looking three points out in each of the 8
//! directions. The rules it follows:
//!
//! * `gomoku [size=N] [rule=freestyle|exact] [opening=center|free]`: N = 5..=99 (default
//!   15); Black first; one stone per move on an empty point, no passes; freestyle: five or
//!   more in a row wins, exact: exactly five (an overline does not win, the game goes on);
//!   a full board without a winner is a draw; opening=center (default on odd sizes):
//!   Black's first stone on the centre (N/2, N/2); even sizes default to free and reject
//!   center;
//! * `pente [size=19] [opening=center|tournament|free]`: freestyle Gomoku plus custodial
//!   capture of exactly two stones (X O O X, 8 directions, several pairs at once); moving
//!   into a bracket is safe; five captured pairs win; tournament: the centre first and
//!   Black's second stone (the third move) at Chebyshev distance >= 3 from the centre;
//! * `tictactoe [size=N] [k=K]`: K (default N) or more in a row wins, no opening rule;
//! * names: column letter + row number (a1 top-left) up to 26 wide, `x,y` (0-based) above
//!   that and always accepted; legal moves in increasing field index.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use arbor::game::gomoku::Gomoku;
use arbor::game::roles::SearchGame;
use arbor::game::variant::{GameVisitor, Variant};
use arbor::game::{Game, Move, Outcome, Side};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(format!($($arg)*));
        }
    };
}

// ---------------------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------------------

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// Captured pairs that win at Pente.
const PAIRS_TO_WIN: u32 = 5;

/// The directions a line can run in: right, down, down-right, down-left.
const LINE_DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// All eight directions, for captures.
const ALL_DIRECTIONS: [(isize, isize); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];

fn other(colour: u8) -> u8 {
    if colour == BLACK { WHITE } else { BLACK }
}

fn colour_of(side: Side) -> u8 {
    match side {
        Side::Black => BLACK,
        Side::White => WHITE,
    }
}

fn side_of(colour: u8) -> Side {
    if colour == BLACK {
        Side::Black
    } else {
        Side::White
    }
}

/// Index into `[black, white]` arrays.
fn slot(colour: u8) -> usize {
    if colour == BLACK { 0 } else { 1 }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gomoku,
    Pente,
    TicTacToe,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    Center,
    Tournament,
    Free,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rules {
    kind: Kind,
    size: usize,
    /// Stones in a row that win.
    k: usize,
    /// Only exactly `k` in a row wins.
    exact: bool,
    start: Start,
}

impl Rules {
    /// The rules a game name and its options stand for, with the specified defaults.
    fn from_spec(name: &str, options: &[(&str, &str)]) -> Rules {
        let get = |key: &str| {
            options
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        };
        let number = |key: &str| get(key).map(|v| v.parse::<usize>().unwrap());
        let kind = match name {
            "gomoku" => Kind::Gomoku,
            "pente" => Kind::Pente,
            "tictactoe" => Kind::TicTacToe,
            _ => panic!("not a k-in-a-row game: {name}"),
        };
        let size = number("size").unwrap_or_else(|| match kind {
            Kind::Gomoku => 15,
            Kind::Pente => 19,
            Kind::TicTacToe => panic!("give tictactoe a size"),
        });
        let k = match kind {
            Kind::TicTacToe => number("k").unwrap_or(size),
            _ => 5,
        };
        let exact = get("rule").as_deref() == Some("exact");
        let start = match get("opening").as_deref() {
            Some("center") => Start::Center,
            Some("tournament") => Start::Tournament,
            Some("free") => Start::Free,
            None if kind != Kind::TicTacToe && size % 2 == 1 => Start::Center,
            None => Start::Free,
            Some(other) => panic!("unknown opening {other}"),
        };
        Rules {
            kind,
            size,
            k,
            exact,
            start,
        }
    }
}

/// Bugs that can be planted in the reference to see whether the comparison notices
/// (`planted_bugs_are_caught`). `None` everywhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Planted {
    /// Under rule=exact an overline wins too.
    OverlineWinsUnderExact,
    /// Under freestyle only exactly five wins.
    OverlineLosesUnderFreestyle,
    /// K-1 in a row already wins.
    ShortLineWins,
    /// Lines along the down-left diagonal are not seen.
    NoAntiDiagonal,
    /// The board is walked by flat index, so rows wrap around into the next one.
    RowsWrapAround,
    /// Captures only in four of the eight directions.
    CapturesForwardOnly,
    /// A stone moved into a bracket (X O O X made by O) is captured.
    CapturesIntoBracket,
    /// X O O O X captures the three as well.
    CapturesThree,
    /// Four captured pairs win.
    CaptureWinAtFour,
    /// The tournament rule asks for distance 2 instead of 3.
    TournamentDistanceTwo,
    /// A full board without a line is not a draw (the game just has no moves).
    NoDrawOnFullBoard,
}

const ALL_PLANTED: [Planted; 11] = [
    Planted::OverlineWinsUnderExact,
    Planted::OverlineLosesUnderFreestyle,
    Planted::ShortLineWins,
    Planted::NoAntiDiagonal,
    Planted::RowsWrapAround,
    Planted::CapturesForwardOnly,
    Planted::CapturesIntoBracket,
    Planted::CapturesThree,
    Planted::CaptureWinAtFour,
    Planted::TournamentDistanceTwo,
    Planted::NoDrawOnFullBoard,
];

#[derive(Clone, Debug, PartialEq, Eq)]
struct Reference {
    rules: Rules,
    /// `EMPTY`, `BLACK` or `WHITE` per field, `row * size + col`.
    cells: Vec<u8>,
    to_move: u8,
    /// Moves played since the start (stones on the board after a setup).
    moves_made: usize,
    /// Pairs captured by `[black, white]`.
    captures: [u32; 2],
    /// `Some(Some(colour))` won, `Some(None)` drawn, `None` going on.
    result: Option<Option<u8>>,
    planted: Option<Planted>,
}

impl Reference {
    fn new(rules: Rules, planted: Option<Planted>) -> Reference {
        Reference {
            rules,
            cells: vec![EMPTY; rules.size * rules.size],
            to_move: BLACK,
            moves_made: 0,
            captures: [0, 0],
            result: None,
            planted,
        }
    }

    /// A set-up position from `X`/`O`/`-` cells row by row; no captures so far.
    fn from_cells(rules: Rules, cells: &str, side: Side) -> Reference {
        let mut reference = Reference::new(rules, None);
        assert_eq!(cells.chars().count(), rules.size * rules.size);
        for (field, ch) in cells.chars().enumerate() {
            reference.cells[field] = match ch {
                'X' => BLACK,
                'O' => WHITE,
                '-' => EMPTY,
                _ => panic!("bad cell {ch:?}"),
            };
        }
        reference.to_move = colour_of(side);
        reference.moves_made = reference.cells.iter().filter(|&&c| c != EMPTY).count();
        let black = reference.has_line(BLACK);
        let white = reference.has_line(WHITE);
        assert!(!(black && white), "both sides have a line");
        reference.result = if black {
            Some(Some(BLACK))
        } else if white {
            Some(Some(WHITE))
        } else if reference.is_full() {
            Some(None)
        } else {
            None
        };
        reference
    }

    fn is(&self, bug: Planted) -> bool {
        self.planted == Some(bug)
    }

    fn size(&self) -> usize {
        self.rules.size
    }

    /// The cell at (row, col), `None` off the board.
    fn at(&self, row: isize, col: isize) -> Option<u8> {
        let n = self.size() as isize;
        if self.is(Planted::RowsWrapAround) {
            let flat = row * n + col;
            return (0..n * n)
                .contains(&flat)
                .then(|| self.cells[flat as usize]);
        }
        if row < 0 || col < 0 || row >= n || col >= n {
            return None;
        }
        Some(self.cells[(row * n + col) as usize])
    }

    fn is_full(&self) -> bool {
        self.cells.iter().all(|&c| c != EMPTY)
    }

    fn centre(&self) -> usize {
        let half = self.size() / 2;
        half * self.size() + half
    }

    fn distance_from_centre(&self, field: usize) -> usize {
        let half = self.size() / 2;
        let (row, col) = (field / self.size(), field % self.size());
        row.abs_diff(half).max(col.abs_diff(half))
    }

    /// Whether the opening rule lets the side to move play on `field`.
    fn opening_allows(&self, field: usize) -> bool {
        match self.rules.start {
            Start::Free => true,
            Start::Center if self.moves_made == 0 => field == self.centre(),
            Start::Center => true,
            Start::Tournament if self.moves_made == 0 => field == self.centre(),
            Start::Tournament if self.moves_made == 2 => {
                let needed = if self.is(Planted::TournamentDistanceTwo) {
                    2
                } else {
                    3
                };
                self.distance_from_centre(field) >= needed
            }
            Start::Tournament => true,
        }
    }

    /// Legal moves in increasing field index; none once the game is over.
    fn legal_moves(&self) -> Vec<usize> {
        if self.result.is_some() {
            return Vec::new();
        }
        (0..self.cells.len())
            .filter(|&field| self.cells[field] == EMPTY && self.opening_allows(field))
            .collect()
    }

    /// Whether a run of `length` stones wins.
    fn run_wins(&self, length: usize) -> bool {
        let k = if self.is(Planted::ShortLineWins) {
            self.rules.k - 1
        } else {
            self.rules.k
        };
        let mut overline_wins = !self.rules.exact;
        if self.is(Planted::OverlineWinsUnderExact) {
            overline_wins = true;
        }
        if self.is(Planted::OverlineLosesUnderFreestyle) {
            overline_wins = false;
        }
        length == k || (length > k && overline_wins)
    }

    /// The lengths of all maximal runs of `colour` on the board, whole-board scan.
    fn runs(&self, colour: u8) -> Vec<usize> {
        let n = self.size() as isize;
        let directions = if self.is(Planted::NoAntiDiagonal) {
            &LINE_DIRECTIONS[..3]
        } else {
            &LINE_DIRECTIONS[..]
        };
        let mut runs = Vec::new();
        for row in 0..n {
            for col in 0..n {
                for &(dr, dc) in directions {
                    // Count each run once, from its first stone.
                    if self.at(row, col) != Some(colour)
                        || self.at(row - dr, col - dc) == Some(colour)
                    {
                        continue;
                    }
                    let mut length = 0;
                    while self.at(row + length * dr, col + length * dc) == Some(colour) {
                        length += 1;
                    }
                    runs.push(length as usize);
                }
            }
        }
        runs
    }

    fn has_line(&self, colour: u8) -> bool {
        self.runs(colour)
            .into_iter()
            .any(|length| self.run_wins(length))
    }

    /// The stones a stone of `colour` on (row, col) captures: pairs bracketed by it.
    fn captured_by(&self, row: isize, col: isize, colour: u8) -> Vec<Vec<(isize, isize)>> {
        let enemy = other(colour);
        let mut pairs = Vec::new();
        for (index, &(dr, dc)) in ALL_DIRECTIONS.iter().enumerate() {
            if self.is(Planted::CapturesForwardOnly) && index >= 4 {
                continue;
            }
            let step = |n: isize| self.at(row + n * dr, col + n * dc);
            if step(1) == Some(enemy) && step(2) == Some(enemy) && step(3) == Some(colour) {
                pairs.push(vec![(row + dr, col + dc), (row + 2 * dr, col + 2 * dc)]);
            }
            if self.is(Planted::CapturesThree)
                && step(1) == Some(enemy)
                && step(2) == Some(enemy)
                && step(3) == Some(enemy)
                && step(4) == Some(colour)
            {
                pairs.push((1..=3).map(|n| (row + n * dr, col + n * dc)).collect());
            }
        }
        pairs
    }

    fn clear(&mut self, row: isize, col: isize) {
        let n = self.size() as isize;
        self.cells[(row * n + col) as usize] = EMPTY;
    }

    /// Plays a legal move for the side to move.
    fn play(&mut self, field: usize) {
        assert!(
            self.legal_moves().contains(&field),
            "reference asked to play the illegal {field}"
        );
        let me = self.to_move;
        let (row, col) = (
            (field / self.size()) as isize,
            (field % self.size()) as isize,
        );
        self.cells[field] = me;
        if self.rules.kind == Kind::Pente {
            let pairs = self.captured_by(row, col, me);
            for pair in &pairs {
                for &(r, c) in pair {
                    self.clear(r, c);
                }
            }
            self.captures[slot(me)] += pairs.len() as u32;
            if self.is(Planted::CapturesIntoBracket) {
                // Wrongly: the new stone and a neighbour of its colour bracketed by two
                // enemy stones are taken.
                let enemy = other(me);
                for (dr, dc) in ALL_DIRECTIONS {
                    if self.at(row - dr, col - dc) == Some(enemy)
                        && self.at(row + dr, col + dc) == Some(me)
                        && self.at(row + 2 * dr, col + 2 * dc) == Some(enemy)
                        && self.cells[field] == me
                    {
                        self.clear(row, col);
                        self.clear(row + dr, col + dc);
                        self.captures[slot(enemy)] += 1;
                    }
                }
            }
        }
        self.moves_made += 1;
        self.to_move = other(me);
        let pairs_to_win = if self.is(Planted::CaptureWinAtFour) {
            4
        } else {
            PAIRS_TO_WIN
        };
        let five_pairs = self.rules.kind == Kind::Pente && self.captures[slot(me)] >= pairs_to_win;
        self.result = if self.has_line(me) || five_pairs {
            Some(Some(me))
        } else if self.is_full() && !self.is(Planted::NoDrawOnFullBoard) {
            Some(None)
        } else {
            None
        };
    }

    /// `X`, `O` and `-` row by row, as `setboard` takes it.
    fn board_string(&self) -> String {
        self.cells
            .iter()
            .map(|&c| match c {
                BLACK => 'X',
                WHITE => 'O',
                _ => '-',
            })
            .collect()
    }

    fn outcome(&self) -> Option<Option<Side>> {
        self.result.map(|winner| winner.map(side_of))
    }

    fn drawing(&self) -> String {
        let text = self.board_string();
        let rows: Vec<&str> = (0..self.size())
            .map(|row| &text[row * self.size()..(row + 1) * self.size()])
            .collect();
        format!(
            "{}\n{} to move, captures {:?}, result {:?}",
            rows.join("\n"),
            side_of(self.to_move),
            self.captures,
            self.outcome()
        )
    }
}

/// The specified name of a field.
fn name_of(field: usize, size: usize) -> String {
    let (row, col) = (field / size, field % size);
    if size <= 26 {
        format!("{}{}", (b'a' + col as u8) as char, row + 1)
    } else {
        format!("{col},{row}")
    }
}

/// The field a name (`c5` or `2,4`) stands for.
fn field_of(name: &str, size: usize) -> usize {
    let (col, row) = match name.split_once(',') {
        Some((x, y)) => (x.parse::<usize>().unwrap(), y.parse::<usize>().unwrap()),
        None => {
            let col = (name.as_bytes()[0].to_ascii_lowercase() - b'a') as usize;
            let row = name[1..].parse::<usize>().unwrap() - 1;
            (col, row)
        }
    };
    assert!(col < size && row < size, "{name} is off the board");
    row * size + col
}

/// A board string with black stones on the named points and white stones on the others.
fn layout(size: usize, black: &str, white: &str) -> String {
    let mut cells = vec!['-'; size * size];
    for (names, ch) in [(black, 'X'), (white, 'O')] {
        for name in names.split_whitespace() {
            let field = field_of(name, size);
            assert_eq!(cells[field], '-', "{name} given twice");
            cells[field] = ch;
        }
    }
    cells.into_iter().collect()
}

// ---------------------------------------------------------------------------------------
// Engine and reference side by side.
// ---------------------------------------------------------------------------------------

/// What identifies a position for hashing: board, side to move, captured pairs.
type Key = (String, Side, [u32; 2]);

/// Every position seen, with its hash, to check that equal positions hash equally and
/// different ones differently.
#[derive(Default)]
struct HashBook {
    by_key: HashMap<Key, (u64, u64)>,
    by_hash: HashMap<u64, Key>,
    /// Positions met again by a different sequence of moves.
    transpositions: usize,
}

impl HashBook {
    fn record(&mut self, key: Key, hash: u64, path: u64) -> Result<(), String> {
        match self.by_key.get(&key) {
            Some(&(known, known_path)) => {
                ensure!(
                    known == hash,
                    "one position, two hashes: {known:#x} and {hash:#x}"
                );
                if known_path != path {
                    self.transpositions += 1;
                }
            }
            None => {
                self.by_key.insert(key.clone(), (hash, path));
            }
        }
        match self.by_hash.get(&hash) {
            Some(known) => ensure!(
                *known == key,
                "hash {hash:#x} for two positions:\n{known:?}\n{key:?}"
            ),
            None => {
                self.by_hash.insert(hash, key);
            }
        }
        Ok(())
    }
}

struct Step {
    mv: Move,
    undo: <Gomoku as Game>::Undo,
    before: Reference,
    hash: u64,
    details: String,
}

struct Pair {
    engine: Gomoku,
    reference: Reference,
    /// The engine's move for each field, from its `x,y` name.
    moves: Vec<Move>,
    history: Vec<Step>,
    /// Fields played, for error messages and transpositions.
    path: Vec<usize>,
    buffer: Vec<Move>,
    compared: usize,
}

fn engine_for(name: &str, options: &[(&str, &str)]) -> Gomoku {
    let variant = Variant::parse(name, options.iter().copied())
        .unwrap_or_else(|e| panic!("{name} {options:?}: {e}"));
    match variant {
        Variant::KInRow(config) => Gomoku::new(config).unwrap(),
        other => panic!("{name} parsed as {other:?}"),
    }
}

/// What a game says about itself beyond the board: details for `status`.
fn details(game: &Gomoku) -> String {
    if game.outcome().is_some() {
        game.status_details()
    } else {
        game.playing_details()
    }
}

/// Whether `text` reports `black` and `white` captured pairs.
fn reports_captures(text: &str, black: u32, white: u32) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let follows = |word: &str, count: u32| {
        words
            .windows(2)
            .any(|w| w[0] == word && w[1] == count.to_string())
    };
    text.to_ascii_lowercase().contains("captur")
        && follows("black", black)
        && follows("white", white)
}

impl Pair {
    fn new(engine: Gomoku, reference: Reference) -> Pair {
        let size = reference.size();
        assert_eq!(engine.size(), size);
        let moves = (0..size * size)
            .map(|field| {
                engine
                    .parse_move(&format!("{},{}", field % size, field / size))
                    .unwrap()
            })
            .collect();
        Pair {
            engine,
            reference,
            moves,
            history: Vec::new(),
            path: Vec::new(),
            buffer: Vec::new(),
            compared: 0,
        }
    }

    fn start(name: &str, options: &[(&str, &str)], planted: Option<Planted>) -> Pair {
        Pair::new(
            engine_for(name, options),
            Reference::new(Rules::from_spec(name, options), planted),
        )
    }

    /// Both sides set up from a board string with `set_board`.
    fn set_up(name: &str, options: &[(&str, &str)], cells: &str, side: Side) -> Pair {
        let mut engine = engine_for(name, options);
        engine
            .set_board(cells, side)
            .unwrap_or_else(|e| panic!("set_board: {e}"));
        let reference = Reference::from_cells(Rules::from_spec(name, options), cells, side);
        let mut pair = Pair::new(engine, reference);
        pair.check(&mut HashBook::default())
            .unwrap_or_else(|e| panic!("{e}\n{}", pair.context()));
        pair
    }

    fn size(&self) -> usize {
        self.reference.size()
    }

    fn context(&self) -> String {
        let names: Vec<String> = self.path.iter().map(|&f| name_of(f, self.size())).collect();
        format!(
            "moves: {}\nreference:\n{}\nengine:\n{}",
            names.join(" "),
            self.reference.drawing(),
            self.engine.diagram()
        )
    }

    fn path_id(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.path.hash(&mut hasher);
        hasher.finish()
    }

    /// Everything observable compared with the reference.
    fn check(&mut self, book: &mut HashBook) -> Result<(), String> {
        self.compared += 1;
        let (engine, reference) = (&self.engine, &self.reference);
        let board = engine.to_board_string();
        ensure!(
            board == reference.board_string(),
            "boards differ: engine {board}"
        );
        let side = side_of(reference.to_move);
        ensure!(
            engine.side_to_move() == side,
            "engine has {} to move",
            engine.side_to_move()
        );
        ensure!(
            engine.outcome().map(|o| o.winner) == reference.outcome(),
            "outcome: engine {:?}, reference {:?}",
            engine.outcome(),
            reference.outcome()
        );
        let captures = [
            engine.captures(Side::Black) as u32,
            engine.captures(Side::White) as u32,
        ];
        ensure!(
            captures == reference.captures,
            "captures: engine {captures:?}, reference {:?}",
            reference.captures
        );
        engine.generate_moves(&mut self.buffer);
        let listed: Vec<Option<usize>> = self
            .buffer
            .iter()
            .map(|&mv| engine.field_index(mv))
            .collect();
        let expected = reference.legal_moves();
        if !listed.iter().copied().eq(expected.iter().map(|&f| Some(f))) {
            let name =
                |f: &Option<usize>| f.map_or("pass?".to_string(), |f| name_of(f, self.size()));
            let extra: Vec<String> = listed
                .iter()
                .filter(|f| !f.is_some_and(|f| expected.contains(&f)))
                .map(name)
                .collect();
            let missing: Vec<String> = expected
                .iter()
                .filter(|&&f| !listed.contains(&Some(f)))
                .map(|&f| name(&Some(f)))
                .collect();
            return Err(format!(
                "legal moves: the engine lists {} (reference {}); only the engine: {extra:?}; only the reference: {missing:?}",
                listed.len(),
                expected.len()
            ));
        }
        let mut legal = vec![false; self.moves.len()];
        for &field in &expected {
            legal[field] = true;
        }
        for (field, &mv) in self.moves.iter().enumerate() {
            ensure!(
                engine.is_legal(mv) == legal[field],
                "is_legal({}) is {}",
                name_of(field, self.size()),
                engine.is_legal(mv)
            );
        }
        ensure!(!engine.is_legal(Move::PASS), "a pass is legal");
        if reference.rules.kind == Kind::Pente {
            let text = details(engine);
            ensure!(
                reports_captures(&text, captures[0], captures[1]),
                "details '{text}' do not report captures {captures:?}"
            );
        }
        let path = self.path_id();
        book.record((board, side, captures), self.engine.hash(), path)
    }

    /// Plays `field` on both, checking its name and legality on the way.
    fn play(&mut self, field: usize) -> Result<(), String> {
        let name = name_of(field, self.size());
        let mv = self
            .engine
            .parse_move(&name)
            .map_err(|e| format!("parse_move({name}): {e}"))?;
        ensure!(mv == self.moves[field], "{name} and its x,y name differ");
        ensure!(
            self.engine.field_index(mv) == Some(field),
            "field_index({name}) = {:?}",
            self.engine.field_index(mv)
        );
        let formatted = self.engine.format_move(mv);
        ensure!(
            formatted == name,
            "format_move: {formatted}, expected {name}"
        );
        ensure!(self.engine.is_legal(mv), "{name} is not legal");
        let step_hash = self.engine.hash();
        let step_details = details(&self.engine);
        let before = self.reference.clone();
        let undo = self.engine.make(mv);
        self.reference.play(field);
        self.history.push(Step {
            mv,
            undo,
            before,
            hash: step_hash,
            details: step_details,
        });
        self.path.push(field);
        Ok(())
    }

    fn play_name(&mut self, name: &str) {
        let field = field_of(name, self.size());
        self.play(field)
            .and_then(|()| self.check(&mut HashBook::default()))
            .unwrap_or_else(|e| panic!("after {name}: {e}\n{}", self.context()));
    }

    /// Takes the last move back on both; the hash and details must be as before it.
    fn undo(&mut self) -> Result<(), String> {
        let step = self.history.pop().expect("a move to undo");
        self.engine.unmake(step.mv, step.undo);
        self.reference = step.before;
        self.path.pop();
        ensure!(
            self.engine.hash() == step.hash,
            "unmake: hash {:#x}, was {:#x}",
            self.engine.hash(),
            step.hash
        );
        let now = details(&self.engine);
        ensure!(
            now == step.details,
            "unmake: details '{now}', were '{}'",
            step.details
        );
        Ok(())
    }

    fn outcome(&self) -> Option<Option<Side>> {
        self.engine.outcome().map(|o| o.winner)
    }
}

// ---------------------------------------------------------------------------------------
// Random games.
// ---------------------------------------------------------------------------------------

/// Longest run of `colour` through `field` if `colour` played there.
fn run_through(reference: &Reference, field: usize, colour: u8) -> usize {
    let (row, col) = (
        (field / reference.size()) as isize,
        (field % reference.size()) as isize,
    );
    LINE_DIRECTIONS
        .iter()
        .map(|&(dr, dc)| {
            let count = |sign: isize| {
                (1..)
                    .take_while(|&n| {
                        reference.at(row + sign * n * dr, col + sign * n * dc) == Some(colour)
                    })
                    .count()
            };
            1 + count(1) + count(-1)
        })
        .max()
        .unwrap()
}

/// A move: mostly next to stones, often the one making the longest line or capturing,
/// sometimes anywhere.
fn choose(rng: &mut StdRng, reference: &Reference, legal: &[usize], greedy: u32) -> usize {
    let size = reference.size() as isize;
    let near: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&field| {
            let (row, col) = (field as isize / size, field as isize % size);
            (-1..=1).any(|dr| {
                (-1..=1).any(|dc| matches!(reference.at(row + dr, col + dc), Some(c) if c != EMPTY))
            })
        })
        .collect();
    let roll = rng.random_range(0..100u32);
    if roll < 8 || near.is_empty() {
        return legal[rng.random_range(0..legal.len())];
    }
    if roll < 8 + greedy {
        let me = reference.to_move;
        let score = |field: usize| {
            let (row, col) = (
                (field / reference.size()) as isize,
                (field % reference.size()) as isize,
            );
            let captures = if reference.rules.kind == Kind::Pente {
                reference.captured_by(row, col, me).len()
            } else {
                0
            };
            (2 * run_through(reference, field, me))
                .max(2 * run_through(reference, field, other(me)) - 1)
                + 3 * captures
        };
        let scores: Vec<usize> = near.iter().map(|&f| score(f)).collect();
        let best = *scores.iter().max().unwrap();
        let top: Vec<usize> = near
            .iter()
            .zip(&scores)
            .filter(|&(_, &s)| s == best)
            .map(|(&f, _)| f)
            .collect();
        return top[rng.random_range(0..top.len())];
    }
    near[rng.random_range(0..near.len())]
}

struct Setting {
    name: &'static str,
    options: &'static [(&'static str, &'static str)],
    games: usize,
    /// Moves and undos per game at most.
    steps: usize,
    /// Percent of moves chosen for the longest line or a capture.
    greedy: u32,
}

#[derive(Debug, Default)]
struct Stats {
    positions: usize,
    games: usize,
    wins: usize,
    draws: usize,
    unfinished: usize,
    undos: usize,
    /// Positions with captured pairs (Pente).
    with_captures: usize,
    /// Games won by five captured pairs.
    capture_wins: usize,
    /// Positions where the player who just moved has a run longer than k and no win.
    overlines_without_win: usize,
    /// Positions where the player who just moved won with a run longer than k.
    overline_wins: usize,
    transpositions: usize,
    setboard_checks: usize,
}

/// After the game was set up again with `set_board` from the reference's board: the same
/// legal moves, outcome and hash. Only without captures (they are not in the string) and
/// past the opening rules.
fn check_setboard(pair: &Pair) -> Result<(), String> {
    let mut fresh = pair.engine.clone();
    let side = side_of(pair.reference.to_move);
    fresh
        .set_board(&pair.reference.board_string(), side)
        .map_err(|e| format!("set_board: {e}"))?;
    let mut moves = Vec::new();
    let mut again = Vec::new();
    pair.engine.generate_moves(&mut moves);
    fresh.generate_moves(&mut again);
    ensure!(moves == again, "set_board: other legal moves");
    ensure!(
        fresh.outcome() == pair.engine.outcome(),
        "set_board: outcome {:?}",
        fresh.outcome()
    );
    ensure!(
        fresh.hash() == pair.engine.hash(),
        "set_board: hash {:#x}, after play {:#x}",
        fresh.hash(),
        pair.engine.hash()
    );
    ensure!(
        fresh.to_board_string() == pair.engine.to_board_string(),
        "set_board: board"
    );
    Ok(())
}

fn run_setting(setting: &Setting, seed: u64, planted: Option<Planted>) -> Result<Stats, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut book = HashBook::default();
    let mut stats = Stats::default();
    for game in 0..setting.games {
        let mut pair = Pair::start(setting.name, setting.options, planted);
        let fail = |pair: &Pair, e: String| {
            format!(
                "{} {:?}, seed {seed}, game {game}: {e}\n{}",
                setting.name,
                setting.options,
                pair.context()
            )
        };
        pair.check(&mut book).map_err(|e| fail(&pair, e))?;
        for _ in 0..setting.steps {
            let over = pair.reference.result.is_some();
            let undo = !pair.history.is_empty() && (over || rng.random_bool(0.06));
            if over && (pair.history.is_empty() || rng.random_bool(0.5)) {
                break;
            }
            if undo {
                let count = rng.random_range(1..=pair.history.len().min(3));
                for _ in 0..count {
                    pair.undo().map_err(|e| fail(&pair, e))?;
                    pair.check(&mut book).map_err(|e| fail(&pair, e))?;
                    stats.undos += 1;
                }
                if pair.size() <= 19 && rng.random_bool(0.3) {
                    pair.engine
                        .check_consistency()
                        .map_err(|e| fail(&pair, format!("after unmake: {e}")))?;
                }
                continue;
            }
            let legal = pair.reference.legal_moves();
            let field = choose(&mut rng, &pair.reference, &legal, setting.greedy);
            let mover = pair.reference.to_move;
            pair.play(field).map_err(|e| fail(&pair, e))?;
            pair.check(&mut book).map_err(|e| fail(&pair, e))?;
            let reference = &pair.reference;
            let longest = reference.runs(mover).into_iter().max().unwrap_or(0);
            if longest > reference.rules.k {
                if reference.result == Some(Some(mover)) {
                    stats.overline_wins += 1;
                } else if reference.result.is_none() {
                    stats.overlines_without_win += 1;
                }
            }
            if reference.captures != [0, 0] {
                stats.with_captures += 1;
            }
            let opening_done = reference.moves_made >= 3 || reference.rules.start == Start::Free;
            if reference.captures == [0, 0] && opening_done && rng.random_bool(0.03) {
                check_setboard(&pair).map_err(|e| fail(&pair, e))?;
                stats.setboard_checks += 1;
            }
        }
        stats.games += 1;
        match pair.reference.result {
            Some(Some(winner)) => {
                stats.wins += 1;
                if pair.reference.captures[slot(winner)] >= PAIRS_TO_WIN
                    && !pair.reference.has_line(winner)
                {
                    stats.capture_wins += 1;
                }
            }
            Some(None) => stats.draws += 1,
            None => stats.unfinished += 1,
        }
        stats.positions += pair.compared;
    }
    stats.transpositions = book.transpositions;
    Ok(stats)
}

fn run_all(settings: &[Setting], seed: u64) -> Stats {
    let started = Instant::now();
    let mut total = Stats::default();
    for (index, setting) in settings.iter().enumerate() {
        let stats =
            run_setting(setting, seed + index as u64, None).unwrap_or_else(|e| panic!("{e}"));
        println!("{} {:?}: {stats:?}", setting.name, setting.options);
        total.positions += stats.positions;
        total.games += stats.games;
        total.wins += stats.wins;
        total.draws += stats.draws;
        total.unfinished += stats.unfinished;
        total.undos += stats.undos;
        total.with_captures += stats.with_captures;
        total.capture_wins += stats.capture_wins;
        total.overlines_without_win += stats.overlines_without_win;
        total.overline_wins += stats.overline_wins;
        total.transpositions += stats.transpositions;
        total.setboard_checks += stats.setboard_checks;
    }
    println!(
        "total: {} positions in {:.2?}: {total:?}",
        total.positions,
        started.elapsed()
    );
    total
}

const GOMOKU: &[Setting] = &[
    Setting {
        name: "gomoku",
        options: &[],
        games: 200,
        steps: 400,
        greedy: 32,
    },
    Setting {
        name: "gomoku",
        options: &[],
        games: 60,
        steps: 600,
        greedy: 8,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "15"), ("rule", "exact"), ("opening", "center")],
        games: 200,
        steps: 400,
        greedy: 32,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "15"), ("rule", "exact")],
        games: 60,
        steps: 600,
        greedy: 8,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "20")],
        games: 120,
        steps: 400,
        greedy: 32,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "5")],
        games: 1000,
        steps: 100,
        greedy: 32,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "7"), ("rule", "exact")],
        games: 500,
        steps: 150,
        greedy: 32,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "7"), ("rule", "freestyle")],
        games: 500,
        steps: 150,
        greedy: 32,
    },
];

const GOMOKU_99: &[Setting] = &[
    Setting {
        name: "gomoku",
        options: &[("size", "99")],
        games: 3,
        steps: 300,
        greedy: 32,
    },
    Setting {
        name: "gomoku",
        options: &[("size", "99"), ("rule", "exact"), ("opening", "free")],
        games: 2,
        steps: 400,
        greedy: 0,
    },
];

const PENTE: &[Setting] = &[
    Setting {
        name: "pente",
        options: &[],
        games: 150,
        steps: 400,
        greedy: 32,
    },
    Setting {
        name: "pente",
        options: &[],
        games: 50,
        steps: 600,
        greedy: 8,
    },
    Setting {
        name: "pente",
        options: &[("opening", "tournament")],
        games: 150,
        steps: 400,
        greedy: 32,
    },
    Setting {
        name: "pente",
        options: &[("size", "19"), ("opening", "free")],
        games: 150,
        steps: 400,
        greedy: 32,
    },
    Setting {
        name: "pente",
        options: &[("size", "7")],
        games: 800,
        steps: 200,
        greedy: 32,
    },
    Setting {
        name: "pente",
        options: &[("size", "7"), ("opening", "tournament")],
        games: 300,
        steps: 200,
        greedy: 32,
    },
    Setting {
        name: "pente",
        options: &[("size", "7"), ("opening", "free")],
        games: 300,
        steps: 200,
        greedy: 8,
    },
];

const TICTACTOE: &[Setting] = &[
    Setting {
        name: "tictactoe",
        options: &[("size", "3")],
        games: 1000,
        steps: 40,
        greedy: 32,
    },
    Setting {
        name: "tictactoe",
        options: &[("size", "4"), ("k", "4")],
        games: 800,
        steps: 60,
        greedy: 32,
    },
    Setting {
        name: "tictactoe",
        options: &[("size", "5"), ("k", "4")],
        games: 800,
        steps: 80,
        greedy: 32,
    },
    Setting {
        name: "tictactoe",
        options: &[("size", "6"), ("k", "3")],
        games: 800,
        steps: 80,
        greedy: 32,
    },
];

#[test]
fn random_gomoku_games_match_the_reference() {
    let stats = run_all(GOMOKU, 1000);
    assert!(stats.positions > 5000, "{stats:?}");
    assert!(
        stats.overlines_without_win > 0,
        "exact overlines never seen"
    );
    assert!(
        stats.overline_wins > 0,
        "freestyle overline wins never seen"
    );
    assert!(stats.draws > 0, "no full-board draw");
    assert!(stats.setboard_checks > 0);
}

#[test]
fn random_gomoku_games_on_99x99_match_the_reference() {
    let stats = run_all(GOMOKU_99, 2000);
    assert!(stats.positions > 300, "{stats:?}");
}

#[test]
fn random_pente_games_match_the_reference() {
    let stats = run_all(PENTE, 3000);
    assert!(stats.positions > 5000, "{stats:?}");
    assert!(stats.with_captures > 100, "{stats:?}");
    assert!(stats.capture_wins > 0, "{stats:?}");
    assert!(stats.draws > 0, "{stats:?}");
}

#[test]
fn random_tictactoe_games_match_the_reference() {
    let stats = run_all(TICTACTOE, 4000);
    assert!(stats.positions > 5000, "{stats:?}");
    assert!(stats.draws > 0 && stats.wins > 0, "{stats:?}");
    assert!(stats.transpositions > 100, "{stats:?}");
}

/// Each bug planted in the reference makes the random comparison fail somewhere.
#[test]
fn planted_bugs_are_caught() {
    let all: Vec<&Setting> = GOMOKU.iter().chain(PENTE).chain(TICTACTOE).collect();
    let mut missed = Vec::new();
    for bug in ALL_PLANTED {
        let caught = all.iter().enumerate().find_map(|(index, setting)| {
            let small = Setting {
                games: setting.games.min(40),
                ..**setting
            };
            run_setting(&small, 77 + index as u64, Some(bug))
                .err()
                .map(|e| (setting.name, setting.options, e))
        });
        match caught {
            Some((name, options, error)) => {
                let first = error.lines().next().unwrap_or("");
                println!("{bug:?}: caught by {name} {options:?}: {first}");
            }
            None => missed.push(bug),
        }
    }
    assert!(missed.is_empty(), "not caught: {missed:?}");
}

// ---------------------------------------------------------------------------------------
// make/unmake as a property.
// ---------------------------------------------------------------------------------------

const PROPERTY_GAMES: &[(&str, &[(&str, &str)])] = &[
    ("gomoku", &[]),
    ("gomoku", &[("size", "9"), ("rule", "exact")]),
    ("gomoku", &[("size", "6")]),
    ("pente", &[("size", "7")]),
    ("pente", &[("size", "9"), ("opening", "tournament")]),
    ("pente", &[("opening", "free")]),
    ("tictactoe", &[("size", "4"), ("k", "3")]),
];

/// Everything make/unmake must restore.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    board: String,
    hash: u64,
    side: Side,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
    captures: [u8; 2],
    details: String,
}

fn snapshot(game: &Gomoku) -> Snapshot {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    Snapshot {
        board: game.to_board_string(),
        hash: game.hash(),
        side: game.side_to_move(),
        moves,
        outcome: game.outcome(),
        captures: [game.captures(Side::Black), game.captures(Side::White)],
        details: details(game),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn make_then_unmake_restores_everything(
        which in 0..PROPERTY_GAMES.len(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..70),
    ) {
        let (name, options) = PROPERTY_GAMES[which];
        let mut game = engine_for(name, options);
        let mut moves = Vec::new();
        let mut made = Vec::new();
        for pick in picks {
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[pick.index(moves.len())];
            let before = snapshot(&game);
            let undo = game.make(mv);
            made.push((mv, undo, before));
        }
        while let Some((mv, undo, before)) = made.pop() {
            game.unmake(mv, undo);
            prop_assert_eq!(snapshot(&game), before);
        }
        prop_assert!(game.check_consistency().is_ok());
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made positions.
// ---------------------------------------------------------------------------------------

#[test]
fn overline_by_filling_a_gap_wins_only_under_freestyle() {
    // Black X X X - X X on row 1 (and the same on a diagonal, 4 + 1), White elsewhere.
    for (black, white, gap) in [
        ("a1 b1 c1 e1 f1", "h10 j12 l14 n10 a15", "d1"),
        ("b2 c3 d4 e5 g7", "h10 j12 l14 n10 a15", "f6"),
        ("o1 n2 l4 k5 j6", "h10 j12 l14 n10 a15", "m3"),
    ] {
        for (rule, wins) in [("freestyle", true), ("exact", false)] {
            let options = [("size", "15"), ("rule", rule)];
            let mut pair = Pair::set_up("gomoku", &options, &layout(15, black, white), Side::Black);
            assert_eq!(pair.outcome(), None);
            pair.play_name(gap);
            if wins {
                assert_eq!(pair.outcome(), Some(Some(Side::Black)), "{rule} {gap}");
                assert!(pair.engine.status_details().contains('5'));
            } else {
                assert_eq!(pair.outcome(), None, "{rule} {gap}");
                assert_eq!(pair.engine.side_to_move(), Side::White);
                // The game goes on: white plays, black extends the six to seven.
                pair.play_name("o15");
                assert_eq!(pair.outcome(), None);
            }
        }
    }
    // The same for White under exact: an overline of White's does not end the game.
    let mut pair = Pair::set_up(
        "gomoku",
        &[("rule", "exact")],
        &layout(15, "h10 j12 l14 n10 a15 o15", "a1 b1 c1 e1 f1"),
        Side::White,
    );
    pair.play_name("d1");
    assert_eq!(pair.outcome(), None);
}

#[test]
fn overline_by_extending_and_exact_fives() {
    let exact = [("size", "15"), ("rule", "exact")];
    let freestyle = [("size", "15"), ("rule", "freestyle")];
    let white = "h10 j12 l14 n10 a15 o15";
    // A six on the board is no win under exact; extending it to seven is none either.
    let six = layout(15, "a1 b1 c1 d1 e1 f1", white);
    let mut pair = Pair::set_up("gomoku", &exact, &six, Side::Black);
    assert_eq!(pair.outcome(), None);
    pair.play_name("g1");
    assert_eq!(pair.outcome(), None);
    // Under freestyle the same board is already over.
    let pair = Pair::set_up("gomoku", &freestyle, &six, Side::White);
    assert_eq!(pair.outcome(), Some(Some(Side::Black)));
    // Extending a four at an end: exactly five wins under both rules, even against a wall
    // or a white stone, and on a column.
    for options in [exact, freestyle] {
        for (black, white, last) in [
            ("b1 c1 d1 e1", "a1 o15 o14 o13", "f1"),
            ("a1 b1 c1 d1", "o15 o14 o13 o12", "e1"),
            ("c3 c4 c5 c6", "c2 o15 o14 o13", "c7"),
        ] {
            let mut pair = Pair::set_up("gomoku", &options, &layout(15, black, white), Side::Black);
            pair.play_name(last);
            assert_eq!(
                pair.outcome(),
                Some(Some(Side::Black)),
                "{options:?} {last}"
            );
        }
        // Extending a four to five when a stone of the same colour lies beyond: six.
        let mut pair = Pair::set_up(
            "gomoku",
            &options,
            &layout(15, "b1 c1 d1 e1 g1", "o15 o14 o13 o12 a9"),
            Side::Black,
        );
        pair.play_name("f1");
        let expected = if options == exact {
            None
        } else {
            Some(Some(Side::Black))
        };
        assert_eq!(pair.outcome(), expected, "{options:?}");
    }
    // Under exact, one stone making a six on a row and exactly five on a column wins.
    let mut pair = Pair::set_up(
        "gomoku",
        &exact,
        &layout(
            15,
            "a5 b5 c5 e5 f5 d1 d2 d3 d4",
            "o15 o14 o13 o11 a10 b11 m13",
        ),
        Side::Black,
    );
    pair.play_name("d5");
    assert_eq!(pair.outcome(), Some(Some(Side::Black)));
}

#[test]
fn lines_do_not_wrap_around_rows() {
    // X X X at the end of row 1 and X X at the start of row 2 are no five.
    let mut pair = Pair::set_up(
        "gomoku",
        &[("size", "9"), ("opening", "free")],
        &layout(9, "g1 h1 a2 b2", "e5 e6 e7 d9"),
        Side::Black,
    );
    pair.play_name("i1");
    assert_eq!(pair.outcome(), None);
    // A pente "bracket" across the row end is no capture: x at g3, o at h3 i3, x at a4.
    let mut pair = Pair::set_up(
        "pente",
        &[("size", "9"), ("opening", "free")],
        &layout(9, "a4 e5", "h3 i3 a9"),
        Side::Black,
    );
    pair.play_name("g3");
    assert_eq!(pair.engine.captures(Side::Black), 0);
    // Nor is a pair against the wall.
    let mut pair = Pair::set_up(
        "pente",
        &[("size", "9"), ("opening", "free")],
        &layout(9, "e5", "h3 i3 a9"),
        Side::Black,
    );
    pair.play_name("g3");
    assert_eq!(pair.engine.captures(Side::Black), 0);
}

/// (row, col) offsets of the 8 directions as board names around j10 on 19x19.
fn around(centre: (isize, isize), (dr, dc): (isize, isize), n: isize) -> String {
    name_of(((centre.0 + n * dr) * 19 + centre.1 + n * dc) as usize, 19)
}

#[test]
fn pente_captures_in_each_of_the_eight_directions() {
    let centre = (9, 9);
    for (capturer, side) in [("X", Side::Black), ("O", Side::White)] {
        for direction in ALL_DIRECTIONS {
            let pair_stones = format!(
                "{} {}",
                around(centre, direction, 1),
                around(centre, direction, 2)
            );
            let far = around(centre, direction, 3);
            let (black, white) = if capturer == "X" {
                (format!("{far} a1"), format!("{pair_stones} s19"))
            } else {
                (format!("a1 {pair_stones}"), format!("{far} s19"))
            };
            let cells = layout(19, &black, &white);
            let mut pair = Pair::set_up("pente", &[("opening", "free")], &cells, side);
            pair.play_name("j10");
            assert_eq!(pair.engine.captures(side), 1, "{direction:?} {side}");
            assert_eq!(pair.engine.captures(side.opponent()), 0);
            let expected = layout(
                19,
                &if capturer == "X" {
                    format!("{far} a1 j10")
                } else {
                    "a1".to_string()
                },
                &if capturer == "X" {
                    "s19".to_string()
                } else {
                    format!("{far} s19 j10")
                },
            );
            assert_eq!(pair.engine.to_board_string(), expected, "{direction:?}");
            assert_eq!(pair.outcome(), None);
            assert!(reports_captures(
                &pair.engine.playing_details(),
                u32::from(side == Side::Black),
                u32::from(side == Side::White)
            ));
            // Unmake brings the pair back.
            pair.undo().unwrap();
            pair.check(&mut HashBook::default()).unwrap();
            assert_eq!(pair.engine.to_board_string(), cells);
        }
    }
}

#[test]
fn pente_captures_several_pairs_at_once() {
    let centre = (9, 9);
    // Two pairs: right and down-left.
    let directions = [(0, 1), (1, -1)];
    let white: Vec<String> = directions
        .iter()
        .flat_map(|&d| [around(centre, d, 1), around(centre, d, 2)])
        .collect();
    let black: Vec<String> = directions.iter().map(|&d| around(centre, d, 3)).collect();
    let cells = layout(19, &black.join(" "), &white.join(" "));
    let mut pair = Pair::set_up("pente", &[("opening", "free")], &cells, Side::Black);
    pair.play_name("j10");
    assert_eq!(pair.engine.captures(Side::Black), 2);
    assert_eq!(
        pair.engine.to_board_string(),
        layout(19, &format!("{} j10", black.join(" ")), "")
    );
    // All eight: eight pairs, which also wins on captures.
    let white: Vec<String> = ALL_DIRECTIONS
        .iter()
        .flat_map(|&d| [around(centre, d, 1), around(centre, d, 2)])
        .collect();
    let black: Vec<String> = ALL_DIRECTIONS
        .iter()
        .map(|&d| around(centre, d, 3))
        .collect();
    let cells = layout(19, &black.join(" "), &white.join(" "));
    let mut pair = Pair::set_up("pente", &[("opening", "free")], &cells, Side::Black);
    pair.play_name("j10");
    assert_eq!(pair.engine.captures(Side::Black), 8);
    assert_eq!(pair.outcome(), Some(Some(Side::Black)));
    assert!(reports_captures(&pair.engine.status_details(), 8, 0));
}

#[test]
fn pente_moving_into_a_bracket_is_safe() {
    let free = [("opening", "free")];
    // X O - X: white fills the gap, nothing is captured, then or later.
    let mut pair = Pair::set_up(
        "pente",
        &free,
        &layout(19, "a1 d1 s19", "b1 s1"),
        Side::White,
    );
    pair.play_name("c1");
    assert_eq!(pair.engine.captures(Side::Black), 0);
    assert_eq!(pair.engine.captures(Side::White), 0);
    pair.play_name("j10");
    assert_eq!(
        pair.engine.to_board_string(),
        layout(19, "a1 d1 s19 j10", "b1 c1 s1")
    );
    // The same on a diagonal, with black filling the gap between white stones.
    let mut pair = Pair::set_up(
        "pente",
        &free,
        &layout(19, "e5 a1", "d4 g7 s19"),
        Side::Black,
    );
    pair.play_name("f6");
    assert_eq!(pair.engine.captures(Side::White), 0);
    assert_eq!(pair.engine.stones(Side::Black), 3);
    // Three in the bracket, or a single stone, are not taken.
    let mut pair = Pair::set_up(
        "pente",
        &free,
        &layout(19, "a3 s19", "b3 c3 d3 s1"),
        Side::Black,
    );
    pair.play_name("e3");
    assert_eq!(pair.engine.captures(Side::Black), 0);
    let mut pair = Pair::set_up("pente", &free, &layout(19, "a3 s19", "b3 s1"), Side::Black);
    pair.play_name("c3");
    assert_eq!(pair.engine.captures(Side::Black), 0);
    // A pair with a gap (X O O - X) is not taken.
    let mut pair = Pair::set_up(
        "pente",
        &free,
        &layout(19, "e3 s19", "b3 c3 s1"),
        Side::Black,
    );
    pair.play_name("a3");
    assert_eq!(pair.engine.captures(Side::Black), 0);
}

#[test]
fn pente_fifth_captured_pair_wins() {
    // Five capture set-ups for black on rows 2, 5, 8, 11 and 14: X at a, O at b and c.
    let rows = [2, 5, 8, 11, 14];
    let black: Vec<String> = rows.iter().map(|r| format!("a{r}")).collect();
    let white: Vec<String> = rows
        .iter()
        .flat_map(|r| [format!("b{r}"), format!("c{r}")])
        .collect();
    let cells = layout(19, &black.join(" "), &white.join(" "));
    let mut pair = Pair::set_up("pente", &[("opening", "free")], &cells, Side::Black);
    for (index, row) in rows.iter().enumerate() {
        pair.play_name(&format!("d{row}"));
        assert_eq!(pair.engine.captures(Side::Black) as usize, index + 1);
        if index < 4 {
            assert_eq!(pair.outcome(), None, "after {} pairs", index + 1);
            assert!(reports_captures(
                &pair.engine.playing_details(),
                index as u32 + 1,
                0
            ));
            // White answers far away, apart from each other.
            pair.play_name(&format!("{}19", (b'k' + 2 * index as u8) as char));
        }
    }
    assert_eq!(pair.outcome(), Some(Some(Side::Black)));
    assert!(reports_captures(&pair.engine.status_details(), 5, 0));
    let mut moves = Vec::new();
    pair.engine.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn pente_capture_on_the_move_that_makes_five() {
    // Black f10 g10 h10 i10 and j10 makes five; j10 also brackets white j11 j12 with j13.
    let cells = layout(19, "f10 g10 h10 i10 j13 a1", "j11 j12 s1 s2 s3 s19");
    let mut pair = Pair::set_up("pente", &[("opening", "free")], &cells, Side::Black);
    pair.play_name("j10");
    assert_eq!(pair.outcome(), Some(Some(Side::Black)));
    assert_eq!(pair.engine.captures(Side::Black), 1);
    assert_eq!(
        pair.engine.to_board_string(),
        layout(19, "f10 g10 h10 i10 j10 j13 a1", "s1 s2 s3 s19")
    );
    assert!(reports_captures(&pair.engine.status_details(), 1, 0));
    // White makes five with a move that captures nothing.
    let cells = layout(19, "a1 a2 a3 b1 j10", "f12 g12 h12 i12 s19");
    let mut pair = Pair::set_up("pente", &[("opening", "free")], &cells, Side::White);
    pair.play_name("j12");
    assert_eq!(pair.outcome(), Some(Some(Side::White)));
}

#[test]
fn opening_rules() {
    // Tournament: the centre first, then black's second stone at distance three or more.
    let mut pair = Pair::start("pente", &[("opening", "tournament")], None);
    let mut book = HashBook::default();
    pair.check(&mut book).unwrap();
    let mut moves = Vec::new();
    pair.engine.generate_moves(&mut moves);
    assert_eq!(
        moves
            .iter()
            .map(|&m| pair.engine.format_move(m))
            .collect::<Vec<_>>(),
        ["j10"]
    );
    assert!(!pair.engine.is_legal(pair.moves[0]));
    pair.play_name("j10");
    pair.engine.generate_moves(&mut moves);
    assert_eq!(moves.len(), 360, "white plays anywhere");
    pair.play_name("k10");
    pair.engine.generate_moves(&mut moves);
    assert_eq!(moves.len(), 361 - 25, "the 5x5 around the centre is closed");
    for (name, legal) in [
        ("l12", false),
        ("h8", false),
        ("j12", false),
        ("l10", false),
        ("j13", true),
        ("g10", true),
        ("m13", true),
        ("a1", true),
    ] {
        let mv = pair.engine.parse_move(name).unwrap();
        assert_eq!(pair.engine.is_legal(mv), legal, "{name}");
    }
    pair.play_name("m13");
    // Later stones go anywhere.
    pair.play_name("j11");
    pair.play_name("j9");
    // Center opening at pente: only the first stone is bound.
    let mut pair = Pair::start("pente", &[], None);
    pair.play_name("j10");
    pair.play_name("k10");
    pair.engine.generate_moves(&mut moves);
    assert_eq!(moves.len(), 359);
    pair.play_name("j11");
    // Gomoku: center by default on odd sizes, free on even ones, free on request.
    let pair = Pair::start("gomoku", &[], None);
    pair.engine.generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(pair.engine.format_move(moves[0]), "h8");
    for (options, count) in [
        (&[("size", "20")][..], 400),
        (&[("opening", "free")], 225),
        (&[("size", "5"), ("opening", "free")], 25),
    ] {
        let pair = Pair::start("gomoku", options, None);
        pair.engine.generate_moves(&mut moves);
        assert_eq!(moves.len(), count, "{options:?}");
    }
    let mut pair = Pair::start("pente", &[("opening", "free")], None);
    pair.play_name("a1");
}

#[test]
fn full_boards_are_draws() {
    // 3x3 played out: X O X / X O O / O X X.
    let mut pair = Pair::start("tictactoe", &[("size", "3")], None);
    for name in ["a1", "b2", "c1", "b1", "b3", "c2", "a2", "a3"] {
        pair.play_name(name);
        assert_eq!(pair.outcome(), None);
    }
    pair.play_name("c3");
    assert_eq!(pair.outcome(), Some(None));
    assert_eq!(pair.engine.to_board_string(), "XOXXOOOXX");
    // Set up, full.
    let pair = Pair::set_up("tictactoe", &[("size", "3")], "XOXXOOOXX", Side::White);
    assert_eq!(pair.outcome(), Some(None));
    // 5x5 gomoku filled without a five: by play (centre first), then set up.
    let rows = ["OXXOO", "XOOOX", "XXXOX", "XOOXX", "OXXOO"];
    let full: String = rows.concat();
    let reference = Reference::from_cells(
        Rules::from_spec("gomoku", &[("size", "5")]),
        &full,
        Side::White,
    );
    assert!(!reference.has_line(BLACK) && !reference.has_line(WHITE));
    let mut blacks: Vec<usize> = (0..25).filter(|&f| &full[f..=f] == "X").collect();
    let whites: Vec<usize> = (0..25).filter(|&f| &full[f..=f] == "O").collect();
    assert_eq!((blacks.len(), whites.len()), (13, 12));
    blacks.retain(|&f| f != 12);
    blacks.insert(0, 12);
    let mut pair = Pair::start("gomoku", &[("size", "5")], None);
    for index in 0..25 {
        let field = if index % 2 == 0 {
            blacks[index / 2]
        } else {
            whites[index / 2]
        };
        pair.play_name(&name_of(field, 5));
        let expected = if index == 24 { Some(None) } else { None };
        assert_eq!(pair.outcome(), expected, "after {index} moves");
    }
    assert_eq!(pair.engine.to_board_string(), full);
    for options in [&[("size", "5")][..], &[("size", "5"), ("rule", "exact")]] {
        let pair = Pair::set_up("gomoku", options, &full, Side::White);
        assert_eq!(pair.outcome(), Some(None));
    }
    // A full board where the last move makes a line is a win, not a draw.
    let mut pair = Pair::set_up("tictactoe", &[("size", "3")], "XOXOXOOX-", Side::Black);
    pair.play_name("c3");
    assert_eq!(pair.outcome(), Some(Some(Side::Black)));
}

#[test]
fn setboard_with_a_line_reports_the_game_over() {
    let mut moves = Vec::new();
    for (name, options, size, black, white, winner) in [
        (
            "gomoku",
            &[][..],
            15,
            "a1 b1 c1 d1 e1",
            "a2 b2 c2 d2",
            Some(Side::Black),
        ),
        (
            "gomoku",
            &[("rule", "exact")],
            15,
            "a1 b1 c1 d1 e1",
            "a2 b2 c2 d2",
            Some(Side::Black),
        ),
        (
            "gomoku",
            &[("rule", "exact")],
            15,
            "a1 b1 c1 d1 e1 f1",
            "a2 b2 c2 d2",
            None,
        ),
        (
            "gomoku",
            &[("size", "15")],
            15,
            "a1 b1 c1 d1 o15",
            "e5 f6 g7 h8 i9",
            Some(Side::White),
        ),
        (
            "pente",
            &[],
            19,
            "s1 s2 s3 s4 s5",
            "a1 b2 c3 d4",
            Some(Side::Black),
        ),
        (
            "tictactoe",
            &[("size", "3")],
            3,
            "a1 b2 c3",
            "a2 a3",
            Some(Side::Black),
        ),
        (
            "tictactoe",
            &[("size", "6"), ("k", "3")],
            6,
            "a1 c2 f6",
            "d4 d5 d6",
            Some(Side::White),
        ),
    ] {
        for side in Side::BOTH {
            let pair = Pair::set_up(name, options, &layout(size, black, white), side);
            assert_eq!(
                pair.outcome(),
                winner.map(Some),
                "{name} {options:?} {black}"
            );
            pair.engine.generate_moves(&mut moves);
            assert_eq!(moves.is_empty(), winner.is_some());
        }
    }
}

#[test]
fn transpositions_hash_alike() {
    // Gomoku: the same stones by two move orders.
    let orders = [
        ["h8", "h9", "i8", "i9", "j8"],
        ["j8", "i9", "i8", "h9", "h8"],
    ];
    let mut hashes = Vec::new();
    for order in orders {
        let mut pair = Pair::start("gomoku", &[("opening", "free")], None);
        for name in order {
            pair.play_name(name);
        }
        hashes.push((pair.engine.hash(), pair.engine.to_board_string()));
    }
    assert_eq!(hashes[0], hashes[1]);
    // Same stones, other side to move: a different hash.
    let cells = layout(15, "h8 i8 j8", "h9 i9");
    let black = Pair::set_up("gomoku", &[], &cells, Side::Black);
    let white = Pair::set_up("gomoku", &[], &cells, Side::White);
    assert_ne!(black.engine.hash(), white.engine.hash());
    // Pente: the same capture made in two orders.
    let mut hashes = Vec::new();
    for order in [
        ["j10", "k10", "a1", "l10", "m10", "s19"],
        ["m10", "l10", "a1", "k10", "j10", "s19"],
    ] {
        let mut pair = Pair::start("pente", &[("opening", "free")], None);
        for name in order {
            pair.play_name(name);
        }
        hashes.push((
            pair.engine.hash(),
            pair.engine.to_board_string(),
            pair.engine.captures(Side::Black),
        ));
    }
    assert_eq!(hashes[0], hashes[1]);
    assert_eq!(hashes[0].2, 1);
    // Unmake restores the hash exactly, also across captures.
    let mut pair = Pair::start("pente", &[("opening", "free")], None);
    let start = pair.engine.hash();
    for name in ["j10", "k10", "a1", "l10", "m10"] {
        pair.play_name(name);
    }
    while !pair.history.is_empty() {
        pair.undo().unwrap();
    }
    assert_eq!(pair.engine.hash(), start);
}

#[test]
fn move_names() {
    for (size, field, name) in [
        (15, 0, "a1"),
        (15, 14, "o1"),
        (15, 15, "a2"),
        (15, 112, "h8"),
        (15, 224, "o15"),
        (26, 26 * 26 - 1, "z26"),
        (27, 3 * 27 + 5, "5,3"),
        (99, 99 * 99 - 1, "98,98"),
        (99, 98, "98,0"),
    ] {
        let game = engine_for(
            "gomoku",
            &[("size", &size.to_string()), ("opening", "free")],
        );
        let mv = game.parse_move(name).unwrap();
        assert_eq!(game.field_index(mv), Some(field), "{size} {name}");
        assert_eq!(game.format_move(mv), name, "{size}");
        assert_eq!(name_of(field, size), name);
        // x,y is always accepted.
        let xy = game
            .parse_move(&format!("{},{}", field % size, field / size))
            .unwrap();
        assert_eq!(xy, mv);
    }
    let game = engine_for("gomoku", &[]);
    assert!(game.parse_move("H8").is_ok());
    for bad in ["pass", "p1", "a16", "a0", "15,0", "0,15", "", "h"] {
        assert!(game.parse_move(bad).is_err(), "{bad}");
    }
}

/// Reads what `Variant::visit` hands over: name, size and the first legal moves.
struct FirstMoves;

impl GameVisitor for FirstMoves {
    type Output = (&'static str, usize, usize);

    fn visit<G: SearchGame>(self, game: G) -> Self::Output {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        (game.name(), game.size(), moves.len())
    }
}

#[test]
fn variants_follow_the_specified_options() {
    for (name, options, expected) in [
        ("gomoku", &[][..], ("gomoku", 15, 1)),
        ("gomoku", &[("size", "20")], ("gomoku", 20, 400)),
        (
            "gomoku",
            &[("size", "5"), ("rule", "exact")],
            ("gomoku", 5, 1),
        ),
        ("gomoku", &[("opening", "free")], ("gomoku", 15, 225)),
        ("gomoku", &[("size", "99")], ("gomoku", 99, 1)),
        ("gomoku", &[("rule", "renju")], ("gomoku", 15, 1)),
        ("pente", &[], ("pente", 19, 1)),
        ("pente", &[("opening", "free")], ("pente", 19, 361)),
        (
            "pente",
            &[("size", "7"), ("opening", "tournament")],
            ("pente", 7, 1),
        ),
        ("tictactoe", &[("size", "3")], ("tictactoe", 3, 9)),
        (
            "tictactoe",
            &[("size", "6"), ("k", "3")],
            ("tictactoe", 6, 36),
        ),
    ] {
        let variant = Variant::parse(name, options.iter().copied()).unwrap();
        assert_eq!(variant.visit(FirstMoves), expected, "{name} {options:?}");
    }
    for (name, options) in [
        ("gomoku", &[("size", "4")][..]),
        ("gomoku", &[("size", "100")]),
        ("gomoku", &[("size", "20"), ("opening", "center")]),
        ("gomoku", &[("size", "16"), ("opening", "center")]),
        ("gomoku", &[("rule", "caro")]),
    ] {
        assert!(
            Variant::parse(name, options.iter().copied()).is_err(),
            "{name} {options:?}"
        );
    }
}
