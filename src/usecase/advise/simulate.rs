//! Self-play: a hidden fleet drawn uniformly over all legal configurations, a strategy that
//! shoots until every ship is sunk, and statistics over many games. Sunk ships are announced
//! with their squares (they turn from hit to sunk). Game `i` draws its fleet from its own
//! ChaCha8 stream (master seed, stream `i`); the strategies that shoot at random draw from the
//! same stream after the fleet, and the others are deterministic, so a run is reproducible by
//! seed whatever the thread count. With a salvo ([`SimOptions::salvo`]) every turn fires
//! several shots, picked as [`super::salvo`] says, and the games are counted in turns.

use super::board::{Bits, CELLS, Position, SIZE, ShipKind, Square, SquareMark, placements};
use super::hunt;
use super::posterior::{self, Options, PosteriorMethod, TouchRule};
use super::rowan;
use super::salvo::{self, SalvoError};
use crate::model::choice::choice;
use crate::model::deadline::{Deadline, TimeLimit};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

choice! {
    /// How the shooter picks squares.
    #[non_exhaustive]
    pub enum Strategy {
        /// A careful child: random shots until a hit, then random shots beside the hits until
        /// the ship sinks (hunt and target; the weakest level).
        Beginner,
        /// Hunt and target with parity: random shots on the checkerboard until a hit, then along
        /// the line of the hits (or beside a lone hit) until the ship sinks.
        Hunter,
        /// The Rowan 2013 contest rule; of tied squares, the first the contest lists.
        Rowan,
        /// Placement density over all ships afloat, placements through hits weighted up
        /// (probability-density play).
        Density,
        /// The square most likely to hold a ship: exact posterior when cheap, otherwise density.
        Posterior,
        /// Density play tuned by self-play: a weaker weight per hit, the longer ships weighted
        /// down, misses lined up on a lattice while hunting (the strongest measured).
        Tuned,
    }
}

/// Settings of a self-play run.
#[derive(Clone, Copy, Debug)]
pub struct SimOptions {
    /// The shooter.
    pub strategy: Strategy,
    /// Number of games.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Touching rule for the hidden fleet (and the posterior).
    pub rule: TouchRule,
    /// Largest estimated exact work the posterior strategy spends on one shot.
    pub exact_budget: f64,
    /// Shots a turn in the Salvo variant (1 to [`salvo::MAX_SALVO`]), counted in turns; `None`:
    /// one shot a turn, counted in shots.
    pub salvo: Option<usize>,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            strategy: Strategy::Rowan,
            games: 1000,
            seed: 1,
            rule: TouchRule::Touch,
            exact_budget: 2e5,
            salvo: None,
        }
    }
}

/// A hidden fleet: the squares of each ship.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenFleet {
    /// Ships and their squares.
    pub ships: Vec<(ShipKind, Bits)>,
}

/// Draws a fleet uniformly over all legal configurations: each ship uniformly over all its
/// placements, the whole fleet drawn again whenever two ships overlap (or touch, under
/// [`TouchRule::NoTouch`]).
pub fn draw_fleet(rule: TouchRule, rng: &mut ChaCha8Rng) -> HiddenFleet {
    'again: loop {
        let mut ships = Vec::with_capacity(5);
        let mut forbid: Bits = 0;
        for kind in ShipKind::FLEET {
            let list = placements(kind.len());
            let p = list[rng.random_range(0..list.len())];
            if p.cells & forbid != 0 {
                continue 'again;
            }
            forbid |= match rule {
                TouchRule::Touch => p.cells,
                _ => super::board::dilate(p.cells),
            };
            ships.push((kind, p.cells));
        }
        return HiddenFleet { ships };
    }
}

/// Plays one game against `fleet` and returns the number of shots; the strategies that shoot
/// at random draw from `rng`.
pub fn play(opts: &SimOptions, fleet: &HiddenFleet, rng: &mut ChaCha8Rng) -> u32 {
    let mut pos = Position::opening();
    let mut afloat: Vec<(ShipKind, Bits)> = fleet.ships.clone();
    let mut shots = 0u32;
    while !afloat.is_empty() {
        let sq = choose(opts, &pos, rng);
        shots += 1;
        let bit = sq.bit();
        match afloat.iter().position(|&(_, cells)| cells & bit != 0) {
            None => pos.board.set(sq, SquareMark::Miss),
            Some(k) => {
                pos.board.set(sq, SquareMark::Hit);
                let (kind, cells) = afloat[k];
                if cells & !pos.board.bits(SquareMark::Hit) == 0 {
                    for s in super::board::squares(cells) {
                        pos.board.set(s, SquareMark::Sunk);
                    }
                    afloat.swap_remove(k);
                    pos.ships.retain(|&s| s != kind);
                }
            }
        }
        if shots as usize > CELLS {
            break; // cannot happen with a sound strategy; a guard against looping
        }
    }
    shots
}

