package dev.svc.server.mesh.tailnet;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 answer of the daemon, as {@link LocalApiConnections} reads it off the socket.
 *
 * <p><b>Thread safety:</b> immutable once read.
 *
 * @param status the status code
 * @param retryAfter the {@code Retry-After} header, or null
 * @param body the body, after any chunked encoding is undone
 * @param reusable whether the connection may carry another request: HTTP/1.1 without
 *     {@code Connection: close}, and a body delimited by its length or by chunks
 */
record HttpAnswer(int status, String retryAfter, Buffer body, boolean reusable) {

  /**
   * Reads one answer from the bytes of a connection, chunk by chunk: the status line, the headers
   * this client needs ({@code Content-Length}, {@code Transfer-Encoding}, {@code Connection},
   * {@code Retry-After}), then a body delimited by its length, by chunks, or by the end of the
   * connection. Only what Go's {@code net/http} server sends is understood; anything else is a
   * protocol error. The head is bounded by {@link #MAX_HEAD_BYTES} and the body by
   * {@code maxBody}, so a misbehaving daemon costs bounded memory.
   *
   * <p><b>Thread safety:</b> not thread-safe; one reader per connection and answer.
   */
  static final class Reader {

    /** The most bytes of a status line and headers. */
    static final int MAX_HEAD_BYTES = 16 << 10;

    /** No bytes; never written to. */
    private static final Buffer NONE = Buffer.buffer(0);
    /** The most bytes a sized body's buffer takes before its bytes come. */
    private static final int MAX_PRESIZED_BODY = 64 << 10;

    private enum Part { HEAD, SIZED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, BODY_TO_CLOSE, DONE }

    private final int maxBody;
    private Buffer pending = NONE;
    // pending's bytes: byte i at bytes[base + i]. Read off the array, as Buffer.getByte checks the
    // buffer's bounds and reference count for every byte.
    private byte[] bytes = new byte[0];
    private int base;
    private int at;
    private Part part = Part.HEAD;
    private int status;
    private String retryAfter;
    private boolean keepAlive;
    private long remaining;
    private Buffer body;

    /**
     * A reader of one answer.
     *
     * @param maxBody the most bytes of the body
     */
    Reader(int maxBody) {
      this.maxBody = maxBody;
    }

    /**
     * Takes the next bytes of the connection.
     *
     * @param chunk bytes as they arrived; not modified
     * @return the answer once it is complete, else null
     * @throws IllegalStateException when the bytes are no HTTP/1.1 answer this reader understands,
     *     or longer than its bounds
     */
    HttpAnswer feed(Buffer chunk) {
      if (part == Part.DONE) {
        throw new IllegalStateException("bytes after the end of the answer");
      }
      if (at == pending.length()) {
        pending = chunk;
      } else {
        pending = pending.getBuffer(at, pending.length()).appendBuffer(chunk);
      }
      at = 0;
      ByteBuf view = ((BufferInternal) pending).getByteBuf();
      if (view.hasArray()) {
        bytes = view.array();
        base = view.arrayOffset();
      } else {
        bytes = pending.getBytes();
        base = 0;
      }
      boolean progress = true;
      while (progress && part != Part.DONE) {
        progress = step();
      }
      if (part != Part.DONE) {
        return null;
      }
      return new HttpAnswer(status, retryAfter, body, keepAlive);
    }

    /**
     * The bytes that came after the answer's end: the start of the next answer, when requests are
     * pipelined on the connection.
     *
     * @return those bytes, empty when the answer ended with the bytes fed; not to be modified
     */
    Buffer rest() {
      return at == pending.length() ? NONE : pending.slice(at, pending.length());
    }

    /**
     * The connection ended.
     *
     * @return the answer when its body ran to the end of the connection
     * @throws IllegalStateException when the answer was cut short
     */
    HttpAnswer end() {
      if (part == Part.BODY_TO_CLOSE) {
        part = Part.DONE;
        return new HttpAnswer(status, retryAfter, body, false);
      }
      throw new IllegalStateException(part == Part.HEAD && pending.length() == 0
          ? "the connection closed before an answer"
          : "the connection closed in the middle of the answer");
    }

