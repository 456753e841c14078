//! Scored positions of Gomoku games, one a line, in the text format of Rapfi's data writer
//! (`Rapfi/tuning/datawriter.cpp`, `--output-type txt`), which arbor's self-play writes too:
//!
//! ```text
//! 15,Freestyle,h8i9j10,2,k11(35)|k7(12)
//! ```
//!
//! the board size, the rule (`Freestyle`, `Standard` for exactly five, `Renju`), the moves so
//! far without separators (a column letter, `a` for x = 0, then the row from 1; either
//! case), the game's result for the side to move (2 win, 1 draw, 0 loss), the teacher's
//! best move with its searched score for the side to move in brackets (Rapfi's units:
//! `sigmoid(score / 200)` is the chance to win, mates are within 500 of 30,000), then any
//! further moves of a multi-PV search after `|`. A game's positions follow one another:
//! a new game starts where the move list does not extend the line before.

use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::{Config, Gomoku, Opening};
use crate::game::{Game, Move, Side};

/// The largest board the format's single-letter columns can name.
pub const MAX_SIZE: usize = 26;
/// Longest line read: a full 26x26 board's moves and more.
const MAX_LINE: usize = 8192;
/// Scores at least this far from zero are mates (Rapfi's `VALUE_MATE_IN_MAX_PLY`).
pub const MATE_SCORE: i32 = 29_500;
/// Rapfi's `ScalingFactor`: a score's chance to win is `sigmoid(score / SCORE_SCALE)`.
pub const SCORE_SCALE: f64 = 200.0;

/// The rule a sample was played under, by the format's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    Freestyle,
    /// Exactly five wins.
    Standard,
    Renju,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "Freestyle",
            Rule::Standard => "Standard",
            Rule::Renju => "Renju",
        }
    }

    fn parse(text: &str) -> Option<Rule> {
        [Rule::Freestyle, Rule::Standard, Rule::Renju]
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(text))
    }

    /// The game this rule is on a board of `size`, every first move allowed.
    pub fn config(self, size: usize) -> Config {
        match self {
            Rule::Freestyle => Config::gomoku(size, false, Opening::Free),
            Rule::Standard => Config::gomoku(size, true, Opening::Free),
            Rule::Renju => Config::renju(size, Opening::Free),
        }
    }
}

/// How the game ended for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Result3 {
    /// The side to move's points: 1, 0.5 or 0.
    pub fn points(self) -> f64 {
        self as u8 as f64 / 2.0
    }

    fn flipped(self) -> Result3 {
        match self {
            Result3::Loss => Result3::Win,
            Result3::Draw => Result3::Draw,
            Result3::Win => Result3::Loss,
        }
    }
}

/// One scored position: the moves that reach it, the game's result and the teacher's
/// choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub size: usize,
    pub rule: Rule,
    /// Fields (`row * size + col`).
    pub moves: Vec<u16>,
    pub result: Result3,
    pub best: u16,
    /// The teacher's score for the side to move, when it gave one.
    pub score: Option<i32>,
    /// Further moves of a multi-PV search, best first.
    pub others: Vec<(u16, Option<i32>)>,
}

/// A sample line that cannot be read, or a file that cannot.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DatasetError {
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
    #[error("{0}")]
    File(String),
}

impl Sample {
    /// Reads one line of the format.
    pub fn parse(line: &str) -> Result<Sample, String> {
        let fields: Vec<&str> = line.trim().split(',').collect();
        let [size, rule, moves, result, choice] = fields[..] else {
            return Err(format!(
                "expected 5 comma-separated fields (size,rule,moves,result,move), found {}",
                fields.len()
            ));
        };
        let size: usize = size
            .parse()
            .ok()
            .filter(|size| (5..=MAX_SIZE).contains(size))
            .ok_or_else(|| format!("bad board size {size:?}: expected 5 to {MAX_SIZE}"))?;
        let rule = Rule::parse(rule).ok_or_else(|| {
            format!("unknown rule {rule:?}: expected Freestyle, Standard or Renju")
        })?;
        let moves = parse_moves(moves, size)?;
        let result = match result {
            "0" => Result3::Loss,
            "1" => Result3::Draw,
            "2" => Result3::Win,
            other => return Err(format!("bad result {other:?}: expected 0, 1 or 2")),
        };
        let mut choices = choice.split('|').map(|text| parse_choice(text, size));
        let (best, score) = choices.next().expect("split gives one part")?;
        let others = choices.collect::<Result<_, _>>()?;
        Ok(Sample {
            size,
            rule,
            moves,
            result,
            best,
            score,
            others,
        })
    }

