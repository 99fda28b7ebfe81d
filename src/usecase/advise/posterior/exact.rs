//! The exact engine: conflict-free triples counted in closed form over lattice features, the
//! remaining ships enumerated around them, uncovered hits by inclusion-exclusion.

use super::super::board::{Bits, CELLS, SIZE};
use super::lists::*;
use super::options::*;
use crate::model::deadline::{Deadline, TimeLimit};
use rayon::prelude::*;

pub(super) const F: usize = 2 * SIZE + 1;
pub(super) const P: usize = F + 1;

/// Per-feature values, `F` x `F`.
pub(super) type Weights = Vec<i64>;

/// A 2-D prefix sum of signed feature values, for O(1) box sums.
pub(super) struct Prefix(Vec<i64>);

impl Prefix {
    fn of(values: &[i64]) -> Prefix {
        let mut p = vec![0i64; P * P];
        for i in 0..F {
            let mut row = 0i64;
            for j in 0..F {
                let v = values[i * F + j];
                row += if (i + j).is_multiple_of(2) { v } else { -v };
                p[(i + 1) * P + j + 1] = p[i * P + j + 1] + row;
            }
        }
        Prefix(p)
    }

    fn sum(&self, r: &Rect) -> i64 {
        let p = &self.0;
        p[(r.r1 + 1) * P + r.c1 + 1] - p[r.r0 * P + r.c1 + 1] - p[(r.r1 + 1) * P + r.c0]
            + p[r.r0 * P + r.c0]
    }
}

/// Sum of `weight(x)` over the items whose box holds each feature.
pub(super) fn accumulate<'a>(items: impl Iterator<Item = (&'a ShipItem, i64)>) -> Weights {
    let mut d = vec![0i64; P * P];
    for (it, w) in items {
        let r = &it.rect;
        d[r.r0 * P + r.c0] += w;
        d[r.r0 * P + r.c1 + 1] -= w;
        d[(r.r1 + 1) * P + r.c0] -= w;
        d[(r.r1 + 1) * P + r.c1 + 1] += w;
    }
    let mut g = vec![0i64; F * F];
    let mut col = [0i64; F];
    for i in 0..F {
        let mut row = 0i64;
        for j in 0..F {
            row += d[i * P + j];
            col[j] += row;
            g[i * F + j] = col[j];
        }
    }
    g
}

/// Result of the closed form for three ships: the number of conflict-free triples and each
/// placement's count of partners.
pub(super) struct Triple {
    pub(super) total: i64,
    pub(super) weights: [Vec<i64>; 3],
}

