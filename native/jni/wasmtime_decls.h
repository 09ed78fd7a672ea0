/*
 * The subset of the wasmtime 49.0.0 C API that the bridge calls, declared by us.
 *
 * Why our own declarations: the library comes out of the pinned wasmtime wheel, which ships
 * no headers, and upstream headers are not committed to this repository. Everything here is
 * pinned to 49.0.0; svc_jni.c runs a self-test at load (compile, instantiate, serialize and
 * look for the version string) so a library with another ABI fails with a clear message
 * instead of corrupting memory. Link with -z now so a missing symbol fails System.load.
 *
 * Ownership conventions follow the C API: "own" results must be deleted by the caller with
 * the matching *_delete function; borrowed pointers stay owned by their parent object.
 */
#ifndef SVC_WASMTIME_DECLS_H
#define SVC_WASMTIME_DECLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SVC_WASMTIME_VERSION "49.0.0"
#define SVC_WASMTIME_MAJOR "49"

/* ---- opaque objects ---------------------------------------------------------------------- */
typedef struct wasm_config_t wasm_config_t;
typedef struct wasm_engine_t wasm_engine_t;
typedef struct wasm_trap_t wasm_trap_t;
typedef struct wasm_valtype_t wasm_valtype_t;
typedef struct wasm_functype_t wasm_functype_t;
typedef struct wasm_externtype_t wasm_externtype_t;
typedef struct wasm_memorytype_t wasm_memorytype_t;
typedef struct wasm_importtype_t wasm_importtype_t;
typedef struct wasm_exporttype_t wasm_exporttype_t;
typedef struct wasmtime_error wasmtime_error_t;
typedef struct wasmtime_store wasmtime_store_t;
typedef struct wasmtime_context wasmtime_context_t;
typedef struct wasmtime_module wasmtime_module_t;
typedef struct wasmtime_linker wasmtime_linker_t;
typedef struct wasmtime_instance_pre wasmtime_instance_pre_t;
typedef struct wasmtime_caller wasmtime_caller_t;
typedef struct wasmtime_pooling_allocation_config_t wasmtime_pooling_allocation_config_t;
typedef struct wasi_config_t wasi_config_t;

/* ---- vectors (struct of size + data pointer) ---------------------------------------------- */
typedef struct wasm_byte_vec_t {
    size_t size;
    uint8_t *data;
} wasm_byte_vec_t;
typedef wasm_byte_vec_t wasm_name_t;

typedef struct wasm_valtype_vec_t {
    size_t size;
    wasm_valtype_t **data;
} wasm_valtype_vec_t;

typedef struct wasm_importtype_vec_t {
    size_t size;
    wasm_importtype_t **data;
} wasm_importtype_vec_t;

typedef struct wasm_exporttype_vec_t {
    size_t size;
    wasm_exporttype_t **data;
} wasm_exporttype_vec_t;

/* ---- small enums -------------------------------------------------------------------------- */
typedef uint8_t wasm_valkind_t;
#define SVC_WASM_I32 0
#define SVC_WASM_I64 1

typedef uint8_t wasm_externkind_t;
#define SVC_WASM_EXTERN_FUNC 0
#define SVC_WASM_EXTERN_GLOBAL 1
#define SVC_WASM_EXTERN_TABLE 2
#define SVC_WASM_EXTERN_MEMORY 3
#define SVC_WASM_EXTERN_TAG 4

typedef uint8_t wasmtime_extern_kind_t;
#define SVC_WASMTIME_EXTERN_FUNC 0
#define SVC_WASMTIME_EXTERN_MEMORY 3

/* Instruction trap codes as wasmtime 49 reports them (the Trap enum's discriminants). */
typedef uint8_t wasmtime_trap_code_t;
#define SVC_TRAP_STACK_OVERFLOW 0
#define SVC_TRAP_MEMORY_OUT_OF_BOUNDS 1
#define SVC_TRAP_HEAP_MISALIGNED 2
#define SVC_TRAP_UNREACHABLE 9
#define SVC_TRAP_INTERRUPT 10
#define SVC_TRAP_OUT_OF_FUEL 11

