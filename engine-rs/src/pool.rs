//! [`Pool`]: instances of one module that serve installed policies, and rebuild in the background
//! an instance that stopped, reinstalling every policy it held (bindings §10).
//!
//! Each slot holds an engine, its compiled policies by name (with the id of the recipe that made
//! each) and `synced`, the generation of recipes it last compiled fully. Installs and removes bump
//! the generation; a lease compares and catches up before it runs, so a slot never serves a
//! half-installed set. An error that stops an instance goes to its caller at once; the slot goes to
//! a background thread that builds a fresh instance and compiles every recipe again.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::engine::{Engine, Policy};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::module::Module;
use crate::options::{CompileOptions, EvalOptions, SourceFile};
use crate::records::{EvalResult, Explanation};

/// How a policy is made in an instance: run at install, and again in every replacement.
pub type Recipe = Arc<dyn Fn(&Engine) -> Result<Policy> + Send + Sync>;

const BACKOFF_START: Duration = Duration::from_millis(50);
const BACKOFF_MAX: Duration = Duration::from_secs(2);
const PAUSE_SLICE: Duration = Duration::from_millis(20);
/// A recipe that stops this many fresh instances is skipped by the rebuild.
const STOPS_TO_SKIP: u32 = 3;

/// Options of [`Pool::with_options`].
#[derive(Debug, Clone, Copy)]
pub struct PoolOptions {
    /// Number of instances; default the available parallelism (2 if unknown).
    pub size: usize,
    /// The limits of every instance.
    pub limits: Limits,
    /// How long a call waits for a free instance before [`Error::Busy`]; None waits forever.
    pub acquire_timeout: Option<Duration>,
}

impl Default for PoolOptions {
    fn default() -> Self {
        Self {
            size: std::thread::available_parallelism().map_or(2, usize::from),
            limits: Limits::default(),
            acquire_timeout: None,
        }
    }
}

/// A pool's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStats {
    /// Number of instances.
    pub size: usize,
    /// Instances free now.
    pub idle: usize,
    /// Installed policies.
    pub installed: usize,
    /// Instances that stopped and were handed to a rebuild.
    pub replaced: u64,
    /// Instances being rebuilt now.
    pub rebuilding: usize,
}

struct Slot {
    id: usize,
    engine: Engine,
    policies: HashMap<String, (u64, Policy)>,
    /// The last failure of each recipe in this slot, reported when its policy is asked for.
    failures: HashMap<String, Error>,
    dead: bool,
    synced: u64,
}

impl Slot {
    /// Slot `id` on a new instance, before any policy is installed on it.
    fn fresh(id: usize, engine: Engine) -> Slot {
        Slot {
            id,
            engine,
            policies: HashMap::new(),
            failures: HashMap::new(),
            dead: false,
            synced: 0,
        }
    }
}

struct State {
    idle: Vec<Slot>,
    recipes: BTreeMap<String, (u64, Recipe)>,
    next_recipe: u64,
    rebuilding: HashSet<usize>,
    skipped: BTreeMap<String, String>,
    replaced: u64,
}

struct Shared {
    module: Module,
    options: PoolOptions,
    state: Mutex<State>,
    idle_changed: Condvar,
    installs: Mutex<()>,
    generation: AtomicU64,
    closed: AtomicBool,
}

/// Closes the pool when the last [`Pool`] handle drops.
struct Handle(Arc<Shared>);

impl Drop for Handle {
    fn drop(&mut self) {
        self.0.closed.store(true, Ordering::SeqCst);
        self.0.idle_changed.notify_all();
    }
}

/// Instances of one module serving installed policies. Clone shares the pool; Send and Sync.
#[derive(Clone)]
pub struct Pool {
    handle: Arc<Handle>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("stats", &self.stats())
            .finish()
    }
}

/// A slot out of the idle list for one operation; it goes back (or to a rebuild) on drop.
struct Lease<'a> {
    shared: &'a Arc<Shared>,
    slot: Option<Slot>,
}

impl Pool {
    /// A pool of `size` instances with default limits.
    pub fn new(module: &Module, size: usize) -> Result<Pool> {
        Self::with_options(
            module,
            PoolOptions {
                size,
                ..PoolOptions::default()
            },
        )
    }

