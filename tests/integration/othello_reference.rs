//! arbor's Othello checked against an independent reference written in this file: a plain
//! 8x8 array of cells (only the top-left `size` x `size` part is used) whose moves are
//! found by walking the eight directions square by square. Nothing here comes from
//! `src/`; the reference follows the rules as written in the spec:
//!
//! * boards 4x4, 6x6, 8x8; White starts on the two centre squares of the main diagonal,
//!   Black on the other two; Black moves first;
//! * a move must flip at least one opponent disc; a player without a move passes; the game
//!   is over when neither side can move; `normal`: most discs wins, `misere`: fewest;
//! * names: column letter then row number, a1 top-left; field index = row * size + col;
//! * perft: a pass is a ply, a game that ends early is one leaf.

use std::collections::HashMap;

use arbor::game::othello::{Othello, Rule};
use arbor::game::perft::perft_generic;
use arbor::game::{Game, Move, Outcome, Side};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

// ---------------------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------------------

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
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

/// A move of the reference: a field index (row * size + col) or a pass.
type RefMove = Option<usize>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Board {
    size: usize,
    /// `cells[row][col]`.
    cells: [[u8; 8]; 8],
    to_move: u8,
}

impl Board {
    fn start(size: usize) -> Board {
        let mut board = Board {
            size,
            cells: [[EMPTY; 8]; 8],
            to_move: BLACK,
        };
        let low = size / 2 - 1;
        let high = size / 2;
        board.cells[low][low] = WHITE;
        board.cells[high][high] = WHITE;
        board.cells[low][high] = BLACK;
        board.cells[high][low] = BLACK;
        board
    }

    /// From `X`/`O`/`-` cells row by row.
    fn from_cells(size: usize, cells: &str, side: Side) -> Board {
        let mut board = Board {
            size,
            cells: [[EMPTY; 8]; 8],
            to_move: colour_of(side),
        };
        assert_eq!(cells.len(), size * size);
        for (index, ch) in cells.chars().enumerate() {
            board.cells[index / size][index % size] = match ch {
                'X' => BLACK,
                'O' => WHITE,
                '-' => EMPTY,
                _ => panic!("bad cell {ch:?}"),
            };
        }
        board
    }

    fn cells_text(&self) -> String {
        let mut text = String::new();
        for row in 0..self.size {
            for col in 0..self.size {
                text.push(match self.cells[row][col] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '-',
                });
            }
        }
        text
    }

    /// What `to_board_string` should say.
    fn board_string(&self) -> String {
        let side = if self.to_move == BLACK { 'X' } else { 'O' };
        format!("{} {side}", self.cells_text())
    }

    fn on_board(&self, row: i32, col: i32) -> bool {
        row >= 0 && col >= 0 && (row as usize) < self.size && (col as usize) < self.size
    }

    /// Discs `colour` would flip by playing at (row, col); empty if the square is taken.
    fn flips(&self, row: usize, col: usize, colour: u8) -> Vec<(usize, usize)> {
        let mut flipped = Vec::new();
        if self.cells[row][col] != EMPTY {
            return flipped;
        }
        let enemy = other(colour);
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while self.on_board(r, c) && self.cells[r as usize][c as usize] == enemy {
                line.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            if !line.is_empty()
                && self.on_board(r, c)
                && self.cells[r as usize][c as usize] == colour
            {
                flipped.extend(line);
            }
        }
        flipped
    }

    fn can_play_at(&self, row: usize, col: usize, colour: u8) -> bool {
        !self.flips(row, col, colour).is_empty()
    }

    /// Field indices where `colour` may play, increasing.
    fn placements(&self, colour: u8) -> Vec<usize> {
        let mut found = Vec::new();
        for row in 0..self.size {
            for col in 0..self.size {
                if self.can_play_at(row, col, colour) {
                    found.push(row * self.size + col);
                }
            }
        }
        found
    }

    fn moves(&self) -> Vec<RefMove> {
        let mine = self.placements(self.to_move);
        if !mine.is_empty() {
            mine.into_iter().map(Some).collect()
        } else if !self.placements(other(self.to_move)).is_empty() {
            vec![None]
        } else {
            Vec::new()
        }
    }

    fn is_over(&self) -> bool {
        self.placements(BLACK).is_empty() && self.placements(WHITE).is_empty()
    }

    fn play(&mut self, mv: RefMove) {
        if let Some(index) = mv {
            let (row, col) = (index / self.size, index % self.size);
            let flipped = self.flips(row, col, self.to_move);
            assert!(
                !flipped.is_empty(),
                "reference asked to play an illegal move"
            );
            for (r, c) in flipped {
                self.cells[r][c] = self.to_move;
            }
            self.cells[row][col] = self.to_move;
        } else {
            assert_eq!(
                self.moves(),
                vec![None],
                "reference asked to pass illegally"
            );
        }
        self.to_move = other(self.to_move);
    }

    fn count(&self, colour: u8) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&cell| cell == colour)
            .count()
    }

    /// `None` while the game goes on; `Some(None)` for a draw.
    fn result(&self, rule: Rule) -> Option<Option<Side>> {
        if !self.is_over() {
            return None;
        }
        let (black, white) = (self.count(BLACK), self.count(WHITE));
        if black == white {
            return Some(None);
        }
        let most = if black > white {
            Side::Black
        } else {
            Side::White
        };
        Some(Some(match rule {
            Rule::Normal => most,
            Rule::Misere => most.opponent(),
        }))
    }

    fn name(&self, mv: RefMove) -> String {
        match mv {
            None => "pass".to_string(),
            Some(index) => {
                let (row, col) = (index / self.size, index % self.size);
                format!("{}{}", (b'a' + col as u8) as char, row + 1)
            }
        }
    }

    /// Leaf count: a pass is a ply, a finished game is one leaf.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut next = *self;
                next.play(mv);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// Number of complete games from here.
    fn games(&self) -> u64 {
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut next = *self;
                next.play(mv);
                next.games()
            })
            .sum()
    }
}

