/*
 * svc-engine-host: one engine instance in a process of its own, so a native crash, a runaway
 * call or native memory growth costs that process and never the JVM (issue #25).
 *
 *   svc-engine-host --module=FILE --channel=FILE --fuel=0|1 [--max-memory=BYTES]
 *                   [--native-headroom=BYTES] [--cpu-seconds=N] [--spin-micros=N] --parent=PID
 *
 * FILE is a module serialized by the JVM's EngineModule (same wasmtime, same configuration).
 * The host drives it with the same code as the JNI bridge (svc_runtime.c) and speaks the framed
 * protocol of svc_host_protocol.h through the shared memory file of --channel, with stdin/stdout
 * as its doorbells (svc_host_channel.c). It never outlives its JVM: the kernel sends
 * SIGKILL when the JVM thread that started it ends (PR_SET_PDEATHSIG; the JVM starts hosts from
 * one long-lived thread), and end of input (the JVM closed the pipe, or died) ends it too.
 * Limits: RLIMIT_AS = the address space after start (wasmtime's reservations included) plus a
 * headroom for native allocations; RLIMIT_CPU when asked; RLIMIT_FSIZE so stderr, which the JVM
 * keeps in a file, stays small. The JVM kills the process when a call outlives its hard deadline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "svc_host_channel.h"
#include "svc_host_protocol.h"
#include "svc_runtime.h"

#define TICK_NS 2000000L           /* one epoch tick: 2 ms, as the JVM's EpochTicker */
#define LINGER_NS 50000000L        /* ticking goes on this long after the last watched call */
#define STDERR_LIMIT ((rlim_t)1 << 20)
#define MAX_WASM_STACK ((int64_t)512 << 10) /* EngineModule.MAX_WASM_STACK: artifacts must match */
#define SPIN_MICROS_MAX 60000000             /* HostChannel.SPIN_MICROS_MAX */

static bool test_triggers;

/* ---- frames ------------------------------------------------------------------------------- */

static void die(int code, const char *what) {
    fprintf(stderr, "svc-engine-host: %s\n", what);
    _exit(code);
}

static void put_u32(uint8_t *at, uint32_t value) {
    for (int i = 0; i < 4; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static void put_u64(uint8_t *at, uint64_t value) {
    put_u32(at, (uint32_t)value);
    put_u32(at + 4, (uint32_t)(value >> 32));
}

static uint64_t get_u64(const uint8_t *at) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) value = (value << 8) | at[i];
    return value;
}

static void send_frame(uint8_t type, const void *payload, size_t len) {
    svc_host_channel_send(type, payload, len, NULL, 0);
}

static void send_text(uint8_t type, const char *text) { send_frame(type, text, strlen(text)); }

/* The answer to a guest entry: the guest's memory size (0 before it has any), then `body`. */
static void send_answer(uint8_t type, const svc_guest *guest, const void *body, size_t len) {
    uint8_t memory[8];
    put_u64(memory, guest ? (uint64_t)svc_runtime_memory_size(guest) : 0u);
    svc_host_channel_send(type, memory, sizeof memory, body, len);
}

static void send_failure(const svc_guest *guest, svc_failure *failure) {
    const char *fallback = "the module stopped without a message";
    size_t text_len = failure->message ? failure->message_len : strlen(fallback);
    uint8_t *body = malloc(8 + text_len);
    if (!body) die(SVC_HOST_EXIT_START, "no native memory for a trap's message");
    put_u32(body, (uint32_t)failure->kind);
    put_u32(body + 4, (uint32_t)failure->exit_code);
    memcpy(body + 8, failure->message ? failure->message : fallback, text_len);
    send_answer(SVC_HOST_TRAP, guest, body, 8 + text_len);
    free(body);
    svc_failure_clear(failure);
}

static uint8_t *receive(uint8_t *type, size_t *len) { return svc_host_channel_receive(type, len); }

/* ---- the epoch ticker --------------------------------------------------------------------- */

