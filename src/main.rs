use std::io::{self, BufReader, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use arbor::bounds;
use arbor::engine::output::stdout_error;
use arbor::engine::{DEFAULT_HASH_MB, Settings};
use arbor::game::roles::SearchGame;
use arbor::game::variant::{GameVisitor, Variant};
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
    Play(PlayArgs),
    /// Builds or checks the Othello opening book.
    #[command(subcommand)]
    Book(BookCommand),
    /// Measures Multi-ProbCut's prediction errors on WTHOR or self-play positions and
    /// prints the rule's table of src/game/othello/probcut.rs.
    Probcut {
        /// normal or misere: the rule the positions are searched under.
        #[arg(long, default_value = "normal")]
        rule: String,
        /// Directory of WTHOR `<moves> <diff>` files.
        #[arg(long)]
        wthor: Option<std::path::PathBuf>,
        /// Self-play games of the rule to sample too, 0 to 10 million (0: none).
        #[arg(long, default_value_t = 0, value_parser = bounds::selfplay_games)]
        selfplay: usize,
        /// About how many positions to sample (one per sampled game).
        #[arg(long, default_value_t = 400, value_parser = bounds::positive)]
        positions: usize,
        /// Deepest search, plies (4 to 60).
        #[arg(long, default_value_t = 10, value_parser = bounds::fixed_depth)]
        depth: u32,
        #[arg(long, default_value_t = 1, value_parser = bounds::number)]
        seed: u64,
        /// Measures instead the error of searches to depth 0-6 as predictions of exact
        /// scores at 14-22 empties, for the selective endgame search (normal rule, WTHOR
        /// positions).
        #[arg(long)]
        endgame: bool,
    },
    /// Fits the Othello evaluation weights by least squares, or with `--game gomoku` the
    /// Gomoku ones to self-play results, and prints them.
    Tune {
        /// othello or gomoku.
        #[arg(long, default_value = "othello")]
        game: String,
        /// Othello: normal (labels from WTHOR games) or misere (labels from self-play).
        #[arg(long, default_value = "normal")]
        rule: String,
        /// Directory of WTHOR `<moves> <diff>` files (for --rule normal).
        #[arg(long)]
        wthor: Option<std::path::PathBuf>,
        /// Self-play games to generate (for --rule misere and for gomoku; default 3000,
        /// or none for gomoku given --records).
        #[arg(long, value_parser = bounds::positive)]
        selfplay: Option<usize>,
        #[arg(long, default_value_t = 1, value_parser = bounds::number)]
        seed: u64,
        /// Threads playing the self-play games, 1 to 256 (gomoku; default: all cores).
        #[arg(long, value_parser = bounds::threads)]
        threads: Option<usize>,
        /// Gomoku: match records (`arbor match --jsonl`) whose 15x15 freestyle games to
        /// fit too.
        #[arg(long, num_args = 1..)]
        records: Vec<std::path::PathBuf>,
        /// Gomoku: where to write the fitted tables (`src/game/gomoku/eval_table.rs`).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Gomoku: label each position by a search of this depth (plies) instead of by
        /// its game's result (1 to 60).
        #[arg(long, value_parser = bounds::fixed_depth)]
        label_depth: Option<u32>,
        /// Gomoku: file keeping those searches' scores (read if it exists, else written).
        #[arg(long, requires = "label_depth")]
        labels: Option<std::path::PathBuf>,
    },
    /// Trains the Othello pattern evaluation on WTHOR games, self-play games or both, and
    /// writes its weights file.
    Train {
        /// normal or misere: the rule the weights are for.
        #[arg(long, default_value = "normal")]
        rule: String,
        /// Directory of WTHOR `<moves> <diff>` files.
        #[arg(long)]
        wthor: Option<std::path::PathBuf>,
        /// Self-play games to play and learn from too, 0 to 10 million (0: none).
        #[arg(long, default_value_t = 0, value_parser = bounds::selfplay_games)]
        selfplay: usize,
        /// Seed of the self-play games.
        #[arg(long, default_value_t = 1, value_parser = bounds::number)]
        seed: u64,
        /// Weights file to write (the shipped ones are src/game/othello/weights/*.bin).
        #[arg(long, default_value = arbor::cli::train::DEFAULT_OUT)]
        out: std::path::PathBuf,
        /// Replaces --out if it exists.
        #[arg(long)]
        force: bool,
        /// Labels positions with this many empties or fewer by exact solves, and earlier
        /// ones by their game's solved score there (0: by the game's final result).
        #[arg(long, default_value_t = 0, value_parser = bounds::solve_empties)]
        solve_empties: u32,
        /// Also labels each position beyond --solve-empties by a search this deep, 0 to
        /// 20 (0: not searched); the label is the mean of the search's and the solved one.
        #[arg(long, default_value_t = 0, value_parser = bounds::search_depth)]
        search_depth: u32,
        /// Weights file the labelling searches evaluate with (and the error report
        /// compares against) instead of the shipped one.
        #[arg(long)]
        search_weights: Option<std::path::PathBuf>,
        /// Threads for the solves, 1 to 256 (the labels do not depend on it); all cores by
        /// default.
        #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
        threads: usize,
    },
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

#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Your colour: black, white, both (two people) or none (watch the engine).
    #[arg(long, default_value = "black")]
    color: String,
    /// A fixed search depth for the engine instead of its clock (1 to 60; 0: the clock).
    #[arg(long, value_parser = bounds::level)]
    level: Option<u32>,
    /// The engine's clock for the whole game, in seconds.
    #[arg(long, default_value = "300", value_parser = bounds::seconds)]
    time: std::time::Duration,
    /// Memory for the engine's tables, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    hash: usize,
    /// The engine's search threads, 1 to 256; default: the machine's cores.
    #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
    threads: usize,
    /// Who plays for the engine: search, random or greedy.
    #[arg(long, default_value = "search")]
    player: PlayerKind,
    /// Seed for the engine's random choices (repeatable games); default: from the
    /// system.
    #[arg(long, value_parser = bounds::number)]
    seed: Option<u64>,
    /// Whether the engine plays from the Othello opening book, on or off.
    #[arg(long, default_value = "on", value_parser = bounds::switch, action = clap::ArgAction::Set)]
    book: bool,
    /// Book moves within this many discs of the book's best are chosen among at random;
    /// 0 plays a best one.
    #[arg(long, default_value_t = 0, value_parser = bounds::book_spread)]
    book_spread: u32,
}

