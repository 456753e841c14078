//! The game collections `arbor train` reads beside WTHOR, each line checked against the
//! rules as it is replayed:
//!
//! - Logistello's game book (`logbook.gam`, plain or gzipped): a line is the moves with
//!   their colours, `+d3-c3+c4...` (`+` Black, `-` White; a colour playing twice in a
//!   row means the other passed), then `: <Black's discs minus White's> <a number>`.
//!   The stated score must be the replayed game's.
//! - Egaroucid's early self-play records (`self_play/records/*.txt`): the moves run
//!   together from `f5` (passes implied), then the result for Black, `1`, `0` or `-1`.
//!   A finished game's result must agree with its replayed margin; a game that stops
//!   before the end is read and has no margin.
//! - XOT openings (`openingslarge.txt`): a move sequence per line (`f5d6c4d3c2b3b4b5`)
//!   that leaves the side to move a choice of moves.
//!
//! A bad line is an error naming its line number (from 1) and what is wrong with it;
//! blank lines and lines starting with `#` are skipped.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::game::othello::Othello;
use crate::game::othello::endgame::final_margin;
use crate::game::{Game, Move, Side};

use super::tune::GamePosition;

/// What is wrong with one line of a game collection.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line is not in the collection's format (the message says how).
    #[error("{0}")]
    Syntax(String),
    /// Move `number` (from 1) names no square.
    #[error("move {number}: '{text}' is not a square")]
    BadSquare { number: usize, text: String },
    /// Move `number` is not legal for the side to move.
    #[error("move {number}: {name} is illegal for {side}")]
    Illegal {
        number: usize,
        name: String,
        side: Side,
    },
    /// Move `number` is marked for the side that cannot play it (the other one has a
    /// move, or the game is over).
    #[error("move {number}: {name} is marked for {marked}, but {side} is to move")]
    OutOfTurn {
        number: usize,
        name: String,
        marked: Side,
        side: Side,
    },
    /// Move `number` comes after the game ended.
    #[error("move {number}: {name} comes after the end of the game")]
    AfterTheEnd { number: usize, name: String },
    /// The stated score or result is not a number the format allows.
    #[error("bad score '{0}'")]
    Score(String),
    /// The stated disc difference is not the replayed game's.
    #[error("the score says Black {stated:+}, the moves give {replayed:+}")]
    ScoreMismatch { stated: i32, replayed: i32 },
    /// The game stops before its end, where the format needs a finished game.
    #[error("the game is not over after its {moves} moves")]
    Unfinished { moves: usize },
    /// The opening ends the game or leaves a single forced move.
    #[error("the opening {0}")]
    Opening(&'static str),
}

/// Why a collection could not be read: the file, or a line of it.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file or directory could not be read (or unpacked).
    #[error("{}: {message}", path.display())]
    Read { path: PathBuf, message: String },
    /// Line `line` (from 1) is bad.
    #[error("{}:{line}: {error}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        error: LineError,
    },
    /// The collection holds no game (or no opening).
    #[error("{}: no {what} in it", path.display())]
    Empty { path: PathBuf, what: &'static str },
}

impl From<DataError> for String {
    fn from(error: DataError) -> String {
        error.to_string()
    }
}

/// A replayed game: the position before each move (passes left out) and Black's final
/// margin (empties to the winner), `None` when the record stops before the end.
#[derive(Clone, Debug, Default)]
pub struct GameData {
    pub positions: Vec<GamePosition>,
    pub black_margin: Option<i32>,
}

/// A line's number and its error, for the caller to name the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: usize,
    pub error: LineError,
}

/// Parses each line of `text` that is not blank or a `#` comment with `parse`, handing
/// the results to `each`; returns how many, or the first bad line.
pub fn read_lines<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, LineError>,
    mut each: impl FnMut(T),
) -> Result<usize, BadLine> {
    let mut count = 0;
    for (index, line) in crate::files::strip_bom(text).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let item = parse(line).map_err(|error| BadLine {
            line: index + 1,
            error,
        })?;
        each(item);
        count += 1;
    }
    Ok(count)
}

fn syntax(message: impl Into<String>) -> LineError {
    LineError::Syntax(message.into())
}

/// Replays moves on a standard board, recording the positions: `side` is the colour a
/// move is marked for, if the format marks them (a pass is then implied where the other
/// colour has no move).
struct Replay {
    game: Othello,
    data: GameData,
    moves: Vec<Move>,
}