/* Advances the engine's epoch every 2 ms while a call with a deadline runs (and a short linger
 * after), and sleeps otherwise, so an idle host costs no wake-ups. */
static pthread_mutex_t ticker_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ticker_wake = PTHREAD_COND_INITIALIZER;
static int watching;
static struct timespec linger_until;

static void add_ns(struct timespec *t, long ns) {
    t->tv_nsec += ns;
    while (t->tv_nsec >= 1000000000L) {
        t->tv_nsec -= 1000000000L;
        t->tv_sec++;
    }
}

static bool before(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *tick(void *data) {
    wasm_engine_t *engine = data;
    struct timespec due;
    clock_gettime(CLOCK_MONOTONIC, &due);
    for (;;) {
        pthread_mutex_lock(&ticker_lock);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        bool parked = false;
        while (watching == 0 && !before(&now, &linger_until)) {
            parked = true;
            pthread_cond_wait(&ticker_wake, &ticker_lock);
            clock_gettime(CLOCK_MONOTONIC, &now);
        }
        pthread_mutex_unlock(&ticker_lock);
        /* An absolute schedule; after a park or when behind, start again from now. */
        add_ns(&due, TICK_NS);
        if (parked || before(&due, &now)) {
            due = now;
            add_ns(&due, TICK_NS);
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL) == EINTR) {
        }
        wasmtime_engine_increment_epoch(engine);
    }
    return NULL;
}

static void watch(bool on) {
    pthread_mutex_lock(&ticker_lock);
    if (on) {
        if (watching++ == 0) pthread_cond_signal(&ticker_wake);
    } else if (--watching == 0) {
        clock_gettime(CLOCK_MONOTONIC, &linger_until);
        add_ns(&linger_until, LINGER_NS);
    }
    pthread_mutex_unlock(&ticker_lock);
}

/* ---- host calls --------------------------------------------------------------------------- */

/* svc_host_answer: asks the JVM, which runs the policy's host function and answers. */
static uint8_t *answer(void *data, const uint8_t *request, size_t len, size_t *reply_len, svc_failure *failure) {
    (void)data;
    send_frame(SVC_HOST_HOST_CALL, request, len);
    uint8_t type;
    uint8_t *reply = receive(&type, reply_len);
    if (type == SVC_HOST_REPLY) return reply;
    if (type != SVC_HOST_REPLY_FAILED) die(SVC_HOST_EXIT_PROTOCOL, "the JVM answered a host call with another frame");
    char *text = malloc(*reply_len + 1);
    if (text) {
        memcpy(text, reply, *reply_len);
        text[*reply_len] = '\0';
    }
    svc_failure_set(failure, SVC_KIND_HOST_EXCEPTION, text ? text : "the host function failed");
    free(text);
    free(reply);
    return NULL;
}

/* ---- requests ----------------------------------------------------------------------------- */

typedef struct host {
    svc_guest guest;
    bool stopped;
} host;

/* A round trip's bytes: the request is the CALL frame's payload after its two integers; the
 * response is copied out and sent only once both buffers are freed, so a trap in a free reaches
 * the JVM as the call's answer and not after it. */
typedef struct frame_io {
    const uint8_t *request;
    size_t request_len;
    uint8_t *response; /* malloc'd */
    size_t response_len;
} frame_io;

static void write_frame_request(void *data, uint8_t *dst) {
    frame_io *io = data;
    if (io->request_len) memcpy(dst, io->request, io->request_len);
}

static bool copy_response(void *data, const uint8_t *src, size_t len) {
    frame_io *io = data;
    io->response = malloc(len ? len : 1u);
    if (!io->response) return false;
    if (len) memcpy(io->response, src, len);
    io->response_len = len;
    return true;
}

/* Sets deadline and fuel from a request's first 16 bytes and starts the ticker if there is a
 * deadline; false (PROBLEM sent) on a stopped instance. */