/// Plays one Salvo game against `fleet`, `k` shots a turn, and returns the number of turns;
/// the strategies that shoot at random draw from `rng`, square by square.
pub(crate) fn play_salvo(
    opts: &SimOptions,
    k: usize,
    fleet: &HiddenFleet,
    rng: &mut ChaCha8Rng,
) -> u32 {
    salvo::play_salvo(&fleet.ships, k, |pos| choose(opts, pos, rng))
}

/// The square the strategy shoots at; [`Strategy::Beginner`] and [`Strategy::Hunter`] draw
/// from `rng`, the others do not touch it.
pub(crate) fn choose(opts: &SimOptions, pos: &Position, rng: &mut ChaCha8Rng) -> Square {
    let empty = pos.board.bits(SquareMark::Empty);
    let scores: [f64; CELLS] = match opts.strategy {
        Strategy::Beginner => return hunt::any_of(hunt::beginner(&pos.board), rng),
        Strategy::Hunter => return hunt::any_of(hunt::hunter(&pos.board), rng),
        Strategy::Rowan => return pick_int(&rowan::scores(pos), empty),
        Strategy::Density => density(pos),
        Strategy::Tuned => tuned(pos),
        Strategy::Posterior => {
            let o = Options {
                rule: opts.rule,
                method: PosteriorMethod::Exact,
                ..Options::default()
            };
            if posterior::estimated_work(pos, opts.rule) <= opts.exact_budget {
                match posterior::posterior(pos, &o) {
                    Ok(p) => p.probabilities,
                    Err(_) => density(pos),
                }
            } else {
                density(pos)
            }
        }
    };
    pick(&scores, empty)
}

/// The first untouched square, in row-then-column order (the order the contest lists ties
/// in), among those with the highest score. Taking the first tie rather than a random one
/// is also the stronger choice: 44.67 against 44.91 mean shots for the Rowan rule.
fn pick(scores: &[f64; CELLS], empty: Bits) -> Square {
    let mut best = f64::NEG_INFINITY;
    let mut ties: Vec<usize> = Vec::with_capacity(8);
    for i in super::board::squares(empty).map(Square::index) {
        let v = scores[i];
        if v > best + 1e-9 {
            best = v;
            ties.clear();
            ties.push(i);
        } else if (v - best).abs() <= 1e-9 {
            ties.push(i);
        }
    }
    Square::from_index(ties[0])
}

/// [`pick`] for whole-number scores.
fn pick_int(scores: &[u32; CELLS], empty: Bits) -> Square {
    let mut best = 0u32;
    let mut ties = [0u8; CELLS];
    let mut n = 0usize;
    let mut rest = empty;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let v = scores[i];
        if v > best || n == 0 {
            best = v;
            n = 0;
        }
        if v == best {
            ties[n] = i as u8;
            n += 1;
        }
    }
    Square::from_index(usize::from(ties[0]))
}

/// Weight of a placement per hit it explains.
const HIT_WEIGHT: f64 = 50.0;

/// Probability-density scores: every placement of every ship afloat that avoids misses and
/// sunk squares and has an untouched square adds its weight (`HIT_WEIGHT` to the power of
/// the hits it covers) to its untouched squares.
pub(crate) fn density(pos: &Position) -> [f64; CELLS] {
    placement_density(pos, |_, hits| HIT_WEIGHT.powi(hits))
}

