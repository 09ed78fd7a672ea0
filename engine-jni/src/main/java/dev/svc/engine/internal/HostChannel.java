package dev.svc.engine.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The JVM's end of an engine host's channel ({@code native/jni/svc_host_protocol.h}, whose numbers
 * this class mirrors). A frame is its type, its payload length and the payload. Frames travel
 * through a memory region shared with the host, one region per direction, each with a sequence word
 * that counts the frames published in it; the receiver spins on that word for a while, then sleeps
 * on the host's pipe, which the sender rings when it sees the receiver asleep. So back-to-back calls
 * cost no system call and no wake-up on either side, and an idle host sleeps. A spinner that finds
 * the host on its own CPU yields the CPU to it rather than spin, so a pair that the scheduler put on
 * one CPU hands over at once and stays runnable until load balancing separates it. Both sides count
 * how their waits went ({@link Counters}). A frame larger than a
 * region goes whole on the pipe. One request at a time: {@link #send} publishes a whole frame,
 * {@link #receive} takes the next one.
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
  /** The answer to a {@link #HOST_CALL}. */
  public static final byte REPLY = 6;
  /** The host function's handler failed; its message. */
  public static final byte REPLY_FAILED = 7;
  /** Test-only: crash the host one way ({@code CRASH_*}). */
  public static final byte CRASH = 8;

  /** The instance exists, its memory size (an i64) follows; {@code _initialize} comes next. */
  public static final byte READY = 64;
  /**
   * The answer to a request. To a guest entry ({@link #INIT}, {@link #ABI}, {@link #CALL}) it, {@link
   * #NO_MEMORY} and {@link #TRAP} start with the guest's memory size after the entry (an i64).
   */
  public static final byte DONE = 65;
  /** The module could not allocate memory for the request; it works on. */
  public static final byte NO_MEMORY = 66;
  /** The guest stopped: memory size, kind ordinal, exit code, message. */
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

  // The shared memory file's layout: byte offsets of the words and regions.
  private static final int TO_HOST_SEQ = 0;
  private static final int HOST_ASLEEP = 64;
  private static final int HOST_CPU = 68;
  private static final int TO_JVM_SEQ = 128;
  private static final int JVM_ASLEEP = 192;
  private static final int JVM_CPU = 196;
  private static final int TO_HOST = 256;
  private static final int REGION = 65536;
  private static final int TO_JVM = TO_HOST + REGION;
  private static final int REGION_HEADER = 8;
  private static final int HOST_COUNTERS = TO_JVM + REGION;
  private static final int DOORBELL = 0;
  private static final int ON_PIPE = 255;

  /** Bytes of the shared memory file: the sequence words, one region per direction, the host's counters. */
  public static final int SHARED_BYTES = HOST_COUNTERS + 64;
  /** The largest payload that travels through a region; larger ones go on the pipe. */
  public static final int REGION_PAYLOAD_MAX = REGION - REGION_HEADER;
  /** The largest spin {@link #SPIN_PROPERTY} accepts (a minute: tests use it to show that a spin notices a death). */
  public static final long SPIN_MICROS_MAX = 60_000_000;
  /**
   * System property: how many microseconds each side spins at most for the other's frame before it
   * sleeps on the pipe (default {@value #DEFAULT_SPIN_MICROS}; 0 sleeps at once). Within it a call
   * costs no sleep and wake-up, several microseconds each; the price is that much CPU per wait at
   * most. Each side spins less while spinning finds nothing. Read when a host starts.
   */
  public static final String SPIN_PROPERTY = "svc.engine.host.spinMicros";
  /**
   * System property: a number of seconds N prints both sides' {@link Counters} to stderr for every
   * N seconds of calls and when the host is closed (benchmarks and debugging: how calls waited,
   * whether anyone slept, how long the host worked). Read when a host starts.
   */
  public static final String PRINT_COUNTERS_PROPERTY = "svc.engine.host.printCounters";
  /** The spin without {@link #SPIN_PROPERTY}: a few evaluations long. */
  public static final long DEFAULT_SPIN_MICROS = 50;

  private static final int PIPE_HEADER = 5;
  private static final int MAX_PAYLOAD = Integer.MAX_VALUE - 64;
  // How often a spin asks whether the host still lives: a dead host publishes nothing.
  private static final int SPINS_PER_LIFE_CHECK = 256;
  private static final int PROBE_EVERY = 128;
  private static final int CPU_CHECK_EVERY = 16; // spin turns between looks at the CPUs
  private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

  private final InputStream in;
  private final OutputStream out;
  private final ByteBuffer shared;
  private final ByteBuffer payloads; // the same memory, little-endian, for the payload's integers
  private final long maxSpinNanos;
  private final BooleanSupplier hostAlive;
  private final byte[] pipeHeader = new byte[PIPE_HEADER];
  private final byte[] memorySizeOnPipe = new byte[8];
  private long sent;
  private long received;
  private long spinNanos; // the spin of the last wait
  private boolean spunInVain; // the last wait's spin found no frame
  // Counters (see Counters): cheap enough to keep, and the only way to see how calls wait.
  private long waits;
  private long spinHits;
  private long sleeps;
  private long spinLoops;
  private long doorbells;
  private long busyNanos;
  private long yields;
  private int cpu = -1; // the CPU this side last said it runs on
  private long receivedAt = System.nanoTime();
  private final String name;
  private final long printEveryNanos; // 0: never
  private long printedAt = receivedAt;
  private Counters printedJvm = new Counters(0, 0, 0, 0, 0, 0, 0);
  private Counters printedHost = printedJvm;

  /**
   * A channel through {@code shared} (a mapping of the host's channel file, {@link #SHARED_BYTES}
   * long) with the host's stdout ({@code in}) and stdin ({@code out}) as its pipes.
   *
   * @param spinMicros how long to spin for a frame before sleeping on the pipe
   * @param hostAlive whether the host still runs, asked while spinning
   * @param name the host's name in printed counters ({@link #PRINT_COUNTERS_PROPERTY})
   */
  public HostChannel(InputStream in, OutputStream out, ByteBuffer shared, long spinMicros, BooleanSupplier hostAlive,
      String name) {
    if (shared.capacity() != SHARED_BYTES) {
      throw new IllegalArgumentException("the shared memory of a host channel must be " + SHARED_BYTES + " bytes");
    }
    this.in = in;
    this.out = out;
    this.shared = shared.duplicate().order(ByteOrder.nativeOrder());
    this.payloads = shared.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    this.maxSpinNanos = spinMicros * 1000;
    this.spinNanos = maxSpinNanos;
    this.hostAlive = hostAlive;
    this.name = name;
    this.printEveryNanos = Math.max(0, Long.getLong(PRINT_COUNTERS_PROPERTY, 0)) * 1_000_000_000L;
  }

  /**
   * The spin {@link #SPIN_PROPERTY} asks for, in microseconds.
   *
   * @throws IllegalArgumentException when it is not a whole number from 0 to {@link #SPIN_MICROS_MAX}
   */
  public static long spinMicros() {
    String value = System.getProperty(SPIN_PROPERTY);
    if (value == null) {
      return DEFAULT_SPIN_MICROS;
    }
    try {
      long micros = Long.parseLong(value.strip());
      if (micros >= 0 && micros <= SPIN_MICROS_MAX) {
        return micros;
      }
    } catch (NumberFormatException e) {
      // Said below.
    }
    throw new IllegalArgumentException("the system property " + SPIN_PROPERTY
        + " must be a number of microseconds from 0 to " + SPIN_MICROS_MAX + ", not `" + value + "`");
  }

  /** Sends a frame with {@code payload}. */
  public void send(byte type, byte[] payload) throws IOException {
    if (payload.length <= REGION_PAYLOAD_MAX) {
      payloads.put(TO_HOST + REGION_HEADER, payload);
      publish(type, payload.length);
    } else {
      sendOnPipe(type, payload.length, frame -> frame.put(payload));
    }
  }

  /** Sends a guest entry: its epoch deadline in ticks (0 = none), its fuel (-1 = unlimited) and {@code body}. */
  public void send(byte type, long deadlineTicks, long fuel, byte[] body) throws IOException {
    if (body.length > MAX_PAYLOAD - 16) {
      throw new IllegalArgumentException("the request is larger than the module's 32-bit memory can take");
    }
    int length = 16 + body.length;
    if (length <= REGION_PAYLOAD_MAX) {
      int at = TO_HOST + REGION_HEADER;
      payloads.putLong(at, deadlineTicks).putLong(at + 8, fuel).put(at + 16, body);
      publish(type, length);
    } else {
      sendOnPipe(type, length, frame -> frame.putLong(deadlineTicks).putLong(fuel).put(body));
    }
  }

  /**
   * The next frame from the host. With {@code entryAnswer} (the frame answers a guest entry, or is a
   * {@link #HOST_CALL} within one), the guest's memory size that starts a {@link #DONE}, {@link
   * #NO_MEMORY} or {@link #TRAP} payload is taken off into {@link Frame#memorySize()}, so the
   * module's response is copied once, straight into the array its reader gets.
   *
   * @throws EOFException when the host's output ended: it exited or was killed
   */
  public Frame receive(boolean entryAnswer) throws IOException {
    long frame = received + 1;
    int first = await(frame);
    received = frame;
    if (first < 0) {
      int type = shared.getInt(TO_JVM);
      int length = shared.getInt(TO_JVM + 4);
      if (type != ON_PIPE) {
        int head = entryAnswer ? memorySizeBytes(type) : 0;
        if (type <= DOORBELL || type > 255 || length < head || length > REGION_PAYLOAD_MAX) {
          throw new IOException("the engine host published a frame that breaks the protocol: type " + type
              + ", " + Integer.toUnsignedString(length) + " bytes");
        }
        long memorySize = head == 0 ? Frame.NO_MEMORY_SIZE : payloads.getLong(TO_JVM + REGION_HEADER);
        byte[] payload = new byte[length - head];
        payloads.get(TO_JVM + REGION_HEADER + head, payload);
        return new Frame((byte) type, memorySize, payload);
      }
      do {
        first = readByte();
      } while (first == DOORBELL);
    }
    return receiveOnPipe((byte) first, entryAnswer);
  }

  // How many leading bytes of a guest entry's answer of this type are the guest's memory size.
  private static int memorySizeBytes(int type) {
    return type == DONE || type == NO_MEMORY || type == TRAP ? 8 : 0;
  }

  /** How many frames this channel sent: one per request and one per host call answered. */
  public long framesSent() {
    return sent;
  }

  /** How many times this channel rang the host's doorbell: it found the host asleep. */
  public long doorbellsRung() {
    return doorbells;
  }

  /**
   * Prints both sides' counters since the last print to stderr when {@link #PRINT_COUNTERS_PROPERTY}
   * asks for them.
   */
  public void printCounters() {
    if (printEveryNanos == 0) {
      return;
    }
    Counters jvm = jvmCounters();
    Counters host = hostCounters();
    long now = System.nanoTime();
    System.err.printf(Locale.ROOT, "%s, %.1f s: jvm %s; host %s%n", name, (now - printedAt) / 1e9,
        jvm.minus(printedJvm).describe(), host.minus(printedHost).describe());
    printedAt = now;
    printedJvm = jvm;
    printedHost = host;
  }

  /** How this side's waits for the host went, so far. */
  public Counters jvmCounters() {
    return new Counters(waits, spinHits, sleeps, spinLoops, doorbells, busyNanos, yields);
  }

  /** How the host's waits for this side went, so far, as the host counts them in the shared memory. */
  public Counters hostCounters() {
    long[] values = new long[7];
    for (int i = 0; i < values.length; i++) {
      values[i] = (long) LONGS.getOpaque(shared, HOST_COUNTERS + 8 * i);
    }
    return new Counters(values[0], values[1], values[2], values[3], values[4], values[5], values[6]);
  }

  /** Whether the host sleeps on its pipe now, waiting for a frame (it spun past its spin). */
  public boolean hostAsleep() {
    return (int) INTS.getVolatile(shared, HOST_ASLEEP) != 0;
  }

  // The type and length go in the region, then the sequence word tells the host; a host asleep on
  // its pipe gets a doorbell byte. The full fence orders the sequence store before the asleep load,
  // as the host orders its asleep store before its sequence load: one of the two sees the other.
  private void publish(int type, int length) throws IOException {
    busyNanos += System.nanoTime() - receivedAt;
    shared.putInt(TO_HOST, type);
    shared.putInt(TO_HOST + 4, length);
    LONGS.setVolatile(shared, TO_HOST_SEQ, ++sent);
    VarHandle.fullFence();
    if ((int) INTS.getVolatile(shared, HOST_ASLEEP) != 0) {
      out.write(DOORBELL);
      out.flush();
      doorbells++;
    }
  }

  @FunctionalInterface
  private interface PayloadWriter {
    void write(ByteBuffer frame);
  }

  // Published first, so a host spinning on the region turns to the pipe at once; the frame's bytes
  // wake a sleeping one.
  private void sendOnPipe(byte type, int length, PayloadWriter payload) throws IOException {
    publish(ON_PIPE, 0);
    ByteBuffer frame = ByteBuffer.allocate(PIPE_HEADER + length).order(ByteOrder.LITTLE_ENDIAN);
    frame.put(type).putInt(length);
    payload.write(frame);
    out.write(frame.array(), 0, frame.position());
    out.flush();
  }

  // Waits until the host published frame number {@code frame}: -1, or a frame came whole on the
  // pipe first, and this is its type byte. A host that died publishes nothing: the spin asks after
  // its life, and the pipe then ends.
  private int await(long frame) throws IOException {
    // No look at the CPU before the first turn: the first turn looks (a frame already here needs none).
    long end = System.nanoTime() + spinBudget();
    int spins = 1;
    for (; !published(frame); spins++) {
      if (System.nanoTime() - end >= 0 || spins % SPINS_PER_LIFE_CHECK == 0 && !hostAlive.getAsBoolean()) {
        break;
      }
      if (spins % CPU_CHECK_EVERY == 1) { // from the first turn: a host that just answered is often right here
        sayCpu();
        if (besideHost()) {
          Thread.yield();
          yields++;
          continue;
        }
      }
      Thread.onSpinWait();
    }
    spunInVain = !published(frame);
    int first = -1;
    boolean slept = false;
    while (!published(frame)) {
      INTS.setVolatile(shared, JVM_ASLEEP, 1);
      VarHandle.fullFence();
      if (published(frame)) {
        INTS.setVolatile(shared, JVM_ASLEEP, 0);
        break;
      }
      slept = true;
      int b = readByte();
      INTS.setVolatile(shared, JVM_ASLEEP, 0);
      if (b != DOORBELL) {
        first = b;
        break;
      }
    }
    sayCpu();
    waits++;
    if (slept) {
      sleeps++;
    } else {
      spinHits++;
    }
    spinLoops += spins - 1;
    receivedAt = System.nanoTime();
    if (printEveryNanos > 0 && receivedAt - printedAt >= printEveryNanos) {
      printCounters();
    }
    return first;
  }

  // The spin of the next wait. A spin that found no frame halves the next one, a spin that found it
  // restores the whole spin, and every PROBE_EVERY-th wait spins the whole spin again: where the
  // host answers fast (an idle machine), calls spin and cost no wake-up; where spinning doesn't pay
  // (a busy machine, where the spinner may hold off the very core its host needs, or a host whose
  // calls run long), the channel soon sleeps at once and costs only the wake-up.
  private long spinBudget() {
    if (spunInVain) {
      spinNanos /= 2;
    } else {
      spinNanos = maxSpinNanos;
    }
    return waits % PROBE_EVERY == 0 ? maxSpinNanos : spinNanos;
  }

  // Says which CPU this thread runs on, when that changed (the host reads it as it spins).
  private void sayCpu() {
    int now = Native.currentCpu();
    if (now != cpu) {
      cpu = now;
      INTS.setOpaque(shared, JVM_CPU, now);
    }
  }

  // Whether the host runs (or last ran) on this thread's CPU: then spinning only keeps it from
  // running, and yielding lets it run at once (svc_host_channel.c's await says more).
  private boolean besideHost() {
    return cpu >= 0 && (int) INTS.getOpaque(shared, HOST_CPU) == cpu;
  }

  private boolean published(long frame) {
    return (long) LONGS.getAcquire(shared, TO_JVM_SEQ) >= frame;
  }

  private int readByte() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("the engine host's output ended");
    }
    return b;
  }

  private Frame receiveOnPipe(byte type, boolean entryAnswer) throws IOException {
    readFully(pipeHeader, 4);
    int length = ByteBuffer.wrap(pipeHeader, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    int head = entryAnswer ? memorySizeBytes(type & 0xff) : 0;
    if (length < head || length > MAX_PAYLOAD) {
      throw new IOException("the engine host sent a frame of " + Integer.toUnsignedString(length) + " bytes");
    }
    long memorySize = Frame.NO_MEMORY_SIZE;
    if (head > 0) {
      readFully(memorySizeOnPipe, head);
      memorySize = ByteBuffer.wrap(memorySizeOnPipe).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
    byte[] payload = new byte[length - head];
    readFully(payload, payload.length);
    return new Frame(type, memorySize, payload);
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
   * How one side of a channel waited for the other's frames, counted since the host started: a wait
   * either found the frame while spinning ({@code spinHits}) or slept on the pipe until a doorbell or
   * the frame woke it ({@code sleeps}).
   *
   * @param waits frames waited for
   * @param spinHits waits whose frame came while this side spun (no system call)
   * @param sleeps waits that blocked on the pipe: each cost a wake-up
   * @param spinLoops iterations of the spin loops, all waits together
   * @param doorbells doorbells this side rang: it found the other side asleep
   * @param busyNanos nanoseconds from taking a frame to publishing the next: this side's own work
   *     (for the host, the guest's; for the JVM, preparing the next request and answering host calls)
   * @param yields times a spin yielded its CPU to the other side, which ran on the same one
   */
  public record Counters(
      long waits, long spinHits, long sleeps, long spinLoops, long doorbells, long busyNanos, long yields) {

    /** One line for people: {@code waits 100 (98 spinning, 2 asleep), 12.5 spin loops/wait, ...}. */
    public String describe() {
      long per = Math.max(1, waits);
      return String.format(Locale.ROOT,
          "waits %d (%d spinning, %d asleep), %.1f spin loops/wait, %d yields, %d doorbells, busy %.2f µs/wait",
          waits, spinHits, sleeps, (double) spinLoops / per, yields, doorbells, busyNanos / 1000.0 / per);
    }

    /** The counts of this minus those of {@code earlier}: what happened in between. */
    public Counters minus(Counters earlier) {
      return new Counters(waits - earlier.waits, spinHits - earlier.spinHits, sleeps - earlier.sleeps,
          spinLoops - earlier.spinLoops, doorbells - earlier.doorbells, busyNanos - earlier.busyNanos,
          yields - earlier.yields);
    }
  }

  /**
   * One frame from the host.
   *
   * @param type what it is ({@link #DONE}, {@link #TRAP}, …)
   * @param memorySize the guest's memory size the host put before the payload, when {@link
   *     #receive(boolean)} took it off; else {@link #NO_MEMORY_SIZE}
   * @param payload its bytes (after the memory size, when that was taken off)
   */
  public record Frame(byte type, long memorySize, byte[] payload) {

    /** {@link #memorySize()} of a frame whose payload is whole. */
    public static final long NO_MEMORY_SIZE = -1;

    /** A frame whose payload is whole. */
    public Frame(byte type, byte[] payload) {
      this(type, NO_MEMORY_SIZE, payload);
    }

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