static bool enter(host *h, const uint8_t *payload, size_t len, int64_t *ticks) {
    if (len < 16) die(SVC_HOST_EXIT_PROTOCOL, "a call frame without its deadline and fuel");
    if (h->stopped) {
        send_text(SVC_HOST_PROBLEM, "the instance stopped earlier");
        return false;
    }
    *ticks = (int64_t)get_u64(payload);
    svc_runtime_prepare(&h->guest, *ticks, (int64_t)get_u64(payload + 8));
    if (*ticks > 0) watch(true);
    return true;
}

static void leave(int64_t ticks) {
    if (ticks > 0) watch(false);
}

static void stop(host *h, svc_failure *failure) {
    h->stopped = true;
    send_failure(&h->guest, failure);
}

static void call(host *h, const uint8_t *payload, size_t len) {
    int64_t ticks;
    if (!enter(h, payload, len, &ticks)) return;
    svc_guest *guest = &h->guest;
    if (!guest->has_memory || !guest->has_alloc || !guest->has_free || !guest->has_call) {
        leave(ticks);
        send_text(SVC_HOST_PROBLEM,
                  "the module doesn't export `memory`, `engine_alloc`, `engine_free` and `engine_call`");
        return;
    }
    frame_io data = {payload + 16, len - 16, NULL, 0};
    svc_round_trip_io io = {len - 16, write_frame_request, copy_response, &data};
    svc_failure failure = SVC_FAILURE_INIT;
    svc_trip_status status = svc_runtime_round_trip(guest, &io, &failure);
    leave(ticks);
    if (status == SVC_TRIP_STOPPED) {
        stop(h, &failure);
    } else if (status == SVC_TRIP_NO_MEMORY) {
        send_answer(SVC_HOST_NO_MEMORY, guest, NULL, 0);
    } else if (!data.response) {
        svc_failure_set(&failure, SVC_KIND_MEMORY, "the host has no native memory for the module's response");
        stop(h, &failure);
    } else {
        send_answer(SVC_HOST_DONE, guest, data.response, data.response_len);
    }
    free(data.response);
}

/* _initialize (when exported) or engine_abi_version. */
static void simple_entry(host *h, bool abi, const uint8_t *payload, size_t len) {
    int64_t ticks;
    if (!enter(h, payload, len, &ticks)) return;
    svc_guest *guest = &h->guest;
    if (abi && !guest->has_abi) {
        leave(ticks);
        send_text(SVC_HOST_PROBLEM, "the module doesn't export `engine_abi_version`");
        return;
    }
    wasmtime_val_raw_t args[1];
    svc_failure failure = SVC_FAILURE_INIT;
    bool ok = true;
    if (abi) {
        ok = svc_runtime_invoke(guest, &guest->fn_abi, args, 1, &failure);
    } else if (guest->has_init) {
        ok = svc_runtime_invoke(guest, &guest->fn_init, args, 0, &failure);
    }
    leave(ticks);
    if (!ok) {
        stop(h, &failure);
        return;
    }
    uint8_t version[4];
    put_u32(version, abi ? (uint32_t)args[0].i32 : 0u);
    send_answer(SVC_HOST_DONE, guest, version, abi ? sizeof version : 0);
}

static void crash(const uint8_t *payload, size_t len) {
    if (!test_triggers || len != 1) {
        send_text(SVC_HOST_PROBLEM, "this host has no test triggers (SVC_ENGINE_HOST_TEST_TRIGGERS=1)");
        return;
    }
    switch (payload[0]) {
    case SVC_HOST_CRASH_SEGV: {
        /* Volatile both ways: the compiler may neither drop the store nor turn it into a trap. */
        volatile int *volatile nowhere = NULL;
        *nowhere = 1;
        break;
    }
    case SVC_HOST_CRASH_EXIT:
        fprintf(stderr, "svc-engine-host: exiting on request (test trigger)\n");
        exit(SVC_HOST_EXIT_TEST);
    case SVC_HOST_CRASH_HANG:
        for (;;) pause();
    case SVC_HOST_CRASH_MALLOC:
        for (;;) {
            uint8_t *block = malloc((size_t)16 << 20);
            if (!block) {
                fprintf(stderr, "svc-engine-host: out of native memory (test trigger)\n");
                abort();
            }
            memset(block, 1, (size_t)16 << 20);
        }
    default:
        break;
    }
    send_text(SVC_HOST_PROBLEM, "unknown test trigger");
}

