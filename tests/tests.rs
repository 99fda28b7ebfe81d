//! Integration tests: one binary, one module per theme (the ripgrep layout).

mod common;

mod author;
mod cli;
mod ist_corpus;
mod properties;
