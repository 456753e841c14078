//! Engines as child processes, behind a driver trait so that every protocol (native
//! here, NBoard, GTP and Gomocup in `foreign.rs`) plugs in without touching the referee.
//! Every read has a deadline.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crate::bounds::MAX_MILLIS;
use crate::engine::input::InputLine;
use crate::text::quote;

/// Why an engine could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The process ended or closed its output.
    Crashed,
    /// No answer before the deadline; the process was killed.
    NoAnswer,
    /// An answer the protocol does not allow.
    Protocol(String),
    /// The engine gave up the game (GTP's `resign`).
    Resigned,
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailure::Crashed => f.write_str("crashed"),
            EngineFailure::NoAnswer => f.write_str("stopped answering"),
            EngineFailure::Protocol(text) => write!(f, "protocol error: {text}"),
            EngineFailure::Resigned => f.write_str("resigned"),
        }
    }
}

/// What the referee asks of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoRequest {
    Clock { left: Duration, inc: Duration },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// One engine in one game, in the engine's own protocol.
pub trait EngineDriver: Send {
    fn name(&self) -> &str;
    /// Starts a game: `game` as `newgame` names it, then the opening moves or position.
    fn new_game(&mut self, game: &str, setup: &Setup) -> Result<(), EngineFailure>;
    /// The move the engine chooses (its text), answered before `deadline`.
    fn go(&mut self, request: GoRequest, deadline: Instant) -> Result<String, EngineFailure>;
    /// Tells the engine the move its opponent played.
    fn opponent_moved(&mut self, text: &str) -> Result<(), EngineFailure>;
    /// A Swap2 decision (`arbor match --opening swap2`) in the game `new_game` started:
    /// with `stones` (0, 3 or 5 names, in playing order) on the empty board, the
    /// engine's answer before `deadline`, as it gives it: stones or `swap`, which the
    /// referee checks. Protocols without Swap2 refuse (the match refuses them first).
    fn swap2(
        &mut self,
        stones: &[String],
        request: GoRequest,
        deadline: Instant,
    ) -> Result<String, EngineFailure> {
        let _ = (stones, request, deadline);
        Err(EngineFailure::Protocol(
            "the engine's protocol has no Swap2 decisions".into(),
        ))
    }
    fn quit(&mut self);
}

/// How a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    Moves(Vec<String>),
    /// `setboard` arguments: cells and side.
    Board(String),
}

/// Time allowed for start-up and for commands that need no thought.
pub const COMMAND_TIME: Duration = Duration::from_secs(10);

/// Longest line read from an engine; a longer one is a protocol error, and only this
/// much of it is ever held.
pub const MAX_ENGINE_LINE: usize = 64 << 10;

/// Lines read ahead of the referee: an engine that floods its output waits for the
/// referee instead of filling the harness's memory.
const LINES_AHEAD: usize = 256;

/// An engine's process, shared by its [`Process`] and the registry of live engines.
type SharedChild = Arc<Mutex<Child>>;

/// The engines' processes while their [`Process`] lives, for the Ctrl-C handler. They
/// are reached through their handles, never by a process id looked up later: a handle
/// whose process was reaped kills nothing, so an id the system has handed to another
/// process since is never signalled.
#[derive(Default)]
pub struct Children {
    live: Mutex<Vec<SharedChild>>,
}

impl Children {
    /// Lists `child` (until [`Children::remove`]) and returns the handle to use.
    pub fn add(&self, child: Child) -> SharedChild {
        let child = Arc::new(Mutex::new(child));
        lock(&self.live).push(Arc::clone(&child));
        child
    }

    pub fn remove(&self, child: &SharedChild) {
        lock(&self.live).retain(|listed| !Arc::ptr_eq(listed, child));
    }

    /// Kills every listed process still running (each reaped by its own [`Process`]).
    pub fn kill_all(&self) {
        for child in lock(&self.live).iter() {
            let _ = lock(child).kill();
        }
    }

