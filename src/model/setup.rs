//! What a solve is set up with, by name: the backend ([`Backend`]); on the SAT side the CNF
//! model ([`Model`]), the cardinality encoding ([`CardKind`]), the solver ([`SolverKind`]) and
//! its [`Tuning`]; on the ILP side the integer program ([`IlpModel`]) and the MIP solver
//! ([`IlpSolver`]).
//!
//! They are declared here, at the bottom, so that a solve's statistics
//! ([`super::outcome::SolvedBy`]) name them typed. Each is re-exported, and given its work, where
//! it is used: `usecase/solve/mod.rs`, `encode/sat/model.rs`, `encode/sat/card/mod.rs`,
//! `solver/mod.rs`, `solver/interface.rs`, `encode/ilp/linear.rs`, `encode/ilp/mod.rs`. The doc
//! comment of each choice's variant is its help in `--help`.

use crate::model::choice::choice;

choice! {
    serde;
    /// The solving backends.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Backend {
        /// CNF solved by the embedded varisat solver.
        #[default]
        Sat,
        /// An integer program solved through good_lp (see `--ilp-model`, `--ilp-solver`).
        Ilp,
    }
}

choice! {
    serde;
    /// The SAT solvers this crate knows. Every kind exists in every build; [`SolverKind::LINKED`]
    /// lists the ones this build links, and [`SolverKind::is_available`] and
    /// `SolverKind::feature` tell a caller what to rebuild with.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum SolverKind {
        /// varisat, pure Rust (the lead of every solve on boards under 400 cells).
        #[default]
        Varisat,
        /// CaDiCaL 3.0.1, C++ compiled by cargo (feature `cadical`, on by default; a C++ compiler is
        /// all it needs).
        Cadical,
    }
}

/// What a solver is set up for beyond its defaults: the search mode and the seed. The SAT
/// engine's portfolio (`crate::encode::sat::engine`) gives each member another tuning, so that
/// they search differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tuning {
    /// The search mode.
    pub mode: Mode,
    /// The seed of the solver's random choices.
    pub seed: u32,
}

/// How a CDCL solver searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// The solver's own schedule (CaDiCaL alternates stable and focused phases).
    #[default]
    Default,
    /// Stable mode only: long restarts and target phases (CaDiCaL's `sat` configuration). On
    /// the exactly minimal 25x25 and 30x30 boards it proves uniqueness 1.3-1.8x faster than the
    /// default schedule (`docs/benchmarks.md`, "SAT solvers").
    Stable,
    /// Focused mode only: frequent restarts, no local search (CaDiCaL's `unsat`
    /// configuration).
    Focused,
}

choice! {
    serde;
    /// The CNF models offered on the command line.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Model {
        /// Cell variables tied to placement variables, local no-touch rule (`encodings/sat-cell.md`).
        #[default]
        Cell,
        /// One variable per legal placement, halo clauses between placements, cells derived
        /// (`encodings/sat-placement.md`).
        Placement,
    }
}

choice! {
    serde;
    /// The cardinality encodings offered on the command line.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum CardKind {
        /// Sequential counter (Sinz 2005), both directions.
        #[default]
        Seq,
        /// Totalizer (Bailleux & Boufkhad 2003), outputs cut at k + 1.
        Totalizer,
        /// Cardinality network (Asín et al. 2011), two-way comparators.
        Cardnet,
    }
}

choice! {
    serde;
    /// The integer programs offered on the command line (`--ilp-model`).
    #[derive(Default)]
    #[non_exhaustive]
    pub enum IlpModel {
        /// One 0-1 variable per legal ship placement (`encodings/ilp-ship.md`).
        #[default]
        Ship,
        /// One 0-1 variable per cell, plus segment indicators (`encodings/ilp-cell.md`).
        Cell,
    }
}

choice! {
    serde;
    /// The MIP solvers good_lp can drive (`--ilp-solver`). Only `microlp` is always built in.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum IlpSolver {
        /// microlp, pure Rust (always available).
        #[default]
        Microlp,
        /// HiGHS (cargo feature `highs`; needs cmake and libclang to build).
        Highs,
        /// COIN-OR CBC linked as a library (cargo feature `coin_cbc`; needs coinor-libcbc-dev).
        Cbc,
    }
}
