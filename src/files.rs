//! Files the tools write and read, the one way every tool does it.
//!
//! An output is written through symbolic links (the file a link names is replaced, the
//! link kept) and only ever replaces a regular file: a FIFO, device, directory or socket
//! is refused, so that `--out /dev/sda` or a named pipe never becomes a regular file.
//! Writes are atomic: a temporary file beside the target, synced, then renamed over it,
//! so a failure leaves the old file whole. Appended files (match records) pass the same
//! check. Text inputs drop a UTF-8 byte-order mark.

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Why an output path was refused or could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// A regular file is there and may not be replaced.
    Exists(PathBuf),
    /// Something other than a regular file is there (`kind`: "a FIFO", ...);
    /// `target` is what the path's links lead to when it differs from `path`.
    NotRegular {
        path: PathBuf,
        target: Option<PathBuf>,
        kind: &'static str,
    },
    /// The links lead on and on (a loop).
    LinkLoop(PathBuf),
    /// The file's directory does not exist.
    NoDirectory { path: PathBuf, directory: PathBuf },
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Exists(path) => write!(f, "{}: the file exists", path.display()),
            OutputError::NotRegular { path, target, kind } => {
                write!(f, "{}", path.display())?;
                if let Some(target) = target {
                    write!(f, " (a link to {})", target.display())?;
                }
                write!(f, " is {kind}, not a regular file: refused")
            }
            OutputError::LinkLoop(path) => {
                write!(f, "{}: too many levels of symbolic links", path.display())
            }
            OutputError::NoDirectory { path, directory } => write!(
                f,
                "{}: the directory {} does not exist",
                path.display(),
                directory.display()
            ),
            OutputError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

impl From<OutputError> for String {
    fn from(error: OutputError) -> String {
        error.to_string()
    }
}

/// Most links followed before a path is taken for a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

/// What a path's links finally lead to: the path there, and its metadata unless
/// nothing is there yet.
struct Resolved {
    target: PathBuf,
    metadata: Option<Metadata>,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |error| OutputError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Follows `path`'s symbolic links (a dangling one names the file to create).
fn resolve(path: &Path) -> Result<Resolved, OutputError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = std::fs::read_link(&current).map_err(io_error(path))?;
                // A relative link is relative to the link's directory.
                current = current.parent().map_or(link.clone(), |dir| dir.join(&link));
            }
            Ok(metadata) => {
                return Ok(Resolved {
                    target: current,
                    metadata: Some(metadata),
                });
            }
            Err(error) if error.kind() == ErrorKind::NotFound => {
                return Ok(Resolved {
                    target: current,
                    metadata: None,
                });
            }
            Err(error) => return Err(io_error(path)(error)),
        }
    }
    Err(OutputError::LinkLoop(path.to_path_buf()))
}

/// What a file type is, in words, when it is not a regular file.
fn kind_name(file_type: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_file() {
        None
    } else if file_type.is_dir() {
        Some("a directory")
    } else if file_type.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if file_type.is_char_device() {
        Some("a character device")
    } else if file_type.is_block_device() {
        Some("a block device")
    } else if file_type.is_socket() {
        Some("a socket")
    } else {
        Some("not a regular file")
    }
}

/// The directory a file at `path` lives in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Resolves `path` and refuses what is there unless it is a regular file or nothing (in
/// an existing directory).
fn inspect(path: &Path) -> Result<Resolved, OutputError> {
    let resolved = resolve(path)?;
    match &resolved.metadata {
        Some(metadata) => {
            if let Some(kind) = kind_name(metadata.file_type()) {
                return Err(OutputError::NotRegular {
                    path: path.to_path_buf(),
                    target: (resolved.target != path).then(|| resolved.target.clone()),
                    kind,
                });
            }
        }
        None => {
            let directory = directory_of(&resolved.target);
            if !directory.is_dir() {
                return Err(OutputError::NoDirectory {
                    path: path.to_path_buf(),
                    directory: directory.to_path_buf(),
                });
            }
        }
    }
    Ok(resolved)
}

/// A file a tool will write whole (weights, a book, tables, a graph), checked when the
/// tool starts so that a bad path costs no work, and checked again when written.
#[derive(Clone, Debug)]
pub struct Output {
    path: PathBuf,
    replace: bool,
}