    pub fn len(&self) -> usize {
        lock(&self.live).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A lock that a panic elsewhere does not poison: a process handle stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The engines this program started and has not yet dropped.
pub fn live_children() -> &'static Children {
    static CHILDREN: OnceLock<Children> = OnceLock::new();
    CHILDREN.get_or_init(Children::default)
}

/// Kills every engine the harness started (for the Ctrl-C handler).
pub fn kill_all_engines() {
    live_children().kill_all();
}

/// An engine process: its stdin, and its output lines read on a thread (at most
/// [`LINES_AHEAD`] ahead). Every read has a deadline; an engine that misses one, or
/// writes a line that is too long or not UTF-8, is killed.
pub struct Process {
    name: String,
    child: SharedChild,
    stdin: ChildStdin,
    lines: Receiver<InputLine>,
}

impl Process {
    pub fn start(name: &str, command: &str) -> Result<Process, String> {
        let words = split_command(command)?;
        let (program, args) = words.split_first().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {name} ({command}): {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (sender, lines) = mpsc::sync_channel(LINES_AHEAD);
        let process = Process {
            name: name.to_string(),
            child: live_children().add(child),
            stdin,
            lines,
        };
        // Started as Ctrl-C was killing the others: this one goes too (dropped).
        if crate::harness::interrupted() {
            return Err(format!("{name}: the match was interrupted"));
        }
        std::thread::spawn(move || {
            let mut buffer = Vec::new();
            while let Ok(Some(line)) = read_engine_line(&mut stdout, &mut buffer) {
                let too_long = matches!(line, InputLine::TooLong(_));
                // After an over-long line the engine is done for: stop reading it.
                if sender.send(line).is_err() || too_long {
                    return;
                }
            }
        });
        Ok(process)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one line; a closed pipe is a crash.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineFailure::Crashed)
    }

    /// The next output line, before `deadline` (the deadline holds however many lines
    /// the engine writes).
    pub fn recv(&mut self, deadline: Instant) -> Result<String, EngineFailure> {
        let left = deadline.saturating_duration_since(Instant::now());
        let received = match self.lines.recv_timeout(left) {
            Ok(received) => received,
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                return Err(EngineFailure::NoAnswer);
            }
            Err(RecvTimeoutError::Disconnected) => return Err(EngineFailure::Crashed),
        };
        if Instant::now() >= deadline {
            self.kill();
            return Err(EngineFailure::NoAnswer);
        }
        match received {
            InputLine::Text(text) => Ok(text),
            InputLine::TooLong(_) => {
                self.kill();
                Err(EngineFailure::Protocol(format!(
                    "a line longer than {MAX_ENGINE_LINE} bytes"
                )))
            }
            InputLine::NotUtf8 => {
                self.kill();
                Err(EngineFailure::Protocol("a line that is not UTF-8".into()))
            }
        }
    }

    /// The next output line if one comes before `deadline`; `None` (the engine left
    /// running) if none does.
    pub fn try_recv(&mut self, deadline: Instant) -> Result<Option<String>, EngineFailure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(EngineFailure::Crashed),
            Ok(InputLine::Text(text)) => Ok(Some(text)),
            Ok(_) => {
                self.kill();
                Err(EngineFailure::Protocol(
                    "a line too long or not UTF-8".into(),
                ))
            }
        }
    }

    /// An answer the protocol does not allow: the engine is stopped.
    pub fn violation(&mut self, text: String) -> EngineFailure {
        self.kill();
        EngineFailure::Protocol(text)
    }

    /// Sends `line` (the protocol's quit), gives the engine half a second to exit, then
    /// kills it.
    pub fn quit(&mut self, line: &str) {
        let _ = self.send(line);
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if self.exited().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Whether the process has exited (its status, if so).
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        lock(&self.child).try_wait().ok().flatten()
    }

    /// Kills the process and reaps it (a process already reaped is not signalled).
    pub fn kill(&mut self) {
        let mut child = lock(&self.child);
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
        live_children().remove(&self.child);
    }
}

/// An engine speaking arbor's native protocol on its stdin/stdout.
pub struct NativeEngine {
    process: Process,
}

impl NativeEngine {
    /// Starts the engine and, with `threads`, sends `set threads N` (an engine that
    /// refuses it does not start).
    pub fn start(
        name: &str,
        command: &str,
        threads: Option<usize>,
    ) -> Result<NativeEngine, String> {
        let mut engine = NativeEngine {
            process: Process::start(name, command)?,
        };
        engine
            .command("ping", Instant::now() + COMMAND_TIME)
            .map_err(|e| format!("{name} did not start: {e}"))?;
        if let Some(threads) = threads {
            engine
                .command(
                    &format!("set threads {threads}"),
                    Instant::now() + COMMAND_TIME,
                )
                .map_err(|e| format!("{name} did not start: {e}"))?;
        }
        Ok(engine)
    }

