//! The flat index lists and work queues of the propagation engine ([`super::propagation`]).

/// A list of flat index lists (`items[start[i]..start[i + 1]]` for list `i`), as `u32` to keep
/// them small in the cache (the engine's lists hold cell and placement numbers, far below 2^32).
#[derive(Clone, Debug, Default)]
pub(super) struct Lists {
    pub(super) start: Vec<usize>,
    pub(super) items: Vec<u32>,
}

impl Lists {
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

    #[test]
    fn grouping_lists_the_items_of_each_key_in_order() {
        let grouped = Lists::group(2, [Some(1), None, Some(1), Some(0)].into_iter());
        assert_eq!((grouped.get(0), grouped.get(1)), (&[3][..], &[0, 2][..]));
    }
}
