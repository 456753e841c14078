//! The engine core: one game's lifecycle behind every front end.
//!
//! [`Engine`] owns the game and its history, the searcher that persists across moves
//! (tables, killers, history), the running job and its stop, the clock's move overhead
//! and the memory budget. Front ends (`protocol::native`, `protocol::gomocup`,
//! `cli::play`) only parse, call the core and format; they all run on the one reader and
//! event loop in [`events`].

#[cfg(test)]
pub(crate) mod capture;
pub mod clock;
pub mod error;
pub mod events;
pub mod input;
pub mod job;
pub mod output;
mod session;
pub mod swap2;

use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

pub use self::error::EngineError;
use self::events::Event;
use self::job::{JobKind, Outcome, Running};
use self::session::{Session, Task, new_session};
use crate::bounds::{MAX_BOOK_SPREAD, MAX_HASH_MB, MAX_JAMBOREE, MAX_MOVE_OVERHEAD, MAX_THREADS};
use crate::game::roles::{Proof, ScoreValue};
use crate::game::variant::Variant;
use crate::game::{Move, Side};
use crate::memory;
use crate::players::PlayerKind;
use crate::search::SearchResult;
use crate::search::analysis::AnalysisRequest;
use crate::search::limits::Limits;
use crate::search::report::Report;
use crate::search::time::{DEFAULT_MOVE_OVERHEAD, TimeManager};
use crate::stop::Stop;

/// Default memory for all of the engine's tables, MiB.
pub const DEFAULT_HASH_MB: usize = 128;
/// How long `solve` looks for a forced win by threats when no limit is given.
pub const THREAT_SOLVE_DEFAULT: Duration = Duration::from_secs(10);
/// How long an analysis without a time limit looks for a forced win by threats first.
pub const ANALYSIS_THREAT_TIME: Duration = Duration::from_secs(2);
/// The largest Othello position an analysis without a time limit solves exactly.
pub const ANALYSIS_SOLVE_LIMIT: u32 = 24;

/// What an analysis asks for (`analyze`, `hint K`, the batch engine, reviews).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// How many of the best moves get exact scores; `None` for every one.
    pub lines: Option<usize>,
    /// The moves to analyse (names); empty for every move the search considers.
    pub moves: Vec<String>,
    pub time: Option<Duration>,
    /// A fixed depth: midgame search only, no solver (unless the depth reaches the end
    /// of the game: at least the empty squares, or every line searched ends the game).
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Reports also come this often during an iteration.
    pub interval: Option<Duration>,
}

/// How an engine starts (the command line mirrors `set`).
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: Variant,
    pub player: PlayerKind,
    /// `None` seeds from the system's entropy.
    pub seed: Option<u64>,
    /// Memory for all tables, MiB.
    pub hash_mb: usize,
    /// Search threads (`set threads`).
    pub threads: usize,
    /// Children the exact solver searches alone before a split (`set jamboree`).
    pub jamboree: usize,
    /// Kept back from every move for pipes and scheduling.
    pub move_overhead: Duration,
    /// Whether `go` plays from the opening book where the game has one (`set book`).
    pub book: bool,
    /// How far below the book's best a book move may score and still be chosen, in the
    /// game's unit (Othello: discs); 0 plays a best one (`set book_spread`).
    pub book_spread: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            variant: Variant::default(),
            player: PlayerKind::default(),
            seed: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            jamboree: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            book: true,
            book_spread: 0,
        }
    }
}

/// How a job ended, as the core hands it to the front end.
#[derive(Debug)]
pub enum Finished {
    /// `go`: the move was played.
    Played {
        mv: Move,
        name: String,
        result: Option<SearchResult>,
    },
    /// A hint: the move the engine would play (not played).
    Hinted {
        mv: Move,
        name: String,
        result: Option<SearchResult>,
    },
    /// An analysis's last full report (best line first).
    Analyzed { report: Report },
    /// A solve's proof (exact, or a bound when stopped) and its line's names; `threat`
    /// when it came from the threat solver (a forced win) rather than an exact solve.
    Solved {
        proof: Proof,
        line: Vec<String>,
        threat: bool,
    },
    /// A solve that proved nothing: `stopped` by `stop`, else out of time (or, for the
    /// threat solver, no forced win within reach); `threat` as in `Solved`.
    Unsolved { stopped: bool, threat: bool },
    Counted {
        leaves: Option<u64>,
        elapsed: Duration,
    },
    /// A Swap2 decision (see [`swap2`]), its stones played; the analysis's last report.
    Swap2 {
        answer: swap2::Answer,
        report: Report,
    },
    /// The job panicked (or chose an illegal move); nothing was played.
    Failed { kind: JobKind, message: String },
}