/* ---- by-value handles --------------------------------------------------------------------
 * Items of a store are small values: a store id plus private fields. The bridge never looks
 * inside them; it only copies what wasmtime wrote into a wasmtime_extern_t and passes pointers
 * back. wasmtime 49 writes 24-byte items (a memory is store id, instance id, memory index with
 * padding), so each item type is declared as that whole 24-byte slot: wasmtime reads only its
 * own fields of it. svc_jni.c's self-test checks the sizes against the library with canaries. */
typedef struct wasmtime_item_slot {
    uint64_t store_id;
    uint64_t private_[2];
} wasmtime_item_slot_t;

typedef wasmtime_item_slot_t wasmtime_func_t;
typedef wasmtime_item_slot_t wasmtime_memory_t;

typedef struct wasmtime_instance {
    uint64_t store_id;
    uint64_t private_;
} wasmtime_instance_t;

typedef union wasmtime_extern_union {
    wasmtime_func_t func;
    wasmtime_memory_t memory;
    wasmtime_item_slot_t other; /* global, table */
    void *sharedmemory;
} wasmtime_extern_union_t;

typedef struct wasmtime_extern {
    wasmtime_extern_kind_t kind;
    wasmtime_extern_union_t of;
} wasmtime_extern_t;

typedef union wasmtime_val_raw {
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    uint8_t v128[16];
    uint32_t anyref;
    uint32_t externref;
    void *funcref;
} wasmtime_val_raw_t;

_Static_assert(sizeof(wasmtime_instance_t) == 16, "wasmtime_instance_t is 16 bytes in wasmtime 49");
_Static_assert(sizeof(wasmtime_extern_t) == 32, "wasmtime_extern_t is 32 bytes in wasmtime 49");
_Static_assert(sizeof(wasmtime_val_raw_t) == 16, "wasmtime_val_raw_t is 16 bytes in wasmtime 49");

typedef wasm_trap_t *(*wasmtime_func_unchecked_callback_t)(void *env, wasmtime_caller_t *caller,
                                                          wasmtime_val_raw_t *args_and_results,
                                                          size_t num_args_and_results);

/* ---- byte vectors ------------------------------------------------------------------------- */
void wasm_byte_vec_delete(wasm_byte_vec_t *vec);

/* ---- config and engine -------------------------------------------------------------------- */
wasm_config_t *wasm_config_new(void);
void wasm_config_delete(wasm_config_t *config);
/* Takes ownership of config. Aborts the process on an invalid config: validate first. */
wasm_engine_t *wasm_engine_new_with_config(wasm_config_t *config);
void wasm_engine_delete(wasm_engine_t *engine);
/* Own: a second reference to the same engine, deleted with wasm_engine_delete. */
wasm_engine_t *wasmtime_engine_clone(wasm_engine_t *engine);
void wasmtime_engine_increment_epoch(wasm_engine_t *engine);

void wasmtime_config_epoch_interruption_set(wasm_config_t *config, bool enable);
void wasmtime_config_consume_fuel_set(wasm_config_t *config, bool enable);
void wasmtime_config_wasm_exceptions_set(wasm_config_t *config, bool enable);
void wasmtime_config_wasm_threads_set(wasm_config_t *config, bool enable);
void wasmtime_config_max_wasm_stack_set(wasm_config_t *config, size_t bytes);

wasmtime_pooling_allocation_config_t *wasmtime_pooling_allocation_config_new(void);
void wasmtime_pooling_allocation_config_delete(wasmtime_pooling_allocation_config_t *config);
void wasmtime_pooling_allocation_config_total_core_instances_set(
    wasmtime_pooling_allocation_config_t *config, uint32_t count);
void wasmtime_pooling_allocation_config_total_memories_set(
    wasmtime_pooling_allocation_config_t *config, uint32_t count);
