//! The decode job: an external solver's answer to a formula or program this crate wrote, checked
//! and turned back into a grid. A DIMACS answer is checked against every clause of the rebuilt
//! formula (whose puzzle fingerprint must match the file's header); an LP solution against
//! every constraint of the rebuilt program; every grid then passes the verifier.
//! [`DecodeJob::check`] checks a job once against its puzzle and the DIMACS file the solver
//! read (the settings given agree with its header, which names this puzzle) and gives a
//! [`CheckedDecode`], which reads the answer.

use crate::encode::ilp::IlpModel;
use crate::encode::ilp::solution::{self, SolutionStatus};
use crate::encode::sat::card::CardKind;
use crate::encode::sat::dimacs::{self, DecodeError, DimacsAnswer, Formula, Header};
use crate::encode::sat::model::Model;
use crate::format::{Found, ParseError, ParseErrorKind};
use crate::model::limits::{Limit, LimitExceeded};
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::verify;
use crate::usecase::Source;
use crate::usecase::error::{Error, Subject};
use crate::usecase::solve::{Backend, SolveError};

/// A resolved decode job: which solver's answer, and the formula or program it answers.
#[derive(Clone, Copy, Debug)]
pub struct DecodeJob {
    /// A SAT solver's answer (to a DIMACS formula) or a MIP solver's (to an LP program).
    pub backend: Backend,
    /// The CNF model the formula was written with; the DIMACS file's header says, else the
    /// default.
    pub model: Option<Model>,
    /// The cardinality encoding the formula was written with; as `model`.
    pub card: Option<CardKind>,
    /// The integer program a MIP solver answered (by default the one its variable names show).
    pub ilp_model: Option<IlpModel>,
}

/// A [`DecodeJob`] checked against its puzzle ([`DecodeJob::check`]): ready to read answers.
#[derive(Debug)]
pub struct CheckedDecode<'a> {
    job: &'a DecodeJob,
    puzzle: &'a Puzzle,
    /// The formula a SAT solver answered; `None` for a MIP solver's answer.
    formula: Option<Formula>,
}

impl DecodeJob {
    /// Checks the job against `puzzle` and, for a SAT solver's answer, the DIMACS file `cnf`
    /// the solver read (when given), once: a model or an encoding given agrees with the file's
    /// header ([`Error::HeaderMismatch`]), which fills in those not given, and the header names
    /// this puzzle ([`DecodeError::OtherPuzzle`]). The formula is rebuilt here.
    pub fn check<'a>(
        &'a self,
        puzzle: &'a Puzzle,
        cnf: Option<&Source>,
    ) -> Result<CheckedDecode<'a>, Error> {
        if self.backend == Backend::Ilp {
            return Ok(CheckedDecode {
                job: self,
                puzzle,
                formula: None,
            });
        }
        let header = cnf.map(read_header).transpose()?;
        let (mut model, mut card) = (self.model, self.card);
        if let (Some(cnf), Some(header)) = (cnf, &header) {
            let mismatch =
                |subject, header: &'static str, given: &'static str| Error::HeaderMismatch {
                    source_name: cnf.name.clone(),
                    subject,
                    header,
                    given,
                };
            if let (Some(given), Some(header)) = (model, header.model)
                && given != header
            {
                return Err(mismatch(Subject::Encoding, header.into(), given.into()));
            }
            if let (Some(given), Some(header)) = (card, header.card)
                && given != header
            {
                return Err(mismatch(Subject::Card, header.into(), given.into()));
            }
            model = model.or(header.model);
            card = card.or(header.card);
        }
        let formula = sat_formula(
            puzzle,
            model.unwrap_or_default(),
            card.unwrap_or_default(),
            cnf.zip(header.as_ref()),
        )?;
        Ok(CheckedDecode {
            job: self,
            puzzle,
            formula: Some(formula),
        })
    }
}

impl CheckedDecode<'_> {
    /// The grid in the solver's `answer`; `None` when the solver found no solution.
    pub fn run(&self, answer: &Source) -> Result<Option<Grid>, Error> {
        match &self.formula {
            Some(formula) => sat_answer(formula, self.puzzle, answer),
            None => ilp_answer(self.puzzle, self.job.ilp_model, answer),
        }
    }
}

