package dev.svc.server.mesh.tailnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeLoginTest {

  @Test
  void the_key_comes_from_mesh_authkey_trimmed_and_is_empty_without_it() {
    assertThat(NodeLogin.fromEnvironment(Map.of("MESH_AUTHKEY", " tskey-auth-k1 \n")).authKey()).isEqualTo("tskey-auth-k1");
    assertThat(NodeLogin.fromEnvironment(Map.of()).authKey()).isEmpty();
    // tailscale's own variable is not ours: only MESH_AUTHKEY registers the node.
    assertThat(NodeLogin.fromEnvironment(Map.of("TS_AUTHKEY", "tskey-auth-k2")).authKey()).isEmpty();
  }

  @Test
  void mesh_force_login_is_on_for_1_true_and_TRUE_only() {
    for (String on : new String[] {"1", "true", "TRUE"}) {
      assertThat(NodeLogin.fromEnvironment(Map.of("MESH_FORCE_LOGIN", on)).forceLogin()).as(on).isTrue();
    }
    for (String off : new String[] {"", "0", "yes", "True", "false", " 1"}) {
      assertThat(NodeLogin.fromEnvironment(Map.of("MESH_FORCE_LOGIN", off)).forceLogin()).as(off).isFalse();
    }
    assertThat(NodeLogin.fromEnvironment(Map.of()).forceLogin()).isFalse();
  }
}