impl Replay {
    fn new() -> Replay {
        Replay {
            game: Othello::standard(),
            data: GameData::default(),
            moves: Vec::with_capacity(16),
        }
    }

    fn over(&mut self) -> bool {
        self.game.generate_moves(&mut self.moves);
        self.moves.is_empty()
    }

    fn play(&mut self, number: usize, text: &str, marked: Option<Side>) -> Result<(), LineError> {
        let mv = self
            .game
            .parse_move(text)
            .ok()
            .filter(|mv| *mv != Move::PASS)
            .ok_or_else(|| LineError::BadSquare {
                number,
                text: text.to_string(),
            })?;
        let name = text.to_ascii_lowercase();
        if self.over() {
            return Err(LineError::AfterTheEnd { number, name });
        }
        let to_move = self.game.side_to_move();
        if self.game.is_legal(Move::PASS) && marked != Some(to_move) {
            self.game.make(Move::PASS);
        }
        let side = self.game.side_to_move();
        if let Some(marked) = marked
            && marked != side
        {
            return Err(LineError::OutOfTurn {
                number,
                name,
                marked,
                side,
            });
        }
        if !self.game.is_legal(mv) {
            return Err(LineError::Illegal { number, name, side });
        }
        self.data.positions.push(GamePosition {
            player: self.game.player(),
            opponent: self.game.opponent(),
            black_to_move: side == Side::Black,
        });
        self.game.make(mv);
        Ok(())
    }

    /// Black's disc difference now, and the final margin if the game is over.
    fn finish(mut self) -> (i32, GameData) {
        let (black, white) = (
            self.game.discs(Side::Black).count_ones() as i32,
            self.game.discs(Side::White).count_ones() as i32,
        );
        if self.over() {
            self.data.black_margin = Some(final_margin(
                self.game.discs(Side::Black),
                self.game.discs(Side::White),
                64,
            ));
        }
        (black - white, self.data)
    }
}

/// One line of Logistello's game book: `+d3-c3...: -04 10`.
pub fn parse_logbook_line(line: &str) -> Result<GameData, LineError> {
    let (moves, rest) = line
        .split_once(':')
        .ok_or_else(|| syntax("no ':' before the score"))?;
    let mut words = rest.split_whitespace();
    let score_text = words
        .next()
        .ok_or_else(|| syntax("no score after the ':'"))?;
    let stated: i32 = score_text
        .trim_start_matches('+')
        .parse()
        .ok()
        .filter(|score: &i32| score.abs() <= 64)
        .ok_or_else(|| LineError::Score(score_text.to_string()))?;
    if words.next().is_some_and(|w| w.parse::<u32>().is_err()) || words.next().is_some() {
        return Err(syntax("expected '<score> <number>' after the ':'"));
    }
    let moves = moves.trim();
    if moves.is_empty() || !moves.len().is_multiple_of(3) {
        return Err(syntax(
            "the moves are not colour-and-square triples (+d3-c3...)",
        ));
    }
    let mut replay = Replay::new();
    for (index, triple) in moves.as_bytes().chunks(3).enumerate() {
        let text = std::str::from_utf8(triple).map_err(|_| syntax("not ASCII text"))?;
        let marked = match triple[0] {
            b'+' => Side::Black,
            b'-' => Side::White,
            _ => {
                return Err(syntax(format!(
                    "move {}: '{text}' does not start with + or -",
                    index + 1
                )));
            }
        };
        replay.play(index + 1, &text[1..], Some(marked))?;
    }
    let count = replay.data.positions.len();
    let (difference, data) = replay.finish();
    if data.black_margin.is_none() {
        return Err(LineError::Unfinished { moves: count });
    }
    if difference != stated {
        return Err(LineError::ScoreMismatch {
            stated,
            replayed: difference,
        });
    }
    Ok(data)
}

/// One line of Egaroucid's early self-play records: `f5d6c3... -1`.
pub fn parse_egaroucid_line(line: &str) -> Result<GameData, LineError> {
    let mut words = line.split_whitespace();
    let (Some(moves), Some(result), None) = (words.next(), words.next(), words.next()) else {
        return Err(syntax("expected '<moves> <result>'"));
    };
    let result: i32 = match result {
        "1" | "+1" => 1,
        "0" => 0,
        "-1" => -1,
        other => return Err(LineError::Score(other.to_string())),
    };
    let replay = replay_run_together(moves)?;
    let (_, data) = replay.finish();
    if let Some(margin) = data.black_margin
        && margin.signum() != result
    {
        return Err(LineError::ScoreMismatch {
            stated: result,
            replayed: margin,
        });
    }
    Ok(data)
}

