//! The first call's native search ([`crate::reason::search`]): before the solver, or, on large
//! boards with two threads or more, beside the first call's solvers ([`SatEngine::race_native`]),
//! going on past its budget for a fact of its own.

use super::*;

impl SatEngine {
    /// The first call of a pending engine: the native search runs on its own thread while the
    /// lead is built and the helpers search (facts only; the last waits for the search to
    /// end). The lead starts once the search left the question open with no grid at its
    /// budget, as after it; if the search found a grid or settled the question by then, the
    /// solvers are dropped. Past its budget, the search goes on up to [`NATIVE_PAST_NODES`]
    /// nodes, on a thread the calls do not wait for, until the engine drops its
    /// [`NativeHold`] (which stops and joins it): what it finds there counts only as a fact
    /// ([`NativeGate::fact`]).
    /// Returns the state, and the solvers' answer if any.
    pub(super) fn race_native(
        mut prepared: Prepared,
    ) -> (EngineState, Option<Result<CallAnswer, SolveError>>) {
        let gate = Arc::new(NativeGate::new());
        let thread = {
            let (gate, prepared) = (gate.clone(), prepared.clone());
            // Past its budget, the search runs on until the engine drops its hold, which joins
            // this thread.
            std::thread::spawn(move || gate.run(|| prepared.native_search_past(&gate)))
        };
        prepared.native = Some(Arc::new(NativeHold(gate.clone(), Some(thread))));
        let (search, answer) = if gate.settled(NATIVE_HEAD_START) {
            (None, None)
        } else {
            match prepared.clone().encode(Some(&gate)) {
                // Dropped below, not on the caller's time.
                Ok(search) if gate.settled(Duration::ZERO) => (Some(Ok(search)), None),
                Ok(mut search) => {
                    let answer = search.answer(Some(&gate));
                    (Some(Ok(search)), Some(answer))
                }
                Err(unbuilt) => (Some(Err(unbuilt)), None),
            }
        };
        gate.open();
        let (found, time) = gate
            .verdict()
            .expect("the native search reached its budget");
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
        let budget = Budget {
            nodes: Some(self.native_nodes()),
            ..self.config.budget.clone()
        };
        search(&self.puzzle, &self.placements, self.config.limit, &budget)
    }

    /// The native search's node budget: the configuration's, or the caller's if lower.
    fn native_nodes(&self) -> u64 {
        let config = &self.config;
        config
            .budget
            .nodes
            .map_or(config.native, |n| n.min(config.native))
    }

    /// [`Prepared::native_search`], reporting to `gate` at its budget, and going on past it
    /// to [`NATIVE_PAST_NODES`] (unless the caller's node cap is lower) for a fact of its own,
    /// until the engine drops its hold.
    fn native_search_past(&self, gate: &NativeGate) -> Searched {
        let config = &self.config;
        let budget = Budget {
            nodes: Some(self.native_nodes()),
            ..config.budget.clone()
        };
        let past = Past {
            nodes: config
                .budget
                .nodes
                .map_or(NATIVE_PAST_NODES, |n| n.min(NATIVE_PAST_NODES)),
            halt: &gate.halt,
            at_budget: Box::new(|found| gate.at_budget(found)),
        };
        search_past(&self.puzzle, &self.placements, config.limit, &budget, past)
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
