package dev.svc.server.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.SvcConfig;
import dev.svc.server.testkit.LogCapture;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;

class DevMeshTest {

  private static final SvcConfig.Mesh CONFIG = new SvcConfig.Mesh("svc", 443, "", "", "svc.dev/cap/svc",
      SvcConfig.MeshMode.DEV, "", "tailscaled", "", true,
      new SvcConfig.DevCaller("dana@corp.example", List.of(new GrantRule("admin", "45m", 3))));

  @Test
  void it_listens_on_loopback_in_plain_http_whatever_the_port_and_says_loudly_what_it_is() {
    try (LogCapture logs = LogCapture.of(DevMesh.class.getName())) {
      List<HttpServerOptions> listeners = new DevMesh(CONFIG).listenOptions(new HttpServerOptions().setSsl(true)).result();

      assertThat(listeners).hasSize(1);
      HttpServerOptions options = listeners.get(0);

      assertThat(options.getHost()).isEqualTo("127.0.0.1");
      assertThat(options.getPort()).isEqualTo(443);
      assertThat(options.isSsl()).isFalse();
      LogRecord warning = logs.records().get(0);
      assertThat(warning.getLevel()).isEqualTo(Level.WARNING);
      assertThat(new SimpleFormatter().formatMessage(warning)).isEqualTo("mesh mode dev: no tailnet; every caller on"
          + " this machine is dana@corp.example with the grants [{\"role\":\"admin\",\"period\":\"45m\",\"priority\":3}]"
          + " of svc.dev/cap/svc. Never use mesh mode dev in production");
    }
  }

  @Test
  void every_caller_is_the_dev_login_with_the_dev_grants() {
    Caller caller = new DevMesh(CONFIG).whoIs(SocketAddress.inetSocketAddress(40001, "127.0.0.1")).result();

    assertThat(caller.loginName()).isEqualTo("dana@corp.example");
    assertThat(caller.tags()).isEmpty();
    assertThat(caller.grants("svc.dev/cap/svc")).singleElement().hasToString(
        "{\"role\":\"admin\",\"period\":\"45m\",\"priority\":3}");
    assertThat(new DevMesh(CONFIG).status()).isEqualTo(
        new MeshStatus(true, "mesh node is in Running state (mesh mode dev: no tailnet)"));
  }
}
