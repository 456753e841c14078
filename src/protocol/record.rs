//! Game records as the tools read them: GGF (Othello), the text records of `arbor match`
//! and of the web board, and plain move lists; and the check that a record plays out.

use crate::game::fill_left_out_pass;
use crate::game::roles::SearchGame;
use crate::game::variant::{GameVisitor, Variant};
use crate::game::{GameError, Side};
use crate::protocol::ggf;

/// Why a record was refused: callers tell a record that is no record apart from one
/// that does not play out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Text that is no record (the message says what is missing).
    #[error("{0}")]
    Syntax(String),
    /// The variant a text record names is none of the games'.
    #[error("the record's variant: {0}")]
    Variant(GameError),
    /// The record names another variant than the options.
    #[error("the record is {record}, but the options say {given}")]
    OtherVariant { record: Variant, given: Variant },
    /// The record's setup is no position of its game.
    #[error("setup: {0}")]
    Setup(GameError),
    /// Move `number` (from 1) names no move of the game.
    #[error("move {number}: {error}")]
    BadMove { number: usize, error: GameError },
    /// Move `number` is not legal for the side to move.
    #[error("move {number}: illegal move {name} for {side}")]
    IllegalMove {
        number: usize,
        name: String,
        side: Side,
    },
    /// Move `number` comes after the game has ended.
    #[error("move {number} ({name}): the game is already over")]
    AfterTheEnd { number: usize, name: String },
}

/// Tools that answer in text carry the message on.
impl From<RecordError> for String {
    fn from(error: RecordError) -> String {
        error.to_string()
    }
}

fn syntax(message: &str) -> RecordError {
    RecordError::Syntax(message.to_string())
}

/// A game record: its variant, start position (`None`: the game's own) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub variant: Variant,
    pub setup: Option<(String, Side)>,
    pub moves: Vec<String>,
}

/// Reads a record: GGF (Othello 8x8, 6x6, 4x4, normal or misère), a text record line of
/// `arbor match --records` or of the web board (`game <n> [variant "<variant>"] ... setup
/// <start|m1,m2|cells:side> moves m1 m2 ...`, in its variant, else in `variant`), or a
/// move list (names separated by spaces or commas; Othello's `f5d6c3` run together too).
pub fn parse_record(text: &str, variant: Variant) -> Result<Record, RecordError> {
    parse(text, variant).map(|(record, _)| record)
}

/// Reads a record as [`parse_record`] does, in the variant the record names (GGF's, a
/// text record's), else in `given`, else in 8x8 Othello; a `given` variant (the user's
/// `--game`) that contradicts the record's is an error naming both.
pub fn read_record(text: &str, given: Option<Variant>) -> Result<Record, RecordError> {
    let (record, named) = parse(text, given.unwrap_or_default())?;
    match given {
        Some(given) if named && given != record.variant => Err(RecordError::OtherVariant {
            record: record.variant,
            given,
        }),
        _ => Ok(record),
    }
}

/// The variant a text record's header names (`variant "gomoku size=15 ..."`), if any.
fn named_variant(header: &str) -> Result<Option<Variant>, RecordError> {
    let Some((_, rest)) = header.split_once("variant \"") else {
        return Ok(None);
    };
    let name = rest
        .split_once('"')
        .map(|(name, _)| name)
        .ok_or_else(|| syntax("a text record's variant has no closing quote"))?;
    let mut words = name.split_whitespace();
    let game = words
        .next()
        .ok_or_else(|| syntax("a text record's variant is empty"))?;
    let options: Vec<(&str, &str)> = words.filter_map(|word| word.split_once('=')).collect();
    Variant::parse(game, options)
        .map(Some)
        .map_err(RecordError::Variant)
}

/// The record, and whether its variant comes from the record itself.
fn parse(text: &str, variant: Variant) -> Result<(Record, bool), RecordError> {
    let text = crate::files::strip_bom(text).trim();
    if text.is_empty() {
        return Err(syntax("the record is empty"));
    }
    if text.starts_with("(;") || text.starts_with("1 (;") || text.starts_with("2 (;") {
        let game = ggf::parse(text).map_err(RecordError::Syntax)?;
        let record = Record {
            variant: game.variant,
            setup: Some((game.cells, game.side)),
            moves: game.moves.into_iter().map(|(_, name)| name).collect(),
        };
        return Ok((record, true));
    }
    if let Some(rest) = text.strip_prefix("game ") {
        let line = rest.lines().next().unwrap_or("");
        let (before, moves) = line
            .split_once(" moves ")
            .or_else(|| line.strip_suffix(" moves").map(|before| (before, "")))
            .ok_or_else(|| syntax("a text record has 'moves' at the end"))?;
        let (header, setup) = before
            .rsplit_once(" setup ")
            .ok_or_else(|| syntax("a text record has a 'setup'"))?;
        let named = named_variant(header)?;
        let mut record = Record {
            variant: named.unwrap_or(variant),
            setup: None,
            moves: Vec::new(),
        };
        match setup {
            "start" => {}
            board if board.contains(':') => {
                let (cells, side) = board
                    .rsplit_once(':')
                    .ok_or_else(|| syntax("bad setup board"))?;
                let side =
                    Side::parse(side).ok_or_else(|| syntax(&format!("bad setup side {side}")))?;
                record.setup = Some((cells.replace(':', ""), side));
            }
            opening => record.moves.extend(opening.split(',').map(str::to_string)),
        }
        record
            .moves
            .extend(moves.split_whitespace().map(str::to_string));
        return Ok((record, named.is_some()));
    }
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect();
    let run_together = matches!(variant, Variant::Othello { .. })
        && words.len() == 1
        && words[0].len() > 3
        && words[0].len().is_multiple_of(2);
    let moves = if run_together {
        let word = &words[0];
        (0..word.len())
            .step_by(2)
            .map(|at| word.get(at..at + 2).unwrap_or("").to_string())
            .collect()
    } else {
        words
    };
    let record = Record {
        variant,
        setup: None,
        moves,
    };
    Ok((record, false))
}

