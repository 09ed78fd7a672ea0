package dev.svc.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerAddressTest {

  @ParameterizedTest(name = "{0} + {1} + {2} -> {3}")
  @CsvSource(delimiter = '|', textBlock = """
      svc                 |                      | 443  | https://svc:443
      svc                 |                      | 8080 | http://svc:8080
      svc                 | corp-example.ts.net  | 443  | https://svc.corp-example.ts.net:443
      svc                 | .corp-example.ts.net | 443  | https://svc.corp-example.ts.net:443
      http://svc          |                      | 443  | http://svc:443
      https://svc         |                      | 8080 | https://svc:8080
      https://svc         | corp-example.ts.net  | 8443 | https://svc.corp-example.ts.net:8443
      """)
  void the_url_has_scheme_host_tailnet_and_always_the_port(String hostname, String tailnet, int port, String url) {
    ServerAddress address = new ServerAddress(hostname, tailnet == null ? "" : tailnet, port);

    assertThat(address.url()).isEqualTo(url);
    assertThat(address.api("/login")).hasToString(url + "/api/v1alpha1/login");
  }
}
