//! `arbor book`: builds an Othello opening book (`build`) from WTHOR games, or for either
//! rule by expanding the engine's own plausible moves from the start, and checks a book
//! file (`check`). The format is described in `game::othello::book`.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::tune::replay_wthor;
use crate::files::Output;
use crate::game::othello::book::{self, Book, MoveScores};
use crate::game::othello::search::DISC;
use crate::game::othello::{Othello, Rule};
use crate::game::roles::{Score, ScoreValue};
use crate::search::Searcher;
use crate::search::analysis::AnalysisRequest;
use crate::stop::Stop;

/// Where the shipped book of `rule` lives in the source tree.
pub fn shipped_path(rule: Rule) -> &'static str {
    match rule {
        Rule::Normal => "src/game/othello/book/normal8.book",
        Rule::Misere => "src/game/othello/book/misere8.book",
    }
}

/// Where a book's positions come from.
#[derive(Clone, Debug)]
pub enum Source<'a> {
    /// Positions of the WTHOR games in this directory (normal rule) seen often enough.
    Wthor(&'a Path),
    /// The engine's own moves from the start: those within `window` centi-discs of each
    /// position's best, until `limit` positions.
    Expand { limit: usize, window: Score },
}

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
    pub rule: Rule,
}

/// Builds a book from `source` and writes it to `out` (replacing a file there); a summary
/// goes to `report`. Every position is searched with fresh tables, so the book is the
/// same whatever the thread count.
pub fn build(
    source: &Source,
    options: &BuildOptions,
    out: &Path,
    report: &mut dyn Write,
) -> Result<(), String> {
    // Checked before the searches: a bad --out costs nothing.
    let output = Output::check(out, true)?;
    let (book, origin) = match *source {
        Source::Wthor(wthor) => {
            if options.rule != Rule::Normal {
                return Err(format!(
                    "WTHOR games are played under the normal rule: a {} book grows by --expand",
                    options.rule.name()
                ));
            }
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
            let origin = format!(
                "of {count} games (to {} plies, in at least {} games)",
                options.plies, options.min_games
            );
            (book, origin)
        }
        Source::Expand { limit, window } => {
            let book = build_by_expansion(limit, window, options)?;
            let origin = format!(
                "grown from the start (to {} plies, moves within {:.2} discs of the best)",
                options.plies,
                window as f64 / DISC as f64
            );
            (book, origin)
        }
    };
    output.write(&book.encode())?;
    writeln!(
        report,
        "book ({}): {} positions {origin}, searched to depth {}, written to {}",
        options.rule.name(),
        book.len(),
        options.depth,
        out.display()
    )
    .map_err(|e| e.to_string())
}

/// The book grown from the start by [`book::expand`]: every kept position's moves scored
/// by a search to `options.depth`, then negamaxed.
fn build_by_expansion(limit: usize, window: Score, options: &BuildOptions) -> Result<Book, String> {
    let depth = u8::try_from(options.depth).map_err(|_| "depth above 255".to_string())?;
    let score_all = |positions: &[(u64, u64)]| {
        let scored = in_parallel(positions, options, |searcher, &(player, opponent)| {
            score_moves(searcher, options.rule, player, opponent, depth)
        })?;
        log::info!("{} positions expanded", positions.len());
        Ok(scored)
    };
    let expansion = book::expand(options.rule, options.plies, window, limit, score_all)?;
    let mut scores = expansion.scores.clone();
    let last: Vec<(u64, u64)> = expansion
        .positions
        .iter()
        .filter(|key| !scores.contains_key(key))
        .copied()
        .collect();
    scores.extend(last.iter().copied().zip(score_all(&last)?));
    let off_book = expansion.off_book(&scores);
    Ok(book::negamax(
        &expansion.positions,
        &off_book,
        depth,
        options.rule,
    ))
}

/// The book of `positions` (sorted, canonical): their off-book moves searched, then
/// negamaxed.
pub fn build_from(positions: &[(u64, u64)], options: &BuildOptions) -> Result<Book, String> {
    let depth = u8::try_from(options.depth).map_err(|_| "depth above 255".to_string())?;
    let scores = in_parallel(positions, options, |searcher, &(player, opponent)| {
        let off = book::off_book_moves(player, opponent, positions);
        if off.is_empty() {
            return None;
        }
        let game = Othello::from_sides_under(options.rule, player, opponent, true);
        let request = AnalysisRequest {
            lines: Some(1),
            moves: off,
            max_depth: Some(depth as u32),
            ..AnalysisRequest::default()
        };
        let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
        report.lines.first().map(|line| centi_discs(line.score))
    })?;
    Ok(book::negamax(positions, &scores, depth, options.rule))
}

