//! Where a command's output goes, checked before any work is done. Standard output is written
//! through one path that reports every error but a closed pipe (`> /dev/full` fails the run).
//! A file is replaced whole or not at all: the text goes to a temporary file in the directory
//! of the file it replaces (the end of a chain of symbolic links, which stay in place), then a
//! rename. Only regular files are replaced: a device, a FIFO, a socket or a directory is
//! refused, and so is a file that is also an input of the run, or that the user cannot write.

use super::error::{Failure, Refusal};
use bimaru_sat::usecase::error::Error;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Symbolic links followed before giving up (the kernel's own limit).
const MAX_LINKS: usize = 40;

/// A checked destination: standard output, or a regular file to replace (or create).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A file.
    File {
        /// The path as given, for messages.
        path: PathBuf,
        /// The file written: the end of the path's symbolic links, in a canonical directory.
        target: PathBuf,
    },
}

/// Whether `path` means standard output (absent or `-`).
pub fn is_stdout(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

impl Destination {
    /// Checks `path` (standard output for `None` or `-`) before any work: it must be, or
    /// become, a regular file the user may write, in an existing directory, and none of
    /// `inputs`.
    pub fn new(path: Option<&Path>, inputs: &[Option<&Path>]) -> Result<Destination, Failure> {
        let Some(path) = path.filter(|p| !is_stdout(Some(p))) else {
            return Ok(Destination::Stdout);
        };
        let target = resolve(path)?;
        for input in inputs.iter().flatten() {
            if !is_stdout(Some(input)) && same_file(&target, input) {
                return Err(Refusal::SameAsInput {
                    output: path.to_path_buf(),
                    input: input.to_path_buf(),
                }
                .into());
            }
        }
        Ok(Destination::File {
            path: path.to_path_buf(),
            target,
        })
    }

    /// Refuses two file outputs of one run that name the same file.
    pub fn distinct(outputs: &[&Destination]) -> Result<(), Failure> {
        for (i, a) in outputs.iter().enumerate() {
            for b in &outputs[i + 1..] {
                if let (
                    Destination::File { path, target },
                    Destination::File {
                        path: other,
                        target: other_target,
                    },
                ) = (a, b)
                    && target == other_target
                {
                    return Err(Refusal::SameOutput {
                        first: path.clone(),
                        second: other.clone(),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }

    /// Whether this is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self, Destination::Stdout)
    }

    /// Writes `bytes`: to standard output, or whole to the file.
    pub fn write(&self, bytes: &[u8]) -> Result<(), Failure> {
        match self {
            Destination::Stdout => Ok(stdout(bytes)?),
            Destination::File { path, target } => {
                // Checked again: the file may have changed since the run began.
                let now = resolve(path)?;
                replace(path, if now == *target { target } else { &now }, bytes)
            }
        }
    }
}

/// Writes `bytes` to standard output and flushes it. A closed pipe is not an error (the reader
/// had enough); any other failure (a full disk, `> /dev/full`) is.
pub fn stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(stdout_error(e)),
        _ => Ok(()),
    }
}

/// Standard output written a line at a time (batch results as they come): once the reader has
/// closed the pipe, the lines are dropped quietly; any other failure is returned.
#[derive(Debug)]
pub struct StdoutLines {
    open: bool,
}

impl StdoutLines {
    /// Standard output, open.
    pub fn new() -> StdoutLines {
        StdoutLines { open: true }
    }

    /// Writes `line` and a newline, and flushes.
    pub fn line(&mut self, line: &str) -> Result<(), Error> {
        if !self.open {
            return Ok(());
        }
        let mut out = io::stdout().lock();
        match writeln!(out, "{line}").and_then(|()| out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.open = false;
                Ok(())
            }
            Err(e) => {
                self.open = false;
                Err(stdout_error(e))
            }
            Ok(()) => Ok(()),
        }
    }
}

fn stdout_error(source: io::Error) -> Error {
    Error::Io {
        path: PathBuf::from("<stdout>"),
        source,
    }
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> Failure + '_ {
    move |source| {
        Failure::Library(Error::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// What a file type is, in words, when it is not a regular file.
fn kind(file_type: fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    if file_type.is_symlink() {
        return Some("a symbolic link");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

/// The file a write to `path` replaces or creates: the end of its chain of symbolic links
/// (a dangling link creates its target), in its canonical directory. Refuses anything but a
/// regular file, and a file the user may not write (as `>` in the shell would).
fn resolve(path: &Path) -> Result<PathBuf, Failure> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current).map_err(io_error(path))?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(meta) => {
                if let Some(kind) = kind(meta.file_type()) {
                    return Err(Refusal::NotRegular {
                        path: path.to_path_buf(),
                        kind,
                    }
                    .into());
                }
                // Opening for writing changes nothing, and fails where `>` would.
                fs::OpenOptions::new()
                    .write(true)
                    .open(&current)
                    .map_err(io_error(path))?;
                return canonical_dir(path, &current);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return canonical_dir(path, &current),
            Err(e) => return Err(io_error(path)(e)),
        }
    }
    Err(Refusal::LinkLoop {
        path: path.to_path_buf(),
    }
    .into())
}

/// `file` with its directory made canonical (which must exist); `path` names it in messages.
fn canonical_dir(path: &Path, file: &Path) -> Result<PathBuf, Failure> {
    let name = file.file_name().ok_or_else(|| {
        Failure::from(Refusal::NotRegular {
            path: path.to_path_buf(),
            kind: "a directory",
        })
    })?;
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Ok(fs::canonicalize(dir).map_err(io_error(path))?.join(name))
}

/// Whether `a` and `b` are the same existing file (the same device and inode: hard links and
/// symbolic links too).
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        x.dev() == y.dev() && x.ino() == y.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (x, y);
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(p), Ok(q)) if p == q)
    }
}

