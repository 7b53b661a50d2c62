package com.bloceclat.common.security;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/**
 * Who a caller is for the per-client limits of every service (solver-service's rate limit, game-service's open games
 * and matches): a player by token subject ({@code subject:<sub>}), an anonymous caller by client address
 * ({@code address:<ip>}, an IPv6 address by its /64: {@link #ofAddress}). Behind a proxy the address is the one it forwards only when Quarkus trusts it
 * ({@code quarkus.http.proxy.*}, set for the Ingress in {@code k8s/config.yaml}); otherwise it is the proxy's.
 */
public final class ClientKey {

    private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+(%[0-9A-Za-z._-]+)?");

    private ClientKey() {
    }

    public static String of(SecurityIdentity identity, HttpServerRequest http) {
        if (identity != null && !identity.isAnonymous()) {
            return ofSubject(Caller.of(identity).subject());
        }
        SocketAddress address = http == null ? null : http.remoteAddress();
        return ofAddress(address == null ? null : address.hostAddress());
    }

    /**
     * The key of an anonymous caller at {@code hostAddress} (a literal address): an IPv4 address whole, an IPv6 one by
     * its first 64 bits, since one subscriber usually holds a whole /64 and can rotate through it at will (an IPv4
     * address mapped into IPv6 counts as the IPv4 address).
     */
    public static String ofAddress(String hostAddress) {
        if (hostAddress == null || hostAddress.isBlank()) {
            return "address:unknown";
        }
        if (hostAddress.indexOf(':') >= 0 && IPV6_LITERAL.matcher(hostAddress).matches()) {
            // only the characters of a literal IPv6 address: InetAddress parses it and never looks it up; a zone
            // (%eth0) is dropped, so that it cannot make one address many clients
            int zone = hostAddress.indexOf('%');
            try {
                InetAddress parsed = InetAddress.getByName(zone < 0 ? hostAddress : hostAddress.substring(0, zone));
                if (parsed instanceof Inet6Address) {
                    byte[] b = parsed.getAddress();
                    StringBuilder prefix = new StringBuilder("address:");
                    for (int i = 0; i < 8; i += 2) {
                        prefix.append(Integer.toHexString((b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF))).append(':');
                    }
                    return prefix.append(":/64").toString();
                }
                return "address:" + parsed.getHostAddress();
            } catch (UnknownHostException e) {
                return "address:invalid"; // not an address at all: one client for all such
            }
        }
        return "address:" + hostAddress;
    }

    /** The key of a logged-in player, by token subject: what {@link #of} gives for their requests. */
    public static String ofSubject(String subject) {
        return "subject:" + subject;
    }
}
