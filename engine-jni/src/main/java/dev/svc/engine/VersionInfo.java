package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * What the engine module reports about its own build (the {@code version} op). Values the build
 * didn't know are {@code "unknown"}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param version the engine's version, e.g. {@code v0.1.0}
 * @param commit the source commit it was built from
 * @param commitTime when that commit was made, RFC 3339
 * @param dirty whether the source had uncommitted changes
 * @param goVersion the compiler that built the module (the field keeps the reference's name), e.g.
 *     {@code rustc 1.96.0}
 * @param platform where the module runs: {@code wasip1/wasm}
 */
public record VersionInfo(
    @JsonProperty(value = "version", required = true) String version,
    @JsonProperty(value = "commit", required = true) String commit,
    @JsonProperty(value = "commitTime", required = true) String commitTime,
    @JsonProperty(value = "dirty", required = true) boolean dirty,
    @JsonProperty(value = "goVersion", required = true) String goVersion,
    @JsonProperty(value = "platform", required = true) String platform) {

  /**
   * Checks that every text field is present.
   *
   * @param version the engine's version
   * @param commit the source commit
   * @param commitTime when that commit was made, RFC 3339
   * @param dirty whether the source had uncommitted changes
   * @param goVersion the compiler that built the module
   * @param platform where the module runs
   */
  public VersionInfo {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(commitTime, "commitTime");
    Objects.requireNonNull(goVersion, "goVersion");
    Objects.requireNonNull(platform, "platform");
  }
}