/// Replaces `target` (named `path` in messages) with `bytes` through a temporary file in its
/// directory and a rename. A replaced file keeps its mode; a new one gets rw-r--r--.
fn replace(path: &Path, target: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let err = io_error(path);
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".bimaru-sat-")
        .tempfile_in(dir)
        .map_err(|e| {
            // The file is written beside its target, then renamed over it: say so, without
            // the random name of a temporary file that never existed.
            let reason = e.to_string();
            let reason = reason.split(" at path ").next().unwrap_or_default();
            err(io::Error::new(
                e.kind(),
                format!(
                    "cannot be replaced: no temporary file can be made in {} to write it \
                     through ({reason})",
                    dir.display()
                ),
            ))
        })?;
    let mode = fs::metadata(target).map(|m| m.permissions());
    #[cfg(unix)]
    let mode = mode.or_else(|_| {
        use std::os::unix::fs::PermissionsExt;
        Ok::<_, io::Error>(fs::Permissions::from_mode(0o644))
    });
    if let Ok(mode) = mode {
        tmp.as_file().set_permissions(mode).map_err(&err)?;
    }
    tmp.write_all(bytes).map_err(&err)?;
    tmp.as_file().sync_all().map_err(&err)?;
    tmp.persist(target).map_err(|e| err(e.error))?;
    Ok(())
}

/// A directory of files made whole before it appears: the files are written into a temporary
/// directory beside `dir`, which then takes its place. A failure leaves neither `dir` (or its
/// old contents) changed nor the temporary directory behind.
pub struct NewDir {
    /// The folder as given, for messages.
    path: PathBuf,
    /// The folder filled: `path`, or the folder its symbolic link names.
    dir: PathBuf,
    tmp: tempfile::TempDir,
}

impl NewDir {
    /// Prepares to fill `path`, which must be a directory (or a symbolic link to one) or not
    /// exist yet (its parent must).
    pub fn new(path: &Path) -> Result<NewDir, Failure> {
        let dir = match fs::metadata(path) {
            Ok(meta) if !meta.is_dir() => {
                return Err(Refusal::NotADirectory {
                    path: path.to_path_buf(),
                    kind: kind(meta.file_type()).unwrap_or("a regular file"),
                }
                .into());
            }
            // A link to a folder fills that folder; the link stays.
            Ok(_) => fs::canonicalize(path).map_err(io_error(path))?,
            Err(e) if e.kind() != io::ErrorKind::NotFound || fs::symlink_metadata(path).is_ok() => {
                return Err(io_error(path)(e));
            }
            Err(_) => path.to_path_buf(),
        };
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            // The umask still applies, as for any new directory.
            fs::Permissions::from_mode(0o777)
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".bimaru-sat-");
        #[cfg(unix)]
        builder.permissions(mode);
        let tmp = builder.tempdir_in(parent).map_err(io_error(parent))?;
        Ok(NewDir {
            path: path.to_path_buf(),
            dir,
            tmp,
        })
    }

    /// Writes the file `name` into the directory being made.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), Failure> {
        let path = self.tmp.path().join(name);
        fs::write(&path, bytes).map_err(io_error(&self.path.join(name)))
    }

    /// Puts the files in place: the new directory takes the place of `dir` when `dir` does not
    /// exist or is empty; otherwise each file is moved into `dir` (a rename within one file
    /// system, after every file was written), replacing files of the same name.
    pub fn commit(self) -> Result<(), Failure> {
        let err = io_error(&self.path);
        let empty = match fs::read_dir(&self.dir) {
            Ok(mut entries) => entries.next().is_none(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => true,
            Err(e) => return Err(err(e)),
        };
        if empty {
            fs::rename(self.tmp.path(), &self.dir).map_err(&err)?;
            // Renamed away: nothing is left to clean up.
            let _ = self.tmp.keep();
            return Ok(());
        }
        let mut names: Vec<_> = fs::read_dir(self.tmp.path())
            .map_err(&err)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<Result<_, _>>()
            .map_err(&err)?;
        names.sort();
        for name in &names {
            let to = self.dir.join(name);
            if let Ok(meta) = fs::symlink_metadata(&to)
                && let Some(kind) = kind(meta.file_type())
            {
                return Err(Refusal::NotRegular {
                    path: self.path.join(name),
                    kind,
                }
                .into());
            }
        }
        for name in names {
            fs::rename(self.tmp.path().join(&name), self.dir.join(&name)).map_err(&err)?;
        }
        Ok(())
    }
}