static void serve(host *h) {
    for (;;) {
        uint8_t type;
        size_t len;
        uint8_t *payload = receive(&type, &len);
        switch (type) {
        case SVC_HOST_INIT:
            simple_entry(h, false, payload, len);
            break;
        case SVC_HOST_ABI:
            simple_entry(h, true, payload, len);
            break;
        case SVC_HOST_CALL:
            call(h, payload, len);
            break;
        case SVC_HOST_STDERR: {
            uint8_t text[SVC_BUFFER_RENDER_MAX];
            send_frame(SVC_HOST_DONE, text, svc_buffer_render(&h->guest.err, text));
            break;
        }
        case SVC_HOST_CRASH:
            crash(payload, len);
            break;
        default:
            die(SVC_HOST_EXIT_PROTOCOL, "the JVM sent a frame this host doesn't know");
        }
        free(payload);
    }
}

/* ---- start -------------------------------------------------------------------------------- */

typedef struct options {
    const char *module;
    int fuel;
    int64_t max_memory;      /* -1: none of our own */
    int64_t native_headroom; /* bytes of address space for native allocations after start */
    int64_t cpu_seconds;     /* 0: no CPU limit */
    long parent;
    const char *channel;     /* the shared memory file */
    int64_t spin_micros;     /* how long to spin for a frame before sleeping on the pipe */
} options;

static bool option(const char *arg, const char *name, const char **value) {
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
    *value = arg + n + 1;
    return true;
}

static int64_t number(const char *text, const char *name) {
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno || end == text || *end) {
        fprintf(stderr, "svc-engine-host: %s must be a whole number, not `%s`\n", name, text);
        _exit(SVC_HOST_EXIT_USAGE);
    }
    return value;
}

static options parse(int argc, char **argv) {
    options o = {NULL, -1, -1, (int64_t)256 << 20, 0, 0, NULL, 0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (option(argv[i], "--module", &v)) o.module = v;
        else if (option(argv[i], "--fuel", &v)) o.fuel = (int)number(v, "--fuel");
        else if (option(argv[i], "--max-memory", &v)) o.max_memory = number(v, "--max-memory");
        else if (option(argv[i], "--native-headroom", &v)) o.native_headroom = number(v, "--native-headroom");
        else if (option(argv[i], "--cpu-seconds", &v)) o.cpu_seconds = number(v, "--cpu-seconds");
        else if (option(argv[i], "--parent", &v)) o.parent = (long)number(v, "--parent");
        else if (option(argv[i], "--channel", &v)) o.channel = v;
        else if (option(argv[i], "--spin-micros", &v)) o.spin_micros = number(v, "--spin-micros");
        else {
            fprintf(stderr, "svc-engine-host: unknown argument `%s`\n", argv[i]);
            _exit(SVC_HOST_EXIT_USAGE);
        }
    }
    if (!o.module || !o.channel || (o.fuel != 0 && o.fuel != 1) || o.parent <= 1 || o.native_headroom < 0 ||
        o.cpu_seconds < 0 || o.spin_micros < 0 || o.spin_micros > SPIN_MICROS_MAX) {
        die(SVC_HOST_EXIT_USAGE,
            "usage: svc-engine-host --module=FILE --channel=FILE --fuel=0|1 [--max-memory=BYTES]"
            " [--native-headroom=BYTES] [--cpu-seconds=N] [--spin-micros=N] --parent=PID"
            " (it is started by the JVM's engine-jni, not by hand)");
    }
    return o;
}

/* Dies with the JVM: SIGKILL when the parent goes, and a parent already gone is noticed here. */
static void follow_parent(long parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) die(SVC_HOST_EXIT_START, "prctl(PR_SET_PDEATHSIG) failed");
    if ((long)getppid() != parent) _exit(SVC_HOST_EXIT_ORPHAN);
}