#[derive(Args)]
struct MatchArgs {
    #[command(subcommand)]
    merge: Option<MatchCommand>,
    /// An engine: `--engine name=NAME cmd="COMMAND ARGS" [proto=native|nboard|gtp|gomocup]
    /// [threads=N] [depth=N]` (two or more; `depth=` is NBoard's maximum depth under a
    /// clock, 60 by default).
    #[arg(long = "engine", num_args = 1.., action = clap::ArgAction::Append, required = true)]
    engines: Vec<String>,
    /// Search threads for every native or Gomocup engine without a `threads=` of its own
    /// (sent as `set threads N` / `INFO thread_num N`); default: none sent.
    #[arg(long, value_parser = bounds::threads)]
    threads: Option<usize>,
    #[command(flatten)]
    game: GameArgs,
    /// Seconds per side per game, with an optional increment: `300`, `60+1`, `0.5+0.05`.
    #[arg(long)]
    tc: Option<String>,
    /// Fixed milliseconds per move.
    #[arg(long, value_parser = bounds::millis)]
    movetime: Option<std::time::Duration>,
    /// Fixed search depth per move.
    #[arg(long, value_parser = bounds::depth)]
    depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long, value_parser = bounds::number)]
    nodes: Option<u64>,
    /// Openings file: a move sequence (`f5d6c3`) or `<cells> <side>` per line.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Random openings of this many plies (seeded by --seed).
    #[arg(long, value_parser = opening_plies)]
    random_openings: Option<usize>,
    /// How many openings to play (each twice, colours swapped) per pairing; default: all
    /// of the openings file, or one.
    #[arg(long, value_parser = rounds)]
    rounds: Option<usize>,
    #[arg(long, default_value_t = 1, value_parser = bounds::number)]
    seed: u64,
    /// Games played at the same time (1 is best for timing on two cores).
    #[arg(long, default_value_t = 1, value_parser = concurrency)]
    concurrency: usize,
    /// Appends one text line per finished game.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// Appends each finished Othello game in GGF.
    #[arg(long)]
    ggf: Option<std::path::PathBuf>,
    /// Sequential test: `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05` (two engines).
    #[arg(long, num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Plays the I-th of N slices of the game pairs (`--shard 2/4`): N runs together play
    /// every pair once.
    #[arg(long, value_parser = arbor::harness::campaign::Shard::parse)]
    shard: Option<arbor::harness::campaign::Shard>,
    /// Writes one JSON line per finished game pair to a new file.
    #[arg(long, conflicts_with = "resume")]
    jsonl: Option<std::path::PathBuf>,
    /// Continues a --jsonl file: its pairs are not played again, new ones are appended.
    #[arg(long)]
    resume: Option<std::path::PathBuf>,
    /// Checks one engine's protocol (native, nboard, gtp or gomocup) against a script and
    /// reports each deviation, instead of playing a match.
    #[arg(long)]
    compliance: bool,
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

