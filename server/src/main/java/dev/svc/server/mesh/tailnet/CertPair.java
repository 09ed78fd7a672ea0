package dev.svc.server.mesh.tailnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node certificate as the daemon issues it ({@code cert/<name>?type=pair}): the private key and
 * the certificate chain, leaf first, both PEM.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param keyPem the private key, an SEC1 {@code EC PRIVATE KEY} block
 * @param chainPem the certificate chain, leaf first
 */
public record CertPair(String keyPem, String chainPem) {

  private static final String KEY_MARKER = "PRIVATE KEY-----";
  private static final Pattern KEY_END =
      Pattern.compile("-----END [A-Z ]*PRIVATE KEY-----[^\\n]*(\\n|$)");

  @Override
  public String toString() {
    // The key never reaches a log through a record's generated toString.
    return "CertPair[chain of " + chainPem.length() + " chars]";
  }

  /**
   * Splits a {@code type=pair} answer: the key comes first, and ends with the first line that ends
   * a {@code PRIVATE KEY} block.
   *
   * @param pair the daemon's answer
   * @return the key and the chain
   * @throws IllegalArgumentException when the answer isn't a key followed by certificates
   */
  static CertPair split(String pair) {
    Matcher keyEnd = KEY_END.matcher(pair);
    if (!keyEnd.find()) {
      throw new IllegalArgumentException("no private key in the certificate answer");
    }
    int cut = keyEnd.end();
    String chain = pair.substring(cut);
    if (chain.contains(KEY_MARKER) || !chain.contains("-----BEGIN CERTIFICATE-----")) {
      throw new IllegalArgumentException("the certificate answer is not one key followed by certificates");
    }
    return new CertPair(pair.substring(0, cut), chain);
  }
}