    /// The sample as a line of the format (without the line break).
    pub fn line(&self) -> String {
        let mut text = format!("{},{},", self.size, self.rule.name());
        for &field in &self.moves {
            text += &point_name(field, self.size);
        }
        text += &format!(",{},", self.result as u8);
        let choice = |field: u16, score: Option<i32>| match score {
            Some(score) => format!("{}({score})", point_name(field, self.size)),
            None => point_name(field, self.size),
        };
        text += &choice(self.best, self.score);
        for &(field, score) in &self.others {
            text += "|";
            text += &choice(field, score);
        }
        text
    }

    /// The position: the moves replayed under the rule, each checked, and the best move
    /// checked legal in it.
    pub fn position(&self) -> Result<Gomoku, String> {
        let mut game = Gomoku::new(self.rule.config(self.size)).map_err(|e| e.to_string())?;
        for (ply, &field) in self.moves.iter().enumerate() {
            let mv = Move::new(field);
            if game.outcome().is_some() {
                return Err(format!("move {} comes after the game ended", ply + 1));
            }
            if !game.is_legal(mv) {
                return Err(format!(
                    "move {} ({}) is illegal",
                    ply + 1,
                    point_name(field, self.size)
                ));
            }
            game.make(mv);
        }
        if game.outcome().is_some() || !game.is_legal(Move::new(self.best)) {
            return Err(format!(
                "the best move {} is not legal in the position",
                point_name(self.best, self.size)
            ));
        }
        Ok(game)
    }

    /// The teacher's chance to win for the side to move, by its score.
    pub fn teacher_chance(&self) -> Option<f64> {
        self.score
            .map(|score| 1.0 / (1.0 + (-(score as f64) / SCORE_SCALE).exp()))
    }

    /// Whether `next` is the position after this one's best move or another, in the same
    /// game: its moves extend these by one, and its result is this one's seen from the
    /// other side.
    pub fn continues_into(&self, next: &Sample) -> bool {
        next.size == self.size
            && next.rule == self.rule
            && next.moves.len() == self.moves.len() + 1
            && next.moves.starts_with(&self.moves)
            && next.result == self.result.flipped()
    }
}

/// A field's name in the format: the column letter in upper case, the row from 1.
pub fn point_name(field: u16, size: usize) -> String {
    let (col, row) = (field as usize % size, field as usize / size);
    format!("{}{}", (b'A' + col as u8) as char, row + 1)
}

/// Moves written one after another: a letter, then digits.
fn parse_moves(text: &str, size: usize) -> Result<Vec<u16>, String> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + 1..=bytes.len())
            .find(|&i| i == bytes.len() || !bytes[i].is_ascii_digit())
            .expect("the end is found");
        moves.push(parse_point(&text[at..end], size)?);
        at = end;
    }
    Ok(moves)
}

/// `h8` or `H8(35)`.
fn parse_choice(text: &str, size: usize) -> Result<(u16, Option<i32>), String> {
    let (point, score) = match text.split_once('(') {
        Some((point, rest)) => {
            let score = rest
                .strip_suffix(')')
                .and_then(|score| score.parse::<i32>().ok())
                .filter(|score| score.abs() <= 32_000)
                .ok_or_else(|| format!("bad score in {text:?}: expected (number)"))?;
            (point, Some(score))
        }
        None => (text, None),
    };
    Ok((parse_point(point, size)?, score))
}