/// Moves run together (`f5d6c3`), passes implied.
fn replay_run_together(moves: &str) -> Result<Replay, LineError> {
    if !moves.is_ascii() || !moves.len().is_multiple_of(2) {
        return Err(syntax("the moves are not two-character squares (f5d6...)"));
    }
    let mut replay = Replay::new();
    for (index, pair) in moves.as_bytes().chunks(2).enumerate() {
        let text = std::str::from_utf8(pair).expect("ASCII");
        replay.play(index + 1, text, None)?;
    }
    Ok(replay)
}

/// One XOT opening: moves run together; the position after them, which must leave the
/// side to move a choice.
pub fn parse_xot_line(line: &str) -> Result<Othello, LineError> {
    let moves = line.split_whitespace().collect::<String>();
    if moves.is_empty() {
        return Err(syntax("no moves"));
    }
    let mut replay = replay_run_together(&moves)?;
    if replay.over() {
        return Err(LineError::Opening("ends the game"));
    }
    if replay.moves.len() == 1 {
        return Err(LineError::Opening("leaves a single forced move"));
    }
    Ok(replay.game)
}

/// The text of a file, unpacked first if its name ends in `.gz`.
fn read_maybe_gzipped(path: &Path) -> Result<String, DataError> {
    let read = |message: String| DataError::Read {
        path: path.to_path_buf(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| read(e.to_string()))?;
    let bytes = if path.extension().is_some_and(|ext| ext == "gz") {
        let mut unpacked = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .read_to_end(&mut unpacked)
            .map_err(|e| read(format!("not a gzip file: {e}")))?;
        unpacked
    } else {
        bytes
    };
    String::from_utf8(bytes).map_err(|e| read(format!("not UTF-8 text: {e}")))
}

/// Reads one file of games with `parse`, handing each to `each`.
fn read_file<T>(
    path: &Path,
    parse: impl Fn(&str) -> Result<T, LineError>,
    each: impl FnMut(T),
) -> Result<usize, DataError> {
    let text = read_maybe_gzipped(path)?;
    read_lines(&text, parse, each).map_err(|bad| DataError::Line {
        path: path.to_path_buf(),
        line: bad.line,
        error: bad.error,
    })
}

/// A file, or the `.txt` and `.gz` files of a directory in name order.
fn files_of(path: &Path) -> Result<Vec<PathBuf>, DataError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| DataError::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|file| {
            file.is_file()
                && file
                    .extension()
                    .is_some_and(|ext| ext == "txt" || ext == "gz" || ext == "gam")
        })
        .collect();
    files.sort();
    Ok(files)
}

fn read_games(
    path: &Path,
    parse: fn(&str) -> Result<GameData, LineError>,
    mut each: impl FnMut(GameData),
) -> Result<usize, DataError> {
    let mut games = 0;
    for file in files_of(path)? {
        games += read_file(&file, parse, &mut each)?;
    }
    if games == 0 {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "games",
        });
    }
    Ok(games)
}

/// Reads Logistello's game book (a file, gzipped or not, or a directory of them).
pub fn read_logbook(path: &Path, each: impl FnMut(GameData)) -> Result<usize, DataError> {
    read_games(path, parse_logbook_line, each)
}

/// Reads Egaroucid's early self-play records (a file or a directory of `.txt` files).
pub fn read_egaroucid(path: &Path, each: impl FnMut(GameData)) -> Result<usize, DataError> {
    read_games(path, parse_egaroucid_line, each)
}

