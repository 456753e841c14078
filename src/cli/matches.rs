//! `arbor match`: its command line, and the match, round robin, `--compliance` check or
//! `merge` it asks for (the grammars of `--engine`, `--tc` and `--sprt` are the harness's,
//! in `harness/spec.rs`).

use std::io;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::game_args::GameArgs;
use crate::bounds;
use crate::harness::campaign::Shard;
use crate::harness::engine::Setup;
use crate::harness::foreign::Proto;
use crate::harness::referee::TimeControl;
use crate::harness::{self, Jsonl, MatchConfig, spec};

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub merge: Option<MatchCommand>,
    /// An engine: `--engine name=NAME cmd="COMMAND ARGS" [proto=native|nboard|gtp|gomocup]
    /// [threads=N] [depth=N]` (two or more; `depth=` is NBoard's maximum depth under a
    /// clock, 60 by default).
    #[arg(long = "engine", num_args = 1.., action = clap::ArgAction::Append, required = true)]
    pub engines: Vec<String>,
    /// Search threads for every native or Gomocup engine without a `threads=` of its own
    /// (sent as `set threads N` / `INFO thread_num N`); default: none sent.
    #[arg(long, value_parser = bounds::threads)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Seconds per side per game, with an optional increment: `300`, `60+1`, `0.5+0.05`.
    #[arg(long, value_parser = spec::parse_clock, conflicts_with_all = ["movetime", "depth", "nodes"])]
    pub tc: Option<TimeControl>,
    /// Fixed milliseconds per move.
    #[arg(long, value_parser = bounds::millis, conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<std::time::Duration>,
    /// Fixed search depth per move.
    #[arg(long, value_parser = bounds::depth, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long, value_parser = bounds::number)]
    pub nodes: Option<u64>,
    /// Openings file: a move sequence (`f5d6c3`) or `<cells> <side>` per line.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random openings of this many plies (seeded by --seed).
    #[arg(long, value_parser = opening_plies, conflicts_with = "openings")]
    pub random_openings: Option<usize>,
    /// How many openings to play (each twice, colours swapped) per pairing; default: all
    /// of the openings file, or one.
    #[arg(long, value_parser = rounds)]
    pub rounds: Option<usize>,
    #[arg(long, default_value_t = 1, value_parser = bounds::number)]
    pub seed: u64,
    /// Games played at the same time (1 is best for timing on two cores).
    #[arg(long, default_value_t = 1, value_parser = concurrency)]
    pub concurrency: usize,
    /// Appends one text line per finished game.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Appends each finished Othello game in GGF.
    #[arg(long)]
    pub ggf: Option<PathBuf>,
    /// Sequential test: `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05` (two engines).
    #[arg(long, num_args = 1..)]
    pub sprt: Option<Vec<String>>,
    /// Plays the I-th of N slices of the game pairs (`--shard 2/4`): N runs together play
    /// every pair once.
    #[arg(long, value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Writes one JSON line per finished game pair to a new file.
    #[arg(long, conflicts_with = "resume")]
    pub jsonl: Option<PathBuf>,
    /// Continues a --jsonl file: its pairs are not played again, new ones are appended.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Checks one engine's protocol (native, nboard, gtp or gomocup) against a script and
    /// reports each deviation, instead of playing a match.
    #[arg(long)]
    pub compliance: bool,
}

#[derive(Subcommand, Debug)]
pub enum MatchCommand {
    /// Tallies the JSON-lines files of one match's runs (shards, resumed runs) and prints
    /// the table one run playing all their pairs prints.
    Merge {
        /// JSON-lines files written by `arbor match --jsonl` or `--resume`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Sequential test over all the pairs: `--sprt elo0=0 elo1=10 alpha=0.05
        /// beta=0.05` (after the files).
        #[arg(long, num_args = 1..)]
        sprt: Option<Vec<String>>,
    },
}

/// Most random plies an opening may have (longer ones stop where the game would end).
const MAX_OPENING_PLIES: u64 = 10_000;
/// Most openings (rounds) a match schedules.
const MAX_ROUNDS: u64 = 1_000_000;
/// Most games played at once.
const MAX_CONCURRENCY: u64 = 256;

