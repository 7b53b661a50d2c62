package com.bloceclat.common.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * Who a caller is for the per-client limits of every service (solver-service's rate limit, game-service's open games
 * and matches): a player by token subject ({@code subject:<sub>}), an anonymous caller by client address
 * ({@code address:<ip>}, an IPv6 address by its /64: {@link #ofAddress}). Behind a proxy the address is the one it forwards only when Quarkus trusts it
 * ({@code quarkus.http.proxy.*}, set for the Ingress in {@code k8s/config.yaml}), and then the last one in
 * {@code X-Forwarded-For} that no trusted proxy wrote, not the first, which the client may have written
 * ({@link ForwardedFor}); otherwise it is the proxy's.
 */
public final class ClientKey {

    private ClientKey() {
    }

    /**
     * The key of the caller of a request on the I/O thread, before any endpoint: the identity authentication has set on
     * the request (none for an anonymous caller), else its address.
     */
    public static String of(RoutingContext ctx) {
        return of(ctx.user() instanceof QuarkusHttpUser user ? user.getSecurityIdentity() : null, ctx.request());
    }

    public static String of(SecurityIdentity identity, HttpServerRequest http) {
        if (identity != null && !identity.isAnonymous()) {
            return ofSubject(Caller.of(identity).subject());
        }
        if (http == null) {
            return ofAddress(null);
        }
        SocketAddress resolved = http.remoteAddress();
        HttpConnection connection = http.connection();
        SocketAddress peer = connection == null ? null : connection.remoteAddress();
        String address = resolved == null ? null : resolved.hostAddress();
        Trusted trusted = Trusted.now();
        if (!trusted.forwarding()) {
            return ofAddress(address); // Quarkus reads no forwarding header: neither does this
        }
        return ofAddress(ForwardedFor.client(address, peer == null ? null : peer.hostAddress(), forwardedFor(http),
                trusted.ranges()));
    }

    /** Every {@code X-Forwarded-For} line, in order, as one list: a proxy may add a line of its own. */
    private static String forwardedFor(HttpServerRequest http) {
        List<String> lines = http.headers().getAll("X-Forwarded-For");
        return lines.isEmpty() ? null : String.join(",", lines);
    }

    /**
     * Whether Quarkus reads forwarding headers, and the proxies it trusts to write them: read again only when the
     * configuration is another (a test profile restarts the application in the same JVM).
     */
    private record Trusted(Config config, boolean forwarding, List<ForwardedFor.Range> ranges) {

        private static volatile Trusted current;

        static Trusted now() {
            Config config = ConfigProvider.getConfig();
            Trusted t = current;
            if (t == null || t.config != config) {
                t = new Trusted(config,
                        config.getOptionalValue("quarkus.http.proxy.proxy-address-forwarding", Boolean.class)
                                .orElse(false),
                        ForwardedFor.Range.parse(config.getOptionalValues("quarkus.http.proxy.trusted-proxies",
                                String.class).orElse(List.of())));
                current = t;
            }
            return t;
        }
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
        byte[] b = AddressLiteral.parse(hostAddress);
        if (b == null) {
            // not an address: one client for every such IPv6-looking text, and for every text longer than an address
            // or with other than printable ASCII (what a trusted proxy may pass on from a client inside the trusted
            // ranges: keyed as it was, 400 characters made a key no column holds, a 500); anything else as it is
            return AddressLiteral.ipv6Syntax(hostAddress) || !shortPrintable(hostAddress) ? "address:invalid"
                    : "address:" + hostAddress;
        }
        if (b.length == 4) {
            try {
                return "address:" + InetAddress.getByAddress(b).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e); // four bytes are always an address
            }
        }
        StringBuilder prefix = new StringBuilder("address:");
        for (int i = 0; i < 8; i += 2) {
            prefix.append(Integer.toHexString((b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF))).append(':');
        }
        return prefix.append(":/64").toString();
    }

    /** The longest text kept as an address key: a host name and port, or what a proxy writes for none (unknown). */
    static final int MAX_ADDRESS_TEXT = 64;

    private static boolean shortPrintable(String text) {
        return text.length() <= MAX_ADDRESS_TEXT && text.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    /** The key of a logged-in player, by token subject: what {@link #of} gives for their requests. */
    public static String ofSubject(String subject) {
        return "subject:" + subject;
    }
}