fn parse_point(text: &str, size: usize) -> Result<u16, String> {
    let bad = || format!("bad point {text:?} on a {size}x{size} board");
    let (letter, row) = text.split_at_checked(1).ok_or_else(bad)?;
    let letter = letter.as_bytes()[0].to_ascii_uppercase();
    if !letter.is_ascii_uppercase() || row.is_empty() || row.len() > 2 {
        return Err(bad());
    }
    let col = (letter - b'A') as usize;
    let row: usize = row.parse().map_err(|_| bad())?;
    if col >= size || row == 0 || row > size {
        return Err(bad());
    }
    Ok(((row - 1) * size + col) as u16)
}

/// Largest `.psq` file read: a game record is a few kilobytes.
const MAX_PSQ_BYTES: u64 = 1 << 20;

/// The samples of a file (gzip-compressed when its name ends in `.gz`; a game record by
/// `read_psq` when it ends in `.psq`), every line checked; a last line without its line
/// break is a write cut short and is left out.
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, DatasetError> {
    let file = std::fs::File::open(path)
        .map_err(|e| DatasetError::File(format!("{}: {e}", path.display())))?;
    if path.extension().is_some_and(|ext| ext == "psq") {
        let mut text = String::new();
        file.take(MAX_PSQ_BYTES)
            .read_to_string(&mut text)
            .map_err(|e| DatasetError::File(format!("{}: {e}", path.display())))?;
        return read_psq(&text, None)
            .map_err(|e| DatasetError::File(format!("{}: {e}", path.display())));
    }
    let reader: Box<dyn Read> = if path.extension().is_some_and(|ext| ext == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    read_samples_from(BufReader::new(reader)).map_err(|e| match e {
        DatasetError::Line { line, message } => DatasetError::Line {
            line,
            message: format!("{}: {message}", path.display()),
        },
        other => other,
    })
}

/// As `read_samples`, from any reader.
pub fn read_samples_from(mut reader: impl BufRead) -> Result<Vec<Sample>, DatasetError> {
    let mut samples = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| DatasetError::File(e.to_string()))?;
        if read == 0 {
            break;
        }
        let fail = |message: String| DatasetError::Line {
            line: number,
            message,
        };
        if line.last() != Some(&b'\n') {
            if line.len() > MAX_LINE {
                return Err(fail(format!("longer than {MAX_LINE} bytes")));
            }
            log::warn!("line {number}: no line break at the end of the file; left out");
            break;
        }
        let text = std::str::from_utf8(&line).map_err(|_| fail("not UTF-8".into()))?;
        if text.trim().is_empty() {
            continue;
        }
        samples.push(Sample::parse(text).map_err(fail)?);
    }
    Ok(samples)
}

