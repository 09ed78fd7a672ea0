//! One instance of the module: its store, the ABI round trip, host calls, and stopping.
//!
//! An instance runs one call at a time (a mutex); a host function that calls back into the
//! instance running it is refused instead of deadlocking. After a trap, an interrupt, fuel
//! exhaustion or `proc_exit` the store would still answer, so the instance latches the first
//! cause and never enters the module again (bindings §4).

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use crate::error::{EngineError, Error, Result, StoppedError};
use crate::host::{self, HostFunction};
use crate::limits::{Limits, MAX_MEMORY};
use crate::module::Module;
use crate::records::Diagnostic;
use crate::sys;
use crate::ticker::ticks_for;

/// The ABI version the crate speaks; [`crate::Engine::new`] fails for a module that speaks another.
pub const ABI_VERSION: i32 = 1;

const HELP_REBUILD: &str = "this instance can't be used again: build a new one with Engine::new";
const START_HELP: &str =
    "build engine.wasm from the same svc revision as this crate; with Limits::max_memory, \
                          the module needs a few MiB to start";
const MISMATCH_HELP: &str = "use the engine.wasm built from the same svc revision as this crate";
const NO_DEADLINE: u64 = u64::MAX / 2;

/// Bounded capture of a guest output stream: the first `HEAD` bytes and the last `TAIL`.
struct Output {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    dropped: bool,
}

const HEAD: usize = 1024;
const TAIL: usize = 3072;

impl Output {
    fn new() -> Self {
        Self {
            head: Vec::new(),
            tail: std::collections::VecDeque::new(),
            dropped: false,
        }
    }

    fn append(&mut self, mut bytes: &[u8]) {
        let take = (HEAD - self.head.len()).min(bytes.len());
        let (first, rest) = bytes.split_at(take);
        self.head.extend_from_slice(first);
        bytes = rest;
        self.tail.extend(bytes.iter().copied());
        while self.tail.len() > TAIL {
            self.tail.pop_front();
            self.dropped = true;
        }
    }

    /// The text, stripped, or "" when nothing was written.
    fn render(&self) -> String {
        let mut bytes = self.head.clone();
        if self.dropped {
            bytes.extend_from_slice(b"\n[...]\n");
        }
        bytes.extend(self.tail.iter().copied());
        String::from_utf8_lossy(&bytes).trim().to_owned()
    }
}

unsafe extern "C" fn output_write(data: *mut c_void, bytes: *const u8, len: usize) -> isize {
    if !bytes.is_null() && len > 0 {
        (*data.cast::<Output>()).append(std::slice::from_raw_parts(bytes, len));
    }
    // Always everything: the guest must never see a short write on stdio.
    isize::try_from(len).unwrap_or(isize::MAX)
}

/// What the store's data pointer points at: the exports and the state of the running call.
struct Guest {
    memory: sys::wasmtime_item_t,
    alloc: sys::wasmtime_item_t,
    free: sys::wasmtime_item_t,
    call: sys::wasmtime_item_t,
    init: sys::wasmtime_item_t,
    abi: sys::wasmtime_item_t,
    /// The host functions of the running evaluation; null outside one.
    functions: *const HashMap<String, HostFunction>,
    /// A failure of the host-call path, which explains the unwind better than its trap.
    host_failure: Option<String>,
    stderr: Output,
    stdout: Output,
}

/// A wasmtime store with its instance. Used under the instance's mutex only.
struct Store {
    raw: *mut sys::wasmtime_store_t,
    context: *mut sys::wasmtime_context_t,
    guest: *mut Guest,
    fuel: bool,
    memory_limit: u64,
}

// SAFETY: a wasmtime store may move between threads; it is used by one thread at a time (mutex).
unsafe impl Send for Store {}

impl Drop for Store {
    fn drop(&mut self) {
        // SAFETY: the store first (its WASI context writes into the guest's buffers), then the guest.
        unsafe {
            sys::wasmtime_store_delete(self.raw);
            drop(Box::from_raw(self.guest));
        }
    }
}

/// How a guest call ended badly.
enum Trap {
    Interrupt,
    OutOfFuel,
    Exit(i32),
    Other(String),
}

thread_local! {
    static THREAD_ID: u64 = {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        NEXT.fetch_add(1, Ordering::Relaxed)
    };
}

