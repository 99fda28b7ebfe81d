//! The flat index lists and work queues of the propagation engine ([`super::propagation`]).

use crate::model::deadline::{Pulse, TimeLimit};

/// A list of flat index lists (`items[start[i]..start[i + 1]]` for list `i`), as `u32` to keep
/// them small in the cache (the engine's lists hold cell and placement numbers, far below 2^32).
#[derive(Clone, Debug, Default)]
pub(super) struct Lists {
    pub(super) start: Vec<usize>,
    pub(super) items: Vec<u32>,
}

impl Lists {
    /// The lists `lists` gives, in order, giving up once `pulse`'s deadline passes (on an open
    /// 100x100 board with ships of every length, the placements' halos hold about 10^8 items).
    pub(super) fn build<L: IntoIterator<Item = usize>>(
        lists: impl Iterator<Item = L>,
        pulse: &mut Pulse,
    ) -> Result<Self, TimeLimit> {
        let mut start = vec![0];
        let mut items = Vec::new();
        for list in lists {
            if pulse.beat().is_err() {
                // A large index takes a while to free: not on the caller's time.
                pulse.deadline().discard((start, items));
                return Err(TimeLimit);
            }
            items.extend(list.into_iter().map(index));
            start.push(items.len());
        }
        Ok(Lists { start, items })
    }

    /// For each of `count` keys, the lists that hold it, in order, giving up once `pulse`'s
    /// deadline passes.
    pub(super) fn transpose(&self, count: usize, pulse: &mut Pulse) -> Result<Self, TimeLimit> {
        let lists = self.start.len() - 1;
        let mut start = vec![0; count + 1];
        for i in 0..lists {
            pulse.beat()?;
            for &key in self.get(i) {
                start[key as usize + 1] += 1;
            }
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut items = vec![0; start[count]];
        for i in 0..lists {
            if pulse.beat().is_err() {
                pulse.deadline().discard(items);
                return Err(TimeLimit);
            }
            for &key in self.get(i) {
                let key = key as usize;
                items[next[key]] = index(i);
                next[key] += 1;
            }
        }
        Ok(Lists { start, items })
    }

    /// Groups `keys` (item index -> list, or `None`) into `count` lists.
    pub(super) fn group(count: usize, keys: impl Iterator<Item = Option<usize>> + Clone) -> Self {
        let mut start = vec![0; count + 1];
        for key in keys.clone().flatten() {
            start[key + 1] += 1;
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut items = vec![0; start[count]];
        for (item, key) in keys.enumerate() {
            if let Some(key) = key {
                items[next[key]] = index(item);
                next[key] += 1;
            }
        }
        Lists { start, items }
    }

    pub(super) fn get(&self, i: usize) -> &[u32] {
        &self.items[self.start[i]..self.start[i + 1]]
    }
}

/// `i` as a list item.
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 cells and placements")
}

/// A work queue that holds each item at most once.
#[derive(Clone, Debug, Default)]
pub(super) struct Queue {
    pub(super) items: Vec<usize>,
    pub(super) queued: Vec<bool>,
}

impl Queue {
    pub(super) fn new(size: usize) -> Self {
        Queue {
            items: Vec::new(),
            queued: vec![false; size],
        }
    }

    pub(super) fn push(&mut self, i: usize) {
        if !std::mem::replace(&mut self.queued[i], true) {
            self.items.push(i);
        }
    }

    pub(super) fn pop(&mut self) -> Option<usize> {
        let i = self.items.pop()?;
        self.queued[i] = false;
        Some(i)
    }

    pub(super) fn clear(&mut self) {
        for i in self.items.drain(..) {
            self.queued[i] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::deadline::Deadline;

    #[test]
    fn the_transpose_lists_the_owners_of_each_key_in_order() {
        let mut pulse = Deadline::NONE.pulse();
        let lists = Lists::build([vec![0, 2], vec![], vec![2, 1]].into_iter(), &mut pulse).unwrap();
        assert_eq!(
            (lists.get(0), lists.get(1), lists.get(2)),
            (&[0, 2][..], &[][..], &[2, 1][..])
        );
        let owners = lists.transpose(4, &mut pulse).unwrap();
        assert_eq!(owners.get(0), &[0]);
        assert_eq!(owners.get(1), &[2]);
        assert_eq!(owners.get(2), &[0, 2]);
        assert!(owners.get(3).is_empty());
        let grouped = Lists::group(2, [Some(1), None, Some(1), Some(0)].into_iter());
        assert_eq!((grouped.get(0), grouped.get(1)), (&[3][..], &[0, 2][..]));
    }

    #[test]
    fn building_and_transposing_give_up_once_the_deadline_has_passed() {
        let passed = Deadline::after(std::time::Duration::ZERO);
        let many = (0..100_000).map(|i| vec![i % 7]);
        let mut pulse = passed.pulse();
        assert_eq!(
            Lists::build(many.clone(), &mut pulse).err(),
            Some(TimeLimit)
        );
        let lists = Lists::build(many, &mut Deadline::NONE.pulse()).unwrap();
        assert_eq!(
            lists.transpose(7, &mut passed.pulse()).err(),
            Some(TimeLimit)
        );
    }
}
