//! `--emit-lp FILE`: build the `--ilp-model` integer program of a puzzle and write it in CPLEX LP
//! format for external MIP solvers (cbc, glpsol, HiGHS), instead of solving it here. `decode
//! --backend ilp` reads their answers back.

use super::{Exit, Failure, write_output};
use crate::cli::SolveArgs;
use bimaru_sat::error::Error;
use bimaru_sat::format::Document;
use bimaru_sat::format::Source;
use bimaru_sat::ilp::lp;
use bimaru_sat::job::require_solver;
use bimaru_sat::puzzle::Puzzle;
use bimaru_sat::solve::Backend;
use std::path::Path;

/// The ILP side of the solve command, before solving: refuses a solver this build lacks and,
/// with `--emit-lp`, writes the program of the (single) board and ends the command.
pub fn before_solve(
    args: &SolveArgs,
    input: &Source,
    doc: &Document,
) -> Result<Option<Exit>, Failure> {
    if args.engine.backend == Backend::Ilp {
        require_solver(args.engine.ilp_solver)?;
    }
    let Some(path) = args.emit_lp.as_deref() else {
        return Ok(None);
    };
    match doc.boards.as_slice() {
        [board] => emit(&board.puzzle, args, path).map(Some),
        boards => Err(Error::MultipleBoards {
            source_name: input.name.clone(),
            boards: boards.len(),
        }
        .into()),
    }
}

/// Writes the integer program of `puzzle` to `path` (standard output for `-`).
pub fn emit(puzzle: &Puzzle, args: &SolveArgs, path: &Path) -> Result<Exit, Failure> {
    let model = args.engine.ilp_model.build(puzzle);
    let source = args
        .input
        .as_deref()
        .map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string());
    let comment = vec![
        format!(
            "bimaru-sat {} ILP model of {source}",
            args.engine.ilp_model.name()
        ),
        format!(
            "{}x{} board, fleet {}",
            puzzle.rows(),
            puzzle.cols(),
            puzzle.fleet()
        ),
        "solve: cbc FILE solve solu SOL; read: bimaru-sat decode PUZZLE SOL --backend ilp"
            .to_string(),
    ];
    write_output(Some(path), &lp::write(&model, &comment))?;
    Ok(Exit::Success)
}
