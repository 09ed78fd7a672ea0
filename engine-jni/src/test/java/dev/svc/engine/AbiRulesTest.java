package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The memory rules of the module's ABI, driven through the bare exports: a bad pointer or length
 * gets an answer, never a trap, and frees of unknown buffers do nothing.
 */
class AbiRulesTest {

  private static final String NOT_FROM_ALLOC =
      "{\"ok\":false,\"error\":{\"message\":\"the request isn't in memory from engine_alloc: allocate"
          + " it with engine_alloc, write it, and pass that pointer and the length written\","
          + "\"help\":\"send one JSON object of an op and its fields, such as {\\\"op\\\":"
          + " \\\"version\\\"}\"}}";

  private RawInstance raw;

  @BeforeEach
  void start() {
    raw = new RawInstance(TestModules.engine());
  }

  @AfterEach
  void stop() {
    raw.close();
  }

  @Test
  void aPointerNotFromEngineAllocIsAnsweredNotTrapped() {
    assertThat(raw.call(1024, 16)).isEqualTo(NOT_FROM_ALLOC);
    assertThat(raw.call("{\"op\":\"version\"}")).startsWith("{\"ok\":true,");
  }

  @Test
  void aLengthBeyondTheAllocatedBufferIsAnsweredNotTrapped() {
    int ptr = raw.alloc(16);
    raw.write(ptr, "{\"op\":\"version\"}");

    assertThat(raw.call(ptr, 17)).isEqualTo(NOT_FROM_ALLOC);
    assertThat(raw.call(ptr, 16)).startsWith("{\"ok\":true,");
  }

  @Test
  void aFreedBufferIsNoLongerARequest() {
    int ptr = raw.alloc(16);
    raw.write(ptr, "{\"op\":\"version\"}");
    raw.free(ptr, 16);

    assertThat(raw.call(ptr, 16)).isEqualTo(NOT_FROM_ALLOC);
  }

  @Test
  void doubleAndForeignFreesAreHarmless() {
    int ptr = raw.alloc(32);
    raw.free(ptr, 32);
    raw.free(ptr, 32);
    raw.free(12345, 8);
    raw.free(0, 0);

    assertThat(raw.call("{\"op\":\"version\"}")).startsWith("{\"ok\":true,");
  }

  @Test
  void zeroSizedBuffersStillGetDistinctAddresses() {
    int first = raw.alloc(0);
    int second = raw.alloc(0);
    int negative = raw.alloc(-5);

    assertThat(first).isNotZero().isNotEqualTo(second);
    assertThat(negative).isNotZero().isNotIn(first, second);
  }

  /**
   * A compiled policy outlives the request that made it, so the module's allocator frees block by
   * block: compiling, evaluating and releasing again and again reuses the same memory.
   */
  @Test
  void memoryStaysFlatOverCompileEvalReleaseCycles() {
    String compile =
        "{\"op\":\"compile\",\"files\":[{\"path\":\"kind.sigil\",\"source\":\"kind Door version 1\\n\\n"
            + "input floor: int\\n\\ndecision allow {\\n  reason: member\\n}\\n\\ncollect all\\n\"},"
            + "{\"path\":\"door/main.sigil\",\"source\":\"policy door.main: Door@1\\n\\n"
            + "when floor > 1 {\\n  allow(reason: member)\\n}\\n\"}]}";
    for (int i = 0; i < 200; i++) {
      compileEvalRelease(compile);
    }
    long warm = raw.memorySize();
    for (int i = 0; i < 10_000; i++) {
      compileEvalRelease(compile);
    }

    assertThat(raw.memorySize()).isEqualTo(warm);
  }

  private void compileEvalRelease(String compile) {
    String compiled = raw.call(compile);
    assertThat(compiled).startsWith("{\"ok\":true,");
    String handle = compiled.substring(compiled.lastIndexOf(':') + 1, compiled.length() - 1);
    String eval = raw.call("{\"op\":\"eval\",\"handle\":" + handle + ",\"input\":{\"floor\":3}}");
    assertThat(eval).contains("\"decision\":\"allow\"");
    assertThat(raw.call("{\"op\":\"release\",\"handle\":" + handle + "}")).isEqualTo("{\"ok\":true}");
  }

  @Test
  void memoryStaysFlatWhenTheHostFreesEveryBuffer() {
    for (int i = 0; i < 1_000; i++) {
      raw.call("{\"op\":\"version\"}");
    }
    long warm = raw.memorySize();
    for (int i = 0; i < 10_000; i++) {
      raw.call("{\"op\":\"version\"}");
    }

    assertThat(raw.memorySize()).isEqualTo(warm);
  }
}
