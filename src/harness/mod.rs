//! `arbor match`: plays engine processes against each other as referee and clock, and
//! reports results, Elo and SPRT.

pub mod campaign;
pub mod compliance;
pub mod engine;
pub mod foreign;
pub mod records;
pub mod referee;
pub mod spec;
pub mod stats;
pub mod swap2;

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use self::campaign::{MatchInfo, Shard};
use self::engine::{EngineDriver, Setup};
use self::referee::{
    Ending, GameRecord, GameStart, TimeControl, apply_setup, lost_before_start, play_game,
};
use self::stats::{Sprt, SprtVerdict, elo_estimate};
use crate::game::Side;
use crate::game::roles::SearchGame;
use crate::game::variant::{GameVisitor, Variant};

#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    /// The protocol it speaks.
    pub proto: foreign::Proto,
    /// Search threads to ask for at the start of each game (`threads=N`): native engines
    /// get `set threads N`, Gomocup brains `INFO thread_num N`; `None` asks for nothing.
    pub threads: Option<usize>,
    /// NBoard engines: the depth sent as `set depth N` under a clock or move time (`depth=N`),
    /// as the NBoard GUI sends its user's maximum depth; `None`: the most, 60.
    pub max_depth: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub variant: Variant,
    pub control: TimeControl,
    /// Each opening is played twice per pairing, colours swapped.
    pub openings: Vec<Setup>,
    /// Swap2 openings (`--opening swap2`, Gomoku): every game starts on the empty board
    /// (`openings` holds one empty setup a round), the engines decide the opening and
    /// the colours; a pair's two games alternate who proposes.
    pub swap2: bool,
    pub concurrency: usize,
    pub records: Option<PathBuf>,
    pub ggf: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    /// The slice of the pairs this run plays.
    pub shard: Shard,
    /// One JSON line per finished pair: a new file, or one to continue (`--resume`).
    pub jsonl: Option<Jsonl>,
}

#[derive(Clone, Debug)]
pub enum Jsonl {
    Create(PathBuf),
    Resume(PathBuf),
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Job {
    number: usize,
    pair: usize,
    black: usize,
    white: usize,
    setup: Setup,
}

/// A finished game with who played it.
#[derive(Clone, Debug)]
pub struct Played {
    pub number: usize,
    pub pair: usize,
    pub black: usize,
    pub white: usize,
    pub setup: Setup,
    pub record: GameRecord,
}

impl Played {
    /// The engines as the schedule seats them: (Black, White), or under Swap2
    /// (proposer, other). A pair's two games seat the same engines the other way round.
    pub fn seats(&self) -> (usize, usize) {
        match &self.record.swap2 {
            Some(log) if log.proposer == Side::White => (self.white, self.black),
            _ => (self.black, self.white),
        }
    }
}

/// Per-engine totals.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub disc_score: i64,
    pub time_forfeits: u32,
    pub illegal: u32,
    pub failures: u32,
}

/// Random openings: `plies` random legal moves from the start, `count` of them.
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Setup> {
    struct Build {
        count: usize,
        plies: usize,
        seed: u64,
    }
    impl GameVisitor for Build {
        type Output = Vec<Setup>;
        fn visit<G: SearchGame>(self, start: G) -> Vec<Setup> {
            let mut rng = StdRng::seed_from_u64(self.seed);
            let mut moves = Vec::new();
            let mut one = |rng: &mut StdRng| {
                let mut game = start.clone();
                let mut names = Vec::new();
                for _ in 0..self.plies {
                    game.generate_moves(&mut moves);
                    let mv = moves[rng.random_range(0..moves.len())];
                    let mut next = game.clone();
                    next.make(mv);
                    // Never hand over a finished game or a single forced move.
                    if !leaves_a_choice(&next) {
                        break;
                    }
                    names.push(game.format_move(mv));
                    game = next;
                }
                Setup::Moves(names)
            };
            (0..self.count).map(|_| one(&mut rng)).collect()
        }
    }
    variant.visit(Build { count, plies, seed })
}

/// Whether the side to move has more than one legal move (a finished game has none):
/// an opening must leave the engines a choice, or both colours play the same game.
fn leaves_a_choice<G: SearchGame>(game: &G) -> bool {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    game.outcome().is_none() && moves.len() > 1
}

