//! One reader and one event loop for every line-based front end: input lines, search
//! reports and finished jobs arrive on one channel, in order, and the front end answers
//! them on the loop's thread (so its output needs no lock and never interleaves).

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Instant;

use super::input::{InputLine, read_line_capped};
use super::output::Replies;
use super::{Engine, Finished};
use crate::search::report::Report;

/// Lines read but not yet answered, at most: a client that floods the engine while it
/// thinks is slowed down (the reader waits), never allowed to fill the memory.
pub const MAX_PENDING_LINES: usize = 4096;

/// What the loop receives.
pub enum Event {
    /// A line and when it arrived (a move's time counts from its command).
    Input(InputLine, Instant),
    EndOfInput,
    /// A running job's progress.
    Report(Report),
    /// A job's end: what it found, or that it failed.
    Done(super::job::Outcome),
    /// [`MAX_PENDING_LINES`] lines wait behind a job: it is stopped, so that they (and
    /// a `stop` among them) get answered.
    Backlog,
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

/// What to do with a line that has just arrived.
pub enum Arrival<T> {
    /// Answer it in turn, once no job runs.
    Queue(T),
    /// It was dealt with at once (for example `stop`).
    Handled,
    /// Leave now (for example Gomocup's `END`).
    Exit,
}

/// A protocol or tool on top of the engine core: it parses, calls the core and formats.
pub trait Frontend {
    /// A parsed line waiting for its turn.
    type Item;
    /// Called as each line arrives, also while a job runs: acts at once on what must
    /// not wait (stop, quit) and says what to queue.
    fn arrive(&mut self, engine: &mut Engine, line: InputLine, at: Instant) -> Arrival<Self::Item>;
    /// Answers a queued line; no job runs when this is called.
    fn handle(&mut self, engine: &mut Engine, item: Self::Item) -> Flow;
    /// A running job's report.
    fn report(&mut self, engine: &Engine, report: Report);
    /// A job has ended (the core has already played a `go` move).
    fn finished(&mut self, engine: &mut Engine, finished: Finished) -> Flow;
    /// Called whenever no job runs, before the next queued line is answered (a front end
    /// that drives the game itself, like `arbor play`, starts its moves here).
    fn idle(&mut self, _engine: &mut Engine) -> Flow {
        Flow::Continue
    }
    /// Where the replies go: the loop ends the session when a write to it fails.
    fn replies(&mut self) -> &mut Replies;
}

/// Credits for lines in flight between the reader and the loop.
struct Credits {
    free: Mutex<usize>,
    returned: Condvar,
}

impl Credits {
    /// Takes a credit if one is free at once.
    fn try_take(&self) -> bool {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        let taken = *free > 0;
        if taken {
            *free -= 1;
        }
        taken
    }

    fn take(&self) {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.returned.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
    }

    fn give_back(&self) {
        *self.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.returned.notify_one();
    }
}

fn spawn_reader(
    mut input: impl BufRead + Send + 'static,
    events: Sender<Event>,
    max_line: usize,
    credits: Arc<Credits>,
) {
    thread::spawn(move || {
        let mut buffer = Vec::new();
        loop {
            let line = match read_line_capped(&mut input, &mut buffer, max_line) {
                Ok(Some(line)) => line,
                Ok(None) | Err(_) => {
                    let _ = events.send(Event::EndOfInput);
                    return;
                }
            };
            let at = Instant::now();
            if !credits.try_take() {
                if events.send(Event::Backlog).is_err() {
                    return;
                }
                credits.take();
            }
            if events.send(Event::Input(line, at)).is_err() {
                return;
            }
        }
    });
}

/// Runs `frontend` over `engine` until it exits or the input ends and everything read
/// has been answered (a job running at the end of input still finishes and is answered).
/// Lines longer than `max_line` bytes arrive as [`InputLine::TooLong`]. A reply that
/// cannot be written (a full disk, a closed pipe) stops the running job and ends the
/// session with that error.
pub fn run<F: Frontend>(
    input: impl BufRead + Send + 'static,
    max_line: usize,
    engine: &mut Engine,
    receiver: Receiver<Event>,
    frontend: &mut F,
) -> io::Result<()> {
    let result = serve(input, max_line, engine, receiver, frontend);
    if result.is_err() {
        engine.stop();
    }
    result
}

/// Checks the output after a front end has answered.
fn written<F: Frontend>(frontend: &mut F) -> io::Result<()> {
    frontend.replies().take_error().map_or(Ok(()), Err)
}

fn serve<F: Frontend>(
    input: impl BufRead + Send + 'static,
    max_line: usize,
    engine: &mut Engine,
    receiver: Receiver<Event>,
    frontend: &mut F,
) -> io::Result<()> {
    let credits = Arc::new(Credits {
        free: Mutex::new(MAX_PENDING_LINES),
        returned: Condvar::new(),
    });
    spawn_reader(input, engine.events(), max_line, Arc::clone(&credits));
    let mut queue: VecDeque<F::Item> = VecDeque::new();
    let mut input_open = true;
    loop {
        while !engine.is_busy() {
            let flow = frontend.idle(engine);
            written(frontend)?;
            if flow == Flow::Exit {
                return Ok(());
            }
            if engine.is_busy() {
                break;
            }
            let Some(item) = queue.pop_front() else {
                if !input_open {
                    return Ok(());
                }
                break;
            };
            credits.give_back();
            let flow = frontend.handle(engine, item);
            written(frontend)?;
            if flow == Flow::Exit {
                return Ok(());
            }
        }
        if !input_open {
            // Nothing more will come to end an analysis without a limit.
            engine.end_of_input();
        }
        let Ok(event) = receiver.recv() else {
            return Ok(());
        };
        match event {
            Event::Input(line, at) => match frontend.arrive(engine, line, at) {
                Arrival::Queue(item) => queue.push_back(item),
                Arrival::Handled => credits.give_back(),
                Arrival::Exit => {
                    engine.stop();
                    return written(frontend);
                }
            },
            Event::EndOfInput => input_open = false,
            // Only if the queue is still full: it may have drained since.
            Event::Backlog if queue.len() >= MAX_PENDING_LINES => {
                log::warn!("{MAX_PENDING_LINES} lines wait behind a job; stopping it");
                engine.stop();
            }
            Event::Backlog => {}
            Event::Report(report) => frontend.report(engine, report),
            Event::Done(outcome) => {
                let finished = engine.finish(outcome);
                let flow = frontend.finished(engine, finished);
                written(frontend)?;
                if flow == Flow::Exit {
                    return Ok(());
                }
            }
        }
        written(frontend)?;
    }
}
