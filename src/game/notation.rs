//! Move names on a square board: `d3` (column letter, row number from 1 at the top),
//! `3,2` (0-based column,row) and `pass`.

use super::GameError;
use crate::text::quote;

/// A parsed move name, before the game maps it to its own numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    Pass,
    At { col: usize, row: usize },
}

/// Widest board that gets letter names; wider boards use `x,y`.
pub const MAX_LETTER_SIZE: usize = 26;

pub fn parse_point(text: &str, size: usize) -> Result<Point, GameError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Point::Pass);
    }
    let bad = || {
        GameError::Move(format!(
            "bad move {}: expected a name like a1 or 0-based x,y on a {size}x{size} board, or pass",
            quote(text)
        ))
    };
    let (col, row) = if let Some((x, y)) = text.split_once(',') {
        (
            parse_index(x.trim()).ok_or_else(bad)?,
            parse_index(y.trim()).ok_or_else(bad)?,
        )
    } else {
        let mut chars = text.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(bad)?;
        let col = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
        let row = parse_index(chars.as_str()).ok_or_else(bad)?;
        if row == 0 {
            return Err(bad());
        }
        (col, row - 1)
    };
    if col >= size || row >= size {
        return Err(GameError::Move(format!(
            "move {} is off the {size}x{size} board",
            quote(text)
        )));
    }
    Ok(Point::At { col, row })
}

pub fn format_point(col: usize, row: usize, size: usize) -> String {
    if size <= MAX_LETTER_SIZE {
        format!("{}{}", (b'a' + col as u8) as char, row + 1)
    } else {
        format!("{col},{row}")
    }
}

/// Column header letters for diagrams.
pub fn column_name(col: usize) -> char {
    (b'a' + (col % 26) as u8) as char
}

fn parse_index(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// GTP's column letters: there is no I.
pub const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
/// Widest board GTP vertices can name.
pub const MAX_GTP_SIZE: usize = COLUMNS.len();

/// A GTP vertex as the game's move name: the column letter maps past I, the row stays.
pub fn vertex_to_name(text: &str, size: usize) -> Result<String, String> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok("pass".to_string());
    }
    let bad = || format!("invalid vertex {}", quote(text));
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let col = COLUMNS
        .iter()
        .position(|&c| c as char == letter)
        .ok_or_else(bad)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    if col >= size || row == 0 || row > size {
        return Err(format!(
            "vertex {} is off the {size}x{size} board",
            quote(text)
        ));
    }
    Ok(format_point(col, row - 1, size))
}

/// A point as a GTP vertex: `col` and `row` from 0 at the top left (`d3` for 3, 2).
pub fn point_vertex(col: usize, row: usize) -> String {
    format!("{}{}", COLUMNS[col].to_ascii_lowercase() as char, row + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_letters_pairs_and_pass() {
        assert_eq!(parse_point("d3", 8), Ok(Point::At { col: 3, row: 2 }));
        assert_eq!(parse_point("D3", 8), Ok(Point::At { col: 3, row: 2 }));
        assert_eq!(parse_point("3,2", 8), Ok(Point::At { col: 3, row: 2 }));
        assert_eq!(parse_point(" 3 , 2 ", 8), Ok(Point::At { col: 3, row: 2 }));
        assert_eq!(parse_point("PASS", 8), Ok(Point::Pass));
        assert_eq!(parse_point("h8", 8), Ok(Point::At { col: 7, row: 7 }));
    }

    #[test]
    fn rejects_off_board_and_garbage() {
        for bad in [
            "i1", "a9", "a0", "8,0", "0,8", "", "d", "3", "dd3", "d-3", "d+3", "1,2,3", "é3",
        ] {
            assert!(parse_point(bad, 8).is_err(), "{bad} accepted");
        }
        assert!(parse_point("e1", 4).is_err());
        assert!(parse_point("d4", 4).is_ok());
    }

    #[test]
    fn formats_round_trip() {
        for size in [4, 6, 8, 15, 26, 27, 99] {
            for row in 0..size {
                for col in 0..size {
                    let name = format_point(col, row, size);
                    assert_eq!(
                        parse_point(&name, size),
                        Ok(Point::At { col, row }),
                        "{name}"
                    );
                }
            }
        }
    }
}
