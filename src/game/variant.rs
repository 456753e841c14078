//! Naming a game and its options (`othello size=6 rule=misere`), and reaching the typed
//! game behind a name without the caller knowing every game type.

use std::fmt;

use super::GameError;
use super::gomoku::{Config, Family, Gomoku, Opening};
use super::othello::{self, Othello, Rule};
use super::roles::SearchGame;
use crate::text::quote;

/// A game with its options, as `newgame` and `--game` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Othello {
        size: usize,
        rule: Rule,
    },
    /// Gomoku, Pente and tic-tac-toe.
    KInRow(Config),
}

/// Code that works on any game: `Variant::visit` calls it with the typed start position.
pub trait GameVisitor {
    type Output;
    fn visit<G: SearchGame>(self, game: G) -> Self::Output;
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::Othello {
            size: 8,
            rule: Rule::Normal,
        }
    }
}

impl Variant {
    pub const GAMES: &'static str = "othello (alias reversi), gomoku, pente or tictactoe";

    /// `name` is the game (`othello`, `reversi`), `options` its `key=value` settings.
    pub fn parse<'a>(
        name: &str,
        options: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Variant, GameError> {
        match name.to_ascii_lowercase().as_str() {
            "othello" | "reversi" => {
                let (mut size, mut rule) = (8, Rule::Normal);
                for (key, value) in options {
                    match key.to_ascii_lowercase().as_str() {
                        "size" => {
                            size = value
                                .parse()
                                .ok()
                                .filter(|size| othello::SIZES.contains(size))
                                .ok_or_else(|| {
                                    GameError::Variant(format!(
                                        "othello size must be 4, 6 or 8, not {}",
                                        quote(value)
                                    ))
                                })?;
                        }
                        "rule" => rule = value.parse()?,
                        _ => {
                            return Err(GameError::Variant(format!(
                                "unknown othello option {}: expected size or rule",
                                quote(key)
                            )));
                        }
                    }
                }
                Ok(Variant::Othello { size, rule })
            }
            "gomoku" | "pente" | "tictactoe" => parse_k_in_row(name, options),
            _ => Err(GameError::Variant(format!(
                "unknown game {}: expected {}",
                quote(name),
                Variant::GAMES
            ))),
        }
    }

    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        match *self {
            Variant::Othello { size, rule } => {
                visitor.visit(Othello::new(size, rule).expect("variant sizes are checked"))
            }
            Variant::KInRow(config) => {
                visitor.visit(Gomoku::new(config).expect("variant options are checked"))
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Othello { size, rule } => {
                write!(f, "othello size={size} rule={}", rule.name())
            }
            Variant::KInRow(config) => write!(f, "{config}"),
        }
    }
}

fn parse_number(key: &str, value: &str) -> Result<usize, GameError> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n <= 10_000)
        .ok_or_else(|| GameError::Variant(format!("{key} must be a number, not {}", quote(value))))
}