/// Reads an openings file: one per line, a move sequence (`f5d6c3`, `f5 d6 c3`) or a
/// board and side (`<cells> X`). Blank and `#` lines are skipped; each opening is
/// checked against the rules and must leave the side to move a choice of moves. An
/// error starts with the line's number (`3: ...`), for the caller to put the file's
/// name before it.
pub fn read_openings(text: &str, variant: Variant) -> Result<Vec<Setup>, String> {
    struct Check<'a>(&'a Setup);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: SearchGame>(self, mut game: G) -> Result<(), String> {
            apply_setup(&mut game, self.0)?;
            if game.outcome().is_some() {
                Err("the opening ends the game".into())
            } else if !leaves_a_choice(&game) {
                Err("the opening leaves a single forced move".into())
            } else {
                Ok(())
            }
        }
    }
    let mut openings = Vec::new();
    for (number, line) in crate::files::strip_bom(text).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let setup = match words.as_slice() {
            [cells, side] if Side::parse(side).is_some() && cells.len() > 8 => {
                Setup::Board(line.to_string())
            }
            // `x,y` names (boards over 26 wide) are whole words.
            _ if line.contains(',') => Setup::Moves(words.iter().map(|w| w.to_string()).collect()),
            _ => Setup::Moves(split_moves(&words.concat())),
        };
        variant
            .visit(Check(&setup))
            .map_err(|e| format!("{}: {e}", number + 1))?;
        openings.push(setup);
    }
    Ok(openings)
}

/// `f5d6c3` -> `f5 d6 c3`: a letter starts each move.
fn split_moves(text: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for c in text.chars() {
        if c.is_ascii_alphabetic() || moves.is_empty() {
            moves.push(String::new());
        }
        moves.last_mut().expect("pushed").push(c);
    }
    moves
}

struct PlayOne<'a> {
    job: &'a Job,
    spec: String,
    engines: [&'a mut dyn EngineDriver; 2],
    control: TimeControl,
    swap2: bool,
}

impl GameVisitor for PlayOne<'_> {
    /// The record and the game's setup (a Swap2 opening's stones).
    type Output = (GameRecord, Setup);
    fn visit<G: SearchGame>(self, mut game: G) -> (GameRecord, Setup) {
        let game_forfeit_score = game.forfeit_score();
        if self.swap2 {
            return swap2::play_swap2(
                game,
                &self.spec,
                self.engines,
                self.control,
                |g: &G| g.match_score(),
                game_forfeit_score,
            );
        }
        apply_setup(&mut game, &self.job.setup).expect("openings are checked when read");
        let record = play_game(
            game,
            GameStart::new(&self.spec, &self.job.setup, self.control),
            self.engines,
            self.control,
            |g: &G| g.match_score(),
            game_forfeit_score,
        );
        (record, self.job.setup.clone())
    }
}

/// Set by the first Ctrl-C: games cut short by it are not counted, and no game starts.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// For the Ctrl-C handler: stops the match, killing its engines, so that the games
/// finished so far are reported. Returns false when the match was already interrupted
/// (a second Ctrl-C, which should end the program at once).
pub fn interrupt() -> bool {
    let first = !INTERRUPTED.swap(true, Ordering::SeqCst);
    engine::kill_all_engines();
    first
}

