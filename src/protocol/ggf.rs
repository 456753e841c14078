//! Reading a GGF Othello game as the NBoard GUI sends it in `set game`: the start board
//! (`BO[8 <64 cells> <side>]`) and the moves (`B[F5]`, `W[d6/-1.50/2.1]`, `B[PA]`).
//! Only the record is read: the tags that do not change the position are skipped. The
//! type (`TY[8]`, `TY[6a]`) gives the board's size (4, 6 or 8, as arbor plays them) and
//! `a` misère ("anti") Othello, as GGS writes them.

use crate::game::Side;
use crate::game::othello::Rule;
use crate::game::variant::Variant;
use crate::text::quote;

/// A game record: its start position (`X`, `O`, `-` row by row, as `set_board` reads
/// it) and its moves in order, each with the colour the record gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfGame {
    /// Othello of the record's size and rule.
    pub variant: Variant,
    pub cells: String,
    pub side: Side,
    /// Lowercase names (`f5`), `pass` for `PA`.
    pub moves: Vec<(Side, String)>,
}

/// Longest tag value read; GGF values are short (names, dates, a 64-cell board).
const MAX_VALUE: usize = 4096;

/// Parses `(;GM[Othello]...;)`, optionally after a game count (`1 `), as GGS writes it.
pub fn parse(text: &str) -> Result<GgfGame, String> {
    let text = text.trim();
    let text = text
        .strip_prefix(['1', '2'])
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .map_or(text, str::trim_start);
    let mut rest = text
        .strip_prefix("(;")
        .ok_or("a GGF game starts with '(;'")?;
    let mut start: Option<(usize, String, Side)> = None;
    let mut kind: Option<(usize, Rule)> = None;
    let mut moves = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(";)") {
            if !after.trim().is_empty() {
                return Err(format!("text after the game's ';)': {}", quote(after)));
            }
            break;
        }
        let (tag, after) = rest.split_once('[').ok_or("a GGF game ends with ';)'")?;
        let tag = tag.trim();
        if tag.is_empty() || !tag.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!("bad GGF tag {}", quote(tag)));
        }
        let (value, after) =
            split_value(after).ok_or_else(|| format!("GGF tag {tag} has no ']'"))?;
        if value.len() > MAX_VALUE {
            return Err(format!("GGF tag {tag} is too long"));
        }
        rest = after;
        match tag {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(format!("GM[{value}]: only Othello is played"));
            }
            "TY" => kind = Some(game_type(value)?),
            "BO" => start = Some(board(value)?),
            "B" | "W" => {
                let side = if tag == "B" { Side::Black } else { Side::White };
                moves.push((side, value.to_string()));
            }
            _ => {}
        }
    }
    let (size, cells, side) = start.ok_or("the GGF game has no board (BO[...])")?;
    let (typed, rule) = kind.unwrap_or((size, Rule::Normal));
    if typed != size {
        return Err(format!("TY says {typed}x{typed} but BO is {size}x{size}"));
    }
    let moves = moves
        .into_iter()
        .map(|(side, item)| Ok((side, sized_move_name(&item, size)?)))
        .collect::<Result<_, String>>()?;
    Ok(GgfGame {
        variant: Variant::Othello { size, rule },
        cells,
        side,
        moves,
    })
}

/// A tag's value up to its closing `]` and the text after it. A backslash escapes the
/// next character (`C[a \] b]`, as GGS writes a bracket inside a comment); the value
/// keeps the escapes, which no value arbor reads contains.
fn split_value(text: &str) -> Option<(&str, &str)> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            ']' => return Some((&text[..at], &text[at + 1..])),
            _ => {}
        }
    }
    None
}

/// `8`, `6a`: the board's size and, with `a`, misère; the other GGS types (random
/// starts, komi, synchro, other sizes) are not played here.
fn game_type(value: &str) -> Result<(usize, Rule), String> {
    let value = value.trim();
    let (digits, rule) = match value.strip_suffix('a') {
        Some(digits) => (digits, Rule::Misere),
        None => (value, Rule::Normal),
    };
    match digits {
        "4" | "6" | "8" => Ok((digits.parse().expect("a size"), rule)),
        _ => Err(format!(
            "TY[{value}]: only 8x8, 6x6 and 4x4 Othello, normal or anti (a), are played"
        )),
    }
}

/// `8 <64 cells> <side>` with `*` black, `O` white, `-` empty (spaces inside allowed);
/// 6x6 and 4x4 boards as `6 <36 cells> <side>` and `4 <16 cells> <side>`.
fn board(value: &str) -> Result<(usize, String, Side), String> {
    let bad = || {
        format!(
            "bad board BO[{value}]: expected the size (8, 6 or 4), its cells of * O -, \
             and * or O"
        )
    };
    let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    let size: usize = match compact.as_bytes().first() {
        Some(b'8') => 8,
        Some(b'6') => 6,
        Some(b'4') => 4,
        _ => return Err(bad()),
    };
    let body = &compact[1..];
    if body.len() != size * size + 1 || !body.is_ascii() {
        return Err(bad());
    }
    let (cells, side) = body.split_at(size * size);
    let cells = cells
        .chars()
        .map(|c| match c {
            '*' => Ok('X'),
            'O' | 'o' => Ok('O'),
            '-' => Ok('-'),
            _ => Err(bad()),
        })
        .collect::<Result<String, String>>()?;
    let side = match side {
        "*" => Side::Black,
        "O" | "o" => Side::White,
        _ => return Err(bad()),
    };
    Ok((size, cells, side))
}

