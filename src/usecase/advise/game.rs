//! A game in progress as a player records it ([`GameRecord`]: the board size, the fleet, and
//! each shot with its answer — miss, hit, or sunk naming the ship, as the Rowan rules announce
//! it), checked and turned into the contest's [`Position`]; and the advice on the next shot
//! ([`advise_shot`]): the strategy's square (or a salvo's squares, [`super::salvo`]) and the
//! posterior heat map, computed by [`PosteriorMethod::Quick`] so that the same request gets the
//! same answer on any machine.

use super::board::{CELLS, Position, SIZE, ShipKind, ShotBoard, Square, SquareMark};
use super::posterior::{self, Options, Posterior, PosteriorError, PosteriorMethod, TouchRule};
use super::salvo::{self, SalvoError, choose_salvo};
use super::simulate::{SimOptions, Strategy, choose, game_rng};
use crate::model::deadline::Deadline;
use serde::Deserialize;

/// What a shot was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ShotResult {
    /// No ship there.
    Miss,
    /// A ship there, not sunk yet.
    Hit,
    /// A ship there, and with this shot all its squares are hit: it is sunk and named.
    Sunk,
}

/// One shot and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShotRecord {
    /// The square, column letter then row number (`G4`).
    pub at: String,
    /// The answer.
    pub result: ShotResult,
    /// The ship sunk (its letter), when `result` is `sunk`.
    #[serde(default)]
    pub ship: Option<String>,
    /// The sunk ship's squares, when the hits around the shot leave it ambiguous.
    #[serde(default)]
    pub squares: Option<Vec<String>>,
}

/// A game as recorded by the shooter.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The board's side (10: the only size the game is played on).
    #[serde(default = "ten")]
    pub size: usize,
    /// The fleet's letters (A, B, D, S, P; the standard fleet when absent).
    #[serde(default = "standard_fleet")]
    pub fleet: Vec<String>,
    /// The shots in the order they were fired.
    #[serde(default)]
    pub shots: Vec<ShotRecord>,
}

fn ten() -> usize {
    SIZE
}

fn standard_fleet() -> Vec<String> {
    ShipKind::FLEET
        .iter()
        .map(|s| s.letter().to_string())
        .collect()
}

/// Why a game record is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The board is not 10x10.
    #[error("the board is {0}x{0}; the game is played on 10x10")]
    Size(usize),
    /// A fleet letter that names no ship.
    #[error("fleet: unknown ship {0:?}; expected one of A, B, D, S, P")]
    UnknownShip(String),
    /// A ship named twice in the fleet.
    #[error("fleet: ship {0} is named twice")]
    ShipTwice(char),
    /// A shot's square is not on the board.
    #[error("shot {shot}: {name:?} is off the 10x10 board (columns A to J, rows 1 to 10)")]
    OffBoard {
        /// Which shot, counted from 1.
        shot: usize,
        /// Its square as given.
        name: String,
    },
    /// A square shot twice.
    #[error("shot {shot}: {square} was shot before")]
    ShotTwice {
        /// Which shot, counted from 1.
        shot: usize,
        /// The square.
        square: Square,
    },
    /// A `sunk` answer without its ship, or a ship with another answer.
    #[error("shot {shot}: a sunk answer names its ship (\"ship\": \"B\"), and only it does")]
    SunkShip {
        /// Which shot, counted from 1.
        shot: usize,
    },
    /// A ship sunk that is not afloat.
    #[error("shot {shot}: ship {ship:?} is not afloat (not in the fleet, or sunk already)")]
    NotAfloat {
        /// Which shot, counted from 1.
        shot: usize,
        /// The letter given.
        ship: String,
    },
    /// A sunk ship that fits no line of hits through the shot.
    #[error(
        "shot {shot}: ship {ship} (length {len}) sunk at {square} does not fit: no straight line of {len} hit squares through it"
    )]
    SunkDoesNotFit {
        /// Which shot, counted from 1.
        shot: usize,
        /// The ship.
        ship: char,
        /// Its length.
        len: usize,
        /// The shot's square.
        square: Square,
    },
    /// A sunk ship that fits several lines of hits: its squares must be given.
    #[error(
        "shot {shot}: ship {ship} sunk at {square} could lie in several places; give its \"squares\""
    )]
    SunkAmbiguous {
        /// Which shot, counted from 1.
        shot: usize,
        /// The ship.
        ship: char,
        /// The shot's square.
        square: Square,
    },
    /// More hits than the ships afloat have squares.
    #[error("{hits} hits on ships afloat, but the ships afloat have only {cells} squares")]
    TooManyHits {
        /// Hits not on sunk ships.
        hits: usize,
        /// Squares of the ships afloat.
        cells: usize,
    },
    /// Every ship is sunk.
    #[error("every ship is sunk: there is no shot left to advise")]
    GameOver,
}

