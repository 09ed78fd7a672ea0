package dev.svc.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.AbiCodec;
import java.io.IOException;

/** Answers the module's host calls ({@code engine.host_call}) with {@code {"result": …}} or {@code {"error": …}}. */
final class HostCalls {

  private HostCalls() {}

  /** The answer while no host functions are registered: each call names the function it missed. */
  static byte[] unregistered(byte[] request) {
    try {
      JsonNode call = AbiCodec.MAPPER.readTree(request);
      String function = call.path("function").asText("");
      return AbiCodec.hostError("no host function " + function + " is registered");
    } catch (IOException e) {
      return AbiCodec.hostError("the module's host call isn't readable: " + e.getMessage());
    }
  }
}
