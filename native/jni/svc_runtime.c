/* The wasmtime-driving core shared by the bridge and the host; see svc_runtime.h. */
#include "svc_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVC_MAX_WASM_STACK ((int64_t)1 << 30)
#define SVC_MAX_POOLING_SLOTS 1000
#define SVC_MAX_POOLING_MEMORY ((int64_t)4 << 30)
#define SVC_PAGE_SIZE 65536u
#define SVC_WASM32_MAX_MEMORY ((uint64_t)4 << 30)

/* ---- engines ------------------------------------------------------------------------------ */

wasm_engine_t *svc_runtime_engine_new(const svc_engine_options *options, svc_engine_refusal *why,
                                      const char **problem) {
    /* wasm_engine_new_with_config aborts the process on a config wasmtime rejects, so every
     * value is checked here first. */
    if (options->max_wasm_stack < 0 || options->max_wasm_stack > SVC_MAX_WASM_STACK) {
        *why = SVC_ENGINE_BAD_OPTION;
        *problem = "maxWasmStack must be between 0 (wasmtime's default) and 1 GiB";
        return NULL;
    }
    if (options->pooling_slots < 0 || options->pooling_slots > SVC_MAX_POOLING_SLOTS) {
        *why = SVC_ENGINE_BAD_OPTION;
        *problem = "poolingSlots must be between 0 (no pooling) and 1000";
        return NULL;
    }
    if (options->pooling_max_memory < 0 || options->pooling_max_memory > SVC_MAX_POOLING_MEMORY) {
        *why = SVC_ENGINE_BAD_OPTION;
        *problem = "poolingMaxMemory must be between 0 (wasmtime's default) and 4 GiB";
        return NULL;
    }
    wasm_config_t *config = wasm_config_new();
    if (!config) {
        *why = SVC_ENGINE_NO_MEMORY;
        *problem = "no native memory for a wasmtime engine";
        return NULL;
    }
    wasmtime_config_epoch_interruption_set(config, options->epoch);
    wasmtime_config_consume_fuel_set(config, options->fuel);
    wasmtime_config_wasm_exceptions_set(config, options->exceptions);
    wasmtime_config_wasm_threads_set(config, false);
    if (options->max_wasm_stack > 0) wasmtime_config_max_wasm_stack_set(config, (size_t)options->max_wasm_stack);
    if (options->pooling_slots > 0) {
        wasmtime_pooling_allocation_config_t *pooling = wasmtime_pooling_allocation_config_new();
        if (!pooling) {
            wasm_config_delete(config);
            *why = SVC_ENGINE_NO_MEMORY;
            *problem = "no native memory for a pooling allocator config";
            return NULL;
        }
        uint32_t slots = (uint32_t)options->pooling_slots;
        wasmtime_pooling_allocation_config_total_core_instances_set(pooling, slots);
        wasmtime_pooling_allocation_config_total_memories_set(pooling, slots);
        wasmtime_pooling_allocation_config_total_tables_set(pooling, slots);
        if (options->pooling_max_memory > 0) {
            wasmtime_pooling_allocation_config_max_memory_size_set(pooling, (size_t)options->pooling_max_memory);
        }
        wasmtime_pooling_allocation_strategy_set(config, pooling);
        wasmtime_pooling_allocation_config_delete(pooling);
    }
    wasm_engine_t *engine = wasm_engine_new_with_config(config); /* consumes config */
    if (!engine) {
        *why = SVC_ENGINE_REFUSED;
        *problem = "wasmtime refused the engine configuration";
    }
    return engine;
}

/* ---- ABI export checks -------------------------------------------------------------------- */

typedef struct abi_func {
    const char *name;
    size_t param_count;
    wasm_valkind_t params[2];
    size_t result_count;
    wasm_valkind_t result;
    const char *signature; /* for the error message */
} abi_func;

enum { ABI_ALLOC, ABI_FREE, ABI_CALL, ABI_VERSION, ABI_INIT, ABI_FUNC_COUNT };