/// Whether Ctrl-C stopped the match.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Runs the match or round robin, printing a line per game and the final table (also
/// when the match stops on an error, which is returned after the table, or on Ctrl-C).
pub fn run_match(config: &MatchConfig, out: &mut dyn Write) -> Result<Vec<Standing>, String> {
    let count = config.engines.len();
    if count < 2 {
        return Err("a match needs at least two engines".into());
    }
    for (index, engine) in config.engines.iter().enumerate() {
        if engine.name.is_empty() {
            return Err("an engine needs a name".into());
        }
        let words = engine::split_command(&engine.command)
            .map_err(|e| format!("engine {}: {e}", crate::text::quote(&engine.name)))?;
        if words.first().is_none_or(|program| program.is_empty()) {
            return Err(format!(
                "engine {}: empty command",
                crate::text::quote(&engine.name)
            ));
        }
        engine
            .proto
            .check(config.variant, config.control, &config.openings)
            .and_then(|()| engine.proto.check_options(engine.threads, engine.max_depth))
            .and_then(|()| match engine.proto {
                proto if config.swap2 && !proto.has_swap2() => Err(format!(
                    "proto={} has no Swap2 decisions: --opening swap2 needs native or gomocup engines",
                    proto.name()
                )),
                _ => Ok(()),
            })
            .map_err(|e| format!("engine {}: {e}", crate::text::quote(&engine.name)))?;
        if config.engines[..index]
            .iter()
            .any(|e| e.name == engine.name)
        {
            return Err(format!(
                "two engines are named {}: names must differ",
                crate::text::quote(&engine.name)
            ));
        }
    }
    if config.swap2 {
        check_swap2(config)?;
    }
    if config.sprt.is_some() && count != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let openings = if config.openings.is_empty() {
        vec![Setup::Moves(Vec::new())]
    } else {
        config.openings.clone()
    };
    if config.sprt.is_some() && !config.shard.is_whole() {
        return Err(
            "--sprt with --shard: a shard sees part of the pairs; give --sprt to \
                    `arbor match merge`, which sees them all"
                .into(),
        );
    }
    let all = schedule(count, &openings);
    let info = MatchInfo::new(
        config.variant,
        config.engines.iter().map(|e| e.name.clone()).collect(),
        config.control,
        &openings,
        all.len() / 2,
        config.swap2,
    );
    // Every file is checked before one is read or a game played: a FIFO, device or
    // directory there is refused.
    let paths = [config.records.as_deref(), config.ggf.as_deref()].into_iter();
    let jsonl_path = config.jsonl.as_ref().map(|jsonl| match jsonl {
        Jsonl::Create(path) | Jsonl::Resume(path) => path.as_path(),
    });
    for path in paths.chain([jsonl_path]).flatten() {
        crate::files::check_append(path)?;
    }
    let (mut resumed, mut cut) = (Vec::new(), false);
    let jsonl = match &config.jsonl {
        None => None,
        Some(Jsonl::Create(path)) => {
            if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
                return Err(format!(
                    "{}: the file exists: --resume {} continues it",
                    path.display(),
                    path.display()
                ));
            }
            Some(records::Appender::open(path)?)
        }
        Some(Jsonl::Resume(path)) => {
            (resumed, cut) = campaign::resume(path, &info, config.shard)?;
            Some(records::Appender::open(path)?)
        }
    };
    let played: std::collections::HashSet<usize> =
        resumed.iter().map(|games| games[0].pair).collect();
    let jobs: VecDeque<Job> = all
        .into_iter()
        .filter(|job| config.shard.owns(job.pair) && !played.contains(&job.pair))
        .collect();
    let total = jobs.len();
    // Records files open before the first game, so a bad path costs no games.
    let files = (
        config
            .records
            .as_deref()
            .map(records::Appender::open)
            .transpose()?,
        config
            .ggf
            .as_deref()
            .map(records::Appender::open)
            .transpose()?,
    );
    let queue = Arc::new(Mutex::new(jobs));
    let stop = Arc::new(AtomicBool::new(false));
    let (results, finished) = mpsc::channel::<Played>();
    let spec = game_spec(config.variant);
    let mut tally = Tally::new(count);
    for [first, second] in resumed {
        tally.add(first);
        tally.add(second);
    }
    if tally.pairs > 0 || cut {
        writeln!(
            out,
            "resumed {} pairs ({} games) from the JSON-lines file{}; {total} games to play",
            tally.pairs,
            tally.games,
            if cut {
                " (an unfinished last line was cut off)"
            } else {
                ""
            }
        )
        .map_err(crate::engine::output::stdout_error)?;
    }
    // Resumed pairs may already decide the test.
    let decided = config
        .sprt
        .is_some_and(|sprt| sprt.verdict(&tally.pentanomial) != SprtVerdict::Continue);
    if decided {
        queue.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
    let outputs = Outputs {
        records: files.0,
        ggf: files.1,
        jsonl,
        info,
    };
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let results = results.clone();
            let spec = spec.clone();
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) && !interrupted() {
                    let Some(job) = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front()
                    else {
                        return;
                    };
                    let played = play_job(config, &spec, &job);
                    if results.send(played).is_err() {
                        return;
                    }
                }
            });
        }
        drop(results);
        report(config, total, finished, outputs, tally, &stop, out)
    })
}

