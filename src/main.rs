use std::io::{self, BufReader};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use arbor::game::variant::{GameVisitor, Variant};
use arbor::players::PlayerKind;
use arbor::protocol::{self, Output, Settings};
use arbor::search::SearchGame;

/// arbor: an engine for Othello and other two-player board games.
///
/// Without a subcommand it speaks the native protocol on stdin/stdout (see protocol.md).
#[derive(Parser)]
#[command(name = "arbor", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
    #[command(flatten)]
    game: GameArgs,
    /// Who answers `go` (as `set player`).
    #[arg(long, default_value = "search")]
    player: PlayerKind,
    /// Seed for repeatable random choices (as `set seed`); default: from the system.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Subcommand)]
enum Commands {
    /// Counts the leaves of the game tree at each depth up to --depth.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// Deepest depth to count.
        #[arg(long, short)]
        depth: u32,
    },
    /// Fits the Othello evaluation weights by least squares and prints them.
    Tune {
        /// normal (labels from WTHOR games) or misere (labels from self-play).
        #[arg(long, default_value = "normal")]
        rule: String,
        /// Directory of WTHOR `<moves> <diff>` files (for --rule normal).
        #[arg(long)]
        wthor: Option<std::path::PathBuf>,
        /// Self-play games to generate (for --rule misere).
        #[arg(long, default_value_t = 3000)]
        selfplay: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solves every position of an OBF file exactly and checks the listed scores.
    Solve {
        /// OBF file: `<64 cells> <side>; MOVE:+score; ...` per line.
        file: std::path::PathBuf,
        /// log2 of the solver's hash table entries (24 bytes each).
        #[arg(long, default_value_t = 22)]
        hash_bits: u32,
    },
}

#[derive(Args)]
struct GameArgs {
    /// The game: othello (alias reversi).
    #[arg(long, default_value = "othello")]
    game: String,
    /// Board size (othello: 4, 6 or 8).
    #[arg(long)]
    size: Option<String>,
    /// Game rule (othello: normal or misere).
    #[arg(long)]
    rule: Option<String>,
}

impl GameArgs {
    fn variant(&self) -> Result<Variant, String> {
        let options = [("size", &self.size), ("rule", &self.rule)];
        let options = options
            .iter()
            .filter_map(|(key, value)| value.as_deref().map(|value| (*key, value)));
        Variant::parse(&self.game, options).map_err(|e| e.to_string())
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match &cli.command {
        None => cli.game.variant().map(|variant| {
            let settings = Settings {
                variant,
                player: cli.player,
                seed: cli.seed,
            };
            protocol::run(
                BufReader::new(io::stdin()),
                Output::new(io::stdout()),
                settings,
            );
        }),
        Some(Commands::Perft { game, depth }) => game
            .variant()
            .map(|variant| variant.visit(PerftReport { depth: *depth })),
        Some(Commands::Solve { file, hash_bits }) => solve(file, *hash_bits),
        Some(Commands::Tune {
            rule,
            wthor,
            selfplay,
            seed,
        }) => rule
            .parse::<arbor::game::othello::Rule>()
            .map_err(|e| e.to_string())
            .and_then(|rule| {
                arbor::cli::tune::tune(rule, wthor.as_deref(), *selfplay, *seed, &mut io::stdout())
                    .map(|_| ())
            }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("arbor: {message}");
            ExitCode::from(2)
        }
    }
}

fn solve(file: &std::path::Path, hash_bits: u32) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let report = arbor::cli::solve::solve_file(&text, hash_bits.clamp(10, 30), &mut io::stdout())?;
    if report.mismatches > 0 {
        return Err(format!(
            "{} scores disagree with {}",
            report.mismatches,
            file.display()
        ));
    }
    Ok(())
}

/// Prints each depth's leaf count, time and speed.
struct PerftReport {
    depth: u32,
}

impl GameVisitor for PerftReport {
    type Output = ();

    fn visit<G: SearchGame>(self, mut game: G) {
        println!(
            "{:>5} {:>14} {:>10} {:>14}",
            "depth", "leaves", "seconds", "leaves/s"
        );
        for depth in 1..=self.depth {
            let start = Instant::now();
            let leaves = game.perft(depth);
            let seconds = start.elapsed().as_secs_f64();
            let rate = if seconds > 0.0 {
                leaves as f64 / seconds
            } else {
                0.0
            };
            println!("{depth:>5} {leaves:>14} {seconds:>10.3} {rate:>14.0}");
        }
    }
}