static const abi_func abi_funcs[ABI_FUNC_COUNT] = {
    [ABI_ALLOC] = {"engine_alloc", 1, {SVC_WASM_I32, 0}, 1, SVC_WASM_I32, "(i32) -> i32"},
    [ABI_FREE] = {"engine_free", 2, {SVC_WASM_I32, SVC_WASM_I32}, 0, 0, "(i32, i32) -> ()"},
    [ABI_CALL] = {"engine_call", 2, {SVC_WASM_I32, SVC_WASM_I32}, 1, SVC_WASM_I64, "(i32, i32) -> i64"},
    [ABI_VERSION] = {"engine_abi_version", 0, {0, 0}, 1, SVC_WASM_I32, "() -> i32"},
    [ABI_INIT] = {"_initialize", 0, {0, 0}, 0, 0, "() -> ()"},
};

static bool name_is(const wasm_name_t *name, const char *expected) {
    size_t len = strlen(expected);
    return name->size == len && memcmp(name->data, expected, len) == 0;
}

static bool func_matches(const wasm_externtype_t *type, const abi_func *want) {
    if (wasm_externtype_kind(type) != SVC_WASM_EXTERN_FUNC) return false;
    const wasm_functype_t *func = wasm_externtype_as_functype_const(type);
    const wasm_valtype_vec_t *params = wasm_functype_params(func);
    const wasm_valtype_vec_t *results = wasm_functype_results(func);
    if (params->size != want->param_count || results->size != want->result_count) return false;
    for (size_t i = 0; i < params->size; i++) {
        if (wasm_valtype_kind(params->data[i]) != want->params[i]) return false;
    }
    return results->size == 0 || wasm_valtype_kind(results->data[0]) == want->result;
}

/* Fills the has_* flags; a known name with the wrong type is a problem, because the core calls
 * these exports unchecked. */
static bool check_exports(const wasmtime_module_t *module, svc_pre *pre, char *problem) {
    bool *flags[ABI_FUNC_COUNT] = {&pre->has_alloc, &pre->has_free, &pre->has_call, &pre->has_abi,
                                   &pre->has_init};
    wasm_exporttype_vec_t exports = {0, NULL};
    wasmtime_module_exports(module, &exports);
    bool ok = true;
    for (size_t i = 0; i < exports.size && ok; i++) {
        const wasm_name_t *name = wasm_exporttype_name(exports.data[i]);
        const wasm_externtype_t *type = wasm_exporttype_type(exports.data[i]);
        if (name_is(name, "memory")) {
            const wasm_memorytype_t *memory = wasm_externtype_kind(type) == SVC_WASM_EXTERN_MEMORY
                                                  ? wasm_externtype_as_memorytype_const(type)
                                                  : NULL;
            if (!memory || wasmtime_memorytype_is64(memory)) {
                snprintf(problem, SVC_PROBLEM_MAX, "the module exports `memory`, but not as a 32-bit linear memory");
                ok = false;
            }
            pre->has_memory = true;
            continue;
        }
        for (int f = 0; f < ABI_FUNC_COUNT; f++) {
            if (!name_is(name, abi_funcs[f].name)) continue;
            if (!func_matches(type, &abi_funcs[f])) {
                snprintf(problem, SVC_PROBLEM_MAX, "the module exports `%s` with the wrong type; expected %s",
                         abi_funcs[f].name, abi_funcs[f].signature);
                ok = false;
            }
            *flags[f] = true;
        }
    }
    wasm_exporttype_vec_delete(&exports);
    return ok;
}

/* ---- instance-pres ------------------------------------------------------------------------ */

static wasmtime_error_t *define_host_call(wasmtime_linker_t *linker) {
    wasm_valtype_t *params[2] = {wasm_valtype_new(SVC_WASM_I32), wasm_valtype_new(SVC_WASM_I32)};
    wasm_valtype_t *results[1] = {wasm_valtype_new(SVC_WASM_I64)};
    wasm_valtype_vec_t param_vec, result_vec;
    wasm_valtype_vec_new(&param_vec, 2, params);
    wasm_valtype_vec_new(&result_vec, 1, results);
    wasm_functype_t *type = wasm_functype_new(&param_vec, &result_vec); /* consumes both */
    wasmtime_error_t *error = wasmtime_linker_define_func_unchecked(
        linker, "engine", 6, "host_call", 9, type, svc_runtime_host_call, NULL, NULL);
    wasm_functype_delete(type);
    return error;
}

