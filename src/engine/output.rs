//! Where a front end's replies go. A write that fails (a full disk, a reader that has
//! gone) is kept rather than ignored: the event loop then stops the running job and ends
//! the session with that error, so no search runs on for nobody and no reply is lost in
//! silence.

use std::io::{self, Write};

pub struct Replies {
    /// `None` once closed (Gomocup's `END`) or failed: nothing more is written.
    sink: Option<Box<dyn Write + Send>>,
    error: Option<io::Error>,
}

impl Replies {
    pub fn new(sink: impl Write + Send + 'static) -> Replies {
        Replies {
            sink: Some(Box::new(sink)),
            error: None,
        }
    }

    /// Writes `text` as it is and flushes (replies must reach a waiting reader at once).
    pub fn write(&mut self, text: &str) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        if let Err(error) = sink.write_all(text.as_bytes()).and_then(|()| sink.flush()) {
            self.sink = None;
            self.error = Some(error);
        }
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: &str) {
        self.write(&format!("{text}\n"));
    }

    /// Flushes and writes nothing more (a failure to flush is still reported).
    pub fn close(&mut self) {
        if let Some(mut sink) = self.sink.take()
            && let Err(error) = sink.flush()
        {
            self.error = Some(error);
        }
    }

    /// The write error, once; the event loop ends the session on it.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}

/// Watches standard output from a thread of its own and [`abandon`]s the process's
/// searches as soon as its reader goes (a pipe's reader exits, a terminal hangs up), even
/// while a search writes nothing: the reply that follows then fails to write and the
/// command ends with that error. Regular files and devices never end it.
///
/// [`abandon`]: crate::stop::abandon
pub fn watch_stdout() {
    #[cfg(unix)]
    std::thread::spawn(|| {
        let mut watched = libc::pollfd {
            fd: libc::STDOUT_FILENO,
            events: 0,
            revents: 0,
        };
        loop {
            // Asks for no event: only an error or a hang-up wakes it.
            // SAFETY: one valid pollfd, for the duration of the call.
            let ready = unsafe { libc::poll(&mut watched, 1, -1) };
            if ready > 0 {
                if watched.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
                    crate::stop::abandon();
                }
                return;
            }
            if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return;
            }
        }
    });
}

/// The message for a failed write to standard output, for the tools' `Result<_, String>`.
pub fn stdout_error(error: io::Error) -> String {
    format!("cannot write to standard output: {error}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that fails every write after the first `budget` bytes.
    struct Full {
        budget: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.budget == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "full"));
            }
            let n = buf.len().min(self.budget);
            self.budget -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_first_failure_is_kept_and_nothing_more_is_written() {
        let mut out = Replies::new(Full { budget: 3 });
        out.line("ok");
        assert!(out.take_error().is_none());
        out.line("this fails");
        let error = out.take_error().expect("the failure is kept");
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        out.line("dropped");
        assert!(out.take_error().is_none(), "reported once");
    }
}
