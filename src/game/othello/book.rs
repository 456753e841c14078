//! The 8x8 opening books, one per rule: positions from WTHOR games seen often enough
//! (normal rule), or reached by the engine's own plausible moves from the start
//! ([`expand`]: misère, which has no game collection), each with its negamaxed score, so
//! that `go` can play known openings at once.
//!
//! A position is stored once for its eight mirror images (the least of them, see
//! [`canonical`]). Each entry has two scores for the side to move, in centi-discs:
//! `value`, the negamax over the book (the best of its book children and of `off_book`),
//! and `off_book`, the search score of its best move that leaves the book (none when
//! every move stays in it). A book move is played only where the book's best child
//! scores at least `off_book`: elsewhere the search can do better.
//!
//! File format, version 1 (little-endian): the magic `ARBORBOK`, the version (u16), the
//! search depth the scores come from (u8), the rule (u8: 0 normal, 1 misère; the first
//! books, all normal, wrote 0 as a reserved byte), the entry count (u32), the
//! FNV-1a 64 hash of the entry bytes (u64); then the entries sorted by (player,
//! opponent), 20 bytes each: player discs (u64), opponent discs (u64), `value` (i16),
//! `off_book` (i16, `i16::MIN` for none). Reading checks all of it.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::bitboard::legal_moves;
use super::search::DISC;
use super::symmetry::Symmetry;
use super::{Othello, Rule};
use crate::game::roles::Score;
use crate::game::{Game, Move};

const MAGIC: &[u8; 8] = b"ARBORBOK";
pub const VERSION: u16 = 1;
const HEADER_BYTES: usize = 24;
const ENTRY_BYTES: usize = 20;
/// `off_book` of a position all of whose moves stay in the book.
const NONE: i16 = i16::MIN;
const MAX_SCORE: Score = 64 * DISC;

/// The shipped book file of `rule`, compiled into the binary.
pub fn shipped_bytes(rule: Rule) -> &'static [u8] {
    match rule {
        Rule::Normal => include_bytes!("book/normal8.book"),
        Rule::Misere => include_bytes!("book/misere8.book"),
    }
}

static SHIPPED: [LazyLock<Book, fn() -> Book>; 2] = [
    LazyLock::new(|| shipped_book(Rule::Normal)),
    LazyLock::new(|| shipped_book(Rule::Misere)),
];

fn shipped_book(rule: Rule) -> Book {
    let book = Book::decode(shipped_bytes(rule)).expect("the shipped book is valid");
    assert_eq!(book.rule, rule, "the shipped book of its rule");
    book
}

/// The book of `rule` shipped in the binary.
pub fn shipped(rule: Rule) -> &'static Book {
    match rule {
        Rule::Normal => &SHIPPED[0],
        Rule::Misere => &SHIPPED[1],
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    /// The negamaxed score for the side to move, centi-discs.
    pub value: i16,
    /// The best score of a move leaving the book, centi-discs; [`NONE`] for none.
    off_book: i16,
}