static void error_problem(wasmtime_error_t *error, char *problem) {
    wasm_byte_vec_t text = {0, NULL};
    wasmtime_error_message(error, &text);
    wasmtime_error_delete(error);
    size_t len = text.size;
    while (len > 0 && text.data[len - 1] == '\0') len--;
    snprintf(problem, SVC_PROBLEM_MAX, "%.*s", (int)len, text.data ? (const char *)text.data : "");
    if (text.data) wasm_byte_vec_delete(&text);
}

bool svc_runtime_pre_init(svc_pre *pre, wasm_engine_t *engine, const svc_engine_options *options,
                          const wasmtime_module_t *module, char *problem) {
    memset(pre, 0, sizeof *pre);
    if (!check_exports(module, pre, problem)) return false;
    wasmtime_linker_t *linker = wasmtime_linker_new(engine);
    wasmtime_error_t *error = wasmtime_linker_define_wasi(linker);
    if (!error) error = define_host_call(linker);
    if (!error) error = wasmtime_linker_instantiate_pre(linker, module, &pre->pre);
    wasmtime_linker_delete(linker);
    if (error) {
        error_problem(error, problem);
        pre->pre = NULL;
        return false;
    }
    pre->engine = wasmtime_engine_clone(engine);
    pre->epoch = options->epoch;
    pre->fuel = options->fuel;
    pre->pooling_max_memory = options->pooling_slots > 0 ? (uint64_t)options->pooling_max_memory : 0;
    pre->max_wasm_stack =
        options->max_wasm_stack > 0 ? (size_t)options->max_wasm_stack : SVC_WASMTIME_DEFAULT_WASM_STACK;
    return true;
}

void svc_runtime_pre_destroy(svc_pre *pre) {
    /* Instances made from it keep their own references through their stores. */
    if (pre->pre) wasmtime_instance_pre_delete(pre->pre);
    if (pre->engine) wasm_engine_delete(pre->engine);
    pre->pre = NULL;
    pre->engine = NULL;
}

/* ---- guests ------------------------------------------------------------------------------- */

static bool export_func(svc_guest *guest, const char *name, wasmtime_func_t *out) {
    wasmtime_extern_t item;
    if (!wasmtime_instance_export_get(guest->context, &guest->instance, name, strlen(name), &item)) return false;
    if (item.kind != SVC_WASMTIME_EXTERN_FUNC) return false;
    *out = item.of.func;
    return true;
}

bool svc_runtime_guest_init(svc_guest *guest, const svc_pre *pre, int64_t max_memory_bytes, svc_failure *failure,
                            char *problem) {
    svc_buffer_init(&guest->out);
    svc_buffer_init(&guest->err);
    guest->host_failure = (svc_failure)SVC_FAILURE_INIT;
    guest->epoch = pre->epoch;
    guest->fuel = pre->fuel;
    guest->kept_request = 0;
    guest->kept_request_size = 0;
    guest->memory_limit = SVC_WASM32_MAX_MEMORY;
    if (max_memory_bytes >= 0 && (uint64_t)max_memory_bytes < guest->memory_limit) {
        guest->memory_limit = (uint64_t)max_memory_bytes;
    }
    if (pre->pooling_max_memory > 0 && pre->pooling_max_memory < guest->memory_limit) {
        guest->memory_limit = pre->pooling_max_memory;
    }
    guest->store = wasmtime_store_new(pre->engine, guest, NULL);
    guest->context = wasmtime_store_context(guest->store);
    if (max_memory_bytes >= 0) {
        /* A refused memory.grow returns -1 to the guest; it does not trap. */
        wasmtime_store_limiter(guest->store, max_memory_bytes, -1, -1, -1, -1);
    }
    wasi_config_t *wasi = wasi_config_new();
    wasi_config_set_stdout_custom(wasi, svc_buffer_wasi_write, &guest->out, NULL);
    wasi_config_set_stderr_custom(wasi, svc_buffer_wasi_write, &guest->err, NULL);
    wasmtime_error_t *error = wasmtime_context_set_wasi(guest->context, wasi); /* consumes wasi */
    if (error) {
        error_problem(error, problem);
        return false;
    }
    /* A start function (if any) runs during instantiation: give it no deadline and all fuel. */
    svc_runtime_prepare(guest, 0, -1);
    wasm_trap_t *trap = NULL;
    error = wasmtime_instance_pre_instantiate(pre->pre, guest->context, &guest->instance, &trap);
    if (error || trap) {
        if (trap || guest->host_failure.failed) {
            svc_failure_move(failure, &guest->host_failure);
            svc_failure_from_wasmtime(failure, trap, error);
        } else {
            error_problem(error, problem);
        }
        return false;
    }
    if (pre->has_memory) {
        wasmtime_extern_t item;
        guest->has_memory = wasmtime_instance_export_get(guest->context, &guest->instance, "memory", 6, &item) &&
                            item.kind == SVC_WASMTIME_EXTERN_MEMORY;
        if (guest->has_memory) guest->memory = item.of.memory;
    }
    guest->has_alloc = pre->has_alloc && export_func(guest, "engine_alloc", &guest->fn_alloc);
    guest->has_free = pre->has_free && export_func(guest, "engine_free", &guest->fn_free);
    guest->has_call = pre->has_call && export_func(guest, "engine_call", &guest->fn_call);
    guest->has_abi = pre->has_abi && export_func(guest, "engine_abi_version", &guest->fn_abi);
    guest->has_init = pre->has_init && export_func(guest, "_initialize", &guest->fn_init);
    return true;
}