/// The header comments of a DIMACS file written by this crate. A text whose first line other
/// than a `c` comment is not the `p cnf` line is not a DIMACS file: refused at that line.
pub fn read_header(cnf: &Source) -> Result<Header, Error> {
    let parse_err = |error| Error::Parse {
        source_name: cnf.name.clone(),
        error,
    };
    const EXPECTED: &str = "the DIMACS problem line `p cnf VARIABLES CLAUSES` (a formula written by the DIMACS export)";
    let mut lines = cnf
        .text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .enumerate();
    let problem = lines.find(|(_, l)| !(l.trim().is_empty() || l.starts_with('c')));
    let error = match problem {
        Some((_, l)) if l.split_whitespace().take(2).eq(["p", "cnf"]) => {
            return dimacs::read_header(&cnf.text).map_err(parse_err);
        }
        Some((i, l)) => ParseError::at_line(
            i + 1,
            ParseErrorKind::Expected {
                expected: EXPECTED,
                found: Found::new(l),
            },
        ),
        None => ParseError::at_line(
            cnf.text.lines().count() + 1,
            ParseErrorKind::UnexpectedEnd { expected: EXPECTED },
        ),
    };
    Err(parse_err(error))
}

/// The formula an answer belongs to: `puzzle` encoded with `model` and `card`. With the header
/// of the DIMACS file the solver was given (and that file), the puzzle it names must be this
/// one.
pub fn sat_formula(
    puzzle: &Puzzle,
    model: Model,
    card: CardKind,
    cnf: Option<(&Source, &Header)>,
) -> Result<Formula, Error> {
    let formula = Formula::build(puzzle, model, card);
    if let Some((source, header)) = cnf
        && let Some(fingerprint) = header.fingerprint
        && fingerprint != formula.fingerprint
    {
        return Err(Error::Decode {
            source_name: source.name.clone(),
            error: DecodeError::OtherPuzzle {
                formula: fingerprint,
                puzzle: formula.fingerprint,
            },
        });
    }
    Ok(formula)
}

/// The grid in a SAT solver's `answer` to `formula` (written for `puzzle`); `None` when the
/// solver answered UNSAT.
pub fn sat_answer(
    formula: &Formula,
    puzzle: &Puzzle,
    answer: &Source,
) -> Result<Option<Grid>, Error> {
    let decode_err = |error| Error::Decode {
        source_name: answer.name.clone(),
        error,
    };
    let vars = formula.cnf.var_count();
    let read = dimacs::read_answer(&answer.text, vars);
    if read.is_err() && solution::parse(&answer.text).is_ok() {
        return Err(decode_err(DecodeError::MipSolution));
    }
    let assignment = match read.map_err(|error| {
        // A variable beyond the formula: the answer belongs to another formula.
        match error.kind {
            ParseErrorKind::Limit(LimitExceeded {
                limit: Limit::Variable,
                value,
                ..
            }) => decode_err(DecodeError::UnknownVariable {
                var: usize::try_from(value).unwrap_or(usize::MAX),
                vars,
            }),
            _ => Error::Parse {
                source_name: answer.name.clone(),
                error,
            },
        }
    })? {
        DimacsAnswer::Sat(a) => a,
        DimacsAnswer::Unsat => return Ok(None),
        _ => return Err(decode_err(DecodeError::NoAnswer)),
    };
    formula
        .decode(puzzle, &assignment)
        .map(Some)
        .map_err(decode_err)
}

/// The grid in a MIP solver's `solution` (a CBC solution file or a glpsol report) to the
/// `model` program of `puzzle` (by default the one its variable names show); `None` when the
/// solver found the program infeasible.
pub fn ilp_answer(
    puzzle: &Puzzle,
    model: Option<IlpModel>,
    solution: &Source,
) -> Result<Option<Grid>, Error> {
    let parse_error = |error| Error::Parse {
        source_name: solution.name.clone(),
        error,
    };
    let external = match solution::parse(&solution.text) {
        Err(_)
            if dimacs::read_answer(
                &solution.text,
                crate::model::limits::Limits::default().max_variable,
            )
            .is_ok() =>
        {
            return Err(Error::Decode {
                source_name: solution.name.clone(),
                error: DecodeError::SatAnswer,
            });
        }
        read => read.map_err(parse_error)?,
    };
    if external.status == SolutionStatus::Infeasible {
        return Ok(None);
    }
    let program = model
        .or_else(|| external.model())
        .unwrap_or_default()
        .build(puzzle);
    let values = external.values_for(&program).map_err(parse_error)?;
    // Values that break the program are a wrong or foreign solution file, not a bug here.
    if let Some(broken) = program.constraints.iter().find(|c| !c.holds(&values)) {
        return Err(parse_error(ParseError::at_line(
            0,
            ParseErrorKind::Expected {
                expected: "values that satisfy every constraint of the model",
                found: Found::new(&format!("a point breaking {}", broken.name)),
            },
        )));
    }
    let grid = program.decode(&values).ok_or(SolveError::Decode)?;
    verify(puzzle, &grid).map_err(SolveError::Rejected)?;
    Ok(Some(grid))
}
