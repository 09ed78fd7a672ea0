/*
 * The engine host's channel to the JVM (svc_host_channel.h, protocol in svc_host_protocol.h).
 * A call costs no system call while both sides spin: the JVM publishes the request, the host
 * finds it within nanoseconds, answers, and the JVM finds the answer. A side that waited longer
 * than its spin sleeps on its pipe, so an idle host takes no CPU.
 */
#define _GNU_SOURCE
#include "svc_host_channel.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "svc_host_protocol.h"

#define PROBE_EVERY 128
#define CPU_CHECK_EVERY 16 /* spin turns between looks at the CPUs */

static uint8_t *shared;
static int in_fd = -1;
static int out_fd = -1;
static long spin_max;      /* ns: the whole spin */
static long spin_now;      /* ns: the spin of the last wait */
static bool spun_in_vain;  /* the last wait's spin found no frame */
static uint64_t waits;
static uint64_t received; /* frames taken from the JVM */
static uint64_t sent;     /* frames published to the JVM */
static long taken_at;     /* ns: when the last frame from the JVM was taken */
static int cpu = -1;      /* the CPU this host last said it runs on */

static uint64_t *word64(size_t offset) { return (uint64_t *)(void *)(shared + offset); }
static uint32_t *word32(size_t offset) { return (uint32_t *)(void *)(shared + offset); }

/* The counters of SVC_HOST_SHM_HOST_COUNTERS, in their order there. */
enum counter { WAITS, SPIN_HITS, SLEEPS, SPIN_LOOPS, DOORBELLS, BUSY_NS, YIELDS };

/* Only this thread writes them: relaxed stores, which the JVM may read at any time. */
static void count(enum counter which, uint64_t n) {
    uint64_t *at = word64(SVC_HOST_SHM_HOST_COUNTERS + 8 * (size_t)which);
    __atomic_store_n(at, __atomic_load_n(at, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "svc-engine-host: %s\n", what);
    _exit(SVC_HOST_EXIT_PROTOCOL);
}

bool svc_host_channel_open(const char *path, int in, int out, long spin) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size != (off_t)SVC_HOST_SHM_BYTES) {
        close(fd);
        errno = EINVAL;
        return false;
    }
    void *map = mmap(NULL, SVC_HOST_SHM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return false;
    /* Both sides have it mapped now (the JVM maps it before it starts the host): the name can go,
     * so a JVM killed before this host is ready leaves no file in /dev/shm. */
    unlink(path);
    shared = map;
    in_fd = in;
    out_fd = out;
    spin_max = spin;
    spin_now = spin;
    taken_at = now_ns();
    return true;
}

/* ---- the pipes ---------------------------------------------------------------------------- */

