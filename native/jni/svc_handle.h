/*
 * Handles: the `long` values Java holds for engines, modules, instance-pres and instances.
 *
 * Why not raw pointers: a null, stale (freed) or wrong-type handle must produce a Java
 * exception, never a crash. A handle is (generation << 32) | (slot index + 1) into a table
 * whose slots are never deallocated, so looking up a stale handle only ever reads a live slot
 * and sees a generation mismatch.
 *
 * Engines, modules and pres are shared (any number of threads may use them at once; freeing
 * waits for users to finish). Instances are exclusive: one operation at a time, a second
 * concurrent or nested use fails as busy. An instance's "stopped" latch lives in its slot so
 * isStopped never touches the object.
 */
#ifndef SVC_HANDLE_H
#define SVC_HANDLE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum svc_handle_type {
    SVC_HANDLE_ENGINE = 1,
    SVC_HANDLE_MODULE = 2,
    SVC_HANDLE_PRE = 3,
    SVC_HANDLE_INSTANCE = 4,
} svc_handle_type;

typedef enum svc_handle_status {
    SVC_HANDLE_OK = 0,
    SVC_HANDLE_NULL = 1,  /* handle 0 */
    SVC_HANDLE_STALE = 2, /* freed, or never a handle of this type */
    SVC_HANDLE_BUSY = 3,  /* instance already in use by another (or an enclosing) call */
    SVC_HANDLE_FULL = 4,  /* table exhausted or out of memory */
} svc_handle_status;

typedef struct svc_handle_slot svc_handle_slot;

/* Registers obj (ownership stays with the caller until svc_handle_free returns it). */
svc_handle_status svc_handle_new(svc_handle_type type, void *obj, int64_t *out);

/* Shared use: on success *obj is valid until svc_handle_release_shared(slot). */
svc_handle_status svc_handle_acquire_shared(int64_t handle, svc_handle_type type, void **obj,
                                            svc_handle_slot **slot);
void svc_handle_release_shared(svc_handle_slot *slot);

/* Exclusive use (instances): on success *obj is valid until svc_handle_release_exclusive(slot). */
svc_handle_status svc_handle_acquire_exclusive(int64_t handle, svc_handle_type type, void **obj,
                                               svc_handle_slot **slot);
void svc_handle_release_exclusive(svc_handle_slot *slot);

/* Latches the stopped bit of a slot the caller holds exclusively. */
void svc_handle_mark_stopped(svc_handle_slot *slot);
bool svc_handle_is_stopped(const svc_handle_slot *slot);

/* Reads the stopped bit without acquiring; SVC_HANDLE_OK and *stopped set on success. */
svc_handle_status svc_handle_peek_stopped(int64_t handle, svc_handle_type type, bool *stopped);

/*
 * Unregisters a handle and returns its object, which the caller then destroys. Shared types
 * wait until current users have released; an exclusive type in use fails with BUSY.
 */
svc_handle_status svc_handle_free(int64_t handle, svc_handle_type type, void **obj);

#endif /* SVC_HANDLE_H */