impl GameRecord {
    /// The position the record leaves, checked.
    pub fn position(&self) -> Result<Position, GameError> {
        if self.size != SIZE {
            return Err(GameError::Size(self.size));
        }
        let mut ships: Vec<ShipKind> = Vec::with_capacity(5);
        for letter in &self.fleet {
            let kind = ship_named(letter).ok_or_else(|| GameError::UnknownShip(letter.clone()))?;
            if ships.contains(&kind) {
                return Err(GameError::ShipTwice(kind.letter()));
            }
            ships.push(kind);
        }
        let mut board = ShotBoard::new();
        for (i, shot) in self.shots.iter().enumerate() {
            let n = i + 1;
            let square = square_named(&shot.at).ok_or_else(|| GameError::OffBoard {
                shot: n,
                name: shot.at.clone(),
            })?;
            if board.get(square) != SquareMark::Empty {
                return Err(GameError::ShotTwice { shot: n, square });
            }
            if (shot.result == ShotResult::Sunk) != shot.ship.is_some() {
                return Err(GameError::SunkShip { shot: n });
            }
            match shot.result {
                ShotResult::Miss => board.set(square, SquareMark::Miss),
                ShotResult::Hit => board.set(square, SquareMark::Hit),
                ShotResult::Sunk => {
                    let letter = shot.ship.clone().unwrap_or_default();
                    let kind = ship_named(&letter).filter(|k| ships.contains(k)).ok_or(
                        GameError::NotAfloat {
                            shot: n,
                            ship: letter,
                        },
                    )?;
                    board.set(square, SquareMark::Hit);
                    let cells = sunk_squares(&board, shot, n, kind, square)?;
                    for sq in cells {
                        board.set(sq, SquareMark::Sunk);
                    }
                    ships.retain(|&k| k != kind);
                }
            }
        }
        let hits = board.bits(SquareMark::Hit).count_ones() as usize;
        let cells: usize = ships.iter().map(|s| s.len()).sum();
        if hits > cells {
            return Err(GameError::TooManyHits { hits, cells });
        }
        if ships.is_empty() {
            return Err(GameError::GameOver);
        }
        Ok(Position { ships, board })
    }
}

fn ship_named(letter: &str) -> Option<ShipKind> {
    let mut chars = letter.trim().chars();
    let c = chars.next()?.to_ascii_uppercase();
    chars.next().is_none().then(|| ShipKind::from_letter(c))?
}

fn square_named(name: &str) -> Option<Square> {
    Square::parse(&name.trim().to_ascii_uppercase())
}

/// The squares of the ship `kind` sunk by the shot at `square`: those given, or the one
/// straight line of hits of its length through the square.
fn sunk_squares(
    board: &ShotBoard,
    shot: &ShotRecord,
    n: usize,
    kind: ShipKind,
    square: Square,
) -> Result<Vec<Square>, GameError> {
    let len = kind.len();
    let unfit = GameError::SunkDoesNotFit {
        shot: n,
        ship: kind.letter(),
        len,
        square,
    };
    let all_hit = |cells: &[Square]| cells.iter().all(|&s| board.get(s) == SquareMark::Hit);
    if let Some(names) = &shot.squares {
        let mut cells = Vec::with_capacity(names.len());
        for name in names {
            cells.push(square_named(name).ok_or_else(|| GameError::OffBoard {
                shot: n,
                name: name.clone(),
            })?);
        }
        let lines = lines_through(square, len);
        let mut sorted = cells.clone();
        sorted.sort_by_key(|s| s.index());
        return if lines.contains(&sorted) && all_hit(&sorted) {
            Ok(sorted)
        } else {
            Err(unfit)
        };
    }
    let fits: Vec<Vec<Square>> = lines_through(square, len)
        .into_iter()
        .filter(|l| all_hit(l))
        .collect();
    match fits.len() {
        0 => Err(unfit),
        1 => Ok(fits.into_iter().next().unwrap_or_default()),
        _ => Err(GameError::SunkAmbiguous {
            shot: n,
            ship: kind.letter(),
            square,
        }),
    }
}