pub struct Engine {
    session: Box<dyn Session>,
    player: PlayerKind,
    /// Fixed search depth for `go` (`set level`), 0 for none.
    level: u32,
    move_overhead: Duration,
    book: bool,
    book_spread: u32,
    rng: StdRng,
    events: Sender<Event>,
    job: Option<Running>,
    /// The stage of the Swap2 decision running.
    swap2_stage: Option<swap2::Stage>,
}

impl Engine {
    /// A core and the receiving end of its event channel (for [`events::run`]).
    pub fn new(settings: &Settings) -> Result<(Engine, Receiver<Event>), EngineError> {
        check_hash(settings.hash_mb)?;
        memory::check_available(settings.hash_mb, 0).map_err(EngineError::Memory)?;
        let (events, receiver) = mpsc::channel();
        let engine = Engine {
            session: new_session(
                settings.variant,
                settings.hash_mb,
                settings.threads.clamp(1, MAX_THREADS),
                settings.jamboree.clamp(1, MAX_JAMBOREE),
            )?,
            player: settings.player,
            level: 0,
            move_overhead: settings.move_overhead.min(MAX_MOVE_OVERHEAD),
            book: settings.book,
            book_spread: settings.book_spread.min(MAX_BOOK_SPREAD),
            rng: settings
                .seed
                .map_or_else(StdRng::from_os_rng, StdRng::seed_from_u64),
            events,
            job: None,
            swap2_stage: None,
        };
        Ok((engine, receiver))
    }

    /// A sender onto the event channel (the reader's).
    pub fn events(&self) -> Sender<Event> {
        self.events.clone()
    }

    // The game.

    pub fn variant(&self) -> Variant {
        self.session.variant()
    }

    /// A new game: `None` restarts the current variant (keeping its tables' size).
    pub fn new_game(&mut self, variant: Option<Variant>) -> Result<(), EngineError> {
        self.ensure_idle()?;
        match variant {
            Some(variant) if variant != self.session.variant() => {
                let megabytes = self.session.megabytes();
                let (threads, jamboree) = (self.session.threads(), self.session.jamboree());
                self.session = new_session(variant, megabytes, threads, jamboree)?;
            }
            _ => self.session.restart(),
        }
        Ok(())
    }