// ---------------------------------------------------------------------------------------
// Comparing arbor with the reference.
// ---------------------------------------------------------------------------------------

fn arbor_moves(game: &Othello) -> Vec<Move> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves
}

/// The reference move that is arbor's `mv`, via its name and field index (which must agree).
fn to_ref(game: &Othello, reference: &Board, mv: Move) -> RefMove {
    let index = game.field_index(mv);
    assert_eq!(game.format_move(mv), reference.name(index), "{mv:?}");
    index
}

fn to_arbor(game: &Othello, reference: &Board, mv: RefMove) -> Move {
    let parsed = game
        .parse_move(&reference.name(mv))
        .expect("reference names parse");
    assert_eq!(game.field_index(parsed), mv);
    parsed
}

fn fresh(size: usize, rule: Rule, cells: &str, side: Side) -> Othello {
    let mut game = Othello::new(size, rule).unwrap();
    game.set_board(cells, side).unwrap();
    game
}

fn expected_score(reference: &Board, rule: Rule, side: Side) -> i32 {
    let own = reference.count(colour_of(side)) as i32;
    let theirs = reference.count(other(colour_of(side))) as i32;
    match rule {
        Rule::Normal => own - theirs,
        Rule::Misere => theirs - own,
    }
}

/// Everything observable about the position must match the reference.
fn check_agrees(game: &Othello, reference: &Board, rule: Rule) {
    let size = reference.size;
    let board = reference.board_string();
    assert_eq!(game.size(), size);
    assert_eq!(game.to_board_string(), board);
    assert_eq!(game.side_to_move(), side_of(reference.to_move), "{board}");
    assert_eq!(
        game.status_details(),
        format!("{} {}", reference.count(BLACK), reference.count(WHITE)),
        "{board}"
    );
    for side in Side::BOTH {
        assert_eq!(
            game.immediate_score(side),
            expected_score(reference, rule, side),
            "{board} {side}"
        );
    }

    // Move list: same moves, same order, same names and field indices.
    let moves = arbor_moves(game);
    let expected = reference.moves();
    let names: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
    let expected_names: Vec<String> = expected.iter().map(|&mv| reference.name(mv)).collect();
    assert_eq!(names, expected_names, "{board}");
    let indices: Vec<RefMove> = moves.iter().map(|&mv| game.field_index(mv)).collect();
    assert_eq!(indices, expected, "{board}");
    for &mv in &moves {
        assert!(game.is_legal(mv), "{board}: generated {mv:?} is not legal");
        assert_eq!(game.parse_move(&game.format_move(mv)), Ok(mv), "{board}");
    }

    // is_legal on every square and on pass.
    let mine = reference.placements(reference.to_move);
    for index in 0..size * size {
        let mv = to_arbor(game, reference, Some(index));
        assert_eq!(
            game.is_legal(mv),
            mine.contains(&index),
            "{board}: is_legal({})",
            reference.name(Some(index))
        );
    }
    assert_eq!(
        game.is_legal(Move::PASS),
        expected == vec![None],
        "{board}: is_legal(pass)"
    );

    // Outcome.
    let outcome = game.outcome();
    assert_eq!(
        outcome.map(|Outcome { winner }| winner),
        reference.result(rule),
        "{board} ({rule:?})"
    );
    assert_eq!(outcome.is_some(), moves.is_empty(), "{board}");

    // The hash depends on the position only.
    let cells = reference.cells_text();
    let side = side_of(reference.to_move);
    let rebuilt = fresh(size, rule, &cells, side);
    assert_eq!(rebuilt.to_board_string(), board);
    assert_eq!(
        game.hash(),
        rebuilt.hash(),
        "{board}: hash differs from set_board's"
    );
    let flipped_side = fresh(size, rule, &cells, side.opponent());
    assert_ne!(
        game.hash(),
        flipped_side.hash(),
        "{board}: hash ignores the side"
    );
}