/// Every straight line of `len` squares on the board through `square`, each in index order.
fn lines_through(square: Square, len: usize) -> Vec<Vec<Square>> {
    let (r, c) = (square.row as usize, square.col as usize);
    let mut out = Vec::new();
    for start in c.saturating_sub(len - 1)..=c {
        if start + len <= SIZE {
            out.push((start..start + len).map(|k| Square::new(r, k)).collect());
        }
    }
    if len > 1 {
        for start in r.saturating_sub(len - 1)..=r {
            if start + len <= SIZE {
                out.push((start..start + len).map(|k| Square::new(k, c)).collect());
            }
        }
    }
    out
}

/// Why there is no advice on a position.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AdviseError {
    /// The salvo size does not fit the position.
    #[error(transparent)]
    Salvo(#[from] SalvoError),
    /// The posterior failed: no fleet fits, or the deadline passed.
    #[error(transparent)]
    Posterior(#[from] PosteriorError),
}

/// The advice on one position.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotAdvice {
    /// The square the strategy shoots.
    pub shot: Square,
    /// The squares of the salvo in the order they were picked, `shot` first (just `shot`
    /// for a salvo of one).
    pub salvo: Vec<Square>,
    /// The squares with the highest probability, by row then column.
    pub best: Vec<Square>,
    /// Each square's probability of holding a ship.
    pub posterior: Posterior,
}

/// The next `salvo` shots by `strategy` (1 for the plain game; [`salvo::check`] says which
/// sizes fit) and the posterior heat map ([`PosteriorMethod::Quick`] with `seed`: exact where
/// it is cheap, importance sampling of a fixed number of configurations otherwise), within
/// `deadline`. The salvo's squares are picked one by one, each on the position where the
/// earlier ones are misses. The strategies that shoot at random draw from a ChaCha8 generator
/// seeded with `seed`, on the stream `Position::fingerprint` names, so the same position and
/// seed get the same shots.
pub fn advise_shot(
    pos: &Position,
    strategy: Strategy,
    seed: u64,
    salvo: usize,
    deadline: Deadline,
) -> Result<ShotAdvice, AdviseError> {
    salvo::check(salvo, pos)?;
    let opts = Options {
        rule: TouchRule::Touch,
        method: PosteriorMethod::Quick,
        seed,
        deadline,
        ..Options::default()
    };
    // The sample of a sampled heat map is kept: the posterior salvo's later squares are
    // picked on it (the boards with the earlier squares missed), with no new draw.
    let (posterior, sample) = posterior::quick_posterior(pos, &opts)?;
    let empty = pos.board.bits(SquareMark::Empty);
    let best: Vec<Square> = posterior
        .best(empty)
        .into_iter()
        .map(Square::from_index)
        .collect();
    let shot = match strategy {
        Strategy::Posterior => best.first().copied(),
        other => Some(choose(
            &SimOptions {
                strategy: other,
                ..SimOptions::default()
            },
            pos,
            &mut game_rng(seed, pos.fingerprint()),
        )),
    }
    .ok_or(PosteriorError::Inconsistent)?;
    debug_assert!(shot.index() < CELLS);
    let squares = match strategy {
        _ if salvo == 1 => vec![shot],
        Strategy::Posterior => {
            let sim = SimOptions {
                strategy,
                ..SimOptions::default()
            };
            let (mut first, mut late) = (true, None);
            let squares = choose_salvo(pos, salvo, |seen| {
                if std::mem::take(&mut first) {
                    return shot;
                }
                // The heat map of the position where the earlier squares missed (the kept
                // sample's configurations that miss them, or the board counted again); where
                // no fleet fits it, the simulate strategy's own choice (which draws nothing).
                let heat = match &sample {
                    Some(sample) => sample.posterior(
                        seen.board.bits(SquareMark::Miss) & !pos.board.bits(SquareMark::Miss),
                    ),
                    None => posterior::posterior(seen, &opts),
                };
                match heat {
                    Err(e @ PosteriorError::TimeLimit { .. }) => {
                        late = Some(e);
                        shot
                    }
                    result => result
                        .ok()
                        .and_then(|p| p.best(seen.board.bits(SquareMark::Empty)).first().copied())
                        .map_or_else(
                            || choose(&sim, seen, &mut game_rng(seed, 0)),
                            Square::from_index,
                        ),
                }
            });
            // Out of time mid-salvo: no answer rather than one that depends on the machine.
            if let Some(e) = late {
                return Err(e.into());
            }
            squares
        }
        other => strategy_salvo(pos, other, seed, salvo)?,
    };
    Ok(ShotAdvice {
        shot,
        salvo: squares,
        best,
        posterior,
    })
}

