//! The decode command: flags → a [`DecodeJob`], checked against the puzzle and the DIMACS file
//! when given (the flags given again agree with its header), then run on the solver's answer;
//! prints the grid in the puzzle's format. `--backend ilp` reads a CBC or glpsol answer
//! instead.

use super::{Destination, Exit, Failure, read_input};
use crate::app::cli::DecodeArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Writer;
use bimaru_sat::usecase::job::decode::DecodeJob;
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
    let job = DecodeJob {
        backend: args.backend,
        model: args.encoding,
        card: args.card,
        ilp_model: args.ilp_model,
    };
    // The DIMACS file the SAT solver read, when given: the job checks the flags against it.
    let cnf = match &args.cnf {
        Some(path) if args.backend == Backend::Sat => Some(read_input(Some(path), limits)?),
        _ => None,
    };
    let checked = job.check(puzzle, cnf.as_ref())?;
    let answer = read_input(Some(&args.model), limits)?;
    let Some(grid) = checked.run(&answer)? else {
        match args.backend {
            Backend::Ilp => note!("{}: no solution", input.name),
            _ => note!("{}: the solver found no solution", answer.name),
        }
        return Ok(Exit::NoSolution);
    };
    let text = Writer::choose(None, None, &doc).solved_puzzle(puzzle, &grid);
    output.write(text.as_bytes())?;
    Ok(Exit::Success)
}
