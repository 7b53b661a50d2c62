package com.bloceclat.common.security;

import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/**
 * Who a caller is for the per-client limits of every service (solver-service's rate limit, game-service's open games
 * and matches): a player by token subject ({@code subject:<sub>}), an anonymous caller by client address
 * ({@code address:<ip>}). Behind a proxy the address is the one it forwards only when Quarkus trusts it
 * ({@code quarkus.http.proxy.*}, set for the Ingress in {@code k8s/config.yaml}); otherwise it is the proxy's.
 */
public final class ClientKey {

    private ClientKey() {
    }

    public static String of(SecurityIdentity identity, HttpServerRequest http) {
        if (identity != null && !identity.isAnonymous()) {
            return "subject:" + Caller.of(identity).subject();
        }
        SocketAddress address = http == null ? null : http.remoteAddress();
        return "address:" + (address == null ? "unknown" : address.hostAddress());
    }
}