/// A game record in Piskvork's `.psq` format, as Gomocup publishes its games, as the
/// samples of its positions: each position's best move is the move played, without a
/// score, and the result is the game's. Lines: `Piskvorky 15x15, ...`, then a move a line
/// as `x,y,milliseconds` (1-based), then the players' names, and in the renju league's
/// files (MahiruInami/GomokuNN's database) `<winner>,<rule>` last (1 Black, 2 White,
/// 0 a draw). The rule must be named there or given. The opening's stones (the moves
/// before the first with a thinking time) get no samples. A game that ends with Black
/// on a forbidden point is White's, without that move; one that ends without five is
/// the named winner's; one with no winner known gives no samples.
pub fn read_psq(text: &str, default_rule: Option<Rule>) -> Result<Vec<Sample>, String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let size = header
        .strip_prefix("Piskvorky ")
        .and_then(|rest| rest.split([',', 'x']).next())
        .and_then(|size| size.trim().parse::<usize>().ok())
        .filter(|size| (5..=MAX_SIZE).contains(size))
        .ok_or_else(|| format!("not a psq header: {:?}", truncate(header)))?;
    let mut moves = Vec::new();
    let mut opening = 0;
    let mut rest = Vec::new();
    for line in lines.by_ref() {
        let fields: Vec<&str> = line.trim().split(',').collect();
        let numbers: Option<Vec<u64>> = fields.iter().map(|f| f.trim().parse().ok()).collect();
        match numbers.as_deref() {
            Some(&[x, y, time]) if fields.len() == 3 => {
                if !(1..=size as u64).contains(&x) || !(1..=size as u64).contains(&y) {
                    return Err(format!("move {},{} is off the board", x, y));
                }
                if time == 0 && opening == moves.len() {
                    opening += 1;
                }
                moves.push(((y - 1) as usize * size + (x - 1) as usize) as u16);
            }
            _ => {
                rest.push(line);
                break;
            }
        }
    }
    rest.extend(lines);
    let trailer = rest.iter().rev().find_map(|line| {
        let (winner, rule) = line.trim().split_once(',')?;
        Some((winner.parse::<u8>().ok()?, Rule::parse(rule)?))
    });
    let rule = trailer
        .map(|(_, rule)| rule)
        .or(default_rule)
        .ok_or("no rule named in the file")?;
    // Replayed under the rule: the result, and where a forbidden point ends it.
    let mut game = Gomoku::new(rule.config(size)).map_err(|e| e.to_string())?;
    let mut played = moves.len();
    for (ply, &field) in moves.iter().enumerate() {
        let mv = Move::new(field);
        if game.outcome().is_some() {
            return Err(format!("move {} comes after the game ended", ply + 1));
        }
        if !game.is_legal(mv) {
            let forbidden = game.side_to_move() == Side::Black && game.is_forbidden(field as usize);
            if ply + 1 == moves.len() && forbidden {
                played = ply;
                break;
            }
            return Err(format!(
                "move {} ({}) is illegal",
                ply + 1,
                point_name(field, size)
            ));
        }
        game.make(mv);
    }
    let winner = match game.outcome() {
        Some(outcome) => outcome.winner,
        None if played < moves.len() => Some(Side::White),
        None => match trailer {
            Some((1, _)) => Some(Side::Black),
            Some((2, _)) => Some(Side::White),
            Some((0, _)) => None,
            _ => return Ok(Vec::new()),
        },
    };
    Ok((opening..played)
        .map(|ply| {
            let mover = if ply % 2 == 0 {
                Side::Black
            } else {
                Side::White
            };
            Sample {
                size,
                rule,
                moves: moves[..ply].to_vec(),
                result: match winner {
                    None => Result3::Draw,
                    Some(side) if side == mover => Result3::Win,
                    Some(_) => Result3::Loss,
                },
                best: moves[ply],
                score: None,
                others: Vec::new(),
            }
        })
        .collect())
}

/// At most 40 characters of `text`, for messages.
fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The data files `path` names: itself, or if it is a directory every `.txt`, `.gz` and
/// `.psq` file under it, in name order.
pub fn data_files(path: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let listing = |e: std::io::Error| DatasetError::File(format!("{}: {e}", path.display()));
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(listing)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()
        .map_err(listing)?;
    entries.sort();
    let mut files = Vec::new();
    for entry in entries {
        if entry.is_dir() {
            files.extend(data_files(&entry)?);
        } else if entry
            .extension()
            .is_some_and(|ext| ext == "txt" || ext == "gz" || ext == "psq")
        {
            files.push(entry);
        }
    }
    Ok(files)
}

