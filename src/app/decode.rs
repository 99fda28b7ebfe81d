//! The decode command: read an external solver's answer, re-encode the puzzle with the flags
//! recorded in the DIMACS header (or given again), check the model against every clause and the
//! verifier, and print the grid in the puzzle's format. `--backend ilp` answers (CBC, glpsol)
//! are read by [`super::decode_ilp`].

use super::{Exit, read_input, write_output};
use crate::cli::DecodeArgs;
use bimaru_sat::error::Error;
use bimaru_sat::format::Writer;
use bimaru_sat::sat::card::CardKind;
use bimaru_sat::sat::dimacs::{self, Answer, DecodeError, Formula};
use bimaru_sat::solve::Backend;

/// Runs the decode command.
pub fn run(args: &DecodeArgs) -> Result<Exit, Error> {
    if args.backend == Backend::Ilp {
        return super::decode_ilp::run(args);
    }
    let input = read_input(Some(&args.puzzle))?;
    let doc = input.document(args.format)?;
    let puzzle = &doc.single(&input.name)?.puzzle;
    let (mut model, mut card) = (args.encoding, args.card);
    let mut recorded = None;
    if let Some(cnf) = &args.cnf {
        let cnf_input = read_input(Some(cnf))?;
        let header = dimacs::read_header(&cnf_input.text).map_err(|error| Error::Parse {
            source_name: cnf_input.name.clone(),
            error,
        })?;
        let mismatch = |error| Error::Decode {
            source_name: cnf_input.name.clone(),
            error,
        };
        if let (Some(given), Some(header)) = (model, header.model)
            && given != header
        {
            return Err(mismatch(DecodeError::FlagMismatch {
                flag: "--encoding",
                header: header.name(),
                given: given.name(),
            }));
        }
        if let (Some(given), Some(header)) = (card, header.card)
            && given != header
        {
            return Err(mismatch(DecodeError::FlagMismatch {
                flag: "--card",
                header: header.name(),
                given: given.name(),
            }));
        }
        model = model.or(header.model);
        card = card.or(header.card);
        recorded = header.fingerprint.map(|f| (f, cnf_input.name));
    }
    let formula = Formula::build(
        puzzle,
        model.unwrap_or_default(),
        card.unwrap_or(CardKind::default()),
    );
    if let Some((fingerprint, name)) = recorded
        && fingerprint != formula.fingerprint
    {
        return Err(Error::Decode {
            source_name: name,
            error: DecodeError::OtherPuzzle {
                formula: fingerprint,
                puzzle: formula.fingerprint,
            },
        });
    }
    let answer_input = read_input(Some(&args.model))?;
    let decode_err = |error| Error::Decode {
        source_name: answer_input.name.clone(),
        error,
    };
    let answer = dimacs::read_answer(&answer_input.text).map_err(|error| Error::Parse {
        source_name: answer_input.name.clone(),
        error,
    })?;
    let assignment = match answer {
        Answer::Sat(a) => a,
        Answer::Unsat => {
            eprintln!("{}: the solver found no solution", answer_input.name);
            return Ok(Exit::NoSolution);
        }
        _ => return Err(decode_err(DecodeError::NoAnswer)),
    };
    let grid = formula.decode(puzzle, &assignment).map_err(decode_err)?;
    let text = Writer::choose(None, None, &doc).solved_puzzle(puzzle, &grid);
    write_output(args.output.as_deref(), &text)?;
    Ok(Exit::Success)
}
