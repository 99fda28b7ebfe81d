//! The command line: exit codes, messages, output files.