    /// Sends a line and returns the reply's result text (after `= `); `?` replies and
    /// anything unframed are protocol errors. The deadline holds however many lines the
    /// engine writes.
    fn command(&mut self, line: &str, deadline: Instant) -> Result<String, EngineFailure> {
        self.process.send(line)?;
        let mut reply: Option<String> = None;
        loop {
            let text = self.process.recv(deadline)?;
            match (&reply, text.as_str()) {
                (None, "") => continue,
                (None, info) if info.starts_with("info") => continue,
                (None, first) if first.starts_with(['=', '?']) => reply = Some(text),
                (None, other) => {
                    let message = format!("{} got {} before its reply", quote(line), quote(other));
                    return Err(self.process.violation(message));
                }
                (Some(_), "") => break,
                (Some(_), _) => {}
            }
        }
        let reply = reply.unwrap_or_default();
        // `=` or `=<id>`, then the result.
        let Some(rest) = reply.strip_prefix('=') else {
            return Err(EngineFailure::Protocol(format!(
                "{} got {}",
                quote(line),
                quote(&reply)
            )));
        };
        Ok(rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string())
    }
}

impl EngineDriver for NativeEngine {
    fn name(&self) -> &str {
        self.process.name()
    }

    fn new_game(&mut self, game: &str, setup: &Setup) -> Result<(), EngineFailure> {
        let deadline = || Instant::now() + COMMAND_TIME;
        self.command(&format!("newgame {game}"), deadline())?;
        match setup {
            Setup::Moves(moves) => {
                for text in moves {
                    self.command(&format!("move {text}"), deadline())?;
                }
            }
            Setup::Board(board) => {
                self.command(&format!("setboard {board}"), deadline())?;
            }
        }
        Ok(())
    }

    fn go(&mut self, request: GoRequest, deadline: Instant) -> Result<String, EngineFailure> {
        self.command(&format!("go {}", limits(request)), deadline)
    }

    /// `swap2 <stones> <limits>`, answered `= <stones>` or `= swap`.
    fn swap2(
        &mut self,
        stones: &[String],
        request: GoRequest,
        deadline: Instant,
    ) -> Result<String, EngineFailure> {
        let mut line = String::from("swap2");
        for stone in stones {
            line.push(' ');
            line.push_str(stone);
        }
        self.command(&format!("{line} {}", limits(request)), deadline)
    }

    fn opponent_moved(&mut self, text: &str) -> Result<(), EngineFailure> {
        self.command(&format!("move {text}"), Instant::now() + COMMAND_TIME)
            .map(|_| ())
    }

    fn quit(&mut self) {
        self.process.quit("quit");
    }
}

/// A request as `go`'s limits (`swap2` takes them too).
fn limits(request: GoRequest) -> String {
    match request {
        // A clock grown by increments past what engines accept is sent at the bound.
        GoRequest::Clock { left, inc } => format!(
            "time {} inc {}",
            left.as_millis().min(MAX_MILLIS as u128),
            inc.as_millis().min(MAX_MILLIS as u128)
        ),
        GoRequest::MoveTime(time) => format!("movetime {}", time.as_millis()),
        GoRequest::Depth(depth) => format!("depth {depth}"),
        GoRequest::Nodes(nodes) => format!("nodes {nodes}"),
    }
}

/// Reads one line of an engine's output. A line is too long as soon as it passes
/// [`MAX_ENGINE_LINE`], without waiting for a newline that may never come.
fn read_engine_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
) -> io::Result<Option<InputLine>> {
    buffer.clear();
    let limit = MAX_ENGINE_LINE as u64 + 1;
    if input.by_ref().take(limit).read_until(b'\n', buffer)? == 0 {
        return Ok(None);
    }
    if buffer.last() == Some(&b'\n') {
        buffer.pop();
        if buffer.last() == Some(&b'\r') {
            buffer.pop();
        }
    } else if buffer.len() > MAX_ENGINE_LINE {
        return Ok(Some(InputLine::TooLong(buffer.len())));
    }
    Ok(Some(match std::str::from_utf8(buffer) {
        Ok(text) => InputLine::Text(text.to_string()),
        Err(_) => InputLine::NotUtf8,
    }))
}

