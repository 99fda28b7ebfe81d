//! The `completions` and `man` commands: a shell completion script (clap_complete) and the
//! roff manual pages (clap_mangen), both made from the same clap definitions as `--help`.

use super::{Exit, Failure, output};
use crate::app::cli::{Cli, CompletionsArgs, ManArgs};
use clap::CommandFactory;

/// Prints the completion script for the shell asked for.
pub fn completions(args: &CompletionsArgs) -> Result<Exit, Failure> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "bimaru-sat", &mut script);
    output::stdout(&script)?;
    Ok(Exit::Success)
}

/// Prints the manual page of bimaru-sat, or of one of its commands.
pub fn man(args: &ManArgs) -> Result<Exit, Failure> {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let page = match &args.command {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone().version(env!("CARGO_PKG_VERSION")),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                return Err(Failure::UnknownCommand {
                    name: name.clone(),
                    known: names.join(", "),
                });
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .map_err(|source| bimaru_sat::usecase::error::Error::Io {
            path: "<man page>".into(),
            source,
        })?;
    output::stdout(&roff)?;
    Ok(Exit::Success)
}
