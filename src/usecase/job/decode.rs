//! The decode job: an external solver's answer to a formula or program this crate wrote, checked
//! and turned back into a grid. A DIMACS answer is checked against every clause of the rebuilt
//! formula (whose puzzle fingerprint must match the file's header); an LP solution against
//! every constraint of the rebuilt program; every grid then passes the verifier.

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
use crate::usecase::error::Error;
use crate::usecase::solve::SolveError;

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