impl Entry {
    pub fn off_book(&self) -> Option<Score> {
        (self.off_book != NONE).then_some(self.off_book as Score)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// The depth of the searches its scores come from.
    pub depth: u8,
    /// The rule its scores are for; it has no moves for games of the other.
    pub rule: Rule,
    /// Sorted by (player, opponent), all canonical.
    entries: Vec<Entry>,
}

/// The least of a position's eight mirror images, as (player, opponent).
pub fn canonical(player: u64, opponent: u64) -> (u64, u64) {
    Symmetry::ALL
        .iter()
        .map(|symmetry| (symmetry.apply(player, 8), symmetry.apply(opponent, 8)))
        .min()
        .expect("eight symmetries")
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Book {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of a position (any of its mirror images), if the book has it.
    pub fn get(&self, player: u64, opponent: u64) -> Option<&Entry> {
        let key = canonical(player, opponent);
        self.entries
            .binary_search_by(|entry| (entry.player, entry.opponent).cmp(&key))
            .ok()
            .map(|index| &self.entries[index])
    }

    /// The book's moves in `game` with their scores for the side to move, in move order;
    /// empty when the position is not in the book, or when a move leaving the book
    /// scores better than every book move.
    pub fn moves(&self, game: &Othello) -> Vec<(Move, Score)> {
        let mut found = Vec::new();
        if game.rule() != self.rule || game.board() != !0 {
            return found;
        }
        let Some(entry) = self.get(game.player(), game.opponent()) else {
            return found;
        };
        for (mv, child) in children(game) {
            if let Some(next) = self.get(child.player(), child.opponent()) {
                found.push((mv, -(next.value as Score)));
            }
        }
        let best = found.iter().map(|&(_, score)| score).max();
        if best.is_none_or(|best| entry.off_book().is_some_and(|off| off > best)) {
            found.clear();
        }
        found
    }

    /// A book move for `game` within `spread` discs of the book's best (0: a best one),
    /// the choice among several made by `seed`; with its score.
    pub fn choose(&self, game: &Othello, spread: u32, seed: u64) -> Option<(Move, Score)> {
        let moves = self.moves(game);
        let best = moves.iter().map(|&(_, score)| score).max()?;
        let floor = best - (spread as Score).min(128) * DISC;
        let near: Vec<_> = moves.into_iter().filter(|&(_, s)| s >= floor).collect();
        Some(near[(seed % near.len() as u64) as usize])
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for entry in &self.entries {
            body.extend_from_slice(&entry.player.to_le_bytes());
            body.extend_from_slice(&entry.opponent.to_le_bytes());
            body.extend_from_slice(&entry.value.to_le_bytes());
            body.extend_from_slice(&entry.off_book.to_le_bytes());
        }
        let mut bytes = Vec::with_capacity(HEADER_BYTES + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.push(self.depth);
        bytes.push(rule_byte(self.rule));
        bytes.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Reads a book file, checking its header, hash, order and every entry.
    pub fn decode(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not an arbor book (no ARBORBOK header)".to_string());
        }
        let word = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let long = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let quad = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let version = word(8);
        if version != VERSION {
            return Err(format!(
                "book format version {version}; this build reads {VERSION}"
            ));
        }
        let depth = bytes[10];
        let rule = [Rule::Normal, Rule::Misere]
            .into_iter()
            .find(|&rule| rule_byte(rule) == bytes[11]);
        let (true, Some(rule)) = ((1..=60).contains(&depth), rule) else {
            return Err(format!(
                "bad book header: depth {depth} (1 to 60), rule byte {} (0 or 1)",
                bytes[11]
            ));
        };
        let count = long(12) as usize;
        let body = &bytes[HEADER_BYTES..];
        if body.len() != count.saturating_mul(ENTRY_BYTES) {
            return Err(format!(
                "book of {count} entries should have {} bytes after the header, has {}",
                count.saturating_mul(ENTRY_BYTES),
                body.len()
            ));
        }
        if fnv1a(body) != quad(16) {
            return Err("book hash mismatch: the file is damaged".to_string());
        }
        let mut entries = Vec::with_capacity(count);
        for (index, chunk) in body.chunks_exact(ENTRY_BYTES).enumerate() {
            let at = HEADER_BYTES + index * ENTRY_BYTES;
            let entry = Entry {
                player: quad(at),
                opponent: quad(at + 8),
                value: word(at + 16) as i16,
                off_book: word(at + 18) as i16,
            };
            debug_assert_eq!(chunk.len(), ENTRY_BYTES);
            check_entry(&entry).map_err(|e| format!("book entry {index}: {e}"))?;
            if let Some(last) = entries.last().map(|e: &Entry| (e.player, e.opponent))
                && last >= (entry.player, entry.opponent)
            {
                return Err(format!("book entry {index}: out of order"));
            }
            entries.push(entry);
        }
        Ok(Book {
            depth,
            rule,
            entries,
        })
    }
}

/// A rule's byte in the header.
fn rule_byte(rule: Rule) -> u8 {
    match rule {
        Rule::Normal => 0,
        Rule::Misere => 1,
    }
}

fn check_entry(entry: &Entry) -> Result<(), String> {
    if entry.player & entry.opponent != 0 {
        return Err("a square holds both sides' discs".to_string());
    }
    if (entry.player | entry.opponent).count_ones() < 4 {
        return Err("fewer than 4 discs".to_string());
    }
    if canonical(entry.player, entry.opponent) != (entry.player, entry.opponent) {
        return Err("not in canonical orientation".to_string());
    }
    if legal_moves(entry.player, entry.opponent, !0) == 0 {
        return Err("the side to move has no move".to_string());
    }
    if (entry.value as Score).abs() > MAX_SCORE {
        return Err(format!("value {} out of range", entry.value));
    }
    if let Some(off) = entry.off_book()
        && off.abs() > MAX_SCORE
    {
        return Err(format!("off-book score {off} out of range"));
    }
    Ok(())
}

/// The positions of `games` (each a list of (player, opponent) before each move) up to
/// `max_plies` moves in, seen in at least `min_games` games, where the side to move has a
/// move: canonical and sorted.
pub fn frequent_positions(
    games: &[Vec<(u64, u64)>],
    max_plies: usize,
    min_games: u32,
) -> Vec<(u64, u64)> {
    let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
    let mut seen = HashSet::new();
    for game in games {
        seen.clear();
        for &(player, opponent) in game.iter().take(max_plies + 1) {
            let key = canonical(player, opponent);
            if seen.insert(key) {
                *counts.entry(key).or_default() += 1;
            }
        }
    }
    let mut positions: Vec<_> = counts
        .into_iter()
        .filter(|&((player, opponent), count)| {
            count >= min_games && legal_moves(player, opponent, !0) != 0
        })
        .map(|(key, _)| key)
        .collect();
    positions.sort_unstable();
    positions
}

/// The positions a book of `rule` grows to from the start by the engine's own plausible
/// moves: at each position up to `plies` moves in, the moves scoring within `window`
/// centi-discs of its best lead on (a position where the side to move must pass is not
/// kept), nearest to the best first, until `limit` positions are kept. `score_all` gives,
/// for each position of a ply (canonical, the side to move's discs first), every move's
/// score for the side to move.
pub fn expand(
    rule: Rule,
    plies: usize,
    window: Score,
    limit: usize,
    mut score_all: impl FnMut(&[(u64, u64)]) -> Result<Vec<MoveScores>, String>,
) -> Result<Expansion, String> {
    let start = Othello::new(8, rule).map_err(|e| e.to_string())?;
    let start = canonical(start.player(), start.opponent());
    let mut kept = HashSet::from([start]);
    let mut frontier = vec![start];
    let mut scores = HashMap::new();
    for _ in 0..plies {
        if frontier.is_empty() || kept.len() >= limit {
            break;
        }
        let scored = score_all(&frontier)?;
        let mut candidates: Vec<(Score, (u64, u64))> = Vec::new();
        for (&(player, opponent), moves) in frontier.iter().zip(scored) {
            scores.insert((player, opponent), moves.clone());
            let Some(best) = moves.iter().map(|&(_, score)| score).max() else {
                continue;
            };
            let game = Othello::from_sides_under(rule, player, opponent, true);
            for &(mv, score) in &moves {
                if score < best - window || !game.is_legal(mv) {
                    continue;
                }
                let mut child = game.clone();
                child.make(mv);
                let key = canonical(child.player(), child.opponent());
                if legal_moves(key.0, key.1, !0) != 0 {
                    candidates.push((best - score, key));
                }
            }
        }
        candidates.sort_unstable();
        frontier.clear();
        for (_, key) in candidates {
            if kept.len() >= limit {
                break;
            }
            if kept.insert(key) {
                frontier.push(key);
            }
        }
        frontier.sort_unstable();
    }
    let mut positions: Vec<_> = kept.into_iter().collect();
    positions.sort_unstable();
    Ok(Expansion { positions, scores })
}

/// Every move of a position with its score for the side to move, centi-discs.
pub type MoveScores = Vec<(Move, Score)>;

/// What [`expand`] found.
pub struct Expansion {
    /// Canonical and sorted.
    pub positions: Vec<(u64, u64)>,
    /// The move scores of the positions it expanded (not those of the last ply).
    pub scores: HashMap<(u64, u64), MoveScores>,
}

impl Expansion {
    /// Each position's best score among its moves that leave the book (`None` where
    /// every move stays in it), given the move scores of every position.
    pub fn off_book(&self, scores: &HashMap<(u64, u64), MoveScores>) -> Vec<Option<Score>> {
        self.positions
            .iter()
            .map(|&(player, opponent)| {
                let leaving = off_book_moves(player, opponent, &self.positions);
                scores[&(player, opponent)]
                    .iter()
                    .filter(|(mv, _)| leaving.contains(mv))
                    .map(|&(_, score)| score)
                    .max()
            })
            .collect()
    }
}

/// Each legal move of the side to move in `game`, with the position after it.
fn children(game: &Othello) -> impl Iterator<Item = (Move, Othello)> + '_ {
    let mut moves = legal_moves(game.player(), game.opponent(), !0);
    std::iter::from_fn(move || {
        if moves == 0 {
            return None;
        }
        let mv = Move::new(moves.trailing_zeros() as u16);
        moves &= moves - 1;
        let mut child = game.clone();
        child.make(mv);
        Some((mv, child))
    })
}

/// The moves of a book position whose child is not among `positions` (sorted,
/// canonical): those a search must score.
pub fn off_book_moves(player: u64, opponent: u64, positions: &[(u64, u64)]) -> Vec<Move> {
    let game = Othello::from_sides(player, opponent, true);
    children(&game)
        .filter(|(_, child)| {
            let key = canonical(child.player(), child.opponent());
            legal_moves(key.0, key.1, !0) == 0 || positions.binary_search(&key).is_err()
        })
        .map(|(mv, _)| mv)
        .collect()
}

/// The book of `positions` (sorted, canonical) given each one's best off-book score
/// (`None` where every move stays in the book): scores negamaxed from the deepest
/// positions up.
pub fn negamax(
    positions: &[(u64, u64)],
    off_book: &[Option<Score>],
    depth: u8,
    rule: Rule,
) -> Book {
    assert_eq!(positions.len(), off_book.len());
    let mut order: Vec<usize> = (0..positions.len()).collect();
    // Every move adds a disc: children come before their parents.
    order.sort_by_key(|&i| std::cmp::Reverse((positions[i].0 | positions[i].1).count_ones()));
    let mut values: Vec<Option<Score>> = vec![None; positions.len()];
    for i in order {
        let (player, opponent) = positions[i];
        let game = Othello::from_sides(player, opponent, true);
        let mut best = off_book[i];
        for (_, child) in children(&game) {
            let key = canonical(child.player(), child.opponent());
            if let Ok(j) = positions.binary_search(&key)
                && let Some(value) = values[j]
            {
                best = Some(best.map_or(-value, |b: Score| b.max(-value)));
            }
        }
        values[i] = best;
    }
    let entries = positions
        .iter()
        .zip(&values)
        .zip(off_book)
        .filter_map(|((&(player, opponent), &value), &off)| {
            Some(Entry {
                player,
                opponent,
                value: value?.clamp(-MAX_SCORE, MAX_SCORE) as i16,
                off_book: off.map_or(NONE, |off| off.clamp(-MAX_SCORE, MAX_SCORE) as i16),
            })
        })
        .collect();
    Book {
        depth,
        rule,
        entries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;

    fn standard_line(moves: &[&str]) -> Othello {
        let mut game = Othello::standard();
        for name in moves {
            let mv = game.parse_move(name).unwrap();
            assert!(game.is_legal(mv));
            game.make(mv);
        }
        game
    }

    #[test]
    fn canonical_is_shared_by_all_mirror_images() {
        let game = standard_line(&["f5", "d6", "c3"]);
        let key = canonical(game.player(), game.opponent());
        for symmetry in Symmetry::ALL {
            let image = canonical(
                symmetry.apply(game.player(), 8),
                symmetry.apply(game.opponent(), 8),
            );
            assert_eq!(image, key);
        }
        // The four first moves lead to one position.
        let firsts: HashSet<_> = ["f5", "e6", "d3", "c4"]
            .iter()
            .map(|m| {
                let g = standard_line(&[m]);
                canonical(g.player(), g.opponent())
            })
            .collect();
        assert_eq!(firsts.len(), 1);
    }

    /// A small tree: the start, the first move (one position by symmetry), three second
    /// moves; scores chosen by hand.
    fn small_book() -> (Vec<(u64, u64)>, Book) {
        let key = |g: &Othello| canonical(g.player(), g.opponent());
        let start = Othello::standard();
        let first = standard_line(&["f5"]);
        let parallel = standard_line(&["f5", "f4"]);
        let diagonal = standard_line(&["f5", "f6"]);
        let perpendicular = standard_line(&["f5", "d6"]);
        let mut positions = vec![
            key(&start),
            key(&first),
            key(&parallel),
            key(&diagonal),
            key(&perpendicular),
        ];
        positions.sort_unstable();
        let score_of = |k: (u64, u64)| -> Option<Score> {
            if k == key(&start) {
                None
            } else if k == key(&first) {
                Some(-300)
            } else if k == key(&parallel) {
                Some(200)
            } else if k == key(&diagonal) {
                Some(-100)
            } else {
                Some(50)
            }
        };
        let off: Vec<_> = positions.iter().map(|&k| score_of(k)).collect();
        let book = negamax(&positions, &off, 7, Rule::Normal);
        (positions, book)
    }

    #[test]
    fn negamax_takes_the_best_of_book_children_and_the_off_book_move() {
        let (positions, book) = small_book();
        assert_eq!(book.len(), positions.len());
        let first = standard_line(&["f5"]);
        // White's best: f6 (diagonal), which leaves Black at -100: +100 for White,
        // above the off-book -300.
        assert_eq!(
            book.get(first.player(), first.opponent()).unwrap().value,
            100
        );
        let start = Othello::standard();
        assert_eq!(
            book.get(start.player(), start.opponent()).unwrap().value,
            -100
        );
        let moves = book.moves(&first);
        assert_eq!(moves.len(), 3);
        let (mv, score) = book.choose(&first, 0, 12345).unwrap();
        assert_eq!((first.format_move(mv).as_str(), score), ("f6", 100));
        // Within 2 discs: f6 (+1) and d6 (-0.5), never f4 (-2).
        let mut chosen = HashSet::new();
        for seed in 0..20 {
            chosen.insert(first.format_move(book.choose(&first, 2, seed).unwrap().0));
        }
        assert_eq!(chosen, HashSet::from(["f6".to_string(), "d6".to_string()]));
    }

    #[test]
    fn a_better_move_out_of_the_book_leaves_it_to_the_search() {
        let (mut positions, _) = small_book();
        let first = standard_line(&["f5"]);
        let key = canonical(first.player(), first.opponent());
        positions.sort_unstable();
        let off: Vec<_> = positions
            .iter()
            .map(|&k| (k == key).then_some(500).or(Some(0)))
            .collect();
        let book = negamax(&positions, &off, 7, Rule::Normal);
        assert_eq!(
            book.get(first.player(), first.opponent()).unwrap().value,
            500
        );
        assert!(book.moves(&first).is_empty());
        assert_eq!(book.choose(&first, 64, 1), None);
    }

    #[test]
    fn the_file_round_trips_and_damage_is_refused() {
        let (_, book) = small_book();
        let bytes = book.encode();
        assert_eq!(Book::decode(&bytes).unwrap(), book);
        assert_eq!(Book::decode(&bytes).unwrap().encode(), bytes);
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert!(Book::decode(&damaged).unwrap_err().contains("hash"));
        let mut deep = bytes.clone();
        deep[10] = 99;
        assert!(Book::decode(&deep).unwrap_err().contains("depth 99"));
        let mut reserved = bytes.clone();
        reserved[11] = 7;
        assert!(Book::decode(&reserved).unwrap_err().contains("rule byte 7"));
        let mut newer = bytes.clone();
        newer[8] = 2;
        assert!(Book::decode(&newer).unwrap_err().contains("version 2"));
        assert!(Book::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(Book::decode(b"ARBORBO").is_err());
    }

    #[test]
    fn the_shipped_book_round_trips_and_is_a_negamax() {
        let book = shipped(Rule::Normal);
        assert!(book.len() > 100, "{} entries", book.len());
        assert_eq!(Book::decode(&book.encode()).unwrap(), *book);
        let start = Othello::standard();
        assert!(book.get(start.player(), start.opponent()).is_some());
        for entry in book.entries() {
            let game = Othello::from_sides(entry.player, entry.opponent, true);
            let best = book.moves(&game).iter().map(|&(_, s)| s).max();
            let expected = match (best, entry.off_book()) {
                (Some(best), Some(off)) => best.max(off),
                (Some(best), None) => best,
                (None, Some(off)) => off,
                (None, None) => panic!("an entry with no score"),
            };
            // moves() hides book moves beaten by the off-book one: then value is that.
            assert_eq!(entry.value as Score, expected);
        }
    }

    #[test]
    fn book_moves_are_legal_along_random_games() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut hits = 0;
        for _ in 0..200 {
            let mut game = Othello::standard();
            for _ in 0..24 {
                if game.outcome().is_some() {
                    break;
                }
                if let Some((mv, _)) =
                    shipped(Rule::Normal).choose(&game, rng.random_range(0..4), rng.random())
                {
                    assert!(game.is_legal(mv));
                    assert_ne!(mv, Move::PASS);
                    hits += 1;
                }
                let mut moves = Vec::new();
                game.generate_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                game.make(mv);
            }
        }
        assert!(hits >= 200, "{hits} book moves");
        assert_eq!(Othello::standard().side_to_move(), Side::Black);
    }

    #[test]
    fn each_rule_has_its_own_shipped_book() {
        for (rule, other) in [(Rule::Normal, Rule::Misere), (Rule::Misere, Rule::Normal)] {
            let book = shipped(rule);
            assert_eq!(book.rule, rule);
            assert_eq!(Book::decode(&book.encode()).unwrap(), *book);
            let start = Othello::new(8, rule).unwrap();
            assert!(book.choose(&start, 0, 0).is_some(), "{rule:?}");
            // The other rule's game gets nothing from it.
            let start = Othello::new(8, other).unwrap();
            assert!(book.moves(&start).is_empty());
        }
    }

    /// Every position with a move up to `plies` moves from the start, canonical.
    fn every_position(plies: usize) -> HashSet<(u64, u64)> {
        let mut all = HashSet::new();
        let mut layer = vec![Othello::standard()];
        for ply in 0..=plies {
            let mut next = Vec::new();
            for game in &layer {
                if legal_moves(game.player(), game.opponent(), !0) == 0 {
                    continue;
                }
                all.insert(canonical(game.player(), game.opponent()));
                if ply < plies {
                    next.extend(children(game).map(|(_, child)| child));
                }
            }
            layer = next;
        }
        all
    }

    #[test]
    fn expansion_keeps_the_moves_within_the_window_up_to_the_limit() {
        // Scores by square: the lowest-numbered square is best, each next one a disc worse.
        let by_square = |frontier: &[(u64, u64)]| {
            Ok(frontier
                .iter()
                .map(|&(player, opponent)| {
                    let game = Othello::from_sides(player, opponent, true);
                    children(&game)
                        .enumerate()
                        .map(|(rank, (mv, _))| (mv, -(rank as Score) * DISC))
                        .collect()
                })
                .collect())
        };
        let all = expand(Rule::Normal, 3, 64 * DISC, usize::MAX, by_square)
            .unwrap()
            .positions;
        let mut expected: Vec<_> = every_position(3).into_iter().collect();
        expected.sort_unstable();
        assert_eq!(all, expected);
        // Only each position's best move: one line.
        let line = expand(Rule::Normal, 3, 0, usize::MAX, by_square)
            .unwrap()
            .positions;
        assert_eq!(line.len(), 4);
        assert!(line.iter().all(|key| all.contains(key)));
        // A window of a disc: the best two moves of each.
        let two = expand(Rule::Misere, 3, DISC, usize::MAX, by_square)
            .unwrap()
            .positions;
        assert!((5..=1 + 1 + 2 + 4).contains(&two.len()), "{}", two.len());
        let capped = expand(Rule::Normal, 3, 64 * DISC, 10, by_square)
            .unwrap()
            .positions;
        assert_eq!(capped.len(), 10);
        assert!(capped.iter().all(|key| all.contains(key)));
        // A scorer's failure stops the build.
        let failing = |_: &[(u64, u64)]| Err("stopped".to_string());
        assert_eq!(
            expand(Rule::Normal, 3, 0, 10, failing).err(),
            Some("stopped".into())
        );
    }
}