impl Output {
    /// Checks `path` as an output: it must be a regular file (through any links) or not
    /// exist yet in an existing directory; an existing file only with `replace`
    /// (otherwise [`OutputError::Exists`]).
    pub fn check(path: &Path, replace: bool) -> Result<Output, OutputError> {
        let resolved = inspect(path)?;
        if resolved.metadata.is_some() && !replace {
            return Err(OutputError::Exists(path.to_path_buf()));
        }
        Ok(Output {
            path: path.to_path_buf(),
            replace,
        })
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` as the whole file, atomically: to a temporary file beside the
    /// target (the file the path's links lead to), synced, then renamed over it. On any
    /// error the temporary file is removed and the old file is left as it was.
    pub fn write(&self, bytes: &[u8]) -> Result<(), OutputError> {
        let resolved = inspect(&self.path)?;
        if resolved.metadata.is_some() && !self.replace {
            return Err(OutputError::Exists(self.path.clone()));
        }
        let target = &resolved.target;
        let directory = directory_of(target);
        let (temp, mut file) = temp_file(directory, target).map_err(io_error(&self.path))?;
        let written = (|| {
            file.write_all(bytes)?;
            // A replaced file keeps its permissions.
            if let Some(metadata) = &resolved.metadata {
                file.set_permissions(metadata.permissions())?;
            }
            file.sync_all()
        })();
        drop(file);
        let placed = written.map_err(io_error(&self.path)).and_then(|()| {
            if self.replace {
                std::fs::rename(&temp, target).map_err(io_error(&self.path))
            } else {
                place_new(&temp, target, &self.path)
            }
        });
        if placed.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        placed?;
        // The rename itself is durable once the directory is synced.
        if let Ok(dir) = File::open(directory) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

/// Counts temporary files within this process, so that threads never share a name.
static TEMPS: AtomicUsize = AtomicUsize::new(0);

/// A new hidden file in `directory` named after `target`.
fn temp_file(directory: &Path, target: &Path) -> std::io::Result<(PathBuf, File)> {
    let name = target
        .file_name()
        .map_or("output".into(), |name| name.to_string_lossy());
    loop {
        let count = TEMPS.fetch_add(1, Ordering::Relaxed);
        let temp = directory.join(format!(".{name}.{}-{count}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(error) if error.kind() == ErrorKind::AlreadyExists && count < 1000 => continue,
            Err(error) => return Err(error),
        }
    }
}

/// Puts `temp` at `target` only if nothing is there: a hard link fails rather than
/// replace a file that appeared meanwhile. Where links are not supported, a last look
/// and a rename.
fn place_new(temp: &Path, target: &Path, given: &Path) -> Result<(), OutputError> {
    match std::fs::hard_link(temp, target) {
        Ok(()) => {
            let _ = std::fs::remove_file(temp);
            Ok(())
        }
        Err(error) if error.kind() == ErrorKind::AlreadyExists => {
            Err(OutputError::Exists(given.to_path_buf()))
        }
        Err(_) => {
            if std::fs::symlink_metadata(target).is_ok() {
                return Err(OutputError::Exists(given.to_path_buf()));
            }
            std::fs::rename(temp, target).map_err(io_error(given))
        }
    }
}

/// Checks a file that is appended to (created when missing): a regular file through any
/// links, or nothing yet in an existing directory. Call it before any work that the
/// file would record.
pub fn check_append(path: &Path) -> Result<(), OutputError> {
    inspect(path).map(|_| ())
}

/// Opens `path` for appending, creating it, after [`check_append`]; the open file is
/// checked again, in case something else was put there meanwhile.
pub fn open_append(path: &Path) -> Result<File, OutputError> {
    check_append(path)?;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_error(path))?;
    let metadata = file.metadata().map_err(io_error(path))?;
    match kind_name(metadata.file_type()) {
        None => Ok(file),
        Some(kind) => Err(OutputError::NotRegular {
            path: path.to_path_buf(),
            target: None,
            kind,
        }),
    }
}

/// The UTF-8 byte-order mark some editors put at the start of a text file.
const BOM: char = '\u{feff}';

/// `text` without a leading byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// `bytes` without a leading UTF-8 byte-order mark.
pub fn strip_bom_bytes(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes)
}

/// Reads a text file whole, without a leading byte-order mark; errors name the file.
pub fn read_text(path: &Path) -> Result<String, String> {
    let mut text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A fresh scratch directory of this test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("arbor-files-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_new_files_and_replaces_only_when_allowed() {
        let dir = scratch("replace");
        let path = dir.join("out.bin");
        Output::check(&path, false).unwrap().write(b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let refused = Output::check(&path, false).unwrap_err();
        assert!(matches!(refused, OutputError::Exists(_)), "{refused}");
        Output::check(&path, true).unwrap().write(b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        // Checked again when written: a file that appeared meanwhile is kept.
        let late = dir.join("late.bin");
        let output = Output::check(&late, false).unwrap();
        std::fs::write(&late, "theirs").unwrap();
        assert!(matches!(output.write(b"ours"), Err(OutputError::Exists(_))));
        assert_eq!(std::fs::read(&late).unwrap(), b"theirs");
        assert_eq!(listing(&dir), ["late.bin", "out.bin"], "no temporary files");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_through_links_and_keeps_them() {
        let dir = scratch("links");
        std::fs::create_dir(dir.join("real")).unwrap();
        std::fs::write(dir.join("real/file"), "old").unwrap();
        symlink("real/file", dir.join("link")).unwrap();
        symlink("link", dir.join("link2")).unwrap();
        Output::check(&dir.join("link2"), true)
            .unwrap()
            .write(b"new")
            .unwrap();
        assert!(dir.join("link").symlink_metadata().unwrap().is_symlink());
        assert!(dir.join("link2").symlink_metadata().unwrap().is_symlink());
        assert_eq!(std::fs::read(dir.join("real/file")).unwrap(), b"new");
        // A dangling link names the file to create.
        symlink("real/created", dir.join("dangling")).unwrap();
        Output::check(&dir.join("dangling"), false)
            .unwrap()
            .write(b"made")
            .unwrap();
        assert_eq!(std::fs::read(dir.join("real/created")).unwrap(), b"made");
        assert_eq!(listing(&dir.join("real")), ["created", "file"]);
        // A loop is refused.
        symlink("loop2", dir.join("loop1")).unwrap();
        symlink("loop1", dir.join("loop2")).unwrap();
        let looped = Output::check(&dir.join("loop1"), true).unwrap_err();
        assert!(matches!(looped, OutputError::LinkLoop(_)), "{looped}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        let dir = scratch("special");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        symlink("/dev/null", dir.join("null")).unwrap();
        let cases = [
            (fifo.clone(), "a FIFO"),
            (dir.join("null"), "a character device"),
            (dir.clone(), "a directory"),
        ];
        for (path, kind) in &cases {
            for replace in [false, true] {
                let error = Output::check(path, replace).unwrap_err().to_string();
                assert!(error.contains(kind), "{error}");
                assert!(error.contains(&path.display().to_string()), "{error}");
                assert!(check_append(path).unwrap_err().to_string().contains(kind));
            }
        }
        assert!(
            Output::check(&dir.join("null"), true)
                .unwrap_err()
                .to_string()
                .contains("(a link to /dev/null)")
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
        let missing = Output::check(&dir.join("no/such/file"), true).unwrap_err();
        assert!(
            matches!(missing, OutputError::NoDirectory { .. }),
            "{missing}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn appends_through_links() {
        let dir = scratch("append");
        std::fs::write(dir.join("real"), "a\n").unwrap();
        symlink("real", dir.join("link")).unwrap();
        open_append(&dir.join("link"))
            .unwrap()
            .write_all(b"b\n")
            .unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("real")).unwrap(), "a\nb\n");
        assert!(dir.join("link").symlink_metadata().unwrap().is_symlink());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn byte_order_marks_are_dropped() {
        assert_eq!(strip_bom("\u{feff}f5d6"), "f5d6");
        assert_eq!(strip_bom("f5\u{feff}"), "f5\u{feff}");
        assert_eq!(strip_bom_bytes(b"\xef\xbb\xbf{}"), b"{}");
        let dir = scratch("bom");
        std::fs::write(dir.join("text"), "\u{feff}line\n").unwrap();
        assert_eq!(read_text(&dir.join("text")).unwrap(), "line\n");
        let missing = read_text(&dir.join("missing")).unwrap_err();
        assert!(missing.contains("missing: "), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
