//! bimaru-sat solves Battleship-solitaire (Bimaru) puzzles by compiling them to CNF and handing
//! them to an embedded SAT solver (varisat). Every grid it returns has passed an independent
//! verifier.
//!
//! Data flows one way: text → [`mod@format`] → [`Puzzle`] → encoder ([`encode`]) → solver → model →
//! [`Grid`] → [`mod@model::verify`] → [`mod@format`] → text. See `docs/ARCHITECTURE.md` for the module map.
//!
//! The library knows no command line: the `bimaru-sat` binary (the default `cli` feature)
//! resolves its flags into one of the plain [`usecase::job`] values, runs it here and writes what comes
//! back.
//!
//! ```
//! use bimaru_sat::{format::ist, solve, Error, Outcome, SolveOptions};
//!
//! let text = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
//!             HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";
//! let puzzle = ist::parse(text).expect("valid instance");
//! let report = solve(&puzzle, &SolveOptions::unique())?;
//! let Outcome::Unique(grid) = &report.outcome else { panic!("expected one solution") };
//! print!("{}", ist::write_solution(&puzzle, grid));
//! assert!(ist::write_solution(&puzzle, grid).starts_with("T.....t...\n"));
//! # Ok::<_, Error>(())
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod encode;
pub mod format;
pub mod model;
pub mod reason;
pub mod solver;
pub mod usecase;

pub use model::limits::Limits;
pub use model::puzzle::{Clue, Dir, Fleet, Grid, Orientation, Piece, Pos, Puzzle, Shape, Ship};
pub use model::verify::{Violation, verify};
pub use usecase::error::Error;
pub use usecase::solve::{Backend, Goal, Outcome, Report, SolveOptions, Stats, solve};