void svc_runtime_guest_destroy(svc_guest *guest) {
    /* The store first: its WASI context writes into the buffers. */
    if (guest->store) wasmtime_store_delete(guest->store);
    guest->store = NULL;
    svc_failure_clear(&guest->host_failure);
}

void svc_runtime_prepare(svc_guest *guest, int64_t deadline_ticks, int64_t fuel) {
    /* The deadline is relative to the current epoch, so it is set on every entry. */
    wasmtime_context_set_epoch_deadline(guest->context, deadline_ticks > 0 ? (uint64_t)deadline_ticks : SVC_EPOCH_FOREVER);
    if (guest->fuel) {
        wasmtime_error_t *error = wasmtime_context_set_fuel(guest->context, fuel < 0 ? UINT64_MAX : (uint64_t)fuel);
        if (error) wasmtime_error_delete(error);
    }
    svc_failure_clear(&guest->host_failure);
}

bool svc_runtime_memory_at_limit(const svc_guest *guest) {
    if (!guest->has_memory) return false;
    return svc_runtime_memory_size(guest) + SVC_PAGE_SIZE > guest->memory_limit;
}

size_t svc_runtime_memory_size(const svc_guest *guest) {
    return guest->has_memory ? wasmtime_memory_data_size(guest->context, &guest->memory) : 0;
}

void svc_runtime_call_now(svc_guest_call *call) {
    call->error = wasmtime_func_call_unchecked(call->guest->context, call->func, call->args, call->count, &call->trap);
}

bool svc_runtime_invoke(svc_guest *guest, const wasmtime_func_t *func, wasmtime_val_raw_t *args, size_t count,
                        svc_failure *failure) {
    svc_guest_call call = {guest, func, args, count, NULL, NULL};
    if (guest->run) {
        guest->run(guest->run_data, &call);
    } else {
        svc_runtime_call_now(&call);
    }
    if (!call.error && !call.trap) return true;
    /* A failure the host-call path recorded explains the unwind better than its trap text. */
    if (guest->host_failure.failed) svc_failure_move(failure, &guest->host_failure);
    svc_failure_from_wasmtime(failure, call.trap, call.error);
    if ((failure->kind == SVC_KIND_OTHER || failure->kind == SVC_KIND_UNREACHABLE) &&
        svc_runtime_memory_at_limit(guest)) {
        /* Memory cannot grow any more: the guest's allocator gave up, whatever it trapped with. */
        failure->kind = SVC_KIND_MEMORY;
    }
    return false;
}

static uint8_t *memory_base(const svc_guest *guest) { return wasmtime_memory_data(guest->context, &guest->memory); }

