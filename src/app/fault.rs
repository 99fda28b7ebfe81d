//! The `plant-fault` test hook (a cargo feature that `cargo install` never turns on): it makes
//! one `--cross-check` configuration return wrong grids, so that the tests see the check fail.

use bimaru_sat::usecase::compare::Config;
use bimaru_sat::usecase::solve::{Engine, SolveError, Stats};
use bimaru_sat::{Grid, Pos};

/// The environment variable that plants a faulty engine in `--cross-check`: a test hook (see
/// `tests/proofs/mod.rs`), compiled only with the `plant-fault` cargo feature, which
/// `cargo install` never turns on. Its value names a configuration (as the cross-check prints
/// it), whose grids then come back mirrored left to right.
const PLANT: &str = "BIMARU_SAT_PLANT_FAULT";

/// The cross-check configurations, with the one [`PLANT`] names made faulty.
pub(super) fn planted(configs: Vec<Config>) -> Vec<Config> {
    let Some(victim) = std::env::var(PLANT).ok() else {
        return configs;
    };
    configs
        .into_iter()
        .map(|config| {
            if config.name != victim {
                return config;
            }
            let backend = config.backend;
            let name = config.name.clone();
            Config::custom(name, backend, move |puzzle| {
                Box::new(Mirrored(config.engine(puzzle))) as Box<dyn Engine>
            })
        })
        .collect()
}

/// An engine whose grids come back mirrored left to right ([`PLANT`]).
struct Mirrored(Box<dyn Engine>);

impl Engine for Mirrored {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        Ok(self.0.next_solution()?.map(|g| {
            let mut m = Grid::water(g.rows(), g.cols());
            for r in 0..g.rows() {
                for c in 0..g.cols() {
                    m.set(Pos::new(r, g.cols() - 1 - c), g.get(Pos::new(r, c)));
                }
            }
            m
        }))
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
}
