package dev.svc.engine;

/**
 * How a {@link EngineModule} is compiled. It is fixed for the module's life: every instance built from it
 * shares it.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param fuel meter WebAssembly instructions so a call can be bounded by fuel; costs a few percent
 *     of speed, so it is off by default
 */
public record ModuleConfig(boolean fuel) {

  /**
   * The default configuration: no fuel metering.
   *
   * @return the defaults
   */
  public static ModuleConfig defaults() {
    return new ModuleConfig(false);
  }

  /**
   * A copy with fuel metering switched on or off.
   *
   * @param fuel whether to meter fuel
   * @return the new configuration
   */
  public ModuleConfig withFuel(boolean fuel) {
    return new ModuleConfig(fuel);
  }
}