#[derive(Subcommand)]
enum MatchCommand {
    /// Tallies the JSON-lines files of one match's runs (shards, resumed runs) and prints
    /// the table one run playing all their pairs prints.
    Merge {
        /// JSON-lines files written by `arbor match --jsonl` or `--resume`.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Sequential test over all the pairs: `--sprt elo0=0 elo1=10 alpha=0.05
        /// beta=0.05` (after the files).
        #[arg(long, num_args = 1..)]
        sprt: Option<Vec<String>>,
    },
}

#[derive(Args)]
struct GameArgs {
    /// The game: othello (the default; alias reversi), gomoku (the default of `arbor
    /// match` when every engine is `proto=gomocup`), pente or tictactoe.
    #[arg(long)]
    game: Option<String>,
    /// Board size (othello: 4, 6 or 8; gomoku and pente: 5 to 99; tictactoe: 3 to 99).
    #[arg(long)]
    size: Option<String>,
    /// Game rule (othello: normal or misere; gomoku: freestyle, exact or renju).
    #[arg(long)]
    rule: Option<String>,
    /// Opening rule (gomoku: center or free; pente: center, tournament or free).
    #[arg(long)]
    opening: Option<String>,
    /// Stones in a row that win (tictactoe).
    #[arg(long)]
    k: Option<String>,
}

impl GameArgs {
    /// The game's name and the options given, as GTP's `boardsize` re-reads them.
    fn spec(&self) -> protocol::gtp::GameSpec {
        let options = [
            ("size", &self.size),
            ("rule", &self.rule),
            ("opening", &self.opening),
            ("k", &self.k),
        ];
        protocol::gtp::GameSpec {
            name: self.name().to_string(),
            options: options
                .iter()
                .filter_map(|(key, value)| {
                    value.as_ref().map(|value| (key.to_string(), value.clone()))
                })
                .collect(),
        }
    }

    fn variant(&self) -> Result<Variant, String> {
        self.variant_of(self.name())
    }

    /// The variant of `game` with the options given.
    fn variant_of(&self, game: &str) -> Result<Variant, String> {
        let options = [
            ("size", &self.size),
            ("rule", &self.rule),
            ("opening", &self.opening),
            ("k", &self.k),
        ];
        let options = options
            .iter()
            .filter_map(|(key, value)| value.as_deref().map(|value| (*key, value)));
        Variant::parse(game, options).map_err(|e| e.to_string())
    }

    fn name(&self) -> &str {
        self.game.as_deref().unwrap_or("othello")
    }

