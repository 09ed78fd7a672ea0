/*
 * Bounded capture of a guest output stream (fd 1 or fd 2): the first SVC_BUFFER_HEAD bytes
 * ever written, and the last SVC_BUFFER_TAIL bytes of everything after them. The head keeps a
 * crash's first line ("fatal error: ..."), the tail keeps where it happened (bindings.md §1.3).
 * Fixed size, no allocation: a chatty guest cannot grow host memory.
 */
#ifndef SVC_BUFFER_H
#define SVC_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SVC_BUFFER_HEAD 1024u
#define SVC_BUFFER_TAIL 3072u
#define SVC_BUFFER_MARKER "\n[...]\n"
#define SVC_BUFFER_MARKER_LEN 7u
#define SVC_BUFFER_RENDER_MAX (SVC_BUFFER_HEAD + SVC_BUFFER_MARKER_LEN + SVC_BUFFER_TAIL)

typedef struct svc_buffer {
    uint8_t head[SVC_BUFFER_HEAD];
    uint8_t tail[SVC_BUFFER_TAIL]; /* ring: tail_len bytes starting at tail_start */
    size_t head_len;
    size_t tail_start;
    size_t tail_len;
    bool dropped; /* some bytes between head and tail were discarded */
} svc_buffer;

void svc_buffer_init(svc_buffer *buffer);
void svc_buffer_append(svc_buffer *buffer, const uint8_t *bytes, size_t len);

/* Writes head, the marker if bytes were dropped, then tail into out (at least
 * SVC_BUFFER_RENDER_MAX bytes); returns the length written. */
size_t svc_buffer_render(const svc_buffer *buffer, uint8_t *out);

/* wasi_config_set_std{out,err}_custom callback; data is the svc_buffer (owned by the instance). */
ptrdiff_t svc_buffer_wasi_write(void *data, const unsigned char *bytes, size_t len);

#endif /* SVC_BUFFER_H */