/// Conflict-free triples from three lists (some may be the one-item dummy list).
pub(super) fn triple(lists: [&[&ShipItem]; 3]) -> Triple {
    let n: [i64; 3] = lists.map(|l| l.len() as i64);
    let a: Vec<Weights> = (0..3)
        .map(|k| accumulate(lists[k].iter().map(|&it| (it, 1))))
        .collect();
    let pa: Vec<Prefix> = a.iter().map(|g| Prefix::of(g)).collect();
    // o[k][j][x]: placements of ship j in conflict with x of ship k.
    let mut o: [[Vec<i64>; 3]; 3] = Default::default();
    for k in 0..3 {
        for j in 0..3 {
            if j != k {
                o[k][j] = lists[k].iter().map(|it| pa[j].sum(&it.rect)).collect();
            }
        }
    }
    let s = |j: usize, k: usize| -> i64 { o[j][k].iter().sum() };
    let t: i64 = (0..F * F)
        .map(|f| {
            let v = a[0][f] * a[1][f] * a[2][f];
            if (f / F + f % F).is_multiple_of(2) {
                v
            } else {
                -v
            }
        })
        .sum();
    let pair_of_pairs = |k: usize, j: usize, h: usize| -> i64 {
        o[k][j].iter().zip(&o[k][h]).map(|(x, y)| x * y).sum()
    };
    let total = n[0] * n[1] * n[2] - (s(0, 1) * n[2] + s(0, 2) * n[1] + s(1, 2) * n[0])
        + pair_of_pairs(0, 1, 2)
        + pair_of_pairs(1, 0, 2)
        + pair_of_pairs(2, 0, 1)
        - t;
    let weights = [0usize, 1, 2].map(|i| {
        let (j, h) = match i {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        let pb_jh = Prefix::of(&accumulate(
            lists[j].iter().zip(&o[j][h]).map(|(&it, &w)| (it, w)),
        ));
        let pb_hj = Prefix::of(&accumulate(
            lists[h].iter().zip(&o[h][j]).map(|(&it, &w)| (it, w)),
        ));
        let aa: Weights = (0..F * F).map(|f| a[j][f] * a[h][f]).collect();
        let paa = Prefix::of(&aa);
        let s_jh = s(j, h);
        lists[i]
            .iter()
            .enumerate()
            .map(|(x, it)| {
                let (oj, oh) = (o[i][j][x], o[i][h][x]);
                n[j] * n[h] - oj * n[h] - oh * n[j] - s_jh
                    + oj * oh
                    + pb_jh.sum(&it.rect)
                    + pb_hj.sum(&it.rect)
                    - paa.sum(&it.rect)
            })
            .collect()
    });
    Triple { total, weights }
}

/// Configuration count and per-placement counts (by ship, by index in its list).
pub(super) struct Counts {
    pub(super) total: i128,
    pub(super) weights: Vec<Vec<i128>>,
}

impl Counts {
    fn zero(lists: &[Vec<ShipItem>]) -> Counts {
        Counts {
            total: 0,
            weights: lists.iter().map(|l| vec![0; l.len()]).collect(),
        }
    }

    fn add(mut self, other: Counts) -> Counts {
        self.total += other.total;
        for (a, b) in self.weights.iter_mut().zip(other.weights) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }
}

/// Counts conflict-free configurations of `lists` (no cover requirement), checking `deadline`
/// before each placement of the outermost ship.
pub(super) fn count_free(lists: &[Vec<ShipItem>], deadline: Deadline) -> Result<Counts, TimeLimit> {
    let k = lists.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&i| lists[i].len());
    let n_outer = k.saturating_sub(3);
    let outer: Vec<usize> = order[..n_outer].to_vec();
    let inner: Vec<usize> = order[n_outer..].to_vec();
    let leaf = |forbid: Bits, chosen: &[(usize, usize)], acc: &mut Counts| {
        let dummy = ShipItem {
            cells: 0,
            conflict: 0,
            rect: Rect {
                r0: 0,
                r1: 0,
                c0: 0,
                c1: 0,
            },
        };
        let mut free: Vec<Vec<(usize, &ShipItem)>> = inner
            .iter()
            .map(|&s| {
                lists[s]
                    .iter()
                    .enumerate()
                    .filter(|(_, it)| it.cells & forbid == 0)
                    .collect()
            })
            .collect();
        let real = free.len();
        while free.len() < 3 {
            free.push(vec![(usize::MAX, &dummy)]);
        }
        let refs: Vec<Vec<&ShipItem>> = free
            .iter()
            .map(|l| l.iter().map(|&(_, it)| it).collect())
            .collect();
        let tr = if real < 3 {
            triple_with_dummies(&refs, real)
        } else {
            triple([&refs[0], &refs[1], &refs[2]])
        };
        acc.total += tr.total as i128;
        for &(s, idx) in chosen {
            acc.weights[s][idx] += tr.total as i128;
        }
        for (slot, &s) in inner.iter().enumerate() {
            for (&(idx, _), &w) in free[slot].iter().zip(&tr.weights[slot]) {
                acc.weights[s][idx] += w as i128;
            }
        }
    };
    if outer.is_empty() {
        let mut acc = Counts::zero(lists);
        leaf(0, &[], &mut acc);
        return Ok(acc);
    }
    let first = outer[0];
    lists[first]
        .par_iter()
        .enumerate()
        .try_fold(
            || Counts::zero(lists),
            |mut acc, (i, it)| {
                deadline.check()?;
                let mut chosen = vec![(first, i)];
                descend(
                    lists,
                    &outer[1..],
                    it.conflict,
                    &mut chosen,
                    &mut acc,
                    &leaf,
                );
                Ok(acc)
            },
        )
        .try_reduce(|| Counts::zero(lists), |a, b| Ok(a.add(b)))
}