/// Replays the whole record, as `arbor review` plays it, and names the first move that
/// cannot be played: checked before any analysis, so that a bad record costs no time.
pub fn check_moves(record: &Record) -> Result<(), RecordError> {
    struct Replay<'a>(&'a Record);
    impl GameVisitor for Replay<'_> {
        type Output = Result<(), RecordError>;
        fn visit<G: SearchGame>(self, mut game: G) -> Result<(), RecordError> {
            if let Some((cells, side)) = &self.0.setup {
                game.set_board(cells, *side).map_err(RecordError::Setup)?;
            }
            let mut legal = Vec::new();
            for (index, name) in self.0.moves.iter().enumerate() {
                let next = game.parse_move(name).ok();
                fill_left_out_pass(&mut game, None, next);
                game.generate_moves(&mut legal);
                let number = index + 1;
                if game.outcome().is_some() {
                    return Err(RecordError::AfterTheEnd {
                        number,
                        name: name.clone(),
                    });
                }
                let mv = game
                    .parse_move(name)
                    .map_err(|error| RecordError::BadMove { number, error })?;
                if !legal.contains(&mv) {
                    return Err(RecordError::IllegalMove {
                        number,
                        name: name.clone(),
                        side: game.side_to_move(),
                    });
                }
                game.make(mv);
            }
            Ok(())
        }
    }
    record.variant.visit(Replay(record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_every_kind() {
        let othello = Variant::default();
        let list = parse_record("f5d6c3d3", othello).unwrap();
        assert_eq!(list.moves, ["f5", "d6", "c3", "d3"]);
        let spaced = parse_record("f5 d6, c3\nd3", othello).unwrap();
        assert_eq!(spaced.moves, list.moves);
        let text = parse_record(
            r#"game 3 black a white b result 1-0 score +12 ending "end" setup f5,d6 moves c3 d3"#,
            othello,
        )
        .unwrap();
        assert_eq!(text.moves, ["f5", "d6", "c3", "d3"]);
        let ggf = parse_record(
            "(;GM[Othello]PC[x]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6//1.2]B[PA];)",
            othello,
        )
        .unwrap();
        assert_eq!(ggf.moves, ["f5", "d6", "pass"]);
        assert!(ggf.setup.is_some());
        assert!(parse_record("  ", othello).is_err());
        assert_eq!(
            parse_record("\u{feff}f5 d6", othello).unwrap().moves,
            ["f5", "d6"]
        );
    }

    #[test]
    fn a_text_record_names_its_variant() {
        let othello = Variant::default();
        let gomoku = r#"game 1 variant "gomoku size=15 rule=freestyle opening=center" result * setup start moves h8 h9"#;
        let record = read_record(gomoku, None).unwrap();
        assert_eq!(
            record.variant.to_string(),
            "gomoku size=15 rule=freestyle opening=center"
        );
        assert_eq!(record.moves, ["h8", "h9"]);
        assert_eq!(parse_record(gomoku, othello).unwrap(), record);
        assert_eq!(read_record(gomoku, Some(record.variant)).unwrap(), record);
        let error = read_record(gomoku, Some(othello)).unwrap_err();
        assert!(matches!(error, RecordError::OtherVariant { .. }));
        let error = error.to_string();
        assert!(
            error.contains("gomoku size=15") && error.contains("othello size=8"),
            "{error}"
        );
        // Records without one are read in the given variant, else in Othello.
        assert_eq!(read_record("f5", None).unwrap().variant, othello);
        let tictactoe = Variant::parse("tictactoe", []).unwrap();
        assert_eq!(
            read_record("b2", Some(tictactoe)).unwrap().variant,
            tictactoe
        );
        assert!(read_record(r#"game 1 variant "chess" setup start moves e4"#, None).is_err());
    }

    #[test]
    fn a_whole_record_is_checked_before_the_review() {
        let record = parse_record(
            "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6 a1 d8",
            Variant::default(),
        )
        .unwrap();
        assert_eq!(
            check_moves(&record).unwrap_err(),
            RecordError::IllegalMove {
                number: 13,
                name: "a1".to_string(),
                side: Side::Black
            }
        );
        assert_eq!(
            check_moves(&record).unwrap_err().to_string(),
            "move 13: illegal move a1 for black"
        );
        let over = parse_record("f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6", Variant::default()).unwrap();
        assert!(check_moves(&over).is_ok());
        let gomoku = Variant::parse("gomoku", [("size", "9"), ("opening", "free")]).unwrap();
        let five = parse_record("a1 a2 b1 b2 c1 c2 d1 d2 e1 e2", gomoku).unwrap();
        assert_eq!(
            check_moves(&five).unwrap_err().to_string(),
            "move 10 (e2): the game is already over"
        );
    }
}
