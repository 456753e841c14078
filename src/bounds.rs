//! The numbers every front end accepts, checked one way. The native protocol (`go`,
//! `set`, `perft`, `solve`) and every command-line option parse through these, so a
//! limit one of them accepts the others accept too, and `arbor match` never hands its
//! engines a limit they would refuse. Errors name the value, not the option: callers
//! prefix `go time: ` or `--tc: `.

use std::time::Duration;

use crate::text::quote;

/// Largest millisecond count (about 31 years): keeps every deadline and clock sum exact.
pub const MAX_MILLIS: u64 = 1_000_000_000_000;
/// Largest `go movestogo`.
pub const MAX_MOVES_TO_GO: u64 = 10_000;
/// Deepest `perft`.
pub const MAX_PERFT_DEPTH: u32 = 60;
/// Deepest fixed search (`set level`, `play --level`); 0 means the clock decides.
pub const MAX_LEVEL: u32 = 60;
/// Most search threads (`set threads`, `--threads`, Gomocup `INFO thread_num`).
pub const MAX_THREADS: usize = 256;
/// Most children an exact solver searches alone before a split (`set jamboree`,
/// `--jamboree`): a node has no more moves than this in practice.
pub const MAX_JAMBOREE: usize = 32;
/// Largest memory budget for the engine's tables, MiB.
pub const MAX_HASH_MB: usize = 1 << 20;
/// Largest time kept back from every move for pipes and scheduling.
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_secs(10);
/// Most lines an analysis reports by number (`all` reports every move anyway).
pub const MAX_LINES: u64 = 1000;
/// Widest opening book spread (`set book_spread`), in the game's unit (Othello: discs).
pub const MAX_BOOK_SPREAD: u32 = 64;
/// Shortest interval between an analysis's reports: a client is never flooded.
pub const MIN_INTERVAL_MS: u64 = 10;
/// Shortest `arbor serve --idle`, seconds: the grace a page that went away has for a
/// reload to take its board back (10 s); any shorter and a slow reload finds it closed.
pub const MIN_IDLE_SECONDS: u64 = 10;
/// Longest `arbor serve --idle`: a day (an unwatched board holds its tables that long).
pub const MAX_IDLE_SECONDS: u64 = 86_400;
/// Most `arbor serve --max-sessions`: each may hold 4 event streams (a thread and a
/// socket each), and 128 × 4 beside the other connections stays under the usual limit of
/// 1024 open files.
pub const MAX_SESSIONS: usize = 128;

/// Children searched alone before a split (Jamboree), 1 to [`MAX_JAMBOREE`].
pub fn jamboree(text: &str) -> Result<usize, String> {
    number_in(text, 1, MAX_JAMBOREE as u64, "").map(|n| n as usize)
}

/// A search thread count, 1 to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    number_in(text, 1, MAX_THREADS as u64, " threads").map(|n| n as usize)
}

/// The thread count of tools that use the whole machine by default (solve, play,
/// analysis): the available cores, within the bounds.
pub fn available_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// The threads a search runs for a setting of `requested`: no more than the machine's
/// cores. More would share them, and a move's time would no longer hold (256 threads
/// on two cores turned a 100 ms Gomocup turn into 300-540 ms).
pub fn runnable_threads(requested: usize) -> usize {
    requested.clamp(1, available_threads())
}

/// A switch: `on` or `off` (any case).
pub fn switch(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected on or off, got {}", quote(text))),
    }
}

/// An opening book spread, 0 to [`MAX_BOOK_SPREAD`].
pub fn book_spread(text: &str) -> Result<u32, String> {
    number_in(text, 0, MAX_BOOK_SPREAD as u64, "").map(|n| n as u32)
}

/// A non-negative decimal integer that fits in u64.
pub fn number(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected a non-negative integer, got {}",
            quote(text)
        ));
    }
    text.parse()
        .map_err(|_| format!("{} is too large (at most {})", quote(text), u64::MAX))
}

/// An integer in `low..=high`.
pub fn number_in(text: &str, low: u64, high: u64, unit: &str) -> Result<u64, String> {
    let value = number(text)?;
    if !(low..=high).contains(&value) {
        return Err(format!("{value}{unit} is outside {low}..={high}"));
    }
    Ok(value)
}

/// Whole milliseconds, at most [`MAX_MILLIS`].
pub fn millis(text: &str) -> Result<Duration, String> {
    number_in(text, 0, MAX_MILLIS, " ms").map(Duration::from_millis)
}