    /// The variant when any of the options was given (for records naming their own).
    fn given(&self) -> Result<Option<Variant>, String> {
        let given = [&self.game, &self.size, &self.rule, &self.opening, &self.k];
        let any = given.iter().any(|option| option.is_some());
        any.then(|| self.variant()).transpose()
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // Gomocup managers run brains named pbrain-*: under such a name arbor is a brain.
    if invoked_as_brain() {
        if io::IsTerminal::is_terminal(&io::stdin()) {
            eprintln!("arbor (as a Gomocup brain): reading Gomocup commands: START 15, BEGIN, END");
        }
        let overhead = std::time::Duration::from_millis(GOMOCUP_OVERHEAD_MS);
        arbor::engine::output::watch_stdout();
        let result = protocol::gomocup::run(BufReader::new(io::stdin()), io::stdout(), overhead, 1);
        return exit(result.map_err(stdout_error));
    }
    let cli = Cli::parse();
    // A server's address line may be read once and its pipe closed: it serves on.
    if !matches!(cli.command, Some(Commands::Serve { .. })) {
        arbor::engine::output::watch_stdout();
    }
    let result = match &cli.command {
        None => cli.game.variant().and_then(|variant| {
            let overhead = std::time::Duration::from_millis(cli.overhead);
            let settings = Settings {
                variant,
                player: cli.player,
                seed: cli.seed,
                hash_mb: cli.hash,
                threads: cli.threads,
                move_overhead: overhead,
                book: cli.book,
                book_spread: cli.book_spread,
            };
            if io::IsTerminal::is_terminal(&io::stdin()) {
                eprintln!(
                    "arbor {}: reading protocol commands (see protocol.md): try `help`, \
                     `go`, `quit`. To play a game yourself: arbor play",
                    env!("CARGO_PKG_VERSION")
                );
            }
            protocol::run(BufReader::new(io::stdin()), io::stdout(), settings).map_err(stdout_error)
        }),
        Some(Commands::Perft { game, depth }) => game
            .variant()
            .and_then(|variant| variant.visit(PerftReport { depth: *depth }).map_err(stdout_error)),
        Some(Commands::Solve {
            file,
            jsonl,
            hash,
            threads,
        }) => match file {
            Some(file) if !jsonl => solve(file, *hash, *threads),
            _ => {
                arbor::cli::tasks::run(&mut io::stdin().lock(), &mut io::stdout(), *hash, *threads)
                    .map(|_| ())
            }
        },
        Some(Commands::Analysis { hash, threads }) => {
            if io::IsTerminal::is_terminal(&io::stdin()) {
                eprintln!(
                    "arbor analysis: reading JSON queries, one per line (see protocol.md): {{\"id\":1,\"moves\":[\"f5\"]}}"
                );
            }
            arbor::cli::analysis::run(&mut io::stdin().lock(), &mut io::stdout(), *hash, *threads)
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
        }) => review(
            file,
            game,
            *movetime,
            *depth,
            svg.as_deref(),
            *hash,
            *threads,
        ),
        Some(Commands::Bench) => arbor::cli::bench::run(&mut io::stdout()).map(|_| ()),
        Some(Commands::Gomocup { overhead, threads }) => {
            if io::IsTerminal::is_terminal(&io::stdin()) {
                eprintln!(
                    "arbor gomocup: reading Gomocup commands (see protocol.md): START 15, BEGIN, END"
                );
            }
            let overhead = std::time::Duration::from_millis(*overhead);
            protocol::gomocup::run(
                BufReader::new(io::stdin()),
                io::stdout(),
                overhead,
                *threads,
            )
            .map_err(stdout_error)
        }
        Some(Commands::Nboard {
            hash,
            threads,
            book,
        }) => {
            if io::IsTerminal::is_terminal(&io::stdin()) {
                eprintln!(
                    "arbor nboard: reading NBoard commands (see protocol.md): nboard 2, go, hint 1"
                );
            }
            let settings = Settings {
                hash_mb: *hash,
                threads: *threads,
                book: *book,
                ..Settings::default()
            };
            protocol::nboard::run(BufReader::new(io::stdin()), io::stdout(), settings)
                .map_err(stdout_error)
        }
        Some(Commands::Gtp {
            game,
            hash,
            seed,
            threads,
            book,
        }) => {
            if io::IsTerminal::is_terminal(&io::stdin()) {
                eprintln!(
                    "arbor gtp: reading GTP commands (see protocol.md): list_commands, genmove b"
                );
            }
            let settings = Settings {
                hash_mb: *hash,
                seed: *seed,
                threads: *threads,
                book: *book,
                ..Settings::default()
            };
            protocol::gtp::run(
                BufReader::new(io::stdin()),
                io::stdout(),
                settings,
                game.spec(),
            )
        }
        Some(Commands::Match(args)) => run_match(args),
        Some(Commands::Serve {
            bind,
            port,
            max_sessions,
            hash,
            idle,
            book,
        }) => {
            let config = arbor::web::Config {
                bind: bind.clone(),
                port: *port,
                max_sessions: *max_sessions,
                hash_mb: *hash,
                idle: *idle,
                book: *book,
            };
            arbor::web::serve(config, |address| {
                // Tests and scripts read the address (port 0 picks one) from this line.
                let mut out = io::stdout();
                writeln!(out, "arbor serve: listening on http://{address}/")
                    .and_then(|()| out.flush())
                    .map_err(stdout_error)
            })
        }
        Some(Commands::Puzzles {
            file,
            movetime,
            nodes,
            verify,
            search,
        }) => arbor::files::read_text(file).and_then(|text| {
                let limit = arbor::cli::puzzles::PuzzleLimit {
                    time: *movetime,
                    nodes: *nodes,
                };
                let check = if *search {
                    arbor::cli::puzzles::Check::Search
                } else {
                    arbor::cli::puzzles::Check::Solver { verify: *verify }
                };
                let name = file.display().to_string();
                let (out, errors) = (&mut io::stdout(), &mut io::stderr());
                arbor::cli::puzzles::run_file(&name, &text, limit, check, out, errors)?
                    .verdict(&name)
            }),
        Some(Commands::Play(args)) => play(args),
        Some(Commands::Book(BookCommand::Build {
            wthor,
            out,
            plies,
            min_games,
            depth,
            threads,
        })) => arbor::cli::book::build(
            wthor,
            &arbor::cli::book::BuildOptions {
                plies: *plies,
                min_games: *min_games,
                depth: *depth,
                threads: *threads,
                hash_mb: 16,
            },
            out,
            &mut io::stdout(),
        ),
        Some(Commands::Book(BookCommand::Check { file })) => {
            arbor::cli::book::check(file.as_deref(), &mut io::stdout())
        }
        Some(Commands::Probcut {
            rule,
            wthor,
            selfplay,
            positions,
            depth: _,
            seed,
            endgame: true,
        }) => match (rule.parse::<arbor::game::othello::Rule>(), wthor) {
            (Err(e), _) => Err(e.to_string()),
            (Ok(arbor::game::othello::Rule::Misere), _) | (_, None) => {
                Err("--endgame samples WTHOR positions under the normal rule: give --wthor, not --rule misere".into())
            }
            (Ok(_), Some(_)) if *selfplay > 0 => {
                Err("--endgame samples WTHOR positions only: no --selfplay".into())
            }
            (Ok(_), Some(wthor)) => {
                arbor::cli::probcut::fit_endgame(wthor, *positions, *seed, &mut io::stdout())
            }
        },
        Some(Commands::Probcut {
            rule,
            wthor,
            selfplay,
            positions,
            depth,
            seed,
            endgame: false,
        }) => rule
            .parse::<arbor::game::othello::Rule>()
            .map_err(|e| e.to_string())
            .and_then(|rule| {
                arbor::cli::probcut::fit(
                    arbor::cli::train::Corpus {
                        wthor: wthor.as_deref(),
                        selfplay: *selfplay,
                        seed: *seed,
                    },
                    rule,
                    *positions,
                    *depth,
                    &mut io::stdout(),
                )
            }),
        Some(Commands::Tune {
            game,
            rule,
            wthor,
            selfplay,
            seed,
            threads,
            records,
            out,
            label_depth,
            labels,
        }) if game == "gomoku" => {
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            if wthor.is_some() || rule != "normal" {
                Err("tune --game gomoku takes no --wthor or --rule (it fits games)".into())
            } else {
                let sources = arbor::cli::tune_gomoku::Sources {
                    records: records.clone(),
                    selfplay: selfplay.unwrap_or(if records.is_empty() { 3000 } else { 0 }),
                    seed: *seed,
                    threads,
                    label_depth: *label_depth,
                    labels: labels.clone(),
                };
                arbor::cli::tune_gomoku::tune(&sources, out.as_ref(), &mut io::stdout())
                    .map(|_| ())
            }
        }
        Some(Commands::Tune { records, out, .. }) if !records.is_empty() || out.is_some() => {
            Err("tune: --records and --out are for --game gomoku".into())
        }
        Some(Commands::Tune { game, .. }) if game != "othello" && game != "reversi" => {
            Err(format!("tune: unknown game {game:?} (othello or gomoku)"))
        }
        Some(Commands::Tune {
            rule,
            wthor,
            selfplay,
            seed,
            ..
        }) => rule
            .parse::<arbor::game::othello::Rule>()
            .map_err(|e| e.to_string())
            .and_then(|rule| {
                arbor::cli::tune::tune(
                    rule,
                    wthor.as_deref(),
                    selfplay.unwrap_or(3000),
                    *seed,
                    &mut io::stdout(),
                )
                    .map(|_| ())
            }),
        Some(Commands::Train {
            rule,
            wthor,
            selfplay,
            seed,
            out,
            force,
            solve_empties,
            search_depth,
            search_weights,
            threads,
        }) => rule
            .parse::<arbor::game::othello::Rule>()
            .map_err(|e| e.to_string())
            .and_then(|rule| {
                arbor::cli::train::train(
                    arbor::cli::train::Corpus {
                        wthor: wthor.as_deref(),
                        selfplay: *selfplay,
                        seed: *seed,
                    },
                    arbor::cli::train::Labelling {
                        rule,
                        solve_empties: *solve_empties,
                        search_depth: *search_depth,
                        threads: *threads,
                    },
                    search_weights.as_deref(),
                    out,
                    *force,
                    &mut io::stdout(),
                )
            }),
    };
    exit(result)
}

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