/// Swap2 is a Gomoku opening on a free board, every game from the empty board.
fn check_swap2(config: &MatchConfig) -> Result<(), String> {
    match config.variant {
        Variant::KInRow(rules) if rules.family == crate::game::gomoku::Family::Gomoku => {
            if rules.opening != crate::game::gomoku::Opening::Free {
                return Err(format!(
                    "--opening swap2 places stones anywhere: {} needs opening=free",
                    config.variant
                ));
            }
        }
        other => {
            return Err(format!(
                "--opening swap2 is a Gomoku opening, not one of {other}"
            ));
        }
    }
    if config
        .openings
        .iter()
        .any(|setup| *setup != Setup::Moves(Vec::new()))
    {
        return Err("--opening swap2 starts every game from the empty board: no openings".into());
    }
    Ok(())
}

fn game_spec(variant: Variant) -> String {
    variant.to_string()
}

/// Starts fresh engine processes for one game (so a crash never carries over) and plays
/// it. An engine that will not start loses this game, and the match goes on. Under
/// Swap2 the job's Black is the proposer, and the colours are the ones it decided.
fn play_job(config: &MatchConfig, spec: &str, job: &Job) -> Played {
    let start = |index: usize| {
        let engine = &config.engines[index];
        foreign::start(
            &engine.name,
            &engine.command,
            engine.proto,
            config.variant,
            config.control,
            engine.threads,
            engine.max_depth,
        )
    };
    let never_started = |side, reason| {
        let record = config.variant.visit(NeverStarted(side, reason));
        (record, job.setup.clone())
    };
    let (record, setup) = match (start(job.black), start(job.white)) {
        (Ok(mut black), Ok(mut white)) => {
            let played = config.variant.visit(PlayOne {
                job,
                spec: spec.to_string(),
                engines: [black.as_mut(), white.as_mut()],
                control: config.control,
                swap2: config.swap2,
            });
            black.quit();
            white.quit();
            played
        }
        (Err(reason), _) => never_started(Side::Black, reason),
        (_, Err(reason)) => never_started(Side::White, reason),
    };
    let proposer_white = record
        .swap2
        .as_ref()
        .is_some_and(|log| log.proposer == Side::White);
    let (black, white) = if proposer_white {
        (job.white, job.black)
    } else {
        (job.black, job.white)
    };
    Played {
        number: job.number,
        pair: job.pair,
        black,
        white,
        setup,
        record,
    }
}

/// A game lost before its first move by the engine on `.0`'s side.
struct NeverStarted(Side, String);

impl GameVisitor for NeverStarted {
    type Output = GameRecord;
    fn visit<G: SearchGame>(self, game: G) -> GameRecord {
        lost_before_start(self.0, self.1, game.forfeit_score())
    }
}

/// Every game of the match in order: two per pair (one opening, colours swapped), the
/// pairings of a round robin one after another. Game and pair numbers come from here,
/// so every shard numbers them alike.
fn schedule(engines: usize, openings: &[Setup]) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut pair = 0;
    for first in 0..engines {
        for second in first + 1..engines {
            for setup in openings {
                for (black, white) in [(first, second), (second, first)] {
                    jobs.push(Job {
                        number: jobs.len() + 1,
                        pair,
                        black,
                        white,
                        setup: setup.clone(),
                    });
                }
                pair += 1;
            }
        }
    }
    jobs
}

/// A pair whose two games have both ended, in the order they were numbered.
pub struct PairDone {
    pub games: [Played; 2],
    /// The pairing's first engine's points over both games, doubled (0..=4).
    pub points: usize,
    /// The two games are one game played twice.
    pub identical: bool,
}

/// The finished games of a match: a running match and `arbor match merge` count them
/// the same way.
pub struct Tally {
    pub standings: Vec<Standing>,
    /// Pairs with one game finished.
    pending: std::collections::HashMap<usize, Played>,
    /// Pairs by the points the pairing's first engine scored (two engines: the first
    /// engine's pentanomial counts).
    pub pentanomial: [u32; 5],
    pub games: usize,
    pub pairs: usize,
    pub identical_pairs: usize,
}

impl Tally {
    pub fn new(engines: usize) -> Tally {
        Tally {
            standings: vec![Standing::default(); engines],
            pending: Default::default(),
            pentanomial: [0; 5],
            games: 0,
            pairs: 0,
            identical_pairs: 0,
        }
    }