fn thread_id() -> u64 {
    THREAD_ID.with(|id| *id)
}

/// An instance shared by an [`crate::Engine`] and its policies.
pub(crate) struct Instance {
    module: Module,
    limits: Limits,
    store: Mutex<Store>,
    /// The thread inside a call of this instance; 0 when none.
    running: AtomicU64,
    stopped: OnceLock<StoppedError>,
    /// Handles of policies dropped inside a host function; released at the next call.
    abandoned: Mutex<Vec<u32>>,
}

impl Instance {
    /// Instantiates the module, runs `_initialize` and checks the ABI version.
    pub(crate) fn start(module: &Module, limits: Limits) -> Result<Instance> {
        limits.validate()?;
        // SAFETY: the pre lives as long as `module`; the store is owned by the returned Store.
        let store = unsafe { new_store(module, &limits) }?;
        let instance = Instance {
            module: module.clone(),
            limits,
            store: Mutex::new(store),
            running: AtomicU64::new(0),
            stopped: OnceLock::new(),
            abandoned: Mutex::new(Vec::new()),
        };
        instance.initialize()?;
        Ok(instance)
    }

    fn initialize(&self) -> Result<()> {
        let mut store = self.lock();
        let deadline = self.limits.op_deadline;
        let init = unsafe { (*store.guest).init };
        self.enter(&mut store, deadline, None, |store| unsafe {
            invoke(store, &init, &mut [])
        })
        .map_err(|trap| self.start_failed(&store, trap))?;
        let abi = unsafe { (*store.guest).abi };
        let mut args = [sys::wasmtime_val_raw_t { i64: 0 }];
        self.enter(&mut store, deadline, None, |store| unsafe {
            invoke(store, &abi, &mut args)
        })
        .map_err(|trap| self.start_failed(&store, trap))?;
        // SAFETY: engine_abi_version returned an i32 in slot 0.
        let version = unsafe { args[0].i32 };
        if version != ABI_VERSION {
            return Err(Error::engine(
                format!("the module speaks ABI version {version}, and this crate version {ABI_VERSION}"),
                "use the engine.wasm that ships with this crate (Module::bundled), or one built from the same svc revision",
            ));
        }
        Ok(())
    }