/// Every move of arbor, made and unmade, against the reference's.
fn check_each_move(game: &mut Othello, reference: &Board, rule: Rule) {
    let before = game.to_board_string();
    let hash = game.hash();
    for mv in arbor_moves(game) {
        let ref_mv = to_ref(game, reference, mv);
        let undo = game.make(mv);
        let mut next = *reference;
        next.play(ref_mv);
        assert_eq!(
            game.to_board_string(),
            next.board_string(),
            "{before}: after {}",
            reference.name(ref_mv)
        );
        assert_eq!(
            game.hash(),
            fresh(next.size, rule, &next.cells_text(), side_of(next.to_move)).hash(),
            "{before}: hash after {}",
            reference.name(ref_mv)
        );
        game.unmake(mv, undo);
        assert_eq!(game.to_board_string(), before, "unmake of {mv:?}");
        assert_eq!(game.hash(), hash, "{before}: hash after unmake of {mv:?}");
    }
}

/// Per board size and rule: board string -> hash and hash -> board string seen so far.
#[derive(Default)]
struct Seen {
    hash_of: HashMap<String, u64>,
    board_of: HashMap<u64, String>,
}

impl Seen {
    fn record(&mut self, game: &Othello) {
        let board = game.to_board_string();
        let hash = game.hash();
        if let Some(&old) = self.hash_of.get(&board) {
            assert_eq!(old, hash, "{board}: same position, different hash");
        } else {
            self.hash_of.insert(board.clone(), hash);
        }
        if let Some(old) = self.board_of.get(&hash) {
            assert_eq!(*old, board, "hash collision {hash:#x}");
        } else {
            self.board_of.insert(hash, board);
        }
    }
}

// ---------------------------------------------------------------------------------------
// 1. Perft.
// ---------------------------------------------------------------------------------------

fn check_perft(size: usize, rule: Rule, depths: std::ops::RangeInclusive<u32>) -> Vec<u64> {
    let reference = Board::start(size);
    let mut game = Othello::new(size, rule).unwrap();
    let start = game.clone();
    let mut counts = Vec::new();
    for depth in depths {
        let expected = reference.perft(depth);
        assert_eq!(
            game.perft(depth),
            expected,
            "{size}x{size} {rule:?} perft {depth}"
        );
        assert_eq!(
            perft_generic(&mut game, depth),
            expected,
            "{size}x{size} {rule:?} perft_generic {depth}"
        );
        assert_eq!(game, start, "perft changed the position");
        counts.push(expected);
    }
    counts
}

