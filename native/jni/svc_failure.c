/* Failure classification; see svc_failure.h. */
#include "svc_failure.h"

#include <stdlib.h>
#include <string.h>

static void take_message(svc_failure *failure, const uint8_t *bytes, size_t len) {
    /* wasm_trap_message includes a trailing NUL; error messages do not. */
    while (len > 0 && bytes[len - 1] == '\0') len--;
    failure->message = malloc(len + 1);
    if (failure->message) {
        memcpy(failure->message, bytes, len);
        failure->message[len] = '\0';
        failure->message_len = len;
    }
}

void svc_failure_set(svc_failure *failure, svc_trap_kind kind, const char *message) {
    if (failure->failed) return;
    failure->failed = true;
    failure->kind = kind;
    failure->exit_code = 0;
    take_message(failure, (const uint8_t *)message, strlen(message));
}

void svc_failure_move(svc_failure *dst, svc_failure *src) {
    *dst = *src;
    src->failed = false;
    src->message = NULL;
    src->message_len = 0;
    src->java_pending = false;
}

void svc_failure_clear(svc_failure *failure) {
    free(failure->message);
    *failure = (svc_failure)SVC_FAILURE_INIT;
}

static svc_trap_kind kind_of_trap_code(wasmtime_trap_code_t code) {
    switch (code) {
    case SVC_TRAP_STACK_OVERFLOW: return SVC_KIND_STACK_OVERFLOW;
    case SVC_TRAP_MEMORY_OUT_OF_BOUNDS:
    case SVC_TRAP_HEAP_MISALIGNED: return SVC_KIND_MEMORY;
    case SVC_TRAP_UNREACHABLE: return SVC_KIND_UNREACHABLE;
    case SVC_TRAP_INTERRUPT: return SVC_KIND_INTERRUPT;
    case SVC_TRAP_OUT_OF_FUEL: return SVC_KIND_OUT_OF_FUEL;
    default: return SVC_KIND_OTHER;
    }
}

void svc_failure_from_wasmtime(svc_failure *failure, wasm_trap_t *trap, wasmtime_error_t *error) {
    if (failure->failed) {
        /* The first cause wins (e.g. a host-call failure recorded before wasmtime unwound). */
        if (trap) wasm_trap_delete(trap);
        if (error) wasmtime_error_delete(error);
        return;
    }
    failure->failed = true;
    failure->kind = SVC_KIND_OTHER;
    failure->exit_code = 0;
    wasm_byte_vec_t text = {0, NULL};
    if (error) {
        int status;
        if (wasmtime_error_exit_status(error, &status)) {
            failure->kind = SVC_KIND_EXIT;
            failure->exit_code = status;
        }
        wasmtime_error_message(error, &text);
        wasmtime_error_delete(error);
    }
    if (trap) {
        wasmtime_trap_code_t code;
        if (wasmtime_trap_code(trap, &code)) failure->kind = kind_of_trap_code(code);
        if (text.data) wasm_byte_vec_delete(&text);
        wasm_trap_message(trap, &text);
        wasm_trap_delete(trap);
    }
    if (text.data) {
        take_message(failure, text.data, text.size);
        wasm_byte_vec_delete(&text);
    }
}