static bool read_full(void *buffer, size_t len) {
    uint8_t *at = buffer;
    while (len > 0) {
        ssize_t n = read(in_fd, at, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += n;
        len -= (size_t)n;
    }
    return true;
}

static uint8_t read_byte(void) {
    uint8_t b;
    if (!read_full(&b, 1)) _exit(0);
    return b;
}

static void write_all(struct iovec *at, int count) {
    while (count > 0) {
        ssize_t n = writev(out_fd, at, count);
        if (n < 0 && errno == EINTR) continue;
        /* The JVM is gone: nobody waits for this frame. */
        if (n < 0) _exit(0);
        while (count > 0 && (size_t)n >= at->iov_len) {
            n -= (ssize_t)at->iov_len;
            at++;
            count--;
        }
        if (count > 0) {
            at->iov_base = (uint8_t *)at->iov_base + n;
            at->iov_len -= (size_t)n;
        }
    }
}

static uint8_t *payload_buffer(uint32_t len) {
    if (len > SVC_HOST_FRAME_MAX) die("a frame from the JVM is larger than the protocol allows");
    uint8_t *payload = malloc(len ? len : 1u);
    if (!payload) die("no native memory for a frame from the JVM");
    return payload;
}

/* The rest of a frame on the pipe whose type byte was read. */
static uint8_t *receive_on_pipe(uint8_t type, uint8_t *out_type, size_t *len) {
    uint8_t bytes[4];
    if (!read_full(bytes, sizeof bytes)) _exit(0);
    uint32_t n = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    uint8_t *payload = payload_buffer(n);
    if (!read_full(payload, n)) _exit(0);
    *out_type = type;
    *len = n;
    return payload;
}

/* ---- waiting ------------------------------------------------------------------------------ */

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static bool published(uint64_t frame) {
    return __atomic_load_n(word64(SVC_HOST_SHM_TO_HOST_SEQ), __ATOMIC_ACQUIRE) >= frame;
}

/* The spin of the next wait, adapted as the JVM's (HostChannel.spinBudget): a spin that found no
 * frame halves the next one, a spin that found it restores the whole spin, and every PROBE_EVERY-th
 * wait spins the whole spin again. So a host whose JVM sends the next request soon spins and is
 * never woken, and one that waits long between requests soon sleeps at once. */
static long spin_budget(void) {
    spin_now = spun_in_vain ? spin_now / 2 : spin_max;
    return ++waits % PROBE_EVERY == 0 ? spin_max : spin_now;
}

/* Says which CPU this thread runs on, when that changed (the JVM reads it as it spins). */
static void say_cpu(void) {
    int now = sched_getcpu();
    if (now != cpu) {
        cpu = now;
        __atomic_store_n(word32(SVC_HOST_SHM_HOST_CPU), (uint32_t)now, __ATOMIC_RELAXED);
    }
}

/* Whether the JVM's caller runs (or last ran) on this thread's CPU. */
static bool beside_jvm(void) {
    return cpu >= 0 && __atomic_load_n(word32(SVC_HOST_SHM_JVM_CPU), __ATOMIC_RELAXED) == (uint32_t)cpu;
}

/* Waits until the JVM published `frame`: true, or a frame came whole on the pipe first (its type
 * byte in *first; it was published as SVC_HOST_ON_PIPE).
 *
 * The spin yields the CPU while the JVM's caller is on the same one: there, spinning only keeps
 * the caller from running (the frame can't come before the spin ends), while a yield lets it run
 * at once, cheaper than sleeping and being woken. And both stay runnable, so the scheduler's load
 * balancing moves one of them to an idle CPU, where both spin. Without it, two CPUs were not
 * enough: once a wait slept, the wake-up put both threads on one CPU (the scheduler keeps a
 * waker and its wakee together), where each spin ran out in vain, the spins shrank to sleeping
 * at once, and the pair stayed there, one asleep whenever the other ran, so no balancing ever
 * separated them: most calls paid a wake-up on one side or both. */
static bool await(uint64_t frame, uint8_t *first) {
    say_cpu();
    long end = now_ns() + spin_budget();
    uint64_t loops = 0;
    uint64_t yields = 0;
    while (!published(frame)) {
        if (now_ns() >= end) break;
        /* From the first turn: a JVM that just published and started waiting is often right here. */
        if (loops++ % CPU_CHECK_EVERY == 0) {
            say_cpu();
            if (beside_jvm()) {
                sched_yield();
                yields++;
                continue;
            }
        }
        cpu_relax();
    }
    spun_in_vain = !published(frame);
    uint32_t *asleep = word32(SVC_HOST_SHM_HOST_ASLEEP);
    bool slept = false;
    bool in_region = true;
    for (;;) {
        if (published(frame)) break;
        __atomic_store_n(asleep, 1u, __ATOMIC_SEQ_CST);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if (published(frame)) {
            __atomic_store_n(asleep, 0u, __ATOMIC_SEQ_CST);
            break;
        }
        slept = true;
        uint8_t b = read_byte();
        __atomic_store_n(asleep, 0u, __ATOMIC_SEQ_CST);
        if (b != SVC_HOST_DOORBELL) {
            /* A frame on the pipe: it was published (SVC_HOST_ON_PIPE) before it was written. */
            *first = b;
            in_region = false;
            break;
        }
    }
    say_cpu();
    count(WAITS, 1);
    count(slept ? SLEEPS : SPIN_HITS, 1);
    count(SPIN_LOOPS, loops);
    count(YIELDS, yields);
    taken_at = now_ns();
    return in_region;
}

uint8_t *svc_host_channel_receive(uint8_t *type, size_t *len) {
    uint64_t frame = received + 1;
    uint8_t first;
    bool in_region = await(frame, &first);
    received = frame;
    if (!in_region) return receive_on_pipe(first, type, len);
    const uint8_t *region = shared + SVC_HOST_SHM_TO_HOST;
    uint32_t region_type = *word32(SVC_HOST_SHM_TO_HOST);
    uint32_t n = *word32(SVC_HOST_SHM_TO_HOST + 4);
    if (region_type == SVC_HOST_ON_PIPE) {
        do first = read_byte();
        while (first == SVC_HOST_DOORBELL);
        return receive_on_pipe(first, type, len);
    }
    if (region_type == SVC_HOST_DOORBELL || region_type > 255u || n > SVC_HOST_SHM_REGION - SVC_HOST_REGION_HEADER) {
        die("the JVM published a frame that breaks the protocol");
    }
    uint8_t *payload = payload_buffer(n);
    if (n) memcpy(payload, region + SVC_HOST_REGION_HEADER, n);
    *type = (uint8_t)region_type;
    *len = n;
    return payload;
}

/* ---- sending ------------------------------------------------------------------------------ */

static void publish(uint32_t type, uint32_t len) {
    count(BUSY_NS, (uint64_t)(now_ns() - taken_at));
    *word32(SVC_HOST_SHM_TO_JVM) = type;
    *word32(SVC_HOST_SHM_TO_JVM + 4) = len;
    __atomic_store_n(word64(SVC_HOST_SHM_TO_JVM_SEQ), ++sent, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void svc_host_channel_send(uint8_t type, const void *a, size_t a_len, const void *b, size_t b_len) {
    size_t len = a_len + b_len;
    if (len <= SVC_HOST_SHM_REGION - SVC_HOST_REGION_HEADER) {
        uint8_t *payload = shared + SVC_HOST_SHM_TO_JVM + SVC_HOST_REGION_HEADER;
        if (a_len) memcpy(payload, a, a_len);
        if (b_len) memcpy(payload + a_len, b, b_len);
        publish(type, (uint32_t)len);
        if (__atomic_load_n(word32(SVC_HOST_SHM_JVM_ASLEEP), __ATOMIC_SEQ_CST)) {
            uint8_t doorbell = SVC_HOST_DOORBELL;
            struct iovec ring = {&doorbell, 1};
            write_all(&ring, 1);
            count(DOORBELLS, 1);
        }
        return;
    }
    /* Published first, so a JVM spinning on the region turns to the pipe at once; the frame's
     * bytes wake a sleeping one, no doorbell needed. */
    publish(SVC_HOST_ON_PIPE, 0);
    uint8_t header[SVC_HOST_HEADER];
    header[0] = type;
    for (int i = 0; i < 4; i++) header[1 + i] = (uint8_t)((uint32_t)len >> (8 * i));
    struct iovec parts[3] = {{header, sizeof header}, {(void *)a, a_len}, {(void *)b, b_len}};
    write_all(parts, 3);
}
