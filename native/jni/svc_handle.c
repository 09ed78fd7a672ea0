/* Handle table; see svc_handle.h for why it exists. */
#include "svc_handle.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SVC_CHUNK_BITS 10u
#define SVC_CHUNK_SIZE (1u << SVC_CHUNK_BITS)
#define SVC_MAX_CHUNKS 4096u /* 4 Mi live handles */

/* Tag layout: bits 0-5 type, bit 6 stopped, bit 7 busy, bits 8-39 generation. 0 = free slot. */
#define SVC_TAG_STOPPED ((uint64_t)1 << 6)
#define SVC_TAG_BUSY ((uint64_t)1 << 7)
#define SVC_TAG_FLAGS (SVC_TAG_STOPPED | SVC_TAG_BUSY)

struct svc_handle_slot {
    _Atomic uint64_t tag;
    /* Shared users in flight. Never reset: a stale acquirer's increment is always undone. */
    _Atomic uint32_t users;
    uint32_t generation; /* last generation handed out; guarded by table_lock */
    void *obj;
};

static _Atomic(svc_handle_slot *) chunks[SVC_MAX_CHUNKS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_unused_index;   /* guarded by table_lock */
static uint32_t *free_indexes;       /* guarded by table_lock */
static size_t free_count, free_capacity;

static svc_handle_slot *slot_at(uint32_t index) {
    uint32_t chunk = index >> SVC_CHUNK_BITS;
    if (chunk >= SVC_MAX_CHUNKS) return NULL;
    svc_handle_slot *slots = atomic_load_explicit(&chunks[chunk], memory_order_acquire);
    return slots ? &slots[index & (SVC_CHUNK_SIZE - 1)] : NULL;
}

static svc_handle_status locate(int64_t handle, svc_handle_type type, svc_handle_slot **slot,
                                uint64_t *expected) {
    if (handle == 0) return SVC_HANDLE_NULL;
    uint64_t bits = (uint64_t)handle;
    uint32_t index_plus_one = (uint32_t)bits;
    uint32_t generation = (uint32_t)(bits >> 32);
    if (index_plus_one == 0 || generation == 0) return SVC_HANDLE_STALE;
    svc_handle_slot *found = slot_at(index_plus_one - 1);
    if (!found) return SVC_HANDLE_STALE;
    *slot = found;
    *expected = ((uint64_t)generation << 8) | (uint64_t)type;
    return SVC_HANDLE_OK;
}

static bool tag_matches(uint64_t tag, uint64_t expected) {
    return tag != 0 && (tag & ~SVC_TAG_FLAGS) == expected;
}

svc_handle_status svc_handle_new(svc_handle_type type, void *obj, int64_t *out) {
    pthread_mutex_lock(&table_lock);
    uint32_t index;
    if (free_count > 0) {
        index = free_indexes[--free_count];
    } else {
        index = next_unused_index;
        uint32_t chunk = index >> SVC_CHUNK_BITS;
        if (chunk >= SVC_MAX_CHUNKS) {
            pthread_mutex_unlock(&table_lock);
            return SVC_HANDLE_FULL;
        }
        if (!atomic_load_explicit(&chunks[chunk], memory_order_relaxed)) {
            svc_handle_slot *slots = calloc(SVC_CHUNK_SIZE, sizeof *slots);
            if (!slots) {
                pthread_mutex_unlock(&table_lock);
                return SVC_HANDLE_FULL;
            }
            atomic_store_explicit(&chunks[chunk], slots, memory_order_release);
        }
        next_unused_index++;
    }
    svc_handle_slot *slot = slot_at(index);
    uint32_t generation = slot->generation + 1;
    if (generation == 0) generation = 1;
    slot->generation = generation;
    slot->obj = obj;
    atomic_store(&slot->tag, ((uint64_t)generation << 8) | (uint64_t)type);
    pthread_mutex_unlock(&table_lock);
    *out = (int64_t)(((uint64_t)generation << 32) | ((uint64_t)index + 1));
    return SVC_HANDLE_OK;
}

svc_handle_status svc_handle_acquire_shared(int64_t handle, svc_handle_type type, void **obj,
                                            svc_handle_slot **slot_out) {
    svc_handle_slot *slot;
    uint64_t expected;
    svc_handle_status status = locate(handle, type, &slot, &expected);
    if (status != SVC_HANDLE_OK) return status;
    /* INVARIANT: users is raised before the tag is read, and svc_handle_free clears the tag
     * before it reads users, so either we see the cleared tag or free sees our use. */
    atomic_fetch_add(&slot->users, 1);
    if (!tag_matches(atomic_load(&slot->tag), expected)) {
        atomic_fetch_sub(&slot->users, 1);
        return SVC_HANDLE_STALE;
    }
    *obj = slot->obj;
    *slot_out = slot;
    return SVC_HANDLE_OK;
}

void svc_handle_release_shared(svc_handle_slot *slot) { atomic_fetch_sub(&slot->users, 1); }

svc_handle_status svc_handle_acquire_exclusive(int64_t handle, svc_handle_type type, void **obj,
                                               svc_handle_slot **slot_out) {
    svc_handle_slot *slot;
    uint64_t expected;
    svc_handle_status status = locate(handle, type, &slot, &expected);
    if (status != SVC_HANDLE_OK) return status;
    uint64_t tag = atomic_load(&slot->tag);
    for (;;) {
        if (!tag_matches(tag, expected)) return SVC_HANDLE_STALE;
        if (tag & SVC_TAG_BUSY) return SVC_HANDLE_BUSY;
        if (atomic_compare_exchange_weak(&slot->tag, &tag, tag | SVC_TAG_BUSY)) break;
    }
    *obj = slot->obj;
    *slot_out = slot;
    return SVC_HANDLE_OK;
}

void svc_handle_release_exclusive(svc_handle_slot *slot) {
    atomic_fetch_and(&slot->tag, ~SVC_TAG_BUSY);
}

void svc_handle_mark_stopped(svc_handle_slot *slot) { atomic_fetch_or(&slot->tag, SVC_TAG_STOPPED); }

bool svc_handle_is_stopped(const svc_handle_slot *slot) {
    return (atomic_load(&((svc_handle_slot *)slot)->tag) & SVC_TAG_STOPPED) != 0;
}

svc_handle_status svc_handle_peek_stopped(int64_t handle, svc_handle_type type, bool *stopped) {
    svc_handle_slot *slot;
    uint64_t expected;
    svc_handle_status status = locate(handle, type, &slot, &expected);
    if (status != SVC_HANDLE_OK) return status;
    uint64_t tag = atomic_load(&slot->tag);
    if (!tag_matches(tag, expected)) return SVC_HANDLE_STALE;
    *stopped = (tag & SVC_TAG_STOPPED) != 0;
    return SVC_HANDLE_OK;
}

svc_handle_status svc_handle_free(int64_t handle, svc_handle_type type, void **obj) {
    svc_handle_slot *slot;
    uint64_t expected;
    svc_handle_status status = locate(handle, type, &slot, &expected);
    if (status != SVC_HANDLE_OK) return status;
    bool exclusive = type == SVC_HANDLE_INSTANCE;
    uint64_t tag = atomic_load(&slot->tag);
    for (;;) {
        if (!tag_matches(tag, expected)) return SVC_HANDLE_STALE;
        if (exclusive && (tag & SVC_TAG_BUSY)) return SVC_HANDLE_BUSY;
        if (atomic_compare_exchange_weak(&slot->tag, &tag, 0)) break;
    }
    /* The handle is dead for new users; wait for shared users already inside. */
    while (atomic_load(&slot->users) != 0) sched_yield();
    *obj = slot->obj;
    uint32_t index = (uint32_t)((uint64_t)handle) - 1;
    pthread_mutex_lock(&table_lock);
    slot->obj = NULL;
    if (free_count == free_capacity) {
        size_t capacity = free_capacity ? free_capacity * 2 : 256;
        uint32_t *grown = realloc(free_indexes, capacity * sizeof *grown);
        if (grown) {
            free_indexes = grown;
            free_capacity = capacity;
        }
    }
    /* If the free list cannot grow the slot is simply never reused. */
    if (free_count < free_capacity) free_indexes[free_count++] = index;
    pthread_mutex_unlock(&table_lock);
    return SVC_HANDLE_OK;
}
