//! Where the members of a SAT call meet ([`Site`]), and the call's [`Schedule`]: in tests, a
//! hostile one, with delays and yields at those sites, so that whole calls run under many
//! interleavings (the engine's test `hostile_schedules_change_no_fact`); in every other build
//! a site costs nothing and the schedule is empty.

/// A place where the members of a call meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Site {
    /// A member starts its part of a call: the lead's first search, a helper's build or its
    /// search.
    Start,
    /// A helper has found a grid of its own.
    Publish,
    /// A member is about to decide the call with a [`super::decision::Fact`].
    Decide,
    /// The call is over and stops its members.
    Stop,
    /// A helper reads the clauses the lead has learnt.
    Share,
}

/// How a call's members are scheduled: the system's way, or (in tests) a [`Hostile`] one.
#[derive(Clone, Default)]
pub(crate) struct Schedule(#[cfg(test)] Option<std::sync::Arc<Hostile>>);

impl std::fmt::Debug for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Schedule")
    }
}

impl Schedule {
    /// A member passes `site`: under a hostile schedule it may sleep or yield first.
    #[inline]
    pub(crate) fn point(&self, site: Site) {
        #[cfg(test)]
        if let Some(hostile) = &self.0 {
            hostile.point(site);
        }
        let _ = site;
    }

    /// Conflicts the chosen configuration gets alone before a call is a hard question, where a
    /// test forces calls through the race; otherwise the engine's own number.
    pub(crate) fn solo_conflicts(&self) -> Option<u64> {
        #[cfg(test)]
        if let Some(solo) = self.0.as_ref().and_then(|h| h.solo_conflicts) {
            return Some(solo);
        }
        None
    }

    /// Whether the planted fault is on: a helper decides the call with the first grid it finds,
    /// though others may be left (a test must catch it).
    #[cfg(test)]
    pub(crate) fn planted(&self) -> bool {
        self.0.as_ref().is_some_and(|h| h.plant_helper_grid)
    }
}

/// A test's schedule: at each [`Site`], a member sleeps up to `max_sleep` (one time in four),
/// yields (one in four) or goes on, as a seeded sequence decides.
#[cfg(test)]
pub(crate) struct Hostile {
    seed: u64,
    passed: std::sync::atomic::AtomicU64,
    /// Delays and yields at the sites; off, the test runs unperturbed.
    perturb: bool,
    max_sleep: std::time::Duration,
    /// Conflicts of the solo phase (see [`Schedule::solo_conflicts`]).
    pub(crate) solo_conflicts: Option<u64>,
    /// See [`Schedule::planted`].
    pub(crate) plant_helper_grid: bool,
}

#[cfg(test)]
impl Hostile {
    /// A schedule of `seed`, perturbed or not; `forced`: every call goes through the race at
    /// once (no solo phase).
    pub(crate) fn schedule(
        seed: u64,
        perturb: bool,
        forced: bool,
        plant_helper_grid: bool,
    ) -> Schedule {
        Schedule(Some(std::sync::Arc::new(Hostile {
            seed,
            passed: std::sync::atomic::AtomicU64::new(0),
            perturb,
            max_sleep: std::time::Duration::from_millis(3),
            solo_conflicts: forced.then_some(0),
            plant_helper_grid,
        })))
    }

    fn point(&self, site: Site) {
        if !self.perturb {
            return;
        }
        let n = self
            .passed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // splitmix64 of the seed, the count of sites passed, and the site.
        let mut z = self
            .seed
            .wrapping_add((n + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_add(site as u64);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        match z % 4 {
            0 => {
                let micros = u64::try_from(self.max_sleep.as_micros()).unwrap_or(u64::MAX);
                std::thread::sleep(std::time::Duration::from_micros((z >> 8) % micros.max(1)));
            }
            1 => std::thread::yield_now(),
            _ => {}
        }
    }
}