fn play(args: &PlayArgs) -> Result<(), String> {
    use arbor::cli::play::PlaySettings;
    let level = args.level.filter(|&depth| depth > 0);
    let humans = match args.color.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => [true, false],
        "white" | "w" | "o" => [false, true],
        "both" => [true, true],
        "none" => [false, false],
        _ => {
            return Err(format!(
                "--color must be black, white, both or none, not {}",
                arbor::text::quote(&args.color)
            ));
        }
    };
    if args.time.is_zero() {
        return Err("--time must be more than 0 seconds".into());
    }
    let settings = PlaySettings {
        humans,
        engine_time: level.is_none().then_some(args.time),
        depth: level,
        hash_mb: args.hash,
        threads: args.threads,
        player: args.player,
        seed: args.seed,
        book: args.book,
        book_spread: args.book_spread,
    };
    let variant = args.game.variant()?;
    arbor::cli::play::play(variant, settings, BufReader::new(io::stdin()), io::stdout())
}

fn run_match(args: &MatchArgs) -> Result<(), String> {
    use arbor::harness::campaign::Shard;
    use arbor::harness::engine::Setup;
    use arbor::harness::referee::TimeControl;
    use arbor::harness::{
        EngineSpec, Jsonl, MatchConfig, random_openings, read_openings, run_match,
    };
    use std::time::Duration;

    if let Some(MatchCommand::Merge { files, sprt }) = &args.merge {
        let sprt = sprt.as_deref().map(parse_sprt).transpose()?;
        return arbor::harness::campaign::merge(files, sprt, &mut io::stdout());
    }

    // The first Ctrl-C ends the match with the table of the games played; a second one
    // ends the program at once.
    ctrlc::set_handler(|| {
        if !arbor::harness::interrupt() {
            std::process::exit(130);
        }
    })
    .map_err(|e| e.to_string())?;
    // Each `name=` starts an engine; its `cmd=` runs to the next `name=` (the words
    // `proto=P`, `threads=N` and `depth=N` among them name its protocol, thread count and
    // NBoard's maximum depth).
    let mut specs: Vec<(String, [Option<String>; 3])> = Vec::new();
    for word in &args.engines {
        let key = ["proto=", "threads=", "depth="]
            .iter()
            .position(|key| word.starts_with(key));
        match (specs.last_mut(), key) {
            (Some((_, keyed)), Some(index)) => {
                if keyed[index].is_some() {
                    return Err(format!(
                        "--engine: {} given twice",
                        arbor::text::quote(word)
                    ));
                }
                keyed[index] = word.split_once('=').map(|(_, value)| value.to_string());
            }
            (Some((spec, _)), None) if !word.starts_with("name=") => {
                spec.push(' ');
                spec.push_str(word);
            }
            _ => specs.push((word.clone(), [None, None, None])),
        }
    }
    let mut engines = Vec::new();
    for (spec, [proto, threads, depth]) in specs {
        let proto = proto
            .as_deref()
            .map(arbor::harness::foreign::Proto::parse)
            .transpose()
            .map_err(|e| format!("--engine: {e}"))?
            .unwrap_or_default();
        let name = spec
            .strip_prefix("name=")
            .and_then(|rest| rest.split_whitespace().next())
            .ok_or_else(|| {
                format!(
                    "--engine {}: expected name=NAME cmd=COMMAND",
                    arbor::text::quote(&spec)
                )
            })?;
        let command = spec
            .split_once("cmd=")
            .map(|(_, command)| command.trim().to_string())
            .filter(|command| !command.is_empty())
            .ok_or_else(|| {
                format!(
                    "--engine {}: missing cmd=COMMAND",
                    arbor::text::quote(&spec)
                )
            })?;
        let threads = threads
            .as_deref()
            .map(bounds::threads)
            .transpose()
            .map_err(|e| format!("--engine {}: threads: {e}", arbor::text::quote(name)))?
            .or(args.threads.filter(|_| proto.has_threads()));
        let max_depth = depth
            .as_deref()
            .map(bounds::fixed_depth)
            .transpose()
            .map_err(|e| format!("--engine {}: depth: {e}", arbor::text::quote(name)))?;
        engines.push(EngineSpec {
            name: name.to_string(),
            command,
            proto,
            threads,
            max_depth,
        });
    }
    // Gomocup brains play Gomoku only: without --game, that is the game.
    let gomocup_only = engines
        .iter()
        .all(|engine| engine.proto == arbor::harness::foreign::Proto::Gomocup);
    let variant = match &args.game.game {
        None if gomocup_only => args.game.variant_of("gomoku")?,
        _ => args.game.variant()?,
    };
    if args.compliance {
        let [engine] = engines.as_slice() else {
            return Err("--compliance checks one engine: give one --engine".into());
        };
        let deviations = arbor::harness::compliance::run(engine, variant, &mut io::stdout())?;
        return match deviations {
            0 => Ok(()),
            1 => Err("1 deviation from the protocol".into()),
            n => Err(format!("{n} deviations from the protocol")),
        };
    }
    let seconds = |text: &str| bounds::seconds(text).map_err(|e| format!("--tc: {e}"));
    let control = match (&args.tc, args.movetime, args.depth, args.nodes) {
        (Some(tc), None, None, None) => {
            let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
            let base = seconds(base)?;
            if base.is_zero() {
                return Err("--tc: the time per game must be more than 0 seconds".into());
            }
            TimeControl::Clock {
                base,
                inc: seconds(inc)?,
            }
        }
        (None, Some(time), None, None) => TimeControl::MoveTime(time),
        (None, None, Some(depth), None) => TimeControl::Depth(depth),
        (None, None, None, Some(nodes)) => TimeControl::Nodes(nodes),
        (None, None, None, None) => TimeControl::Clock {
            base: Duration::from_secs(60),
            inc: Duration::ZERO,
        },
        _ => return Err("give one of --tc, --movetime, --depth, --nodes".into()),
    };
    let mut openings: Vec<Setup> = match (&args.openings, args.random_openings) {
        (Some(path), _) => {
            let text = arbor::files::read_text(path)?;
            read_openings(&text, variant).map_err(|e| format!("{}:{e}", path.display()))?
        }
        (None, Some(plies)) => random_openings(variant, args.rounds.unwrap_or(1), plies, args.seed),
        (None, None) => vec![Setup::Moves(Vec::new())],
    };
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let rounds = args.rounds.unwrap_or(openings.len()).max(1);
    openings = (0..rounds)
        .map(|i| openings[i % openings.len()].clone())
        .collect();
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let config = MatchConfig {
        engines,
        variant,
        control,
        openings,
        concurrency: args.concurrency,
        records: args.records.clone(),
        ggf: args.ggf.clone(),
        sprt,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        jsonl: match (&args.jsonl, &args.resume) {
            (Some(path), _) => Some(Jsonl::Create(path.clone())),
            (None, Some(path)) => Some(Jsonl::Resume(path.clone())),
            (None, None) => None,
        },
    };
    run_match(&config, &mut io::stdout()).map(|_| ())
}