#[test]
fn perft_4x4_whole_game_tree() {
    // A 4x4 game has at most 12 placements, and a pass is followed by a placement or the
    // end; in fact every game is over within 15 plies, so from there on perft counts each
    // complete game once.
    let games = Board::start(4).games();
    // Both implementations' count (pinned so that a change in both shows up).
    assert_eq!(games, 60060);
    for rule in [Rule::Normal, Rule::Misere] {
        let counts = check_perft(4, rule, 1..=18);
        assert_eq!(&counts[..5], &[4, 12, 44, 128, 424]);
        assert!(counts[13] < games, "some games last 15 plies");
        assert_eq!(
            &counts[14..],
            &[games; 4],
            "perft 15..18 counts every game once"
        );
        // The count keeps growing while games go on.
        assert!(counts.windows(2).all(|pair| pair[0] <= pair[1]));
    }
}

#[test]
fn perft_6x6_both_rules() {
    check_perft(6, Rule::Normal, 1..=9);
    check_perft(6, Rule::Misere, 1..=9);
}

#[test]
fn perft_8x8_published_numbers() {
    const PUBLISHED: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    let counts = check_perft(8, Rule::Normal, 1..=7);
    assert_eq!(counts, PUBLISHED[..7]);
    let mut game = Othello::standard();
    for (depth, &expected) in (1..).zip(PUBLISHED.iter()) {
        assert_eq!(game.perft(depth), expected, "8x8 fast perft {depth}");
    }
    assert_eq!(perft_generic(&mut game, 8), PUBLISHED[7]);
    let mut misere = Othello::new(8, Rule::Misere).unwrap();
    assert_eq!(misere.perft(9), PUBLISHED[8]);
}

// ---------------------------------------------------------------------------------------
// 2. Random games, with undo.
// ---------------------------------------------------------------------------------------

struct Played {
    mv: Move,
    undo: <Othello as Game>::Undo,
    board: String,
    hash: u64,
    reference: Board,
}

fn random_games(size: usize, rule: Rule, games: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = Seen::default();
    let mut plies = 0usize;
    let mut undone = 0usize;
    let mut passes = 0usize;
    let mut finished = [0usize; 3]; // black wins, white wins, draws
    for _ in 0..games {
        let mut game = Othello::new(size, rule).unwrap();
        let mut reference = Board::start(size);
        let start_board = game.to_board_string();
        let start_hash = game.hash();
        let mut history: Vec<Played> = Vec::new();
        loop {
            check_agrees(&game, &reference, rule);
            seen.record(&game);
            let moves = arbor_moves(&game);
            if moves.is_empty() {
                break;
            }
            if !history.is_empty() && rng.random_bool(0.08) {
                let back = rng.random_range(1..=history.len().min(5));
                for _ in 0..back {
                    let played = history.pop().unwrap();
                    game.unmake(played.mv, played.undo);
                    assert_eq!(
                        game.to_board_string(),
                        played.board,
                        "unmake {:?}",
                        played.mv
                    );
                    assert_eq!(
                        game.hash(),
                        played.hash,
                        "hash after unmake {:?}",
                        played.mv
                    );
                    reference = played.reference;
                    undone += 1;
                }
                continue;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let ref_mv = to_ref(&game, &reference, mv);
            passes += usize::from(mv.is_pass());
            let board = game.to_board_string();
            let hash = game.hash();
            let undo = game.make(mv);
            history.push(Played {
                mv,
                undo,
                board,
                hash,
                reference,
            });
            reference.play(ref_mv);
            plies += 1;
        }
        match game.outcome().unwrap().winner {
            Some(Side::Black) => finished[0] += 1,
            Some(Side::White) => finished[1] += 1,
            None => finished[2] += 1,
        }
        // Take the whole game back.
        while let Some(played) = history.pop() {
            game.unmake(played.mv, played.undo);
            assert_eq!(game.to_board_string(), played.board);
            assert_eq!(game.hash(), played.hash);
        }
        assert_eq!(game.to_board_string(), start_board);
        assert_eq!(game.hash(), start_hash);
        assert_eq!(game, Othello::new(size, rule).unwrap());
    }
    // The games did what games do: they were long, undo happened, sides passed, both
    // sides won some.
    assert!(plies > games * (size * size - 4) / 2, "{plies} plies");
    assert!(passes > games / 20, "{passes} passes");
    assert!(undone > games, "{undone} plies undone");
    assert!(finished[0] > 0 && finished[1] > 0, "{finished:?}");
}

#[test]
fn random_games_4x4() {
    random_games(4, Rule::Normal, 3000, 4);
}

#[test]
fn random_games_4x4_misere() {
    random_games(4, Rule::Misere, 2000, 44);
}

#[test]
fn random_games_6x6() {
    random_games(6, Rule::Normal, 2000, 6);
}

#[test]
fn random_games_6x6_misere() {
    random_games(6, Rule::Misere, 2000, 66);
}

#[test]
fn random_games_8x8() {
    random_games(8, Rule::Normal, 1500, 8);
}

#[test]
fn random_games_8x8_misere() {
    random_games(8, Rule::Misere, 1500, 88);
}

#[test]
fn hash_is_the_same_after_transposed_move_orders() {
    // Every 5-ply line from the start, grouped by the position it reaches.
    let start = Board::start(8);
    let mut by_position: HashMap<String, Vec<Vec<RefMove>>> = HashMap::new();
    let mut lines = vec![(start, Vec::new())];
    for _ in 0..5 {
        let mut next_lines = Vec::new();
        for (board, line) in lines {
            for mv in board.moves() {
                let mut next = board;
                next.play(mv);
                let mut longer: Vec<RefMove> = line.clone();
                longer.push(mv);
                next_lines.push((next, longer));
            }
        }
        lines = next_lines;
    }
    for (board, line) in &lines {
        by_position
            .entry(board.board_string())
            .or_default()
            .push(line.clone());
    }
    let mut transpositions = 0;
    for (board, lines) in by_position {
        let hashes: Vec<u64> = lines
            .iter()
            .map(|line| {
                let mut game = Othello::standard();
                let mut reference = Board::start(8);
                for &mv in line {
                    let arbor_mv = to_arbor(&game, &reference, mv);
                    game.make(arbor_mv);
                    reference.play(mv);
                }
                assert_eq!(game.to_board_string(), board);
                game.hash()
            })
            .collect();
        if hashes.len() > 1 {
            transpositions += 1;
        }
        assert!(hashes.iter().all(|&hash| hash == hashes[0]), "{board}");
    }
    assert!(transpositions > 10, "{transpositions}");
}

// ---------------------------------------------------------------------------------------
// 3. Properties.
// ---------------------------------------------------------------------------------------

fn size_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![Just(4usize), Just(6usize), Just(8usize)]
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![Just(Rule::Normal), Just(Rule::Misere)]
}