/// The games of a list of samples: ranges of consecutive samples of one game each.
pub fn games(samples: &[Sample]) -> Vec<Range<usize>> {
    let mut games = Vec::new();
    let mut start = 0;
    for i in 1..=samples.len() {
        if i == samples.len() || !samples[i - 1].continues_into(&samples[i]) {
            games.push(start..i);
            start = i;
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_lines_of_rapfis_format() {
        let line = "15,Freestyle,H6J8L9F11K10K9C11K8,2,I8(-73)";
        let sample = Sample::parse(line).unwrap();
        assert_eq!(sample.size, 15);
        assert_eq!(sample.rule, Rule::Freestyle);
        assert_eq!(sample.moves.len(), 8);
        // H6: column 7, row 6 (index 5).
        assert_eq!(sample.moves[0], 5 * 15 + 7);
        assert_eq!(sample.moves[3], 10 * 15 + 5, "F11");
        assert_eq!(sample.result, Result3::Win);
        assert_eq!((sample.best, sample.score), (7 * 15 + 8, Some(-73)));
        assert_eq!(sample.line(), line);
        let game = sample.position().unwrap();
        assert_eq!(game.format_move(Move::new(sample.best)), "i8");
        let multi = Sample::parse("20,Renju,h8,0,i9(30000)|j10|a1(-5)\n").unwrap();
        assert_eq!(multi.rule, Rule::Renju);
        assert_eq!(multi.others, vec![(9 * 20 + 9, None), (0, Some(-5))]);
        assert_eq!(multi.line(), "20,Renju,H8,0,I9(30000)|J10|A1(-5)");
        assert!((multi.teacher_chance().unwrap() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn refuses_bad_lines_with_their_number() {
        let bad = [
            ("15,Freestyle,H8,2", "5 comma-separated"),
            ("4,Freestyle,H8,2,I9", "board size"),
            ("15,Caro,H8,2,I9", "unknown rule"),
            ("15,Freestyle,H8P8,2,I9", "bad point \"P8\""),
            ("15,Freestyle,H0,2,I9", "bad point \"H0\""),
            ("15,Freestyle,8H,2,I9", "bad point"),
            ("15,Freestyle,H8,3,I9", "bad result"),
            ("15,Freestyle,H8,2,I9(x)", "bad score"),
            ("15,Freestyle,H8,2,I9(5", "bad score"),
        ];
        for (line, why) in bad {
            let text = format!("15,Freestyle,H8,2,I9(1)\n{line}\n");
            let error = read_samples_from(text.as_bytes()).unwrap_err();
            let DatasetError::Line { line: 2, message } = &error else {
                panic!("{line}: {error:?}");
            };
            assert!(message.contains(why), "{line}: {message}");
        }
        // Read but not replayable: a stone on a stone, a best move on a stone.
        let twice = Sample::parse("15,Freestyle,H8H8,2,I9").unwrap();
        assert!(
            twice
                .position()
                .unwrap_err()
                .contains("move 2 (H8) is illegal")
        );
        let taken = Sample::parse("15,Freestyle,H8,2,H8").unwrap();
        assert!(taken.position().unwrap_err().contains("best move H8"));
    }

    #[test]
    fn a_cut_last_line_is_left_out_and_games_are_split() {
        let text = "15,Freestyle,H8,0,I9(5)\n15,Freestyle,H8I9,2,J10(-5)\n\
                    15,Freestyle,A1,2,B2\n15,Freestyle,A1B2,0,C3\n15,Freestyle,A1B2C3,2,D4\n15,Free";
        let samples = read_samples_from(text.as_bytes()).unwrap();
        assert_eq!(samples.len(), 5);
        assert_eq!(games(&samples), vec![0..2, 2..5]);
        // The same moves with a result that does not alternate start another game.
        let text = "15,Freestyle,H8,0,I9\n15,Freestyle,H8I9,0,J10\n";
        let samples = read_samples_from(text.as_bytes()).unwrap();
        assert_eq!(games(&samples), vec![0..1, 1..2]);
    }

    /// A renju-league record: `x,y,time` moves (1-based), names, `<winner>,<rule>`.
    fn psq(moves: &[(u8, u8, u32)], trailer: &str) -> String {
        let mut text = String::from("Piskvorky 15x15, 11:11, 0\n");
        for (x, y, time) in moves {
            text += &format!("{x},{y},{time}\n");
        }
        text + "ENGINE1.zip\nENGINE2.zip\n-1\n" + trailer + "\n"
    }

    #[test]
    fn reads_game_records_of_the_renju_league() {
        // Three opening stones (no time), then Black makes five on row 8: h8 ... l8.
        let five = [
            (8, 8, 0),
            (8, 9, 0),
            (9, 8, 0),
            (9, 9, 120),
            (10, 8, 80),
            (10, 9, 95),
            (11, 8, 40),
            (1, 1, 30),
            (12, 8, 10),
        ];
        let samples = read_psq(&psq(&five, "1,Renju"), None).unwrap();
        // Samples from the first move with a thinking time, its move as the best.
        assert_eq!(samples.len(), 6);
        assert_eq!(samples[0].moves.len(), 3);
        assert_eq!(samples[0].rule, Rule::Renju);
        assert_eq!(samples[0].line(), "15,Renju,H8H9I8,0,I9");
        assert_eq!(samples[5].line(), "15,Renju,H8H9I8I9J8J9K8A1,2,L8");
        assert_eq!(games(&samples), vec![0..6]);
        for sample in &samples {
            sample.position().unwrap();
        }
        // The five decides, whatever the file says; without one the named winner does.
        let said_white = read_psq(&psq(&five, "2,Renju"), None).unwrap();
        assert_eq!(said_white[0].result, Result3::Loss);
        let unfinished = read_psq(&psq(&five[..8], "2,Renju"), None).unwrap();
        assert_eq!(unfinished[0].result, Result3::Win);
        let drawn = read_psq(&psq(&five[..8], "0,Renju"), None).unwrap();
        assert_eq!(drawn[0].result, Result3::Draw);
        // No winner known: no samples. No rule named: the caller's, or an error.
        let no_trailer = psq(&five[..8], "");
        assert_eq!(
            read_psq(&no_trailer, Some(Rule::Freestyle)).unwrap(),
            vec![]
        );
        assert!(
            read_psq(&no_trailer, None)
                .unwrap_err()
                .contains("no rule named")
        );
        let freestyle = read_psq(&psq(&five, ""), Some(Rule::Freestyle)).unwrap();
        assert_eq!(freestyle[0].rule, Rule::Freestyle);
    }

    #[test]
    fn a_record_ending_on_a_forbidden_point_is_whites() {
        // Black's f8 g8 and h6 h7 make h8 a double three.
        let moves = [
            (6, 8, 10),
            (1, 1, 10),
            (7, 8, 10),
            (1, 3, 10),
            (8, 6, 10),
            (1, 5, 10),
            (8, 7, 10),
            (15, 15, 10),
            (8, 8, 10),
        ];
        let samples = read_psq(&psq(&moves, "1,Renju"), None).unwrap();
        let last = samples.last().unwrap();
        assert_eq!(samples.len(), 8);
        let mut before = last.position().unwrap();
        before.make(Move::new(last.best));
        assert!(before.is_forbidden(7 * 15 + 7));
        assert_eq!(last.line(), "15,Renju,F8A1G8A3H6A5H7,2,O15");
        assert_eq!(samples[0].result, Result3::Loss);
        // Under freestyle the same point is a move like any other.
        let freestyle = read_psq(&psq(&moves, "1,Freestyle"), None).unwrap();
        assert_eq!(freestyle.len(), 9);
        assert_eq!(freestyle[0].result, Result3::Win);
    }

    #[test]
    fn refuses_records_that_are_not_games() {
        for (text, why) in [
            ("Piskvork 15x15\n8,8,0\n".to_string(), "not a psq header"),
            (psq(&[(8, 8, 0), (16, 1, 5)], "1,Renju"), "off the board"),
            (
                psq(&[(8, 8, 0), (8, 8, 5)], "1,Renju"),
                "move 2 (H8) is illegal",
            ),
            (
                psq(
                    &[
                        (1, 1, 0),
                        (2, 1, 0),
                        (1, 2, 0),
                        (2, 2, 0),
                        (1, 3, 0),
                        (2, 3, 0),
                        (1, 4, 0),
                        (2, 4, 0),
                        (1, 5, 0),
                        (9, 9, 0),
                    ],
                    "1,Freestyle",
                ),
                "move 10 comes after the game ended",
            ),
        ] {
            let error = read_psq(&text, None).unwrap_err();
            assert!(error.contains(why), "{why}: {error}");
        }
    }
}