    /// Counts a finished game; returns its pair once both games are in.
    pub fn add(&mut self, played: Played) -> Option<PairDone> {
        self.games += 1;
        let record = &played.record;
        let (black, white) = (played.black, played.white);
        let black_points = match record.winner {
            Some(Side::Black) => 1.0,
            Some(Side::White) => 0.0,
            None => 0.5,
        };
        for (index, points, sign) in [(black, black_points, 1), (white, 1.0 - black_points, -1)] {
            let standing = &mut self.standings[index];
            match points {
                1.0 => standing.wins += 1,
                0.0 => standing.losses += 1,
                _ => standing.draws += 1,
            }
            standing.disc_score += (sign * record.black_score) as i64;
        }
        let culprit = |side: &Side| if *side == Side::Black { black } else { white };
        match &record.ending {
            Ending::Rules => {}
            Ending::TimeForfeit(side) => self.standings[culprit(side)].time_forfeits += 1,
            Ending::Illegal(side, _) => self.standings[culprit(side)].illegal += 1,
            Ending::Failure(side, _) => self.standings[culprit(side)].failures += 1,
        }
        let other = self.pending.remove(&played.pair);
        let Some(other) = other else {
            self.pending.insert(played.pair, played);
            return None;
        };
        let games = if other.number < played.number {
            [other, played]
        } else {
            [played, other]
        };
        let identical = !games[0].record.moves.is_empty()
            && games[0].setup == games[1].setup
            && games[0].record.moves == games[1].record.moves;
        let points = campaign::pair_points(&games);
        self.pairs += 1;
        self.identical_pairs += identical as usize;
        self.pentanomial[points] += 1;
        Some(PairDone {
            games,
            points,
            identical,
        })
    }
}

/// Where finished games are written.
struct Outputs {
    records: Option<records::Appender>,
    ggf: Option<records::Appender>,
    jsonl: Option<records::Appender>,
    info: MatchInfo,
}

fn sprt_line(sprt: Sprt, pentanomial: &[u32; 5]) -> String {
    let (low, high) = sprt.bounds();
    let llr = sprt.llr(pentanomial);
    format!("sprt: llr {llr:.3} bounds [{low:.3}, {high:.3}] pairs {pentanomial:?}")
}

/// The column of summed game scores: Othello's disc score, elsewhere wins minus losses.
pub fn margin_label(variant: Variant) -> &'static str {
    match variant {
        Variant::Othello { .. } => "discs",
        Variant::KInRow(_) => "margin",
    }
}

/// The end of a match's output, also what `arbor match merge` prints: the table, for two
/// engines the pair counts and the SPRT's state, and identical pairs.
pub fn summary(names: &[&str], tally: &Tally, sprt: Option<Sprt>, margin: &str) -> String {
    let mut text = table(names, &tally.standings, margin);
    if names.len() == 2 {
        let _ = writeln!(
            text,
            "pairs {:?} (pairs in which {} scored 0, 0.5, 1, 1.5, 2 points)",
            tally.pentanomial, names[0]
        );
        if let Some(sprt) = sprt {
            let verdict = match sprt.verdict(&tally.pentanomial) {
                SprtVerdict::Continue => "no decision yet",
                SprtVerdict::H1 => "H1 accepted",
                SprtVerdict::H0 => "H0 accepted",
            };
            let _ = writeln!(text, "{}: {verdict}", sprt_line(sprt, &tally.pentanomial));
        }
    }
    if tally.identical_pairs > 0 {
        let _ = writeln!(
            text,
            "warning: {} of {} pairs were one game played twice",
            tally.identical_pairs, tally.pairs
        );
    }
    text
}