/// Decimal seconds (`300`, `0.05`), at most [`MAX_MILLIS`] milliseconds.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let valid = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().filter(|&b| b == b'.').count() <= 1
        && text.bytes().any(|b| b.is_ascii_digit());
    let value: f64 = match text.parse() {
        Ok(value) if valid => value,
        _ => {
            return Err(format!(
                "expected a non-negative number of seconds such as 60 or 0.5, got {}",
                quote(text)
            ));
        }
    };
    let max_seconds = (MAX_MILLIS / 1000) as f64;
    if value > max_seconds {
        return Err(format!("{text} s is too long (at most {max_seconds} s)"));
    }
    Ok(Duration::from_secs_f64(value))
}

/// Memory for the engine's tables, 1..=[`MAX_HASH_MB`] MiB.
pub fn hash_mb(text: &str) -> Result<usize, String> {
    number_in(text, 1, MAX_HASH_MB as u64, " MiB").map(|mb| mb as usize)
}

/// A fixed search depth, 0..=[`MAX_LEVEL`].
pub fn level(text: &str) -> Result<u32, String> {
    number_in(text, 0, MAX_LEVEL as u64, "").map(|depth| depth as u32)
}

/// A depth that must search (NBoard `set depth`, the tools' `--depth`), 1..=[`MAX_LEVEL`].
pub fn fixed_depth(text: &str) -> Result<u32, String> {
    number_in(text, 1, MAX_LEVEL as u64, "").map(|depth| depth as u32)
}

/// Moves into an Othello game (`arbor book build --plies`), 1 to 60.
pub fn game_plies(text: &str) -> Result<usize, String> {
    number_in(text, 1, 60, "").map(|plies| plies as usize)
}

/// How many positions a book grows to (`arbor book build --expand`): 1 to 10,000,000.
pub fn book_positions(text: &str) -> Result<usize, String> {
    number_in(text, 1, 10_000_000, " positions").map(|n| n as usize)
}

/// A count of games that must fit a u32 (`arbor book build --min-games`).
pub fn min_games(text: &str) -> Result<u32, String> {
    number_in(text, 1, u32::MAX as u64, "").map(|games| games as u32)
}

/// A time per analysis in milliseconds (`arbor review --movetime`), 1..=[`MAX_MILLIS`].
pub fn analysis_millis(text: &str) -> Result<u64, String> {
    number_in(text, 1, MAX_MILLIS, " ms")
}

/// `arbor train --solve-empties`: 0 (off) to 30; beyond that a WTHOR game takes minutes.
pub fn solve_empties(text: &str) -> Result<u32, String> {
    number_in(text, 0, 30, " empties").map(|empties| empties as u32)
}

/// `arbor train --search-depth`: 0 (no search) to 20 plies; more would take days.
pub fn search_depth(text: &str) -> Result<u32, String> {
    number_in(text, 0, 20, "").map(|depth| depth as u32)
}

/// `arbor train --search-share`: a share, 0 to 1.
pub fn search_share(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!("{text:?}: a share from 0 to 1, such as 0.5")),
    }
}

/// `arbor train --selfplay`: 0 to 10 million games (the positions must fit in memory).
pub fn selfplay_games(text: &str) -> Result<usize, String> {
    number_in(text, 0, 10_000_000, "").map(|games| games as usize)
}

/// A perft depth, 0..=[`MAX_PERFT_DEPTH`].
pub fn perft_depth(text: &str) -> Result<u32, String> {
    number_in(text, 0, MAX_PERFT_DEPTH as u64, "").map(|depth| depth as u32)
}

/// A search depth limit (`go depth`): any u32; deeper than the game is the whole game.
pub fn depth(text: &str) -> Result<u32, String> {
    number_in(text, 0, u32::MAX as u64, "").map(|depth| depth as u32)
}

/// A `go movestogo` count, 1..=[`MAX_MOVES_TO_GO`].
pub fn moves_to_go(text: &str) -> Result<u32, String> {
    number_in(text, 1, MAX_MOVES_TO_GO, "").map(|moves| moves as u32)
}

/// The move overhead in milliseconds, at most [`MAX_MOVE_OVERHEAD`].
pub fn move_overhead(text: &str) -> Result<Duration, String> {
    number_in(text, 0, MAX_MOVE_OVERHEAD.as_millis() as u64, " ms").map(Duration::from_millis)
}

