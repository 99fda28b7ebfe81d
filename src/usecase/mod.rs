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
