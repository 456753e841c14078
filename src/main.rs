use std::io::{self, BufReader, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use arbor::bounds;
use arbor::cli::game_args::GameArgs;
use arbor::cli::matches::MatchArgs;
use arbor::cli::weights_args::WeightsArgs;
use arbor::engine::output::stdout_error;
use arbor::engine::{DEFAULT_HASH_MB, Settings};
use arbor::harness::campaign::Shard;
use arbor::players::PlayerKind;
use arbor::protocol;
use arbor::search::time::DEFAULT_MOVE_OVERHEAD;

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
    #[arg(long, value_parser = bounds::number)]
    seed: Option<u64>,
    /// Memory for all of the engine's tables in MiB (as `set hash`).
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Search threads, 1 to 256 (as `set threads`); 1 by default, so that engines
    /// sharing a machine (arenas, `arbor match --concurrency`) do not compete for cores.
    #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
    threads: usize,
    /// With several threads, moves of a node the exact solver searches alone before it
    /// shares out the rest, 1 to 32 (Jamboree search, as `set jamboree`; 1 is young
    /// brothers wait).
    #[arg(long, default_value_t = 1, value_parser = bounds::jamboree)]
    jamboree: usize,
    /// Milliseconds kept back from every move for pipes and scheduling (as `set
    /// overhead`).
    #[arg(long, default_value_t = DEFAULT_MOVE_OVERHEAD.as_millis() as u64, value_parser = overhead_ms)]
    overhead: u64,
    /// Whether `go` plays from the Othello opening book, on or off (as `set book`).
    #[arg(long, default_value = "on", value_parser = bounds::switch, action = clap::ArgAction::Set)]
    book: bool,
    /// Book moves within this many discs of the book's best are chosen among at random
    /// (as `set book_spread`); 0 plays a best one.
    #[arg(long, default_value_t = 0, value_parser = bounds::book_spread)]
    book_spread: u32,
    #[command(flatten)]
    weights: WeightsArgs,
}

#[derive(Subcommand)]
enum Commands {
    /// Searches fixed positions of every game to fixed depths and prints nodes, speed and
    /// the node-count signature.
    Bench,
    /// Counts the leaves of the game tree at each depth up to --depth.
    Perft(PerftArgs),
    /// Plays engines against each other (two: a match; more: a round robin), as referee
    /// and clock, and prints results, Elo and SPRT; `arbor match merge` tallies the
    /// JSON-lines files of sharded runs.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Match(Box<MatchArgs>),
    /// Play against the engine (or another person) at the terminal.
    Play(arbor::cli::play::PlayArgs),
    /// Builds or checks the Othello opening book.
    #[command(subcommand)]
    Book(BookCommand),
    /// Measures Multi-ProbCut's prediction errors on WTHOR or self-play positions and
    /// prints the rule's table of src/game/othello/probcut.rs.
    Probcut(arbor::cli::probcut::ProbcutArgs),
    /// Fits the Othello evaluation weights by least squares, or with `--game gomoku` the
    /// Gomoku ones to self-play results, and prints them.
    Tune(arbor::cli::tune::TuneArgs),
    /// Trains the Othello pattern evaluation on WTHOR games, self-play games or both, and
    /// writes its weights file.
    Train(arbor::cli::train::TrainArgs),
    /// Runs the threat solver on Gomoku forced-win puzzles and counts those solved.
    Puzzles(PuzzlesArgs),
    /// Plays arbor against itself at Gomoku from random openings at a fixed node budget
    /// and writes every position with its search's move and score and the game's result
    /// (Rapfi's text format); sharded and resumable.
    Selfplay(arbor::cli::selfplay::SelfplayArgs),
    /// Speaks the Gomocup (Piskvork) brain protocol on stdin/stdout: freestyle or
    /// exact-five gomoku for tournament managers (see protocol.md).
    Gomocup(GomocupArgs),
    /// Speaks the NBoard protocol (version 2) on stdin/stdout: 8x8 Othello for the NBoard
    /// GUI (see protocol.md).
    Nboard(NboardArgs),
    /// A batch analysis engine: one JSON query per line on stdin (game, position, moves,
    /// turns, lines, limits), one JSON answer per analysed turn on stdout (see
    /// protocol.md).
    Analysis(AnalysisArgs),
    /// Reviews a game: every move's score against the best move's, the mistakes, and an
    /// SVG graph of the evaluation (GGF, an `arbor match --records` line, or a move list).
    Review(ReviewArgs),
    /// Serves a board in the browser (play and analyse any game) and its JSON API (see
    /// protocol.md).
    Serve(ServeArgs),
    /// Speaks the Go Text Protocol (version 2) on stdin/stdout, with GoGui's rules
    /// commands: any game for GTP GUIs such as GoGui and Quarry (see protocol.md).
    Gtp(GtpArgs),
    /// Solves every position of an OBF file exactly and checks the listed scores; with
    /// --jsonl, solves tasks read from stdin and writes one JSON result per line;
    /// `arbor solve split|merge|campaign` split positions into tasks and merge them back.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Solve(SolveArgs),
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Deepest depth to count.
    #[arg(long, short, value_parser = bounds::perft_depth)]
    depth: u32,
}

