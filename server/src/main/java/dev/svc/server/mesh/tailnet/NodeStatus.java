package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What the server reads of the daemon's {@code GET /localapi/v0/status}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param state the backend state
 * @param authUrl the pending interactive-login URL; empty when none is pending
 * @param haveNodeKey true once the node has state (a node key)
 * @param tun false when the daemon runs with userspace networking, which forwards every inbound
 *     tailnet connection to the same port on 127.0.0.1
 * @param version the daemon's version
 * @param addresses the node's tailnet addresses; empty before login
 * @param dnsName the node's name without the trailing dot, such as {@code svc.tail-fake.ts.net};
 *     empty before login
 * @param hostName the host name the node reported
 * @param magicDnsEnabled whether the tailnet has MagicDNS on
 * @param certDomains the names the tailnet issues certificates for; empty when HTTPS is off
 */
public record NodeStatus(
    BackendState state,
    String authUrl,
    boolean haveNodeKey,
    boolean tun,
    String version,
    List<String> addresses,
    String dnsName,
    String hostName,
    boolean magicDnsEnabled,
    List<String> certDomains) {

  /**
   * Copies the lists.
   *
   * @param state the backend state
   * @param authUrl the pending login URL
   * @param haveNodeKey whether the node has a key
   * @param tun whether the daemon has a TUN device
   * @param version the daemon's version
   * @param addresses the tailnet addresses
   * @param dnsName the DNS name without the trailing dot
   * @param hostName the reported host name
   * @param magicDnsEnabled whether MagicDNS is on
   * @param certDomains the certificate names
   */
  public NodeStatus {
    addresses = List.copyOf(addresses);
    certDomains = List.copyOf(certDomains);
  }

  /**
   * Reads a status document.
   *
   * @param json the daemon's answer
   * @return the status
   * @throws IllegalArgumentException when a member has the wrong type or the state is unknown
   */
  static NodeStatus parse(JsonNode json) {
    String stateName = WireJson.text(json, "BackendState");
    BackendState state = BackendState.ofName(stateName)
        .orElseThrow(() -> new IllegalArgumentException("unknown `BackendState` \"" + stateName + "\""));
    JsonNode self = WireJson.object(json, "Self");
    JsonNode tailnet = WireJson.object(json, "CurrentTailnet");
    String dnsName = WireJson.text(self, "DNSName");
    return new NodeStatus(
        state,
        WireJson.text(json, "AuthURL"),
        WireJson.bool(json, "HaveNodeKey"),
        WireJson.bool(json, "TUN"),
        WireJson.text(json, "Version"),
        WireJson.texts(json, "TailscaleIPs"),
        dnsName.endsWith(".") ? dnsName.substring(0, dnsName.length() - 1) : dnsName,
        WireJson.text(self, "HostName"),
        WireJson.bool(tailnet, "MagicDNSEnabled"),
        WireJson.texts(json, "CertDomains"));
  }
}