    /** Reads one part if its bytes are there; false when it needs more. */
    private boolean step() {
      return switch (part) {
        case HEAD -> head();
        case SIZED_BODY -> sized();
        case CHUNK_SIZE -> chunkSize();
        case CHUNK_DATA -> chunkData();
        case CHUNK_END -> chunkEnd();
        case TRAILERS -> trailers();
        case BODY_TO_CLOSE -> toClose();
        case DONE -> false;
      };
    }

    /**
     * The status line and the headers, read off the bytes in place: only a value this client keeps
     * becomes a string, as this runs for every who-is, on the request's event loop.
     */
    private boolean head() {
      int end = indexOf("\r\n\r\n", MAX_HEAD_BYTES, "the head (status line and headers)");
      if (end < 0) {
        return false;
      }
      int lineEnd = lineEnd(at, end);
      statusLine(at, lineEnd);
      long length = -1;
      boolean chunked = false;
      while (lineEnd < end) {
        int line = lineEnd + 2;
        lineEnd = lineEnd(line, end);
        int colon = line;
        while (colon < lineEnd && byteAt(colon) != ':') {
          colon++;
        }
        if (colon == line || colon == lineEnd) {
          throw new IllegalStateException("a header line without a name: " + quote(text(line, lineEnd)));
        }
        int value = colon + 1;
        int valueEnd = lineEnd;
        while (value < valueEnd && (byteAt(value) & 0xff) <= ' ') {
          value++; // String.trim's rule
        }
        while (valueEnd > value && (byteAt(valueEnd - 1) & 0xff) <= ' ') {
          valueEnd--;
        }
        if (named(line, colon, "Content-Length")) {
          length = contentLength(text(value, valueEnd), length);
        } else if (named(line, colon, "Transfer-Encoding")) {
          if (!named(value, valueEnd, "chunked")) {
            throw new IllegalStateException("the transfer encoding " + quote(text(value, valueEnd)) + " is not chunked");
          }
          chunked = true;
        } else if (named(line, colon, "Connection") && named(value, valueEnd, "close")) {
          keepAlive = false;
        } else if (named(line, colon, "Retry-After")) {
          retryAfter = text(value, valueEnd);
        }
      }
      at = end + 4;
      if (status == 204 || status == 304) {
        body = Buffer.buffer(0);
        part = Part.DONE;
      } else if (chunked) {
        body = Buffer.buffer();
        part = Part.CHUNK_SIZE;
      } else if (length >= 0) {
        bound(length);
        body = Buffer.buffer((int) Math.min(length, MAX_PRESIZED_BODY));
        remaining = length;
        part = Part.SIZED_BODY;
      } else {
        body = Buffer.buffer();
        keepAlive = false;
        part = Part.BODY_TO_CLOSE;
      }
      return true;
    }

    /** Where the line starting at {@code from} ends: at its CRLF, or at {@code end}, the head's end. */
    private int lineEnd(int from, int end) {
      for (int i = from; i < end; i++) {
        if (byteAt(i) == '\r' && byteAt(i + 1) == '\n') {
          return i;
        }
      }
      return end;
    }

    /** Whether the bytes {@code from} to {@code to} are {@code word}, whatever the case of its ASCII letters. */
    private boolean named(int from, int to, String word) {
      if (to - from != word.length()) {
        return false;
      }
      for (int i = 0; i < word.length(); i++) {
        int b = byteAt(from + i);
        int c = word.charAt(i);
        if (b != c && ((b | 0x20) != (c | 0x20) || (c | 0x20) < 'a' || (c | 0x20) > 'z')) {
          return false;
        }
      }
      return true;
    }

    /** The bytes {@code from} to {@code to} as text, one character per byte (ISO-8859-1). */
    private String text(int from, int to) {
      return pending.getString(from, to, StandardCharsets.ISO_8859_1.name());
    }

