//! The decode command: read the puzzle, the DIMACS header when given (checking the flags given
//! again against it) and the solver's answer, let the library check and decode it
//! ([`bimaru_sat::usecase::job::decode`]), and print the grid in the puzzle's format. `--backend ilp`
//! reads a CBC or glpsol answer instead.

use super::{Destination, Exit, Failure, read_input};
use crate::app::cli::DecodeArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Writer;
use bimaru_sat::usecase::job::decode::{ilp_answer, read_header, sat_answer, sat_formula};
use bimaru_sat::usecase::solve::Backend;

/// Runs the decode command.
pub fn run(args: &DecodeArgs, limits: &Limits) -> Result<Exit, Failure> {
    let output = Destination::new(
        args.output.as_deref(),
        &[Some(&args.puzzle), Some(&args.model), args.cnf.as_deref()],
    )?;
    let input = read_input(Some(&args.puzzle), limits)?;
    let doc = input.document(args.format, limits)?;
    let puzzle = &doc.single(&input.name)?.puzzle;
    let grid = if args.backend == Backend::Ilp {
        let solution = read_input(Some(&args.model), limits)?;
        match ilp_answer(puzzle, args.ilp_model, &solution)? {
            Some(grid) => grid,
            None => {
                note!("{}: no solution", input.name);
                return Ok(Exit::NoSolution);
            }
        }
    } else {
        let (mut model, mut card) = (args.encoding, args.card);
        let cnf = match &args.cnf {
            Some(path) => Some(read_input(Some(path), limits)?),
            None => None,
        };
        let header = match &cnf {
            Some(cnf) => Some(read_header(cnf)?),
            None => None,
        };
        if let (Some(cnf), Some(header)) = (&cnf, &header) {
            let mismatch =
                |flag, header: &'static str, given: &'static str| Failure::HeaderMismatch {
                    source_name: cnf.name.clone(),
                    flag,
                    header,
                    given,
                };
            if let (Some(given), Some(header)) = (model, header.model)
                && given != header
            {
                return Err(mismatch("--encoding", header.into(), given.into()));
            }
            if let (Some(given), Some(header)) = (card, header.card)
                && given != header
            {
                return Err(mismatch("--card", header.into(), given.into()));
            }
            model = model.or(header.model);
            card = card.or(header.card);
        }
        let formula = sat_formula(
            puzzle,
            model.unwrap_or_default(),
            card.unwrap_or_default(),
            cnf.as_ref().zip(header.as_ref()),
        )?;
        let answer = read_input(Some(&args.model), limits)?;
        match sat_answer(&formula, puzzle, &answer)? {
            Some(grid) => grid,
            None => {
                note!("{}: the solver found no solution", answer.name);
                return Ok(Exit::NoSolution);
            }
        }
    };
    let text = Writer::choose(None, None, &doc).solved_puzzle(puzzle, &grid);
    output.write(text.as_bytes())?;
    Ok(Exit::Success)
}