fn opening_plies(text: &str) -> Result<usize, String> {
    bounds::number_in(text, 0, MAX_OPENING_PLIES, "").map(|plies| plies as usize)
}

fn rounds(text: &str) -> Result<usize, String> {
    bounds::number_in(text, 1, MAX_ROUNDS, "").map(|rounds| rounds as usize)
}

fn concurrency(text: &str) -> Result<usize, String> {
    bounds::number_in(text, 1, MAX_CONCURRENCY, "").map(|games| games as usize)
}

impl MatchArgs {
    /// Merges, checks compliance or plays the match, writing to stdout. The first Ctrl-C
    /// ends a match with the table of the games played; a second one ends the program.
    pub fn run(&self) -> Result<(), String> {
        if let Some(MatchCommand::Merge { files, sprt }) = &self.merge {
            let sprt = sprt.as_deref().map(spec::parse_sprt).transpose()?;
            return harness::campaign::merge(files, sprt, &mut io::stdout());
        }
        ctrlc::set_handler(|| {
            if !harness::interrupt() {
                std::process::exit(130);
            }
        })
        .map_err(|e| e.to_string())?;
        let engines = spec::parse_engines(&self.engines, self.threads)?;
        // `--opening swap2`: the engines open every Gomoku game on a free board.
        let swap2 = self.swap2()?;
        // Gomocup brains play Gomoku only: without --game, that is the game.
        let gomocup_only = engines.iter().all(|engine| engine.proto == Proto::Gomocup);
        let name = match &self.game.game {
            None if gomocup_only => "gomoku",
            _ => self.game.name(),
        };
        let mut game = self.game.clone();
        if swap2 {
            if !name.eq_ignore_ascii_case("gomoku") {
                return Err(format!(
                    "--opening swap2 is a Gomoku opening, not one of {name}"
                ));
            }
            game.opening = Some("free".into());
        }
        let variant = game.variant_of(name)?;
        if self.compliance {
            let [engine] = engines.as_slice() else {
                return Err("--compliance checks one engine: give one --engine".into());
            };
            return match harness::compliance::run(engine, variant, &mut io::stdout())? {
                0 => Ok(()),
                1 => Err("1 deviation from the protocol".into()),
                n => Err(format!("{n} deviations from the protocol")),
            };
        }
        let config = MatchConfig {
            engines,
            variant,
            control: self.control(),
            openings: self.openings(variant, swap2)?,
            swap2,
            concurrency: self.concurrency,
            records: self.records.clone(),
            ggf: self.ggf.clone(),
            sprt: self.sprt.as_deref().map(spec::parse_sprt).transpose()?,
            shard: self.shard.unwrap_or(Shard::WHOLE),
            jsonl: match (&self.jsonl, &self.resume) {
                (Some(path), _) => Some(Jsonl::Create(path.clone())),
                (None, Some(path)) => Some(Jsonl::Resume(path.clone())),
                (None, None) => None,
            },
        };
        harness::run_match(&config, &mut io::stdout()).map(|_| ())
    }

    /// Whether `--opening swap2` asks for Swap2 openings (which no openings file or
    /// random openings go with).
    fn swap2(&self) -> Result<bool, String> {
        let swap2 = self
            .game
            .opening
            .as_deref()
            .is_some_and(|opening| opening.eq_ignore_ascii_case("swap2"));
        if swap2 && (self.openings.is_some() || self.random_openings.is_some()) {
            return Err(
                "--opening swap2: the engines open every game, so --openings and --random-openings do not apply"
                    .into(),
            );
        }
        Ok(swap2)
    }

    /// The one of `--tc`, `--movetime`, `--depth` and `--nodes` given (clap refuses more
    /// than one), or a minute per side.
    fn control(&self) -> TimeControl {
        let per_move = self
            .movetime
            .map(TimeControl::MoveTime)
            .or(self.depth.map(TimeControl::Depth))
            .or(self.nodes.map(TimeControl::Nodes));
        self.tc.or(per_move).unwrap_or(spec::DEFAULT_CONTROL)
    }

