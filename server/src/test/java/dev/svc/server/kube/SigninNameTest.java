package dev.svc.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Object names of spec §5.2: DNS-1123, derived in one place. */
class SigninNameTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "dana, dana",
      "Dana_Smith, dana-smith",
      "dana.smith, dana.smith",
      "'  --Dana++ ', dana",
      "jürgen, j-rgen",
      "a, a",
  })
  void a_username_maps_to_a_dns_name(String username, String name) {
    SigninName names = SigninName.of(username).orElseThrow();

    assertThat(names.name()).isEqualTo(name);
    assertThat(names.signin()).isEqualTo("svc-user-" + name);
    assertThat(names.serviceAccount()).isEqualTo("svc-user-" + name);
    assertThat(names.binding()).isEqualTo("svc-user-" + name + "-binding");
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource({"''", "___", "'-.-'", "@"})
  void a_username_without_letters_or_digits_has_no_name(String username) {
    assertThat(SigninName.of(username)).isEmpty();
  }

  @Test
  void the_signin_name_fits_a_label_value_of_63_characters_and_no_more() {
    assertThat(SigninName.of("a".repeat(54)).orElseThrow().signin()).hasSize(63);
    assertThat(SigninName.of("a".repeat(55))).isEmpty();
    assertThat(SigninName.of("__" + "a".repeat(54) + "__")).as("trimmed first").isPresent();
  }

  @Test
  void an_objects_name_gives_back_its_names() {
    assertThat(SigninName.ofObject("svc-user-dana-smith")).isEqualTo(Optional.of(new SigninName("dana-smith")));
    assertThat(SigninName.ofObject("other")).isEmpty();
    assertThat(SigninName.ofObject("svc-user-")).isEmpty();
  }
}