void wasmtime_pooling_allocation_config_total_tables_set(
    wasmtime_pooling_allocation_config_t *config, uint32_t count);
void wasmtime_pooling_allocation_config_max_memory_size_set(
    wasmtime_pooling_allocation_config_t *config, size_t bytes);
/* Copies the pooling config; the caller still deletes its own. */
void wasmtime_pooling_allocation_strategy_set(wasm_config_t *config,
                                              const wasmtime_pooling_allocation_config_t *pooling);

/* ---- errors and traps --------------------------------------------------------------------- */
void wasmtime_error_delete(wasmtime_error_t *error);
/* Own: message, deleted with wasm_byte_vec_delete. */
void wasmtime_error_message(const wasmtime_error_t *error, wasm_name_t *message);
bool wasmtime_error_exit_status(const wasmtime_error_t *error, int *status);
void wasm_trap_delete(wasm_trap_t *trap);
/* Own: message (NUL-terminated), deleted with wasm_byte_vec_delete. */
void wasm_trap_message(const wasm_trap_t *trap, wasm_byte_vec_t *message);
bool wasmtime_trap_code(const wasm_trap_t *trap, wasmtime_trap_code_t *code);
/* Own: a trap carrying msg, handed back to wasmtime by returning it from a host callback. */
wasm_trap_t *wasmtime_trap_new(const char *msg, size_t msg_len);

/* ---- types -------------------------------------------------------------------------------- */
wasm_valtype_t *wasm_valtype_new(wasm_valkind_t kind);
wasm_valkind_t wasm_valtype_kind(const wasm_valtype_t *type);
void wasm_valtype_vec_new(wasm_valtype_vec_t *out, size_t size, wasm_valtype_t *const data[]);
/* Takes ownership of both vectors. */
wasm_functype_t *wasm_functype_new(wasm_valtype_vec_t *params, wasm_valtype_vec_t *results);
void wasm_functype_delete(wasm_functype_t *type);
const wasm_valtype_vec_t *wasm_functype_params(const wasm_functype_t *type);
const wasm_valtype_vec_t *wasm_functype_results(const wasm_functype_t *type);
wasm_externkind_t wasm_externtype_kind(const wasm_externtype_t *type);
const wasm_functype_t *wasm_externtype_as_functype_const(const wasm_externtype_t *type);
const wasm_memorytype_t *wasm_externtype_as_memorytype_const(const wasm_externtype_t *type);
bool wasmtime_memorytype_is64(const wasm_memorytype_t *type);

const wasm_name_t *wasm_importtype_module(const wasm_importtype_t *type);
const wasm_name_t *wasm_importtype_name(const wasm_importtype_t *type);
const wasm_externtype_t *wasm_importtype_type(const wasm_importtype_t *type);
void wasm_importtype_vec_delete(wasm_importtype_vec_t *vec);
const wasm_name_t *wasm_exporttype_name(const wasm_exporttype_t *type);
const wasm_externtype_t *wasm_exporttype_type(const wasm_exporttype_t *type);
void wasm_exporttype_vec_delete(wasm_exporttype_vec_t *vec);

/* ---- modules ------------------------------------------------------------------------------ */
wasmtime_error_t *wasmtime_module_new(wasm_engine_t *engine, const uint8_t *wasm, size_t len,
                                      wasmtime_module_t **out);
void wasmtime_module_delete(wasmtime_module_t *module);
/* Own: out, deleted with wasm_byte_vec_delete. */
wasmtime_error_t *wasmtime_module_serialize(wasmtime_module_t *module, wasm_byte_vec_t *out);
wasmtime_error_t *wasmtime_module_deserialize(wasm_engine_t *engine, const uint8_t *bytes,
                                              size_t len, wasmtime_module_t **out);
wasmtime_error_t *wasmtime_module_deserialize_file(wasm_engine_t *engine, const char *path,
                                                   wasmtime_module_t **out);