    /// A pool with options; every instance is built now.
    pub fn with_options(module: &Module, options: PoolOptions) -> Result<Pool> {
        if options.size == 0 {
            return Err(Error::engine(
                "a pool needs at least one instance",
                "set PoolOptions::size to 1 or more",
            ));
        }
        let mut idle = Vec::with_capacity(options.size);
        for id in 0..options.size {
            let engine = Engine::with_limits(module, options.limits)?;
            idle.push(Slot::fresh(id, engine));
        }
        idle.reverse();
        let shared = Arc::new(Shared {
            module: module.clone(),
            options,
            state: Mutex::new(State {
                idle,
                recipes: BTreeMap::new(),
                next_recipe: 1,
                rebuilding: HashSet::new(),
                skipped: BTreeMap::new(),
                replaced: 0,
            }),
            idle_changed: Condvar::new(),
            installs: Mutex::new(()),
            generation: AtomicU64::new(0),
            closed: AtomicBool::new(false),
        });
        Ok(Pool {
            handle: Arc::new(Handle(shared)),
        })
    }

    fn shared(&self) -> &Arc<Shared> {
        &self.handle.0
    }

    /// Runs `recipe` in one instance (which validates it), then in every other one, one at a time
    /// while the rest serve, and again in every replacement.
    pub fn install<F>(&self, name: impl Into<String>, recipe: F) -> Result<()>
    where
        F: Fn(&Engine) -> Result<Policy> + Send + Sync + 'static,
    {
        let name = name.into();
        let recipe: Recipe = Arc::new(recipe);
        let shared = self.shared();
        let _serial = shared.installs.lock().unwrap_or_else(|p| p.into_inner());
        let mut lease = shared.acquire(None)?;
        let policy = lease.run_recipe(&name, &recipe)?;
        {
            let mut state = shared.lock();
            let id = state.next_recipe;
            state.next_recipe += 1;
            state.recipes.insert(name.clone(), (id, recipe));
            state.skipped.remove(&name);
            let generation = shared.generation.fetch_add(1, Ordering::SeqCst) + 1;
            if let Some(slot) = lease.slot.as_mut() {
                slot.failures.remove(&name);
                slot.policies.insert(name, (id, policy));
                if slot.synced + 1 == generation {
                    slot.synced = generation;
                }
            }
        }
        let first = lease.slot.as_ref().map(|s| s.id);
        drop(lease);
        shared.roll_out(first);
        Ok(())
    }

    /// [`Pool::install`] with a recipe that compiles `files` with `options`.
    pub fn compile(
        &self,
        name: impl Into<String>,
        files: Vec<SourceFile>,
        options: CompileOptions,
    ) -> Result<()> {
        self.install(name, move |engine: &Engine| {
            engine.compile(&files, options.clone())
        })
    }

    /// Drops a policy from every instance; whether it was installed.
    pub fn remove(&self, name: &str) -> bool {
        let shared = self.shared();
        let _serial = shared.installs.lock().unwrap_or_else(|p| p.into_inner());
        {
            let mut state = shared.lock();
            if state.recipes.remove(name).is_none() {
                return false;
            }
            state.skipped.remove(name);
            shared.generation.fetch_add(1, Ordering::SeqCst);
        }
        shared.roll_out(None);
        true
    }

