package dev.svc.engine.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The JVM's end of an engine host's framed protocol ({@code native/jni/svc_host_protocol.h}, whose
 * numbers this class mirrors): a frame is its type (one byte), its payload length (four bytes,
 * little-endian) and the payload. One request at a time: {@link #send} writes a whole frame with
 * one write, {@link #receive()} reads the next one.
 *
 * <p><b>Thread safety:</b> not thread-safe; the instance's lock serialises its users.
 */
public final class HostChannel {

  /** Run {@code _initialize}: deadline ticks, fuel. */
  public static final byte INIT = 1;
  /** Call {@code engine_abi_version}: deadline ticks, fuel; answered by an i32. */
  public static final byte ABI = 2;
  /** One {@code engine_call} round trip: deadline ticks, fuel, the request. */
  public static final byte CALL = 3;
  /** The guest's captured stderr. */
  public static final byte STDERR = 4;
  /** The size of the guest's linear memory, an i64. */
  public static final byte MEMORY_SIZE = 5;
  /** The answer to a {@link #HOST_CALL}. */
  public static final byte REPLY = 6;
  /** The host function's handler failed; its message. */
  public static final byte REPLY_FAILED = 7;
  /** Test-only: crash the host one way ({@code CRASH_*}). */
  public static final byte CRASH = 8;

  /** The instance exists; {@code _initialize} comes next. */
  public static final byte READY = 64;
  /** The answer to a request. */
  public static final byte DONE = 65;
  /** The module could not allocate memory for the request; it works on. */
  public static final byte NO_MEMORY = 66;
  /** The guest stopped: kind ordinal, exit code, message. */
  public static final byte TRAP = 67;
  /** The request could not run; its message (a {@link WasmError}). */
  public static final byte PROBLEM = 68;
  /** The module asks the host for something: the request's bytes. */
  public static final byte HOST_CALL = 69;

  /** Test trigger: a write through a null pointer. */
  public static final byte CRASH_SEGV = 1;
  /** Test trigger: {@code exit(42)}. */
  public static final byte CRASH_EXIT = 2;
  /** Test trigger: block in native code, where no epoch deadline reaches. */
  public static final byte CRASH_HANG = 3;
  /** Test trigger: allocate native memory until the address-space limit refuses, then abort. */
  public static final byte CRASH_MALLOC = 4;

  private static final int HEADER = 5;
  /**
   * System property: how many microseconds {@link #receive()} polls for an answer before it blocks
   * (default 20, about one evaluation; 0 blocks at once). An answer that comes within it costs the
   * calling thread no sleep and wake-up, several microseconds each, for that much CPU at most.
   */
  public static final String SPIN_PROPERTY = "svc.engine.host.spinMicros";

  private static final long SPIN_NANOS = Long.getLong(SPIN_PROPERTY, 20) * 1000;
  private static final int MAX_PAYLOAD = Integer.MAX_VALUE - 64;

  private final InputStream in;
  private final OutputStream out;
  private final byte[] header = new byte[HEADER];

  /** A channel over a host's stdout ({@code in}) and stdin ({@code out}). */
  public HostChannel(InputStream in, OutputStream out) {
    this.in = in;
    this.out = out;
  }

  /** Sends a frame with {@code payload}. */
  public void send(byte type, byte[] payload) throws IOException {
    ByteBuffer frame = frame(type, payload.length);
    frame.put(payload);
    write(frame);
  }

  /** Sends a guest entry: its epoch deadline in ticks (0 = none), its fuel (-1 = unlimited) and {@code body}. */
  public void send(byte type, long deadlineTicks, long fuel, byte[] body) throws IOException {
    if (body.length > MAX_PAYLOAD - 16) {
      throw new IllegalArgumentException("the request is larger than the module's 32-bit memory can take");
    }
    ByteBuffer frame = frame(type, 16 + body.length);
    frame.putLong(deadlineTicks).putLong(fuel).put(body);
    write(frame);
  }

  /**
   * The next frame from the host.
   *
   * @throws EOFException when the host's output ended: it exited or was killed
   */
  public Frame receive() throws IOException {
    spin();
    readFully(header, HEADER);
    int length = ByteBuffer.wrap(header, 1, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (length < 0 || length > MAX_PAYLOAD) {
      throw new IOException("the engine host sent a frame of " + Integer.toUnsignedString(length) + " bytes");
    }
    byte[] payload = new byte[length];
    readFully(payload, length);
    return new Frame(header[0], payload);
  }

  private void spin() throws IOException {
    if (SPIN_NANOS <= 0) {
      return;
    }
    long end = System.nanoTime() + SPIN_NANOS;
    while (in.available() == 0 && System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  private static ByteBuffer frame(byte type, int payloadLength) {
    ByteBuffer frame = ByteBuffer.allocate(HEADER + payloadLength).order(ByteOrder.LITTLE_ENDIAN);
    return frame.put(type).putInt(payloadLength);
  }

  private void write(ByteBuffer frame) throws IOException {
    out.write(frame.array(), 0, frame.position());
    out.flush();
  }

  private void readFully(byte[] target, int length) throws IOException {
    int done = 0;
    while (done < length) {
      int n = in.read(target, done, length - done);
      if (n < 0) {
        throw new EOFException("the engine host's output ended");
      }
      done += n;
    }
  }

  /**
   * One frame from the host.
   *
   * @param type what it is ({@link #DONE}, {@link #TRAP}, …)
   * @param payload its bytes
   */
  public record Frame(byte type, byte[] payload) {

    /** The little-endian i32 at {@code offset}. */
    public int int32(int offset) {
      return ByteBuffer.wrap(payload, offset, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** The little-endian i64 at {@code offset}. */
    public long int64(int offset) {
      return ByteBuffer.wrap(payload, offset, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The UTF-8 text from {@code offset} to the end. */
    public String text(int offset) {
      return new String(payload, offset, payload.length - offset, StandardCharsets.UTF_8);
    }
  }
}