/// Plays `choices` (each taken modulo the number of moves) from the start on both.
fn reach(size: usize, rule: Rule, choices: &[usize]) -> (Othello, Board) {
    let mut game = Othello::new(size, rule).unwrap();
    let mut reference = Board::start(size);
    for &choice in choices {
        let moves = reference.moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice % moves.len()];
        let arbor_mv = to_arbor(&game, &reference, mv);
        game.make(arbor_mv);
        reference.play(mv);
    }
    (game, reference)
}

/// A board with about `fill` percent of its cells taken, each by either colour.
fn random_board(
    size: usize,
    cells: &[(u8, bool)],
    fill: u8,
    black_to_move: bool,
) -> (String, Side) {
    let text: String = cells[..size * size]
        .iter()
        .map(|&(roll, black)| match (roll < fill, black) {
            (false, _) => '-',
            (true, true) => 'X',
            (true, false) => 'O',
        })
        .collect();
    let side = if black_to_move {
        Side::Black
    } else {
        Side::White
    };
    (text, side)
}

fn check_small_perft(game: &mut Othello, reference: &Board) {
    let before = game.to_board_string();
    for depth in 0..=3 {
        let expected = reference.perft(depth);
        assert_eq!(game.perft(depth), expected, "{before}: perft {depth}");
        assert_eq!(
            perft_generic(game, depth),
            expected,
            "{before}: perft_generic {depth}"
        );
    }
    assert_eq!(game.to_board_string(), before);
}