/// Every placement of every ship afloat that avoids misses and sunk squares and has an
/// untouched square adds `weight(ship length, hits the placement covers)` to its untouched
/// squares.
fn placement_density(pos: &Position, weight: impl Fn(usize, i32) -> f64) -> [f64; CELLS] {
    let b = &pos.board;
    let empty = b.bits(SquareMark::Empty);
    let hits = b.bits(SquareMark::Hit);
    let blocked = b.bits(SquareMark::Miss) | b.bits(SquareMark::Sunk);
    let mut s = [0f64; CELLS];
    for ship in &pos.ships {
        for p in placements(ship.len()) {
            if p.cells & blocked != 0 || p.cells & empty == 0 {
                continue;
            }
            let w = weight(ship.len(), (p.cells & hits).count_ones() as i32);
            let mut open = p.cells & empty;
            while open != 0 {
                s[open.trailing_zeros() as usize] += w;
                open &= open - 1;
            }
        }
    }
    s
}

/// [`Strategy::Tuned`]'s weight of a placement per hit it explains.
const TUNED_HIT_WEIGHT: f64 = 6.0;

/// [`Strategy::Tuned`]'s weight of a ship per square beyond two: a ship of length `n` has its
/// placements weighted `TUNED_SHIP_WEIGHT^(n - 2)`.
const TUNED_SHIP_WEIGHT: f64 = 0.7;

/// [`Strategy::Tuned`] while hunting (no ship hit): a square's score grows by this share for
/// each of its lattice neighbours already shot empty (see [`lattice_misses`]).
const TUNED_LATTICE: f64 = 0.03;

/// How far a lattice neighbour may lie, in rows and in columns.
const LATTICE_REACH: i32 = 3;

/// [`Strategy::Tuned`] while a ship is hit: a square's score shrinks by this share for each of
/// its four neighbours (up, down, left, right) already shot empty.
const TUNED_TARGET_WALL: f64 = 0.03;

/// [`Strategy::Tuned`]'s scores: density play with a weaker weight per hit
/// ([`TUNED_HIT_WEIGHT`]) and the longer ships weighted down ([`TUNED_SHIP_WEIGHT`]), then
/// shaped by the misses around each square. While hunting, a square whose lattice neighbours
/// have been shot empty scores higher ([`TUNED_LATTICE`]), so that the misses line up on the
/// lattice the shortest ship afloat cannot slip through; while a ship is hit, a square beside
/// a miss or a sunk ship scores lower ([`TUNED_TARGET_WALL`]). The constants were chosen by
/// `simulate` on 100,000 games each of seeds 7 and 3 (docs/advisor.md).
pub(crate) fn tuned(pos: &Position) -> [f64; CELLS] {
    let b = &pos.board;
    let empty = b.bits(SquareMark::Empty);
    let hits = b.bits(SquareMark::Hit);
    let blocked = b.bits(SquareMark::Miss) | b.bits(SquareMark::Sunk);
    let mut s = placement_density(pos, tuned_weight);
    let shortest = pos.ships.iter().map(|k| k.len()).min().unwrap_or(2);
    for sq in super::board::squares(empty) {
        let i = sq.index();
        s[i] *= if hits == 0 {
            1.0 + TUNED_LATTICE * f64::from(lattice_misses(blocked, i, shortest))
        } else {
            let walls = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .filter(|&(dr, dc)| square_at(i, dr, dc).is_some_and(|j| blocked >> j & 1 == 1))
                .count();
            1.0 - TUNED_TARGET_WALL * walls as f64
        };
    }
    s
}

/// The squares shot empty (in `blocked`) among the lattice neighbours of square `i`: the
/// squares at most [`LATTICE_REACH`] rows and columns away whose row plus column is that of
/// `i` modulo `shortest`, the length of the shortest ship afloat. Every ship afloat covers a
/// square of each such lattice, so misses along one cut every ship's placements.
fn lattice_misses(blocked: Bits, i: usize, shortest: usize) -> u32 {
    static NEIGHBOURS: OnceLock<Vec<[Bits; CELLS]>> = OnceLock::new();
    let table = NEIGHBOURS.get_or_init(|| {
        (0..=ShipKind::Carrier.len())
            .map(|m| {
                let mut row = [0; CELLS];
                for (i, mask) in row.iter_mut().enumerate() {
                    for dr in -LATTICE_REACH..=LATTICE_REACH {
                        for dc in -LATTICE_REACH..=LATTICE_REACH {
                            let on_lattice = m > 0 && (dr + dc).rem_euclid(m as i32) == 0;
                            if (dr, dc) != (0, 0)
                                && on_lattice
                                && let Some(j) = square_at(i, dr, dc)
                            {
                                *mask |= 1 << j;
                            }
                        }
                    }
                }
                row
            })
            .collect()
    });
    (table[shortest.min(ShipKind::Carrier.len())][i] & blocked).count_ones()
}