fn report(
    config: &MatchConfig,
    total: usize,
    finished: mpsc::Receiver<Played>,
    outputs: Outputs,
    mut tally: Tally,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Vec<Standing>, String> {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let mut done = 0;
    // The first error (a records file that cannot be written) stops the match; the games
    // played are still tallied and the table printed before the error is returned.
    let mut error: Option<String> = None;
    let Outputs {
        mut records,
        mut ggf,
        mut jsonl,
        info,
    } = outputs;
    for played in finished {
        if interrupted() {
            stop.store(true, Ordering::Relaxed);
            continue;
        }
        done += 1;
        let mut lines = Vec::new();
        if error.is_none() {
            let written = records
                .as_mut()
                .map_or(Ok(()), |file| {
                    file.append(&records::text_line(&played, &names, config.variant))
                })
                .and_then(|()| match (ggf.as_mut(), config.variant) {
                    (Some(file), Variant::Othello { size, rule }) => {
                        file.append(&records::ggf(&played, &names, size, rule, config.control))
                    }
                    _ => Ok(()),
                });
            if let Err(message) = written {
                stop.store(true, Ordering::Relaxed);
                error = Some(message);
            }
        }
        let (black, white) = (played.black, played.white);
        let opening = match &played.record.swap2 {
            Some(log) => format!(" swap2 {}: {}", names[played.seats().0], log.text()),
            None => String::new(),
        };
        let line = format!(
            "game {done}/{total}: {} (black) - {} (white): {} {:+} ({}){opening}",
            names[black],
            names[white],
            result_text(played.record.winner),
            played.record.black_score,
            ending_text(&played.record),
        );
        let pair = tally.add(played);
        lines.push(format!(
            "{line}  [{}: {}]",
            names[0],
            score_line(&tally.standings[0])
        ));
        let Some(pair) = pair else {
            write_lines(out, &lines, stop);
            continue;
        };
        if pair.identical {
            lines.push(format!(
                "warning: games {} and {} are the same game with colours swapped: the \
                 pair says nothing about strength (deterministic engines need varied openings)",
                pair.games[0].number, pair.games[1].number
            ));
        }
        if error.is_none()
            && let Some(file) = jsonl.as_mut()
            && let Err(message) = file.append(&campaign::pair_line(&info, &pair))
        {
            stop.store(true, Ordering::Relaxed);
            error = Some(message);
        }
        if names.len() == 2
            && let Some(sprt) = config.sprt
        {
            lines.push(sprt_line(sprt, &tally.pentanomial));
            match sprt.verdict(&tally.pentanomial) {
                SprtVerdict::Continue => {}
                verdict => {
                    let accepted = if verdict == SprtVerdict::H1 {
                        "H1"
                    } else {
                        "H0"
                    };
                    lines.push(format!("sprt: {accepted} accepted"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        write_lines(out, &lines, stop);
    }
    let mut text = String::new();
    if interrupted() {
        text.push_str(&format!(
            "interrupted after {done} of {total} games (games cut short are not counted)\n"
        ));
    }
    text.push_str(&summary(
        &names,
        &tally,
        config.sprt,
        margin_label(config.variant),
    ));
    write!(out, "{text}").map_err(|e| e.to_string())?;
    match error {
        Some(message) => Err(format!("the match stopped after {done} games: {message}")),
        None => Ok(tally.standings),
    }
}

/// Prints a game's lines; the output going away ends the match, not the tally.
fn write_lines(out: &mut dyn Write, lines: &[String], stop: &AtomicBool) {
    for line in lines {
        if writeln!(out, "{line}").is_err() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    let _ = out.flush();
}

pub fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::Black) => "1-0",
        Some(Side::White) => "0-1",
        None => "1/2-1/2",
    }
}

pub fn ending_text(record: &GameRecord) -> String {
    match &record.ending {
        Ending::Rules => format!("over {}", record.status),
        Ending::TimeForfeit(side) => format!("{side} lost on time"),
        Ending::Illegal(side, text) => format!("{side} played an illegal move '{text}'"),
        Ending::Failure(side, text) => format!("{side} {text}"),
    }
}

fn score_line(standing: &Standing) -> String {
    let points = standing.wins as f64 + 0.5 * standing.draws as f64;
    format!(
        "{points}/{}",
        standing.wins + standing.draws + standing.losses
    )
}

/// The final table: one row per engine against the field. `margin` heads the column of
/// summed game scores (Othello: the exam's disc score; other games: wins minus losses).
pub fn table(names: &[&str], standings: &[Standing], margin: &str) -> String {
    let mut text = format!(
        "{:<16} {:>5} {:>5} {:>5} {:>5} {:>7} {:>8} {:>17} {:>6} {:>9} {:>7} {:>7} {:>8}\n",
        "engine",
        "games",
        "wins",
        "draws",
        "loss",
        "score",
        "elo",
        "95% interval",
        "los",
        margin,
        "time",
        "illegal",
        "failures"
    );
    for (name, s) in names.iter().zip(standings) {
        let games = s.wins + s.draws + s.losses;
        let estimate = elo_estimate(s.wins, s.draws, s.losses);
        let score = if games == 0 {
            0.0
        } else {
            100.0 * (s.wins as f64 + 0.5 * s.draws as f64) / games as f64
        };
        let _ = writeln!(
            text,
            "{:<16} {:>5} {:>5} {:>5} {:>5} {:>6.1}% {:>+8.1} {:>+8.1}..{:<+7.1} {:>5.1}% {:>9} {:>7} {:>7} {:>8}",
            name,
            games,
            s.wins,
            s.draws,
            s.losses,
            score,
            estimate.elo,
            estimate.low,
            estimate.high,
            100.0 * estimate.los,
            s.disc_score,
            s.time_forfeits,
            s.illegal,
            s.failures
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_files_take_moves_and_boards() {
        let variant = Variant::default();
        let text = "# openings\nf5d6c3\nf5 f6\n---------------------------OX------XO--------------------------- X\n";
        let openings = read_openings(text, variant).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(
            openings[0],
            Setup::Moves(vec!["f5".into(), "d6".into(), "c3".into()])
        );
        assert_eq!(openings[1], Setup::Moves(vec!["f5".into(), "f6".into()]));
        assert!(matches!(openings[2], Setup::Board(_)));
        assert!(read_openings("f5f5\n", variant).is_err());
        assert!(read_openings("a1\n", variant).is_err());
        let gomoku = Variant::parse("gomoku", []).unwrap();
        let openings = read_openings("h8h9i10\n7,7 7,8\n", gomoku).unwrap();
        assert_eq!(
            openings[0],
            Setup::Moves(vec!["h8".into(), "h9".into(), "i10".into()])
        );
        assert_eq!(openings[1], Setup::Moves(vec!["7,7".into(), "7,8".into()]));
        assert!(
            read_openings("h9\n", gomoku).is_err(),
            "the centre comes first"
        );
    }

    /// XOT's openings file (`openingslarge.txt`, 8 moves run together a line) is an
    /// openings file as it is: its first lines, and one with CRLF.
    #[test]
    fn xot_lines_are_openings() {
        let text = "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\r\nf5f6d3c5d6c7b5e3\n";
        let openings = read_openings(text, Variant::default()).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(
            openings[1],
            Setup::Moves(
                ["f5", "f4", "g3", "g6", "f3", "g4", "e3", "e2"]
                    .map(String::from)
                    .to_vec()
            )
        );
        let error = read_openings("f5d6c4d3c2b3b4b5\nf5d6c4d3c2b3b4h8\n", Variant::default());
        assert!(error.unwrap_err().starts_with("2: "));
    }

    /// The Gomoku openings shipped for series: each reads as a legal opening on its
    /// board, none repeats, and the offsets file c-gomoku-cli reads names the same
    /// stones from the centre.
    #[test]
    fn shipped_gomoku_openings_are_legal_distinct_and_match_their_offsets() {
        let sets = [
            (
                "gomoku10",
                15,
                10,
                include_str!("../../scripts/openings/gomoku10.txt"),
                Some(include_str!("../../scripts/openings/gomoku10-offsets.txt")),
            ),
            (
                "balanced20",
                15,
                20,
                include_str!("../../scripts/openings/gomoku-balanced20.txt"),
                Some(include_str!(
                    "../../scripts/openings/gomoku-balanced20-offsets.txt"
                )),
            ),
            (
                "balanced20-size20",
                20,
                20,
                include_str!("../../scripts/openings/gomoku-balanced20-size20.txt"),
                None,
            ),
            (
                "balanced60",
                15,
                60,
                include_str!("../../scripts/openings/gomoku-balanced60.txt"),
                Some(include_str!(
                    "../../scripts/openings/gomoku-balanced60-offsets.txt"
                )),
            ),
            (
                "balanced200",
                15,
                200,
                include_str!("../../scripts/openings/gomoku-balanced200.txt"),
                Some(include_str!(
                    "../../scripts/openings/gomoku-balanced200-offsets.txt"
                )),
            ),
        ];
        for (name, size, count, text, offsets) in sets {
            let variant = Variant::parse(
                "gomoku",
                [("size", size.to_string().as_str()), ("opening", "free")],
            )
            .unwrap();
            let openings = read_openings(text, variant).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(openings.len(), count, "{name}");
            // The same stones, in whatever order, are the same opening.
            let positions: std::collections::HashSet<[Vec<&str>; 2]> = text
                .lines()
                .map(|line| {
                    let stones: Vec<&str> = line.split_whitespace().collect();
                    let mut sides = [Vec::new(), Vec::new()];
                    for (i, stone) in stones.into_iter().enumerate() {
                        sides[i % 2].push(stone);
                    }
                    sides.iter_mut().for_each(|side| side.sort_unstable());
                    sides
                })
                .collect();
            assert_eq!(positions.len(), count, "{name}: an opening repeats");
            let Some(offsets) = offsets else { continue };
            let centre: i32 = size / 2;
            let from_offsets: Vec<String> = offsets
                .lines()
                .map(|line| {
                    let numbers: Vec<i32> =
                        line.split(',').map(|n| n.trim().parse().unwrap()).collect();
                    let stones: Vec<String> = numbers
                        .chunks(2)
                        .map(|xy| format!("{},{}", xy[0] + centre, xy[1] + centre))
                        .collect();
                    stones.join(" ")
                })
                .collect();
            let from_points: Vec<&str> = text.lines().map(str::trim).collect();
            assert_eq!(from_offsets, from_points, "{name}: offsets differ");
        }
    }

    /// The renju openings shipped: Rapfi's self-play starts and the 20 classic openings
    /// (offsets from the centre, as c-gomoku-cli reads them) are legal renju openings,
    /// none repeated.
    #[test]
    fn shipped_renju_openings_are_legal_and_distinct() {
        let variant = Variant::parse("gomoku", [("rule", "renju"), ("opening", "free")]).unwrap();
        let offsets = include_str!("../../scripts/openings/renju20-offsets.txt");
        let classic: String = offsets
            .lines()
            .map(|line| {
                let numbers: Vec<i32> =
                    line.split(',').map(|n| n.trim().parse().unwrap()).collect();
                let stones: Vec<String> = (numbers.chunks(2))
                    .map(|xy| format!("{},{}", xy[0] + 7, xy[1] + 7))
                    .collect();
                stones.join(" ") + "\n"
            })
            .collect();
        for (text, count) in [
            (
                include_str!("../../scripts/openings/renju-rapfi131.txt"),
                131,
            ),
            (classic.as_str(), 20),
        ] {
            assert_eq!(read_openings(text, variant).unwrap().len(), count);
            let distinct: std::collections::HashSet<&str> = text.lines().collect();
            assert_eq!(distinct.len(), count);
        }
    }

    /// For many engine counts, openings (from several seeds) and shard counts, the
    /// shards together hold every game exactly once, a pair's two games in one shard.
    #[test]
    fn shards_cover_every_pair_once() {
        let variant = Variant::Othello {
            size: 6,
            rule: crate::game::othello::Rule::Normal,
        };
        for seed in [1, 2, 99] {
            for rounds in [1, 2, 5, 13] {
                let openings = random_openings(variant, rounds, 3, seed);
                assert_eq!(openings, random_openings(variant, rounds, 3, seed));
                for engines in 2..=4 {
                    let all = schedule(engines, &openings);
                    let pairs = engines * (engines - 1) / 2 * rounds;
                    assert_eq!(all.len(), 2 * pairs);
                    for count in 1..=9 {
                        let mut seen = vec![0; all.len()];
                        for index in 1..=count {
                            let shard = Shard::parse(&format!("{index}/{count}")).unwrap();
                            let mine: Vec<&Job> =
                                all.iter().filter(|job| shard.owns(job.pair)).collect();
                            for job in &mine {
                                seen[job.number - 1] += 1;
                                assert_eq!((job.number - 1) / 2, job.pair);
                                let partner = mine.iter().filter(|j| j.pair == job.pair);
                                assert_eq!(partner.count(), 2, "pair {} split", job.pair);
                            }
                            // Dealt in turn: shards differ by at most one pair.
                            let expected = pairs / count + (index - 1 < pairs % count) as usize;
                            assert_eq!(
                                mine.len(),
                                2 * expected,
                                "{seed} {engines} {index}/{count}"
                            );
                        }
                        assert!(seen.iter().all(|&n| n == 1), "{seed} {engines} {count}");
                    }
                }
            }
        }
    }

    #[test]
    fn random_openings_are_legal_and_repeatable() {
        let variant = Variant::default();
        let a = random_openings(variant, 5, 8, 7);
        assert_eq!(a.len(), 5);
        for opening in &a {
            let Setup::Moves(moves) = opening else {
                panic!()
            };
            assert_eq!(moves.len(), 8);
        }
        let text: Vec<String> = a
            .iter()
            .map(|o| match o {
                Setup::Moves(m) => m.join(""),
                Setup::Board(b) => b.clone(),
            })
            .collect();
        assert!(read_openings(&text.join("\n"), variant).is_ok());
        let b = random_openings(variant, 5, 8, 7);
        assert_eq!(a, b);
    }
}