    fn start_failed(&self, store: &Store, trap: Trap) -> Error {
        Error::Stopped(StoppedError {
            message: format!(
                "starting the Sigil module failed: {}{}",
                why(&trap),
                stderr_of(store)
            ),
            help: START_HELP.into(),
        })
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Why the instance stopped; None while it works.
    pub(crate) fn stopped(&self) -> Option<StoppedError> {
        self.stopped.get().cloned()
    }

    /// Bytes of linear memory the instance holds.
    pub(crate) fn memory_size(&self) -> Result<usize> {
        self.refuse_reentry()?;
        let store = self.lock();
        // SAFETY: the memory export belongs to this store.
        Ok(unsafe { sys::wasmtime_memory_data_size(store.context, &(*store.guest).memory) })
    }

    /// One op with the op deadline and no fuel limit: the response as the module wrote it.
    pub(crate) fn op(&self, request: &[u8]) -> Result<Vec<u8>> {
        self.round_trip(request, self.limits.op_deadline, None, None, <[u8]>::to_vec)
    }

    /// One evaluation: the request, its hard deadline, fuel and host functions. `read` takes the
    /// response where the module wrote it, before it is freed, so it is never copied out.
    pub(crate) fn evaluate<T>(
        &self,
        request: &[u8],
        deadline: Option<Duration>,
        fuel: Option<u64>,
        functions: &HashMap<String, HostFunction>,
        read: impl FnOnce(&[u8]) -> T,
    ) -> Result<T> {
        if fuel.is_some() && !self.module.config().fuel {
            return Err(Error::engine(
                "a fuel limit needs a module built with fuel metering",
                "load the module with ModuleConfig { fuel: true }",
            ));
        }
        self.round_trip(
            request,
            deadline.or(self.limits.op_deadline),
            fuel,
            Some(functions),
            read,
        )
    }

    /// Releases `handle` now, or at the next call when dropped inside a host function of this
    /// instance (which holds the lock).
    pub(crate) fn release_quietly(&self, handle: u32) {
        if self.stopped.get().is_some() {
            return;
        }
        if self.running.load(Ordering::SeqCst) == thread_id() {
            self.abandoned
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(handle);
            return;
        }
        let request = release_request(handle);
        // Nobody waits for this release: a handle the module no longer knows is released already.
        let _ = self.round_trip(&request, self.limits.op_deadline, None, None, |_| ());
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn refuse_reentry(&self) -> Result<()> {
        if self.running.load(Ordering::SeqCst) == thread_id() {
            return Err(Error::engine(
                "the module is busy: a host function can't call back into the instance that runs it",
                "use another instance for the nested call, or compute the value before the evaluation",
            ));
        }
        Ok(())
    }

    fn round_trip<T>(
        &self,
        request: &[u8],
        deadline: Option<Duration>,
        fuel: Option<u64>,
        functions: Option<&HashMap<String, HostFunction>>,
        read: impl FnOnce(&[u8]) -> T,
    ) -> Result<T> {
        self.refuse_reentry()?;
        let mut store = self.lock();
        if let Some(stopped) = self.stopped.get() {
            return Err(Error::Stopped(stopped.clone()));
        }
        self.release_abandoned(&mut store);
        if let Some(stopped) = self.stopped.get() {
            return Err(Error::Stopped(stopped.clone()));
        }
        // SAFETY: the guest is ours under the lock; the map outlives the call.
        unsafe {
            (*store.guest).functions = functions.map_or(std::ptr::null(), |f| f as *const _);
            (*store.guest).host_failure = None;
        }
        let result = self.enter(&mut store, deadline, fuel, |store| unsafe {
            exchange(store, request, read)
        });
        // SAFETY: as above.
        unsafe { (*store.guest).functions = std::ptr::null() };
        match result {
            Ok(Some(response)) => Ok(response),
            Ok(None) => Err(Error::engine(
                "the module couldn't allocate memory for a request",
                "the instance is out of memory; build a new one, or raise Limits::max_memory",
            )),
            Err(trap) => Err(self.stop(&store, trap, deadline)),
        }
    }

    fn release_abandoned(&self, store: &mut Store) {
        let handles =
            std::mem::take(&mut *self.abandoned.lock().unwrap_or_else(|p| p.into_inner()));
        for handle in handles {
            let request = release_request(handle);
            let deadline = self.limits.op_deadline;
            if let Err(trap) = self.enter(store, deadline, None, |store| unsafe {
                exchange(store, &request, |_| ())
            }) {
                // Latches the instance as stopped; the caller's call then fails with it.
                let _ = self.stop(store, trap, deadline);
                return;
            }
        }
    }

    /// Runs `body` as the thread inside this instance, with a deadline and fuel set.
    fn enter<T>(
        &self,
        store: &mut Store,
        deadline: Option<Duration>,
        fuel: Option<u64>,
        body: impl FnOnce(&mut Store) -> std::result::Result<T, Trap>,
    ) -> std::result::Result<T, Trap> {
        self.running.store(thread_id(), Ordering::SeqCst);
        let _watch = deadline.map(|_| self.module.inner.ticker.watch());
        // SAFETY: the context is this store's; the deadline is relative to the current epoch, so it
        // is set on every entry.
        unsafe {
            sys::wasmtime_context_set_epoch_deadline(
                store.context,
                deadline.map_or(NO_DEADLINE, ticks_for),
            );
            if store.fuel {
                let error = sys::wasmtime_context_set_fuel(store.context, fuel.unwrap_or(u64::MAX));
                if !error.is_null() {
                    sys::wasmtime_error_delete(error);
                }
            }
        }
        let result = body(store);
        self.running.store(0, Ordering::SeqCst);
        result
    }

    /// Latches the first cause and returns this call's error: a killed call reports its
    /// deadline, and the calls after it that the instance died earlier.
    fn stop(&self, store: &Store, trap: Trap, deadline: Option<Duration>) -> Error {
        let stderr = stderr_of(store);
        // SAFETY: the guest is ours under the lock.
        let host_failure = unsafe { (*store.guest).host_failure.take() };
        let (now, later) = match (trap, deadline, host_failure) {
            (_, _, Some(failure)) => {
                let error = StoppedError {
                    message: format!("the Sigil module stopped: {failure}{stderr}"),
                    help: HELP_REBUILD.into(),
                };
                (Error::Stopped(error.clone()), error)
            }
            (Trap::Interrupt, Some(deadline), None) => (
                Error::Timeout(deadline),
                StoppedError {
                    message: format!("the Sigil module stopped earlier: a call ran past its hard deadline and was killed{stderr}"),
                    help: HELP_REBUILD.into(),
                },
            ),
            (Trap::OutOfFuel, _, None) => (
                Error::OutOfFuel,
                StoppedError {
                    message: format!("the Sigil module stopped earlier: a call ran out of fuel and was stopped{stderr}"),
                    help: HELP_REBUILD.into(),
                },
            ),
            (trap, _, None) => {
                let at_limit = memory_at_limit(store);
                let what = if at_limit { format!("it ran out of memory ({})", why(&trap)) } else { why(&trap) };
                let error = StoppedError {
                    message: format!("the Sigil module stopped: {what}{stderr}"),
                    help: format!(
                        "{HELP_REBUILD}. Unless the input or policy was extreme, such as nesting thousands deep, \
                         this is a bug in the engine: please report it with the output above"
                    ),
                };
                (Error::Stopped(error.clone()), error)
            }
        };
        let _ = self.stopped.set(later);
        now
    }
}

fn release_request(handle: u32) -> Vec<u8> {
    format!(r#"{{"op":"release","handle":{handle}}}"#).into_bytes()
}

fn why(trap: &Trap) -> String {
    match trap {
        Trap::Exit(code) => format!("it exited with code {code}"),
        Trap::Interrupt => "it was interrupted at its deadline".into(),
        Trap::OutOfFuel => "it ran out of fuel".into(),
        Trap::Other(message) => format!("it trapped: {message}"),
    }
}

fn stderr_of(store: &Store) -> String {
    // SAFETY: the guest is ours; no guest code runs now.
    let text = unsafe { (*store.guest).stderr.render() };
    if text.is_empty() {
        text
    } else {
        format!("\n{text}")
    }
}

fn memory_at_limit(store: &Store) -> bool {
    // SAFETY: the memory export belongs to this store.
    let size =
        unsafe { sys::wasmtime_memory_data_size(store.context, &(*store.guest).memory) } as u64;
    size + 65536 > store.memory_limit
}

unsafe fn new_store(module: &Module, limits: &Limits) -> Result<Store> {
    let guest = Box::into_raw(Box::new(Guest {
        memory: empty_item(),
        alloc: empty_item(),
        free: empty_item(),
        call: empty_item(),
        init: empty_item(),
        abi: empty_item(),
        functions: std::ptr::null(),
        host_failure: None,
        stderr: Output::new(),
        stdout: Output::new(),
    }));
    let raw = sys::wasmtime_store_new(module.inner.engine, guest.cast(), None);
    let store = Store {
        raw,
        context: sys::wasmtime_store_context(raw),
        guest,
        fuel: module.config().fuel,
        memory_limit: limits.max_memory,
    };
    if limits.max_memory < MAX_MEMORY {
        // A refused memory.grow returns -1 to the guest; it does not trap.
        let bytes = i64::try_from(limits.max_memory).unwrap_or(i64::MAX);
        sys::wasmtime_store_limiter(raw, bytes, -1, -1, -1, -1);
    }
    let wasi = sys::wasi_config_new();
    sys::wasi_config_set_stdout_custom(
        wasi,
        output_write,
        std::ptr::addr_of_mut!((*guest).stdout).cast(),
        None,
    );
    sys::wasi_config_set_stderr_custom(
        wasi,
        output_write,
        std::ptr::addr_of_mut!((*guest).stderr).cast(),
        None,
    );
    let error = sys::wasmtime_context_set_wasi(store.context, wasi);
    if !error.is_null() {
        return Err(Error::engine(
            format!("setting up WASI failed: {}", sys::error_text(error)),
            MISMATCH_HELP,
        ));
    }
    // A start function (if any) runs during instantiation: no deadline, all fuel.
    sys::wasmtime_context_set_epoch_deadline(store.context, NO_DEADLINE);
    if store.fuel {
        let error = sys::wasmtime_context_set_fuel(store.context, u64::MAX);
        if !error.is_null() {
            sys::wasmtime_error_delete(error);
        }
    }
    let mut instance = sys::wasmtime_instance_t::zeroed();
    let mut trap = std::ptr::null_mut();
    let error = sys::wasmtime_instance_pre_instantiate(
        module.inner.pre,
        store.context,
        &mut instance,
        &mut trap,
    );
    if !error.is_null() || !trap.is_null() {
        let trap = classify(trap, error);
        return Err(Error::Stopped(StoppedError {
            message: format!(
                "starting the Sigil module failed: {}{}",
                why(&trap),
                stderr_of(&store)
            ),
            help: START_HELP.into(),
        }));
    }
    let g = &mut *guest;
    let exports: [(&str, &mut sys::wasmtime_item_t, u8); 6] = [
        ("memory", &mut g.memory, sys::WASMTIME_EXTERN_MEMORY),
        ("engine_alloc", &mut g.alloc, sys::WASMTIME_EXTERN_FUNC),
        ("engine_free", &mut g.free, sys::WASMTIME_EXTERN_FUNC),
        ("engine_call", &mut g.call, sys::WASMTIME_EXTERN_FUNC),
        ("_initialize", &mut g.init, sys::WASMTIME_EXTERN_FUNC),
        ("engine_abi_version", &mut g.abi, sys::WASMTIME_EXTERN_FUNC),
    ];
    for (name, slot, kind) in exports {
        let mut item = sys::wasmtime_extern_t::zeroed();
        let found = sys::wasmtime_instance_export_get(
            store.context,
            &instance,
            name.as_ptr(),
            name.len(),
            &mut item,
        );
        if !found || item.kind != kind {
            return Err(Error::engine(
                format!("the module doesn't export `{name}`"),
                MISMATCH_HELP,
            ));
        }
        *slot = item.of.item;
    }
    Ok(store)
}

fn empty_item() -> sys::wasmtime_item_t {
    // SAFETY: a plain-data union; the zero pattern is never passed to wasmtime before it is set.
    unsafe { sys::wasmtime_extern_t::zeroed().of.item }
}

/// Classifies a failed call and frees what wasmtime returned.
unsafe fn classify(trap: *mut sys::wasm_trap_t, error: *mut sys::wasmtime_error_t) -> Trap {
    if !trap.is_null() {
        let mut code = 0u8;
        let known = sys::wasmtime_trap_code(trap, &mut code);
        let mut text = sys::wasm_byte_vec_t::empty();
        sys::wasm_trap_message(trap, &mut text);
        let message = text.text();
        sys::wasm_byte_vec_delete(&mut text);
        sys::wasm_trap_delete(trap);
        if !error.is_null() {
            sys::wasmtime_error_delete(error);
        }
        return match (known, code) {
            (true, sys::TRAP_INTERRUPT) => Trap::Interrupt,
            (true, sys::TRAP_OUT_OF_FUEL) => Trap::OutOfFuel,
            _ => Trap::Other(message),
        };
    }
    let mut status = 0;
    if sys::wasmtime_error_exit_status(error, &mut status) {
        sys::wasmtime_error_delete(error);
        return Trap::Exit(status);
    }
    Trap::Other(sys::error_text(error))
}

/// Calls one export with its arguments and results in `args`.
unsafe fn invoke(
    store: &mut Store,
    func: &sys::wasmtime_item_t,
    args: &mut [sys::wasmtime_val_raw_t],
) -> std::result::Result<(), Trap> {
    let mut trap = std::ptr::null_mut();
    let error = sys::wasmtime_func_call_unchecked(
        store.context,
        func,
        args.as_mut_ptr(),
        args.len(),
        &mut trap,
    );
    if error.is_null() && trap.is_null() {
        Ok(())
    } else {
        Err(classify(trap, error))
    }
}

fn bad_response(message: &str) -> Trap {
    Trap::Other(message.to_owned())
}

/// The ABI's round trip: alloc, copy in, `engine_call`, `read` the response in place, free both.
/// `Ok(None)` when the module has no memory for the request (it still works).
unsafe fn exchange<T>(
    store: &mut Store,
    request: &[u8],
    read: impl FnOnce(&[u8]) -> T,
) -> std::result::Result<Option<T>, Trap> {
    let guest = &*store.guest;
    let (memory, alloc, free, call) = (guest.memory, guest.alloc, guest.free, guest.call);
    let len = i32::try_from(request.len())
        .map_err(|_| bad_response("the request is larger than 2 GiB"))?;
    let mut args = [
        sys::wasmtime_val_raw_t { i64: 0 },
        sys::wasmtime_val_raw_t { i64: 0 },
    ];
    args[0].i32 = len;
    invoke(store, &alloc, &mut args[..1])?;
    let request_ptr = args[0].i32 as u32;
    if request_ptr == 0 && len > 0 {
        return Ok(None);
    }
    let size = sys::wasmtime_memory_data_size(store.context, &memory);
    if u64::from(request_ptr) + request.len() as u64 > size as u64 {
        return Err(bad_response(
            "engine_alloc returned memory outside the module's memory",
        ));
    }
    let base = sys::wasmtime_memory_data(store.context, &memory);
    std::ptr::copy_nonoverlapping(
        request.as_ptr(),
        base.add(request_ptr as usize),
        request.len(),
    );
    args[0].i32 = request_ptr as i32;
    args[1].i32 = len;
    invoke(store, &call, &mut args)?;
    let packed = args[0].i64 as u64;
    let (response_ptr, response_len) = ((packed >> 32) as u32, packed as u32);
    // Memory may have grown and moved: size and base are read again.
    let size = sys::wasmtime_memory_data_size(store.context, &memory);
    if u64::from(response_ptr) + u64::from(response_len) > size as u64 {
        return Err(bad_response(
            "the module returned a response outside its memory",
        ));
    }
    let base = sys::wasmtime_memory_data(store.context, &memory);
    // No guest code runs while `read` looks at the response, so the memory can't move under it.
    let response = read(std::slice::from_raw_parts(
        base.add(response_ptr as usize),
        response_len as usize,
    ));
    args[0].i32 = response_ptr as i32;
    args[1].i32 = response_len as i32;
    invoke(store, &free, &mut args)?;
    args[0].i32 = request_ptr as i32;
    args[1].i32 = len;
    invoke(store, &free, &mut args)?;
    Ok(Some(response))
}

/// Records a failure of the host-call path and hands wasmtime a trap that unwinds the guest.
unsafe fn host_call_failed(guest: *mut Guest, message: &str) -> *mut sys::wasm_trap_t {
    (*guest)
        .host_failure
        .get_or_insert_with(|| message.to_owned());
    sys::wasmtime_trap_new(message.as_ptr(), message.len())
}

/// `engine.host_call(reqPtr, reqLen) -> (ptr << 32) | len`, run while the guest waits inside
/// `engine_call` on the calling thread.
pub(crate) unsafe extern "C" fn host_call_callback(
    _env: *mut c_void,
    caller: *mut sys::wasmtime_caller_t,
    args_and_results: *mut sys::wasmtime_val_raw_t,
    _len: usize,
) -> *mut sys::wasm_trap_t {
    let context = sys::wasmtime_caller_context(caller);
    let guest = sys::wasmtime_context_get_data(context).cast::<Guest>();
    if guest.is_null() {
        let message = "the module called engine.host_call outside an instance of this crate";
        return sys::wasmtime_trap_new(message.as_ptr(), message.len());
    }
    // The linker declared (i32, i32) -> i64: two slots, the result in the first.
    let request_ptr = (*args_and_results).i32 as u32;
    let request_len = (*args_and_results.add(1)).i32 as u32;
    let memory = (*guest).memory;
    let alloc = (*guest).alloc;
    let size = sys::wasmtime_memory_data_size(context, &memory);
    if u64::from(request_ptr) + u64::from(request_len) > size as u64 {
        return host_call_failed(guest, "the module sent a host call outside its memory");
    }
    let base = sys::wasmtime_memory_data(context, &memory);
    let request =
        std::slice::from_raw_parts(base.add(request_ptr as usize), request_len as usize).to_vec();
    let functions = (*guest).functions;
    let reply = host::answer(&request, |name| {
        if functions.is_null() {
            None
        } else {
            (*functions).get(name).cloned()
        }
    });
    let Ok(reply_len) = i32::try_from(reply.len()) else {
        return host_call_failed(guest, "a host function's answer is larger than 2 GiB");
    };
    let mut alloc_args = [sys::wasmtime_val_raw_t { i64: 0 }];
    alloc_args[0].i32 = reply_len;
    let mut trap = std::ptr::null_mut();
    // Re-entrant: the guest is suspended inside engine_call, in this same store.
    let error =
        sys::wasmtime_func_call_unchecked(context, &alloc, alloc_args.as_mut_ptr(), 1, &mut trap);
    if !error.is_null() || !trap.is_null() {
        let failure = classify(trap, error);
        return host_call_failed(
            guest,
            &format!("engine_alloc failed inside a host call: {}", why(&failure)),
        );
    }
    let reply_ptr = alloc_args[0].i32 as u32;
    if reply_ptr == 0 && reply_len > 0 {
        return host_call_failed(
            guest,
            "the module couldn't allocate memory for a host function's response",
        );
    }
    let size = sys::wasmtime_memory_data_size(context, &memory);
    if u64::from(reply_ptr) + reply.len() as u64 > size as u64 {
        return host_call_failed(
            guest,
            "engine_alloc returned memory outside the module's memory",
        );
    }
    let base = sys::wasmtime_memory_data(context, &memory);
    std::ptr::copy_nonoverlapping(reply.as_ptr(), base.add(reply_ptr as usize), reply.len());
    (*args_and_results).i64 = ((u64::from(reply_ptr) << 32) | u64::from(reply_len as u32)) as i64;
    std::ptr::null_mut()
}

/// The error of a response with `ok: false`, or None when it is `ok: true`.
pub(crate) fn failure_of(response: &[u8]) -> Result<Option<Error>> {
    if response.starts_with(br#"{"ok":true"#) {
        return Ok(None);
    }
    #[derive(serde::Deserialize)]
    struct Envelope {
        ok: bool,
        #[serde(default)]
        error: Option<Body>,
        #[serde(default)]
        diagnostics: Vec<Diagnostic>,
    }
    #[derive(serde::Deserialize)]
    struct Body {
        #[serde(default)]
        message: String,
        #[serde(default)]
        help: String,
    }
    let envelope: Envelope = serde_json::from_slice(response).map_err(mismatch)?;
    if envelope.ok {
        return Ok(None);
    }
    let body = envelope.error.unwrap_or(Body {
        message: String::new(),
        help: String::new(),
    });
    let message = if body.message.is_empty() {
        "the module returned an error without a message".into()
    } else {
        body.message
    };
    Ok(Some(Error::Engine(EngineError {
        message,
        help: body.help,
        diagnostics: envelope.diagnostics,
    })))
}

pub(crate) fn mismatch(e: serde_json::Error) -> Error {
    Error::engine(
        format!("the module's response doesn't fit this crate's types: {e}"),
        MISMATCH_HELP,
    )
}

/// Decodes an `ok: true` response into `T`, or the op's failure.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(response: &[u8]) -> Result<T> {
    if let Some(error) = failure_of(response)? {
        return Err(error);
    }
    serde_json::from_slice(response).map_err(mismatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_keeps_the_head_and_the_tail_with_a_marker_between() {
        let mut out = Output::new();
        out.append(b"first line\n");
        assert_eq!(out.render(), "first line");
        out.append(&vec![b'x'; HEAD + TAIL]);
        out.append(b"\nlast line");
        let text = out.render();
        assert!(text.starts_with("first line\n"));
        assert!(text.contains("\n[...]\n"));
        assert!(text.ends_with("x\nlast line"));
        assert_eq!(text.len(), HEAD + 7 + TAIL);
    }

    #[test]
    fn a_failed_response_becomes_an_engine_error_with_its_diagnostics() {
        let response = br#"{"ok":false,"error":{"message":"m","help":"h"},"diagnostics":[{"severity":"error","message":"d"}]}"#;
        let Some(Error::Engine(e)) = failure_of(response).unwrap() else {
            panic!("not an engine error")
        };
        assert_eq!(
            (e.message.as_str(), e.help.as_str(), e.diagnostics.len()),
            ("m", "h", 1)
        );
    }

    #[test]
    fn a_failure_without_a_message_says_so() {
        let Some(Error::Engine(e)) = failure_of(br#"{"id":1,"ok":false}"#).unwrap() else {
            panic!()
        };
        assert_eq!(e.message, "the module returned an error without a message");
    }

    #[test]
    fn a_response_that_is_not_an_envelope_is_a_mismatch() {
        let error = failure_of(b"[1]").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the module's response doesn't fit this crate's types: "),
            "{error}"
        );
    }
}
