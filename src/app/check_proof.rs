//! `bimaru-sat check-proof PUZZLE FILE`: read the puzzle, the formula (`FILE.cnf` unless
//! `--cnf`) and the proof into a [`CheckProofJob`], which checks them against the puzzle file
//! (in a file of several boards (Rubin), the board is the one the formula's header names),
//! re-derives and compares the formula and runs its DRAT checker; say what is certified (exit
//! 0) or which step rejected it (exit 1).

use super::output::stdout;
use super::solve::cnf_path;
use super::{Exit, Failure, before, deadline, read_input, timed_out};
use crate::app::cli::CheckProofArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Source;
use bimaru_sat::usecase::job::check_proof::CheckProofJob;

/// Runs the check-proof command.
pub fn run(args: &CheckProofArgs, limits: &Limits) -> Result<Exit, Failure> {
    // The limit counts from the start: reading a large proof is part of the check.
    let deadline = deadline(args.time_limit);
    let input = read_input(Some(&args.puzzle), limits)?;
    let doc = input.document(args.format, limits)?;
    let cnf = args.cnf.clone().unwrap_or_else(|| cnf_path(&args.proof));
    let out_of_time = || {
        let name = args.proof.display().to_string();
        let seconds = args.time_limit.unwrap_or_default();
        Ok(timed_out(&name, seconds, "while checking the proof"))
    };
    // Reading a proof of hundreds of megabytes takes a while too: within the limit.
    let (proof_path, cnf_path, read_limits) = (args.proof.clone(), cnf.clone(), *limits);
    let Some(read) = before(deadline.clone(), move || {
        Ok::<_, bimaru_sat::usecase::error::Error>((
            Source::bytes(&proof_path, &read_limits)?,
            Source::bytes(&cnf_path, &read_limits)?,
        ))
    }) else {
        return out_of_time();
    };
    let (proof, formula) = read?;
    let job = CheckProofJob {
        formula_name: cnf.display().to_string(),
        formula,
        proof,
    };
    let name = input.name.clone();
    let Some(checked) = before(deadline, move || job.run(&doc, &name)) else {
        return out_of_time();
    };
    match checked {
        Ok(certified) => {
            let stats = certified.stats;
            stdout(
                format!(
                    "certified: {} ({} formula {}; {} DRAT {}: {} lemmas, {} deletions)\n",
                    certified.claim,
                    certified.config,
                    cnf.display(),
                    if stats.binary { "binary" } else { "text" },
                    args.proof.display(),
                    stats.lemmas,
                    stats.deletions,
                )
                .as_bytes(),
            )?;
            Ok(Exit::Success)
        }
        Err(rejection) => {
            note!("{}: rejected at {rejection}", args.proof.display());
            Ok(Exit::Rejected)
        }
    }
}
