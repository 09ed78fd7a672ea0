//! The buffers the module hands the host (module-abi.md §1.1): what
//! `engine_alloc` returns and every response, each pinned, kept alive at
//! its address, until the host frees it.
//!
//! The registry maps each live buffer's address to its bytes. A request is
//! served only from the start of a live buffer and within its size, so a
//! wrong pointer or length is answered, never read. Freeing an address that
//! isn't live (unknown, or freed already) does nothing.
//!
//! INVARIANT: the host writes into a buffer's bytes between calls, through
//! the address; the engine holds no reference into a buffer across a call
//! out to the host, and reads a request through a shared handle (`Rc`), so a
//! buffer the host frees during a host call stays valid until that request
//! is done.
//!
//! In the wasm module an address is the buffer's place in linear memory.
//! Natively (tests, benchmarks) a 64-bit pointer doesn't fit the ABI's
//! 32 bits, so addresses are tokens that only this registry resolves, and
//! [`Buffers::write`] and [`Buffers::read`] do what a host does to memory.

use std::collections::BTreeMap;
use std::rc::Rc;

/// The live buffers, by address.
pub(crate) struct Buffers {
    live: BTreeMap<u32, Rc<Vec<u8>>>,
    /// The next token to try as an address (native builds only).
    #[cfg(not(target_arch = "wasm32"))]
    next_token: u32,
}

/// The request bytes of one `engine_call`, kept alive while it runs.
pub(crate) struct PinnedRequest {
    buffer: Rc<Vec<u8>>,
    len: usize,
}

impl PinnedRequest {
    pub(crate) fn bytes(&self) -> &[u8] {
        self.buffer.get(..self.len).unwrap_or_default()
    }
}

impl Buffers {
    pub(crate) const fn new() -> Self {
        Self {
            live: BTreeMap::new(),
            #[cfg(not(target_arch = "wasm32"))]
            next_token: FIRST_TOKEN,
        }
    }

    /// `engine_alloc`: a zeroed buffer of `size` bytes (a negative size is
    /// 0), pinned. A zero-size buffer still reserves a byte, so its address
    /// is unique. 0, which is never an address, when memory runs out.
    pub(crate) fn alloc(&mut self, size: i32) -> u32 {
        let size = usize::try_from(size).unwrap_or(0);
        let mut bytes = Vec::new();
        if bytes.try_reserve_exact(size.max(1)).is_err() {
            return 0;
        }
        bytes.resize(size, 0);
        self.pin(bytes)
    }

    /// Pins `bytes` (a response) and returns their address.
    pub(crate) fn pin(&mut self, bytes: Vec<u8>) -> u32 {
        let address = self.address_for(&bytes);
        self.live.insert(address, Rc::new(bytes));
        address
    }

    /// `engine_free`: unpins the buffer at `address`, if one is live there.
    pub(crate) fn free(&mut self, address: u32) {
        self.live.remove(&address);
    }

    /// The first `len` bytes of the live buffer at `address`; `None` when no
    /// buffer starts there or `len` is negative or beyond its size.
    pub(crate) fn request(&self, address: u32, len: i32) -> Option<PinnedRequest> {
        let buffer = self.live.get(&address)?;
        let len = usize::try_from(len)
            .ok()
            .filter(|&len| len <= buffer.len())?;
        Some(PinnedRequest {
            buffer: Rc::clone(buffer),
            len,
        })
    }

    /// How many buffers are pinned.
    #[cfg(test)]
    pub(crate) fn live_count(&self) -> usize {
        self.live.len()
    }

    #[cfg(target_arch = "wasm32")]
    fn address_for(&mut self, bytes: &Vec<u8>) -> u32 {
        // wasm32 addresses are 32 bits: the conversion never fails.
        u32::try_from(bytes.as_ptr().expose_provenance()).unwrap_or(0)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn address_for(&mut self, _bytes: &Vec<u8>) -> u32 {
        loop {
            let token = self.next_token;
            self.next_token = self
                .next_token
                .checked_add(TOKEN_STEP)
                .unwrap_or(FIRST_TOKEN);
            if !self.live.contains_key(&token) {
                return token;
            }
        }
    }

    /// Writes `bytes` at the start of the live buffer at `address`, as a
    /// host writes a request into memory; `false` when they don't fit.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn write(&mut self, address: u32, bytes: &[u8]) -> bool {
        let target = self
            .live
            .get_mut(&address)
            .and_then(Rc::get_mut)
            .and_then(|buffer| buffer.get_mut(..bytes.len()));
        target.map(|target| target.copy_from_slice(bytes)).is_some()
    }

    /// The first `len` bytes of the live buffer at `address`, as a host
    /// reads a response.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn read(&self, address: u32, len: usize) -> Option<Vec<u8>> {
        self.live.get(&address)?.get(..len).map(<[u8]>::to_vec)
    }
}

/// Native tokens start above 0 and step like aligned addresses would.
#[cfg(not(target_arch = "wasm32"))]
const FIRST_TOKEN: u32 = 0x1_0000;
#[cfg(not(target_arch = "wasm32"))]
const TOKEN_STEP: u32 = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_served_only_from_a_live_buffer_within_its_size() {
        let mut buffers = Buffers::new();
        let address = buffers.alloc(4);
        assert!(buffers.write(address, b"abcd"));
        assert_eq!(
            buffers.request(address, 4).map(|r| r.bytes().to_vec()),
            Some(b"abcd".to_vec())
        );
        assert_eq!(
            buffers.request(address, 2).map(|r| r.bytes().to_vec()),
            Some(b"ab".to_vec())
        );
        assert!(
            buffers.request(address, 5).is_none(),
            "longer than the buffer"
        );
        assert!(buffers.request(address, -1).is_none(), "negative length");
        assert!(
            buffers.request(address + 1, 1).is_none(),
            "inside, not at the start"
        );
        assert!(buffers.request(12345, 0).is_none(), "never allocated");
        buffers.free(address);
        assert!(buffers.request(address, 0).is_none(), "freed");
    }

    #[test]
    fn sizes_below_one_still_get_unique_addresses() {
        let mut buffers = Buffers::new();
        let addresses = [
            buffers.alloc(0),
            buffers.alloc(0),
            buffers.alloc(-5),
            buffers.alloc(i32::MIN),
        ];
        let mut unique = addresses.to_vec();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), addresses.len());
        assert!(addresses.iter().all(|&a| a != 0
            && buffers.request(a, 0).is_some()
            && buffers.request(a, 1).is_none()));
    }

    #[test]
    fn freeing_twice_or_freeing_a_foreign_address_does_nothing() {
        let mut buffers = Buffers::new();
        let kept = buffers.alloc(8);
        let freed = buffers.alloc(8);
        buffers.free(freed);
        buffers.free(freed);
        buffers.free(0);
        buffers.free(u32::MAX);
        assert_eq!(buffers.live_count(), 1);
        assert!(buffers.request(kept, 8).is_some());
    }

    #[test]
    fn a_request_outlives_its_buffer_being_freed_while_it_runs() {
        let mut buffers = Buffers::new();
        let address = buffers.alloc(3);
        assert!(buffers.write(address, b"abc"));
        let request = buffers.request(address, 3).unwrap();
        buffers.free(address);
        assert_eq!(request.bytes(), b"abc");
    }
}