#[derive(Args)]
struct PuzzlesArgs {
    /// Puzzle file: `<size> <side> B:<cells> W:<cells> ; <first> ; <line> ; <tags>`.
    file: std::path::PathBuf,
    /// Time limit per puzzle in milliseconds.
    #[arg(long, default_value = "1000", value_parser = bounds::millis)]
    movetime: std::time::Duration,
    /// Node limit per puzzle as well (repeatable counts whatever the machine's load).
    #[arg(long, value_parser = bounds::number)]
    nodes: Option<u64>,
    /// Also checks each solved puzzle's first move against every reply (slow).
    #[arg(long, conflicts_with = "search")]
    verify: bool,
    /// Plays each puzzle as the engine's move within --movetime instead (the root's
    /// threat search, then the alpha-beta) and counts those where it reports a win.
    #[arg(long)]
    search: bool,
}

#[derive(Args)]
struct GomocupArgs {
    /// Milliseconds kept back from every move for the manager's pipes and timing.
    #[arg(long, default_value_t = GOMOCUP_OVERHEAD_MS, value_parser = overhead_ms)]
    overhead: u64,
    /// Search threads, 1 to 256, until the manager sends `INFO thread_num`.
    #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
    threads: usize,
}

#[derive(Args)]
struct NboardArgs {
    /// Memory for all tables, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Search threads, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
    threads: usize,
    /// Whether the engine plays from the Othello opening book, on or off.
    #[arg(long, default_value = "on", value_parser = bounds::switch, action = clap::ArgAction::Set)]
    book: bool,
    #[command(flatten)]
    weights: WeightsArgs,
}

#[derive(Args)]
struct AnalysisArgs {
    /// Memory for all tables, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Search threads, 1 to 256; default: the machine's cores.
    #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
    threads: usize,
    #[command(flatten)]
    weights: WeightsArgs,
}

#[derive(Args)]
struct ReviewArgs {
    /// The game record.
    file: std::path::PathBuf,
    /// The game, for text records and move lists (GGF is 8x8 Othello).
    #[command(flatten)]
    game: GameArgs,
    /// Milliseconds per analysis (each position once, twice when another move was
    /// played).
    #[arg(long, default_value_t = arbor::cli::review::DEFAULT_TIME.as_millis() as u64, value_parser = bounds::analysis_millis)]
    movetime: u64,
    /// A fixed search depth instead of the time (no exact solves).
    #[arg(long, value_parser = bounds::depth)]
    depth: Option<u32>,
    /// Where the SVG graph goes; default: FILE with the extension .svg.
    #[arg(long)]
    svg: Option<std::path::PathBuf>,
    /// Memory for all tables, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Search threads, 1 to 256; default: the machine's cores.
    #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
    threads: usize,
    #[command(flatten)]
    weights: WeightsArgs,
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Boards open at once, at most: 1 to 128.
    #[arg(long, default_value_t = 16, value_parser = bounds::max_sessions)]
    max_sessions: usize,
    /// Memory for each board's engine tables, MiB.
    #[arg(long, default_value_t = arbor::web::server::SESSION_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Seconds a board may go unused (and unwatched) before it is closed: 10 to 86400.
    #[arg(long, default_value = "600", value_parser = bounds::idle_seconds)]
    idle: std::time::Duration,
    /// Whether the engines play from the Othello opening book, on or off.
    #[arg(long, default_value = "on", value_parser = bounds::switch, action = clap::ArgAction::Set)]
    book: bool,
    #[command(flatten)]
    weights: WeightsArgs,
}