/* Own: out, deleted with wasm_importtype_vec_delete / wasm_exporttype_vec_delete. */
void wasmtime_module_imports(const wasmtime_module_t *module, wasm_importtype_vec_t *out);
void wasmtime_module_exports(const wasmtime_module_t *module, wasm_exporttype_vec_t *out);

/* ---- linker and instances ----------------------------------------------------------------- */
wasmtime_linker_t *wasmtime_linker_new(wasm_engine_t *engine);
void wasmtime_linker_delete(wasmtime_linker_t *linker);
wasmtime_error_t *wasmtime_linker_define_wasi(wasmtime_linker_t *linker);
wasmtime_error_t *wasmtime_linker_define_func_unchecked(
    wasmtime_linker_t *linker, const char *module, size_t module_len, const char *name,
    size_t name_len, const wasm_functype_t *type, wasmtime_func_unchecked_callback_t callback,
    void *data, void (*finalizer)(void *));
wasmtime_error_t *wasmtime_linker_instantiate_pre(const wasmtime_linker_t *linker,
                                                  const wasmtime_module_t *module,
                                                  wasmtime_instance_pre_t **out);
void wasmtime_instance_pre_delete(wasmtime_instance_pre_t *pre);
wasmtime_error_t *wasmtime_instance_pre_instantiate(const wasmtime_instance_pre_t *pre,
                                                    wasmtime_context_t *store,
                                                    wasmtime_instance_t *out, wasm_trap_t **trap);
bool wasmtime_instance_export_get(wasmtime_context_t *store, const wasmtime_instance_t *instance,
                                  const char *name, size_t name_len, wasmtime_extern_t *out);

/* ---- stores ------------------------------------------------------------------------------- */
wasmtime_store_t *wasmtime_store_new(wasm_engine_t *engine, void *data, void (*finalizer)(void *));
wasmtime_context_t *wasmtime_store_context(wasmtime_store_t *store);
void wasmtime_store_delete(wasmtime_store_t *store);
void wasmtime_store_limiter(wasmtime_store_t *store, int64_t memory_size, int64_t table_elements,
                            int64_t instances, int64_t tables, int64_t memories);
void *wasmtime_context_get_data(const wasmtime_context_t *context);
wasmtime_error_t *wasmtime_context_set_fuel(wasmtime_context_t *context, uint64_t fuel);
void wasmtime_context_set_epoch_deadline(wasmtime_context_t *context, uint64_t ticks_beyond_current);
/* Takes ownership of wasi, even on error. */
wasmtime_error_t *wasmtime_context_set_wasi(wasmtime_context_t *context, wasi_config_t *wasi);

/* ---- functions and memory ----------------------------------------------------------------- */
wasmtime_error_t *wasmtime_func_call_unchecked(wasmtime_context_t *store, const wasmtime_func_t *func,
                                               wasmtime_val_raw_t *args_and_results,
                                               size_t args_and_results_len, wasm_trap_t **trap);
wasmtime_context_t *wasmtime_caller_context(wasmtime_caller_t *caller);
bool wasmtime_caller_export_get(wasmtime_caller_t *caller, const char *name, size_t name_len,
                                wasmtime_extern_t *out);
uint8_t *wasmtime_memory_data(const wasmtime_context_t *store, const wasmtime_memory_t *memory);
size_t wasmtime_memory_data_size(const wasmtime_context_t *store, const wasmtime_memory_t *memory);

/* ---- WASI preview 1 ----------------------------------------------------------------------- */
wasi_config_t *wasi_config_new(void);
void wasi_config_delete(wasi_config_t *config);
typedef ptrdiff_t (*svc_wasi_output_fn)(void *data, const unsigned char *bytes, size_t len);
void wasi_config_set_stdout_custom(wasi_config_t *config, svc_wasi_output_fn callback, void *data,
                                   void (*finalizer)(void *));
void wasi_config_set_stderr_custom(wasi_config_t *config, svc_wasi_output_fn callback, void *data,
                                   void (*finalizer)(void *));

#endif /* SVC_WASMTIME_DECLS_H */