/// `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`: any of the four, each once.
fn parse_sprt(words: &[String]) -> Result<arbor::harness::stats::Sprt, String> {
    use arbor::text::quote;
    let mut values = [
        ("elo0", 0.0),
        ("elo1", 10.0),
        ("alpha", 0.05),
        ("beta", 0.05),
    ];
    let mut seen = Vec::new();
    for word in words.iter().flat_map(|w| w.split_whitespace()) {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--sprt: expected key=value, got {}", quote(word)))?;
        let slot = values
            .iter_mut()
            .find(|(name, _)| *name == key)
            .ok_or_else(|| {
                format!(
                    "--sprt: unknown {}: expected elo0, elo1, alpha or beta",
                    quote(key)
                )
            })?;
        if seen.contains(&key) {
            return Err(format!("--sprt: {key} given twice"));
        }
        seen.push(key);
        slot.1 = value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("--sprt: {key}: not a number: {}", quote(value)))?;
    }
    let [elo0, elo1, alpha, beta] = values.map(|(_, value)| value);
    arbor::harness::stats::Sprt::new(elo0, elo1, alpha, beta).map_err(|e| format!("--sprt: {e}"))
}

fn solve(file: &std::path::Path, hash: usize, threads: usize) -> Result<(), String> {
    let text = arbor::files::read_text(file)?;
    let name = file.display().to_string();
    let (out, errors) = (&mut io::stdout(), &mut io::stderr());
    arbor::cli::solve::solve_file(&name, &text, hash, threads, out, errors)?.verdict(&name)
}

