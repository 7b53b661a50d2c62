package com.bloceclat.game.live;

import jakarta.enterprise.context.ApplicationScoped;

import com.bloceclat.common.security.ClientKey;

import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * At each socket's upgrade, keeps who the caller is for the per-client limits ({@link ClientKey}: a player by token
 * subject, a guest by address, the one a trusted proxy forwards, as REST calls are keyed) in the connection's user
 * data, where {@link MatchSocket} counts the client's sockets. Only the upgrade's HTTP request has the forwarded
 * address; the socket itself knows only the proxy's.
 */
@ApplicationScoped
public class SocketClients implements HttpUpgradeCheck {

    private static final UserData.TypedKey<String> CLIENT = UserData.TypedKey.forString("bloc.client");

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        return context.securityIdentity().map(identity -> {
            context.userData().put(CLIENT, ClientKey.of(identity, context.httpRequest()));
            return CheckResult.permitUpgradeSync();
        });
    }

    /** The connection's client, as its upgrade was keyed. */
    static String of(WebSocketConnection connection) {
        String client = connection.userData().get(CLIENT);
        return client == null ? ClientKey.ofAddress(null) : client;
    }
}