/// [`Strategy::Tuned`]'s weight of a placement of a ship of length `len` through `hits` hits.
fn tuned_weight(len: usize, hits: i32) -> f64 {
    TUNED_SHIP_WEIGHT.powi(len as i32 - 2) * TUNED_HIT_WEIGHT.powi(hits)
}

/// The square `dr` rows and `dc` columns from square `i`, if it is on the board.
fn square_at(i: usize, dr: i32, dc: i32) -> Option<usize> {
    let r = (i / SIZE) as i32 + dr;
    let c = (i % SIZE) as i32 + dc;
    let on_board = (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c);
    on_board.then(|| r as usize * SIZE + c as usize)
}

/// Statistics of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Strategy name.
    pub strategy: &'static str,
    /// Touching rule.
    pub rule: &'static str,
    /// Games played.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Shots a turn in the Salvo variant; then the statistics below count turns, not shots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salvo: Option<usize>,
    /// Mean shots (or turns) per game.
    pub mean: f64,
    /// Median shots (or turns).
    pub median: f64,
    /// Standard deviation of the shots or turns (n - 1 in the denominator).
    pub std_dev: f64,
    /// Fewest shots (or turns).
    pub min: u32,
    /// Most shots (or turns).
    pub max: u32,
}

impl Summary {
    /// Half-width of the 95% confidence interval of the mean.
    pub(crate) fn ci95(&self) -> f64 {
        1.96 * self.std_error()
    }

    /// Standard error of the mean: the standard deviation over the square root of the games.
    pub(crate) fn std_error(&self) -> f64 {
        self.std_dev / (self.games as f64).sqrt()
    }