#[derive(Args)]
struct GtpArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Memory for all tables, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Seed for repeatable random choices; default: from the system.
    #[arg(long, value_parser = bounds::number)]
    seed: Option<u64>,
    /// Search threads, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
    threads: usize,
    /// Whether the engine plays from the Othello opening book, on or off.
    #[arg(long, default_value = "on", value_parser = bounds::switch, action = clap::ArgAction::Set)]
    book: bool,
    #[command(flatten)]
    weights: WeightsArgs,
}

#[derive(Args)]
struct SplitArgs {
    /// OBF file of the positions to split.
    file: std::path::PathBuf,
    /// Plies from each position to its tasks (1 to 6).
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// The root window ALPHA,BETA (final margins, side to move); default: centred on a
    /// search's estimate.
    #[arg(long, value_parser = arbor::cli::campaign::parse_window)]
    window: Option<(i32, i32)>,
    /// Discs on either side of the estimate inside the default window.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(i32).range(0..=64))]
    width: i32,
    /// Depth of the search that estimates each position's score.
    #[arg(long, default_value_t = 10, value_parser = bounds::fixed_depth)]
    estimate_depth: u32,
}

#[derive(Subcommand)]
enum SolveCommand {
    /// Splits each position of an OBF file into tasks a few plies down, each an exact
    /// solve within a window, for `arbor solve --jsonl`: prints the round-1 task file.
    Split {
        #[command(flatten)]
        split: SplitArgs,
        /// Memory for the estimating search, MiB.
        #[arg(long, default_value_t = 64, value_parser = bounds::hash_mb)]
        hash: usize,
    },
    /// Merges task results into each root's exact score and best move; writes the next
    /// round's tasks (a failed window, or a node that did not cut off) to --next.
    Merge {
        /// The task file of the round (from `split` or a merge's --next).
        tasks: std::path::PathBuf,
        /// Result files of `arbor solve --jsonl` (every round's may be given).
        #[arg(required = true)]
        results: Vec<std::path::PathBuf>,
        /// Where to write the next round's tasks, if any root needs more.
        #[arg(long)]
        next: Option<std::path::PathBuf>,
    },
    /// Splits, solves and merges round after round on this machine, in DIR (running it
    /// again resumes).
    Campaign {
        #[command(flatten)]
        split: SplitArgs,
        /// Directory for the round files and results.jsonl.
        #[arg(long)]
        dir: std::path::PathBuf,
        /// Memory for the solver, MiB.
        #[arg(long, default_value_t = 640, value_parser = bounds::hash_mb)]
        hash: usize,
        /// Solver threads; default: the machine's cores.
        #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
        threads: usize,
        /// Moves of a node searched alone before a split (Jamboree).
        #[arg(long, default_value_t = 1, value_parser = bounds::jamboree)]
        jamboree: usize,
    },
}

