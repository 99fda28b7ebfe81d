//! Named input text: the text a parser reads and the name its errors carry (a path, or
//! `<stdin>`). [`Source::document`] detects the format when asked and parses every board;
//! [`Source::puzzle`] wants exactly one.

use super::{Board, Document, Format, ParseErrorKind, detect, parse_document, text_from_bytes};
use crate::error::Error;
use crate::puzzle::Puzzle;
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
    /// Reads the file at `path`, named by the path as given.
    pub fn read(path: &Path) -> Result<Source, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Source::from_bytes(path.display().to_string(), &bytes)
    }

    /// Reads a file found by listing a folder, with its format (`format`, or the one detected
    /// for [`Format::Auto`]). `Ok(None)` when the file cannot be a puzzle: it is not text (a zip,
    /// a PDF), or no format is detected; a folder's other files are skipped that way.
    pub fn read_listed(path: &Path, format: Format) -> Result<Option<(Source, Format)>, Error> {
        let source = match Source::read(path) {
            Err(Error::Parse { error, .. })
                if matches!(error.kind, ParseErrorKind::NotText { .. }) =>
            {
                return Ok(None);
            }
            s => s?,
        };
        match source.format(format) {
            Ok(format) => Ok(Some((source, format))),
            Err(Error::UnknownFormat { .. }) => Ok(None),
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
            Format::Auto => detect(&self.text).map_err(|e| Error::UnknownFormat {
                source_name: self.name.clone(),
                reason: e.reason(),
            }),
            f => Ok(f),
        }
    }

    /// Parses every board in `format` (detecting it for [`Format::Auto`]).
    pub fn document(&self, format: Format) -> Result<Document, Error> {
        parse_document(&self.text, self.format(format)?).map_err(|error| Error::Parse {
            source_name: self.name.clone(),
            error,
        })
    }

    /// Parses the one puzzle of the text in `format` (detecting it for [`Format::Auto`]); a
    /// file of several boards (Rubin) is refused.
    pub fn puzzle(&self, format: Format) -> Result<Puzzle, Error> {
        let mut doc = self.document(format)?;
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