/* The channel is the shared memory file with fds 0 and 1 as its pipes; fd 1 then points at
 * stderr, so stray writes to stdout (from any library) can't corrupt a frame. Nothing can be
 * sent before this, so a failure is said on stderr only. */
static void take_channel(const options *o) {
    int out_fd = dup(1);
    if (out_fd < 0 || dup2(2, 1) < 0) die(SVC_HOST_EXIT_START, "the pipes to the JVM could not be set up");
    if (!svc_host_channel_open(o->channel, 0, out_fd, (long)(o->spin_micros * 1000))) {
        fprintf(stderr, "svc-engine-host: the channel file %s could not be mapped: %s\n", o->channel, strerror(errno));
        _exit(SVC_HOST_EXIT_START);
    }
}

/* Bytes of address space the process maps now (VmSize). */
static uint64_t address_space(void) {
    FILE *statm = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (statm) {
        if (fscanf(statm, "%llu", &pages) != 1) pages = 0;
        fclose(statm);
    }
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void limit(int resource, rlim_t value, const char *what) {
    struct rlimit l = {value, value};
    if (setrlimit(resource, &l) != 0) {
        fprintf(stderr, "svc-engine-host: %s could not be set: %s\n", what, strerror(errno));
        _exit(SVC_HOST_EXIT_START);
    }
}

static void start_failed(const char *problem) {
    send_text(SVC_HOST_PROBLEM, problem);
    _exit(SVC_HOST_EXIT_START);
}

int main(int argc, char **argv) {
    options o = parse(argc, argv);
    follow_parent(o.parent);
    take_channel(&o);
    signal(SIGPIPE, SIG_IGN);
    const char *triggers = getenv("SVC_ENGINE_HOST_TEST_TRIGGERS");
    test_triggers = triggers && strcmp(triggers, "1") == 0;
    limit(RLIMIT_FSIZE, STDERR_LIMIT, "RLIMIT_FSIZE");
    if (o.cpu_seconds > 0) limit(RLIMIT_CPU, (rlim_t)o.cpu_seconds, "RLIMIT_CPU");

    svc_engine_options engine_options = {true, o.fuel == 1, true, MAX_WASM_STACK, 0, 0};
    svc_engine_refusal why;
    const char *refused;
    wasm_engine_t *engine = svc_runtime_engine_new(&engine_options, &why, &refused);
    if (!engine) start_failed(refused);
    wasmtime_module_t *module = NULL;
    wasmtime_error_t *error = wasmtime_module_deserialize_file(engine, o.module, &module);
    char problem[SVC_PROBLEM_MAX];
    if (error) {
        wasm_byte_vec_t text = {0, NULL};
        wasmtime_error_message(error, &text);
        wasmtime_error_delete(error);
        snprintf(problem, sizeof problem, "the host could not load the module %s: %.*s", o.module,
                 (int)text.size, text.data ? (const char *)text.data : "");
        start_failed(problem);
    }
    svc_pre pre;
    if (!svc_runtime_pre_init(&pre, engine, &engine_options, module, problem)) start_failed(problem);
    static host h;
    h.guest.answer = answer;
    svc_failure failure = SVC_FAILURE_INIT;
    if (!svc_runtime_guest_init(&h.guest, &pre, o.max_memory, &failure, problem)) {
        if (failure.failed) {
            send_failure(NULL, &failure);
            _exit(SVC_HOST_EXIT_START);
        }
        start_failed(problem);
    }
    pthread_t ticker;
    if (pthread_create(&ticker, NULL, tick, engine) != 0) start_failed("the host could not start its epoch ticker");
    /* Linear memory lives inside wasmtime's reservation, already counted here; the headroom
     * bounds what native code may add. */
    limit(RLIMIT_AS, (rlim_t)(address_space() + (uint64_t)o.native_headroom), "RLIMIT_AS");
    send_answer(SVC_HOST_READY, &h.guest, NULL, 0);
    serve(&h);
}