#[derive(Args)]
struct SolveArgs {
    #[command(subcommand)]
    command: Option<SolveCommand>,
    /// OBF file: `<64 cells> <side>; MOVE:+score; ...` per line.
    #[arg(required_unless_present = "jsonl", conflicts_with = "jsonl")]
    file: Option<std::path::PathBuf>,
    /// Reads tasks from stdin (OBF lines, or JSON objects with a position, an
    /// optional alpha/beta window and a depth or "exact") and writes a JSON result or
    /// error per task.
    #[arg(long)]
    jsonl: bool,
    /// With --jsonl: appends the results to FILE instead of stdout, skipping the tasks
    /// it already answers (a missing FILE is created).
    #[arg(long, requires = "jsonl")]
    resume: Option<std::path::PathBuf>,
    /// With --jsonl: takes only task line N with (N - 1) mod COUNT = I - 1.
    #[arg(long, requires = "jsonl", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Memory for the engine's tables, MiB (the solver gets three quarters; emptied
    /// before each position).
    #[arg(long, default_value_t = 640, value_parser = bounds::hash_mb)]
    hash: usize,
    /// Solver threads, 1 to 256; default: the machine's cores.
    #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
    threads: usize,
    /// With several threads, moves of a node searched alone before the rest are shared
    /// out, 1 to 32 (Jamboree search; 1 is young brothers wait).
    #[arg(long, default_value_t = 1, value_parser = bounds::jamboree)]
    jamboree: usize,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Builds a book: the positions of WTHOR games seen often enough (`--wthor`), or
    /// those the engine's own moves within `--window` discs of the best reach from the
    /// start (`--expand N`, either rule); their moves that leave the book searched, the
    /// scores negamaxed (the shipped books are src/game/othello/book/normal8.book and
    /// misere8.book).
    #[command(group(clap::ArgGroup::new("source").required(true).args(["wthor", "expand"])))]
    Build {
        /// Directory of WTHOR `<moves> <diff>` files (normal rule).
        #[arg(long)]
        wthor: Option<std::path::PathBuf>,
        /// Grow the book from the start to this many positions instead.
        #[arg(long, value_parser = bounds::book_positions)]
        expand: Option<usize>,
        /// With --expand: moves within this many discs of a position's best lead on
        /// (default 2).
        #[arg(long, conflicts_with = "wthor", value_parser = bounds::book_spread)]
        window: Option<u32>,
        /// normal or misere: the rule the book is for.
        #[arg(long, default_value = "normal", value_parser = arbor::cli::train::parse_rule)]
        rule: arbor::game::othello::Rule,
        /// Book file to write; default: the shipped book of the rule.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Positions up to this many moves from the start (1 to 60).
        #[arg(long, default_value_t = 20, value_parser = bounds::game_plies)]
        plies: usize,
        /// With --wthor: positions seen in at least this many games.
        #[arg(long, conflicts_with = "expand", default_value_t = 20, value_parser = bounds::min_games)]
        min_games: u32,
        /// Search depth of the moves scored (1 to 60).
        #[arg(long, default_value_t = 16, value_parser = bounds::fixed_depth)]
        depth: u32,
        /// Search threads (one position each).
        #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
        threads: usize,
    },
    /// Reads and checks a book file and prints what it holds.
    Check {
        /// The book file; default: the book compiled into this program.
        file: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // Gomocup managers run brains named pbrain-*: under such a name arbor is a brain.
    if invoked_as_brain() {
        banner("arbor (as a Gomocup brain): reading Gomocup commands: START 15, BEGIN, END");
        arbor::engine::output::watch_stdout();
        return exit(gomocup(GOMOCUP_OVERHEAD_MS, 1));
    }
    let cli = Cli::parse();
    // A server's address line may be read once and its pipe closed: it serves on.
    if !matches!(cli.command, Some(Commands::Serve(_))) {
        arbor::engine::output::watch_stdout();
    }
    exit(match cli.command {
        None => cli.native(),
        Some(command) => command.run(),
    })
}

impl Cli {
    /// The native protocol on stdin/stdout.
    fn native(&self) -> Result<(), String> {
        self.weights.load()?;
        let settings = Settings {
            variant: self.game.variant()?,
            player: self.player,
            seed: self.seed,
            hash_mb: self.hash,
            threads: self.threads,
            jamboree: self.jamboree,
            move_overhead: Duration::from_millis(self.overhead),
            book: self.book,
            book_spread: self.book_spread,
        };
        banner(concat!(
            "arbor ",
            env!("CARGO_PKG_VERSION"),
            ": reading protocol commands (see protocol.md): try `help`, `go`, `quit`. \
             To play a game yourself: arbor play"
        ));
        protocol::run(BufReader::new(io::stdin()), io::stdout(), settings).map_err(stdout_error)
    }
}

impl Commands {
    fn run(self) -> Result<(), String> {
        match self {
            Commands::Bench => arbor::cli::bench::run(&mut io::stdout()).map(|_| ()),
            Commands::Perft(args) => args.run(),
            Commands::Match(args) => args.run(),
            Commands::Play(args) => args.run(),
            Commands::Book(command) => command.run(),
            Commands::Probcut(args) => args.run(),
            Commands::Tune(args) => args.run(),
            Commands::Train(args) => args.run(),
            Commands::Puzzles(args) => args.run(),
            Commands::Selfplay(args) => args.run(),
            Commands::Gomocup(args) => {
                banner(
                    "arbor gomocup: reading Gomocup commands (see protocol.md): START 15, BEGIN, END",
                );
                gomocup(args.overhead, args.threads)
            }
            Commands::Nboard(args) => args.run(),
            Commands::Analysis(args) => args.run(),
            Commands::Review(args) => args.run(),
            Commands::Serve(args) => args.run(),
            Commands::Gtp(args) => args.run(),
            Commands::Solve(args) => args.run(),
        }
    }
}

impl PerftArgs {
    fn run(self) -> Result<(), String> {
        let variant = self.game.variant()?;
        arbor::cli::perft::run(variant, self.depth, &mut io::stdout()).map_err(stdout_error)
    }
}

impl BookCommand {
    fn run(self) -> Result<(), String> {
        let out = &mut io::stdout();
        match self {
            BookCommand::Build {
                wthor,
                expand,
                window,
                rule,
                out: path,
                plies,
                min_games,
                depth,
                threads,
            } => {
                use arbor::cli::book::{BuildOptions, Source, shipped_path};
                let options = BuildOptions {
                    plies,
                    min_games,
                    depth,
                    threads,
                    hash_mb: 16,
                    rule,
                };
                let source = match (&wthor, expand) {
                    (Some(wthor), _) => Source::Wthor(wthor),
                    (None, Some(limit)) => Source::Expand {
                        limit,
                        window: window.unwrap_or(2) as i32 * arbor::game::othello::search::DISC,
                    },
                    (None, None) => unreachable!("clap requires --wthor or --expand"),
                };
                let path = path.unwrap_or_else(|| shipped_path(rule).into());
                arbor::cli::book::build(&source, &options, &path, out)
            }
            BookCommand::Check { file } => arbor::cli::book::check(file.as_deref(), out),
        }
    }
}

impl PuzzlesArgs {
    fn run(self) -> Result<(), String> {
        use arbor::cli::puzzles::{Check, PuzzleLimit};
        let limit = PuzzleLimit {
            time: self.movetime,
            nodes: self.nodes,
        };
        let check = match self.search {
            true => Check::Search,
            false => Check::Solver {
                verify: self.verify,
            },
        };
        arbor::cli::puzzles::run_path(&self.file, limit, check)
    }
}

impl NboardArgs {
    fn run(self) -> Result<(), String> {
        self.weights.load()?;
        banner("arbor nboard: reading NBoard commands (see protocol.md): nboard 2, go, hint 1");
        let settings = Settings {
            hash_mb: self.hash,
            threads: self.threads,
            book: self.book,
            ..Settings::default()
        };
        protocol::nboard::run(BufReader::new(io::stdin()), io::stdout(), settings)
            .map_err(stdout_error)
    }
}

impl AnalysisArgs {
    fn run(self) -> Result<(), String> {
        self.weights.load()?;
        banner(
            "arbor analysis: reading JSON queries, one per line (see protocol.md): {\"id\":1,\"moves\":[\"f5\"]}",
        );
        let (input, out) = (&mut io::stdin().lock(), &mut io::stdout());
        arbor::cli::analysis::run(input, out, self.hash, self.threads).map(|_| ())
    }
}

impl ReviewArgs {
    fn run(self) -> Result<(), String> {
        self.weights.load()?;
        let movetime = Duration::from_millis(self.movetime);
        let (depth, svg) = (self.depth, self.svg.as_deref());
        let (hash, threads) = (self.hash, self.threads);
        arbor::cli::review::run(&self.file, &self.game, movetime, depth, svg, hash, threads)
    }
}

impl ServeArgs {
    fn run(self) -> Result<(), String> {
        self.weights.load()?;
        let config = arbor::web::Config {
            bind: self.bind,
            port: self.port,
            max_sessions: self.max_sessions,
            hash_mb: self.hash,
            idle: self.idle,
            book: self.book,
        };
        arbor::web::serve(config, |address| {
            // Tests and scripts read the address (port 0 picks one) from this line.
            let mut out = io::stdout();
            writeln!(out, "arbor serve: listening on http://{address}/")
                .and_then(|()| out.flush())
                .map_err(stdout_error)
        })
    }
}

impl GtpArgs {
    fn run(self) -> Result<(), String> {
        self.weights.load()?;
        banner("arbor gtp: reading GTP commands (see protocol.md): list_commands, genmove b");
        let settings = Settings {
            hash_mb: self.hash,
            seed: self.seed,
            threads: self.threads,
            book: self.book,
            ..Settings::default()
        };
        let game = self.game.spec();
        protocol::gtp::run(BufReader::new(io::stdin()), io::stdout(), settings, game)
    }
}

impl SplitArgs {
    fn options(&self, hash_mb: usize) -> arbor::cli::campaign::SplitOptions {
        arbor::cli::campaign::SplitOptions {
            depth: self.depth,
            window: self.window,
            width: self.width,
            estimate_depth: self.estimate_depth,
            hash_mb: hash_mb.min(256),
        }
    }
}

impl SolveCommand {
    fn run(self) -> Result<(), String> {
        use arbor::cli::campaign;
        match self {
            SolveCommand::Split { split, hash } => {
                let out = &mut io::stdout().lock();
                campaign::split(&split.file, &split.options(hash), out, &mut io::stderr())
            }
            SolveCommand::Merge {
                tasks,
                results,
                next,
            } => {
                let report = campaign::merge(&tasks, &results, next.as_deref(), &mut io::stdout())?;
                match report.mismatches {
                    0 => Ok(()),
                    n => Err(format!("{n} exact scores disagree with the scores listed")),
                }
            }
            SolveCommand::Campaign {
                split,
                dir,
                hash,
                threads,
                jamboree,
            } => {
                let options = arbor::cli::tasks::Options {
                    jamboree,
                    ..arbor::cli::tasks::Options::new(hash, threads)
                };
                let out = &mut io::stdout();
                let report = campaign::run(&split.file, &dir, &split.options(hash), &options, out)?;
                match report.mismatches {
                    0 => Ok(()),
                    n => Err(format!("{n} exact scores disagree with the scores listed")),
                }
            }
        }
    }
}

impl SolveArgs {
    fn run(self) -> Result<(), String> {
        if let Some(command) = self.command {
            return command.run();
        }
        match self.file {
            // clap refuses a file with --jsonl.
            Some(file) => {
                arbor::cli::solve::run_path(&file, self.hash, self.threads, self.jamboree)
            }
            None => {
                let input = &mut io::stdin().lock();
                let mut options = arbor::cli::tasks::Options {
                    jamboree: self.jamboree,
                    shard: self.shard.unwrap_or(Shard::WHOLE),
                    ..arbor::cli::tasks::Options::new(self.hash, self.threads)
                };
                let Some(path) = self.resume else {
                    return arbor::cli::tasks::run(input, &mut io::stdout(), &options).map(|_| ());
                };
                let (answered, cut) = arbor::cli::tasks::answered(&path)?;
                if cut {
                    eprintln!("{}: an unfinished last line was cut off", path.display());
                }
                let before = answered.len();
                options.answered = answered;
                let mut file = arbor::files::open_append(&path).map_err(|e| e.to_string())?;
                let report = arbor::cli::tasks::run(input, &mut file, &options)?;
                eprintln!(
                    "solved {} tasks ({} failed), skipped {} (answered before: {before} results, or another shard) -> {}",
                    report.solved,
                    report.failed,
                    report.skipped,
                    path.display()
                );
                Ok(())
            }
        }
    }
}

/// Exit status 2 with the message on stderr for an error, 130 for a match that Ctrl-C
/// stopped.
fn exit(result: Result<(), String>) -> ExitCode {
    match result {
        Err(message) => {
            eprintln!("arbor: {message}");
            ExitCode::from(2)
        }
        Ok(()) if arbor::harness::interrupted() => ExitCode::from(130),
        Ok(()) => ExitCode::SUCCESS,
    }
}

/// Tells a person at a terminal what the front end reads (not a program on a pipe).
fn banner(text: &str) {
    if io::IsTerminal::is_terminal(&io::stdin()) {
        eprintln!("{text}");
    }
}

fn gomocup(overhead_ms: u64, threads: usize) -> Result<(), String> {
    let overhead = Duration::from_millis(overhead_ms);
    protocol::gomocup::run(BufReader::new(io::stdin()), io::stdout(), overhead, threads)
        .map_err(stdout_error)
}

/// Time a Gomocup brain keeps back from every move for the manager's pipes.
const GOMOCUP_OVERHEAD_MS: u64 = 50;

/// Whether the program was started under a `pbrain-` name (a link or a copy).
fn invoked_as_brain() -> bool {
    std::env::args_os()
        .next()
        .and_then(|arg0| {
            std::path::Path::new(&arg0)
                .file_name()
                .map(|name| name.to_string_lossy().to_ascii_lowercase())
        })
        .is_some_and(|name| name.starts_with("pbrain-"))
}

/// `--overhead` in milliseconds, bounded as `set overhead` is.
fn overhead_ms(text: &str) -> Result<u64, String> {
    bounds::move_overhead(text).map(|overhead| overhead.as_millis() as u64)
}
