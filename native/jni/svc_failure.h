/*
 * What went wrong in a guest entry, as data: a kind, an exit code and wasmtime's text. The JNI
 * bridge turns it into a GuestTrap (svc_errors.c); the engine host sends it over its channel
 * (svc_host.c). Kind numbers are the ordinals of dev.svc.engine.internal.GuestTrap.Kind.
 * No JNI here: both the bridge and the host link it.
 */
#ifndef SVC_FAILURE_H
#define SVC_FAILURE_H

#include <stdbool.h>
#include <stddef.h>

#include "wasmtime_decls.h"

typedef enum svc_trap_kind {
    SVC_KIND_OTHER = 0,
    SVC_KIND_INTERRUPT = 1,
    SVC_KIND_OUT_OF_FUEL = 2,
    SVC_KIND_MEMORY = 3,
    SVC_KIND_EXIT = 4,
    SVC_KIND_STACK_OVERFLOW = 5,
    SVC_KIND_UNREACHABLE = 6,
    SVC_KIND_HOST_EXCEPTION = 7,
    SVC_KIND_BAD_RESPONSE = 8,
} svc_trap_kind;

typedef struct svc_failure {
    bool failed;
    svc_trap_kind kind;
    int exit_code;        /* meaningful for SVC_KIND_EXIT */
    char *message;        /* malloc'd UTF-8, owned by the failure; may be NULL */
    size_t message_len;
    bool java_pending;    /* a Java exception is already pending: throw nothing else */
} svc_failure;

#define SVC_FAILURE_INIT {false, SVC_KIND_OTHER, 0, NULL, 0, false}

/* Classifies and consumes trap and/or error (either may be NULL). */
void svc_failure_from_wasmtime(svc_failure *failure, wasm_trap_t *trap, wasmtime_error_t *error);
/* Records kind with a copy of message (replacing nothing if a failure is already recorded). */
void svc_failure_set(svc_failure *failure, svc_trap_kind kind, const char *message);
/* Moves src into dst (dst must be empty); src is left empty. */
void svc_failure_move(svc_failure *dst, svc_failure *src);
void svc_failure_clear(svc_failure *failure);

#endif /* SVC_FAILURE_H */
