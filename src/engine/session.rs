//! The typed game behind the core: position, history and the searcher that persists
//! across moves, behind an object-safe facade so the core does not know the game type.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::error::EngineError;
use super::events::Event;
use super::job::{self, Outcome};
use crate::bounds::runnable_threads;
use crate::game::perft::perft_interruptible;
use crate::game::roles::{Score, ScoreValue, SearchGame};
use crate::game::variant::{GameVisitor, Variant};
use crate::game::{Move, Side};
use crate::players::PlayerKind;
use crate::search::analysis::AnalysisRequest;
use crate::search::limits::Limits;
use crate::search::report::{Line, Report};
use crate::search::time::TimeManager;
use crate::search::tt::Bound;
use crate::search::{SearchResult, Searcher};
use crate::stop::Stop;

/// A job for the session to start.
pub(super) enum Task {
    /// Choose a move (the core plays it for `go`, not for a hint).
    Choose {
        limits: Limits,
        time: TimeManager,
        player: PlayerKind,
        seed: u64,
        /// The opening book's spread when the book is on (the search player only).
        book: Option<u32>,
    },
    Analyze(AnalysisRequest),
    Solve,
    Perft(u32),
}

pub(super) trait Session: Send {
    fn variant(&self) -> Variant;
    fn megabytes(&self) -> usize;
    fn threads(&self) -> usize;
    /// The search and the solver use `threads` threads from the next job on.
    fn set_threads(&mut self, threads: usize);
    /// Children the exact solver searches alone before a split (`set jamboree`).
    fn jamboree(&self) -> usize;
    fn set_jamboree(&mut self, children: usize);
    /// Resizes the tables to `megabytes` MiB; on error the old ones stay.
    fn set_memory(&mut self, megabytes: usize) -> Result<(), EngineError>;
    fn clear_tables(&mut self);
    /// Back to the start position, with empty tables.
    fn restart(&mut self);
    fn parse_move(&self, text: &str) -> Result<Move, EngineError>;
    /// Parses a move name and checks that it is legal now.
    fn legal_move(&self, text: &str) -> Result<Move, EngineError>;
    /// Plays a legal move and returns its name.
    fn play(&mut self, mv: Move) -> Result<String, EngineError>;
    fn undo(&mut self) -> Result<Move, EngineError>;
    fn history(&self) -> Vec<Move>;
    fn legal_moves(&self) -> Vec<Move>;
    fn move_name(&self, mv: Move) -> String;
    /// The names of a line of moves from the current position.
    fn line_names(&self, line: &[Move]) -> Vec<String>;
    fn field_index(&self, mv: Move) -> Option<usize>;
    fn size(&self) -> usize;
    fn side_to_move(&self) -> Side;
    fn outcome(&self) -> Option<crate::game::Outcome>;
    fn status(&self) -> String;
    fn show(&self) -> String;
    fn cells(&self) -> String;
    /// Fields where the rule forbids Black a stone (renju), whoever is to move.
    fn forbidden_fields(&self) -> Vec<usize>;
    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), EngineError>;
    fn score_value(&self, score: i32, exact: bool) -> ScoreValue;
    /// A finished game's result from Black's view (`Scoring::match_score`).
    fn match_score(&self) -> i32;
    /// The game's estimate of the side to move's remaining moves (for the clock).
    fn moves_left(&self) -> u32;
    /// Whether the position has an exact solver or a threat solver.
    fn can_solve(&self) -> bool;
    /// How hard an exact solve of this position is (`Solve::exact_size`); `None` where
    /// the exact solver does not take it (the threat solver may).
    fn exact_size(&self) -> Option<u32>;
    /// The first move the search would consider: a legal answer when a job failed.
    fn fallback_move(&self) -> Option<Move>;
    fn start(&mut self, task: Task, stop: Stop, events: Sender<Event>) -> Result<(), EngineError>;
}

/// A new session for `variant` with tables of `megabytes` MiB.
pub(super) fn new_session(
    variant: Variant,
    megabytes: usize,
    threads: usize,
    jamboree: usize,
) -> Result<Box<dyn Session>, EngineError> {
    struct Build(Variant, usize, usize, usize);
    impl GameVisitor for Build {
        type Output = Result<Box<dyn Session>, EngineError>;
        fn visit<G: SearchGame>(self, game: G) -> Self::Output {
            let session = GameSession {
                variant: self.0,
                start: game.clone(),
                searcher: Arc::new(Mutex::new(
                    Searcher::new(&game, self.1).map_err(EngineError::Memory)?,
                )),
                game,
                history: Vec::new(),
                threads: self.2,
                jamboree: self.3,
            };
            let threads = session.threads;
            session.configure(&mut session.locked(), threads);
            Ok(Box::new(session))
        }
    }
    variant.visit(Build(variant, megabytes, threads, jamboree))
}

