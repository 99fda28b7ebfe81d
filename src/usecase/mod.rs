//! Use cases, the top layer of the library: solve and count, compare, prove, generate, grade,
//! hint and advise, and the jobs (plain request values) that front ends build and run. Also the
//! library's error type and reading input files within limits ([`source`]).

pub mod advise;
pub mod compare;
pub mod error;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod job;
pub mod proof;
pub mod solve;
pub mod source;

pub use source::{FolderListing, LeftOut, Source, folder_files, folder_listing};

// The front door: what the front ends (the binary, the server, Python) take from the layers
// below. They import nothing else below `usecase`, and the crate root re-exports the puzzle
// model (`tests/architecture.rs` checks both).

/// The choices a front end offers by name, and their one parser.
pub use crate::encode::ilp::{IlpCut, IlpCuts, IlpModel, IlpObjective, IlpSolver};
pub use crate::encode::sat::card::CardKind;
pub use crate::encode::sat::model::Model;
pub use crate::encode::sat::redundant::{Implied, Redundant};
pub use crate::format::csc384::{Dialect, DialectChoice, DialectSource};
pub use crate::format::{Format, OutputFormat};
pub use crate::model::choice::{Choice, UnknownChoice, parse_choice};
pub use crate::solver::SolverKind;

/// What a call may spend.
pub use crate::model::deadline::{Budget, Deadline, StopOnDrop, seconds_text};
pub use crate::model::limits::{Limit, LimitExceeded, MAX_CELLS, MAX_MODEL_SIZE};

/// Reading and writing puzzles and answers.
pub use crate::encode::sat::dimacs::{DecodeError, Formula};
pub use crate::format::puzzlink::looks_like_url;
pub use crate::format::render::svg;
pub use crate::format::{Board, Document, Inexpressible, ParseError, ParseErrorKind, Writer};
pub use crate::format::{ist, json};

/// The SAT engine's settings a front end reports.
pub use crate::encode::sat::engine::{Configuration, MAX_THREADS, default_threads, usable_threads};
