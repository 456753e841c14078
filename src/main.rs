use std::io::{self, BufReader, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use arbor::bounds;
use arbor::cli::game_args::GameArgs;
use arbor::cli::matches::MatchArgs;
use arbor::engine::output::stdout_error;
use arbor::engine::{DEFAULT_HASH_MB, Settings};
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
}

#[derive(Subcommand)]
enum Commands {
    /// Searches fixed positions of every game to fixed depths and prints nodes, speed and
    /// the node-count signature.
    Bench,
    /// Counts the leaves of the game tree at each depth up to --depth.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// Deepest depth to count.
        #[arg(long, short, value_parser = bounds::perft_depth)]
        depth: u32,
    },
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
    Puzzles {
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
    },
    /// Speaks the Gomocup (Piskvork) brain protocol on stdin/stdout: freestyle or
    /// exact-five gomoku for tournament managers (see protocol.md).
    Gomocup {
        /// Milliseconds kept back from every move for the manager's pipes and timing.
        #[arg(long, default_value_t = GOMOCUP_OVERHEAD_MS, value_parser = overhead_ms)]
        overhead: u64,
        /// Search threads, 1 to 256, until the manager sends `INFO thread_num`.
        #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
        threads: usize,
    },
    /// Speaks the NBoard protocol (version 2) on stdin/stdout: 8x8 Othello for the NBoard
    /// GUI (see protocol.md).
    Nboard {
        /// Memory for all tables, MiB.
        #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
        hash: usize,
        /// Search threads, 1 to 256.
        #[arg(long, default_value_t = 1, value_parser = bounds::threads)]
        threads: usize,
        /// Whether the engine plays from the Othello opening book, on or off.
        #[arg(long, default_value = "on", value_parser = bounds::switch, action = clap::ArgAction::Set)]
        book: bool,
    },
    /// A batch analysis engine: one JSON query per line on stdin (game, position, moves,
    /// turns, lines, limits), one JSON answer per analysed turn on stdout (see
    /// protocol.md).
    Analysis {
        /// Memory for all tables, MiB.
        #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
        hash: usize,
        /// Search threads, 1 to 256; default: the machine's cores.
        #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
        threads: usize,
    },
    /// Reviews a game: every move's score against the best move's, the mistakes, and an
    /// SVG graph of the evaluation (GGF, an `arbor match --records` line, or a move list).
    Review {
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
    },
    /// Serves a board in the browser (play and analyse any game) and its JSON API (see
    /// protocol.md).
    Serve {
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
    },
    /// Speaks the Go Text Protocol (version 2) on stdin/stdout, with GoGui's rules
    /// commands: any game for GTP GUIs such as GoGui and Quarry (see protocol.md).
    Gtp {
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
    },
    /// Solves every position of an OBF file exactly and checks the listed scores; with
    /// --jsonl, solves tasks read from stdin and writes one JSON result per line.
    Solve {
        /// OBF file: `<64 cells> <side>; MOVE:+score; ...` per line.
        #[arg(required_unless_present = "jsonl", conflicts_with = "jsonl")]
        file: Option<std::path::PathBuf>,
        /// Reads tasks from stdin (OBF lines, or JSON objects with a position, an
        /// optional alpha/beta window and a depth or "exact") and writes a JSON result or
        /// error per task.
        #[arg(long)]
        jsonl: bool,
        /// Memory for the engine's tables, MiB (the solver gets three quarters; emptied
        /// before each position).
        #[arg(long, default_value_t = 640, value_parser = bounds::hash_mb)]
        hash: usize,
        /// Solver threads, 1 to 256; default: the machine's cores.
        #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
        threads: usize,
    },
}

