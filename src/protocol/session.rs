//! One game being played through the protocol: the typed game and its move history
//! behind an object-safe facade, so the engine loop does not know the game type.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread;
use std::time::{Duration, Instant};

use crate::game::perft::perft_interruptible;
use crate::game::variant::{GameVisitor, Variant};
use crate::game::{Move, Side};
use crate::limits::Limits;
use crate::players::PlayerKind;
use crate::players::info_line;
use crate::search::tt::TranspositionTable;
use crate::search::{DeadlineStop, Report, SearchGame};

/// How long `solve` looks for a forced win by threats when no limit is given.
const THREAT_SOLVE_DEFAULT: Duration = Duration::from_secs(10);

/// What a finished background job reports to the engine loop.
#[derive(Debug)]
pub enum JobResult {
    Go(Move),
    /// `None` when `stop` cut it short.
    Perft {
        leaves: Option<u64>,
        elapsed: Duration,
    },
    /// The reply (`<best move> <score>`, or for a threat search `<move> win <plies>
    /// line <moves>` or `none`); `None` when `stop` cut it short.
    Solve(Option<String>),
}

/// How a background job reports back and learns it should stop.
#[derive(Clone)]
pub struct JobContext {
    pub stop: Arc<AtomicBool>,
    pub done: Sender<JobResult>,
    /// Where `info` lines go while the job runs.
    pub info: Arc<dyn Fn(&str) + Send + Sync>,
}

/// What `go` needs besides the limits.
pub struct GoSetup {
    pub player: PlayerKind,
    pub seed: u64,
    pub tt: Arc<TranspositionTable>,
}

pub trait Session: Send {
    fn variant(&self) -> Variant;
    /// Plays a move given as text for the side to move.
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// Takes back the last move and returns its name.
    fn undo(&mut self) -> Result<String, String>;
    fn moves(&self) -> String;
    fn status(&self) -> String;
    fn show(&self) -> String;
    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), String>;
    /// Starts choosing a move in the background; fails at once if the game is over.
    fn start_go(&self, setup: GoSetup, limits: Limits, job: JobContext) -> Result<(), String>;
    fn start_perft(&self, depth: u32, job: JobContext);
    /// Starts an exact solve (or, where the game has none that fits, a search for a
    /// forced win by threats) in the background, within `limit` if given; fails at once
    /// if the game has no solver or is over.
    fn start_solve(&self, limit: Option<Duration>, job: JobContext) -> Result<(), String>;
    /// Plays the move a `go` job chose and returns its name.
    fn finish_go(&mut self, mv: Move) -> Result<String, String>;
}

pub fn new_session(variant: Variant) -> Box<dyn Session> {
    struct Build(Variant);
    impl GameVisitor for Build {
        type Output = Box<dyn Session>;
        fn visit<G: SearchGame>(self, game: G) -> Box<dyn Session> {
            Box::new(GameSession {
                variant: self.0,
                game,
                history: Vec::new(),
            })
        }
    }
    variant.visit(Build(variant))
}

struct GameSession<G: SearchGame> {
    variant: Variant,
    game: G,
    history: Vec<(Move, G::Undo)>,
}

impl<G: SearchGame> GameSession<G> {
    fn legal_or_error(&self, mv: Move, text: &str) -> Result<(), String> {
        if self.game.outcome().is_some() {
            return Err(format!("illegal move {text}: the game is over"));
        }
        if self.game.is_legal(mv) {
            return Ok(());
        }
        if mv.is_pass() {
            Err(format!(
                "illegal move pass: {} has a legal move",
                self.game.side_to_move()
            ))
        } else {
            Err(format!(
                "illegal move {text} for {}",
                self.game.side_to_move()
            ))
        }
    }
}

