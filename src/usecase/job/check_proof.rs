//! The check-proof job: a certificate (the formula file and its DRAT proof) checked for one
//! board of a document. [`CheckProofJob::check`] checks it once against the document (a
//! formula that is text; the board it certifies: the document's one board, or the one of
//! several that the formula's header names) and gives a [`CheckedProof`], whose run
//! re-derives the formula, compares it and runs the DRAT checker ([`crate::usecase::proof`]).

use crate::format::Document;
use crate::model::puzzle::Puzzle;
use crate::usecase::proof::{Certified, Rejection, check, named_puzzle};

/// A resolved check-proof job: the certificate's two files, read.
#[derive(Clone, Debug)]
pub struct CheckProofJob {
    /// The formula file's name, for a rejection.
    pub formula_name: String,
    /// The formula file (DIMACS with the crate's header).
    pub formula: Vec<u8>,
    /// The DRAT proof, text or binary.
    pub proof: Vec<u8>,
}

/// A [`CheckProofJob`] checked against its document ([`CheckProofJob::check`]): ready to run.
#[derive(Clone, Debug)]
pub struct CheckedProof<'a> {
    job: &'a CheckProofJob,
    formula: &'a str,
    puzzle: &'a Puzzle,
}

impl CheckProofJob {
    /// Checks the job against `doc` (named `source_name`), once: the formula is text (else
    /// rejected at the formula's step), and names the board it certifies when the document
    /// holds several (else rejected at the header's step).
    pub fn check<'a>(
        &'a self,
        doc: &'a Document,
        source_name: &str,
    ) -> Result<CheckedProof<'a>, Rejection> {
        let Ok(formula) = std::str::from_utf8(&self.formula) else {
            return Err(Rejection::Formula(format!(
                "{} is not text",
                self.formula_name
            )));
        };
        let puzzle = match doc.boards.as_slice() {
            [board] => &board.puzzle,
            boards => named_puzzle(boards.iter().map(|b| &b.puzzle), formula).ok_or_else(|| {
                Rejection::Header(format!(
                    "it names none of the {} boards of {source_name}",
                    boards.len()
                ))
            })?,
        };
        Ok(CheckedProof {
            job: self,
            formula,
            puzzle,
        })
    }

    /// Checks the job against `doc` ([`CheckProofJob::check`]) and runs it.
    pub fn run(&self, doc: &Document, source_name: &str) -> Result<Certified, Rejection> {
        self.check(doc, source_name)?.run()
    }
}

impl CheckedProof<'_> {
    /// Re-derives the board's formula, compares it with the file clause for clause, checks the
    /// blocked grids and runs the DRAT checker on the proof.
    pub fn run(&self) -> Result<Certified, Rejection> {
        check(self.puzzle, self.formula, &self.job.proof)
    }
}
