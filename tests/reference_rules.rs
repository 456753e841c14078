//! arbor's Othello against a plain array implementation written here, square by square.

use arbor::game::othello::{Othello, Rule};
use arbor::game::perft::perft_generic;
use arbor::game::{Game, Move, Side};
use rand::{Rng, SeedableRng};

#[derive(Clone)]
struct Plain {
    size: usize,
    cells: Vec<u8>, // 0 empty, 1 black, 2 white
    to_move: u8,
}

impl Plain {
    fn new(size: usize) -> Plain {
        let mut cells = vec![0; size * size];
        let (l, h) = (size / 2 - 1, size / 2);
        cells[l * size + l] = 2;
        cells[h * size + h] = 2;
        cells[l * size + h] = 1;
        cells[h * size + l] = 1;
        Plain {
            size,
            cells,
            to_move: 1,
        }
    }

    fn flips(&self, index: usize, colour: u8) -> Vec<usize> {
        let mut all = Vec::new();
        if self.cells[index] != 0 {
            return all;
        }
        let n = self.size as i32;
        let (col, row) = ((index % self.size) as i32, (index / self.size) as i32);
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let mut run = Vec::new();
            let (mut c, mut r) = (col + dc, row + dr);
            while c >= 0 && c < n && r >= 0 && r < n {
                let cell = self.cells[(r * n + c) as usize];
                if cell == 3 - colour {
                    run.push((r * n + c) as usize);
                } else {
                    if cell == colour {
                        all.extend(run);
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    fn moves_of(&self, colour: u8) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| !self.flips(i, colour).is_empty())
            .collect()
    }

    /// Field indexes, `None` for a pass; empty when the game is over.
    fn moves(&self) -> Vec<Option<usize>> {
        let own = self.moves_of(self.to_move);
        if !own.is_empty() {
            own.into_iter().map(Some).collect()
        } else if !self.moves_of(3 - self.to_move).is_empty() {
            vec![None]
        } else {
            vec![]
        }
    }

    fn play(&mut self, mv: Option<usize>) {
        if let Some(index) = mv {
            for flip in self.flips(index, self.to_move) {
                self.cells[flip] = self.to_move;
            }
            self.cells[index] = self.to_move;
        }
        self.to_move = 3 - self.to_move;
    }

    fn count(&self, colour: u8) -> usize {
        self.cells.iter().filter(|&&c| c == colour).count()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut next = self.clone();
                next.play(mv);
                next.perft(depth - 1)
            })
            .sum()
    }
}

fn arbor_moves(game: &Othello) -> Vec<Option<usize>> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves.iter().map(|&mv| game.field_index(mv)).collect()
}

#[test]
fn perft_matches_the_plain_implementation() {
    for (size, depth) in [(4, 14), (6, 7), (8, 5)] {
        let plain = Plain::new(size);
        for rule in [Rule::Normal, Rule::Misere] {
            let mut game = Othello::new(size, rule).unwrap();
            for d in 1..=depth {
                let expected = plain.perft(d);
                assert_eq!(game.perft(d), expected, "size {size} depth {d}");
                if d <= 6 {
                    assert_eq!(
                        perft_generic(&mut game, d),
                        expected,
                        "size {size} depth {d}"
                    );
                }
            }
        }
    }
}

#[test]
fn published_8x8_perft() {
    let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    let mut game = Othello::standard();
    for (depth, &leaves) in expected.iter().enumerate() {
        assert_eq!(game.perft(depth as u32 + 1), leaves);
    }
}

