/*
 * The engine host's wire protocol, between a JVM (dev.svc.engine.internal.HostChannel, which
 * mirrors these numbers) and one svc-engine-host process, over the host's stdin (JVM -> host)
 * and stdout (host -> JVM).
 *
 * A frame is a type (u8), a payload length (u32) and the payload. Integers in payloads are
 * little-endian. The JVM sends one request and reads frames until the answer; while a CALL runs,
 * the host may send HOST_CALL frames, each answered by one HOST_REPLY or HOST_FAILED before the
 * call goes on. So frames strictly alternate between the two sides. No frame is larger than
 * SVC_HOST_FRAME_MAX; a peer that sends one, or an unknown type, breaks the protocol and the host
 * exits with SVC_HOST_EXIT_PROTOCOL.
 *
 * Frames travel through a shared memory file (--channel=FILE, SVC_HOST_SHM_BYTES long, mapped by
 * both sides), one region per direction, each with a sequence word that counts the frames
 * published into it. A region holds a u32 type and a u32 length (native byte order) and then the
 * payload. The sender writes the frame, then stores the sequence word with release order. The
 * receiver spins on the sequence word for --spin-micros, then sleeps on the pipe (the host's
 * stdin for the host, its stdout for the JVM), which serves as a doorbell:
 *
 *   receiver: asleep = 1; full fence; if the sequence moved: asleep = 0, take the frame;
 *             else block reading one byte of the pipe, asleep = 0, check again
 *   sender:   publish the frame and the sequence; full fence; if the peer's asleep word is 1,
 *             write one SVC_HOST_DOORBELL byte to the pipe
 *
 * A stale doorbell (the receiver found the frame before it blocked) only costs one extra check.
 * Each side also says which CPU it runs on when it starts and ends a wait (and as it spins); a
 * spinner that finds the other side on its own CPU yields the CPU to it instead of spinning
 * (svc_host_channel.c says why).
 * End of the pipe (the peer died or let go) ends the wait. A frame larger than a region is
 * published as SVC_HOST_ON_PIPE and then written whole on the pipe (5-byte header: type, u32
 * little-endian length; then the payload), where the receiver skips doorbell bytes to find it.
 */
#ifndef SVC_HOST_PROTOCOL_H
#define SVC_HOST_PROTOCOL_H

#define SVC_HOST_HEADER 5u
#define SVC_HOST_FRAME_MAX (((unsigned)1 << 31) - 64u)

/* The shared memory file: byte offsets of the words and regions, and their sizes. */
#define SVC_HOST_SHM_TO_HOST_SEQ 0     /* u64: frames the JVM published */
#define SVC_HOST_SHM_HOST_ASLEEP 64    /* u32: 1 while the host blocks on its pipe */
#define SVC_HOST_SHM_HOST_CPU 68       /* u32: the CPU the host waits or works on (sched_getcpu) */
#define SVC_HOST_SHM_TO_JVM_SEQ 128    /* u64: frames the host published */
#define SVC_HOST_SHM_JVM_ASLEEP 192    /* u32: 1 while the JVM blocks on its pipe */
#define SVC_HOST_SHM_JVM_CPU 196       /* u32: the CPU the JVM's caller waits or works on */
#define SVC_HOST_SHM_TO_HOST 256       /* the JVM's region */
#define SVC_HOST_SHM_REGION 65536u     /* bytes of one region, its 8-byte header included */
#define SVC_HOST_SHM_TO_JVM (SVC_HOST_SHM_TO_HOST + SVC_HOST_SHM_REGION)
/* u64 counters of the host's waits, written only by the host, read by the JVM on demand (tests,
 * benchmarks): waits, frames found while spinning, frames found after sleeping on the pipe, spin
 * iterations, doorbells rung, nanoseconds from taking a frame to sending the next (the host's
 * work), yields of the spin to a JVM on the same CPU. A line of its own, so writing them never disturbs a hot word. */
#define SVC_HOST_SHM_HOST_COUNTERS (SVC_HOST_SHM_TO_JVM + SVC_HOST_SHM_REGION)
#define SVC_HOST_SHM_BYTES (SVC_HOST_SHM_HOST_COUNTERS + 64)
#define SVC_HOST_REGION_HEADER 8u

#define SVC_HOST_DOORBELL 0 /* a pipe byte that only wakes the peer */
#define SVC_HOST_ON_PIPE 255 /* a region's type: the frame follows on the pipe */

/* JVM -> host */
/* The answers to INIT, ABI and CALL (DONE, NO_MEMORY, TRAP) start with an i64: the size of the
 * guest's linear memory after the entry, so the JVM knows it without asking. */
#define SVC_HOST_INIT 1        /* i64 deadline ticks, i64 fuel: run _initialize -> DONE i64 memory */
#define SVC_HOST_ABI 2         /* i64 deadline ticks, i64 fuel: engine_abi_version -> DONE i64 memory, i32 */
#define SVC_HOST_CALL 3        /* i64 deadline ticks, i64 fuel, request: engine_call -> DONE i64 memory, response */
#define SVC_HOST_STDERR 4      /* -> DONE the guest's captured stderr (head + tail) */
#define SVC_HOST_REPLY 6       /* the answer to a HOST_CALL */
#define SVC_HOST_REPLY_FAILED 7 /* the host function's handler failed; UTF-8 message */
#define SVC_HOST_CRASH 8       /* u8 how (SVC_HOST_CRASH_*): test-only, refused unless enabled */

/* host -> JVM */
#define SVC_HOST_READY 64     /* i64 memory: the instance exists (before _initialize) */
#define SVC_HOST_DONE 65      /* the answer; its payload depends on the request */
#define SVC_HOST_NO_MEMORY 66 /* i64 memory: engine_alloc returned 0 for the request; the instance works on */
#define SVC_HOST_TRAP 67      /* i64 memory, i32 kind (GuestTrap.Kind ordinal), i32 exit code, UTF-8 message; stopped */
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
