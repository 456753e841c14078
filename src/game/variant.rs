//! Naming a game and its options (`othello size=6 rule=misere`), and reaching the typed
//! game behind a name without the caller knowing every game type.

use std::fmt;

use super::GameError;
use super::notation::shorten;
use super::othello::{self, Othello, Rule};
use crate::search::SearchGame;

/// A game with its options, as `newgame` and `--game` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Othello { size: usize, rule: Rule },
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
    pub const GAMES: &'static str = "othello (alias reversi)";

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
                                    GameError(format!(
                                        "othello size must be 4, 6 or 8, not '{}'",
                                        shorten(value)
                                    ))
                                })?;
                        }
                        "rule" => rule = value.parse()?,
                        _ => {
                            return Err(GameError(format!(
                                "unknown othello option '{}': expected size or rule",
                                shorten(key)
                            )));
                        }
                    }
                }
                Ok(Variant::Othello { size, rule })
            }
            _ => Err(GameError(format!(
                "unknown game '{}': expected {}",
                shorten(name),
                Variant::GAMES
            ))),
        }
    }

    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        match *self {
            Variant::Othello { size, rule } => {
                visitor.visit(Othello::new(size, rule).expect("variant sizes are checked"))
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
        }
    }
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
    }
}
