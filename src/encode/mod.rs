//! Encodings: the puzzle compiled into CNF for a SAT solver ([`sat`]) or into an integer
//! program ([`ilp`]), each with the engine that runs it and decodes its answers into grids.
//! Built on the model, the formats, the reasoning engine and the solvers below.

pub mod ilp;
pub mod sat;