#[test]
fn random_games_agree_ply_by_ply() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2024);
    for (size, rule, games) in [
        (4, Rule::Normal, 400),
        (6, Rule::Normal, 300),
        (6, Rule::Misere, 300),
        (8, Rule::Normal, 200),
        (8, Rule::Misere, 100),
    ] {
        for _ in 0..games {
            let mut game = Othello::new(size, rule).unwrap();
            let mut plain = Plain::new(size);
            let mut history = Vec::new();
            loop {
                let expected = plain.moves();
                assert_eq!(arbor_moves(&game), expected);
                let black = plain.count(1) as u32;
                let white = plain.count(2) as u32;
                assert_eq!(game.status_details(), format!("{black} {white}"));
                if expected.is_empty() {
                    let leader = match black.cmp(&white) {
                        std::cmp::Ordering::Greater => Some(Side::Black),
                        std::cmp::Ordering::Less => Some(Side::White),
                        std::cmp::Ordering::Equal => None,
                    };
                    let winner = if rule == Rule::Misere {
                        leader.map(Side::opponent)
                    } else {
                        leader
                    };
                    assert_eq!(game.outcome().map(|o| o.winner), Some(winner));
                    break;
                }
                assert_eq!(game.outcome(), None);
                // Sometimes take a move back and check the position returns exactly.
                if !history.is_empty() && rng.random_range(0..8) == 0 {
                    let (mv, undo, board, hash): (Move, _, String, u64) = history.pop().unwrap();
                    game.unmake(mv, undo);
                    assert_eq!(game.to_board_string(), board);
                    assert_eq!(game.hash(), hash);
                    // Rebuild the plain board from the restored position.
                    plain = plain_from(&game);
                    continue;
                }
                let choice = rng.random_range(0..expected.len());
                let mv = game.parse_move(&name(expected[choice], size)).unwrap();
                assert!(game.is_legal(mv));
                let before = (game.to_board_string(), game.hash());
                let undo = game.make(mv);
                history.push((mv, undo, before.0, before.1));
                plain.play(expected[choice]);
                // The hash depends only on the position.
                let mut fresh = Othello::new(size, rule).unwrap();
                let text = game.to_board_string();
                let (cells, side) = text.split_once(' ').unwrap();
                fresh.set_board(cells, Side::parse(side).unwrap()).unwrap();
                assert_eq!(fresh.hash(), game.hash());
            }
        }
    }
}

fn name(mv: Option<usize>, size: usize) -> String {
    match mv {
        None => "pass".into(),
        Some(index) => format!("{},{}", index % size, index / size),
    }
}

fn plain_from(game: &Othello) -> Plain {
    let text = game.to_board_string();
    let (cells, side) = text.split_once(' ').unwrap();
    Plain {
        size: game.size(),
        cells: cells
            .bytes()
            .map(|c| match c {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect(),
        to_move: if side == "X" { 1 } else { 2 },
    }
}

#[test]
fn illegal_moves_are_rejected() {
    let game = Othello::standard();
    for text in ["d4", "a1", "pass", "e3"] {
        assert!(!game.is_legal(game.parse_move(text).unwrap()), "{text}");
    }
    assert!(game.is_legal(game.parse_move("D3").unwrap()));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A position reached by following `choices` (each picks among the legal moves).
    fn reach(size: usize, rule: Rule, choices: &[u8]) -> (Othello, Plain) {
        let mut game = Othello::new(size, rule).unwrap();
        let mut plain = Plain::new(size);
        let mut moves = Vec::new();
        for &choice in choices {
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            plain.play(game.field_index(mv));
            game.make(mv);
        }
        (game, plain)
    }

    proptest! {
        #[test]
        fn make_unmake_restores_position_and_hash(
            size in prop::sample::select(vec![4usize, 6, 8]),
            misere in any::<bool>(),
            choices in prop::collection::vec(any::<u8>(), 0..60),
        ) {
            let rule = if misere { Rule::Misere } else { Rule::Normal };
            let (mut game, _) = reach(size, rule, &choices);
            let before = game.clone();
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            for mv in moves {
                let undo = game.make(mv);
                game.unmake(mv, undo);
                prop_assert_eq!(&game, &before);
                prop_assert_eq!(game.hash(), before.hash());
            }
        }

        #[test]
        fn generated_moves_are_exactly_the_reference_moves(
            size in prop::sample::select(vec![4usize, 6, 8]),
            choices in prop::collection::vec(any::<u8>(), 0..60),
        ) {
            let (game, plain) = reach(size, Rule::Normal, &choices);
            prop_assert_eq!(arbor_moves(&game), plain.moves());
        }

        #[test]
        fn random_boards_agree_with_the_reference(
            cells in prop::collection::vec(prop::sample::select(vec!['X', 'O', '-']), 36),
            white in any::<bool>(),
        ) {
            let text: String = cells.iter().collect();
            let side = if white { Side::White } else { Side::Black };
            let mut game = Othello::new(6, Rule::Normal).unwrap();
            game.set_board(&text, side).unwrap();
            let plain = Plain {
                size: 6,
                cells: cells.iter().map(|&c| match c { 'X' => 1, 'O' => 2, _ => 0 }).collect(),
                to_move: if white { 2 } else { 1 },
            };
            prop_assert_eq!(arbor_moves(&game), plain.moves());
            prop_assert_eq!(game.to_board_string(), format!("{text} {}", if white { 'O' } else { 'X' }));
        }
    }
}