    /// The statistics of the games counted in `hist` (`hist[s]`: games that took `s` shots).
    fn of(opts: &SimOptions, hist: &[u64]) -> Summary {
        let games: u64 = hist.iter().sum();
        let n = games.max(1) as f64;
        let total: u128 = hist
            .iter()
            .enumerate()
            .map(|(s, &k)| s as u128 * u128::from(k))
            .sum();
        let mean = total as f64 / n;
        let var = hist
            .iter()
            .enumerate()
            .map(|(s, &k)| k as f64 * (s as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        // The shots of the game ranked `rank` (0-based) in ascending order.
        let ranked = |rank: u64| {
            let mut seen = 0;
            for (s, &k) in hist.iter().enumerate() {
                seen += k;
                if seen > rank {
                    return s as f64;
                }
            }
            0.0
        };
        let median = match games {
            0 => 0.0,
            g if g % 2 == 1 => ranked(g / 2),
            g => (ranked(g / 2 - 1) + ranked(g / 2)) / 2.0,
        };
        let fewest = hist.iter().position(|&k| k > 0).unwrap_or(0);
        let most = hist.iter().rposition(|&k| k > 0).unwrap_or(0);
        Summary {
            strategy: opts.strategy.into(),
            rule: opts.rule.into(),
            games,
            seed: opts.seed,
            salvo: opts.salvo,
            mean,
            median,
            std_dev: var.sqrt(),
            min: fewest as u32,
            max: most as u32,
        }
    }
}

/// The generator of game `index` under `seed`.
pub fn game_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// The most games one run may ask for: a billion games take days, and a larger count is
/// surely a typing error. Memory does not grow with the count (the shots are counted in a
/// histogram).
pub(crate) const MAX_GAMES: u64 = 1_000_000_000;

/// Why a self-play run did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimulateError {
    /// More games than `MAX_GAMES` were asked for.
    #[error("{games} games asked for; at most {MAX_GAMES} games are played in one run")]
    TooManyGames {
        /// The count asked for.
        games: u64,
    },
    /// A salvo of no shots, or of more than [`salvo::MAX_SALVO`].
    #[error(transparent)]
    Salvo(#[from] SalvoError),
    /// The deadline passed after `played` games.
    #[error("time limit reached after {played} of {games} games")]
    TimeLimit {
        /// Games finished before the deadline.
        played: u64,
        /// Games asked for.
        games: u64,
    },
}

/// Refuses options no run plays: more than [`MAX_GAMES`] games, or a salvo of no shots or
/// too many (what [`crate::usecase::job::advise::SimulateJob::check`] checks).
pub(crate) fn check(opts: &SimOptions) -> Result<(), SimulateError> {
    if opts.games > MAX_GAMES {
        return Err(SimulateError::TooManyGames { games: opts.games });
    }
    if let Some(k) = opts.salvo {
        salvo::check_size(k)?;
    }
    Ok(())
}

/// Plays `opts.games` games on rayon's threads until `deadline`; `tick` is called after each
/// game (for a progress bar). Game `i` is the same whatever the thread count, so the summary
/// depends only on the options.
pub fn simulate(
    opts: &SimOptions,
    deadline: Deadline,
    tick: &(impl Fn() + Sync),
) -> Result<Summary, SimulateError> {
    check(opts)?;
    play_games(opts, deadline, tick)
}

/// Plays the games of options [`check`] has passed.
pub(crate) fn play_games(
    opts: &SimOptions,
    deadline: Deadline,
    tick: &(impl Fn() + Sync),
) -> Result<Summary, SimulateError> {
    let played = AtomicU64::new(0);
    let hist = (0..opts.games)
        .into_par_iter()
        .try_fold(Vec::new, |mut hist: Vec<u64>, i| {
            deadline.check()?;
            let mut rng = game_rng(opts.seed, i);
            let fleet = draw_fleet(opts.rule, &mut rng);
            let s = match opts.salvo {
                None => play(opts, &fleet, &mut rng),
                Some(k) => play_salvo(opts, k, &fleet, &mut rng),
            } as usize;
            if hist.len() <= s {
                hist.resize(s + 1, 0);
            }
            hist[s] += 1;
            played.fetch_add(1, Ordering::Relaxed);
            tick();
            Ok(hist)
        })
        .try_reduce(Vec::new, |mut a, b| {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
            Ok(a)
        })
        .map_err(|TimeLimit| SimulateError::TimeLimit {
            played: played.load(Ordering::Relaxed),
            games: opts.games,
        })?;
    Ok(Summary::of(opts, &hist))
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn fleets_are_legal() {
        for rule in [TouchRule::Touch, TouchRule::NoTouch] {
            for i in 0..200 {
                let f = draw_fleet(rule, &mut game_rng(7, i));
                assert_eq!(f.ships.len(), 5);
                for (a, &(_, x)) in f.ships.iter().enumerate() {
                    for &(_, y) in &f.ships[a + 1..] {
                        let near = match rule {
                            TouchRule::Touch => x,
                            _ => super::super::board::dilate(x),
                        };
                        assert_eq!(near & y, 0);
                    }
                }
            }
        }
    }

    #[test]
    fn games_end_with_every_ship_sunk_and_are_reproducible() {
        for &strategy in Strategy::VARIANTS {
            let opts = SimOptions {
                strategy,
                games: 4,
                ..SimOptions::default()
            };
            let a = simulate(&opts, Deadline::NONE, &|| ()).unwrap();
            let b = simulate(&opts, Deadline::NONE, &|| ()).unwrap();
            assert_eq!(a, b);
            assert!(a.min >= 17 && a.max <= 100, "{a:?}");
        }
    }

    /// The mean shots of `strategy` over the first `games` games of seed 5.
    fn mean(strategy: Strategy, games: u64) -> f64 {
        let opts = SimOptions {
            strategy,
            games,
            seed: 5,
            ..SimOptions::default()
        };
        simulate(&opts, Deadline::NONE, &|| ()).unwrap().mean
    }

    #[test]
    fn the_levels_are_far_apart_on_the_same_fleets() {
        let run = |strategy| mean(strategy, 2000);
        let (beginner, hunter, density) = (
            run(Strategy::Beginner),
            run(Strategy::Hunter),
            run(Strategy::Density),
        );
        // 100,000 games of seed 1 give 62.2, 51.4 and 44.3 (docs/advisor.md); the standard
        // error of 2,000 games is at most 0.35.
        assert!((55.0..=75.0).contains(&beginner), "beginner {beginner}");
        assert!(
            beginner > hunter + 3.0,
            "beginner {beginner}, hunter {hunter}"
        );
        assert!(hunter > density + 3.0, "hunter {hunter}, density {density}");
    }

    #[test]
    fn lattice_neighbours_share_the_square_class_modulo_the_shortest_ship() {
        let sq = |name: &str| Square::parse(name).unwrap().index();
        let bits = |names: &[&str]| names.iter().fold(0, |b: Bits, n| b | 1 << sq(n));
        // E5 is row 5, column E. Modulo 2, C3, G7, C7 and G3 (two steps on the diagonals),
        // E3 (two up) and F6 (one step on a diagonal) share its class; D5 and F5 do not.
        let blocked = bits(&["C3", "G7", "C7", "G3", "E3", "F6", "D5", "F5"]);
        assert_eq!(lattice_misses(blocked, sq("E5"), 2), 6);
        // Modulo 3, F4 (one up, one right), G6 (one down, two right) and E8 (three down) do;
        // D4 (one up, one left) does not.
        let blocked = bits(&["F4", "G6", "E8", "D4"]);
        assert_eq!(lattice_misses(blocked, sq("E5"), 3), 3);
        // Off the reach of three rows and columns, or off the board: nothing.
        assert_eq!(lattice_misses(bits(&["E9", "A1"]), sq("E5"), 2), 0);
        assert_eq!(lattice_misses(super::super::board::ALL, sq("A1"), 2), 7);
    }

    #[test]
    fn tuned_prefers_squares_that_line_up_misses_and_avoids_walls_while_targeting() {
        let mut hunting = Position::opening();
        let miss = |p: &mut Position, name: &str| {
            p.board.set(Square::parse(name).unwrap(), SquareMark::Miss)
        };
        miss(&mut hunting, "E5");
        let plain = placement_density(&hunting, tuned_weight);
        let shaped = tuned(&hunting);
        let at = |name: &str| Square::parse(name).unwrap().index();
        // F6 is diagonal to the miss (on its lattice), F5 beside it (off it): only F6 gains.
        assert!((shaped[at("F6")] / plain[at("F6")] - 1.0 - TUNED_LATTICE).abs() < 1e-12);
        assert!((shaped[at("F5")] / plain[at("F5")] - 1.0).abs() < 1e-12);
        // With a ship hit, a square beside a miss loses TUNED_TARGET_WALL.
        let mut target = hunting.clone();
        target
            .board
            .set(Square::parse("E6").unwrap(), SquareMark::Hit);
        let plain = placement_density(&target, tuned_weight);
        let shaped = tuned(&target);
        assert!((shaped[at("D5")] / plain[at("D5")] - 1.0 + TUNED_TARGET_WALL).abs() < 1e-12);
        assert!((shaped[at("E7")] / plain[at("E7")] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn tuned_beats_density_on_the_same_fleets() {
        let run = |strategy| mean(strategy, 4000);
        let (tuned, density) = (run(Strategy::Tuned), run(Strategy::Density));
        // 100,000 games on seven seeds put the gap at 0.3 to 0.4 shots (docs/advisor.md).
        assert!(tuned < density - 0.15, "tuned {tuned}, density {density}");
    }

    #[test]
    fn counts_past_the_cap_and_deadlines_stop_a_run() {
        let huge = SimOptions {
            games: MAX_GAMES + 1,
            ..SimOptions::default()
        };
        assert_eq!(
            simulate(&huge, Deadline::NONE, &|| ()),
            Err(SimulateError::TooManyGames {
                games: MAX_GAMES + 1
            })
        );
        let many = SimOptions {
            games: MAX_GAMES,
            ..SimOptions::default()
        };
        let start = std::time::Instant::now();
        let passed = Deadline::after(std::time::Duration::from_millis(200));
        match simulate(&many, passed, &|| ()) {
            Err(SimulateError::TimeLimit { played, games }) => {
                assert!(played < games);
            }
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn the_histogram_gives_the_statistics_of_the_games() {
        // Games of 17, 20, 20 and 25 shots.
        let mut hist = vec![0; 26];
        hist[17] = 1;
        hist[20] = 2;
        hist[25] = 1;
        let s = Summary::of(&SimOptions::default(), &hist);
        assert_eq!((s.games, s.min, s.max), (4, 17, 25));
        assert_eq!(s.median, 20.0);
        assert!((s.mean - 20.5).abs() < 1e-12);
        let var: f64 = [17.0f64, 20.0, 20.0, 25.0]
            .iter()
            .map(|x| (x - 20.5).powi(2))
            .sum::<f64>()
            / 3.0;
        assert!((s.std_dev - var.sqrt()).abs() < 1e-12);
        assert!((s.std_error() - var.sqrt() / 2.0).abs() < 1e-12);
    }
}