/// A salvo of `k` squares by `strategy` as `simulate` plays it (the posterior strategy: exact
/// where it is cheap, density otherwise), picked one by one, each on the position where the
/// earlier ones missed. The strategies that shoot at random draw from `seed` on the stream of
/// the position's fingerprint, as [`advise_shot`] does, so the first square is its shot.
pub fn strategy_salvo(
    pos: &Position,
    strategy: Strategy,
    seed: u64,
    k: usize,
) -> Result<Vec<Square>, SalvoError> {
    salvo::check(k, pos)?;
    let sim = SimOptions {
        strategy,
        ..SimOptions::default()
    };
    let mut rng = game_rng(seed, pos.fingerprint());
    Ok(choose_salvo(pos, k, |seen| choose(&sim, seen, &mut rng)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(json: &str) -> Result<Position, GameError> {
        serde_json::from_str::<GameRecord>(json)
            .expect("a record")
            .position()
    }

    #[test]
    fn shots_become_the_contest_board() {
        let pos = record(
            r#"{"shots": [{"at": "E7", "result": "hit"}, {"at": "E8", "result": "hit"},
               {"at": "E9", "result": "hit"}, {"at": "E10", "result": "sunk", "ship": "B"},
               {"at": "g4", "result": "miss"}, {"at": "C3", "result": "hit"}]}"#,
        )
        .unwrap();
        assert_eq!(pos.ships.len(), 4);
        assert!(!pos.ships.contains(&ShipKind::Battleship));
        assert_eq!(pos.board.get(Square::new(6, 4)), SquareMark::Sunk);
        assert_eq!(pos.board.get(Square::new(3, 6)), SquareMark::Miss);
        assert_eq!(pos.board.get(Square::new(2, 2)), SquareMark::Hit);
    }

    #[test]
    fn bad_records_are_named() {
        assert_eq!(
            record(r#"{"shots": [{"at": "K11", "result": "miss"}]}"#),
            Err(GameError::OffBoard {
                shot: 1,
                name: "K11".into()
            })
        );
        assert!(matches!(
            record(r#"{"shots": [{"at": "A1", "result": "sunk", "ship": "P"}]}"#),
            Err(GameError::SunkDoesNotFit { shot: 1, .. })
        ));
        assert!(matches!(
            record(
                r#"{"fleet": ["P"], "shots": [{"at": "A1", "result": "hit"},
                   {"at": "A2", "result": "hit"}, {"at": "A3", "result": "hit"}]}"#
            ),
            Err(GameError::TooManyHits { hits: 3, cells: 2 })
        ));
        assert_eq!(record(r#"{"size": 12}"#), Err(GameError::Size(12)));
    }

    #[test]
    fn a_random_level_is_seeded_by_the_position() {
        let pos = record(r#"{"shots": [{"at": "E5", "result": "hit"}]}"#).unwrap();
        let shot = |p: &Position, seed| {
            advise_shot(p, Strategy::Beginner, seed, 1, Deadline::NONE)
                .unwrap()
                .shot
        };
        // The same position and seed: the same shot, beside the hit.
        assert_eq!(shot(&pos, 1), shot(&pos, 1));
        assert!(["E4", "D5", "F5", "E6"].contains(&shot(&pos, 1).to_string().as_str()));
        // The fingerprint does not depend on the order the ships are listed in.
        let mut listed = pos.clone();
        listed.ships.reverse();
        assert_eq!(listed.fingerprint(), pos.fingerprint());
        // Other positions draw other numbers: openings of different seeds differ.
        let opening = record("{}").unwrap();
        let openings: Vec<Square> = (1..=8).map(|seed| shot(&opening, seed)).collect();
        assert!(openings.iter().any(|&s| s != openings[0]), "{openings:?}");
    }

    #[test]
    fn a_salvo_is_distinct_free_squares_led_by_the_single_shot() {
        use strum::VariantArray;
        let pos = record(
            r#"{"shots": [{"at": "E5", "result": "hit"}, {"at": "E6", "result": "miss"},
               {"at": "A1", "result": "miss"}]}"#,
        )
        .unwrap();
        let empty = pos.board.bits(SquareMark::Empty);
        for &strategy in Strategy::VARIANTS {
            let one = advise_shot(&pos, strategy, 3, 1, Deadline::NONE).unwrap();
            let five = advise_shot(&pos, strategy, 3, 5, Deadline::NONE).unwrap();
            assert_eq!(one.salvo, [one.shot], "{strategy:?}");
            assert_eq!(five.shot, one.shot, "{strategy:?}");
            assert_eq!(
                five.salvo[0], one.shot,
                "{strategy:?}: the single shot leads"
            );
            let mut distinct = five.salvo.clone();
            distinct.sort_by_key(|s| s.index());
            distinct.dedup();
            assert_eq!(distinct.len(), 5, "{strategy:?}: {:?}", five.salvo);
            assert!(five.salvo.iter().all(|s| empty >> s.index() & 1 == 1));
            // The same request, the same salvo; and the second square is the strategy's shot
            // once the first has missed.
            let again = advise_shot(&pos, strategy, 3, 5, Deadline::NONE).unwrap();
            assert_eq!(again.salvo, five.salvo, "{strategy:?}");
            if strategy != Strategy::Posterior {
                let mut missed = pos.clone();
                missed.board.set(five.salvo[0], SquareMark::Miss);
                let sim = SimOptions {
                    strategy,
                    ..SimOptions::default()
                };
                let mut rng = game_rng(3, pos.fingerprint());
                assert_eq!(choose(&sim, &pos, &mut rng), five.salvo[0]);
                assert_eq!(
                    choose(&sim, &missed, &mut rng),
                    five.salvo[1],
                    "{strategy:?}"
                );
            }
        }
        // With a hit at E5 and E6 a miss, the contest rule fires its salvo beside the hit.
        let rowan = strategy_salvo(&pos, Strategy::Rowan, 1, 3).unwrap();
        assert!(
            rowan
                .iter()
                .all(|s| ["E4", "D5", "F5"].contains(&s.to_string().as_str())),
            "{rowan:?}"
        );
    }

    #[test]
    fn salvo_self_play_counts_turns_and_is_reproducible() {
        use super::super::simulate;
        use strum::VariantArray;
        for &strategy in Strategy::VARIANTS {
            let one = SimOptions {
                strategy,
                games: 6,
                ..SimOptions::default()
            };
            let five = SimOptions {
                salvo: Some(5),
                ..one
            };
            let (a, b) = (
                simulate::simulate(&five, Deadline::NONE, &|| ()),
                simulate::simulate(&five, Deadline::NONE, &|| ()),
            );
            let shots = simulate::simulate(&one, Deadline::NONE, &|| ()).unwrap();
            let turns = a.unwrap();
            assert_eq!(Ok(&turns), b.as_ref());
            // 17 ship squares need at least 4 salvos of 5; a turn fires at most 5 shots.
            assert!(
                turns.min >= 4 && turns.mean < shots.mean,
                "{turns:?} {shots:?}"
            );
            assert!(turns.mean * 5.0 >= 17.0 && turns.salvo == Some(5));
        }
        let zero = SimOptions {
            salvo: Some(0),
            ..SimOptions::default()
        };
        assert_eq!(
            simulate::simulate(&zero, Deadline::NONE, &|| ()),
            Err(simulate::SimulateError::Salvo(SalvoError::Empty))
        );
    }

    #[test]
    fn bad_salvo_sizes_are_named() {
        let pos = record("{}").unwrap();
        for (k, words) in [(0, "at least 1"), (11, "at most 10")] {
            let e = advise_shot(&pos, Strategy::Tuned, 1, k, Deadline::NONE).unwrap_err();
            assert!(e.to_string().contains(words), "{e}");
        }
        assert!(matches!(
            strategy_salvo(&pos, Strategy::Hunter, 1, 0),
            Err(SalvoError::Empty)
        ));
    }

    #[test]
    fn the_same_position_gets_the_same_advice() {
        let pos = record(r#"{"shots": [{"at": "E5", "result": "miss"}]}"#).unwrap();
        let a = advise_shot(&pos, Strategy::Posterior, 1, 1, Deadline::NONE).unwrap();
        let b = advise_shot(&pos, Strategy::Posterior, 1, 1, Deadline::NONE).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.shot, Square::new(4, 4));
    }
}
