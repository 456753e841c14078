//! What the process-level protocol tests share: an engine started with piped stdin and
//! stdout, its output lines read on a thread into a channel.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};

/// Starts `command` (stderr discarded); returns the child, its stdin and its lines.
pub fn spawn_lines(mut command: Command) -> (Child, Option<ChildStdin>, Receiver<String>) {
    command.stderr(Stdio::null());
    spawn_lines_keeping_stderr(command)
}

/// As [`spawn_lines`], with stderr where `command` already sends it.
pub fn spawn_lines_keeping_stderr(
    mut command: Command,
) -> (Child, Option<ChildStdin>, Receiver<String>) {
    command.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = spawn_retrying(&mut command);
    let stdin = child.stdin.take();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    (child, stdin, lines)
}

/// Spawns `command`, retrying while the kernel says "text file busy": a test that has just
/// copied an executable can find its write descriptor still open in a child that another
/// test thread forked at that moment and has not yet replaced by exec.
pub fn spawn_retrying(command: &mut Command) -> Child {
    let mut attempts = 0;
    loop {
        match command.spawn() {
            Err(error)
                if error.kind() == std::io::ErrorKind::ExecutableFileBusy && attempts < 50 =>
            {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            result => return result.unwrap(),
        }
    }
}

/// Whether `line` matches `pattern`, where `...` stands for any text (timings, speeds):
/// how the documented example exchanges are compared with the engine's output.
pub fn glob(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("...");
    let Some(mut rest) = line.strip_prefix(parts.next().unwrap_or("")) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (index, part) in parts.iter().enumerate() {
        if index + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}