proptest! {
    // No regression files: integration tests have no lib.rs for proptest to place them by;
    // a failure prints its shrunk input instead.
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn make_then_unmake_restores_position_and_hash(
        size in size_strategy(),
        rule in rule_strategy(),
        choices in prop::collection::vec(0usize..64, 0..70),
        pick in 0usize..64,
    ) {
        let (mut game, _) = reach(size, rule, &choices);
        let before = game.clone();
        let moves = arbor_moves(&game);
        if !moves.is_empty() {
            let mv = moves[pick % moves.len()];
            let undo = game.make(mv);
            prop_assert_ne!(game.to_board_string(), before.to_board_string());
            game.unmake(mv, undo);
            prop_assert_eq!(game.to_board_string(), before.to_board_string());
            prop_assert_eq!(game.hash(), before.hash());
            prop_assert_eq!(&game, &before);
        }
    }

    #[test]
    fn reached_positions_agree_with_the_reference(
        size in size_strategy(),
        rule in rule_strategy(),
        choices in prop::collection::vec(0usize..64, 0..70),
    ) {
        let (mut game, reference) = reach(size, rule, &choices);
        check_agrees(&game, &reference, rule);
        check_each_move(&mut game, &reference, rule);
        check_small_perft(&mut game, &reference);
    }

    #[test]
    fn random_boards_agree_with_the_reference(
        size in size_strategy(),
        rule in rule_strategy(),
        cells in prop::collection::vec((0u8..100, any::<bool>()), 64),
        fill in 0u8..=100,
        black_to_move in any::<bool>(),
    ) {
        let (text, side) = random_board(size, &cells, fill, black_to_move);
        let mut game = Othello::new(size, rule).unwrap();
        game.set_board(&text, side).unwrap();
        let reference = Board::from_cells(size, &text, side);
        prop_assert_eq!(game.to_board_string(), reference.board_string());
        check_agrees(&game, &reference, rule);
        check_each_move(&mut game, &reference, rule);
        check_small_perft(&mut game, &reference);
    }

    #[test]
    fn set_board_round_trips(
        size in size_strategy(),
        cells in prop::collection::vec((0u8..100, any::<bool>()), 64),
        fill in 0u8..=100,
        black_to_move in any::<bool>(),
    ) {
        let (text, side) = random_board(size, &cells, fill, black_to_move);
        let mut game = Othello::new(size, Rule::Normal).unwrap();
        game.set_board(&text, side).unwrap();
        let mark = if side == Side::Black { 'X' } else { 'O' };
        prop_assert_eq!(game.to_board_string(), format!("{text} {mark}"));
        prop_assert_eq!(game.side_to_move(), side);
        let copy = fresh(size, Rule::Normal, &text, side);
        prop_assert_eq!(copy.hash(), game.hash());
    }
}

// ---------------------------------------------------------------------------------------
// 4. Fixed positions: start, round trips, illegal moves, endings.
// ---------------------------------------------------------------------------------------

fn names(game: &Othello) -> Vec<String> {
    arbor_moves(game)
        .iter()
        .map(|&mv| game.format_move(mv))
        .collect()
}

#[test]
fn start_positions_follow_the_spec() {
    let game = Othello::standard();
    let reference = Board::start(8);
    assert_eq!(names(&game), ["d3", "c4", "f5", "e6"]);
    let d4 = 3 * 8 + 3;
    let e5 = 4 * 8 + 4;
    let e4 = 3 * 8 + 4;
    let d5 = 4 * 8 + 3;
    let cells: Vec<char> = game.to_board_string().chars().collect();
    assert_eq!(
        (cells[d4], cells[e5], cells[e4], cells[d5]),
        ('O', 'O', 'X', 'X')
    );
    assert_eq!(cells.iter().filter(|&&c| c == '-').count(), 60);
    assert!(game.to_board_string().ends_with(" X"));
    assert_eq!(game.side_to_move(), Side::Black);
    check_agrees(&game, &reference, Rule::Normal);
    for size in [4, 6, 8] {
        for rule in [Rule::Normal, Rule::Misere] {
            let game = Othello::new(size, rule).unwrap();
            check_agrees(&game, &Board::start(size), rule);
        }
    }
    assert_eq!(
        Othello::new(4, Rule::Normal).unwrap().to_board_string(),
        "-----OX--XO----- X"
    );
    assert_eq!(
        Othello::new(6, Rule::Normal).unwrap().to_board_string(),
        "--------------OX----XO-------------- X"
    );
    for bad in [0, 3, 5, 7, 10] {
        assert!(Othello::new(bad, Rule::Normal).is_err(), "size {bad}");
    }
}

