/* Bounded head + tail capture; see svc_buffer.h. */
#include "svc_buffer.h"

#include <string.h>

void svc_buffer_init(svc_buffer *buffer) {
    buffer->head_len = 0;
    buffer->tail_start = 0;
    buffer->tail_len = 0;
    buffer->dropped = false;
}

static void append_tail(svc_buffer *buffer, const uint8_t *bytes, size_t len) {
    if (len >= SVC_BUFFER_TAIL) {
        if (buffer->tail_len > 0 || len > SVC_BUFFER_TAIL) buffer->dropped = true;
        memcpy(buffer->tail, bytes + (len - SVC_BUFFER_TAIL), SVC_BUFFER_TAIL);
        buffer->tail_start = 0;
        buffer->tail_len = SVC_BUFFER_TAIL;
        return;
    }
    size_t write_at = (buffer->tail_start + buffer->tail_len) % SVC_BUFFER_TAIL;
    size_t first = SVC_BUFFER_TAIL - write_at;
    if (first > len) first = len;
    memcpy(buffer->tail + write_at, bytes, first);
    memcpy(buffer->tail, bytes + first, len - first);
    size_t total = buffer->tail_len + len;
    if (total > SVC_BUFFER_TAIL) {
        /* The oldest bytes were overwritten: the ring now starts just after the newest. */
        buffer->tail_start = (buffer->tail_start + (total - SVC_BUFFER_TAIL)) % SVC_BUFFER_TAIL;
        buffer->tail_len = SVC_BUFFER_TAIL;
        buffer->dropped = true;
    } else {
        buffer->tail_len = total;
    }
}

void svc_buffer_append(svc_buffer *buffer, const uint8_t *bytes, size_t len) {
    if (len == 0) return;
    if (buffer->head_len < SVC_BUFFER_HEAD) {
        size_t take = SVC_BUFFER_HEAD - buffer->head_len;
        if (take > len) take = len;
        memcpy(buffer->head + buffer->head_len, bytes, take);
        buffer->head_len += take;
        bytes += take;
        len -= take;
    }
    if (len > 0) append_tail(buffer, bytes, len);
}

size_t svc_buffer_render(const svc_buffer *buffer, uint8_t *out) {
    size_t n = buffer->head_len;
    memcpy(out, buffer->head, n);
    if (buffer->dropped) {
        memcpy(out + n, SVC_BUFFER_MARKER, SVC_BUFFER_MARKER_LEN);
        n += SVC_BUFFER_MARKER_LEN;
    }
    size_t first = SVC_BUFFER_TAIL - buffer->tail_start;
    if (first > buffer->tail_len) first = buffer->tail_len;
    memcpy(out + n, buffer->tail + buffer->tail_start, first);
    memcpy(out + n + first, buffer->tail, buffer->tail_len - first);
    return n + buffer->tail_len;
}

ptrdiff_t svc_buffer_wasi_write(void *data, const unsigned char *bytes, size_t len) {
    svc_buffer_append((svc_buffer *)data, bytes, len);
    /* Always report everything written: the guest must never see a short write on stdio. */
    return (ptrdiff_t)len;
}