struct GameSession<G: SearchGame> {
    variant: Variant,
    start: G,
    game: G,
    history: Vec<(Move, G::Undo)>,
    /// The thread count asked for, readable while a job holds the searcher (which runs
    /// no more than the machine's cores: [`runnable_threads`]).
    threads: usize,
    /// Children the exact solver searches alone before a split.
    jamboree: usize,
    /// Locked by the running job; poisoned if a job panicked, then rebuilt.
    searcher: Arc<Mutex<Searcher<G>>>,
}

impl<G: SearchGame> GameSession<G> {
    /// Gives a new searcher this session's threads and solver settings.
    fn configure(&self, searcher: &mut Searcher<G>, threads: usize) {
        searcher.set_threads(runnable_threads(threads));
        searcher.set_jamboree(self.jamboree);
    }

    /// A searcher in working order: one a panicking job left behind is replaced.
    fn healthy_searcher(&mut self) -> Result<(), EngineError> {
        if self.searcher.is_poisoned() {
            let megabytes = self.locked().megabytes();
            let mut searcher = Searcher::new(&self.game, megabytes).map_err(EngineError::Memory)?;
            self.configure(&mut searcher, self.threads);
            self.searcher = Arc::new(Mutex::new(searcher));
        }
        Ok(())
    }

    fn locked(&self) -> std::sync::MutexGuard<'_, Searcher<G>> {
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<G: SearchGame> Session for GameSession<G> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn megabytes(&self) -> usize {
        self.locked().megabytes()
    }

    fn set_memory(&mut self, megabytes: usize) -> Result<(), EngineError> {
        // New tables are mapped lazily, so they fit beside the old ones, which stay
        // untouched if the new ones cannot be had.
        let mut searcher = Searcher::new(&self.game, megabytes).map_err(EngineError::Memory)?;
        self.configure(&mut searcher, self.threads);
        self.searcher = Arc::new(Mutex::new(searcher));
        Ok(())
    }

    fn threads(&self) -> usize {
        self.threads
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        self.locked().set_threads(runnable_threads(threads));
    }

    fn jamboree(&self) -> usize {
        self.jamboree
    }

    fn set_jamboree(&mut self, children: usize) {
        self.jamboree = children;
        self.locked().set_jamboree(children);
    }

    fn clear_tables(&mut self) {
        let _ = self.healthy_searcher();
        self.locked().clear();
    }

    fn restart(&mut self) {
        self.game = self.start.clone();
        self.history.clear();
        let _ = self.healthy_searcher();
        self.locked().new_game();
    }

    fn parse_move(&self, text: &str) -> Result<Move, EngineError> {
        Ok(self.game.parse_move(text)?)
    }

    fn legal_move(&self, text: &str) -> Result<Move, EngineError> {
        let mv = self.game.parse_move(text)?;
        let name = self.game.format_move(mv);
        if self.game.outcome().is_some() {
            return Err(EngineError::IllegalMove(format!(
                "illegal move {name}: the game is over"
            )));
        }
        if self.game.is_legal(mv) {
            return Ok(mv);
        }
        if let Some(reason) = self.game.illegal_reason(mv) {
            return Err(EngineError::IllegalMove(format!(
                "illegal move {name}: {reason}"
            )));
        }
        let side = self.game.side_to_move();
        Err(EngineError::IllegalMove(if mv.is_pass() {
            format!("illegal move pass: {side} has a legal move")
        } else {
            format!("illegal move {name} for {side}")
        }))
    }

    fn play(&mut self, mv: Move) -> Result<String, EngineError> {
        let name = self.game.format_move(mv);
        if self.game.outcome().is_some() || !self.game.is_legal(mv) {
            return Err(EngineError::IllegalMove(format!("illegal move {name}")));
        }
        let undo = self.game.make(mv);
        self.history.push((mv, undo));
        Ok(name)
    }

    fn undo(&mut self) -> Result<Move, EngineError> {
        let (mv, undo) = self.history.pop().ok_or(EngineError::NothingToUndo)?;
        self.game.unmake(mv, undo);
        Ok(mv)
    }

    fn history(&self) -> Vec<Move> {
        self.history.iter().map(|&(mv, _)| mv).collect()
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.game.generate_moves(&mut moves);
        moves
    }

    fn move_name(&self, mv: Move) -> String {
        self.game.format_move(mv)
    }