/// `search` of each of `positions` on `options.threads` threads, each position with fresh
/// tables (so the results do not depend on the thread count), in the positions' order.
fn in_parallel<T: Send>(
    positions: &[(u64, u64)],
    options: &BuildOptions,
    search: impl Fn(&mut Searcher<Othello>, &(u64, u64)) -> T + Sync,
) -> Result<Vec<T>, String> {
    let results: Mutex<Vec<Option<T>>> = Mutex::new(positions.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        let workers: Vec<_> = (0..options.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    let start = Othello::new(8, options.rule).map_err(|e| e.to_string())?;
                    let mut searcher = Searcher::new(&start, options.hash_mb)?;
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(position) = positions.get(index) else {
                            return Ok(());
                        };
                        searcher.clear();
                        let result = search(&mut searcher, position);
                        results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
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
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(results
        .into_iter()
        .map(|result| result.expect("every position searched"))
        .collect())
}

/// Every move of the position with its score, each searched to `depth`.
fn score_moves(
    searcher: &mut Searcher<Othello>,
    rule: Rule,
    player: u64,
    opponent: u64,
    depth: u8,
) -> MoveScores {
    let game = Othello::from_sides_under(rule, player, opponent, true);
    let request = AnalysisRequest {
        lines: None,
        max_depth: Some(depth as u32),
        ..AnalysisRequest::default()
    };
    let report = searcher.analyze(&game, &request, &Stop::never(), Box::new(|_| {}));
    report
        .lines
        .iter()
        .filter_map(|line| Some((*line.pv.first()?, centi_discs(line.score))))
        .collect()
}

/// An Othello search's score in centi-discs.
fn centi_discs(score: ScoreValue) -> Score {
    match score {
        ScoreValue::Eval { value, .. } => value,
        ScoreValue::Margin(margin) => margin * DISC,
        other => unreachable!("an Othello search scored {other:?}"),
    }
}

/// Reads and checks a book file, or without one each book compiled into the program, and
/// prints what it holds.
pub fn check(path: Option<&Path>, report: &mut dyn Write) -> Result<(), String> {
    let books = match path {
        Some(path) => vec![(
            path.display().to_string(),
            std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )],
        None => [Rule::Normal, Rule::Misere]
            .into_iter()
            .map(|rule| {
                let name = format!("the compiled-in book ({} when built)", shipped_path(rule));
                (name, book::shipped_bytes(rule).to_vec())
            })
            .collect(),
    };
    for (name, bytes) in books {
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
            "{name}: book format {}, {} rule, {} positions ({} bytes), depth {}; positions by ply {}; the start scores {value}",
            book::VERSION,
            book.rule.name(),
            book.len(),
            bytes.len(),
            book.depth,
            plies.join(" ")
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
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
                rule: Rule::Normal,
            };
            let out = dir.join(format!("book{threads}"));
            let mut report = Vec::new();
            build(&Source::Wthor(&dir), &options, &out, &mut report).unwrap();
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
    fn an_expanded_misere_book_is_the_same_whatever_the_threads_and_plays() {
        let dir = std::env::temp_dir().join(format!("arbor-book-expand-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let source = Source::Expand {
            limit: 40,
            window: 2 * DISC,
        };
        let mut books = Vec::new();
        for threads in [1, 2] {
            let options = BuildOptions {
                plies: 6,
                min_games: 1,
                depth: 4,
                threads,
                hash_mb: 1,
                rule: Rule::Misere,
            };
            let out = dir.join(format!("misere{threads}"));
            let mut report = Vec::new();
            build(&source, &options, &out, &mut report).unwrap();
            let report = String::from_utf8(report).unwrap();
            assert!(
                report.starts_with("book (misere): 40 positions grown"),
                "{report}"
            );
            books.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(books[0], books[1]);
        let book = Book::decode(&books[0]).unwrap();
        assert_eq!((book.len(), book.rule, book.depth), (40, Rule::Misere, 4));
        // Its start value is the best of its first moves' (one position up to symmetry),
        // and each book move is a legal move of the misère game only.
        let start = Othello::new(8, Rule::Misere).unwrap();
        let (mv, score) = book.choose(&start, 0, 0).unwrap();
        assert!(start.is_legal(mv));
        let entry = book.get(start.player(), start.opponent()).unwrap();
        assert_eq!(entry.value as Score, score);
        assert!(book.moves(&Othello::standard()).is_empty());
        // A misère book is not built from WTHOR games.
        let options = BuildOptions {
            plies: 6,
            min_games: 1,
            depth: 4,
            threads: 1,
            hash_mb: 1,
            rule: Rule::Misere,
        };
        let error = build(
            &Source::Wthor(&dir),
            &options,
            &dir.join("x"),
            &mut Vec::new(),
        );
        assert!(error.unwrap_err().contains("grows by --expand"));
        assert!(!dir.join("x").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn check_without_a_file_reads_each_compiled_in_book() {
        let mut checked = Vec::new();
        check(None, &mut checked).unwrap();
        let checked = String::from_utf8(checked).unwrap();
        let lines: Vec<&str> = checked.lines().collect();
        assert_eq!(lines.len(), 2, "{checked}");
        for (line, rule) in lines.iter().zip([Rule::Normal, Rule::Misere]) {
            assert!(line.starts_with("the compiled-in book"), "{line}");
            let size = format!(
                "{} rule, {} positions",
                rule.name(),
                book::shipped(rule).len()
            );
            assert!(line.contains(&size), "{line}");
        }
    }
}