impl<G: SearchGame> Session for GameSession<G> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = self.game.parse_move(text).map_err(|e| e.to_string())?;
        self.legal_or_error(mv, &self.game.format_move(mv))?;
        let undo = self.game.make(mv);
        self.history.push((mv, undo));
        Ok(())
    }

    fn undo(&mut self) -> Result<String, String> {
        let (mv, undo) = self.history.pop().ok_or("no move to undo")?;
        self.game.unmake(mv, undo);
        Ok(self.game.format_move(mv))
    }

    fn moves(&self) -> String {
        let mut moves = Vec::new();
        self.game.generate_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|&mv| self.game.format_move(mv)).collect();
        names.join(" ")
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

    fn set_board(&mut self, cells: &str, side: Side) -> Result<(), String> {
        let mut game = self.game.clone();
        game.set_board(cells, side).map_err(|e| e.to_string())?;
        self.game = game;
        self.history.clear();
        Ok(())
    }

    fn start_go(&self, setup: GoSetup, limits: Limits, job: JobContext) -> Result<(), String> {
        if self.game.outcome().is_some() {
            return Err("go: the game is over".to_string());
        }
        let game = self.game.clone();
        thread::spawn(move || {
            let mut player = setup.player.create::<G>(setup.seed, setup.tt);
            let mv = player.choose(&game, &limits, &job.stop, &mut |line| (job.info)(&line));
            let _ = job.done.send(JobResult::Go(mv));
        });
        Ok(())
    }

    fn start_solve(&self, limit: Option<Duration>, job: JobContext) -> Result<(), String> {
        if self.game.outcome().is_some() {
            return Err("solve: the game is over".to_string());
        }
        let exact = self.game.exact_size().is_some();
        if !exact && !self.game.has_threat_solver() {
            return Err(format!("solve: no solver for {}", self.game.name()));
        }
        let game = self.game.clone();
        thread::spawn(move || {
            let start = Instant::now();
            let limit = limit.or((!exact).then_some(THREAT_SOLVE_DEFAULT));
            let deadline = limit.map(|limit| start + limit);
            let solution = DeadlineStop::new(&job.stop, deadline).run(|flag| {
                if exact {
                    game.solve_exact(flag)
                } else {
                    game.threat_win(flag)
                }
            });
            if let Some(found) = &solution {
                let report = Report {
                    depth: game.exact_size().unwrap_or(found.pv.len() as u32),
                    score: found.score,
                    nodes: found.nodes,
                    elapsed: start.elapsed(),
                    pv: found.pv.clone(),
                    exact: true,
                };
                (job.info)(&info_line(&game, &report));
            }
            let stopped = job.stop.load(Ordering::Relaxed);
            let answer = match solution {
                Some(found) if exact => Some(format!(
                    "{} {}",
                    game.format_move(found.pv[0]),
                    game.format_exact_score(found.score)
                )),
                Some(found) => {
                    let mut line = game.clone();
                    let names: Vec<String> = found
                        .pv
                        .iter()
                        .map(|&mv| {
                            let name = line.format_move(mv);
                            line.make(mv);
                            name
                        })
                        .collect();
                    Some(format!(
                        "{} {} line {}",
                        names[0],
                        game.format_exact_score(found.score),
                        names.join(" ")
                    ))
                }
                None if exact || stopped => None,
                None => Some("none".to_string()),
            };
            let _ = job.done.send(JobResult::Solve(answer));
        });
        Ok(())
    }

    fn start_perft(&self, depth: u32, job: JobContext) {
        let mut game = self.game.clone();
        thread::spawn(move || {
            let start = Instant::now();
            let leaves = perft_interruptible(&mut game, depth, &job.stop);
            let _ = job.done.send(JobResult::Perft {
                leaves,
                elapsed: start.elapsed(),
            });
        });
    }

    fn finish_go(&mut self, mv: Move) -> Result<String, String> {
        let name = self.game.format_move(mv);
        self.legal_or_error(mv, &name)
            .map_err(|e| format!("internal error: the player chose an {e}"))?;
        let undo = self.game.make(mv);
        self.history.push((mv, undo));
        Ok(name)
    }
}