    /// The installed policies' names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.shared().lock().recipes.keys().cloned().collect()
    }

    /// Evaluates the policy `name` on a free instance, waiting for one.
    pub fn evaluate<I: Serialize + ?Sized>(
        &self,
        name: &str,
        input: &I,
        options: &EvalOptions,
    ) -> Result<EvalResult> {
        self.with_policy(name, |policy| policy.eval_with(input, options))
    }

    /// `explain` of the policy `name` on a free instance.
    pub fn explain(&self, name: &str) -> Result<Explanation> {
        self.with_policy(name, Policy::explain)
    }

    /// Runs `f` with a free instance's policy `name`. An error that stops the instance comes back
    /// at once; the instance is rebuilt in the background.
    pub fn with_policy<T>(&self, name: &str, f: impl FnOnce(&Policy) -> Result<T>) -> Result<T> {
        let shared = self.shared();
        let mut lease = shared.acquire(shared.options.acquire_timeout)?;
        lease.sync()?;
        let Some(slot) = lease.slot.as_mut() else {
            return Err(Error::NoPolicy(name.to_owned()));
        };
        let Some((_, policy)) = slot.policies.get(name) else {
            return Err(slot
                .failures
                .get(name)
                .cloned()
                .unwrap_or_else(|| Error::NoPolicy(name.to_owned())));
        };
        let result = f(policy);
        if matches!(&result, Err(e) if e.is_stopped()) {
            lease.kill();
        }
        result
    }

    /// Recipes a rebuild gave up on (they stopped fresh instances again and again), with the last
    /// error; installing or removing the name clears it.
    pub fn rebuild_failures(&self) -> Vec<(String, String)> {
        self.shared()
            .lock()
            .skipped
            .iter()
            .map(|(n, e)| (n.clone(), e.clone()))
            .collect()
    }

    /// The pool's counters.
    pub fn stats(&self) -> PoolStats {
        let shared = self.shared();
        let state = shared.lock();
        PoolStats {
            size: shared.options.size,
            idle: state.idle.len(),
            installed: state.recipes.len(),
            replaced: state.replaced,
            rebuilding: state.rebuilding.len(),
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes an idle slot, waiting up to `timeout` (forever when None).
    fn acquire(self: &Arc<Self>, timeout: Option<Duration>) -> Result<Lease<'_>> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut state = self.lock();
        loop {
            if let Some(slot) = state.idle.pop() {
                return Ok(Lease {
                    shared: self,
                    slot: Some(slot),
                });
            }
            match deadline {
                None => {
                    state = self
                        .idle_changed
                        .wait(state)
                        .unwrap_or_else(|p| p.into_inner())
                }
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(Error::Busy(timeout.unwrap_or_default()));
                    }
                    state = self
                        .idle_changed
                        .wait_timeout(state, deadline - now)
                        .unwrap_or_else(|p| p.into_inner())
                        .0;
                }
            }
        }
    }

    /// Takes the slot `id` once it is idle; None when it is being rebuilt (the rebuild picks up
    /// the current recipes).
    fn acquire_slot(self: &Arc<Self>, id: usize) -> Option<Lease<'_>> {
        let mut state = self.lock();
        loop {
            if state.rebuilding.contains(&id) {
                return None;
            }
            if let Some(at) = state.idle.iter().position(|s| s.id == id) {
                let slot = state.idle.remove(at);
                return Some(Lease {
                    shared: self,
                    slot: Some(slot),
                });
            }
            state = self
                .idle_changed
                .wait(state)
                .unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Syncs every slot but `except`, one at a time; failures wait for the slot's next lease.
    fn roll_out(self: &Arc<Self>, except: Option<usize>) {
        for id in (0..self.options.size).filter(|id| Some(*id) != except) {
            if let Some(mut lease) = self.acquire_slot(id) {
                let _ = lease.sync();
            }
        }
    }

    fn snapshot(&self) -> (u64, Vec<(String, u64, Recipe)>) {
        let state = self.lock();
        let generation = self.generation.load(Ordering::SeqCst);
        (
            generation,
            state
                .recipes
                .iter()
                .map(|(n, (id, r))| (n.clone(), *id, Arc::clone(r)))
                .collect(),
        )
    }

    /// Hands a dead slot to a background rebuild; without a thread it goes back to idle dead, and
    /// its next lease revives it inline.
    fn rebuild(self: &Arc<Self>, slot: Slot) {
        let id = slot.id;
        self.lock().rebuilding.insert(id);
        self.idle_changed.notify_all();
        let shared = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("svc-pool-rebuild".into())
            .spawn(move || shared.rebuild_loop(id));
        if spawned.is_err() {
            let mut state = self.lock();
            state.rebuilding.remove(&id);
            state.idle.push(slot);
            drop(state);
            self.idle_changed.notify_all();
        }
    }

    fn rebuild_loop(self: Arc<Self>, id: usize) {
        let mut pause = BACKOFF_START;
        let mut stops: HashMap<String, u32> = HashMap::new();
        let mut skip: HashSet<String> = HashSet::new();
        loop {
            if self.closed.load(Ordering::SeqCst) {
                self.lock().rebuilding.remove(&id);
                return;
            }
            let Ok(engine) = Engine::with_limits(&self.module, self.options.limits) else {
                self.pause(&mut pause);
                continue;
            };
            let mut slot = Slot::fresh(id, engine);
            loop {
                let (generation, recipes) = self.snapshot();
                let recipes: Vec<_> = recipes
                    .into_iter()
                    .filter(|(name, _, _)| !skip.contains(name))
                    .collect();
                let stopped_by = sync_slot(&mut slot, generation, &recipes);
                if let Some((name, error)) = stopped_by {
                    let count = stops.entry(name.clone()).or_insert(0);
                    *count += 1;
                    let mut state = self.lock();
                    state.replaced += 1;
                    if *count >= STOPS_TO_SKIP {
                        skip.insert(name.clone());
                        state.skipped.insert(name, error.to_string());
                    }
                    break;
                }
                if self.closed.load(Ordering::SeqCst) {
                    self.lock().rebuilding.remove(&id);
                    return;
                }
                let mut state = self.lock();
                if self.generation.load(Ordering::SeqCst) != generation {
                    continue;
                }
                // Synced without the skipped recipes: they stay out until installed again.
                slot.synced = generation;
                state.rebuilding.remove(&id);
                state.idle.push(slot);
                drop(state);
                self.idle_changed.notify_all();
                return;
            }
            self.pause(&mut pause);
        }
    }

    /// Sleeps `pause` in slices, returning early when the pool closes, and doubles it.
    fn pause(&self, pause: &mut Duration) {
        let end = Instant::now() + *pause;
        while !self.closed.load(Ordering::SeqCst) {
            let now = Instant::now();
            if now >= end {
                break;
            }
            std::thread::sleep((end - now).min(PAUSE_SLICE));
        }
        *pause = (*pause * 2).min(BACKOFF_MAX);
    }
}

