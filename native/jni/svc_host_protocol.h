/*
 * The engine host's wire protocol, between a JVM (dev.svc.engine.internal.HostChannel, which
 * mirrors these numbers) and one svc-engine-host process, over the host's stdin (JVM -> host)
 * and stdout (host -> JVM).
 *
 * A frame is a 5-byte header, the type (u8) then the payload length (u32 little-endian), and
 * the payload. Integers in payloads are little-endian. The JVM sends one request and reads
 * frames until the answer; while a CALL runs, the host may send HOST_CALL frames, each answered
 * by one HOST_REPLY or HOST_FAILED before the call goes on. No frame is larger than
 * SVC_HOST_FRAME_MAX; a peer that sends one, or an unknown type, breaks the protocol and the host
 * exits with SVC_HOST_EXIT_PROTOCOL.
 */
#ifndef SVC_HOST_PROTOCOL_H
#define SVC_HOST_PROTOCOL_H

#define SVC_HOST_HEADER 5u
#define SVC_HOST_FRAME_MAX (((unsigned)1 << 31) - 64u)

/* JVM -> host */
#define SVC_HOST_INIT 1        /* i64 deadline ticks, i64 fuel: run _initialize */
#define SVC_HOST_ABI 2         /* i64 deadline ticks, i64 fuel: engine_abi_version -> DONE i32 */
#define SVC_HOST_CALL 3        /* i64 deadline ticks, i64 fuel, request: engine_call -> DONE response */
#define SVC_HOST_STDERR 4      /* -> DONE the guest's captured stderr (head + tail) */
#define SVC_HOST_MEMORY_SIZE 5 /* -> DONE i64 bytes of linear memory */
#define SVC_HOST_REPLY 6       /* the answer to a HOST_CALL */
#define SVC_HOST_REPLY_FAILED 7 /* the host function's handler failed; UTF-8 message */
#define SVC_HOST_CRASH 8       /* u8 how (SVC_HOST_CRASH_*): test-only, refused unless enabled */

/* host -> JVM */
#define SVC_HOST_READY 64     /* the instance exists (before _initialize) */
#define SVC_HOST_DONE 65      /* the answer; its payload depends on the request */
#define SVC_HOST_NO_MEMORY 66 /* engine_alloc returned 0 for the request; the instance works on */
#define SVC_HOST_TRAP 67      /* i32 kind (GuestTrap.Kind ordinal), i32 exit code, UTF-8 message; stopped */
#define SVC_HOST_PROBLEM 68   /* UTF-8 message: the request could not run (like WasmError) */
#define SVC_HOST_HOST_CALL 69 /* the module's host_call request bytes */

/* Test triggers, honoured only when the host runs with SVC_ENGINE_HOST_TEST_TRIGGERS=1. */
#define SVC_HOST_CRASH_SEGV 1   /* write through a null pointer */
#define SVC_HOST_CRASH_EXIT 2   /* exit(SVC_HOST_EXIT_TEST) */
#define SVC_HOST_CRASH_HANG 3   /* block in native code, where no epoch deadline reaches */
#define SVC_HOST_CRASH_MALLOC 4 /* allocate native memory until RLIMIT_AS refuses, then abort */

/* Exit codes of the host itself. */
#define SVC_HOST_EXIT_USAGE 64    /* bad command line */
#define SVC_HOST_EXIT_START 65    /* the module could not be loaded or instantiated (message on stderr) */
#define SVC_HOST_EXIT_PROTOCOL 66 /* the JVM broke the protocol */
#define SVC_HOST_EXIT_ORPHAN 67   /* the JVM was gone before the host could watch it */
#define SVC_HOST_EXIT_TEST 42     /* SVC_HOST_CRASH_EXIT */

#endif /* SVC_HOST_PROTOCOL_H */
