package dev.svc.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.HostCallCodec;
import dev.svc.engine.internal.HostCallHandler;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One instance's answers to the module's host calls ({@code engine.host_call}, bindings.md §3):
 * {@code {"result": …}} from the host functions of the policy being evaluated, or {@code {"error":
 * …}}. The functions are installed only while an evaluation runs.
 */
final class HostCalls implements HostCallHandler {

  // Written by the thread that holds the engine's lock; read by the thread the module runs on,
  // which is that same thread or the stack helper it waits for.
  private volatile Map<String, HostFunction> functions = Map.of();
  private volatile Thread running;

  /** Installs {@code installed} for one evaluation; {@link #clear()} ends it. */
  void install(Map<String, HostFunction> installed) {
    functions = installed;
  }

  /** Ends an evaluation: no host function answers until the next {@link #install(Map)}. */
  void clear() {
    functions = Map.of();
  }

  /** Whether {@code thread} is running one of this instance's host functions right now. */
  boolean runsOn(Thread thread) {
    return running == thread;
  }

  @Override
  public byte[] hostCall(byte[] request) {
    HostCallCodec.Call call;
    try {
      call = HostCallCodec.read(request);
    } catch (IOException e) {
      return AbiCodec.hostError("the module's host call isn't readable: " + e.getMessage());
    }
    HostFunction function = functions.get(call.function());
    if (function == null) {
      return AbiCodec.hostError("no host function " + call.function() + " is registered");
    }
    return run(function, call.args());
  }

  private byte[] run(HostFunction function, List<JsonNode> args) {
    JsonNode result;
    running = Thread.currentThread();
    try {
      result = function.call(args);
    } catch (VirtualMachineError fatal) {
      throw fatal;
    } catch (Throwable e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return AbiCodec.hostError(messageOf(e));
    } finally {
      running = null;
    }
    try {
      return HostCallCodec.answer(result);
    } catch (IOException e) {
      return AbiCodec.hostError(TypedCalls.UNENCODABLE_RESULT + e.getMessage());
    }
  }

  // The engine's own exceptions give their message without the help Throwable.getMessage adds.
  private static String messageOf(Throwable e) {
    String message = e instanceof SvcException svc ? svc.message() : e.getMessage();
    return message != null ? message : e.getClass().getName();
  }
}