/// Brings `slot` to the recipes of `generation`: drops removed policies and runs every recipe it
/// doesn't hold. Returns the recipe that stopped the instance, if one did.
fn sync_slot(
    slot: &mut Slot,
    generation: u64,
    recipes: &[(String, u64, Recipe)],
) -> Option<(String, Error)> {
    slot.policies
        .retain(|name, _| recipes.iter().any(|(n, _, _)| n == name));
    slot.failures
        .retain(|name, _| recipes.iter().any(|(n, _, _)| n == name));
    let mut complete = true;
    for (name, id, recipe) in recipes {
        if slot.policies.get(name).is_some_and(|(held, _)| held == id) {
            continue;
        }
        match recipe(&slot.engine) {
            Ok(policy) => {
                slot.failures.remove(name);
                slot.policies.insert(name.clone(), (*id, policy));
            }
            Err(error) => {
                complete = false;
                slot.policies.remove(name);
                slot.failures.insert(name.clone(), error.clone());
                if error.is_stopped() {
                    slot.dead = true;
                    return Some((name.clone(), error));
                }
            }
        }
    }
    if complete {
        slot.synced = generation;
    }
    None
}

impl Lease<'_> {
    /// Runs one recipe in this slot, marking the slot dead when it stops the instance.
    fn run_recipe(&mut self, name: &str, recipe: &Recipe) -> Result<Policy> {
        self.revive()?;
        let Some(slot) = self.slot.as_mut() else {
            return Err(Error::NoPolicy(name.to_owned()));
        };
        let result = recipe(&slot.engine);
        if matches!(&result, Err(e) if e.is_stopped()) {
            self.kill();
        }
        result
    }

    /// Catches the slot up with the recipes; the fast path is one atomic read.
    fn sync(&mut self) -> Result<()> {
        self.revive()?;
        let shared = self.shared;
        let Some(slot) = self.slot.as_mut() else {
            return Ok(());
        };
        if slot.synced == shared.generation.load(Ordering::SeqCst) {
            return Ok(());
        }
        let (generation, recipes) = shared.snapshot();
        if sync_slot(slot, generation, &recipes).is_some() {
            slot.dead = false;
            self.kill();
        }
        Ok(())
    }

    /// A dead slot that no thread could rebuild gets a fresh instance here.
    fn revive(&mut self) -> Result<()> {
        let Some(slot) = self.slot.as_mut().filter(|s| s.dead) else {
            return Ok(());
        };
        match Engine::with_limits(&self.shared.module, self.shared.options.limits) {
            Ok(engine) => {
                *slot = Slot {
                    id: slot.id,
                    engine,
                    policies: HashMap::new(),
                    failures: HashMap::new(),
                    dead: false,
                    synced: 0,
                };
                Ok(())
            }
            Err(_) => Err(Error::engine(
                "the pool couldn't rebuild a stopped instance",
                "a policy keeps stopping fresh instances; see Pool::rebuild_failures",
            )),
        }
    }

    /// Marks the slot dead (once) and counts it as replaced.
    fn kill(&mut self) {
        if let Some(slot) = self.slot.as_mut().filter(|s| !s.dead) {
            slot.dead = true;
            self.shared.lock().replaced += 1;
        }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        let Some(slot) = self.slot.as_ref() else {
            return;
        };
        if !slot.dead && (std::thread::panicking() || slot.engine.stopped().is_some()) {
            self.kill();
        }
        let Some(slot) = self.slot.take() else { return };
        if slot.dead {
            self.shared.rebuild(slot);
        } else {
            self.shared.lock().idle.push(slot);
            self.shared.idle_changed.notify_all();
        }
    }
}