static bool free_buffer(svc_guest *guest, uint32_t ptr, uint32_t len, svc_failure *failure) {
    wasmtime_val_raw_t args[2];
    args[0].i32 = (int32_t)ptr;
    args[1].i32 = (int32_t)len;
    return svc_runtime_invoke(guest, &guest->fn_free, args, 2, failure);
}

/* Where the request goes: the kept buffer when it fits, else a new buffer, which becomes the kept
 * one unless the request is too large to keep (*own: freed after the round trip). */
static svc_trip_status request_buffer(svc_guest *guest, size_t len, uint32_t *ptr, bool *own,
                                      svc_failure *failure) {
    *own = false;
    if (guest->kept_request != 0 && len <= guest->kept_request_size) {
        *ptr = guest->kept_request;
        return SVC_TRIP_OK;
    }
    bool keep = len <= SVC_KEPT_REQUEST_MAX;
    if (keep && guest->kept_request != 0) {
        /* Freed first, so the module's allocator can reuse its place for the larger one. */
        uint32_t old = guest->kept_request;
        guest->kept_request = 0;
        if (!free_buffer(guest, old, guest->kept_request_size, failure)) return SVC_TRIP_STOPPED;
    }
    wasmtime_val_raw_t args[1];
    args[0].i32 = (int32_t)len;
    if (!svc_runtime_invoke(guest, &guest->fn_alloc, args, 1, failure)) return SVC_TRIP_STOPPED;
    *ptr = (uint32_t)args[0].i32;
    /* The module is out of memory for this request; it still works (not a stop). */
    if (*ptr == 0 && len > 0) return SVC_TRIP_NO_MEMORY;
    if ((uint64_t)*ptr + len > svc_runtime_memory_size(guest)) {
        svc_failure_set(failure, SVC_KIND_BAD_RESPONSE, "engine_alloc returned memory outside the module's memory");
        return SVC_TRIP_STOPPED;
    }
    if (keep) {
        guest->kept_request = *ptr;
        guest->kept_request_size = (uint32_t)len;
    } else {
        *own = true;
    }
    return SVC_TRIP_OK;
}

svc_trip_status svc_runtime_round_trip(svc_guest *guest, const svc_round_trip_io *io, svc_failure *failure) {
    uint32_t request_ptr = 0;
    bool own = false;
    svc_trip_status status = request_buffer(guest, io->request_len, &request_ptr, &own, failure);
    if (status != SVC_TRIP_OK) return status;
    io->write_request(io->data, memory_base(guest) + request_ptr);

    wasmtime_val_raw_t args[2];
    args[0].i32 = (int32_t)request_ptr;
    args[1].i32 = (int32_t)io->request_len;
    if (!svc_runtime_invoke(guest, &guest->fn_call, args, 2, failure)) return SVC_TRIP_STOPPED;
    uint64_t packed = (uint64_t)args[0].i64;
    uint32_t response_ptr = (uint32_t)(packed >> 32);
    uint32_t response_len = (uint32_t)packed;

    /* Checked before the reader allocates anything, so a bogus length cannot ask for 4 GiB. */
    if ((uint64_t)response_ptr + (uint64_t)response_len > svc_runtime_memory_size(guest)) {
        svc_failure_set(failure, SVC_KIND_BAD_RESPONSE, "the module returned a response outside its memory");
        return SVC_TRIP_STOPPED;
    }
    if (response_len > (uint32_t)INT32_MAX - 8) {
        svc_failure_set(failure, SVC_KIND_BAD_RESPONSE,
                        "the module returned a response larger than a Java array can hold");
        return SVC_TRIP_STOPPED;
    }
    /* Free the buffers even when the reader could not take the response. */
    io->read_response(io->data, memory_base(guest) + response_ptr, response_len);
    if (!free_buffer(guest, response_ptr, response_len, failure)) return SVC_TRIP_STOPPED;
    if (own && !free_buffer(guest, request_ptr, (uint32_t)io->request_len, failure)) return SVC_TRIP_STOPPED;
    return SVC_TRIP_OK;
}

/* ---- engine.host_call --------------------------------------------------------------------- */

