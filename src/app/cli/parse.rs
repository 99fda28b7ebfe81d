//! How the command line is read: the clap derive types of [`super::Cli`], with two readings
//! clap does not make by itself. A negative number given to a flag (`--count -1`) reaches the
//! flag's own parser, which says what it expects, instead of clap's tip to write `-- -1`; and a
//! word after INPUT and OUTPUT is told as one argument too many, not as an unknown command.

use super::Cli;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Command, CommandFactory, FromArgMatches};

impl Cli {
    /// The command line of this process, parsed (`--help` and `--version` come back as the
    /// error that prints them).
    pub fn from_args() -> Result<Cli, clap::Error> {
        let mut command = numbers_as_values(Cli::command());
        let parsed = command
            .try_get_matches_from_mut(std::env::args_os())
            .and_then(|mut matches| Cli::from_arg_matches_mut(&mut matches));
        parsed.map_err(|e| extra_positional(&mut command, e).format(&mut command))
    }
}

/// `command` and its subcommands, with every flag that takes a value taking a negative number
/// as its value.
fn numbers_as_values(command: Command) -> Command {
    command
        .mut_args(|arg| {
            if arg.is_positional() || !arg.get_action().takes_values() {
                arg
            } else {
                arg.allow_negative_numbers(true)
            }
        })
        .mut_subcommands(numbers_as_values)
}

/// clap's "the subcommand 'x' cannot be used with [INPUT] [OUTPUT]", for a word `x` that names
/// no command, told as what it is: an argument after the two the solver takes.
fn extra_positional(command: &mut Command, error: clap::Error) -> clap::Error {
    if error.kind() != ErrorKind::ArgumentConflict {
        return error;
    }
    let Some(ContextValue::String(word)) = error.get(ContextKind::InvalidSubcommand) else {
        return error;
    };
    if command.find_subcommand(word).is_some() {
        return error;
    }
    command.error(
        ErrorKind::TooManyValues,
        format!(
            "unexpected argument '{word}': bimaru-sat takes at most two files, INPUT and \
             OUTPUT (to solve several files: bimaru-sat batch FILES)"
        ),
    )
}