/// Prints each depth's leaf count, time and speed.
struct PerftReport {
    depth: u32,
}

impl GameVisitor for PerftReport {
    type Output = io::Result<()>;

    fn visit<G: SearchGame>(self, mut game: G) -> io::Result<()> {
        let mut out = io::stdout().lock();
        writeln!(
            out,
            "{:>5} {:>14} {:>10} {:>14}",
            "depth", "leaves", "seconds", "leaves/s"
        )?;
        for depth in 1..=self.depth {
            let start = Instant::now();
            // Stops (None) only when the output's reader has gone.
            let never = arbor::stop::Stop::never();
            let leaves = arbor::game::perft::perft_interruptible(&mut game, depth, &never)
                .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
            let seconds = start.elapsed().as_secs_f64();
            let rate = if seconds > 0.0 {
                leaves as f64 / seconds
            } else {
                0.0
            };
            writeln!(out, "{depth:>5} {leaves:>14} {seconds:>10.3} {rate:>14.0}")?;
            // Each depth as soon as it is counted (the deep ones take long).
            out.flush()?;
        }
        Ok(())
    }
}

fn review(
    file: &std::path::Path,
    game: &GameArgs,
    movetime: u64,
    depth: Option<u32>,
    svg: Option<&std::path::Path>,
    hash: usize,
    threads: usize,
) -> Result<(), String> {
    use arbor::cli::review;
    let text = arbor::files::read_text(file)?;
    let record = review::read_record(&text, game.given()?)
        .and_then(|record| review::check_moves(&record).map(|()| record))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let svg_path = svg.map_or_else(|| file.with_extension("svg"), std::path::Path::to_path_buf);
    // The graph's file is checked before the analysis; a record named .svg is not
    // replaced by its own graph.
    let output = arbor::files::Output::check(&svg_path, true)?;
    if std::fs::canonicalize(&svg_path)
        .is_ok_and(|svg| std::fs::canonicalize(file).is_ok_and(|f| f == svg))
    {
        return Err(format!(
            "{}: the graph would replace the record itself: give --svg",
            svg_path.display()
        ));
    }
    let limits = arbor::engine::AnalysisOptions {
        time: depth
            .is_none()
            .then(|| std::time::Duration::from_millis(movetime)),
        depth,
        ..Default::default()
    };
    let started = Instant::now();
    let total = record.moves.len();
    let mut shown = false;
    let reviews = review::review(&record, &limits, hash, threads, &mut |move_review| {
        eprint!("\rreviewed {}/{total}", move_review.ply);
        shown = true;
    });
    // The progress line ends before anything else is printed.
    if shown {
        eprintln!();
    }
    let reviews = reviews?;
    let mut out = io::stdout().lock();
    write!(out, "{}", review::table(&reviews, record.variant)).map_err(stdout_error)?;
    let title = format!(
        "{} ({}, {} moves)",
        file.file_name()
            .map_or("game".into(), |n| n.to_string_lossy()),
        record.variant,
        total
    );
    output.write(review::svg(&reviews, record.variant, &title).as_bytes())?;
    writeln!(
        out,
        "graph: {} (reviewed in {:.1} s)",
        svg_path.display(),
        started.elapsed().as_secs_f64()
    )
    .and_then(|()| out.flush())
    .map_err(stdout_error)
}
