//! Integration tests: one binary, one module per theme (the ripgrep layout).

mod common;

mod advise;
mod architecture;
mod author;
mod cli;
mod compare;
mod corpus_formats;
mod dimacs;
mod encodings;
mod format_props;
mod formats;
mod formulas;
mod fuzz;
mod hard;
mod hostile;
mod ilp;
mod ist_corpus;
mod messages;
mod output;
mod proofs;
mod properties;
mod puzzlink;
mod readme;
mod snapshots;
#[cfg(feature = "cadical")]
mod solvers;
mod time_limits;
mod usage;
mod web;
