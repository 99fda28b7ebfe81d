//! The convert job: a parsed document written as puzzles in another format, without solving.
//! [`ConvertJob::check`] checks it once against the document (one board, unless the output is
//! a Rubin file; an output format that draws puzzles) and gives a [`CheckedConvert`], which
//! writes. Formats that cannot express a puzzle (an IST board that is not 10x10, a CSC384
//! count of 10 or more, an unknown count in `.dzn`, any solution drawing) refuse instead of
//! writing a lie.

use crate::format::csc384::Dialect;
use crate::format::{Document, Inexpressible, OutputFormat, Writer};
use crate::model::limits::Limits;
use crate::usecase::error::Error;

/// A resolved convert job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvertJob {
    /// The output format.
    pub to: OutputFormat,
    /// The CSC384 cell alphabet (by default the input's, else symbols).
    pub cells: Option<Dialect>,
}

/// A [`ConvertJob`] checked against its document ([`ConvertJob::check`]): ready to write.
#[derive(Debug)]
pub struct CheckedConvert<'a> {
    doc: &'a Document,
    writer: Writer,
}

impl ConvertJob {
    /// The limits to read the job's input within: `limits` without the model-size limit, since
    /// no formula is built (a picture of a puzzle not solved reads so too).
    pub fn reading(limits: &Limits) -> Limits {
        limits.with_max_model_size(usize::MAX)
    }

    /// Checks the job against `doc` (named `source_name` in errors), once: one board, unless
    /// the output is a Rubin file ([`Error::MultipleBoards`]), and an output format that
    /// writes puzzles, which `pretty` does not ([`Error::Inexpressible`]).
    pub fn check<'a>(
        &self,
        doc: &'a Document,
        source_name: &str,
    ) -> Result<CheckedConvert<'a>, Error> {
        if doc.boards.len() != 1 && self.to != OutputFormat::Rubin {
            return Err(Error::MultipleBoards {
                source_name: source_name.to_string(),
                boards: doc.boards.len(),
            });
        }
        if self.to == OutputFormat::Pretty {
            return Err(Inexpressible {
                format: "pretty",
                reason: "it draws solutions, not puzzles",
            }
            .into());
        }
        Ok(CheckedConvert {
            doc,
            writer: Writer::choose(Some(self.to), self.cells, doc),
        })
    }

    /// Checks the job against `doc` ([`ConvertJob::check`]) and writes its puzzles.
    pub fn run(&self, doc: &Document, source_name: &str) -> Result<String, Error> {
        self.check(doc, source_name)?.run()
    }
}

impl CheckedConvert<'_> {
    /// The document's puzzles in the job's format.
    pub fn run(&self) -> Result<String, Error> {
        Ok(self.writer.puzzles(&self.doc.boards)?)
    }
}