/// Reads an XOT openings file: the position after each opening, in file order.
pub fn read_xot(path: &Path) -> Result<Vec<Othello>, DataError> {
    let mut openings = Vec::new();
    read_file(path, parse_xot_line, |game| openings.push(game))?;
    if openings.is_empty() {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "openings",
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games of Logistello's book as it is (the first 2 lines of logbook.gam): the
    /// second has Black pass at the end (`-b1-g1`).
    const LOGBOOK: &str = "\
+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10
+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1: +00 10
";

    /// Three of Egaroucid's early records (0000000.txt's first and 0000002.txt's first),
    /// and a game that stops after 10 moves.
    const EGAROUCID: &str = "\
f5f4e3f6d3e2f3d2g4g5f2h3e1d1f1c2c1c3g3c5e6d6b1h2b4g2d7g1h1c4b5c6b6a5a6a7h6h4f7e8h5e7f8a4c8g7d8c7h8a3g6g8h7b8a8b3a2b2a1b7 1
f5f4e3d2c4f6e2d6e6c5d7c6f7e7c1g8b5b3g4b4c3d8c7d3a5a6a7a4a3c2b6d1c8b8b1a1e8a2b2a8f8b7e1f3f2f1h8g5h5g1g7h3g2h1h2h6h7g3g6h4 -1
# a comment, and a game cut short:
f5d6c3d3c4f4f6f3e6e7 0
";

    fn all<T>(text: &str, parse: fn(&str) -> Result<T, LineError>) -> Result<Vec<T>, BadLine> {
        let mut items = Vec::new();
        read_lines(text, parse, |item| items.push(item))?;
        Ok(items)
    }

    #[test]
    fn logbook_games_replay_with_their_passes_and_scores() {
        let games = all(LOGBOOK, parse_logbook_line).unwrap();
        assert_eq!(games.len(), 2);
        // 60 moves: a full board, and the disc difference is the margin.
        assert_eq!(games[0].positions.len(), 60);
        assert_eq!(games[0].black_margin, Some(-4));
        // Black passes once (after White's b1, White plays g1 too): still 60 moves, a
        // full board and a draw.
        assert_eq!(games[1].positions.len(), 60);
        assert_eq!(games[1].black_margin, Some(0));
        let start = &games[0].positions[0];
        assert!(start.black_to_move);
        assert_eq!((start.player | start.opponent).count_ones(), 4);
        // Moves 58 (b1) and 59 (g1) are both White's; move 60 (h1) is Black's.
        let sides: Vec<bool> = games[1].positions[56..]
            .iter()
            .map(|p| p.black_to_move)
            .collect();
        assert_eq!(sides, vec![true, false, false, true]);
        for (k, position) in games[1].positions.iter().enumerate() {
            assert_eq!(
                (position.player | position.opponent).count_ones() as usize,
                4 + k
            );
        }
    }

    #[test]
    fn logbook_bad_lines_are_named_by_number() {
        let line = |n: usize| LOGBOOK.lines().nth(n).unwrap().to_string();
        let cases: Vec<(String, LineError)> = vec![
            (
                line(0).replace(": -04 10", ": -06 10"),
                LineError::ScoreMismatch {
                    stated: -6,
                    replayed: -4,
                },
            ),
            (
                line(0).replace(": -04 10", " -04 10"),
                syntax("no ':' before the score"),
            ),
            (
                line(0).replace(": -04 10", ": x 10"),
                LineError::Score("x".into()),
            ),
            (
                line(0).replace(": -04 10", ": -80 10"),
                LineError::Score("-80".into()),
            ),
            (
                line(0).replacen("-c3", "-c9", 1),
                LineError::BadSquare {
                    number: 2,
                    text: "c9".into(),
                },
            ),
            (
                line(0).replacen("+c4", "+a1", 1),
                LineError::Illegal {
                    number: 3,
                    name: "a1".into(),
                    side: Side::Black,
                },
            ),
            (
                line(0).replacen("-c3", "+c3", 1),
                LineError::OutOfTurn {
                    number: 2,
                    name: "c3".into(),
                    marked: Side::Black,
                    side: Side::White,
                },
            ),
            (
                line(0).replacen("+d3", "*d3", 1),
                syntax("move 1: '*d3' does not start with + or -"),
            ),
            (
                "+d3-c3+c4: +03 10".into(),
                LineError::Unfinished { moves: 3 },
            ),
            (
                line(0).replace("-b7:", "-b7+a1:"),
                LineError::AfterTheEnd {
                    number: 61,
                    name: "a1".into(),
                },
            ),
        ];
        for (bad, error) in cases {
            let text = format!("{}\n\n{bad}\n", line(1));
            assert_eq!(
                all(&text, parse_logbook_line).unwrap_err(),
                BadLine { line: 3, error },
                "{bad}"
            );
        }
    }

    #[test]
    fn egaroucid_records_replay_and_keep_unfinished_games_without_a_margin() {
        let games = all(EGAROUCID, parse_egaroucid_line).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].positions.len(), 60);
        assert!(games[0].black_margin.unwrap() > 0);
        assert!(games[1].black_margin.unwrap() < 0);
        assert_eq!(games[2].positions.len(), 10);
        assert_eq!(games[2].black_margin, None);
        // Every record starts at the standard position, Black to move.
        for game in &games {
            assert!(game.positions[0].black_to_move);
        }
    }

    #[test]
    fn egaroucid_bad_lines_are_named_by_number() {
        let first = EGAROUCID.lines().next().unwrap();
        let cases: Vec<(String, LineError)> = vec![
            (
                first.replace(" 1", " -1"),
                LineError::ScoreMismatch {
                    stated: -1,
                    replayed: games_margin(first),
                },
            ),
            (first.replace(" 1", " 2"), LineError::Score("2".into())),
            (
                first.replace(" 1", ""),
                syntax("expected '<moves> <result>'"),
            ),
            (
                first.replacen("f5f4", "f5f4e", 1),
                syntax("the moves are not two-character squares (f5d6...)"),
            ),
            (
                first.replacen("f5f4", "f5z4", 1),
                LineError::BadSquare {
                    number: 2,
                    text: "z4".into(),
                },
            ),
            (
                first.replacen("f5f4", "f5a1", 1),
                LineError::Illegal {
                    number: 2,
                    name: "a1".into(),
                    side: Side::White,
                },
            ),
        ];
        for (bad, error) in cases {
            let text = format!("# header\n{bad}\n");
            assert_eq!(
                all(&text, parse_egaroucid_line).unwrap_err(),
                BadLine { line: 2, error },
                "{bad}"
            );
        }
    }

    fn games_margin(line: &str) -> i32 {
        parse_egaroucid_line(line).unwrap().black_margin.unwrap()
    }

    #[test]
    fn xot_openings_give_their_positions_and_refuse_bad_ones() {
        let text = "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\r\n";
        let openings = all(text, parse_xot_line).unwrap();
        assert_eq!(openings.len(), 2);
        for opening in &openings {
            assert_eq!(opening.side_to_move(), Side::Black);
            assert_eq!(opening.empties().count_ones(), 52);
        }
        let cases: Vec<(&str, LineError)> = vec![
            (
                "f5d6c4d3c2b3b4b",
                syntax("the moves are not two-character squares (f5d6...)"),
            ),
            (
                "f5d6c4d3c2b3b4h8",
                LineError::Illegal {
                    number: 8,
                    name: "h8".into(),
                    side: Side::White,
                },
            ),
            (
                "d3c3b3b2b1a1f5c1",
                LineError::Opening("leaves a single forced move"),
            ),
            // One of the shortest games: nine moves, and White has no disc left.
            ("d3c3b3d2e1d6d7e3f4", LineError::Opening("ends the game")),
        ];
        for (bad, error) in cases {
            let text = format!("f5d6c4d3c2b3b4b5\n{bad}\n");
            assert_eq!(
                all(&text, parse_xot_line).unwrap_err(),
                BadLine { line: 2, error },
                "{bad}"
            );
        }
    }

    #[test]
    fn files_are_read_plain_or_gzipped_and_errors_name_them() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("arbor-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("logbook.gam");
        std::fs::write(&plain, LOGBOOK).unwrap();
        let packed = dir.join("logbook.gam.gz");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(LOGBOOK.as_bytes()).unwrap();
        std::fs::write(&packed, encoder.finish().unwrap()).unwrap();
        for path in [&plain, &packed] {
            let mut margins = Vec::new();
            let count = read_logbook(path, |game| margins.push(game.black_margin)).unwrap();
            assert_eq!((count, margins), (2, vec![Some(-4), Some(0)]));
        }
        // A directory: both files, in name order.
        assert_eq!(read_logbook(&dir, |_| {}).unwrap(), 4);
        std::fs::write(&plain, "not a game\n").unwrap();
        let error = read_logbook(&plain, |_| {}).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{}:1: no ':' before the score", plain.display())
        );
        std::fs::write(&packed, "not gzip").unwrap();
        let error = read_logbook(&packed, |_| {}).unwrap_err().to_string();
        assert!(error.contains("not a gzip file"), "{error}");
        std::fs::write(&plain, "# nothing\n").unwrap();
        assert!(matches!(
            read_egaroucid(&plain, |_| {}),
            Err(DataError::Empty { .. })
        ));
        let missing = dir.join("missing.txt");
        assert!(matches!(read_xot(&missing), Err(DataError::Read { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