pub(super) fn descend(
    lists: &[Vec<ShipItem>],
    outer: &[usize],
    forbid: Bits,
    chosen: &mut Vec<(usize, usize)>,
    acc: &mut Counts,
    leaf: &impl Fn(Bits, &[(usize, usize)], &mut Counts),
) {
    let Some((&s, rest)) = outer.split_first() else {
        leaf(forbid, chosen, acc);
        return;
    };
    for (i, it) in lists[s].iter().enumerate() {
        if it.cells & forbid == 0 {
            chosen.push((s, i));
            descend(lists, rest, forbid | it.conflict, chosen, acc, leaf);
            chosen.pop();
        }
    }
}

/// The closed form when fewer than three real ships remain: the dummy lists (one item with
/// an empty box) conflict with nothing.
pub(super) fn triple_with_dummies(refs: &[Vec<&ShipItem>], real: usize) -> Triple {
    match real {
        0 => Triple {
            total: 1,
            weights: [vec![1], vec![1], vec![1]],
        },
        1 => Triple {
            total: refs[0].len() as i64,
            weights: [vec![1; refs[0].len()], vec![0], vec![0]],
        },
        _ => {
            let a1 = Prefix::of(&accumulate(refs[1].iter().map(|&it| (it, 1))));
            let a0 = Prefix::of(&accumulate(refs[0].iter().map(|&it| (it, 1))));
            let n0 = refs[0].len() as i64;
            let n1 = refs[1].len() as i64;
            let w0: Vec<i64> = refs[0].iter().map(|it| n1 - a1.sum(&it.rect)).collect();
            let w1: Vec<i64> = refs[1].iter().map(|it| n0 - a0.sum(&it.rect)).collect();
            Triple {
                total: w0.iter().sum(),
                weights: [w0, w1, vec![0]],
            }
        }
    }
}

/// The exact posterior, or `Err(TimeLimit)` when `deadline` passes first.
pub(super) fn exact_posterior(
    lists: &ShipLists,
    deadline: Deadline,
) -> Result<Result<Posterior, PosteriorError>, TimeLimit> {
    let hits: Vec<Bits> = super::super::board::squares(lists.hits)
        .map(|s| s.bit())
        .collect();
    if hopeless(lists) {
        return Ok(Err(PosteriorError::Inconsistent));
    }
    let mut total = Counts::zero(&lists.items);
    // Inclusion-exclusion over the hits: configurations covering every hit = sum over sets T
    // of hits of (-1)^|T| times the configurations avoiding T.
    for mask in 0u64..(1u64 << hits.len()) {
        deadline.check()?;
        let avoid: Bits = hits
            .iter()
            .enumerate()
            .filter(|(k, _)| mask >> k & 1 == 1)
            .map(|(_, &b)| b)
            .fold(0, |a, b| a | b);
        let sub: Vec<Vec<ShipItem>> = lists
            .items
            .iter()
            .map(|l| {
                l.iter()
                    .filter(|it| it.cells & avoid == 0)
                    .copied()
                    .collect()
            })
            .collect();
        // Keep the indices of the full lists: map back after counting.
        let c = count_free(&sub, deadline.clone())?;
        let sign: i128 = if mask.count_ones() % 2 == 0 { 1 } else { -1 };
        total.total += sign * c.total;
        for (s, l) in lists.items.iter().enumerate() {
            let mut k = 0;
            for (idx, it) in l.iter().enumerate() {
                if it.cells & avoid == 0 {
                    total.weights[s][idx] += sign * c.weights[s][k];
                    k += 1;
                }
            }
        }
    }
    if total.total <= 0 {
        return Ok(Err(PosteriorError::Inconsistent));
    }
    let mut cover = [0i128; CELLS];
    for (s, l) in lists.items.iter().enumerate() {
        for (idx, it) in l.iter().enumerate() {
            let w = total.weights[s][idx];
            let mut cells = it.cells;
            while cells != 0 {
                cover[cells.trailing_zeros() as usize] += w;
                cells &= cells - 1;
            }
        }
    }
    let z = total.total as f64;
    let mut probabilities = [0.0; CELLS];
    for (p, &c) in probabilities.iter_mut().zip(&cover) {
        *p = c as f64 / z;
    }
    Ok(Ok(Posterior {
        probabilities,
        used: Used::Exact {
            configurations: total.total as u128,
        },
    }))
}