/// An analysis's line count: 1..=[`MAX_LINES`], or `all` (`None`).
pub fn lines(text: &str) -> Result<Option<usize>, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(None);
    }
    number_in(text, 1, MAX_LINES, "").map(|lines| Some(lines as usize))
}

/// Time between an analysis's reports, [`MIN_INTERVAL_MS`]..=[`MAX_MILLIS`] ms.
pub fn interval(text: &str) -> Result<Duration, String> {
    number_in(text, MIN_INTERVAL_MS, MAX_MILLIS, " ms").map(Duration::from_millis)
}

/// `arbor serve --idle`: [`MIN_IDLE_SECONDS`]..=[`MAX_IDLE_SECONDS`] seconds.
pub fn idle_seconds(text: &str) -> Result<Duration, String> {
    number_in(text, MIN_IDLE_SECONDS, MAX_IDLE_SECONDS, " s").map(Duration::from_secs)
}

/// `arbor serve --max-sessions`: 1..=[`MAX_SESSIONS`].
pub fn max_sessions(text: &str) -> Result<usize, String> {
    number_in(text, 1, MAX_SESSIONS as u64, "").map(|sessions| sessions as usize)
}

/// A count of one or more (games, rounds, positions).
pub fn positive(text: &str) -> Result<usize, String> {
    number_in(text, 1, usize::MAX as u64, "").map(|count| count as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_plain_decimal_integers() {
        assert_eq!(number("42"), Ok(42));
        assert_eq!(number(" 7 "), Ok(7));
        for bad in ["", "-1", "+1", "1e9", "0x10", "1.5", "٣", "1 2"] {
            assert!(
                number(bad).unwrap_err().contains("non-negative integer"),
                "{bad}"
            );
        }
        assert!(
            number("18446744073709551616")
                .unwrap_err()
                .contains("too large")
        );
        assert_eq!(number("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn ranges_are_checked() {
        assert_eq!(hash_mb("1"), Ok(1));
        assert!(hash_mb("0").unwrap_err().contains("0 MiB is outside 1..="));
        assert!(hash_mb("1048577").is_err());
        assert_eq!(level("60"), Ok(60));
        assert_eq!(level("0"), Ok(0));
        assert!(
            fixed_depth("0")
                .unwrap_err()
                .contains("0 is outside 1..=60")
        );
        assert_eq!(fixed_depth("60"), Ok(60));
        assert!(fixed_depth("61").is_err());
        assert!(analysis_millis("0").is_err());
        assert!(game_plies("61").is_err());
        assert!(min_games("4294967296").is_err());
        assert!(level("61").is_err());
        assert!(perft_depth("61").is_err());
        assert!(moves_to_go("0").is_err());
        assert_eq!(
            millis("1000000000000"),
            Ok(Duration::from_millis(MAX_MILLIS))
        );
        assert!(millis("1000000000001").is_err());
        assert_eq!(move_overhead("10000"), Ok(Duration::from_secs(10)));
        assert!(move_overhead("10001").is_err());
        assert!(positive("0").is_err());
        assert_eq!(idle_seconds("10"), Ok(Duration::from_secs(10)));
        assert_eq!(idle_seconds("86400"), Ok(Duration::from_secs(86_400)));
        assert!(
            idle_seconds("0")
                .unwrap_err()
                .contains("0 s is outside 10..=86400")
        );
        assert!(idle_seconds("86401").is_err());
        assert_eq!(max_sessions("128"), Ok(128));
        assert!(max_sessions("0").is_err());
        assert!(max_sessions("129").is_err());
        assert_eq!(depth("4294967295"), Ok(u32::MAX));
        assert!(depth("4294967296").is_err());
    }

    #[test]
    fn seconds_are_bounded_decimals() {
        assert_eq!(seconds("0.05"), Ok(Duration::from_millis(50)));
        assert_eq!(seconds("300"), Ok(Duration::from_secs(300)));
        assert_eq!(
            seconds("1000000000"),
            Ok(Duration::from_secs(1_000_000_000))
        );
        for bad in [
            "1e20", "1e19", "1e12", "inf", "NaN", "-1", ".", "", "1.2.3", "0x1",
        ] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert!(seconds("1000000001").unwrap_err().contains("too long"));
        assert!(seconds("1000000000000").unwrap_err().contains("too long"));
    }
}
