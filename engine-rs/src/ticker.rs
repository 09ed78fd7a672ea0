//! The epoch ticker: one thread per wasmtime engine that advances its epoch every 2 ms, only
//! while a call with a deadline runs (and a short linger after), on an absolute schedule.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::sys;

/// The period of the ticker.
pub(crate) const TICK: Duration = Duration::from_millis(2);
/// How long the thread keeps ticking after the last watched call, before it parks.
const LINGER: Duration = Duration::from_millis(50);

/// A wasmtime engine reference owned by the ticker thread (wasmtime engines are thread-safe).
struct EnginePtr(*mut sys::wasm_engine_t);
// SAFETY: wasmtime's Engine is Send + Sync; the pointer is an owned clone deleted once.
unsafe impl Send for EnginePtr {}
unsafe impl Sync for EnginePtr {}

impl Drop for EnginePtr {
    fn drop(&mut self) {
        // SAFETY: an owned clone from wasmtime_engine_clone.
        unsafe { sys::wasm_engine_delete(self.0) }
    }
}

struct Shared {
    engine: EnginePtr,
    // Counted without the lock so a call with a deadline pays two atomic operations. The thread
    // publishes `parked` before it re-reads `watches`, and a watcher publishes its watch before
    // it reads `parked`, so one of the two sees the other and no watch sleeps through.
    watches: AtomicUsize,
    parked: AtomicBool,
    started: AtomicBool,
    closed: Mutex<bool>,
    wake: Condvar,
}

/// The ticker of one wasmtime engine; closing it (drop) ends the thread.
pub(crate) struct Ticker {
    shared: Arc<Shared>,
}

/// A call's interest in the ticker; dropping it ends the interest.
pub(crate) struct Watch<'a>(&'a Ticker);

impl Drop for Watch<'_> {
    fn drop(&mut self) {
        self.0.shared.watches.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Ticker {
    /// A ticker over `engine`, which it clones; no thread runs until the first watch.
    ///
    /// # Safety
    /// `engine` is a live wasmtime engine.
    pub(crate) unsafe fn new(engine: *mut sys::wasm_engine_t) -> Self {
        Self {
            shared: Arc::new(Shared {
                engine: EnginePtr(sys::wasmtime_engine_clone(engine)),
                watches: AtomicUsize::new(0),
                parked: AtomicBool::new(false),
                started: AtomicBool::new(false),
                closed: Mutex::new(false),
                wake: Condvar::new(),
            }),
        }
    }

    /// Ticks until the returned guard drops.
    pub(crate) fn watch(&self) -> Watch<'_> {
        let shared = &self.shared;
        shared.watches.fetch_add(1, Ordering::SeqCst);
        if !shared.started.load(Ordering::SeqCst) || shared.parked.load(Ordering::SeqCst) {
            self.wake();
        }
        Watch(self)
    }

    fn wake(&self) {
        let closed = self.shared.closed.lock().unwrap_or_else(|p| p.into_inner());
        if *closed {
            return;
        }
        if !self.shared.started.swap(true, Ordering::SeqCst) {
            let shared = Arc::clone(&self.shared);
            let spawned = std::thread::Builder::new()
                .name("svc-epoch-ticker".into())
                .spawn(move || run(&shared));
            if spawned.is_err() {
                // No thread: deadlines can't fire, but calls still run; try again next watch.
                self.shared.started.store(false, Ordering::SeqCst);
            }
        } else {
            self.shared.wake.notify_one();
        }
    }

    /// Whether a thread was ever started, for tests.
    #[cfg(test)]
    pub(crate) fn is_started(&self) -> bool {
        self.shared.started.load(Ordering::SeqCst)
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        *self.shared.closed.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.shared.wake.notify_one();
    }
}

/// The number of ticks that certainly covers `deadline`: rounded up, plus the tick in progress.
pub(crate) fn ticks_for(deadline: Duration) -> u64 {
    let tick = TICK.as_nanos();
    let nanos = deadline.as_nanos();
    let ticks = nanos / tick + u128::from(nanos % tick != 0) + 1;
    // Far below where wasmtime's sum of epoch and deadline could overflow.
    u64::try_from(ticks)
        .unwrap_or(u64::MAX / 2)
        .min(u64::MAX / 2)
}

fn run(shared: &Shared) {
    let mut due = Instant::now() + TICK;
    let mut last_watched = Instant::now();
    loop {
        if !await_watch(shared, last_watched) {
            return;
        }
        let now = Instant::now();
        if shared.watches.load(Ordering::SeqCst) > 0 {
            last_watched = now;
        }
        if now < due {
            std::thread::sleep(due - now);
            due += TICK;
        } else {
            due = now + TICK;
        }
        // SAFETY: the thread's own engine clone lives as long as `shared`.
        unsafe { sys::wasmtime_engine_increment_epoch(shared.engine.0) }
    }
}

/// Parks once the linger after the last watch has passed; false when the ticker is closed.
fn await_watch(shared: &Shared, last_watched: Instant) -> bool {
    let mut closed = shared.closed.lock().unwrap_or_else(|p| p.into_inner());
    while !*closed && last_watched.elapsed() >= LINGER {
        shared.parked.store(true, Ordering::SeqCst);
        if shared.watches.load(Ordering::SeqCst) > 0 {
            shared.parked.store(false, Ordering::SeqCst);
            break;
        }
        closed = shared.wake.wait(closed).unwrap_or_else(|p| p.into_inner());
        shared.parked.store(false, Ordering::SeqCst);
    }
    !*closed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_cover_the_deadline_and_the_tick_in_progress() {
        assert_eq!(ticks_for(Duration::ZERO), 1);
        assert_eq!(ticks_for(Duration::from_millis(2)), 2);
        assert_eq!(ticks_for(Duration::from_micros(2001)), 3);
        assert_eq!(ticks_for(Duration::from_secs(60)), 30_001);
        assert_eq!(ticks_for(Duration::MAX), u64::MAX / 2);
    }
}
