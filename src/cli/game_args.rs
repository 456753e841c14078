//! `--game`, `--size`, `--rule`, `--opening` and `--k`: the game options every subcommand
//! that plays or reads a game shares.

use clap::Args;

use crate::game::variant::Variant;
use crate::protocol::gtp::GameSpec;

#[derive(Args, Clone, Debug, Default)]
pub struct GameArgs {
    /// The game: othello (the default; alias reversi), gomoku (the default of `arbor
    /// match` when every engine is `proto=gomocup`), pente or tictactoe.
    #[arg(long)]
    pub game: Option<String>,
    /// Board size (othello: 4, 6 or 8; gomoku and pente: 5 to 99; tictactoe: 3 to 99).
    #[arg(long)]
    pub size: Option<String>,
    /// Game rule (othello: normal or misere; gomoku: freestyle, exact or renju).
    #[arg(long)]
    pub rule: Option<String>,
    /// Opening rule (gomoku: center or free; pente: center, tournament or free); `arbor
    /// match` also takes swap2 (Gomoku: the engines open each game by Swap2, on a free
    /// board).
    #[arg(long)]
    pub opening: Option<String>,
    /// Stones in a row that win (tictactoe).
    #[arg(long)]
    pub k: Option<String>,
}

impl GameArgs {
    /// The options given, by the names `Variant::parse` and GTP's `boardsize` read.
    fn options(&self) -> impl Iterator<Item = (&str, &str)> {
        [
            ("size", &self.size),
            ("rule", &self.rule),
            ("opening", &self.opening),
            ("k", &self.k),
        ]
        .into_iter()
        .filter_map(|(key, value)| value.as_deref().map(|value| (key, value)))
    }

    /// The game's name and the options given, as GTP's `boardsize` re-reads them.
    pub fn spec(&self) -> GameSpec {
        GameSpec {
            name: self.name().to_string(),
            options: self
                .options()
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect(),
        }
    }

    pub fn variant(&self) -> Result<Variant, String> {
        self.variant_of(self.name())
    }

    /// The variant of `game` with the options given.
    pub fn variant_of(&self, game: &str) -> Result<Variant, String> {
        Variant::parse(game, self.options()).map_err(|e| e.to_string())
    }

    pub fn name(&self) -> &str {
        self.game.as_deref().unwrap_or("othello")
    }

    /// The variant when any of the options was given (for records naming their own).
    pub fn given(&self) -> Result<Option<Variant>, String> {
        let any = self.game.is_some() || self.options().next().is_some();
        any.then(|| self.variant()).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> GameArgs {
        crate::cli::parse_args(args).unwrap()
    }

    #[test]
    fn options_name_the_variant() {
        let othello = |options: &[(&str, &str)]| Variant::parse("othello", options.iter().copied());
        assert_eq!(parse(&[]).variant(), Ok(othello(&[]).unwrap()));
        assert_eq!(parse(&[]).given(), Ok(None));
        let six = parse(&["--size", "6", "--rule", "misere"]);
        let expected = othello(&[("size", "6"), ("rule", "misere")]).unwrap();
        assert_eq!(six.variant(), Ok(expected));
        assert_eq!(six.given(), Ok(Some(expected)));
        assert_eq!(
            parse(&["--size", "15"]).variant_of("gomoku"),
            parse(&["--game", "gomoku", "--size", "15"]).variant()
        );
        let spec = parse(&["--game", "tictactoe", "--k", "4"]).spec();
        assert_eq!(spec.name, "tictactoe");
        assert_eq!(spec.options, [("k".to_string(), "4".to_string())]);
    }

    #[test]
    fn bad_options_are_the_variant_s_errors() {
        for args in [
            &["--game", "chess"][..],
            &["--size", "7"],
            &["--game", "gomoku", "--size", "100"],
            &["--rule", "x".repeat(10_000).leak()],
        ] {
            assert!(parse(args).variant().is_err(), "{args:?}");
        }
    }
}