    /// `--rounds` openings from `--openings` (repeated as needed) or random ones, or the
    /// starting position (always under Swap2).
    fn openings(
        &self,
        variant: crate::game::variant::Variant,
        swap2: bool,
    ) -> Result<Vec<Setup>, String> {
        let openings = match (&self.openings, self.random_openings) {
            _ if swap2 => vec![Setup::Moves(Vec::new())],
            (Some(path), _) => {
                let text = crate::files::read_text(path)?;
                harness::read_openings(&text, variant)
                    .map_err(|e| format!("{}:{e}", path.display()))?
            }
            (None, Some(plies)) => {
                harness::random_openings(variant, self.rounds.unwrap_or(1), plies, self.seed)
            }
            (None, None) => vec![Setup::Moves(Vec::new())],
        };
        if openings.is_empty() {
            return Err("no openings".into());
        }
        let rounds = self.rounds.unwrap_or(openings.len()).max(1);
        Ok((0..rounds)
            .map(|i| openings[i % openings.len()].clone())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn parse(extra: &[&str]) -> Result<MatchArgs, clap::Error> {
        let two = ["--engine", "name=a", "cmd=x", "--engine", "name=b", "cmd=y"];
        let args: Vec<&str> = two.iter().chain(extra).copied().collect();
        crate::cli::parse_args(&args)
    }

    #[test]
    fn one_time_control_at_most() {
        assert_eq!(parse(&[]).unwrap().control(), spec::DEFAULT_CONTROL);
        assert_eq!(
            parse(&["--movetime", "300"]).unwrap().control(),
            TimeControl::MoveTime(Duration::from_millis(300))
        );
        assert_eq!(
            parse(&["--depth", "3"]).unwrap().control(),
            TimeControl::Depth(3)
        );
        assert_eq!(
            parse(&["--nodes", "9"]).unwrap().control(),
            TimeControl::Nodes(9)
        );
        assert_eq!(
            parse(&["--tc", "2+0.5"]).unwrap().control(),
            TimeControl::Clock {
                base: Duration::from_secs(2),
                inc: Duration::from_millis(500)
            }
        );
        for pair in [
            ["--tc", "1", "--movetime", "5"],
            ["--tc", "1", "--depth", "5"],
            ["--tc", "1", "--nodes", "5"],
            ["--movetime", "1", "--depth", "5"],
            ["--movetime", "1", "--nodes", "5"],
            ["--depth", "1", "--nodes", "5"],
        ] {
            let error = parse(&pair).unwrap_err();
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{pair:?}"
            );
        }
        let error = parse(&["--tc", "0"]).unwrap_err().to_string();
        assert!(error.contains("more than 0 seconds"), "{error}");
    }

    #[test]
    fn exclusive_sources_are_refused_by_the_parser() {
        for extra in [
            &["--openings", "f", "--random-openings", "2"][..],
            &["--jsonl", "a", "--resume", "b"],
        ] {
            let error = parse(extra).unwrap_err();
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{extra:?}"
            );
        }
        assert!(parse(&["--random-openings", "10001"]).is_err());
        assert!(parse(&["--rounds", "0"]).is_err());
        assert!(parse(&["--concurrency", "257"]).is_err());
    }

    #[test]
    fn openings_repeat_to_the_rounds() {
        let variant = GameArgs::default().variant().unwrap();
        let start = parse(&[]).unwrap().openings(variant, false).unwrap();
        assert_eq!(start, [Setup::Moves(Vec::new())]);
        let random = parse(&["--random-openings", "2", "--rounds", "3", "--seed", "5"])
            .unwrap()
            .openings(variant, false)
            .unwrap();
        assert_eq!(random.len(), 3);
        assert!(
            random
                .iter()
                .all(|s| matches!(s, Setup::Moves(m) if m.len() == 2))
        );
        let missing = parse(&["--openings", "/nonexistent/arbor-openings"]).unwrap();
        assert!(missing.openings(variant, false).is_err());
    }

    #[test]
    fn merge_takes_files_instead_of_engines() {
        let args: MatchArgs =
            crate::cli::parse_args(&["merge", "a.jsonl", "--sprt", "elo1=5"]).unwrap();
        assert!(matches!(
            args.merge,
            Some(MatchCommand::Merge { ref files, ref sprt })
                if files.len() == 1 && sprt.as_deref() == Some(&["elo1=5".to_string()][..])
        ));
    }
}
