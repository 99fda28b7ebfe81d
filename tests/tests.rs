//! Integration tests: one binary, one module per theme (the ripgrep layout).

mod common;

mod cli;
mod compare;
mod ilp;
mod ist_corpus;
mod properties;
