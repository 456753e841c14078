//! `--weights` and `--misere-weights`: the 8x8 Othello evaluation a front end plays with,
//! when not the shipped one (a file `arbor train --out` wrote).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::game::othello::Rule;
use crate::game::othello::pattern;

#[derive(Args, Clone, Debug, Default)]
pub struct WeightsArgs {
    /// 8x8 Othello weights file (from `arbor train --out`) to evaluate the normal rule
    /// with, instead of the shipped weights.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// The same for the misère rule.
    #[arg(long, value_name = "FILE")]
    pub misere_weights: Option<PathBuf>,
}

impl WeightsArgs {
    /// Loads the files given, before anything evaluates; an error names the file.
    pub fn load(&self) -> Result<(), String> {
        if let Some(path) = &self.weights {
            load_file(Rule::Normal, path)?;
        }
        if let Some(path) = &self.misere_weights {
            load_file(Rule::Misere, path)?;
        }
        Ok(())
    }
}

/// Makes the engine evaluate `rule` with the weights file at `path` for the rest of the
/// process.
pub fn load_file(rule: Rule, path: &Path) -> Result<(), String> {
    std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| pattern::load_weights(rule, &bytes))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::parse_args;

    #[test]
    fn a_file_that_is_not_weights_is_refused_by_name() {
        let path = std::env::temp_dir().join(format!("arbor-not-weights-{}", std::process::id()));
        std::fs::write(&path, b"ARBORPW2 but not weights").unwrap();
        let args: WeightsArgs = parse_args(&["--misere-weights", path.to_str().unwrap()]).unwrap();
        let error = args.load().unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(error.starts_with(path.to_str().unwrap()), "{error}");
        let missing: WeightsArgs = parse_args(&["--weights", "/nonexistent/w.bin"]).unwrap();
        assert!(
            missing
                .load()
                .unwrap_err()
                .starts_with("/nonexistent/w.bin: ")
        );
    }
}