    private void statusLine(int from, int to) {
      // HTTP/1.1 200 OK
      int length = to - from;
      if (length < 12 || !matches(from, "HTTP/1.") || byteAt(from + 8) != ' '
          || (length > 12 && byteAt(from + 12) != ' ')) {
        throw new IllegalStateException("not an HTTP/1.x status line: " + quote(text(from, to)));
      }
      keepAlive = byteAt(from + 7) == '1';
      status = 0;
      for (int i = from + 9; i < from + 12; i++) {
        int digit = byteAt(i) - '0';
        if (digit < 0 || digit > 9) {
          throw new IllegalStateException("not an HTTP/1.x status line: " + quote(text(from, to)));
        }
        status = status * 10 + digit;
      }
      if (status < 200 || status > 599) {
        throw new IllegalStateException("the status " + status + " is no final answer");
      }
    }

    private static long contentLength(String value, long before) {
      long length;
      try {
        length = Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new IllegalStateException("the content length " + quote(value) + " is no number", e);
      }
      if (length < 0 || (before >= 0 && before != length)) {
        throw new IllegalStateException("the content length " + quote(value) + " is invalid");
      }
      return length;
    }

    private boolean sized() {
      int take = (int) Math.min(remaining, pending.length() - at);
      body.appendBuffer(pending, at, take);
      at += take;
      remaining -= take;
      if (remaining == 0) {
        part = Part.DONE;
        return true;
      }
      return false;
    }

    private boolean chunkSize() {
      int end = indexOf("\r\n", 1024, "a chunk size line");
      if (end < 0) {
        return false;
      }
      String line = pending.getString(at, end, StandardCharsets.ISO_8859_1.name());
      at = end + 2;
      int extension = line.indexOf(';');
      String hex = (extension < 0 ? line : line.substring(0, extension)).trim();
      long size;
      try {
        size = Long.parseLong(hex, 16);
      } catch (NumberFormatException e) {
        throw new IllegalStateException("the chunk size " + quote(line) + " is no hex number", e);
      }
      if (size < 0) {
        throw new IllegalStateException("the chunk size " + quote(line) + " is negative");
      }
      if (size == 0) {
        part = Part.TRAILERS;
        return true;
      }
      bound(body.length() + size);
      remaining = size;
      part = Part.CHUNK_DATA;
      return true;
    }

    private boolean chunkData() {
      if (sized()) {
        part = Part.CHUNK_END;
        return true;
      }
      return false;
    }

    private boolean chunkEnd() {
      if (pending.length() - at < 2) {
        return false;
      }
      if (byteAt(at) != '\r' || byteAt(at + 1) != '\n') {
        throw new IllegalStateException("a chunk doesn't end with CRLF");
      }
      at += 2;
      part = Part.CHUNK_SIZE;
      return true;
    }

    /** Trailer lines up to the empty line; none of them matters here. */
    private boolean trailers() {
      int end = indexOf("\r\n", MAX_HEAD_BYTES, "a trailer line");
      if (end < 0) {
        return false;
      }
      boolean last = end == at;
      at = end + 2;
      if (last) {
        part = Part.DONE;
      }
      return true;
    }

    private boolean toClose() {
      bound(body.length() + pending.length() - at);
      body.appendBuffer(pending, at, pending.length() - at);
      at = pending.length();
      return false;
    }

    private void bound(long length) {
      if (length > maxBody) {
        throw new IllegalStateException("the answer is longer than " + maxBody + " bytes");
      }
    }

    private byte byteAt(int index) {
      return bytes[base + index];
    }

    /** Where {@code marker} starts from {@link #at}; -1 when not there yet; fails past {@code limit} bytes. */
    private int indexOf(String marker, int limit, String what) {
      int last = pending.length() - marker.length();
      for (int i = at; i <= last; i++) {
        if (matches(i, marker)) {
          return i;
        }
        if (i - at > limit) {
          break;
        }
      }
      if (pending.length() - at > limit) {
        throw new IllegalStateException(what + " is longer than " + limit + " bytes");
      }
      return -1;
    }

    private boolean matches(int from, String marker) {
      for (int j = 0; j < marker.length(); j++) {
        if (byteAt(from + j) != marker.charAt(j)) {
          return false;
        }
      }
      return true;
    }

    private static String quote(String text) {
      return "`" + (text.length() > 80 ? text.substring(0, 80) + "…" : text) + "`";
    }
  }
}