/* Records a failure (first cause wins) and hands wasmtime a trap that unwinds the guest. */
static wasm_trap_t *fail(svc_guest *guest, svc_trap_kind kind, const char *message) {
    svc_failure_set(&guest->host_failure, kind, message);
    const svc_failure *failure = &guest->host_failure;
    const char *text = failure->message ? failure->message : message;
    return wasmtime_trap_new(text, strlen(text));
}

wasm_trap_t *svc_runtime_host_call(void *data, wasmtime_caller_t *caller, wasmtime_val_raw_t *args_and_results,
                                   size_t count) {
    (void)data;
    (void)count; /* the linker declared (i32, i32) -> i64: two slots */
    wasmtime_context_t *context = wasmtime_caller_context(caller);
    svc_guest *guest = wasmtime_context_get_data(context);
    uint32_t request_ptr = (uint32_t)args_and_results[0].i32;
    uint32_t request_len = (uint32_t)args_and_results[1].i32;
    if (!guest->answer) {
        return fail(guest, SVC_KIND_HOST_EXCEPTION,
                    "the module called engine.host_call, but the instance has no host call handler");
    }
    if (!guest->has_memory || !guest->has_alloc) {
        return fail(guest, SVC_KIND_OTHER, "the module called engine.host_call without exporting memory and engine_alloc");
    }
    if ((uint64_t)request_ptr + request_len > wasmtime_memory_data_size(context, &guest->memory)) {
        return fail(guest, SVC_KIND_OTHER, "the module sent a host call outside its memory");
    }
    if (request_len > (uint32_t)INT32_MAX - 8) {
        return fail(guest, SVC_KIND_OTHER, "the module sent a host call larger than a Java array can hold");
    }
    size_t reply_len = 0;
    svc_failure answered = SVC_FAILURE_INIT;
    uint8_t *reply = guest->answer(guest->answer_data, wasmtime_memory_data(context, &guest->memory) + request_ptr,
                                   request_len, &reply_len, &answered);
    if (!reply) {
        if (!answered.failed) svc_failure_set(&answered, SVC_KIND_HOST_EXCEPTION, "the host call handler failed");
        svc_failure_move(&guest->host_failure, &answered);
        const char *text = guest->host_failure.message ? guest->host_failure.message : "the host call handler failed";
        return wasmtime_trap_new(text, strlen(text));
    }
    if (reply_len > (size_t)INT32_MAX - 8) {
        free(reply);
        return fail(guest, SVC_KIND_HOST_EXCEPTION, "the host call handler returned a reply larger than 2 GiB");
    }
    wasmtime_val_raw_t alloc_args[1];
    alloc_args[0].i32 = (int32_t)reply_len;
    wasm_trap_t *trap = NULL;
    /* Re-entrant: the guest is suspended inside engine_call, in this same store. */
    wasmtime_error_t *error = wasmtime_func_call_unchecked(context, &guest->fn_alloc, alloc_args, 1, &trap);
    if (error || trap) {
        free(reply);
        svc_failure_from_wasmtime(&guest->host_failure, trap, error);
        const char *text = guest->host_failure.message ? guest->host_failure.message
                                                       : "engine_alloc failed inside a host call";
        return wasmtime_trap_new(text, strlen(text));
    }
    uint32_t reply_ptr = (uint32_t)alloc_args[0].i32;
    if (reply_ptr == 0 && reply_len > 0) {
        free(reply);
        return fail(guest, SVC_KIND_MEMORY, "the module couldn't allocate memory for a host function's response");
    }
    /* The allocation may have grown (and moved) memory: read size and base again. */
    if ((uint64_t)reply_ptr + (uint64_t)reply_len > wasmtime_memory_data_size(context, &guest->memory)) {
        free(reply);
        return fail(guest, SVC_KIND_BAD_RESPONSE, "engine_alloc returned memory outside the module's memory");
    }
    if (reply_len) memcpy(wasmtime_memory_data(context, &guest->memory) + reply_ptr, reply, reply_len);
    free(reply);
    args_and_results[0].i64 = (int64_t)(((uint64_t)reply_ptr << 32) | (uint64_t)(uint32_t)reply_len);
    return NULL;
}
