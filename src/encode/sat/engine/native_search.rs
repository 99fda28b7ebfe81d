//! The first call's native search ([`crate::reason::search`]): before the solver, or, on large
//! boards with two threads or more, beside the first call's solvers ([`SatEngine::race_native`]).

use super::*;

impl SatEngine {
    /// The first call of a pending engine: the native search runs on its own thread while the
    /// lead is built and the helpers search (facts only). The lead starts once the search left
    /// the question open with no grid, as after it; if the search finds a grid or settles the
    /// question, the solvers are dropped. Returns the state, and the solvers' answer if any.
    pub(super) fn race_native(
        prepared: Prepared,
    ) -> (EngineState, Option<Result<CallAnswer, SolveError>>) {
        let gate = NativeGate::default();
        let (search, answer) = std::thread::scope(|s| {
            s.spawn(|| gate.run(|| prepared.native_search()));
            if gate.settled(NATIVE_HEAD_START) {
                return (None, None);
            }
            match prepared.clone().encode(Some(&gate)) {
                // Dropped below, not on the caller's time.
                Ok(search) if gate.settled(Duration::ZERO) => (Some(Ok(search)), None),
                Ok(mut search) => {
                    let answer = search.answer(Some(&gate));
                    (Some(Ok(search)), Some(answer))
                }
                Err(unbuilt) => (Some(Err(unbuilt)), None),
            }
        });
        let (found, time) = gate.into_ran().expect("the native search ran");
        match search {
            Some(Ok(search)) if leaves_open(&found) => {
                (EngineState::Search(Box::new(search)), answer)
            }
            Some(Err(unbuilt)) if leaves_open(&found) => (unbuilt.into(), None),
            search => {
                if let Some(Ok(search)) = search {
                    // Not on the caller's time.
                    std::thread::spawn(move || drop(search));
                }
                let state = prepared
                    .searched(found, time)
                    .unwrap_or(EngineState::TimedOut);
                (state, None)
            }
        }
    }
}

impl Prepared {
    /// Whether the native search runs beside the first call's helpers, not before the call:
    /// where the lead is the first of the [`stages`] (the helpers start with it).
    pub(super) fn races_native(&self) -> bool {
        let shape = self.puzzle.shape();
        self.config.race
            && self.config.native > 0
            && shape.rows * shape.cols >= LARGE_BOARD_CELLS
            && portfolio(self.config.threads.max(1)).len() >= 2
    }

    /// The native search within its node budget (and the caller's, if lower).
    pub(super) fn native_search(&self) -> Searched {
        let config = &self.config;
        let budget = Budget {
            nodes: Some(
                config
                    .budget
                    .nodes
                    .map_or(config.native, |n| n.min(config.native)),
            ),
            ..config.budget.clone()
        };
        search(&self.puzzle, &self.placements, config.limit, &budget)
    }

    /// The state after the native search found `found` in `time`: its grids first, then the
    /// solver with them blocked, unless the search was exhausted.
    pub(super) fn searched(
        self,
        found: Searched,
        time: Duration,
    ) -> Result<EngineState, TimeLimit> {
        let rest = match found.end {
            End::Exhausted => None,
            // A stop flag with nothing found goes on to the solver, which sees the same flag at
            // once and reports the solve as interrupted, not timed out.
            End::TimeLimit if found.grids.is_empty() => return Err(TimeLimit),
            _ => {
                let found = found.grids.iter().map(Grid::ship_cells).collect();
                Some(Box::new(Prepared { found, ..self }))
            }
        };
        Ok(EngineState::Searched {
            grids: found.grids.into(),
            rest,
            nodes: found.nodes,
            time,
        })
    }
}
