//! `arbor book`: builds the Othello opening book from WTHOR games (`build`) and checks
//! a book file (`check`). The format is described in `game::othello::book`.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::tune::replay_wthor;
use crate::files::Output;
use crate::game::Move;
use crate::game::othello::Othello;
use crate::game::othello::book::{self, Book};
use crate::game::othello::search::DISC;
use crate::game::roles::{Score, ScoreValue};
use crate::search::Searcher;
use crate::search::analysis::AnalysisRequest;
use crate::stop::Stop;

/// Where the shipped book lives in the source tree.
pub const SHIPPED_PATH: &str = "src/game/othello/book/normal8.book";

/// What `arbor book build` does.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Positions up to this many moves into the game.
    pub plies: usize,
    /// Positions seen in at least this many games.
    pub min_games: u32,
    /// Search depth of the off-book moves.
    pub depth: u32,
    pub threads: usize,
    /// Table memory per thread, MiB.
    pub hash_mb: usize,
}

/// Builds a book from the games in `wthor` and writes it to `out` (replacing a file
/// there); a summary goes to `report`. Every position is searched with fresh tables, so
/// the book is the same whatever the thread count.
pub fn build(
    wthor: &Path,
    options: &BuildOptions,
    out: &Path,
    report: &mut dyn Write,
) -> Result<(), String> {
    // Checked before the searches: a bad --out costs nothing.
    let output = Output::check(out, true)?;
    let mut games = Vec::new();
    let count = replay_wthor(wthor, |positions, _| {
        games.push(
            positions
                .iter()
                .take(options.plies + 1)
                .map(|p| (p.player, p.opponent))
                .collect::<Vec<_>>(),
        );
    })?;
    let positions = book::frequent_positions(&games, options.plies, options.min_games);
    drop(games);
    log::info!(
        "{} positions to {} plies seen in at least {} of {count} games",
        positions.len(),
        options.plies,
        options.min_games
    );
    let book = build_from(&positions, options)?;
    output.write(&book.encode())?;
    writeln!(
        report,
        "book: {} positions of {count} games (to {} plies, in at least {} games), off-book moves searched to depth {}, written to {}",
        book.len(),
        options.plies,
        options.min_games,
        options.depth,
        out.display()
    )
    .map_err(|e| e.to_string())
}

/// The book of `positions` (sorted, canonical): their off-book moves searched, then
/// negamaxed.
pub fn build_from(positions: &[(u64, u64)], options: &BuildOptions) -> Result<Book, String> {
    let depth = u8::try_from(options.depth).map_err(|_| "depth above 255".to_string())?;
    let scores: Mutex<Vec<Option<Score>>> = Mutex::new(vec![None; positions.len()]);
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        let workers: Vec<_> = (0..options.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    let mut searcher = Searcher::new(&Othello::standard(), options.hash_mb)?;
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(player, opponent)) = positions.get(index) else {
                            return Ok(());
                        };
                        let off = book::off_book_moves(player, opponent, positions);
                        let score = if off.is_empty() {
                            None
                        } else {
                            searcher.clear();
                            Some(best_score(&mut searcher, player, opponent, off, depth))
                        };
                        scores.lock().unwrap_or_else(|e| e.into_inner())[index] = score;
                        if (index + 1).is_multiple_of(500) {
                            log::info!(
                                "{} of {} positions searched, {:.0} s",
                                index + 1,
                                positions.len(),
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                })
            })
            .collect();
        for worker in workers {
            worker
                .join()
                .map_err(|_| "a book worker panicked".to_string())??;
        }
        Ok(())
    })?;
    let scores = scores.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(book::negamax(positions, &scores, depth))
}

/// The best score among `moves` of the position, searched to `depth`.
fn best_score(
    searcher: &mut Searcher<Othello>,
    player: u64,
    opponent: u64,
    moves: Vec<Move>,
    depth: u8,
) -> Score {
    let game = Othello::from_sides(player, opponent, true);
    let request = AnalysisRequest {
        lines: Some(1),
        moves,
        max_depth: Some(depth as u32),
        ..AnalysisRequest::default()
    };
    let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
    match report.lines.first().map(|line| line.score) {
        Some(ScoreValue::Eval { value, .. }) => value,
        Some(ScoreValue::Margin(margin)) => margin * DISC,
        other => unreachable!("an Othello search scored {other:?}"),
    }
}