    fn line_names(&self, line: &[Move]) -> Vec<String> {
        let mut position = self.game.clone();
        let mut names = Vec::with_capacity(line.len());
        for &mv in line {
            if position.outcome().is_some() || !position.is_legal(mv) {
                break;
            }
            names.push(position.format_move(mv));
            position.make(mv);
        }
        names
    }

    fn field_index(&self, mv: Move) -> Option<usize> {
        self.game.field_index(mv)
    }

    fn size(&self) -> usize {
        self.game.size()
    }

    fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    fn outcome(&self) -> Option<crate::game::Outcome> {
        self.game.outcome()
    }

    fn status(&self) -> String {
        match self.game.outcome() {
            None => {
                let details = self.game.playing_details();
                if details.is_empty() {
                    format!("playing {}", self.game.side_to_move())
                } else {
                    format!("playing {} {details}", self.game.side_to_move())
                }
            }
            Some(outcome) => {
                let winner = outcome.winner.map_or("draw", Side::name);
                format!("over {winner} {}", self.game.status_details())
            }
        }
    }

    fn show(&self) -> String {
        self.game.diagram()
    }

    fn cells(&self) -> String {
        self.game.cells()
    }

    fn forbidden_fields(&self) -> Vec<usize> {
        self.game.forbidden_fields()
    }

    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), EngineError> {
        let mut game = self.game.clone();
        game.set_board(cells, side)?;
        self.game = game;
        self.history.clear();
        Ok(())
    }

    fn match_score(&self) -> i32 {
        self.game.match_score()
    }

    fn score_value(&self, score: i32, exact: bool) -> ScoreValue {
        self.game.score_value(score, exact)
    }

    fn moves_left(&self) -> u32 {
        self.game.moves_left()
    }

    fn can_solve(&self) -> bool {
        self.game.exact_size().is_some() || self.game.has_threat_solver()
    }

    fn exact_size(&self) -> Option<u32> {
        self.game.exact_size()
    }

    fn fallback_move(&self) -> Option<Move> {
        let mut moves = Vec::new();
        self.game.search_moves(&mut moves);
        if moves.is_empty() {
            self.game.generate_moves(&mut moves);
        }
        moves.into_iter().find(|&mv| self.game.is_legal(mv))
    }

    fn start(&mut self, task: Task, stop: Stop, events: Sender<Event>) -> Result<(), EngineError> {
        self.healthy_searcher()?;
        let game = self.game.clone();
        let searcher = Arc::clone(&self.searcher);
        job::spawn(events, move |events| match task {
            Task::Choose {
                limits,
                time,
                player,
                seed,
                book,
            } => match player.baseline::<G>(seed) {
                Some(mut baseline) => Outcome::Chose {
                    mv: baseline.choose(&game),
                    result: None,
                },
                None => {
                    if let Some((mv, score)) = book.and_then(|spread| game.book_move(spread, seed))
                    {
                        let _ = events.send(Event::Report(book_report(&game, mv, score)));
                        return Outcome::Chose {
                            mv,
                            result: Some(SearchResult {
                                best: mv,
                                score,
                                depth: 0,
                                exact: false,
                                nodes: 0,
                            }),
                        };
                    }
                    let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                    #[cfg(test)]
                    if player == PlayerKind::Panic {
                        searcher.panic_at_node(2);
                    }
                    let result = searcher.think(&game, &limits, &time, &stop, &mut |report| {
                        let _ = events.send(Event::Report(report));
                    });
                    Outcome::Chose {
                        mv: result.best,
                        result: Some(result),
                    }
                }
            },
            Task::Analyze(request) => {
                let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                let events = events.clone();
                let report = searcher.analyze(
                    &game,
                    &request,
                    &stop,
                    Box::new(move |report| {
                        let _ = events.send(Event::Report(report));
                    }),
                );
                Outcome::Analyzed(report)
            }
            Task::Solve => {
                let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                let proof = searcher.solve(&game, &stop, &mut |report| {
                    let _ = events.send(Event::Report(report));
                });
                Outcome::Solved(proof)
            }
            Task::Perft(depth) => {
                let start = Instant::now();
                let mut game = game;
                let leaves = perft_interruptible(&mut game, depth, &stop);
                Outcome::Counted {
                    leaves,
                    elapsed: start.elapsed(),
                }
            }
        });
        Ok(())
    }
}

/// A book move's report: depth 0, no nodes, the book's score and the move.
fn book_report<G: SearchGame>(game: &G, mv: Move, score: Score) -> Report {
    Report {
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        exact: false,
        lines: vec![Line {
            score: game.score_value(score, false),
            bound: Bound::Exact,
            pv: vec![mv],
            proof: None,
            depth: 0,
        }],
    }
}