#[derive(Subcommand)]
enum BookCommand {
    /// Builds a book from WTHOR games: the positions seen often enough, their moves that
    /// leave the book searched, the scores negamaxed (the shipped book is
    /// src/game/othello/book/normal8.book).
    Build {
        /// Directory of WTHOR `<moves> <diff>` files.
        #[arg(long)]
        wthor: std::path::PathBuf,
        /// Book file to write.
        #[arg(long, default_value = arbor::cli::book::SHIPPED_PATH)]
        out: std::path::PathBuf,
        /// Positions up to this many moves into a game (1 to 60).
        #[arg(long, default_value_t = 20, value_parser = bounds::game_plies)]
        plies: usize,
        /// Positions seen in at least this many games.
        #[arg(long, default_value_t = 20, value_parser = bounds::min_games)]
        min_games: u32,
        /// Search depth of the moves leaving the book (1 to 60).
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
    if !matches!(cli.command, Some(Commands::Serve { .. })) {
        arbor::engine::output::watch_stdout();
    }
    let result = match cli.command {
        None => cli.game.variant().and_then(|variant| {
            banner(concat!(
                "arbor ",
                env!("CARGO_PKG_VERSION"),
                ": reading protocol commands (see protocol.md): try `help`, `go`, `quit`. \
                 To play a game yourself: arbor play"
            ));
            let settings = Settings {
                variant,
                player: cli.player,
                seed: cli.seed,
                hash_mb: cli.hash,
                threads: cli.threads,
                move_overhead: Duration::from_millis(cli.overhead),
                book: cli.book,
                book_spread: cli.book_spread,
            };
            protocol::run(BufReader::new(io::stdin()), io::stdout(), settings).map_err(stdout_error)
        }),
        Some(Commands::Bench) => arbor::cli::bench::run(&mut io::stdout()).map(|_| ()),
        Some(Commands::Perft { game, depth }) => game.variant().and_then(|variant| {
            arbor::cli::perft::run(variant, depth, &mut io::stdout()).map_err(stdout_error)
        }),
        Some(Commands::Match(args)) => args.run(),
        Some(Commands::Play(args)) => args.run(),
        Some(Commands::Book(BookCommand::Build {
            wthor,
            out,
            plies,
            min_games,
            depth,
            threads,
        })) => {
            let options = arbor::cli::book::BuildOptions {
                plies,
                min_games,
                depth,
                threads,
                hash_mb: 16,
            };
            arbor::cli::book::build(&wthor, &options, &out, &mut io::stdout())
        }
        Some(Commands::Book(BookCommand::Check { file })) => {
            arbor::cli::book::check(file.as_deref(), &mut io::stdout())
        }
        Some(Commands::Probcut(args)) => args.run(),
        Some(Commands::Tune(args)) => args.run(),
        Some(Commands::Train(args)) => args.run(),
        Some(Commands::Puzzles {
            file,
            movetime,
            nodes,
            verify,
            search,
        }) => {
            use arbor::cli::puzzles::{Check, PuzzleLimit};
            let limit = PuzzleLimit {
                time: movetime,
                nodes,
            };
            let check = match search {
                true => Check::Search,
                false => Check::Solver { verify },
            };
            arbor::cli::puzzles::run_path(&file, limit, check)
        }
        Some(Commands::Gomocup { overhead, threads }) => {
            banner(
                "arbor gomocup: reading Gomocup commands (see protocol.md): START 15, BEGIN, END",
            );
            gomocup(overhead, threads)
        }
        Some(Commands::Nboard {
            hash,
            threads,
            book,
        }) => {
            banner("arbor nboard: reading NBoard commands (see protocol.md): nboard 2, go, hint 1");
            let settings = Settings {
                hash_mb: hash,
                threads,
                book,
                ..Settings::default()
            };
            protocol::nboard::run(BufReader::new(io::stdin()), io::stdout(), settings)
                .map_err(stdout_error)
        }
        Some(Commands::Analysis { hash, threads }) => {
            banner(
                "arbor analysis: reading JSON queries, one per line (see protocol.md): {\"id\":1,\"moves\":[\"f5\"]}",
            );
            arbor::cli::analysis::run(&mut io::stdin().lock(), &mut io::stdout(), hash, threads)
                .map(|_| ())
        }
        Some(Commands::Review {
            file,
            game,
            movetime,
            depth,
            svg,
            hash,
            threads,
        }) => {
            let movetime = Duration::from_millis(movetime);
            let svg = svg.as_deref();
            arbor::cli::review::run(&file, &game, movetime, depth, svg, hash, threads)
        }
        Some(Commands::Serve {
            bind,
            port,
            max_sessions,
            hash,
            idle,
            book,
        }) => {
            let config = arbor::web::Config {
                bind,
                port,
                max_sessions,
                hash_mb: hash,
                idle,
                book,
            };
            arbor::web::serve(config, |address| {
                // Tests and scripts read the address (port 0 picks one) from this line.
                let mut out = io::stdout();
                writeln!(out, "arbor serve: listening on http://{address}/")
                    .and_then(|()| out.flush())
                    .map_err(stdout_error)
            })
        }
        Some(Commands::Gtp {
            game,
            hash,
            seed,
            threads,
            book,
        }) => {
            banner("arbor gtp: reading GTP commands (see protocol.md): list_commands, genmove b");
            let settings = Settings {
                hash_mb: hash,
                seed,
                threads,
                book,
                ..Settings::default()
            };
            protocol::gtp::run(
                BufReader::new(io::stdin()),
                io::stdout(),
                settings,
                game.spec(),
            )
        }
        Some(Commands::Solve {
            file: Some(file),
            jsonl: false,
            hash,
            threads,
        }) => arbor::cli::solve::run_path(&file, hash, threads),
        Some(Commands::Solve { hash, threads, .. }) => {
            arbor::cli::tasks::run(&mut io::stdin().lock(), &mut io::stdout(), hash, threads)
                .map(|_| ())
        }
    };
    exit(result)
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
