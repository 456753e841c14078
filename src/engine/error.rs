//! Why the engine core refused a request. Front ends tell the kinds apart and answer
//! each in their protocol's way (GTP's `?`, the web board's 409 for busy, Gomocup's
//! `ERROR`); the text is for people.

use crate::game::variant::Variant;
use crate::game::{GameError, Side};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A job (named) is running: stop it, or wait for its answer.
    #[error("busy: {0} is running")]
    Busy(&'static str),
    /// The game is over: there is nothing to search.
    #[error("the game is over")]
    GameOver,
    /// The side to move has no legal move to search (a position set up so).
    #[error("{0} has no legal move here")]
    NoLegalMove(Side),
    /// A move that is not legal here; the text names it and says why.
    #[error("{0}")]
    IllegalMove(String),
    /// The rules refused it: text that names no move, a board that is no position.
    #[error("{0}")]
    Rules(#[from] GameError),
    #[error("no move to undo")]
    NothingToUndo,
    /// An option's value outside its range.
    #[error("{0}")]
    OutOfRange(String),
    /// The memory asked for cannot be had; the old tables stay.
    #[error("{0}")]
    Memory(String),
    /// The variant has no solver for this position.
    #[error("no solver for {0} here")]
    NoSolver(Variant),
}

impl EngineError {
    /// The error as the answer to `command`: named by it where the command matters
    /// (`go: the game is over`); a busy engine is busy whatever was asked.
    pub fn for_command(&self, command: &str) -> String {
        match self {
            EngineError::Busy(_) => self.to_string(),
            _ => format!("{command}: {self}"),
        }
    }
}

/// Front ends that answer in text carry the message on.
impl From<EngineError> for String {
    fn from(error: EngineError) -> String {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::engine::{AnalysisOptions, Engine, Settings};
    use crate::search::limits::Limits;

    #[test]
    fn each_refusal_has_its_kind_and_changes_nothing() {
        let (mut engine, _events) = Engine::new(&Settings {
            variant: Variant::parse("tictactoe", []).unwrap(),
            hash_mb: 1,
            ..Settings::default()
        })
        .unwrap();
        assert_eq!(engine.undo(), Err(EngineError::NothingToUndo));
        assert!(matches!(
            engine.play("z9"),
            Err(EngineError::Rules(GameError::Move(_)))
        ));
        assert!(matches!(
            engine.set_threads(0),
            Err(EngineError::OutOfRange(_))
        ));
        // X takes the top row.
        for name in ["a1", "a2", "b1", "b2", "c1"] {
            engine.play(name).unwrap();
        }
        let before = engine.cells();
        assert_eq!(
            engine.go(Limits::default(), Instant::now()),
            Err(EngineError::GameOver)
        );
        assert_eq!(
            engine.hint(Limits::default(), Instant::now()),
            Err(EngineError::GameOver)
        );
        assert!(matches!(
            engine.play("c3"),
            Err(EngineError::IllegalMove(_))
        ));
        assert!(matches!(engine.play_fallback(), Err(EngineError::GameOver)));
        assert_eq!(engine.cells(), before);
        assert_eq!(
            EngineError::GameOver.for_command("go"),
            "go: the game is over"
        );
        // A running analysis makes every other request wait.
        engine.undo().unwrap();
        engine
            .analyze(&AnalysisOptions::default(), Instant::now())
            .unwrap();
        assert_eq!(engine.play("c3"), Err(EngineError::Busy("analyze")));
        assert_eq!(engine.set_hash(2), Err(EngineError::Busy("analyze")));
        assert_eq!(
            EngineError::Busy("analyze").for_command("go"),
            "busy: analyze is running"
        );
        engine.stop();
    }
}
