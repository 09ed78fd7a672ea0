//! Handles (module-abi.md §5): unsigned 32-bit numbers, never 0, naming
//! what an instance keeps between requests (compiled policies).
//!
//! A counter starting at 0 is incremented before each use, skipping 0 (after
//! it wraps) and every handle still in use. So handles are 1, 2, 3… in the
//! order they are issued, and a released handle isn't issued again until the
//! counter has wrapped around.

use std::collections::BTreeMap;

/// Values under the handles that name them.
#[derive(Debug)]
pub(crate) struct HandleTable<T> {
    /// The last handle issued (0 before the first).
    counter: u32,
    live: BTreeMap<u32, T>,
}

/// Every handle but 0 is in use: nothing more can be stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TableFull;

impl<T> HandleTable<T> {
    pub(crate) const fn new() -> Self {
        Self {
            counter: 0,
            live: BTreeMap::new(),
        }
    }

    /// Stores `value` under a new handle.
    pub(crate) fn insert(&mut self, value: T) -> Result<u32, TableFull> {
        if self.live.len() >= u32::MAX as usize {
            return Err(TableFull);
        }
        // INVARIANT: some handle is free, so the loop ends within one wrap.
        loop {
            self.counter = self.counter.wrapping_add(1);
            if self.counter != 0 && !self.live.contains_key(&self.counter) {
                self.live.insert(self.counter, value);
                return Ok(self.counter);
            }
        }
    }

    pub(crate) fn get(&self, handle: u32) -> Option<&T> {
        self.live.get(&handle)
    }

    /// Releases `handle`; `None` when it isn't in use.
    pub(crate) fn remove(&mut self, handle: u32) -> Option<T> {
        self.live.remove(&handle)
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.live.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table whose counter has already issued `last`.
    fn after(last: u32) -> HandleTable<&'static str> {
        HandleTable {
            counter: last,
            live: BTreeMap::new(),
        }
    }

    #[test]
    fn handles_count_up_from_one() {
        let mut table = HandleTable::new();
        assert_eq!(table.insert("a"), Ok(1));
        assert_eq!(table.insert("b"), Ok(2));
        assert_eq!(table.insert("c"), Ok(3));
        assert_eq!(table.get(2), Some(&"b"));
        assert_eq!(table.get(0), None);
        assert_eq!(table.len(), 3);
    }

    #[test]
    fn a_released_handle_is_not_reissued_before_the_counter_wraps() {
        let mut table = HandleTable::new();
        let first = table.insert("a").unwrap();
        assert_eq!(table.remove(first), Some("a"));
        assert_eq!(table.remove(first), None, "released twice");
        assert_eq!(table.insert("b"), Ok(2));
        assert_eq!(table.get(first), None);
    }

    #[test]
    fn the_counter_wraps_past_zero_and_skips_handles_in_use() {
        let mut table = after(u32::MAX - 2);
        table.live.insert(1, "old one");
        table.live.insert(2, "old two");
        table.live.insert(u32::MAX, "old max");
        assert_eq!(table.insert("a"), Ok(u32::MAX - 1));
        // u32::MAX is in use, 0 is never a handle, 1 and 2 are in use.
        assert_eq!(table.insert("b"), Ok(3));
        assert_eq!(table.insert("c"), Ok(4));
        assert_eq!(table.get(1), Some(&"old one"));
    }

    #[test]
    fn a_released_handle_comes_back_only_after_the_wrap() {
        let mut table = after(u32::MAX);
        assert_eq!(table.insert("a"), Ok(1));
        table.remove(1);
        table.counter = u32::MAX;
        assert_eq!(table.insert("b"), Ok(1));
    }
}