#[test]
fn set_board_round_trips_fixed_positions_and_rejects_bad_input() {
    let positions = [
        (4, "XXXXXXXXOOOOOOOO", Side::White),
        (4, "----------------", Side::Black),
        (6, "XO-XO-OX-OX-------XXXXXX------OOOOOO", Side::White),
        (
            8,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-",
            Side::Black,
        ),
    ];
    for (size, cells, side) in positions {
        let mut game = Othello::new(size, Rule::Normal).unwrap();
        game.set_board(cells, side).unwrap();
        let mark = if side == Side::Black { 'X' } else { 'O' };
        assert_eq!(game.to_board_string(), format!("{cells} {mark}"));
        check_agrees(&game, &Board::from_cells(size, cells, side), Rule::Normal);
    }
    let mut game = Othello::new(4, Rule::Normal).unwrap();
    assert!(game.set_board("XXXX", Side::Black).is_err());
    assert!(game.set_board("-----OX--XO------", Side::Black).is_err());
    assert!(game.set_board("-----OX--XO----Z", Side::Black).is_err());
}

#[test]
fn illegal_moves_are_reported_illegal() {
    let game = Othello::standard();
    let legal = |name: &str| game.is_legal(game.parse_move(name).unwrap());
    // Occupied squares.
    for name in ["d4", "e4", "d5", "e5"] {
        assert!(!legal(name), "{name} is occupied");
    }
    // Empty squares that flip nothing, next to discs or not.
    for name in ["a1", "h8", "c3", "f6", "e3", "d6", "c5", "f4", "f3", "c6"] {
        assert!(!legal(name), "{name} flips nothing");
    }
    for name in ["d3", "c4", "f5", "e6"] {
        assert!(legal(name), "{name}");
    }
    // Pass while moves exist.
    assert!(!game.is_legal(Move::PASS));

    // Only a pass: white has no disc to bracket with, black can still move.
    let mut stuck = Othello::new(4, Rule::Normal).unwrap();
    stuck.set_board("XX--------------", Side::White).unwrap();
    assert_eq!(names(&stuck), Vec::<String>::new(), "neither side can move");
    stuck.set_board("XOO-------------", Side::White).unwrap();
    assert_eq!(names(&stuck), ["pass"]);
    assert!(stuck.is_legal(Move::PASS));
    assert!(stuck.outcome().is_none());
    for index in 0..16 {
        let name = format!("{}{}", (b'a' + (index % 4) as u8) as char, index / 4 + 1);
        assert!(!stuck.is_legal(stuck.parse_move(&name).unwrap()), "{name}");
    }
    let mut passed = stuck.clone();
    let undo = passed.make(Move::PASS);
    assert_eq!(passed.to_board_string(), "XOO------------- X");
    assert_eq!(names(&passed), ["d1"]);
    passed.unmake(Move::PASS, undo);
    assert_eq!(passed, stuck);

    // Game over: nothing is legal, not even a pass.
    let mut over = Othello::new(4, Rule::Normal).unwrap();
    over.set_board("XXXXXXXXXXXXXXX-", Side::Black).unwrap();
    assert!(!over.is_legal(Move::PASS));
    assert!(!over.is_legal(over.parse_move("d4").unwrap()));
    assert_eq!(
        over.outcome(),
        Some(Outcome {
            winner: Some(Side::Black)
        })
    );
}

#[test]
fn endings_under_both_rules() {
    let cases = [
        // cells, black discs, white discs
        ("XXXXXXXXXXXXOOOO", 12, 4),
        ("XXXXOOOOOOOOOOOO", 4, 12),
        ("XXXXXXXXOOOOOOOO", 8, 8),
        ("XXXXXX-XXXXXXXXO", 14, 1),
    ];
    for (cells, black, white) in cases {
        for rule in [Rule::Normal, Rule::Misere] {
            for side in Side::BOTH {
                let game = fresh(4, rule, cells, side);
                let reference = Board::from_cells(4, cells, side);
                assert!(reference.is_over(), "{cells}");
                check_agrees(&game, &reference, rule);
                assert_eq!(game.status_details(), format!("{black} {white}"));
                let most = match black.cmp(&white) {
                    std::cmp::Ordering::Greater => Some(Side::Black),
                    std::cmp::Ordering::Less => Some(Side::White),
                    std::cmp::Ordering::Equal => None,
                };
                let winner = match rule {
                    Rule::Normal => most,
                    Rule::Misere => most.map(Side::opponent),
                };
                assert_eq!(game.outcome(), Some(Outcome { winner }), "{cells} {rule:?}");
            }
        }
    }
}
