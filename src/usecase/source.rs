//! Named input text: the text a parser reads and the name its errors carry (a path, or
//! `<stdin>`). [`Source::document`] detects the format when asked and parses every board;
//! [`Source::puzzle`] wants exactly one. The `_within` forms read and parse within given
//! [`Limits`] (a file over [`Limits::max_input_bytes`] is refused before it is read).

use crate::format::{
    Board, DetectError, Document, Format, ParseError, ParseErrorKind, detect, parse_document,
    text_from_bytes,
};
use crate::model::limits::Limits;
use crate::model::puzzle::Puzzle;
use crate::usecase::error::Error;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A text and the name it goes by in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The path as given, or `<stdin>`.
    pub name: String,
    /// The whole text.
    pub text: String,
}

impl Source {
    /// Reads the file at `path`, named by the path as given; a file over
    /// [`Limits::max_input_bytes`] is refused.
    pub fn read(path: &Path, limits: &Limits) -> Result<Source, Error> {
        let bytes = Source::bytes(path, limits)?;
        Source::from_bytes(path.display().to_string(), &bytes)
    }

    /// The bytes of the file at `path` (a proof, a formula: not necessarily text), refusing a
    /// file over [`Limits::max_input_bytes`] without reading more than one byte past it.
    pub fn bytes(path: &Path, limits: &Limits) -> Result<Vec<u8>, Error> {
        let io_err = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io_err)?;
        read_capped(file, limits).map_err(|e| match e {
            Bounded::Io(source) => io_err(source),
            Bounded::Limit(error) => Error::Parse {
                source_name: path.display().to_string(),
                error,
            },
        })
    }

    /// Reads `reader` (standard input) to its end as the text named `name`, refusing more than
    /// [`Limits::max_input_bytes`].
    pub fn read_from(
        name: impl Into<String>,
        reader: impl Read,
        limits: &Limits,
    ) -> Result<Source, Error> {
        let name = name.into();
        match read_capped(reader, limits) {
            Ok(bytes) => Source::from_bytes(name, &bytes),
            Err(Bounded::Io(source)) => Err(Error::Io {
                path: name.into(),
                source,
            }),
            Err(Bounded::Limit(error)) => Err(Error::Parse {
                source_name: name,
                error,
            }),
        }
    }

    /// Reads a file found by listing a folder, with its format (`format`, or the one detected
    /// for [`Format::Auto`]). `Ok(None)` when the file cannot be a puzzle: it is not text (a zip,
    /// a PDF), or no format is detected; a folder's other files are skipped that way. The file is
    /// read within `limits`.
    pub(crate) fn read_listed(
        path: &Path,
        format: Format,
        limits: &Limits,
    ) -> Result<Option<(Source, Format)>, Error> {
        let source = match Source::read(path, limits) {
            Err(Error::Parse { error, .. })
                if matches!(error.kind, ParseErrorKind::NotText { .. }) =>
            {
                return Ok(None);
            }
            s => s?,
        };
        match source.format(format) {
            Ok(format) => Ok(Some((source, format))),
            Err(Error::UnknownFormat { .. } | Error::EmptyInput { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Text read elsewhere (standard input), refusing binary data with a parse error.
    pub fn from_bytes(name: impl Into<String>, bytes: &[u8]) -> Result<Source, Error> {
        let name = name.into();
        match text_from_bytes(bytes) {
            Ok(text) => Ok(Source {
                text: text.to_string(),
                name,
            }),
            Err(error) => Err(Error::Parse {
                source_name: name,
                error,
            }),
        }
    }

    /// `format`, or for [`Format::Auto`] the one format the text shows.
    pub fn format(&self, format: Format) -> Result<Format, Error> {
        match format {
            Format::Auto => detect(&self.text).map_err(|e| match e {
                DetectError::Empty | DetectError::Blank => Error::EmptyInput {
                    source_name: self.name.clone(),
                    bytes: self.text.len(),
                },
                e => Error::UnknownFormat {
                    source_name: self.name.clone(),
                    reason: e.reason(),
                },
            }),
            f => Ok(f),
        }
    }

    /// Parses every board in `format` (detecting it for [`Format::Auto`]) within `limits`.
    pub fn document(&self, format: Format, limits: &Limits) -> Result<Document, Error> {
        parse_document(&self.text, self.format(format)?, limits).map_err(|error| Error::Parse {
            source_name: self.name.clone(),
            error,
        })
    }

    /// Parses the one puzzle of the text in `format` (detecting it for [`Format::Auto`]) within
    /// `limits`; a file of several boards (Rubin) is refused.
    pub fn puzzle(&self, format: Format, limits: &Limits) -> Result<Puzzle, Error> {
        let mut doc = self.document(format, limits)?;
        doc.single(&self.name)?;
        Ok(doc.boards.remove(0).puzzle)
    }
}

impl Document {
    /// The one board of the document; several are refused with an error naming `source_name`.
    pub fn single(&self, source_name: &str) -> Result<&Board, Error> {
        match self.boards.as_slice() {
            [board] => Ok(board),
            boards => Err(Error::MultipleBoards {
                source_name: source_name.to_string(),
                boards: boards.len(),
            }),
        }
    }
}

/// Why a bounded read failed.
enum Bounded {
    Io(std::io::Error),
    Limit(ParseError),
}

/// Reads `reader` to its end, refusing more than [`Limits::max_input_bytes`] bytes (without
/// holding more than one byte over the limit).
fn read_capped(reader: impl Read, limits: &Limits) -> Result<Vec<u8>, Bounded> {
    let mut bytes = Vec::new();
    reader
        .take(limits.max_input_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Bounded::Io)?;
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    limits
        .input_bytes(len)
        .map_err(|e| Bounded::Limit(ParseError::at_line(0, e.into())))?;
    Ok(bytes)
}

/// What a folder holds, for a command that reads the files directly inside it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderListing {
    /// The files to read, sorted by name: regular files (or links to them), and links that
    /// lead nowhere (a loop, a missing target), which fail when read as they would given by
    /// name.
    pub files: Vec<PathBuf>,
    /// The entries left out, sorted by name: folders (links to folders too) and special files
    /// (FIFOs, sockets, devices), which are not read.
    pub left_out: Vec<LeftOut>,
}

/// An entry of a folder that is not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// Its path.
    pub path: PathBuf,
    /// What it is, in words (`a folder`).
    pub what: &'static str,
}

/// The entries directly inside the folder `dir`: the files to read and those left out.
pub fn folder_listing(dir: &Path) -> Result<FolderListing, Error> {
    let io_err = |source| Error::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io_err)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io_err)?;
    paths.sort();
    let mut listing = FolderListing::default();
    for path in paths {
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => listing.files.push(path),
            Ok(meta) if meta.is_dir() => listing.left_out.push(LeftOut {
                path,
                what: "a folder",
            }),
            Ok(_) => listing.left_out.push(LeftOut {
                path,
                what: "a special file (a FIFO, a socket or a device)",
            }),
            // A link that leads nowhere: read, it fails with the system's reason.
            Err(_) => listing.files.push(path),
        }
    }
    Ok(listing)
}

/// The regular files directly inside the folder `dir`, sorted by name.
pub fn folder_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let io_err = |source| Error::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io_err)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io_err)?;
    files.retain(|p| p.is_file());
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::Source;
    use crate::model::limits::Limits;

    #[test]
    fn a_file_one_byte_over_the_cap_is_refused_and_one_at_it_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let limits = Limits::default().with_max_input_bytes(10);
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(Source::bytes(&path, &limits).unwrap().len(), 10);
        assert!(Source::read(&path, &limits).is_ok());
        std::fs::write(&path, b"0123456789a").unwrap();
        let over = Source::bytes(&path, &limits).unwrap_err().to_string();
        assert!(over.contains("over the limit of 10 bytes"), "{over}");
        assert!(Source::read(&path, &limits).is_err());
    }
}