/// `gomoku [size=N] [rule=freestyle|exact|renju] [opening=center|free]`,
/// `pente [size=N] [opening=center|tournament|free]`, `tictactoe [size=N] [k=K]`.
fn parse_k_in_row<'a>(
    name: &str,
    options: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Variant, GameError> {
    let family = match name.to_ascii_lowercase().as_str() {
        "gomoku" => Family::Gomoku,
        "pente" => Family::Pente,
        _ => Family::TicTacToe,
    };
    let (mut size, mut exact, mut opening, mut k) = (None, false, None, None);
    let mut renju = false;
    for (key, value) in options {
        let lower = value.to_ascii_lowercase();
        match (family, key.to_ascii_lowercase().as_str()) {
            (_, "size") => size = Some(parse_number("size", value)?),
            (Family::Gomoku, "rule") => {
                (exact, renju) = match lower.as_str() {
                    "freestyle" | "free" => (false, false),
                    "exact" | "standard" => (true, false),
                    "renju" => (false, true),
                    _ => {
                        return Err(GameError::Variant(format!(
                            "gomoku rule must be freestyle, exact or renju, not {}",
                            quote(value)
                        )));
                    }
                }
            }
            (Family::Gomoku | Family::Pente, "opening") => {
                opening = Some(match lower.as_str() {
                    "center" | "centre" => Opening::Center,
                    "free" => Opening::Free,
                    "tournament" if family == Family::Pente => Opening::Tournament,
                    _ => {
                        return Err(GameError::Variant(format!(
                            "{} opening must be {}, not {}",
                            name.to_ascii_lowercase(),
                            if family == Family::Pente {
                                "center, tournament or free"
                            } else {
                                "center or free"
                            },
                            quote(value)
                        )));
                    }
                })
            }
            (Family::TicTacToe, "k") => k = Some(parse_number("k", value)?),
            _ => {
                let expected = match family {
                    Family::Gomoku => "size, rule or opening",
                    Family::Pente => "size or opening",
                    Family::TicTacToe => "size or k",
                };
                return Err(GameError::Variant(format!(
                    "unknown {} option {}: expected {expected}",
                    name.to_ascii_lowercase(),
                    quote(key)
                )));
            }
        }
    }
    let config = match family {
        Family::Gomoku | Family::Pente => {
            let size = size.unwrap_or(if family == Family::Pente { 19 } else { 15 });
            // Even boards have no centre point: they open freely unless told otherwise.
            let opening = opening.unwrap_or(if size % 2 == 1 {
                Opening::Center
            } else {
                Opening::Free
            });
            if family == Family::Pente {
                Config::pente(size, opening)
            } else if renju {
                Config::renju(size, opening)
            } else {
                Config::gomoku(size, exact, opening)
            }
        }
        Family::TicTacToe => {
            let size = size.unwrap_or(3);
            Config::tictactoe(size, k.unwrap_or(size))
        }
    };
    config.validate()?;
    Ok(Variant::KInRow(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options_and_rejects_bad_ones() {
        assert_eq!(Variant::parse("othello", []), Ok(Variant::default()));
        assert_eq!(
            Variant::parse("Reversi", [("size", "6"), ("rule", "misere")]),
            Ok(Variant::Othello {
                size: 6,
                rule: Rule::Misere
            })
        );
        assert!(Variant::parse("othello", [("size", "7")]).is_err());
        assert!(Variant::parse("othello", [("size", "99999999999999999999999")]).is_err());
        assert!(Variant::parse("othello", [("rule", "fast")]).is_err());
        assert!(Variant::parse("othello", [("colour", "red")]).is_err());
        assert!(Variant::parse("chess", []).is_err());
        assert_eq!(Variant::default().to_string(), "othello size=8 rule=normal");
        let parse = |name: &str, options: &[(&'static str, &'static str)]| {
            Variant::parse(name, options.iter().copied()).map(|v| v.to_string())
        };
        assert_eq!(
            parse("gomoku", &[]).unwrap(),
            "gomoku size=15 rule=freestyle opening=center"
        );
        assert_eq!(
            parse("Gomoku", &[("size", "20"), ("rule", "exact")]).unwrap(),
            "gomoku size=20 rule=exact opening=free"
        );
        assert_eq!(
            parse("gomoku", &[("rule", "Renju")]).unwrap(),
            "gomoku size=15 rule=renju opening=center"
        );
        assert_eq!(parse("pente", &[]).unwrap(), "pente size=19 opening=center");
        assert_eq!(
            parse("pente", &[("opening", "tournament")]).unwrap(),
            "pente size=19 opening=tournament"
        );
        assert_eq!(parse("tictactoe", &[]).unwrap(), "tictactoe size=3 k=3");
        assert_eq!(
            parse("tictactoe", &[("size", "4")]).unwrap(),
            "tictactoe size=4 k=4"
        );
        for (name, options) in [
            ("gomoku", &[("size", "4")][..]),
            ("gomoku", &[("size", "100")]),
            ("gomoku", &[("size", "20"), ("opening", "center")]),
            ("gomoku", &[("opening", "tournament")]),
            ("gomoku", &[("rule", "caro")]),
            ("gomoku", &[("k", "4")]),
            ("pente", &[("rule", "exact")]),
            ("tictactoe", &[("size", "3"), ("k", "4")]),
            ("tictactoe", &[("size", "2")]),
            ("tictactoe", &[("size", "99999999999999999999")]),
            ("pente", &[("size", "5"), ("opening", "tournament")]),
        ] {
            assert!(parse(name, options).is_err(), "{name} {options:?}");
        }
    }

    /// No variant reaches a position where the side to move has no legal move (not even
    /// a pass) while the game goes on: such positions are refused when the variant is.
    #[test]
    fn every_variant_always_has_a_move_or_an_outcome() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut checked = 0;
        for name in ["othello", "gomoku", "pente", "tictactoe"] {
            for size in 3..=9 {
                for (key, value) in [
                    ("opening", "center"),
                    ("opening", "free"),
                    ("opening", "tournament"),
                    ("rule", "exact"),
                    ("rule", "misere"),
                    ("k", "3"),
                ] {
                    let size = size.to_string();
                    let Ok(variant) = Variant::parse(name, [("size", size.as_str()), (key, value)])
                    else {
                        continue;
                    };
                    struct Playouts<'a>(&'a mut rand::rngs::StdRng);
                    impl GameVisitor for Playouts<'_> {
                        type Output = ();
                        fn visit<G: SearchGame>(self, start: G) {
                            let mut moves = Vec::new();
                            for _ in 0..10 {
                                let mut game = start.clone();
                                loop {
                                    game.generate_moves(&mut moves);
                                    if moves.is_empty() {
                                        assert!(game.outcome().is_some(), "{}", game.diagram());
                                        break;
                                    }
                                    game.make(moves[self.0.random_range(0..moves.len())]);
                                }
                            }
                        }
                    }
                    variant.visit(Playouts(&mut rng));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 30, "{checked}");
    }
}