    pub fn set_board(&mut self, cells: &str, side: Side) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.session.set_board(cells, side)
    }

    /// Plays a move given as text for the side to move; returns its name.
    pub fn play(&mut self, text: &str) -> Result<String, EngineError> {
        self.ensure_idle()?;
        let mv = self.session.legal_move(text)?;
        self.session.play(mv)
    }

    /// Plays the pass a record left out before its move `next` (by `side`, where the
    /// record names colours; see [`crate::game::pass_left_out`]); returns whether it did.
    pub fn fill_left_out_pass(
        &mut self,
        side: Option<Side>,
        next: Option<Move>,
    ) -> Result<bool, EngineError> {
        let left_out =
            crate::game::pass_left_out(&self.legal_moves(), self.side_to_move(), side, next);
        if left_out {
            self.play_move(Move::PASS)?;
        }
        Ok(left_out)
    }

    /// Parses a move name (syntax and board bounds, not legality).
    pub fn parse_move(&self, text: &str) -> Result<Move, EngineError> {
        self.session.parse_move(text)
    }

    /// Plays a legal move for the side to move; returns its name.
    pub fn play_move(&mut self, mv: Move) -> Result<String, EngineError> {
        self.ensure_idle()?;
        self.session.play(mv)
    }

    /// Takes back the last move; returns its name.
    pub fn undo(&mut self) -> Result<String, EngineError> {
        self.ensure_idle()?;
        let mv = self.session.undo()?;
        Ok(self.session.move_name(mv))
    }

    pub fn history(&self) -> Vec<Move> {
        self.session.history()
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        self.session.legal_moves()
    }

    pub fn move_name(&self, mv: Move) -> String {
        self.session.move_name(mv)
    }

    /// The names of a line of moves from the current position (a report's PV).
    pub fn line_names(&self, line: &[Move]) -> Vec<String> {
        self.session.line_names(line)
    }

    /// The field index (row * size + column) of a point; `None` for a pass.
    pub fn field_index(&self, mv: Move) -> Option<usize> {
        self.session.field_index(mv)
    }

    pub fn size(&self) -> usize {
        self.session.size()
    }

    pub fn side_to_move(&self) -> Side {
        self.session.side_to_move()
    }

    pub fn outcome(&self) -> Option<crate::game::Outcome> {
        self.session.outcome()
    }

    /// `playing <side> [details]` or `over <winner|draw> <details>`.
    pub fn status(&self) -> String {
        self.session.status()
    }

    pub fn show(&self) -> String {
        self.session.show()
    }

    /// The board row by row (`X`, `O`, `-`), as `set_board` reads it.
    pub fn cells(&self) -> String {
        self.session.cells()
    }

    /// Fields where the rule forbids Black a stone (renju's forbidden points).
    pub fn forbidden_fields(&self) -> Vec<usize> {
        self.session.forbidden_fields()
    }

    pub fn score_value(&self, score: i32, exact: bool) -> ScoreValue {
        self.session.score_value(score, exact)
    }

    /// A finished game's result from Black's view (Othello: the disc margin with the
    /// empty squares to the winner; the others: 1, 0 or -1).
    pub fn match_score(&self) -> i32 {
        self.session.match_score()
    }

    // Options.

    pub fn set_player(&mut self, player: PlayerKind) {
        self.player = player;
    }

    pub fn set_level(&mut self, level: u32) {
        self.level = level;
    }

    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    pub fn set_book_spread(&mut self, spread: u32) -> Result<(), EngineError> {
        if spread > MAX_BOOK_SPREAD {
            return Err(EngineError::OutOfRange(format!(
                "{spread} is outside 0..={MAX_BOOK_SPREAD}"
            )));
        }
        self.book_spread = spread;
        Ok(())
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    pub fn set_move_overhead(&mut self, overhead: Duration) -> Result<(), EngineError> {
        if overhead > MAX_MOVE_OVERHEAD {
            return Err(EngineError::OutOfRange(format!(
                "move overhead {} ms is above {} ms",
                overhead.as_millis(),
                MAX_MOVE_OVERHEAD.as_millis()
            )));
        }
        self.move_overhead = overhead;
        Ok(())
    }

    /// Resizes every table to share `megabytes` MiB; a size the machine cannot provide
    /// is refused and the old tables stay.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), EngineError> {
        self.ensure_idle()?;
        check_hash(megabytes)?;
        let current = self.session.megabytes();
        if megabytes != current {
            memory::check_available(megabytes, current).map_err(EngineError::Memory)?;
            self.session.set_memory(megabytes)?;
        }
        Ok(())
    }

    pub fn threads(&self) -> usize {
        self.session.threads()
    }

    /// Searches with `threads` threads from the next job on; refused while one runs.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        self.ensure_idle()?;
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(EngineError::OutOfRange(format!(
                "threads {threads} is outside 1..={MAX_THREADS}"
            )));
        }
        let runnable = crate::bounds::runnable_threads(threads);
        if runnable < threads {
            log::warn!(
                "threads {threads}: this machine runs {runnable} at once, so searches use {runnable}"
            );
        }
        self.session.set_threads(threads);
        Ok(())
    }

    pub fn jamboree(&self) -> usize {
        self.session.jamboree()
    }

    /// With several threads, the exact solver searches the first `children` moves of a
    /// node alone before sharing out the rest (Jamboree search); refused while a job
    /// runs.
    pub fn set_jamboree(&mut self, children: usize) -> Result<(), EngineError> {
        self.ensure_idle()?;
        if !(1..=MAX_JAMBOREE).contains(&children) {
            return Err(EngineError::OutOfRange(format!(
                "{children} is outside 1..={MAX_JAMBOREE}"
            )));
        }
        self.session.set_jamboree(children);
        Ok(())
    }

    /// Empties every table (and touches all of their memory).
    pub fn clear_hash(&mut self) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.session.clear_tables();
        Ok(())
    }

    // Jobs.

    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Raises the running job's stop; it answers soon with what it has.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop.raise();
        }
    }

    /// The input has ended: a job that only a stop would end (an analysis without a
    /// limit) is stopped, so that it answers and the front end can exit; a job with a
    /// limit runs to it.
    pub fn end_of_input(&self) {
        if let Some(job) = &self.job
            && job.endless
        {
            job.stop.raise();
        }
    }

    /// Starts choosing a move for the side to move within `limits` (the raw clock),
    /// counting from `started` (when the command arrived); the move is played when the
    /// job ends.
    pub fn go(&mut self, limits: Limits, started: Instant) -> Result<(), EngineError> {
        self.choose(JobKind::Go, limits, started)
    }

    /// [`Engine::go`] without playing the move: a hint.
    pub fn hint(&mut self, limits: Limits, started: Instant) -> Result<(), EngineError> {
        self.choose(JobKind::Hint, limits, started)
    }

    fn choose(
        &mut self,
        kind: JobKind,
        limits: Limits,
        started: Instant,
    ) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.check_playable()?;
        let mut limits = limits;
        if self.level > 0 {
            limits.depth.get_or_insert(self.level);
        }
        let moves_left = self.session.moves_left();
        let mut time = TimeManager::new(&limits, moves_left, self.move_overhead, started);
        if limits.depth.is_none() {
            time.plan_solve(self.session.exact_size());
        }
        let stop = Stop::never()
            .with_deadline(time.hard_deadline())
            .with_node_limit(limits.nodes.unwrap_or(u64::MAX));
        let task = Task::Choose {
            limits,
            time,
            player: self.player,
            seed: self.rng.next_u64(),
            book: self.book.then_some(self.book_spread),
        };
        self.start(kind, task, stop)
    }

    /// Starts an analysis of the position (nothing is played), counting from `started`.
    pub fn analyze(
        &mut self,
        options: &AnalysisOptions,
        started: Instant,
    ) -> Result<(), EngineError> {
        self.ensure_idle()?;
        let (request, stop) = self.analysis_request(options, started)?;
        self.start(JobKind::Analyze, Task::Analyze(request), stop)
    }

    /// The request and stop of an analysis of the position under `options`.
    fn analysis_request(
        &self,
        options: &AnalysisOptions,
        started: Instant,
    ) -> Result<(AnalysisRequest, Stop), EngineError> {
        self.check_playable()?;
        let mut moves = Vec::new();
        for text in &options.moves {
            let mv = self.session.legal_move(text)?;
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
        let (solve_limit, threat_time) = match (options.depth, options.time) {
            (Some(_), _) => (0, None),
            (None, Some(time)) => {
                let limits = Limits {
                    movetime: Some(time),
                    ..Limits::default()
                };
                let manager = TimeManager::new(&limits, 1, Duration::ZERO, started);
                (manager.solve_limit(), Some(time / 3))
            }
            (None, None) => (ANALYSIS_SOLVE_LIMIT, Some(ANALYSIS_THREAT_TIME)),
        };
        let request = AnalysisRequest {
            lines: options.lines,
            moves,
            max_depth: options.depth,
            solve_limit,
            threat_time,
            interval: options.interval,
        };
        let stop = Stop::never()
            .with_deadline(options.time.map(|time| started + time))
            .with_node_limit(options.nodes.unwrap_or(u64::MAX));
        Ok((request, stop))
    }

    /// The kind of job running, if any.
    pub fn job_kind(&self) -> Option<JobKind> {
        self.job.as_ref().map(|job| job.kind)
    }

    /// Starts an exact solve (or, where the game has none that fits, a search for a
    /// forced win by threats), within `limit` if given.
    pub fn solve(&mut self, limit: Option<Duration>) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.check_playable()?;
        if !self.session.can_solve() {
            return Err(EngineError::NoSolver(self.session.variant()));
        }
        // A threat search may find nothing for ever: it gets a default limit.
        let limit = limit.or(self
            .session
            .exact_size()
            .is_none()
            .then_some(THREAT_SOLVE_DEFAULT));
        let stop = Stop::never().with_deadline(limit.map(|limit| Instant::now() + limit));
        self.start(JobKind::Solve, Task::Solve, stop)
    }

    /// Starts counting the leaves of the game tree at `depth`.
    pub fn perft(&mut self, depth: u32) -> Result<(), EngineError> {
        self.ensure_idle()?;
        let stop = Stop::never();
        self.start(JobKind::Perft, Task::Perft(depth), stop)
    }

    /// Turns a job's outcome into what the front end answers; plays a `go` move.
    pub fn finish(&mut self, outcome: Outcome) -> Finished {
        let Some(job) = self.job.take() else {
            return Finished::Failed {
                kind: JobKind::Go,
                message: "internal error: no job was running".to_string(),
            };
        };
        let swap2_stage = self.swap2_stage.take();
        match outcome {
            Outcome::Chose { mv, result } if job.kind == JobKind::Go => {
                match self.session.play(mv) {
                    Ok(name) => Finished::Played { mv, name, result },
                    Err(error) => Finished::Failed {
                        kind: job.kind,
                        message: format!("internal error: the player chose an {error}"),
                    },
                }
            }
            Outcome::Chose { mv, result } => {
                if self.session.legal_moves().contains(&mv) {
                    let name = self.session.move_name(mv);
                    Finished::Hinted { mv, name, result }
                } else {
                    Finished::Failed {
                        kind: job.kind,
                        message: "internal error: the player chose an illegal move".to_string(),
                    }
                }
            }
            Outcome::Analyzed(report) if job.kind == JobKind::Swap2 => {
                self.finish_swap2(swap2_stage, report)
            }
            Outcome::Analyzed(report) => Finished::Analyzed { report },
            Outcome::Solved(Some(proof)) if !proof.pv.is_empty() || proof.is_exact() => {
                let line = self.session.line_names(&proof.pv);
                let threat = self.session.exact_size().is_none();
                Finished::Solved {
                    proof,
                    line,
                    threat,
                }
            }
            Outcome::Solved(_) => Finished::Unsolved {
                stopped: job.stop.is_raised(),
                threat: self.session.exact_size().is_none(),
            },
            Outcome::Counted { leaves, elapsed } => Finished::Counted { leaves, elapsed },
            Outcome::Failed(message) => {
                log::error!("{} failed: {message}", job.kind.name());
                Finished::Failed {
                    kind: job.kind,
                    message: format!("internal error: {} failed ({message})", job.kind.name()),
                }
            }
        }
    }

    /// Waits for the running job to end (for tools that run one job at a time, without
    /// the event loop); its reports go to `report`. `receiver` is the one `new` gave.
    pub fn wait(
        &mut self,
        receiver: &Receiver<Event>,
        report: &mut dyn FnMut(&Engine, Report),
    ) -> Option<Finished> {
        self.job.as_ref()?;
        loop {
            match receiver.recv() {
                Ok(Event::Report(progress)) => report(self, progress),
                Ok(Event::Done(outcome)) => return Some(self.finish(outcome)),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Plays a legal move without searching (an arena's answer when a job failed).
    /// The first legal move the search would consider: an answer when a job failed.
    pub fn fallback_move(&self) -> Option<Move> {
        self.session.fallback_move()
    }

    pub fn play_fallback(&mut self) -> Result<String, EngineError> {
        self.ensure_idle()?;
        self.check_playable()?;
        let mv = self
            .session
            .fallback_move()
            .ok_or(EngineError::NoLegalMove(self.session.side_to_move()))?;
        self.session.play(mv)
    }

    fn ensure_idle(&self) -> Result<(), EngineError> {
        match &self.job {
            Some(job) => Err(EngineError::Busy(job.kind.name())),
            None => Ok(()),
        }
    }

    /// Refuses to search a finished game or a position without a legal move.
    fn check_playable(&self) -> Result<(), EngineError> {
        if self.session.outcome().is_some() {
            return Err(EngineError::GameOver);
        }
        if self.session.legal_moves().is_empty() {
            return Err(EngineError::NoLegalMove(self.session.side_to_move()));
        }
        Ok(())
    }

    fn start(&mut self, kind: JobKind, task: Task, stop: Stop) -> Result<(), EngineError> {
        let limitless = stop.deadline().is_none()
            && stop.node_limit() == u64::MAX
            && !matches!(&task, Task::Analyze(request) if request.max_depth.is_some());
        self.session
            .start(task, stop.clone(), self.events.clone())?;
        let endless = kind == JobKind::Analyze && limitless;
        self.job = Some(Running {
            kind,
            stop,
            endless,
        });
        Ok(())
    }
}

fn check_hash(megabytes: usize) -> Result<(), EngineError> {
    if !(1..=MAX_HASH_MB).contains(&megabytes) {
        return Err(EngineError::OutOfRange(format!(
            "hash {megabytes} MiB is outside 1..={MAX_HASH_MB}"
        )));
    }
    Ok(())
}
