//! OBF lines: `<cells> <side>[; MOVE:+score; ...]`, the format of the FFO endgame suite.

use super::{Othello, Rule};
use crate::game::{Game, GameError, Side};
use crate::text::quote;

/// One OBF position with the move scores it lists (best first, as in the suite).
#[derive(Clone, Debug)]
pub struct ObfPosition {
    pub game: Othello,
    pub scores: Vec<(String, i32)>,
}

impl ObfPosition {
    /// The best listed score, if the line has annotations.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, score)| score).max()
    }

    /// Moves that reach the best listed score (lower case).
    pub fn best_moves(&self) -> Vec<String> {
        let best = self.best_score();
        self.scores
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|(name, _)| name.to_ascii_lowercase())
            .collect()
    }
}

/// Parses an OBF line (8x8, normal rule). Blank and `%` comment lines give `Ok(None)`.
pub fn parse_obf_line(line: &str) -> Result<Option<ObfPosition>, GameError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('%') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let head = parts.next().unwrap_or("");
    let mut words = head.split_whitespace();
    let (Some(cells), Some(side), None) = (words.next(), words.next(), words.next()) else {
        return Err(GameError::Obf(format!(
            "OBF: expected '<cells> <side>', got {}",
            quote(head)
        )));
    };
    let side = Side::parse(side)
        .ok_or_else(|| GameError::Obf(format!("OBF: bad side {}", quote(side))))?;
    let mut game = Othello::new(8, Rule::Normal)?;
    game.set_board(cells, side)?;
    let mut scores = Vec::new();
    for part in parts.map(str::trim).filter(|part| !part.is_empty()) {
        let (name, score) = part
            .split_once(':')
            .ok_or_else(|| GameError::Obf(format!("OBF: bad annotation {}", quote(part))))?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| GameError::Obf(format!("OBF: bad score in {}", quote(part))))?;
        scores.push((name.trim().to_string(), score));
    }
    Ok(Some(ObfPosition { game, scores }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ffo_lines() {
        let line = "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X; G2:+6; A4:+0; C6:-2;";
        let position = parse_obf_line(line).unwrap().unwrap();
        assert_eq!(position.best_score(), Some(6));
        assert_eq!(position.best_moves(), ["g2"]);
        assert_eq!(position.game.side_to_move(), Side::Black);
        assert_eq!(position.game.empties().count_ones(), 22);
        assert!(parse_obf_line("% comment").unwrap().is_none());
        assert!(parse_obf_line("---- X").is_err());
        assert!(parse_obf_line(&format!("{} X; G2:x;", "-".repeat(64))).is_err());
    }
}