/// Splits an engine's command line into words as a POSIX shell would, without running
/// one: single and double quotes, backslash escapes and `#` comments, no expansions.
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    // The crate's only error is a quote left open (a backslash escaping the end of the
    // text inside double quotes leaves one open too).
    shell_words::split(command)
        .map_err(|_| format!("unbalanced quote in {}", crate::text::quote(command)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_as_a_shell_would() {
        let split = |text: &str| split_command(text).unwrap();
        assert_eq!(
            split("arbor --player random"),
            ["arbor", "--player", "random"]
        );
        assert_eq!(
            split("sh -c 'echo hi; sleep 1'"),
            ["sh", "-c", "echo hi; sleep 1"]
        );
        assert_eq!(split("a \"\" b"), ["a", "", "b"]);
        assert_eq!(split("  a\tb  "), ["a", "b"]);
        assert_eq!(
            split("'my engine'/run --x=\"1 2\""),
            ["my engine/run", "--x=1 2"]
        );
        assert_eq!(
            split(r"my\ engine 'C:\dir\x.exe'"),
            ["my engine", r"C:\dir\x.exe"]
        );
        assert_eq!(split(r#""say \"hi\"" \$HOME"#), ["say \"hi\"", "$HOME"]);
        assert_eq!(split("edax # a comment"), ["edax"]);
        assert_eq!(split("a#b"), ["a#b"]);
        assert!(split("").is_empty() && split("   ").is_empty() && split("# x").is_empty());
    }

    #[test]
    fn unterminated_quotes_are_refused() {
        for text in ["a 'b", "a \"b", "\"", "'", "a \"b\\\"", "x 'y\\"] {
            let message = split_command(text).unwrap_err();
            assert!(
                message.starts_with("unbalanced quote in '"),
                "{text}: {message}"
            );
        }
        // A long command is quoted cut short.
        let long = format!("'{}", "x".repeat(100_000));
        assert!(split_command(&long).unwrap_err().len() < 500);
    }

    /// Whether the system still lists `pid` (a zombie too): Linux's /proc.
    #[cfg(target_os = "linux")]
    fn listed(pid: u32) -> bool {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    }

    #[cfg(unix)]
    fn sleeper() -> Child {
        Command::new("sleep").arg("60").spawn().unwrap()
    }

    /// The Ctrl-C path: every listed process is killed through its handle, and one
    /// already reaped (its id perhaps another process's by now) is left alone.
    #[cfg(unix)]
    #[test]
    fn kill_all_kills_through_the_handles() {
        let children = Children::default();
        let running = children.add(sleeper());
        let mut reaped = Command::new("true").spawn().unwrap();
        reaped.wait().unwrap();
        let reaped = children.add(reaped);
        assert_eq!(children.len(), 2);
        children.kill_all();
        let status = lock(&running).wait().unwrap();
        assert!(!status.success(), "{status:?}");
        assert!(lock(&reaped).try_wait().unwrap().unwrap().success());
        children.remove(&running);
        children.remove(&reaped);
        assert!(children.is_empty());
        #[cfg(target_os = "linux")]
        assert!(!listed(lock(&running).id()));
    }

    /// A dropped engine leaves no process behind, and leaves the registry.
    #[cfg(unix)]
    #[test]
    fn a_dropped_engine_is_killed_reaped_and_unlisted() {
        let process = Process::start("sleeper", "sleep 60").unwrap();
        let child = Arc::clone(&process.child);
        let pid = lock(&child).id();
        let listed_by_registry = || {
            lock(&live_children().live)
                .iter()
                .any(|c| Arc::ptr_eq(c, &child))
        };
        assert!(listed_by_registry());
        #[cfg(target_os = "linux")]
        assert!(listed(pid));
        drop(process);
        assert!(!listed_by_registry());
        assert!(lock(&child).try_wait().unwrap().is_some());
        #[cfg(target_os = "linux")]
        assert!(!listed(pid), "process {pid} left behind");
    }

    /// An engine that exits by itself is reaped once; the drop signals nothing.
    #[cfg(unix)]
    #[test]
    fn an_engine_that_quits_is_reaped_once() {
        let mut process = Process::start("quitter", "sh -c 'read line; exit 3'").unwrap();
        process.quit("quit");
        assert_eq!(process.exited().and_then(|s| s.code()), Some(3));
        let child = Arc::clone(&process.child);
        drop(process);
        assert_eq!(
            lock(&child).try_wait().unwrap().and_then(|s| s.code()),
            Some(3)
        );
    }
}
