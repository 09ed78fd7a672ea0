/*
 * The engine host's end of its channel to the JVM: frames through the shared memory file, with
 * the pipes as doorbells and as the path of frames too large for a region (svc_host_protocol.h).
 * One channel per process; frames strictly alternate, so each side has one region to write.
 */
#ifndef SVC_HOST_CHANNEL_H
#define SVC_HOST_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Maps the shared memory file at `path`, deletes its name (the JVM mapped it before), and takes
 * fds `in_fd` (from the JVM) and `out_fd` (to it); spins up to `spin_ns` for a frame before
 * sleeping on the pipe (less while the JVM sends later than that). False (errno set) when the
 * file can't be mapped. */
bool svc_host_channel_open(const char *path, int in_fd, int out_fd, long spin_ns);

/* Sends one frame whose payload is `a` then `b` (either may be empty). A JVM that is gone ends
 * the process: nobody waits for the frame. */
void svc_host_channel_send(uint8_t type, const void *a, size_t a_len, const void *b, size_t b_len);

/* The next frame from the JVM, its payload malloc'd (never NULL). End of input ends the process:
 * the JVM let go. A frame that breaks the protocol ends it with SVC_HOST_EXIT_PROTOCOL. */
uint8_t *svc_host_channel_receive(uint8_t *type, size_t *len);

#endif /* SVC_HOST_CHANNEL_H */