/// Reads and checks a book file, or without one the book compiled into the program, and
/// prints what it holds.
pub fn check(path: Option<&Path>, report: &mut dyn Write) -> Result<(), String> {
    let (name, bytes) = match path {
        Some(path) => (
            path.display().to_string(),
            std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => (
            format!("the compiled-in book ({SHIPPED_PATH} when built)"),
            book::SHIPPED_BYTES.to_vec(),
        ),
    };
    let book = Book::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
    let mut by_discs = [0usize; 65];
    for entry in book.entries() {
        by_discs[(entry.player | entry.opponent).count_ones() as usize] += 1;
    }
    let plies: Vec<String> = by_discs
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(discs, n)| format!("{}:{n}", discs - 4))
        .collect();
    let start = Othello::standard();
    let value = book
        .get(start.player(), start.opponent())
        .map_or("not in the book".to_string(), |entry| {
            format!("{:+.2}", entry.value as f64 / DISC as f64)
        });
    writeln!(
        report,
        "{name}: book format {}, {} positions ({} bytes), depth {}; positions by ply {}; the start scores {value}",
        book::VERSION,
        book.len(),
        bytes.len(),
        book.depth,
        plies.join(" ")
    )
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// WTHOR-style lines of random games: `<moves> <diff>`, the first moves from a few
    /// choices so that positions repeat.
    fn random_games(count: usize, seed: u64) -> String {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut text = String::new();
        for _ in 0..count {
            let mut game = Othello::standard();
            let mut line = String::new();
            for ply in 0..16 {
                let mut moves = Vec::new();
                game.generate_moves(&mut moves);
                if moves.is_empty() || moves[0].is_pass() {
                    break;
                }
                let narrow = if ply < 6 { 2 } else { moves.len() };
                let mv = moves[rng.random_range(0..narrow.min(moves.len()))];
                line.push_str(&game.format_move(mv));
                game.make(mv);
            }
            text.push_str(&format!("{line} +0\n"));
        }
        text
    }

    #[test]
    fn a_build_is_the_same_whatever_the_threads_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("arbor-book-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("games.txt"), random_games(300, 5)).unwrap();
        let mut books = Vec::new();
        for threads in [1, 2] {
            let options = BuildOptions {
                plies: 8,
                min_games: 3,
                depth: 3,
                threads,
                hash_mb: 1,
            };
            let out = dir.join(format!("book{threads}"));
            let mut report = Vec::new();
            build(&dir, &options, &out, &mut report).unwrap();
            assert!(String::from_utf8(report).unwrap().contains("of 300 games"));
            books.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(books[0], books[1]);
        let book = Book::decode(&books[0]).unwrap();
        assert!(book.len() >= 10, "{} positions", book.len());
        assert_eq!(book.depth, 3);
        let mut checked = Vec::new();
        check(Some(&dir.join("book1")), &mut checked).unwrap();
        let checked = String::from_utf8(checked).unwrap();
        assert!(
            checked.contains(&format!("{} positions", book.len())),
            "{checked}"
        );
        // The start is in it, and its book move is a first move.
        let start = Othello::standard();
        let (mv, _) = book.choose(&start, 0, 0).unwrap();
        assert!(["d3", "c4", "f5", "e6"].contains(&start.format_move(mv).as_str()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn check_without_a_file_reads_the_compiled_in_book() {
        let mut checked = Vec::new();
        check(None, &mut checked).unwrap();
        let checked = String::from_utf8(checked).unwrap();
        assert!(checked.starts_with("the compiled-in book"), "{checked}");
        assert!(
            checked.contains(&format!("{} positions", book::SHIPPED.len())),
            "{checked}"
        );
    }
}