/// A move item, `F5`, `f5/-2.00/1.3` or `PA`: its name only (the eval and time after a
/// `/` are the players' comments).
pub fn move_name(item: &str) -> Result<String, String> {
    sized_move_name(item, 8)
}

/// A move item on a board of `size` (A1 to the last column and row).
fn sized_move_name(item: &str, size: usize) -> Result<String, String> {
    let name = item.split('/').next().unwrap_or("").trim();
    let last = (b'a' + size as u8 - 1) as char;
    let bad = || {
        format!(
            "bad move {}: expected A1..{}{size} or PA",
            quote(item),
            last.to_ascii_uppercase()
        )
    };
    if name.eq_ignore_ascii_case("pa") {
        return Ok("pass".to_string());
    }
    match name.as_bytes() {
        [column, row]
            if (b'a'..=last as u8).contains(&column.to_ascii_lowercase())
                && (b'1'..=b'0' + size as u8).contains(row) =>
        {
            Ok(name.to_ascii_lowercase())
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------O*------*O---------------------------";

    #[test]
    fn reads_what_nboard_sends() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[arbor]PW[chris]RE[?]\
             TI[15:00]TY[8]BO[8 {START} *]B[F5]W[f6/-1.00/2.5]B[E6//0.1]W[PA];)"
        );
        let game = parse(&text).unwrap();
        assert_eq!(game.side, Side::Black);
        assert_eq!(&game.cells[27..29], "OX");
        let moves: Vec<(Side, &str)> = game.moves.iter().map(|(s, m)| (*s, m.as_str())).collect();
        assert_eq!(
            moves,
            [
                (Side::Black, "f5"),
                (Side::White, "f6"),
                (Side::Black, "e6"),
                (Side::White, "pass")
            ]
        );
        // A comment with escaped brackets (and an escaped backslash) before the moves.
        let text =
            format!("(;GM[Othello]C[esc \\] bracket \\[x\\] \\\\]BO[8 {START} *]C[PB[no]B[F5];)");
        let game = parse(&text).unwrap();
        assert_eq!(game.moves, [(Side::Black, "f5".to_string())]);
        // GGS's game count and a white start.
        let game = parse(&format!("1 (;GM[Othello]BO[8 {START} O];)")).unwrap();
        assert_eq!((game.side, game.moves.len()), (Side::White, 0));
        assert_eq!(game.variant, Variant::default());
    }

    #[test]
    fn reads_small_boards_and_misere() {
        let six = "--------------O*----*O--------------";
        let game = parse(&format!("(;GM[Othello]TY[6a]BO[6 {six} *]B[D5]W[pa];)")).unwrap();
        assert_eq!(
            game.variant,
            Variant::Othello {
                size: 6,
                rule: Rule::Misere
            }
        );
        assert_eq!(game.cells.len(), 36);
        assert_eq!(game.moves[0], (Side::Black, "d5".to_string()));
        let game = parse("(;TY[4]BO[4 -----O*--*O----- *];)").unwrap();
        assert_eq!(
            game.variant,
            Variant::Othello {
                size: 4,
                rule: Rule::Normal
            }
        );
        let game = parse(&format!("(;TY[8a]BO[8 {START} *];)")).unwrap();
        assert_eq!(
            game.variant,
            Variant::Othello {
                size: 8,
                rule: Rule::Misere
            }
        );
    }

    #[test]
    fn refuses_what_it_cannot_play() {
        let board = format!("BO[8 {START} *]");
        for bad in [
            String::new(),
            "(;GM[Othello]".to_string(),
            format!("(;GM[Go]{board};)"),
            format!("(;TY[8r]{board};)"),
            format!("(;TY[10]{board};)"),
            format!("(;TY[6]{board};)"),
            format!("(;TY[8k]{board};)"),
            format!("(;BO[6 {} *]B[G1];)", &START[..36]),
            "(;GM[Othello];)".to_string(),
            format!("(;BO[6 {START} *];)"),
            format!("(;TY[8]BO[6 {} *];)", &START[..36]),
            format!("(;BO[8 {START} X];)"),
            format!("(;BO[8 {} *];)", &START[1..]),
            format!("(;{board}B[Z9];)"),
            format!("(;{board}B[f55];)"),
            format!("(;{board}b[f5];)"),
            format!("(;{board}B[f5;)"),
            format!("(;{board};) trailing"),
        ] {
            assert!(parse(&bad).is_err(), "{bad:?} accepted");
        }
    }
}
